/* fences_reduce.c: empirical fence insertion, Alg. 1 of Alglave et al.'s
 * fence-insertion study (000, Sec. 5): start with a fence at every
 * position, remove halves while the check still passes (binary
 * reduction), then single fences (linear reduction), then confirm with a
 * longer check, doubling the iterations when it fails.  The check is the
 * caller's: the GPU harness, or a model standing in for it. */
#include "gen/fences.h"

#include "util/error.h"
#include "util/gcmem.h"
#include "util/oom.h"

#include <string.h>

typedef struct reduction {
  const sc_test *t;
  const fence_kind *kind;
  sc_fence_check check;
  void *ctx;
  sc_fence_advice *a;
  sc_status status;
  sc_error **err;
} reduction;

/* The fence set as a list of positions, all of one kind. */
typedef struct fence_set {
  const position **at;
  int n;
} fence_set;

static fix as_fix(const reduction *r, fence_set s) {
  const fence_kind **kinds = sci_alloc(sizeof(fence_kind *) * (size_t)(s.n + 1));
  for (int i = 0; i < s.n; i++)
    kinds[i] = r->kind;
  return (fix){s.n, s.at, kinds, NULL, NULL, 0};
}

/* CheckApplication(A, F, I): true when the check observes no error. */
static bool passes(reduction *r, fence_set s, long iterations) {
  if (r->status != SC_OK)
    return false;
  fix f = as_fix(r, s);
  r->a->simulations++;
  int ok = r->check(sci_fence_patch(r->t, &f), iterations, r->ctx);
  if (ok < 0)
    r->status = sci_fail(r->err, SC_ERR_USAGE, r->t->file, 0, 0,
                        "the fence check failed on %s", r->t->name);
  return ok > 0;
}

/* s without the fences at [from, to). */
static fence_set without(fence_set s, int from, int to) {
  fence_set out = {sci_alloc(sizeof(position *) * (size_t)(s.n + 1)), 0};
  for (int i = 0; i < s.n; i++)
    if (i < from || i >= to)
      out.at[out.n++] = s.at[i];
  return out;
}

/* BinaryReduction: fences in code order; drop the first half, else the
 * second, while one of them can go. */
static fence_set binary_reduction(reduction *r, fence_set s, long iters) {
  while (s.n > 1) {
    int half = s.n / 2;
    fence_set no_first = without(s, 0, half), no_second = without(s, half, s.n);
    if (passes(r, no_first, iters))
      s = no_first;
    else if (passes(r, no_second, iters))
      s = no_second;
    else
      break;
  }
  return s;
}

/* LinearReduction: try removing each fence once, in order. */
static fence_set linear_reduction(reduction *r, fence_set s, long iters) {
  for (int i = 0; i < s.n;) {
    fence_set fewer = without(s, i, i + 1);
    if (passes(r, fewer, iters))
      s = fewer;
    else
      i++;
  }
  return s;
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
  /* __threadfence(), as the study inserts: membar.gl, or fence.sc.gpu */
  reduction r = {t, opts->ptx_fences ? &sci_ptx_fence_kinds[3]
                                     : &sci_membar_kinds[1],
                 check, ctx, a, SC_OK, err};
  a->pos = sci_fence_positions(t, &a->npos);
  fence_set all = {sci_alloc(sizeof(position *) * (size_t)(a->npos + 1)),
                   a->npos};
  for (int i = 0; i < a->npos; i++)
    all.at[i] = &a->pos[i];
  long iters = iterations > 0 ? iterations : 1;
  a->verdict = SC_FENCES_NONE_SUFFICE;
  if (passes(&r, without(all, 0, all.n), iters)) {
    a->verdict = SC_FENCES_ALREADY_FORBIDDEN;
  } else if (passes(&r, all, iters)) {
    /* EmpiricallyStable is a longer check: here 16 times the iterations;
     * when it fails, start again with twice as many (at most 8 times) */
    for (int round = 0; round < 8 && r.status == SC_OK; round++, iters *= 2) {
      fence_set s = linear_reduction(&r, binary_reduction(&r, all, iters),
                                     iters);
      if (passes(&r, s, 16 * iters)) {
        fix f = as_fix(&r, s);
        f.test = sci_fence_patch(t, &f);
        f.text = sci_fence_describe(t, &f);
        sci_grow(&a->fixes, &a->capfixes, 1, sizeof(fix));
        a->fixes[a->nfixes++] = f;
        a->verdict = SC_FENCES_FIXED;
        break;
      }
    }
  }
  if (r.status != SC_OK)
    return r.status;
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
