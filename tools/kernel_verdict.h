/* kernel_verdict.h: how a kernel's simulation is judged: the @Output
 * condition's verdict, and when a result has no execution to judge.
 * `scopecat kernel` prints these verdicts and its -fences search checks
 * each fence set by them, so the two cannot judge apart. */
#ifndef SC_KERNEL_VERDICT_H
#define SC_KERNEL_VERDICT_H

#include <stdbool.h>

#include "scopecat.h"

/* sc_sim_options.unroll's default, for "up to -unroll N". */
enum { KERNEL_DEFAULT_UNROLL = 2 };

typedef enum kernel_verdict { KERNEL_PASS, KERNEL_FAIL, KERNEL_UNKNOWN } kernel_verdict;

/* The runs the -unroll bound cut, over every thread of t. */
long kernel_cut_runs(const sc_test *t, const sc_result *r);

/* "WHAT up to -unroll N (K runs cut by the bound)". */
const char *kernel_up_to(int unroll, const char *what, long cut);

/* Why r has no execution to judge (none allowed, none complete within the
 * bound, a hang), NULL when it has one.  `unroll` is the bound used. */
const char *kernel_no_execution(const sc_test *t, const sc_result *r, int unroll);

/* The verdict of t's condition over r: an execution that decides it (a
 * counterexample of forall, a witness of exists) settles it whatever the
 * bound; without one a run the bound cut leaves it UNKNOWN, and so does a
 * result with no execution (kernel_no_execution).  *detail gets the
 * words (NULL for a plain PASS), *decided whether an execution decides
 * it (its witness tells a FAIL). */
kernel_verdict kernel_assertion(const sc_test *t, const sc_result *r, int unroll,
                                const char **detail, bool *decided);

#endif
