/* prim.c: the functions herd builds into every model (domain, range,
 * fail...).  Each takes one value (a tuple for several arguments) and
 * returns a value or fails with a message.  Primitives that need facts the
 * base environment does not carry (locations, instruction kinds) are bound
 * too, and say they are unsupported when called, so that a model using
 * them stops rather than computing something else. */
#include "cat/interp.h"

#include "util/gcmem.h"

#include <string.h>

static sc_cat_value *arg_mismatch(cat_ctx *c, const char *name,
                                  const sc_cat_value *arg, const char *expected,
                                  const sc_cat_exp *where) {
  return sci_cat_fail_at(c, where, "primitive %s: type mismatch: expected %s, found %s",
                        name, expected, sci_cat_vtype(arg));
}

/* domain(r) and range(r): the events r leaves from, or enters. */
static sc_cat_value *project(cat_ctx *c, const cat_prim *self, sc_cat_value *arg,
                             const sc_cat_exp *where,
                             void (*side)(sc_set *, const sc_rel *)) {
  if (arg->kind == SC_CAT_EMPTY || arg->kind == SC_CAT_UNIV)
    return arg;
  if (arg->kind != SC_CAT_REL)
    return arg_mismatch(c, self->name, arg, "relation", where);
  sc_set *s = sci_set_new(c->n);
  side(s, arg->u.rel);
  return sci_cat_v_set(s);
}

static sc_cat_value *prim_domain(cat_ctx *c, const cat_prim *self,
                                 sc_cat_value *arg, const sc_cat_exp *where) {
  return project(c, self, arg, where, sci_rel_domain);
}

static sc_cat_value *prim_range(cat_ctx *c, const cat_prim *self,
                                sc_cat_value *arg, const sc_cat_exp *where) {
  return project(c, self, arg, where, sci_rel_range);
}

/* fail(x): a deliberate failure, which `try` catches. */
static sc_cat_value *prim_fail(cat_ctx *c, const cat_prim *self,
                               sc_cat_value *arg, const sc_cat_exp *where) {
  (void)self;
  return sci_cat_fail_at(c, where, "primitive fail: fail on %s", sci_cat_show_value(arg));
}

/* The base binding a tag names ('cta, 'RLX...); NULL (an error raised)
 * when arg is no tag or the base environment binds no such name.  `what`
 * says what the caller looks for, for the message. */
static const struct sc_cat_env_entry *tag_entry(cat_ctx *c, const cat_prim *self,
                                                sc_cat_value *arg,
                                                const sc_cat_exp *where,
                                                const char *what) {
  if (arg->kind != SC_CAT_TAG) {
    arg_mismatch(c, self->name, arg, "tag", where);
    return NULL;
  }
  const char *tag = arg->u.tag.name;
  for (int i = 0; c->base && i < c->base->n; i++)
    if (strcmp(c->base->entries[i].name, tag) == 0)
      return &c->base->entries[i];
  sci_cat_fail_at(c, where, "primitive %s: cannot find %s %s (the base "
                 "environment binds no %s of that name)", self->name, what, tag,
                 strcmp(what, "event set") == 0 ? "set" : "relation");
  return NULL;
}

/* tag2scope('t) / tag2level('t): the base relation named by the tag (the
 * scope instance relation of a bell file, e.g. 'cta). */
static sc_cat_value *prim_tag2scope(cat_ctx *c, const cat_prim *self,
                                    sc_cat_value *arg, const sc_cat_exp *where) {
  const struct sc_cat_env_entry *b = tag_entry(c, self, arg, where, "scope instance");
  if (!b)
    return NULL;
  if (!b->rel)
    return sci_cat_fail_at(c, where, "primitive %s: value %s is not a "
                          "relation, found event set", self->name, b->name);
  return sci_cat_v_rel(b->rel);
}

/* tag2events('t) (and the prelude's tag2instrs): the events that carry
 * annotation t, which scopecat binds as the base set of that name ('RLX,
 * 'acquire...). */
static sc_cat_value *prim_tag2events(cat_ctx *c, const cat_prim *self,
                                     sc_cat_value *arg, const sc_cat_exp *where) {
  const struct sc_cat_env_entry *b = tag_entry(c, self, arg, where, "event set");
  if (!b)
    return NULL;
  if (!b->set)
    return sci_cat_fail_at(c, where, "primitive %s: value %s is not a set of "
                          "events, found relation", self->name, b->name);
  return sci_cat_v_set(b->set);
}

/* inter_transitive(r, s): the pairs of s joined by a path of r. */
static sc_cat_value *prim_inter_transitive(cat_ctx *c, const cat_prim *self,
                                           sc_cat_value *arg, const sc_cat_exp *where) {
  if (arg->kind != SC_CAT_TUPLE || arg->u.tuple.n != 2 ||
      arg->u.tuple.items[0]->kind != SC_CAT_REL ||
      arg->u.tuple.items[1]->kind != SC_CAT_REL)
    return arg_mismatch(c, self->name, arg, "tuple (relation, relation)", where);
  sc_rel *r = sci_rel_new(c->n);
  sci_rel_plus(r, arg->u.tuple.items[0]->u.rel);
  sci_rel_inter(r, r, arg->u.tuple.items[1]->u.rel);
  return sci_cat_v_rel(r);
}

/* ---- Classes and linearisations ------------------------------------------ */

/* The classes of the events of `s` under `r` taken both ways: each class
 * is a component of r | r^-1 (the equivalence classes when r is an
 * equivalence, as herd assumes without checking).  A set of event sets, {}
 * when s is empty. */
static sc_cat_value *classes_of(cat_ctx *c, const sc_set *s, const sc_rel *r) {
  sc_set *left = sci_set_copy(s);
  sc_cat_value **items = sci_alloc(sizeof *items * (size_t)(c->n + 1));
  int n = 0;
  for (int e = sci_set_next(left, 0); e >= 0; e = sci_set_next(left, 0)) {
    sc_set *cls = sci_set_new(c->n);
    sc_set_add(cls, e);
    for (bool grew = true; grew;) { /* close under r and r^-1 within s */
      grew = false;
      for (int a = sci_set_next(cls, 0); a >= 0; a = sci_set_next(cls, a + 1))
        for (int b = sci_set_next(s, 0); b >= 0; b = sci_set_next(s, b + 1))
          if (!sc_set_has(cls, b) && (sc_rel_has(r, a, b) || sc_rel_has(r, b, a))) {
            sc_set_add(cls, b);
            grew = true;
          }
    }
    sci_set_diff(left, left, cls);
    items[n++] = sci_cat_v_set(cls);
  }
  if (n == 0)
    return sci_cat_v_empty();
  return sci_cat_v_valset(c, sci_cat_type_of(items[0]), n, items);
}

/* classes(r): the equivalence classes of r, over the events it relates. */
static sc_cat_value *prim_classes(cat_ctx *c, const cat_prim *self,
                                  sc_cat_value *arg, const sc_cat_exp *where) {
  if (arg->kind == SC_CAT_EMPTY)
    return sci_cat_v_empty();
  if (arg->kind != SC_CAT_REL)
    return arg_mismatch(c, self->name, arg, "relation", where);
  sc_set *nodes = sci_set_new(c->n), *ran = sci_set_new(c->n);
  sci_rel_domain(nodes, arg->u.rel);
  sci_rel_range(ran, arg->u.rel);
  sci_set_union(nodes, nodes, ran);
  return classes_of(c, nodes, arg->u.rel);
}

/* A relation of the caller's base environment. */
static const sc_rel *base_rel(const cat_ctx *c, const char *name) {
  for (int i = 0; c->base && i < c->base->n; i++)
    if (strcmp(c->base->entries[i].name, name) == 0)
      return c->base->entries[i].rel;
  return NULL;
}

/* classes-loc(S): the events of S that access memory, by location. */
static sc_cat_value *prim_classes_loc(cat_ctx *c, const cat_prim *self,
                                      sc_cat_value *arg, const sc_cat_exp *where) {
  if (arg->kind == SC_CAT_EMPTY)
    return sci_cat_v_empty();
  const sc_set *s = sci_cat_value_set(arg, c->n);
  if (!s)
    return arg_mismatch(c, self->name, arg, "event set", where);
  const sc_rel *loc = base_rel(c, "loc");
  if (!loc)
    return sci_cat_fail_at(c, where, "primitive %s: the base environment binds no "
                          "relation loc", self->name);
  sc_set *accesses = sci_set_new(c->n);
  for (int e = sci_set_next(s, 0); e >= 0; e = sci_set_next(s, e + 1))
    if (sc_rel_has(loc, e, e))
      sc_set_add(accesses, e);
  return classes_of(c, accesses, loc);
}

#define MAX_LINEARISATIONS 100000

typedef struct linearise {
  cat_ctx *c;
  const sc_set *s;
  const sc_rel *r;  /* restricted to s */
  int *seq;         /* the order so far */
  sc_set *placed;
  sc_cat_value **found;
  int nfound, cap;
} linearise;

/* Every way to go on with seq[k..]: next, an event of s all of whose
 * r-predecessors are placed. */
static bool topo_orders(linearise *l, int k, int total) {
  if (k == total) {
    if (l->nfound == MAX_LINEARISATIONS)
      return false;
    sc_rel *o = sci_rel_new(l->c->n);
    for (int i = 0; i < total; i++)
      for (int j = i + 1; j < total; j++)
        sc_rel_add(o, l->seq[i], l->seq[j]);
    sci_grow(&l->found, &l->cap, l->nfound + 1, sizeof *l->found);
    l->found[l->nfound++] = sci_cat_v_rel(o);
    return true;
  }
  for (int e = sci_set_next(l->s, 0); e >= 0; e = sci_set_next(l->s, e + 1)) {
    if (sc_set_has(l->placed, e))
      continue;
    bool ready = true;
    for (int p = sci_set_next(l->s, 0); p >= 0 && ready; p = sci_set_next(l->s, p + 1))
      ready = !sc_rel_has(l->r, p, e) || sc_set_has(l->placed, p);
    if (!ready)
      continue;
    l->seq[k] = e;
    sc_set_add(l->placed, e);
    bool ok = topo_orders(l, k + 1, total);
    sc_set_remove(l->placed, e);
    if (!ok)
      return false;
  }
  return true;
}

/* linearisations(S, r): the strict total orders of S that extend r (on S),
 * each a transitive relation; {r on S} when r is cyclic there, as herd. */
static sc_cat_value *prim_linearisations(cat_ctx *c, const cat_prim *self,
                                         sc_cat_value *arg, const sc_cat_exp *where) {
  const sc_set *s = NULL;
  const sc_rel *r = NULL;
  if (arg->kind == SC_CAT_TUPLE && arg->u.tuple.n == 2) {
    s = sci_cat_value_set(arg->u.tuple.items[0], c->n);
    r = sci_cat_value_rel(arg->u.tuple.items[1], c->n);
  }
  if (!s || !r)
    return arg_mismatch(c, self->name, arg, "tuple (event set, relation)", where);
  sc_rel *on_s = sci_rel_new(c->n);
  sci_rel_restrict(on_s, r, s, s);
  if (!sci_rel_is_acyclic(on_s)) {
    sc_cat_value *only = sci_cat_v_rel(on_s);
    return sci_cat_v_valset(c, sci_cat_type_of(only), 1, &only);
  }
  linearise l = {c, s, on_s, sci_alloc_atomic(sizeof(int) * (size_t)(c->n + 1)),
                 sci_set_new(c->n), NULL, 0, 0};
  if (!topo_orders(&l, 0, sci_set_count(s)))
    return sci_cat_fail(c, SC_ERR_LIMIT, where->file, where->line, where->col,
                       "primitive %s: expected at most %d orders", self->name,
                       MAX_LINEARISATIONS);
  return sci_cat_v_valset(c, sci_cat_type_of(l.found[0]), l.nfound, l.found);
}

static sc_cat_value *prim_unsupported(cat_ctx *c, const cat_prim *self,
                                      sc_cat_value *arg, const sc_cat_exp *where) {
  (void)arg;
  return sci_cat_fail(c, SC_ERR_UNSUPPORTED, where->file, where->line, where->col,
                     "herd primitive '%s' is not supported by scopecat (it needs "
                     "facts the base environment does not carry)", self->name);
}

static const struct {
  const char *name;
  cat_prim_fn fn;
} prims[] = {
  {"domain", prim_domain},
  {"range", prim_range},
  {"fail", prim_fail},
  {"tag2scope", prim_tag2scope},
  {"tag2level", prim_tag2scope},
  {"inter_transitive", prim_inter_transitive},
  /* herd's other primitives: they need locations, values or bell data */
  {"classes-loc", prim_classes_loc},
  {"classes", prim_classes},
  {"linearisations", prim_linearisations},
  {"lift", prim_unsupported},
  {"delift", prim_unsupported},
  {"deliftinter", prim_unsupported},
  {"bisimulation", prim_unsupported},
  {"tag2events", prim_tag2events},
  {"tag2fenced", prim_unsupported},
  {"loc2events", prim_unsupported},
  {"fromto", prim_unsupported},
  {"different-values", prim_unsupported},
  {"same-oa", prim_unsupported},
  {"at-least-one-writable", prim_unsupported},
  {"oa-changes", prim_unsupported},
};

bool sci_cat_is_prim(const char *name) {
  for (size_t i = 0; i < sizeof prims / sizeof prims[0]; i++)
    if (strcmp(prims[i].name, name) == 0)
      return true;
  return false;
}

const cat_env *sci_cat_add_prims(cat_ctx *c, const cat_env *env) {
  for (size_t i = 0; i < sizeof prims / sizeof prims[0]; i++) {
    const char *name = sci_cat_symbol(c->model->syms, prims[i].name);
    if (!name)
      continue; /* the model never names it */
    cat_prim *p = sci_alloc(sizeof *p);
    p->name = name;
    p->fn = prims[i].fn;
    p->id = ++c->next_id;
    sc_cat_value *v = sci_alloc(sizeof *v);
    v->kind = SC_CAT_PRIM;
    v->u.prim = p;
    env = sci_cat_env_value(env, name, v);
  }
  return env;
}
