/* live_refute.c: a liveness search's cheap refutation of a combination of
 * runs, before the solver or the full enumeration.  A spinning thread's
 * repeated read must read, for ever, a write of its loop or a write with
 * no co successor (liveness.c's rule (a): SC_LIVE_LAST).  Where every
 * write a repeated read may read is of the second kind, a fair execution
 * of the combination has one of them co-maximal; where the model, given
 * that write last (no co pair leaving it) and that read reading it, fails
 * a check that only gets worse as rf and co grow or as co shrinks
 * (cat/mono.c's analysis, the enumerator's cut on the bounds), no such
 * execution is allowed, and the combination holds no witness.
 *
 * Nothing here knows what a lock is: the refutation is the loaded model's
 * (under ptx-v7.5.cat, axiom-Coherence puts a write before a later write
 * of its own thread to the same location in co, so a lock's taking write,
 * followed by its release, is never co-maximal: a thread spinning on a
 * lock that every holder releases is refuted here; a model without such a
 * check refutes nothing, and the combination goes to the engine as
 * before).  With co partial (`let co = co+`, as Dat3M's ptx-v6.0.cat),
 * a write w left co-maximal is first put after every write w' of its
 * location that a check `empty (E \ (co | co^-1))` of the model orders
 * with it (E, fixed by the combination, holding (w, w') or (w', w)): an
 * allowed execution has that pair in co one way or the other, and w
 * having no successor, w' comes first (engine_enum.c's
 * order_before_last).  ptx-v6.0.cat's axiom-Coherence2 so orders a
 * lock's taking write and its release, morally strong as po makes them,
 * and axiom-ScPerLocation then refutes the taking write as last.  Only
 * whole combinations are dropped, never one candidate
 * write of a read, so the problems the engines see, and the witness they
 * find first, are those of the search without this cut. */
#include "sim/live_refute.h"

#include "sim/liveness.h"

/* Whether fairness clause set cl asks write w to be co-maximal when read
 * r reads it. */
static bool asks_last(const sc_live_clause *cl, int ncl, int w, int r) {
  for (int c = 0; c < ncl; c++)
    if (cl[c].rule == SC_LIVE_LAST && !cl[c].co && cl[c].a == w && cl[c].b == r)
      return true;
  return false;
}

/* Whether read k of cd may read only writes the model refutes as its
 * co-maximal source. */
static bool read_refuted(sim_search *s, sim_candidate *cd, const sc_live_clause *cl,
                         int ncl, int k, const sc_rel **ordered, bool *known) {
  int r = cd->reads[k];
  for (int j = 0; j < cd->ncands[k]; j++)
    if (!asks_last(cl, ncl, cd->cands[k][j], r))
      return false; /* a write of the loop's own, or one fairness leaves free */
  if (!*known && s->partial_co) { /* once per combination, where it may help */
    *ordered = sci_sim_enum_co_ordered(s, cd);
    *known = true;
  }
  for (int j = 0; j < cd->ncands[k]; j++)
    if (!sci_sim_enum_refutes_maximal_read(s, cd, *ordered, cd->cands[k][j], r))
      return false;
  return true;
}

bool sci_live_refuted_by_model(sim_search *s, sim_candidate *cd) {
  if (!cd->ngroups)
    return false; /* no check cuts on the bounds (or -noprune) */
  sc_live_clause *cl;
  int ncl = sci_live_fairness(cd->x, &cl);
  const sc_rel *ordered = NULL;
  bool known = false;
  for (int k = 0; k < cd->nreads; k++)
    if (read_refuted(s, cd, cl, ncl, k, &ordered, &known))
      return true;
  return false;
}
