/* check_simulate.h: a test's text and a model's text through sc_simulate,
 * for the suites that check results; a load or simulation error fails the
 * check with its message. */
#ifndef SC_CHECK_SIMULATE_H
#define SC_CHECK_SIMULATE_H

#include "scopecat.h"

#include <check.h>

static inline sc_result *sc_check_simulate(const char *test, const char *model,
                                           const sc_sim_options *o) {
  sc_test *t;
  sc_model *m;
  sc_result *r;
  sc_error *err;
  ck_assert_msg(sc_test_load_string(test, "t.litmus", NULL, &t, &err) == SC_OK,
                "%s", sc_error_message(err));
  ck_assert_msg(sc_model_load_string(model, "m.cat", NULL, 0, &m, &err) == SC_OK,
                "%s", sc_error_message(err));
  ck_assert_msg(sc_simulate(t, m, o, &r, &err) == SC_OK, "%s", sc_error_message(err));
  return r;
}

#endif
