/* sink.h: the outcome sink both engines call (sink.c): final states, flags,
 * pictures and the liveness witness go into the search's sc_result. */
#ifndef SC_SIM_SINK_H
#define SC_SIM_SINK_H

#include "sim/search.h"

/* A result to fill for s (its engine's name), with the observed terms
 * chosen: those of the condition and of `locations [...]`, as herd. */
sc_result *sci_sim_sink_new_result(const sim_search *s);

/* One execution the model allows (or that -through keeps), x->final_write
 * set where co leaves the final value open: its final state counted
 * (unless the filter or -speedcheck leaves it out: then false).  With the
 * model's outcome `out` (the enumerator) its flags are recorded and it is
 * drawn if asked; the solver gives NULL and reports flags apart. */
bool sci_sim_sink_execution(sim_search *s, sc_execution *x, const sc_cat_outcome *out);

/* A flag raised in some allowed execution, and whether one is already.
 * With x (rf and co chosen) and the model's outcome on it, x is kept as
 * the witness of each flag raised there that has none yet. */
void sci_sim_sink_flag(sim_search *s, const char *name, const sc_execution *x,
                       const sc_cat_outcome *out);
bool sci_sim_sink_flag_known(const sim_search *s, const char *name);
/* Whether an outcome without checks (the compiled evaluator's) raised a
 * flag that has no witness yet: its pair needs the interpreter's checks. */
bool sci_sim_sink_wants_checks(const sim_search *s, const sc_cat_outcome *out);

/* Whether x's final state is among those counted already. */
bool sci_sim_sink_state_known(sim_search *s, const sc_execution *x);

/* -liveness: x (rf and co chosen) is the witness (liveness.c), drawn when
 * -show asks. */
void sci_sim_sink_liveness_witness(sim_search *s, const sc_execution *x);

#endif
