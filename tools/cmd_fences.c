/* cmd_fences.c: `scopecat fences`: for each test whose condition the model
 * allows, the minimal fence insertions that forbid it, cheapest first,
 * and (-o) the patched tests.  The simulations run on sim's engines and
 * limits; a progress line goes to stderr when it is a terminal. */
#define _POSIX_C_SOURCE 200809L
#include "cli_opts.h"
#include "models.h"

#include "scopecat.h"

#include <gc/gc.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void fences_usage(FILE *out) {
  fprintf(out,
          "usage: scopecat fences [options] FILE|DIR...\n"
          "  -model FILE   the .cat model (default: the test's, as sim)\n"
          "  -I DIR        search DIR for models and their includes\n"
          "  -ptx          fence.acq_rel/fence.sc at .cta/.gpu/.sys instead\n"
          "                of membar.cta/.gl/.sys (the default for tests in\n"
          "                the PTX dialect)\n"
          "  -max N        at most N fences (default 4)\n"
          "  -engine E     enum, smt (symbolic, with Z3) or auto (default),\n"
          "                as sim's, for each simulation of the search\n"
          "  -timeout S    give up a test's search after S seconds (no\n"
          "                verdict; the exit status is 1)\n"
          "  -max-executions N  give up a simulation after N candidate\n"
          "                executions\n"
          "  -unroll N     follow each backward jump at most N times\n"
          "                (default 2)\n"
          "  -o DIR        write each fixed test to DIR/NAME.litmus\n"
          "  -reduce       Alg. 1 (binary then linear reduction from a fence\n"
          "                at every position), the model standing in for the\n"
          "                hardware\n"
          "  -gpu          Alg. 1 with the hardware as the check: each fence\n"
          "                set is run by `scopecat gpu run` (its log read\n"
          "                back; passing: the condition was not seen), and\n"
          "                the set found is put beside the model's fixes\n"
          "  -gpu-options S  options for `gpu run`, e.g. '-config\n"
          "                ptx/tuned/H100.conf'\n"
          "  -n N          instances per check (default 1000000; the final\n"
          "                check of Alg. 1 runs 16 times as many)\n"
          "  -oracle CMD   with -gpu: run CMD FILE instead of `gpu run`; it\n"
          "                prints a litmus7 or herd7 log (SCOPECAT_N in its\n"
          "                environment gives the instances), e.g. -oracle\n"
          "                'scopecat -model sc.cat'\n");
  cli_shard_usage(out, 16);
  cli_common_usage(out, 16);
}

typedef struct fences_cli {
  const char *model;
  cli_list dirs;          /* -I */
  model_dirs models;      /* the -I folders, then the bundled ones */
  sc_fence_options opts;
  sc_sim_options sim;     /* -engine, -max-executions, -unroll */
  bool progress;          /* stderr is a terminal */
  const char *outdir;
  bool reduce;            /* -reduce: Alg. 1 with the model as the check */
  bool gpu;               /* -gpu: Alg. 1 with the hardware (or -oracle) */
  const char *gpu_options, *oracle;
  long n;                 /* -n: instances per check */
  cli_shard shard;        /* -shard I/N */
  file_list files;
} fences_cli;

#define AT(field) .offset = offsetof(fences_cli, field)
static const cli_opt fences_opts[] = {
    {.name = "model", .kind = CLI_STRING, AT(model)},
    {.name = "cat", .kind = CLI_STRING, AT(model)},
    {.name = "I", .kind = CLI_LIST, AT(dirs)},
    {.name = "ptx", .kind = CLI_SET, AT(opts.ptx_fences), .lo = 1},
    {.name = "max", .kind = CLI_INT, AT(opts.max_fences), .lo = 1,
     .hi = INT_MAX, .bad = "-max expects a positive integer"},
    {.name = "engine", .kind = CLI_CHOICE, AT(sim.engine),
     .choices = cli_engine_words,
     .bad = "-engine expects enum, smt or auto, found '%v'"},
    {.name = "timeout", .kind = CLI_SECONDS, AT(opts.timeout),
     .bad = "-timeout expects seconds, found '%v'"},
    {.name = "max-executions", .kind = CLI_LONG, AT(sim.max_executions),
     .lo = 0, .hi = LONG_MAX,
     .bad = "%o expects a non-negative integer, found '%v'"},
    {.name = "unroll", .kind = CLI_INT, AT(sim.unroll), .lo = 0,
     .hi = INT_MAX, .bad = "%o expects a non-negative integer, found '%v'"},
    {.name = "o", .kind = CLI_STRING, AT(outdir)},
    {.name = "reduce", .kind = CLI_FLAG, AT(reduce)},
    {.name = "gpu", .kind = CLI_FLAG, AT(gpu)},
    {.name = "gpu-options", .kind = CLI_STRING, AT(gpu_options)},
    {.name = "oracle", .kind = CLI_STRING, AT(oracle)},
    {.name = "n", .kind = CLI_LONG, AT(n), .lo = 1, .hi = LONG_MAX,
     .bad = "-n expects a positive integer"},
    CLI_SHARD_OPTION(fences_cli, shard),
    {0}};

static const cli_command fences_command = {
    "fences", fences_opts, {.kind = CLI_TESTS, AT(files)}, fences_usage, true};

/* Returns -1 on success, else the exit status. */
static int parse_options(fences_cli *c, int argc, char **argv) {
  c->sim.unroll = -1;
  c->sim.engine = SC_ENGINE_AUTO;
  int missing;
  int rc = cli_parse(&fences_command, c, argc, argv, &missing);
  if (rc != CLI_GO_ON)
    return rc;
  if ((c->oracle || c->gpu_options) && !c->gpu) {
    fprintf(stderr, "scopecat fences: -oracle and -gpu-options go with "
                    "-gpu\n");
    return EXIT_USAGE;
  }
  if (c->opts.timeout > 0 && (c->gpu || c->reduce)) {
    fprintf(stderr, "scopecat fences: -timeout bounds the search for "
                    "minimal fixes, not -reduce or -gpu\n");
    return EXIT_USAGE;
  }
  if (c->gpu && c->reduce) {
    fprintf(stderr, "scopecat fences: -gpu and -reduce are two checks for "
                    "one reduction: choose one\n");
    return EXIT_USAGE;
  }
  if (c->files.n == 0 && !missing) {
    fences_usage(stderr);
    return EXIT_USAGE;
  }
  cli_shard_files(&c->files, c->shard);
  c->opts.sim = &c->sim;
  for (int i = 0; i < c->dirs.n; i++)
    models_add_dir(&c->models, c->dirs.items[i]);
  models_add_bundled(&c->models);
  return missing ? EXIT_SOME_FAILED : -1;
}

static bool write_test(const char *dir, const sc_test *t) {
  mkdir(dir, 0777);
  size_t len = strlen(dir) + strlen(sc_test_name(t)) + 9;
  char *path = GC_MALLOC_ATOMIC(len);
  snprintf(path, len, "%s/%s.litmus", dir, sc_test_name(t));
  FILE *f = fopen(path, "w");
  if (!f || fputs(cli_text(sc_test_to_dialect(t, sc_test_dialect(t))), f) == EOF ||
      fclose(f) != 0) {
    fprintf(stderr, "scopecat fences: %s: cannot write\n", path);
    return false;
  }
  return true;
}

/* The -max in force: the option, or the library's default. */
static int max_fences(const sc_fence_options *opts) {
  return opts->max_fences > 0 ? opts->max_fences : SC_FENCES_DEFAULT_MAX;
}

static void print_advice(const sc_test *t, const sc_fence_advice *a,
                         const sc_fence_options *opts, bool reduced) {
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
  case SC_FENCES_NONE_WITHIN_MAX:
    printf("allowed; no fix within -max %d fences (%d positions, %ld "
           "simulations): fences at every position forbid it, so a larger "
           "-max may find one\n",
           max_fences(opts), sc_fence_advice_positions(a),
           sc_fence_advice_simulations(a));
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

/* The model and the simulation options, for model_forbids. */
typedef struct model_check {
  const sc_model *m;
  const sc_sim_options *sim;
} model_check;

/* The check of Alg. 1 when the model stands in for the hardware: the test
 * passes when the model forbids its condition (iterations do not matter). */
static int model_forbids(const sc_test *t, long iterations, void *ctx) {
  const model_check *mc = ctx;
  (void)iterations;
  sc_result *r;
  sc_error *err;
  if (sc_simulate(t, mc->m, mc->sim, &r, &err) != SC_OK) {
    fprintf(stderr, "%s\n", sc_error_message(err));
    return -1;
  }
  return sc_result_positive(r) == 0;
}

/* ---- -gpu: the hardware, or an oracle command, as the check ------------- */


typedef struct oracle {
  const fences_cli *c;
  const char *dir; /* the patched tests go there */
  int runs;
} oracle;

static const char *oracle_command(const oracle *o, const char *path, long n) {
  const fences_cli *c = o->c;
  if (c->oracle)
    return cli_format("%s %s", c->oracle, cli_shell_quote(path));
  const char *exe = cli_self_exe();
  return cli_format("%s gpu run %s -n %ld %s",
                    cli_shell_quote(exe ? exe : "scopecat"),
                 c->gpu_options ? c->gpu_options : "", n, cli_shell_quote(path));
}

/* The check of Alg. 1 (CheckApplication): run the patched test, read the
 * log it prints; it passes when no state of the log shows the condition. */
static int oracle_check(const sc_test *t, long iterations, void *ctx) {
  oracle *o = ctx;
  const char *path = cli_format("%s/check-%d.litmus", o->dir, ++o->runs);
  FILE *f = fopen(path, "w");
  if (!f || fputs(cli_text(sc_test_to_dialect(t, sc_test_dialect(t))), f) == EOF ||
      fclose(f) != 0) {
    fprintf(stderr, "scopecat fences: %s: cannot write\n", path);
    return -1;
  }
  long n = o->c->n * iterations;
  setenv("SCOPECAT_N", cli_format("%ld", n), 1);
  const char *cmd = oracle_command(o, path, n);
  int status;
  char *log = cli_run_capture(cmd, 0, &status);
  sc_hist **blocks;
  int nblocks, witnessed;
  sc_error *err;
  if (!log || sc_hist_load_string(log, path, &blocks, &nblocks, &err) != SC_OK) {
    fprintf(stderr, "scopecat fences: %s (exit status %d): %s\n", cmd, status,
            log ? sc_error_message(err) : "cannot run");
    return -1;
  }
  if (nblocks == 0) {
    fprintf(stderr, "scopecat fences: %s printed no log (exit status %d)\n",
            cmd, status);
    return -1;
  }
  const sc_hist *h = nblocks == 1 ? blocks[0] : NULL;
  for (int i = 0; i < nblocks && !h; i++)
    if (strcmp(sc_hist_name(blocks[i]), sc_test_name(t)) == 0)
      h = blocks[i];
  if (!h) {
    fprintf(stderr, "scopecat fences: %s (exit status %d): no log of %s\n",
            cmd, status, sc_test_name(t));
    return -1;
  }
  if (sc_hist_witnesses(h, t, &witnessed, &err) != SC_OK) {
    fprintf(stderr, "%s\n", sc_error_message(err));
    return -1;
  }
  return !witnessed;
}

/* Fences in the cheapest fix (0 when none is needed, -1 when none was
 * found). */
static int fewest(const sc_fence_advice *a) {
  switch (sc_fence_advice_verdict(a)) {
  case SC_FENCES_ALREADY_FORBIDDEN: return 0;
  case SC_FENCES_NONE_SUFFICE:
  case SC_FENCES_NONE_WITHIN_MAX: return -1;
  case SC_FENCES_FIXED: break;
  }
  return sc_fence_advice_size(a, 0);
}

/* The empirical answer beside the model's: how many fences each needs,
 * and whether the model forbids what the hardware found enough. */
static void print_empirical(const fences_cli *c, const sc_model *m,
                            const sc_fence_options *opts,
                            const sc_fence_advice *model,
                            const sc_fence_advice *hw, int runs) {
  printf("  empirical (%s, %d runs): ",
         c->oracle ? cli_format("oracle '%s'", c->oracle) : "gpu run", runs);
  int h = fewest(hw), mo = fewest(model);
  if (h < 0) {
    printf("the condition was seen even with a fence at every position\n");
    return;
  }
  if (h == 0)
    printf("the condition was never seen, no fence needed\n");
  else
    printf("%d fence%s: %s\n     -> %s\n", h, h == 1 ? "" : "s",
           sc_fence_advice_text(hw, 0),
           sc_test_name(sc_fence_advice_test(hw, 0)));
  if (mo < 0 &&
      sc_fence_advice_verdict(model) == SC_FENCES_NONE_WITHIN_MAX)
    printf("  the model has no fix within -max %d fences\n",
           max_fences(opts));
  else if (mo < 0)
    printf("  hardware needed fewer fences than the model, which no fence "
           "set satisfies\n");
  else if (h < mo)
    printf("  hardware needed fewer fences than the model: %d instead of "
           "%d\n", h, mo);
  else
    printf("  hardware needed %s fences as the model: %d%s\n",
           h == mo ? "as many" : "more", h,
           h == mo ? "" : cli_format(" instead of %d", mo));
  const sc_test *reduced = h ? sc_fence_advice_test(hw, 0) : NULL;
  sc_result *r;
  sc_error *err;
  if (reduced && sc_simulate(reduced, m, &c->sim, &r, &err) == SC_OK &&
      sc_result_positive(r) > 0)
    printf("  the model still allows %s: what forbids it on hardware is "
           "stronger than the model\n", sc_test_name(reduced));
}

static bool advise_gpu(const fences_cli *c, const sc_test *t,
                       const sc_model *m, const sc_fence_options *opts) {
  sc_fence_advice *model, *hw;
  sc_error *err;
  sc_status advised = sc_fence_advise(t, m, opts, &model, &err);
  if (c->progress)
    fprintf(stderr, "\r\033[K");
  if (advised != SC_OK) {
    fprintf(stderr, "%s\n", sc_error_message(err));
    return false;
  }
  print_advice(t, model, opts, false);
  char tmpl[] = "/tmp/scopecat-fences-XXXXXX";
  oracle o = {c, mkdtemp(tmpl), 0};
  if (!o.dir) {
    fprintf(stderr, "scopecat fences: cannot make a temporary folder\n");
    return false;
  }
  o.dir = GC_STRDUP(o.dir);
  sc_status st = sc_fence_reduce(t, opts, oracle_check, &o, 1, &hw, &err);
  for (int i = 1; i <= o.runs; i++)
    remove(cli_format("%s/check-%d.litmus", o.dir, i));
  rmdir(o.dir);
  if (st != SC_OK) {
    fprintf(stderr, "%s\n", sc_error_message(err));
    return false;
  }
  print_empirical(c, m, opts, model, hw, o.runs);
  bool ok = true;
  for (int i = 0; c->outdir && i < sc_fence_advice_count(model); i++)
    ok &= write_test(c->outdir, sc_fence_advice_test(model, i));
  if (c->outdir && sc_fence_advice_count(hw) > 0)
    ok &= write_test(c->outdir, sc_fence_advice_test(hw, 0));
  return ok;
}

/* The progress line (stderr is a terminal): the test, the insertion being
 * tried and of how many, the simulations so far, the time. */
typedef struct fence_line {
  const char *test;
  double drawn; /* when it was last drawn */
} fence_line;

static void show_progress(void *ctx, const sc_fence_progress *p) {
  fence_line *line = ctx;
  double now = sc_seconds();
  if (now - line->drawn < 0.1)
    return;
  line->drawn = now;
  const char *what =
      p->candidate > 0
          ? cli_format("insertion %ld of %ld (%d fence%s)", p->candidate,
                       p->candidates, p->fences, p->fences == 1 ? "" : "s")
      : p->fences > 0 ? "fences at every position"
                      : "the test as it is";
  fprintf(stderr, "\r\033[K[fences %s] %s, %ld simulations, %.1f s",
          line->test, what, p->simulations, p->seconds);
  fflush(stderr);
}

static bool advise(fences_cli *c, const char *path) {
  sc_test *t;
  sc_model *m;
  sc_fence_advice *a;
  sc_error *err;
  if (sc_test_load_file(path, NULL, &t, &err) != SC_OK ||
      models_load(&c->models, c->model ? c->model : models_default(t), &m,
                  NULL, &err) != SC_OK) {
    fprintf(stderr, "%s\n", sc_error_message(err));
    return false;
  }
  /* tests in the PTX dialect are fenced with fence.sc/fence.acq_rel */
  sc_fence_options opts = c->opts;
  if (sc_test_dialect(t) == SC_DIALECT_PTX)
    opts.ptx_fences = 1;
  fence_line line = {sc_test_name(t), 0};
  if (c->progress) {
    opts.progress = show_progress;
    opts.progress_ctx = &line;
  }
  if (c->gpu)
    return advise_gpu(c, t, m, &opts);
  model_check check = {m, &c->sim};
  sc_status st = c->reduce
                     ? sc_fence_reduce(t, &opts, model_forbids, &check, 1, &a, &err)
                     : sc_fence_advise(t, m, &opts, &a, &err);
  if (c->progress)
    fprintf(stderr, "\r\033[K");
  if (st != SC_OK) {
    fprintf(stderr, "%s\n", sc_error_message(err));
    return false;
  }
  print_advice(t, a, &opts, c->reduce);
  bool ok = true;
  for (int i = 0; c->outdir && i < sc_fence_advice_count(a); i++)
    ok &= write_test(c->outdir, sc_fence_advice_test(a, i));
  return ok;
}

int cmd_fences(int argc, char **argv) {
  fences_cli c = {0};
  c.n = 1000000;
  int status = parse_options(&c, argc, argv);
  if (status >= 0 && (status != EXIT_SOME_FAILED || c.files.n == 0))
    return status;
  int failed = status == EXIT_SOME_FAILED;
  c.progress = isatty(2);
  for (int i = 0; i < c.files.n; i++)
    failed += !advise(&c, c.files.paths[i]);
  return failed ? EXIT_SOME_FAILED : EXIT_ALL_RAN;
}
