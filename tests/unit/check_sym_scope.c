/* check_sym_scope.c: unit tests of the symbolic engine's scope per layout
 * (lib/sim/symbolic.c): the model's encoding built once for a layout and
 * reused for its combinations, each one's candidate writes asserted in a
 * scope of its own, once the layout has been met a few times.  A combination of the
 * same layout with other values fits the scope and gets its own answer
 * there; one whose fixed relations
 * differ (a barrier synchronisation more, which turns its answer round)
 * does not fit, and gets its own answer from the same session.  Skipped
 * (77) without Z3. */
#include "sim/execution.h"
#include "sim/model.h"
#include "sim/search.h"
#include "sim/symbolic.h"
#include "sim/traces.h"
#include "scopecat.h"
#include "util/gcmem.h"

#include <check.h>

#include "check_run.h"
#include "check_litmus_of.h"
#include "check_search_of.h"
#include "check_traces_of.h"
#include <string.h>

/* Events: e0 the initial x, e1 P0's write of x, e2 P1's read of x (0 or 1,
 * one trace each: the same layout). */
#define READ_TEST                                     \
  "PTX scope\n"                                       \
  "{ x=0; }\n"                                        \
  " P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"              \
  " st.weak x, 1   | ld.weak r0, x  ;\n"              \
  "exists 0==0\n"

/* syncbar takes part: an edge from the read to the write forbids the
 * read of 1 (rf from that write closes a cycle). */
#define MODEL "PTX\nlet z = po | rf | co | fr | syncbar\nacyclic z as c\n"

static sim_search search_of(const sc_test *t) { return search_of_model(t, MODEL); }

/* The combination of P0's trace and P1's reading `value`, prepared as the
 * driver prepares it. */
static void prepare(sim_search *s, const sc_thread_traces *all, int64_t value,
                    sim_candidate *cd) {
  const sc_trace **chosen = sci_alloc(sizeof(sc_trace *) * 2);
  chosen[0] = &all[0].traces[0];
  chosen[1] = trace_with(all, 1, 0, value); /* P1 reading value */
  memset(cd, 0, sizeof *cd);
  cd->x = sci_sim_execution(s, chosen);
  ck_assert(sci_sim_rf_choices(cd));
  sci_sim_prepare(s, cd);
  ck_assert_int_eq(sci_sim_co_choices(s, cd), SC_OK);
}

static int states_found;

static bool count_state(void *ctx, sc_execution *x) {
  (void)ctx, (void)x;
  states_found++;
  return true;
}

static bool no_flag_known(void *ctx, const char *name) {
  (void)ctx, (void)name;
  return false;
}

static int flags_raised;

static void count_flag(void *ctx, const char *name, const sc_execution *x,
                       const sc_cat_outcome *out) {
  (void)ctx, (void)name, (void)x, (void)out;
  flags_raised++;
}

static const sc_cat_run_options eval; /* one for every problem, as a search has */

/* The solver's problem for cd, as engine_smt.c makes it (no location
 * observed: one state, found when an allowed execution exists). */
static sc_sym_problem *problem_of(const sim_search *s, const sim_candidate *cd,
                                  bool reuse) {
  int nl = cd->nlocs;
  int *init = sci_alloc_atomic(sizeof(int) * (size_t)(nl + 1));
  int **writes = sci_alloc(sizeof(int *) * (size_t)(nl + 1));
  int *nwrites = sci_alloc_atomic(sizeof(int) * (size_t)(nl + 1));
  static const bool observed[4]; /* none; one array for every problem, as a search has */
  ck_assert_int_le(nl, 4);
  for (int l = 0; l < nl; l++) {
    init[l] = cd->co[l].init;
    writes[l] = cd->co[l].writes;
    nwrites[l] = cd->co[l].n;
  }
  sc_sym_problem *p = sci_alloc(sizeof *p);
  *p = (sc_sym_problem){
    .t = s->t, .m = s->m, .x = cd->x, .env = cd->env, .eval = &eval,
    .nreads = cd->nreads, .reads = cd->reads, .cands = cd->cands, .ncands = cd->ncands,
    .nlocs = nl, .init = init, .writes = writes, .nwrites = nwrites,
    .final_locs = observed, .found = count_state, .flag = count_flag,
    .flag_known = no_flag_known, .reuse = reuse};
  return p;
}

/* The states the solver finds for cd in session ss. */
static int solve(sc_sym_session *ss, const sim_search *s, sim_candidate *cd, bool reuse) {
  sci_exec_bind_dynamic(cd->x, cd->env); /* syncbar, as engine_smt.c binds it */
  states_found = flags_raised = 0;
  sc_error *err = NULL;
  ck_assert_msg(sci_sym_solve(ss, problem_of(s, cd, reuse), &err) == SC_OK, "%s",
                sc_error_message(err));
  return states_found;
}

/* Solve cd in ss until its layout's scope is built (a layout met a few
 * times: symbolic.c's SCOPE_AFTER), each answer `states`. */
static void solve_until_scoped(sc_sym_session *ss, const sim_search *s, sim_candidate *cd,
                               int states) {
  for (int i = 0; i < 16 && !sci_sym_scope_fits(ss, problem_of(s, cd, true)); i++)
    ck_assert_int_eq(solve(ss, s, cd, true), states);
  ck_assert(sci_sym_scope_fits(ss, problem_of(s, cd, true)));
  ck_assert_int_eq(solve(ss, s, cd, true), states); /* in the scope */
}

START_TEST(values_differ_scope_reused) {
  sc_test *t = litmus_of(READ_TEST);
  sc_thread_traces *all = traces_under(t, (sc_sem_limits){.unroll = 2});
  sim_search s = search_of(t);
  sim_candidate zero, one;
  prepare(&s, all, 0, &zero);
  prepare(&s, all, 1, &one);
  ck_assert_ptr_eq(zero.env, one.env); /* one layout */
  ck_assert_int_eq(zero.cands[0][0], 0);
  ck_assert_int_eq(one.cands[0][0], 1);
  sc_sym_session *ss = sci_sym_open();
  /* met once: answered by its own encoding, no scope built */
  ck_assert_int_eq(solve(ss, &s, &zero, true), 1);
  ck_assert(!sci_sym_scope_fits(ss, problem_of(&s, &one, true)));
  /* met again with other values, a few times: the layout's scope is
   * built, serves both reads, and answers each as its own encoding does
   * (in a session of its own) */
  solve_until_scoped(ss, &s, &one, 1);
  ck_assert(sci_sym_scope_fits(ss, problem_of(&s, &zero, true)));
  ck_assert_int_eq(solve(ss, &s, &zero, true), 1);
  sc_sym_session *own = sci_sym_open();
  ck_assert_int_eq(solve(own, &s, &one, false), 1);
  ck_assert_int_eq(solve(own, &s, &zero, false), 1);
  ck_assert(!sci_sym_scope_fits(own, problem_of(&s, &one, true)));
  sci_sym_close(own);
  sci_sym_close(ss);
}
END_TEST

/* The read of 1 again, with a barrier synchronisation from the read to the
 * write: the same layout (environment, candidates, values) but a fixed
 * relation the encoding reads differs, and the answer with it (no allowed
 * execution).  The scope built without it answers the read of 1 with an
 * allowed one (above): the key must refuse it, and does. */
START_TEST(fixed_relation_differs_scope_refused) {
  sc_test *t = litmus_of(READ_TEST);
  sc_thread_traces *all = traces_under(t, (sc_sem_limits){.unroll = 2});
  sim_search s = search_of(t);
  sim_candidate one, synced;
  prepare(&s, all, 1, &one);
  prepare(&s, all, 1, &synced);
  ck_assert_ptr_eq(one.env, synced.env);
  sc_rel_add(synced.x->syncbar, 2, 1);
  sc_sym_session *ss = sci_sym_open();
  solve_until_scoped(ss, &s, &one, 1);
  ck_assert(!sci_sym_scope_fits(ss, problem_of(&s, &synced, true)));
  ck_assert_int_eq(solve(ss, &s, &synced, true), 0);
  solve_until_scoped(ss, &s, &synced, 0); /* a scope of its own */
  /* its own encoding agrees; and the first one's scope still serves it */
  sc_sym_session *own = sci_sym_open();
  ck_assert_int_eq(solve(own, &s, &synced, false), 0);
  sci_sym_close(own);
  ck_assert(sci_sym_scope_fits(ss, problem_of(&s, &one, true)));
  ck_assert_int_eq(solve(ss, &s, &one, true), 1);
  sci_sym_close(ss);
}
END_TEST

/* A flag in the scope (engine_smt.c lets a model that may raise one use
 * the scopes under -speedcheck fast and verdicts): raised when the read
 * reads P0's write.  The scope lets the read read any write of x; each
 * combination's restriction to its candidates must hold for its flags as
 * for its states: the read of 1 raises it, the read of 0 does not (a
 * question asked over the scope's wider choices would raise it for both),
 * as their own encodings say. */
#define FLAG_MODEL "PTX\nflag ~empty ([W \\ IW] ; rf) as from-write\n"

START_TEST(flag_in_scope_is_the_combination_s) {
  sc_test *t = litmus_of(READ_TEST);
  sc_thread_traces *all = traces_under(t, (sc_sem_limits){.unroll = 2});
  sim_search s = search_of_model(t, FLAG_MODEL);
  sim_candidate zero, one;
  prepare(&s, all, 0, &zero);
  prepare(&s, all, 1, &one);
  sc_sym_session *own = sci_sym_open();
  ck_assert_int_eq(solve(own, &s, &one, false), 1);
  ck_assert_int_eq(flags_raised, 1);
  ck_assert_int_eq(solve(own, &s, &zero, false), 1);
  ck_assert_int_eq(flags_raised, 0);
  sci_sym_close(own);
  sc_sym_session *ss = sci_sym_open();
  solve_until_scoped(ss, &s, &one, 1);
  ck_assert_int_eq(flags_raised, 1);
  ck_assert(sci_sym_scope_fits(ss, problem_of(&s, &zero, true)));
  ck_assert_int_eq(solve(ss, &s, &zero, true), 1);
  ck_assert_int_eq(flags_raised, 0);
  ck_assert_int_eq(solve(ss, &s, &one, true), 1);
  ck_assert_int_eq(flags_raised, 1);
  sci_sym_close(ss);
}
END_TEST

int main(void) {
  if (!sc_engine_smt_available(NULL))
    return 77;
  Suite *s = suite_create("sym_scope");
  TCase *tc = tcase_create("scope");
  tcase_add_test(tc, values_differ_scope_reused);
  tcase_add_test(tc, fixed_relation_differs_scope_refused);
  tcase_add_test(tc, flag_in_scope_is_the_combination_s);
  suite_add_tcase(s, tc);
  return sc_check_run(s);
}
