/* data_only.h: the traces of a search that reads no value of the memory
 * cells whose values decide nothing (its verdicts alone: the flags
 * raised, which threads may be stuck, not the final states).  Such a cell's values are
 * collapsed to its initial one, which shrinks the value fixpoint to the
 * runs' shapes: data_only.c says when that keeps the verdict. */
#ifndef SC_SIM_DATA_ONLY_H
#define SC_SIM_DATA_ONLY_H

#include "cat/cat.h"
#include "litmus/litmus.h"
#include "sim/execution.h"
#include "sim/sem.h"
#include "sim/traces.h"

#include <stdbool.h>

/* Whether model m (run with eval's variants and skipped checks) forbids
 * every cycle of rf and data (a check `acyclic r` with r holding both):
 * the condition of sci_sim_find_traces_data_only. */
bool sci_sim_data_only_safe(const sc_test *t, const sc_cat_model *m,
                            const sc_cat_run_options *eval);

/* How a search finds its traces under lim (sci_sim_find_traces, or
 * simulate.c's passes that keep the race flags). */
typedef sc_status (*sim_trace_finder)(const sc_test *t, sc_sem_limits *lim,
                                      sim_clock *clock, sc_thread_traces **out,
                                      sc_error **err);

/* The traces `find` finds with every memory cell collapsed
 * (lim->collapsed) whose reads decide nothing in any run: the greatest
 * such set, found by collapsing all and un-collapsing, search after
 * search, the cells whose reads reached a decision (sem.h's `deciding`).
 * lim->collapsed is left set to the set the traces were found with. */
sc_status sci_sim_find_traces_data_only(sim_trace_finder find, const sc_test *t,
                                        sc_sem_limits *lim, sim_clock *clock,
                                        sc_thread_traces **out, sc_error **err);

/* The values of x's collapsed events (sc_event.value_unknown: a search
 * with collapsed cells), its rf chosen: in an order of rf ∪ data, each
 * collapsed read takes its rf write's value and each thread runs again on
 * its values (sem.h's sci_sem_replay, under the -unroll bound `unroll`),
 * which computes its writes' and its final registers.  *out is a copy of
 * x with every value known; x is left as it is.  SC_ERR_USAGE when rf and
 * data make a cycle (an execution the model forbids: data_only.c says why
 * it has no concrete counterpart) or a run takes another path. */
sc_status sci_sim_data_only_values(const sc_execution *x, int unroll, sc_execution **out,
                                   sc_error **err);

/* The rf edges that the values of `events` (the collapsed among them: the
 * others' are the traces') come from, x's rf chosen: each (w, r) in
 * pairs[2k], pairs[2k+1] (room for 2 * x->nevents: each r once), r a
 * collapsed read among them, or one that a collapsed write among them or
 * behind them takes its value from (data), w its rf write; their number.
 * Two executions of the same traces with these edges in common give these
 * events the same values. */
int sci_sim_data_only_sources(const sc_execution *x, const int *events, int nevents,
                              int *pairs);

/* The collapsed values of a layout search (symbolic.h's select) as
 * tables the solver reads, so that a condition on them is asked at once:
 * x is made of each group's first trace; per collapsed event e of x,
 * dom[e][0..ndom[e]-1] are the values its location may hold (ndom 0: not
 * collapsed); per collapsed write w, its inputs (the collapsed reads of
 * its thread whose values its own is made of, data) and its value for
 * each trace of its group (or one row, where no other read makes it:
 * per_trace false) and each tuple of their values' indices (the first
 * input the slowest digit): out[w][row * ntuples[w] + tuple], an index
 * into dom[w], -1 where the value falls outside.
 *
 * The values are found as the value fixpoint finds them but without
 * asking whether a combination feeds them: starting from the initial
 * ones, each round replays each thread on every tuple of the values
 * known (sem.h's sci_sem_replay), for as many rounds as x has collapsed
 * writes.  A model that forbids every cycle of rf and data (the
 * condition of a collapsed search) allows no execution in which a value
 * comes through more collapsed writes than there are, so those of its
 * executions are all there, and where out is -1 the input's value came
 * through every one of them already: no allowed execution reads it.
 * false (no tables) when a location would hold more than 256 values or a
 * write have more than 4096 rows. */
typedef struct sim_value_tables {
  int64_t **dom;
  int *ndom;
  int **inputs, *ninputs;
  bool *per_trace;
  int *ntuples;
  int **out;
} sim_value_tables;
bool sci_sim_data_only_tables(const sc_execution *x, const sim_trace_group *const *groups,
                              int unroll, sim_value_tables *out, sc_error **err);

#endif
