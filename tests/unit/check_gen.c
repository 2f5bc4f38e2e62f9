/* check_gen.c: unit tests of generation (gen*.c) and fence advice
 * (gen/fences.c) through the public API: generated tests round-trip through
 * the printer and parser, families are deduplicated up to rotation, and
 * fence advice finds the fixes worked out by hand in tests/data/fences.md. */
#include "gen/gen.h"

#include <check.h>

#include "check_run.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static sc_test *gen(const char *cycle) {
  sc_test *t;
  sc_error *err;
  ck_assert_msg(sc_gen_cycle(cycle, NULL, &t, &err) == SC_OK, "%s: %s", cycle,
                sc_error_message(err));
  return t;
}

static sc_model *model(const char *name) {
  const char *src = getenv("SC_SRCDIR");
  char path[4096];
  snprintf(path, sizeof path, "%s/cat/%s", src ? src : ".", name);
  sc_model *m;
  sc_error *err;
  ck_assert_msg(sc_model_load_file(path, NULL, 0, &m, &err) == SC_OK, "%s",
                sc_error_message(err));
  return m;
}

START_TEST(edges_read) {
  gen_edge e;
  ck_assert(sci_gen_edge_read("Rfe.cta", &e));
  ck_assert(e.kind == GEN_RF && e.external && e.place == GEN_SAME_CTA);
  ck_assert(e.src == 'W' && e.dst == 'R' && e.same_loc);
  ck_assert(sci_gen_edge_read("FenceScGpusRR", &e));
  ck_assert_str_eq(e.fence, "fence.sc.gpu");
  ck_assert(e.same_loc && !e.external);
  ck_assert(sci_gen_edge_read("DpCtrldW", &e));
  ck_assert(e.kind == GEN_CTRL && e.src == 'R' && e.dst == 'W');
  ck_assert(!sci_gen_edge_read("DpDatadR", &e)); /* data goes to a write */
  ck_assert(!sci_gen_edge_read("Rfe.gpu", &e));
  ck_assert(!sci_gen_edge_read("PodWX", &e));
  gen_annot a;
  ck_assert(sci_gen_annot_read("[acquire.gpu]", &a));
  ck_assert(a.sem == SC_SEM_ACQUIRE && a.scope == SC_SCOPE_GPU);
  ck_assert(!sci_gen_annot_read("[frob]", &a));
}
END_TEST

/* The printed test parses back equal, and names the cycle. */
START_TEST(round_trip) {
  static const char *const cycles[] = {
      "PodWW Rfe PodRR Fre", "FenceGldWW Rfe.cta DpAddrdR Fre.cta",
      "DpDatadW Rfe.warp DpCtrldW Rfe.warp", "Rfe PodRR Fre Rfe PodRR Fre",
      "[wt] PodWR [ca] Fre [relaxed.sys] PodWR Fre", "Rfi DpAddrdW Coe PodWR Fre"};
  for (size_t i = 0; i < sizeof cycles / sizeof cycles[0]; i++) {
    sc_test *t = gen(cycles[i]), *back;
    sc_error *err;
    ck_assert_msg(sc_test_load_string(sc_test_to_string(t), "t", NULL, &back,
                                      &err) == SC_OK, "%s", cycles[i]);
    ck_assert_msg(sc_test_equal(t, back), "%s", cycles[i]);
    ck_assert(t->ninfo == 1 && strstr(t->info[0], "cycle: "));
  }
  ck_assert_str_eq(sc_test_name(gen("FenceGldWW Rfe FenceGldRR Fre")),
                   "mp+membar.gls");
  ck_assert_str_eq(sc_test_name(gen("PodWW Rfe DpAddrdR Fre")), "mp+po+addr");
}
END_TEST

START_TEST(bad_cycles) {
  sc_test *t;
  sc_error *err;
  ck_assert(sc_gen_cycle("PodWW Frob", NULL, &t, &err) == SC_ERR_SYNTAX);
  ck_assert(t == NULL);
  ck_assert(sc_gen_cycle("PodWR PodRW", NULL, &t, &err) == SC_ERR_SEMANTIC);
  ck_assert(sc_gen_cycle("Rfe Fre", NULL, &t, &err) == SC_ERR_SEMANTIC);
  ck_assert(strstr(sc_error_message(err), "cannot both read from"));
  ck_assert(sc_gen_cycle("PodWR Fre PodWR Fre.cta", NULL, &t, &err) ==
            SC_ERR_SEMANTIC);
  ck_assert(sc_gen_cycle("[ca] PodWR Fre PodWR Fre", NULL, &t, &err) ==
            SC_ERR_SEMANTIC);
  ck_assert(strstr(sc_error_message(err), "[ca] does not fit the write"));
}
END_TEST

/* sb over {PodWR, Fre}: one cycle of size 4 (its rotation is the same);
 * with Fre.cta too, two: both edges across CTAs, or both within one (one
 * of each would put the same two threads in one CTA and in two). */
/* The PTX dialect: annotated edges, Dat3M's headers, atoms; the text
 * parses back as a PTX test equal to the generated one (warps aside). */
START_TEST(ptx_dialect) {
  gen_edge e;
  gen_annot a;
  ck_assert(sci_gen_word_read("[acquire.gpu]PodRR", &e, &a));
  ck_assert(e.kind == GEN_PO && e.src == 'R' && a.sem == SC_SEM_ACQUIRE);
  ck_assert(!sci_gen_word_read("[release.gpu]PodRR", &e, &a)); /* a read */
  ck_assert(sci_gen_word_read("Rmw", &e, &a) && e.kind == GEN_RMW && !a.word);
  sc_test *t = gen("[relaxed.gpu]PodWW [release.gpu]Rfe [acquire.gpu]Rmw "
                   "[relaxed.gpu]PodWR [relaxed.gpu]Fre"), *back;
  const char *text = sc_test_to_dialect(t, SC_DIALECT_PTX);
  ck_assert(strncmp(text, "PTX ", 4) == 0);
  ck_assert(strstr(text, "P1@cta 1,gpu 0") && !strstr(text, "scopeTree"));
  ck_assert(strstr(text, "atom.acquire.gpu.exch.b32 r1, [r0], 2"));
  sc_error *err;
  ck_assert(sc_test_load_string(text, "t", NULL, &back, &err) == SC_OK);
  ck_assert(sc_test_dialect(back) == SC_DIALECT_PTX);
  ck_assert_str_eq(sc_test_to_dialect(back, SC_DIALECT_PTX), text);
  ck_assert_str_eq(sc_test_to_dialect(t, SC_DIALECT_GPU_PTX),
                   sc_test_to_string(t));
}
END_TEST

/* A log witnesses a test's condition when a state it shows (with a count,
 * in a histogram) satisfies it. */
START_TEST(hist_witnesses) {
  sc_test *t = gen("PodWW Rfe PodRR Fre"); /* exists (1:r1=1 /\ 1:r3=0) */
  static const char *const logs[] = {
      "Test mp Allowed\nHistogram (2 states)\n5 :>1:r1=0; 1:r3=0;\n"
      "0 *>1:r1=1; 1:r3=0;\nNo\n",
      "Test mp Allowed\nHistogram (2 states)\n5 :>1:r1=0; 1:r3=0;\n"
      "3 *>1:r1=1; 1:r3=0;\nOk\n",
      "Test mp Allowed\nStates 1\n1:r1=1; 1:r3=0;\nOk\n",
      "Test mp Allowed\nStates 1\n1:r1=1;\nOk\n"};
  static const int want[] = {0, 1, 1, -1};
  for (size_t i = 0; i < sizeof logs / sizeof logs[0]; i++) {
    sc_hist **h;
    int n, w;
    sc_error *err;
    ck_assert_msg(sc_hist_load_string(logs[i], "log", &h, &n, &err) == SC_OK,
                  "%s", sc_error_message(err));
    sc_status st = sc_hist_witnesses(h[0], t, &w, &err);
    if (want[i] < 0) {
      ck_assert(st != SC_OK);
      ck_assert(strstr(sc_error_message(err), "1:r3"));
    } else {
      ck_assert_int_eq(st, SC_OK);
      ck_assert_int_eq(w, want[i]);
    }
  }
}
END_TEST

START_TEST(family_dedup) {
  static const char *const edges[] = {"PodWR", "Fre", "Fre.cta"};
  sc_test **tests;
  int n;
  sc_error *err;
  ck_assert(sc_gen_family(edges, 2, 4, &tests, &n, &err) == SC_OK);
  ck_assert_int_eq(n, 1);
  ck_assert_str_eq(sc_test_name(tests[0]), "sb");
  ck_assert(sc_gen_family(edges, 3, 4, &tests, &n, &err) == SC_OK);
  ck_assert_int_eq(n, 2);
  ck_assert_str_eq(sc_test_name(tests[1]), "sb-cc");
  ck_assert(sc_gen_family(edges, 3, 1, &tests, &n, &err) == SC_ERR_USAGE);
}
END_TEST

START_TEST(fence_advice) {
  sc_model *rmo = model("ptx-rmo.cat");
  sc_fence_advice *a;
  sc_error *err;
  ck_assert(sc_fence_advise(gen("PodWW Rfe PodRR Fre"), rmo, NULL, &a, &err) ==
            SC_OK);
  ck_assert(sc_fence_advice_verdict(a) == SC_FENCES_FIXED);
  ck_assert_int_eq(sc_fence_advice_count(a), 1);
  ck_assert_int_eq(sc_fence_advice_size(a, 0), 2);
  ck_assert_str_eq(sc_test_name(sc_fence_advice_test(a, 0)),
                   "mp+membar.gl@0.4+membar.gl@1.2");
  /* the patched test is forbidden */
  sc_result *r;
  ck_assert(sc_simulate(sc_fence_advice_test(a, 0), rmo, NULL, &r, &err) ==
            SC_OK);
  ck_assert_int_eq(sc_result_positive(r), 0);
  ck_assert(sc_fence_advise(gen("DpDatadW Rfe DpDatadW Rfe"), rmo, NULL, &a,
                            &err) == SC_OK);
  ck_assert(sc_fence_advice_verdict(a) == SC_FENCES_ALREADY_FORBIDDEN);
  /* at most one fence: mp has no fix, though fences everywhere forbid it */
  sc_fence_options one = {.max_fences = 1};
  ck_assert(sc_fence_advise(gen("PodWW Rfe PodRR Fre"), rmo, &one, &a, &err) ==
            SC_OK);
  ck_assert(sc_fence_advice_verdict(a) == SC_FENCES_NONE_WITHIN_MAX);
}
END_TEST

/* Alg. 1 with a check that counts its calls and passes when a fence
 * sits in P0 (any position): binary reduction keeps one P0 fence. */
static int needs_p0_fence(const sc_test *t, long iterations, void *ctx) {
  (void)iterations;
  ++*(int *)ctx;
  for (int pc = 0; pc < t->threads[0].ninstrs; pc++)
    if (t->threads[0].code[pc].op == SC_OP_MEMBAR)
      return 1;
  return 0;
}

START_TEST(fence_reduction) {
  sc_fence_advice *a;
  sc_error *err;
  int calls = 0;
  sc_test *t = gen("PodWW Rfe PodRR Fre");
  ck_assert(sc_fence_reduce(t, NULL, needs_p0_fence, &calls, 10, &a, &err) ==
            SC_OK);
  ck_assert(sc_fence_advice_verdict(a) == SC_FENCES_FIXED);
  ck_assert_int_eq(sc_fence_advice_size(a, 0), 1);
  ck_assert(strstr(sc_fence_advice_text(a, 0), "membar.gl in P0"));
  /* none, all; binary: without P0's half (fails), without P1's (passes);
   * linear: without the last fence (fails); the confirming check */
  ck_assert_int_eq(calls, 6);
  ck_assert_int_eq(sc_fence_advice_simulations(a), 6);
}
END_TEST

int main(void) {
  Suite *s = suite_create("gen");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, edges_read);
  tcase_add_test(tc, round_trip);
  tcase_add_test(tc, bad_cycles);
  tcase_add_test(tc, ptx_dialect);
  tcase_add_test(tc, hist_witnesses);
  tcase_add_test(tc, family_dedup);
  tcase_add_test(tc, fence_advice);
  tcase_add_test(tc, fence_reduction);
  suite_add_tcase(s, tc);
  return sc_check_run(s);
}
