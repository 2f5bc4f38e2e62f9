/* prop.c: evaluating a condition's proposition.  Where the values
 * come from (an execution's final state, a recorded state, a hardware
 * histogram line) is the caller's business, through `value_of`. */
#include "litmus/litmus.h"

bool sci_prop_holds(const sc_prop *p, sc_lval_value_fn value_of, void *ctx) {
  switch (p->kind) {
  case SC_PROP_TRUE: return true;
  case SC_PROP_FALSE: return false;
  case SC_PROP_EQ: return value_of(&p->lhs, ctx) == value_of(&p->rhs, ctx);
  case SC_PROP_NE: return value_of(&p->lhs, ctx) != value_of(&p->rhs, ctx);
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
  if (p->kind == SC_PROP_EQ || p->kind == SC_PROP_NE) {
    fn(&p->lhs, ctx);
    fn(&p->rhs, ctx);
  }
  sci_prop_each_lval(p->a, fn, ctx);
  sci_prop_each_lval(p->b, fn, ctx);
}
