/* check_ptx.c: unit tests of what Dat3M's PTX models see (sim/ptx_names.c,
 * sim/barrier.c, rel/order.c, the PTX choices of sim/enumerate.c), on small tests worked
 * out by hand in the comments.  Events are numbered as sim/execution.h says:
 * initial writes first (one per location that is no alias), then each
 * thread's events in program order. */
#include "sim/execution.h"
#include "rel/order.h"

#include <check.h>

#include "check_run.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Fixtures -------------------------------------------------------------- */

/* The execution of a test whose threads have one run each (their reads
 * all read initial values), with its static names bound. */
typedef struct fixture {
  sc_test *t;
  sc_execution *x;
  sc_cat_env *env;
} fixture;

static fixture make(const char *text) {
  fixture f;
  sc_error *err;
  ck_assert_msg(sc_test_load_string(text, "t.litmus", NULL, &f.t, &err) == SC_OK,
                "%s", sc_error_message(err));
  sc_thread_traces *all;
  ck_assert(sc_sem_traces(f.t, NULL, sc_values_initial(f.t), &all, &err) == SC_OK);
  const sc_trace **chosen = malloc(sizeof(sc_trace *) * (size_t)f.t->nthreads);
  for (int th = 0; th < f.t->nthreads; th++) {
    ck_assert_int_eq(all[th].ntraces, 1);
    chosen[th] = &all[th].traces[0];
  }
  f.x = sc_exec_new(f.t, chosen);
  f.env = sc_cat_env_new(f.x->nevents);
  sc_exec_bind_static(f.x, f.env);
  sc_exec_bind_dynamic(f.x, f.env);
  return f;
}

/* The value of a cat expression over the fixture's names, as a relation. */
static const sc_rel *rel_of(const fixture *f, const char *exp) {
  char text[512];
  snprintf(text, sizeof text, "PTX\nlet r = %s\n", exp);
  sc_cat_model *m;
  sc_error *err;
  ck_assert_msg(sc_cat_load_string(text, "m.cat", NULL, 0, &m, &err) == SC_OK,
                "%s", sc_error_message(err));
  sc_cat_outcome out;
  ck_assert(sc_cat_run(m, f->env, NULL, &out, &err) == SC_OK);
  const sc_cat_value *v;
  ck_assert(sc_cat_result_lookup(out.result, "r", &v, &err) == SC_OK && v);
  const sc_rel *r = sc_cat_value_rel(v, f->x->nevents);
  ck_assert(r);
  return r;
}

/* The relation written as "a-b c-d ..." (event numbers). */
static sc_rel *pairs(int n, const char *list) {
  sc_rel *r = sc_rel_new(n);
  int a, b, used;
  while (sscanf(list, " %d-%d%n", &a, &b, &used) == 2) {
    sc_rel_add(r, a, b);
    list += used;
  }
  return r;
}

#define ck_assert_rel(f, exp, list) \
  ck_assert_msg(sc_rel_equal(rel_of(&(f), exp), pairs((f).x->nevents, list)), \
                "%s is not {%s}", exp, list)

/* ---- sr, scta ---------------------------------------------------------------- */

/* e0 init x; P0 (CTA 0): e1 st.cta, e2 st.gpu; P1 (CTA 1): e3 ld.gpu,
 * e4 ld.cta; P2 (CTA 0): e5 ld.cta, e6 ld.weak.  Both scopes must hold the
 * other thread: e1 (CTA 0) and e3 (CTA 1) are not in sr, e2 and e3 are
 * (one GPU); e2 and e4 are not (e4's CTA 1 leaves P0 out); e1 and e5 are
 * (one CTA), and e2 and e5; weak e6 has no scope, nor the initial write. */
#define SR_TEST                                                   \
  "PTX sr\n"                                                      \
  "{ x=0; }\n"                                                    \
  " P0@cta 0,gpu 0      | P1@cta 1,gpu 0       | P2@cta 0,gpu 0       ;\n" \
  " st.relaxed.cta x, 1 | ld.relaxed.gpu r0, x | ld.relaxed.cta r1, x ;\n" \
  " st.relaxed.gpu x, 2 | ld.relaxed.cta r2, x | ld.weak r3, x        ;\n" \
  "exists 0==0\n"

START_TEST(sr_takes_both_scopes) {
  fixture f = make(SR_TEST);
  ck_assert_rel(f, "[W]; sr; [R]", "1-5 2-3 2-5");
  ck_assert_rel(f, "sr & ext", "1-5 5-1 2-3 3-2 2-5 5-2");
  ck_assert_rel(f, "sr & int", "1-1 1-2 2-1 2-2 3-3 3-4 4-3 4-4 5-5");
  ck_assert_rel(f, "scta & ext", "1-5 2-5 1-6 2-6 5-1 5-2 6-1 6-2");
}
END_TEST

/* ---- Tags ---------------------------------------------------------------------- */

/* e0 init x, e1 init y; P0: e2 e3 the read and write of atom.acq_rel.gpu,
 * e4 e5 those of atom.acquire.cta, e6 fence.sc.cta, e7 fence.acq_rel.gpu,
 * e8 fence.proxy.alias, e9 ld.weak, e10 st.release.sys. */
#define TAG_TEST                                        \
  "PTX tags\n"                                          \
  "{ x=0; y=0; }\n"                                     \
  " P0@cta 0,gpu 0                ;\n"                  \
  " atom.acq_rel.gpu.add r0, x, 1 ;\n"                  \
  " atom.acquire.cta.add r1, x, 1 ;\n"                  \
  " fence.sc.cta                  ;\n"                  \
  " fence.acq_rel.gpu             ;\n"                  \
  " fence.proxy.alias             ;\n"                  \
  " ld.weak r2, y                 ;\n"                  \
  " st.release.sys y, 1           ;\n"                  \
  "exists 0==0\n"

START_TEST(tags_of_semantics_scopes_proxies) {
  fixture f = make(TAG_TEST);
  ck_assert_rel(f, "[ACQ]", "2-2 4-4");
  ck_assert_rel(f, "[REL]", "3-3 10-10");
  ck_assert_rel(f, "[RLX]", "5-5");
  ck_assert_rel(f, "[ACQ_REL]", "7-7");   /* fence.sc is SC only, as in Dat3M */
  ck_assert_rel(f, "[SC]", "6-6");
  ck_assert_rel(f, "[WEAK]", "9-9");
  ck_assert_rel(f, "[GPU]", "2-2 3-3 7-7");
  ck_assert_rel(f, "[CTA]", "4-4 5-5 6-6");
  ck_assert_rel(f, "[SYS]", "10-10");
  ck_assert_rel(f, "[GEN]", "2-2 3-3 4-4 5-5 6-6 7-7 9-9 10-10");
  ck_assert_rel(f, "[ALIAS]", "8-8");
  ck_assert_rel(f, "amo", "2-3 4-5");
}
END_TEST

/* ---- Proxies: loc and vloc --------------------------------------------------------- */

/* y is a generic alias of x (an address of its own), s a surface alias of
 * x and t a texture alias of y: one memory cell, the initial write e0;
 * P0: e1 st x, e2 st y, e3 sust s, e4 tld t.  loc holds all of them;
 * vloc the accesses through one generic address: x with s, y with t. */
#define ALIAS_TEST                                                  \
  "PTX alias\n"                                                     \
  "{ x=0; y @ generic aliases x; s @ surface aliases x;\n"         \
  "  t @ texture aliases y; }\n"                                    \
  " P0@cta 0,gpu 0 ;\n"                                             \
  " st.weak x, 1   ;\n"                                             \
  " st.weak y, 2   ;\n"                                             \
  " sust.weak s, 3 ;\n"                                             \
  " tld.weak r0, t ;\n"                                             \
  "exists 0==0\n"

START_TEST(vloc_follows_proxy_aliases) {
  fixture f = make(ALIAS_TEST);
  ck_assert_rel(f, "loc & (M * M) & ~id & int", "1-2 1-3 1-4 2-1 2-3 2-4 3-1 3-2 3-4 4-1 4-2 4-3");
  ck_assert_rel(f, "vloc & ~id & int", "1-3 3-1 2-4 4-2");
  ck_assert_rel(f, "[SUR]", "3-3");
  ck_assert_rel(f, "[TEX]", "4-4");
  ck_assert_rel(f, "[GEN] & [M]", "1-1 2-2");
}
END_TEST

/* ---- syncbar ------------------------------------------------------------------------ */

static int syncs(const fixture *f, sc_rel ***out) {
  int n;
  sc_error *err;
  ck_assert(sc_barrier_syncs(f->x, 1000000, out, &n, &err) == SC_OK);
  return n;
}

/* e0 init; e1 P0's bar 1 and e2 P1's bar 1 (CTA 0) synchronise; e3 P2's
 * bar 2 is alone in its group, and so is e4, P3's bar 1 in CTA 1: each
 * waits only for itself. */
START_TEST(syncbar_same_id_same_cta) {
  fixture f = make("PTX bars\n{ x=0; }\n"
                   " P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 0,gpu 0 | P3@cta 1,gpu 0 ;\n"
                   " bar.cta.sync 1 | bar.cta.sync 1 | bar.cta.sync 2 | bar.cta.sync 1 ;\n"
                   "exists 0==0\n");
  sc_rel **r;
  ck_assert_int_eq(syncs(&f, &r), 1);
  ck_assert(sc_rel_equal(r[0], pairs(f.x->nevents, "1-1 1-2 2-1 2-2 3-3 4-4")));
}
END_TEST

/* Barriers met in crossed orders deadlock: no execution; in the same order
 * they pass, bar 0 with bar 0 and bar 1 with bar 1. */
START_TEST(syncbar_deadlock) {
  fixture crossed = make("PTX dl\n{ x=0; }\n"
                         " P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
                         " bar.cta.sync 0 | bar.cta.sync 1 ;\n"
                         " bar.cta.sync 1 | bar.cta.sync 0 ;\n"
                         "exists 0==0\n");
  sc_rel **r;
  ck_assert_int_eq(syncs(&crossed, &r), 0);
  fixture same = make("PTX ok\n{ x=0; }\n"
                      " P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
                      " bar.cta.sync 0 | bar.cta.sync 0 ;\n"
                      " bar.cta.sync 1 | bar.cta.sync 1 ;\n"
                      "exists 0==0\n");
  ck_assert_int_eq(syncs(&same, &r), 1);
  ck_assert(sc_rel_equal(r[0], pairs(same.x->nevents,
                                     "1-1 1-3 3-1 3-3 2-2 2-4 4-2 4-4")));
}
END_TEST

/* Operands must agree: "bar.cta.sync 1, r2" with r2 = 0 is group (1, 0)
 * and meets "bar.cta.sync 1, 0", not "bar.cta.sync 1, 1". */
START_TEST(syncbar_register_ids) {
  fixture f = make("PTX ids\n{ x=0; P0:r2=0; }\n"
                   " P0@cta 0,gpu 0     | P1@cta 0,gpu 0    | P2@cta 0,gpu 0    ;\n"
                   " bar.cta.sync 1, r2 | bar.cta.sync 1, 0 | bar.cta.sync 1, 1 ;\n"
                   "exists 0==0\n");
  sc_rel **r;
  ck_assert_int_eq(syncs(&f, &r), 1);
  ck_assert(sc_rel_equal(r[0], pairs(f.x->nevents, "1-1 1-2 2-1 2-2 3-3")));
}
END_TEST

/* Quorum 2 of 3 (bar.cta.sync 1, 1, 2): the first two to arrive release
 * each other; the third leaves at once, after both arrived.  So whichever
 * arrives last synchronises with the others and not they with it: three
 * relations.  Quorum 4 is never reached: no execution. */
START_TEST(syncbar_quorum) {
  fixture f = make("PTX q\n{ x=0; }\n"
                   " P0@cta 0,gpu 0       | P1@cta 0,gpu 0       | P2@cta 0,gpu 0       ;\n"
                   " bar.cta.sync 1, 1, 2 | bar.cta.sync 1, 1, 2 | bar.cta.sync 1, 1, 2 ;\n"
                   "exists 0==0\n");
  sc_rel **r;
  ck_assert_int_eq(syncs(&f, &r), 3);
  for (int i = 0; i < 3; i++)
    ck_assert_int_eq(sc_rel_count(r[i]), 7);
  ck_assert(sc_rel_equal(r[0], pairs(f.x->nevents, "1-1 1-2 2-1 2-2 1-3 2-3 3-3")));
  fixture hang = make("PTX h\n{ x=0; }\n"
                      " P0@cta 0,gpu 0       | P1@cta 0,gpu 0       ;\n"
                      " bar.cta.sync 1, 1, 4 | bar.cta.sync 1, 1, 4 ;\n"
                      "exists 0==0\n");
  ck_assert_int_eq(syncs(&hang, &r), 0);
}
END_TEST

/* bar.arrive does not wait, nor does anything synchronise into it; the
 * bar.sync of its group waits for it. */
START_TEST(syncbar_arrive) {
  fixture f = make("PTX pc\n{ x=0; }\n"
                   " P0@cta 0,gpu 0   | P1@cta 0,gpu 0 ;\n"
                   " bar.cta.arrive 1 | bar.cta.sync 1 ;\n"
                   "exists 0==0\n");
  sc_rel **r;
  ck_assert_int_eq(syncs(&f, &r), 1);
  ck_assert(sc_rel_equal(r[0], pairs(f.x->nevents, "1-2 2-2")));
}
END_TEST

/* ---- Orders --------------------------------------------------------------------------- */

/* The numbers of labelled partial orders (OEIS A001035) and of total
 * orders; requiring every pair comparable leaves the total orders. */
START_TEST(order_counts) {
  static const int posets[] = {1, 1, 3, 19, 219, 4231};
  static const int totals[] = {1, 1, 2, 6, 24, 120};
  for (int k = 0; k <= 5; k++) {
    ck_assert_int_eq(sc_orders_partial(k, NULL, 1000000)->n, posets[k]);
    ck_assert_int_eq(sc_orders_total(k, 1000000)->n, totals[k]);
    uint32_t all[SC_ORDER_MAX_ITEMS];
    for (int i = 0; i < k; i++)
      all[i] = ((UINT32_C(1) << k) - 1) & ~(UINT32_C(1) << i);
    ck_assert_int_eq(sc_orders_partial(k, all, 1000000)->n, totals[k]);
  }
  ck_assert_ptr_null(sc_orders_partial(5, NULL, 4230));
}
END_TEST

/* Every listed partial order is irreflexive and transitive, and no two
 * are the same. */
START_TEST(orders_are_partial_and_distinct) {
  sc_order_list *l = sc_orders_partial(4, NULL, 1000000);
  for (int o = 0; o < l->n; o++) {
    const uint32_t *b = sc_order_at(l, o);
    for (int i = 0; i < 4; i++) {
      ck_assert(!(b[i] >> i & 1));
      for (int j = 0; j < 4; j++)
        if (b[i] >> j & 1)
          ck_assert((b[j] & ~b[i]) == 0);
    }
    for (int p = 0; p < o; p++)
      ck_assert(memcmp(b, sc_order_at(l, p), 4 * sizeof(uint32_t)) != 0);
  }
}
END_TEST

/* ---- Simulation choices ---------------------------------------------------------------- */

static sc_result *sim(const char *test, const char *model) {
  sc_test *t;
  sc_model *m;
  sc_result *r;
  sc_error *err;
  ck_assert(sc_test_load_string(test, "t.litmus", NULL, &t, &err) == SC_OK);
  ck_assert(sc_model_load_string(model, "m.cat", NULL, 0, &m, &err) == SC_OK);
  ck_assert_msg(sc_simulate(t, m, NULL, &r, &err) == SC_OK, "%s",
                sc_error_message(err));
  return r;
}

/* Two weak writes in two threads: in the PTX dialect co may order them
 * either way or not at all (3 candidates); unordered, x ends with either
 * value (Dat3M): 4 outcomes, 2 with x=1.  GPU_PTX keeps herd's total co. */
START_TEST(partial_co_and_final_values) {
  sc_result *r = sim("PTX co\n{ x=0; }\n"
                     " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                     " st.weak x, 1   | st.weak x, 2   ;\n"
                     "exists (x == 1)\n", "PTX\n");
  ck_assert_int_eq(sc_result_candidates(r), 3);
  ck_assert_int_eq(sc_result_positive(r), 2);
  ck_assert_int_eq(sc_result_negative(r), 2);
  r = sim("GPU_PTX co\n{ x=0; 0:.reg .b64 r1 = x; 1:.reg .b64 r1 = x; }\n"
          " P0                | P1                ;\n"
          " st.cg.s32 [r1], 1 | st.cg.s32 [r1], 2 ;\n"
          "exists (x=1)\n", "\"total\"\n");
  ck_assert_int_eq(sc_result_candidates(r), 2);
  ck_assert_int_eq(sc_result_positive(r), 1);
}
END_TEST

/* sync_fence orders the fence.sc pairs in sr: two fence.sc.gpu of one GPU
 * in two orders; two fence.sc.cta of different CTAs need no order (three
 * choices: none, either way).  A model that never names sync_fence sees
 * one candidate. */
START_TEST(sync_fence_orders_morally_strong_fences) {
  const char *uses = "PTX\nlet z = sync_fence\n";
  sc_result *r = sim("PTX f\n{ x=0; }\n"
                     " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                     " fence.sc.gpu   | fence.sc.gpu   ;\n"
                     "exists 0==0\n", uses);
  ck_assert_int_eq(sc_result_candidates(r), 2);
  r = sim("PTX f\n{ x=0; }\n"
          " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
          " fence.sc.cta   | fence.sc.cta   ;\n"
          "exists 0==0\n", uses);
  ck_assert_int_eq(sc_result_candidates(r), 3);
  r = sim("PTX f\n{ x=0; }\n"
          " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
          " fence.sc.gpu   | fence.sc.gpu   ;\n"
          "exists 0==0\n", "PTX\n");
  ck_assert_int_eq(sc_result_candidates(r), 1);
}
END_TEST

/* Barriers that deadlock leave no execution when the model names
 * syncbar (Dat3M's quorum1-hang); a model that does not sees plain
 * events, as herd7. */
START_TEST(deadlock_has_no_execution) {
  const char *test = "PTX hang\n{ x=0; }\n"
                     " P0@cta 0,gpu 0       | P1@cta 0,gpu 0 ;\n"
                     " bar.cta.sync 1, 1, 3 | st.weak x, 1   ;\n"
                     "exists 0==0\n";
  ck_assert_int_eq(sc_result_candidates(sim(test, "PTX\nlet z = syncbar\n")), 0);
  ck_assert_int_eq(sc_result_candidates(sim(test, "PTX\n")), 1);
}
END_TEST

/* The default models: ptx-rmo.cat for GPU_PTX, Dat3M's 6.0 for PTX, 7.5
 * when the test uses a proxy. */
START_TEST(default_models) {
  sc_test *t;
  sc_error *err;
  ck_assert(sc_test_load_string(SR_TEST, "t", NULL, &t, &err) == SC_OK);
  ck_assert_str_eq(sc_test_default_model(t), "ptx-v6.0.cat");
  ck_assert(sc_test_load_string(ALIAS_TEST, "t", NULL, &t, &err) == SC_OK);
  ck_assert_str_eq(sc_test_default_model(t), "ptx-v7.5.cat");
  ck_assert(sc_test_load_string(TAG_TEST, "t", NULL, &t, &err) == SC_OK);
  ck_assert_str_eq(sc_test_default_model(t), "ptx-v7.5.cat"); /* fence.proxy */
  ck_assert(sc_test_load_string("GPU_PTX g\n{ x=0; }\n P0 ;\n membar.cta ;\n"
                                "exists (x=0)\n", "t", NULL, &t, &err) == SC_OK);
  ck_assert_str_eq(sc_test_default_model(t), "ptx-rmo.cat");
}
END_TEST

/* The README's example: message passing across CTAs, forbidden with a
 * release and an acquire at GPU scope, allowed at CTA scope, under both
 * bundled models. */
START_TEST(readme_example) {
  const char *srcdir = getenv("SC_SRCDIR") ? getenv("SC_SRCDIR") : ".";
  static const char *const models[] = {"ptx-v6.0.cat", "ptx-v7.5.cat"};
  static const struct { const char *test; int validated; } tests[] = {
      {"MP+rel.gpu+acq.gpu", 0}, {"MP+rel.cta+acq.cta", 1}};
  char path[4096];
  for (int m = 0; m < 2; m++)
    for (int i = 0; i < 2; i++) {
      sc_test *t;
      sc_model *model;
      sc_result *r;
      sc_error *err;
      snprintf(path, sizeof path, "%s/ptx/modern/%s.litmus", srcdir, tests[i].test);
      ck_assert_msg(sc_test_load_file(path, NULL, &t, &err) == SC_OK, "%s",
                    sc_error_message(err));
      snprintf(path, sizeof path, "%s/cat/%s", srcdir, models[m]);
      ck_assert(sc_model_load_file(path, NULL, 0, &model, &err) == SC_OK);
      ck_assert(sc_simulate(t, model, NULL, &r, &err) == SC_OK);
      ck_assert_msg(sc_result_validated(r) == tests[i].validated, "%s under %s",
                    tests[i].test, models[m]);
    }
}
END_TEST

int main(void) {
  Suite *s = suite_create("ptx");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, sr_takes_both_scopes);
  tcase_add_test(tc, tags_of_semantics_scopes_proxies);
  tcase_add_test(tc, vloc_follows_proxy_aliases);
  tcase_add_test(tc, syncbar_same_id_same_cta);
  tcase_add_test(tc, syncbar_deadlock);
  tcase_add_test(tc, syncbar_register_ids);
  tcase_add_test(tc, syncbar_quorum);
  tcase_add_test(tc, syncbar_arrive);
  tcase_add_test(tc, order_counts);
  tcase_add_test(tc, orders_are_partial_and_distinct);
  tcase_add_test(tc, partial_co_and_final_values);
  tcase_add_test(tc, sync_fence_orders_morally_strong_fences);
  tcase_add_test(tc, deadlock_has_no_execution);
  tcase_add_test(tc, default_models);
  tcase_add_test(tc, readme_example);
  suite_add_tcase(s, tc);
  return sc_check_run(s);
}
