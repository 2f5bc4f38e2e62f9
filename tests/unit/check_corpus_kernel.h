/* check_corpus_kernel.h: a corpus kernel (ptx/kernels/NAME.ptx) loaded as
 * `scopecat kernel` loads it, its launch read from its header, failing the
 * test when it does not load: what check_traces and check_barrier_classes
 * each need. */
#ifndef CHECK_CORPUS_KERNEL_H
#define CHECK_CORPUS_KERNEL_H

#include "scopecat.h"

#include <check.h>

#include "check_srcdir.h"
#include <stdio.h>
#include <stdlib.h>

static inline sc_test *corpus_kernel(const char *name) {
  char rel[256];
  snprintf(rel, sizeof rel, "ptx/kernels/%s.ptx", name);
  char *path = srcdir_path(rel); /* kept, as the text: the launch and the test may
                                  * point into them */
  char *text = file_text(path);
  sc_kernel_launch l;
  const char *cond;
  int line, col;
  sc_error *err;
  ck_assert_msg(sc_kernel_parse_header(text, path, NULL, &l, &cond, &line, &col, &err) ==
                    SC_OK, "%s", sc_error_message(err));
  sc_test *t;
  ck_assert_msg(sc_kernel_load_string(text, path, &l, NULL, &t, &err) == SC_OK, "%s",
                sc_error_message(err));
  return t;
}

#endif
