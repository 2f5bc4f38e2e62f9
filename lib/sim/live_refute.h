/* live_refute.h: a liveness search's refutation of a combination of runs
 * by the model itself, before any rf or co is chosen (live_refute.c). */
#ifndef SC_SIM_LIVE_REFUTE_H
#define SC_SIM_LIVE_REFUTE_H

#include "sim/engine.h"

/* Whether no fair execution of cd (prepared: sci_sim_prepare) can be one
 * the model allows: some repeated read may read only writes that fairness
 * asks to be co-maximal, and for each of them the model refutes, on the
 * bounds of rf and co, every execution in which it is. */
bool sci_live_refuted_by_model(sim_search *s, sim_candidate *cd);

#endif
