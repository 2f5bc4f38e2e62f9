/* run.c: running a model's instructions on one candidate execution
 * (sci_cat_run), over the base environment env.c holds: the checks
 * (acyclic, irreflexive, empty, flags), procedures, includes, forall, and
 * `with x from S`, which forks the rest of the model once per member of S.
 * The rest of the model is a persistent continuation, so a fork costs
 * nothing.  Expressions are evaluated by eval.c. */
#define _POSIX_C_SOURCE 200809L
#include "cat/interp.h"

#include "cat/graph.h"

#include "util/error.h"
#include "util/gcmem.h"

#include <string.h>

/* ---- Interpreter state --------------------------------------------------- */

/* Persistent lists, newest first, so that forked branches share them. */
typedef struct check_node {
  sc_cat_check check;
  const struct check_node *next;
} check_node;

typedef struct name_node {
  const char *name;
  cat_thunk *th; /* shows: the value shown; NULL for an unshow */
  const struct name_node *next;
} name_node;

typedef struct cat_state {
  const cat_env *env;
  const check_node *checks;
  const name_node *flags;
  const name_node *shows;
  bool failed; /* a check failed: the execution is forbidden */
} cat_state;

/* What remains to run. */
typedef enum kont_kind { K_SEQ, K_RESTORE_ENV, K_FORALL } kont_kind;

typedef struct kont {
  kont_kind kind;
  const sc_cat_prog *prog; /* K_SEQ: instructions from pc on */
  int pc;
  const cat_env *env;      /* K_RESTORE_ENV: the caller's; K_FORALL: before the loop */
  const char *var;         /* K_FORALL: the loop runs body with var = items[index..] */
  sc_cat_value **items;
  int nitems, index;
  const sc_cat_prog *body;
  const struct kont *next;
} kont;

static const kont *seq_kont(const sc_cat_prog *prog, int pc, const kont *next) {
  kont *k = sci_alloc(sizeof *k);
  k->kind = K_SEQ;
  k->prog = prog;
  k->pc = pc;
  k->next = next;
  return k;
}

static const kont *restore_kont(const cat_env *env, const kont *next) {
  kont *k = sci_alloc(sizeof *k);
  k->kind = K_RESTORE_ENV;
  k->env = env;
  k->next = next;
  return k;
}

static const kont *forall_kont(const char *var, sc_cat_value **items, int nitems,
                               int index, const sc_cat_prog *body,
                               const cat_env *env, const kont *next) {
  kont *k = sci_alloc(sizeof *k);
  k->kind = K_FORALL;
  k->var = var;
  k->items = items;
  k->nitems = nitems;
  k->index = index;
  k->body = body;
  k->env = env;
  k->next = next;
  return k;
}

static const name_node *push_name(const name_node *list, const char *name,
                                  cat_thunk *th) {
  name_node *n = sci_alloc(sizeof *n);
  n->name = name;
  n->th = th;
  n->next = list;
  return n;
}

static void push_check(cat_state *st, sc_cat_check check) {
  check_node *n = sci_alloc(sizeof *n);
  n->check = check;
  n->next = st->checks;
  st->checks = n;
}

static bool keep_going(const cat_ctx *c) { return c->opts && c->opts->keep_going; }

static bool skipped(const cat_ctx *c, const char *name) {
  for (int i = 0; name && c->opts && i < c->opts->nskip; i++)
    if (c->opts->skipchecks[i] && strcmp(c->opts->skipchecks[i], name) == 0)
      return true;
  return false;
}

/* `name` (interned: the model uses it) is bound by the caller. */
static bool base_binds(const cat_ctx *c, const char *name) {
  return sci_cat_env_find(c->base_env, name) != NULL;
}

/* ---- Tests --------------------------------------------------------------- */

static const char *test_word(sc_cat_test_kind kind) {
  switch (kind) {
  case TEST_ACYCLIC: return "acyclic";
  case TEST_IRREFLEXIVE: return "irreflexive";
  case TEST_EMPTY: return "empty";
  }
  return "?";
}

static const char *check_name(const sc_cat_test *t) {
  if (t->name)
    return t->name;
  return sci_printf("%s%s@%d", t->negated ? "~" : "", test_word(t->kind), t->line);
}

/* Whether a test holds; -1 after an error.  *tested (when not NULL) is the
 * set or relation it looked at. */
static int test_holds(cat_ctx *c, const sc_cat_test *t, const cat_env *env,
                      const sc_cat_value **tested) {
  sc_cat_value *v = sci_cat_eval_rel_or_set(c, t->exp, env);
  if (!v)
    return -1;
  if (tested)
    *tested = v;
  int ok;
  if (v->kind == SC_CAT_SET) {
    if (t->kind != TEST_EMPTY) {
      sci_cat_fail_at(c, t->exp, "type mismatch: expected relation (for '%s'), "
                     "found event set", test_word(t->kind));
      return -1;
    }
    ok = sci_set_is_empty(v->u.set);
  } else if (t->kind == TEST_ACYCLIC) {
    ok = sci_rel_is_acyclic(v->u.rel);
  } else if (t->kind == TEST_IRREFLEXIVE) {
    ok = sci_rel_is_irreflexive(v->u.rel);
  } else {
    ok = sci_rel_is_empty(v->u.rel);
  }
  return t->negated ? !ok : ok;
}

/* With opts->only, whether t is one of the checks to run. */
static bool wanted(const cat_ctx *c, const sc_cat_test *t) {
  if (!c->opts || !c->opts->nonly)
    return true;
  for (int i = 0; i < c->opts->nonly; i++)
    if (c->opts->only[i] == t)
      return true;
  return false;
}

static bool exec_test(cat_ctx *c, cat_state *st, const sc_cat_ins *ins,
                      const sc_cat_test *t) {
  if (!wanted(c, t))
    return true;
  sc_cat_check check = {check_name(t), ins->file, t->line, true,
                        t->type == TT_FLAG || t->type == TT_UNDEFINED_UNLESS,
                        false, NULL};
  if (skipped(c, t->name)) {
    check.skipped = true;
    push_check(st, check);
    return true;
  }
  int ok = test_holds(c, t, st->env, &check.value);
  if (ok < 0)
    return false;
  check.passed = ok;
  push_check(st, check);
  switch (t->type) {
  case TT_CHECK:
    if (!ok)
      st->failed = true;
    break;
  case TT_UNDEFINED_UNLESS:
    if (!ok)
      st->flags = push_name(st->flags, "undefined", NULL);
    break;
  case TT_FLAG:
    if (ok && t->name) /* herd raises no flag for an unnamed one */
      st->flags = push_name(st->flags, t->name, NULL);
    break;
  case TT_ASSERT:
    if (!ok) {
      sci_cat_fail(c, SC_ERR_SEMANTIC, ins->file, t->line, t->col,
                  "assertion %s failed", t->name ? t->name : check.name);
      return false;
    }
    break;
  }
  return true;
}

/* The `when` test of a let rec, checked after every step of the fixpoint. */
typedef struct rec_test {
  const sc_cat_test *test;
} rec_test;

static bool rec_check(cat_ctx *c, const cat_env *env, void *arg) {
  const rec_test *rt = arg;
  return test_holds(c, rt->test, env, NULL) == 1;
}

/* ---- Instructions -------------------------------------------------------- */

static bool run(cat_ctx *c, cat_state st, const kont *k, cat_state *out);

/* ---- Bindings kept from one evaluation to the next ------------------------ */

static unsigned kept_slot(const sc_cat_bind *b, int cap) {
  return (unsigned)(((uintptr_t)b >> 4) * 2654435761u) & (unsigned)(cap - 1);
}

/* The thunk kept for b, or NULL. */
static cat_thunk *kept_thunk(const cat_env_memo *memo, const sc_cat_bind *b) {
  if (!memo->capkept)
    return NULL;
  for (unsigned i = kept_slot(b, memo->capkept); memo->kept_binds[i];
       i = (i + 1) & (unsigned)(memo->capkept - 1))
    if (memo->kept_binds[i] == b)
      return memo->kept[i];
  return NULL;
}

static void keep_put(cat_env_memo *memo, const sc_cat_bind *b, cat_thunk *t) {
  unsigned i = kept_slot(b, memo->capkept);
  while (memo->kept_binds[i] && memo->kept_binds[i] != b)
    i = (i + 1) & (unsigned)(memo->capkept - 1);
  if (!memo->kept_binds[i])
    memo->nkept++;
  memo->kept_binds[i] = b;
  memo->kept[i] = t;
}

/* The table stays at most half full. */
static void keep_thunk(cat_env_memo *memo, const sc_cat_bind *b, cat_thunk *t) {
  if (2 * (memo->nkept + 1) > memo->capkept) {
    const sc_cat_bind **ob = memo->kept_binds;
    cat_thunk **ot = memo->kept;
    int ocap = memo->capkept;
    memo->capkept = ocap ? 2 * ocap : 64;
    memo->kept_binds = sci_alloc(sizeof *ob * (size_t)memo->capkept);
    memo->kept = sci_alloc(sizeof *ot * (size_t)memo->capkept);
    memo->nkept = 0;
    for (int i = 0; i < ocap; i++)
      if (ob[i])
        keep_put(memo, ob[i], ot[i]);
  }
  keep_put(memo, b, t);
}

static void drop_kept(cat_env_memo *memo) {
  memo->kept_binds = NULL;
  memo->kept = NULL;
  memo->nkept = memo->capkept = 0;
  memo->with = NULL;
}

static bool is_kept(const cat_env_memo *memo, const cat_thunk *t) {
  for (int i = 0; i < memo->capkept; i++)
    if (memo->kept_binds[i] && memo->kept[i] == t)
      return true;
  return false;
}

/* The memo of the caller's environment when this evaluation may keep
 * bindings in it, else NULL. */
static cat_env_memo *keeping(const cat_ctx *c) {
  return c->opts && c->opts->analysis ? c->memo : NULL;
}

/* One binding of a let.  One that depends on no choice is bound to the
 * thunk of the last evaluation: its value, once forced, is shared. */
static const cat_env *bind_one(cat_ctx *c, const sc_cat_bind *b, const cat_env *env) {
  cat_env_memo *memo = keeping(c);
  if (!memo || !sci_cat_analysis_is_static(c->opts->analysis, b))
    return sci_cat_bind_lets(c, b, 1, env);
  cat_thunk *t = kept_thunk(memo, b);
  if (t)
    return sci_cat_env_thunk(env, b->pat.names[0], t);
  const cat_env *out = sci_cat_bind_lets(c, b, 1, env);
  keep_thunk(memo, b, sci_cat_env_find(out, b->pat.names[0]));
  return out;
}

/* A prelude let binds only what the caller's environment leaves unbound. */
static const cat_env *exec_let(cat_ctx *c, const sc_cat_ins *ins, const cat_env *env) {
  if (!ins->is_default)
    return ins->nbinds == 1 ? bind_one(c, &ins->binds[0], env)
                            : sci_cat_bind_lets(c, ins->binds, ins->nbinds, env);
  for (int i = 0; i < ins->nbinds; i++) {
    const sc_cat_pat *pat = &ins->binds[i].pat;
    if (!pat->is_tuple && pat->names[0] && base_binds(c, pat->names[0]))
      continue;
    env = bind_one(c, &ins->binds[i], env);
  }
  return env;
}

static bool exec_rec(cat_ctx *c, cat_state *st, const sc_cat_ins *ins) {
  const sc_cat_test *t = ins->test;
  if (c->opts && c->opts->nonly)
    t = NULL; /* a quick look at some checks only */
  bool use_test = t && !skipped(c, t->name);
  rec_test rt = {t};
  bool check_failed = false;
  const cat_env *env =
      sci_cat_bind_rec(c, ins->binds, ins->nbinds, st->env, ins->file, ins->line,
                      ins->col, use_test ? rec_check : NULL, &rt, &check_failed);
  if (!env)
    return false;
  st->env = env;
  if (t) {
    sc_cat_check check = {check_name(t), ins->file, t->line, !check_failed, false,
                          !use_test, NULL};
    push_check(st, check);
    if (check_failed)
      st->failed = true;
  }
  return true;
}

static const cat_env *exec_enum(cat_ctx *c, const sc_cat_ins *ins, const cat_env *env) {
  cat_env *en = sci_alloc(sizeof *en);
  en->kind = BK_ENUM;
  en->name = ins->name;
  en->tags = ins->names;
  en->ntags = ins->nnames;
  en->next = env;
  env = en;
  int ntags = ins->nnames;
  sc_cat_value **items = sci_alloc(sizeof *items * (size_t)(ntags ? ntags : 1));
  for (int i = 0; i < ins->nnames; i++) {
    cat_env *tag = sci_alloc(sizeof *tag);
    tag->kind = BK_TAG;
    tag->name = ins->names[i];
    tag->enum_name = ins->name;
    tag->next = env;
    env = tag;
    items[i] = sci_cat_v_tag(ins->name, ins->names[i]);
  }
  cat_type *t = sci_alloc(sizeof *t);
  t->kind = TY_TAG;
  t->tag_type = ins->name;
  sc_cat_value *all = sci_cat_v_valset(c, t, ins->nnames, items);
  return all ? sci_cat_env_value(env, ins->name, all) : NULL;
}

static bool exec_procedure(cat_state *st, const sc_cat_ins *ins) {
  cat_proc *p = sci_alloc(sizeof *p);
  p->name = ins->name;
  p->pat = ins->pat;
  p->body = &ins->body;
  p->env = st->env;
  sc_cat_value *v = sci_alloc(sizeof *v);
  v->kind = SC_CAT_PROC;
  v->u.proc = p;
  st->env = sci_cat_env_value(st->env, ins->name, v);
  if (ins->is_rec)
    p->env = st->env;
  return true;
}

/* call p(args) [as name]: run p's body, then return to the caller's
 * environment (checks and flags stay). */
static bool exec_call(cat_ctx *c, cat_state *st, const sc_cat_ins *ins,
                      const kont **k) {
  if (skipped(c, ins->as_name) || skipped(c, ins->name)) {
    sc_cat_check check = {ins->as_name ? ins->as_name : ins->name, ins->file,
                          ins->line, true, false, true, NULL};
    push_check(st, check);
    return true;
  }
  cat_thunk *t = sci_cat_env_find(st->env, ins->name);
  if (!t) {
    sci_cat_fail(c, SC_ERR_SEMANTIC, ins->file, ins->line, ins->col,
                "unbound name '%s'", ins->name);
    return false;
  }
  sc_cat_value *p = sci_cat_force(c, t);
  if (!p)
    return false;
  if (p->kind != SC_CAT_PROC) {
    sci_cat_fail(c, SC_ERR_SEMANTIC, ins->file, ins->line, ins->col,
                "type mismatch: expected procedure, found %s", sci_cat_vtype(p));
    return false;
  }
  sc_cat_value *arg = sci_cat_eval_exp(c, ins->exp, st->env);
  if (!arg)
    return false;
  const cat_proc *proc = p->u.proc;
  const cat_env *env = sci_cat_bind_args(c, &proc->pat, arg, proc->env, ins->exp);
  if (!env)
    return false;
  *k = seq_kont(proc->body, 0, restore_kont(st->env, *k));
  st->env = env;
  return true;
}

/* The members of a set value for forall and `with ... from`; NULL after an
 * error, else *n items. */
static sc_cat_value **members(cat_ctx *c, const sc_cat_ins *ins, const cat_env *env,
                              int *n) {
  sc_cat_value *v = sci_cat_eval_exp(c, ins->exp, env);
  if (!v || !(v = sci_cat_tag2set(c, v)))
    return NULL;
  if (v->kind == SC_CAT_EMPTY) {
    *n = 0;
    return sci_alloc(sizeof(sc_cat_value *));
  }
  if (v->kind != SC_CAT_VALSET) {
    sci_cat_fail_at(c, ins->exp, "type mismatch: expected a set of values for '%s', "
                   "found %s", ins->kind == IN_FORALL ? "forall" : "with",
                   sci_cat_vtype(v));
    return NULL;
  }
  *n = v->u.vs.n;
  return v->u.vs.items;
}

/* ---- What an expression reads of the choices ------------------------------ */

/* The walk of choices_read: the names an expression reaches, through the
 * bindings and function bodies they are bound to. */
typedef struct choice_walk {
  cat_ctx *c;
  const cat_env *env;
  const sc_cat_exp **seen; /* bodies already walked (recursive functions) */
  int nseen, depth;
  int *reads, nreads;      /* the base entries read that are choices */
  int *fixed, nfixed;      /* and those that are not (-1 past the room) */
  bool pure;               /* S is a function of the base entries read
                              alone: no kept binding met */
} choice_walk;

#define WALK_MAX_SEEN 256

static bool walk_exp(choice_walk *w, const sc_cat_exp *e, const cat_env *env);

/* A base entry that is a choice, read: noted once. */
static void note_read(choice_walk *w, int entry) {
  for (int i = 0; i < w->nreads; i++)
    if (w->reads[i] == entry)
      return;
  if (w->nreads < SC_CAT_MAX_DYNAMIC_READS)
    w->reads[w->nreads++] = entry;
  else
    w->nreads = SC_CAT_MAX_DYNAMIC_READS + 1; /* too many: unknown */
}

/* A base entry that is no choice, read: noted once. */
static void note_fixed(choice_walk *w, int entry) {
  for (int i = 0; i < w->nfixed; i++)
    if (w->fixed[i] == entry)
      return;
  if (w->nfixed < SC_CAT_MAX_FIXED_READS)
    w->fixed[w->nfixed++] = entry;
  else
    w->pure = false;
}

/* For sci_cat_exp_any_name: true (stop) when name, bound in w->env, leads
 * where the walk cannot follow: a value made earlier in this run (from
 * what?) unless the analysis kept it as fixed.  A name the caller rebinds
 * per candidate is noted; a binding or function is walked into. */
static bool name_unknown(void *ctx, const char *name) {
  choice_walk *w = ctx;
  cat_thunk *t = sci_cat_env_find(w->env, name);
  if (!t)
    return false; /* a name the expression binds itself */
  if (t == sci_cat_env_find(w->c->base_env, name)) {
    for (int i = w->c->base->n - 1; i >= 0; i--)
      if (strcmp(w->c->base->entries[i].name, name) == 0) {
        if (w->c->base->entries[i].dynamic)
          note_read(w, i);
        else
          note_fixed(w, i);
        return w->nreads > SC_CAT_MAX_DYNAMIC_READS;
      }
    return false; /* a primitive */
  }
  if (w->c->memo && is_kept(w->c->memo, t)) {
    w->pure = false; /* fixed, but made of what? */
    return false;
  }
  switch (t->state) {
  case TH_EXP:
    return walk_exp(w, t->exp, t->env);
  case TH_DONE:
    if (t->value->kind == SC_CAT_PRIM)
      return false;
    if (t->value->kind == SC_CAT_CLOSURE)
      return walk_exp(w, t->value->u.clo->body, t->value->u.clo->env);
    return true;
  case TH_PROJ:
  case TH_BUSY:
    return true;
  }
  return true;
}

static bool walk_exp(choice_walk *w, const sc_cat_exp *e, const cat_env *env) {
  for (int i = 0; i < w->nseen; i++)
    if (w->seen[i] == e)
      return false; /* walked, or being walked: what it reads is noted there */
  if (w->depth >= 64 || w->nseen >= WALK_MAX_SEEN)
    return true; /* too far to follow */
  w->seen[w->nseen++] = e;
  const cat_env *outer = w->env;
  w->env = env;
  w->depth++;
  bool unknown = sci_cat_exp_any_name(e, name_unknown, w);
  w->depth--;
  w->env = outer;
  return unknown;
}

/* The base entries (choices) that evaluating e in env may read, in
 * reads[]: how many, or -1 when the walk cannot tell. */
static int choices_read(cat_ctx *c, const sc_cat_exp *e, const cat_env *env, int *reads,
                        int *fixed, int *nfixed) {
  choice_walk w = {.c = c, .env = env, .reads = reads, .fixed = fixed, .pure = true,
                   .seen = sci_alloc(sizeof(sc_cat_exp *) * WALK_MAX_SEEN)};
  int n = walk_exp(&w, e, env) ? -1 : w.nreads;
  *nfixed = n >= 0 && w.pure ? w.nfixed : -1;
  return n;
}

/* ---- The sets of `with x from S`, kept --------------------------------------- */

#define WITH_KEPT 16 /* sets kept per `with`: one per value of what S reads */

struct cat_with_memo {
  const sc_cat_ins *ins;
  int nreads;         /* -1: S may read what the walk cannot follow */
  int reads[SC_CAT_MAX_DYNAMIC_READS];
  int nfixed;         /* -1: S is not known to be a function of the entries */
  int fixed[SC_CAT_MAX_FIXED_READS]; /* the other entries it reads */
  const void **keys;  /* per kept set: the values of the entries read */
  sc_cat_value **sets;
  int nkept, next;
};

static bool same_entry_value(const struct sc_cat_env_entry *en, const void *key) {
  return en->set ? sci_set_equal(en->set, key) : sci_rel_equal(en->rel, key);
}

/* The kept set of w for the choices' values now, or NULL. */
static sc_cat_value *with_kept(const cat_ctx *c, const struct cat_with_memo *w) {
  for (int k = 0; k < w->nkept; k++) {
    const void **key = w->keys + (long)k * w->nreads;
    bool same = true;
    for (int i = 0; i < w->nreads && same; i++)
      same = same_entry_value(&c->base->entries[w->reads[i]], key[i]);
    if (same)
      return w->sets[k];
  }
  return NULL;
}

static void with_keep(const cat_ctx *c, struct cat_with_memo *w, sc_cat_value *set) {
  int k = w->nkept < WITH_KEPT ? w->nkept++ : w->next++ % WITH_KEPT;
  const void **key = w->keys + (long)k * w->nreads;
  for (int i = 0; i < w->nreads; i++) {
    const struct sc_cat_env_entry *en = &c->base->entries[w->reads[i]];
    key[i] = en->set ? (const void *)sci_set_copy(en->set) : (const void *)sci_rel_copy(en->rel);
  }
  w->sets[k] = set;
}

/* Across environments (combinations of traces), on the model: a set by
 * the values of every entry S reads, choices or not.  A ring. */
#define WITH_SHARED 64

typedef struct with_shared_entry {
  const sc_cat_ins *ins;
  int n;
  const char **names;
  const void **vals;
  sc_cat_value *set;
} with_shared_entry;

struct cat_with_shared {
  with_shared_entry e[WITH_SHARED];
  int n, next;
};

/* The entries of w that S reads, all of them, in one list. */
static int all_entries(const struct cat_with_memo *w, int *out) {
  int n = 0;
  for (int i = 0; i < w->nreads; i++)
    out[n++] = w->reads[i];
  for (int i = 0; i < w->nfixed; i++)
    out[n++] = w->fixed[i];
  return n;
}

static sc_cat_value *shared_set(const cat_ctx *c, const struct cat_with_memo *w) {
  const struct cat_with_shared *sh = c->model->with_shared;
  int ents[SC_CAT_MAX_DYNAMIC_READS + SC_CAT_MAX_FIXED_READS];
  if (!sh || w->nfixed < 0)
    return NULL;
  int n = all_entries(w, ents);
  for (int k = 0; k < sh->n; k++) {
    const with_shared_entry *e = &sh->e[k];
    if (e->ins != w->ins || e->n != n)
      continue;
    bool same = true;
    for (int i = 0; i < n && same; i++) {
      const struct sc_cat_env_entry *en = &c->base->entries[ents[i]];
      same = strcmp(en->name, e->names[i]) == 0 && same_entry_value(en, e->vals[i]);
    }
    if (same)
      return e->set;
  }
  return NULL;
}

static void share_set(const cat_ctx *c, const struct cat_with_memo *w, sc_cat_value *set) {
  if (w->nfixed < 0)
    return;
  struct cat_with_shared **shp = &((sc_cat_model *)c->model)->with_shared; /* its memo */
  if (!*shp)
    *shp = sci_alloc(sizeof **shp);
  struct cat_with_shared *sh = *shp;
  int ents[SC_CAT_MAX_DYNAMIC_READS + SC_CAT_MAX_FIXED_READS];
  int n = all_entries(w, ents);
  with_shared_entry *e = &sh->e[sh->n < WITH_SHARED ? sh->n++ : sh->next++ % WITH_SHARED];
  e->ins = w->ins;
  e->n = n;
  e->names = sci_alloc(sizeof *e->names * (size_t)(n + 1));
  e->vals = sci_alloc(sizeof *e->vals * (size_t)(n + 1));
  for (int i = 0; i < n; i++) {
    const struct sc_cat_env_entry *en = &c->base->entries[ents[i]];
    e->names[i] = en->name;
    e->vals[i] = en->set ? (const void *)sci_set_copy(en->set) : (const void *)sci_rel_copy(en->rel);
  }
  e->set = set;
}

/* S of `with x from S`, evaluated once per value of the choices it reads
 * and kept in the environment's memo (with the bindings that depend on no
 * choice): herd's generate_cos(co0) lists every order of the writes,
 * thousands of relations, and reads only FW (through co0), the same for
 * most candidates.  Evaluated afresh when the walk cannot tell what S
 * reads. */
static sc_cat_value *with_set(cat_ctx *c, const sc_cat_ins *ins, const cat_env *env) {
  cat_env_memo *memo = keeping(c);
  if (!memo)
    return sci_cat_eval_exp(c, ins->exp, env);
  struct cat_with_memo *w = memo->with;
  if (!w || w->ins != ins) {
    w = sci_alloc(sizeof *w);
    w->ins = ins;
    w->nreads = choices_read(c, ins->exp, env, w->reads, w->fixed, &w->nfixed);
    if (w->nreads >= 0) {
      w->keys = sci_alloc(sizeof *w->keys * (size_t)(WITH_KEPT * w->nreads + 1));
      w->sets = sci_alloc(sizeof *w->sets * WITH_KEPT);
    }
    memo->with = w;
  }
  if (w->nreads < 0)
    return sci_cat_eval_exp(c, ins->exp, env);
  sc_cat_value *set = with_kept(c, w);
  if (set)
    return set;
  if ((set = shared_set(c, w))) {
    with_keep(c, w, set);
    return set;
  }
  set = sci_cat_eval_exp(c, ins->exp, env);
  if (set) {
    with_keep(c, w, set);
    share_set(c, w, set);
  }
  return set;
}

int sci_cat_with_kept_has(const sc_cat_env *env, const sc_cat_run_options *opts,
                          const sc_cat_ins *ins, const sc_cat_value *own,
                          const void *(*value_of)(void *ctx, const char *name),
                          void *ctx) {
  const cat_env_memo *memo = env->memo;
  const struct cat_with_memo *w = memo->with;
  if (!opts || !opts->analysis || memo->kept_for != opts->analysis ||
      memo->kept_gen != env->static_gen || !w || w->ins != ins || w->nreads < 0)
    return -1;
  for (int k = 0; k < w->nkept; k++) {
    const void **key = w->keys + (long)k * w->nreads;
    bool same = true;
    for (int i = 0; i < w->nreads && same; i++) {
      const struct sc_cat_env_entry *en = &env->entries[w->reads[i]];
      const void *now = value_of(ctx, en->name);
      same = now && (en->set ? sci_set_equal(now, key[i]) : sci_rel_equal(now, key[i]));
    }
    if (!same)
      continue;
    const sc_cat_value *set = w->sets[k];
    if (set->kind == SC_CAT_EMPTY)
      return 0;
    if (set->kind != SC_CAT_VALSET)
      return -1; /* the interpreter words the type error */
    cat_ctx c = {.model = NULL, .base = env, .n = env->nevents};
    bool has = sci_cat_valset_has(&c, set, own);
    return c.error ? -1 : has;
  }
  return -1;
}

/* with x from S, x a relation the caller binds (herd's cos.cat: with co
 * from generate_cos(cobase)): herd leaves co to the model and runs the rest
 * once per member, each run an execution of its own; here the enumerator
 * has already chosen co, so this candidate is the one run whose member
 * equals its own co, and is no execution when S lacks it.  Counts and
 * states are then herd's, one candidate per (rf, co) pair. */
static sc_cat_value **candidate_member(cat_ctx *c, const sc_cat_ins *ins,
                                       const cat_env *env, int *n) {
  sc_cat_value *own = sci_cat_force(c, sci_cat_env_find(c->base_env, ins->name));
  if (!own)
    return NULL;
  sc_cat_value **items = sci_alloc(sizeof *items);
  *n = 0;
  if (c->opts && c->opts->nonly) { /* a partial candidate's quick look at */
    items[(*n)++] = own;           /* checks: membership is no check */
    return items;
  }
  sc_cat_value *set = with_set(c, ins, env);
  if (!set || !(set = sci_cat_tag2set(c, set)))
    return NULL;
  if (set->kind == SC_CAT_VALSET && sci_cat_valset_has(c, set, own))
    items[(*n)++] = own;
  else if (set->kind != SC_CAT_VALSET && set->kind != SC_CAT_EMPTY) {
    sci_cat_fail_at(c, ins->exp, "type mismatch: expected a set of values for "
                   "'with', found %s", sci_cat_vtype(set));
    return NULL;
  }
  return c->error ? NULL : items;
}

/* with x from S: the rest of the model runs once per member; the execution
 * is allowed when some run allows it (that run's state is kept). */
static bool exec_with(cat_ctx *c, cat_state *st, const sc_cat_ins *ins,
                      const kont **k) {
  int n;
  sc_cat_value **items = base_binds(c, ins->name)
                             ? candidate_member(c, ins, st->env, &n)
                             : members(c, ins, st->env, &n);
  if (!items)
    return false;
  if (n == 0) {
    sc_cat_check check = {sci_printf("with %s from {}", ins->name), ins->file,
                          ins->line, false, false, false, NULL};
    push_check(st, check);
    st->failed = true;
    *k = NULL;
    return true;
  }
  cat_state first = {0}, branch;
  for (int i = 0; i < n; i++) {
    cat_state s = *st;
    s.env = sci_cat_env_value(st->env, ins->name, items[i]);
    if (!run(c, s, *k, &branch))
      return false;
    if (i == 0)
      first = branch;
    if (!branch.failed) {
      *st = branch;
      *k = NULL;
      return true;
    }
  }
  *st = first;
  *k = NULL;
  return true;
}

static bool exec_match(cat_ctx *c, cat_state *st, const sc_cat_ins *ins,
                       const kont **k) {
  sc_cat_value *v = sci_cat_eval_exp(c, ins->exp, st->env);
  if (!v)
    return false;
  if (v->kind != SC_CAT_TAG) {
    sci_cat_fail_at(c, ins->exp, "type mismatch: expected tag to match on, found %s",
                   sci_cat_vtype(v));
    return false;
  }
  for (int i = 0; i < ins->ncases; i++)
    if (strcmp(ins->tags[i], v->u.tag.name) == 0) {
      *k = seq_kont(&ins->cases[i], 0, *k);
      return true;
    }
  if (!ins->dflt) {
    sci_cat_fail(c, SC_ERR_SEMANTIC, ins->file, ins->line, ins->col,
                "pattern matching failed on value '%s", v->u.tag.name);
    return false;
  }
  *k = seq_kont(ins->dflt, 0, *k);
  return true;
}

/* Run one instruction; *k is what follows it and may be changed. */
static bool exec(cat_ctx *c, cat_state *st, const sc_cat_ins *ins, const kont **k) {
  int n;
  sc_cat_value **items;
  switch (ins->kind) {
  case IN_LET:
    st->env = exec_let(c, ins, st->env);
    return true;
  case IN_REC:
    return exec_rec(c, st, ins);
  case IN_TEST:
    return exec_test(c, st, ins, ins->test);
  case IN_SHOW:
    for (int i = 0; i < ins->nnames; i++) {
      cat_thunk *t = sci_cat_env_find(st->env, ins->names[i]);
      if (t) /* herd shows only what is bound */
        st->shows = push_name(st->shows, ins->names[i], t);
    }
    return true;
  case IN_SHOWAS: {
    cat_thunk *t = sci_alloc(sizeof *t);
    t->state = TH_EXP;
    t->exp = ins->exp;
    t->env = st->env;
    st->shows = push_name(st->shows, ins->name, t);
    return true;
  }
  case IN_UNSHOW:
    for (int i = 0; i < ins->nnames; i++)
      st->shows = push_name(st->shows, ins->names[i], NULL);
    return true;
  case IN_INCLUDE:
    *k = seq_kont(ins->included, 0, *k);
    return true;
  case IN_PROCEDURE:
    return exec_procedure(st, ins);
  case IN_CALL:
    return exec_call(c, st, ins, k);
  case IN_ENUM:
    return (st->env = exec_enum(c, ins, st->env)) != NULL;
  case IN_FORALL:
    if (!(items = members(c, ins, st->env, &n)))
      return false;
    *k = forall_kont(ins->name, items, n, 0, &ins->body, st->env, *k);
    return true;
  case IN_WITHFROM:
    return exec_with(c, st, ins, k);
  case IN_MATCH:
    return exec_match(c, st, ins, k);
  case IN_IFVARIANT:
    *k = seq_kont(sci_cat_variant_set(c, ins->vcond) ? &ins->body : &ins->other, 0, *k);
    return true;
  case IN_DEBUG: /* herd prints the value only in its debug mode */
  case IN_EVENTS: /* bell declarations do not constrain executions */
  case IN_DOC:
    return true;
  }
  sci_cat_fail(c, SC_ERR_SEMANTIC, ins->file, ins->line, ins->col,
              "internal error: unknown instruction kind %d", (int)ins->kind);
  return false;
}

static bool run(cat_ctx *c, cat_state st, const kont *k, cat_state *out) {
  if (c->run_depth >= c->max_run_depth) {
    sci_cat_fail(c, SC_ERR_LIMIT, NULL, 0, 0,
                "expected 'with ... from' forks nested at most %d deep, found "
                "deeper (the -max-forks limit)", c->max_run_depth);
    return false;
  }
  c->run_depth++;
  bool ok = true;
  while (k && ok) {
    if (st.failed && !keep_going(c))
      break; /* herd stops at the first failed check */
    switch (k->kind) {
    case K_RESTORE_ENV:
      st.env = k->env;
      k = k->next;
      break;
    case K_FORALL:
      if (k->index < k->nitems) {
        st.env = sci_cat_env_value(k->env, k->var, k->items[k->index]);
        k = seq_kont(k->body, 0,
                     forall_kont(k->var, k->items, k->nitems, k->index + 1, k->body,
                                 k->env, k->next));
      } else {
        st.env = k->env;
        k = k->next;
      }
      break;
    case K_SEQ:
      if (k->pc >= k->prog->n) {
        k = k->next;
      } else {
        const sc_cat_ins *ins = k->prog->ins[k->pc];
        if (sci_cat_out_of_time(c, false, ins->file, ins->line, ins->col)) {
          ok = false;
          break;
        }
        const kont *after = seq_kont(k->prog, k->pc + 1, k->next);
        ok = exec(c, &st, ins, &after);
        k = after;
      }
      break;
    }
  }
  c->run_depth--;
  *out = st;
  return ok;
}

/* ---- Outcome and result -------------------------------------------------- */

struct sc_cat_result {
  cat_ctx *ctx;
  const cat_env *env;
  const char **show_names;
  cat_thunk **show_values;
  int nshows;
};

static int list_length(const check_node *n) {
  int k = 0;
  for (; n; n = n->next)
    k++;
  return k;
}

static void fill_outcome(cat_ctx *c, const cat_state *st, sc_cat_outcome *out) {
  out->allowed = !st->failed;
  out->nchecks = list_length(st->checks);
  out->checks = sci_alloc(sizeof *out->checks * (size_t)(out->nchecks + 1));
  int i = out->nchecks;
  for (const check_node *n = st->checks; n; n = n->next)
    out->checks[--i] = n->check;

  /* Flags, oldest first, each once; herd reports them for allowed
   * executions only. */
  int nflags = 0;
  for (const name_node *n = st->flags; n; n = n->next)
    nflags++;
  out->flags = sci_alloc(sizeof *out->flags * (size_t)(nflags ? nflags : 1));
  out->nflags = 0;
  const char **chrono = sci_alloc(sizeof *chrono * (size_t)(nflags ? nflags : 1));
  i = nflags;
  for (const name_node *n = st->flags; n; n = n->next)
    chrono[--i] = n->name;
  for (i = 0; out->allowed && i < nflags; i++) {
    bool seen = false;
    for (int j = 0; j < out->nflags && !seen; j++)
      seen = strcmp(out->flags[j], chrono[i]) == 0;
    if (!seen)
      out->flags[out->nflags++] = chrono[i];
  }

  /* Shows: replay show/unshow in order; a name keeps its first position. */
  int nevents = 0;
  for (const name_node *n = st->shows; n; n = n->next)
    nevents++;
  const name_node **events = sci_alloc(sizeof *events * (size_t)(nevents ? nevents : 1));
  i = nevents;
  for (const name_node *n = st->shows; n; n = n->next)
    events[--i] = n;
  sc_cat_result *r = sci_alloc(sizeof *r);
  r->ctx = c;
  r->env = st->env;
  r->show_names = sci_alloc(sizeof *r->show_names * (size_t)(nevents ? nevents : 1));
  r->show_values = sci_alloc(sizeof *r->show_values * (size_t)(nevents ? nevents : 1));
  for (i = 0; i < nevents; i++) {
    int j = 0;
    while (j < r->nshows && strcmp(r->show_names[j], events[i]->name) != 0)
      j++;
    if (events[i]->th) {
      if (j == r->nshows)
        r->show_names[r->nshows++] = events[i]->name;
      r->show_values[j] = events[i]->th;
    } else if (j < r->nshows) {
      memmove(r->show_names + j, r->show_names + j + 1,
              sizeof *r->show_names * (size_t)(r->nshows - j - 1));
      memmove(r->show_values + j, r->show_values + j + 1,
              sizeof *r->show_values * (size_t)(r->nshows - j - 1));
      r->nshows--;
    }
  }
  out->result = r;
}

/* The result may be forced after sci_cat_run returns, when the caller has
 * rebound names for its next candidate or dropped its options: the
 * evaluation keeps its own copies.  Bound values are never changed in
 * place (a rebind makes a new copy), so a shallow copy of the entries is
 * enough. */
static const sc_cat_env *snapshot_env(const sc_cat_env *env) {
  sc_cat_env *copy = sci_alloc(sizeof *copy);
  *copy = *env;
  copy->entries = sci_alloc(sizeof *copy->entries * (size_t)(env->n + 1));
  if (env->n)
    memcpy(copy->entries, env->entries, sizeof *copy->entries * (size_t)env->n);
  copy->cap = env->n + 1;
  copy->memo = NULL; /* the caller's environment keeps it */
  return copy;
}

static const char *const *copy_names(const char *const *names, int n) {
  const char **copy = sci_alloc(sizeof *copy * (size_t)(n > 0 ? n : 1));
  for (int i = 0; i < n; i++)
    copy[i] = names && names[i] ? sci_strdup(names[i]) : NULL;
  return copy;
}

static const sc_cat_run_options *copy_options(const sc_cat_run_options *opts) {
  if (!opts)
    return NULL;
  sc_cat_run_options *copy = sci_alloc(sizeof *copy);
  *copy = *opts;
  copy->nskip = opts->nskip > 0 ? opts->nskip : 0;
  copy->nvariants = opts->nvariants > 0 ? opts->nvariants : 0;
  copy->skipchecks = copy_names(opts->skipchecks, copy->nskip);
  copy->variants = copy_names(opts->variants, copy->nvariants);
  return copy;
}

/* The base environment as the interpreter sees it: the entries the model
 * names (others are found by name in c->base when asked for), reusing the
 * bindings of the entries not rebound since the last evaluation. */
static const cat_env *bind_base(cat_ctx *c, const sc_cat_env *env) {
  cat_env_memo *memo = env->memo;
  if (memo->model != c->model) {
    memo->model = c->model;
    memo->valid = 0;
  }
  sci_grow(&memo->chain, &memo->cap, env->n + 1, sizeof *memo->chain);
  const cat_env *chain = memo->valid ? memo->chain[memo->valid - 1] : NULL;
  for (int i = memo->valid; i < env->n; i++) {
    const struct sc_cat_env_entry *b = &env->entries[i];
    const char *name = sci_cat_symbol(c->model->syms, b->name);
    if (name)
      chain = sci_cat_env_value(chain, name, b->set ? sci_cat_v_set(b->set)
                                                   : sci_cat_v_rel(b->rel));
    memo->chain[i] = chain;
  }
  memo->valid = env->n;
  return chain;
}

/* Rounds a `let rec` may take by default.  herd iterates until no value
 * grows; a round that is not the last adds a pair to a relation (or an
 * event to a set) when the body is monotone, so n*n + 1 rounds reach the
 * fixpoint of any monotone body over n events.  Past that the body is not
 * monotone and may cycle for ever, or grows values without bound (sets of
 * sets): an error, not a hang. */
static int default_max_fix(int n) {
  long most = (long)n * n + 2;
  return most < CAT_MIN_MAX_FIX ? CAT_MIN_MAX_FIX : (int)most;
}

int sci_cat_max_fix(const sc_cat_model *m, const sc_cat_run_options *opts, int nevents) {
  return opts && opts->max_fixpoint_iterations > 0 ? opts->max_fixpoint_iterations
         : m->limits.max_iterations > 0            ? m->limits.max_iterations
                                                   : default_max_fix(nevents);
}

/* The evaluation options win over the model's limits, which win over the
 * defaults. */
static void set_limits(cat_ctx *c, const sc_cat_run_options *opts) {
  const sc_model_limits *lim = &c->model->limits;
  c->max_fix = sci_cat_max_fix(c->model, opts, c->n);
  c->max_app_depth = lim->max_depth > 0 ? lim->max_depth : CAT_MAX_APP_DEPTH;
  c->max_run_depth = lim->max_forks > 0 ? lim->max_forks : CAT_MAX_RUN_DEPTH;
  c->timeout = lim->timeout > 0 ? lim->timeout
               : lim->timeout < 0 ? 0 : CAT_DEFAULT_TIMEOUT;
  c->deadline = c->timeout > 0 ? sc_seconds() + c->timeout : 0;
}


sc_status sci_cat_run(const sc_cat_model *m, const sc_cat_env *env,
                      const sc_cat_run_options *opts, sc_cat_outcome *out,
                      sc_error **err) {
  sci_gc_init();
  if (!m || !env || !out)
    return sci_fail(err, SC_ERR_USAGE, NULL, 0, 0,
                   "sci_cat_run: missing model, environment or outcome");
  memset(out, 0, sizeof *out);
  if (env->usage_error)
    return sci_fail(err, SC_ERR_USAGE, NULL, 0, 0, "%s", env->usage_error);
  cat_ctx *c = sci_alloc(sizeof *c);
  c->model = m;
  bool transient = opts && opts->transient;
  c->base = transient ? env : snapshot_env(env);
  c->n = env->nevents;
  c->opts = transient ? opts : copy_options(opts);
  set_limits(c, opts);
  cat_state st = {0};
  c->memo = env->memo;
  if (opts && opts->analysis && (c->memo->kept_for != opts->analysis ||
                                 c->memo->kept_gen != env->static_gen)) {
    drop_kept(c->memo); /* a fixed name was rebound: start afresh */
    c->memo->kept_for = opts->analysis;
    c->memo->kept_gen = env->static_gen;
  }
  c->base_env = bind_base(c, env);
  st.env = sci_cat_add_prims(c, c->base_env);
  const kont *k = seq_kont(&m->prelude, 0,
                           seq_kont(&m->bell, 0, seq_kont(&m->prog, 0, NULL)));
  cat_state final;
  if (!run(c, st, k, &final)) {
    sc_status status = c->error ? c->error->status : SC_ERR_SEMANTIC;
    drop_kept(c->memo); /* a failed force may have left a thunk busy */
    if (err)
      *err = c->error;
    memset(out, 0, sizeof *out);
    return status;
  }
  fill_outcome(c, &final, out);
  return SC_OK;
}

static sc_status force_for_caller(const sc_cat_result *r, cat_thunk *t,
                                  const sc_cat_value **out, sc_error **err) {
  cat_ctx *c = r->ctx;
  c->error = NULL;
  c->app_depth = 0;
  if (c->timeout > 0) /* a lookup after the run has its own time */
    c->deadline = sc_seconds() + c->timeout;
  sc_cat_value *v = sci_cat_force(c, t);
  if (!v) {
    sc_status status = c->error ? c->error->status : SC_ERR_SEMANTIC;
    drop_kept(c->memo); /* a failed force may have left a thunk busy */
    if (err)
      *err = c->error;
    c->error = NULL;
    return status;
  }
  *out = v;
  return SC_OK;
}

sc_status sci_cat_result_lookup(const sc_cat_result *r, const char *name,
                               const sc_cat_value **out, sc_error **err) {
  if (!out)
    return sci_fail(err, SC_ERR_USAGE, NULL, 0, 0, "sci_cat_result_lookup: no output");
  *out = NULL;
  if (!r || !name)
    return sci_fail(err, SC_ERR_USAGE, NULL, 0, 0,
                   "sci_cat_result_lookup: no result or name");
  for (const cat_env *e = r->env; e; e = e->next)
    if (e->kind == BK_VALUE && strcmp(e->name, name) == 0)
      return force_for_caller(r, e->th, out, err);
  const sc_cat_env *base = r->ctx->base; /* a base name the model never used */
  for (int i = 0; i < base->n; i++)
    if (strcmp(base->entries[i].name, name) == 0) {
      const struct sc_cat_env_entry *b = &base->entries[i];
      *out = b->set ? sci_cat_v_set(b->set) : sci_cat_v_rel(b->rel);
      return SC_OK;
    }
  return SC_OK;
}

int sci_cat_result_nshows(const sc_cat_result *r) { return r ? r->nshows : 0; }

const char *sci_cat_result_show_name(const sc_cat_result *r, int i) {
  return r && i >= 0 && i < r->nshows ? r->show_names[i] : NULL;
}

sc_status sci_cat_result_show_value(const sc_cat_result *r, int i,
                                   const sc_cat_value **out, sc_error **err) {
  if (!out)
    return sci_fail(err, SC_ERR_USAGE, NULL, 0, 0,
                   "sci_cat_result_show_value: no output");
  *out = NULL;
  if (!r || i < 0 || i >= r->nshows)
    return sci_fail(err, SC_ERR_USAGE, NULL, 0, 0,
                   "sci_cat_result_show_value: no show number %d", i);
  return force_for_caller(r, r->show_values[i], out, err);
}
