/* kernel_verdict.c: the @Output condition's verdict over a kernel's
 * simulation, shared by `scopecat kernel`'s report and its -fences
 * search (kernel_verdict.h). */
#define _POSIX_C_SOURCE 200809L
#include "kernel_verdict.h"

#include "cli.h"

#include <string.h>

long kernel_cut_runs(const sc_test *t, const sc_result *r) {
  long n = 0;
  for (int i = 0; i < sc_test_thread_count(t); i++)
    n += sc_result_cut_runs(r, i);
  return n;
}

const char *kernel_up_to(int unroll, const char *what, long cut) {
  return cli_format("%s up to -unroll %d (%ld run%s cut by the bound)", what,
                    unroll, cut, cut == 1 ? "" : "s");
}

const char *kernel_no_execution(const sc_test *t, const sc_result *r, int unroll) {
  if (sc_result_state_count(r) > 0)
    return NULL;
  long cut = kernel_cut_runs(t, r), candidates = sc_result_candidates(r);
  if (candidates > 0)
    return cli_format("no allowed execution (the model forbids all %ld "
                      "candidate%s)", candidates, candidates == 1 ? "" : "s");
  if (cut > 0)
    return cli_format("no complete execution (%ld run%s cut by the bound "
                      "-unroll %d, none completed)", cut, cut == 1 ? "" : "s",
                      unroll);
  /* no run cut by the bound and no candidate: every run that completes is
   * in some combination none of whose executions exists, so in each
   * execution some thread never completes: it waits at a barrier that
   * never releases it, or turns in a loop no write lets it leave (such
   * runs are dropped, or cut as repeats of a state: sem.c) */
  return "no complete execution (a hang: in every execution some thread waits "
         "for ever, at a barrier or in a loop no write ends; -liveness names it)";
}

kernel_verdict kernel_assertion(const sc_test *t, const sc_result *r, int unroll,
                                const char **detail, bool *decided) {
  *decided = sc_result_condition_witness(r) != NULL;
  *detail = NULL;
  const char *none = kernel_no_execution(t, r, unroll);
  if (none) {
    *decided = false;
    *detail = none;
    return KERNEL_UNKNOWN;
  }
  long cut = kernel_cut_runs(t, r);
  if (!*decided && cut > 0) {
    /* the witness it lacks: a counterexample of forall (or ~exists), or
     * an execution where exists holds */
    bool exists = strcmp(sc_test_quantifier(t), "exists") == 0;
    *detail = kernel_up_to(unroll, exists ? "no execution satisfies the condition"
                                          : "no execution violates the condition", cut);
    return KERNEL_UNKNOWN;
  }
  if (sc_result_validated(r))
    return KERNEL_PASS;
  *detail = *decided ? "an allowed execution violates it (told below)"
                     : "no allowed execution satisfies it";
  return KERNEL_FAIL;
}
