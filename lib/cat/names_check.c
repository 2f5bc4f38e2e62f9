/* names_check.c: names of a model that match nothing, found without
 * running it: a name used that no binding of the model (prelude, bell,
 * includes, procedures and branches too), no primitive and no name of the
 * caller's base environment defines; a -skipcheck name no check carries;
 * a -variant name no `if` tests.  Evaluation only finds the first kind
 * where it goes, so a typo in an unused `let` passed in silence. */

/* Every name bound anywhere counts as defined (scopes are not followed):
 * a warning is then a name bound nowhere, never a false alarm of scope.
 * The names of `try e with ...`'s e are not looked at: try is how a model
 * says a name may be missing. */
#include "cat/ast.h"
#include "cat/interp.h"

#include "util/gcmem.h"

#include <string.h>

/* Names as a growable list of interned pointers (few: a linear search). */
typedef struct names {
  const char **at;
  int n, cap;
} names;

static bool has(const names *s, const char *name) {
  for (int i = 0; i < s->n; i++)
    if (strcmp(s->at[i], name) == 0)
      return true;
  return false;
}

static void add(names *s, const char *name) {
  if (!name || has(s, name))
    return;
  sci_grow(&s->at, &s->cap, s->n + 1, sizeof *s->at);
  s->at[s->n++] = name;
}

/* A use of a name, with its place, for the warning. */
typedef struct use {
  const char *name, *file;
  int line, col;
} use;

typedef struct walk {
  names defined, checks, variants;
  use *uses;
  int nuses, capuses;
  int in_try; /* inside `try e with ...`'s e: a name may be missing (herd's
                 stdlib: try fencerel(MFENCE) with 0, for other archs) */
} walk;

static void add_pat(walk *w, const sc_cat_pat *p) {
  for (int i = 0; i < p->n; i++)
    add(&w->defined, p->names[i]);
}

static void add_vcond(walk *w, const sc_cat_vcond *v) {
  if (!v)
    return;
  if (v->kind == VC_NAME)
    add(&w->variants, v->name);
  add_vcond(w, v->a);
  add_vcond(w, v->b);
}

static void walk_exp(walk *w, const sc_cat_exp *e);

static void walk_binds(walk *w, const sc_cat_bind *b, int n) {
  for (int i = 0; i < n; i++) {
    add_pat(w, &b[i].pat);
    walk_exp(w, b[i].exp);
  }
}

static void walk_exp(walk *w, const sc_cat_exp *e) {
  if (!e)
    return;
  if (e->kind == EX_VAR && !w->in_try) {
    sci_grow(&w->uses, &w->capuses, w->nuses + 1, sizeof *w->uses);
    w->uses[w->nuses++] = (use){e->name, e->file, e->line, e->col};
  }
  if (e->kind == EX_FUN)
    add(&w->defined, e->name);
  add_pat(w, &e->pat);
  add(&w->defined, e->elt_pre);
  add(&w->defined, e->elt_x);
  add(&w->defined, e->elt_rest);
  if (e->kind == EX_IF && e->cond == COND_VARIANT)
    add_vcond(w, e->vcond);
  w->in_try += e->kind == EX_TRY;
  for (int i = 0; i < e->nargs; i++)
    walk_exp(w, e->args[i]);
  w->in_try -= e->kind == EX_TRY;
  for (int i = 0; i < e->ncases; i++)
    walk_exp(w, e->cases[i]);
  walk_binds(w, e->binds, e->nbinds);
  const sc_cat_exp *more[] = {e->body, e->dflt, e->empty_case, e->elt_case,
                              e->c1, e->c2, e->ifso, e->ifnot};
  for (size_t i = 0; i < sizeof more / sizeof more[0]; i++)
    walk_exp(w, more[i]);
}

static void walk_prog(walk *w, const sc_cat_prog *p);

static void walk_test(walk *w, const sc_cat_test *t) {
  if (!t)
    return;
  add(&w->checks, t->name);
  walk_exp(w, t->exp);
}

static void walk_ins(walk *w, const sc_cat_ins *ins) {
  walk_binds(w, ins->binds, ins->nbinds);
  walk_test(w, ins->test);
  switch (ins->kind) {
  case IN_PROCEDURE:
  case IN_FORALL:
  case IN_WITHFROM:
  case IN_ENUM:
    add(&w->defined, ins->name);
    break;
  case IN_CALL:
    add(&w->defined, ins->as_name);
    break;
  default:
    break;
  }
  add_pat(w, &ins->pat);
  if (ins->kind == IN_IFVARIANT)
    add_vcond(w, ins->vcond);
  if (ins->kind != IN_EVENTS) /* bell declarations name tags, not values */
    for (int i = 0; i < ins->nexps; i++)
      walk_exp(w, ins->exps[i]);
  walk_exp(w, ins->exp);
  walk_prog(w, &ins->body);
  walk_prog(w, &ins->other);
  for (int i = 0; i < ins->ncases; i++)
    walk_prog(w, &ins->cases[i]);
  if (ins->dflt)
    walk_prog(w, ins->dflt);
  if (ins->included)
    walk_prog(w, ins->included);
}

static void walk_prog(walk *w, const sc_cat_prog *p) {
  for (int i = 0; i < p->n; i++)
    walk_ins(w, p->ins[i]);
}

static bool in_base(const sc_cat_env *base, const char *name) {
  for (int i = 0; base && i < base->n; i++)
    if (strcmp(base->entries[i].name, name) == 0)
      return true;
  return false;
}

static void warn(const char ***out, int *n, int *cap, const char *text) {
  sci_grow(out, cap, *n + 1, sizeof **out);
  (*out)[(*n)++] = text;
}

const char **sci_cat_model_warnings(const sc_cat_model *m,
                                   const sc_cat_env *base,
                                   const sc_cat_run_options *opts, int *n) {
  walk w;
  memset(&w, 0, sizeof w);
  walk_prog(&w, &m->prelude);
  walk_prog(&w, &m->bell);
  walk_prog(&w, &m->prog);
  const char **out = NULL;
  int cap = 0;
  *n = 0;
  names said;
  memset(&said, 0, sizeof said);
  cat_ctx c;
  memset(&c, 0, sizeof c);
  c.model = m;
  const cat_env *prims = sci_cat_add_prims(&c, NULL); /* those it names */
  for (int i = 0; i < w.nuses; i++) {
    const use *u = &w.uses[i];
    if (has(&w.defined, u->name) || in_base(base, u->name) ||
        sci_cat_env_find(prims, u->name) || has(&said, u->name))
      continue;
    add(&said, u->name);
    warn(&out, n, &cap,
         sci_printf("%s:%d:%d: warning: '%s' names nothing: neither the model, "
                   "its includes nor the execution define it",
                   u->file, u->line, u->col, u->name));
  }
  for (int i = 0; opts && i < opts->nskip; i++)
    if (!has(&w.checks, opts->skipchecks[i]))
      warn(&out, n, &cap,
           sci_printf("%s: warning: -skipcheck %s: the model has no check of "
                     "that name", m->filename, opts->skipchecks[i]));
  for (int i = 0; opts && i < opts->nvariants; i++)
    if (!has(&w.variants, opts->variants[i]))
      warn(&out, n, &cap,
           sci_printf("%s: warning: -variant %s: the model tests no variant "
                     "of that name", m->filename, opts->variants[i]));
  return out;
}
