/* check_kernel_launch.c: unit tests of a kernel's launch header and its
 * @Output condition (lib/kernel/launch.c): headers read into launches
 * field by field, -input and -config over them, malformed lines with the
 * exact file:line:col and message each must give, and @Output conditions
 * (relational comparisons included) judged by sc_simulate on tests whose
 * final states are worked out by hand. */
#include "kernel/kernel.h"
#include "litmus/litmus.h"

#include <check.h>

#include "check_run.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static sc_kernel_launch header_ok(const char *text, const char **cond, int *line,
                                  int *col) {
  sc_kernel_launch l;
  sc_error *err = NULL;
  sc_status st = sc_kernel_parse_header(text, "k.cu", NULL, &l, cond, line, col,
                                        &err);
  ck_assert_msg(st == SC_OK, "header refused: %s", sc_error_message(err));
  return l;
}

/* The message of the header's error, and its status in *status. */
static const char *header_error(const char *text, const sc_parse_limits *limits,
                                sc_status *status) {
  sc_kernel_launch l;
  sc_error *err = NULL;
  const char *cond;
  int line, col;
  sc_status st = sc_kernel_parse_header(text, "k.cu", limits, &l, &cond, &line,
                                        &col, &err);
  ck_assert_msg(st != SC_OK, "header accepted: %s", text);
  ck_assert_int_eq(st, sc_error_status(err));
  if (status)
    *status = st;
  return sc_error_message(err);
}

/* ---- Headers read -------------------------------------------------------- */

START_TEST(header_fields) {
  const char *text =
      "#include <cuda/atomic>\n"
      "// @Input: lock = {0}, A = {-1, 0x10}, n = -4\n"
      "   //  @Output: forall (A[0] == -1 or A[1] != A[0])  \n"
      "// @Config: 2, 1, 3\n"
      "// @Params: lock, A, n\n"
      "/** @param lock the lock word (a doc comment, no header line) */\n"
      "__global__ void k(int *lock, int *A, int n) {}\n";
  const char *cond;
  int line, col;
  sc_kernel_launch l = header_ok(text, &cond, &line, &col);
  ck_assert_str_eq(l.header_file, "k.cu");
  ck_assert_ptr_null(l.entry);
  ck_assert_int_eq(l.threads_per_warp, 2);
  ck_assert_int_eq(l.warps_per_cta, 1);
  ck_assert_int_eq(l.ctas, 3);
  ck_assert_int_eq(l.ninputs, 3);
  ck_assert_str_eq(l.inputs[0].param, "lock");
  ck_assert_int_eq(l.inputs[0].is_array, 1);
  ck_assert_int_eq(l.inputs[0].nvalues, 1);
  ck_assert_int_eq(l.inputs[0].values[0], 0);
  ck_assert_int_eq(l.inputs[0].line, 2);
  ck_assert_int_eq(l.inputs[0].col, 12);
  ck_assert_str_eq(l.inputs[1].param, "A");
  ck_assert_int_eq(l.inputs[1].nvalues, 2);
  ck_assert_int_eq(l.inputs[1].values[0], -1);
  ck_assert_int_eq(l.inputs[1].values[1], 16);
  ck_assert_int_eq(l.inputs[1].col, 24);
  ck_assert_str_eq(l.inputs[2].param, "n");
  ck_assert_int_eq(l.inputs[2].is_array, 0);
  ck_assert_int_eq(l.inputs[2].values[0], -4);
  ck_assert_str_eq(cond, "forall (A[0] == -1 or A[1] != A[0])");
  ck_assert_int_eq(line, 3);
  ck_assert_int_eq(col, 17);
  ck_assert_int_eq(l.nparam_names, 3);
  ck_assert_str_eq(l.param_names[1], "A");
}
END_TEST

/* Scalars @Config names are launch parameters (is_config), not data;
 * -input keeps the mark of a parameter it gives again, -config sets the
 * marks anew. */
START_TEST(header_launch_parameters) {
  sc_kernel_launch l = header_ok("// @Config: 2, 1, 1, n\n"
                                 "// @Input: A = {0, 0}, n = 2, m = 3\n",
                                 NULL, NULL, NULL);
  ck_assert_int_eq(l.inputs[0].is_config, 0);
  ck_assert_int_eq(l.inputs[1].is_config, 1);
  ck_assert_int_eq(l.inputs[2].is_config, 0);
  sc_error *err = NULL;
  ck_assert_int_eq(sc_kernel_launch_override(&l, "input", "n = 1", NULL, &err), SC_OK);
  ck_assert_int_eq(l.inputs[1].is_config, 1);
  ck_assert_int_eq(sc_kernel_launch_override(&l, "config", "2, 1, 1, m", NULL, &err),
                   SC_OK);
  ck_assert_int_eq(l.inputs[1].is_config, 0);
  ck_assert_int_eq(l.inputs[2].is_config, 1);
  ck_assert_int_ne(sc_kernel_launch_override(&l, "config", "2,1,1, A", NULL, &err),
                   SC_OK);
  ck_assert_str_eq(sc_error_message(err), "-config:1:8: expected a scalar "
                   "parameter that @Input gives a value (a launch parameter), "
                   "found A (an array: its contents are data)");
  ck_assert_int_eq(l.inputs[2].is_config, 1);
}
END_TEST

START_TEST(header_inputs_add_up) {
  const char *cond = "x";
  int line = 9, col = 9;
  sc_kernel_launch l = header_ok("// @Input: a = {1}\n"
                                 "int x; // not a header line: @Input: b = 2\n"
                                 "// @Input: b = 2\n",
                                 &cond, &line, &col);
  ck_assert_int_eq(l.ninputs, 2);
  ck_assert_str_eq(l.inputs[1].param, "b");
  ck_assert_int_eq(l.inputs[1].line, 3);
  /* no @Output, no @Config: said as such, for the caller to decide */
  ck_assert_ptr_null(cond);
  ck_assert_int_eq(line, 0);
  ck_assert_int_eq(l.threads_per_warp, 0);
  ck_assert_ptr_null(l.param_names);
  /* the extremes of 64 bits */
  l = header_ok("// @Input: m = {-9223372036854775808, 9223372036854775807}",
                NULL, NULL, NULL);
  ck_assert(l.inputs[0].values[0] == -9223372036854775807LL - 1);
  ck_assert(l.inputs[0].values[1] == 9223372036854775807LL);
}
END_TEST

/* ---- Malformed headers: position and message ---------------------------- */

static void assert_header_error(const char *text, const char *message) {
  ck_assert_str_eq(header_error(text, NULL, NULL), message);
}

START_TEST(header_errors) {
  assert_header_error("// @Input: A = {1, 2\n",
                      "k.cu:1:21: expected ',' or '}' closing the array, found "
                      "the end of the line");
  assert_header_error("x\n// @Input: = {1}\n",
                      "k.cu:2:12: expected a parameter name (name = {v, ...} "
                      "or name = v), found '='");
  assert_header_error("// @Input: A {1}\n",
                      "k.cu:1:14: expected '=' after the parameter's name, "
                      "found '{'");
  assert_header_error("// @Input: A = {}\n",
                      "k.cu:1:17: expected an integer (an array holds at least "
                      "one element), found '}'");
  assert_header_error("// @Input: A = {1, x}\n",
                      "k.cu:1:20: expected an integer (an element's initial "
                      "value), found 'x'");
  assert_header_error("// @Input: A = 12ab\n",
                      "k.cu:1:18: expected a digit or the integer's end, found "
                      "'ab'");
  assert_header_error("// @Input: A = {1} B = {2}\n",
                      "k.cu:1:20: expected ',' and another parameter, or the "
                      "end of the line, found 'B'");
  assert_header_error("// @Input: A = {1}\n// @Input: n = 2, A = {3}\n",
                      "k.cu:2:19: expected each parameter once in the @Input "
                      "lines, found A again (first given at k.cu:1:12)");
  assert_header_error("// @Output: forall (true)\n\n// @Output: exists (true)\n",
                      "k.cu:3:4: expected one @Output line, found a second "
                      "(the first is line 1)");
  assert_header_error("// @Config: 1, 1, 1\n// @Config: 2, 1, 1\n",
                      "k.cu:2:4: expected one @Config line, found a second "
                      "(the first is line 1)");
  assert_header_error("// @Ouput: forall (true)\n",
                      "k.cu:1:4: expected @Input, @Output, @Config or @Params, "
                      "found @Ouput");
  assert_header_error("// @Output:   \n",
                      "k.cu:1:15: expected a condition (forall (...) or exists "
                      "(...)), found the end of the line");
  assert_header_error("// @Config: 2, 1\n",
                      "k.cu:1:17: expected ',' and the number of CTAs, found "
                      "the end of the line");
  assert_header_error("// @Config: 2, 1, 1, 1\n",
                      "k.cu:1:22: expected a scalar parameter's name (a launch "
                      "parameter, as a size: not data), found '1'");
  assert_header_error("// @Config: 2, 1, 1 n\n",
                      "k.cu:1:21: expected ',' and a launch parameter's name, "
                      "or the end of the line, found 'n'");
  assert_header_error("// @Input: A = {1}\n// @Config: 2, 1, 1, A\n",
                      "k.cu:2:22: expected a scalar parameter that @Input "
                      "gives a value (a launch parameter), found A (an array: "
                      "its contents are data)");
  assert_header_error("// @Config: 2, 1, 1, n\n",
                      "k.cu:1:22: expected a scalar parameter that @Input "
                      "gives a value (a launch parameter), found n (no @Input "
                      "names it)");
  assert_header_error("// @Config: 0, 1, 1\n",
                      "k.cu:1:13: expected a number of threads per warp (at "
                      "least 1), found 0");
  assert_header_error("// @Params: a, b, a\n",
                      "k.cu:1:19: expected each parameter once in @Params, "
                      "found a again");
}
END_TEST

/* Sizes past what a warp, a CTA or the limits hold are refused as limits,
 * with the limit named. */
START_TEST(header_absurd_sizes) {
  sc_status st;
  ck_assert_str_eq(header_error("// @Config: 64, 1, 1\n", NULL, &st),
                   "k.cu:1:13: expected a number of threads per warp of at "
                   "most 32 (a warp's size), found 64");
  ck_assert_int_eq(st, SC_ERR_LIMIT);
  ck_assert_str_eq(header_error("// @Config: 32, 33, 1\n", NULL, &st),
                   "k.cu:1:17: expected a number of warps per CTA of at most "
                   "32 (a CTA holds at most 1024 threads), found 33");
  ck_assert_str_eq(header_error("// @Config: 32, 32, 1\n", NULL, &st),
                   "k.cu:1:13: expected a grid of at most 256 threads (the "
                   "-max-threads limit), found 32 x 32 x 1 = 1024");
  ck_assert_int_eq(st, SC_ERR_LIMIT);
  ck_assert_str_eq(header_error("// @Config: 1, 1, 99999999999999999999\n", NULL,
                                &st),
                   "k.cu:1:19: expected a number of CTAs in 64 bits (from "
                   "-9223372036854775808 to 9223372036854775807), found "
                   "99999999999999999999");
  ck_assert_int_eq(st, SC_ERR_LIMIT);
  sc_parse_limits lim = {.max_threads = 4, .max_events = 3};
  ck_assert_str_eq(header_error("// @Config: 2, 1, 3\n", &lim, &st),
                   "k.cu:1:13: expected a grid of at most 4 threads (the "
                   "-max-threads limit), found 2 x 1 x 3 = 6");
  ck_assert_str_eq(header_error("// @Input: a = {1, 2}, b = {3, 4}\n", &lim, &st),
                   "k.cu:1:32: expected at most 3 array elements in all the "
                   "kernel's inputs (the -max-events limit: each element is a "
                   "location, its initial write an event), found more");
  ck_assert_int_eq(st, SC_ERR_LIMIT);
  /* at the limit: taken */
  sc_kernel_launch l;
  sc_error *err;
  ck_assert_int_eq(sc_kernel_parse_header("// @Input: a = {1, 2}, b = {3}\n"
                                          "// @Config: 2, 1, 2\n",
                                          "k.cu", &lim, &l, NULL, NULL, NULL, &err),
                   SC_OK);
}
END_TEST

/* ---- -input and -config -------------------------------------------------- */

START_TEST(override_options) {
  sc_kernel_launch l = header_ok("// @Input: A = {1, 2}, n = 3\n// @Config: 1, 1, 2\n",
                                 NULL, NULL, NULL);
  sc_error *err = NULL;
  ck_assert_int_eq(sc_kernel_launch_override(&l, "input", "A = {7}, m = 1", NULL,
                                             &err), SC_OK);
  ck_assert_int_eq(l.ninputs, 3);
  ck_assert_str_eq(l.inputs[0].param, "A");
  ck_assert_int_eq(l.inputs[0].nvalues, 1);
  ck_assert_int_eq(l.inputs[0].values[0], 7);
  ck_assert_str_eq(l.inputs[1].param, "n");
  ck_assert_str_eq(l.inputs[2].param, "m");
  ck_assert_int_eq(sc_kernel_launch_override(&l, "config", "4, 2, 1", NULL, &err),
                   SC_OK);
  ck_assert_int_eq(l.threads_per_warp * l.warps_per_cta * l.ctas, 8);
  /* a value refused leaves the launch as it was */
  ck_assert_int_ne(sc_kernel_launch_override(&l, "input", "n = {1, q}", NULL, &err),
                   SC_OK);
  ck_assert_str_eq(sc_error_message(err), "-input:1:9: expected an integer (an "
                   "element's initial value), found 'q'");
  ck_assert_int_eq(l.ninputs, 3);
  ck_assert_int_eq(l.inputs[1].is_array, 0);
  ck_assert_int_ne(sc_kernel_launch_override(&l, "config", "1 1 1", NULL, &err),
                   SC_OK);
  ck_assert_str_eq(sc_error_message(err), "-config:1:3: expected ',' and the "
                   "number of warps per CTA, found '1'");
  ck_assert_int_eq(l.threads_per_warp, 4);
  /* a value over several lines (joined @Input lines): positions follow */
  ck_assert_int_eq(sc_kernel_launch_override(&l, "input", "n = 5,\n  m = {2}", NULL,
                                             &err), SC_OK);
  ck_assert_int_eq(l.inputs[2].values[0], 2);
  ck_assert_int_eq(l.inputs[2].line, 2);
  ck_assert_int_eq(l.inputs[2].col, 3);
  ck_assert_int_ne(sc_kernel_launch_override(&l, "input", "n = 5,\n  m = {2,}", NULL,
                                             &err), SC_OK);
  ck_assert_str_eq(sc_error_message(err), "-input:2:10: expected an integer (an "
                   "element's initial value), found '}'");
  ck_assert_int_eq(sc_kernel_launch_override(&l, "output", "x", NULL, &err),
                   SC_ERR_USAGE);
}
END_TEST

/* ---- @Output ------------------------------------------------------------- */

/* Two threads store 1 and 2 to X[0] (initially 0), a third stores 5 to
 * Y[0]: X[0] ends 1 or 2 (either store last), Y[0] ends 5; the shared
 * variable s@cta0[0] keeps its 0. */
static const char stores[] =
    "PTX stores\n"
    "{ x = 0; y = 0; s = 0; }\n"
    " P0@cta 0,gpu 0       | P1@cta 1,gpu 0       | P2@cta 1,gpu 0 ;\n"
    " st.relaxed.gpu x, 1  | st.relaxed.gpu x, 2  | st.weak y, 5   ;\n"
    "exists (x = 0)\n";

static sc_test *kernel_like_test(void) {
  sc_test *t = NULL;
  sc_error *err = NULL;
  ck_assert_int_eq(sc_test_load_string(stores, "stores.litmus", NULL, &t, &err),
                   SC_OK);
  /* named as the kernel front end names a parameter's elements and a
   * CTA's shared variable */
  t->locs[sci_test_find_location(t, "x")].name = "X[0]";
  t->locs[sci_test_find_location(t, "y")].name = "Y[0]";
  t->locs[sci_test_find_location(t, "s")].name = "s@cta0[0]";
  return t;
}

/* The herd verdict (1 Ok, 0 No) of the test under condition `expr`, and
 * the condition as herd's block prints it. */
static int verdict(const char *expr, const char **printed) {
  sc_test *t = kernel_like_test();
  sc_error *err = NULL;
  ck_assert_msg(sc_kernel_set_condition(t, expr, "k.cu", 3, 12, &err) == SC_OK,
                "%s", sc_error_message(err));
  sc_model *m;
  const char *srcdir = getenv("SC_SRCDIR") ? getenv("SC_SRCDIR") : ".";
  char path[4096];
  snprintf(path, sizeof path, "%s/cat/ptx-v7.5.cat", srcdir);
  ck_assert_int_eq(sc_model_load_file(path, NULL, 0, &m, &err), SC_OK);
  sc_result *r;
  ck_assert_msg(sc_simulate(t, m, NULL, &r, &err) == SC_OK, "%s",
                sc_error_message(err));
  const char *log = sc_result_log(r, SC_LOG_NOHASH);
  const char *c = strstr(log, "\nCondition ");
  ck_assert_ptr_nonnull(c);
  const char *end = strchr(c + 1, '\n');
  static char line[256];
  snprintf(line, sizeof line, "%.*s", (int)(end - (c + 11)), c + 11);
  *printed = line;
  return sc_result_validated(r);
}

START_TEST(condition_comparisons) {
  const char *p;
  ck_assert_int_eq(verdict("forall (X[0] >= 1 and Y[0] == 5)", &p), 1);
  ck_assert_str_eq(p, "forall (X[0]>=1 /\\ Y[0]=5)");
  ck_assert_int_eq(verdict("forall (X[0] > 1)", &p), 0); /* X[0] = 1 */
  ck_assert_str_eq(p, "forall (X[0]>1)");
  ck_assert_int_eq(verdict("exists (X[0] <= 1)", &p), 1);
  ck_assert_int_eq(verdict("exists (X[0] < 1)", &p), 0);
  ck_assert_str_eq(p, "exists (X[0]<1)");
  ck_assert_int_eq(verdict("exists X[0] != 2 and not (s@cta0[0] != 0)", &p), 1);
  ck_assert_str_eq(p, "exists (X[0]!=2 /\\ ~(s@cta0[0]!=0))");
  /* or binds looser than and; -5 < X[0] always */
  ck_assert_int_eq(verdict("forall X[0] == 1 or X[0] == 2 and -5 < X[0]", &p), 1);
  ck_assert_int_eq(verdict("forall (X[0] == 1 or X[0] == 2) and Y[0] < 5", &p), 0);
  ck_assert_int_eq(verdict("forall not false", &p), 1);
}
END_TEST

static const char *condition_error(const char *expr) {
  sc_test *t = kernel_like_test();
  sc_error *err = NULL;
  ck_assert_int_ne(sc_kernel_set_condition(t, expr, "k.cu", 3, 12, &err), SC_OK);
  return sc_error_message(err);
}

START_TEST(condition_errors) {
  ck_assert_str_eq(condition_error("(X[0] == 1)"),
                   "k.cu:3:12: expected forall or exists, found '('");
  ck_assert_str_eq(condition_error("forall (X[0] = 1)"),
                   "k.cu:3:25: expected a comparison (==, !=, <, <=, > or >=), "
                   "found '='");
  ck_assert_str_eq(condition_error("forall (X[2] == 1)"),
                   "k.cu:3:20: expected an element of X (X[0] to X[0]), found "
                   "X[2]");
  ck_assert_str_eq(condition_error("forall (X == 1)"),
                   "k.cu:3:20: expected an element of X (X[0] to X[0]), found "
                   "X without an index");
  ck_assert_str_eq(condition_error("exists (B[0] == 1)"),
                   "k.cu:3:20: expected a location of the kernel (a "
                   "parameter's element as A[0], a CTA's .shared variable as "
                   "s@cta0, an element of a .shared array as s@cta0[0]), found B[0]");
  ck_assert_str_eq(condition_error("exists (X[0] == 1"),
                   "k.cu:3:29: expected ')' closing the parenthesis (or and, "
                   "or), found the end of the line");
  ck_assert_str_eq(condition_error("exists X[0] == 1 Y[0] == 1"),
                   "k.cu:3:29: expected and, or, or the end of the condition, "
                   "found 'Y'");
  ck_assert_str_eq(condition_error("forall"),
                   "k.cu:3:18: expected a location (A[0]) or an integer, found "
                   "the end of the line");
  ck_assert_str_eq(condition_error("forall X[0] == 1\nor true"),
                   "k.cu:3:28: expected the condition on one line, found a "
                   "line break");
}
END_TEST

/* ---- The .cu signature's names ------------------------------------------- */

static const char cu_text[] =
    "#include <cuda/atomic>\n"
    "// __global__ void k(int *wrong) in a comment\n"
    "template <typename T> __device__ T twice(T x) { return 2 * x; }\n"
    "__global__ void __launch_bounds__(256, 2)\n"
    "  lock(int *__restrict__ l /* the lock */, const int *A,\n"
    "       cuda::atomic_ref<int, cuda::thread_scope_device> *r, int n = 4) {}\n"
    "namespace ns { __global__ void mp(int a[4], unsigned) { char c = ')'; } }\n"
    "extern \"C\" __global__ void plain(void) {}\n";

/* The names of `entry`'s parameters, joined by commas. */
static const char *cu_names(const char *entry) {
  const char **names;
  int n;
  sc_error *err = NULL;
  ck_assert_msg(sc_kernel_cu_params(cu_text, "k.cu", entry, &names, &n, &err) ==
                    SC_OK, "%s", err ? sc_error_message(err) : "");
  static char buf[256];
  buf[0] = 0;
  for (int i = 0; i < n; i++)
    snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", i ? "," : "",
             names[i]);
  return buf;
}

START_TEST(cu_parameter_names) {
  /* nvcc's mangled names: _Z<len><name><types>, nested _ZN<len><name>...E */
  ck_assert_str_eq(cu_names("_Z4lockPiPKiPN4cuda10atomic_refIiLNS2_3std3__412thread_scopeE1EEEi"),
                   "l,A,r,n");
  ck_assert_str_eq(cu_names("_ZN2ns2mpEPij"), "a,");
  ck_assert_str_eq(cu_names("plain"), "");
  ck_assert_str_eq(cu_names("lock"), "l,A,r,n");
  const char **names;
  int n;
  sc_error *err = NULL;
  ck_assert_int_eq(sc_kernel_cu_params(cu_text, "k.cu", "_Z1kPi", &names, &n, &err),
                   SC_ERR_SEMANTIC);
  ck_assert_str_eq(sc_error_message(err), "k.cu: expected a __global__ function "
                   "k (the PTX's kernel _Z1kPi), found none");
}
END_TEST

static Suite *kernel_launch_suite(void) {
  Suite *s = suite_create("kernel_launch");
  TCase *tc = tcase_create("launch");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, header_fields);
  tcase_add_test(tc, header_inputs_add_up);
  tcase_add_test(tc, header_launch_parameters);
  tcase_add_test(tc, header_errors);
  tcase_add_test(tc, header_absurd_sizes);
  tcase_add_test(tc, override_options);
  tcase_add_test(tc, condition_comparisons);
  tcase_add_test(tc, condition_errors);
  tcase_add_test(tc, cu_parameter_names);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return sc_check_run(kernel_launch_suite());
}
