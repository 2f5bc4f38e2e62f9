/* fuzz_run.c: libFuzzer harness for the simulator's run stage (seeds: the
 * litmus seeds, Dat3M's tests, tests/data/limits).  A mutated test that
 * parses is simulated under its default model with each engine (enum, smt
 * when this build has Z3, auto), with and without -liveness, under a small
 * deadline and budget, and each run must keep the contract of the limits:
 * a status that is not SC_OK comes with a matching error (fuzz.h); SC_OK
 * comes with a result whose counts are not negative; every run ends within
 * a few times its deadline (each loop of the simulator looks at it); and
 * where two engines both answer, they agree on the condition's verdict and
 * on the liveness verdict (tests/sh/engines.sh's property). */
#define _POSIX_C_SOURCE 200809L
#include "fuzz_litmus.h"

#include <stdbool.h>
#include <time.h>

/* The deadline of one run, and how far past it a run may end: the checks
 * are spaced (every 256 steps), and a sanitizer build is slow.  The time
 * taken is the process's CPU time: a loop that never looks at the clock
 * burns it, while a fuzzer niced on a busy machine may wait seconds of
 * wall time for a processor (three such waits stopped a 30-minute run). */
#define RUN_SECONDS 0.2
#define RUN_MOST_SECONDS 3.0

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One run: its status, and the result when it is SC_OK. */
static sc_status run_once(const sc_test *t, sc_engine e, int liveness, sc_result **r) {
  sc_sim_options o = fuzz_sim_options();
  o.engine = e;
  o.liveness = liveness;
  o.timeout = RUN_SECONDS;
  o.show = SC_SHOW_NONE; /* the symbolic engine draws nothing */
  sc_error *err = NULL;
  *r = NULL;
  double start = now();
  sc_status st = sc_simulate(t, fuzz_default_model(sc_test_default_model(t)), &o, r, &err);
  double took = now() - start;
  fuzz_check_failure(st, err);
  if (took > RUN_MOST_SECONDS) {
    char why[128];
    snprintf(why, sizeof why, "engine %d, liveness %d: %.2f s under a %.2f s deadline",
             (int)e, liveness, took, RUN_SECONDS);
    fuzz_fail("a run ended long past its deadline", why);
  }
  if (st != SC_OK) {
    if (*r)
      fuzz_fail("a failed run with a result", sc_error_message(err));
    return st;
  }
  if (!*r)
    fuzz_fail("SC_OK without a result", NULL);
  if (sc_result_positive(*r) < 0 || sc_result_negative(*r) < 0 ||
      sc_result_candidates(*r) < 0 || sc_result_state_count(*r) < 0)
    fuzz_fail("negative counts", sc_result_log(*r, SC_LOG_NOTIME));
  int live = sc_result_liveness(*r);
  if (liveness ? live != 0 && live != 1 : live != -1)
    fuzz_fail("a liveness verdict that does not match the question",
              sc_result_log(*r, SC_LOG_NOTIME));
  (void)sc_result_log(*r, SC_LOG_NOTIME);
  return SC_OK;
}

/* Two answers to one question must agree. */
static void agree(const sc_result *a, const sc_result *b, int liveness) {
  if (!a || !b)
    return;
  bool same = liveness ? sc_result_liveness(a) == sc_result_liveness(b)
                       : sc_result_validated(a) == sc_result_validated(b);
  if (!same) {
    const char *la = sc_result_log(a, SC_LOG_NOTIME), *lb = sc_result_log(b, SC_LOG_NOTIME);
    size_t n = strlen(la) + strlen(lb) + 16;
    char *both = malloc(n);
    if (!both)
      abort();
    snprintf(both, n, "%s\n----\n%s", la, lb);
    fuzz_fail("two engines disagree", both);
  }
}

static void run_every_engine(const sc_test *t) {
  const char *why;
  bool smt = sc_engine_smt_available(&why);
  for (int liveness = 0; liveness < 2; liveness++) {
    sc_result *en, *sm = NULL, *au;
    run_once(t, SC_ENGINE_ENUM, liveness, &en);
    if (smt)
      run_once(t, SC_ENGINE_SMT, liveness, &sm);
    run_once(t, SC_ENGINE_AUTO, liveness, &au);
    agree(en, sm, liveness);
    agree(en, au, liveness);
    agree(sm, au, liveness);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_text(data, size);
  sc_parse_limits lim = {1 << 16, 8, 32, 0};
  sc_test *t = NULL;
  sc_error *err = NULL;
  sc_status st = sc_test_load_string(text, "fuzz.litmus", &lim, &t, &err);
  fuzz_check_failure(st, err);
  if (st == SC_OK)
    run_every_engine(t);
  free(text);
  return 0;
}
