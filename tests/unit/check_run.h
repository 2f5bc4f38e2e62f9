/* check_run.h: what the main of every Check suite ends with: run the
 * suite (CK_VERBOSITY picks the output, through CK_ENV) and turn its
 * failures into the exit status.  Always 1 on failure, never a count of
 * failures: automake reads 77 as SKIP and 99 as a hard error. */
#ifndef SC_CHECK_RUN_H
#define SC_CHECK_RUN_H

#include <check.h>
#include <stdlib.h>

static inline int sc_check_run(Suite *s) {
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_ENV);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
