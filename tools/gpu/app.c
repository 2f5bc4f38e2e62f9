/* app.c: `scopecat gpu app [options] -- PROGRAM ARGS...`: a user's CUDA
 * program run again and again in seed 000's testing environments (no
 * stress, tuned stress, random stress, cache stress, each with or without
 * thread randomisation), each run judged by its exit status or a -check
 * command on its output, a run past -run-timeout a hang and a signal a
 * crash; the error rate of each environment with its interval
 * (app_stats.c).  Stress and randomisation come from the interposer
 * (harness/app_interpose.cu), built here with nvcc and preloaded into the
 * program; its parameters travel in environment variables
 * (harness/app_plan.h). */
#define _POSIX_C_SOURCE 200809L
#include "app.h"

#include <errno.h>
#include <gc/gc.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_run.h"
#include "kernel_fences.h"

static void app_usage(FILE *out) {
  fprintf(out,
      "usage: scopecat gpu app [options] -- PROGRAM ARGS...\n"
      "       scopecat gpu app [options] -apps FILE\n"
      "       scopecat gpu app -kernel-program CASE.ptx > PROGRAM.cu\n"
      "       scopecat gpu app -kernel-check CASE.ptx < OUTPUT\n"
      "       scopecat gpu app -compare LOG... -verdicts CSV [-model M]\n"
      "runs a CUDA program again and again in each testing environment of\n"
      "Sorensen and Donaldson's (doc/apps.md) and reports its error rates\n"
      "options:\n"
      "  -runs N            runs per environment (default 100; with\n"
      "                     -seconds: at most N)\n"
      "  -seconds S         run for S seconds per environment\n"
      "  -env LIST          environments, comma-separated: none, stress,\n"
      "                     random, cache, each with +rand for thread\n"
      "                     randomisation (stress+rand), or all (default\n"
      "                     none,stress+rand)\n"
      "  -check CMD         the post-condition: CMD reads the program's\n"
      "                     output on its input, exit 0 = right (default:\n"
      "                     the program's exit status)\n"
      "  -run-timeout S     a run past S seconds is a hang (default 30)\n"
      "  -apps FILE         programs a line: NAME [CHECK] -- COMMAND\n"
      "  -config FILE       stress parameters from `gpu tune -o FILE`\n"
      "  -seed N            the first run's seed (default 1)\n"
      "  -fences            empirical fences (Alg. 1): a fence after every\n"
      "                     global access of -ptx FILE, rebuilt with -build,\n"
      "                     then as few as the first environment's runs need\n"
      "  -ptx FILE          the program's PTX (with -fences)\n"
      "  -build CMD         rebuilds the program from the PTX at {ptx}\n"
      "  -fence-kind K      the fence inserted (default fence.sc.gpu)\n"
      "  -v                 with -fences: each check on stderr as it ends\n"
      "                     (fences, runs, result, build and run seconds)\n"
      "  -model-fences      with -fences: also the fences the model needs\n"
      "                     for the @Output of -ptx FILE's launch header\n"
      "                     (scopecat kernel -fences), costed beside\n"
      "  -model M           its model (default ptx-v7.5); -unroll N its\n"
      "                     bound (default 2)\n"
      "  -cost              time the kernels (CUDA events) and read the GPU's\n"
      "                     energy (NVML) in every run, every environment\n"
      "                     interposed (none too); medians with intervals;\n"
      "                     with -fences, per fence set: none, every\n"
      "                     access (conservative), the empirical one\n"
      "  -nvcc PATH         the CUDA compiler, for the interposer\n"
      "  -gpudir DIR        the harness (harness/)\n"
      "  -keep DIR          build the interposer in DIR, kept\n"
      "  -kernel-program F  a case of the kernel corpus (make-ptx.sh's .ptx)\n"
      "                     as a host program's .cu, on stdout\n"
      "  -kernel-check F    that program's post-condition: its histogram\n"
      "                     (stdin) judged by the case's @Output\n"
      "  -compare LOG...    the corpus programs' error rates (gpu app's\n"
      "                     reports) beside the model's verdicts (-verdicts\n"
      "                     CSV: ptx/kernels/expected.csv; -model, default\n"
      "                     ptx-v7.5; -property, default assertion)\n"
      "exit status: 0 no run erred, 1 some did (or a program was refused),\n"
      "2 usage, 77 no GPU for an environment that needs one (all but none)\n");
}

#define AT(field) .offset = offsetof(app_cli, field)
static const cli_opt app_opts[] = {
    {.name = "runs", .kind = CLI_LONG, AT(runs), .lo = 1, .hi = 1L << 40,
     .bad = "-runs: expected a positive number, not '%v'"},
    {.name = "seconds", .kind = CLI_SECONDS, AT(seconds),
     .bad = "-seconds: expected seconds, not '%v'"},
    {.name = "run-timeout", .kind = CLI_SECONDS, AT(run_timeout),
     .bad = "-run-timeout: expected seconds, not '%v'"},
    {.name = "env", .kind = CLI_STRING, AT(envs_arg)},
    {.name = "check", .kind = CLI_STRING, AT(check)},
    {.name = "apps", .kind = CLI_STRING, AT(apps)},
    {.name = "config", .kind = CLI_STRING, AT(config)},
    {.name = "nvcc", .kind = CLI_STRING, AT(nvcc)},
    {.name = "gpudir", .kind = CLI_STRING, AT(gpudir)},
    {.name = "keep", .kind = CLI_STRING, AT(keep)},
    {.name = "cost", .kind = CLI_FLAG, AT(cost)},
    {.name = "v", .kind = CLI_FLAG, AT(verbose)},
    {.name = "fences", .kind = CLI_FLAG, AT(fences)},
    {.name = "ptx", .kind = CLI_STRING, AT(ptx)},
    {.name = "build", .kind = CLI_STRING, AT(build)},
    {.name = "fence-kind", .kind = CLI_STRING, AT(fence_kind)},
    {.name = "model-fences", .kind = CLI_FLAG, AT(model_fences)},
    {.name = "model", .kind = CLI_STRING, AT(model)},
    {.name = "unroll", .kind = CLI_INT, AT(unroll), .lo = 0, .hi = 1 << 20,
     .bad = "-unroll: expected a non-negative number, not '%v'"},
    {.name = "seed", .kind = CLI_LONG, AT(seed), .lo = 0, .hi = 1L << 62,
     .bad = "-seed: expected a non-negative number, not '%v'"},
    {0}};

/* Read -env's list into c->envs; false after a message. */
static bool read_envs(app_cli *c) {
  const char *list = c->envs_arg ? c->envs_arg : "none,stress+rand";
  if (!strcmp(list, "all"))
    list = "none,none+rand,stress,stress+rand,random,random+rand,cache,"
           "cache+rand";
  char *copy = GC_STRDUP(list), *save = NULL;
  for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
    app_env e;
    if (!app_env_read(w, &e)) {
      fprintf(stderr, "scopecat gpu app: -env: expected none, stress, random "
                      "or cache, each maybe with +rand, not '%s'\n", w);
      return false;
    }
    for (int i = 0; i < c->nenv; i++)
      if (c->envs[i].mode == e.mode && c->envs[i].randomise == e.randomise) {
        fprintf(stderr, "scopecat gpu app: -env: '%s' given twice\n", w);
        return false;
      }
    c->envs[c->nenv++] = e;
  }
  if (!c->nenv) {
    fprintf(stderr, "scopecat gpu app: -env: no environment\n");
    return false;
  }
  return true;
}

/* The first word of a shell command, as the path of the file it runs
 * (searched in PATH when it has no '/'); NULL when there is none. */
static const char *command_file(const char *cmd) {
  while (*cmd == ' ' || *cmd == '\t')
    cmd++;
  size_t n = strcspn(cmd, " \t");
  if (!n)
    return NULL;
  char *word = GC_STRNDUP(cmd, n);
  if (strchr(word, '/'))
    return word;
  const char *path = getenv("PATH");
  char *dirs = GC_STRDUP(path ? path : "/usr/bin:/bin"), *save = NULL;
  for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
    const char *f = cli_format("%s/%s", d, word);
    if (access(f, X_OK) == 0)
      return f;
  }
  return NULL;
}

/* Read -apps FILE: lines NAME [CHECK...] -- COMMAND...; # comments. */
static int read_apps(const app_cli *c, app_prog *progs) {
  char *text = cli_read_file(c->apps);
  if (!text) {
    fprintf(stderr, "scopecat gpu app: %s: cannot read\n", c->apps);
    return -1;
  }
  int n = 0, line = 0;
  for (char *l = text; l && *l; line++) {
    char *nl = strchr(l, '\n');
    if (nl)
      *nl = '\0';
    char *raw = l, *s = l + strspn(l, " \t");
    l = nl ? nl + 1 : NULL;
    if (!*s || *s == '#')
      continue;
    char *sep = strstr(s, " -- ");
    size_t name_len = strcspn(s, " \t");
    if (!sep || !*(sep + 4 + strspn(sep + 4, " \t"))) {
      /* the column where " -- " or the command after it was wanted */
      fprintf(stderr, "%s:%d:%d: expected NAME [CHECK] -- COMMAND\n", c->apps,
              line + 1, (int)(sep ? sep - raw + 5 : (long)strlen(raw) + 1));
      return -1;
    }
    if (n == APP_MAX_APPS) {
      fprintf(stderr, "%s:%d:1: more than %d programs\n", c->apps, line + 1,
              APP_MAX_APPS);
      return -1;
    }
    app_prog *p = &progs[n++];
    p->name = GC_STRNDUP(s, name_len);
    char *check = s + name_len;
    check += strspn(check, " \t");
    p->check = check < sep ? GC_STRNDUP(check, (size_t)(sep - check)) : c->check;
    p->command = GC_STRDUP(sep + 4 + strspn(sep + 4, " \t"));
    p->exe = command_file(p->command);
  }
  if (!n) {
    fprintf(stderr, "%s:%d:1: expected NAME [CHECK] -- COMMAND, found no "
                    "program\n", c->apps, line > 0 ? line : 1);
    return -1;
  }
  return n;
}

/* ---- the interposer ------------------------------------------------------ */

/* Build harness/app_interpose.cu into a preloadable library in `dir` with
 * the one build step (reused when nothing changed); NULL after a message. */
static const char *build_interposer(const app_cli *c, const char *dir) {
  const char *nvcc = gpu_nvcc(c->nvcc), *gd = gpu_dir(c->gpudir);
  const char *src = cli_format("%s/app_interpose.cu", gd);
  const char *so = cli_format("%s/libscopecat_app.so", dir);
  const char *cmd = cli_format(
      "'%s' -O3 -arch=sm_90 -std=c++17 -shared -Xcompiler -fPIC "
      "-cudart shared -I '%s' -o '%s' '%s' -ldl",
      nvcc, gd, so, src);
  cli_list inputs = gpu_sources(src, gd);
  return gpu_step(nvcc, cmd, &inputs, so, "scopecat gpu app: the interposer",
                  stderr)
             ? so
             : NULL;
}

/* Check the parameters as the interposer will read them, so that a bad
 * -config is said once here, not as an error in every run. */
static bool params_ok(void) {
  sc_app_params p;
  const char *why, *bad = sc_app_params_read(&p, (const char *(*)(const char *))getenv, &why);
  if (bad)
    fprintf(stderr, "scopecat gpu app: %s='%s': expected %s\n", bad,
            getenv(bad), why);
  return !bad;
}

/* ---- the command ------------------------------------------------------------- */

/* Split argv at "--": the options before it, the program after, as a
 * shell command (quoted) and its name (the words as given). */
static int split_program(int argc, char **argv, app_cli *c, const char **name) {
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--")) {
      const char *cmd = "", *words = "";
      for (int k = i + 1; k < argc; k++) {
        cmd = cli_format("%s%s%s", cmd, *cmd ? " " : "", cli_shell_quote(argv[k]));
        words = cli_format("%s%s%s", words, *words ? " " : "", argv[k]);
      }
      cli_push(&c->operands, cmd);
      *name = words;
      return i;
    }
  return argc;
}

/* -fences and the options that go with it (-ptx, -build, -fence-kind)
 * come together; -fences checks one program in one environment, by
 * default 000's tuned stress with randomisation.  False after a message. */
static bool fences_options_ok(app_cli *c) {
  if (c->fence_kind && !kernel_fence_known(c->fence_kind)) {
    fprintf(stderr, "scopecat gpu app: -fence-kind expects " KERNEL_FENCE_KINDS
                    ", found '%s'\n", c->fence_kind);
    return false;
  }
  const char *model_alone = c->model ? "-model" : c->unroll >= 0 ? "-unroll" : NULL;
  if (model_alone && !c->model_fences) {
    fprintf(stderr, "scopecat gpu app: %s goes with -model-fences\n", model_alone);
    return false;
  }
  const char *alone = c->ptx ? "-ptx" : c->build ? "-build"
                    : c->fence_kind ? "-fence-kind"
                    : c->model_fences ? "-model-fences" : NULL;
  if (!c->fences) {
    if (alone)
      fprintf(stderr, "scopecat gpu app: %s goes with -fences\n", alone);
    return !alone;
  }
  const char *why = !c->ptx     ? "-fences: expected -ptx FILE, the program's PTX"
                    : !c->build ? "-fences: expected -build 'CMD {ptx}'"
                    : !strstr(c->build, "{ptx}")
                        ? "-build: expected {ptx} in the command, where the "
                          "fenced PTX goes"
                    : c->apps       ? "-fences takes one program, not -apps"
                    : c->seconds > 0 ? "-fences counts runs (-runs), not -seconds"
                                    : NULL;
  if (why)
    fprintf(stderr, "scopecat gpu app: %s\n", why);
  if (!c->envs_arg)
    c->envs_arg = "stress+rand";
  return !why;
}

int cmd_gpu_app(int argc, char **argv) {
  if (argc >= 2 && !strcmp(argv[1], "-compare"))
    return app_compare(argc - 1, argv + 1);
  if (argc >= 2 && (!strcmp(argv[1], "-kernel-program") ||
                    !strcmp(argv[1], "-kernel-check"))) {
    if (argc != 3) {
      fprintf(stderr, "scopecat gpu app: %s: expected one CASE.ptx and "
                      "nothing else\n", argv[1]);
      return EXIT_USAGE;
    }
    return !strcmp(argv[1], "-kernel-program") ? app_kernel_program(argv[2])
                                               : app_kernel_check(argv[2]);
  }
  app_cli c;
  memset(&c, 0, sizeof c);
  c.run_timeout = 30, c.seed = 1, c.unroll = -1;
  const char *name = NULL;
  int nopts = split_program(argc, argv, &c, &name);
  cli_list program = c.operands;
  memset(&c.operands, 0, sizeof c.operands);
  const cli_command cmd = {"gpu app", app_opts, {.kind = CLI_LIST, AT(operands)},
                           app_usage, false};
  int missing;
  int rc = cli_parse(&cmd, &c, nopts, argv, &missing);
  if (rc != CLI_GO_ON)
    return rc;
  if (c.operands.n) {
    fprintf(stderr, "scopecat gpu app: '%s': the program goes after --\n",
            c.operands.items[0]);
    return EXIT_USAGE;
  }
  if (!program.n == !c.apps || (program.n && !*program.items[0])) {
    fprintf(stderr, "scopecat gpu app: expected -- PROGRAM ARGS... or "
                    "-apps FILE (one of them)\n");
    return EXIT_USAGE;
  }
  if (!fences_options_ok(&c))
    return EXIT_USAGE;
  if (!read_envs(&c))
    return EXIT_USAGE;
  if (c.fences && c.nenv != 1) {
    fprintf(stderr, "scopecat gpu app: -fences: expected one environment "
                    "(-env), the check's\n");
    return EXIT_USAGE;
  }
  gpu_cli tuned;
  memset(&tuned, 0, sizeof tuned);
  if (c.config && !gpu_read_config(&tuned, c.config))
    return EXIT_USAGE;
  app_prog *progs = GC_MALLOC(APP_MAX_APPS * sizeof *progs);
  int napps = 1;
  if (c.apps) {
    if ((napps = read_apps(&c, progs)) < 0)
      return EXIT_USAGE;
  } else {
    progs[0].command = program.items[0];
    progs[0].name = name;
    progs[0].exe = command_file(argv[nopts + 1]); /* unquoted */
    progs[0].check = c.check;
  }
  bool need_gpu = false;
  for (int e = 0; e < c.nenv; e++)
    need_gpu |= app_interposed(&c, c.envs[e]);
  for (int e = 0; e < c.nenv && need_gpu; e++) {
    app_set_env_vars(&tuned, c.envs[e], c.cost);
    if (!params_ok())
      return EXIT_USAGE;
  }
  if (need_gpu && gpu_count() == 0) {
    fprintf(stderr, "scopecat gpu app: no GPU (nvidia-smi lists none): every "
                    "environment but none needs one\n");
    return 77;
  }
  const char *tmp = cli_temp_dir("app");
  if (!tmp) {
    fprintf(stderr, "scopecat gpu app: a temporary folder: %s\n",
            strerror(errno));
    return EXIT_SOME_FAILED;
  }
  const char *so = NULL;
  if (need_gpu) {
    if (c.keep)
      mkdir(c.keep, 0777);
    if (!(so = build_interposer(&c, c.keep ? c.keep : tmp)))
      return EXIT_SOME_FAILED;
  }
  if (c.fences) {
    const char *why = need_gpu && progs[0].exe ? app_static_cudart(progs[0].exe)
                                               : NULL;
    if (why)
      fprintf(stderr, "scopecat gpu app: %s\n", why);
    rc = why ? EXIT_SOME_FAILED : app_fences(&c, &tuned, &progs[0], so, tmp);
    cli_temp_remove(tmp);
    return rc;
  }
  app_tally *tallies = GC_MALLOC((size_t)napps * (size_t)c.nenv * sizeof *tallies);
  const char **names = GC_MALLOC((size_t)napps * sizeof *names);
  bool erred = false;
  for (int a = 0; a < napps; a++) {
    names[a] = progs[a].name;
    const char *why = need_gpu && progs[a].exe ? app_static_cudart(progs[a].exe)
                                               : NULL;
    if (why) {
      fprintf(stderr, "scopecat gpu app: %s\n", why);
      erred = true;
      continue;
    }
    for (int e = 0; e < c.nenv; e++) {
      app_tally *t = &tallies[a * c.nenv + e];
      app_run_env(&c, &tuned, &progs[a], c.envs[e], so, tmp, t);
      erred |= app_errors(t) > 0;
      /* a run that hung or crashed was killed before its interposer could
       * write its ledger: only runs that ended on their own say anything
       * about how the program was linked */
      long ended = t->runs - t->errors[APP_HANG] - t->errors[APP_CRASH];
      if (app_interposed(&c, c.envs[e]) && ended > 0 && t->ledger.launches == 0)
        fprintf(stderr, "scopecat gpu app: %s: in %s, the interposer saw no "
                        "kernel launch (a program linked statically against "
                        "the CUDA runtime? rebuild it with -cudart shared)\n",
                progs[a].name, app_env_name(c.envs[e]));
    }
    app_report(stdout, progs[a].name, c.envs, &tallies[a * c.nenv], c.nenv);
    fflush(stdout);
  }
  if (napps > 1) {
    putchar('\n');
    app_table(stdout, names, napps, c.envs, c.nenv, tallies);
  }
  cli_temp_remove(tmp);
  return erred ? EXIT_SOME_FAILED : EXIT_ALL_RAN;
}
