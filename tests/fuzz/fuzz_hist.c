/* fuzz_hist.c: libFuzzer harness for the histogram and log reader (litmus7
 * histograms, herd7 States blocks, the GPU litmus runner's logs; seeds:
 * ptx/results, tests/data/malformed/logs).  Every block that loads is read
 * through each accessor, matched against a bundled test, and compared
 * with itself as a model's verdicts, which walks the comparison and both
 * reports. */
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
  (void)sc_hist_instances(h);
  for (int i = 0; i < sc_hist_state_count(h); i++) {
    if (!sc_hist_state(h, i))
      fuzz_fail("a state without text", sc_hist_name(h));
    (void)sc_hist_state_instances(h, i);
    (void)sc_hist_state_marked(h, i);
  }
  (void)sc_hist_condition(h);
  (void)sc_hist_device(h);
  (void)sc_hist_hash(h);
  (void)sc_hist_source(h);
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
    }
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
