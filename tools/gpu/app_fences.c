/* app_fences.c: `scopecat gpu app -fences`: empirical fence insertion on
 * a whole program (seed 000's Alg. 1 at the PTX level).  The global
 * accesses of the program's PTX (-ptx FILE) are the positions; each set
 * the algorithm tries is written back as PTX with a fence after each of
 * its accesses, the program rebuilt from it by the user's command (-build,
 * `{ptx}` standing for the written file) and run in the chosen environment;
 * a set passes when -runs runs show no error.  The library does the
 * reading, writing and reducing (sc_ptx_accesses, sc_ptx_fenced,
 * sc_fence_reduce_sites); here are the rebuild, the runs and the report:
 * the surviving fences as source lines (`.loc`) and PTX places.  With
 * -cost, what the fences cost: the program's kernel time and energy with
 * no fence, with a fence after every access (conservative) and with the
 * surviving ones (empirical), as seed 000's Sec. 6 compares them; with
 * -model-fences, the set the model needs for the -ptx file's @Output
 * (kernel_fences.c, what `scopecat kernel -fences` finds) is found first
 * and costed beside them. */
#define _POSIX_C_SOURCE 200809L
#include "app.h"
#include "kernel_fences.h"
#include "models.h"

#include <errno.h>
#include <gc/gc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* What a check needs: the program, its PTX and where to write it. */
typedef struct fence_run {
  const app_cli *c;
  const gpu_cli *tuned;
  const app_prog *p;
  const char *so, *tmp;
  const char *text;          /* the PTX as given */
  const sc_ptx_access *a;
  int n;
  const char *written;       /* where each set's PTX goes: {ptx} */
  const char *fence;
  long checks;               /* checks made so far, for -v */
} fence_run;

/* The build command with every {ptx} replaced by `path`, quoted. */
static const char *build_command(const char *build, const char *path) {
  const char *cmd = "", *from = build, *at;
  while ((at = strstr(from, "{ptx}"))) {
    cmd = cli_format("%s%.*s%s", cmd, (int)(at - from), from,
                     cli_shell_quote(path));
    from = at + strlen("{ptx}");
  }
  return cli_format("%s%s", cmd, from);
}

/* Write the PTX with fences after the accesses flagged in `keep` and
 * rebuild the program from it; false after a message. */
static bool rebuild(const fence_run *r, const int *keep) {
  const char *text = cli_text(sc_ptx_fenced(r->text, r->a, r->n, keep, r->fence));
  FILE *f = fopen(r->written, "w");
  if (!f || fputs(text, f) == EOF || fclose(f) != 0) {
    fprintf(stderr, "scopecat gpu app: -fences: cannot write %s: %s\n",
            r->written, strerror(errno));
    return false;
  }
  const char *cmd = build_command(r->c->build, r->written);
  int st = cli_run(cmd, stderr, 0);
  if (st != 0) {
    fprintf(stderr, "scopecat gpu app: -build failed (%s %d): %s\n",
            st == -1 ? "signal, status" : "exit status", st, cmd);
    return false;
  }
  return true;
}

/* Alg. 1's check: the set rebuilt, `iterations` runs, 1 when none erred.
 * Under -v each check is told as it ends: a search cut short (a device's
 * time limit) still shows how far it got and where the time went. */
static int check_set(const int *keep, long iterations, void *ctx) {
  fence_run *r = ctx;
  double t0 = sc_seconds();
  r->checks++;
  if (!rebuild(r, keep))
    return -1;
  double t1 = sc_seconds();
  app_cli c = *r->c;
  c.runs = iterations, c.seconds = 0;
  app_tally t;
  app_run_env(&c, r->tuned, r->p, c.envs[0], r->so, r->tmp, &t);
  long errors = app_errors(&t);
  if (r->c->verbose) {
    int n = 0;
    for (int i = 0; i < r->n; i++)
      n += keep[i] != 0;
    fprintf(stderr, "check %ld: %d of %d fences, %ld runs: %s (build %.1f s, "
            "runs %.1f s)\n", r->checks, n, r->n, t.runs,
            errors ? cli_format("%ld erred", errors) : "no error", t1 - t0,
            sc_seconds() - t1);
  }
  return errors == 0;
}

/* "median [lo, hi]" of x[0..n-1], "-" when no run reported one. */
static const char *median_cell(double *x, int n) {
  if (!n)
    return "-";
  double m, lo, hi;
  app_median(x, n, &m, &lo, &hi);
  return cli_format("%.3f [%.3f, %.3f]", m, lo, hi);
}

/* One row of the cost table: the program built with fence set `keep`
 * (`nfences` of them) run -runs times natively, as 000 measured cost
 * (whatever environment the search used); false when it could not be
 * built. */
static bool cost_row(const fence_run *r, const char *set, const int *keep,
                     int nfences, long runs) {
  if (!rebuild(r, keep))
    return false;
  app_cli c = *r->c;
  c.runs = runs, c.seconds = 0;
  app_tally t;
  app_env native = {SC_APP_NONE, false}; /* timed, neither stressed nor permuted */
  app_run_env(&c, r->tuned, r->p, native, r->so, r->tmp, &t);
  printf("  %-13s %6d  %6ld/%-6ld %-28s %s\n", set, nfences, app_errors(&t),
         t.runs, median_cell(t.kernel_ms, t.ncost),
         median_cell(t.energy_j, t.nenergy));
  return true;
}

/* -cost: the table of the sets (empirical when Alg. 1 found one, the
 * model's when -model-fences found one: `model` NULL otherwise). */
static bool cost_table(const fence_run *r, const int *kept, int nkept,
                       const kernel_fences *model, long runs) {
  int *none = GC_MALLOC(sizeof(int) * (size_t)r->n); /* zeroed */
  printf("Cost of the fences, natively (none), %ld runs each:\n", runs);
  printf("  %-13s %6s  %13s %-28s %s\n", "set", "fences", "errors",
         "kernel time ms, median [95%]", "energy J, median [95%]");
  return cost_row(r, "none", none, 0, runs) &&
         cost_row(r, "conservative", NULL, r->n, runs) &&
         (!kept || cost_row(r, "empirical", kept, nkept, runs)) &&
         (!model || cost_row(r, "model", model->kept, model->nkept, runs));
}

/* -model-fences: the set the model needs for the launch and @Output of the
 * -ptx file's header, over the same accesses as the empirical search;
 * false after a message when the file, the model or its search gives no
 * answer. */
static bool model_fences(const app_cli *c, const char *text, const char *fence,
                         kernel_fences *f) {
  sc_kernel_launch launch;
  const char *cond, *name = c->model ? c->model : "ptx-v7.5.cat";
  int line, col;
  sc_error *err;
  if (sc_kernel_parse_header(text, c->ptx, NULL, &launch, &cond, &line, &col,
                             &err)) {
    fprintf(stderr, "%s\n", sc_error_message(err));
    return false;
  }
  if (!launch.threads_per_warp || !cond) {
    fprintf(stderr, "%s:1:1: -model-fences: expected a launch header, '// "
                    "@Config: X, Y, Z' and '// @Output: ...' (as scopecat "
                    "kernel reads it), found %s\n", c->ptx,
            launch.threads_per_warp ? "no @Output" : "no @Config");
    return false;
  }
  model_dirs dirs;
  memset(&dirs, 0, sizeof dirs);
  models_add_bundled(&dirs);
  sc_model *m;
  if (models_load(&dirs, name, &m, NULL, &err)) {
    fprintf(stderr, "scopecat gpu app: -model-fences: %s\n", sc_error_message(err));
    return false;
  }
  kernel_fence_search s = {text, c->ptx, &launch, cond, c->ptx, line, col,
                           NULL, m, {0}, fence,
                           c->verbose ? "model check" : NULL};
  s.opts.unroll = c->unroll;
  s.opts.engine = SC_ENGINE_AUTO;
  if (!kernel_model_fences(&s, f)) {
    fprintf(stderr, "%s\n", f->why);
    return false;
  }
  printf("The model's fences (%s, for the launch and @Output of %s):\n", name,
         c->ptx);
  kernel_fences_report(f, c->ptx, stdout);
  return f->v != SC_REDUCE_FAILED; /* no answer: nothing to set beside */
}

int app_fences(const app_cli *c, const gpu_cli *tuned, const app_prog *p,
               const char *so, const char *tmp) {
  char *text = cli_read_file(c->ptx);
  if (!text) {
    fprintf(stderr, "scopecat gpu app: -ptx %s: cannot read\n", c->ptx);
    return EXIT_USAGE;
  }
  fence_run r = {c, tuned, p, so, tmp, text, NULL, 0, NULL,
                 c->fence_kind ? c->fence_kind : "fence.sc.gpu", 0};
  sc_error *err = NULL;
  sc_ptx_access *a;
  if (sc_ptx_accesses(text, c->ptx, &a, &r.n, &err)) {
    fprintf(stderr, "%s\n", sc_error_message(err));
    return EXIT_USAGE;
  }
  r.a = a;
  const char *dir = cli_format("%s/ptx", tmp), *base = strrchr(c->ptx, '/');
  mkdir(dir, 0777);
  r.written = cli_format("%s/%s", dir, base ? base + 1 : c->ptx);
  long runs = c->runs ? c->runs : 100, checks = 0;
  printf("Fences in %s: %d global access%s, %s after each, checked by %ld "
         "runs in %s\n", c->ptx, r.n, r.n == 1 ? "" : "es", r.fence, runs,
         app_env_name(c->envs[0]));
  if (!r.n) {
    printf("  no global access: nothing to fence\n");
    return EXIT_ALL_RAN;
  }
  kernel_fences model;
  if (c->model_fences && !model_fences(c, text, r.fence, &model))
    return EXIT_SOME_FAILED;
  if (c->model_fences)
    printf("The empirical fences (%ld runs a check in %s):\n", runs,
           app_env_name(c->envs[0]));
  int *kept = GC_MALLOC_ATOMIC(sizeof(int) * (size_t)r.n), nkept = 0;
  sc_reduce_verdict v = sc_fence_reduce_sites(r.n, check_set, &r, runs, kept,
                                              &checks);
  switch (v) {
  case SC_REDUCE_FAILED:
    printf("  the check failed after %ld checks: no answer\n", checks);
    return EXIT_SOME_FAILED;
  case SC_REDUCE_NOT_NEEDED:
    printf("  no fence needed: no error without fences (%ld checks)\n", checks);
    break;
  case SC_REDUCE_NONE_SUFFICE:
    printf("  errors even with a fence after every access (%ld checks): "
           "fences do not fix it\n", checks);
    break;
  case SC_REDUCE_FIXED: {
    for (int i = 0; i < r.n; i++)
      nkept += kept[i] != 0;
    printf("  %d of %d fences survive (%ld checks):\n", nkept, r.n, checks);
    for (int i = 0; i < r.n; i++)
      if (kept[i])
        kernel_fence_print(&r.a[i], c->ptx, stdout);
    break;
  }
  }
  if (c->cost && !cost_table(&r, v == SC_REDUCE_FIXED ? kept : NULL, nkept,
                             c->model_fences && model.v == SC_REDUCE_FIXED
                                 ? &model : NULL,
                             runs))
    return EXIT_SOME_FAILED;
  /* leave the program built as the answer says: the empirical fences, or
   * none when none helps or is needed */
  int *none = GC_MALLOC(sizeof(int) * (size_t)r.n); /* zeroed */
  if (!rebuild(&r, v == SC_REDUCE_FIXED ? kept : none))
    return EXIT_SOME_FAILED;
  return v == SC_REDUCE_NONE_SUFFICE ? EXIT_SOME_FAILED : EXIT_ALL_RAN;
}
