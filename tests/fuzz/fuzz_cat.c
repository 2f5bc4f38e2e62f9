/* fuzz_cat.c: libFuzzer harness for the cat language: the parser, the
 * include loader and the evaluator.  A model that loads is run on two small
 * tests, one per dialect (so that the GPU_PTX and the PTX base sets both
 * appear), within the limits of fuzz_sim_options.  Includes are searched in
 * the bundled cat/ folders (seeds: cat/, cat/corpus, tests/data). */
#include "fuzz.h"

#ifndef SC_FUZZ_SRCDIR
#error "SC_FUZZ_SRCDIR must name the source tree"
#endif

static const char *const fuzz_tests[] = {"ptx/seeds/sb.litmus",
                                         "ptx/modern/MP+rel.gpu+acq.gpu.litmus"};
#define NTESTS (int)(sizeof fuzz_tests / sizeof fuzz_tests[0])

static const sc_test *fuzz_test(int i) {
  static sc_test *tests[NTESTS];
  if (!tests[i]) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", SC_FUZZ_SRCDIR, fuzz_tests[i]);
    sc_error *err = NULL;
    if (sc_test_load_file(path, NULL, &tests[i], &err) != SC_OK)
      fuzz_fail("cannot load a bundled test", sc_error_message(err));
  }
  return tests[i];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char *const dirs[] = {SC_FUZZ_SRCDIR "/cat",
                                     SC_FUZZ_SRCDIR "/cat/corpus",
                                     SC_FUZZ_SRCDIR "/tests/data"};
  char *text = fuzz_text(data, size);
  sc_model *m = NULL;
  sc_error *err = NULL;
  sc_status st = sc_model_load_string(text, "fuzz.cat", dirs, 3, &m, &err);
  fuzz_check_failure(st, err);
  if (st == SC_OK) {
    (void)sc_model_title(m);
    m = fuzz_limited(m);
    for (int i = 0; i < NTESTS; i++) {
      sc_sim_options o = fuzz_sim_options();
      sc_result *r = NULL;
      st = sc_simulate(fuzz_test(i), m, &o, &r, &err);
      fuzz_check_failure(st, err);
      if (st == SC_OK) {
        (void)sc_result_log(r, SC_LOG_NOTIME);
        (void)sc_result_observation(r);
      }
    }
  }
  free(text);
  return 0;
}
