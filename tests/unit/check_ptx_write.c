/* check_ptx_write.c: empirical fence insertion over a PTX file's
 * accesses: the fence writer of lib/kernel/ptx_write.c (the global
 * accesses of nvcc's PTX of tests/data/kernel/mp.cu, listed by hand with
 * their source lines, and of a hand-written .func: guards, state spaces,
 * a .loc inlined; the text written back is the input byte for byte but
 * the fences, and the kernel reader still reads it), and Alg. 1 over
 * positions (lib/gen/fences_reduce.c's sci_fence_reduce_sites) with
 * stand-in checks whose every call is worked out by hand. */
#define _POSIX_C_SOURCE 200809L
#include "gen/fences.h"
#include "kernel/kernel.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "check_srcdir.h"

/* The path of tests/data/kernel/NAME (kept for the run: the tests name it). */
static const char *data_file(const char *name) {
  char rel[256];
  snprintf(rel, sizeof rel, "tests/data/kernel/%s", name);
  return srcdir_path(rel);
}

static int count(const char *hay, const char *needle) {
  int n = 0;
  for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
    n++;
  return n;
}

/* mp.cu's kernel (tests/data/kernel/mp.cu): its global accesses, in the
 * PTX's order, with the .cu line each comes from. */
START_TEST(mp_sites_by_hand) {
  char *text = file_text(data_file("mp.ptx"));
  ptx_site *s;
  int n;
  sc_error *err = NULL;
  ck_assert_int_eq(sci_ptx_fence_sites(text, "mp.ptx", &s, &n, &err), SC_OK);
  struct { const char *op; int line; } want[] = {
      {"ld.acquire.gpu.b32", 12}, /* f.load(acquire), in the while */
      {"ld.global.u32", 13},      /* data[0] */
      {"st.global.u32", 13},      /* out[0] = */
      {"atom.global.cas.b32", 14},
      {"st.global.u32", 7},       /* data[0] = 42 + s[1] */
      {"st.release.gpu.b32", 9},  /* f.store(1, release) */
  };
  ck_assert_int_eq(n, 6);
  for (int i = 0; i < n; i++) {
    ck_assert_str_eq(s[i].op, want[i].op);
    ck_assert_int_eq(s[i].loc_file, 1);
    ck_assert_int_eq(s[i].loc_line, want[i].line);
    ck_assert_str_eq(s[i].function, "_Z2mpPiS_S_");
    ck_assert_int_eq(text[s[i].offset - 1], ';');
  }
  /* none kept: the text itself; all: six fences, each after its access */
  ck_assert_str_eq(sci_ptx_write_fenced(text, s, n, (bool[6]){0}, "fence.sc.gpu"),
                   text);
  const char *all = sci_ptx_write_fenced(text, s, n, NULL, "fence.sc.gpu");
  ck_assert_int_eq(count(all, "fence.sc.gpu;"), 6);
  ck_assert_int_eq((int)strlen(all),
                   (int)strlen(text) + 6 * (int)strlen(" fence.sc.gpu; // scopecat fence 0"));
  ck_assert_ptr_nonnull(strstr(all, "ld.global.u32 \t%r6, [%rd1]; fence.sc.gpu; // scopecat fence 1\n"));
  /* one kept: only it */
  bool keep[6] = {0, 0, 0, 1, 0, 0};
  const char *one = sci_ptx_write_fenced(text, s, n, keep, "fence.acq_rel.gpu");
  ck_assert_int_eq(count(one, "fence."), count(text, "fence.") + 1);
  ck_assert_ptr_nonnull(strstr(one, "%r8, %r7; fence.acq_rel.gpu; // scopecat fence 3\n"));
  /* the kernel reader reads the fenced module, with the same entry */
  ptx_module *m;
  ck_assert_int_eq(sci_ptx_parse(all, "mp-fenced.ptx", NULL, &m, &err), SC_OK);
  ck_assert_int_eq(m->nentries, 1);
  ck_assert_str_eq(m->entries[0].name, "_Z2mpPiS_S_");
  free(text);
}
END_TEST

/* A .func written by hand: a guarded store, shared and param accesses
 * left out (ld.shared::cta too), a reduction, a generic volatile load. */
START_TEST(func_sites) {
  const char *text =
      ".version 8.0\n.target sm_90\n.address_size 64\n"
      ".func (.param .b32 r) f(.param .b64 p);\n"
      ".func (.param .b32 r) f(.param .b64 p)\n"
      "{\n"
      " .reg .b64 %rd<2>; .reg .b32 %r<3>; .reg .pred %p<2>;\n"
      " .loc 1 3 1\n"
      " ld.param.u64 %rd1, [p];\n"
      " @!%p1 st.global.u32 [%rd1], %r1;\n"
      " ld.shared.u32 %r2, [%rd1];\n"
      " ld.shared::cta.u32 %r2, [%rd1];\n"
      "$L1:\n"
      " red.global.add.u32 [%rd1], 1;\n"
      " .loc 1 5 2\n"
      " .loc 2 40 2, function_name $L__s, inlined_at 1 5 2\n"
      " ld.volatile.u32 %r2, [%rd1];\n"
      " st.param.b32 [r], %r2;\n"
      " ret;\n"
      "}\n";
  ptx_site *s;
  int n;
  sc_error *err = NULL;
  ck_assert_int_eq(sci_ptx_fence_sites(text, "f.ptx", &s, &n, &err), SC_OK);
  ck_assert_int_eq(n, 3);
  ck_assert_str_eq(s[0].op, "st.global.u32");
  ck_assert_int_eq(s[0].line, 10);
  ck_assert_int_eq(s[0].col, 8);
  ck_assert_int_eq(s[0].loc_line, 3);
  ck_assert_str_eq(s[1].op, "red.global.add.u32");
  ck_assert_int_eq(s[1].loc_line, 3);
  ck_assert_str_eq(s[2].op, "ld.volatile.u32");
  ck_assert_int_eq(s[2].loc_line, 5); /* the plain .loc, not the inlined */
  for (int i = 0; i < n; i++)
    ck_assert_str_eq(s[i].function, "f");
  const char *out = sci_ptx_write_fenced(text, s, n, NULL, "membar.gl");
  ck_assert_ptr_nonnull(strstr(out, " @!%p1 st.global.u32 [%rd1], %r1; membar.gl; // scopecat fence 0\n"));
}
END_TEST

/* A module it cannot read: the lexer's error, with its position. */
START_TEST(sites_of_bad_text) {
  ptx_site *s;
  int n;
  sc_error *err = NULL;
  ck_assert_int_ne(sci_ptx_fence_sites(".entry k() {\n /* open\n", "bad.ptx", &s, &n, &err),
                   SC_OK);
  ck_assert_ptr_nonnull(err);
  ck_assert_int_eq(sc_error_line(err), 2);
  ck_assert_int_eq(sc_error_column(err), 2);
}
END_TEST

/* A stand-in for the GPU: an error shows unless the sites in `need` are
 * fenced; site 4 matters only from 80 iterations on (a rare error). */
typedef struct stand_in {
  int calls;
  long last_iterations;
  bool fail; /* the check itself fails */
} stand_in;

static int needs_1_and_4(const bool *keep, long iterations, void *ctx) {
  stand_in *g = ctx;
  g->calls++;
  g->last_iterations = iterations;
  if (g->fail)
    return -1;
  return keep[1] && (keep[4] || iterations < 80);
}

static int never_passes(const bool *keep, long iterations, void *ctx) {
  (void)keep, (void)iterations;
  ((stand_in *)ctx)->calls++;
  return 0;
}

static int always_passes(const bool *keep, long iterations, void *ctx) {
  (void)keep, (void)iterations;
  ((stand_in *)ctx)->calls++;
  return 1;
}

START_TEST(reduce_over_sites) {
  bool kept[6];
  long checks;
  stand_in g = {0, 0, false};
  /* 80 iterations from the start: none fails (1), all passes (2); binary:
   * [3,4,5] lacks 1 (3), [0,1,2] lacks 4 (4); linear: -0 passes (5), -1
   * fails (6), -2 passes (7), -3 passes (8), -4 fails (9), -5 passes (10):
   * {1, 4}; confirmed at 16 x 80 (11) */
  ck_assert_int_eq(sci_fence_reduce_sites(6, needs_1_and_4, &g, 80, kept, &checks),
                   SCI_REDUCE_FIXED);
  ck_assert_int_eq(checks, 11);
  ck_assert_int_eq(g.calls, 11);
  ck_assert_int_eq(g.last_iterations, 1280);
  for (int i = 0; i < 6; i++)
    ck_assert_int_eq(kept[i], i == 1 || i == 4);
  /* from 10 iterations, site 4 is not seen to matter until the rounds
   * have doubled them to 80: {1} fails its confirmations at 160, 320 and
   * 640; the fourth round (80) finds {1, 4}, confirmed at 1280 */
  g = (stand_in){0, 0, false};
  ck_assert_int_eq(sci_fence_reduce_sites(6, needs_1_and_4, &g, 10, kept, &checks),
                   SCI_REDUCE_FIXED);
  ck_assert_int_eq(g.last_iterations, 1280);
  for (int i = 0; i < 6; i++)
    ck_assert_int_eq(kept[i], i == 1 || i == 4);
  /* the verdicts: no fence needed (1 check), none suffices (2), a check
   * that fails stops the reduction */
  g = (stand_in){0, 0, false};
  ck_assert_int_eq(sci_fence_reduce_sites(6, always_passes, &g, 10, kept, &checks),
                   SCI_REDUCE_NOT_NEEDED);
  ck_assert_int_eq(checks, 1);
  g = (stand_in){0, 0, false};
  ck_assert_int_eq(sci_fence_reduce_sites(6, never_passes, &g, 10, kept, &checks),
                   SCI_REDUCE_NONE_SUFFICE);
  ck_assert_int_eq(checks, 2);
  g = (stand_in){0, 0, true};
  ck_assert_int_eq(sci_fence_reduce_sites(6, needs_1_and_4, &g, 10, kept, &checks),
                   SCI_REDUCE_FAILED);
  ck_assert_int_eq(g.calls, 1);
}
END_TEST

static int needs_5_and_33(const bool *keep, long iterations, void *ctx) {
  (void)iterations;
  ((stand_in *)ctx)->calls++;
  return keep[5] && keep[33];
}

/* 40 sites, two needed: the linear pass goes in chunks.  None fails (1),
 * all pass (2); binary: no 0-19 (3) and no 20-39 (4) fail.  First half,
 * known needed, in halves: -0..9 fails (5); in halves: -0..4 passes (6),
 * -5..9 fails (7), halves of two and three fence by fence: -5 fails (8),
 * -6 (9), -7 (10), -8 (11), -9 (12) pass; -10..19 passes (13).  Second
 * half (20-39), known needed, in halves: -20..29 passes (14), -30..39
 * fails (15); -30..34 fails (16): -30 (17), -31 (18), -32 (19) pass, -33
 * fails (20), -34 passes (21); -35..39 passes (22).  {5, 33} confirmed
 * (23), where the one-at-a-time pass took 45 checks. */
START_TEST(reduce_in_chunks) {
  bool kept[40];
  long checks;
  stand_in g = {0, 0, false};
  ck_assert_int_eq(sci_fence_reduce_sites(40, needs_5_and_33, &g, 10, kept, &checks),
                   SCI_REDUCE_FIXED);
  ck_assert_int_eq(checks, 23);
  ck_assert_int_eq(g.calls, 23);
  for (int i = 0; i < 40; i++)
    ck_assert_int_eq(kept[i], i == 5 || i == 33);
}
END_TEST

/* The public face (scopecat.h): mp.ptx's accesses with their .loc lines
 * named by the module's `.file`s, a fenced text as the library's writer
 * gives it, a body the text cuts short, and Alg. 1 with int flags. */
START_TEST(public_api) {
  char *text = file_text(data_file("mp.ptx"));
  sc_ptx_access *a;
  int n;
  sc_error *err = NULL;
  ck_assert_int_eq(sc_ptx_accesses(text, "mp.ptx", &a, &n, &err), SC_OK);
  ck_assert_int_eq(n, 6);
  for (int i = 0; i < n; i++)
    ck_assert_str_eq(a[i].source, "mp.cu"); /* .file 1 "mp.cu", unquoted */
  ck_assert_int_eq(a[4].source_line, 7);
  ck_assert_str_eq(a[4].op, "st.global.u32");
  ck_assert_int_eq(a[4].line, 81);
  ck_assert_int_eq(text[a[4].offset - 1], ';');
  const char *one = sc_ptx_fenced(text, a, n, (int[6]){0, 0, 0, 0, 7, 0},
                                  "fence.sc.gpu");
  ck_assert_int_eq(count(one, "scopecat fence"), 1);
  ck_assert_ptr_nonnull(strstr(one, "[%rd1], %r12; fence.sc.gpu; // scopecat fence 4\n"));
  ck_assert_int_ne(sc_ptx_accesses(".entry k()\n{\n st.global.u32 [%rd1], 1;\n",
                                   "cut.ptx", &a, &n, &err), SC_OK);
  ck_assert_str_eq(sc_error_message(err),
                   "cut.ptx:4:1: expected '}' closing the body of k, found "
                   "the end of the file");
  /* a site without .loc has no source */
  ck_assert_int_eq(sc_ptx_accesses(".entry k()\n{\n st.global.u32 [%rd1], 1;\n}\n",
                                   "k.ptx", &a, &n, &err), SC_OK);
  ck_assert_int_eq(n, 1);
  ck_assert_ptr_null(a[0].source);
  ck_assert_int_eq(a[0].source_line, 0);
  free(text);
}
END_TEST

static int public_needs_1_and_4(const int *keep, long iterations, void *ctx) {
  (void)iterations;
  ++*(int *)ctx;
  return keep[1] && keep[4];
}

/* sc_fence_reduce_sites: the 11 checks of reduce_over_sites's first case. */
START_TEST(public_reduce) {
  int kept[6], calls = 0;
  long checks;
  ck_assert_int_eq(sc_fence_reduce_sites(6, public_needs_1_and_4, &calls, 5,
                                         kept, &checks),
                   SC_REDUCE_FIXED);
  ck_assert_int_eq(checks, 11);
  ck_assert_int_eq(calls, 11);
  for (int i = 0; i < 6; i++)
    ck_assert_int_eq(kept[i], i == 1 || i == 4);
}
END_TEST

static Suite *ptx_write_suite(void) {
  Suite *s = suite_create("ptx_write");
  TCase *t = tcase_create("sites");
  tcase_add_test(t, mp_sites_by_hand);
  tcase_add_test(t, func_sites);
  tcase_add_test(t, sites_of_bad_text);
  tcase_add_test(t, reduce_over_sites);
  tcase_add_test(t, reduce_in_chunks);
  tcase_add_test(t, public_api);
  tcase_add_test(t, public_reduce);
  suite_add_tcase(s, t);
  return s;
}

int main(void) { return sc_check_run(ptx_write_suite()); }
