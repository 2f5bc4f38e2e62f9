/* exec.c: the compiled evaluator (exec.h).  The lowering (graph.c) has
 * already decided what the syntax leaves open: typing, variants, inlined
 * functions and procedures, the shape of each `let rec`; what is left is a
 * list of hash-consed set and relation nodes, operands before users, and
 * the model's tests over them in the order they run.  Evaluated here over
 * bit matrices (rel.h): each node into a buffer allocated once, computed
 * on first use in a run, so a node the checks share is computed once.  A
 * node that depends on no dynamic name keeps its value from one run to the
 * next while the fixed names stay bound to the same values (the
 * environment and its static_gen). */
#include "cat/exec.h"

#include "cat/graph.h"
#include "util/gcmem.h"

#include <string.h>

struct sc_cat_exec {
  const sc_cat_model *model;
  const sc_cat_graph *g;
  int n; /* events */
  int nnodes;
  const void **val;  /* per node: its value (a buffer of its own, or borrowed) */
  void **own;        /* per node: its buffer, NULL for borrowed values */
  bool *done;        /* per node: val is this run's value */
  int *slot;         /* per CONST node: the dynamic name's index, else -1 */
  int *dyn_nodes;    /* the nodes that depend on a dynamic name */
  uint64_t *dyn_mask; /* per dyn_nodes entry: the dynamic names it reads */
  int ndyn;
  void **last_in;    /* per dynamic name read: its value in the last run */
  int ndynamic;      /* the environment's dynamic names */
  sc_set **in_set;   /* per dynamic name: the caller's buffer */
  sc_rel **in_rel;
  bool *reads;       /* per dynamic name: some node reads it */
  void ***rounds;    /* per fix, at its first variable's id: two buffers
                        per variable (run_fix) */
  int max_fix;
  const sc_cat_env *static_env; /* the fixed names the static nodes saw */
  unsigned long static_gen;
  const char **flags; /* this run's flags */
  int nflags;
  bool failed;       /* a fixpoint ran past its limit: the run declines */
};

/* ---- Building ---------------------------------------------------------------- */

static bool is_dynamic_name(const sc_cat_env *env, const char *name, int *index) {
  for (int i = 0; i < env->ndynamic; i++)
    if (strcmp(env->dynamic[i], name) == 0) {
      *index = i;
      return true;
    }
  return false;
}

static void *buffer_for(int n, bool is_set) {
  return is_set ? (void *)sci_set_new(n) : (void *)sci_rel_new(n);
}

/* The dynamic names each node depends on (a bit per name, the 64th
 * standing for all names past 63): through operands, and through a
 * fixpoint's bodies (its variables and results then too), until nothing
 * changes (a fixpoint's variables come before its bodies). */
static void mark_dynamic(sc_cat_exec *x, uint64_t *mask) {
  const sc_cat_graph *g = x->g;
  for (bool changed = true; changed;) {
    changed = false;
    for (int i = 0; i < g->nnodes; i++) {
      const sc_cat_node *nd = g->nodes[i];
      uint64_t m = mask[i] | (nd->a ? mask[nd->a->id] : 0) | (nd->b ? mask[nd->b->id] : 0);
      if (nd->kind == CN_FIX || nd->kind == CN_FIXVAR)
        for (int k = 0; k < nd->fix->nvars; k++)
          m |= nd->fix->next[k] ? mask[nd->fix->next[k]->id] : 0;
      if (m != mask[i]) {
        mask[i] = m;
        changed = true;
      }
    }
  }
}

static uint64_t name_bit(int i) { return UINT64_C(1) << (i < 63 ? i : 63); }

/* The caller's buffers for the dynamic names, as sets or relations as the
 * environment binds them, and a copy of each for the last run's value. */
static void alloc_inputs(sc_cat_exec *x, const sc_cat_env *env) {
  int n = env->nevents, nd = env->ndynamic;
  x->ndynamic = nd;
  x->in_set = sci_alloc(sizeof *x->in_set * (size_t)(nd + 1));
  x->in_rel = sci_alloc(sizeof *x->in_rel * (size_t)(nd + 1));
  x->reads = sci_alloc(sizeof *x->reads * (size_t)(nd + 1));
  x->last_in = sci_alloc(sizeof *x->last_in * (size_t)(nd + 1));
  for (int i = 0; i < nd; i++)
    for (int e = 0; e < env->n; e++)
      if (strcmp(env->entries[e].name, env->dynamic[i]) == 0) {
        if (env->entries[e].set) {
          x->in_set[i] = sci_set_new(n);
          x->last_in[i] = sci_set_new(n);
        } else {
          x->in_rel[i] = sci_rel_new(n);
          x->last_in[i] = sci_rel_new(n);
        }
      }
}

/* Two buffers per variable of fixpoint fx, found at its first variable's
 * id (run_fix), once per fixpoint. */
static void alloc_rounds(sc_cat_exec *x, sc_cat_fix *fx) {
  int at = fx->vars[0]->id;
  if (x->rounds[at])
    return;
  void **r = sci_alloc(sizeof *r * (size_t)(2 * fx->nvars + 1));
  for (int k = 0; k < fx->nvars; k++) {
    r[2 * k] = buffer_for(x->n, fx->vars[k]->is_set);
    r[2 * k + 1] = buffer_for(x->n, fx->vars[k]->is_set);
  }
  x->rounds[at] = r;
  sci_cat_fix_deps(x->g, fx);
}

/* Each node's buffer (none for names and fixpoint nodes, whose values are
 * borrowed), and in mask[] the dynamic name each name node is. */
static void alloc_nodes(sc_cat_exec *x, const sc_cat_env *env, uint64_t *mask) {
  for (int i = 0; i < x->nnodes; i++) {
    const sc_cat_node *nd = x->g->nodes[i];
    x->slot[i] = -1;
    switch (nd->kind) {
    case CN_CONST:
      if (is_dynamic_name(env, env->entries[nd->index].name, &x->slot[i])) {
        mask[i] = name_bit(x->slot[i]);
        x->reads[x->slot[i]] = true;
      }
      break;
    case CN_INPUT: /* lowered without inputs: none */
    case CN_FIXVAR: /* run_fix's buffers */
      break;
    case CN_FIX:
      alloc_rounds(x, nd->fix);
      break;
    default:
      x->own[i] = buffer_for(x->n, nd->is_set);
      break;
    }
  }
}

/* The nodes that read some dynamic name, with the names each reads. */
static void list_dynamic(sc_cat_exec *x, const uint64_t *mask) {
  x->dyn_nodes = sci_alloc_atomic(sizeof *x->dyn_nodes * (size_t)(x->nnodes + 1));
  x->dyn_mask = sci_alloc_atomic(sizeof *x->dyn_mask * (size_t)(x->nnodes + 1));
  for (int i = 0; i < x->nnodes; i++)
    if (mask[i]) {
      x->dyn_mask[x->ndyn] = mask[i];
      x->dyn_nodes[x->ndyn++] = i;
    }
}

static sc_cat_exec *build(const sc_cat_model *m, const sc_cat_graph *g,
                          const sc_cat_env *env, const sc_cat_run_options *opts) {
  sc_cat_exec *x = sci_alloc(sizeof *x);
  int nn = g->nnodes;
  x->model = m;
  x->g = g;
  x->n = env->nevents;
  x->nnodes = nn;
  x->val = sci_alloc(sizeof *x->val * (size_t)(nn + 1));
  x->own = sci_alloc(sizeof *x->own * (size_t)(nn + 1));
  x->done = sci_alloc_atomic(sizeof *x->done * (size_t)(nn + 1));
  memset(x->done, 0, sizeof *x->done * (size_t)(nn + 1));
  x->slot = sci_alloc_atomic(sizeof *x->slot * (size_t)(nn + 1));
  x->rounds = sci_alloc(sizeof *x->rounds * (size_t)(nn + 1));
  alloc_inputs(x, env);
  uint64_t *mask = sci_alloc_atomic(sizeof *mask * (size_t)(nn + 1));
  memset(mask, 0, sizeof *mask * (size_t)(nn + 1));
  alloc_nodes(x, env, mask);
  mark_dynamic(x, mask);
  list_dynamic(x, mask);
  x->flags = sci_alloc(sizeof *x->flags * (size_t)(g->naxioms + 1));
  x->max_fix = sci_cat_max_fix(m, opts, x->n);
  return x;
}

/* The compiled form for a graph, kept with it: built again when the event
 * count, the dynamic names or the fixpoint limit differ. */
static sc_cat_exec *exec_of_graph(const sc_cat_model *m, const sc_cat_graph *g,
                                  const sc_cat_env *env, const sc_cat_run_options *opts) {
  sc_cat_graph *mg = (sc_cat_graph *)g; /* the model's memo, as its graph cache */
  if (!mg->exec || mg->exec->n != env->nevents || mg->exec->ndynamic != env->ndynamic ||
      mg->exec->max_fix != sci_cat_max_fix(m, opts, env->nevents))
    mg->exec = build(m, g, env, opts);
  return mg->exec;
}

/* Whether the environment's memo holds the answer for m and opts: the
 * same model, variants and skipped checks, and no name bound since. */
static bool memo_fits(const cat_env_memo *memo, const sc_cat_model *m,
                      const sc_cat_env *env, const sc_cat_run_options *opts) {
  return memo->exec_tried && memo->exec_model == m && memo->exec_nentries == env->n &&
         memo->exec_variants == (opts ? opts->variants : NULL) &&
         memo->exec_nvariants == (opts ? opts->nvariants : 0) &&
         memo->exec_skips == (opts ? opts->skipchecks : NULL) &&
         memo->exec_nskip == (opts ? opts->nskip : 0);
}

sc_cat_exec *sci_cat_exec_of(const sc_cat_model *m, const sc_cat_env *env,
                             const sc_cat_run_options *opts, const char **why) {
  cat_env_memo *memo = env->memo;
  if (why)
    *why = NULL;
  if (memo_fits(memo, m, env, opts) && (memo->exec || !why))
    return memo->exec;
  const sc_cat_graph *g = sci_cat_graph_of(m, env, opts, NULL, 0);
  sc_cat_exec *x = NULL;
  if ((opts && opts->max_fixpoint_iterations > 0) || m->limits.max_iterations > 0) {
    /* the lowering gives some `let rec`s a closed form, which counts no
     * rounds: a limit set by hand is for the interpreter to meet */
    if (why)
      *why = "a -max-iterations limit set by hand";
  } else if (g->error) {
    if (why)
      *why = sc_error_message(g->error);
  } else {
    x = exec_of_graph(m, g, env, opts);
  }
  memo->exec = x;
  memo->exec_tried = true;
  memo->exec_model = m;
  memo->exec_nentries = env->n;
  memo->exec_variants = opts ? opts->variants : NULL;
  memo->exec_skips = opts ? opts->skipchecks : NULL;
  memo->exec_nvariants = opts ? opts->nvariants : 0;
  memo->exec_nskip = opts ? opts->nskip : 0;
  return x;
}

bool sci_cat_exec_reads(const sc_cat_exec *x, int i) {
  return i >= 0 && i < x->ndynamic && x->reads[i];
}

sc_set *sci_cat_exec_input_set(sc_cat_exec *x, int i) { return x->in_set[i]; }
sc_rel *sci_cat_exec_input_rel(sc_cat_exec *x, int i) { return x->in_rel[i]; }

/* ---- Nodes ------------------------------------------------------------------- */

static const void *value(sc_cat_exec *x, const sc_cat_env *env, const sc_cat_node *nd);
static bool run_fix(sc_cat_exec *x, const sc_cat_env *env, sc_cat_fix *fx);

static const void *const_value(sc_cat_exec *x, const sc_cat_env *env,
                               const sc_cat_node *nd) {
  int s = x->slot[nd->id];
  if (s >= 0)
    return x->in_set[s] ? (const void *)x->in_set[s] : (const void *)x->in_rel[s];
  const struct sc_cat_env_entry *en = &env->entries[nd->index];
  return en->set ? (const void *)en->set : (const void *)en->rel;
}

static void set_op(sc_set *r, sc_cat_node_kind k, const sc_set *a, const sc_set *b) {
  if (k == CN_UNION)
    sci_set_union(r, a, b);
  else if (k == CN_INTER)
    sci_set_inter(r, a, b);
  else
    sci_set_diff(r, a, b);
}

static void rel_op(sc_rel *r, sc_cat_node_kind k, const sc_rel *a, const sc_rel *b) {
  if (k == CN_UNION)
    sci_rel_union(r, a, b);
  else if (k == CN_INTER)
    sci_rel_inter(r, a, b);
  else
    sci_rel_diff(r, a, b);
}

/* Node nd from its operands' values a and b, into its own buffer r. */
static void compute(const sc_cat_node *nd, void *r, const void *a, const void *b) {
  switch (nd->kind) {
  case CN_EMPTY:
    if (nd->is_set)
      sci_set_clear(r);
    else
      sci_rel_clear(r);
    return;
  case CN_FULL:
    if (nd->is_set)
      sci_set_fill(r);
    else
      sci_rel_fill(r);
    return;
  case CN_UNION:
  case CN_INTER:
  case CN_DIFF:
    if (nd->is_set)
      set_op(r, nd->kind, a, b);
    else
      rel_op(r, nd->kind, a, b);
    return;
  case CN_COMP:
    if (nd->is_set)
      sci_set_complement(r, a);
    else
      sci_rel_complement(r, a);
    return;
  case CN_SEQ:
    sci_rel_seq(r, a, b); /* r is neither operand: no scratch */
    return;
  case CN_PLUS: sci_rel_plus(r, a); return;
  case CN_STAR: sci_rel_star(r, a); return;
  case CN_OPT: sci_rel_opt(r, a); return;
  case CN_INV: sci_rel_inverse(r, a); return;
  case CN_ID: sci_rel_identity(r, a); return;
  case CN_PRODUCT: sci_rel_cartesian(r, a, b); return;
  case CN_DOMAIN: sci_rel_domain(r, a); return;
  case CN_RANGE: sci_rel_range(r, a); return;
  case CN_INPUT:
  case CN_CONST:
  case CN_FIXVAR:
  case CN_FIX:
    return; /* borrowed values: value() sets them */
  }
}

static const void *value(sc_cat_exec *x, const sc_cat_env *env, const sc_cat_node *nd) {
  int id = nd->id;
  if (x->done[id])
    return x->val[id];
  const void *a = NULL, *b = NULL;
  switch (nd->kind) {
  case CN_CONST:
    x->val[id] = const_value(x, env, nd);
    break;
  case CN_INPUT: /* lowered without inputs: never met */
  case CN_FIXVAR: /* set by run_fix before any user is computed */
    x->failed = true;
    return NULL;
  case CN_FIX:
    if (!run_fix(x, env, nd->fix))
      return NULL;
    break;
  default:
    if ((nd->a && !(a = value(x, env, nd->a))) || (nd->b && !(b = value(x, env, nd->b))))
      return NULL;
    compute(nd, x->own[id], a, b);
    x->val[id] = x->own[id];
    break;
  }
  x->done[id] = true;
  return x->val[id];
}

static bool same_value(const void *a, const void *b, bool is_set) {
  return is_set ? sci_set_equal(a, b) : sci_rel_equal(a, b);
}

static void copy_value(void *dst, const void *src, bool is_set) {
  if (is_set)
    sci_set_assign(dst, src);
  else
    sci_rel_assign(dst, src);
}

static void clear_value(void *v, bool is_set) {
  if (is_set)
    sci_set_clear(v);
  else
    sci_rel_clear(v);
}

/* herd's Kleene iteration from {}, as symbolic.c's run_fix: each round
 * computes the bodies over the previous round's values until they stop
 * changing; the fixpoint's nodes then hold the last values.  Two buffers
 * per variable, the previous round's and this one's, swapped each round. */
static bool run_fix(sc_cat_exec *x, const sc_cat_env *env, sc_cat_fix *fx) {
  int nv = fx->nvars;
  void **r = x->rounds[fx->vars[0]->id];
  for (int k = 0; k < nv; k++)
    clear_value(r[2 * k], fx->vars[k]->is_set);
  for (int iter = 0; iter < x->max_fix; iter++) {
    for (int i = 0; i < fx->ndeps; i++)
      x->done[fx->deps[i]] = false;
    for (int k = 0; k < nv; k++) {
      x->val[fx->vars[k]->id] = r[2 * k];
      x->done[fx->vars[k]->id] = true;
    }
    bool same = true;
    for (int k = 0; k < nv; k++) {
      bool is_set = fx->vars[k]->is_set;
      const void *v = fx->next[k] ? value(x, env, fx->next[k]) : r[2 * k];
      if (!v)
        return false;
      copy_value(r[2 * k + 1], v, is_set);
      same = same && same_value(r[2 * k], r[2 * k + 1], is_set);
    }
    if (same) {
      for (int i = 0; i < x->nnodes; i++) {
        const sc_cat_node *nd = x->g->nodes[i];
        if (nd->kind == CN_FIX && nd->fix == fx)
          x->val[i] = r[2 * nd->index + 1];
      }
      return true;
    }
    for (int k = 0; k < nv; k++) { /* this round's values are the next's old */
      void *t = r[2 * k];
      r[2 * k] = r[2 * k + 1];
      r[2 * k + 1] = t;
    }
  }
  x->failed = true; /* past -max-iterations: the interpreter says so */
  return false;
}

/* ---- Tests ------------------------------------------------------------------- */

/* Whether axiom ax's test holds: 1 or 0; -1 when the run declines. */
static int test_holds(sc_cat_exec *x, const sc_cat_env *env, const sc_cat_axiom *ax) {
  const sc_cat_test *t = ax->test;
  int ok = 1; /* {} passes every test */
  if (ax->node) {
    const void *v = value(x, env, ax->node);
    if (!v)
      return -1;
    if (ax->node->is_set)
      ok = sci_set_is_empty(v);
    else if (t->kind == TEST_ACYCLIC)
      ok = sci_rel_is_acyclic(v);
    else if (t->kind == TEST_IRREFLEXIVE)
      ok = sci_rel_is_irreflexive(v);
    else
      ok = sci_rel_is_empty(v);
  }
  return t->negated ? !ok : ok;
}

/* With opts->only, whether t is one of the checks to run (run.c's wanted). */
static bool wanted(const sc_cat_run_options *opts, const sc_cat_test *t) {
  if (!opts || !opts->nonly)
    return true;
  for (int i = 0; i < opts->nonly; i++)
    if (opts->only[i] == t)
      return true;
  return false;
}

/* A flag raised, each once, in the order first raised. */
static void raise_flag(sc_cat_exec *x, const char *name) {
  for (int i = 0; i < x->nflags; i++)
    if (strcmp(x->flags[i], name) == 0)
      return;
  x->flags[x->nflags++] = name;
}

/* The dynamic names whose values differ from the last run's (kept). */
static uint64_t changed_inputs(sc_cat_exec *x) {
  uint64_t changed = 0;
  for (int i = 0; i < x->ndynamic; i++) {
    if (!x->reads[i])
      continue;
    bool is_set = x->in_set[i] != NULL;
    const void *now = is_set ? (const void *)x->in_set[i] : (const void *)x->in_rel[i];
    if (!same_value(now, x->last_in[i], is_set)) {
      copy_value(x->last_in[i], now, is_set);
      changed |= name_bit(i);
    }
  }
  return changed;
}

/* The values this run may reuse: the static nodes' while the fixed names
 * are the same, and those of the dynamic nodes whose names kept their
 * values (a choice of rf leaves what reads only co as it was); none after
 * a run that declined (it may have stopped inside a fixpoint, with its
 * nodes holding a round's values). */
static void start_run(sc_cat_exec *x, const sc_cat_env *env) {
  uint64_t changed = changed_inputs(x);
  if (env != x->static_env || env->static_gen != x->static_gen) {
    memset(x->done, 0, sizeof *x->done * (size_t)x->nnodes);
    x->static_env = env;
    x->static_gen = env->static_gen;
  } else if (changed) {
    for (int i = 0; i < x->ndyn; i++)
      if (x->dyn_mask[i] & changed)
        x->done[x->dyn_nodes[i]] = false;
  }
  x->failed = false;
  x->nflags = 0;
}

/* ---- with x from S ------------------------------------------------------------ */

typedef struct name_values {
  sc_cat_exec *x;
  const sc_cat_env *env;
} name_values;

/* A name's value in this run: the caller's input for a dynamic name,
 * else the environment's latest entry. */
static const void *value_now(void *ctx, const char *name) {
  const name_values *nv = ctx;
  for (int i = 0; i < nv->env->ndynamic; i++)
    if (strcmp(nv->env->dynamic[i], name) == 0)
      return nv->x->in_set[i] ? (const void *)nv->x->in_set[i] : (const void *)nv->x->in_rel[i];
  for (int i = nv->env->n - 1; i >= 0; i--)
    if (strcmp(nv->env->entries[i].name, name) == 0)
      return nv->env->entries[i].set ? (const void *)nv->env->entries[i].set
                                     : (const void *)nv->env->entries[i].rel;
  return NULL;
}

/* Whether the candidate's own x is in S for every `with x from S` (the
 * graph took each as holding): 1 or 0, from the sets the interpreter kept
 * (run.c's with_set); -1 when it has none for these values, and must run.
 * A partial candidate's look (opts->only) asks no membership, as the
 * interpreter does not. */
static int withs_hold(sc_cat_exec *x, const sc_cat_env *env, const sc_cat_run_options *opts) {
  if (opts && opts->nonly)
    return 1;
  name_values nv = {x, env};
  for (int i = 0; i < x->g->nwiths; i++) {
    const sc_cat_ins *ins = x->g->withs[i];
    const void *v = value_now(&nv, ins->name);
    if (!v)
      return -1;
    bool is_set = false;
    for (int e = env->n - 1; e >= 0; e--)
      if (strcmp(env->entries[e].name, ins->name) == 0) {
        is_set = env->entries[e].set != NULL;
        break;
      }
    sc_cat_value own = {.kind = is_set ? SC_CAT_SET : SC_CAT_REL};
    if (is_set)
      own.u.set = v;
    else
      own.u.rel = v;
    int has = sci_cat_with_kept_has(env, opts, ins, &own, value_now, &nv);
    if (has <= 0)
      return has;
  }
  return 1;
}

bool sci_cat_exec_run(sc_cat_exec *x, const sc_cat_env *env,
                      const sc_cat_run_options *opts, sc_cat_outcome *out) {
  memset(out, 0, sizeof *out);
  if (env->nevents != x->n || env->usage_error)
    return false;
  int member = withs_hold(x, env, opts);
  if (member < 0)
    return false;
  if (member == 0) /* no run of the model: the execution is none of S's */
    return true;
  start_run(x, env);
  bool failed = false, keep_going = opts && opts->keep_going;
  for (int i = 0; i < x->g->naxioms && (!failed || keep_going); i++) {
    const sc_cat_axiom *ax = &x->g->axioms[i];
    if (!wanted(opts, ax->test))
      continue;
    int ok = test_holds(x, env, ax);
    if (ok < 0) {
      x->static_env = NULL;
      return false;
    }
    switch (ax->test->type) {
    case TT_CHECK:
      failed = failed || !ok;
      break;
    case TT_UNDEFINED_UNLESS:
      if (!ok)
        raise_flag(x, "undefined");
      break;
    case TT_FLAG:
      if (ok && ax->test->name) /* herd raises no flag for an unnamed one */
        raise_flag(x, ax->test->name);
      break;
    case TT_ASSERT: /* not lowered: never met */
      x->static_env = NULL;
      return false;
    }
  }
  out->allowed = !failed;
  out->flags = x->flags;
  out->nflags = failed ? 0 : x->nflags; /* herd: flags of allowed executions only */
  return true;
}
