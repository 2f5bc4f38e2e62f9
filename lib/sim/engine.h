/* engine.h: the simulator's engines behind one small interface.  The
 * driver (simulate.c) finds the traces, makes each combination of them a
 * candidate (with its barrier and fence.sc orders) and hands it to an
 * engine, which chooses rf and co and puts what the model allows into the
 * sink (sink.h).  A new engine is one file defining a sim_engine and one
 * row in simulate.c's table. */
#ifndef SC_SIM_ENGINE_H
#define SC_SIM_ENGINE_H

#include "sim/search.h"

typedef struct sim_engine {
  const char *name;      /* as -engine names it, and the result says */
  const char *what;      /* for messages: "the symbolic engine" */
  /* Positive and Negative count final states, not executions, and no
   * execution is drawn (README: Engines) */
  bool counts_states;
  /* each thread's shortest traces come first (traces.h) */
  bool shortest_first;
  /* whether this build has it; *why says why not */
  bool (*available)(const char **why);
  /* every rf and co of the candidate (its traces, barrier and fence.sc
   * orders fixed); SIM_STOP when the search has its answer */
  sc_status (*combination)(sim_search *s, sim_candidate *cd);
  /* the search is over: what the engine kept from one combination to the
   * next is let go */
  void (*finish)(sim_search *s);
} sim_engine;

extern const sim_engine sci_sim_engine_enum; /* engine_enum.c */
extern const sim_engine sci_sim_engine_smt;  /* engine_smt.c */

/* ---- -engine auto's cost model -------------------------------------------
 * What auto weighs, per combination of traces (engine_smt.c) and per test
 * (simulate.c): enumerating costs about SIM_COST_ENUM_CHOICE seconds per rf
 * and co choice the estimate counts (an upper bound of the candidates: the
 * branches the enumerator cuts early cost less); the solver about
 * SIM_COST_SOLVER_CALL per call, and the symbolic States loop makes one
 * call per final state it finds and one more that finds none, so a
 * combination whose observed locations can end in k states costs k + 1
 * calls.  Both figures are measured by `make bench` (tools/bench.sh prints
 * them on its "cost model" line, from the families that time each engine
 * alone): when the enumerator or the solver gets faster, copy its figures
 * here.  The ratio is what matters, not the machine. */
#define SIM_COST_ENUM_CHOICE 3e-6
#define SIM_COST_SOLVER_CALL 5e-3
/* A test whose enumeration is estimated to cost at most this many seconds
 * beyond the mixed road's (each combination the cheaper way) is enumerated
 * whole: its counts are then executions, as herd7 counts them (README:
 * Engines).  The constant of the bound auto is held to (tools/bench.sh). */
#define SIM_COST_SLACK 0.05

/* Where the traces fix a combination's final state, the symbolic road
 * skips it once that state is known, and else first probes for one allowed
 * execution with this many looks (engine_enum.c's PROBE_LOOKS): at most
 * that many choices enumerated. */
#define SIM_COST_PROBE_LOOKS 64L

/* The estimated seconds of the symbolic road for one combination whose
 * observed locations may end in at most `states` final states. */
static inline double sci_sim_cost_solver(double states) {
  return (states + 1) * SIM_COST_SOLVER_CALL;
}

/* The most rf and co choices a combination whose solver costs `solver`
 * seconds may have and still be cheaper enumerated (at most 10^15: the
 * states of many written locations multiply past what a long holds). */
static inline long sci_sim_cost_enumerate_at_most(double solver) {
  double n = solver / SIM_COST_ENUM_CHOICE;
  return n < 1e15 ? (long)n : 1000000000000000L;
}

/* A combination the estimate gives the solver (more choices than
 * sci_sim_cost_enumerate_at_most) is first enumerated under a budget of
 * looks (partial and complete candidates: the enumerator's unit of work,
 * so the road a combination takes never depends on the machine's load)
 * worth this fraction of one solver call, the least the solver may take
 * (its states are an upper bound: a combination with no allowed execution
 * takes one call).  The estimate counts every rf and co choice, where the
 * enumerator cuts most branches early (scoped-2x8-5 of `make bench`: 9!
 * orders of y's writes per combination, 65 to 179 looks).  Where the
 * budget runs out, the combination costs at most 1.5 times the solver's
 * least, issue 29's bound on auto.  Half of the solver's estimate was
 * tried first: caslock-dv2wg-2.2.1 (ptx/kernels) spent 27500 looks on
 * each of 75 combinations the solver settles in about one call, 10 times
 * slower. */
#define SIM_COST_TRY_ENUM 0.5

/* The looks a combination is first enumerated within (833 with the
 * figures above). */
static inline long sci_sim_cost_enum_budget(void) {
  return (long)(SIM_COST_TRY_ENUM * SIM_COST_SOLVER_CALL / SIM_COST_ENUM_CHOICE);
}

/* ---- What the symbolic engine borrows from the enumerator ---- */

/* The look before any choice of rf and co (reads with one candidate write
 * read from it): *may is false when a check that only gets worse as rf
 * and co grow fails already; an error or SIM_STOP from the budget. */
sc_status sci_sim_enum_root_look(sim_search *s, sim_candidate *cd, bool *may);

/* Whether every completion of cd in which read r reads from write w and
 * w has no co successor fails a check that only gets worse as rf and co
 * grow (or as co shrinks), on the bounds: rf from the reads with one
 * candidate and (w, r) up to every candidate; co from the initial writes
 * (and, co being total, every other write of w's location before w; co
 * being partial, those that `ordered` pairs with w, ordered from
 * sci_sim_enum_co_ordered or NULL) up to every order that leaves w last.  The enumerator's cut at its root, with
 * w's place in co fixed.  false when the model has no such check (or
 * -noprune). */
bool sci_sim_enum_refutes_maximal_read(sim_search *s, sim_candidate *cd,
                                       const sc_rel *ordered, int w, int r);

/* The pairs of events that co orders one way or the other in every
 * execution of cd's combination that the model allows: the union of E
 * over the model's checks `empty (E \ (co | co^-1))` (co or co+ there,
 * E reading none of the per-candidate names: cat.h's
 * sci_cat_analysis_order), evaluated once on cd's fixed names.  With co
 * partial, sci_sim_enum_refutes_maximal_read puts every write w' that
 * such a pair joins to the co-maximal write w before it (a pair ordered
 * w first would give w a successor).  NULL when the model has no such
 * check or its evaluation fails. */
sc_rel *sci_sim_enum_co_ordered(sim_search *s, sim_candidate *cd);

/* Whether no completion of cd is allowed, by the reads one at a time: a
 * candidate write of a read is dead when the bounds with it read (and
 * every read left with one live candidate reading that one) fail a check
 * that only gets worse as rf and co grow (or as rf shrinks): every
 * allowed completion reads each read from a live candidate, so a read
 * with none refutes cd.  The enumerator's cut at its root, a read at a
 * time.  false when the model has no such check (or -noprune). */
bool sci_sim_enum_refutes_by_reads(sim_search *s, sim_candidate *cd);

/* When the traces fix the state, one allowed execution settles the
 * combination: a quick enumeration looks for one, within a few looks.
 * *settled when it found one or enumerated them all; an error is the
 * search's. */
sc_status sci_sim_enum_probe(sim_search *s, sim_candidate *cd, bool *settled);

/* Every rf and co of cd within `looks` looks (or, when first_only, up to
 * the first allowed execution): what it finds goes to the sink as the
 * enumerator's always does.  *settled when it enumerated them all (or found
 * that first one); else the budget ran out, and what it put in the sink
 * are allowed executions of cd all the same.  SIM_STOP when -speedcheck
 * fast has its verdict; an error is the search's. */
sc_status sci_sim_enum_within(sim_search *s, sim_candidate *cd, long looks,
                              bool first_only, bool *settled);

#endif
