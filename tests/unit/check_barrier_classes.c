#define _POSIX_C_SOURCE 200809L
/* check_barrier_classes.c: unit tests of the cut of combinations whose
 * barriers deadlock (lib/sim/barrier_classes.c) on corpus kernels
 * (ptx/kernels/, their launch read from the header), with the stuck runs
 * of a liveness search: over every fed combination of traces, in the
 * odometer's order, as the simulator meets them, a combination the table calls deadlocked has no
 * barrier synchronisation when sci_barrier_syncs works it out itself, so
 * that no combination with one is ever skipped; and some are skipped. */
#include "rel/rel.h"
#include "sim/barrier_classes.h"
#include "sim/execution.h"
#include "sim/sem.h"
#include "sim/traces.h"
#include "scopecat.h"

#include <check.h>

#include "check_corpus_kernel.h"
#include "check_litmus_of.h"
#include "check_run.h"
#include "check_traces_of.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The traces of t under `unroll` with the runs a liveness search adds
 * (stuck spinning or at a barrier), as a kernel's -liveness run has them. */
static sc_thread_traces *liveness_traces(const sc_test *t, int unroll) {
  sc_sem_limits lim = {.unroll = unroll, .liveness = true, .repeat_cut = true,
                       .repeat_at_once = true};
  return traces_under(t, lim);
}

/* Every fed combination of `all` in the odometer's order: the table's
 * verdict (then the true count noted, as the simulator notes it) against
 * sci_barrier_syncs.  Returns how many the table skipped; *stuck counts
 * the combinations with a stuck run that have synchronisations. */
static long check_every_combination(const sc_test *t, const sc_thread_traces *all,
                                    long *stuck_synced) {
  int n = sc_test_thread_count(t);
  sim_barrier_classes *bc = sci_barrier_classes(t, all);
  ck_assert_ptr_nonnull(bc);
  int pick[64] = {0};
  const sc_trace *chosen[64];
  long skipped = 0;
  *stuck_synced = 0;
  sim_feed_odometer *odo = sci_sim_feed_odometer(t, all, NULL);
  for (bool more = sci_sim_first_fed_choice(odo, pick); more;
       more = sci_sim_next_fed_choice(odo, pick)) {
    sci_sim_choose(chosen, pick, all, n);
    sc_execution *x = sci_exec_new(t, chosen);
    sc_rel **syncs;
    int nsyncs;
    sc_error *err;
    ck_assert_msg(sci_barrier_syncs(x, NULL, 1000000, &syncs, &nsyncs, &err) == SC_OK,
                  "%s", sc_error_message(err));
    if (sci_barrier_classes_deadlock(bc, chosen)) {
      ck_assert_msg(nsyncs == 0, "a combination with %d barrier synchronisations "
                    "was called deadlocked", nsyncs);
      skipped++;
    }
    bool stuck = false;
    for (int th = 0; th < n; th++)
      stuck |= chosen[th]->stuck != SC_STUCK_NONE;
    *stuck_synced += stuck && nsyncs > 0;
    sci_barrier_classes_note(bc, chosen, nsyncs);
  }
  return skipped;
}

/* One CTA of two threads (25 fed combinations, 9 with a stuck run, each
 * deadlocked: 6 skipped after the first of their classes). */
START_TEST(xf_barrier_one_cta) {
  sc_test *t = corpus_kernel("xf-barrier-2.1.1");
  long stuck_synced;
  ck_assert_int_gt(check_every_combination(t, liveness_traces(t, 1), &stuck_synced), 0);
}
END_TEST

/* Two CTAs of one thread: each bar.sync is its CTA's alone (146 fed
 * combinations, 36 with a stuck run and synchronisations, 24 skipped). */
START_TEST(xf_barrier_two_ctas) {
  sc_test *t = corpus_kernel("xf-barrier-1.1.2");
  long stuck_synced;
  ck_assert_int_gt(check_every_combination(t, liveness_traces(t, 1), &stuck_synced), 0);
  ck_assert_int_gt(stuck_synced, 0);
}
END_TEST

/* Two CTAs of two threads, as the FAIL rows' liveness search (99450 fed
 * combinations, 513 with a stuck run and synchronisations: each must stay;
 * 33345 skipped). */
START_TEST(xf_barrier_two_by_two) {
  sc_test *t = corpus_kernel("xf-barrier-fail1");
  long stuck_synced;
  ck_assert_int_gt(check_every_combination(t, liveness_traces(t, 0), &stuck_synced), 0);
  ck_assert_int_gt(stuck_synced, 0);
}
END_TEST

/* A run of three events: a read of `value`, a barrier at `bar_pc` with
 * operand `bar_id`, a write; ending as `stuck` says. */
static sc_trace run_of(sc_trace_event *ev, int64_t value, int bar_pc, int64_t bar_id,
                       sc_stuck stuck) {
  memset(ev, 0, sizeof(sc_trace_event) * 3);
  ev[0] = (sc_trace_event){.kind = SC_EV_READ, .pc = 0, .value = value};
  ev[1] = (sc_trace_event){.kind = SC_EV_BARRIER, .pc = bar_pc, .nbar_ops = 1,
                           .bar_ops = {bar_id}};
  ev[2] = (sc_trace_event){.kind = SC_EV_WRITE, .pc = 5, .value = 1};
  return (sc_trace){.events = ev, .nevents = 3, .stuck = stuck};
}

/* What makes two runs of a thread one class: the values read and written
 * do not; a barrier's instruction, its operands and how the run ends do. */
START_TEST(same_runs_by_barriers_and_end) {
  sc_trace_event e1[3], e2[3];
  sc_trace a = run_of(e1, 0, 2, 0, SC_STUCK_NONE);
  sc_trace b = run_of(e2, 1, 2, 0, SC_STUCK_NONE);
  ck_assert(sci_barrier_same_runs(&a, &b)); /* another value read */
  b = run_of(e2, 0, 3, 0, SC_STUCK_NONE);
  ck_assert(!sci_barrier_same_runs(&a, &b)); /* another barrier instruction */
  b = run_of(e2, 0, 2, 1, SC_STUCK_NONE);
  ck_assert(!sci_barrier_same_runs(&a, &b)); /* another barrier group */
  b = run_of(e2, 0, 2, 0, SC_STUCK_SPIN);
  ck_assert(!sci_barrier_same_runs(&a, &b)); /* ends spinning */
  b = run_of(e2, 0, 2, 0, SC_STUCK_NONE);
  e2[1].kind = SC_EV_FENCE;
  ck_assert(!sci_barrier_same_runs(&a, &b)); /* no barrier there */
  b.nevents = 2;
  ck_assert(!sci_barrier_same_runs(&a, &b)); /* shorter */
}
END_TEST

/* Three CTAs of three threads, each meeting bar.sync 0 twice: orders of
 * arrival are tried CTA by CTA (barrier.c), 3 x 6!/2!^3 = 270 of them
 * and their one union (271 steps of the limit), not 18!/2!^9 (past any
 * limit); every one synchronises each phase's
 * three barriers pairwise, so the one syncbar holds 3 CTAs x 2 phases x
 * 3 x 3 pairs. */
START_TEST(ctas_ordered_apart) {
  const char *text =
      "PTX bars9\n{ x=0; }\n"
      " P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 0,gpu 0 | P3@cta 1,gpu 0 |"
      " P4@cta 1,gpu 0 | P5@cta 1,gpu 0 | P6@cta 2,gpu 0 | P7@cta 2,gpu 0 |"
      " P8@cta 2,gpu 0 ;\n"
      " bar.sync 0 | bar.sync 0 | bar.sync 0 | bar.sync 0 | bar.sync 0 |"
      " bar.sync 0 | bar.sync 0 | bar.sync 0 | bar.sync 0 ;\n"
      " bar.sync 0 | bar.sync 0 | bar.sync 0 | bar.sync 0 | bar.sync 0 |"
      " bar.sync 0 | bar.sync 0 | bar.sync 0 | bar.sync 0 ;\n"
      "exists (x=0)\n";
  sc_test *t = litmus_of(text);
  sc_thread_traces *all = traces_under(t, (sc_sem_limits){.unroll = 0});
  const sc_trace *chosen[9];
  for (int th = 0; th < 9; th++) {
    ck_assert_int_eq(all[th].ntraces, 1);
    chosen[th] = &all[th].traces[0];
  }
  sc_execution *x = sci_exec_new(t, chosen);
  sc_rel **syncs;
  int nsyncs;
  sc_error *err;
  ck_assert_msg(sci_barrier_syncs(x, NULL, 271, &syncs, &nsyncs, &err) == SC_OK, "%s",
                sc_error_message(err));
  ck_assert_int_eq(nsyncs, 1);
  ck_assert_int_eq(sci_rel_count(syncs[0]), 54);
  ck_assert_int_eq(sci_barrier_syncs(x, NULL, 270, &syncs, &nsyncs, &err), SC_ERR_LIMIT);
}
END_TEST

int main(void) {
  Suite *s = suite_create("barrier_classes");
  TCase *tc = tcase_create("deadlock");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, same_runs_by_barriers_and_end);
  tcase_add_test(tc, xf_barrier_one_cta);
  tcase_add_test(tc, xf_barrier_two_ctas);
  tcase_add_test(tc, xf_barrier_two_by_two);
  tcase_add_test(tc, ctas_ordered_apart);
  suite_add_tcase(s, tc);
  return sc_check_run(s);
}
