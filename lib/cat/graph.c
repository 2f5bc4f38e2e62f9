/* graph.c: the lowering of a model into a graph of set and relation nodes
 * (graph.h), the one place where the symbolic road decides herd's typing
 * and the structure of `let rec`.
 *
 * Design.  The lowering runs the model's instructions once, as the
 * interpreter would, but over types instead of values: a lowering value is
 * {} or _ (still polymorphic), an event set or a relation (a node), a
 * function (its syntax and environment: applications are inlined), a
 * tuple or a procedure.  Lets stay lazy, as herd's are, so a binding the
 * tests never reach is never lowered (nor its errors reported).  Nodes are
 * hash-consed: one node per operator and operands, so that a value built
 * twice (the same function applied to the same argument, a name used by
 * several tests) is one node that a visitor computes once.
 *
 * A `let rec` of values becomes a fixpoint (sc_cat_fix): its names' types
 * are found by lowering the bodies until they stop changing (from {}, as
 * herd's iteration starts), then the bodies are lowered once more over
 * the names' round values (CN_FIXVAR), and the names denote the fixpoint
 * (CN_FIX).  The shape X = A | X;B;X (ptx-v6.0.cat's observation) needs no
 * iteration: it is A;(B;A)*.  A non-monotone let rec is refused: its Kleene
 * iteration need not be herd's.
 *
 * What the graph cannot express (tags, explicit sets, match, forall, enum,
 * `with x from S` over a name the model binds...) is SC_ERR_UNSUPPORTED
 * with its file:line; errors of the model carry the same file:line:col as
 * the interpreter's (eval.c) for the same mistake.  The lowering stops at
 * the first error and records it after the tests before it, so that a
 * visitor reports the errors in the order the interpreter meets them. */
#define _POSIX_C_SOURCE 200809L
#include "cat/graph.h"

#include "util/error.h"
#include "util/gcmem.h"
#include "util/strbuf.h"

#include <stdint.h>
#include <string.h>

/* ---- Nodes, shared -------------------------------------------------------- */

struct sc_cat_node_table {
  sc_cat_node **slots;
  int cap, count; /* cap: a power of two, or 0 */
};

static unsigned node_hash(sc_cat_node_kind k, bool is_set, const sc_cat_node *a,
                          const sc_cat_node *b, int index, const sc_cat_fix *fix) {
  uintptr_t h = (uintptr_t)k * 31u + (uintptr_t)is_set;
  h = h * 1000003u ^ (a ? (uintptr_t)a->id + 1 : 0);
  h = h * 1000003u ^ (b ? (uintptr_t)b->id + 1 : 0);
  h = h * 1000003u ^ (uintptr_t)(unsigned)index;
  h = h * 1000003u ^ ((uintptr_t)fix >> 4);
  return (unsigned)(h ^ (h >> 16)) * 2654435761u;
}

static bool node_is(const sc_cat_node *n, sc_cat_node_kind k, bool is_set,
                    const sc_cat_node *a, const sc_cat_node *b, int index,
                    const sc_cat_fix *fix) {
  return n->kind == k && n->is_set == is_set && n->a == a && n->b == b &&
         n->index == index && n->fix == fix;
}

static void table_put(sc_cat_node_table *t, sc_cat_node *n) {
  unsigned i = node_hash(n->kind, n->is_set, n->a, n->b, n->index, n->fix) &
               (unsigned)(t->cap - 1);
  while (t->slots[i])
    i = (i + 1) & (unsigned)(t->cap - 1);
  t->slots[i] = n;
  t->count++;
}

/* Kept at most half full, so that a lookup ends at an empty slot soon. */
static void table_grow(sc_cat_node_table *t) {
  sc_cat_node **old = t->slots;
  int oldcap = t->cap;
  t->cap = oldcap ? 2 * oldcap : 256;
  t->slots = sci_alloc(sizeof *t->slots * (size_t)t->cap);
  t->count = 0;
  for (int i = 0; i < oldcap; i++)
    if (old[i])
      table_put(t, old[i]);
}

/* The node of this operator and operands: an existing one if any. */
static const sc_cat_node *node(sc_cat_graph *g, sc_cat_node_kind k, bool is_set,
                               const sc_cat_node *a, const sc_cat_node *b,
                               int index, sc_cat_fix *fix) {
  sc_cat_node_table *t = g->table;
  if (t->cap) {
    unsigned i = node_hash(k, is_set, a, b, index, fix) & (unsigned)(t->cap - 1);
    for (; t->slots[i]; i = (i + 1) & (unsigned)(t->cap - 1))
      if (node_is(t->slots[i], k, is_set, a, b, index, fix))
        return t->slots[i];
  }
  if (2 * (t->count + 1) > t->cap)
    table_grow(t);
  sc_cat_node *n = sci_alloc(sizeof *n);
  *n = (sc_cat_node){k, is_set, g->nnodes, a, b, index, false, NULL, fix};
  sci_grow(&g->nodes, &g->capnodes, g->nnodes + 1, sizeof *g->nodes);
  g->nodes[g->nnodes++] = n;
  table_put(t, n);
  return n;
}

const char *sci_cat_node_kind_name(sc_cat_node_kind k) {
  static const char *const names[] = {
      "empty", "full", "input", "const", "union", "inter", "diff", "comp",
      "seq", "plus", "star", "opt", "inv", "id", "product", "domain", "range",
      "fixvar", "fix"};
  return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

/* Whether node x's value changes with fx's rounds (reaches one of its
 * variables); mark: 0 unknown, 1 no, 2 yes. */
static bool varies(const sc_cat_fix *fx, const sc_cat_node *x, char *mark) {
  if (mark[x->id])
    return mark[x->id] == 2;
  bool v = x->kind == CN_FIXVAR && x->fix == fx;
  if (x->a && varies(fx, x->a, mark))
    v = true;
  if (x->b && varies(fx, x->b, mark))
    v = true;
  if (x->kind == CN_FIX) /* an inner let rec over fx's names */
    for (int k = 0; k < x->fix->nvars; k++)
      if (x->fix->next[k] && varies(fx, x->fix->next[k], mark))
        v = true;
  mark[x->id] = v ? 2 : 1;
  return v;
}

void sci_cat_fix_deps(const sc_cat_graph *g, sc_cat_fix *fx) {
  if (fx->ndeps >= 0)
    return;
  char *mark = sci_alloc((size_t)g->nnodes + 1);
  for (int k = 0; k < fx->nvars; k++)
    if (fx->next[k])
      varies(fx, fx->next[k], mark);
  fx->deps = sci_alloc(sizeof *fx->deps * ((size_t)g->nnodes + 1));
  int n = 0;
  for (int i = 0; i < g->nnodes; i++)
    if (mark[i] == 2 && g->nodes[i]->kind != CN_FIXVAR)
      fx->deps[n++] = i;
  fx->ndeps = n;
}

/* ---- Lowering values and environments -------------------------------------- */

typedef enum { LV_EMPTY, LV_UNIV, LV_SET, LV_REL, LV_FUN, LV_PRIM, LV_TUPLE, LV_PROC } lv_kind;

typedef struct lenv lenv;
typedef struct lval {
  lv_kind k;
  const sc_cat_node *node; /* SET, REL */
  const sc_cat_exp *fun;   /* FUN: the EX_FUN expression */
  bool is_domain;          /* PRIM: domain, else range */
  const sc_cat_ins *proc;  /* PROC */
  const lenv *env;         /* FUN, PROC: where it was made */
  int n;                   /* TUPLE */
  struct lval **items;
} lval;

typedef struct lthunk {
  int state; /* 0: to lower, 1: busy, 2: done */
  lval *v;
  const sc_cat_exp *exp;
  const lenv *env;
  const sc_cat_bind *let; /* a top-level let's binding: recorded in lets */
} lthunk;

struct lenv {
  const char *name;
  lthunk *th;
  const lenv *next;
};

typedef struct lower {
  const sc_cat_model *model;
  const sc_cat_env *base;
  const sc_cat_run_options *opts;
  const sc_cat_sym_input *in;
  int nin;
  sc_cat_graph *g;
  sc_error *err;
  int depth, max_depth;
  int in_proc; /* procedure calls being lowered */
} lower;

static lval *lv_new(lv_kind k) {
  lval *v = sci_alloc(sizeof *v);
  v->k = k;
  return v;
}

static lval *lv_node(const sc_cat_node *n) {
  lval *v = lv_new(n->is_set ? LV_SET : LV_REL);
  v->node = n;
  return v;
}

static bool is_mat(const lval *v) { return v->k == LV_SET || v->k == LV_REL; }

/* How messages name a lowering value's type, as the interpreter names the
 * value it would have: {} comes from `0`, a relation there. */
static const char *lv_type(const lval *v) {
  switch (v->k) {
  case LV_EMPTY: return "relation";
  case LV_UNIV: return "universe";
  case LV_SET: return "event set";
  case LV_REL: return "relation";
  case LV_FUN:
  case LV_PRIM: return "function";
  case LV_TUPLE: return "tuple";
  case LV_PROC: return "procedure";
  }
  return "?";
}

static lval *fail(lower *c, sc_status st, const char *file, int line, int col,
                  const char *what) {
  if (!c->err)
    sci_fail(&c->err, st, file, line, col, "%s", what);
  return NULL;
}

static lval *unsupported(lower *c, const char *file, int line, int col,
                         const char *what) {
  return fail(c, SC_ERR_UNSUPPORTED, file, line, col,
              sci_printf("the symbolic engine cannot encode %s", what));
}

static lval *type_error(lower *c, const sc_cat_exp *at, const char *expected,
                        const lval *found) {
  return fail(c, SC_ERR_SEMANTIC, at->file, at->line, at->col,
              sci_printf("type mismatch: expected %s, found %s", expected,
                        lv_type(found)));
}

/* {} or _ as an event set or relation (k), else v itself when of kind k,
 * else NULL. */
static lval *as_kind(lower *c, lval *v, lv_kind k) {
  if (v->k == k)
    return v;
  if (v->k == LV_EMPTY || v->k == LV_UNIV)
    return lv_node(node(c->g, v->k == LV_EMPTY ? CN_EMPTY : CN_FULL, k == LV_SET,
                        NULL, NULL, 0, NULL));
  return NULL;
}

static const lenv *bind(const lenv *env, const char *name, lthunk *t) {
  if (!name)
    return env;
  lenv *b = sci_alloc(sizeof *b);
  *b = (lenv){name, t, env};
  return b;
}

static lthunk *done(lval *v) {
  lthunk *t = sci_alloc(sizeof *t);
  t->state = 2;
  t->v = v;
  return t;
}

/* ---- Names ----------------------------------------------------------------- */

static lval *lower_exp(lower *c, const sc_cat_exp *e, const lenv *env);

static lval *force(lower *c, lthunk *t) {
  if (t->state == 2)
    return t->v;
  if (t->state == 1) /* where the interpreter says it: at the definition */
    return fail(c, SC_ERR_SEMANTIC, t->exp->file, t->exp->line, t->exp->col,
                "this definition depends on its own value");
  t->state = 1;
  lval *v = lower_exp(c, t->exp, t->env);
  if (!v) {
    t->state = 0; /* a `try` may force it again */
    return NULL;
  }
  t->state = 2;
  t->v = v;
  if (t->let && (is_mat(v) || v->k == LV_EMPTY || v->k == LV_UNIV)) {
    sc_cat_graph *g = c->g;
    sci_grow(&g->lets, &g->caplets, g->nlets + 1, sizeof *g->lets);
    g->lets[g->nlets++] = (sc_cat_let){t->let, is_mat(v) ? v->node : NULL};
  }
  return v;
}

/* A name of the caller's: an input (symbolic) or an entry (fixed); the
 * latest entry of a name is its binding. */
static lval *base_value(lower *c, const char *name) {
  for (int i = 0; i < c->nin; i++)
    if (strcmp(c->in[i].name, name) == 0) {
      sc_cat_node *n = (sc_cat_node *)node(c->g, CN_INPUT, c->in[i].is_set, NULL,
                                           NULL, i, NULL);
      n->transitive = c->in[i].transitive;
      n->name = c->in[i].name;
      return lv_node(n);
    }
  for (int i = c->base->n - 1; i >= 0; i--) {
    const struct sc_cat_env_entry *en = &c->base->entries[i];
    if (strcmp(en->name, name) == 0) {
      sc_cat_node *n = (sc_cat_node *)node(c->g, CN_CONST, en->set != NULL, NULL,
                                           NULL, i, NULL);
      n->name = en->name;
      return lv_node(n);
    }
  }
  return NULL;
}

static bool base_binds(const lower *c, const char *name) {
  for (int i = 0; i < c->nin; i++)
    if (strcmp(c->in[i].name, name) == 0)
      return true;
  for (int i = 0; i < c->base->n; i++)
    if (strcmp(c->base->entries[i].name, name) == 0)
      return true;
  return false;
}

static lval *lookup(lower *c, const sc_cat_exp *e, const lenv *env) {
  for (const lenv *b = env; b; b = b->next)
    if (b->name == e->name || strcmp(b->name, e->name) == 0)
      return force(c, b->th);
  lval *v = base_value(c, e->name);
  if (v)
    return v;
  if (strcmp(e->name, "domain") == 0 || strcmp(e->name, "range") == 0) {
    v = lv_new(LV_PRIM);
    v->is_domain = e->name[0] == 'd';
    return v;
  }
  if (sci_cat_is_prim(e->name)) /* not an unbound name, which `try` would catch */
    return unsupported(c, e->file, e->line, e->col,
                       sci_printf("the primitive %s", e->name));
  return fail(c, SC_ERR_SEMANTIC, e->file, e->line, e->col,
              sci_printf("unbound name '%s'", e->name));
}

/* ---- Operators ------------------------------------------------------------- */

static bool is_transitive(const lval *v) {
  return v->k == LV_REL && v->node->kind == CN_INPUT && v->node->transitive;
}

static lval *rel1(lower *c, sc_cat_node_kind k, const lval *v) {
  return lv_node(node(c->g, k, false, v->node, NULL, 0, NULL));
}

static lval *rel2(lower *c, sc_cat_node_kind k, bool is_set, const lval *a,
                  const lval *b) {
  return lv_node(node(c->g, k, is_set, a->node, b->node, 0, NULL));
}

static lval *lower_op1(lower *c, const sc_cat_exp *e, const lenv *env) {
  lval *v = lower_exp(c, e->args[0], env);
  if (!v)
    return NULL;
  switch (e->op1) {
  case OP1_PLUS:
  case OP1_STAR:
  case OP1_OPT:
    if (v->k == LV_UNIV || (v->k == LV_EMPTY && e->op1 == OP1_PLUS))
      return v;
    if (v->k == LV_EMPTY)
      v = as_kind(c, v, LV_REL);
    if (v->k != LV_REL)
      return type_error(c, e->args[0], "relation", v);
    if (is_transitive(v)) /* r+ is r, r* is r? */
      return e->op1 == OP1_PLUS ? v : rel1(c, CN_OPT, v);
    return rel1(c, e->op1 == OP1_PLUS ? CN_PLUS : e->op1 == OP1_STAR ? CN_STAR : CN_OPT, v);
  case OP1_INV:
    if (v->k == LV_EMPTY || v->k == LV_UNIV)
      return v;
    if (v->k != LV_REL)
      return type_error(c, e->args[0], "relation", v);
    return rel1(c, CN_INV, v);
  case OP1_COMP:
    if (v->k == LV_EMPTY)
      return lv_new(LV_UNIV);
    if (v->k == LV_UNIV)
      return lv_new(LV_EMPTY);
    if (!is_mat(v))
      return unsupported(c, e->file, e->line, e->col, "the complement of this value");
    return lv_node(node(c->g, CN_COMP, v->k == LV_SET, v->node, NULL, 0, NULL));
  case OP1_TOID:
    if (v->k == LV_EMPTY)
      return v;
    if (v->k == LV_UNIV)
      v = as_kind(c, v, LV_SET);
    if (v->k != LV_SET)
      return type_error(c, e->args[0], "event set", v);
    return lv_node(node(c->g, CN_ID, false, v->node, NULL, 0, NULL));
  }
  return NULL;
}

/* An event set and a relation in one union, intersection or difference,
 * worded and placed as the interpreter's (eval.c): a union at the operand
 * that does not fit, the others at the operator. */
static lval *mismatch(lower *c, const sc_cat_exp *e, sc_cat_node_kind op,
                      const sc_cat_exp *at, const lval *a, const lval *b) {
  if (op == CN_UNION)
    return fail(c, SC_ERR_SEMANTIC, at->file, at->line, at->col,
                sci_printf("type mismatch in union: expected %s, found %s",
                          lv_type(a), lv_type(b)));
  return fail(c, SC_ERR_SEMANTIC, e->file, e->line, e->col,
              sci_printf("type mismatch in %s: %s and %s",
                        op == CN_INTER ? "intersection" : "difference", lv_type(a),
                        lv_type(b)));
}

/* Unite, intersect or subtract two values (b is operand `at` of e) with
 * herd's typing of {} and _. */
static lval *binop(lower *c, const sc_cat_exp *e, sc_cat_node_kind op,
                   const sc_cat_exp *at, lval *a, lval *b) {
  if (op == CN_UNION) {
    if (a->k == LV_UNIV || b->k == LV_EMPTY)
      return a;
    if (b->k == LV_UNIV || a->k == LV_EMPTY)
      return b;
  } else if (op == CN_INTER) {
    if (a->k == LV_UNIV || b->k == LV_EMPTY)
      return b;
    if (b->k == LV_UNIV || a->k == LV_EMPTY)
      return a;
  } else {
    if (b->k == LV_UNIV || a->k == LV_EMPTY)
      return lv_new(LV_EMPTY);
    if (b->k == LV_EMPTY)
      return a;
    if (a->k == LV_UNIV)
      a = as_kind(c, a, b->k);
  }
  if (!a || !is_mat(a) || !is_mat(b))
    return unsupported(c, e->file, e->line, e->col, "this operation on values other "
                       "than event sets and relations");
  if (a->k != b->k)
    return mismatch(c, e, op, at, a, b);
  return rel2(c, op, a->k == LV_SET, a, b);
}

static lval *lower_seq(lower *c, const sc_cat_exp *e, const lenv *env) {
  lval *acc = NULL;
  for (int i = 0; i < e->nargs; i++) {
    lval *v = lower_exp(c, e->args[i], env);
    if (!v)
      return NULL;
    if (v->k == LV_EMPTY) /* herd stops at an empty operand */
      return v;
    if (v->k == LV_UNIV)
      v = as_kind(c, v, LV_REL);
    if (v->k != LV_REL)
      return type_error(c, e->args[i], "relation", v);
    acc = acc ? rel2(c, CN_SEQ, false, acc, v) : v;
  }
  return acc;
}

static lval *lower_cartesian(lower *c, const sc_cat_exp *e, const lenv *env) {
  lval *a = lower_exp(c, e->args[0], env), *b = a ? lower_exp(c, e->args[1], env) : NULL;
  if (!b)
    return NULL;
  if (a->k == LV_EMPTY || b->k == LV_EMPTY)
    return lv_new(LV_EMPTY);
  lval *sa = as_kind(c, a, LV_SET), *sb = as_kind(c, b, LV_SET);
  if (!sa)
    return type_error(c, e->args[0], "event set", a);
  if (!sb)
    return type_error(c, e->args[1], "event set", b);
  return rel2(c, CN_PRODUCT, false, sa, sb);
}

/* ---- Functions -------------------------------------------------------------- */

static const lenv *bind_pat(lower *c, const sc_cat_pat *pat, lval *v,
                            const lenv *env, const sc_cat_exp *at) {
  if (!pat->is_tuple)
    return bind(env, pat->names[0], done(v));
  int given = v->k == LV_TUPLE ? v->n : 1;
  if (given != pat->n) { /* worded and placed as eval.c's */
    fail(c, SC_ERR_SEMANTIC, at->file, at->line, at->col,
         sci_printf("argument mismatch: %d argument%s expected, %d given", pat->n,
                   pat->n == 1 ? "" : "s", given));
    return NULL;
  }
  for (int i = 0; i < pat->n; i++)
    env = bind(env, pat->names[i], done(v->k == LV_TUPLE ? v->items[i] : v));
  return env;
}

static lval *apply(lower *c, lval *f, lval *arg, const sc_cat_exp *at) {
  if (f->k == LV_PRIM) {
    if (arg->k == LV_EMPTY || arg->k == LV_UNIV)
      return arg;
    if (arg->k != LV_REL) /* worded as prim.c's */
      return fail(c, SC_ERR_SEMANTIC, at->file, at->line, at->col,
                  sci_printf("primitive %s: type mismatch: expected relation, found %s",
                            f->is_domain ? "domain" : "range", lv_type(arg)));
    return lv_node(node(c->g, f->is_domain ? CN_DOMAIN : CN_RANGE, true, arg->node,
                        NULL, 0, NULL));
  }
  if (f->k != LV_FUN)
    return type_error(c, at, "function", f);
  if (c->depth >= c->max_depth)
    return fail(c, SC_ERR_LIMIT, at->file, at->line, at->col,
                sci_printf("expected function calls nested at most %d deep, found "
                          "deeper (the -max-depth limit; a recursion without end?)",
                          c->max_depth));
  const lenv *env = bind_pat(c, &f->fun->pat, arg, f->env, at);
  if (!env)
    return NULL;
  c->depth++;
  lval *v = lower_exp(c, f->fun->body, env);
  c->depth--;
  return v;
}

static bool is_fun_bind(const sc_cat_bind *b) {
  return b->exp->kind == EX_FUN && !b->pat.is_tuple;
}

static const lenv *bind_lets(const sc_cat_bind *binds, int n, const lenv *env) {
  const lenv *out = env;
  for (int i = 0; i < n; i++) {
    lthunk *t = sci_alloc(sizeof *t);
    t->exp = binds[i].exp;
    t->env = env;
    out = bind(out, binds[i].pat.names[0], t);
  }
  return out;
}

/* ---- let rec ----------------------------------------------------------------- */

/* Does `name` occur under a complement or on the right of a difference
 * (the Kleene iteration of a non-monotone let rec need not be herd's)? */
static bool negative_use(const sc_cat_exp *e, const char *name, bool neg) {
  if (!e)
    return false;
  if (e->kind == EX_VAR)
    return neg && strcmp(e->name, name) == 0;
  if (e->kind == EX_OP1)
    return negative_use(e->args[0], name, neg || e->op1 == OP1_COMP);
  if (e->kind == EX_DIFF)
    return negative_use(e->args[0], name, neg) || negative_use(e->args[1], name, true);
  for (int i = 0; i < e->nargs; i++)
    if (negative_use(e->args[i], name, neg))
      return true;
  for (int i = 0; i < e->nbinds; i++)
    if (negative_use(e->binds[i].exp, name, neg))
      return true;
  if (e->kind == EX_FUN || e->kind == EX_MATCH || e->kind == EX_MATCHSET ||
      e->kind == EX_TRY || e->kind == EX_IF)
    return true; /* not looked into: treated as non-monotone */
  return negative_use(e->body, name, neg);
}

bool sci_cat_exp_any_name(const sc_cat_exp *e, bool (*pred)(void *ctx, const char *name),
                         void *ctx) {
  if (!e)
    return false;
  if (e->kind == EX_VAR && pred(ctx, e->name))
    return true;
  for (int i = 0; i < e->nargs; i++)
    if (sci_cat_exp_any_name(e->args[i], pred, ctx))
      return true;
  for (int i = 0; i < e->nbinds; i++)
    if (sci_cat_exp_any_name(e->binds[i].exp, pred, ctx))
      return true;
  for (int i = 0; i < e->ncases; i++)
    if (sci_cat_exp_any_name(e->cases[i], pred, ctx))
      return true;
  const sc_cat_exp *more[] = {e->body, e->dflt, e->empty_case, e->elt_case,
                              e->c1, e->c2, e->ifso, e->ifnot};
  for (size_t i = 0; i < sizeof more / sizeof more[0]; i++)
    if (sci_cat_exp_any_name(more[i], pred, ctx))
      return true;
  return false;
}

static bool is_name(void *ctx, const char *name) { return strcmp(name, ctx) == 0; }

bool sci_cat_exp_mentions(const sc_cat_exp *e, const char *name) {
  return sci_cat_exp_any_name(e, is_name, (void *)name);
}

/* let rec X = A | (X; B; X), A and B free of X (ptx-v6.0.cat's
 * observation): its least fixpoint is A; (B; A)*, since that is a fixpoint
 * (A | A;(B;A)*;B;A;(B;A)* = A;(B;A)*) and each A;(B;A)^m is in every
 * fixpoint (by induction on m).  NULL when the binding has another shape. */
static lval *rec_chain(lower *c, const sc_cat_bind *b, const lenv *env) {
  const sc_cat_exp *e = b->exp;
  const char *x = b->pat.names[0];
  if (b->pat.is_tuple || !x || e->kind != EX_UNION || e->nargs != 2)
    return NULL;
  for (int k = 0; k < 2; k++) {
    const sc_cat_exp *a = e->args[k], *q = e->args[1 - k];
    if (sci_cat_exp_mentions(a, x) || q->kind != EX_SEQ || q->nargs != 3 ||
        q->args[0]->kind != EX_VAR || strcmp(q->args[0]->name, x) != 0 ||
        q->args[2]->kind != EX_VAR || strcmp(q->args[2]->name, x) != 0 ||
        sci_cat_exp_mentions(q->args[1], x))
      continue;
    lval *av = lower_exp(c, a, env), *bv = av ? lower_exp(c, q->args[1], env) : NULL;
    if (!bv)
      return NULL;
    if (av->k == LV_EMPTY)
      return av;
    av = as_kind(c, av, LV_REL);
    if (bv->k == LV_EMPTY)
      return av;
    bv = as_kind(c, bv, LV_REL);
    if (!av || !bv)
      return NULL;
    lval *star = rel1(c, CN_STAR, rel2(c, CN_SEQ, false, bv, av));
    return rel2(c, CN_SEQ, false, av, star);
  }
  return NULL;
}

/* The environment of one round: value names bound to `vals`, functions
 * closing over it (so that they see the round's values and each other). */
static const lenv *rec_frame(const sc_cat_bind *binds, int n, lval **vals,
                             const lenv *env) {
  const lenv *frame = env;
  for (int i = 0, k = 0; i < n; i++)
    if (!is_fun_bind(&binds[i]))
      frame = bind(frame, binds[i].pat.names[0], done(vals[k++]));
  lval **funs = sci_alloc(sizeof *funs * (size_t)(n + 1));
  for (int i = 0; i < n; i++)
    if (is_fun_bind(&binds[i])) {
      funs[i] = lv_new(LV_FUN);
      funs[i]->fun = binds[i].exp;
      frame = bind(frame, binds[i].pat.names[0], done(funs[i]));
    }
  for (int i = 0; i < n; i++)
    if (funs[i])
      funs[i]->env = frame;
  return frame;
}

/* One round: the bodies over `old`, each seeing the new values of those
 * before it (herd's fix_step), into cur; NULL on error, else the
 * environment after the last body. */
static const lenv *rec_round(lower *c, const sc_cat_bind *binds, int n, lval **old,
                             lval **cur, const lenv *env) {
  const lenv *st = rec_frame(binds, n, old, env);
  for (int i = 0, k = 0; i < n; i++) {
    if (is_fun_bind(&binds[i]))
      continue;
    if (!(cur[k] = lower_exp(c, binds[i].exp, st)))
      return NULL;
    st = bind(st, binds[i].pat.names[0], done(cur[k]));
    k++;
  }
  return st;
}

#define MAX_TYPE_ROUNDS 8 /* a let rec's types settle in two or three */

/* How many names of a let rec are values (not functions); -1 after an
 * error: a tuple, or a name used non-monotonically, whose Kleene
 * iteration need not be herd's. */
static int rec_values(lower *c, const sc_cat_bind *binds, int n, const char *file,
                      int line, int col) {
  int nv = 0;
  for (int i = 0; i < n; i++) {
    if (is_fun_bind(&binds[i]))
      continue;
    if (binds[i].pat.is_tuple) {
      unsupported(c, file, line, col, "a let rec of a tuple");
      return -1;
    }
    for (int j = 0; j < n; j++)
      if (negative_use(binds[j].exp, binds[i].pat.names[0], false)) {
        unsupported(c, file, line, col,
                    sci_printf("the let rec of %s (not monotone)", binds[i].pat.names[0]));
        return -1;
      }
    nv++;
  }
  return nv;
}

/* The fixpoint fx of a let rec whose names have the types of old (their
 * round values, CN_FIXVAR where a set or relation) and whose bodies
 * lowered to cur: the names denote its values, the functions see them. */
static const lenv *rec_fixpoint(lower *c, const sc_cat_bind *binds, int n, int nv,
                                lval **old, lval **cur, sc_cat_fix *fx,
                                const lenv *env) {
  fx->nvars = nv;
  fx->names = sci_alloc(sizeof *fx->names * (size_t)nv);
  fx->vars = sci_alloc(sizeof *fx->vars * (size_t)nv);
  fx->next = sci_alloc(sizeof *fx->next * (size_t)nv);
  fx->ndeps = -1;
  lval **fin = sci_alloc(sizeof *fin * (size_t)nv);
  for (int i = 0, k = 0; i < n; i++) {
    if (is_fun_bind(&binds[i]))
      continue;
    fx->names[k] = binds[i].pat.names[0];
    fin[k] = old[k]; /* {} or _ stays that constant */
    if (is_mat(old[k])) {
      fx->vars[k] = old[k]->node;
      fx->next[k] = cur[k]->node;
      fin[k] = lv_node(node(c->g, CN_FIX, old[k]->k == LV_SET, NULL, NULL, k, fx));
    }
    k++;
  }
  return rec_frame(binds, n, fin, env);
}

/* let rec: the closed form of the chain shape, else a fixpoint whose
 * names' types are found from {} (where herd's iteration starts) by
 * lowering the bodies until their types are the names'. */
static const lenv *bind_rec(lower *c, const sc_cat_bind *binds, int n,
                            const lenv *env, const char *file, int line, int col) {
  int nv = rec_values(c, binds, n, file, line, col);
  if (nv <= 0)
    return nv < 0 ? NULL : rec_frame(binds, n, NULL, env);
  if (n == 1) {
    lval *v = rec_chain(c, &binds[0], env);
    if (v)
      return bind(env, binds[0].pat.names[0], done(v));
    if (c->err)
      return NULL;
  }
  lval **old = sci_alloc(sizeof *old * (size_t)nv), **cur = sci_alloc(sizeof *cur * (size_t)nv);
  for (int k = 0; k < nv; k++)
    old[k] = lv_new(LV_EMPTY);
  for (int round = 0; round < MAX_TYPE_ROUNDS; round++) {
    sc_cat_fix *fx = sci_alloc(sizeof *fx);
    fx->file = file;
    fx->line = line;
    fx->col = col;
    for (int k = 0; k < nv; k++)
      if (is_mat(old[k]))
        old[k] = lv_node(node(c->g, CN_FIXVAR, old[k]->k == LV_SET, NULL, NULL, k, fx));
    if (!rec_round(c, binds, n, old, cur, env))
      return NULL;
    bool stable = true;
    for (int k = 0; k < nv; k++) {
      if (!is_mat(cur[k]) && cur[k]->k != LV_EMPTY && cur[k]->k != LV_UNIV) {
        unsupported(c, file, line, col, "a let rec of this value");
        return NULL;
      }
      stable &= cur[k]->k == old[k]->k;
    }
    if (stable)
      return rec_fixpoint(c, binds, n, nv, old, cur, fx, env);
    for (int k = 0; k < nv; k++)
      old[k] = cur[k];
  }
  fail(c, SC_ERR_SEMANTIC, file, line, col,
       sci_printf("illegal recursion on type %s", lv_type(cur[0])));
  return NULL;
}

/* ---- Expressions ---------------------------------------------------------------- */

static lval *lower_exp(lower *c, const sc_cat_exp *e, const lenv *env) {
  if (c->err)
    return NULL;
  lval *v, *a;
  switch (e->kind) {
  case EX_EMPTY_REL: return lv_new(LV_EMPTY);
  case EX_UNIV: return lv_new(LV_UNIV);
  case EX_VAR: return lookup(c, e, env);
  case EX_TUPLE:
    v = lv_new(LV_TUPLE);
    v->n = e->nargs;
    v->items = sci_alloc(sizeof *v->items * (size_t)(e->nargs + 1));
    for (int i = 0; i < e->nargs; i++)
      if (!(v->items[i] = lower_exp(c, e->args[i], env)))
        return NULL;
    return v;
  case EX_OP1: return lower_op1(c, e, env);
  case EX_UNION:
  case EX_INTER:
  case EX_DIFF:
    if (!(v = lower_exp(c, e->args[0], env)))
      return NULL;
    for (int i = 1; i < e->nargs; i++)
      if (!(a = lower_exp(c, e->args[i], env)) ||
          !(v = binop(c, e, e->kind == EX_UNION ? CN_UNION
                            : e->kind == EX_INTER ? CN_INTER : CN_DIFF,
                      e->args[i], v, a)))
        return NULL;
    return v;
  case EX_SEQ: return lower_seq(c, e, env);
  case EX_CARTESIAN: return lower_cartesian(c, e, env);
  case EX_APP:
    if (!(v = lower_exp(c, e->args[0], env)) || !(a = lower_exp(c, e->args[1], env)))
      return NULL;
    return apply(c, v, a, e);
  case EX_FUN:
    v = lv_new(LV_FUN);
    v->fun = e;
    v->env = env;
    return v;
  case EX_BIND:
    for (int i = 0; i < e->nbinds; i++)
      if (e->binds[i].pat.is_tuple)
        return unsupported(c, e->file, e->line, e->col, "a tuple binding");
    return lower_exp(c, e->body, bind_lets(e->binds, e->nbinds, env));
  case EX_BINDREC:
    env = bind_rec(c, e->binds, e->nbinds, env, e->file, e->line, e->col);
    return env ? lower_exp(c, e->body, env) : NULL;
  case EX_IF:
    if (e->cond == COND_VARIANT) {
      cat_ctx cc = {0};
      cc.opts = c->opts;
      return lower_exp(c, sci_cat_variant_set(&cc, e->vcond) ? e->ifso : e->ifnot, env);
    }
    return unsupported(c, e->file, e->line, e->col, "an 'if' on values");
  case EX_TAG: return unsupported(c, e->file, e->line, e->col, "a tag");
  case EX_EXPLICIT_SET: return unsupported(c, e->file, e->line, e->col, "an explicit set");
  case EX_ADD: return unsupported(c, e->file, e->line, e->col, "'++'");
  case EX_MATCH:
  case EX_MATCHSET: return unsupported(c, e->file, e->line, e->col, "a 'match'");
  case EX_TRY: { /* try e with e': e' where e fails as herd's try does */
    int depth = c->depth;
    v = lower_exp(c, e->args[0], env);
    if (v || !c->err || c->err->status != SC_ERR_SEMANTIC)
      return v;
    c->err = NULL;
    c->depth = depth;
    return lower_exp(c, e->body, env);
  }
  }
  return unsupported(c, e->file, e->line, e->col, "this expression");
}

/* ---- Tests and instructions ---------------------------------------------------- */

static bool skipped(const lower *c, const char *name) {
  for (int i = 0; name && c->opts && i < c->opts->nskip; i++)
    if (c->opts->skipchecks[i] && strcmp(c->opts->skipchecks[i], name) == 0)
      return true;
  return false;
}

static const char *test_word(sc_cat_test_kind k) {
  return k == TEST_ACYCLIC ? "acyclic" : k == TEST_IRREFLEXIVE ? "irreflexive" : "empty";
}

static bool add_axiom(lower *c, const sc_cat_test *t, const lenv *env) {
  lval *v = lower_exp(c, t->exp, env);
  if (!v)
    return false;
  if (v->k == LV_UNIV)
    v = as_kind(c, v, LV_REL);
  if (v->k != LV_EMPTY && !is_mat(v)) {
    type_error(c, t->exp, "relation or event set", v);
    return false;
  }
  if (v->k == LV_SET && t->kind != TEST_EMPTY) {
    fail(c, SC_ERR_SEMANTIC, t->exp->file, t->exp->line, t->exp->col,
         sci_printf("type mismatch: expected relation (for '%s'), found event set",
                   test_word(t->kind)));
    return false;
  }
  sc_cat_graph *g = c->g;
  sci_grow(&g->axioms, &g->capaxioms, g->naxioms + 1, sizeof *g->axioms);
  g->axioms[g->naxioms++] = (sc_cat_axiom){
      t, v->k == LV_EMPTY ? NULL : v->node, t->type == TT_CHECK || t->type == TT_FLAG};
  return true;
}

static bool lower_prog(lower *c, const sc_cat_prog *p, const lenv **env);

static bool lower_let(lower *c, const sc_cat_ins *ins, const lenv **env) {
  for (int i = 0; i < ins->nbinds; i++) {
    const sc_cat_pat *pat = &ins->binds[i].pat;
    if (pat->is_tuple) {
      unsupported(c, ins->file, ins->line, ins->col, "a tuple binding");
      return false;
    }
    if (ins->is_default && pat->names[0] && base_binds(c, pat->names[0]))
      continue;
    lthunk *th = sci_alloc(sizeof *th);
    th->exp = ins->binds[i].exp;
    th->env = *env;
    /* as run.c keeps bindings: one binding of a let, or a prelude's */
    if (!c->in_proc && (ins->is_default || ins->nbinds == 1) && th->exp->kind != EX_FUN)
      th->let = &ins->binds[i];
    *env = bind(*env, pat->names[0], th);
  }
  return true;
}

static bool lower_call(lower *c, const sc_cat_ins *ins, const lenv **env) {
  const lenv *b = *env;
  while (b && strcmp(b->name, ins->name) != 0)
    b = b->next;
  if (!b && !base_binds(c, ins->name)) {
    fail(c, SC_ERR_SEMANTIC, ins->file, ins->line, ins->col,
         sci_printf("unbound name '%s'", ins->name));
    return false;
  }
  if (!b || b->th->state != 2 || b->th->v->k != LV_PROC) {
    unsupported(c, ins->file, ins->line, ins->col, sci_printf("the call of %s", ins->name));
    return false;
  }
  if (ins->as_name) {
    unsupported(c, ins->file, ins->line, ins->col, "a call ... as");
    return false;
  }
  lval *p = b->th->v, *arg = lower_exp(c, ins->exp, *env);
  if (!arg)
    return false;
  const lenv *penv = bind_pat(c, &p->proc->pat, arg, p->env, ins->exp);
  if (!penv)
    return false;
  c->in_proc++;
  bool ok = lower_prog(c, &p->proc->body, &penv);
  c->in_proc--;
  return ok;
}

static bool lower_ins(lower *c, const sc_cat_ins *ins, const lenv **env) {
  cat_ctx cc = {0};
  switch (ins->kind) {
  case IN_LET:
    return lower_let(c, ins, env);
  case IN_REC:
    if (ins->test) {
      unsupported(c, ins->file, ins->line, ins->col, "a 'let rec ... when' test");
      return false;
    }
    return (*env = bind_rec(c, ins->binds, ins->nbinds, *env, ins->file, ins->line,
                            ins->col)) != NULL;
  case IN_TEST:
    if (skipped(c, ins->test->name))
      return true;
    if (ins->test->type == TT_ASSERT) {
      unsupported(c, ins->file, ins->test->line, ins->test->col, "an assert");
      return false;
    }
    return add_axiom(c, ins->test, *env);
  case IN_SHOW:
  case IN_SHOWAS:
  case IN_UNSHOW:
  case IN_DEBUG:
  case IN_EVENTS:
  case IN_DOC:
    return true;
  case IN_INCLUDE:
    return lower_prog(c, ins->included, env);
  case IN_PROCEDURE: {
    lval *p = lv_new(LV_PROC);
    p->proc = ins;
    *env = bind(*env, ins->name, done(p));
    p->env = ins->is_rec ? *env : (*env)->next;
    return true;
  }
  case IN_CALL:
    return lower_call(c, ins, env);
  case IN_IFVARIANT:
    cc.opts = c->opts;
    return lower_prog(c, sci_cat_variant_set(&cc, ins->vcond) ? &ins->body : &ins->other,
                      env);
  case IN_ENUM:
    unsupported(c, ins->file, ins->line, ins->col, "an enum");
    return false;
  case IN_FORALL:
    unsupported(c, ins->file, ins->line, ins->col, "a forall");
    return false;
  case IN_WITHFROM:
    /* with x from S, x a name of the caller's (herd's cos.cat: with co from
     * generate_cos(cobase)): a candidate is the one run with its own x,
     * when S holds it (run.c's candidate_member).  The membership is left
     * out, which then over-approximates: the caller has the model run
     * concretely on each execution the solver finds. */
    if (!base_binds(c, ins->name)) {
      unsupported(c, ins->file, ins->line, ins->col,
                  sci_printf("'with %s from ...' over a name the model binds "
                            "(only over the execution's own, such as co)", ins->name));
      return false;
    }
    c->g->approximate = true;
    sci_grow(&c->g->withs, &c->g->capwiths, c->g->nwiths + 1, sizeof *c->g->withs);
    c->g->withs[c->g->nwiths++] = ins;
    *env = bind(*env, ins->name, done(base_value(c, ins->name)));
    return true;
  case IN_MATCH:
    unsupported(c, ins->file, ins->line, ins->col, "a 'match' instruction");
    return false;
  }
  unsupported(c, ins->file, ins->line, ins->col, "this instruction");
  return false;
}

static bool lower_prog(lower *c, const sc_cat_prog *p, const lenv **env) {
  for (int i = 0; i < p->n; i++)
    if (!lower_ins(c, p->ins[i], env))
      return false;
  return true;
}

static sc_cat_graph *lower_model(const sc_cat_model *m, const sc_cat_env *env,
                                 const sc_cat_run_options *opts,
                                 const sc_cat_sym_input *in, int nin) {
  sc_cat_graph *g = sci_alloc(sizeof *g);
  g->table = sci_alloc(sizeof *g->table);
  lower c = {m, env, opts, in, nin, g, NULL, 0,
             m->limits.max_depth > 0 ? m->limits.max_depth : CAT_MAX_APP_DEPTH, 0};
  const lenv *e = NULL;
  if (!(lower_prog(&c, &m->prelude, &e) && lower_prog(&c, &m->bell, &e) &&
        lower_prog(&c, &m->prog, &e)) &&
      !c.err)
    sci_fail(&c.err, SC_ERR_SEMANTIC, m->filename, 0, 0, "the model could not be lowered");
  g->error = c.err;
  return g;
}

/* ---- The cache: one graph per model and signature ---------------------------- */

struct sc_cat_graph_cache {
  const char *key;
  const sc_cat_graph *graph;
  struct sc_cat_graph_cache *next;
};

/* What the lowering depends on besides the model: the caller's names
 * (inputs and entries, in order, as sets or relations), the inputs'
 * transitivity, the variants and the skipped checks. */
static const char *signature(const sc_cat_env *env, const sc_cat_run_options *opts,
                             const sc_cat_sym_input *in, int nin) {
  sc_strbuf sb;
  sci_sb_init(&sb);
  for (int i = 0; i < nin; i++)
    sci_sb_printf(&sb, "i%c%c%s;", in[i].is_set ? 's' : 'r', in[i].transitive ? 't' : '-',
                 in[i].name);
  for (int i = 0; i < env->n; i++)
    sci_sb_printf(&sb, "e%c%s;", env->entries[i].set ? 's' : 'r', env->entries[i].name);
  for (int i = 0; opts && i < opts->nvariants; i++)
    sci_sb_printf(&sb, "v%s;", opts->variants[i] ? opts->variants[i] : "");
  for (int i = 0; opts && i < opts->nskip; i++)
    sci_sb_printf(&sb, "k%s;", opts->skipchecks[i] ? opts->skipchecks[i] : "");
  return sb.data ? sb.data : "";
}

/* The most graphs a model keeps: a batch's tests mostly share one
 * signature, and one that differs (another test's names) drops the
 * graph used longest ago rather than growing the cache with the batch. */
#define MAX_CACHED_GRAPHS 8

const sc_cat_graph *sci_cat_graph_of(const sc_cat_model *m, const sc_cat_env *env,
                                    const sc_cat_run_options *opts,
                                    const sc_cat_sym_input *in, int nin) {
  /* the model is the caller's const handle; the cache is its own memo */
  struct sc_cat_graph_cache **head = &((sc_cat_model *)m)->graphs;
  const char *key = signature(env, opts, in, nin);
  int kept = 0;
  for (struct sc_cat_graph_cache **p = head; *p; p = &(*p)->next, kept++) {
    struct sc_cat_graph_cache *k = *p;
    if (strcmp(k->key, key) == 0) { /* to the front */
      *p = k->next;
      k->next = *head;
      *head = k;
      return k->graph;
    }
    if (kept == MAX_CACHED_GRAPHS - 1) { /* the rest are dropped below */
      *p = NULL;
      break;
    }
  }
  struct sc_cat_graph_cache *k = sci_alloc(sizeof *k);
  k->key = key;
  k->graph = lower_model(m, env, opts, in, nin);
  k->next = *head;
  *head = k;
  return k->graph;
}
