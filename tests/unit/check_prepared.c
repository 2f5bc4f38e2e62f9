/* check_prepared.c: unit tests of what one combination of traces shares
 * with the last one prepared (lib/sim/search.c's sci_sim_execution and
 * sci_sim_prepare, execution.c's sci_exec_same_layout and
 * sci_exec_new_like): a combination whose traces differ from the last
 * one's in values only shares its fixed relations and environment but
 * sees its own values; one whose barrier operands or events differ gets
 * its own. */
#include "sim/execution.h"
#include "sim/model.h"
#include "sim/search.h"
#include "sim/traces.h"
#include "scopecat.h"

#include <check.h>

#include "check_run.h"
#include "check_litmus_of.h"
#include "check_search_of.h"
#include "check_traces_of.h"
#include <string.h>

static sc_thread_traces *traces_of(const sc_test *t) {
  sc_sem_limits lim = {.unroll = 2};
  return traces_under(t, lim);
}

/* A search of t under a model that only names what every execution has:
 * what sci_sim_prepare needs of one. */
static sim_search search_of(const sc_test *t) {
  return search_of_model(t, "PTX\nlet z = po | rf | co\nacyclic z as c\n");
}

/* The combination of chosen in cd, prepared as the driver prepares it. */
static void prepare(sim_search *s, const sc_trace **chosen, sim_candidate *cd) {
  memset(cd, 0, sizeof *cd);
  cd->x = sci_sim_execution(s, chosen);
  ck_assert(sci_sim_rf_choices(cd));
  sci_sim_prepare(s, cd);
}

/* Whether two executions have the same events and the same relations
 * fixed by the traces. */
static bool same_fixed(const sc_execution *a, const sc_execution *b) {
  if (a->nevents != b->nevents || a->ninit != b->ninit)
    return false;
  for (int e = 0; e < a->nevents; e++) {
    const sc_event *p = &a->events[e], *q = &b->events[e];
    if (p->kind != q->kind || p->thread != q->thread || p->pc != q->pc ||
        p->instr != q->instr || p->loc != q->loc || p->vloc != q->vloc ||
        p->value != q->value)
      return false;
  }
  return sci_rel_equal(a->po, b->po) && sci_rel_equal(a->addr, b->addr) &&
         sci_rel_equal(a->data, b->data) && sci_rel_equal(a->ctrl, b->ctrl) &&
         sci_rel_equal(a->rmw, b->rmw) && sci_rel_equal(a->internal, b->internal);
}

/* Events: e0 and e1 the initial x and y, e2 P0's write of x, e3 P1's
 * read of x (0 or 1), e4 its write of y (the value read: data-dependent). */
#define VALUES_TEST                                   \
  "PTX values\n"                                      \
  "{ x=0; y=0; }\n"                                   \
  " P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"              \
  " st.weak x, 1   | ld.weak r0, x  ;\n"              \
  "                | st.weak y, r0  ;\n"              \
  "exists 0==0\n"

/* P1 reading 1 after a combination where it read 0: the same layout, so
 * the fixed relations and the environment are shared, but the events
 * carry the new values (the read's and the data-dependent write's), its
 * read's candidate writes are the new value's (P0's write, not the
 * initial one), and the earlier execution keeps its own. */
START_TEST(values_differ_layout_shared) {
  sc_test *t = litmus_of(VALUES_TEST);
  sc_thread_traces *all = traces_of(t);
  sim_search s = search_of(t);
  const sc_trace *chosen[2] = {&all[0].traces[0], trace_with(all, 1, 0, 0)};
  sim_candidate first, second;
  prepare(&s, chosen, &first);
  ck_assert_int_eq(s.prepared.shared, 0);
  chosen[1] = trace_with(all, 1, 0, 1); /* the driver's array, refilled */
  ck_assert(sci_exec_same_layout(t, s.prepared.kept[0].traces, chosen));
  prepare(&s, chosen, &second);
  ck_assert_int_eq(s.prepared.shared, 1);
  ck_assert_ptr_eq(second.x->po, first.x->po);
  ck_assert_ptr_eq(second.env, first.env);
  /* the values are the new traces', the old execution's are its own */
  ck_assert_int_eq(first.x->events[3].value, 0);
  ck_assert_int_eq(first.x->events[4].value, 0);
  ck_assert_int_eq(second.x->events[3].value, 1);
  ck_assert_int_eq(second.x->events[4].value, 1);
  /* as sci_exec_new makes it from scratch */
  ck_assert(same_fixed(second.x, sci_exec_new(t, chosen)));
  /* the read of 1 reads P0's write (e2) only; the read of 0 the initial x */
  ck_assert_int_eq(second.nreads, 1);
  ck_assert_int_eq(second.ncands[0], 1);
  ck_assert_int_eq(second.cands[0][0], 2);
  ck_assert_int_eq(first.ncands[0], 1);
  ck_assert_int_eq(first.cands[0][0], 0);
  /* rf and co are the new execution's own */
  ck_assert_ptr_ne(second.x->rf, first.x->rf);
  ck_assert_ptr_ne(second.x->co, first.x->co);
}
END_TEST

/* P1's barrier takes its thread count from the value it read (1 or 2):
 * the two runs have events at the same places with the same values but
 * for that one, yet their barriers differ, so nothing is shared. */
#define BARRIER_TEST                                  \
  "PTX barrier\n"                                     \
  "{ x=1; }\n"                                        \
  " P0@cta 0,gpu 0 | P1@cta 0,gpu 0      ;\n"         \
  " st.weak x, 2   | ld.weak r3, x       ;\n"         \
  "                | bar.cta.sync 1, r3  ;\n"         \
  "exists 0==0\n"

START_TEST(barrier_operands_differ_not_shared) {
  sc_test *t = litmus_of(BARRIER_TEST);
  sc_thread_traces *all = traces_of(t);
  sim_search s = search_of(t);
  const sc_trace *chosen[2] = {&all[0].traces[0], trace_with(all, 1, 0, 1)};
  sim_candidate first, second;
  prepare(&s, chosen, &first);
  /* its barrier synchronisations, once kept, are its layout's */
  sc_rel **syncs, *one = sci_rel_new(first.x->nevents);
  int nsyncs;
  ck_assert(!sci_sim_layout_syncs(&s, &first, &syncs, &nsyncs));
  sci_sim_keep_layout_syncs(&s, &first, &one, 1);
  ck_assert(sci_sim_layout_syncs(&s, &first, &syncs, &nsyncs));
  ck_assert_ptr_eq(syncs[0], one);
  chosen[1] = trace_with(all, 1, 0, 2);
  ck_assert_int_eq(chosen[1]->nevents, 2);
  ck_assert_int_eq(chosen[1]->events[1].kind, SC_EV_BARRIER);
  ck_assert(!sci_exec_same_layout(t, s.prepared.kept[0].traces, chosen));
  prepare(&s, chosen, &second);
  ck_assert_int_eq(s.prepared.shared, 0);
  ck_assert_ptr_ne(second.x->po, first.x->po);
  ck_assert_ptr_ne(second.env, first.env);
  ck_assert_int_eq(second.x->events[2].value, 2);
  ck_assert(!sci_sim_layout_syncs(&s, &second, &syncs, &nsyncs));
  /* and the last one prepared is now the second: a third like it shares */
  prepare(&s, chosen, &first);
  ck_assert_int_eq(s.prepared.shared, 1);
  ck_assert_ptr_eq(first.env, second.env);
  ck_assert(!sci_sim_layout_syncs(&s, &first, &syncs, &nsyncs));
  /* back to the first layout (kept second): its synchronisations */
  chosen[1] = trace_with(all, 1, 0, 1);
  prepare(&s, chosen, &second);
  ck_assert_int_eq(s.prepared.shared, 2);
  ck_assert(sci_sim_layout_syncs(&s, &second, &syncs, &nsyncs));
  ck_assert_int_eq(nsyncs, 1);
  ck_assert_ptr_eq(syncs[0], one);
}
END_TEST

/* Runs of one thread with different events (a branch taken or not) have
 * different layouts. */
#define BRANCH_TEST                                   \
  "PTX branch\n"                                      \
  "{ x=0; y=0; }\n"                                   \
  " P0@cta 0,gpu 0 | P1@cta 0,gpu 0   ;\n"            \
  " st.weak x, 1   | ld.weak r0, x    ;\n"            \
  "                | beq r0, 0, LC00  ;\n"            \
  "                | st.weak y, 1     ;\n"            \
  "                | LC00:            ;\n"            \
  "exists 0==0\n"

START_TEST(events_differ_not_shared) {
  sc_test *t = litmus_of(BRANCH_TEST);
  sc_thread_traces *all = traces_of(t);
  sim_search s = search_of(t);
  const sc_trace *chosen[2] = {&all[0].traces[0], trace_with(all, 1, 0, 0)};
  ck_assert_int_eq(chosen[1]->nevents, 1);
  sim_candidate first, second;
  prepare(&s, chosen, &first);
  chosen[1] = trace_with(all, 1, 0, 1);
  ck_assert_int_eq(chosen[1]->nevents, 2);
  ck_assert(!sci_exec_same_layout(t, s.prepared.kept[0].traces, chosen));
  prepare(&s, chosen, &second);
  ck_assert_int_eq(s.prepared.shared, 0);
  ck_assert_int_eq(second.x->nevents, first.x->nevents + 1);
  ck_assert(same_fixed(second.x, sci_exec_new(t, chosen)));
}
END_TEST

/* Layouts taking turns (a spin's exits, the odometer's fastest thread):
 * after A, then B, a combination of A's layout shares A's environment and
 * relations, never B's (the last one prepared); one of B's then B's. */
START_TEST(layouts_taking_turns) {
  sc_test *t = litmus_of(BRANCH_TEST);
  sc_thread_traces *all = traces_of(t);
  sim_search s = search_of(t);
  const sc_trace *chosen[2] = {&all[0].traces[0], trace_with(all, 1, 0, 0)};
  sim_candidate a, b, again;
  prepare(&s, chosen, &a);
  chosen[1] = trace_with(all, 1, 0, 1);
  prepare(&s, chosen, &b);
  ck_assert_int_eq(s.prepared.n, 2);
  ck_assert_int_eq(s.prepared.shared, 0);
  chosen[1] = trace_with(all, 1, 0, 0);
  prepare(&s, chosen, &again);
  ck_assert_int_eq(s.prepared.shared, 1);
  ck_assert_ptr_eq(again.env, a.env);
  ck_assert_ptr_eq(again.x->po, a.x->po);
  ck_assert_int_eq(again.x->nevents, a.x->nevents);
  ck_assert(same_fixed(again.x, sci_exec_new(t, chosen)));
  chosen[1] = trace_with(all, 1, 0, 1);
  prepare(&s, chosen, &again);
  ck_assert_int_eq(s.prepared.shared, 2);
  ck_assert_ptr_eq(again.env, b.env);
  ck_assert(same_fixed(again.x, sci_exec_new(t, chosen)));
}
END_TEST

int main(void) {
  Suite *s = suite_create("prepared");
  TCase *tc = tcase_create("layout");
  tcase_add_test(tc, values_differ_layout_shared);
  tcase_add_test(tc, barrier_operands_differ_not_shared);
  tcase_add_test(tc, events_differ_not_shared);
  tcase_add_test(tc, layouts_taking_turns);
  suite_add_tcase(s, tc);
  return sc_check_run(s);
}
