#define _POSIX_C_SOURCE 200809L
/* check_traces.c: unit tests of the combinations of traces (lib/sim/traces.c)
 * on corpus kernels (ptx/kernels/, their launch read from the header):
 * the odometer over fed combinations gives exactly the combinations a
 * plain walk over every combination keeps with sci_sim_reads_can_be_fed,
 * in the same order, so that replacing the walk changes no result. */
#include "sim/sem.h"
#include "sim/traces.h"
#include "scopecat.h"

#include <check.h>

#include "check_corpus_kernel.h"
#include "check_run.h"
#include "check_traces_of.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The traces of t under `unroll`, cut at a spin's first repeat as a
 * kernel's run is. */
static sc_thread_traces *traces_of(const sc_test *t, int unroll) {
  sc_sem_limits lim = {.unroll = unroll, .repeat_cut = true, .repeat_at_once = true};
  return traces_under(t, lim);
}

/* Each combination the odometer gives is the next one the plain walk
 * keeps; none is left over on either side.  Returns how many. */
static long same_combinations(const sc_test *t, const sc_thread_traces *all) {
  int n = sc_test_thread_count(t);
  int plain[64] = {0}, fed[64] = {0};
  const sc_trace *chosen[64];
  sim_clock clock = {.file = "test"};
  sim_feed_odometer *o = sci_sim_feed_odometer(t, all, &clock);
  bool more_fed = sci_sim_first_fed_choice(o, fed), more_plain = true;
  long kept = 0;
  do {
    sci_sim_choose(chosen, plain, all, n);
    if (!sci_sim_reads_can_be_fed(t, chosen))
      continue;
    ck_assert_msg(more_fed, "the odometer stopped before fed combination %ld", kept);
    for (int th = 0; th < n; th++)
      ck_assert_msg(fed[th] == plain[th], "combination %ld: thread %d takes trace %d, "
                    "not %d", kept, th, fed[th], plain[th]);
    kept++;
    more_fed = sci_sim_next_fed_choice(o, fed);
  } while ((more_plain = sci_sim_next_choice(plain, all, n)));
  ck_assert_msg(!more_fed, "the odometer gives a combination past the last fed one");
  return kept;
}

/* ttaslock's exchange reads the lock and writes 1: a trace whose exchange
 * reads 1 must find that 1 in another thread's write, never its own. */
START_TEST(ttaslock_fed_combinations) {
  sc_test *t = corpus_kernel("ttaslock-2.1.1");
  sc_thread_traces *all = traces_of(t, 2);
  ck_assert_int_gt(same_combinations(t, all), 0);
}
END_TEST

/* Four threads of a CAS lock: failed attempts read the lock's 1. */
START_TEST(caslock_four_threads_fed_combinations) {
  sc_test *t = corpus_kernel("caslock-dv2wg-2.2.1");
  ck_assert_int_gt(same_combinations(t, traces_of(t, 3)), 0);
}
END_TEST

/* Tickets drawn by fetch-and-add: reads of next and owner that only
 * another thread's increment gives. */
START_TEST(ticketlock_fed_combinations) {
  sc_test *t = corpus_kernel("ticketlock-2.1.1");
  ck_assert_int_gt(same_combinations(t, traces_of(t, 3)), 0);
}
END_TEST

/* Barriers and reads of every thread's input after them. */
START_TEST(xf_barrier_fed_combinations) {
  sc_test *t = corpus_kernel("xf-barrier-2.1.1");
  ck_assert_int_gt(same_combinations(t, traces_of(t, 3)), 0);
}
END_TEST

int main(void) {
  Suite *s = suite_create("traces");
  TCase *tc = tcase_create("fed");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, ttaslock_fed_combinations);
  tcase_add_test(tc, caslock_four_threads_fed_combinations);
  tcase_add_test(tc, ticketlock_fed_combinations);
  tcase_add_test(tc, xf_barrier_fed_combinations);
  suite_add_tcase(s, tc);
  return sc_check_run(s);
}
