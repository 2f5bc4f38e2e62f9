/* tune.c: `scopecat gpu tune`: Sakka et al.'s staged search (000, Sec. 3)
 * of the stress parameters for the most weak outcomes per second on the
 * given tests; the best is written as a file `run -config` reads. */
#define _POSIX_C_SOURCE 200809L
#include "gpu.h"

#include <errno.h>
#include <gc/gc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"

/* Weak outcomes per second of one run's output (its Rate line). */
static double weak_rate(const char *out, double *frac) {
  const char *r = strstr(out, "\nRate: ");
  double rate, f;
  if (!r || sscanf(r, "\nRate: %lf instances/s, %lf", &rate, &f) != 2)
    return -1;
  *frac = f;
  return rate * f;
}

typedef struct tuner {
  gpu_cli *c;
  built *bs;
  const char *set[32]; /* the best setting so far: NAME VALUE pairs */
  double best;         /* its score */
  FILE *report;        /* the tuned file: stages as comments */
} tuner;

/* Run every test with setting `over`; the score is the worst test's weak
 * outcomes per second (MP, SB and LB must all show up), ties broken by
 * the sum. */
static double score_setting(tuner *tu, const char *const *over) {
  double minr = -1, sum = 0;
  for (int j = 0; over[j]; j += 2)
    fprintf(stderr, " -%s %s", over[j], over[j + 1]);
  for (int i = 0; i < tu->c->files.n; i++) {
    const char *cmd = cli_format("'%s' %s 2>&1", tu->bs[i].exe,
                              gpu_prog_args(tu->c, over));
    int status;
    char *out = cli_run_capture(cmd, tu->c->timeout, &status);
    double frac = 0;
    double r = out ? weak_rate(out, &frac) : -1;
    fprintf(stderr, "  %s %.3g/s", sc_test_name(tu->bs[i].test), r);
    if (r < 0)
      r = 0;
    if (minr < 0 || r < minr)
      minr = r;
    sum += r;
  }
  fprintf(stderr, "\n");
  return minr + sum * 1e-6;
}

/* The best setting with `name` = `val`. */
static const char **with_value(const tuner *tu, const char *name,
                               const char *val) {
  const char **over = GC_MALLOC(sizeof(char *) * 32);
  int n = 0;
  bool put = false;
  for (int j = 0; tu->set[j]; j += 2) {
    over[n++] = tu->set[j];
    over[n++] = strcmp(tu->set[j], name) ? tu->set[j + 1] : val;
    put = put || !strcmp(tu->set[j], name);
  }
  if (!put) {
    over[n++] = name;
    over[n++] = val;
  }
  return over;
}

/* One stage: try each value of parameter `name`, keep the best. */
static void tune_stage(tuner *tu, const char *stage, const char *name,
                       const char *const *vals, int nvals) {
  const char *best_val = NULL;
  double best = -1;
  for (int k = 0; k < nvals; k++) {
    fprintf(stderr, "tune %s:", stage);
    double sc = score_setting(tu, with_value(tu, name, vals[k]));
    if (sc > best) {
      best = sc;
      best_val = vals[k];
    }
  }
  const char **over = with_value(tu, name, best_val);
  memcpy(tu->set, over, sizeof tu->set);
  tu->best = best;
  fprintf(tu->report, "# %s: %s %s (%.4g weak outcomes/s, worst test)\n",
          stage, name, best_val, best);
}

/* Every access sequence (ld|st)^k, 1 <= k <= max_len, as 000 does. */
static const char **access_sequences(int max_len, int *n) {
  int total = 0;
  for (int k = 1; k <= max_len; k++)
    total += 1 << k;
  const char **seqs = GC_MALLOC(sizeof(char *) * (size_t)total);
  *n = 0;
  for (int k = 1; k <= max_len; k++)
    for (int bits = 0; bits < 1 << k; bits++) {
      char *s = "";
      for (int i = 0; i < k; i++)
        s = cli_format("%s%s%s", s, i ? "," : "", bits >> i & 1 ? "st" : "ld");
      seqs[(*n)++] = s;
    }
  return seqs;
}

int gpu_cmd_tune(gpu_cli *c) {
  if (!c->outdir) {
    fprintf(stderr, "scopecat gpu tune: -o FILE is required\n");
    return EXIT_USAGE;
  }
  if (gpu_count() < 1 && c->gpus < 1) {
    fprintf(stderr, "scopecat gpu tune: no GPU visible: SKIP\n");
    return 77;
  }
  tuner tu = {.c = c, .best = -1};
  tu.bs = GC_MALLOC(sizeof(built) * (size_t)c->files.n);
  for (int i = 0; i < c->files.n; i++)
    if (!gpu_build(c, c->files.paths[i], gpu_test_key(c->files.keys[i]), false,
               &tu.bs[i], stderr) ||
        (tu.bs[i].optcheck_ran && !tu.bs[i].optcheck_ok)) {
      fprintf(stderr, "scopecat gpu tune: %s does not build\n",
                      c->files.paths[i]);
      return EXIT_SOME_FAILED;
    }
  char *text = NULL;
  size_t len = 0;
  tu.report = open_memstream(&text, &len);
  fprintf(tu.report, "# scopecat gpu tune on");
  for (int i = 0; i < c->files.n; i++)
    fprintf(tu.report, " %s", sc_test_name(tu.bs[i].test));
  fprintf(tu.report, "\n# stages after Sakka et al. (000, Sec. 3): patch "
                     "size, access sequence, spread, then stressing CTAs "
                     "and iterations, then the pre-test spin\n");
  const char *n = gpu_prog_val(c, "n") ? gpu_prog_val(c, "n") : "10000000";
  const char *start[] = {"n", n, "stress-blocks", "264", "stress-seq", "ld,st",
                         "stress-iters", "256", "stress-patch", "32",
                         "stress-regions", "64", "stress-spread", "2",
                         "sync-spin", "256", NULL};
  memcpy(tu.set, start, sizeof start);
  /* the reference: no stress at all */
  fprintf(stderr, "tune none:");
  double none = score_setting(&tu, with_value(&tu, "stress-blocks", "0"));
  fprintf(tu.report, "# without stress: %.4g weak outcomes/s (worst test)\n",
          none);
  static const char *const patch[] = {"8", "16", "32", "64", "128", "256"};
  tune_stage(&tu, "patch size", "stress-patch", patch, 6);
  int nseq;
  const char **seqs = access_sequences(4, &nseq);
  tune_stage(&tu, "access sequence", "stress-seq", seqs, nseq);
  static const char *const spread[] = {"1", "2", "4", "8", "16", "32"};
  tune_stage(&tu, "spread", "stress-spread", spread, 6);
  static const char *const blocks[] = {"66", "132", "264", "528", "0-528"};
  tune_stage(&tu, "stressing CTAs", "stress-blocks", blocks, 5);
  static const char *const iters[] = {"64", "256", "1024"};
  tune_stage(&tu, "iterations", "stress-iters", iters, 3);
  static const char *const spin[] = {"0", "256", "4096"};
  tune_stage(&tu, "pre-test spin", "sync-spin", spin, 3);
  static const char *const warm[] = {"0", "8", "32", "128"};
  tune_stage(&tu, "warm-up", "warmup", warm, 4);
  /* 000 found stress helps every chip it tuned; where it does not, say
   * so and keep the better setting: the final one without its stress */
  fprintf(stderr, "tune final, no stress:");
  const char **bare = with_value(&tu, "stress-blocks", "0");
  double unstressed = score_setting(&tu, bare);
  fprintf(tu.report, "# the same without stress: %.4g weak outcomes/s\n",
          unstressed);
  if (unstressed > tu.best) {
    fprintf(tu.report, "# no stress beats the best stress found: "
                       "stress-blocks 0\n");
    memcpy(tu.set, bare, sizeof tu.set);
  }
  for (int j = 0; tu.set[j]; j += 2)
    if (strcmp(tu.set[j], "n"))
      fprintf(tu.report, "%s %s\n", tu.set[j], tu.set[j + 1]);
  fclose(tu.report);
  FILE *f = fopen(c->outdir, "w");
  if (!f) {
    fprintf(stderr, "scopecat gpu tune: %s: %s\n", c->outdir, strerror(errno));
    free(text);
    return EXIT_SOME_FAILED;
  }
  fputs(text, f);
  fclose(f);
  free(text);
  if (!c->keep)
    for (int i = 0; i < c->files.n; i++)
      if (tu.bs[i].temp)
        cli_temp_remove(tu.bs[i].dir);
  return EXIT_ALL_RAN;
}
