/* result.h: what a simulation found for one test (struct sc_result of the
 * public header): filled by the outcome sink (sink.c), read by the
 * report layer (its public face is report/result.c). */
#ifndef SC_RESULT_H
#define SC_RESULT_H

#include "litmus/litmus.h"

#include <stdbool.h>
#include <stdint.h>

/* A final state: the values of the observed terms, and how many allowed
 * executions ended in it. */
typedef struct sc_state {
  int64_t *values;
  long count;
  bool holds; /* the condition's proposition holds in it */
} sc_state;

struct sc_result {
  const sc_test *test;
  sc_lval *observed; /* registers by thread and name, then locations */
  int nobserved;
  sc_state *states;  /* sorted */
  int nstates, capstates;
  long positive, negative, candidates;
  const char **flags; /* raised in some allowed execution */
  int nflags, capflags;
  double seconds;
  sc_speedcheck speedcheck;  /* only executions that decide the condition */
  bool stopped_early;        /* the search stopped with its answers in
                                (SC_SPEEDCHECK_FAST, _VERDICTS) */
  const char *engine;        /* "enum" or "smt" */
  const char *engine_reason; /* why that engine */
  bool partial_co;           /* the model saw a partial co, not a total one */
  const char *co_reason;     /* why (model.c) */
  struct sc_execution **execs; /* the executions kept to show */
  const struct sc_cycle **cycles; /* each one's forbidding cycle, or NULL */
  int nshown, capexecs, capcycles;
  /* -liveness (liveness.c): SC_LIVE_PASS or SC_LIVE_FAIL, SC_LIVE_NONE
   * when not asked; on Fail the witness and, per thread, its sc_stuck */
  int liveness;
  struct sc_execution *witness;
  const int *stuck;
  /* -liveness: the first loop whose iterations write (liveness.c: not
   * checked), its thread and its backward branch; -1 and NULL if none */
  int unchecked_thread;
  const sc_instr *unchecked_branch;
  /* per thread, the runs the unroll bound cut (in no execution) */
  const long *cut_runs;
  /* the unroll bound the search ran under, the one it started from (they
   * differ when a -liveness Pass cut by the bound was searched again
   * deeper) and the deepest it could go (sc_sim_options.
   * liveness_unroll_max) */
  int unroll, unroll_from, unroll_max;
  /* per flag raised (as in flags), one allowed execution that raised it
   * and a pair in the flagged relation (sink.c) */
  struct sci_flag_witness *flag_witnesses;
  int nflag_witnesses, capflag_witnesses;
  /* the first allowed execution that decides the condition (a witness of
   * exists or ~exists, a counterexample of forall); NULL when none */
  struct sc_execution *cond_witness;
  /* a kernel's first access outside its memory in an allowed execution
   * (flag out-of-bounds): the access, its thread and address; NULL none */
  const sc_instr *fault;
  int fault_thread;
  int64_t fault_address;
};

/* A flag's witness: the execution, and the pair (a, b) of its events in
 * the relation the flag tested, a < b (b -1 when it tested a set; both -1
 * when the engine could not say). */
typedef struct sci_flag_witness {
  const char *flag;
  struct sc_execution *x;
  int a, b;
} sci_flag_witness;

enum { SC_LIVE_NONE = -1, SC_LIVE_FAIL = 0, SC_LIVE_PASS = 1 };


/* The runs the unroll bound cut, over every thread. */
long sci_sim_cut_runs(const sc_result *r);

/* Whether the condition is validated (herd7's Ok), and herd7's
 * Observation word: Never, Always or Sometimes (result.c). */
bool sci_sim_validated(const sc_result *r);
const char *sci_sim_observation(const sc_result *r);
/* herd7's word for the condition's kind on the Test line: Allowed
 * (exists), Forbidden (~exists), Required (forall). */
const char *sci_sim_kind(const sc_result *r);
/* herd7's Witnesses line: the executions that validate the condition, then
 * the others (for ~exists, those where the proposition fails come first). */
void sci_sim_witnesses(const sc_result *r, long *positive, long *negative);
/* Whether the final state of an execution matters under -speedcheck:
 * for exists and ~exists one where the proposition holds, for forall one
 * where it fails (herd's final_is_relevant). */
bool sci_sim_decides(const sc_test *t, bool holds);

#endif
