/* engine_smt.c: the symbolic engine as the driver sees it.  For one
 * combination of traces, rf and co become solver choices (symbolic.c, with
 * Z3) and the final states of the allowed executions are put into the sink
 * one by one.  Under -engine auto (hybrid) a combination with few choices
 * is enumerated instead (few next to the solver's calls), and where the
 * traces fix the final state a quick probe of the enumerator may settle it
 * before the solver is asked; one with more is first looked at read by
 * read (the reads' looks refute many), then enumerated within a budget of
 * looks, and goes to the solver only when that runs out (at once, past
 * the looks, when its layout's solver scope is kept: symbolic.c).  Which
 * road a combination takes is the cost model's (engine.h): the solver's
 * calls (one per final state, one more) against the rf and co choices. */
#include "sim/engine.h"

#include "sim/data_only.h"
#include "sim/liveness.h"
#include "sim/sink.h"
#include "sim/symbolic.h"
#include "util/error.h"
#include "util/gcmem.h"

/* -engine auto, once symbolic: the executions a concrete run may refute
 * (an encoding that over-approximates: `with co from S`, symbolic.h) before
 * the test is enumerated instead.  herd's cos.cat needs none (its S holds
 * every co); S = {co0} refutes every co of 8 writers, 40320 of them. */
#define MOST_REFUTED 256

/* ---- The sink, as the solver calls it ------------------------------------- */

static bool sink_found(void *ctx, sc_execution *x) {
  return sci_sim_sink_execution(ctx, x, NULL);
}

static void sink_flag(void *ctx, const char *name, const sc_execution *x,
                      const sc_cat_outcome *out) {
  sci_sim_sink_flag(ctx, name, x, out);
}

static bool sink_flag_known(void *ctx, const char *name) {
  return sci_sim_sink_flag_known(ctx, name);
}

/* -liveness: the solver found a fair allowed execution (rf, co set in x). */
static void sink_liveness_witness(void *ctx, sc_execution *x) {
  sci_sim_sink_liveness_witness(ctx, x);
}

/* ---- One combination ------------------------------------------------------ */

/* Whether the traces in cd fix the one state it may end in (no observed
 * location has a write to choose from, and the writes' values are the
 * traces': not values_after) and nothing else is asked of it (no flag, no
 * liveness witness). */
static bool state_fixed(const sim_search *s, const sim_candidate *cd) {
  if (s->may_flag || s->opts.liveness || s->values_after)
    return false;
  for (int l = 0; l < cd->nlocs; l++)
    if (s->smt.final_locs[l] && cd->co[l].n > 0)
      return false;
  return true;
}

/* When no observed location has a write to choose from, the traces fix the
 * one state this combination may end in: known already (or cut by the
 * filter), it is not worth a solver call, unless a flag may be raised on
 * the way; under auto the enumerator's probe may settle it.  *settled when
 * no solver call is needed. */
static sc_status settle_fixed_state(sim_search *s, sim_candidate *cd, bool *settled) {
  *settled = false;
  if (!state_fixed(s, cd))
    return SC_OK;
  *settled = (s->t->filter && !sci_exec_holds(cd->x, s->t->filter)) ||
             sci_sim_sink_state_known(s, cd->x);
  if (*settled || !s->smt.hybrid || s->opts.through)
    return SC_OK;
  return sci_sim_enum_probe(s, cd, settled);
}

/* Each location's initial write and writes, as the problem lists them. */
static void location_writes(const sim_candidate *cd, sc_sym_problem *p) {
  int nl = cd->nlocs;
  int *init = sci_alloc_atomic(sizeof(int) * (size_t)(nl + 1));
  int **writes = sci_alloc(sizeof(int *) * (size_t)(nl + 1));
  int *nwrites = sci_alloc_atomic(sizeof(int) * (size_t)(nl + 1));
  for (int l = 0; l < nl; l++) {
    init[l] = cd->co[l].init;
    writes[l] = cd->co[l].writes;
    nwrites[l] = cd->co[l].n;
  }
  p->nlocs = nl;
  p->init = init;
  p->writes = writes;
  p->nwrites = nwrites;
}

/* Whether the search stops at what it finds first, and the output says
 * so (-speedcheck fast, and verdicts, `scopecat kernel -speedcheck
 * fast`'s): which of a combination's executions the solver gives is then
 * told as the first found, for a flag's witness as for the states found
 * before the stop.  Whether a flag is raised is not the solver's choice:
 * for each state a combination may end in, flags_of_state (symbolic.c)
 * asks whether an allowed execution raises each flag not raised yet, in
 * a layout's scope as in the combination's own encoding (the scope holds
 * the combination's reads to its candidate writes for that question too:
 * tests/unit/check_sym_scope.c); only which witness is told may differ.
 * A search that raises no flag (a PASS row) tells none. */
static bool stops_at_first_found(const sim_search *s) {
  return s->opts.speedcheck == SC_SPEEDCHECK_FAST ||
         s->opts.speedcheck == SC_SPEEDCHECK_VERDICTS;
}

/* Whether the solver's answer for cd may be left to the reads' looks
 * (sci_sim_enum_refutes_by_reads): where no execution the solver picks
 * is shown, so that a question not asked (which changes the solver's
 * context, and so which execution it picks of those it may) changes no
 * output: not under -show (the witness drawn, with its rf and co), nor
 * with a flag the model may raise (a flag's witness pair depends on rf
 * and co) unless the search stops at what it finds first
 * (stops_at_first_found).  Flags are raised on allowed executions only,
 * as herd raises them (-through, which raises them on the others, takes
 * no looks), so a combination the looks refute raises none.
 * Under -liveness the looks are sound too: a witness is an allowed
 * execution (fairness only narrows it), and a combination the looks refute
 * has none; without -show what is told of a witness (which threads are
 * stuck, and how) is its combination's, which the looks never pass over. */
static bool may_refute_by_reads(const sim_search *s) {
  return s->opts.show == SC_SHOW_NONE && (!s->may_flag || stops_at_first_found(s)) &&
         !s->opts.through;
}

/* Whether the solver may answer in the scope of cd's layout (symbolic.c),
 * where it may give another of a combination's executions than cd's own
 * encoding would: where none is shown (as may_refute_by_reads).  Every
 * state of a combination is counted (the States are a set; the condition's
 * witness is told by its events and values, the combination's); under
 * -speedcheck fast or verdicts, which stop at the first state deciding the
 * condition, which of a combination's states come before it is the
 * solver's either way, and the output says that the States are those found
 * before the stop, as a flag's witness is the first found
 * (stops_at_first_found); under -liveness, whose one question per
 * combination is whether it has a fair execution (what is told of it is
 * its combination's), always. */
static bool may_reuse_scope(const sim_search *s) {
  return may_refute_by_reads(s);
}

/* The solver's problem for cd, within `left` seconds (0: no limit). */
static sc_sym_problem *problem_of(sim_search *s, sim_candidate *cd, double left) {
  sc_cat_run_options *eval = sci_alloc(sizeof *eval);
  *eval = s->eval;
  eval->transient = false;
  sc_sym_problem *p = sci_alloc(sizeof *p);
  *p = (sc_sym_problem){
    .t = s->t, .m = s->m, .x = cd->x, .env = cd->env, .eval = eval,
    .nreads = cd->nreads, .reads = cd->reads, .cands = cd->cands,
    .ncands = cd->ncands, .partial_co = s->partial_co,
    .through = s->opts.through != 0, .final_locs = s->smt.final_locs,
    .timeout = left, .limit = s->opts.timeout, .found = sink_found,
    .flag = sink_flag, .flag_known = sink_flag_known, .ctx = s,
    .most_refuted = s->smt.hybrid ? MOST_REFUTED : 0, .stop = &s->done,
    .values_after = s->values_after, .reg_threads = s->smt.reg_threads,
    /* -speedcheck fast counts the deciding states alone, and stops at the
     * first: states the condition's values tell apart are enough */
    .blocked_locs = s->values_after && s->opts.speedcheck == SC_SPEEDCHECK_FAST
                        ? s->smt.cond_locs : NULL,
    .reuse = may_reuse_scope(s)};
  location_writes(cd, p);
  if (s->opts.liveness) {
    sc_live_clause *fairness;
    p->nfairness = sci_live_fairness(cd->x, &fairness);
    p->fairness = fairness;
    p->witness = sink_liveness_witness;
  }
  return p;
}

/* Whether the reads' looks go before the enumerator's budget (auto): not
 * while the candidates counted may still decide a liveness search's
 * deepening (simulate.c's cut_pass: at most SC_LIVE_DEEPEN_CANDIDATES),
 * a count the budget's complete candidates are part of; past it the count
 * only grows, and the same searches are deepened as with the budget first
 * (as live_refute.c's cut waits). */
static bool reads_before_budget(const sim_search *s) {
  return may_refute_by_reads(s) &&
         (!s->opts.liveness || !s->may_deepen ||
          s->r->candidates > SC_LIVE_DEEPEN_CANDIDATES);
}

/* cd made ready for the solver: its names bound (syncbar, sync_fence),
 * the session open, in *left the seconds -timeout leaves (0: no limit);
 * false when none are left. */
static bool to_solver(sim_search *s, sim_candidate *cd, double *left) {
  sci_exec_bind_dynamic(cd->x, cd->env);
  if (!s->smt.session)
    s->smt.session = sci_sym_open();
  *left = 0;
  if (s->opts.timeout > 0) {
    *left = s->opts.timeout - (sc_seconds() - s->clock.start);
    if (*left <= 0)
      return false;
  }
  return true;
}

/* rf and co for the traces in cd->x as solver choices, unless the reads'
 * looks refute every completion (the question counted all the same: the
 * candidates reported are the combinations that came to the solver).
 * `looked`: the looks were taken already (enumerate_first), in vain. */
static sc_status solve(sim_search *s, sim_candidate *cd, bool looked) {
  s->r->candidates++;
  if (!looked && may_refute_by_reads(s) && sci_sim_enum_refutes_by_reads(s, cd))
    return SC_OK;
  double left;
  if (!to_solver(s, cd, &left))
    return sci_sim_out_of_time(s);
  return sci_sym_solve(s->smt.session, problem_of(s, cd, left), &s->err);
}

/* The final states the solver may find for cd at most: per observed
 * location with writes to choose from, any of them may be the last. */
static double states_at_most(const sim_search *s, const sim_candidate *cd) {
  if (s->opts.liveness)
    return 0; /* one call looks for the witness */
  double n = 1;
  for (int l = 0; l < cd->nlocs; l++)
    if (s->smt.final_locs[l] && cd->co[l].n > 0)
      n *= cd->co[l].n;
  return n;
}

/* Whether the solver would answer cd in the scope of its layout, kept
 * already (symbolic.c): a question there costs a few checks, not the
 * encoding, and less than the enumerator's budget of looks, which the cost
 * model prices at half of a whole solver call (ticketlock-dv2wg-2.2.1:
 * with the scopes, the budget was 56% of the row and settled 1% of the
 * combinations).  Skipping the budget changes only the road: the States
 * are a set, and where they may be told by their executions (-show,
 * flags) or the budget's count decides (a liveness deepening) the looks
 * are not taken (reads_before_budget) and neither is this. */
static bool in_kept_scope(sim_search *s, sim_candidate *cd) {
  return s->smt.session && may_reuse_scope(s) &&
         sci_sym_scope_fits(s->smt.session, problem_of(s, cd, 0));
}

/* The road a combination takes under -engine auto. */
typedef enum {
  ROAD_ENUMERATED, /* settled by the enumerator */
  ROAD_SOLVER,     /* to the solver, the reads' looks not taken yet */
  ROAD_LOOKED,     /* to the solver, the reads' looks taken in vain */
  ROAD_REFUTED     /* refuted by the reads' looks: to neither engine */
} road;

/* Under -engine auto (engine.h's cost model): cd enumerated whole when its
 * rf and co choices cost less than the solver's calls for its states, else
 * within a budget of looks worth half of one solver call (the estimate
 * counts every choice, the enumerator cuts most).  ROAD_ENUMERATED unless
 * that budget ran out; then the solver finishes cd: the states found on
 * the way are real ones, and an engine that counts states counts each once
 * (sink.c), so the States and counts are the solver's alone.  Where the
 * state is fixed, the first allowed execution settles cd, as
 * settle_fixed_state's probe.  Before the budget, the reads' looks (a model
 * run per candidate write, on the bounds): a combination they refute has
 * no allowed execution, which the budget would look for in vain before the
 * solver refuted it (ticketlock-dv2wg-2.2.1: two in five of its
 * combinations; the budget was a third of the run). */
static sc_status enumerate_first(sim_search *s, sim_candidate *cd, road *way) {
  double solver = sci_sim_cost_solver(states_at_most(s, cd));
  long most = sci_sim_cost_enumerate_at_most(solver);
  sc_status st;
  bool settled, looks = reads_before_budget(s); /* the budget's count may pass the deepening's */
  if (sci_sim_choices_upto(s, cd, most) <= most) {
    settled = true;
    st = sci_sim_engine_enum.combination(s, cd);
  } else if (looks && sci_sim_enum_refutes_by_reads(s, cd)) {
    *way = ROAD_REFUTED;
    return SC_OK;
  } else if (looks && in_kept_scope(s, cd)) {
    settled = false; /* the solver's call costs less than the budget */
    st = SC_OK;
  } else {
    bool first_only = state_fixed(s, cd) && !s->opts.through;
    st = sci_sim_enum_within(s, cd, sci_sim_cost_enum_budget(), first_only, &settled);
  }
  *way = settled ? ROAD_ENUMERATED : looks ? ROAD_LOOKED : ROAD_SOLVER;
  return st;
}

/* A layout search's candidate (cd->select): the solver chooses the traces
 * with rf and co, in cd's own encoding; the enumerator's looks and probes,
 * which read values, are not taken. */
static sc_status solve_layout(sim_search *s, sim_candidate *cd) {
  sc_status st = sci_sim_check_budget(s); /* a candidate: -max-executions, -timeout */
  if (st)
    return st;
  double left;
  if (!to_solver(s, cd, &left))
    return sci_sim_out_of_time(s);
  sc_sym_problem *p = problem_of(s, cd, left);
  p->select = cd->select;
  p->reuse = false;
  sim_value_tables *tables = sci_alloc(sizeof *tables);
  sc_error *ignored = NULL; /* no tables: the states are asked one by one */
  if (s->values_after &&
      sci_sim_data_only_tables(cd->x, cd->select, sci_sem_unroll_of(s->opts.unroll), tables,
                               &ignored))
    p->tables = tables;
  return sci_sym_solve(s->smt.session, p, &s->err);
}

/* rf and co for the traces in cd->x: enumerated, or left to the solver.
 * A combination the reads' looks refute is counted as one for the solver,
 * as when the looks came after the budget. */
static sc_status smt_combination(sim_search *s, sim_candidate *cd) {
  if (cd->select)
    return solve_layout(s, cd);
  bool may;
  sc_status st = sci_sim_enum_root_look(s, cd, &may); /* the enumerator's first look */
  if (st || !may)
    return st;
  bool settled;
  st = settle_fixed_state(s, cd, &settled);
  if (st || settled)
    return st;
  road way = ROAD_SOLVER;
  if (s->smt.hybrid) {
    st = enumerate_first(s, cd, &way);
    if (way == ROAD_ENUMERATED)
      s->smt.enumerated++;
    if (st || way == ROAD_ENUMERATED)
      return st;
    s->smt.solved++;
    if (way == ROAD_REFUTED) {
      s->r->candidates++;
      return SC_OK;
    }
  }
  return solve(s, cd, way == ROAD_LOOKED);
}

/* Under -engine auto, the result's reason says which road the combinations
 * took (once: the driver may finish twice). */
static void note_roads(sim_search *s) {
  if (!s->smt.hybrid || s->smt.enumerated + s->smt.solved == 0)
    return;
  s->r->engine_reason =
      sci_printf("%s; combinations: %ld enumerated, %ld to the solver",
                 s->r->engine_reason, s->smt.enumerated, s->smt.solved);
  s->smt.enumerated = s->smt.solved = 0;
}

static void smt_finish(sim_search *s) {
  sci_sym_close(s->smt.session);
  s->smt.session = NULL;
  note_roads(s);
}

const sim_engine sci_sim_engine_smt = {
  .name = "smt",
  .what = "the symbolic engine",
  .counts_states = true,
  .shortest_first = true,
  .available = sci_sym_available,
  .combination = smt_combination,
  .finish = smt_finish,
};
