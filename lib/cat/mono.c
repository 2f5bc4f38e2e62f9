/* mono.c: how a model's values depend on the choices the enumerator
 * makes per candidate (rf, co, the barrier and fence.sc orders): a visitor
 * of the model's lowered graph (graph.h), with the choices' names as its
 * inputs, run once per trace combination over a graph lowered once per
 * model.  Each node gets two masks over the choices ("inputs"): those it
 * may grow with (up) and those it may shrink with (down); a choice in both
 * masks is unknown.  Union, intersection, sequence, product, closures,
 * inverse, identity and domain/range keep the masks, complement swaps
 * them, a \ b joins a's with b's swapped, and a `let rec` keeps its
 * bodies' masks when each body only grows with the names themselves.
 * What the lowering cannot express (tags, match, forall, enum...) stops
 * it: the checks and bindings after it are not placed.
 *
 * Two uses.  A binding that depends on no choice has the same value for
 * every candidate of a trace combination: the interpreter keeps it
 * (run.c).  A check whose failure only grows with some choices and
 * only shrinks with the others fails on every completion of a partial
 * candidate once it fails on the right bounds of that partial candidate:
 * the enumerator cuts the branch (sim/engine_enum.c). */
#include "cat/graph.h"

#include "util/gcmem.h"

#include <string.h>

#define ALL UINT32_MAX
#define FIRST_TEMP_INPUT 8 /* inputs 8..31 stand for `let rec` names */
#define MAX_FIX_ROUNDS 64   /* the masks grow: at most 32 * 2 changes */

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

struct sc_cat_analysis {
  const struct sc_cat_test **checks;
  sc_cat_dep *deps;
  int nchecks, capchecks, capdeps;
  /* bindings that depend on no choice: an open-addressing set of pointers */
  const sc_cat_bind **statics;
  int nstatics, capstatics; /* capstatics: a power of two, or 0 */
  /* the checks `empty (E \ (r | r^-1))` of order_check, with r's name */
  const struct sc_cat_test **orders;
  const char **order_inputs;
  int norders, caporders, capinputs;
};

/* ---- The visitor ---------------------------------------------------------- */

typedef struct analyser {
  const sc_cat_graph *g;
  const sc_cat_dep *input_dep; /* per input of the lowering */
  sc_cat_dep *dep;             /* per node */
  bool *known;                 /* per node: dep is computed */
  int next_temp;
} analyser;

static sc_cat_dep node_dep(analyser *a, const sc_cat_node *x);

/* A let rec's names each get an input of their own while the bodies are
 * visited, iterated from nothing until the masks stop growing; the least
 * fixpoint keeps them when no body shrinks as a name grows. */
static void fix_dep(analyser *a, sc_cat_fix *fx) {
  int nv = fx->nvars, first = a->next_temp;
  sc_cat_dep *cur = sci_alloc(sizeof *cur * (size_t)nv);
  bool grows_only = first + nv <= 32;
  if (grows_only) {
    a->next_temp += nv;
    uint32_t temps = 0;
    for (int k = 0; k < nv; k++)
      temps |= UINT32_C(1) << (first + k);
    sci_cat_fix_deps(a->g, fx);
    for (int round = 0; round < MAX_FIX_ROUNDS; round++) {
      for (int i = 0; i < fx->ndeps; i++)
        a->known[fx->deps[i]] = false;
      for (int k = 0; k < nv; k++)
        if (fx->next[k]) {
          a->dep[fx->vars[k]->id] = join(cur[k], (sc_cat_dep){UINT32_C(1) << (first + k), 0});
          a->known[fx->vars[k]->id] = true;
        }
      bool changed = false;
      for (int k = 0; k < nv; k++) {
        if (!fx->next[k])
          continue;
        sc_cat_dep d = node_dep(a, fx->next[k]);
        grows_only &= (d.down & temps) == 0;
        d.up &= ~temps;
        d.down &= ~temps;
        sc_cat_dep nd = join(cur[k], d);
        changed |= nd.up != cur[k].up || nd.down != cur[k].down;
        cur[k] = nd;
      }
      if (!changed)
        break;
    }
    a->next_temp = first;
  }
  for (int i = 0; i < a->g->nnodes; i++) {
    const sc_cat_node *x = a->g->nodes[i];
    if (x->kind == CN_FIX && x->fix == fx) {
      a->dep[i] = first + nv > 32 ? unknown : grows_only ? cur[x->index] : mixed(cur[x->index]);
      a->known[i] = true;
    }
  }
}

static sc_cat_dep compute_dep(analyser *a, const sc_cat_node *x) {
  switch (x->kind) {
  case CN_EMPTY:
  case CN_FULL:
  case CN_CONST:
    return none;
  case CN_INPUT:
    return a->input_dep[x->index];
  case CN_DIFF:
    return join(node_dep(a, x->a), flip(node_dep(a, x->b)));
  case CN_COMP:
    return flip(node_dep(a, x->a));
  case CN_FIXVAR: /* set by fix_dep; met outside it only through a bug */
    return unknown;
  case CN_FIX:
    fix_dep(a, x->fix);
    return a->dep[x->id];
  case CN_UNION: /* monotone in every operand: no default, so that a new */
  case CN_INTER: /* node kind is a compiler warning here (-Wswitch) */
  case CN_SEQ:
  case CN_PRODUCT:
  case CN_PLUS:
  case CN_STAR:
  case CN_OPT:
  case CN_INV:
  case CN_ID:
  case CN_DOMAIN:
  case CN_RANGE:
    return join(node_dep(a, x->a), x->b ? node_dep(a, x->b) : none);
  }
  return unknown;
}

static sc_cat_dep node_dep(analyser *a, const sc_cat_node *x) {
  if (!x)
    return none; /* {} or _ */
  if (!a->known[x->id]) {
    a->dep[x->id] = compute_dep(a, x);
    a->known[x->id] = true;
  }
  return a->dep[x->id];
}

/* ---- The analysis's answers -------------------------------------------------- */

/* A check met twice (a procedure called twice) is one check of both
 * dependences: run.c's `only` runs it wherever it is. */
static void add_check(sc_cat_analysis *out, const sc_cat_test *t, sc_cat_dep d) {
  for (int i = 0; i < out->nchecks; i++)
    if (out->checks[i] == t) {
      out->deps[i] = join(out->deps[i], d);
      return;
    }
  sci_grow(&out->checks, &out->capchecks, out->nchecks + 1, sizeof *out->checks);
  sci_grow(&out->deps, &out->capdeps, out->nchecks + 1, sizeof *out->deps);
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
    out->statics = sci_alloc(sizeof *out->statics * (size_t)out->capstatics);
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

/* The inputs of the lowering: the choices' names that env binds. */
int sci_cat_choice_inputs(const sc_cat_env *base, const sc_cat_dynamic *dyn, int ndyn,
                         sc_cat_sym_input *in, sc_cat_dep *dep) {
  int n = 0;
  for (int i = 0; i < ndyn; i++)
    for (int e = base->n - 1; e >= 0; e--)
      if (strcmp(base->entries[e].name, dyn[i].name) == 0) {
        in[n] = (sc_cat_sym_input){dyn[i].name, base->entries[e].set != NULL, NULL, false};
        dep[n++] = dyn[i].dep;
        break;
      }
  return n;
}

/* ---- Checks that order pairs ------------------------------------------------ */

/* The input r when x is r or r+ (r a relation of the caller's), else NULL. */
static const sc_cat_node *input_or_closure(const sc_cat_node *x) {
  if (x && x->kind == CN_PLUS)
    x = x->a;
  return x && x->kind == CN_INPUT && !x->is_set ? x : NULL;
}

/* The input r when u is c | c^-1 (either order), c being r or r+. */
static const sc_cat_node *both_ways(const sc_cat_node *u) {
  if (!u || u->kind != CN_UNION || !u->b)
    return NULL;
  for (int k = 0; k < 2; k++) {
    const sc_cat_node *c = k ? u->b : u->a, *inv = k ? u->a : u->b;
    if (inv->kind == CN_INV && inv->a == c && input_or_closure(c))
      return input_or_closure(c); /* nodes are shared: the same c twice */
  }
  return NULL;
}

/* The input r when axiom ax is a check of the form `empty (E \ (c |
 * c^-1))`, c being r or r+ and E depending on no input: an execution the
 * model allows passes every check, so it has every pair of E in c or in
 * c^-1.  Only a check: a flag (or undefined_unless) that fails leaves the
 * execution allowed, flagged, and a negated check (~empty) asks the
 * opposite.  The form is read off the lowered graph, after the lowering
 * has followed lets, includes, procedure calls and variants, so that it
 * is what every run of the model evaluates; E's value, fixed by the
 * names the caller does not choose, is the check's own value on an
 * execution where r is empty.  NULL for any other axiom. */
static const sc_cat_node *order_check(analyser *a, const sc_cat_axiom *ax) {
  const sc_cat_test *t = ax->test;
  const sc_cat_node *x = ax->node;
  if (t->type != TT_CHECK || t->negated || t->kind != TEST_EMPTY || !x ||
      x->is_set || x->kind != CN_DIFF || !x->a)
    return NULL;
  return is_none(node_dep(a, x->a)) ? both_ways(x->b) : NULL;
}

static int find_order(const sc_cat_analysis *out, const sc_cat_test *t) {
  for (int i = 0; i < out->norders; i++)
    if (out->orders[i] == t)
      return i;
  return -1;
}

static void add_order(sc_cat_analysis *out, const sc_cat_test *t, const char *input) {
  if (find_order(out, t) >= 0)
    return;
  sci_grow(&out->orders, &out->caporders, out->norders + 1, sizeof *out->orders);
  sci_grow(&out->order_inputs, &out->capinputs, out->norders + 1,
           sizeof *out->order_inputs);
  out->orders[out->norders] = t;
  out->order_inputs[out->norders++] = input;
}

/* A check met more than once (a procedure called twice) orders pairs
 * only if each time it has the form, over the same input: a run with
 * only that check evaluates it each time, and every value must be an E. */
static void drop_mixed_orders(sc_cat_analysis *out, const sc_cat_graph *g, analyser *a) {
  for (int i = 0; i < g->naxioms; i++) {
    int k = find_order(out, g->axioms[i].test);
    if (k < 0)
      continue;
    const sc_cat_node *r = order_check(a, &g->axioms[i]);
    if (!r || strcmp(r->name, out->order_inputs[k]) != 0) {
      out->norders--;
      memmove(&out->orders[k], &out->orders[k + 1],
              sizeof *out->orders * (size_t)(out->norders - k));
      memmove(&out->order_inputs[k], &out->order_inputs[k + 1],
              sizeof *out->order_inputs * (size_t)(out->norders - k));
    }
  }
}

sc_cat_analysis *sci_cat_analyse(const sc_cat_model *m, const sc_cat_env *base,
                                const sc_cat_dynamic *dyn, int ndyn,
                                const sc_cat_run_options *opts) {
  sc_cat_sym_input *in = sci_alloc(sizeof *in * (size_t)(ndyn + 1));
  sc_cat_dep *input_dep = sci_alloc(sizeof *input_dep * (size_t)(ndyn + 1));
  int nin = sci_cat_choice_inputs(base, dyn, ndyn, in, input_dep);
  const sc_cat_graph *g = sci_cat_graph_of(m, base, opts, in, nin);
  analyser a = {g, input_dep, sci_alloc(sizeof(sc_cat_dep) * ((size_t)g->nnodes + 1)),
                sci_alloc(sizeof(bool) * ((size_t)g->nnodes + 1)), FIRST_TEMP_INPUT};
  sc_cat_analysis *out = sci_alloc(sizeof *out);
  for (int i = 0; i < g->naxioms; i++) {
    const sc_cat_axiom *ax = &g->axioms[i];
    if (ax->test->type != TT_CHECK)
      continue;
    sc_cat_dep d = node_dep(&a, ax->node);
    /* ~acyclic r fails when r is acyclic: as r shrinks */
    add_check(out, ax->test, ax->test->negated ? flip(d) : d);
    const sc_cat_node *r = g->approximate ? NULL : order_check(&a, ax);
    if (r)
      add_order(out, ax->test, r->name);
  }
  drop_mixed_orders(out, g, &a);
  for (int i = 0; i < g->nlets; i++)
    if (is_none(node_dep(&a, g->lets[i].node)))
      add_static(out, g->lets[i].bind);
  return out;
}

int sci_cat_analysis_nchecks(const sc_cat_analysis *a) { return a->nchecks; }

const struct sc_cat_test *sci_cat_analysis_check(const sc_cat_analysis *a, int i,
                                                sc_cat_dep *dep) {
  *dep = a->deps[i];
  return a->checks[i];
}

int sci_cat_analysis_norders(const sc_cat_analysis *a) { return a ? a->norders : 0; }

const struct sc_cat_test *sci_cat_analysis_order(const sc_cat_analysis *a, int i,
                                                const char **input) {
  *input = a->order_inputs[i];
  return a->orders[i];
}

bool sci_cat_analysis_is_static(const sc_cat_analysis *a, const sc_cat_bind *b) {
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

bool sci_cat_model_may_flag(const sc_cat_model *m, const sc_cat_run_options *opts) {
  return prog_may_flag(&m->prelude, opts) || prog_may_flag(&m->bell, opts) ||
         prog_may_flag(&m->prog, opts);
}
