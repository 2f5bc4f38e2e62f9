/* fuzz.h: what the libFuzzer harnesses of tests/fuzz/ share.  Each harness
 * feeds one input format to the public API from a memory buffer and checks
 * the contract every failure must keep: a status that is not SC_OK comes
 * with an error whose message is "file:line:col: ..." text; anything else
 * aborts, so that libFuzzer records the input as a crash. */
#ifndef SC_FUZZ_H
#define SC_FUZZ_H

#include <scopecat.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The input as a C string: the API reads text, and a NUL ends it. */
static inline char *fuzz_text(const uint8_t *data, size_t size) {
  char *s = malloc(size + 1);
  if (!s)
    abort();
  memcpy(s, data, size);
  s[size] = '\0';
  return s;
}

/* A failed call must say why, in a message naming the input. */
static inline void fuzz_check_failure(sc_status st, const sc_error *err) {
  if (st == SC_OK)
    return;
  const char *msg = err ? sc_error_message(err) : NULL;
  if (!err || sc_error_status(err) != st || !msg || !*msg) {
    fprintf(stderr, "fuzz: status %s without a matching error\n",
            sc_status_string(st));
    abort();
  }
}

/* A property the input broke: print it and crash on purpose. */
static inline void fuzz_fail(const char *what, const char *detail) {
  fprintf(stderr, "fuzz: %s\n%s\n", what, detail ? detail : "");
  abort();
}

/* Simulation options small enough that one input takes well under a second
 * and any runaway is stopped by a limit, not by libFuzzer's -timeout. */
static inline sc_sim_options fuzz_sim_options(void) {
  sc_sim_options o;
  memset(&o, 0, sizeof o);
  o.max_executions = 500;
  o.timeout = 0.5;
  o.unroll = -1;
  o.show = SC_SHOW_COND;
  o.max_shown = 2;
  return o;
}

/* The model under the same time limit for one execution. */
static inline sc_model *fuzz_limited(const sc_model *m) {
  sc_model_limits lim;
  memset(&lim, 0, sizeof lim);
  lim.timeout = 0.5;
  sc_model *out = NULL;
  sc_error *err = NULL;
  if (sc_model_with_limits(m, &lim, &out, &err) != SC_OK)
    fuzz_fail("sc_model_with_limits failed", sc_error_message(err));
  return out;
}

#endif /* SC_FUZZ_H */
