/* error.h: the library's error value (struct sc_error of the public header)
 * and the helpers that make one.  Errors carry a status, a position and a
 * message; they never print and never exit. */
#ifndef SC_ERROR_H
#define SC_ERROR_H

#include "scopecat.h"

struct sc_error {
  sc_status status;
  const char *file; /* may be NULL */
  int line, col;    /* 1-based; 0 when unknown */
  const char *what; /* the message without its position */
  const char *text; /* "file:line:col: what" */
};

sc_error *sci_error_new(sc_status status, const char *file, int line, int col,
                       const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Store a new error in *err (when err is not NULL) and return its status. */
sc_status sci_fail(sc_error **err, sc_status status, const char *file, int line,
                  int col, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

#endif
