/* check_traces_of.h: a test's traces under given limits, failing the test
 * on an error: what check_traces, check_prepared and check_barrier_classes
 * each need, under their own limits. */
#ifndef CHECK_TRACES_OF_H
#define CHECK_TRACES_OF_H

#include "sim/traces.h"

#include <check.h>

static inline sc_thread_traces *traces_under(const sc_test *t, sc_sem_limits lim) {
  sim_clock clock = {.file = "test"};
  sc_thread_traces *all;
  sc_error *err;
  ck_assert_msg(sci_sim_find_traces(t, &lim, &clock, &all, &err) == SC_OK, "%s",
                sc_error_message(err));
  return all;
}

#endif
