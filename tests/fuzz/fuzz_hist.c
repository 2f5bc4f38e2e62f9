/* fuzz_hist.c: libFuzzer harness for the histogram and log reader (litmus7
 * histograms, herd7 States blocks, the GPU litmus runner's logs, scopecat's
 * Hangs and Liveness lines; seeds: ptx/results, tests/data/malformed/logs).
 * Every block that loads is read through each accessor (its counts must
 * add up: the reader refuses what would overflow), matched against a
 * bundled test, added to a comparison (which refuses sums past a long:
 * its totals must then stay non-negative), and compared with itself as a
 * model's verdicts, which walks the comparison and both reports. */
#include "fuzz.h"

#ifndef SC_FUZZ_SRCDIR
#error "SC_FUZZ_SRCDIR must name the source tree"
#endif

static const sc_test *fuzz_candidate(void) {
  static sc_test *t;
  if (!t) {
    sc_error *err = NULL;
    if (sc_test_load_file(SC_FUZZ_SRCDIR "/ptx/results/titan/tests/IRIW_gl_cta.litmus",
                          NULL, &t, &err) != SC_OK &&
        sc_test_load_file(SC_FUZZ_SRCDIR "/ptx/seeds/sb.litmus", NULL, &t,
                          &err) != SC_OK)
      fuzz_fail("cannot load a bundled test", sc_error_message(err));
  }
  return t;
}

static void walk(const sc_hist *h) {
  (void)sc_hist_name(h);
  (void)sc_hist_file(h);
  (void)sc_hist_line(h);
  (void)sc_hist_has_counts(h);
  long sum = 0;
  for (int i = 0; i < sc_hist_state_count(h); i++) {
    if (!sc_hist_state(h, i))
      fuzz_fail("a state without text", sc_hist_name(h));
    long n = sc_hist_state_instances(h, i);
    if (n < 0 || sum > __LONG_MAX__ - n)
      fuzz_fail("state counts that do not add up within a long",
                sc_hist_name(h));
    sum += n;
    (void)sc_hist_state_marked(h, i);
  }
  if (sum != sc_hist_instances(h))
    fuzz_fail("instances other than the sum of the counts", sc_hist_name(h));
  if (sc_hist_hung_launches(h) < 0 || sc_hist_hung_instances(h) < 0 ||
      !(sc_hist_hang_limit(h) >= 0))
    fuzz_fail("negative hangs", sc_hist_name(h));
  int live = sc_hist_liveness(h);
  if (live < -1 || live > 1)
    fuzz_fail("a liveness verdict other than -1, 0 or 1", sc_hist_name(h));
  (void)sc_hist_condition(h);
  (void)sc_hist_device(h);
  (void)sc_hist_hash(h);
  (void)sc_hist_source(h);
}

/* Every sum a report prints stays within a long: the comparison refuses a
 * histogram that would take one past it. */
static void check_totals(const sc_compare *c) {
  long all = 0;
  for (int t = 0; t < sc_compare_test_count(c); t++) {
    if (sc_compare_test_hung_launches(c, t) < 0 ||
        sc_compare_test_hung_instances(c, t) < 0)
      fuzz_fail("a comparison's hangs wrapped", sc_compare_test_name(c, t));
    for (int i = 0; i < sc_compare_outcome_count(c, t); i++) {
      long n = sc_compare_outcome_instances(c, t, i, -1);
      if (n < 0 || all > __LONG_MAX__ - n)
        fuzz_fail("a comparison's counts add up past a long",
                  sc_compare_test_name(c, t));
      all += n;
    }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_text(data, size);
  sc_hist **blocks = NULL;
  int n = 0;
  sc_error *err = NULL;
  sc_status st = sc_hist_load_string(text, "fuzz.txt", &blocks, &n, &err);
  fuzz_check_failure(st, err);
  if (st == SC_OK) {
    const sc_test *cand = fuzz_candidate();
    sc_compare *c = sc_compare_new();
    for (int i = 0; i < n; i++) {
      walk(blocks[i]);
      const sc_test *found = NULL;
      st = sc_hist_find_test(blocks[i], &cand, 1, &found, &err);
      fuzz_check_failure(st, err);
      sc_compare_add_hist(c, "fuzz", blocks[i], st == SC_OK ? found : NULL);
      /* the same block again, as a second run: sums may now refuse */
      sc_compare_add_hist(c, "again", blocks[i], st == SC_OK ? found : NULL);
    }
    check_totals(c);
    int model = sc_compare_add_model(c, "self");
    sc_compare_set_verdicts(c, model, blocks, n);
    for (int t = 0; t < sc_compare_test_count(c); t++) {
      (void)sc_compare_test_name(c, t);
      (void)sc_compare_verdict(c, model, t);
      for (int i = 0; i < sc_compare_outcome_count(c, t); i++)
        (void)sc_compare_outcome_allowed(c, model, t, i);
    }
    (void)sc_compare_table(c, model, SC_REPORT_DETAIL);
    (void)sc_compare_html(c, "fuzz");
  }
  free(text);
  return 0;
}
