/* kernel_fences.c: the model's fences of a kernel (`scopecat kernel
 * -fences`; `gpu app -fences -model-fences` costs them beside the
 * empirical set).  Seed 000's Alg. 1 (sc_fence_reduce_sites) runs over
 * the kernel's global accesses, as `gpu app -fences` does on the GPU, but
 * the check is the model: a set passes when the PTX with a fence after
 * each of its accesses, instantiated for the launch, satisfies the
 * @Output condition in every execution the model allows.  A set whose
 * verdict the -unroll bound leaves open (no violation, a run cut) stops
 * the search with no answer: passing it would drop fences the cut runs
 * may need.  The check is exact, so the set found is one from which no
 * fence can go (each was checked alone), not always the smallest. */
#define _POSIX_C_SOURCE 200809L
#include "kernel_fences.h"

#include <gc/gc.h>
#include <string.h>

#include "cli.h"
#include "kernel_verdict.h"

/* A set checked already, and its answer: Alg. 1 checks its final set a
 * second time (000's longer confirmation), which the model answers as it
 * did the first. */
typedef struct checked {
  int *keep;
  int answer;
  struct checked *next;
} checked;

typedef struct search_run {
  const kernel_fence_search *s;
  kernel_fences *k;
  double deadline; /* 0: none */
  checked *seen;
} search_run;

bool kernel_fence_known(const char *fence) {
  static const char *const membars[] = {"membar.cta", "membar.gl", "membar.sys"};
  static const char *const sems[] = {"fence.sc.", "fence.acq_rel."};
  static const char *const scopes[] = {"cta", "cluster", "gpu", "sys"};
  for (size_t i = 0; i < sizeof membars / sizeof *membars; i++)
    if (!strcmp(fence, membars[i]))
      return true;
  for (size_t i = 0; i < sizeof sems / sizeof *sems; i++) {
    size_t n = strlen(sems[i]);
    if (strncmp(fence, sems[i], n))
      continue;
    for (size_t j = 0; j < sizeof scopes / sizeof *scopes; j++)
      if (!strcmp(fence + n, scopes[j]))
        return true;
  }
  return false;
}

void kernel_fence_print(const sc_ptx_access *a, const char *ptx, FILE *out) {
  const char *src = a->source ? cli_format("%s:%d", a->source, a->source_line)
                              : "(no .loc)";
  fprintf(out, "  %s  after %s in %s (%s:%d:%d, offset %zu)\n", src, a->op,
          a->function, ptx, a->line, a->col, a->offset);
}

/* The fences a set has. */
static int count(const int *keep, int n) {
  int c = 0;
  for (int i = 0; i < n; i++)
    c += keep[i] != 0;
  return c;
}

/* -1 after saying why in r->k->why. */
static int stop(search_run *r, const char *why) {
  r->k->why = why;
  return -1;
}

/* The kernel with the fences `keep` flags, under the model: 1 when every
 * allowed execution satisfies the condition, 0 when one violates it (or,
 * for exists, none satisfies it, with no run cut), -1 when it could not
 * tell. */
static int simulate_set(search_run *r, const int *keep) {
  const kernel_fence_search *s = r->s;
  kernel_fences *k = r->k;
  sc_sim_options opts = s->opts;
  if (r->deadline) {
    double left = r->deadline - sc_seconds();
    if (left <= 0)
      return stop(r, cli_format("-timeout: the search ran out of time after "
                                "%ld checks", k->checks - 1));
    opts.timeout = left;
  }
  const char *text = sc_ptx_fenced(s->ptx, k->a, k->n, keep, s->fence);
  if (!text)
    return stop(r, "out of memory writing the fenced PTX");
  sc_test *t;
  sc_result *res;
  sc_error *err;
  if (sc_kernel_load_string(text, s->ptx_file, s->launch, s->limits, &t, &err) ||
      sc_kernel_set_condition(t, s->cond, s->cond_file, s->cond_line,
                              s->cond_col, &err))
    return stop(r, sc_error_message(err));
  opts.liveness = 0;
  opts.show = SC_SHOW_NONE;
  k->simulations++;
  if (sc_simulate(t, s->model, &opts, &res, &err))
    return stop(r, cli_format("%s: %s", s->ptx_file, sc_error_message(err)));
  const char *detail;
  bool decided;
  int unroll = s->opts.unroll >= 0 ? s->opts.unroll : KERNEL_DEFAULT_UNROLL;
  switch (kernel_assertion(t, res, unroll, &detail, &decided)) {
  case KERNEL_PASS:
    return 1;
  case KERNEL_FAIL:
    return 0;
  default:
    return stop(r, cli_format("with %d of the fences, the condition is "
                              "UNKNOWN: %s", count(keep, k->n), detail));
  }
}

static bool same_set(const int *a, const int *b, int n) {
  for (int i = 0; i < n; i++)
    if ((a[i] != 0) != (b[i] != 0))
      return false;
  return true;
}

/* Alg. 1's check.  The model's answer does not depend on the iterations
 * a GPU check would run. */
static int check_set(const int *keep, long iterations, void *ctx) {
  (void)iterations;
  search_run *r = ctx;
  kernel_fences *k = r->k;
  k->checks++;
  double t0 = sc_seconds();
  checked *c = r->seen;
  while (c && !same_set(c->keep, keep, k->n))
    c = c->next;
  bool again = c != NULL;
  if (!again) {
    c = GC_MALLOC(sizeof *c);
    c->keep = GC_MALLOC_ATOMIC(sizeof(int) * (size_t)(k->n + 1));
    memcpy(c->keep, keep, sizeof(int) * (size_t)k->n);
    c->answer = simulate_set(r, keep), c->next = r->seen, r->seen = c;
  }
  if (r->s->verbose)
    fprintf(stderr, "%s %ld: %d of %d fences: %s (%s)\n", r->s->verbose,
            k->checks, count(keep, k->n), k->n,
            c->answer > 0    ? "the condition holds"
            : c->answer == 0 ? "the condition fails"
                             : "no answer",
            again ? "as checked before"
                  : cli_format("%.1f s", sc_seconds() - t0));
  return c->answer;
}

bool kernel_model_fences(const kernel_fence_search *s, kernel_fences *out) {
  memset(out, 0, sizeof *out);
  sc_error *err;
  if (sc_ptx_accesses(s->ptx, s->ptx_file, &out->a, &out->n, &err)) {
    out->why = sc_error_message(err);
    return false;
  }
  /* the kernel as given must load: its errors are the file's, said as
   * `scopecat kernel` says them, not a search's "no answer" */
  sc_test *t;
  if (sc_kernel_load_string(s->ptx, s->ptx_file, s->launch, s->limits, &t, &err) ||
      sc_kernel_set_condition(t, s->cond, s->cond_file, s->cond_line,
                              s->cond_col, &err)) {
    out->why = sc_error_message(err);
    return false;
  }
  out->kept = GC_MALLOC_ATOMIC(sizeof(int) * (size_t)(out->n + 1));
  search_run r = {s, out, s->opts.timeout > 0 ? sc_seconds() + s->opts.timeout : 0,
                  NULL};
  out->v = sc_fence_reduce_sites(out->n, check_set, &r, 1, out->kept,
                                 &out->checks);
  if (out->v == SC_REDUCE_FAILED && !out->why)
    out->why = "out of memory";
  for (int i = 0; out->v == SC_REDUCE_FIXED && i < out->n; i++)
    out->nkept += out->kept[i] != 0;
  return true;
}

void kernel_fences_report(const kernel_fences *f, const char *ptx, FILE *out) {
  const char *checks = cli_format("%ld check%s", f->checks, f->checks == 1 ? "" : "s");
  switch (f->v) {
  case SC_REDUCE_FAILED:
    fprintf(out, "  no answer after %s: %s\n", checks, f->why);
    return;
  case SC_REDUCE_NOT_NEEDED:
    fprintf(out, "  no fence needed: the condition holds without fences (%s)\n",
            checks);
    return;
  case SC_REDUCE_NONE_SUFFICE:
    fprintf(out, "  the condition fails even with a fence after every access "
                 "(%s): fences do not fix it\n", checks);
    return;
  case SC_REDUCE_FIXED:
    fprintf(out, "  %d of %d fences needed (%s, %ld simulated):\n", f->nkept,
            f->n, checks, f->simulations);
    for (int i = 0; i < f->n; i++)
      if (f->kept[i])
        kernel_fence_print(&f->a[i], ptx, out);
    return;
  }
}
