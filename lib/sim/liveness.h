/* liveness.h: whether a candidate execution is a liveness witness (a fair
 * execution in which some thread never finishes), for both engines. */
#ifndef SC_SIM_LIVENESS_H
#define SC_SIM_LIVENESS_H

#include "sim/execution.h"
#include "sim/result.h"

/* Some chosen trace is stuck: spins or waits at a barrier (only such
 * combinations can be witnesses). */
bool sci_live_any_stuck(const sc_trace *const *chosen, int nthreads);

/* The combination of runs `chosen` may hold a witness: a thread is stuck,
 * and the threads it halts progress model p lets be halted. */
bool sci_live_may_witness(const sc_test *t, const sc_progress *p,
                          const sc_trace *const *chosen);

/* The reads of the iterations that spinning threads repeat, as events of
 * x, in *out (room for x->nevents); how many. */
int sci_live_spin_reads(const sc_execution *x, int *out);

/* Drop from the candidate writes of each read that a spinning thread
 * repeats (reads[k] reads one of cands[k][0..ncands[k]-1]) those that can
 * never be co-maximal: an initial write, when its location has another.
 * False when some such read is left with none (no fair execution). */
bool sci_live_fair_candidates(const sc_execution *x, int nreads, const int *reads,
                             int *const *cands, int *ncands);

/* Memory fairness of x's rf and co: each read that a spinning thread
 * repeats reads a write with no co successor (it reads it for ever). */
bool sci_live_fair(const sc_execution *x);

/* x (rf and co chosen) is r's witness: Fail, the stuck threads noted;
 * kept to be drawn when `draw`.  Later witnesses are ignored. */
void sci_live_witness(sc_result *r, const sc_execution *x, bool draw);

/* The first loop of t whose iterations write memory, which liveness does
 * not check (a thread stuck in it is no spin: each turn has an effect):
 * a backward branch whose body, from its target to it, holds a st, a red
 * or an atom other than cas (a failing cas writes nothing: it spins).
 * False when there is none; else its thread and branch in *thread and
 * *branch. */
bool sci_live_writing_loop(const sc_test *t, int *thread, const sc_instr **branch);

#endif
