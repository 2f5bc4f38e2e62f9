/* eval.c: evaluation of cat expressions as herd7's interpreter does it:
 * lazy lets, closures, `let rec` fixpoints, and the polymorphic set and
 * relation operators with herd's typing rules ({} and _ adapt to their
 * context; a tag in a union is the set of that tag).  Instructions are
 * run.c's business; where the base relations come from is none of
 * this file's. */
#include "cat/interp.h"

#include "util/error.h"
#include "util/gcmem.h"
#include "util/strbuf.h"

#include <stdarg.h>
#include <string.h>

static sc_cat_value *type_error(cat_ctx *c, const sc_cat_exp *at,
                                const char *expected, const sc_cat_value *found) {
  return sci_cat_fail_at(c, at, "type mismatch: expected %s, found %s", expected,
                        sci_cat_vtype(found));
}

/* ---- Environments -------------------------------------------------------- */

cat_thunk *sci_cat_thunk_value(sc_cat_value *v) {
  cat_thunk *t = sci_alloc(sizeof *t);
  t->state = TH_DONE;
  t->value = v;
  return t;
}

const cat_env *sci_cat_env_thunk(const cat_env *env, const char *name, cat_thunk *t) {
  cat_env *b = sci_alloc(sizeof *b);
  b->kind = BK_VALUE;
  b->name = name;
  b->th = t;
  b->next = env;
  return b;
}

const cat_env *sci_cat_env_value(const cat_env *env, const char *name, sc_cat_value *v) {
  return sci_cat_env_thunk(env, name, sci_cat_thunk_value(v));
}

/* Names are interned, so the model's names compare as pointers. */
cat_thunk *sci_cat_env_find(const cat_env *env, const char *name) {
  for (; env; env = env->next)
    if (env->kind == BK_VALUE && env->name == name)
      return env->th;
  return NULL;
}

/* The components a tuple pattern takes from a value (herd's v_as_vs). */
static int components(sc_cat_value *v, sc_cat_value ***out) {
  if (v->kind == SC_CAT_TUPLE) {
    *out = v->u.tuple.items;
    return v->u.tuple.n;
  }
  sc_cat_value **items = sci_alloc(2 * sizeof *items);
  if (v->kind == SC_CAT_PAIR) {
    items[0] = sci_cat_v_event(v->u.pair.a);
    items[1] = sci_cat_v_event(v->u.pair.b);
    *out = items;
    return 2;
  }
  items[0] = v;
  *out = items;
  return 1;
}

sc_cat_value *sci_cat_force(cat_ctx *c, cat_thunk *t) {
  sc_cat_value *v, **items;
  switch (t->state) {
  case TH_DONE:
    return t->value;
  case TH_BUSY:
    return sci_cat_fail_at(c, t->exp, "this definition depends on its own value");
  case TH_EXP:
    t->state = TH_BUSY;
    v = sci_cat_eval_exp(c, t->exp, t->env);
    if (!v) {
      t->state = TH_EXP; /* a `try` may force it again */
      return NULL;
    }
    t->state = TH_DONE;
    t->value = v;
    t->env = NULL; /* let the collector have it */
    return v;
  case TH_PROJ:
    if (!(v = sci_cat_force(c, t->of)))
      return NULL;
    if (components(v, &items) <= t->index)
      return sci_cat_fail(c, SC_ERR_SEMANTIC, t->file, t->line, t->col,
                         "binding mismatch: the pattern has more names than "
                         "the %s it is bound to has components",
                         sci_cat_vtype(v));
    t->state = TH_DONE;
    t->value = items[t->index];
    return t->value;
  }
  return NULL;
}

/* Bind a pattern to a (lazy) value: tuple patterns take components. */
static const cat_env *bind_pattern(const sc_cat_pat *pat, cat_thunk *t,
                                   const cat_env *env, const char *file,
                                   int line, int col) {
  if (!pat->is_tuple)
    return pat->names[0] ? sci_cat_env_thunk(env, pat->names[0], t) : env;
  for (int i = 0; i < pat->n; i++) {
    if (!pat->names[i])
      continue;
    cat_thunk *proj = sci_alloc(sizeof *proj);
    proj->state = TH_PROJ;
    proj->of = t;
    proj->index = i;
    proj->file = file;
    proj->line = line;
    proj->col = col;
    env = sci_cat_env_thunk(env, pat->names[i], proj);
  }
  return env;
}

const cat_env *sci_cat_bind_lets(cat_ctx *c, const sc_cat_bind *binds, int n,
                                const cat_env *env) {
  (void)c;
  const cat_env *out = env;
  for (int i = 0; i < n; i++) {
    cat_thunk *t = sci_alloc(sizeof *t);
    t->state = TH_EXP;
    t->exp = binds[i].exp;
    t->env = env; /* the bindings of one let do not see each other */
    out = bind_pattern(&binds[i].pat, t, out, binds[i].exp->file, binds[i].line,
                       binds[i].col);
  }
  return out;
}

const cat_env *sci_cat_bind_args(cat_ctx *c, const sc_cat_pat *pat, sc_cat_value *v,
                                const cat_env *env, const sc_cat_exp *where) {
  if (!pat->is_tuple)
    return pat->names[0] ? sci_cat_env_value(env, pat->names[0], v) : env;
  sc_cat_value **items;
  int n = components(v, &items);
  if (n != pat->n) {
    sci_cat_fail_at(c, where, "argument mismatch: %d argument%s expected, %d given",
                   pat->n, pat->n == 1 ? "" : "s", n);
    return NULL;
  }
  for (int i = 0; i < n; i++)
    if (pat->names[i])
      env = sci_cat_env_value(env, pat->names[i], items[i]);
  return env;
}

/* ---- Conversions --------------------------------------------------------- */

/* A value as a relation when it is one (empty, universe and pairs too). */
static const sc_rel *as_rel(cat_ctx *c, const sc_cat_value *v) {
  sc_rel *r;
  switch (v->kind) {
  case SC_CAT_REL: return v->u.rel;
  case SC_CAT_EMPTY: return sci_rel_new(c->n);
  case SC_CAT_UNIV: return sci_cat_unv(c);
  case SC_CAT_PAIR:
    r = sci_rel_new(c->n);
    sc_rel_add(r, v->u.pair.a, v->u.pair.b);
    return r;
  default: return NULL;
  }
}

/* A value as an event set when it is one (empty, universe and events too). */
static const sc_set *as_set(cat_ctx *c, const sc_cat_value *v) {
  sc_set *s;
  switch (v->kind) {
  case SC_CAT_SET: return v->u.set;
  case SC_CAT_EMPTY: return sci_set_new(c->n);
  case SC_CAT_UNIV: return sci_cat_all(c);
  case SC_CAT_EVENT:
    s = sci_set_new(c->n);
    sc_set_add(s, v->u.event);
    return s;
  default: return NULL;
  }
}

static const sc_set *eval_events(cat_ctx *c, const sc_cat_exp *e, const cat_env *env) {
  sc_cat_value *v = sci_cat_eval_exp(c, e, env);
  if (!v)
    return NULL;
  const sc_set *s = as_set(c, v);
  if (!s)
    type_error(c, e, "event set", v);
  return s;
}

static const sc_rel *eval_rel(cat_ctx *c, const sc_cat_exp *e, const cat_env *env) {
  sc_cat_value *v = sci_cat_eval_exp(c, e, env);
  if (!v)
    return NULL;
  const sc_rel *r = as_rel(c, v);
  if (!r)
    type_error(c, e, "relation", v);
  return r;
}

sc_cat_value *sci_cat_eval_rel_or_set(cat_ctx *c, const sc_cat_exp *e,
                                     const cat_env *env) {
  sc_cat_value *v = sci_cat_eval_exp(c, e, env);
  if (!v)
    return NULL;
  switch (v->kind) {
  case SC_CAT_REL:
  case SC_CAT_SET: return v;
  case SC_CAT_EVENT: return sci_cat_v_set(as_set(c, v));
  case SC_CAT_PAIR:
  case SC_CAT_EMPTY:
  case SC_CAT_UNIV: return sci_cat_v_rel(as_rel(c, v));
  default: return type_error(c, e, "relation or event set", v);
  }
}

/* The tags an enum declares, for complements of tag sets. */
static const cat_env *find_enum(const cat_env *env, const char *enum_name) {
  for (; env; env = env->next)
    if (env->kind == BK_ENUM && strcmp(env->name, enum_name) == 0)
      return env;
  return NULL;
}

/* All tags of the enum of a tag set's elements, or NULL with an error. */
static sc_cat_value *tag_universe(cat_ctx *c, const cat_type *elt,
                                  const cat_env *env, const sc_cat_exp *at) {
  const cat_env *en = elt && elt->kind == TY_TAG ? find_enum(env, elt->tag_type) : NULL;
  if (!en)
    return sci_cat_fail_at(c, at, "cannot build the universe of %s",
                          elt ? sci_cat_type_name(elt) : "this set");
  sc_cat_value **items = sci_alloc(sizeof *items * (size_t)(en->ntags ? en->ntags : 1));
  for (int i = 0; i < en->ntags; i++)
    items[i] = sci_cat_v_tag(en->name, en->tags[i]);
  return sci_cat_v_valset(c, elt, en->ntags, items);
}

/* ---- Value sets ---------------------------------------------------------- */

/* Items of a (sorted) that are (keep=true) or are not in b. */
static sc_cat_value *valset_filter(cat_ctx *c, const sc_cat_value *a,
                                   const sc_cat_value *b, bool keep) {
  sc_cat_value **items = sci_alloc(sizeof *items * (size_t)(a->u.vs.n ? a->u.vs.n : 1));
  int n = 0;
  for (int i = 0; i < a->u.vs.n; i++) {
    bool in = sci_cat_valset_has(c, b, a->u.vs.items[i]);
    if (c->error)
      return NULL;
    if (in == keep)
      items[n++] = a->u.vs.items[i];
  }
  return sci_cat_v_valset(c, a->u.vs.elt, n, items);
}

/* The element type shared by two value sets, or NULL after an error. */
static const cat_type *valset_elt(cat_ctx *c, const sc_cat_value *a,
                                  const sc_cat_value *b, const sc_cat_exp *at,
                                  const char *op) {
  const cat_type *ta = sci_cat_type_of(a), *tb = sci_cat_type_of(b);
  const cat_type *t = sci_cat_type_unify(ta, tb);
  if (!t) {
    sci_cat_fail_at(c, at, "type mismatch in %s: %s and %s", op,
                   sci_cat_type_name(ta), sci_cat_type_name(tb));
    return NULL;
  }
  return t->elt;
}

/* ---- Operators ----------------------------------------------------------- */

static sc_cat_value *eval_op1(cat_ctx *c, const sc_cat_exp *e, const cat_env *env) {
  const sc_cat_exp *arg = e->args[0];
  sc_cat_value *v = sci_cat_eval_exp(c, arg, env);
  if (!v)
    return NULL;
  sc_rel *r;
  sc_set *s;
  switch (e->op1) {
  case OP1_PLUS:
  case OP1_STAR:
  case OP1_OPT:
    if (v->kind == SC_CAT_UNIV)
      return v;
    if (v->kind == SC_CAT_EMPTY)
      return e->op1 == OP1_PLUS ? v : sci_cat_v_rel(sci_cat_id(c));
    if (v->kind != SC_CAT_REL)
      return type_error(c, arg, "relation", v);
    r = sci_rel_new(c->n);
    if (e->op1 == OP1_PLUS)
      sci_rel_plus(r, v->u.rel);
    else if (e->op1 == OP1_STAR)
      sci_rel_star(r, v->u.rel);
    else
      sci_rel_opt(r, v->u.rel);
    return sci_cat_v_rel(r);
  case OP1_INV:
    switch (v->kind) {
    case SC_CAT_EMPTY:
    case SC_CAT_UNIV: return v;
    case SC_CAT_PAIR: return sci_cat_v_pair(v->u.pair.b, v->u.pair.a);
    case SC_CAT_REL:
      r = sci_rel_new(c->n);
      sci_rel_inverse(r, v->u.rel);
      return sci_cat_v_rel(r);
    default: return type_error(c, arg, "relation", v);
    }
  case OP1_COMP:
    switch (v->kind) {
    case SC_CAT_EMPTY: return sci_cat_v_univ();
    case SC_CAT_UNIV: return sci_cat_v_empty();
    case SC_CAT_SET:
      s = sci_set_new(c->n);
      sci_set_complement(s, v->u.set);
      return sci_cat_v_set(s);
    case SC_CAT_REL:
      r = sci_rel_new(c->n);
      sci_rel_complement(r, v->u.rel);
      return sci_cat_v_rel(r);
    case SC_CAT_VALSET:
      if (v->u.vs.elt && v->u.vs.elt->kind == TY_TAG) {
        sc_cat_value *all = tag_universe(c, v->u.vs.elt, env, arg);
        return all ? valset_filter(c, all, v, false) : NULL;
      }
      /* fall through */
    default: return type_error(c, arg, "set or relation", v);
    }
  case OP1_TOID:
    switch (v->kind) {
    case SC_CAT_EMPTY: return v;
    case SC_CAT_UNIV: return sci_cat_v_rel(sci_cat_id(c));
    case SC_CAT_SET:
      r = sci_rel_new(c->n);
      sci_rel_identity(r, v->u.set);
      return sci_cat_v_rel(r);
    default: return type_error(c, arg, "event set", v);
    }
  }
  return NULL;
}

/* Evaluate every operand of an n-ary operator; NULL on error. */
static sc_cat_value **eval_all(cat_ctx *c, const sc_cat_exp *e, const cat_env *env) {
  sc_cat_value **vs = sci_alloc(sizeof *vs * (size_t)e->nargs);
  for (int i = 0; i < e->nargs; i++)
    if (!(vs[i] = sci_cat_eval_exp(c, e->args[i], env)))
      return NULL;
  return vs;
}

/* Union is polymorphic: relations, event sets or value sets; {} is
 * neutral, _ absorbs, a tag counts as its singleton set. */
static sc_cat_value *eval_union(cat_ctx *c, const sc_cat_exp *e, const cat_env *env) {
  sc_cat_value **vs = eval_all(c, e, env);
  if (!vs)
    return NULL;
  sc_cat_value **items = sci_alloc(sizeof *items * (size_t)e->nargs);
  const sc_cat_exp **where = sci_alloc(sizeof *where * (size_t)e->nargs);
  int n = 0;
  for (int i = 0; i < e->nargs; i++) {
    if (vs[i]->kind == SC_CAT_EMPTY)
      continue;
    if (vs[i]->kind == SC_CAT_UNIV)
      return vs[i];
    where[n] = e->args[i];
    if (!(items[n++] = sci_cat_tag2set(c, vs[i])))
      return NULL;
  }
  if (n == 0)
    return sci_cat_v_empty();
  const cat_type *t = sci_cat_type_of(items[0]);
  for (int i = 1; i < n; i++) {
    const cat_type *ti = sci_cat_type_of(items[i]);
    const cat_type *u = sci_cat_type_unify(t, ti);
    if (!u)
      return sci_cat_fail_at(c, where[i],
                            "type mismatch in union: expected %s, found %s",
                            sci_cat_type_name(t), sci_cat_type_name(ti));
    t = u;
  }
  if (t->kind == TY_REL) {
    sc_rel *r = sci_rel_copy(items[0]->u.rel);
    for (int i = 1; i < n; i++)
      sci_rel_union(r, r, items[i]->u.rel);
    return sci_cat_v_rel(r);
  }
  if (t->kind == TY_EVENTS) {
    sc_set *s = sci_set_copy(items[0]->u.set);
    for (int i = 1; i < n; i++)
      sci_set_union(s, s, items[i]->u.set);
    return sci_cat_v_set(s);
  }
  if (t->kind == TY_SET) {
    int total = 0;
    for (int i = 0; i < n; i++)
      total += items[i]->u.vs.n;
    sc_cat_value **all = sci_alloc(sizeof *all * (size_t)(total ? total : 1));
    int k = 0;
    for (int i = 0; i < n; i++)
      for (int j = 0; j < items[i]->u.vs.n; j++)
        all[k++] = items[i]->u.vs.items[j];
    return sci_cat_v_valset(c, t->elt, k, all);
  }
  return sci_cat_fail_at(c, e, "cannot take the union of values of type %s",
                        sci_cat_type_name(t));
}

/* One operand of a sequence: a relation, or [S] kept as a filter on S
 * (herd's Rid: cheaper than building the identity relation). */
typedef struct seq_part {
  const sc_rel *rel; /* NULL for a filter */
  const sc_set *filter;
} seq_part;

static bool eval_seq_part(cat_ctx *c, const sc_cat_exp *arg, const cat_env *env,
                          seq_part *part, bool *empty) {
  if (arg->kind == EX_OP1 && arg->op1 == OP1_TOID) {
    part->rel = NULL;
    part->filter = eval_events(c, arg->args[0], env);
    return part->filter != NULL;
  }
  sc_cat_value *v = sci_cat_eval_exp(c, arg, env);
  if (!v)
    return false;
  if (v->kind == SC_CAT_EMPTY) {
    *empty = true;
    return true;
  }
  if (v->kind != SC_CAT_REL && v->kind != SC_CAT_UNIV && v->kind != SC_CAT_PAIR) {
    type_error(c, arg, "relation", v);
    return false;
  }
  part->rel = as_rel(c, v);
  return true;
}

static sc_cat_value *eval_seq(cat_ctx *c, const sc_cat_exp *e, const cat_env *env) {
  seq_part *parts = sci_alloc(sizeof *parts * (size_t)e->nargs);
  for (int i = 0; i < e->nargs; i++) {
    bool empty = false;
    if (!eval_seq_part(c, e->args[i], env, &parts[i], &empty))
      return NULL;
    if (empty) /* herd stops at an empty operand: the result is {} */
      return sci_cat_v_empty();
  }
  seq_part acc = parts[e->nargs - 1];
  for (int i = e->nargs - 2; i >= 0; i--) {
    seq_part p = parts[i];
    sc_rel *r;
    if (!p.rel && !acc.rel) {
      sc_set *s = sci_set_new(c->n);
      sci_set_inter(s, p.filter, acc.filter);
      acc.filter = s;
      continue;
    }
    r = sci_rel_new(c->n);
    if (!p.rel)
      sci_rel_restrict(r, acc.rel, p.filter, NULL);
    else if (!acc.rel)
      sci_rel_restrict(r, p.rel, NULL, acc.filter);
    else
      sci_rel_seq(r, p.rel, acc.rel);
    acc.rel = r;
  }
  if (acc.rel)
    return sci_cat_v_rel(acc.rel);
  sc_rel *id = sci_rel_new(c->n);
  sci_rel_identity(id, acc.filter);
  return sci_cat_v_rel(id);
}

static bool is_set_like(sc_cat_kind k) {
  return k == SC_CAT_REL || k == SC_CAT_SET || k == SC_CAT_VALSET ||
         k == SC_CAT_EMPTY || k == SC_CAT_UNIV;
}

/* Errors of & and \ on mismatched operands, worded as herd's are. */
static sc_cat_value *binop_error(cat_ctx *c, const sc_cat_exp *e,
                                 const sc_cat_value *v1, const sc_cat_value *v2,
                                 const char *op) {
  if (!is_set_like(v1->kind))
    return sci_cat_fail_at(c, e->args[0], "type mismatch in %s: a %s is not a set "
                          "or relation", op, sci_cat_vtype(v1));
  if (!is_set_like(v2->kind))
    return sci_cat_fail_at(c, e->args[1], "type mismatch in %s: a %s is not a set "
                          "or relation", op, sci_cat_vtype(v2));
  return sci_cat_fail_at(c, e, "type mismatch in %s: %s and %s", op,
                        sci_cat_vtype(v1), sci_cat_vtype(v2));
}

static sc_cat_value *eval_inter(cat_ctx *c, const sc_cat_exp *e, const cat_env *env) {
  sc_cat_value *v1 = sci_cat_eval_exp(c, e->args[0], env);
  sc_cat_value *v2 = v1 ? sci_cat_eval_exp(c, e->args[1], env) : NULL;
  if (!v2 || !(v1 = sci_cat_tag2set(c, v1)) || !(v2 = sci_cat_tag2set(c, v2)))
    return NULL;
  sc_cat_kind k1 = v1->kind, k2 = v2->kind;
  if (k1 == SC_CAT_REL && k2 == SC_CAT_REL) {
    sc_rel *r = sci_rel_new(c->n);
    sci_rel_inter(r, v1->u.rel, v2->u.rel);
    return sci_cat_v_rel(r);
  }
  if (k1 == SC_CAT_SET && k2 == SC_CAT_SET) {
    sc_set *s = sci_set_new(c->n);
    sci_set_inter(s, v1->u.set, v2->u.set);
    return sci_cat_v_set(s);
  }
  if (k1 == SC_CAT_VALSET && k2 == SC_CAT_VALSET) {
    if (!valset_elt(c, v1, v2, e, "intersection") && c->error)
      return NULL;
    return valset_filter(c, v1, v2, true);
  }
  if (is_set_like(k1) && is_set_like(k2)) {
    if (k1 == SC_CAT_UNIV)
      return v2;
    if (k2 == SC_CAT_UNIV)
      return v1;
    if (k1 == SC_CAT_EMPTY || k2 == SC_CAT_EMPTY)
      return sci_cat_v_empty();
  }
  return binop_error(c, e, v1, v2, "intersection");
}

static sc_cat_value *eval_diff(cat_ctx *c, const sc_cat_exp *e, const cat_env *env) {
  sc_cat_value *v1 = sci_cat_eval_exp(c, e->args[0], env);
  sc_cat_value *v2 = v1 ? sci_cat_eval_exp(c, e->args[1], env) : NULL;
  if (!v2 || !(v1 = sci_cat_tag2set(c, v1)) || !(v2 = sci_cat_tag2set(c, v2)))
    return NULL;
  sc_cat_kind k1 = v1->kind, k2 = v2->kind;
  if ((k1 == SC_CAT_REL || k1 == SC_CAT_UNIV) && k2 == SC_CAT_REL) {
    sc_rel *r = sci_rel_new(c->n);
    sci_rel_diff(r, as_rel(c, v1), v2->u.rel);
    return sci_cat_v_rel(r);
  }
  if ((k1 == SC_CAT_SET || k1 == SC_CAT_UNIV) && k2 == SC_CAT_SET) {
    sc_set *s = sci_set_new(c->n);
    sci_set_diff(s, as_set(c, v1), v2->u.set);
    return sci_cat_v_set(s);
  }
  if (k1 == SC_CAT_VALSET && k2 == SC_CAT_VALSET) {
    if (!valset_elt(c, v1, v2, e, "difference") && c->error)
      return NULL;
    return valset_filter(c, v1, v2, false);
  }
  if (k1 == SC_CAT_UNIV && k2 == SC_CAT_VALSET) {
    sc_cat_value *all = tag_universe(c, v2->u.vs.elt, env, e->args[0]);
    return all ? valset_filter(c, all, v2, false) : NULL;
  }
  if (is_set_like(k1) && is_set_like(k2)) {
    if (k1 == SC_CAT_UNIV && k2 == SC_CAT_EMPTY)
      return v1;
    if (k2 == SC_CAT_UNIV || k1 == SC_CAT_EMPTY)
      return sci_cat_v_empty();
    if (k2 == SC_CAT_EMPTY)
      return v1;
  }
  return binop_error(c, e, v1, v2, "difference");
}

static sc_cat_value *eval_cartesian(cat_ctx *c, const sc_cat_exp *e,
                                    const cat_env *env) {
  const sc_set *s1 = eval_events(c, e->args[0], env);
  const sc_set *s2 = s1 ? eval_events(c, e->args[1], env) : NULL;
  if (!s2)
    return NULL;
  sc_rel *r = sci_rel_new(c->n);
  sci_rel_cartesian(r, s1, s2);
  return sci_cat_v_rel(r);
}

/* e ++ S: add an element to a set (herd's Add). */
static sc_cat_value *eval_add(cat_ctx *c, const sc_cat_exp *e, const cat_env *env) {
  sc_cat_value *v1 = sci_cat_eval_exp(c, e->args[0], env);
  sc_cat_value *v2 = v1 ? sci_cat_eval_exp(c, e->args[1], env) : NULL;
  if (!v2)
    return NULL;
  if (v1->kind == SC_CAT_UNIV)
    return sci_cat_fail_at(c, e->args[0], "cannot add the universe to a set with '++'");
  sc_cat_value **items;
  switch (v2->kind) {
  case SC_CAT_UNIV:
    return v2;
  case SC_CAT_EMPTY:
    if (v1->kind == SC_CAT_EVENT || v1->kind == SC_CAT_PAIR)
      return v1->kind == SC_CAT_EVENT ? sci_cat_v_set(as_set(c, v1))
                                      : sci_cat_v_rel(as_rel(c, v1));
    items = sci_alloc(sizeof *items);
    items[0] = v1;
    return sci_cat_v_valset(c, sci_cat_type_of(v1), 1, items);
  case SC_CAT_VALSET: {
    const cat_type *elt = v2->u.vs.elt;
    const cat_type *t1 = sci_cat_type_of(v1);
    const cat_type *u = elt ? sci_cat_type_unify(elt, t1) : t1;
    if (!u)
      return sci_cat_fail_at(c, e->args[0],
                            "type mismatch in '++': expected %s, found %s",
                            sci_cat_type_name(elt), sci_cat_type_name(t1));
    items = sci_alloc(sizeof *items * (size_t)(v2->u.vs.n + 1));
    memcpy(items, v2->u.vs.items, sizeof *items * (size_t)v2->u.vs.n);
    items[v2->u.vs.n] = v1;
    return sci_cat_v_valset(c, u, v2->u.vs.n + 1, items);
  }
  case SC_CAT_REL: {
    int a, b;
    if (v1->kind == SC_CAT_PAIR) {
      a = v1->u.pair.a;
      b = v1->u.pair.b;
    } else if (v1->kind == SC_CAT_TUPLE && v1->u.tuple.n == 2 &&
               v1->u.tuple.items[0]->kind == SC_CAT_EVENT &&
               v1->u.tuple.items[1]->kind == SC_CAT_EVENT) {
      a = v1->u.tuple.items[0]->u.event;
      b = v1->u.tuple.items[1]->u.event;
    } else {
      return type_error(c, e->args[0], "pair (to add to a relation)", v1);
    }
    sc_rel *r = sci_rel_copy(v2->u.rel);
    sc_rel_add(r, a, b);
    return sci_cat_v_rel(r);
  }
  case SC_CAT_SET: {
    if (v1->kind != SC_CAT_EVENT)
      return type_error(c, e->args[0], "event (to add to an event set)", v1);
    sc_set *s = sci_set_copy(v2->u.set);
    sc_set_add(s, v1->u.event);
    return sci_cat_v_set(s);
  }
  default:
    return type_error(c, e->args[1], "set after '++'", v2);
  }
}

/* {e1, e2, ...}: events make an event set, pairs a relation, anything else
 * a set of values of one type. */
static sc_cat_value *eval_explicit_set(cat_ctx *c, const sc_cat_exp *e,
                                       const cat_env *env) {
  if (e->nargs == 0)
    return sci_cat_v_empty();
  sc_cat_value **vs = eval_all(c, e, env);
  if (!vs)
    return NULL;
  const cat_type *t = NULL;
  for (int i = 0; i < e->nargs; i++) {
    if (vs[i]->kind == SC_CAT_UNIV)
      return sci_cat_fail_at(c, e->args[i], "the universe cannot be a set element");
    const cat_type *ti = sci_cat_type_of(vs[i]);
    const cat_type *u = t ? sci_cat_type_unify(t, ti) : ti;
    if (!u)
      return sci_cat_fail_at(c, e->args[i],
                            "type mismatch in set: expected %s, found %s",
                            sci_cat_type_name(t), sci_cat_type_name(ti));
    t = u;
  }
  if (t->kind == TY_EVENT) {
    sc_set *s = sci_set_new(c->n);
    for (int i = 0; i < e->nargs; i++)
      sc_set_add(s, vs[i]->u.event);
    return sci_cat_v_set(s);
  }
  if (t->kind == TY_PAIR) {
    sc_rel *r = sci_rel_new(c->n);
    for (int i = 0; i < e->nargs; i++)
      sc_rel_add(r, vs[i]->u.pair.a, vs[i]->u.pair.b);
    return sci_cat_v_rel(r);
  }
  return sci_cat_v_valset(c, t, e->nargs, vs);
}

/* What an application in tail position returns to the sci_cat_apply
 * that runs the body it ends (the call itself in c->tail_fun, tail_arg):
 * never seen elsewhere, as only that loop asks for it. */
static sc_cat_value tail_call;

/* e, in tail position of a function's body when tail is. */
static sc_cat_value *eval_in_tail(cat_ctx *c, const sc_cat_exp *e, const cat_env *env,
                                  bool tail) {
  c->tail = tail;
  return sci_cat_eval_exp(c, e, env);
}

/* ---- Functions ----------------------------------------------------------- */

/* A call in tail position of a function's body (through match, if and
 * let) is made by the loop of the sci_cat_apply that runs the body, not
 * nested in it: a recursion that walks a list (cross.cat's call_rec over
 * every order of the writes) is a loop, and takes no C stack and no
 * -max-depth per step.  A recursion without end that way is stopped by
 * the model's timeout, as a loop is. */
sc_cat_value *sci_cat_apply(cat_ctx *c, sc_cat_value *f, sc_cat_value *arg,
                           const sc_cat_exp *where) {
  for (;;) {
    if (f->kind == SC_CAT_PRIM)
      return f->u.prim->fn(c, f->u.prim, arg, where);
    if (f->kind != SC_CAT_CLOSURE)
      return type_error(c, where, "function", f);
    if (c->app_depth >= c->max_app_depth)
      return sci_cat_fail(c, SC_ERR_LIMIT, where->file, where->line, where->col,
                         "expected function calls nested at most %d deep, found "
                         "deeper (the -max-depth limit; a recursion without end?)",
                         c->max_app_depth);
    if (sci_cat_out_of_time(c, false, where->file, where->line, where->col))
      return NULL;
    cat_closure *clo = f->u.clo;
    const cat_env *env = sci_cat_bind_args(c, &clo->pat, arg, clo->env, where);
    if (!env)
      return NULL;
    c->app_depth++;
    sc_cat_value *v = eval_in_tail(c, clo->body, env, true);
    c->app_depth--;
    if (v != &tail_call)
      return v;
    f = c->tail_fun;
    arg = c->tail_arg;
    where = c->tail_where;
  }
}

static sc_cat_value *new_closure(cat_ctx *c, const sc_cat_exp *fun,
                                 const cat_env *env) {
  cat_closure *clo = sci_alloc(sizeof *clo);
  clo->pat = fun->pat;
  clo->body = fun->body;
  clo->env = env;
  clo->name = fun->name;
  clo->id = ++c->next_id;
  sc_cat_value *v = sci_alloc(sizeof *v);
  v->kind = SC_CAT_CLOSURE;
  v->u.clo = clo;
  return v;
}

/* ---- let rec ------------------------------------------------------------- */

static bool is_fun_bind(const sc_cat_bind *b) {
  return b->exp->kind == EX_FUN && !b->pat.is_tuple;
}

/* Recursive functions see themselves and each other. */
static const cat_env *add_rec_funs(cat_ctx *c, const sc_cat_bind *binds, int n,
                                   const cat_env *env) {
  const cat_env *frame = env;
  int nfuns = 0;
  for (int i = 0; i < n; i++)
    if (is_fun_bind(&binds[i]))
      nfuns++;
  if (!nfuns)
    return env;
  cat_closure **clos = sci_alloc(sizeof *clos * (size_t)nfuns);
  int k = 0;
  for (int i = 0; i < n; i++) {
    if (!is_fun_bind(&binds[i]))
      continue;
    sc_cat_value *f = new_closure(c, binds[i].exp, NULL);
    clos[k++] = f->u.clo;
    if (binds[i].pat.names[0])
      frame = sci_cat_env_value(frame, binds[i].pat.names[0], f);
  }
  for (int i = 0; i < nfuns; i++)
    clos[i]->env = frame;
  return frame;
}

/* Bind the value bindings of a let rec to given values. */
static const cat_env *bind_rec_values(const sc_cat_bind *binds, int n,
                                      sc_cat_value **vals, const cat_env *env) {
  for (int i = 0, k = 0; i < n; i++) {
    if (is_fun_bind(&binds[i]))
      continue;
    env = bind_pattern(&binds[i].pat, sci_cat_thunk_value(vals[k++]), env,
                       binds[i].exp->file, binds[i].line, binds[i].col);
  }
  return env;
}

/* herd's `stabilised`: the iteration is over when no new value w holds more
 * than the previous one v.  Returns 1 (stable), 0, or -1 on a type that
 * cannot be iterated. */
static int stabilised(cat_ctx *c, const sc_cat_value *v, const sc_cat_value *w) {
  if (w->kind == SC_CAT_EMPTY || v->kind == SC_CAT_UNIV)
    return 1;
  switch (w->kind) {
  case SC_CAT_REL:
    if (v->kind == SC_CAT_EMPTY)
      return sci_rel_is_empty(w->u.rel);
    if (v->kind == SC_CAT_REL)
      return sci_rel_subset(w->u.rel, v->u.rel);
    return -1;
  case SC_CAT_SET:
    if (v->kind == SC_CAT_EMPTY)
      return sci_set_is_empty(w->u.set);
    if (v->kind == SC_CAT_SET)
      return sci_set_subset(w->u.set, v->u.set);
    return -1;
  case SC_CAT_VALSET:
    if (v->kind == SC_CAT_EMPTY)
      return w->u.vs.n == 0;
    if (v->kind == SC_CAT_VALSET) {
      for (int i = 0; i < w->u.vs.n; i++)
        if (!sci_cat_valset_has(c, v, w->u.vs.items[i]))
          return c->error ? -1 : 0;
      return 1;
    }
    return -1;
  case SC_CAT_UNIV:
    if (v->kind == SC_CAT_EMPTY)
      return 0;
    if (v->kind == SC_CAT_REL)
      return sci_rel_subset(sci_cat_unv(c), v->u.rel);
    if (v->kind == SC_CAT_SET)
      return sci_set_subset(sci_cat_all(c), v->u.set);
    return -1;
  default:
    return -1;
  }
}

static sc_cat_value *pat_empty(const sc_cat_pat *pat) {
  if (!pat->is_tuple)
    return sci_cat_v_empty();
  sc_cat_value **items = sci_alloc(sizeof *items * (size_t)(pat->n ? pat->n : 1));
  for (int i = 0; i < pat->n; i++)
    items[i] = sci_cat_v_empty();
  return sci_cat_v_tuple(pat->n, items);
}

/* The names a let rec iterates on, for messages: "r" or "(a, b), c". */
static const char *rec_names(const sc_cat_bind *binds, int n) {
  sc_strbuf sb;
  sci_sb_init(&sb);
  for (int i = 0; i < n; i++) {
    const sc_cat_pat *pat = &binds[i].pat;
    if (is_fun_bind(&binds[i]))
      continue;
    if (sb.len)
      sci_sb_puts(&sb, ", ");
    if (pat->is_tuple)
      sci_sb_putc(&sb, '(');
    for (int k = 0; k < (pat->is_tuple ? pat->n : 1); k++)
      sci_sb_printf(&sb, "%s%s", k ? ", " : "", pat->names[k] ? pat->names[k] : "_");
    if (pat->is_tuple)
      sci_sb_putc(&sb, ')');
  }
  return sb.len ? sb.data : "_";
}

const cat_env *sci_cat_bind_rec(cat_ctx *c, const sc_cat_bind *binds, int n,
                               const cat_env *env, const char *file, int line,
                               int col, cat_rec_check check, void *check_arg,
                               bool *check_failed) {
  int nvals = 0;
  for (int i = 0; i < n; i++)
    if (!is_fun_bind(&binds[i]))
      nvals++;
  if (nvals == 0)
    return add_rec_funs(c, binds, n, env);
  sc_cat_value **old = sci_alloc(sizeof *old * (size_t)nvals);
  sc_cat_value **cur = sci_alloc(sizeof *cur * (size_t)nvals);
  for (int i = 0, k = 0; i < n; i++)
    if (!is_fun_bind(&binds[i]))
      old[k++] = pat_empty(&binds[i].pat);
  const cat_env *start = add_rec_funs(c, binds, n, bind_rec_values(binds, n, old, env));
  for (int iter = 0; iter < c->max_fix; iter++) {
    if (sci_cat_out_of_time(c, true, file, line, col))
      return NULL;
    /* Each binding sees the new values of those before it (herd's fix_step). */
    const cat_env *step = start;
    for (int i = 0, k = 0; i < n; i++) {
      if (is_fun_bind(&binds[i]))
        continue;
      if (!(cur[k] = sci_cat_eval_exp(c, binds[i].exp, step)))
        return NULL;
      step = bind_pattern(&binds[i].pat, sci_cat_thunk_value(cur[k]), step,
                          binds[i].exp->file, binds[i].line, binds[i].col);
      k++;
    }
    const cat_env *next =
        add_rec_funs(c, binds, n, bind_rec_values(binds, n, cur, env));
    if (check && !check(c, next, check_arg)) {
      if (c->error)
        return NULL;
      *check_failed = true;
      return next;
    }
    bool stable = true;
    for (int k = 0; k < nvals; k++) {
      int s = stabilised(c, old[k], cur[k]);
      if (s < 0) {
        if (!c->error)
          sci_cat_fail(c, SC_ERR_SEMANTIC, file, line, col,
                      "illegal recursion on type %s", sci_cat_vtype(cur[k]));
        return NULL;
      }
      stable = stable && s;
    }
    if (stable)
      return next;
    sc_cat_value **t = old;
    old = cur;
    cur = t;
    start = next;
  }
  sci_cat_fail(c, SC_ERR_LIMIT, file, line, col,
              "expected 'let rec %s' to reach its fixpoint within %d "
              "iterations (the -max-iterations limit), found it still changing",
              rec_names(binds, n), c->max_fix);
  return NULL;
}

/* ---- Matching, try, if --------------------------------------------------- */

static sc_cat_value *eval_match(cat_ctx *c, const sc_cat_exp *e, const cat_env *env,
                               bool tail) {
  const sc_cat_exp *scrut = e->args[0];
  sc_cat_value *v = sci_cat_eval_exp(c, scrut, env);
  if (!v)
    return NULL;
  if (v->kind != SC_CAT_TAG)
    return type_error(c, scrut, "tag to match on", v);
  for (int i = 0; i < e->ncases; i++)
    if (strcmp(e->tags[i], v->u.tag.name) == 0)
      return eval_in_tail(c, e->cases[i], env, tail);
  if (e->dflt)
    return eval_in_tail(c, e->dflt, env, tail);
  return sci_cat_fail_at(c, e, "pattern matching failed on value '%s", v->u.tag.name);
}

static const cat_env *bind_opt(const cat_env *env, const char *name, sc_cat_value *v) {
  return name ? sci_cat_env_value(env, name, v) : env;
}

/* match S with {} -> e1 || x ++ rest -> e2 end: x is the least element. */
static sc_cat_value *eval_matchset(cat_ctx *c, const sc_cat_exp *e,
                                   const cat_env *env, bool tail) {
  const sc_cat_exp *scrut = e->args[0];
  sc_cat_value *v = sci_cat_eval_exp(c, scrut, env);
  if (!v)
    return NULL;
  sc_cat_value *x, *rest;
  switch (v->kind) {
  case SC_CAT_EMPTY:
    return eval_in_tail(c, e->empty_case, env, tail);
  case SC_CAT_SET: {
    int first = sci_set_next(v->u.set, 0);
    if (first < 0)
      return eval_in_tail(c, e->empty_case, env, tail);
    sc_set *s = sci_set_copy(v->u.set);
    sc_set_remove(s, first);
    x = sci_cat_v_event(first);
    rest = sci_cat_v_set(s);
    break;
  }
  case SC_CAT_REL: {
    int a = -1, b = -1;
    for (int i = 0; i < c->n && a < 0; i++) {
      const uint64_t *row = sc_rel_crow(v->u.rel, i);
      for (int w = 0; w < v->u.rel->nwords; w++)
        if (row[w]) {
          a = i;
          b = w * 64 + __builtin_ctzll(row[w]);
          break;
        }
    }
    if (a < 0)
      return eval_in_tail(c, e->empty_case, env, tail);
    sc_rel *r = sci_rel_copy(v->u.rel);
    sc_rel_remove(r, a, b);
    x = sci_cat_v_pair(a, b);
    rest = sci_cat_v_rel(r);
    break;
  }
  case SC_CAT_VALSET:
    if (v->u.vs.n == 0)
      return eval_in_tail(c, e->empty_case, env, tail);
    x = v->u.vs.items[0];
    rest = sci_cat_v_valset(c, v->u.vs.elt, v->u.vs.n - 1, v->u.vs.items + 1);
    break;
  default:
    return type_error(c, scrut, "set to match against {} and '++'", v);
  }
  if (!rest)
    return NULL;
  env = bind_opt(env, e->elt_x, x);
  if (e->elt_has_pre) { /* pre | x ++ post: x is the least, so pre is empty */
    env = bind_opt(env, e->elt_pre, rest->kind == SC_CAT_VALSET
                                        ? sci_cat_v_valset(c, rest->u.vs.elt, 0, NULL)
                                        : sci_cat_v_empty());
  }
  env = bind_opt(env, e->elt_rest, rest);
  return eval_in_tail(c, e->elt_case, env, tail);
}

/* try e1 with e2: e2 when e1 fails.  Only model errors are caught: a limit
 * or an unsupported feature must not turn into a silently different value. */
static sc_cat_value *eval_try(cat_ctx *c, const sc_cat_exp *e, const cat_env *env) {
  int depth = c->app_depth;
  sc_cat_value *v = sci_cat_eval_exp(c, e->args[0], env);
  if (v || !c->error || c->error->status != SC_ERR_SEMANTIC)
    return v;
  c->error = NULL;
  c->app_depth = depth;
  return sci_cat_eval_exp(c, e->body, env);
}

bool sci_cat_variant_set(cat_ctx *c, const sc_cat_vcond *v) {
  switch (v->kind) {
  case VC_NAME:
    for (int i = 0; c->opts && i < c->opts->nvariants; i++)
      if (c->opts->variants[i] && strcmp(c->opts->variants[i], v->name) == 0)
        return true;
    return false;
  case VC_NOT: return !sci_cat_variant_set(c, v->a);
  case VC_AND: return sci_cat_variant_set(c, v->a) && sci_cat_variant_set(c, v->b);
  case VC_OR: return sci_cat_variant_set(c, v->a) || sci_cat_variant_set(c, v->b);
  }
  return false;
}

/* e1 in e2: an event in an event set, a pair in a relation, or a value in
 * a set of values of its type. */
static int eval_in(cat_ctx *c, const sc_cat_exp *e, const cat_env *env) {
  sc_cat_value *v1 = sci_cat_eval_exp(c, e->c1, env);
  if (!v1)
    return -1;
  if (v1->kind == SC_CAT_EVENT) {
    const sc_set *s = eval_events(c, e->c2, env);
    return s ? sc_set_has(s, v1->u.event) : -1;
  }
  if (v1->kind == SC_CAT_PAIR ||
      (v1->kind == SC_CAT_TUPLE && v1->u.tuple.n == 2 &&
       v1->u.tuple.items[0]->kind == SC_CAT_EVENT &&
       v1->u.tuple.items[1]->kind == SC_CAT_EVENT)) {
    const sc_rel *r = eval_rel(c, e->c2, env);
    if (!r)
      return -1;
    if (v1->kind == SC_CAT_PAIR)
      return sc_rel_has(r, v1->u.pair.a, v1->u.pair.b);
    return sc_rel_has(r, v1->u.tuple.items[0]->u.event, v1->u.tuple.items[1]->u.event);
  }
  sc_cat_value *v2 = sci_cat_eval_exp(c, e->c2, env);
  if (!v2)
    return -1;
  if (v2->kind == SC_CAT_EMPTY)
    return 0;
  if (v2->kind != SC_CAT_VALSET) {
    type_error(c, e->c2, "set after 'in'", v2);
    return -1;
  }
  const cat_type *t1 = sci_cat_type_of(v1);
  if (v2->u.vs.elt && !sci_cat_type_unify(v2->u.vs.elt, t1)) {
    sci_cat_fail_at(c, e->c1, "type mismatch in 'in': expected %s, found %s",
                   sci_cat_type_name(v2->u.vs.elt), sci_cat_type_name(t1));
    return -1;
  }
  bool in = sci_cat_valset_has(c, v2, v1);
  return c->error ? -1 : in;
}

static int eval_subset(cat_ctx *c, const sc_cat_exp *e, const cat_env *env) {
  sc_cat_value *v1 = sci_cat_eval_exp(c, e->c1, env);
  sc_cat_value *v2 = v1 ? sci_cat_eval_exp(c, e->c2, env) : NULL;
  if (!v2)
    return -1;
  const cat_type *t1 = sci_cat_type_of(v1), *t2 = sci_cat_type_of(v2);
  const cat_type *t = sci_cat_type_unify(t1, t2);
  if (!t) {
    sci_cat_fail_at(c, e, "type mismatch in 'subset': %s and %s",
                   sci_cat_type_name(t1), sci_cat_type_name(t2));
    return -1;
  }
  switch (t->kind) {
  case TY_EMPTY: return 1;
  case TY_REL: return sci_rel_subset(as_rel(c, v1), as_rel(c, v2));
  case TY_EVENTS: return sci_set_subset(as_set(c, v1), as_set(c, v2));
  case TY_SET:
    if (v1->kind == SC_CAT_EMPTY)
      return 1;
    if (v2->kind == SC_CAT_EMPTY)
      return v1->u.vs.n == 0;
    for (int i = 0; i < v1->u.vs.n; i++) {
      bool in = sci_cat_valset_has(c, v2, v1->u.vs.items[i]);
      if (c->error)
        return -1;
      if (!in)
        return 0;
    }
    return 1;
  default:
    sci_cat_fail_at(c, e, "cannot test inclusion on values of type %s",
                   sci_cat_type_name(t));
    return -1;
  }
}

static sc_cat_value *eval_if(cat_ctx *c, const sc_cat_exp *e, const cat_env *env,
                            bool tail) {
  int holds;
  switch (e->cond) {
  case COND_VARIANT:
    holds = sci_cat_variant_set(c, e->vcond);
    break;
  case COND_EQ: {
    sc_cat_value *v1 = sci_cat_eval_exp(c, e->c1, env);
    sc_cat_value *v2 = v1 ? sci_cat_eval_exp(c, e->c2, env) : NULL;
    if (!v2)
      return NULL;
    holds = sci_cat_compare(c, v1, v2, e) == 0;
    if (c->error)
      return NULL;
    break;
  }
  case COND_SUBSET:
    holds = eval_subset(c, e, env);
    break;
  default:
    holds = eval_in(c, e, env);
  }
  if (holds < 0)
    return NULL;
  return eval_in_tail(c, holds ? e->ifso : e->ifnot, env, tail);
}

/* ---- The dispatcher ------------------------------------------------------ */

static sc_cat_value *eval_tag(cat_ctx *c, const sc_cat_exp *e, const cat_env *env) {
  for (; env; env = env->next)
    if (env->kind == BK_TAG && strcmp(env->name, e->name) == 0)
      return sci_cat_v_tag(env->enum_name, env->name);
  return sci_cat_fail_at(c, e, "tag '%s is undefined (no enum declares it)", e->name);
}

sc_cat_value *sci_cat_eval_exp(cat_ctx *c, const sc_cat_exp *e, const cat_env *env) {
  sc_cat_value *f, *arg, **items;
  cat_thunk *t;
  bool failed = false, tail = c->tail; /* only this expression is in tail position */
  c->tail = false;
  switch (e->kind) {
  case EX_EMPTY_REL: return sci_cat_v_rel(sci_rel_new(c->n));
  case EX_UNIV: return sci_cat_v_univ();
  case EX_TAG: return eval_tag(c, e, env);
  case EX_VAR:
    if (!(t = sci_cat_env_find(env, e->name)))
      return sci_cat_fail_at(c, e, "unbound name '%s'", e->name);
    return sci_cat_force(c, t);
  case EX_EXPLICIT_SET: return eval_explicit_set(c, e, env);
  case EX_TUPLE:
    if (e->nargs == 0)
      return sci_cat_v_tuple(0, NULL);
    if (!(items = eval_all(c, e, env)))
      return NULL;
    return sci_cat_v_tuple(e->nargs, items);
  case EX_OP1: return eval_op1(c, e, env);
  case EX_UNION: return eval_union(c, e, env);
  case EX_SEQ: return eval_seq(c, e, env);
  case EX_INTER: return eval_inter(c, e, env);
  case EX_DIFF: return eval_diff(c, e, env);
  case EX_CARTESIAN: return eval_cartesian(c, e, env);
  case EX_ADD: return eval_add(c, e, env);
  case EX_APP:
    if (!(f = sci_cat_eval_exp(c, e->args[0], env)) ||
        !(arg = sci_cat_eval_exp(c, e->args[1], env)))
      return NULL;
    if (tail && f->kind == SC_CAT_CLOSURE) { /* sci_cat_apply's loop makes the call */
      c->tail_fun = f;
      c->tail_arg = arg;
      c->tail_where = e;
      return &tail_call;
    }
    return sci_cat_apply(c, f, arg, e);
  case EX_FUN: return new_closure(c, e, env);
  case EX_BIND:
    return eval_in_tail(c, e->body, sci_cat_bind_lets(c, e->binds, e->nbinds, env), tail);
  case EX_BINDREC:
    env = sci_cat_bind_rec(c, e->binds, e->nbinds, env, e->file, e->line, e->col,
                          NULL, NULL, &failed);
    return env ? eval_in_tail(c, e->body, env, tail) : NULL;
  case EX_MATCH: return eval_match(c, e, env, tail);
  case EX_MATCHSET: return eval_matchset(c, e, env, tail);
  case EX_TRY: return eval_try(c, e, env); /* its first part is no tail: errors are caught */
  case EX_IF: return eval_if(c, e, env, tail);
  }
  return sci_cat_fail_at(c, e, "internal error: unknown expression kind %d",
                        (int)e->kind);
}
