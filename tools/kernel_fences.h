/* kernel_fences.h: the model's fences of a kernel, what `scopecat kernel
 * -fences` prints and `gpu app -fences -model-fences` costs beside the
 * empirical set: seed 000's Alg. 1 over the kernel's global accesses with
 * the model as the check (kernel_fences.c). */
#ifndef SC_KERNEL_FENCES_H
#define SC_KERNEL_FENCES_H

#include <stdbool.h>
#include <stdio.h>

#include "scopecat.h"

/* What the search checks: a kernel's PTX, its launch and its @Output
 * condition, under a model. */
typedef struct kernel_fence_search {
  const char *ptx, *ptx_file;     /* the PTX and the name its errors give */
  const sc_kernel_launch *launch;
  const char *cond, *cond_file;   /* the @Output text and where it is */
  int cond_line, cond_col;
  const sc_parse_limits *limits;  /* NULL: the defaults */
  const sc_model *model;
  sc_sim_options opts;            /* each simulation's; its timeout bounds
                                     the whole search (0: none) */
  const char *fence;              /* the fence inserted (fence.sc.gpu) */
  const char *verbose;            /* each check on stderr as it ends,
                                     after this word (NULL: quiet) */
} kernel_fence_search;

/* The answer. */
typedef struct kernel_fences {
  sc_reduce_verdict v;
  sc_ptx_access *a;   /* the PTX's global accesses: the positions */
  int n;
  int *kept;          /* SC_REDUCE_FIXED: kept[i] for the set found */
  int nkept;
  long checks, simulations; /* Alg. 1's checks; those simulated (a set
                               checked again is not simulated again) */
  const char *why;    /* SC_REDUCE_FAILED: what stopped the search */
} kernel_fences;

/* Run the search; false (the message in out->why) when the PTX's accesses
 * cannot be read or the kernel as given does not load.  Otherwise true,
 * whatever the verdict. */
bool kernel_model_fences(const kernel_fence_search *s, kernel_fences *out);

/* The answer's lines after the caller's "Fences in ..." line: the
 * verdict, and for SC_REDUCE_FIXED each fence (kernel_fence_print). */
void kernel_fences_report(const kernel_fences *f, const char *ptx, FILE *out);

/* Whether `fence` is a fence -fence-kind may insert: membar.cta, .gl,
 * .sys; fence.sc or fence.acq_rel at .cta, .cluster, .gpu or .sys.  What
 * else would be written into the PTX unread: a typo would fail every
 * check (or every build) instead of being named. */
bool kernel_fence_known(const char *fence);
#define KERNEL_FENCE_KINDS                                                    \
  "membar.cta|gl|sys, fence.sc.SCOPE or fence.acq_rel.SCOPE (SCOPE: cta, "    \
  "cluster, gpu, sys)"

/* One fence of a report: its source line, then where it is in the PTX
 * (`ptx` names the file). */
void kernel_fence_print(const sc_ptx_access *a, const char *ptx, FILE *out);

#endif
