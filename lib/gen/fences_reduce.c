/* fences_reduce.c: empirical fence insertion, Alg. 1 of Alglave et al.'s
 * fence-insertion study (000, Sec. 5): start with a fence at every
 * position, remove halves while the check still passes (binary
 * reduction), then single fences (linear reduction; here in chunks that
 * are halved where they cannot go, see reduce_run), then confirm with a
 * longer check, doubling the iterations when it fails.  The check is the
 * caller's: the GPU harness, or a model standing in for it.  The algorithm
 * works on positions 0..n-1 and a check of a set of them
 * (sci_fence_reduce_sites), so that a litmus test's positions
 * (sc_fence_reduce) and a PTX file's accesses (lib/kernel/ptx_write.c)
 * share it. */
#include "gen/fences.h"

#include "util/error.h"
#include "util/gcmem.h"
#include "util/oom.h"

#include <string.h>

/* ---- Alg. 1 over positions 0..n-1 (a litmus test's, a PTX file's) ---- */

typedef struct sites {
  int n;
  sci_site_check check;
  void *ctx;
  bool *keep;   /* the set being checked, as flags */
  long checks;
  bool failed;  /* a check failed: every later one is skipped */
} sites;

/* A set of positions, in code order. */
typedef struct fence_set {
  int *at;
  int n;
} fence_set;

/* CheckApplication(A, F, I): true when the check observes no error. */
static bool passes(sites *r, fence_set s, long iterations) {
  if (r->failed)
    return false;
  memset(r->keep, 0, sizeof(bool) * (size_t)r->n);
  for (int i = 0; i < s.n; i++)
    r->keep[s.at[i]] = true;
  r->checks++;
  int ok = r->check(r->keep, iterations, r->ctx);
  if (ok < 0)
    r->failed = true;
  return ok > 0;
}

/* s without the fences at [from, to). */
static fence_set without(fence_set s, int from, int to) {
  fence_set out = {sci_alloc(sizeof(int) * (size_t)(s.n + 1)), 0};
  for (int i = 0; i < s.n; i++)
    if (i < from || i >= to)
      out.at[out.n++] = s.at[i];
  return out;
}

/* BinaryReduction: fences in code order; drop the first half, else the
 * second, while one of them can go.  Returns with *halves_fail set when
 * it stopped because neither half of the set it returns could go. */
static fence_set binary_reduction(sites *r, fence_set s, long iters,
                                  bool *halves_fail) {
  *halves_fail = false;
  while (s.n > 1) {
    int half = s.n / 2;
    fence_set no_first = without(s, 0, half), no_second = without(s, half, s.n);
    if (passes(r, no_first, iters))
      s = no_first;
    else if (passes(r, no_second, iters))
      s = no_second;
    else {
      *halves_fail = true;
      break;
    }
  }
  return s;
}

/* Runs this short or shorter go fence by fence, as 000's LinearReduction
 * does; longer ones are first tried whole. */
#define SHORT_RUN 4

static fence_set reduce_run(sites *r, fence_set s, int from, int *to,
                            long iters, bool known_needed);

/* The two halves of the run [from, *to) reduced in turn, the second from
 * where the first now ends; `needed`: a check already failed without
 * each.  *to is moved back by the fences dropped. */
static fence_set reduce_halves(sites *r, fence_set s, int from, int *to,
                               long iters, bool needed) {
  int mid = from + (*to - from) / 2, left_end = mid;
  s = reduce_run(r, s, from, &left_end, iters, needed);
  *to -= mid - left_end;
  return reduce_run(r, s, left_end, to, iters, needed);
}

/* LinearReduction over the run [from, *to) of s, in chunks: a run longer
 * than SHORT_RUN is first dropped whole (unless `known_needed`: a check
 * already failed without it), else halved and each half reduced in turn.
 * 000's one-fence-at-a-time pass costs a check per fence: on a kernel of
 * 189 global accesses (examples/apps/cbe-ht.cu with its loops unrolled)
 * the binary reduction stops near 90 fences, each check a rebuild and
 * several runs on the GPU, and the pass did not end in ten minutes.  In
 * chunks, k needed fences of n cost about 2k log2(n / k) checks; where
 * every fence is needed, n plus one per run tried whole.  Each fence kept
 * was still checked alone, as in the linear pass.  *to is moved back by
 * the fences dropped. */
static fence_set reduce_run(sites *r, fence_set s, int from, int *to,
                            long iters, bool known_needed) {
  if (*to - from <= SHORT_RUN) {
    for (int i = from; i < *to;) {
      fence_set fewer = without(s, i, i + 1);
      if (passes(r, fewer, iters))
        s = fewer, --*to;
      else
        i++;
    }
    return s;
  }
  if (!known_needed) {
    fence_set fewer = without(s, from, *to);
    if (passes(r, fewer, iters)) {
      *to = from;
      return fewer;
    }
  }
  return reduce_halves(r, s, from, to, iters, false);
}

/* LinearReduction of the whole set; where the binary reduction stopped on
 * its halves, each is known to be needed and is not tried whole again. */
static fence_set linear_reduction(sites *r, fence_set s, long iters,
                                  bool halves_fail) {
  int to = s.n;
  return halves_fail ? reduce_halves(r, s, 0, &to, iters, true)
                     : reduce_run(r, s, 0, &to, iters, false);
}

sci_reduce_verdict sci_fence_reduce_sites(int n, sci_site_check check,
                                          void *ctx, long iterations,
                                          bool *kept, long *checks) {
  sites r = {n, check, ctx, sci_alloc(sizeof(bool) * (size_t)(n + 1)), 0,
             false};
  fence_set all = {sci_alloc(sizeof(int) * (size_t)(n + 1)), n};
  for (int i = 0; i < n; i++)
    all.at[i] = i, kept[i] = false;
  long iters = iterations > 0 ? iterations : 1;
  sci_reduce_verdict v = SCI_REDUCE_NONE_SUFFICE;
  if (passes(&r, without(all, 0, all.n), iters)) {
    v = SCI_REDUCE_NOT_NEEDED;
  } else if (passes(&r, all, iters)) {
    /* EmpiricallyStable is a longer check: here 16 times the iterations;
     * when it fails, start again with twice as many (at most 8 times) */
    for (int round = 0; round < 8 && !r.failed; round++, iters *= 2) {
      bool halves_fail;
      fence_set s = binary_reduction(&r, all, iters, &halves_fail);
      s = linear_reduction(&r, s, iters, halves_fail);
      if (passes(&r, s, 16 * iters)) {
        for (int i = 0; i < s.n; i++)
          kept[s.at[i]] = true;
        v = SCI_REDUCE_FIXED;
        break;
      }
    }
  }
  *checks = r.checks;
  return r.failed ? SCI_REDUCE_FAILED : v;
}

/* The public face: flags as ints, the verdict as the header's. */
typedef struct public_check {
  sc_site_check check;
  void *ctx;
  int *flags;
  int n;
} public_check;

static int check_as_ints(const bool *keep, long iterations, void *ctx) {
  public_check *p = ctx;
  for (int i = 0; i < p->n; i++)
    p->flags[i] = keep[i];
  return p->check(p->flags, iterations, p->ctx);
}

sc_reduce_verdict sc_fence_reduce_sites(int n, sc_site_check check, void *ctx,
                                        long iterations, int *kept,
                                        long *checks) {
  *checks = 0;
  sc_oom_guard g;
  if (!SC_OOM_ENTER(g)) {
    sc_error *ignored = NULL;
    sci_oom_fail(&g, NULL, &ignored);
    return SC_REDUCE_FAILED;
  }
  public_check p = {check, ctx, sci_alloc(sizeof(int) * (size_t)(n + 1)), n};
  bool *flags = sci_alloc(sizeof(bool) * (size_t)(n + 1));
  sci_reduce_verdict v = sci_fence_reduce_sites(n, check_as_ints, &p,
                                                iterations, flags, checks);
  for (int i = 0; i < n; i++)
    kept[i] = flags[i];
  sci_oom_leave(&g);
  return v == SCI_REDUCE_NOT_NEEDED    ? SC_REDUCE_NOT_NEEDED
         : v == SCI_REDUCE_NONE_SUFFICE ? SC_REDUCE_NONE_SUFFICE
         : v == SCI_REDUCE_FIXED        ? SC_REDUCE_FIXED
                                        : SC_REDUCE_FAILED;
}

/* ---- a litmus test's positions ------------------------------------------ */

typedef struct reduction {
  const sc_test *t;
  const fence_kind *kind;
  sc_fence_check check;
  void *ctx;
  const position *pos;
  int npos;
} reduction;

/* The positions kept, as a fix of fences all of one kind. */
static fix as_fix(const reduction *r, const bool *keep, int npos) {
  int n = 0;
  for (int i = 0; i < npos; i++)
    n += keep[i];
  const position **at = sci_alloc(sizeof(position *) * (size_t)(n + 1));
  const fence_kind **kinds = sci_alloc(sizeof(fence_kind *) * (size_t)(n + 1));
  for (int i = 0, k = 0; i < npos; i++)
    if (keep[i])
      at[k] = &r->pos[i], kinds[k++] = r->kind;
  return (fix){n, at, kinds, NULL, NULL, 0};
}

/* The check of a set of positions: the test patched with them. */
static int check_test(const bool *keep, long iterations, void *ctx) {
  reduction *r = ctx;
  fix f = as_fix(r, keep, r->npos);
  return r->check(sci_fence_patch(r->t, &f), iterations, r->ctx);
}

static sc_status fence_reduce_unguarded(const sc_test *t,
                                        const sc_fence_options *opts,
                                        sc_fence_check check, void *ctx,
                                        long iterations, sc_fence_advice **out,
                                        sc_error **err) {
  *out = NULL;
  sc_fence_options none = {0};
  if (!opts)
    opts = &none;
  sc_fence_advice *a = sci_alloc(sizeof *a);
  a->pos = sci_fence_positions(t, &a->npos);
  /* __threadfence(), as the study inserts: membar.gl, or fence.sc.gpu */
  reduction r = {t, opts->ptx_fences ? &sci_ptx_fence_kinds[3]
                                     : &sci_membar_kinds[1],
                 check, ctx, a->pos, a->npos};
  bool *kept = sci_alloc(sizeof(bool) * (size_t)(a->npos + 1));
  sci_reduce_verdict v = sci_fence_reduce_sites(a->npos, check_test, &r,
                                                iterations, kept,
                                                &a->simulations);
  if (v == SCI_REDUCE_FAILED)
    return sci_fail(err, SC_ERR_USAGE, t->file, 0, 0,
                    "the fence check failed on %s", t->name);
  a->verdict = v == SCI_REDUCE_NOT_NEEDED ? SC_FENCES_ALREADY_FORBIDDEN
               : v == SCI_REDUCE_FIXED    ? SC_FENCES_FIXED
                                          : SC_FENCES_NONE_SUFFICE;
  if (v == SCI_REDUCE_FIXED) {
    fix f = as_fix(&r, kept, a->npos);
    f.test = sci_fence_patch(t, &f);
    f.text = sci_fence_describe(t, &f);
    sci_grow(&a->fixes, &a->capfixes, 1, sizeof(fix));
    a->fixes[a->nfixes++] = f;
  }
  *out = a;
  return SC_OK;
}

sc_status sc_fence_reduce(const sc_test *t, const sc_fence_options *opts,
                          sc_fence_check check, void *ctx, long iterations,
                          sc_fence_advice **out, sc_error **err) {
  sc_oom_guard g;
  if (!SC_OOM_ENTER(g))
    return sci_oom_fail(&g, t->file, err);
  sc_status st = fence_reduce_unguarded(t, opts, check, ctx, iterations, out,
                                        err);
  sci_oom_leave(&g);
  return st;
}
