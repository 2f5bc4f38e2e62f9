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

/* Drop from the candidate writes of each read (reads[k] reads one of
 * cands[k][0..ncands[k]-1]) those that no fair execution lets it read:
 * where the fairness clauses (below) forbid the pair, or ask for a
 * co-maximal write and the write is an initial one whose location has
 * another.  False when some read is left with none (no fair execution). */
bool sci_live_fair_candidates(const sc_execution *x, int nreads, const int *reads,
                             int *const *cands, int *ncands);

/* One clause of the fairness of an execution (liveness.c's rules), over
 * the pair (a, b) of its rf, or of its co when `co`:
 *   SC_LIVE_NO: the pair is not in it;
 *   SC_LIVE_LAST (rf): if it is, a has no co successor;
 *   SC_LIVE_SAME: it is exactly when (a2, b2) is. */
typedef enum sc_live_rule { SC_LIVE_NO, SC_LIVE_LAST, SC_LIVE_SAME } sc_live_rule;
typedef struct sc_live_clause {
  sc_live_rule rule;
  bool co;
  int a, b, a2, b2;
} sc_live_clause;

/* The clauses that make x's rf and co (yet to be chosen) fair for its
 * stuck threads, in *out; how many (0: any rf and co is fair). */
int sci_live_fairness(const sc_execution *x, sc_live_clause **out);

/* Memory fairness of x's rf and co: every clause of sci_live_fairness
 * holds (a repeated read reads its loop's own writes or a write with no
 * co successor, for ever). */
bool sci_live_fair(const sc_execution *x);

/* x (rf and co chosen) is r's witness: Fail, the stuck threads noted;
 * kept to be drawn when `draw`.  Later witnesses are ignored. */
void sci_live_witness(sc_result *r, const sc_execution *x, bool draw);

/* The first loop of t whose iterations write memory, when liveness
 * cannot check it: a recurrence needs two iterations, so under the unroll
 * bound 0 (sem.c runs one; a negative bound is the default) a thread
 * stuck in such a loop is not
 * found.  Such a loop is a backward branch whose body, from its target to
 * it, holds a st, a red or an atom other than cas (a failing cas writes
 * nothing: it spins, and is checked at any bound).  False when there is
 * none or the bound is 1 or more; else its thread and branch in *thread
 * and *branch. */
bool sci_live_writing_loop(const sc_test *t, int unroll, int *thread,
                           const sc_instr **branch);

/* The deepest unroll bound a -liveness Pass that the bound cut is searched
 * again at (sc_sim_options.liveness_unroll_max): the option when given;
 * else SC_LIVE_UNROLL_MAX from the default bound, and no deepening from a
 * bound the user chose (-unroll N is that bound). */
int sci_live_unroll_max(const sc_sim_options *o);

#endif
