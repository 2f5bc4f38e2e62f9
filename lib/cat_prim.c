/* cat_prim.c: the functions herd builds into every model (domain, range,
 * fail...).  Each takes one value (a tuple for several arguments) and
 * returns a value or fails with a message.  Primitives that need facts the
 * base environment does not carry (locations, instruction kinds) are bound
 * too, and say they are unsupported when called, so that a model using
 * them stops rather than computing something else. */
#include "cat_eval.h"

#include "gcmem.h"

#include <string.h>

static sc_cat_value *arg_mismatch(cat_ctx *c, const char *name,
                                  const sc_cat_value *arg, const char *expected,
                                  const sc_cat_exp *where) {
  return sc_cat_fail_at(c, where, "primitive %s: type mismatch: expected %s, found %s",
                        name, expected, sc_cat_vtype(arg));
}

static sc_cat_value *prim_domain(cat_ctx *c, const cat_prim *self,
                                 sc_cat_value *arg, const sc_cat_exp *where) {
  if (arg->kind == SC_CAT_EMPTY || arg->kind == SC_CAT_UNIV)
    return arg;
  if (arg->kind != SC_CAT_REL)
    return arg_mismatch(c, self->name, arg, "relation", where);
  sc_set *s = sc_set_new(c->n);
  sc_rel_domain(s, arg->u.rel);
  return sc_cat_v_set(s);
}

static sc_cat_value *prim_range(cat_ctx *c, const cat_prim *self,
                                sc_cat_value *arg, const sc_cat_exp *where) {
  if (arg->kind == SC_CAT_EMPTY || arg->kind == SC_CAT_UNIV)
    return arg;
  if (arg->kind != SC_CAT_REL)
    return arg_mismatch(c, self->name, arg, "relation", where);
  sc_set *s = sc_set_new(c->n);
  sc_rel_range(s, arg->u.rel);
  return sc_cat_v_set(s);
}

/* fail(x): a deliberate failure, which `try` catches. */
static sc_cat_value *prim_fail(cat_ctx *c, const cat_prim *self,
                               sc_cat_value *arg, const sc_cat_exp *where) {
  (void)self;
  return sc_cat_fail_at(c, where, "primitive fail: fail on %s", sc_cat_show_value(arg));
}

/* tag2scope('t) / tag2level('t): the base relation named by the tag (the
 * scope instance relation of a bell file, e.g. 'cta). */
static sc_cat_value *prim_tag2scope(cat_ctx *c, const cat_prim *self,
                                    sc_cat_value *arg, const sc_cat_exp *where) {
  if (arg->kind != SC_CAT_TAG)
    return arg_mismatch(c, self->name, arg, "tag", where);
  const char *tag = arg->u.tag.name;
  for (int i = 0; c->base && i < c->base->n; i++) {
    const struct sc_cat_env_entry *b = &c->base->entries[i];
    if (strcmp(b->name, tag) != 0)
      continue;
    if (!b->rel)
      return sc_cat_fail_at(c, where, "primitive tag2scope: value %s is not a "
                            "relation, found event set", tag);
    return sc_cat_v_rel(b->rel);
  }
  return sc_cat_fail_at(c, where, "primitive tag2scope: cannot find scope instance %s "
                        "(the base environment binds no relation of that name)", tag);
}

/* inter_transitive(r, s): the pairs of s joined by a path of r. */
static sc_cat_value *prim_inter_transitive(cat_ctx *c, const cat_prim *self,
                                           sc_cat_value *arg, const sc_cat_exp *where) {
  if (arg->kind != SC_CAT_TUPLE || arg->u.tuple.n != 2 ||
      arg->u.tuple.items[0]->kind != SC_CAT_REL ||
      arg->u.tuple.items[1]->kind != SC_CAT_REL)
    return arg_mismatch(c, self->name, arg, "tuple (relation, relation)", where);
  sc_rel *r = sc_rel_new(c->n);
  sc_rel_plus(r, arg->u.tuple.items[0]->u.rel);
  sc_rel_inter(r, r, arg->u.tuple.items[1]->u.rel);
  return sc_cat_v_rel(r);
}

static sc_cat_value *prim_unsupported(cat_ctx *c, const cat_prim *self,
                                      sc_cat_value *arg, const sc_cat_exp *where) {
  (void)arg;
  return sc_cat_fail(c, SC_ERR_UNSUPPORTED, where->file, where->line, where->col,
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
  {"classes-loc", prim_unsupported},
  {"classes", prim_unsupported},
  {"lift", prim_unsupported},
  {"delift", prim_unsupported},
  {"deliftinter", prim_unsupported},
  {"linearisations", prim_unsupported},
  {"bisimulation", prim_unsupported},
  {"tag2events", prim_unsupported},
  {"tag2fenced", prim_unsupported},
  {"loc2events", prim_unsupported},
  {"fromto", prim_unsupported},
  {"different-values", prim_unsupported},
  {"same-oa", prim_unsupported},
  {"at-least-one-writable", prim_unsupported},
  {"oa-changes", prim_unsupported},
};

const cat_env *sc_cat_add_prims(cat_ctx *c, const cat_env *env) {
  for (size_t i = 0; i < sizeof prims / sizeof prims[0]; i++) {
    const char *name = sc_cat_symbol(c->model->syms, prims[i].name);
    if (!name)
      continue; /* the model never names it */
    cat_prim *p = sc_alloc(sizeof *p);
    p->name = name;
    p->fn = prims[i].fn;
    p->id = ++c->next_id;
    sc_cat_value *v = sc_alloc(sizeof *v);
    v->kind = SC_CAT_PRIM;
    v->u.prim = p;
    env = sc_cat_env_value(env, name, v);
  }
  return env;
}
