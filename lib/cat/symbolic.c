/* symbolic.c: a model run over fixed events whose choice relations (rf, co...)
 * are formulas: the encoder that walks the model's lowered graph (graph.h),
 * computing each node once as a vector (set) or matrix (relation) of
 * Booleans, each a constant (folded here) or a term of the caller's (the sim
 * layer's Z3).  The result is a formula for "the model allows it" and one per
 * flag.  Typing, variants, inlining and the shape of each `let rec` were
 * decided by the lowering; what is left here is the algebra and the Kleene
 * iteration of fixpoints. */
#define _POSIX_C_SOURCE 200809L
#include "cat/graph.h"

#include "util/error.h"
#include "util/gcmem.h"
#include "util/strbuf.h"

#include <string.h>

const char sci_cat_true_[1] = {1};
#define T SC_CAT_TRUE
#define F SC_CAT_FALSE

typedef struct sctx {
  const sc_cat_graph *g;
  int max_fix; /* rounds per fixpoint */
  const sc_cat_env *base;
  const sc_cat_bool_ops *ops;
  const sc_cat_sym_input *in;
  int n;
  sc_cat_bool **memo; /* per node id: its value, NULL until computed */
  sc_error *err;
  sc_cat_bool allowed;
  sc_cat_sym_flag *flags;
  int nflags, capflags;
} sctx;

/* ---- Booleans, folded ---------------------------------------------------- */

sc_cat_bool sci_cat_bool_and(const sc_cat_bool_ops *ops, sc_cat_bool a, sc_cat_bool b) {
  if (a == F || b == F)
    return F;
  if (a == T)
    return b;
  if (b == T || a == b)
    return a;
  return ops->and_(ops->ctx, a, b);
}

sc_cat_bool sci_cat_bool_or(const sc_cat_bool_ops *ops, sc_cat_bool a, sc_cat_bool b) {
  if (a == T || b == T)
    return T;
  if (a == F)
    return b;
  if (b == F || a == b)
    return a;
  return ops->or_(ops->ctx, a, b);
}

sc_cat_bool sci_cat_bool_not(const sc_cat_bool_ops *ops, sc_cat_bool a) {
  if (a == T)
    return F;
  if (a == F)
    return T;
  return ops->not_(ops->ctx, a);
}

static sc_cat_bool b_and(sctx *c, sc_cat_bool a, sc_cat_bool b) {
  return sci_cat_bool_and(c->ops, a, b);
}

static sc_cat_bool b_or(sctx *c, sc_cat_bool a, sc_cat_bool b) {
  return sci_cat_bool_or(c->ops, a, b);
}

static sc_cat_bool b_not(sctx *c, sc_cat_bool a) { return sci_cat_bool_not(c->ops, a); }

/* ---- Matrices ------------------------------------------------------------- */

static size_t len_of(const sctx *c, bool is_set) {
  return is_set ? (size_t)c->n : (size_t)c->n * (size_t)c->n;
}

static sc_cat_bool *mat(const sctx *c, bool is_set) { /* all F (NULL) */
  return sci_alloc(sizeof(sc_cat_bool) * (len_of(c, is_set) + 1));
}

static sc_cat_bool *copy_of(const sctx *c, const sc_cat_bool *m, bool is_set) {
  sc_cat_bool *r = mat(c, is_set);
  memcpy(r, m, sizeof(sc_cat_bool) * len_of(c, is_set));
  return r;
}

/* m := m+ in place (Warshall). */
static void closure(sctx *c, sc_cat_bool *m) {
  int n = c->n;
  for (int k = 0; k < n; k++)
    for (int i = 0; i < n; i++) {
      sc_cat_bool ik = m[i * n + k];
      if (ik == F)
        continue;
      for (int j = 0; j < n; j++) {
        sc_cat_bool kj = m[k * n + j];
        if (kj != F && m[i * n + j] != T)
          m[i * n + j] = b_or(c, m[i * n + j], b_and(c, ik, kj));
      }
    }
}

static sc_cat_bool *seq2(sctx *c, const sc_cat_bool *a, const sc_cat_bool *b) {
  int n = c->n;
  sc_cat_bool *r = mat(c, false);
  for (int i = 0; i < n; i++)
    for (int k = 0; k < n; k++) {
      sc_cat_bool ik = a[i * n + k];
      if (ik == F)
        continue;
      for (int j = 0; j < n; j++) {
        sc_cat_bool kj = b[k * n + j];
        if (kj != F && r[i * n + j] != T)
          r[i * n + j] = b_or(c, r[i * n + j], b_and(c, ik, kj));
      }
    }
  return r;
}

/* A fixed name of the caller's, as constants. */
static sc_cat_bool *const_value(sctx *c, const sc_cat_node *x) {
  const struct sc_cat_env_entry *en = &c->base->entries[x->index];
  int n = c->n;
  sc_cat_bool *m = mat(c, x->is_set);
  if (x->is_set) {
    for (int a = 0; a < n; a++)
      m[a] = sc_set_has(en->set, a) ? T : F;
  } else {
    for (int a = 0; a < n; a++)
      for (int b = 0; b < n; b++)
        m[a * n + b] = sc_rel_has(en->rel, a, b) ? T : F;
  }
  return m;
}

/* ---- Nodes ----------------------------------------------------------------- */

static sc_cat_bool *value(sctx *c, const sc_cat_node *x);
static bool run_fix(sctx *c, sc_cat_fix *fx);

/* a op b entry by entry: union, intersection or difference. */
static sc_cat_bool *pointwise(sctx *c, const sc_cat_node *x, const sc_cat_bool *a,
                              const sc_cat_bool *b) {
  sc_cat_bool *r = mat(c, x->is_set);
  for (size_t i = 0; i < len_of(c, x->is_set); i++)
    r[i] = x->kind == CN_UNION ? b_or(c, a[i], b[i])
           : x->kind == CN_INTER ? b_and(c, a[i], b[i])
                                 : b_and(c, a[i], b_not(c, b[i]));
  return r;
}

static sc_cat_bool *unary(sctx *c, const sc_cat_node *x, const sc_cat_bool *a) {
  int n = c->n;
  sc_cat_bool *r;
  switch (x->kind) {
  case CN_COMP:
    r = mat(c, x->is_set);
    for (size_t i = 0; i < len_of(c, x->is_set); i++)
      r[i] = b_not(c, a[i]);
    return r;
  case CN_PLUS:
  case CN_STAR:
  case CN_OPT:
    r = copy_of(c, a, false);
    if (x->kind != CN_OPT)
      closure(c, r);
    if (x->kind != CN_PLUS)
      for (int i = 0; i < n; i++)
        r[i * n + i] = T;
    return r;
  case CN_INV:
    r = mat(c, false);
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        r[j * n + i] = a[i * n + j];
    return r;
  case CN_ID:
    r = mat(c, false);
    for (int i = 0; i < n; i++)
      r[i * n + i] = a[i];
    return r;
  case CN_DOMAIN:
  case CN_RANGE:
    r = mat(c, true);
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) {
        int k = x->kind == CN_DOMAIN ? i : j;
        r[k] = b_or(c, r[k], a[i * n + j]);
      }
    return r;
  default:
    return NULL;
  }
}

static sc_cat_bool *compute(sctx *c, const sc_cat_node *x) {
  sc_cat_bool *a = NULL, *b = NULL, *r;
  if (x->a && !(a = value(c, x->a)))
    return NULL;
  if (x->b && !(b = value(c, x->b)))
    return NULL;
  switch (x->kind) {
  case CN_EMPTY:
    return mat(c, x->is_set);
  case CN_FULL:
    r = mat(c, x->is_set);
    for (size_t i = 0; i < len_of(c, x->is_set); i++)
      r[i] = T;
    return r;
  case CN_INPUT:
    return (sc_cat_bool *)c->in[x->index].m;
  case CN_CONST:
    return const_value(c, x);
  case CN_UNION:
  case CN_INTER:
  case CN_DIFF:
    return pointwise(c, x, a, b);
  case CN_SEQ:
    return seq2(c, a, b);
  case CN_PRODUCT:
    r = mat(c, false);
    for (int i = 0; i < c->n; i++)
      for (int j = 0; j < c->n; j++)
        r[i * c->n + j] = b_and(c, a[i], b[j]);
    return r;
  case CN_FIXVAR: /* set by run_fix before any user is computed */
    if (!c->memo[x->id] && !c->err)
      sci_fail(&c->err, SC_ERR_SEMANTIC, x->fix->file, x->fix->line, x->fix->col,
              "internal error: a let rec's name outside its fixpoint");
    return c->memo[x->id];
  case CN_FIX:
    return run_fix(c, x->fix) ? c->memo[x->id] : NULL;
  case CN_COMP: /* no default: a new node kind is a warning (-Wswitch) */
  case CN_PLUS:
  case CN_STAR:
  case CN_OPT:
  case CN_INV:
  case CN_ID:
  case CN_DOMAIN:
  case CN_RANGE:
    return unary(c, x, a);
  }
  return NULL;
}

static sc_cat_bool *value(sctx *c, const sc_cat_node *x) {
  if (!c->memo[x->id])
    c->memo[x->id] = compute(c, x);
  return c->memo[x->id];
}

/* ---- Fixpoints -------------------------------------------------------------- */

static bool same_vals(sctx *c, const sc_cat_fix *fx, sc_cat_bool **a, sc_cat_bool **b) {
  int total = 0;
  for (int k = 0; k < fx->nvars; k++)
    if (fx->next[k])
      total += (int)len_of(c, fx->vars[k]->is_set);
  sc_cat_bool *xs = sci_alloc(sizeof(sc_cat_bool) * (size_t)(total + 1));
  sc_cat_bool *ys = sci_alloc(sizeof(sc_cat_bool) * (size_t)(total + 1));
  int m = 0;
  for (int k = 0; k < fx->nvars; k++)
    if (fx->next[k])
      for (size_t j = 0; j < len_of(c, fx->vars[k]->is_set); j++)
        if (a[k][j] != b[k][j]) {
          if ((a[k][j] == T || a[k][j] == F) && (b[k][j] == T || b[k][j] == F))
            return false; /* two different constants */
          xs[m] = a[k][j];
          ys[m++] = b[k][j];
        }
  return m == 0 || c->ops->equivalent(c->ops->ctx, m, xs, ys);
}

static const char *fix_names(const sc_cat_fix *fx) {
  sc_strbuf sb;
  sci_sb_init(&sb);
  for (int k = 0; k < fx->nvars; k++)
    sci_sb_printf(&sb, "%s%s", k ? ", " : "", fx->names[k]);
  return sb.data;
}

/* herd's Kleene iteration from {}: each round computes the bodies over the
 * previous round's values until they stop changing; the fixpoint's nodes
 * then hold the last values. */
static bool run_fix(sctx *c, sc_cat_fix *fx) {
  sci_cat_fix_deps(c->g, fx);
  int nv = fx->nvars;
  sc_cat_bool **old = sci_alloc(sizeof *old * (size_t)nv);
  sc_cat_bool **cur = sci_alloc(sizeof *cur * (size_t)nv);
  for (int k = 0; k < nv; k++)
    if (fx->next[k])
      old[k] = mat(c, fx->vars[k]->is_set);
  for (int iter = 0; iter < c->max_fix; iter++) {
    for (int i = 0; i < fx->ndeps; i++)
      c->memo[fx->deps[i]] = NULL;
    for (int k = 0; k < nv; k++)
      if (fx->next[k])
        c->memo[fx->vars[k]->id] = old[k];
    for (int k = 0; k < nv; k++)
      if (fx->next[k] && !(cur[k] = value(c, fx->next[k])))
        return false;
    if (same_vals(c, fx, old, cur)) {
      for (int i = 0; i < c->g->nnodes; i++) {
        const sc_cat_node *x = c->g->nodes[i];
        if (x->kind == CN_FIX && x->fix == fx)
          c->memo[x->id] = cur[x->index];
      }
      return true;
    }
    sc_cat_bool **t = old;
    old = cur;
    cur = t;
  }
  if (!c->err) /* worded as eval.c's */
    sci_fail(&c->err, SC_ERR_LIMIT, fx->file, fx->line, fx->col,
            "expected 'let rec %s' to reach its fixpoint within %d iterations (the "
            "-max-iterations limit), found it still changing", fix_names(fx), c->max_fix);
  return false;
}

/* ---- Axioms ------------------------------------------------------------------ */

static bool constant(const sc_cat_bool *m, size_t len) {
  for (size_t i = 0; i < len; i++)
    if (m[i] != T && m[i] != F)
      return false;
  return true;
}

/* Whether an acyclic test holds: from the constants, with the caller's
 * clocks when the result is only ever asserted, else as the irreflexivity
 * of the transitive closure. */
static sc_cat_bool acyclic(sctx *c, const sc_cat_bool *m, bool clocks) {
  int n = c->n;
  if (constant(m, len_of(c, false))) {
    sc_rel *r = sci_rel_new(n);
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        if (m[i * n + j] == T)
          sc_rel_add(r, i, j);
    return sci_rel_is_acyclic(r) ? T : F;
  }
  if (clocks)
    return c->ops->acyclic(c->ops->ctx, n, m);
  sc_cat_bool *cl = copy_of(c, m, false), ok = T;
  closure(c, cl);
  for (int i = 0; i < n && ok != F; i++)
    ok = b_and(c, ok, b_not(c, cl[i * n + i]));
  return ok;
}

static bool axiom_holds(sctx *c, const sc_cat_axiom *ax, sc_cat_bool *out) {
  const sc_cat_test *t = ax->test;
  if (!ax->node) { /* {} passes every test */
    *out = t->negated ? F : T;
    return true;
  }
  sc_cat_bool *m = value(c, ax->node), ok = T;
  if (!m)
    return false;
  int n = c->n;
  if (t->kind == TEST_EMPTY) {
    for (size_t i = 0; i < len_of(c, ax->node->is_set) && ok != F; i++)
      ok = b_and(c, ok, b_not(c, m[i]));
  } else if (t->kind == TEST_IRREFLEXIVE) {
    for (int i = 0; i < n && ok != F; i++)
      ok = b_and(c, ok, b_not(c, m[i * n + i]));
  } else {
    ok = acyclic(c, m, ax->positive && !t->negated);
  }
  *out = t->negated ? b_not(c, ok) : ok;
  return true;
}

static void add_flag(sctx *c, const char *name, sc_cat_bool when) {
  sci_grow(&c->flags, &c->capflags, c->nflags + 1, sizeof(sc_cat_sym_flag));
  c->flags[c->nflags++] = (sc_cat_sym_flag){name, when};
}

static bool run_axiom(sctx *c, const sc_cat_axiom *ax) {
  sc_cat_bool ok;
  if (!axiom_holds(c, ax, &ok))
    return false;
  if (ax->test->type == TT_CHECK)
    c->allowed = b_and(c, c->allowed, ok);
  else if (ax->test->type == TT_UNDEFINED_UNLESS)
    add_flag(c, "undefined", b_not(c, ok));
  else if (ax->test->name)
    add_flag(c, ax->test->name, ok);
  return true;
}

static sc_error *copy_error(const sc_error *e) {
  sc_error *copy = sci_alloc(sizeof *copy);
  *copy = *e;
  return copy;
}

sc_status sci_cat_run_symbolic(const sc_cat_model *m, const sc_cat_env *env,
                              const sc_cat_run_options *opts,
                              const sc_cat_bool_ops *ops,
                              const sc_cat_sym_input *in, int nin,
                              sc_cat_sym_outcome *out, sc_error **err) {
  sctx c;
  memset(&c, 0, sizeof c);
  c.g = sci_cat_graph_of(m, env, opts, in, nin);
  c.max_fix = sci_cat_max_fix(m, opts, env->nevents);
  c.base = env;
  c.ops = ops;
  c.in = in;
  c.n = env->nevents;
  c.memo = sci_alloc(sizeof *c.memo * ((size_t)c.g->nnodes + 1));
  c.allowed = T;
  for (int i = 0; i < c.g->naxioms; i++)
    if (!run_axiom(&c, &c.g->axioms[i])) {
      if (err)
        *err = c.err;
      return c.err->status;
    }
  if (c.g->error) {
    if (err)
      *err = copy_error(c.g->error);
    return c.g->error->status;
  }
  out->allowed = c.allowed;
  out->approximate = c.g->approximate;
  out->flags = c.flags;
  out->nflags = c.nflags;
  return SC_OK;
}
