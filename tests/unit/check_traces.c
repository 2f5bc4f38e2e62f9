#define _POSIX_C_SOURCE 200809L
/* check_traces.c: unit tests of the combinations of traces (lib/sim/traces.c)
 * on corpus kernels (ptx/kernels/, their launch read from the header):
 * the odometer over fed combinations gives exactly the combinations a
 * plain walk over every combination keeps with sci_sim_reads_can_be_fed,
 * in the same order, so that replacing the walk changes no result; and
 * the value fixpoint's additions (sci_sim_feed_odometer_add_values) are
 * those of sci_values_add on every write, in the same order. */
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

/* From the initial values, over the traces `all`: a walk that adds every
 * write of every fed combination with sci_values_add, and the odometer's
 * add_values beside it, combination by combination; each grows the sets
 * at the same combinations, and the sets end the same, value by value in
 * the same order. */
static void same_additions(const sc_test *t, const sc_thread_traces *all) {
  int n = sc_test_thread_count(t);
  int plain[64] = {0}, fast[64] = {0};
  const sc_trace *chosen[64];
  sim_clock clock = {.file = "test"};
  sc_value_sets *plain_vs = sci_values_initial(t), *fast_vs = sci_values_initial(t);
  sim_feed_odometer *po = sci_sim_feed_odometer(t, all, &clock);
  sim_feed_odometer *fo = sci_sim_feed_odometer(t, all, &clock);
  sci_sim_feed_odometer_values(fo, fast_vs);
  bool more = sci_sim_first_fed_choice(po, plain);
  ck_assert(sci_sim_first_fed_choice(fo, fast) == more);
  for (long k = 0; more; k++) {
    ck_assert(memcmp(plain, fast, sizeof(int) * (size_t)n) == 0);
    sci_sim_choose(chosen, plain, all, n);
    bool grew = false;
    for (int a = 0; a < n; a++)
      for (int i = 0; i < chosen[a]->nevents; i++)
        if (chosen[a]->events[i].kind == SC_EV_WRITE)
          grew |= sci_values_add(plain_vs, chosen[a]->events[i].loc, chosen[a]->events[i].value);
    ck_assert_msg(sci_sim_feed_odometer_add_values(fo, fast) == grew,
                  "combination %ld: the sets grow one way only", k);
    more = sci_sim_next_fed_choice(po, plain);
    ck_assert(sci_sim_next_fed_choice(fo, fast) == more);
  }
  for (int l = 0; l < plain_vs->nlocs; l++) {
    ck_assert_int_eq(fast_vs->n[l], plain_vs->n[l]);
    for (int i = 0; i < plain_vs->n[l]; i++)
      ck_assert_msg(fast_vs->vals[l][i] == plain_vs->vals[l][i],
                    "location %d: value %d differs", l, i);
  }
}

START_TEST(ticketlock_additions) {
  sc_test *t = corpus_kernel("ticketlock-2.1.1");
  same_additions(t, traces_of(t, 3));
}
END_TEST

START_TEST(caslock_four_threads_additions) {
  sc_test *t = corpus_kernel("caslock-dv2wg-2.2.1");
  same_additions(t, traces_of(t, 3));
}
END_TEST

/* Worked by hand: P2 writes v = 1 then 2; P1 writes x = v where v is 1
 * or 2; P0 reading x = 1 writes y = 1 (trace Ta), reading x = 2 writes
 * y = 1 and z = 1 (trace Tb); P3 reads z.  The fixpoint's rounds: v's 1
 * and 2, then x's 1 and 2 (P1 reading them), then P0's runs Ta and Tb
 * both write the new y = 1, Tb the new z = 1 too.  Ta's one fed
 * combination (P1 writing x = 1) comes first in the odometer's order and
 * adds y = 1; Tb, whose one fed combination comes after it (P1 writing
 * x = 2), still lacks z = 1 and must add it: a count of what a trace
 * lacks that dropped Tb with y (or a walk that passed over its thread's
 * traces once Ta was seen) would never let P3 read z = 1. */
static const char *LATE_PAIR =
    "PTX late-pair\n"
    "{\nx=0; y=0; z=0; v=0;\n}\n"
    " P0@cta 0,gpu 0    | P1@cta 1,gpu 0    | P2@cta 2,gpu 0 | P3@cta 3,gpu 0 ;\n"
    " ld.weak r0, x     | ld.weak r0, v     | st.weak v, 1   | ld.weak r0, z  ;\n"
    " bne r0, 1, LC01   | bne r0, 1, LC11   | st.weak v, 2   |                ;\n"
    " st.weak y, 1      | st.weak x, 1      |                |                ;\n"
    " LC01:             | LC11:             |                |                ;\n"
    " bne r0, 2, LC02   | bne r0, 2, LC12   |                |                ;\n"
    " st.weak y, 1      | st.weak x, 2      |                |                ;\n"
    " st.weak z, 1      | LC12:             |                |                ;\n"
    " LC02:             |                   |                |                ;\n"
    "exists (P3:r0 == 1)\n";

static int loc_named(const sc_test *t, const char *name) {
  int l = sci_test_find_location(t, name);
  ck_assert_msg(l >= 0, "no location %s", name);
  return l;
}

START_TEST(late_pair_is_added) {
  sc_test *t = litmus_of(LATE_PAIR);
  sc_sem_limits lim = {.unroll = 2};
  /* the third round by itself: v and x hold 0, 1, 2 */
  sc_value_sets *vs = sci_values_initial(t);
  int v = loc_named(t, "v"), x = loc_named(t, "x"), y = loc_named(t, "y"),
      z = loc_named(t, "z");
  sci_values_add(vs, v, 1);
  sci_values_add(vs, v, 2);
  sci_values_add(vs, x, 1);
  sci_values_add(vs, x, 2);
  sc_thread_traces *all;
  sc_error *err = NULL;
  ck_assert(sci_sem_traces(t, &lim, vs, &all, &err) == SC_OK);
  ck_assert_int_eq(all[0].ntraces, 3); /* x = 0, Ta, Tb */
  sim_clock clock = {.file = "test"};
  sim_feed_odometer *o = sci_sim_feed_odometer(t, all, &clock);
  sci_sim_feed_odometer_values(o, vs);
  int pick[8];
  int grown = 0;
  for (bool more = sci_sim_first_fed_choice(o, pick); more;
       more = sci_sim_next_fed_choice(o, pick))
    grown += sci_sim_feed_odometer_add_values(o, pick);
  ck_assert_int_eq(grown, 2); /* Ta's combination, then Tb's */
  ck_assert_int_eq(vs->n[y], 2);
  ck_assert_int_eq(vs->n[z], 2);
  ck_assert(vs->vals[z][1] == 1);
  /* the whole fixpoint: P3 reads z = 0 or 1; and the walk's additions
   * are the plain walk's over its traces */
  sc_thread_traces *fixed = traces_under(t, lim);
  ck_assert_int_eq(fixed[3].ntraces, 2);
  same_additions(t, fixed);
}
END_TEST

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The value fixpoint with each round's question put to the solver
 * (sc_sem_limits.solve_rounds, sim/symbolic.c's sci_sym_fed_pairs) finds
 * the traces the walk over the fed combinations finds: the same runs per
 * thread (each told by its events' kinds, locations and values and how
 * it ends), whatever order the values came in. */
static char **run_names(const sc_thread_traces *tt) {
  char **names = calloc((size_t)tt->ntraces + 1, sizeof(char *));
  for (int i = 0; i < tt->ntraces; i++) {
    const sc_trace *tr = &tt->traces[i];
    size_t cap = 32 + 48 * (size_t)tr->nevents, len = 0;
    char *n = names[i] = malloc(cap);
    len += (size_t)snprintf(n + len, cap - len, "%d:", (int)tr->stuck);
    for (int e = 0; e < tr->nevents; e++)
      len += (size_t)snprintf(n + len, cap - len, " %d/%d=%lld", (int)tr->events[e].kind,
                              tr->events[e].loc, (long long)tr->events[e].value);
  }
  qsort(names, (size_t)tt->ntraces, sizeof(char *), by_name);
  return names;
}

static void same_runs(const sc_test *t, sc_sem_limits lim) {
  lim.solve_rounds = -1;
  sc_thread_traces *walked = traces_under(t, lim);
  lim.solve_rounds = 1;
  sc_thread_traces *solved = traces_under(t, lim);
  for (int th = 0; th < sc_test_thread_count(t); th++) {
    ck_assert_int_eq(walked[th].ntraces, solved[th].ntraces);
    ck_assert_int_eq(walked[th].ncut, solved[th].ncut);
    char **a = run_names(&walked[th]), **b = run_names(&solved[th]);
    for (int i = 0; i < walked[th].ntraces; i++) {
      ck_assert_str_eq(a[i], b[i]);
      free(a[i]);
      free(b[i]);
    }
    free(a);
    free(b);
  }
}

START_TEST(solved_rounds_agree) {
  if (!sc_engine_smt_available(NULL))
    return;
  /* a pair only the third round writes */
  same_runs(litmus_of(LATE_PAIR), (sc_sem_limits){.unroll = 2});
  /* four tickets drawn, none past them (a chain of five needs a fifth
   * thread: the counting the solver is given, fed_counting); and a CAS
   * lock's and a barrier's */
  sc_sem_limits kernel = {.repeat_cut = true, .repeat_at_once = true};
  const char *kernels[] = {"ticketlock-dv2wg-2.2.1", "caslock-dv2wg-2.2.1", "ttaslock-2.1.1",
                           "xf-barrier-2.1.2"};
  const int unrolls[] = {1, 3, 2, 1};
  for (int k = 0; k < 4; k++) {
    kernel.unroll = unrolls[k];
    same_runs(corpus_kernel(kernels[k]), kernel);
  }
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
  tcase_add_test(tc, ticketlock_additions);
  tcase_add_test(tc, caslock_four_threads_additions);
  tcase_add_test(tc, late_pair_is_added);
  tcase_add_test(tc, solved_rounds_agree);
  suite_add_tcase(s, tc);
  return sc_check_run(s);
}
