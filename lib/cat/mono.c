/* mono.c: how a model's values depend on the choices the enumerator
 * makes per candidate (rf, co, the barrier and fence.sc orders), found from
 * the model's text once per test.  Each expression gets two masks over the
 * choices ("inputs"): those it may grow with (up) and those it may shrink
 * with (down); a choice in both masks is unknown.  Union, intersection,
 * sequence, product, closures, inverse and domain/range keep the masks,
 * complement swaps them, a \ b joins a's with b's swapped, and anything the
 * analysis does not follow (matches on a dynamic value, recursive
 * functions, procedures' insides...) is unknown in every choice.
 *
 * Two uses.  A binding that depends on no choice has the same value for
 * every candidate of a trace combination: the interpreter keeps it
 * (run.c).  A check whose failure only grows with some choices and
 * only shrinks with the others fails on every completion of a partial
 * candidate once it fails on the right bounds of that partial candidate:
 * the enumerator cuts the branch (sim/enumerate.c). */
#include "cat/interp.h"

#include "util/gcmem.h"

#include <string.h>

#define ALL UINT32_MAX
#define MAX_APP_DEPTH 16  /* nested applications followed, then unknown */
#define FIRST_TEMP_INPUT 8 /* inputs 8..31 stand for `let rec` names */

static const sc_cat_dep none = {0, 0};
static const sc_cat_dep unknown = {ALL, ALL};

static sc_cat_dep join(sc_cat_dep a, sc_cat_dep b) {
  return (sc_cat_dep){a.up | b.up, a.down | b.down};
}
static sc_cat_dep flip(sc_cat_dep a) { return (sc_cat_dep){a.down, a.up}; }
/* Depends on the same choices, in an unknown direction. */
static sc_cat_dep mixed(sc_cat_dep a) {
  uint32_t any = a.up | a.down;
  return (sc_cat_dep){any, any};
}
static bool is_none(sc_cat_dep a) { return (a.up | a.down) == 0; }

/* ---- The analysis' environment: names to dependences or functions -------- */

typedef struct aenv {
  const char *name;          /* interned */
  sc_cat_dep dep;            /* a value */
  const sc_cat_exp *fun;     /* a function defined by let: its EX_FUN */
  const struct aenv *defenv; /* where it was defined */
  const struct aenv *next;
} aenv;

typedef struct analyser {
  const sc_cat_model *m;
  const sc_cat_env *base;
  const sc_cat_dynamic *dyn;
  int ndyn;
  const char *domain, *range; /* interned names of the monotone prims */
  int depth;
  int next_temp;
  bool stopped; /* an instruction the analysis does not follow was met */
  sc_cat_analysis *out;
} analyser;

struct sc_cat_analysis {
  const struct sc_cat_test **checks;
  sc_cat_dep *deps;
  int nchecks, capchecks, capdeps;
  /* bindings that depend on no choice: an open-addressing set of pointers */
  const sc_cat_bind **statics;
  int nstatics, capstatics; /* capstatics: a power of two, or 0 */
};

static const aenv *bind_dep(const aenv *env, const char *name, sc_cat_dep dep) {
  if (!name)
    return env;
  aenv *e = sc_alloc(sizeof *e);
  *e = (aenv){name, dep, NULL, NULL, env};
  return e;
}

static const aenv *bind_fun(const aenv *env, const char *name, const sc_cat_exp *fun,
                            const aenv *defenv) {
  aenv *e = sc_alloc(sizeof *e);
  *e = (aenv){name, none, fun, defenv, env};
  return e;
}

static const aenv *find(const aenv *env, const char *name) {
  for (; env; env = env->next)
    if (env->name == name)
      return env;
  return NULL;
}

/* A name the model does not bind: a choice of the caller, or a fixed one. */
static sc_cat_dep base_dep(const analyser *a, const char *name) {
  for (int i = 0; i < a->ndyn; i++)
    if (strcmp(a->dyn[i].name, name) == 0)
      return a->dyn[i].dep;
  return none;
}

static bool base_binds(const analyser *a, const char *name) {
  for (int i = 0; i < a->base->n; i++)
    if (strcmp(a->base->entries[i].name, name) == 0)
      return true;
  return false;
}

/* ---- Expressions --------------------------------------------------------- */

static sc_cat_dep exp_dep(analyser *a, const sc_cat_exp *e, const aenv *env);

static sc_cat_dep var_dep(analyser *a, const char *name, const aenv *env) {
  const aenv *b = find(env, name);
  if (!b)
    return base_dep(a, name);
  return b->fun ? unknown : b->dep; /* a function used as a value */
}

static const aenv *bind_pat_dep(const sc_cat_pat *pat, sc_cat_dep dep,
                                const aenv *env) {
  for (int i = 0; i < pat->n; i++)
    env = bind_dep(env, pat->names[i], dep);
  return env;
}

/* f arg: a let-defined function is followed with its formal bound to the
 * argument's dependence; domain and range keep it. */
static sc_cat_dep app_dep(analyser *a, const sc_cat_exp *e, const aenv *env) {
  const sc_cat_exp *f = e->args[0], *arg = e->args[1];
  if (f->kind == EX_VAR) {
    const aenv *b = find(env, f->name);
    if (b && b->fun && a->depth < MAX_APP_DEPTH) {
      const sc_cat_exp *fun = b->fun;
      const aenv *inner = b->defenv;
      if (fun->pat.is_tuple && arg->kind == EX_TUPLE && arg->nargs == fun->pat.n) {
        for (int i = 0; i < arg->nargs; i++)
          inner = bind_dep(inner, fun->pat.names[i], exp_dep(a, arg->args[i], env));
      } else {
        inner = bind_pat_dep(&fun->pat, exp_dep(a, arg, env), inner);
      }
      a->depth++;
      sc_cat_dep d = exp_dep(a, fun->body, inner);
      a->depth--;
      return d;
    }
    if (!b && (f->name == a->domain || f->name == a->range))
      return exp_dep(a, arg, env);
    if (!b) { /* another built-in: a fixed function of its argument */
      sc_cat_dep d = exp_dep(a, arg, env);
      return is_none(d) ? none : mixed(d);
    }
  }
  return unknown;
}

/* let binds in body: the binds see the environment before them. */
static const aenv *let_binds(analyser *a, const sc_cat_bind *binds, int n,
                             const aenv *env) {
  const aenv *out = env;
  for (int i = 0; i < n; i++) {
    const sc_cat_bind *b = &binds[i];
    if (b->exp->kind == EX_FUN && !b->pat.is_tuple && b->pat.names[0])
      out = bind_fun(out, b->pat.names[0], b->exp, env);
    else if (b->pat.is_tuple && b->exp->kind == EX_TUPLE && b->exp->nargs == b->pat.n)
      for (int k = 0; k < b->pat.n; k++)
        out = bind_dep(out, b->pat.names[k], exp_dep(a, b->exp->args[k], env));
    else
      out = bind_pat_dep(&b->pat, exp_dep(a, b->exp, env), out);
  }
  return out;
}

/* let rec: functions are not followed (unknown); the other names are
 * iterated from nothing.  The least fixpoint keeps the dependences when
 * every body grows with the names themselves: each name is given an input
 * of its own while the bodies are analysed, to see that it only grows. */
static const aenv *rec_binds(analyser *a, const sc_cat_bind *binds, int n,
                             const aenv *env) {
  int nnames = 0;
  for (int i = 0; i < n; i++)
    nnames += binds[i].pat.n;
  bool funs = false;
  for (int i = 0; i < n; i++)
    funs |= binds[i].exp->kind == EX_FUN;
  if (funs || a->next_temp + nnames > 32) {
    for (int i = 0; i < n; i++)
      env = bind_pat_dep(&binds[i].pat, unknown, env);
    return env;
  }
  int first = a->next_temp;
  a->next_temp += nnames;
  uint32_t temps = 0;
  for (int t = first; t < first + nnames; t++)
    temps |= UINT32_C(1) << t;
  sc_cat_dep *cur = sc_alloc(sizeof *cur * (size_t)nnames);
  for (int k = 0; k < nnames; k++)
    cur[k] = none;
  bool grows_only = true;
  for (int round = 0; round < 64; round++) {
    const aenv *inner = env;
    int k = 0;
    for (int i = 0; i < n; i++)
      for (int j = 0; j < binds[i].pat.n; j++, k++) {
        sc_cat_dep self = {UINT32_C(1) << (first + k), 0};
        inner = bind_dep(inner, binds[i].pat.names[j], join(cur[k], self));
      }
    bool changed = false;
    k = 0;
    for (int i = 0; i < n; i++) {
      sc_cat_dep d = exp_dep(a, binds[i].exp, inner);
      grows_only &= (d.down & temps) == 0;
      d.up &= ~temps;
      d.down &= ~temps;
      for (int j = 0; j < binds[i].pat.n; j++, k++) {
        sc_cat_dep nd = join(cur[k], d);
        changed |= nd.up != cur[k].up || nd.down != cur[k].down;
        cur[k] = nd;
      }
    }
    if (!changed)
      break;
  }
  a->next_temp = first;
  int k = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < binds[i].pat.n; j++, k++)
      env = bind_dep(env, binds[i].pat.names[j], grows_only ? cur[k] : mixed(cur[k]));
  return env;
}

/* The dependence of a value a match or test is decided by: what it picks
 * depends on those choices in an unknown direction. */
static sc_cat_dep decided_by(analyser *a, const sc_cat_exp *e, const aenv *env) {
  return e ? mixed(exp_dep(a, e, env)) : none;
}

static sc_cat_dep matchset_dep(analyser *a, const sc_cat_exp *e, const aenv *env) {
  sc_cat_dep s = exp_dep(a, e->args[0], env);
  sc_cat_dep d = join(mixed(s), exp_dep(a, e->empty_case, env));
  const aenv *inner = env;
  inner = bind_dep(inner, e->elt_pre, s);
  inner = bind_dep(inner, e->elt_x, s);
  inner = bind_dep(inner, e->elt_rest, s);
  return join(d, exp_dep(a, e->elt_case, inner));
}

static sc_cat_dep exp_dep(analyser *a, const sc_cat_exp *e, const aenv *env) {
  if (!e)
    return none;
  sc_cat_dep d = none;
  switch (e->kind) {
  case EX_EMPTY_REL:
  case EX_UNIV:
  case EX_TAG:
    return none;
  case EX_VAR:
    return var_dep(a, e->name, env);
  case EX_EXPLICIT_SET:
  case EX_TUPLE:
  case EX_UNION:
  case EX_SEQ:
  case EX_INTER:
  case EX_CARTESIAN:
  case EX_ADD:
    for (int i = 0; i < e->nargs; i++)
      d = join(d, exp_dep(a, e->args[i], env));
    return d;
  case EX_DIFF:
    return join(exp_dep(a, e->args[0], env), flip(exp_dep(a, e->args[1], env)));
  case EX_OP1:
    d = exp_dep(a, e->args[0], env);
    return e->op1 == OP1_COMP ? flip(d) : d;
  case EX_APP:
    return app_dep(a, e, env);
  case EX_FUN:
    return unknown;
  case EX_BIND:
    return exp_dep(a, e->body, let_binds(a, e->binds, e->nbinds, env));
  case EX_BINDREC:
    return exp_dep(a, e->body, rec_binds(a, e->binds, e->nbinds, env));
  case EX_MATCH:
    d = decided_by(a, e->args[0], env);
    for (int i = 0; i < e->ncases; i++)
      d = join(d, exp_dep(a, e->cases[i], env));
    return join(d, exp_dep(a, e->dflt, env));
  case EX_MATCHSET:
    return matchset_dep(a, e, env);
  case EX_TRY:
    return mixed(join(exp_dep(a, e->args[0], env), exp_dep(a, e->body, env)));
  case EX_IF:
    if (e->cond != COND_VARIANT)
      d = join(decided_by(a, e->c1, env), decided_by(a, e->c2, env));
    return join(d, join(exp_dep(a, e->ifso, env), exp_dep(a, e->ifnot, env)));
  }
  return unknown;
}

/* ---- Instructions -------------------------------------------------------- */

static void add_check(sc_cat_analysis *out, const sc_cat_test *t, sc_cat_dep d) {
  sc_grow(&out->checks, &out->capchecks, out->nchecks + 1, sizeof *out->checks);
  sc_grow(&out->deps, &out->capdeps, out->nchecks + 1, sizeof *out->deps);
  out->checks[out->nchecks] = t;
  out->deps[out->nchecks++] = d;
}

static unsigned slot_of(const sc_cat_bind *b, int cap) {
  return (unsigned)(((uintptr_t)b >> 4) * 2654435761u) & (unsigned)(cap - 1);
}

static void insert_static(sc_cat_analysis *out, const sc_cat_bind *b) {
  unsigned i = slot_of(b, out->capstatics);
  while (out->statics[i] && out->statics[i] != b)
    i = (i + 1) & (unsigned)(out->capstatics - 1);
  if (!out->statics[i])
    out->nstatics++;
  out->statics[i] = b;
}

/* Kept at most half full, so that a lookup ends at an empty slot soon. */
static void add_static(sc_cat_analysis *out, const sc_cat_bind *b) {
  if (2 * (out->nstatics + 1) > out->capstatics) {
    const sc_cat_bind **old = out->statics;
    int oldcap = out->capstatics;
    out->capstatics = oldcap ? 2 * oldcap : 64;
    out->statics = sc_alloc(sizeof *out->statics * (size_t)out->capstatics);
    out->nstatics = 0;
    for (int i = 0; i < oldcap; i++)
      if (old[i])
        insert_static(out, old[i]);
  }
  insert_static(out, b);
}

static bool skipped(const sc_cat_run_options *opts, const char *name) {
  for (int i = 0; name && opts && i < opts->nskip; i++)
    if (opts->skipchecks[i] && strcmp(opts->skipchecks[i], name) == 0)
      return true;
  return false;
}

/* A plain binding (one name, not a function) that depends on no choice is
 * kept by the interpreter from one candidate to the next (run.c). */
static void note_static(analyser *a, const sc_cat_bind *b, const aenv *env) {
  if (!b->pat.is_tuple && b->pat.names[0] && b->exp->kind != EX_FUN &&
      is_none(exp_dep(a, b->exp, env)))
    add_static(a->out, b);
}

/* A let instruction, as exec_let runs it: a prelude default is skipped for
 * the caller's names, and binds one binding at a time. */
static const aenv *let_ins(analyser *a, const sc_cat_ins *ins, const aenv *env) {
  if (ins->is_default) {
    for (int i = 0; i < ins->nbinds; i++) {
      const sc_cat_pat *pat = &ins->binds[i].pat;
      if (!pat->is_tuple && pat->names[0] && base_binds(a, pat->names[0]))
        continue;
      note_static(a, &ins->binds[i], env);
      env = let_binds(a, &ins->binds[i], 1, env);
    }
    return env;
  }
  if (ins->nbinds == 1)
    note_static(a, &ins->binds[0], env);
  return let_binds(a, ins->binds, ins->nbinds, env);
}

static const aenv *prog_deps(analyser *a, const sc_cat_prog *p, const aenv *env,
                             const sc_cat_run_options *opts);

static const aenv *ins_deps(analyser *a, const sc_cat_ins *ins, const aenv *env,
                            const sc_cat_run_options *opts) {
  switch (ins->kind) {
  case IN_LET:
    return let_ins(a, ins, env);
  case IN_REC:
    return rec_binds(a, ins->binds, ins->nbinds, env);
  case IN_TEST: {
    const sc_cat_test *t = ins->test;
    if (t->type != TT_CHECK || skipped(opts, t->name))
      return env;
    sc_cat_dep d = exp_dep(a, t->exp, env);
    /* ~acyclic r fails when r is acyclic: as r shrinks */
    add_check(a->out, t, t->negated ? flip(d) : d);
    return env;
  }
  case IN_INCLUDE:
    return prog_deps(a, ins->included, env, opts);
  case IN_SHOW:
  case IN_SHOWAS:
  case IN_UNSHOW:
  case IN_DEBUG:
  case IN_DOC:
  case IN_EVENTS:    /* a bell's declarations constrain no execution */
  case IN_PROCEDURE: /* its checks are not followed, its lets are local */
  case IN_CALL:
  case IN_ENUM:      /* tags: fixed */
    return env;
  case IN_IFVARIANT: { /* the variants are known: only one branch runs */
    cat_ctx cc;
    memset(&cc, 0, sizeof cc);
    cc.opts = opts;
    return prog_deps(a, sc_cat_variant_set(&cc, ins->vcond) ? &ins->body : &ins->other,
                     env, opts);
  }
  case IN_WITHFROM:
    /* with co from S, co the caller's: the rest sees the candidate's own
     * value (run.c's candidate_member) */
    if (base_binds(a, ins->name))
      return bind_dep(env, ins->name, base_dep(a, ins->name));
    break;
  case IN_FORALL:
  case IN_MATCH:
    break;
  }
  a->stopped = true; /* the rest may run in other environments */
  return env;
}

static const aenv *prog_deps(analyser *a, const sc_cat_prog *p, const aenv *env,
                             const sc_cat_run_options *opts) {
  for (int i = 0; i < p->n && !a->stopped; i++)
    env = ins_deps(a, p->ins[i], env, opts);
  return env;
}

sc_cat_analysis *sc_cat_analyse(const sc_cat_model *m, const sc_cat_env *base,
                                const sc_cat_dynamic *dyn, int ndyn,
                                const sc_cat_run_options *opts) {
  analyser a = {m, base, dyn, ndyn, sc_cat_symbol(m->syms, "domain"),
                sc_cat_symbol(m->syms, "range"), 0, FIRST_TEMP_INPUT, false,
                sc_alloc(sizeof(sc_cat_analysis))};
  const aenv *env = prog_deps(&a, &m->prelude, NULL, opts);
  env = prog_deps(&a, &m->bell, env, opts);
  prog_deps(&a, &m->prog, env, opts);
  return a.out;
}

int sc_cat_analysis_nchecks(const sc_cat_analysis *a) { return a->nchecks; }

const struct sc_cat_test *sc_cat_analysis_check(const sc_cat_analysis *a, int i,
                                                sc_cat_dep *dep) {
  *dep = a->deps[i];
  return a->checks[i];
}

bool sc_cat_analysis_is_static(const sc_cat_analysis *a, const sc_cat_bind *b) {
  if (!a || !a->capstatics)
    return false;
  for (unsigned i = slot_of(b, a->capstatics); a->statics[i];
       i = (i + 1) & (unsigned)(a->capstatics - 1))
    if (a->statics[i] == b)
      return true;
  return false;
}

/* ---- Flags ----------------------------------------------------------------- */

static bool prog_may_flag(const sc_cat_prog *p, const sc_cat_run_options *opts);

static bool ins_may_flag(const sc_cat_ins *ins, const sc_cat_run_options *opts) {
  switch (ins->kind) {
  case IN_TEST:
    return (ins->test->type == TT_FLAG || ins->test->type == TT_UNDEFINED_UNLESS) &&
           !skipped(opts, ins->test->name);
  case IN_INCLUDE:
    return prog_may_flag(ins->included, opts);
  case IN_MATCH:
    for (int i = 0; i < ins->ncases; i++)
      if (prog_may_flag(&ins->cases[i], opts))
        return true;
    return ins->dflt && prog_may_flag(ins->dflt, opts);
  default: /* procedures, forall, if: their bodies */
    return prog_may_flag(&ins->body, opts) || prog_may_flag(&ins->other, opts);
  }
}

static bool prog_may_flag(const sc_cat_prog *p, const sc_cat_run_options *opts) {
  for (int i = 0; p && i < p->n; i++)
    if (ins_may_flag(p->ins[i], opts))
      return true;
  return false;
}

bool sc_cat_model_may_flag(const sc_cat_model *m, const sc_cat_run_options *opts) {
  return prog_may_flag(&m->prelude, opts) || prog_may_flag(&m->bell, opts) ||
         prog_may_flag(&m->prog, opts);
}
