/* check_gpu.c: unit tests of the gpu layer: the CUDA program of a test
 * (lib/gpu, through the public sc_gpu_* API: placement, refusals with
 * their position, optcheck's expectations, the histogram's shape for
 * tests of many observed values) and the exact histogram's outcome table
 * (harness/outcome_table.h, the code the kernels run, compiled for the
 * host: every instance counted under its own outcome, against counts
 * kept here by plain arrays, with threads racing to insert); the litmus
 * test of a wrong load `gpu drf` finds (lib/gen/drf.c, sc_drf_litmus):
 * its text worked out by hand, and the model's verdict on it with and
 * without each fault the runner injects; the order of a launch's CTAs
 * (harness/cta_order.h), oversubscribed and not. */
#include "scopecat.h"

#include "cta_order.h"
#include "outcome_table.h"

#include <check.h>

#include "check_run.h"
#include "check_litmus_of.h"
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Programs -------------------------------------------------------------- */

static const char *const mp_inter =
    "GPU_PTX MP-inter\n{\nx=0; y=0;\n0:.reg .s32 r0; 1:.reg .s32 r0;\n"
    "1:.reg .s32 r1;\n}\n"
    " P0                  | P1                  ;\n"
    " st.relaxed.gpu.s32 [x], 1 | ld.relaxed.gpu.s32 r0, [y] ;\n"
    " st.relaxed.gpu.s32 [y], 1 | ld.relaxed.gpu.s32 r1, [x] ;\n"
    "scopeTree\n(device (kernel (cta (warp P0)) (cta (warp P1))))\n"
    "x: global, y: global\n"
    "exists (1:r0=1 /\\ 1:r1=0)\n";

/* The line `n` of `text` (1-based). */
static const char *line_of(const char *text, int n) {
  for (int i = 1; i < n && text; i++) {
    text = strchr(text, '\n');
    if (text)
      text++;
  }
  return text;
}

START_TEST(program_of_mp) {
  sc_gpu_program *p;
  sc_error *e;
  ck_assert_int_eq(sc_gpu_generate(litmus_of(mp_inter), &p, &e), SC_OK);
  const char *text = sc_gpu_program_text(p);
  /* two CTAs, one warp each; the condition both as C and as text */
  ck_assert_ptr_nonnull(strstr(text, "#define NC 2\n"));
  ck_assert_ptr_nonnull(strstr(text, "#define NWMAX 1\n"));
  ck_assert_ptr_nonnull(strstr(text, "return (((v[0] == 1LL)) && ((v[1] == 0LL))); }"));
  ck_assert_ptr_nonnull(strstr(
      text, "CONDITION = \"exists (1:r0=1 /\\\\ 1:r1=0)\";"));
  /* optcheck: each thread's asm block is on the line it names, with its
   * accesses in order */
  ck_assert_int_eq(sc_gpu_program_thread_count(p), 2);
  ck_assert_str_eq(sc_gpu_program_access_classes(p, 0), "SS");
  ck_assert_str_eq(sc_gpu_program_access_classes(p, 1), "LL");
  for (int t = 0; t < 2; t++) {
    const char *l = line_of(text, sc_gpu_program_asm_line(p, t));
    ck_assert_ptr_nonnull(l);
    ck_assert_msg(strncmp(l, "    asm volatile(\"", 18) == 0, "thread %d", t);
  }
  const char *l1 = line_of(text, sc_gpu_program_asm_line(p, 1));
  ck_assert_ptr_nonnull(strstr(l1, "ld.relaxed.gpu.s32 tr_r0, [tl_y]"));
  ck_assert_ptr_null(sc_gpu_program_access_classes(p, 2));
}
END_TEST

/* Fourteen observed registers: past the 4096 buckets even at radix 2, the
 * program keeps one bucket (all zero) and counts the rest in the table. */
START_TEST(program_of_many_observed_values) {
  char text[4096];
  int n = snprintf(text, sizeof text, "GPU_PTX many\n{\nx=0;\n");
  for (int r = 0; r < 14; r++)
    n += snprintf(text + n, sizeof text - (size_t)n, "0:.reg .s32 r%d;\n", r);
  n += snprintf(text + n, sizeof text - (size_t)n, "}\n P0 ;\n");
  for (int r = 0; r < 14; r++)
    n += snprintf(text + n, sizeof text - (size_t)n,
                  " ld.relaxed.gpu.s32 r%d, [x] ;\n", r);
  n += snprintf(text + n, sizeof text - (size_t)n,
                "scopeTree\n(device (kernel (cta (warp P0))))\nx: global\n"
                "exists (");
  for (int r = 0; r < 14; r++)
    n += snprintf(text + n, sizeof text - (size_t)n, "%s0:r%d=0",
                  r ? " /\\ " : "", r);
  snprintf(text + n, sizeof text - (size_t)n, ")\n");
  sc_gpu_program *p;
  sc_error *e;
  ck_assert_int_eq(sc_gpu_generate(litmus_of(text), &p, &e), SC_OK);
  const char *prog = sc_gpu_program_text(p);
  ck_assert_ptr_nonnull(strstr(prog, "#define NOBS 14\n"));
  ck_assert_ptr_nonnull(strstr(prog, "#define RADIX 1\n#define NBUCKETS 1\n"));
}
END_TEST

/* bar.sync 0 in the one thread of its CTA: barrier 0 counting one warp
 * (32 threads), not .aligned; the program in the barrier layout */
START_TEST(barrier_counts_warps) {
  const char *bar =
      "GPU_PTX B\n{\nx=0;\n0:.reg .s32 r0;\n}\n P0 ;\n"
      " st.relaxed.gpu.s32 [x], 1 ;\n bar.sync 0 ;\n"
      "scopeTree\n(device (kernel (cta (warp P0))))\nx: global\n"
      "exists (x=1)\n";
  sc_gpu_program *p;
  sc_error *e;
  ck_assert_int_eq(sc_gpu_generate(litmus_of(bar), &p, &e), SC_OK);
  const char *prog = sc_gpu_program_text(p);
  ck_assert_ptr_nonnull(strstr(prog, "barrier.sync 0, 32;"));
  ck_assert_ptr_nonnull(strstr(prog, "#define BARRIERS 1\n#define BAR_WARPS 1\n"));
}
END_TEST

START_TEST(refusals_say_where) {
  sc_gpu_program *p;
  sc_error *e;
  /* a barrier in a test with a shared location: the instruction's
   * position (the harness's write-back barrier would meet it) */
  const char *bar =
      "GPU_PTX B\n{\nx=0;\n0:.reg .s32 r0;\n}\n P0 ;\n"
      " st.relaxed.cta.shared.s32 [x], 1 ;\n bar.sync 0 ;\n"
      "scopeTree\n(device (kernel (cta (warp P0))))\nx: shared\n"
      "exists (x=1)\n";
  ck_assert_int_eq(sc_gpu_generate(litmus_of(bar), &p, &e), SC_ERR_UNSUPPORTED);
  ck_assert_ptr_null(p);
  ck_assert_int_eq(sc_error_line(e), 8);
  ck_assert_ptr_nonnull(strstr(sc_error_message(e), "t.litmus:8:"));
  ck_assert_ptr_nonnull(strstr(sc_error_message(e),
                               "barrier in a test with shared location x"));
  /* a shared location used by two CTAs: the test's file */
  const char *shared =
      "GPU_PTX S\n{\nx=0;\n1:.reg .s32 r0;\n}\n"
      " P0 | P1 ;\n st.relaxed.cta.shared.s32 [x], 1 | "
      "ld.relaxed.cta.shared.s32 r0, [x] ;\n"
      "scopeTree\n(device (kernel (cta (warp P0)) (cta (warp P1))))\n"
      "x: shared\nexists (1:r0=1)\n";
  ck_assert_int_eq(sc_gpu_generate(litmus_of(shared), &p, &e), SC_ERR_UNSUPPORTED);
  ck_assert_str_eq(sc_error_message(e), "t.litmus: shared location x is used "
                                        "by threads of different CTAs");
}
END_TEST

/* ---- The outcome table ------------------------------------------------------ */

enum { WIDTH = 3 };

typedef struct table_mem {
  ot_table t;
  unsigned used;
  unsigned long long lost;
} table_mem;

static table_mem *table_new(unsigned cap) {
  table_mem *m = calloc(1, sizeof *m);
  m->t.cap = cap;
  m->t.width = WIDTH;
  m->t.tag = calloc(cap, sizeof *m->t.tag);
  m->t.ready = calloc(cap, sizeof *m->t.ready);
  m->t.key = calloc((size_t)cap * WIDTH, sizeof *m->t.key);
  m->t.count = calloc(cap, sizeof *m->t.count);
  m->t.used = &m->used;
  m->t.lost = &m->lost;
  return m;
}

static void table_free(table_mem *m) {
  free(m->t.tag);
  free(m->t.ready);
  free(m->t.key);
  free(m->t.count);
  free(m);
}

/* The count the table holds for outcome v (0 when it has none). */
static unsigned long long count_of(const ot_table *t, const long long *v) {
  unsigned long long n = 0;
  int slots = 0;
  for (unsigned s = 0; s < t->cap; s++)
    if (t->tag[s] && !memcmp(t->key + (size_t)s * WIDTH, v, sizeof(long long) * WIDTH)) {
      n += t->count[s];
      slots++;
    }
  ck_assert_int_le(slots, 1); /* one slot per outcome */
  return n;
}

/* Outcome i of a small domain: values that are negative, large, and
 * beyond 32 bits, as no radix would hold them. */
static void outcome(int i, long long *v) {
  v[0] = i % 7 - 3;
  v[1] = (long long)(i % 5) * 1000000007LL;
  v[2] = -((long long)(i / 35) << 40) - i; /* one to one */
}

START_TEST(table_counts_every_instance) {
  table_mem *m = table_new(1024);
  enum { N = 100000, KINDS = 420 };
  static unsigned long long want[KINDS];
  memset(want, 0, sizeof want);
  unsigned long long seed = 7;
  for (int k = 0; k < N; k++) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    int i = (int)((seed >> 33) % KINDS);
    long long v[WIDTH];
    outcome(i, v);
    ck_assert(ot_insert(m->t, v, 1));
    want[i]++;
  }
  unsigned long long total = 0;
  for (int i = 0; i < KINDS; i++) {
    long long v[WIDTH];
    outcome(i, v);
    ck_assert_uint_eq(count_of(&m->t, v), want[i]);
    total += want[i];
  }
  ck_assert_uint_eq(total, N);
  ck_assert_uint_eq(m->lost, 0);
  /* the outcomes are 420 distinct ones (i -> v is one to one) */
  ck_assert_uint_eq(m->used, KINDS);
  table_free(m);
}
END_TEST

/* Another outcome already holds the slot with the same tag (a hash
 * collision): the insert compares the whole key and takes the next slot. */
START_TEST(table_collision_keeps_outcomes_apart) {
  table_mem *m = table_new(8);
  long long v[WIDTH] = {1, 2, 3}, other[WIDTH] = {9, 9, 9};
  unsigned long long h = ot_hash(v, WIDTH);
  unsigned s = (unsigned)h & 7;
  m->t.tag[s] = h;
  memcpy(m->t.key + (size_t)s * WIDTH, other, sizeof other);
  m->t.ready[s] = 1;
  m->t.count[s] = 5;
  ck_assert(ot_insert(m->t, v, 2));
  ck_assert_uint_eq(m->t.count[s], 5);
  ck_assert_uint_eq(count_of(&m->t, v), 2);
  ck_assert_uint_eq(m->t.tag[(s + 1) & 7], h);
  table_free(m);
}
END_TEST

START_TEST(table_full_counts_the_lost) {
  table_mem *m = table_new(4);
  for (int i = 0; i < 4; i++) {
    long long v[WIDTH] = {i, 0, 0};
    ck_assert(ot_insert(m->t, v, 1));
  }
  long long v[WIDTH] = {4, 0, 0}, again[WIDTH] = {2, 0, 0};
  ck_assert(!ot_insert(m->t, v, 3));
  ck_assert_uint_eq(m->lost, 3);
  ck_assert(ot_insert(m->t, again, 1)); /* a known outcome still counts */
  ck_assert_uint_eq(count_of(&m->t, again), 2);
  table_free(m);
}
END_TEST

/* Threads insert the same outcomes at once: the claims, the waits for a
 * key to be published and the counts race, as warps do on the GPU. */
enum { RACERS = 4, PER_RACER = 20000, RACE_KINDS = 64 };

static void *race(void *arg) {
  ot_table *t = arg;
  for (int k = 0; k < PER_RACER; k++) {
    long long v[WIDTH];
    outcome(k % RACE_KINDS, v);
    ot_insert(*t, v, 1);
  }
  return NULL;
}

START_TEST(table_concurrent_inserts) {
  table_mem *m = table_new(256);
  pthread_t th[RACERS];
  for (int i = 0; i < RACERS; i++)
    pthread_create(&th[i], NULL, race, &m->t);
  for (int i = 0; i < RACERS; i++)
    pthread_join(th[i], NULL);
  for (int i = 0; i < RACE_KINDS; i++) {
    long long v[WIDTH];
    outcome(i, v);
    ck_assert_uint_eq(count_of(&m->t, v),
                      (unsigned long long)RACERS * (PER_RACER / RACE_KINDS +
                                                    (i < PER_RACER % RACE_KINDS)));
  }
  ck_assert_uint_eq(m->used, RACE_KINDS);
  ck_assert_uint_eq(m->lost, 0);
  table_free(m);
}
END_TEST

/* ---- The litmus test of a wrong load (gpu drf) ---------------------------- */

/* An episode of a .gpu ticket lock in CTA `cta`, acquired relaxed then
 * fenced, released with st.release: the program's correct episode. */
static sc_drf_episode episode(int cta) {
  sc_drf_episode e;
  memset(&e, 0, sizeof e);
  e.scope = 1, e.ticket = 1, e.acquire = 0, e.release = 1;
  e.acquire_fence = 1, e.release_fence = 1, e.cta = cta;
  return e;
}

static const char *drf_text(sc_drf_shape shape, const sc_drf_episode *r,
                            const sc_drf_episode *w) {
  const char *text;
  sc_error *e;
  ck_assert_msg(sc_drf_litmus(shape, r, w, "drf-t", "two episodes", &text,
                              &e) == SC_OK, "%s", sc_error_message(e));
  return text;
}

/* Whether ptx-v6.0.cat allows the test's condition (the stale value). */
static bool drf_allowed(const char *text) {
  const char *src = getenv("SC_SRCDIR");
  char path[4096];
  snprintf(path, sizeof path, "%s/cat/ptx-v6.0.cat", src ? src : ".");
  sc_model *m;
  sc_error *e;
  ck_assert_msg(sc_model_load_file(path, NULL, 0, &m, &e) == SC_OK, "%s",
                sc_error_message(e));
  sc_test *t = litmus_of(text);
  sc_sim_options o;
  memset(&o, 0, sizeof o);
  sc_result *res;
  ck_assert_msg(sc_simulate(t, m, &o, &res, &e) == SC_OK, "%s",
                sc_error_message(e));
  return sc_result_positive(res) > 0;
}

/* P1 (CTA 1) missed P0's store: P0 stores x, fences, releases m := 2;
 * P1 reads m (ticket: a load), fences, loads x, releases m := 4. */
START_TEST(drf_litmus_missed_store) {
  sc_drf_episode r = episode(1), w = episode(0);
  w.release = 0; /* fence.acq_rel then st.relaxed */
  ck_assert_str_eq(
      drf_text(SC_DRF_MISSED_EARLIER, &r, &w),
      "PTX drf-t\n\"two episodes\"\n{\nx=1; m=0; P0:r0=0; P1:r0=0; P1:r1=0;\n}\n"
      " P0@cta 0,gpu 0           | P1@cta 1,gpu 0           ;\n"
      " st.weak x, 2             | ld.relaxed.gpu r0, m     ;\n"
      " fence.acq_rel.gpu        | fence.acq_rel.gpu        ;\n"
      " st.relaxed.gpu m, 2      | ld.weak r1, x            ;\n"
      "                          | st.release.gpu m, 4      ;\n"
      "exists (P1:r0 == 2 /\\ P1:r1 == 1)\n");
  /* synchronised: the stale value is forbidden; each fault the runner
   * injects makes it allowed */
  ck_assert(!drf_allowed(drf_text(SC_DRF_MISSED_EARLIER, &r, &w)));
  w.release_fence = 0; /* release-relaxed */
  ck_assert(drf_allowed(drf_text(SC_DRF_MISSED_EARLIER, &r, &w)));
  w.release_fence = 1, r.acquire_fence = 0; /* no-acquire-fence */
  ck_assert(drf_allowed(drf_text(SC_DRF_MISSED_EARLIER, &r, &w)));
  r.acquire_fence = 1, r.scope = w.scope = 0; /* cta-scoped across CTAs */
  ck_assert(drf_allowed(drf_text(SC_DRF_MISSED_EARLIER, &r, &w)));
}
END_TEST

/* P0 (the reader, CAS lock) read the store of P1, an episode after it,
 * which acquired what P0 released (m = 2: the release used to write 4,
 * which no acquire waits for, and the model forbade every such test):
 * only its load moved past its release makes that possible */
START_TEST(drf_litmus_read_later) {
  sc_drf_episode r = episode(0), w = episode(0);
  r.ticket = w.ticket = 0, r.acquire = w.acquire = 1;
  const char *text = drf_text(SC_DRF_READ_LATER, &r, &w);
  ck_assert_str_eq(
      text,
      "PTX drf-t\n\"two episodes\"\n{\nx=1; m=0; P0:r1=0; P1:r0=0;\n}\n"
      " P0@cta 0,gpu 0           | P1@cta 0,gpu 0           ;\n"
      " ld.weak r1, x            | atom.acquire.gpu.cas r0, m, 2, 3 ;\n"
      " st.release.gpu m, 2      | st.weak x, 2             ;\n"
      "exists (P0:r1 == 2 /\\ P1:r0 == 2)\n");
  ck_assert(!drf_allowed(text));
  r.load_moved = 1; /* load-outside */
  text = drf_text(SC_DRF_READ_LATER, &r, &w);
  ck_assert_msg(strstr(text, " st.release.gpu m, 2      | atom.acquire.gpu.cas r0, m, 2, 3 ;\n"
                             " ld.weak r1, x            | st.weak x, 2             ;\n"),
                "%s", text);
  ck_assert(drf_allowed(text));
}
END_TEST

/* P0's store (an earlier episode) landed after P1's own: P1 stores 3 and
 * reads 2 back, which coherence forbids once P1 acquired after P0 */
START_TEST(drf_litmus_overwritten) {
  sc_drf_episode r = episode(1), w = episode(0);
  const char *text = drf_text(SC_DRF_OVERWRITTEN, &r, &w);
  ck_assert_msg(strstr(text, "exists (P1:r0 == 2 /\\ P1:r1 == 2)\n") &&
                    strstr(text, " st.weak x, 2             | ld.relaxed.gpu r0, m     ;\n"),
                "%s", text);
  ck_assert(!drf_allowed(text));
  sc_error *e;
  const char *out;
  ck_assert_int_eq(sc_drf_litmus(SC_DRF_OVERWRITTEN, &r, &w, "t", "a \"quote\"",
                                 &out, &e), SC_ERR_USAGE);
  r.scope = 3;
  ck_assert_int_eq(sc_drf_litmus(SC_DRF_OVERWRITTEN, &r, &w, "t", "doc", &out,
                                 &e), SC_ERR_USAGE);
}
END_TEST

/* ---- The order of CTAs ------------------------------------------------------ */

static uint64_t lcg_state;
static uint64_t lcg(void) {
  lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return lcg_state >> 17;
}

/* Whether bperm[0..n) holds each of 0..n-1 once. */
static bool is_permutation(const int *bperm, int n) {
  char seen[64] = {0};
  for (int b = 0; b < n; b++) {
    if (bperm[b] < 0 || bperm[b] >= n || seen[bperm[b]])
      return false;
    seen[bperm[b]] = 1;
  }
  return true;
}

/* Oversubscribed, with 5 groups of 3 CTAs: the scope tree's CTA c of every
 * group lies in CTAs 5c..5c+4 (so the GPU, starting CTAs in index order,
 * starts every CTA 0 before any CTA 1), the groups shuffled within. */
START_TEST(cta_order_oversubscribed_keeps_tree_ctas_apart) {
  int bperm[15], scratch[5];
  lcg_state = 7;
  sc_cta_order(bperm, scratch, 15, 3, 1, 1, lcg);
  ck_assert(is_permutation(bperm, 15));
  bool moved = false;
  for (int b = 0; b < 15; b++) {
    ck_assert_msg(bperm[b] / 5 == b % 3, "CTA %d (tree CTA %d) at %d", b,
                  b % 3, bperm[b]);
    moved = moved || bperm[b] != (b % 3) * 5 + b / 3;
  }
  ck_assert_msg(moved, "the groups are not shuffled");
  /* unshuffled: group g's tree CTA c at c * 5 + g */
  sc_cta_order(bperm, scratch, 15, 3, 1, 0, lcg);
  for (int b = 0; b < 15; b++)
    ck_assert_int_eq(bperm[b], (b % 3) * 5 + b / 3);
}
END_TEST

/* Not oversubscribed: the identity unshuffled, a permutation that mixes
 * the tree's CTAs shuffled (a group's CTAs are anywhere). */
START_TEST(cta_order_default_shuffles_all) {
  int bperm[16], scratch[8];
  sc_cta_order(bperm, scratch, 16, 2, 0, 0, lcg);
  for (int b = 0; b < 16; b++)
    ck_assert_int_eq(bperm[b], b);
  lcg_state = 7;
  sc_cta_order(bperm, scratch, 16, 2, 0, 1, lcg);
  ck_assert(is_permutation(bperm, 16));
  bool mixed = false;
  for (int b = 0; b < 16; b++)
    mixed = mixed || bperm[b] / 8 != b % 2;
  ck_assert(mixed);
}
END_TEST

static Suite *gpu_suite(void) {
  Suite *s = suite_create("gpu");
  TCase *prog = tcase_create("program");
  tcase_add_test(prog, program_of_mp);
  tcase_add_test(prog, program_of_many_observed_values);
  tcase_add_test(prog, barrier_counts_warps);
  tcase_add_test(prog, refusals_say_where);
  suite_add_tcase(s, prog);
  TCase *table = tcase_create("outcome table");
  tcase_add_test(table, table_counts_every_instance);
  tcase_add_test(table, table_collision_keeps_outcomes_apart);
  tcase_add_test(table, table_full_counts_the_lost);
  tcase_add_test(table, table_concurrent_inserts);
  suite_add_tcase(s, table);
  TCase *drf = tcase_create("drf litmus");
  tcase_add_test(drf, drf_litmus_missed_store);
  tcase_add_test(drf, drf_litmus_read_later);
  tcase_add_test(drf, drf_litmus_overwritten);
  suite_add_tcase(s, drf);
  TCase *order = tcase_create("cta order");
  tcase_add_test(order, cta_order_oversubscribed_keeps_tree_ctas_apart);
  tcase_add_test(order, cta_order_default_shuffles_all);
  suite_add_tcase(s, order);
  return s;
}

int main(void) { return sc_check_run(gpu_suite()); }
