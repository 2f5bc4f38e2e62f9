/* context.c: the bottom services of one evaluation's context (cat_ctx):
 * errors (the first one recorded wins), the deadline of one execution, and
 * the constants every part of the interpreter shares (id, the universal
 * relation, all events).  Below value.c, eval.c, prim.c and run.c, which
 * all call it. */
#include "cat/interp.h"

#include "util/error.h"
#include "util/gcmem.h"

#include <stdarg.h>

static sc_cat_value *vfail(cat_ctx *c, sc_status st, const char *file, int line,
                           int col, const char *fmt, va_list ap) {
  if (!c->error) {
    char *what = sci_vprintf(fmt, ap);
    c->error = sci_error_new(st, file, line, col, "%s", what);
  }
  return NULL;
}

sc_cat_value *sci_cat_fail(cat_ctx *c, sc_status st, const char *file, int line,
                          int col, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfail(c, st, file, line, col, fmt, ap);
  va_end(ap);
  return NULL;
}

sc_cat_value *sci_cat_fail_at(cat_ctx *c, const sc_cat_exp *e, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfail(c, SC_ERR_SEMANTIC, e->file, e->line, e->col, fmt, ap);
  va_end(ap);
  return NULL;
}


const sc_rel *sci_cat_id(cat_ctx *c) {
  if (!c->id) {
    sc_rel *r = sci_rel_new(c->n);
    sci_rel_identity(r, NULL);
    c->id = r;
  }
  return c->id;
}

const sc_rel *sci_cat_unv(cat_ctx *c) {
  if (!c->unv) {
    sc_rel *r = sci_rel_new(c->n);
    sci_rel_fill(r);
    c->unv = r;
  }
  return c->unv;
}

const sc_set *sci_cat_all(cat_ctx *c) {
  if (!c->all) {
    sc_set *s = sci_set_new(c->n);
    sci_set_fill(s);
    c->all = s;
  }
  return c->all;
}

bool sci_cat_out_of_time(cat_ctx *c, bool now, const char *file, int line,
                        int col) {
  if (c->deadline <= 0 || (!now && (++c->ticks & 255) != 0))
    return false;
  if (sc_seconds() <= c->deadline)
    return false;
  sci_cat_fail(c, SC_ERR_LIMIT, file, line, col,
              "expected the model to finish an execution within %g s (the "
              "-timeout limit), found it still running here", c->timeout);
  return true;
}
