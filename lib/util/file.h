/* file.h: the library's one whole-file reader.  It reads; what a failure
 * means to the reader's user (a litmus test, a model, a log) is the
 * caller's message, so it reports the failure as a kind, not as text. */
#ifndef SC_FILE_H
#define SC_FILE_H

#include "scopecat.h"

#include <stddef.h>

typedef enum sc_file_failure {
  SC_FILE_READ = 0,     /* read whole */
  SC_FILE_CANNOT_OPEN,  /* *errnum says why */
  SC_FILE_CANNOT_READ,  /* a read failed midway */
  SC_FILE_TOO_LARGE     /* more than max_bytes bytes */
} sc_file_failure;

/* Read `path` whole into a NUL-terminated GC string (*text, *len bytes
 * before the NUL).  Stops reading past `max_bytes` (0: no limit).  On
 * SC_FILE_CANNOT_OPEN, *errnum holds errno. */
sc_file_failure sci_file_read(const char *path, size_t max_bytes, char **text,
                             size_t *len, int *errnum);

/* The error for a read that failed with `why`, in the caller's words:
 * `cannot_read` when a read failed midway, `too_large` (a printf format
 * given `max_bytes` as a size_t) past the limit; "cannot open: REASON"
 * when it could not be opened.  Returns the status. */
sc_status sci_file_fail(sc_file_failure why, const char *path, int errnum,
                       size_t max_bytes, const char *cannot_read,
                       const char *too_large, sc_error **err);

#endif
