/* equal.c: whether two parsed tests are the same test.  Names, not
 * indices, are compared (a reparse may number locations and registers in
 * another order), placement is compared as the partition it induces at
 * each level, and doc lines and source positions are ignored.  The
 * dialect counts: it decides the default model and what a PTX test's
 * accesses mean, so a test read in the other dialect is another test. */
#include "litmus/litmus.h"

#include <string.h>

typedef struct pair {
  const sc_test *a, *b;
} pair;

static bool same_str(const char *x, const char *y) { return strcmp(x, y) == 0; }

static bool same_value(pair p, sc_value x, sc_value y) {
  if (x.kind != y.kind)
    return false;
  if (x.kind == SC_VAL_INT)
    return x.i == y.i;
  return same_str(p.a->locs[x.loc].name, p.b->locs[y.loc].name);
}

static const sc_location *find_loc(const sc_test *t, const char *name) {
  int l = sci_test_find_location(t, name);
  return l >= 0 ? &t->locs[l] : NULL;
}

static bool same_locations(pair p) {
  if (p.a->nlocs != p.b->nlocs)
    return false;
  for (int l = 0; l < p.a->nlocs; l++) {
    const sc_location *x = &p.a->locs[l];
    const sc_location *y = find_loc(p.b, x->name);
    if (!y || x->region != y->region || x->proxy != y->proxy ||
        (x->alias_of < 0) != (y->alias_of < 0) ||
        !same_value(p, x->init, y->init))
      return false;
    if (x->alias_of >= 0 && !same_str(p.a->locs[x->alias_of].name,
                                      p.b->locs[y->alias_of].name))
      return false;
  }
  return true;
}

static bool same_operand(pair p, const sc_thread *ta, const sc_thread *tb,
                         sc_operand x, sc_operand y) {
  if (x.kind != y.kind)
    return false;
  switch (x.kind) {
  case SC_OPND_NONE: return true;
  case SC_OPND_IMM: return x.imm == y.imm;
  case SC_OPND_REG: return same_str(ta->regs[x.index].name, tb->regs[y.index].name);
  case SC_OPND_LOC: return same_str(p.a->locs[x.index].name, p.b->locs[y.index].name);
  }
  return false;
}

static bool same_instr(pair p, const sc_thread *ta, const sc_thread *tb,
                       const sc_instr *x, const sc_instr *y) {
  if (x->op != y->op || x->sem != y->sem || x->scope != y->scope ||
      x->space != y->space || x->cacheop != y->cacheop || x->type != y->type ||
      x->type2 != y->type2 || x->atomop != y->atomop || x->cmp != y->cmp ||
      x->proxy != y->proxy || x->barmode != y->barmode ||
      x->bar_cta != y->bar_cta || x->bar_long != y->bar_long ||
      x->aligned != y->aligned || x->uni != y->uni ||
      x->guard_negated != y->guard_negated || x->nsrc != y->nsrc ||
      (x->guard < 0) != (y->guard < 0) || (x->target < 0) != (y->target < 0))
    return false;
  if (x->guard >= 0 &&
      !same_str(ta->regs[x->guard].name, tb->regs[y->guard].name))
    return false;
  if (x->target >= 0 &&
      !same_str(ta->labels[x->target].name, tb->labels[y->target].name))
    return false;
  if (!same_operand(p, ta, tb, x->dst, y->dst))
    return false;
  if (sci_instr_is_access(x) &&
      (x->addr.offset != y->addr.offset ||
       !same_operand(p, ta, tb, x->addr.base, y->addr.base)))
    return false;
  for (int i = 0; i < x->nsrc; i++)
    if (!same_operand(p, ta, tb, x->src[i], y->src[i]))
      return false;
  return true;
}

static bool same_thread(pair p, const sc_thread *x, const sc_thread *y) {
  if (x->nregs != y->nregs || x->ninstrs != y->ninstrs ||
      x->nlabels != y->nlabels)
    return false;
  for (int r = 0; r < x->nregs; r++) {
    int k = sci_thread_find_register(y, x->regs[r].name);
    if (k < 0 || x->regs[r].type != y->regs[k].type ||
        !same_value(p, x->regs[r].init, y->regs[k].init))
      return false;
  }
  for (int l = 0; l < x->nlabels; l++) {
    bool found = false;
    for (int k = 0; k < y->nlabels && !found; k++)
      found = same_str(x->labels[l].name, y->labels[k].name) &&
              x->labels[l].pc == y->labels[k].pc;
    if (!found)
      return false;
  }
  for (int i = 0; i < x->ninstrs; i++)
    if (!same_instr(p, x, y, &x->code[i], &y->code[i]))
      return false;
  return true;
}

/* Same partition of threads into instances at every level. */
static bool same_placement(pair p) {
  int n = p.a->nthreads;
  for (int lv = 0; lv < SC_LEVEL_THREAD; lv++)
    for (int i = 0; i < n; i++)
      for (int j = i + 1; j < n; j++) {
        bool sa = p.a->threads[i].place[lv] == p.a->threads[j].place[lv];
        bool sb = p.b->threads[i].place[lv] == p.b->threads[j].place[lv];
        if (sa != sb)
          return false;
      }
  return true;
}

static bool same_lval(pair p, const sc_lval *x, const sc_lval *y) {
  if (x->kind != y->kind)
    return false;
  switch (x->kind) {
  case SC_LVAL_CONST: return x->constant == y->constant;
  case SC_LVAL_LOC:
  case SC_LVAL_ADDR: return same_str(p.a->locs[x->loc].name, p.b->locs[y->loc].name);
  case SC_LVAL_REG:
    return x->thread == y->thread &&
           same_str(p.a->threads[x->thread].regs[x->reg].name,
                    p.b->threads[y->thread].regs[y->reg].name);
  }
  return false;
}

static bool same_prop(pair p, const sc_prop *x, const sc_prop *y) {
  if (!x || !y)
    return x == y;
  if (x->kind != y->kind)
    return false;
  switch (x->kind) {
  case SC_PROP_TRUE:
  case SC_PROP_FALSE: return true;
  case SC_PROP_EQ: case SC_PROP_NE: case SC_PROP_LT: case SC_PROP_LE:
  case SC_PROP_GT: case SC_PROP_GE:
    return same_lval(p, &x->lhs, &y->lhs) && same_lval(p, &x->rhs, &y->rhs);
  case SC_PROP_NOT: return same_prop(p, x->a, y->a);
  case SC_PROP_AND:
  case SC_PROP_OR:
  case SC_PROP_IMPLIES:
    return same_prop(p, x->a, y->a) && same_prop(p, x->b, y->b);
  }
  return false;
}

int sci_litmus_equal(const sc_test *a, const sc_test *b) {
  pair p = {a, b};
  if (a->dialect != b->dialect || !same_str(a->name, b->name) ||
      a->nthreads != b->nthreads ||
      a->quant != b->quant || a->nobserved != b->nobserved ||
      !same_locations(p) || !same_placement(p))
    return 0;
  for (int i = 0; i < a->nthreads; i++)
    if (!same_thread(p, &a->threads[i], &b->threads[i]))
      return 0;
  for (int i = 0; i < a->nobserved; i++)
    if (!same_lval(p, &a->observed[i], &b->observed[i]))
      return 0;
  return same_prop(p, a->filter, b->filter) && same_prop(p, a->cond, b->cond);
}
