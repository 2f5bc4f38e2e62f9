/* traces.h: the traces a simulation combines (traces.c): the fixpoint of
 * the values locations may hold, the combinations of one trace per
 * thread, and which write may feed which read. */
#ifndef SC_SIM_TRACES_H
#define SC_SIM_TRACES_H

#include "sim/sem.h"

/* The least fixpoint of the values locations may hold, and the traces
 * that reading them gives (*out: one sc_thread_traces per thread). */
sc_status sim_find_traces(const sc_test *t, const sc_sem_limits *lim,
                          sc_thread_traces **out, sc_error **err);

/* Each thread's traces, shortest first (ties in their order). */
sc_thread_traces *sim_shortest_first(const sc_thread_traces *all, int nthreads);

/* The combinations: pick[th] is thread th's trace; sim_choose points
 * chosen[th] at it; sim_next_choice turns the odometer, false after the
 * last (pick back to all zeros). */
void sim_choose(const sc_trace **chosen, const int *pick,
                const sc_thread_traces *all, int nthreads);
bool sim_next_choice(int *pick, const sc_thread_traces *all, int nthreads);
/* Some thread has no trace (every path cut by the unroll bound): no
 * combination at all. */
bool sim_any_thread_without_traces(const sc_thread_traces *all, int n);
/* Can these traces form an execution: does every read find a write of its
 * value, the initial one or one of the chosen traces? */
bool sim_reads_can_be_fed(const sc_test *t, const sc_trace **chosen);

/* Whether the write at position wi of trace tw may be what the read at
 * position ri of trace tr reads (same location and value, not out of thin
 * air). */
bool sim_may_feed(const sc_trace *tw, int wi, const sc_trace *tr, int ri);

#endif
