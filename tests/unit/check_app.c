/* check_app.c: `gpu app`'s interposer bookkeeping (harness/app_plan.h) and
 * app.cuh's permutations, compiled for the host: parameters read and
 * refused, the stressing CTAs' count against seed 000's 15%..50% and the
 * half-the-GPU cap worked out by hand, the generations and the ledger, the
 * seed variable's names, and that every permutation is one (a bijection)
 * that keeps warps whole and is the identity without a seed. */
#define _POSIX_C_SOURCE 200809L
#include "app_plan.h"
#include "scopecat/app.cuh"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"

/* The variables a test sets: NAME=VALUE pairs, NULL-ended. */
static const char *const *vars;

static const char *get_var(const char *name) {
  for (int i = 0; vars && vars[i]; i += 2)
    if (!strcmp(vars[i], name))
      return vars[i + 1];
  return NULL;
}

static const char *read_with(const char *const *v, sc_app_params *p,
                             const char **why) {
  vars = v;
  return sc_app_params_read(p, get_var, why);
}

START_TEST(params_defaults_and_values) {
  sc_app_params p;
  const char *why = NULL;
  ck_assert_ptr_null(read_with(NULL, &p, &why));
  /* gpu run's defaults: st,ld (store first: bit 0), 2 of 64 patches of
   * 32 words, 256 threads, no stress, no randomisation, seed 1 */
  ck_assert_int_eq(p.mode, SC_APP_NONE);
  ck_assert_int_eq(p.randomise, 0);
  ck_assert_uint_eq(p.seq, 1);
  ck_assert_uint_eq(p.seq_len, 2);
  ck_assert_uint_eq(p.patch, 32);
  ck_assert_uint_eq(p.regions, 64);
  ck_assert_uint_eq(p.spread, 2);
  ck_assert_uint_eq(p.tpb, 256);
  ck_assert_uint_eq(p.seed, 1);
  const char *const set[] = {SC_APP_ENV_MODE, "cache", SC_APP_ENV_RAND, "1",
                             SC_APP_ENV_SEED, "18446744073709551615",
                             SC_APP_ENV_SEQ, "ld,st,st", SC_APP_ENV_PATCH, "16",
                             SC_APP_ENV_REGIONS, "8", SC_APP_ENV_SPREAD, "8",
                             SC_APP_ENV_TPB, "1024", NULL};
  ck_assert_ptr_null(read_with(set, &p, &why));
  ck_assert_int_eq(p.mode, SC_APP_CACHE);
  ck_assert_int_eq(p.randomise, 1);
  ck_assert_uint_eq(p.seed, ~0ull);
  ck_assert_uint_eq(p.seq, 6); /* ld st st: bits 1 and 2 */
  ck_assert_uint_eq(p.seq_len, 3);
  ck_assert_uint_eq(p.patch, 16);
  ck_assert_uint_eq(p.regions, 8);
  ck_assert_uint_eq(p.spread, 8);
  ck_assert_uint_eq(p.tpb, 1024);
}
END_TEST

START_TEST(params_refused) {
  struct { const char *name, *value, *why; } bad[] = {
      {SC_APP_ENV_MODE, "stres", "none, stress, random or cache"},
      {SC_APP_ENV_RAND, "2", "0 or 1"},
      {SC_APP_ENV_SEED, "-1", "a non-negative number"},
      {SC_APP_ENV_SEED, "1x", "a non-negative number"},
      {SC_APP_ENV_SEQ, "st,", "at most 16 of st and ld separated by commas"},
      {SC_APP_ENV_SEQ, "st,xx", "at most 16 of st and ld separated by commas"},
      {SC_APP_ENV_SEQ, "st,st,st,st,st,st,st,st,st,st,st,st,st,st,st,st,st",
       "at most 16 of st and ld separated by commas"},
      {SC_APP_ENV_PATCH, "0", "a positive number in range"},
      {SC_APP_ENV_SPREAD, "33", "a positive number in range"},
      {SC_APP_ENV_TPB, "16", "a positive number in range"},
      {SC_APP_ENV_TPB, "48", "a multiple of 32"},
      {SC_APP_ENV_REGIONS, "", "a positive number in range"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    const char *const v[] = {bad[i].name, bad[i].value, NULL};
    sc_app_params p;
    const char *why = NULL;
    ck_assert_str_eq(read_with(v, &p, &why), bad[i].name);
    ck_assert_str_eq(why, bad[i].why);
  }
  /* 3 patches stressed at once in a scratchpad of 2 */
  const char *const over[] = {SC_APP_ENV_REGIONS, "2", SC_APP_ENV_SPREAD, "3",
                              NULL};
  sc_app_params p;
  const char *why = NULL;
  ck_assert_str_eq(read_with(over, &p, &why), SC_APP_ENV_SPREAD);
  /* 16 accesses is the most */
  const char *const sixteen[] = {
      SC_APP_ENV_SEQ, "ld,ld,ld,ld,ld,ld,ld,ld,ld,ld,ld,ld,ld,ld,ld,st", NULL};
  ck_assert_ptr_null(read_with(sixteen, &p, &why));
  ck_assert_uint_eq(p.seq, 1u << 15);
  ck_assert_uint_eq(p.seq_len, 16);
}
END_TEST

/* The least and most of `draws` counts for a kernel of `ctas` CTAs. */
static void ctas_range(unsigned long long ctas, unsigned resident,
                       unsigned *lo, unsigned *hi) {
  sc_app_params p;
  sc_app_params_default(&p);
  p.mode = SC_APP_STRESS;
  unsigned long long rng = 7;
  *lo = ~0u, *hi = 0;
  for (int i = 0; i < 4000; i++) {
    unsigned n = sc_app_stress_ctas(&p, ctas, resident, &rng);
    *lo = n < *lo ? n : *lo;
    *hi = n > *hi ? n : *hi;
  }
}

START_TEST(stress_ctas_sized_as_000) {
  unsigned lo, hi;
  /* 100 CTAs: 15..50, both ends drawn in 4000 tries (36 values) */
  ctas_range(100, 100000, &lo, &hi);
  ck_assert_uint_eq(lo, 15);
  ck_assert_uint_eq(hi, 50);
  /* 7 CTAs: ceil(1.05) = 2 .. floor(3.5) = 3 */
  ctas_range(7, 100000, &lo, &hi);
  ck_assert_uint_eq(lo, 2);
  ck_assert_uint_eq(hi, 3);
  /* 1 CTA: 15% rounds up to 1, 50% down to 0: 1 */
  ctas_range(1, 100000, &lo, &hi);
  ck_assert_uint_eq(lo, 1);
  ck_assert_uint_eq(hi, 1);
  /* 1000 CTAs on a GPU holding 100 at once: 150..500 capped at 50 */
  ctas_range(1000, 100, &lo, &hi);
  ck_assert_uint_eq(lo, 50);
  ck_assert_uint_eq(hi, 50);
  /* 300 CTAs, 200 resident: 45..150, capped at 100 */
  ctas_range(300, 200, &lo, &hi);
  ck_assert_uint_eq(lo, 45);
  ck_assert_uint_eq(hi, 100);
  /* no stress: none */
  sc_app_params p;
  sc_app_params_default(&p);
  unsigned long long rng = 1;
  ck_assert_uint_eq(sc_app_stress_ctas(&p, 100, 1000, &rng), 0);
  p.mode = SC_APP_RANDOM;
  ck_assert_uint_eq(sc_app_stress_ctas(&p, 0, 1000, &rng), 0);
}
END_TEST

START_TEST(generations_and_ledger) {
  sc_app_ledger l;
  memset(&l, 0, sizeof l);
  ck_assert_uint_eq(sc_app_launch_begin(&l, 0), 0); /* not stressed */
  unsigned g1 = sc_app_launch_begin(&l, 5);
  unsigned g2 = sc_app_launch_begin(&l, 3);
  ck_assert_uint_eq(g1, 1);
  ck_assert_uint_eq(g2, 2); /* generations grow: a late stop still stops */
  sc_app_launch_stop(&l, 0);
  sc_app_launch_stop(&l, g1);
  sc_app_launch_stop(&l, g2);
  ck_assert_uint_eq(l.launches, 3);
  ck_assert_uint_eq(l.stressed, 2);
  ck_assert_uint_eq(l.stress_ctas, 8);
  ck_assert_uint_eq(l.stopped, 2);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  sc_app_ledger_write(&l, f);
  sc_app_ledger_write(&l, f);
  fclose(f);
  ck_assert_str_eq(buf, "scopecat-app launches 3 stressed 2 ctas 8 stopped 2\n"
                        "scopecat-app launches 3 stressed 2 ctas 8 stopped 2\n");
  sc_app_ledger sum;
  memset(&sum, 0, sizeof sum);
  ck_assert_int_eq(sc_app_ledger_add(&sum, buf), 1);
  ck_assert_int_eq(sc_app_ledger_add(&sum, strchr(buf, '\n') + 1), 1);
  ck_assert_int_eq(sc_app_ledger_add(&sum, "launches 3"), 0);
  ck_assert_uint_eq(sum.launches, 6);
  ck_assert_uint_eq(sum.stressed, 4);
  ck_assert_uint_eq(sum.stress_ctas, 16);
  ck_assert_uint_eq(sum.stopped, 4);
  ck_assert_int_eq(sum.costed, 0);
  free(buf);
  /* -cost's fields: summed; energy known while every costed line knows it */
  sc_app_ledger cost;
  memset(&cost, 0, sizeof cost);
  cost.launches = 1, cost.costed = 1, cost.kernel_us = 250;
  cost.energy_known = 1, cost.energy_mj = 4000;
  f = open_memstream(&buf, &len);
  sc_app_ledger_write(&cost, f);
  cost.energy_known = 0;
  sc_app_ledger_write(&cost, f);
  fclose(f);
  ck_assert_str_eq(buf, "scopecat-app launches 1 stressed 0 ctas 0 stopped 0 "
                        "kernel-us 250 energy-mj 4000\n"
                        "scopecat-app launches 1 stressed 0 ctas 0 stopped 0 "
                        "kernel-us 250 energy-mj -\n");
  memset(&sum, 0, sizeof sum);
  ck_assert_int_eq(sc_app_ledger_add(&sum, buf), 1);
  ck_assert_int_eq(sum.costed, 1);
  ck_assert_int_eq(sum.energy_known, 1);
  ck_assert_uint_eq(sum.energy_mj, 4000);
  ck_assert_int_eq(sc_app_ledger_add(&sum, strchr(buf, '\n') + 1), 1);
  ck_assert_uint_eq(sum.kernel_us, 500);
  ck_assert_int_eq(sum.energy_known, 0);
  free(buf);
}
END_TEST

START_TEST(seed_variable_and_launch_seeds) {
  ck_assert(sc_app_is_seed_var("sc_app_seed"));
  ck_assert(sc_app_is_seed_var("_ZL11sc_app_seed")); /* nvcc's, static */
  ck_assert(!sc_app_is_seed_var("seed"));
  ck_assert(!sc_app_is_seed_var(NULL));
  sc_app_params p;
  sc_app_params_default(&p);
  ck_assert_uint_eq(sc_app_launch_seed(&p, 3), 0); /* identity */
  p.randomise = 1;
  unsigned long long seen[200];
  for (int k = 0; k < 200; k++) {
    seen[k] = sc_app_launch_seed(&p, (unsigned long long)k);
    ck_assert_uint_ne(seen[k], 0);
    for (int j = 0; j < k; j++)
      ck_assert_uint_ne(seen[j], seen[k]);
  }
}
END_TEST

START_TEST(permutations_keep_warps) {
  const unsigned sizes[] = {1, 2, 7, 31, 32, 33, 64, 96, 100, 250, 1024};
  const unsigned long long seeds[] = {0, 1, 2, 12345, 0xDEADBEEFull, ~0ull};
  static unsigned char hit[1024];
  int moved = 0;
  for (size_t s = 0; s < sizeof seeds / sizeof *seeds; s++)
    for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
      unsigned nt = sizes[z], full = nt / 32;
      memset(hit, 0, sizeof hit);
      for (unsigned t = 0; t < nt; t++) {
        unsigned u = sc_app_thread_perm(t, nt, seeds[s]);
        ck_assert_uint_lt(u, nt);
        ck_assert(!hit[u]);
        hit[u] = 1;
        if (seeds[s] == 0)
          ck_assert_uint_eq(u, t);
        moved += u != t;
        /* the warp of t goes whole to the warp of u: the first lane's
         * warp decides, the others follow it */
        if (t < full * 32) {
          unsigned first = sc_app_thread_perm(t - t % 32, nt, seeds[s]);
          ck_assert_uint_eq(u / 32, first / 32);
        } else {
          ck_assert_uint_ge(u, full * 32); /* the partial warp stays */
        }
      }
      memset(hit, 0, sizeof hit);
      for (unsigned b = 0; b < nt; b++) {
        unsigned u = sc_app_block_perm(b, nt, seeds[s]);
        ck_assert_uint_lt(u, nt);
        ck_assert(!hit[u]);
        hit[u] = 1;
        if (seeds[s] == 0)
          ck_assert_uint_eq(u, b);
      }
    }
  ck_assert_int_gt(moved, 1000); /* seeds do move threads */
}
END_TEST

static Suite *app_suite(void) {
  Suite *s = suite_create("app");
  TCase *t = tcase_create("plan");
  tcase_add_test(t, params_defaults_and_values);
  tcase_add_test(t, params_refused);
  tcase_add_test(t, stress_ctas_sized_as_000);
  tcase_add_test(t, generations_and_ledger);
  tcase_add_test(t, seed_variable_and_launch_seeds);
  tcase_add_test(t, permutations_keep_warps);
  suite_add_tcase(s, t);
  return s;
}

int main(void) { return sc_check_run(app_suite()); }
