/* cmd_fences.c: `scopecat fences`: for each test whose condition the model
 * allows, the minimal fence insertions that forbid it, cheapest first,
 * and (-o) the patched tests. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "models.h"

#include "scopecat.h"

#include <gc/gc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void fences_usage(FILE *out) {
  fprintf(out,
          "usage: scopecat fences [options] FILE|DIR...\n"
          "  -model FILE   the .cat model (default: the test's, as sim)\n"
          "  -I DIR        search DIR for models and their includes\n"
          "  -ptx          fence.acq_rel/fence.sc at .cta/.gpu/.sys instead\n"
          "                of membar.cta/.gl/.sys\n"
          "  -max N        at most N fences (default 4)\n"
          "  -o DIR        write each fixed test to DIR/NAME.litmus\n"
          "  -reduce       Alg. 1 (binary then linear reduction from a fence\n"
          "                at every position), the model standing in for the\n"
          "                hardware\n"
          "  -gpu          Alg. 1 on the GPU harness (not yet)\n");
}

typedef struct fences_cli {
  const char *model;
  model_dirs models;
  sc_fence_options opts;
  const char *outdir;
  bool reduce;            /* -reduce: Alg. 1 with the model as the check */
  file_list files;
} fences_cli;

static bool want_arg(int argc, char **argv, int i) {
  if (i + 1 < argc)
    return true;
  fprintf(stderr, "scopecat fences: %s needs an argument\n", argv[i]);
  return false;
}

/* Returns -1 on success, else the exit status. */
static int parse_options(fences_cli *c, int argc, char **argv) {
  int missing = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (cli_is_option(a, "help") || cli_is_option(a, "h")) {
      fences_usage(stdout);
      return EXIT_ALL_RAN;
    } else if (cli_is_option(a, "model") || cli_is_option(a, "cat")) {
      if (!want_arg(argc, argv, i)) return EXIT_USAGE;
      c->model = argv[++i];
    } else if (cli_is_option(a, "I")) {
      if (!want_arg(argc, argv, i)) return EXIT_USAGE;
      models_add_dir(&c->models, argv[++i]);
    } else if (cli_is_option(a, "ptx")) {
      c->opts.ptx_fences = 1;
    } else if (cli_is_option(a, "max")) {
      if (!want_arg(argc, argv, i)) return EXIT_USAGE;
      c->opts.max_fences = atoi(argv[++i]);
      if (c->opts.max_fences < 1) {
        fprintf(stderr, "scopecat fences: -max expects a positive integer\n");
        return EXIT_USAGE;
      }
    } else if (cli_is_option(a, "o")) {
      if (!want_arg(argc, argv, i)) return EXIT_USAGE;
      c->outdir = argv[++i];
    } else if (cli_is_option(a, "reduce")) {
      c->reduce = true;
    } else if (cli_is_option(a, "gpu")) {
      fprintf(stderr, "scopecat fences: -gpu needs the GPU harness, which "
                      "is not part of this build yet\n");
      return EXIT_USAGE;
    } else if (a[0] == '-') {
      fprintf(stderr, "scopecat fences: unknown option '%s'\n", a);
      fences_usage(stderr);
      return EXIT_USAGE;
    } else if (!cli_collect(&c->files, a)) {
      missing++;
    }
  }
  if (c->files.n == 0 && !missing) {
    fences_usage(stderr);
    return EXIT_USAGE;
  }
  models_add_bundled(&c->models);
  return missing ? EXIT_SOME_FAILED : -1;
}

static bool write_test(const char *dir, const sc_test *t) {
  mkdir(dir, 0777);
  size_t len = strlen(dir) + strlen(sc_test_name(t)) + 9;
  char *path = GC_MALLOC_ATOMIC(len);
  snprintf(path, len, "%s/%s.litmus", dir, sc_test_name(t));
  FILE *f = fopen(path, "w");
  if (!f || fputs(sc_test_to_string(t), f) == EOF || fclose(f) != 0) {
    fprintf(stderr, "scopecat fences: %s: cannot write\n", path);
    return false;
  }
  return true;
}

static void print_advice(const sc_test *t, const sc_fence_advice *a,
                         bool reduced) {
  printf("Test %s: ", sc_test_name(t));
  switch (sc_fence_advice_verdict(a)) {
  case SC_FENCES_ALREADY_FORBIDDEN:
    printf("already forbidden, no fence needed\n");
    return;
  case SC_FENCES_NONE_SUFFICE:
    printf("allowed, and no set of fences forbids it (%d positions, "
           "%ld simulations): an RMW or a dependency is needed\n",
           sc_fence_advice_positions(a), sc_fence_advice_simulations(a));
    return;
  case SC_FENCES_FIXED:
    break;
  }
  int n = sc_fence_advice_count(a);
  printf("allowed; %d %s fix%s (%d positions, %ld simulations)\n", n,
         reduced ? "reduced" : "minimal", n == 1 ? "" : "es", sc_fence_advice_positions(a),
         sc_fence_advice_simulations(a));
  for (int i = 0; i < n; i++)
    printf("  %d. %s\n     -> %s\n", i + 1, sc_fence_advice_text(a, i),
           sc_test_name(sc_fence_advice_test(a, i)));
}

/* The check of Alg. 1 when the model stands in for the hardware: the test
 * passes when the model forbids its condition (iterations do not matter). */
static int model_forbids(const sc_test *t, long iterations, void *ctx) {
  (void)iterations;
  sc_result *r;
  sc_error *err;
  if (sc_simulate(t, ctx, NULL, &r, &err) != SC_OK) {
    fprintf(stderr, "%s\n", sc_error_message(err));
    return -1;
  }
  return sc_result_positive(r) == 0;
}

static bool advise(fences_cli *c, const char *path) {
  sc_test *t;
  sc_model *m;
  sc_fence_advice *a;
  sc_error *err;
  if (sc_test_load_file(path, NULL, &t, &err) != SC_OK ||
      models_load(&c->models, c->model ? c->model : models_default(t), &m,
                  NULL, &err) != SC_OK ||
      (c->reduce ? sc_fence_reduce(t, &c->opts, model_forbids, m, 1, &a, &err)
                 : sc_fence_advise(t, m, &c->opts, &a, &err)) != SC_OK) {
    fprintf(stderr, "%s\n", sc_error_message(err));
    return false;
  }
  print_advice(t, a, c->reduce);
  bool ok = true;
  for (int i = 0; c->outdir && i < sc_fence_advice_count(a); i++)
    ok &= write_test(c->outdir, sc_fence_advice_test(a, i));
  return ok;
}

int cmd_fences(int argc, char **argv) {
  fences_cli c = {0};
  int status = parse_options(&c, argc, argv);
  if (status >= 0 && (status != EXIT_SOME_FAILED || c.files.n == 0))
    return status;
  int failed = status == EXIT_SOME_FAILED;
  for (int i = 0; i < c.files.n; i++)
    failed += !advise(&c, c.files.paths[i]);
  return failed ? EXIT_SOME_FAILED : EXIT_ALL_RAN;
}
