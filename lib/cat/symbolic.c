/* symbolic.c: a model run over fixed events whose choice relations (rf, co...)
 * are formulas: sets and relations are vectors and matrices of Booleans, each
 * a constant (folded here) or a term of the caller's (the sim layer's Z3).
 * The result is a formula for "the model allows it" and one per flag. */
#define _POSIX_C_SOURCE 200809L
#include "cat/interp.h"

#include "util/error.h"
#include "util/gcmem.h"

#include <string.h>

const char sc_cat_true_[1] = {1};
#define T SC_CAT_TRUE
#define F SC_CAT_FALSE

typedef enum { SV_EMPTY, SV_UNIV, SV_SET, SV_REL, SV_FUN, SV_TUPLE, SV_PROC } sv_kind;

typedef struct senv senv;
typedef struct sval {
  sv_kind k;
  sc_cat_bool *m;        /* SET: n entries; REL: n * n, row-major */
  const sc_cat_exp *fun; /* SV_FUN: the EX_FUN expression */
  const sc_cat_ins *proc;/* SV_PROC */
  const senv *env;       /* SV_FUN, SV_PROC: where it was made */
  bool transitive;       /* SV_REL: known transitive (an input's promise) */
  int n;                 /* SV_TUPLE */
  struct sval **items;
} sval;

typedef struct sthunk {
  int state; /* 0: to evaluate, 1: busy, 2: done */
  sval *v;
  const sc_cat_exp *exp;
  const senv *env;
} sthunk;

struct senv {
  const char *name;
  sthunk *th;
  const senv *next;
};

typedef struct sctx {
  const sc_cat_model *model;
  const sc_cat_env *base;
  const sc_cat_run_options *opts;
  const sc_cat_bool_ops *ops;
  const sc_cat_sym_input *in;
  int nin;
  int n;
  sc_error *err;
  int depth;
  sc_cat_bool allowed;
  bool approximate; /* a `with ... from` left out of allowed */
  sc_cat_sym_flag *flags;
  int nflags, capflags;
} sctx;

/* ---- Booleans, folded ---------------------------------------------------- */

sc_cat_bool sc_cat_bool_and(const sc_cat_bool_ops *ops, sc_cat_bool a, sc_cat_bool b) {
  if (a == F || b == F)
    return F;
  if (a == T)
    return b;
  if (b == T || a == b)
    return a;
  return ops->and_(ops->ctx, a, b);
}

sc_cat_bool sc_cat_bool_or(const sc_cat_bool_ops *ops, sc_cat_bool a, sc_cat_bool b) {
  if (a == T || b == T)
    return T;
  if (a == F)
    return b;
  if (b == F || a == b)
    return a;
  return ops->or_(ops->ctx, a, b);
}

sc_cat_bool sc_cat_bool_not(const sc_cat_bool_ops *ops, sc_cat_bool a) {
  if (a == T)
    return F;
  if (a == F)
    return T;
  return ops->not_(ops->ctx, a);
}

static sc_cat_bool b_and(sctx *c, sc_cat_bool a, sc_cat_bool b) {
  return sc_cat_bool_and(c->ops, a, b);
}

static sc_cat_bool b_or(sctx *c, sc_cat_bool a, sc_cat_bool b) {
  return sc_cat_bool_or(c->ops, a, b);
}

static sc_cat_bool b_not(sctx *c, sc_cat_bool a) { return sc_cat_bool_not(c->ops, a); }

/* ---- Values -------------------------------------------------------------- */

static sval *sv_new(sv_kind k) {
  sval *v = sc_alloc(sizeof *v);
  v->k = k;
  return v;
}

static sval *sv_mat(sctx *c, sv_kind k) {
  sval *v = sv_new(k);
  size_t len = k == SV_SET ? (size_t)c->n : (size_t)c->n * (size_t)c->n;
  v->m = sc_alloc(sizeof(sc_cat_bool) * (len + 1)); /* all F (NULL) */
  return v;
}

static sval *fail(sctx *c, sc_status st, const char *file, int line, const char *what) {
  if (!c->err)
    sc_fail(&c->err, st, file, line, 0, "%s", what);
  return NULL;
}

static sval *unsupported(sctx *c, const char *file, int line, const char *what) {
  if (!c->err)
    sc_fail(&c->err, SC_ERR_UNSUPPORTED, file, line, 0,
            "the symbolic engine cannot encode %s", what);
  return NULL;
}

static sval *as_kind(sctx *c, sval *v, sv_kind k) {
  if (v->k == k)
    return v;
  if (v->k == SV_EMPTY)
    return sv_mat(c, k);
  if (v->k == SV_UNIV) {
    sval *r = sv_mat(c, k);
    size_t len = k == SV_SET ? (size_t)c->n : (size_t)c->n * (size_t)c->n;
    for (size_t i = 0; i < len; i++)
      r->m[i] = T;
    return r;
  }
  return NULL;
}

static bool is_mat(const sval *v) {
  return v->k == SV_SET || v->k == SV_REL;
}

static size_t mlen(const sctx *c, const sval *v) {
  return v->k == SV_SET ? (size_t)c->n : (size_t)c->n * (size_t)c->n;
}

/* ---- Names --------------------------------------------------------------- */

static sval *eval(sctx *c, const sc_cat_exp *e, const senv *env);

static sval *force(sctx *c, sthunk *t, const sc_cat_exp *at) {
  if (t->state == 2)
    return t->v;
  if (t->state == 1)
    return fail(c, SC_ERR_SEMANTIC, at->file, at->line,
                "this definition depends on its own value");
  t->state = 1;
  sval *v = eval(c, t->exp, t->env);
  if (!v) {
    t->state = 0;
    return NULL;
  }
  t->state = 2;
  t->v = v;
  return v;
}

static const senv *bind(const senv *env, const char *name, sthunk *t) {
  if (!name)
    return env;
  senv *b = sc_alloc(sizeof *b);
  b->name = name;
  b->th = t;
  b->next = env;
  return b;
}

static sthunk *done(sval *v) {
  sthunk *t = sc_alloc(sizeof *t);
  t->state = 2;
  t->v = v;
  return t;
}

/* A name of the caller's: an input (symbolic) or a base entry (constant). */
static sval *base_value(sctx *c, const char *name) {
  for (int i = 0; i < c->nin; i++)
    if (strcmp(c->in[i].name, name) == 0) {
      sval *v = sv_new(c->in[i].is_set ? SV_SET : SV_REL);
      v->m = (sc_cat_bool *)c->in[i].m;
      v->transitive = c->in[i].transitive;
      return v;
    }
  for (int i = c->base->n - 1; i >= 0; i--) {
    const struct sc_cat_env_entry *en = &c->base->entries[i];
    if (strcmp(en->name, name) != 0)
      continue;
    if (en->set) {
      sval *v = sv_mat(c, SV_SET);
      for (int a = 0; a < c->n; a++)
        v->m[a] = sc_set_has(en->set, a) ? T : F;
      return v;
    }
    sval *v = sv_mat(c, SV_REL);
    for (int a = 0; a < c->n; a++)
      for (int b = 0; b < c->n; b++)
        v->m[a * c->n + b] = sc_rel_has(en->rel, a, b) ? T : F;
    return v;
  }
  return NULL;
}

static bool base_binds(sctx *c, const char *name) {
  for (int i = 0; i < c->nin; i++)
    if (strcmp(c->in[i].name, name) == 0)
      return true;
  for (int i = 0; i < c->base->n; i++)
    if (strcmp(c->base->entries[i].name, name) == 0)
      return true;
  return false;
}

static sval *lookup(sctx *c, const sc_cat_exp *e, const senv *env) {
  for (const senv *b = env; b; b = b->next)
    if (b->name == e->name || strcmp(b->name, e->name) == 0)
      return force(c, b->th, e);
  sval *v = base_value(c, e->name);
  if (v)
    return v;
  if (strcmp(e->name, "domain") == 0 || strcmp(e->name, "range") == 0) {
    v = sv_new(SV_FUN); /* a primitive: fun == NULL, name in proc-less form */
    v->fun = e;
    return v;
  }
  return fail(c, SC_ERR_SEMANTIC, e->file, e->line,
              sc_printf("unbound name '%s'", e->name));
}

/* ---- Operators ----------------------------------------------------------- */

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

static sval *seq2(sctx *c, sval *a, sval *b) {
  int n = c->n;
  sval *r = sv_mat(c, SV_REL);
  for (int i = 0; i < n; i++)
    for (int k = 0; k < n; k++) {
      sc_cat_bool ik = a->m[i * n + k];
      if (ik == F)
        continue;
      for (int j = 0; j < n; j++) {
        sc_cat_bool kj = b->m[k * n + j];
        if (kj != F && r->m[i * n + j] != T)
          r->m[i * n + j] = b_or(c, r->m[i * n + j], b_and(c, ik, kj));
      }
    }
  return r;
}

static sval *identity_of(sctx *c, sval *s) {
  sval *r = sv_mat(c, SV_REL);
  for (int i = 0; i < c->n; i++)
    r->m[i * c->n + i] = s->m[i];
  return r;
}

static sval *type_error(sctx *c, const sc_cat_exp *e, const char *expected) {
  return fail(c, SC_ERR_SEMANTIC, e->file, e->line,
              sc_printf("type mismatch: expected %s", expected));
}

static sval *eval_op1(sctx *c, const sc_cat_exp *e, const senv *env) {
  sval *v = eval(c, e->args[0], env), *r;
  if (!v)
    return NULL;
  int n = c->n;
  switch (e->op1) {
  case OP1_PLUS:
  case OP1_STAR:
  case OP1_OPT:
    if (v->k == SV_UNIV)
      return v;
    if (v->k == SV_EMPTY && e->op1 == OP1_PLUS)
      return v;
    if (v->k == SV_EMPTY)
      v = sv_mat(c, SV_REL);
    if (v->k != SV_REL)
      return type_error(c, e->args[0], "relation");
    if (v->transitive && e->op1 == OP1_PLUS)
      return v;
    r = sv_mat(c, SV_REL);
    memcpy(r->m, v->m, sizeof(sc_cat_bool) * (size_t)n * (size_t)n);
    if (e->op1 != OP1_OPT && !v->transitive)
      closure(c, r->m);
    if (e->op1 != OP1_PLUS)
      for (int i = 0; i < n; i++)
        r->m[i * n + i] = T;
    return r;
  case OP1_INV:
    if (v->k == SV_EMPTY || v->k == SV_UNIV)
      return v;
    if (v->k != SV_REL)
      return type_error(c, e->args[0], "relation");
    r = sv_mat(c, SV_REL);
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        r->m[j * n + i] = v->m[i * n + j];
    return r;
  case OP1_COMP:
    if (v->k == SV_EMPTY)
      return sv_new(SV_UNIV);
    if (v->k == SV_UNIV)
      return sv_new(SV_EMPTY);
    if (!is_mat(v))
      return unsupported(c, e->file, e->line, "the complement of this value");
    r = sv_mat(c, v->k);
    for (size_t i = 0; i < mlen(c, v); i++)
      r->m[i] = b_not(c, v->m[i]);
    return r;
  case OP1_TOID:
    if (v->k == SV_EMPTY)
      return v;
    if (v->k == SV_UNIV)
      v = as_kind(c, v, SV_SET);
    if (v->k != SV_SET)
      return type_error(c, e->args[0], "event set");
    return identity_of(c, v);
  }
  return NULL;
}

/* Unite, intersect or subtract two matrix values (op 0, 1, 2) with herd's
 * typing of {} and _. */
static sval *binop(sctx *c, const sc_cat_exp *e, int op, sval *a, sval *b) {
  if (op == 0) {
    if (a->k == SV_UNIV || b->k == SV_EMPTY)
      return a;
    if (b->k == SV_UNIV || a->k == SV_EMPTY)
      return b;
  } else if (op == 1) {
    if (a->k == SV_UNIV || b->k == SV_EMPTY)
      return b;
    if (b->k == SV_UNIV || a->k == SV_EMPTY)
      return a;
  } else {
    if (b->k == SV_UNIV || a->k == SV_EMPTY)
      return sv_new(SV_EMPTY);
    if (b->k == SV_EMPTY)
      return a;
    if (a->k == SV_UNIV)
      a = as_kind(c, a, b->k);
  }
  if (!a || !is_mat(a) || !is_mat(b) || a->k != b->k)
    return unsupported(c, e->file, e->line, "this operation on values other "
                       "than event sets and relations of one kind");
  sval *r = sv_mat(c, a->k);
  for (size_t i = 0; i < mlen(c, a); i++)
    r->m[i] = op == 0 ? b_or(c, a->m[i], b->m[i])
              : op == 1 ? b_and(c, a->m[i], b->m[i])
                        : b_and(c, a->m[i], b_not(c, b->m[i]));
  return r;
}

static sval *eval_seq(sctx *c, const sc_cat_exp *e, const senv *env) {
  sval *acc = NULL;
  for (int i = 0; i < e->nargs; i++) {
    sval *v = eval(c, e->args[i], env);
    if (!v)
      return NULL;
    if (v->k == SV_EMPTY)
      return v;
    if (v->k == SV_UNIV)
      v = as_kind(c, v, SV_REL);
    if (v->k != SV_REL)
      return type_error(c, e->args[i], "relation");
    acc = acc ? seq2(c, acc, v) : v;
  }
  return acc;
}

static sval *eval_cartesian(sctx *c, const sc_cat_exp *e, const senv *env) {
  sval *a = eval(c, e->args[0], env), *b = a ? eval(c, e->args[1], env) : NULL;
  if (!b)
    return NULL;
  if (a->k == SV_EMPTY || b->k == SV_EMPTY)
    return sv_new(SV_EMPTY);
  a = as_kind(c, a, SV_SET);
  b = as_kind(c, b, SV_SET);
  if (!a || !b || a->k != SV_SET || b->k != SV_SET)
    return type_error(c, e, "event sets");
  sval *r = sv_mat(c, SV_REL);
  for (int i = 0; i < c->n; i++)
    for (int j = 0; j < c->n; j++)
      r->m[i * c->n + j] = b_and(c, a->m[i], b->m[j]);
  return r;
}

static const senv *bind_pat(sctx *c, const sc_cat_pat *pat, sval *v,
                            const senv *env, const sc_cat_exp *at) {
  if (!pat->is_tuple)
    return bind(env, pat->names[0], done(v));
  if (v->k != SV_TUPLE || v->n != pat->n) {
    unsupported(c, at->file, at->line, "this tuple binding");
    return NULL;
  }
  for (int i = 0; i < pat->n; i++)
    env = bind(env, pat->names[i], done(v->items[i]));
  return env;
}

static sval *apply(sctx *c, sval *f, sval *arg, const sc_cat_exp *at) {
  if (f->k != SV_FUN)
    return type_error(c, at, "function");
  if (f->fun->kind == EX_VAR) { /* domain, range */
    bool dom = strcmp(f->fun->name, "domain") == 0;
    if (arg->k == SV_EMPTY)
      return arg;
    if (arg->k == SV_UNIV)
      return arg;
    if (arg->k != SV_REL)
      return type_error(c, at, "relation");
    sval *r = sv_mat(c, SV_SET);
    for (int i = 0; i < c->n; i++)
      for (int j = 0; j < c->n; j++) {
        int k = dom ? i : j;
        r->m[k] = b_or(c, r->m[k], arg->m[i * c->n + j]);
      }
    return r;
  }
  if (++c->depth > CAT_MAX_APP_DEPTH)
    return unsupported(c, at->file, at->line, "applications nested this deep");
  const senv *env = bind_pat(c, &f->fun->pat, arg, f->env, at);
  sval *v = env ? eval(c, f->fun->body, env) : NULL;
  c->depth--;
  return v;
}

static bool is_fun_bind(const sc_cat_bind *b) {
  return b->exp->kind == EX_FUN && !b->pat.is_tuple;
}

static const senv *bind_lets(const sc_cat_bind *binds, int n, const senv *env) {
  const senv *out = env;
  for (int i = 0; i < n; i++) {
    sthunk *t = sc_alloc(sizeof *t);
    t->exp = binds[i].exp;
    t->env = env;
    out = bind(out, binds[i].pat.names[0], t);
  }
  return out;
}

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

static bool same_vals(sctx *c, sval **a, sval **b, int n) {
  int total = 0;
  for (int i = 0; i < n; i++) {
    if (a[i]->k != b[i]->k)
      return false;
    if (is_mat(a[i]))
      total += (int)mlen(c, a[i]);
  }
  const sc_cat_bool **x = sc_alloc(sizeof(void *) * (size_t)(total + 1));
  const sc_cat_bool **y = sc_alloc(sizeof(void *) * (size_t)(total + 1));
  int k = 0;
  bool syntactic = true;
  for (int i = 0; i < n; i++)
    if (is_mat(a[i]))
      for (size_t j = 0; j < mlen(c, a[i]); j++) {
        if (a[i]->m[j] == b[i]->m[j])
          continue;
        syntactic = false;
        x[k] = &a[i]->m[j];
        y[k++] = &b[i]->m[j];
      }
  if (syntactic)
    return true;
  sc_cat_bool *xs = sc_alloc(sizeof(void *) * (size_t)(k + 1));
  sc_cat_bool *ys = sc_alloc(sizeof(void *) * (size_t)(k + 1));
  for (int i = 0; i < k; i++) {
    xs[i] = *x[i];
    ys[i] = *y[i];
  }
  return c->ops->equivalent(c->ops->ctx, k, xs, ys);
}

static bool mentions(const sc_cat_exp *e, const char *name) {
  if (!e)
    return false;
  if (e->kind == EX_VAR && strcmp(e->name, name) == 0)
    return true;
  for (int i = 0; i < e->nargs; i++)
    if (mentions(e->args[i], name))
      return true;
  for (int i = 0; i < e->nbinds; i++)
    if (mentions(e->binds[i].exp, name))
      return true;
  for (int i = 0; i < e->ncases; i++)
    if (mentions(e->cases[i], name))
      return true;
  return mentions(e->body, name) || mentions(e->dflt, name) ||
         mentions(e->empty_case, name) || mentions(e->elt_case, name) ||
         mentions(e->c1, name) || mentions(e->c2, name) ||
         mentions(e->ifso, name) || mentions(e->ifnot, name);
}

/* let rec X = A | (X; B; X), A and B free of X (ptx-v6.0.cat's
 * observation): its least fixpoint is A; (B; A)*, since that is a fixpoint
 * (A | A;(B;A)*;B;A;(B;A)* = A;(B;A)*) and each A;(B;A)^m is in every
 * fixpoint (by induction on m).  No iteration, no solver call.  NULL when
 * the binding has another shape. */
static sval *rec_chain(sctx *c, const sc_cat_bind *b, const senv *env) {
  const sc_cat_exp *e = b->exp;
  const char *x = b->pat.names[0];
  if (b->pat.is_tuple || !x || e->kind != EX_UNION || e->nargs != 2)
    return NULL;
  for (int k = 0; k < 2; k++) {
    const sc_cat_exp *a = e->args[k], *q = e->args[1 - k];
    if (mentions(a, x) || q->kind != EX_SEQ || q->nargs != 3 ||
        q->args[0]->kind != EX_VAR || strcmp(q->args[0]->name, x) != 0 ||
        q->args[2]->kind != EX_VAR || strcmp(q->args[2]->name, x) != 0 ||
        mentions(q->args[1], x))
      continue;
    sval *av = eval(c, a, env), *bv = av ? eval(c, q->args[1], env) : NULL;
    if (!bv)
      return NULL;
    if (av->k == SV_EMPTY)
      return av;
    av = as_kind(c, av, SV_REL);
    if (bv->k == SV_EMPTY)
      return av;
    bv = as_kind(c, bv, SV_REL);
    if (!av || !bv || av->k != SV_REL || bv->k != SV_REL)
      return NULL;
    sval *ba = seq2(c, bv, av);
    closure(c, ba->m);
    for (int i = 0; i < c->n; i++)
      ba->m[i * c->n + i] = T;
    return seq2(c, av, ba);
  }
  return NULL;
}

/* let rec of values: Kleene iteration from {} (herd's), each binding seeing
 * the new values of those before it, until the values stop changing. */
static const senv *bind_rec(sctx *c, const sc_cat_bind *binds, int n,
                            const senv *env, const char *file, int line) {
  int nv = 0;
  for (int i = 0; i < n; i++) {
    if (is_fun_bind(&binds[i]))
      continue;
    if (binds[i].pat.is_tuple) {
      unsupported(c, file, line, "a let rec of a tuple");
      return NULL;
    }
    for (int j = 0; j < n; j++)
      if (negative_use(binds[j].exp, binds[i].pat.names[0], false)) {
        unsupported(c, file, line, sc_printf("the let rec of %s (not monotone)",
                                             binds[i].pat.names[0]));
        return NULL;
      }
    nv++;
  }
  if (n == 1 && nv == 1) {
    sval *v = rec_chain(c, &binds[0], env);
    if (v)
      return bind(env, binds[0].pat.names[0], done(v));
    if (c->err)
      return NULL;
  }
  sval **old = sc_alloc(sizeof(sval *) * (size_t)(nv + 1));
  sval **cur = sc_alloc(sizeof(sval *) * (size_t)(nv + 1));
  for (int k = 0; k < nv; k++)
    old[k] = sv_new(SV_EMPTY);
  int max = c->n * c->n + 2;
  for (int iter = 0; iter <= max; iter++) {
    /* functions close over the frame of the current values */
    const senv *step = env;
    for (int i = 0, k = 0; i < n; i++)
      if (!is_fun_bind(&binds[i]))
        step = bind(step, binds[i].pat.names[0], done(old[k++]));
    for (int i = 0; i < n; i++)
      if (is_fun_bind(&binds[i])) {
        sval *f = sv_new(SV_FUN);
        f->fun = binds[i].exp;
        step = bind(step, binds[i].pat.names[0], done(f));
        f->env = NULL;
      }
    for (const senv *b = step; b != env; b = b->next)
      if (b->th->v->k == SV_FUN && b->th->v->env == NULL)
        b->th->v->env = step;
    if (nv == 0)
      return step;
    const senv *st = step;
    for (int i = 0, k = 0; i < n; i++) {
      if (is_fun_bind(&binds[i]))
        continue;
      if (!(cur[k] = eval(c, binds[i].exp, st)))
        return NULL;
      st = bind(st, binds[i].pat.names[0], done(cur[k]));
      k++;
    }
    for (int k = 0; k < nv; k++) {
      if (cur[k]->k == SV_UNIV || cur[k]->k == SV_EMPTY)
        continue;
      if (old[k]->k == SV_EMPTY)
        old[k] = as_kind(c, old[k], cur[k]->k);
    }
    if (same_vals(c, old, cur, nv))
      return st;
    sval **t = old;
    old = cur;
    cur = t;
  }
  fail(c, SC_ERR_LIMIT, file, line, "expected a let rec to reach its fixpoint");
  return NULL;
}

static sval *eval(sctx *c, const sc_cat_exp *e, const senv *env) {
  if (c->err)
    return NULL;
  sval *v, *a;
  switch (e->kind) {
  case EX_EMPTY_REL: return sv_new(SV_EMPTY);
  case EX_UNIV: return sv_new(SV_UNIV);
  case EX_VAR: return lookup(c, e, env);
  case EX_TUPLE:
    v = sv_new(SV_TUPLE);
    v->n = e->nargs;
    v->items = sc_alloc(sizeof(sval *) * (size_t)(e->nargs + 1));
    for (int i = 0; i < e->nargs; i++)
      if (!(v->items[i] = eval(c, e->args[i], env)))
        return NULL;
    return v;
  case EX_OP1: return eval_op1(c, e, env);
  case EX_UNION:
  case EX_INTER:
  case EX_DIFF:
    if (!(v = eval(c, e->args[0], env)))
      return NULL;
    for (int i = 1; i < e->nargs; i++) {
      if (!(a = eval(c, e->args[i], env)) ||
          !(v = binop(c, e, e->kind == EX_UNION ? 0 : e->kind == EX_INTER ? 1 : 2, v, a)))
        return NULL;
    }
    return v;
  case EX_SEQ: return eval_seq(c, e, env);
  case EX_CARTESIAN: return eval_cartesian(c, e, env);
  case EX_APP:
    if (!(v = eval(c, e->args[0], env)) || !(a = eval(c, e->args[1], env)))
      return NULL;
    return apply(c, v, a, e);
  case EX_FUN:
    v = sv_new(SV_FUN);
    v->fun = e;
    v->env = env;
    return v;
  case EX_BIND:
    for (int i = 0; i < e->nbinds; i++)
      if (e->binds[i].pat.is_tuple)
        return unsupported(c, e->file, e->line, "a tuple binding");
    return eval(c, e->body, bind_lets(e->binds, e->nbinds, env));
  case EX_BINDREC:
    env = bind_rec(c, e->binds, e->nbinds, env, e->file, e->line);
    return env ? eval(c, e->body, env) : NULL;
  case EX_IF:
    if (e->cond == COND_VARIANT) {
      cat_ctx cc = {0};
      cc.opts = c->opts;
      return eval(c, sc_cat_variant_set(&cc, e->vcond) ? e->ifso : e->ifnot, env);
    }
    return unsupported(c, e->file, e->line, "an 'if' on values");
  case EX_TAG: return unsupported(c, e->file, e->line, "a tag");
  case EX_EXPLICIT_SET: return unsupported(c, e->file, e->line, "an explicit set");
  case EX_ADD: return unsupported(c, e->file, e->line, "'++'");
  case EX_MATCH:
  case EX_MATCHSET: return unsupported(c, e->file, e->line, "a 'match'");
  case EX_TRY: { /* try e with e': e' where e fails as herd's try does */
    int depth = c->depth;
    sval *v = eval(c, e->args[0], env);
    if (v || !c->err || c->err->status != SC_ERR_SEMANTIC)
      return v;
    c->err = NULL;
    c->depth = depth;
    return eval(c, e->body, env);
  }
  }
  return unsupported(c, e->file, e->line, "this expression");
}

/* ---- Tests and instructions ---------------------------------------------- */

static bool skipped(const sctx *c, const char *name) {
  for (int i = 0; name && c->opts && i < c->opts->nskip; i++)
    if (c->opts->skipchecks[i] && strcmp(c->opts->skipchecks[i], name) == 0)
      return true;
  return false;
}

/* Whether a test holds; `positive`: the caller only ever asserts what it
 * yields (a check's verdict, a flag's condition), so that an acyclic test
 * that is not negated may be encoded with the caller's clocks; otherwise
 * it is the irreflexivity of the transitive closure. */
static bool test_holds(sctx *c, const sc_cat_test *t, const senv *env,
                       const char *file, bool positive, sc_cat_bool *out) {
  sval *v = eval(c, t->exp, env);
  if (!v)
    return false;
  if (v->k == SV_UNIV)
    v = as_kind(c, v, SV_REL);
  if (v->k == SV_EMPTY) {
    *out = t->negated ? F : T;
    return true;
  }
  if (!is_mat(v)) {
    type_error(c, t->exp, "relation or event set");
    return false;
  }
  if (v->k == SV_SET && t->kind != TEST_EMPTY) {
    type_error(c, t->exp, "relation");
    return false;
  }
  int n = c->n;
  sc_cat_bool ok = T;
  if (t->kind == TEST_EMPTY) {
    for (size_t i = 0; i < mlen(c, v) && ok != F; i++)
      ok = b_and(c, ok, b_not(c, v->m[i]));
  } else if (t->kind == TEST_IRREFLEXIVE) {
    for (int i = 0; i < n && ok != F; i++)
      ok = b_and(c, ok, b_not(c, v->m[i * n + i]));
  } else {
    bool constant = true;
    for (size_t i = 0; i < mlen(c, v) && constant; i++)
      constant = v->m[i] == T || v->m[i] == F;
    if (constant) {
      sc_rel *r = sc_rel_new(n);
      for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
          if (v->m[i * n + j] == T)
            sc_rel_add(r, i, j);
      ok = sc_rel_is_acyclic(r) ? T : F;
    } else if (positive && !t->negated) {
      ok = c->ops->acyclic(c->ops->ctx, n, v->m);
    } else {
      sc_cat_bool *m = sc_alloc(sizeof(sc_cat_bool) * (size_t)(n * n + 1));
      memcpy(m, v->m, sizeof(sc_cat_bool) * (size_t)(n * n));
      closure(c, m);
      for (int i = 0; i < n && ok != F; i++)
        ok = b_and(c, ok, b_not(c, m[i * n + i]));
    }
  }
  (void)file;
  *out = t->negated ? b_not(c, ok) : ok;
  return true;
}

static void add_flag(sctx *c, const char *name, sc_cat_bool when) {
  sc_grow(&c->flags, &c->capflags, c->nflags + 1, sizeof(sc_cat_sym_flag));
  c->flags[c->nflags++] = (sc_cat_sym_flag){name, when};
}

static bool run_prog(sctx *c, const sc_cat_prog *p, const senv **env);

static bool exec(sctx *c, const sc_cat_ins *ins, const senv **env) {
  sc_cat_bool ok;
  const sc_cat_test *t;
  cat_ctx cc = {0};
  switch (ins->kind) {
  case IN_LET:
    for (int i = 0; i < ins->nbinds; i++) {
      const sc_cat_pat *pat = &ins->binds[i].pat;
      if (pat->is_tuple) {
        unsupported(c, ins->file, ins->line, "a tuple binding");
        return false;
      }
      if (ins->is_default && pat->names[0] && base_binds(c, pat->names[0]))
        continue;
      sthunk *th = sc_alloc(sizeof *th);
      th->exp = ins->binds[i].exp;
      th->env = *env;
      *env = bind(*env, pat->names[0], th);
    }
    return true;
  case IN_REC:
    if (ins->test) {
      unsupported(c, ins->file, ins->line, "a 'let rec ... when' test");
      return false;
    }
    return (*env = bind_rec(c, ins->binds, ins->nbinds, *env, ins->file, ins->line)) != NULL;
  case IN_TEST:
    t = ins->test;
    if (skipped(c, t->name))
      return true;
    if (t->type == TT_ASSERT) {
      unsupported(c, ins->file, t->line, "an assert");
      return false;
    }
    if (!test_holds(c, t, *env, ins->file,
                    t->type == TT_CHECK || t->type == TT_FLAG, &ok))
      return false;
    if (t->type == TT_CHECK)
      c->allowed = b_and(c, c->allowed, ok);
    else if (t->type == TT_UNDEFINED_UNLESS)
      add_flag(c, "undefined", b_not(c, ok));
    else if (t->name)
      add_flag(c, t->name, ok);
    return true;
  case IN_SHOW:
  case IN_SHOWAS:
  case IN_UNSHOW:
  case IN_DEBUG:
  case IN_EVENTS:
  case IN_DOC:
    return true;
  case IN_INCLUDE:
    return run_prog(c, ins->included, env);
  case IN_PROCEDURE: {
    sval *p = sv_new(SV_PROC);
    p->proc = ins;
    sthunk *th = done(p);
    *env = bind(*env, ins->name, th);
    p->env = ins->is_rec ? *env : (*env)->next;
    return true;
  }
  case IN_CALL: {
    const senv *b = *env;
    while (b && strcmp(b->name, ins->name) != 0)
      b = b->next;
    if (!b || b->th->state != 2 || b->th->v->k != SV_PROC) {
      unsupported(c, ins->file, ins->line, sc_printf("the call of %s", ins->name));
      return false;
    }
    if (ins->as_name) {
      unsupported(c, ins->file, ins->line, "a call ... as");
      return false;
    }
    sval *p = b->th->v, *arg = eval(c, ins->exp, *env);
    if (!arg)
      return false;
    const senv *penv = bind_pat(c, &p->proc->pat, arg, p->env, ins->exp);
    return penv && run_prog(c, &p->proc->body, &penv);
  }
  case IN_IFVARIANT:
    cc.opts = c->opts;
    return run_prog(c, sc_cat_variant_set(&cc, ins->vcond) ? &ins->body : &ins->other, env);
  case IN_ENUM:
    unsupported(c, ins->file, ins->line, "an enum");
    return false;
  case IN_FORALL:
    unsupported(c, ins->file, ins->line, "a forall");
    return false;
  case IN_WITHFROM:
    /* with x from S, x a name of the caller's (herd's cos.cat: with co from
     * generate_cos(cobase)): a candidate is the one run with its own x,
     * when S holds it (run.c's candidate_member).  The membership is left
     * out of `allowed`, which then over-approximates: the caller has the
     * model run concretely on each execution the solver finds. */
    if (!base_binds(c, ins->name)) {
      unsupported(c, ins->file, ins->line,
                  sc_printf("'with %s from ...' over a name the model binds "
                            "(only over the execution's own, such as co)", ins->name));
      return false;
    }
    c->approximate = true;
    *env = bind(*env, ins->name, done(base_value(c, ins->name)));
    return true;
  case IN_MATCH:
    unsupported(c, ins->file, ins->line, "a 'match' instruction");
    return false;
  }
  unsupported(c, ins->file, ins->line, "this instruction");
  return false;
}

static bool run_prog(sctx *c, const sc_cat_prog *p, const senv **env) {
  for (int i = 0; i < p->n; i++)
    if (!exec(c, p->ins[i], env))
      return false;
  return true;
}

sc_status sc_cat_run_symbolic(const sc_cat_model *m, const sc_cat_env *env,
                              const sc_cat_run_options *opts,
                              const sc_cat_bool_ops *ops,
                              const sc_cat_sym_input *in, int nin,
                              sc_cat_sym_outcome *out, sc_error **err) {
  sctx c;
  memset(&c, 0, sizeof c);
  c.model = m;
  c.base = env;
  c.opts = opts;
  c.ops = ops;
  c.in = in;
  c.nin = nin;
  c.n = env->nevents;
  c.allowed = T;
  const senv *e = NULL;
  bool ok = run_prog(&c, &m->prelude, &e) && run_prog(&c, &m->bell, &e) &&
            run_prog(&c, &m->prog, &e);
  if (!ok || c.err) {
    if (err)
      *err = c.err;
    return c.err ? c.err->status : SC_ERR_SEMANTIC;
  }
  out->allowed = c.allowed;
  out->approximate = c.approximate;
  out->flags = c.flags;
  out->nflags = c.nflags;
  return SC_OK;
}
