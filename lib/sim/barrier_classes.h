/* barrier_classes.h: the combinations of runs whose barriers are known to
 * deadlock, skipped before an execution is built (barrier_classes.c). */
#ifndef SC_SIM_BARRIER_CLASSES_H
#define SC_SIM_BARRIER_CLASSES_H

#include "sim/sem.h"

#include <stdbool.h>

/* Whether runs a and b of one thread have the same barriers at the same
 * events (instruction and operands) and end alike: all that
 * sci_barrier_syncs reads of a run, so that combinations whose runs
 * agree so, thread by thread, synchronise alike. */
bool sci_barrier_same_runs(const sc_trace *a, const sc_trace *b);

typedef struct sim_barrier_classes sim_barrier_classes;

/* The classes of sci_barrier_same_runs over each thread's traces in
 * `all`, and a table, per choice of one class per thread, of what the
 * search learnt of its barriers.  NULL where the cut would not be exact
 * (some combination could write a location more often than a candidate
 * may hold: that error must still be met) or the table would be too big. */
sim_barrier_classes *sci_barrier_classes(const sc_test *t, const sc_thread_traces *all);

/* Whether the runs in `chosen` (of `all`) are of classes an earlier
 * combination showed to have no barrier synchronisation (a deadlock in
 * every order of arrival): then neither has this one. */
bool sci_barrier_classes_deadlock(const sim_barrier_classes *bc,
                                  const sc_trace *const *chosen);

/* Note that the runs in `chosen` have `nsyncs` barrier synchronisations
 * (sci_barrier_syncs, without error). */
void sci_barrier_classes_note(sim_barrier_classes *bc, const sc_trace *const *chosen,
                              int nsyncs);

#endif
