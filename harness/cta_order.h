/* cta_order.h: where each CTA of a launch's layout goes, the one piece of
 * the harness's placement that decides which CTAs the GPU starts first.
 * Plain C, read by nvcc (gpu_main.cuh's make_roles) and by the host's unit
 * tests (tests/unit/check_gpu.c).
 *
 * The layout's CTA b holds instance group b / nc's CTA b % nc of the test's
 * scope tree (nc CTAs in the tree).  Normally the CTAs are shuffled as a
 * whole.  Oversubscribed (-oversubscribe 1, groups = the CTAs the GPU holds
 * at once), the tree's CTA c of every group lies in CTAs c * groups ..
 * (c + 1) * groups - 1, shuffled only among themselves: the GPU starts CTAs
 * in index order as room frees up, so the tree's CTA c + 1 of any instance
 * starts only after some CTA c has ended. */
#ifndef SC_CTA_ORDER_H
#define SC_CTA_ORDER_H

#include <stdint.h>

/* Fisher-Yates over v[0..n), drawing from rnd (the same draws as the
 * harness's shuffle of a vector). */
static inline void sc_shuffle_ints(int *v, int n, uint64_t (*rnd)(void)) {
  for (int i = n; i > 1; i--) {
    int j = (int)(rnd() % (uint64_t)i);
    int t = v[i - 1];
    v[i - 1] = v[j];
    v[j] = t;
  }
}

/* bperm[b]: the CTA index of the layout's CTA b, for nb = groups * nc
 * CTAs; `scratch` holds nb / nc ints; rnd is drawn only when `shuffled`. */
static inline void sc_cta_order(int *bperm, int *scratch, int nb, int nc,
                                int oversub, int shuffled,
                                uint64_t (*rnd)(void)) {
  int groups = nb / nc;
  for (int b = 0; b < nb; b++)
    bperm[b] = b;
  if (!oversub) {
    if (shuffled)
      sc_shuffle_ints(bperm, nb, rnd);
    return;
  }
  for (int c = 0; c < nc; c++) {
    for (int g = 0; g < groups; g++)
      scratch[g] = g;
    if (shuffled)
      sc_shuffle_ints(scratch, groups, rnd);
    for (int g = 0; g < groups; g++)
      bperm[g * nc + c] = c * groups + scratch[g];
  }
}

#endif
