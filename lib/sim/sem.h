/* sem.h: instruction semantics.  Runs one thread's code for given read
 * values and yields its trace: memory events, fences and barriers in
 * program order, with values, locations and the register dataflow
 * dependencies (addr, data, ctrl) between them.  Which values reads may
 * return is the caller's question (traces.c).  The only place that knows
 * what a PTX instruction means; knows nothing of rf, co or models. */
#ifndef SC_SEM_H
#define SC_SEM_H

#include "litmus/litmus.h"

#include <stdbool.h>
#include <stdint.h>

typedef enum sc_event_kind {
  SC_EV_READ, SC_EV_WRITE, SC_EV_FENCE, SC_EV_BARRIER
} sc_event_kind;

/* One event of a thread's trace.  Dependencies point backwards, to reads
 * of the same trace, as bit masks over trace positions (a trace holds at
 * most SC_TRACE_MAX events). */
#define SC_TRACE_MAX SC_MAX_RUN_EVENTS

typedef struct sc_trace_event {
  sc_event_kind kind;
  const sc_instr *instr; /* the instruction that made it */
  int pc;                /* its index in the thread's code */
  int loc;               /* memory location (alias resolved), -1 if none */
  int vloc;              /* location as named by the address (an alias) */
  int64_t value;         /* value read or written */
  int rmw_partner;       /* read<->write of one atom, -1 when none */
  uint64_t addr_deps, data_deps, ctrl_deps; /* reads it depends on */
  int64_t bar_ops[3];    /* a barrier's operands, evaluated (registers too) */
  int nbar_ops;
  bool value_unknown;    /* at a collapsed cell (sc_sem_limits.collapsed):
                            `value` is its initial one, not computed */
} sc_trace_event;

/* How a run of a liveness search (sc_sem_limits.liveness) may end besides
 * running to completion: spinning, when its last event closes a loop
 * iteration that it may repeat for ever: one with no side effect (no
 * write, no barrier, every register it read before writing as at the
 * loop's head: repeating it changes nothing), or one that writes but
 * repeats the iteration before it (the same steps, the same events with
 * the same values, the registers live at the head as they were then: a
 * recurrence, whose fairness liveness.c judges), or
 * waiting at a bar.sync (its last event) that it never leaves. */
typedef enum sc_stuck {
  SC_STUCK_NONE, SC_STUCK_SPIN, SC_STUCK_BARRIER,
  SC_STUCK_HALTED /* a prefix of a run, where a progress model lets the
                     thread be never scheduled again (progress.c) */
} sc_stuck;

/* A run of one thread: complete, or stuck (liveness searches only). */
typedef struct sc_trace {
  sc_trace_event *events;
  int nevents;
  int64_t *final_regs; /* value of each register at the end */
  sc_stuck stuck;
  int spin_from;       /* SPIN: the first event of the repeated iteration */
  /* SPIN: the first event of the iteration before it that it repeats (the
   * infix: a recurrence's first copy), spin_from when it writes nothing
   * (no infix); the infix's events are those of the last iteration, one to
   * one, in order */
  int infix_from;
  /* A kernel's run that stopped at an access outside its memory (or off
   * an element's start and width): the access and its address; NULL when
   * none.  The run is complete up to there (the thread traps). */
  const sc_instr *fault;
  int64_t fault_address;
} sc_trace;

/* Addresses are integers: location l lives at sci_loc_address(l), so that
 * address arithmetic (the paper's "and 0x80000000" false dependencies,
 * [r+off]) works on plain values. */
int64_t sci_loc_address(int loc);
/* The location at `addr`, -1 when no location of `t` lives there. */
int sci_address_loc(const sc_test *t, int64_t addr);
/* A value as herd prints it: a location's name for its address. */
const char *sci_value_string(const sc_test *t, int64_t v);
/* The initial value of location `l` or register init, as an integer. */
int64_t sci_value_of(sc_value v);
/* The same in test `t`, whose locations may lie at byte addresses (a
 * kernel's: sc_test.byte_addresses); and the address of location `loc`. */
int64_t sci_test_value_of(const sc_test *t, sc_value v);
int64_t sci_test_loc_address(const sc_test *t, int loc);


/* The values each location may hold: a small set per location. */
typedef struct sc_value_sets {
  int64_t **vals; /* vals[loc][i] */
  int *n, *cap;
  int nlocs;
} sc_value_sets;

/* Each location's initial value (aliases share their target's set). */
sc_value_sets *sci_values_initial(const sc_test *t);
/* Whether loc's set holds v. */
bool sci_values_hold(const sc_value_sets *vs, int loc, int64_t v);
/* Add v to loc's set; true when it was new. */
bool sci_values_add(sc_value_sets *vs, int loc, int64_t v);
/* The memory cell behind a location name: aliases resolved. */
int sci_physical_loc(const sc_test *t, int loc);

/* The unroll bound when none is given (herd7's -unroll default). */
#define SC_SEM_DEFAULT_UNROLL 2
/* The bound in effect for an option's value (negative: none given). */
static inline int sci_sem_unroll_of(int unroll) {
  return unroll >= 0 ? unroll : SC_SEM_DEFAULT_UNROLL;
}

typedef struct sc_sem_limits {
  int unroll;     /* backward jumps per branch instruction, default 2 */
  int max_traces; /* traces per thread, default 100000 */
  bool liveness;  /* also the stuck runs (sc_stuck), each where it sticks */
  /* cut the runs whose iteration repeats a state (below): only for a model
   * that allows an execution with fewer events when it allowed the one
   * with more (sim/repeat_gate.h says which); off: herd7's full unrolling */
  bool repeat_cut;
  /* with repeat_cut: cut at the first iteration that repeats a state, not
   * past the SC_SEM_REPEAT_UNROLL-th (a kernel's: it has no herd7 run whose
   * execution counts to keep; its spin loops then make one trace per exit
   * instead of one per number of failed attempts, which multiplied across
   * threads) */
  bool repeat_at_once;
  /* with repeat_cut: cut only an iteration that meets no fence and whose
   * every read has a twin, an earlier read of the run by the same
   * instruction of the same location with no write, fence or barrier after
   * it, or, for the iteration's first event when it is a plain load neither
   * acquiring nor of an atom, the next iteration's first (the cut that
   * keeps the race flags: sim/repeat_gate.c) */
  bool repeat_twins;
  /* with repeat_twins: per thread, the reads that need no twin, each
   * (pc, location as addressed) marked at [pc * nlocs + loc]: no write of
   * another thread can race with them (sim/repeat_gate.h's
   * sci_sim_race_free_reads); NULL: none */
  bool *const *race_free;
  /* with repeat_cut and not repeat_twins: note in each thread's
   * sc_thread_traces what would make repeat_twins refuse an iteration
   * this cut takes (twinless, twin_refused), so that a caller may tell
   * whether the twin cut would take the same iterations */
  bool note_twinless;
  /* per memory cell (alias resolved), whether its values are collapsed:
   * every write there writes its initial value, so its reads read that
   * alone, and each run notes in its sc_thread_traces' `deciding` the
   * cells whose reads decided something (sim/data_only.h says when the
   * collapse keeps a verdict); NULL: none */
  const bool *collapsed;
  int max_run_events; /* events of one run, 1..SC_TRACE_MAX, 0: SC_TRACE_MAX */
  /* how the value fixpoint (sim/traces.c) asks which values some fed
   * combination writes: 0 by its walk over them, but by the solver where
   * some cell is collapsed and the combinations are many (the walk would
   * pass -max-executions); 1 by the solver (with one: tests); -1 by the
   * walk */
  int solve_rounds;
} sc_sem_limits;

/* A backward jump that closes an iteration which repeats a state is taken
 * at most this often (herd7's default -unroll, so that up to it the runs,
 * and the executions counted, are herd7's): see sci_sem_traces. */
#define SC_SEM_REPEAT_UNROLL 2

/* All traces of every thread, each read taking any value of its location's
 * set in `values`.  A path that jumps backwards more than `unroll` times
 * from one branch is cut, as herd7's -unroll does.  With `repeat_cut`
 * it is also cut (in a liveness search, only in a thread whose loops are
 * simple and whose iterations never write: sem.c's live_repeat_cut, the
 * run kept stuck there first) at a backward jump past the
 * SC_SEM_REPEAT_UNROLL-th from its branch that closes an iteration which
 * repeats a state: it wrote nothing, met no barrier, and left each
 * register live at the loop head (one that some path from there reads
 * before writing; the end reads them all) with the same value, depending
 * on the same reads, as when the run last arrived there.  Such a run,
 * with the iteration left out, is one that the search meets anyway, with
 * the same writes and final registers and the same events but the
 * iteration's reads and fences: so every final state is still found
 * (Dat3M's side-effect-free spin loops; a spin lock's failed attempts).
 * With `liveness`, a
 * run is also kept stuck at each backward jump that closes an iteration
 * with no side effect or one that repeats the iteration before it (a
 * recurrence, sc_stuck; before the bound is looked at) and at each bar.sync
 * (the run continues as well).  Errors: an access to
 * an address that is no location, a limit reached: traces per thread, or
 * events of the largest execution the traces make (the test's max_events,
 * from its sc_parse_limits; default 4096, what a model can hold). */
typedef struct sc_thread_traces {
  sc_trace *traces;
  int ntraces, cap;
  /* The runs the unroll bound cut, up to the cut, each distinct one once:
   * their writes happen all the same (a thread that spins until it reads
   * its own earlier write, an atom.exch loop, completes only with a value
   * that no completed run writes), so the values locations may hold are
   * found over these too (never as traces of an execution). */
  sc_trace *cut;
  int ncut, cut_cap;
  long cut_runs; /* every run the bound cut, counted (cut keeps the
                    distinct ones that write) */
  /* With limits' note_twinless, over the iterations the cut took: the
   * reads with no twin (repeat_twins' rule), each (pc, location as
   * addressed) marked at [pc * nlocs + loc], NULL when none; and whether
   * one met a fence or a read with no location (no mark covers it). */
  bool *twinless;
  bool twin_refused;
  /* With limits' collapsed, per memory cell: a read there reached a
   * decision in some run (a branch, a guard, an address, a barrier's
   * operand, whether or what an atom other than exch writes) or the value
   * of a write to a cell not collapsed; NULL when none did. */
  bool *deciding;
} sc_thread_traces;

sc_status sci_sem_traces(const sc_test *t, const sc_sem_limits *limits,
                        const sc_value_sets *values, sc_thread_traces **out,
                        sc_error **err);

/* sci_sem_traces within a -timeout: a search `timeout` seconds (> 0; 0:
 * none) past `start` (sc_seconds()) fails, SC_ERR_LIMIT "expected to
 * finish within <timeout> s (the -timeout limit)", however large the
 * bounds (-unroll 2000000000 over a loop without events). */
sc_status sci_sem_traces_timed(const sc_test *t, const sc_sem_limits *limits,
                              double start, double timeout,
                              const sc_value_sets *values,
                              sc_thread_traces **out, sc_error **err);

/* Thread `thread` of t run once more, its reads given the `ngiven` values
 * of `given` in order (no cell collapsed, no cut of repeated states, the
 * -unroll bound `unroll`): the run in *out.  SC_ERR_USAGE when the run
 * does not end there, reading all of them (a caller that gave the values
 * of another path), or the bound cuts it; SC_ERR_LIMIT as sci_sem_traces.
 * sim/data_only.c computes a collapsed execution's values so. */
sc_status sci_sem_replay(const sc_test *t, int thread, int unroll, const int64_t *given,
                         int ngiven, sc_trace *out, sc_error **err);

#endif
