/* fences.h: what fence advice (fences.c) and empirical fence reduction
 * (fences_reduce.c) share: fence kinds, positions between accesses, fixes,
 * and the test patched with a fix. */
#ifndef SC_FENCES_H
#define SC_FENCES_H

#include "litmus/litmus.h"

/* A fence kind, with its cost: scope first (cta < gpu < sys), then
 * strength (acq_rel < sc).  Kinds are ordered so that a stronger kind
 * has a larger index within its family. */
typedef struct fence_kind {
  sc_opcode op;
  sc_sem sem;
  sc_scope scope;
  const char *name;
} fence_kind;

extern const fence_kind sci_membar_kinds[3];   /* membar.cta .gl .sys */
extern const fence_kind sci_ptx_fence_kinds[6]; /* fence.acq_rel/.sc x scopes */

/* A place for a fence: in `thread`, just before instruction `pc` (the
 * next access), between accesses `before` and `pc`. */
typedef struct position {
  int thread, pc, before;
} position;

typedef struct fix {
  int n;
  const position **at;
  const fence_kind **kind;
  sc_test *test;
  const char *text;
  int cost;
} fix;

struct sc_fence_advice {
  sc_fence_verdict verdict;
  position *pos;
  int npos;
  fix *fixes;
  int nfixes, capfixes;
  long simulations;
};

/* The positions of `t`: between consecutive accesses of each thread. */
position *sci_fence_positions(const sc_test *t, int *n);
/* `t` with the fences of `f` inserted, named NAME+KIND@T.L. */
sc_test *sci_fence_patch(const sc_test *t, const fix *f);
/* "membar.gl in P0 between A and B; ..." */
const char *sci_fence_describe(const sc_test *t, const fix *f);

/* Alg. 1 over positions 0..n-1 (fences_reduce.c): check(keep, iterations,
 * ctx), keep[i] true where position i has a fence, returns 1 when no
 * error is seen, 0 when one is, -1 when the check itself failed.  On
 * SCI_REDUCE_FIXED kept[] holds the reduced set; *checks the checks run. */
typedef int (*sci_site_check)(const bool *keep, long iterations, void *ctx);
typedef enum sci_reduce_verdict {
  SCI_REDUCE_NOT_NEEDED,   /* no fence at all passes */
  SCI_REDUCE_NONE_SUFFICE, /* every fence still fails */
  SCI_REDUCE_FIXED,        /* kept[] passes the longer check */
  SCI_REDUCE_FAILED        /* a check returned -1 */
} sci_reduce_verdict;
sci_reduce_verdict sci_fence_reduce_sites(int n, sci_site_check check,
                                          void *ctx, long iterations,
                                          bool *kept, long *checks);

#endif
