/* symmetry.h: thread symmetry of the combinations of traces (symmetry.c).
 * Threads that are copies of one another up to their ids give
 * combinations whose verdicts are equal up to a permutation: the driver
 * (simulate.c) hands the engines one representative per orbit, and the
 * sink (sink.c) records the final states of the others, permuted back,
 * so that every state, count and verdict is what the whole search gives. */
#ifndef SC_SIM_SYMMETRY_H
#define SC_SIM_SYMMETRY_H

#include "sim/result.h"
#include "sim/sem.h"

typedef struct sim_symmetry sim_symmetry;

/* The permutations of t's threads (each with the permutation of its
 * locations that its traces imply) that map every thread's traces, index
 * by index, onto its image's, the scope tree, the initial memory, the
 * observed terms of r and the condition onto themselves: a group.  NULL
 * when it has the identity only, or when something the search reports
 * depends on the order combinations are met in beyond what the first
 * representative decides (drawings, -speedcheck, a filter, -through,
 * aliases, a progress model other than FAIR): if in doubt, no symmetry. */
sim_symmetry *sci_sim_symmetry(const sc_test *t, const sc_thread_traces *all,
                               const sc_result *r, const sc_sim_options *o);

/* Whether `pick` (one trace per thread) is the first of its orbit in the
 * odometer's order (thread 0 turning fastest), the only one the engines
 * see.  When it is, the images the sink adds to each final state found
 * are chosen: with `per_state` (an engine counting states) every other
 * permutation, else one per other combination of the orbit (herd counts
 * every execution: each of those has one of each). */
bool sci_sim_symmetry_representative(sim_symmetry *y, const int *pick, bool per_state);

/* The images of the current representative: how many (0 for y NULL), and
 * image k of the observed values `values` (in the result's order), valid
 * until the next call. */
int sci_sim_symmetry_nimages(const sim_symmetry *y);
const int64_t *sci_sim_symmetry_image(sim_symmetry *y, int k, const int64_t *values);

/* The group's size (1 with no symmetry), for the result's reason. */
int sci_sim_symmetry_order(const sim_symmetry *y);

#endif
