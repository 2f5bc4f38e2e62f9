/* check_hist.c: unit tests of the log reader (report/outcome.c, report/hist.c), of
 * finding a log's test (report/hist_match.c) and of the comparison with models
 * (report/compare.c and its reports), on small logs written here by hand in the
 * formats of litmus7, of the GPU litmus runner of ASPLOS'15 and of herd7. */
#include "report/outcome.h"
#include "scopecat.h"

#include <check.h>

#include "check_run.h"
#include "check_litmus_of.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Outcomes ------------------------------------------------------------ */

static const char *canonical(const char *text) {
  sc_outcome o;
  const char *why = NULL;
  ck_assert_msg(sci_outcome_parse(text, &o, &why), "'%s': %s", text, why);
  return sci_outcome_string(&o);
}

START_TEST(outcome_canonical_form) {
  /* registers by thread then name, then locations; brackets dropped;
   * integers in decimal; other values kept */
  ck_assert_str_eq(canonical("x=1; 1:r2=0; 1:r0=0x10; [y]=-2; 0:r9=z;"),
                   "0:r9=z; 1:r0=16; 1:r2=0; x=1; y=-2;");
  ck_assert_str_eq(canonical("10:r1=1; 2:r1=2;"), "2:r1=2; 10:r1=1;");
  ck_assert_str_eq(canonical("  "), "");
}
END_TEST

START_TEST(outcome_errors) {
  static const char *const bad[][2] = {
      {"x=1", "expected ';' after 'x=1'"},
      {"x 1;", "expected VARIABLE=VALUE;, found 'x 1;'"},
      {"x=;", "expected VARIABLE=VALUE;, found 'x=;'"},
      {"x=1; x=2;", "expected each variable once, found x twice"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    sc_outcome o;
    const char *why = NULL;
    ck_assert_msg(!sci_outcome_parse(bad[i][0], &o, &why), "'%s' parsed",
                  bad[i][0]);
    ck_assert_str_eq(why, bad[i][1]);
  }
}
END_TEST

START_TEST(outcome_agreement) {
  sc_outcome a, b, c, d;
  const char *why;
  ck_assert(sci_outcome_parse("1:r0=0; x=1;", &a, &why));
  ck_assert(sci_outcome_parse("1:r0=0;", &b, &why));
  ck_assert(sci_outcome_parse("1:r0=1; y=0;", &c, &why));
  ck_assert(sci_outcome_parse("y=0;", &d, &why));
  ck_assert(sci_outcome_agree(&a, &b));  /* x shown by one side only */
  ck_assert(!sci_outcome_agree(&a, &c)); /* 1:r0 differs */
  ck_assert(sci_outcome_agree(&a, &d));  /* nothing shared */
  ck_assert_int_eq(sci_outcome_shared(&a, &b), 1);
  ck_assert_int_eq(sci_outcome_shared(&a, &d), 0);
  ck_assert_int_lt(sci_outcome_compare(&b, &c), 0);
}
END_TEST

/* ---- Reading logs -------------------------------------------------------- */

/* litmus7's own output for one test (the test source after the banner,
 * generated code, the histogram, the trailer with a Hash). */
static const char litmus7_log[] =
    "%%%%%%%%%%%%%%%%%%%%%%%%%\n"
    "% Results for SB.litmus %\n"
    "%%%%%%%%%%%%%%%%%%%%%%%%%\n"
    "GPU_PTX SB\n"
    "{ 0:.reg .s32 r2; 0:.reg .b64 r1 = x; 0:.reg .b64 r3 = y;\n"
    "  1:.reg .s32 r2; 1:.reg .b64 r1 = y; 1:.reg .b64 r3 = x; }\n"
    " P0                | P1                ;\n"
    " st.cg.s32 [r1], 1 | st.cg.s32 [r1], 1 ;\n"
    " ld.cg.s32 r2, [r3] | ld.cg.s32 r2, [r3] ;\n"
    "exists (0:r2=0 /\\ 1:r2=0)\n"
    "Generated assembler\n"
    "\tst.cg.s32 [%rd1], 1;\n"
    "Test SB Allowed\n"
    "Histogram (4 states)\n"
    "289   *>0:r2=0; 1:r2=0;\n"
    "499805:>0:r2=1; 1:r2=0;\n"
    "499791:>0:r2=0; 1:r2=1;\n"
    "115   :>0:r2=1; 1:r2=1;\n"
    "Ok\n"
    "\n"
    "Witnesses\n"
    "Positive: 289, Negative: 999711\n"
    "Condition exists (0:r2=0 /\\ 1:r2=0) is validated\n"
    "Hash=7dbd6b8e6dd4abc2ef3d48b0376fb2e3\n"
    "Observation SB Sometimes 289 999711\n"
    "Time SB 0.12\n";

static sc_hist **load(const char *text, int *n) {
  sc_hist **blocks;
  sc_error *err;
  ck_assert_msg(sc_hist_load_string(text, "h.txt", &blocks, n, &err) == SC_OK,
                "%s", sc_error_message(err));
  return blocks;
}

START_TEST(litmus7_histogram) {
  int n;
  sc_hist **b = load(litmus7_log, &n);
  ck_assert_int_eq(n, 1);
  sc_hist *h = b[0];
  ck_assert_str_eq(sc_hist_name(h), "SB");
  ck_assert_int_eq(sc_hist_line(h), 13);
  ck_assert(sc_hist_has_counts(h));
  ck_assert_int_eq(sc_hist_state_count(h), 4);
  ck_assert_int_eq(sc_hist_instances(h), 1000000);
  ck_assert_str_eq(sc_hist_state(h, 1), "0:r2=1; 1:r2=0;");
  ck_assert_int_eq(sc_hist_state_instances(h, 1), 499805);
  ck_assert(sc_hist_state_marked(h, 0));
  ck_assert(!sc_hist_state_marked(h, 1));
  ck_assert_str_eq(sc_hist_condition(h), "exists (0:r2=0 /\\ 1:r2=0)");
  ck_assert_str_eq(sc_hist_hash(h), "7dbd6b8e6dd4abc2ef3d48b0376fb2e3");
  ck_assert_ptr_null(sc_hist_device(h));
  /* the source: from after the banner to "Generated assembler" */
  ck_assert_ptr_nonnull(sc_hist_source(h));
  ck_assert(strncmp(sc_hist_source(h), "GPU_PTX SB\n", 11) == 0);
  ck_assert_ptr_null(strstr(sc_hist_source(h), "Generated"));
}
END_TEST

/* The GPU litmus runner (ASPLOS'15): the test printed without its initial
 * state and with the scope tree after the condition, an optcheck report,
 * a blank line before Witnesses, device information after the block. */
static const char titan_log[] =
    "%%%%%%%%%%%%%%%%%%%%%%%%%%%%%\n"
    "% Results for 3.CORR.litmus %\n"
    "%%%%%%%%%%%%%%%%%%%%%%%%%%%%%\n"
    "GPU_PTX CoRR\n"
    "\n"
    "{}\n"
    "\n"
    " P0                 | P1                 ;\n"
    " mov.s32 r0, 1      | ld.cg.s32 r0, [r1] ;\n"
    " st.cg.s32 [r1], r0 | ld.cg.s32 r2, [r3] ;\n"
    "\n"
    "exists (1:r0=1 /\\ 1:r2=0)\n"
    "(device (kernel (cta (warp P0)) (cta (warp P1))))\n"
    "x:global; y:global\n"
    "Generated assembler\n"
    "//START _litmus_P0\n"
    "\tmov.s32 sr00, 1 ;\n"
    "Cluster 0: OK\n"
    "!!SUCCESS!!\n"
    "Test CoRR Allowed\n"
    "Histogram (3 states)\n"
    "9653  :>1:r0=0; 1:r2=0;\n"
    "12    :>1:r0=1; 1:r2=1;\n"
    "3     *>1:r0=1; 1:r2=0;\n"
    "No\n"
    "\n"
    "Witnesses\n"
    "Positive: 3, Negative: 9665\n"
    "Condition exists (1:r0=1 /\\ 1:r2=0) is NOT validated\n"
    "Observation CoRR Sometimes 3 9665\n"
    "Time CoRR 9.05\n"
    "\n"
    "  -- device info --\n"
    "Name:                           GeForce GTX TITAN\n"
    "Major revision number:          3\n";

/* The test the Titan-style log ran, as a file holds it. */
static const char corr_test[] =
    "GPU_PTX CoRR\n"
    "{ 0:.reg .s32 r0; 0:.reg .b64 r1 = x;\n"
    "  1:.reg .s32 r0; 1:.reg .s32 r2; 1:.reg .b64 r1 = x;\n"
    "  1:.reg .b64 r3 = x; }\n"
    " P0                 | P1                 ;\n"
    " mov.s32 r0, 1      | ld.cg.s32 r0, [r1] ;\n"
    " st.cg.s32 [r1], r0 | ld.cg.s32 r2, [r3] ;\n"
    "scopeTree (device (kernel (cta (warp P0)) (cta (warp P1))))\n"
    "x: global, y: global\n"
    "exists (1:r0=1 /\\ 1:r2=0)\n";

START_TEST(titan_histogram) {
  int n;
  sc_hist **b = load(titan_log, &n);
  ck_assert_int_eq(n, 1);
  ck_assert_str_eq(sc_hist_name(b[0]), "CoRR");
  ck_assert_int_eq(sc_hist_instances(b[0]), 9668);
  ck_assert_str_eq(sc_hist_device(b[0]), "GeForce GTX TITAN");
  ck_assert_str_eq(sc_hist_condition(b[0]), "exists (1:r0=1 /\\ 1:r2=0)");
  ck_assert(sc_hist_state_marked(b[0], 2));
}
END_TEST

/* A log of several tests: each has its own source and device. */
START_TEST(two_tests_one_log) {
  char text[sizeof litmus7_log + sizeof titan_log];
  snprintf(text, sizeof text, "%s%s", litmus7_log, titan_log);
  int n;
  sc_hist **b = load(text, &n);
  ck_assert_int_eq(n, 2);
  ck_assert_ptr_null(sc_hist_device(b[0]));
  ck_assert_str_eq(sc_hist_device(b[1]), "GeForce GTX TITAN");
  ck_assert(strncmp(sc_hist_source(b[1]), "GPU_PTX CoRR\n", 13) == 0);
  ck_assert_int_eq(sc_hist_line(b[1]), 26 + 20); /* 26 lines of litmus7_log */
}
END_TEST

/* herd7's format (scopecat sim writes it): States, no counts. */
static const char herd_log[] =
    "Test SB Allowed\n"
    "States 3\n"
    "0:r2=0; 1:r2=1;\n"
    "0:r2=1; 1:r2=0;\n"
    "0:r2=1; 1:r2=1;\n"
    "No\n"
    "Witnesses\n"
    "Positive: 0 Negative: 3\n"
    "Condition exists (0:r2=0 /\\ 1:r2=0)\n"
    "Observation SB Never 0 3\n"
    "Time SB 0.00\n"
    "Hash=0123\n"
    "\n"
    "Test MP Allowed\n"
    "States 1\n"
    "1:r0=0; 1:r2=0;\n"
    "Ok\n";

START_TEST(herd_states) {
  int n;
  sc_hist **b = load(herd_log, &n);
  ck_assert_int_eq(n, 2);
  ck_assert(!sc_hist_has_counts(b[0]));
  ck_assert_int_eq(sc_hist_state_count(b[0]), 3);
  ck_assert_int_eq(sc_hist_instances(b[0]), 0);
  ck_assert_str_eq(sc_hist_hash(b[0]), "0123");
  ck_assert_str_eq(sc_hist_name(b[1]), "MP");
  ck_assert_int_eq(sc_hist_line(b[1]), 14);
  ck_assert_ptr_null(sc_hist_source(b[1]));
}
END_TEST

/* Malformed logs: the error's position and what was expected. */
static const struct {
  const char *text, *where, *what;
} malformed[] = {
    /* a variable that is neither a location nor THREAD:REGISTER (found by
     * fuzzing a herd7 log: its text, printed back, read as another line) */
    {"Test A Allowed\nStates 1\nP0:r2=1; 0:r0=0;\nOk\n", "h.txt:3:1: ",
     "expected a location or THREAD:REGISTER before '=', found 'P0:r2'"},
    {"Test A Allowed\nHistogram (1 states)\n1 :>0:r0=0; x-y=1;\nOk\n", "h.txt:3:13: ",
     "found 'x-y'"},
    /* truncated histogram: fewer states than announced */
    {"Test A Allowed\nHistogram (3 states)\n1 :>x=1;\n2 :>x=2;\nOk\n",
     "h.txt:5:1: ", "expected 3 states after line 2, found 2 before 'Ok'"},
    /* the log ends inside the histogram */
    {"Test A Allowed\nHistogram (3 states)\n1 :>x=1;\n", "h.txt:4:1: ",
     "found 1 before the end of file"},
    /* a count that is no number */
    {"Test A Allowed\nHistogram (1 states)\n12x4 :>x=1;\nOk\n", "h.txt:3:1: ",
     "expected a count (a number) before ':>', found '12x4'"},
    /* an unknown line among the states */
    {"Test A Allowed\nHistogram (2 states)\n1 :>x=1;\nsegfault\nOk\n",
     "h.txt:4:1: ", "expected a state 'COUNT :>VARIABLE=VALUE; ...', found "
                    "'segfault'"},
    /* a histogram without its Test line */
    {"Histogram (1 states)\n1 :>x=1;\nOk\n", "h.txt:1:1: ",
     "expected a Test line before the states, found 'Histogram (1 states)'"},
    /* more states than announced */
    {"Test A Allowed\nHistogram (1 states)\n1 :>x=1;\n2 :>x=2;\nOk\n",
     "h.txt:4:1: ", "expected Ok or No after the 1 states announced on line 2"},
    {"Test A Allowed\nHistogram (many states)\n", "h.txt:2:1: ",
     "expected Histogram (N states), found 'Histogram (many states)'"},
    {"Test A Allowed\nOk\n", "h.txt:2:1: ",
     "expected 'Histogram (N states)' or 'States N' after 'Test A'"},
    {"Test A Allowed\nHistogram (1 states)\n1 :>x=1; x=2;\nOk\n", "h.txt:3:10: ",
     "expected each variable once, found x twice"},
    {"Test A Allowed\nHistogram (2 states)\n1 :>x=1;\n2 :>x=1;\nOk\n",
     "h.txt:4:1: ", "expected each state once, found x=1; again"},
    /* the witnesses do not add up to the histogram */
    {"Test A Allowed\nHistogram (1 states)\n5 :>x=1;\nNo\nWitnesses\n"
     "Positive: 0, Negative: 4\n",
     "h.txt:6:1: ", "expected Positive + Negative to equal the histogram's 5 "
                    "instances, found 0 + 4"},
    /* damaged trailers: each was skipped, so the sum above went unchecked */
    {"Test A Allowed\nHistogram (1 states)\n5 :>x=1;\nNo\nWitnesses\n"
     "Positive: 10002432, Negative:\n",
     "h.txt:6:1: ", "expected 'Positive: N, Negative: N' (counts that fit a "
                    "long), found 'Positive: 10002432, Negative:'"},
    {"Test A Allowed\nHistogram (1 states)\n5 :>x=1;\nNo\nWitnesses\n"
     "Posktive: 0, Negative: 4\n",
     "h.txt:6:1: ", "found 'Posktive: 0, Negative: 4'"},
    {"Test A Allowed\nHistogram (1 states)\n5 :>x=1;\nNo\nWitnesses\n",
     "h.txt:6:1: ", "after Witnesses, found end of file"},
    {"Test A Allowed\nHistogram (1 states)\n5 :>x=1;\nNo\n"
     "Positive: 99999999999999999999, Negative: 0\n",
     "h.txt:5:1: ", "counts that fit a long"},
    {"Test A Allowed\nStates 1\nx=1;\nNo\nHash = \n", "h.txt:5:1: ",
     "expected 'Hash=VALUE', found 'Hash = '"},
    /* Hangs lines: about no test, counts past a long, a bad limit */
    {"Test A Allowed\nHistogram (1 states)\n5 :>x=1;\nNo\nHangs B 1 2 3\n",
     "h.txt:5:1: ", "expected the name of a test of this log before it, "
                    "found 'B'"},
    {"Hangs A 1 2 3\n", "h.txt:1:1: ", "found 'A' in 'Hangs A 1 2 3'"},
    {"Test A Allowed\nHistogram (1 states)\n5 :>x=1;\nNo\n"
     "Hangs A 99999999999999999999 2 3\n",
     "h.txt:5:1: ", "expected Hangs counts that fit a long"},
    {"Test A Allowed\nHistogram (1 states)\n5 :>x=1;\nNo\n"
     "Hangs A 9223372036854775807 2 3\nHangs A 1 2 3\n",
     "h.txt:6:1: ", "expected the Hangs lines of test A to add up to counts "
                    "that fit a long"},
    {"Test A Allowed\nHistogram (1 states)\n5 :>x=1;\nNo\nHangs A 1 2 1.2.3\n",
     "h.txt:5:1: ", "expected a time limit in seconds"},
    {"Test A Allowed\nHistogram (1 states)\n5 :>x=1;\nNo\nHangs A 1 2\n",
     "h.txt:5:1: ", "expected 'Hangs TEST LAUNCHES INSTANCES SECONDS'"},
    {"Test A Allowed\nStates 1\nx=1;\nNo\nLiveness A Maybe\n", "h.txt:5:1: ",
     "expected 'Liveness TEST Pass|Fail'"},
    /* values that are neither an integer that fits nor a name: the column
     * is the value's */
    {"Test A Allowed\nHistogram (1 states)\n5 :>1:r1=+0;\nNo\n", "h.txt:3:10: ",
     "expected an integer that fits 64 bits or a location name as the value "
     "of 1:r1, found '+0'"},
    {"Test A Allowed\nHistogram (1 states)\n5 :>x=0; 1:r1=1e0;\nNo\n",
     "h.txt:3:15: ", "found '1e0'"},
    {"Test A Allowed\nHistogram (1 states)\n5 :>1:r1=\"0\";\nNo\n",
     "h.txt:3:10: ", "found '\"0\"'"},
    {"Test A Allowed\nStates 1\n[x]=12345678901234567890;\nNo\n", "h.txt:3:5: ",
     "as the value of x, found '12345678901234567890'"},
};

START_TEST(malformed_logs) {
  sc_hist **blocks;
  int n;
  sc_error *err;
  ck_assert_int_eq(sc_hist_load_string(malformed[_i].text, "h.txt", &blocks,
                                       &n, &err),
                   SC_ERR_SYNTAX);
  const char *msg = sc_error_message(err);
  ck_assert_msg(strncmp(msg, malformed[_i].where, strlen(malformed[_i].where)) == 0,
                "case %d: '%s' is not at %s", _i, msg, malformed[_i].where);
  ck_assert_msg(strstr(msg, malformed[_i].what) != NULL, "case %d: '%s' lacks '%s'",
                _i, msg, malformed[_i].what);
}
END_TEST

/* ---- Finding a log's test ------------------------------------------------ */

/* `text` with its first `from` replaced by `to` (of the same length). */
static const char *replaced(const char *text, const char *from, const char *to) {
  static char buf[4096];
  snprintf(buf, sizeof buf, "%s", text);
  char *at = strstr(buf, from);
  ck_assert_ptr_nonnull(at);
  memcpy(at, to, strlen(to));
  return buf;
}

START_TEST(complete_source) {
  int n;
  sc_hist **b = load(litmus7_log, &n);
  const sc_test *t;
  sc_error *err;
  ck_assert_int_eq(sc_hist_find_test(b[0], NULL, 0, &t, &err), SC_OK);
  ck_assert_str_eq(sc_test_name(t), "SB");
  ck_assert_int_eq(sc_test_thread_count(t), 2);
}
END_TEST

/* A source printed in a test file's order (the condition last, on two
 * lines) is read as it is. */
START_TEST(source_in_file_order) {
  int n;
  sc_hist **b = load("% Results for corr.litmus %\n"
                     "GPU_PTX CoRR\n"
                     "{ 0:.reg .s32 r0; 0:.reg .b64 r1 = x;\n"
                     "  1:.reg .s32 r0; 1:.reg .s32 r2; 1:.reg .b64 r1 = x;\n"
                     "  1:.reg .b64 r3 = x; }\n"
                     " P0                 | P1                 ;\n"
                     " mov.s32 r0, 1      | ld.cg.s32 r0, [r1] ;\n"
                     " st.cg.s32 [r1], r0 | ld.cg.s32 r2, [r3] ;\n"
                     "scopeTree\n(device (kernel (cta (warp P0)) (cta (warp P1))))\n"
                     "x: global, y: global\n"
                     "exists\n(1:r0=1 /\\ 1:r2=0)\n"
                     "Generated assembler\n"
                     "Test CoRR Allowed\nHistogram (1 states)\n4 :>1:r0=0; 1:r2=0;\nNo\n",
                     &n);
  const sc_test *t;
  sc_error *err;
  ck_assert_msg(sc_hist_find_test(b[0], NULL, 0, &t, &err) == SC_OK, "%s",
                sc_error_message(err));
  ck_assert(sc_test_equal(t, litmus_of(corr_test)));
}
END_TEST

/* "{}": the declarations come from the candidate that completes it. */
START_TEST(source_without_initial_state) {
  int n;
  sc_hist **b = load(titan_log, &n);
  const sc_test *t = NULL;
  sc_error *err;
  ck_assert_int_eq(sc_hist_find_test(b[0], NULL, 0, &t, &err), SC_ERR_SEMANTIC);
  /* the position is in the log, where the undeclared register is */
  ck_assert_ptr_nonnull(strstr(sc_error_message(err), "h.txt:9:10: expected a "
                                                      "declared register"));
  ck_assert_ptr_nonnull(strstr(sc_error_message(err), "without its initial "
                                                      "state"));
  /* a candidate of another name, or of the name but other code, won't do */
  const sc_test *cands[3];
  cands[0] = litmus_of("GPU_PTX other\n{ 0:.reg .s32 r0; 0:.reg .b64 r1 = x; }\n"
                     " P0 ;\n ld.cg.s32 r0, [r1] ;\nexists (0:r0=0)\n");
  cands[1] = litmus_of(replaced(corr_test, "ld.cg.s32 r2", "ld.ca.s32 r2"));
  ck_assert_int_ne(sc_hist_find_test(b[0], cands, 2, &t, &err), SC_OK);
  cands[2] = litmus_of(corr_test);
  ck_assert_int_eq(sc_hist_find_test(b[0], cands, 3, &t, &err), SC_OK);
  ck_assert_ptr_eq(t, cands[2]);
}
END_TEST

START_TEST(by_name) {
  int n;
  sc_hist **b = load(herd_log, &n); /* no source printed */
  const sc_test *t;
  sc_error *err;
  const sc_test *cands[3] = {litmus_of(corr_test), NULL, NULL};
  ck_assert_int_eq(sc_hist_find_test(b[1], cands, 1, &t, &err), SC_ERR_SEMANTIC);
  ck_assert_ptr_nonnull(strstr(sc_error_message(err), "h.txt:14:1: expected a "
                                                      "test named MP"));
  cands[1] = litmus_of("GPU_PTX MP\n{ 1:.reg .s32 r0; 1:.reg .s32 r2; }\n"
                     " P0 | P1 ;\n | mov.s32 r0, 0 ;\n | mov.s32 r2, 0 ;\n"
                     "exists (1:r0=0 /\\ 1:r2=0)\n");
  ck_assert_int_eq(sc_hist_find_test(b[1], cands, 2, &t, &err), SC_OK);
  ck_assert_ptr_eq(t, cands[1]);
  /* two different tests of that name: ambiguous */
  cands[2] = litmus_of("GPU_PTX MP\n{ 1:.reg .s32 r0; 1:.reg .s32 r2; }\n"
                     " P0 | P1 ;\n | mov.s32 r0, 1 ;\n | mov.s32 r2, 0 ;\n"
                     "exists (1:r0=0 /\\ 1:r2=0)\n");
  ck_assert_int_eq(sc_hist_find_test(b[1], cands, 3, &t, &err), SC_ERR_SEMANTIC);
  ck_assert_ptr_nonnull(strstr(sc_error_message(err), "found 2 different ones"));
}
END_TEST

/* A state naming what the test does not have (a register, a location, a
 * location held in a register) agreed with every state: the test found,
 * the block is refused at the name's line and column. */
START_TEST(unknown_names) {
  static const char *const bad[][2] = {
      {"1:r0=0; 1:r9=0;", "h.txt:3:9: expected a register or location of "
                          "test MP, found '1:r9'"},
      {"1:r0=0; 2:r2=0;", "h.txt:3:9: expected a register or location of "
                          "test MP, found '2:r2'"},
      {"1:r0=0; y=0;", "h.txt:3:9: expected a register or location of "
                       "test MP, found 'y'"},
      {"1:r0=x; 1:r2=0;", "h.txt:3:6: expected an integer or a location of "
                          "test MP, found 'x'"},
  };
  const sc_test *mp = litmus_of("GPU_PTX MP\n{ 1:.reg .s32 r0; 1:.reg .s32 r2; }\n"
                              " P0 | P1 ;\n | mov.s32 r0, 0 ;\n"
                              " | mov.s32 r2, 0 ;\nexists (1:r0=0 /\\ 1:r2=0)\n");
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char text[256];
    snprintf(text, sizeof text, "Test MP Allowed\nStates 1\n%s\nOk\n", bad[i][0]);
    int n;
    sc_hist **b = load(text, &n);
    const sc_test *t;
    sc_error *err;
    ck_assert_int_eq(sc_hist_find_test(b[0], &mp, 1, &t, &err), SC_ERR_SEMANTIC);
    ck_assert_ptr_null(t);
    ck_assert_msg(strstr(sc_error_message(err), bad[i][1]) != NULL, "'%s' lacks '%s'",
                  sc_error_message(err), bad[i][1]);
  }
  int n;
  sc_hist **b = load("Test MP Allowed\nStates 1\n1:r0=0; 1:r2=-1;\nOk\n", &n);
  const sc_test *t;
  sc_error *err;
  ck_assert_int_eq(sc_hist_find_test(b[0], &mp, 1, &t, &err), SC_OK);
}
END_TEST

/* ---- Comparing with a model ---------------------------------------------- */

#define SB_TEST                                                          \
  "GPU_PTX SB\n"                                                         \
  "{ 0:.reg .s32 r2; 0:.reg .b64 r1 = x; 0:.reg .b64 r3 = y;\n"          \
  "  1:.reg .s32 r2; 1:.reg .b64 r1 = y; 1:.reg .b64 r3 = x; }\n"        \
  " P0                 | P1                 ;\n"                         \
  " st.cg.s32 [r1], 1  | st.cg.s32 [r1], 1  ;\n"                         \
  " ld.cg.s32 r2, [r3] | ld.cg.s32 r2, [r3] ;\n"                         \
  "exists (0:r2=0 /\\ 1:r2=0)\n"

static const char model_sc[] = "\"SC\"\nacyclic po | rf | co | fr as sc\n";

static sc_result *simulate(const sc_test *t, const char *model) {
  sc_model *m;
  sc_result *r;
  sc_error *err;
  ck_assert_int_eq(sc_model_load_string(model, "m.cat", NULL, 0, &m, &err), SC_OK);
  ck_assert_int_eq(sc_simulate(t, m, NULL, &r, &err), SC_OK);
  return r;
}

/* SB under SC: 0:r2=0 /\ 1:r2=0 is forbidden; hardware showed it 289 times
 * (litmus7_log), so SC is UNSOUND for SB, with nothing allowed unseen. */
START_TEST(sb_unsound_under_sc) {
  int n;
  sc_hist **b = load(litmus7_log, &n);
  sc_test *t = litmus_of(SB_TEST);
  sc_compare *c = sc_compare_new();
  ck_assert_int_eq(sc_compare_add_hist(c, "gpu", b[0], t), 0);
  int m = sc_compare_add_model(c, "sc");
  sc_compare_set_result(c, m, 0, simulate(t, model_sc));
  ck_assert_int_eq(sc_compare_verdict(c, m, 0), SC_VERDICT_UNSOUND);
  ck_assert_int_eq(sc_compare_outcome_count(c, 0), 4);
  /* sorted: 0:r2=0; 1:r2=0; comes first */
  ck_assert_str_eq(sc_compare_outcome(c, 0, 0), "0:r2=0; 1:r2=0;");
  ck_assert(!sc_compare_outcome_allowed(c, m, 0, 0));
  ck_assert(sc_compare_outcome_allowed(c, m, 0, 1));
  ck_assert(sc_compare_outcome_marked(c, 0, 0));
  ck_assert_int_eq(sc_compare_unseen_count(c, m, 0), 0);
  ck_assert_int_eq(sc_compare_unsound_count(c), 1);
  const char *table = sc_compare_table(c, m, 0);
  ck_assert_ptr_nonnull(strstr(table, "UNSOUND SB: observed outcomes the model "
                                      "forbids:\n        289  0:r2=0; 1:r2=0;\n"));
  ck_assert_ptr_nonnull(strstr(table, "1 UNSOUND"));
  /* a model that allows everything is sound, with nothing unseen */
  int any = sc_compare_add_model(c, "anything");
  sc_compare_set_result(c, any, 0, simulate(t, "\"anything\"\n"));
  ck_assert_int_eq(sc_compare_verdict(c, any, 0), SC_VERDICT_SOUND);
}
END_TEST

/* Two logs of one test merge; counts stay per source. */
START_TEST(merged_sources) {
  int n;
  sc_hist **b = load(litmus7_log, &n);
  sc_test *t = litmus_of(SB_TEST);
  sc_compare *c = sc_compare_new();
  sc_compare_add_hist(c, "titan", b[0], t);
  ck_assert_int_eq(sc_compare_add_hist(c, "h100", b[0], litmus_of(SB_TEST)), 0);
  ck_assert_int_eq(sc_compare_test_count(c), 1);
  ck_assert_int_eq(sc_compare_source_count(c), 2);
  ck_assert_str_eq(sc_compare_source(c, 1), "h100");
  ck_assert_int_eq(sc_compare_outcome_instances(c, 0, 0, -1), 578);
  ck_assert_int_eq(sc_compare_outcome_instances(c, 0, 0, 1), 289);
  int m = sc_compare_add_model(c, "sc");
  sc_compare_set_result(c, m, 0, simulate(t, model_sc));
  const char *table = sc_compare_table(c, m, SC_REPORT_DETAIL);
  ck_assert_ptr_nonnull(strstr(table, "titan"));
  ck_assert_ptr_nonnull(strstr(table, "(titan 289, h100 289)"));
  ck_assert_ptr_nonnull(strstr(table, "FORBIDDEN"));
}
END_TEST

/* Variables only one side shows do not count; the allowed states that no
 * outcome shows are "unseen". */
START_TEST(variables_and_unseen) {
  int n;
  sc_hist **b = load("Test SB Allowed\nHistogram (2 states)\n"
                     "7 :>0:r2=1; 1:r2=1; x=1;\n"
                     "3 :>0:r2=0; 1:r2=1; x=1;\n"
                     "Ok\n", &n);
  sc_test *t = litmus_of(SB_TEST);
  sc_compare *c = sc_compare_new();
  sc_compare_add_hist(c, "gpu", b[0], t);
  int m = sc_compare_add_model(c, "sc");
  sc_compare_set_result(c, m, 0, simulate(t, model_sc));
  ck_assert_int_eq(sc_compare_verdict(c, m, 0), SC_VERDICT_SOUND);
  ck_assert_int_eq(sc_compare_unseen_count(c, m, 0), 1);
  ck_assert_str_eq(sc_compare_unseen(c, m, 0, 0), "0:r2=1; 1:r2=0;");
  ck_assert_ptr_null(sc_compare_unseen(c, m, 0, 1));
}
END_TEST

/* A herd7 log as the model's verdicts: by name when it names one test,
 * by Hash= (scopecat sim prints it) when several tests share the name. */
START_TEST(verdicts_from_herd_log) {
  int n, nv;
  sc_hist **b = load(litmus7_log, &n);
  sc_hist **v = load(herd_log, &nv);
  sc_compare *c = sc_compare_new();
  sc_compare_add_hist(c, "gpu", b[0], NULL); /* test unknown */
  sc_hist **b2 = load(titan_log, &n);
  sc_compare_add_hist(c, "gpu", b2[0], litmus_of(corr_test));
  int m = sc_compare_add_model(c, "herd");
  sc_compare_set_verdicts(c, m, v, nv);
  ck_assert_int_eq(sc_compare_verdict(c, m, 0), SC_VERDICT_UNSOUND);
  ck_assert_int_eq(sc_compare_verdict(c, m, 1), SC_VERDICT_NONE);
  ck_assert_str_eq(sc_compare_failure(c, m, 1),
                   "the verdict log has no block for test CoRR");
  /* two tests named SB: only the hash tells which block is whose */
  sc_test *t = litmus_of(SB_TEST);
  sc_test *other = litmus_of(replaced(SB_TEST, "st.cg.s32 [r1], 1  | ",
                                    "st.cg.s32 [r1], 2  | "));
  sc_compare *c2 = sc_compare_new();
  sc_compare_add_hist(c2, "gpu", b[0], t);
  sc_compare_add_hist(c2, "gpu", b[0], other);
  ck_assert_int_eq(sc_compare_test_count(c2), 2);
  sc_hist **own = load(sc_result_log(simulate(t, model_sc), 0), &nv);
  m = sc_compare_add_model(c2, "sim");
  sc_compare_set_verdicts(c2, m, own, nv);
  ck_assert_int_eq(sc_compare_verdict(c2, m, 0), SC_VERDICT_UNSOUND);
  ck_assert_int_eq(sc_compare_verdict(c2, m, 1), SC_VERDICT_NONE);
  ck_assert_ptr_nonnull(strstr(sc_compare_failure(c2, m, 1),
                               "several tests are named SB"));
}
END_TEST

/* One name, two tests: both kept, both flagged in the names shown. */
START_TEST(name_clash) {
  int n;
  sc_hist **b = load(titan_log, &n);
  sc_compare *c = sc_compare_new();
  sc_compare_add_hist(c, "gpu", b[0], litmus_of(corr_test));
  sc_hist **other = load("Test CoRR Allowed\nHistogram (1 states)\n"
                         "4 :>1:r0=0; 1:r2=0;\nNo\n", &n);
  sc_test *t2 = litmus_of(replaced(corr_test, "mov.s32 r0, 1", "mov.s32 r0, 2"));
  ck_assert_int_eq(sc_compare_add_hist(c, "gpu", other[0], t2), 1);
  ck_assert_str_eq(sc_compare_test_name(c, 0), "CoRR [h.txt]");
  int m = sc_compare_add_model(c, "any");
  ck_assert_ptr_nonnull(strstr(sc_compare_table(c, m, 0),
                               "note: 2 different tests are named CoRR"));
}
END_TEST

START_TEST(html_report) {
  int n;
  sc_hist **b = load(litmus7_log, &n);
  sc_test *t = litmus_of(SB_TEST);
  sc_compare *c = sc_compare_new();
  sc_compare_add_hist(c, "gpu", b[0], t);
  int m = sc_compare_add_model(c, "sc <strict>");
  sc_compare_set_result(c, m, 0, simulate(t, model_sc));
  const char *html = sc_compare_html(c, "SB & co");
  ck_assert_ptr_nonnull(strstr(html, "<title>SB &amp; co</title>"));
  ck_assert_ptr_nonnull(strstr(html, "Model sc &lt;strict&gt;"));
  ck_assert_ptr_nonnull(strstr(html, "<svg"));
  ck_assert_ptr_nonnull(strstr(html, "data-verdict=\"UNSOUND\""));
  ck_assert_ptr_nonnull(strstr(html, "<input type=\"checkbox\" value=\"sound\""));
  ck_assert_ptr_nonnull(strstr(html, "&#9733; 0:r2=0; 1:r2=0;"));
  ck_assert_ptr_nonnull(strstr(html, "fill=\"#e53935\"")); /* forbidden */
  ck_assert_ptr_null(strstr(html, "http"));                  /* self-contained */
}
END_TEST

/* ---- Drawings: herd7's -graph layouts and -showevents -------------------- */

/* Message passing with a membar between the accesses of each thread: the
 * events are W x=0, W y=0 (initial: e0, e1), then a: W x, b: membar,
 * c: W y (P0: e2..e4) and d: R y, e: membar, f: R x (P1: e5..e7). */
static const char mp_membar[] =
    "GPU_PTX MP\n"
    "{ 0:.reg .s32 r0; 1:.reg .s32 r0; 1:.reg .s32 r1; x=0; y=0; }\n"
    " P0                | P1                ;\n"
    " st.cg.s32 [x], 1  | ld.cg.s32 r0, [y] ;\n"
    " membar.gl         | membar.gl         ;\n"
    " st.cg.s32 [y], 1  | ld.cg.s32 r1, [x] ;\n"
    "exists (1:r0=1 /\\ 1:r1=0)\n";

static sc_result *drawn_once(void) {
  sc_sim_options o = {0};
  o.show = SC_SHOW_ALL;
  o.max_shown = 1;
  o.unroll = -1;
  sc_model *m;
  sc_result *r;
  sc_error *err;
  ck_assert_int_eq(sc_model_load_string(model_sc, "m.cat", NULL, 0, &m, &err), SC_OK);
  ck_assert_int_eq(sc_simulate(litmus_of(mp_membar), m, &o, &r, &err), SC_OK);
  ck_assert_int_eq(sc_result_shown(r), 1);
  return r;
}

/* The defaults draw what sc_result_dot_graph draws: herd7's cluster
 * layout and noregs (all our events). */
START_TEST(dot_defaults_unchanged) {
  sc_result *r = drawn_once();
  sc_dot_options cluster = {SC_DOT_CLUSTER, SC_DOT_EVENTS_ALL};
  const char *plain = sc_result_dot_graph(r, 0);
  ck_assert_str_eq(sc_result_dot_graph_with(r, 0, NULL), plain);
  ck_assert_str_eq(sc_result_dot_graph_with(r, 0, &cluster), plain);
  ck_assert_ptr_nonnull(strstr(plain, "subgraph cluster_thread1 {"));
  ck_assert_ptr_null(sc_result_dot_graph_with(r, 1, NULL));
  ck_assert_ptr_null(sc_result_dot_graph_with(r, -1, NULL));
}
END_TEST

START_TEST(dot_layouts) {
  sc_result *r = drawn_once();
  sc_dot_options free_ = {SC_DOT_FREE, SC_DOT_EVENTS_NOREGS};
  sc_dot_options columns = {SC_DOT_COLUMNS, SC_DOT_EVENTS_NOREGS};
  const char *f = sc_result_dot_graph_with(r, 0, &free_);
  ck_assert_ptr_null(strstr(f, "subgraph"));
  ck_assert_ptr_nonnull(strstr(f, "e7 [label=\"f: R[x]="));
  const char *c = sc_result_dot_graph_with(r, 0, &columns);
  ck_assert_ptr_null(strstr(c, "subgraph"));
  ck_assert_ptr_nonnull(strstr(c, "{ rank=same; e2; e5; }"));
  ck_assert_ptr_nonnull(strstr(c, "{ rank=same; e3; e6; }"));
  ck_assert_ptr_nonnull(strstr(c, "{ rank=same; e4; e7; }"));
  ck_assert_ptr_nonnull(strstr(c, "thread1 [shape=box, label=\"P1\";];"));
}
END_TEST

START_TEST(dot_showevents) {
  sc_result *r = drawn_once();
  sc_dot_options mem = {SC_DOT_CLUSTER, SC_DOT_EVENTS_MEM};
  sc_dot_options memfence = {SC_DOT_CLUSTER, SC_DOT_EVENTS_MEMFENCE};
  const char *m = sc_result_dot_graph_with(r, 0, &mem);
  ck_assert_ptr_null(strstr(m, "membar"));
  ck_assert_ptr_null(strstr(m, "e3 "));
  ck_assert_ptr_null(strstr(m, "e6 "));
  ck_assert_ptr_nonnull(strstr(m, "e2 -> e4 [label=\"po\""));
  ck_assert_ptr_nonnull(strstr(m, "e0 [label=\"W[x]=0\"];"));
  const char *mf = sc_result_dot_graph_with(r, 0, &memfence);
  ck_assert_ptr_nonnull(strstr(mf, "e3 [label=\"b: membar.gl\"];"));
  ck_assert_ptr_nonnull(strstr(mf, "e2 -> e3 [label=\"po\""));
  ck_assert_ptr_null(strstr(mf, "e2 -> e4 [label=\"po\""));
}
END_TEST

/* ---- Witnesses and stories ---------------------------------------------- */

/* Every execution allowed; a flag on the reads from a write of another
 * thread (not an initial one). */
static const char *const model_rfe = "\"rfe\"\nflag ~empty ([W \\ IW]; rf & ext) as rfe\n";
static const char *const test_w =
    "PTX W\n{\nx=0;\nP1:r0=0;\n}\n"
    " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
    " st.weak x, 1   | ld.weak r0, x  ;\n"
    "forall (P1:r0 == 0)\n";

static sc_result *simulated_w(sc_engine engine) {
  sc_sim_options o = {0};
  o.unroll = -1;
  o.engine = engine;
  sc_model *m;
  sc_result *r;
  sc_error *err;
  sc_test *t;
  ck_assert_int_eq(sc_test_load_string(test_w, "W.litmus", NULL, &t, &err), SC_OK);
  ck_assert_int_eq(sc_model_load_string(model_rfe, "rfe.cat", NULL, 0, &m, &err), SC_OK);
  ck_assert_int_eq(sc_simulate(t, m, &o, &r, &err), SC_OK);
  return r;
}

/* The flag's witness is the execution where P1 reads P0's 1, its pair
 * that write and that read; the forall fails there too. */
static void check_witnesses(sc_result *r) {
  ck_assert_int_eq(sc_result_flag_count(r), 1);
  ck_assert_str_eq(sc_result_flag(r, 0), "rfe");
  ck_assert_ptr_null(sc_result_flag(r, 1));
  int a, b;
  const sc_execution *x = sc_result_flag_witness(r, "rfe", &a, &b);
  ck_assert_ptr_nonnull(x);
  sc_access wa, rb;
  ck_assert_int_eq(sc_execution_access(x, a, &wa), 1);
  ck_assert_int_eq(sc_execution_access(x, b, &rb), 1);
  ck_assert_int_eq(wa.thread, 0);
  ck_assert_int_eq(wa.kind, 'W');
  ck_assert_str_eq(wa.location, "x");
  ck_assert_int_eq(wa.value, 1);
  ck_assert_int_eq(wa.line, 7);
  ck_assert_str_eq(wa.mnemonic, "st");
  ck_assert_int_eq(rb.thread, 1);
  ck_assert_int_eq(rb.kind, 'R');
  ck_assert_int_eq(rb.value, 1);
  ck_assert_int_eq(sc_execution_access(x, x ? -1 : 0, &rb), 0);
  ck_assert_str_eq(sc_result_flag_pair(r, "rfe"),
                   "P0 W.litmus:7 st x=1 / P1 W.litmus:7 ld x=1");
  ck_assert_ptr_null(sc_result_flag_witness(r, "other", &a, &b));
  ck_assert_int_eq(a, -1);
  ck_assert_ptr_null(sc_result_story(r, "other"));
  ck_assert_str_eq(sc_result_story(r, "rfe"),
                   "rfe: P0 W.litmus:7 st x=1 / P1 W.litmus:7 ld x=1\n"
                   "  P0:\n"
                   "    W.litmus:7  st.weak [x], 1            writes x=1  <- rfe\n"
                   "  P1:\n"
                   "    W.litmus:7  ld.weak r0, [x]           reads x=1  <- rfe\n");
  ck_assert_ptr_nonnull(sc_result_condition_witness(r));
  ck_assert_str_eq(sc_result_story(r, NULL),
                   "  P0:\n"
                   "    W.litmus:7  st.weak [x], 1            writes x=1\n"
                   "  P1:\n"
                   "    W.litmus:7  ld.weak r0, [x]           reads x=1\n");
  const char *dot = sc_result_witness_dot(r, "rfe", NULL);
  ck_assert_ptr_nonnull(strstr(dot, "label=\"W rfe: cycle in rfe\""));
  ck_assert_ptr_nonnull(strstr(sc_result_witness_dot(r, NULL, NULL), "W condition"));
}

START_TEST(witnesses_enum) { check_witnesses(simulated_w(SC_ENGINE_ENUM)); }
END_TEST

START_TEST(witnesses_smt) {
  if (!sc_engine_smt_available(NULL))
    return;
  check_witnesses(simulated_w(SC_ENGINE_SMT));
}
END_TEST

/* A forall that holds has no condition witness. */
START_TEST(no_condition_witness) {
  sc_sim_options o = {0};
  o.unroll = -1;
  sc_model *m;
  sc_result *r;
  sc_error *err;
  sc_test *t;
  const char *text = "PTX N\n{\nx=0;\nP1:r0=0;\n}\n"
                     " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                     " st.weak x, 1   | ld.weak r0, x  ;\n"
                     "forall (P1:r0 == 0 \\/ P1:r0 == 1)\n";
  ck_assert_int_eq(sc_test_load_string(text, "N.litmus", NULL, &t, &err), SC_OK);
  ck_assert_int_eq(sc_model_load_string(model_rfe, "rfe.cat", NULL, 0, &m, &err), SC_OK);
  ck_assert_int_eq(sc_simulate(t, m, &o, &r, &err), SC_OK);
  ck_assert_ptr_null(sc_result_condition_witness(r));
  ck_assert_ptr_null(sc_result_story(r, NULL));
  ck_assert_ptr_null(sc_result_witness_dot(r, NULL, NULL));
}
END_TEST

/* A model followed by includes: the race include sees ptx-v7.5.cat's
 * names; a bad path is a usage error, a missing include names itself. */
START_TEST(model_with_includes) {
  const char *src = getenv("SC_SRCDIR");
  char path[4096];
  snprintf(path, sizeof path, "%s/cat/ptx-v7.5.cat", src ? src : ".");
  const char *const races[] = {SC_RACE_INCLUDE};
  const char *const missing[] = {"no-such-include.cat"};
  const char *const quoted[] = {"a\"b.cat"};
  sc_model *m;
  sc_error *err;
  ck_assert_int_eq(sc_model_load_with_includes(path, races, 1, NULL, 0, &m, &err), SC_OK);
  ck_assert_str_eq(sc_model_title(m), "PTX");
  ck_assert_int_eq(sc_model_load_with_includes(path, missing, 1, NULL, 0, &m, &err),
                   SC_ERR_IO);
  ck_assert_ptr_nonnull(strstr(sc_error_message(err), "no-such-include.cat"));
  ck_assert_int_eq(sc_model_load_with_includes(path, quoted, 1, NULL, 0, &m, &err),
                   SC_ERR_USAGE);
  ck_assert_int_eq(sc_model_load_with_includes("no/such.cat", races, 1, NULL, 0, &m, &err),
                   SC_ERR_IO);
}
END_TEST

int main(void) {
  Suite *s = suite_create("hist");
  TCase *read = tcase_create("read");
  tcase_add_test(read, outcome_canonical_form);
  tcase_add_test(read, outcome_errors);
  tcase_add_test(read, outcome_agreement);
  tcase_add_test(read, litmus7_histogram);
  tcase_add_test(read, titan_histogram);
  tcase_add_test(read, two_tests_one_log);
  tcase_add_test(read, herd_states);
  tcase_add_loop_test(read, malformed_logs, 0,
                      (int)(sizeof malformed / sizeof malformed[0]));
  suite_add_tcase(s, read);
  TCase *find = tcase_create("find");
  tcase_add_test(find, complete_source);
  tcase_add_test(find, source_in_file_order);
  tcase_add_test(find, source_without_initial_state);
  tcase_add_test(find, by_name);
  tcase_add_test(find, unknown_names);
  suite_add_tcase(s, find);
  TCase *compare = tcase_create("compare");
  tcase_add_test(compare, sb_unsound_under_sc);
  tcase_add_test(compare, merged_sources);
  tcase_add_test(compare, variables_and_unseen);
  tcase_add_test(compare, verdicts_from_herd_log);
  tcase_add_test(compare, name_clash);
  tcase_add_test(compare, html_report);
  suite_add_tcase(s, compare);
  TCase *dot = tcase_create("dot");
  tcase_add_test(dot, dot_defaults_unchanged);
  tcase_add_test(dot, dot_layouts);
  tcase_add_test(dot, dot_showevents);
  suite_add_tcase(s, dot);
  TCase *witness = tcase_create("witness");
  tcase_add_test(witness, witnesses_enum);
  tcase_add_test(witness, witnesses_smt);
  tcase_add_test(witness, no_condition_witness);
  tcase_add_test(witness, model_with_includes);
  suite_add_tcase(s, witness);
  return sc_check_run(s);
}
