/* cmd_sim.c: `scopecat sim` (also plain `scopecat FILE...`): which final
 * states does the model allow?  Prints herd7's block per test, in the
 * order the tests were named, whatever -j runs them in.  A test that fails
 * to parse or to evaluate is reported (file:line:col on stderr) and the
 * others still run. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "cli.h"
#include "models.h"

#include "scopecat.h"

#include <errno.h>
#include <gc/gc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct sim_cli {
  const char *model_path; /* -model, NULL: the dialect's default */
  const char *bell;       /* -bell: a bell file run before the model */
  model_dirs models;      /* -I, then the bundled model folders */
  const char **skip;      /* -skipcheck */
  const char **variants;  /* -variant */
  int nvariants;
  int nskip;
  sc_sim_options opts;
  sc_parse_limits limits; /* -max-threads, -max-events, -max-file-size */
  sc_model_limits model_limits; /* -max-depth, -max-forks, -max-iterations,
                                   -timeout */
  unsigned log_flags;
  bool json;              /* -json: one JSON object per test */
  sc_select *sel;
  const char *outdir;     /* -o: where -show writes DOT files */
  const char *graph;      /* -graph svg|png: also render them */
  int jobs;
  bool progress;          /* stderr is a terminal */
  file_list files;
} sim_cli;

static void sim_usage(FILE *out) {
  fprintf(out,
          "usage: scopecat [sim] [options] FILE|DIR...\n"
          "  -model FILE        the .cat model (default: ptx-rmo.cat for "
          "GPU_PTX tests,\n"
          "                     ptx-v6.0.cat for PTX, ptx-v7.5.cat with "
          "proxies)\n"
          "  -bell FILE         run the bell file FILE before the model\n"
          "  -I DIR             search DIR for models and their includes\n"
          "  -skipcheck NAME    do not apply the check NAME (comma lists too)\n"
          "  -variant NAME      set the model's variant NAME (comma lists too)\n"
          "  -through invalid   keep executions that fail the model's checks\n"
          "  -select REGEX      only tests whose name matches (PCRE2)\n"
          "  -j N               run N tests at once\n"
          "  -timeout S         give up a test after S seconds\n"
          "  -max-executions N  give up a test after N candidate executions\n"
          "  -noprune           evaluate every candidate (no branch cut "
          "early)\n"
          "  -max-threads N     refuse tests of more than N threads "
          "(default 256)\n"
          "  -max-events N      refuse tests whose executions have more than "
          "N events\n"
          "                     (default 4096)\n"
          "  -max-file-size N   refuse test files of more than N bytes "
          "(default 16 MiB)\n"
          "  -max-depth N       stop a model whose function calls nest "
          "deeper than N\n"
          "                     (default 1000, at most 10000)\n"
          "  -max-forks N       stop a model whose 'with ... from' forks "
          "nest deeper than N\n"
          "                     (default 200, at most 1000)\n"
          "  -max-iterations N  stop a model whose 'let rec' has not "
          "converged after N\n"
          "                     rounds (default: events squared + 2, at "
          "least 100)\n"
          "  -unroll N          follow each backward jump at most N times "
          "(default 2)\n"
          "  -show WHAT         draw executions: prop, neg, cond, all, none\n"
          "  -o DIR             write each drawing to DIR/NAME-K.dot\n"
          "  -graph svg|png     also render each to DIR/NAME-K.svg|png\n"
          "  -json              one JSON object per test instead of herd's "
          "block\n"
          "  -nohash            no Hash= lines\n"

          "  -version           print the version\n");
}

static void push(const char ***list, int *n, const char *s) {
  *list = GC_REALLOC(*list, sizeof(char *) * (size_t)(*n + 1));
  (*list)[(*n)++] = s;
}

static bool want_arg(int argc, char **argv, int i) {
  if (i + 1 < argc)
    return true;
  fprintf(stderr, "scopecat sim: %s needs an argument\n", argv[i]);
  return false;
}

static bool parse_count(const char *opt, const char *s, long *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || *end || v < 0) {
    fprintf(stderr, "scopecat sim: %s expects a non-negative integer, found "
                    "'%s'\n", opt, s);
    return false;
  }
  *out = v;
  return true;
}

/* The limits given as -max-NAME N other than -max-executions: where each
 * goes, and the most it may be. */
typedef struct limit_option {
  const char *name;
  long most;
} limit_option;

static const limit_option limit_options[] = {
    {"max-threads", 1L << 20},    {"max-events", 1L << 20},
    {"max-file-size", 1L << 40},  {"max-depth", 10000},
    {"max-iterations", 1L << 30}, {"max-forks", 1000},
};
#define NLIMITS (int)(sizeof limit_options / sizeof limit_options[0])

static bool is_limit_option(const char *a) {
  for (int k = 0; k < NLIMITS; k++)
    if (cli_is_option(a, limit_options[k].name))
      return true;
  return false;
}

static bool set_limit(sim_cli *c, const char *opt, const char *arg) {
  int k = 0;
  long v;
  while (!cli_is_option(opt, limit_options[k].name))
    k++;
  if (!parse_count(opt, arg, &v))
    return false;
  if (v < 1 || v > limit_options[k].most) {
    fprintf(stderr, "scopecat sim: %s expects a number from 1 to %ld, found "
                    "'%s'\n", opt, limit_options[k].most, arg);
    return false;
  }
  switch (k) {
  case 0: c->limits.max_threads = (int)v; break;
  case 1: c->limits.max_events = (int)v; break;
  case 2: c->limits.max_file_bytes = (size_t)v; break;
  case 3: c->model_limits.max_depth = (int)v; break;
  case 4: c->model_limits.max_iterations = (int)v; break;
  default: c->model_limits.max_forks = (int)v; break;
  }
  return true;
}

/* Returns -1 on success, else the exit status. */
static int parse_options(sim_cli *c, int argc, char **argv) {
  c->opts.unroll = -1;
  c->jobs = 1;
  int missing = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    long v;
    if (cli_is_option(a, "model") || cli_is_option(a, "cat")) {
      if (!want_arg(argc, argv, i)) return EXIT_USAGE;
      c->model_path = argv[++i];
    } else if (cli_is_option(a, "bell")) {
      if (!want_arg(argc, argv, i)) return EXIT_USAGE;
      c->bell = argv[++i];
    } else if (cli_is_option(a, "I")) {
      if (!want_arg(argc, argv, i)) return EXIT_USAGE;
      models_add_dir(&c->models, argv[++i]);
    } else if (cli_is_option(a, "skipcheck")) {
      if (!want_arg(argc, argv, i)) return EXIT_USAGE;
      char *names = GC_STRDUP(argv[++i]), *save = NULL;
      for (char *n = strtok_r(names, ",", &save); n; n = strtok_r(NULL, ",", &save))
        push(&c->skip, &c->nskip, n);
    } else if (cli_is_option(a, "variant")) {
      if (!want_arg(argc, argv, i)) return EXIT_USAGE;
      char *names = GC_STRDUP(argv[++i]), *save = NULL;
      for (char *n = strtok_r(names, ",", &save); n; n = strtok_r(NULL, ",", &save))
        push(&c->variants, &c->nvariants, n);
    } else if (cli_is_option(a, "through")) {
      if (!want_arg(argc, argv, i)) return EXIT_USAGE;
      const char *w = argv[++i];
      if (strcmp(w, "none") && strcmp(w, "invalid") && strcmp(w, "all")) {
        fprintf(stderr, "scopecat sim: -through expects none, invalid or all, "
                        "found '%s'\n", w);
        return EXIT_USAGE;
      }
      c->opts.through = strcmp(w, "none") != 0;
    } else if (cli_is_option(a, "select")) {
      sc_error *err;
      if (!want_arg(argc, argv, i)) return EXIT_USAGE;
      if (sc_select_compile(argv[++i], &c->sel, &err) != SC_OK) {
        fprintf(stderr, "scopecat sim: %s\n", sc_error_message(err));
        return EXIT_USAGE;
      }
    } else if (cli_is_option(a, "j")) {
      if (!want_arg(argc, argv, i) || !parse_count(a, argv[++i], &v) || v < 1) {
        fprintf(stderr, "scopecat sim: -j expects a positive number\n");
        return EXIT_USAGE;
      }
      c->jobs = (int)v;
    } else if (cli_is_option(a, "timeout")) {
      char *end;
      if (!want_arg(argc, argv, i)) return EXIT_USAGE;
      c->opts.timeout = strtod(argv[++i], &end);
      if (*end || c->opts.timeout < 0) {
        fprintf(stderr, "scopecat sim: -timeout expects seconds, found '%s'\n",
                argv[i]);
        return EXIT_USAGE;
      }
    } else if (cli_is_option(a, "max-executions")) {
      if (!want_arg(argc, argv, i) || !parse_count(a, argv[++i], &v))
        return EXIT_USAGE;
      c->opts.max_executions = v;
    } else if (is_limit_option(a)) {
      if (!want_arg(argc, argv, i) || !set_limit(c, a, argv[++i]))
        return EXIT_USAGE;
    } else if (cli_is_option(a, "unroll")) {
      if (!want_arg(argc, argv, i) || !parse_count(a, argv[++i], &v))
        return EXIT_USAGE;
      c->opts.unroll = (int)v;
    } else if (cli_is_option(a, "show")) {
      static const char *const words[] = {"none", "prop", "neg", "cond", "all"};
      if (!want_arg(argc, argv, i)) return EXIT_USAGE;
      const char *w = argv[++i];
      int k = 0;
      while (k < 5 && strcmp(words[k], w) != 0)
        k++;
      if (k == 5) {
        fprintf(stderr, "scopecat sim: -show expects prop, neg, cond, all or "
                        "none, found '%s'\n", w);
        return EXIT_USAGE;
      }
      c->opts.show = (sc_show)k;
    } else if (cli_is_option(a, "graph")) {
      if (!want_arg(argc, argv, i)) return EXIT_USAGE;
      c->graph = argv[++i];
      if (strcmp(c->graph, "svg") != 0 && strcmp(c->graph, "png") != 0) {
        fprintf(stderr, "scopecat sim: -graph expects svg or png, found '%s'\n",
                c->graph);
        return EXIT_USAGE;
      }
    } else if (cli_is_option(a, "o")) {
      if (!want_arg(argc, argv, i)) return EXIT_USAGE;
      c->outdir = argv[++i];
    } else if (cli_is_option(a, "json")) {
      c->json = true;
    } else if (cli_is_option(a, "nohash")) {
      c->log_flags |= SC_LOG_NOHASH;
    } else if (cli_is_option(a, "noprune")) {
      /* every candidate evaluated, no branch cut early: the same figures,
       * more slowly; for checking the cuts */
      c->opts.noprune = 1;

    } else if (cli_is_option(a, "help") || cli_is_option(a, "h")) {
      sim_usage(stdout);
      return EXIT_ALL_RAN;
    } else if (cli_is_option(a, "version")) {
      printf("scopecat %s\n", sc_version());
      return EXIT_ALL_RAN;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "scopecat sim: unknown option '%s'\n", a);
      sim_usage(stderr);
      return EXIT_USAGE;
    } else if (!cli_collect(&c->files, a)) {
      missing++;
    }
  }
  if (c->files.n == 0 && missing == 0) {
    sim_usage(stderr);
    return EXIT_USAGE;
  }
  if ((c->opts.show != SC_SHOW_NONE && !c->json && !c->outdir) ||
      (c->graph && !c->outdir)) {
    fprintf(stderr, "scopecat sim: -show and -graph need -o DIR to write the "
                    "drawings to (or -json to print the executions)\n");
    return EXIT_USAGE;
  }
  if (c->outdir && c->opts.show == SC_SHOW_NONE)
    c->opts.show = SC_SHOW_PROP; /* -o alone draws the witnesses */
  c->model_limits.timeout = c->opts.timeout; /* one execution: at most all */
  c->opts.skipchecks = c->skip;
  c->opts.variants = c->variants;
  c->opts.nvariants = c->nvariants;
  c->opts.nskip = c->nskip;
  models_add_bundled(&c->models);
  return missing ? -2 : -1;
}

/* ---- Models ------------------------------------------------------------- */

/* The model with the bell before it, made once per model. */
static sc_status with_bell(const sim_cli *c, sc_model **m, sc_error **err) {
  static const sc_model *plain;
  static sc_model *belled;
  if (plain != *m) {
    sc_status st = sc_model_add_bell(*m, c->bell, c->models.dirs, c->models.n,
                                     &belled, err);
    if (st)
      return st;
    plain = *m;
  }
  *m = belled;
  return SC_OK;
}

/* The model under the -max-depth, -max-forks, -max-iterations and -timeout
 * limits, made
 * once per model. */
static sc_status with_limits(const sim_cli *c, sc_model **m, sc_error **err) {
  static const sc_model *plain;
  static sc_model *limited;
  if (plain != *m) {
    sc_status st = sc_model_with_limits(*m, &c->model_limits, &limited, err);
    if (st)
      return st;
    plain = *m;
  }
  *m = limited;
  return SC_OK;
}

static sc_status model_for(const sim_cli *c, const sc_test *t, sc_model **out,
                           sc_error **err) {
  const char *name = c->model_path ? c->model_path : models_default(t);
  sc_status st = models_load(&c->models, name, out, NULL, err);
  if (!st && c->bell)
    st = with_bell(c, out, err);
  return st ? st : with_limits(c, out, err);
}

/* ---- One test ---------------------------------------------------------- */

/* The progress line (stderr is a terminal): tests done, the test running
 * (or how many run, with -j), executions explored and how many a second.
 * With -j the workers are processes: each writes its test's count of
 * executions in a slot of a shared page that the parent reads. */
typedef struct progress {
  int done, total;     /* tests */
  long finished;       /* executions of the tests done (sequential runs) */
  long *slots;         /* -j: per test, executions so far (shared) */
  long *slot;          /* in a worker: its test's slot */
  const char *name;    /* the test running (sequential runs) */
  double start;
} progress;

static progress prog;

static double wall_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void print_progress(const char *what, long executions) {
  double dt = wall_now() - prog.start;
  fprintf(stderr, "\r\033[K[%d/%d tests] %s: %ld executions, %.0f/s", prog.done,
          prog.total, what, executions, dt > 0 ? (double)executions / dt : 0.0);
  fflush(stderr);
}

/* sc_sim_options.progress: a worker fills its slot, a sequential run
 * prints. */
static void show_progress(void *ctx, long candidates, double seconds) {
  (void)ctx;
  (void)seconds;
  if (prog.slot)
    *prog.slot = candidates;
  else
    print_progress(prog.name, prog.finished + candidates);
}

/* Each shown execution K (from 1) goes to DIR/NAME-K.dot, and with
 * -graph FMT also to DIR/NAME-K.FMT, rendered. */
static bool write_drawings(const sim_cli *c, const char *path,
                           const sc_test *t, const sc_result *r) {
  if (!c->outdir)
    return true;
  size_t len = strlen(c->outdir) + strlen(sc_test_name(t)) + 32;
  char *file = GC_MALLOC_ATOMIC(len);
  for (int i = 0; i < sc_result_shown(r); i++) {
    const char *dot = sc_result_dot_graph(r, i);
    snprintf(file, len, "%s/%s-%d.dot", c->outdir, sc_test_name(t), i + 1);
    FILE *f = fopen(file, "w");
    if (!f || fputs(dot, f) < 0 || fclose(f) != 0) {
      fprintf(stderr, "%s: cannot write %s: %s\n", path, file, strerror(errno));
      return false;
    }
    if (!c->graph)
      continue;
    sc_error *err;
    snprintf(file, len, "%s/%s-%d.%s", c->outdir, sc_test_name(t), i + 1,
             c->graph);
    if (sc_dot_render(dot, c->graph, file, &err) != SC_OK) {
      fprintf(stderr, "%s: %s\n", path, sc_error_message(err));
      return false;
    }
  }
  return true;
}

/* Simulate the test in `path`, printing its block on `out`; false when it
 * could not be parsed or evaluated (the error is on stderr). */
static bool run_one(const sim_cli *c, const char *path, FILE *out) {
  sc_test *t;
  sc_model *m;
  sc_result *r;
  sc_error *err;
  if (sc_test_load_file(path, &c->limits, &t, &err) != SC_OK) {
    fprintf(stderr, "%s\n", sc_error_message(err));
    return false;
  }
  if (!sc_select_match(c->sel, sc_test_name(t)))
    return true;
  if (model_for(c, t, &m, &err) != SC_OK) {
    fprintf(stderr, "%s\n", sc_error_message(err));
    return false;
  }
  sc_sim_options opts = c->opts;
  if (c->progress) {
    prog.name = sc_test_name(t);
    opts.progress = show_progress;
  }
  sc_status st = sc_simulate(t, m, &opts, &r, &err);
  if (c->progress && !prog.slot)
    fprintf(stderr, "\r\033[K");
  if (st == SC_OK && c->progress) {
    if (prog.slot)
      *prog.slot = sc_result_candidates(r);
    else
      prog.finished += sc_result_candidates(r);
  }
  if (st != SC_OK) {
    fprintf(stderr, "%s: test %s: %s\n", path, sc_test_name(t),
                    sc_error_message(err));
    return false;
  }
  fputs(c->json ? sc_result_json(r, c->log_flags) : sc_result_log(r, c->log_flags),
        out);
  return write_drawings(c, path, t, r);
}

/* ---- Several tests at once: one child process per test ------------------ */

typedef struct job {
  pid_t pid;
  FILE *out; /* the child's stdout, replayed in order */
  FILE *err; /* its stderr */
  int status;
  bool done;
} job;

static void replay(FILE *from, FILE *to) {
  char buf[8192];
  size_t n;
  rewind(from);
  while ((n = fread(buf, 1, sizeof buf, from)) > 0)
    fwrite(buf, 1, n, to);
  fclose(from);
}

/* The next worker to end; meanwhile, with a progress line, the line is
 * redrawn four times a second from the workers' slots. */
static pid_t wait_showing(const sim_cli *c, int running, int *status) {
  if (!c->progress)
    return wait(status);
  double last = 0;
  for (;;) {
    pid_t pid = waitpid(-1, status, WNOHANG);
    if (pid != 0)
      return pid;
    double t = wall_now();
    if (t - last >= 0.25) {
      last = t;
      long sum = 0;
      for (int i = 0; i < prog.total; i++)
        sum += prog.slots[i];
      print_progress(running == 1 ? "1 running" : "running", sum);
    }
    struct timespec nap = {0, 20 * 1000 * 1000};
    nanosleep(&nap, NULL);
  }
}

static int run_parallel(const sim_cli *c) {
  int n = c->files.n, failed = 0, next = 0, running = 0, printed = 0;
  job *jobs = GC_MALLOC(sizeof(job) * (size_t)n);
  while (printed < n) {
    while (running < c->jobs && next < n) {
      job *j = &jobs[next];
      j->out = tmpfile();
      j->err = tmpfile();
      fflush(stdout);
      fflush(stderr);
      j->pid = (j->out && j->err) ? fork() : -1;
      if (j->pid == 0) {
        dup2(fileno(j->err), 2);
        if (prog.slots)
          prog.slot = &prog.slots[next];
        bool ok = run_one(c, c->files.paths[next], j->out);
        fflush(j->out);
        fflush(stderr);
        _exit(ok ? 0 : 1);
      }
      if (j->pid < 0) {
        fprintf(stderr, "scopecat sim: cannot start a worker: %s\n",
                strerror(errno));
        return EXIT_SOME_FAILED;
      }
      next++;
      running++;
    }
    int status;
    pid_t pid = wait_showing(c, running, &status);
    if (pid < 0)
      break;
    for (int i = 0; i < next; i++)
      if (jobs[i].pid == pid) {
        jobs[i].done = true;
        jobs[i].status = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
        running--;
        prog.done++;
      }
    while (printed < next && jobs[printed].done) {
      if (c->progress)
        fprintf(stderr, "\r\033[K");
      replay(jobs[printed].out, stdout);
      replay(jobs[printed].err, stderr);
      failed += jobs[printed].status != 0;
      printed++;
    }
  }
  return failed ? EXIT_SOME_FAILED : EXIT_ALL_RAN;
}

int cmd_sim(int argc, char **argv) {
  sim_cli c;
  memset(&c, 0, sizeof c);
  int rc = parse_options(&c, argc, argv);
  if (rc >= 0)
    return rc;
  bool some_missing = rc == -2;
  c.progress = isatty(2);
  prog.total = c.files.n;
  prog.start = wall_now();
  if (c.progress && c.jobs > 1) {
    size_t size = sizeof(long) * (size_t)(c.files.n + 1);
    void *page = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                      -1, 0);
    if (page == MAP_FAILED)
      c.progress = false; /* no line then, the tests still run */
    else
      prog.slots = page;
  }
  int failed = 0;
  if (c.jobs > 1) {
    rc = run_parallel(&c);
    failed = rc != EXIT_ALL_RAN;
  } else {
    for (int i = 0; i < c.files.n; i++, prog.done++)
      failed += !run_one(&c, c.files.paths[i], stdout);
  }
  return failed || some_missing ? EXIT_SOME_FAILED : EXIT_ALL_RAN;
}
