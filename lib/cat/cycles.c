/* cycles.c: which cycles a model forbids outright.  A check `acyclic r`
 * (not negated, not a flag) whose value holds every pair of some named
 * relations, through unions and closures, forbids every cycle of their
 * union: Dat3M's PTX models' `acyclic (rf | dep)` (dep = addr | data |
 * ctrl), herd's `acyclic (dp | rf)`.  sim/data_only.c asks it of rf and
 * data: where those cycles are forbidden, a value read never flows back
 * into the write it reads from, and values that decide nothing can be
 * collapsed to one. */
#include "cat/graph.h"

#include "util/gcmem.h"

#include <string.h>

/* Whether x's value holds every pair of the caller's relation `name`. */
static bool holds_name(const sc_cat_node *x, const char *name) {
  switch (x->kind) {
  case CN_INPUT:
  case CN_CONST:
    return x->name && strcmp(x->name, name) == 0;
  case CN_UNION:
    return holds_name(x->a, name) || holds_name(x->b, name);
  case CN_PLUS:
  case CN_STAR:
  case CN_OPT:
    return holds_name(x->a, name);
  default:
    return false;
  }
}

static bool forbids(const sc_cat_axiom *ax, const char *const *names, int n) {
  if (ax->test->type != TT_CHECK || ax->test->kind != TEST_ACYCLIC ||
      ax->test->negated || !ax->node)
    return false;
  for (int i = 0; i < n; i++)
    if (!holds_name(ax->node, names[i]))
      return false;
  return true;
}

bool sci_cat_model_forbids_cycles(const sc_cat_model *m, const sc_cat_env *base,
                                  const sc_cat_dynamic *dyn, int ndyn,
                                  const char *const *names, int nnames,
                                  const sc_cat_run_options *opts) {
  sc_cat_sym_input *in = sci_alloc(sizeof *in * (size_t)(ndyn + 1));
  sc_cat_dep *unused = sci_alloc(sizeof *unused * (size_t)(ndyn + 1));
  int nin = sci_cat_choice_inputs(base, dyn, ndyn, in, unused);
  /* the enumerator's graph, as removal.c takes it */
  const sc_cat_graph *g = sci_cat_graph_of(m, base, opts, in, nin);
  if (g->error || g->approximate)
    return false;
  for (int i = 0; i < g->naxioms; i++)
    if (forbids(&g->axioms[i], names, nnames))
      return true;
  return false;
}
