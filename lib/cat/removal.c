/* removal.c: whether a model's verdict survives taking events out of an
 * execution: a visitor of the model's lowered graph (graph.h) that tells
 * whether every execution X' made from an allowed execution X by removing
 * some events (the base names keeping their pairs among the rest, or
 * fewer for the names the caller says may shrink) is allowed too.  The
 * simulator cuts a loop iteration that repeats a state only for such a
 * model (sim/sem.c's repeats_state): the shorter run's execution is the
 * longer's with that iteration's reads and fences taken out.
 *
 * The condition.  Let R be X's events that remain.  X' is allowed when
 * each check's value on X' is a subset of its value on X restricted to R:
 * acyclic, irreflexive and empty then still hold.  Each node gets a class:
 *   POINTWISE: its value on X' is its value on X restricted to R;
 *   SUBSET:    its value on X' is a subset of that restriction;
 *   UNKNOWN:   neither is known.
 * Base names (inputs and constants) are pointwise, but those the caller
 * names as shrinking (SUBSET); {} and _ are pointwise.  Union,
 * intersection, inverse, identity [a], product and a? (a | id) keep the
 * worse class of their operands: they are pointwise of pointwise
 * operands, and monotone.  Sequence, the closures + and *, domain and
 * range are monotone but not pointwise when an event removed may have
 * linked two that remain: SUBSET at best, but pointwise of pointwise
 * operands when the linking events are never removed (a node is `kept`
 * when its value holds only such events: the names the caller says, and
 * what is made of them; a;b links through a's targets and b's sources,
 * a+ and domain(a) through a's events): herd's co+ and rf^-1;co.
 * a \ b and ~b are monotone in a and antitone in b: a smaller b makes
 * them larger, so they are only known when b is pointwise (then a \ b
 * has a's class and ~b is pointwise).  A `let rec`'s least fixpoint is
 * SUBSET at best: each round's value on X' is within its value on X
 * restricted to R when the bodies are, with the names themselves taken
 * as SUBSET (round 0: both empty).
 * A check is safe when it is not negated (~empty r fails as r shrinks)
 * and its node is not UNKNOWN.  A flag or undefined_unless is safe only
 * when its value is {} on every execution (herd's aarch64fences.cat on
 * DMB names a PTX test never binds): any other may be raised by the
 * longer execution alone, its events gone from the shorter.  A model the
 * lowering stops on (an enum, forall, match...) is unsafe: its checks
 * after that point are unknown.
 * `with x from S` over a caller's name is a test of x against S that the
 * lowering leaves out (graph.h's approximate): the graph cannot show
 * what S is made of, so such a model is unsafe.  (herd's cos.cat builds
 * S from the writes alone, none of them removed, so the cut would hold
 * there; but an S a user writes may read rf or the reads, and a wrong
 * answer costs more than unrolling as herd7 does.) */
#include "cat/graph.h"

#include "util/gcmem.h"

#include <string.h>

typedef enum removal_class { POINTWISE, SUBSET, UNKNOWN } removal_class;

/* What is known of a node's value on X' against X's. */
typedef struct node_info {
  bool known;
  removal_class cls;
  bool kept;  /* holds only events that are never removed */
  bool empty; /* {} on every execution */
} node_info;

typedef struct classifier {
  const sc_cat_removal *how;
  node_info *info; /* per node */
} classifier;

static removal_class worse(removal_class a, removal_class b) { return a > b ? a : b; }

static bool listed(const char *const *names, int n, const char *name) {
  for (int i = 0; name && i < n; i++)
    if (strcmp(names[i], name) == 0)
      return true;
  return false;
}

static const node_info *info_of(classifier *c, const sc_cat_node *x);

static removal_class cls_of(classifier *c, const sc_cat_node *x) {
  return x ? info_of(c, x)->cls : POINTWISE; /* NULL: {} */
}
static bool kept(classifier *c, const sc_cat_node *x) {
  return !x || info_of(c, x)->kept;
}
static bool empty(classifier *c, const sc_cat_node *x) {
  return !x || info_of(c, x)->empty;
}

/* A least fixpoint: SUBSET at best, as its bodies with the names SUBSET. */
static removal_class fix_class(classifier *c, const sc_cat_fix *fx) {
  removal_class k = SUBSET;
  for (int i = 0; i < fx->nvars; i++)
    k = worse(k, cls_of(c, fx->next[i]));
  return k;
}

/* Monotone, and pointwise of pointwise operands whose linking events
 * (a;b's middle, a+'s steps, domain(a)'s targets) are never removed. */
static removal_class linking(classifier *c, const sc_cat_node *x, bool links_kept) {
  removal_class k = worse(cls_of(c, x->a), cls_of(c, x->b));
  return links_kept ? k : worse(k, SUBSET);
}

static removal_class compute_class(classifier *c, const sc_cat_node *x) {
  switch (x->kind) {
  case CN_EMPTY:
  case CN_FULL:
    return POINTWISE;
  case CN_INPUT:
  case CN_CONST:
    return listed(c->how->shrinking, c->how->nshrinking, x->name) ? SUBSET : POINTWISE;
  case CN_UNION: /* no default: a new node kind is a warning here (-Wswitch) */
  case CN_INTER:
  case CN_PRODUCT:
  case CN_INV:
  case CN_ID:
  case CN_OPT:
    return worse(cls_of(c, x->a), cls_of(c, x->b));
  case CN_SEQ:
    return linking(c, x, kept(c, x->a) || kept(c, x->b));
  case CN_PLUS:
  case CN_STAR:
  case CN_DOMAIN:
  case CN_RANGE:
    return linking(c, x, kept(c, x->a));
  case CN_DIFF:
    return cls_of(c, x->b) != POINTWISE ? UNKNOWN : cls_of(c, x->a);
  case CN_COMP:
    return cls_of(c, x->a) != POINTWISE ? UNKNOWN : POINTWISE;
  case CN_FIXVAR: /* a round's value of a name: within its value on X's */
    return SUBSET;
  case CN_FIX:
    return fix_class(c, x->fix);
  }
  return UNKNOWN;
}

/* Whether the value holds only events never removed: names the caller
 * lists, and what is made of them alone. */
static bool compute_kept(classifier *c, const sc_cat_node *x) {
  switch (x->kind) {
  case CN_EMPTY:
    return true;
  case CN_INPUT:
  case CN_CONST:
    return listed(c->how->kept, c->how->nkept, x->name);
  case CN_INTER: /* within either operand */
    return kept(c, x->a) || kept(c, x->b);
  case CN_UNION:
  case CN_PRODUCT:
  case CN_SEQ:
    return kept(c, x->a) && kept(c, x->b);
  case CN_DIFF:
  case CN_INV:
  case CN_ID:
  case CN_PLUS:
  case CN_DOMAIN:
  case CN_RANGE:
    return kept(c, x->a);
  default: /* _, ~a, a* and a? (the identity), fixpoints */
    return false;
  }
}

/* Whether the value is {} whatever the execution ({}, emptyset, the
 * `try ... with emptyset` of a name the caller does not bind). */
static bool compute_empty(classifier *c, const sc_cat_node *x) {
  switch (x->kind) {
  case CN_EMPTY:
    return true;
  case CN_UNION:
    return empty(c, x->a) && empty(c, x->b);
  case CN_INTER:
  case CN_PRODUCT:
  case CN_SEQ:
    return empty(c, x->a) || empty(c, x->b);
  case CN_DIFF:
  case CN_INV:
  case CN_ID:
  case CN_PLUS:
  case CN_DOMAIN:
  case CN_RANGE:
    return empty(c, x->a);
  default:
    return false;
  }
}

static const node_info *info_of(classifier *c, const sc_cat_node *x) {
  node_info *i = &c->info[x->id];
  if (!i->known) {
    i->cls = compute_class(c, x);
    i->kept = compute_kept(c, x);
    i->empty = compute_empty(c, x);
    i->known = true;
  }
  return i;
}

/* A check holds on X' when it held on X; a flag (or undefined_unless) is
 * raised on X' exactly when on X, when its value is {} on both, or
 * raised on X' when on X, when the caller vouches for it. */
static bool axiom_safe(classifier *c, const sc_cat_axiom *ax) {
  if (ax->test->type == TT_FLAG &&
      listed(c->how->vouched, c->how->nvouched, ax->test->name))
    return true;
  if (ax->test->type != TT_CHECK)
    return empty(c, ax->node);
  return !ax->test->negated && cls_of(c, ax->node) != UNKNOWN;
}

static bool graph_safe(const sc_cat_graph *g, const sc_cat_removal *how) {
  if (g->error || g->approximate)
    return false;
  classifier c = {how, sci_alloc(sizeof(node_info) * ((size_t)g->nnodes + 1))};
  for (int i = 0; i < g->naxioms; i++)
    if (!axiom_safe(&c, &g->axioms[i]))
      return false;
  return true;
}

bool sci_cat_model_drop_events_safe(const sc_cat_model *m, const sc_cat_env *base,
                                   const sc_cat_dynamic *dyn, int ndyn,
                                   const sc_cat_removal *how,
                                   const sc_cat_run_options *opts) {
  sc_cat_sym_input *in = sci_alloc(sizeof *in * (size_t)(ndyn + 1));
  sc_cat_dep *unused = sci_alloc(sizeof *unused * (size_t)(ndyn + 1));
  int nin = sci_cat_choice_inputs(base, dyn, ndyn, in, unused);
  /* the enumerator's graph (mono.c lowers the same signature): the answer
   * is kept with it, for the caller's `how` (a static table: one visit
   * per model and signature) */
  sc_cat_graph *g = (sc_cat_graph *)sci_cat_graph_of(m, base, opts, in, nin);
  if (g->drop_events_for != how) {
    g->drop_events_safe = graph_safe(g, how);
    g->drop_events_for = how;
  }
  return g->drop_events_safe;
}
