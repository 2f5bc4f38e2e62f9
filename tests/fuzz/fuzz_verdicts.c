/* fuzz_verdicts.c: libFuzzer harness for herd7 logs read as a model's
 * verdicts (`compare -verdicts`, `merge`): herd7's and `scopecat sim`'s
 * States blocks with their trailers, Hash= and Liveness lines (seeds:
 * tests/fuzz/seeds/verdicts, scopecat sim's output).  A log that loads
 * gives the verdicts of a model on a fixed comparison (bundled hardware
 * logs of MP+membar.gls and of PC-bar-sync-sync-3, whose launch hung),
 * which is classified and printed; each state of the log must read back
 * through the reader as the canonical text it is. */
#include "fuzz.h"

#ifndef SC_FUZZ_SRCDIR
#error "SC_FUZZ_SRCDIR must name the source tree"
#endif

/* The hardware side: a bundled log and its test, read once. */
typedef struct hardware {
  const sc_hist *log;
  const sc_test *test;
} hardware;

static hardware load_pair(const char *log, const char *test) {
  char path[4096];
  sc_hist **blocks;
  int n;
  sc_test *t;
  sc_error *err = NULL;
  snprintf(path, sizeof path, "%s%s", SC_FUZZ_SRCDIR, test);
  if (sc_test_load_file(path, NULL, &t, &err) != SC_OK)
    fuzz_fail("cannot load a bundled test", sc_error_message(err));
  snprintf(path, sizeof path, "%s%s", SC_FUZZ_SRCDIR, log);
  if (sc_hist_load_file(path, &blocks, &n, &err) != SC_OK || n != 1)
    fuzz_fail("cannot load a bundled log", err ? sc_error_message(err) : path);
  return (hardware){blocks[0], t};
}

/* A fresh comparison of the hardware logs (one per input, so that inputs
 * do not pile up models). */
static sc_compare *fuzz_hardware(void) {
  static hardware hw[2];
  if (!hw[0].log) {
    hw[0] = load_pair("/ptx/results/H100/mp+membar.gls.txt",
                      "/ptx/herd-gpu-ptx/mp+membar.gls.litmus");
    hw[1] = load_pair("/ptx/results/H100-dat3m-barrier/PC-bar-sync-sync-3.txt",
                      "/ptx/dat3m/Manual/PC-bar-sync-sync-3.litmus");
  }
  sc_compare *c = sc_compare_new();
  for (int k = 0; k < 2; k++)
    if (sc_compare_add_hist(c, "hw", hw[k].log, hw[k].test) < 0)
      fuzz_fail("a bundled log does not add", sc_hist_file(hw[k].log));
  return c;
}

/* A state's canonical text is a state: it reads back to itself. */
static void check_state(const sc_hist *h, int i) {
  const char *state = sc_hist_state(h, i);
  if (!state)
    fuzz_fail("a state without text", sc_hist_name(h));
  size_t len = strlen(state) + 64;
  char *again = malloc(len);
  if (!again)
    abort();
  snprintf(again, len, "Test T Allowed\nStates 1\n%s\nOk\n", state);
  sc_hist **blocks;
  int n;
  sc_error *err = NULL;
  if (sc_hist_load_string(again, "again.txt", &blocks, &n, &err) != SC_OK ||
      n != 1 || strcmp(sc_hist_state(blocks[0], 0), state) != 0)
    fuzz_fail("a canonical state does not read back as itself", state);
  free(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_text(data, size);
  sc_hist **blocks = NULL;
  int n = 0;
  sc_error *err = NULL;
  sc_status st = sc_hist_load_string(text, "fuzz.log", &blocks, &n, &err);
  fuzz_check_failure(st, err);
  if (st == SC_OK) {
    for (int b = 0; b < n; b++)
      for (int i = 0; i < sc_hist_state_count(blocks[b]); i++)
        check_state(blocks[b], i);
    sc_compare *c = fuzz_hardware();
    int model = sc_compare_add_model(c, "fuzz");
    sc_compare_set_verdicts(c, model, blocks, n);
    for (int t = 0; t < sc_compare_test_count(c); t++) {
      (void)sc_compare_verdict(c, model, t);
      (void)sc_compare_failure(c, model, t);
      (void)sc_compare_liveness(c, model, t);
      for (int i = 0; i < sc_compare_outcome_count(c, t); i++)
        (void)sc_compare_outcome_allowed(c, model, t, i);
      for (int i = 0; i < sc_compare_unseen_count(c, model, t); i++)
        if (!sc_compare_unseen(c, model, t, i))
          fuzz_fail("an unseen state without text", sc_compare_test_name(c, t));
    }
    (void)sc_compare_table(c, model, SC_REPORT_DETAIL);
    (void)sc_compare_html(c, "fuzz");
  }
  free(text);
  return 0;
}
