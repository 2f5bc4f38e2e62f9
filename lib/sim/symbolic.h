/* symbolic.h: the symbolic engine's half of a simulation.  For one choice of
 * traces (and of barrier and fence.sc orders), rf and co become solver
 * choices, the model a formula (cat/symbolic.c), and the final states of
 * the executions it allows are found one by one, each blocked in turn. */
#ifndef SC_SIM_SYMBOLIC_H
#define SC_SIM_SYMBOLIC_H

#include "sim/execution.h"
#include "sim/liveness.h"
#include "sim/model.h"
#include "sim/data_only.h"
#include "sim/traces.h"

typedef struct sc_sym_problem {
  const sc_test *t;
  const sc_model *m;
  sc_execution *x;   /* the traces' events; final_write is set per state */
  sc_cat_env *env;   /* x's names bound (rf, co... are made symbolic) */
  const sc_cat_run_options *eval;
  int nreads;        /* read reads[k] reads from one of cands[k][0..ncands[k]-1] */
  const int *reads;
  int *const *cands;
  const int *ncands;
  int nlocs;         /* per location: its initial write (-1: none), writes */
  const int *init;
  int *const *writes;
  const int *nwrites;
  bool partial_co;   /* co a strict partial order, not a total one */
  bool through;      /* keep executions the model forbids */
  const bool *final_locs; /* per location: its final value is observed */
  double timeout;    /* seconds left for the solver, 0: none */
  double limit;      /* the -timeout limit, for messages */
  /* Called once per final state found (x->final_write set for the
   * observed locations, rf and co those of one execution ending there):
   * false when the test's filter rules it out. */
  bool (*found)(void *ctx, sc_execution *x);
  /* Called for each flag the model may raise in that state's executions,
   * with one execution that raises it (rf and co set in x) and the
   * model's concrete outcome on it (its witness). */
  void (*flag)(void *ctx, const char *name, const sc_execution *x,
               const sc_cat_outcome *out);
  bool (*flag_known)(void *ctx, const char *name);
  void *ctx;
  /* -liveness (liveness.c), when `witness` is set: instead of the states,
   * one allowed execution in which the fairness clauses
   * fairness[0..nfairness-1] hold; `witness` gets it (rf and co set in x)
   * if there is one. */
  const sc_live_clause *fairness;
  int nfairness;
  void (*witness)(void *ctx, sc_execution *x);
  /* When the encoding over-approximates (a `with ... from`), the executions
   * the concrete run may refute before the problem is given up as one
   * SC_ERR_UNSUPPORTED (auto then enumerates); 0: no end but -timeout. */
  int most_refuted;
  /* When set, *stop says the search needs no more states (-speedcheck
   * fast has its verdict). */
  const bool *stop;
  /* The collapsed cells' values are computed after (found does it:
   * sim/data_only.h): a state is blocked as the writes it ends with and
   * the rf edges their values come from, not as their values; and as the
   * rf edges of every collapsed read of the threads marked in reg_threads
   * (those with a register observed; NULL: none).  blocked_locs (NULL:
   * every observed location): the locations a state is blocked by, where
   * the others' values tell nothing asked (-speedcheck fast: the
   * condition's alone). */
  bool values_after;
  const bool *reg_threads;
  const bool *blocked_locs;
  /* The answer may come from the scope of p's layout (symbolic.c: the
   * model's encoding built once for the combinations of a layout, each
   * one's candidates asserted in a scope of its own): where which of a
   * combination's executions the solver gives is never told (it may be
   * another than p's own encoding would give), as engine_smt.c decides. */
  bool reuse;
  /* A layout search (NULL: none): x is built of each thread's first trace
   * of select[th], the group of traces that differ from it in their values
   * alone (traces.h), and the solver chooses one of them per thread with
   * rf and co, a read reading a write of its value.  cands are each read's
   * writes of its location, but for those out of thin air
   * (sci_sim_may_feed_but_value).  It answers the questions that one
   * execution answers: a liveness witness; else an execution ending in a
   * state that decides the condition (found), then each flag the model may
   * raise (flag); each one the concrete model's run on it confirms, handed
   * on as the execution of the traces chosen.  With values_after, the
   * condition's question goes through the executions one by one (found
   * computes their values), each blocked by its state and the rf edges
   * its collapsed values come from, till *stop or none is left. */
  const sim_trace_group *const *select;
  /* values_after: the collapsed values as tables (data_only.h), so that
   * the condition is asked of them at once; NULL: none (one by one). */
  const struct sim_value_tables *tables;
} sc_sym_problem;

/* The value fixpoint's question (traces.c), put to the solver where the
 * combinations are too many to walk: thread th has ntraces[th] traces;
 * trace i writes the pairs writes[th][i] and needs needs[th][i] from
 * another thread (pair numbers below npairs, npairs for one no trace
 * writes; each list ends with -1).  known[b] becomes true for each pair b
 * that some combination of one trace per thread writes in which every
 * trace's needs are written by other threads' traces (the odometer's fed
 * combinations); within `seconds` (0: no limit; limit: the -timeout for
 * messages).  *gave_up when a question passed the solver's resource limit:
 * the pairs found so far are set, and the caller walks the round. */
typedef struct sc_sym_feed {
  const sc_test *t;
  double limit;
  int nthreads, npairs;
  const int *pair_loc; /* per pair, its location: pairs sorted by it */
  const int *ntraces;
  int ***writes, ***needs;
} sc_sym_feed;
sc_status sci_sym_fed_pairs(const sc_sym_feed *f, bool *known, double seconds,
                           bool *gave_up, sc_error **err);

/* Whether this build has the symbolic engine; *why says why not. */
bool sci_sym_available(const char **why);

/* The solver's context, kept from one problem to the next (making one
 * costs more than most problems); sci_sym_close frees it (NULL is fine). */
typedef struct sc_sym_session sc_sym_session;
sc_sym_session *sci_sym_open(void);
void sci_sym_close(sc_sym_session *ss);
/* The sessions this thread has open, for sci_sym_close_since: a call that
 * runs out of memory jumps to its guard past the sci_sym_close of its
 * sessions, and a context left open keeps Z3's memory, which the cap
 * counts (the next test's solver would be refused). */
sc_sym_session *sci_sym_mark(void);
/* Close the sessions opened since `mark` (after an out-of-memory jump). */
void sci_sym_close_since(sc_sym_session *mark);

/* Every final state of the allowed executions of p's traces. */
sc_status sci_sym_solve(sc_sym_session *ss, const sc_sym_problem *p, sc_error **err);
/* Whether ss keeps a layout's scope that p fits (sci_sym_solve answers p
 * there when p->reuse): the same events and everything the encoding reads
 * but the values and candidates, each read's candidates among its
 * location's writes. */
bool sci_sym_scope_fits(const sc_sym_session *ss, const sc_sym_problem *p);

#endif
