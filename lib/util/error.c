/* error.c: building and reading sc_error values. */
#include "util/error.h"

#include "util/gcmem.h"

#include <stdarg.h>

static sc_error *verror(sc_status status, const char *file, int line, int col,
                        const char *fmt, va_list ap) {
  sc_error *e = sci_alloc(sizeof *e);
  e->status = status;
  e->file = file ? sci_strdup(file) : NULL;
  e->line = line;
  e->col = col;
  e->what = sci_vprintf(fmt, ap);
  if (file && line > 0)
    e->text = sci_printf("%s:%d:%d: %s", file, line, col > 0 ? col : 1, e->what);
  else if (file)
    e->text = sci_printf("%s: %s", file, e->what);
  else
    e->text = e->what;
  return e;
}

sc_error *sci_error_new(sc_status status, const char *file, int line, int col,
                       const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sc_error *e = verror(status, file, line, col, fmt, ap);
  va_end(ap);
  return e;
}

sc_status sci_fail(sc_error **err, sc_status status, const char *file, int line,
                  int col, const char *fmt, ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    *err = verror(status, file, line, col, fmt, ap);
    va_end(ap);
  }
  return status;
}

const char *sc_status_string(sc_status status) {
  switch (status) {
  case SC_OK: return "ok";
  case SC_ERR_IO: return "i/o error";
  case SC_ERR_SYNTAX: return "syntax error";
  case SC_ERR_SEMANTIC: return "semantic error";
  case SC_ERR_UNSUPPORTED: return "unsupported";
  case SC_ERR_LIMIT: return "limit reached";
  case SC_ERR_USAGE: return "bad usage";
  }
  return "unknown status";
}

sc_status sc_error_status(const sc_error *e) { return e ? e->status : SC_OK; }
const char *sc_error_message(const sc_error *e) { return e ? e->text : ""; }
const char *sc_error_file(const sc_error *e) { return e ? e->file : NULL; }
int sc_error_line(const sc_error *e) { return e ? e->line : 0; }
int sc_error_column(const sc_error *e) { return e ? e->col : 0; }
