/* file.c: reading a whole file into GC memory (file.h), and the public
 * sc_read_file, which turns a failure into an sc_error with the generic
 * messages a client such as the CLI prints. */
#include "util/file.h"

#include "util/error.h"
#include "util/gcmem.h"
#include "util/oom.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

sc_file_failure sci_file_read(const char *path, size_t max_bytes, char **text,
                             size_t *len, int *errnum) {
  *text = NULL;
  *len = 0;
  FILE *f = fopen(path, "rb");
  if (!f) {
    *errnum = errno;
    return SC_FILE_CANNOT_OPEN;
  }
  size_t cap = 4096, n = 0;
  char *buf = sci_alloc_atomic(cap);
  sc_file_failure why = SC_FILE_READ;
  for (;;) {
    if (n + 1 >= cap) {
      char *bigger = sci_alloc_atomic(cap * 2);
      memcpy(bigger, buf, n);
      buf = bigger;
      cap *= 2;
    }
    size_t got = fread(buf + n, 1, cap - n - 1, f);
    n += got;
    if (max_bytes && n > max_bytes) {
      why = SC_FILE_TOO_LARGE;
      break;
    }
    if (got == 0)
      break;
  }
  if (why == SC_FILE_READ && ferror(f))
    why = SC_FILE_CANNOT_READ;
  fclose(f);
  if (why != SC_FILE_READ)
    return why;
  buf[n] = '\0';
  *text = buf;
  *len = n;
  return SC_FILE_READ;
}

sc_status sci_file_fail(sc_file_failure why, const char *path, int errnum,
                       size_t max_bytes, const char *cannot_read,
                       const char *too_large, sc_error **err) {
  switch (why) {
  case SC_FILE_READ:
    break;
  case SC_FILE_CANNOT_OPEN:
    return sci_fail(err, SC_ERR_IO, path, 0, 0, "cannot open: %s", strerror(errnum));
  case SC_FILE_CANNOT_READ:
    return sci_fail(err, SC_ERR_IO, path, 0, 0, "%s", cannot_read);
  case SC_FILE_TOO_LARGE:
    return sci_fail(err, SC_ERR_LIMIT, path, 0, 0, "%s",
                   sci_printf(too_large, max_bytes));
  }
  return SC_OK;
}

static sc_status read_file_unguarded(const char *path, size_t max_bytes,
                                     char **text, size_t *len, sc_error **err) {
  sci_gc_init();
  size_t n = 0;
  int errnum = 0;
  *text = NULL;
  if (len)
    *len = 0;
  sc_file_failure why = sci_file_read(path, max_bytes, text, &n, &errnum);
  if (why)
    return sci_file_fail(why, path, errnum, max_bytes, "cannot read",
                        "expected at most %zu bytes", err);
  if (len)
    *len = n;
  return SC_OK;
}

sc_status sc_read_file(const char *path, size_t max_bytes, char **text,
                       size_t *len, sc_error **err) {
  sc_oom_guard g;
  if (!SC_OOM_ENTER(g))
    return sci_oom_fail(&g, path, err);
  sc_status st = read_file_unguarded(path, max_bytes, text, len, err);
  sci_oom_leave(&g);
  return st;
}
