/* check_litmus_of.h: a litmus test loaded from a string, failing the test
 * on an error: what the suites that write their tests inline each need
 * (check_sem, check_gpu, check_report, check_prepared, check_sym_scope). */
#ifndef CHECK_LITMUS_OF_H
#define CHECK_LITMUS_OF_H

#include "scopecat.h"

#include <check.h>

static inline sc_test *litmus_of(const char *text) {
  sc_test *t;
  sc_error *err;
  ck_assert_msg(sc_test_load_string(text, "t.litmus", NULL, &t, &err) == SC_OK, "%s",
                sc_error_message(err));
  return t;
}

#endif
