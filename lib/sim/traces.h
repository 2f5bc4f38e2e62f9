/* traces.h: the traces a simulation combines (traces.c): the fixpoint of
 * the values locations may hold, the combinations of one trace per
 * thread, and which write may feed which read. */
#ifndef SC_SIM_TRACES_H
#define SC_SIM_TRACES_H

#include "sim/sem.h"

/* One simulation's deadline and budget, which every loop of the simulator
 * that grows with the input looks at (the value fixpoint, the combinations
 * of traces, the barrier and fence.sc orders, both engines): -timeout and
 * -max-executions. */
typedef struct sim_clock {
  const char *file;  /* the test's, for the messages */
  double start;      /* sc_seconds() when the search began */
  double timeout;    /* seconds, 0: none */
  long max_steps;    /* -max-executions: steps of any one loop */
  long ticks;        /* steps taken, to look at the time now and then */
} sim_clock;

/* Whether the deadline has passed (looked at now). */
bool sci_sim_clock_expired(const sim_clock *c);
/* The -timeout error. */
sc_status sci_sim_clock_timeout(const sim_clock *c, sc_error **err);
/* One more step of a loop: every 256th looks at the time (the -timeout
 * error past the deadline); SC_ERR_LIMIT too when `steps` (this loop's
 * count, 0: not counted) passes -max-executions, naming `what` (plural). */
sc_status sci_sim_clock_step(sim_clock *c, long steps, const char *what, sc_error **err);

/* The least fixpoint of the values locations may hold, and the traces
 * that reading them gives (*out: one sc_thread_traces per thread). */
sc_status sci_sim_find_traces(const sc_test *t, const sc_sem_limits *lim,
                          sim_clock *clock, sc_thread_traces **out, sc_error **err);

/* Whether the value fixpoint asked the solver its rounds for the traces
 * `all` it found under lim (sc_sem_limits.solve_rounds): then it did not
 * count the combinations its last round walks against -max-executions,
 * and a walk over them counts them first (sci_sim_count_fed: the
 * combinations every read can be fed, up to the clock's max_steps, its
 * limit's error past them), so that a search too large to walk ends as
 * it did, at the limit, before the engines take their time over it. */
bool sci_sim_rounds_solved(const sc_test *t, const sc_sem_limits *lim,
                           const sc_thread_traces *all);
sc_status sci_sim_count_fed(const sc_test *t, const sc_thread_traces *all, sim_clock *clock,
                            sc_error **err);

/* Each thread's traces, shortest first (ties in their order). */
sc_thread_traces *sci_sim_shortest_first(const sc_thread_traces *all, int nthreads);

/* The combinations: pick[th] is thread th's trace; sci_sim_choose points
 * chosen[th] at it; sci_sim_next_choice turns the odometer, false after the
 * last (pick back to all zeros). */
void sci_sim_choose(const sc_trace **chosen, const int *pick,
                const sc_thread_traces *all, int nthreads);
bool sci_sim_next_choice(int *pick, const sc_thread_traces *all, int nthreads);
/* The same odometer over the combinations sci_sim_reads_can_be_fed
 * accepts, and only those, in the same order (a prefix of threads whose
 * reads need more values than the remaining threads can write is skipped
 * whole).  first: pick zeroed, then moved to the first such; both false
 * when none is left, and past the clock's deadline (the caller looks at
 * it); next takes the pick the odometer gave last, unchanged.  With 4
 * spinning threads of 125 traces each, this visits millions of prefixes
 * instead of 244 million combinations. */
typedef struct sim_feed_odometer sim_feed_odometer;
sim_feed_odometer *sci_sim_feed_odometer(const sc_test *t, const sc_thread_traces *all,
                                         const sim_clock *clock);
bool sci_sim_first_fed_choice(sim_feed_odometer *o, int *pick);
bool sci_sim_next_fed_choice(sim_feed_odometer *o, int *pick);
/* The value fixpoint's round: attach its value sets `vs`; add_values
 * then adds the writes of the combination at pick to vs, in the order of
 * its threads and events, as sci_values_add of each would (true when one
 * was new), passing over in O(1) each trace whose pairs vs holds. */
void sci_sim_feed_odometer_values(sim_feed_odometer *o, sc_value_sets *vs);
bool sci_sim_feed_odometer_add_values(sim_feed_odometer *o, const int *pick);
/* Some thread has no trace (every path cut by the unroll bound): no
 * combination at all. */
bool sci_sim_any_thread_without_traces(const sc_thread_traces *all, int n);
/* Can these traces form an execution: does every read find a write of its
 * value, the initial one or one of the chosen traces? */
bool sci_sim_reads_can_be_fed(const sc_test *t, const sc_trace **chosen);

/* Whether the write at position wi of trace tw may be what the read at
 * position ri of trace tr reads (same location and value, not out of thin
 * air). */
bool sci_sim_may_feed(const sc_trace *tw, int wi, const sc_trace *tr, int ri);
/* The same but for the values: whether it may, were the values equal
 * (a layout search leaves them to the solver). */
bool sci_sim_may_feed_but_value(const sc_trace *tw, int wi, const sc_trace *tr, int ri);

/* ---- Layouts: the traces of a thread that differ in their values alone ---- */

/* One thread's traces of one layout (sci_exec_same_trace_layout, and
 * ending alike: the same spin and infix, the same fault). */
typedef struct sim_trace_group {
  const sc_trace **traces;
  int n;
} sim_trace_group;

/* Per thread th, its traces in ngroups[th] groups (groups[th][g]), each
 * group's traces in all[th]'s order; the combinations of one trace per
 * thread, and of one group (the layouts), to compare the walks over
 * each. */
typedef struct sim_layouts {
  sim_trace_group **groups;
  int *ngroups;
  double combinations, layouts;
} sim_layouts;
sim_layouts *sci_sim_layouts(const sc_thread_traces *all, int nthreads);

#endif
