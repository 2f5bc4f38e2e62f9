/* prop.c: evaluating a condition's proposition.  Where the values
 * come from (an execution's final state, a recorded state, a hardware
 * histogram line) is the caller's business, through `value_of`. */
#include "litmus/litmus.h"

bool sci_prop_is_comparison(const sc_prop *p) {
  switch (p->kind) {
  case SC_PROP_EQ: case SC_PROP_NE: case SC_PROP_LT: case SC_PROP_LE:
  case SC_PROP_GT: case SC_PROP_GE: return true;
  default: return false;
  }
}

bool sci_prop_compare(sc_prop_kind kind, int64_t a, int64_t b) {
  switch (kind) {
  case SC_PROP_EQ: return a == b;
  case SC_PROP_NE: return a != b;
  case SC_PROP_LT: return a < b;
  case SC_PROP_LE: return a <= b;
  case SC_PROP_GT: return a > b;
  case SC_PROP_GE: return a >= b;
  default: return false;
  }
}

bool sci_prop_holds(const sc_prop *p, sc_lval_value_fn value_of, void *ctx) {
  switch (p->kind) {
  case SC_PROP_TRUE: return true;
  case SC_PROP_FALSE: return false;
  case SC_PROP_EQ: case SC_PROP_NE: case SC_PROP_LT: case SC_PROP_LE:
  case SC_PROP_GT: case SC_PROP_GE:
    return sci_prop_compare(p->kind, value_of(&p->lhs, ctx), value_of(&p->rhs, ctx));
  case SC_PROP_NOT: return !sci_prop_holds(p->a, value_of, ctx);
  case SC_PROP_AND:
    return sci_prop_holds(p->a, value_of, ctx) && sci_prop_holds(p->b, value_of, ctx);
  case SC_PROP_OR:
    return sci_prop_holds(p->a, value_of, ctx) || sci_prop_holds(p->b, value_of, ctx);
  case SC_PROP_IMPLIES:
    return !sci_prop_holds(p->a, value_of, ctx) || sci_prop_holds(p->b, value_of, ctx);
  }
  return false;
}

void sci_prop_each_lval(const sc_prop *p, void (*fn)(const sc_lval *, void *),
                       void *ctx) {
  if (!p)
    return;
  if (sci_prop_is_comparison(p)) {
    fn(&p->lhs, ctx);
    fn(&p->rhs, ctx);
  }
  sci_prop_each_lval(p->a, fn, ctx);
  sci_prop_each_lval(p->b, fn, ctx);
}
