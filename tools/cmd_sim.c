/* cmd_sim.c: `scopecat sim` (also plain `scopecat FILE...`): which final
 * states does the model allow?  herd7's block per test, in the order the
 * tests were named, whatever -j runs them in. */

/* A test that fails to parse or to evaluate is reported (file:line:col on
 * stderr) and the others still run. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "cli_opts.h"
#include "cli_pool.h"
#include "cli_result.h"
#include "models.h"

#include "scopecat.h"

#include <errno.h>
#include <gc/gc.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

typedef struct sim_cli {
  const char *model_path; /* -model, NULL: the dialect's default */
  const char *bell;       /* -bell: a bell file run before the model */
  bool races;             /* -races: the model followed by ptx-race.cat,
                             each race raised told as a story */
  cli_list dirs;          /* -I */
  const char *libdir;     /* -set-libdir: searched before the bundled
                             folders, after -I */
  model_dirs models;      /* the -I folders, then the bundled ones */
  cli_list skip;          /* -skipcheck */
  cli_list variants;      /* -variant */
  int through;            /* -through: an index of through_words */
  int show;               /* -show: an index of show_words, an sc_show */
  int graph;              /* -graph: an index of graph_words, -1: none */
  sc_sim_options opts;
  sc_parse_limits limits; /* -max-threads, -max-events, -max-file-size */
  sc_model_limits model_limits; /* -max-depth, -max-forks, -max-iterations,
                                   -timeout */
  unsigned log_flags;
  bool json;              /* -json: one JSON object per test */
  bool verbose;           /* -v: the engine of each test on stderr */
  sc_select *sel;
  cli_list names_files, excl_files; /* -names, -excl */
  cli_list names, excl;   /* the test names they list */
  const char *outdir;     /* -o: where -show writes DOT files */
  const char *graph_format; /* -graph svg|png: also render them */
  sc_dot_options dot;     /* herd7's -graph layout and -showevents */
  const char *macros;     /* herd7's -macros FILE: C tests' only */
  bool dot_stdout;        /* -show without -o: DOT after each block */
  int jobs;
  cli_shard shard;        /* -shard I/N */
  bool progress;          /* stderr is a terminal */
  file_list files;
} sim_cli;

static void sim_usage(FILE *out) {
  fprintf(out,
          "usage: scopecat [sim] [options] FILE|DIR...\n"
          "  -model FILE        the .cat model (default: ptx-rmo.cat for "
          "GPU_PTX tests,\n"
          "                     ptx-v7.5.cat for those using fence.sc, "
          "acq_rel,\n"
          "                     .acquire, .release or .relaxed; "
          "ptx-v6.0.cat for PTX,\n"
          "                     ptx-v7.5.cat with proxies; -v says which)\n"
          "  -bell FILE         run the bell file FILE before the model\n"
          "  -races             follow the model (a PTX one) by ptx-race.cat: flag\n"
          "                     data races and .shared barrier-interval races,\n"
          "                     each told after the block as the story of a\n"
          "                     witness (with -show, drawn too)\n"
          "  -I DIR             search DIR for models and their includes\n"
          "  -set-libdir DIR    search DIR after the -I folders, before the "
          "bundled ones\n"
          "  -skipcheck NAME    do not apply the check NAME (comma lists too)\n"
          "  -variant NAME      set the model's variant NAME (comma lists too)\n"
          "  -through invalid   keep executions that fail the model's checks\n"
          "  -select REGEX      only tests whose name matches (PCRE2)\n"
          "  -names FILE        only the tests FILE names (a name a line, "
          "herd's)\n"
          "  -excl FILE         not the tests FILE names\n"
          "  -j N               run N tests at once (N workers, at most "
          "256)\n");
  cli_shard_usage(out, 21);
  fprintf(out,
          "  -timeout S         give up a test after S seconds\n"
          "  -max-executions N  give up a test after N candidate executions\n"
          "  -noprune           evaluate every candidate (no branch cut "
          "early)\n"
          "  -interpret         run the model by its interpreter only (not "
          "compiled)\n"
          "  -symmetry off      every combination of traces, not one per "
          "orbit of thread symmetries\n"
          "  -layouts W         auto (default), on or off: whether the solver\n"
          "                     chooses the traces too, where only witnesses are\n"
          "                     asked (-speedcheck fast, -liveness) and the\n"
          "                     combinations of traces are too many to walk\n"
          "  -engine E          enum, smt (symbolic, with Z3) or auto "
          "(default)\n"
          "  -v                 say which model, engine and co each test "
          "had, and why\n"
          "  -co WHICH          the co the model sees: model (default: "
          "partial when the\n"
          "                     model rebinds co from it, as Dat3M's PTX "
          "models do, else\n"
          "                     herd's total co), total or partial\n"
          "  -speedcheck M      herd's: false (default), true (count only "
          "executions that\n"
          "                     decide the condition) or fast (stop at the "
          "first one)\n"
          "  -liveness          instead of the states, whether some fair "
          "execution leaves\n"
          "                     a thread spinning or waiting at a barrier "
          "for ever:\n"
          "                     one line per test, Liveness NAME Pass|Fail\n");
  cli_progress_usage(out, 21);
  fprintf(out,
          "  -max-threads N     refuse tests of more than N threads "
          "(default 256)\n"
          "  -max-events N      refuse tests whose executions have more than "
          "N events\n"
          "                     (default 4096)\n"
          "  -max-run-events N  stop a test one of whose threads runs more "
          "than N events\n"
          "                     (default and most 64)\n"
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
          "  -liveness-unroll-max N\n"
          "                     -liveness: a Pass the bound cut is searched "
          "again at\n"
          "                     bound+1, ... up to N (default 3 from the "
          "default bound,\n"
          "                     none after -unroll N)\n"
          "  -show WHAT         draw executions: prop, neg, cond, all, none\n"
          "  -o DIR             write each drawing to DIR/NAME-K.dot (DIR "
          "is created;\n"
          "                     default, or -o -: standard output, after "
          "the test's block)\n"
          "  -nshow N           draw at most N executions a test (default "
          "100)\n"
          "  -graph-format svg|png\n"
          "                     also render each to DIR/NAME-K.svg|png "
          "(-graph svg|png too)\n"
          "  -graph L           herd7's layouts: cluster (default: a box a "
          "thread, in its\n"
          "                     scopes' boxes), free (no boxes), columns "
          "(a thread a column,\n"
          "                     the k-th events of the threads on one "
          "row)\n"
          "  -showevents E      the events drawn: noregs (default) or all "
          "(every one: no\n"
          "                     register events here), mem (reads and "
          "writes) or memfence\n"
          "                     (with fences and barriers)\n"
          "  -macros FILE       herd7's C macros: refused, tests here are "
          "PTX or GPU_PTX\n"
          "  -json              one JSON object per test instead of herd's "
          "block\n"
          "  -nohash            no Hash= lines\n");
  cli_common_usage(out, 21);
  fprintf(out, "  -version           print the version\n");
}

static const char *const through_words[] = {"none", "invalid", "all", NULL};
/* in sc_speedcheck's order */
static const char *const speedcheck_words[] = {"false", "true", "fast", NULL};
static const char *const show_words[] = {"none", "prop", "neg", "cond", "all",
                                         NULL};
static const char *const graph_words[] = {"svg", "png", NULL};
/* in sc_co's order */
static const char *const co_words[] = {"model", "total", "partial", NULL};
/* in sc_dot_layout's order */
static const char *const layout_words[] = {"cluster", "free", "columns", NULL};
/* herd7's -showevents words, with its other spellings, and what each is */
static const struct {
  const char *word;
  sc_dot_events events;
} showevents_words[] = {{"noregs", SC_DOT_EVENTS_NOREGS},
                        {"all", SC_DOT_EVENTS_ALL},
                        {"mem", SC_DOT_EVENTS_MEM},
                        {"memory", SC_DOT_EVENTS_MEM},
                        {"memfence", SC_DOT_EVENTS_MEMFENCE},
                        {"memf", SC_DOT_EVENTS_MEMFENCE}};

/* The index of `word` in the NULL-terminated `words`, -1 when absent. */
static int word_index(const char *const *words, const char *word) {
  for (int k = 0; words[k]; k++)
    if (strcmp(words[k], word) == 0)
      return k;
  return -1;
}

/* herd7's -graph takes a layout; the picture format, its former meaning
 * here, is still taken. */
static const char *read_graph(void *opts, const cli_opt *o, const char *val) {
  (void)o;
  sim_cli *c = opts;
  int layout = word_index(layout_words, val);
  int format = word_index(graph_words, val);
  if (layout >= 0)
    c->dot.layout = (sc_dot_layout)layout;
  else if (format >= 0)
    c->graph = format;
  return layout >= 0 || format >= 0 ? NULL : "";
}

static const char *read_showevents(void *opts, const cli_opt *o,
                                   const char *val) {
  (void)o;
  size_t n = sizeof showevents_words / sizeof showevents_words[0];
  for (size_t k = 0; k < n; k++)
    if (strcmp(showevents_words[k].word, val) == 0) {
      ((sim_cli *)opts)->dot.events = showevents_words[k].events;
      return NULL;
    }
  return "";
}

#define AT(field) .offset = offsetof(sim_cli, field)
#define COUNT "%o expects a non-negative integer, found '%v'"
#define LIMIT(name_, kind_, field, most)                                      \
  {.name = name_, .kind = kind_, AT(field), .lo = 1, .hi = most,              \
   .bad = COUNT, .range = "%o expects a number from %l to %h, found '%v'"}
#define POSITIVE "\n-j expects a positive number"

static const cli_opt sim_opts[] = {
    {.name = "model", .kind = CLI_STRING, AT(model_path)},
    {.name = "cat", .kind = CLI_STRING, AT(model_path)},
    {.name = "bell", .kind = CLI_STRING, AT(bell)},
    {.name = "races", .kind = CLI_FLAG, AT(races)},
    {.name = "I", .kind = CLI_LIST, AT(dirs)},
    {.name = "set-libdir", .kind = CLI_STRING, AT(libdir)},
    {.name = "skipcheck", .kind = CLI_NAMES, AT(skip)},
    {.name = "variant", .kind = CLI_NAMES, AT(variants)},
    {.name = "through", .kind = CLI_CHOICE, AT(through),
     .choices = through_words,
     .bad = "-through expects none, invalid or all, found '%v'"},
    {.name = "select", .kind = CLI_SELECT, AT(sel), .bad = "%w"},
    {.name = "names", .kind = CLI_LIST, AT(names_files)},
    {.name = "excl", .kind = CLI_LIST, AT(excl_files)},
    {.name = "j", .kind = CLI_INT, AT(jobs), .lo = 1, .hi = CLI_JOBS_MOST,
     .bad = COUNT POSITIVE,
     .range = "-j expects a number of workers from %l to %h, found '%v'",
     .missing = "%o needs an argument" POSITIVE},
    CLI_SHARD_OPTION(sim_cli, shard),
    {.name = "timeout", .kind = CLI_SECONDS, AT(opts.timeout),
     .bad = "-timeout expects seconds, found '%v'"},
    {.name = "max-executions", .kind = CLI_LONG, AT(opts.max_executions),
     .lo = 0, .hi = LONG_MAX, .bad = COUNT},
    LIMIT("max-threads", CLI_INT, limits.max_threads, 1L << 20),
    LIMIT("max-events", CLI_INT, limits.max_events, 1L << 20),
    /* fixed by the width of a run's dependency masks: no further */
    {.name = "max-run-events", .kind = CLI_INT, AT(opts.max_run_events), .lo = 1,
     .hi = SC_MAX_RUN_EVENTS, .bad = COUNT,
     .range = "%o expects a number from %l to %h (a run's dependencies are "
              "64-bit masks), found '%v'"},
    LIMIT("max-file-size", CLI_SIZE, limits.max_file_bytes, 1L << 40),
    LIMIT("max-depth", CLI_INT, model_limits.max_depth, 10000),
    LIMIT("max-iterations", CLI_INT, model_limits.max_iterations, 1L << 30),
    LIMIT("max-forks", CLI_INT, model_limits.max_forks, 1000),
    {.name = "unroll", .kind = CLI_INT, AT(opts.unroll), .lo = 0,
     .hi = INT_MAX, .bad = COUNT},
    {.name = "liveness-unroll-max", .kind = CLI_INT, AT(opts.liveness_unroll_max),
     .lo = 0, .hi = INT_MAX, .bad = COUNT},
    {.name = "show", .kind = CLI_CHOICE, AT(show), .choices = show_words,
     .bad = "-show expects prop, neg, cond, all or none, found '%v'"},
    {.name = "graph-format", .kind = CLI_CHOICE, AT(graph),
     .choices = graph_words,
     .bad = "-graph-format expects svg or png, found '%v'"},
    /* herd7's layouts, and the picture format (its former meaning) */
    {.name = "graph", .kind = CLI_CALL, .call = read_graph,
     .bad = "-graph expects cluster, free or columns (or a picture format, "
            "svg or png, as -graph-format), found '%v'"},
    {.name = "showevents", .kind = CLI_CALL, .call = read_showevents,
     .bad = "-showevents expects noregs, all, mem or memfence, found '%v'"},
    {.name = "macros", .kind = CLI_STRING, AT(macros)},
    {.name = "o", .kind = CLI_STRING, AT(outdir)},
    {.name = "nshow", .kind = CLI_INT, AT(opts.max_shown), .lo = 1,
     .hi = INT_MAX, .bad = COUNT,
     .range = "-nshow expects a positive number, found '%v'"},
    {.name = "json", .kind = CLI_FLAG, AT(json)},
    {.name = "nohash", .kind = CLI_BITS, AT(log_flags), .bits = SC_LOG_NOHASH},
    /* every candidate evaluated, no branch cut early: the same figures,
     * more slowly; for checking the cuts */
    {.name = "noprune", .kind = CLI_SET, AT(opts.noprune), .lo = 1},
    {.name = "interpret", .kind = CLI_SET, AT(opts.interpret), .lo = 1},
    {.name = "symmetry", .kind = CLI_CHOICE, AT(opts.symmetry_off),
     .choices = cli_symmetry_words, .bad = "-symmetry expects on or off, found '%v'"},
    {.name = "layouts", .kind = CLI_CHOICE, AT(opts.layout_search),
     .choices = cli_layouts_words, .bad = "-layouts expects auto, on or off, found '%v'"},
    {.name = "engine", .kind = CLI_CHOICE, AT(opts.engine), .choices = cli_engine_words,
     .bad = "-engine expects enum, smt or auto, found '%v'"},
    {.name = "speedcheck", .kind = CLI_CHOICE, AT(opts.speedcheck),
     .choices = speedcheck_words,
     .bad = "-speedcheck expects false, true or fast, found '%v'"},
    {.name = "v", .kind = CLI_FLAG, AT(verbose)},
    {.name = "liveness", .kind = CLI_SET, AT(opts.liveness), .lo = 1},
    CLI_PROGRESS_OPT(sim_cli, opts.progress_model),
    {.name = "co", .kind = CLI_CHOICE, AT(opts.co), .choices = co_words,
     .bad = "-co expects model, total or partial, found '%v'"},
    {.name = "version", .kind = CLI_VERSION},
    {0}};

static const cli_command sim_command = {
    "sim", sim_opts, {.kind = CLI_TESTS, AT(files)}, sim_usage, false};

/* Returns -1 on success, -2 when some file named was missing, else the
 * exit status. */
static int parse_options(sim_cli *c, int argc, char **argv) {
  c->opts.unroll = -1;
  c->opts.engine = SC_ENGINE_AUTO;
  c->jobs = 1;
  c->graph = -1;
  int missing;
  int rc = cli_parse(&sim_command, c, argc, argv, &missing);
  if (rc != CLI_GO_ON)
    return rc;
  if (c->files.n == 0 && missing == 0) {
    sim_usage(stderr);
    return EXIT_USAGE;
  }
  cli_shard_files(&c->files, c->shard);
  for (int i = 0; i < c->names_files.n; i++)
    if (!cli_read_names(c->names_files.items[i], &c->names))
      return EXIT_USAGE;
  for (int i = 0; i < c->excl_files.n; i++)
    if (!cli_read_names(c->excl_files.items[i], &c->excl))
      return EXIT_USAGE;
  c->opts.through = c->through != 0;
  c->opts.show = (sc_show)c->show;
  c->graph_format = c->graph >= 0 ? graph_words[c->graph] : NULL;
  if (c->outdir && strcmp(c->outdir, "-") == 0)
    c->outdir = NULL; /* herd's -o -: standard output */
  else if (c->outdir)
    c->dot_stdout = false;
  if (c->graph_format && !c->outdir) {
    fprintf(stderr, "scopecat sim: -graph-format needs -o DIR to write "
                    "the pictures to\n");
    return EXIT_USAGE;
  }
  FILE *macros = c->macros ? fopen(c->macros, "r") : NULL;
  if (c->macros && !macros) {
    fprintf(stderr, "scopecat sim: -macros %s: cannot read it: %s\n",
            c->macros, strerror(errno));
    return EXIT_USAGE;
  }
  if (macros)
    fclose(macros);
  if (c->outdir && mkdir(c->outdir, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "scopecat sim: -o %s: cannot create the folder: %s\n",
            c->outdir, strerror(errno));
    return EXIT_SOME_FAILED;
  }
  /* as herd7: without -o the drawings go to standard output, each after
   * its test's block (not with -json, whose objects hold the executions) */
  c->dot_stdout = c->opts.show != SC_SHOW_NONE && !c->outdir && !c->json;
  if (c->opts.liveness && c->opts.through) {
    fprintf(stderr, "scopecat sim: -liveness looks for executions the model "
                    "allows: no -through with it\n");
    return EXIT_USAGE;
  }
  if (c->outdir && c->opts.show == SC_SHOW_NONE)
    c->opts.show = SC_SHOW_PROP; /* -o alone draws the witnesses */
  c->model_limits.timeout = c->opts.timeout; /* one execution: at most all */
  c->opts.skipchecks = c->skip.items;
  c->opts.nskip = c->skip.n;
  c->opts.variants = c->variants.items;
  c->opts.nvariants = c->variants.n;
  for (int i = 0; i < c->dirs.n; i++)
    models_add_dir(&c->models, c->dirs.items[i]);
  /* herd7's -set-libdir: the library folder, which -I comes before; the
   * bundled folders read it as they read $SCOPECAT_CATDIR */
  if (c->libdir && setenv("SCOPECAT_CATDIR", c->libdir, 1) != 0) {
    fprintf(stderr, "scopecat sim: -set-libdir: %s\n", strerror(errno));
    return EXIT_USAGE;
  }
  models_add_bundled(&c->models);
  return missing ? -2 : -1;
}

/* ---- Models ------------------------------------------------------------- */

/* What a run keeps besides the options: the models made from the loaded
 * ones (with the bell, under the limits), made once per model, and the
 * progress line's figures. */
typedef struct made_model {
  const sc_model *plain; /* the model it was made from */
  sc_model *made;
} made_model;

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

typedef struct sim_run {
  made_model raced, belled, limited;
  progress prog;
  cli_list warned; /* the models whose warnings were said (as pointers) */
  cli_list failed_models; /* the models that did not load (their names) */
  cli_list model_errors;  /* the models' errors said in full */
} sim_run;

/* The model at `path` (loaded as *m) followed by ptx-race.cat. */
static sc_status with_races(const sim_cli *c, made_model *memo, const char *path,
                            sc_model **m, sc_error **err) {
  if (memo->plain != *m) {
    const char *const extra[] = {SC_RACE_INCLUDE};
    sc_status st = sc_model_load_with_includes(path, extra, 1, c->models.dirs.items,
                                               c->models.dirs.n, &memo->made, err);
    if (st)
      return st;
    memo->plain = *m;
  }
  *m = memo->made;
  return SC_OK;
}

/* The model with the bell before it. */
static sc_status with_bell(const sim_cli *c, made_model *memo, sc_model **m,
                           sc_error **err) {
  if (memo->plain != *m) {
    sc_status st = sc_model_add_bell(*m, c->bell, c->models.dirs.items,
                                     c->models.dirs.n, &memo->made, err);
    if (st)
      return st;
    memo->plain = *m;
  }
  *m = memo->made;
  return SC_OK;
}

/* The model under the -max-depth, -max-forks, -max-iterations and -timeout
 * limits. */
static sc_status with_limits(const sim_cli *c, made_model *memo, sc_model **m,
                             sc_error **err) {
  if (memo->plain != *m) {
    sc_status st = sc_model_with_limits(*m, &c->model_limits, &memo->made, err);
    if (st)
      return st;
    memo->plain = *m;
  }
  *m = memo->made;
  return SC_OK;
}

/* The names of model m that match nothing, said once per model (with -j
 * once per worker: the parent drops repeated warnings). */
static void warn_model(const sim_cli *c, sim_run *run, const sc_model *m) {
  for (int i = 0; i < run->warned.n; i++)
    if (run->warned.items[i] == (const char *)m)
      return;
  cli_push(&run->warned, (const char *)m);
  int n;
  const char *const *w = sc_model_warnings(m, &c->opts, &n);
  cli_print_lines(w, n);
}

static sc_status model_for(const sim_cli *c, sim_run *run, const sc_test *t,
                           sc_model **out, sc_error **err) {
  const char *name = c->model_path ? c->model_path : models_default(t);
  const char *path;
  sc_status st = models_load(&c->models, name, out, &path, err);
  if (!st && c->races)
    st = with_races(c, &run->raced, path, out, err);
  if (!st)
    warn_model(c, run, *out);
  if (!st && c->bell)
    st = with_bell(c, &run->belled, out, err);
  return st ? st : with_limits(c, &run->limited, out, err);
}

/* The model named by -model (with -bell, under the limits), loaded once
 * before any test, as herd7 does: a model that does not load is said
 * once and the run stops.  The workers of -j inherit it. */
static bool preload_model(const sim_cli *c, sim_run *run) {
  if (!c->model_path)
    return true;
  sc_model *m;
  sc_error *err;
  if (model_for(c, run, NULL, &m, &err) == SC_OK)
    return true;
  fprintf(stderr, "%s\nscopecat sim: the model did not load: no test run\n",
          sc_error_message(err));
  return false;
}

/* ---- One test ---------------------------------------------------------- */

static void print_progress(const progress *p, const char *what,
                           long executions) {
  double dt = sc_seconds() - p->start;
  fprintf(stderr, "\r\033[K[%d/%d tests] %s: %ld executions, %.0f/s", p->done,
          p->total, what, executions, dt > 0 ? (double)executions / dt : 0.0);
  fflush(stderr);
}

/* sc_sim_options.progress, its context the run's progress: a worker fills
 * its slot, a sequential run prints. */
static void show_progress(void *ctx, long candidates, double seconds) {
  progress *p = ctx;
  (void)seconds;
  if (p->slot)
    *p->slot = candidates;
  else
    print_progress(p, p->name, p->finished + candidates);
}

/* The shown executions drawn (cli_result.c) where -show, -o and -graph
 * say. */
static bool write_drawings(const sim_cli *c, const char *path,
                           const sc_test *t, const sc_result *r, FILE *out) {
  cli_drawing d = {c->dot_stdout, c->outdir, c->graph_format, &c->dot};
  return cli_draw_shown(&d, path, t, r, out);
}

/* -races: the story of each race raised, after the block (and with -show
 * its witness drawn). */
static void tell_races(const sim_cli *c, const sc_result *r, FILE *out) {
  static const char *const races[] = {SC_FLAG_DATA_RACE, SC_FLAG_SHARED_RACE};
  for (size_t i = 0; i < sizeof races / sizeof races[0]; i++) {
    const char *story = sc_result_story(r, races[i]);
    if (!story)
      continue;
    fprintf(out, "%s\n", story); /* a blank line ends it, as a block */
    if (c->dot_stdout)
      fputs(cli_text(sc_result_witness_dot(r, races[i], &c->dot)), out);
  }
}

/* -v: which model judged the test and why, which engine ran it and which
 * co the model saw. */
static void say_model_and_engine(const sim_cli *c, const char *path,
                                 const sc_test *t, const sc_result *r) {
  const char *why = "named by -model";
  const char *model = c->model_path ? c->model_path : models_default_why(t, &why);
  fprintf(stderr, "%s: test %s: model %s (%s)\n", path, sc_test_name(t), model,
          why);
  fprintf(stderr, "%s: test %s: engine %s (%s)\n", path, sc_test_name(t),
          sc_result_engine(r), sc_result_engine_reason(r));
  fprintf(stderr, "%s: test %s: co %s (%s)\n", path, sc_test_name(t),
          sc_result_co(r), sc_result_co_reason(r));
}

/* The model of test t in *m; false when it did not load: said in full
 * the first time, then in one line per test (herd7 says a model's error
 * once). */
static bool test_model(const sim_cli *c, sim_run *run, const char *path,
                       const sc_test *t, sc_model **m) {
  const char *name = c->model_path ? c->model_path : models_default(t);
  if (!cli_names_has(&run->failed_models, name)) {
    sc_error *err;
    if (model_for(c, run, t, m, &err) == SC_OK)
      return true;
    fprintf(stderr, "%s\n", sc_error_message(err));
    cli_push(&run->failed_models, name);
  }
  fprintf(stderr, "%s: test %s: not run: the model %s did not load (said "
                  "above)\n", path, sc_test_name(t), name);
  return false;
}

/* A test the simulation failed: an error of the model's own text (not a
 * limit) is said once, in a line of its own, and each test it stops gets
 * one line. */
static void say_failure(sim_run *run, const char *path, const sc_test *t,
                        const sc_error *err) {
  const char *msg = sc_error_message(err), *file = sc_error_file(err);
  bool of_model = sc_error_status(err) != SC_ERR_LIMIT && file &&
                  strcmp(file, path) != 0;
  if (!of_model) {
    fprintf(stderr, "%s: test %s: %s\n", path, sc_test_name(t), msg);
    return;
  }
  if (!cli_names_has(&run->model_errors, msg)) {
    fprintf(stderr, "%s\n", msg); /* the model's line: once */
    cli_push(&run->model_errors, msg);
  }
  fprintf(stderr, "%s: test %s: the model's error above (%s:%d:%d)\n", path,
          sc_test_name(t), file, sc_error_line(err), sc_error_column(err));
}

/* Whether the test of this name runs: -select, herd's -names (only those
 * listed, when given) and -excl (not those listed). */
static bool chosen(const sim_cli *c, const char *name) {
  return sc_select_match(c->sel, name) &&
         (c->names_files.n == 0 || cli_names_has(&c->names, name)) &&
         !cli_names_has(&c->excl, name);
}

/* herd7's -macros FILE gives the macros of C litmus tests (linux.def's
 * smp_mb() and the like), which herd7 expands when it parses C tests and
 * no other: a PTX or GPU_PTX test has none to expand, so a test is not
 * run rather than run as though the file had been read. */
static bool refuse_macros(const sim_cli *c, const char *path,
                          const sc_test *t) {
  if (!c->macros)
    return false;
  fprintf(stderr, "%s: test %s: not run: -macros %s gives macros of C litmus "
                  "tests, which herd7 expands in C tests only; this test is "
                  "%s, which has none (run it without -macros)\n",
          path, sc_test_name(t), c->macros,
          sc_test_dialect(t) == SC_DIALECT_PTX ? "PTX" : "GPU_PTX");
  return true;
}

/* Simulate the test in `path`, printing its block on `out`; false when it
 * could not be parsed or evaluated (the error is on stderr). */
static bool run_one(const sim_cli *c, sim_run *run, const char *path,
                    FILE *out) {
  progress *p = &run->prog;
  sc_test *t;
  sc_model *m;
  sc_result *r;
  sc_error *err;
  if (sc_test_load_file(path, &c->limits, &t, &err) != SC_OK) {
    fprintf(stderr, "%s\n", sc_error_message(err));
    return false;
  }
  if (!chosen(c, sc_test_name(t)))
    return true;
  if (refuse_macros(c, path, t))
    return false;
  int nw;
  const char *const *warnings = sc_test_warnings(t, &nw);
  cli_print_lines(warnings, nw);
  if (!test_model(c, run, path, t, &m))
    return false;
  sc_sim_options opts = c->opts;
  if (c->progress) {
    p->name = sc_test_name(t);
    opts.progress = show_progress;
    opts.progress_ctx = p;
  }
  sc_status st = sc_simulate(t, m, &opts, &r, &err);
  if (c->progress && !p->slot)
    fprintf(stderr, "\r\033[K");
  if (st == SC_OK && c->progress) {
    if (p->slot)
      *p->slot = sc_result_candidates(r);
    else
      p->finished += sc_result_candidates(r);
  }
  if (st != SC_OK) {
    say_failure(run, path, t, err);
    return false;
  }
  if (c->verbose)
    say_model_and_engine(c, path, t, r);
  if (!cli_print_result(path, t, r, c->json, c->log_flags, out))
    return false;
  if (c->races && !c->json)
    tell_races(c, r, out);
  return write_drawings(c, path, t, r, out);
}

/* ---- Several tests at once: a pool of workers (cli_pool.c) --------------- */

typedef struct pool_ctx {
  const sim_cli *c;
  sim_run *run;
  cli_list said; /* the warnings printed */
} pool_ctx;

/* In a worker: test i, its executions counted in its slot. */
static bool pool_task(void *ctx, int i, FILE *out) {
  pool_ctx *pc = ctx;
  if (pc->run->prog.slots)
    pc->run->prog.slot = &pc->run->prog.slots[i];
  return run_one(pc->c, pc->run, pc->c->files.paths[i], out);
}

/* A worker's stderr for test i: a line not of the test (it does not
 * start with its path: a model's warning or error, which each worker says
 * once) said already is dropped. */
static void pool_print_err(void *ctx, int i, const char *text, size_t len) {
  pool_ctx *pc = ctx;
  const char *path = pc->c->files.paths[i];
  size_t plen = strlen(path);
  const char *end = text + len;
  while (text < end) {
    const char *nl = memchr(text, '\n', (size_t)(end - text));
    const char *next = nl ? nl + 1 : end;
    char *line = cli_format("%.*s", (int)(next - text), text);
    bool repeated = false;
    if (strncmp(line, path, plen) != 0 || line[plen] != ':') {
      for (int i = 0; i < pc->said.n && !repeated; i++)
        repeated = strcmp(pc->said.items[i], line) == 0;
      if (!repeated)
        cli_push(&pc->said, line);
    }
    if (!repeated)
      fputs(line, stderr);
    text = next;
  }
}

/* The line of a test whose worker ran past its deadline, or died. */
static const char *pool_stuck(void *ctx, int i, int sig) {
  pool_ctx *pc = ctx;
  const char *path = pc->c->files.paths[i];
  if (sig)
    return cli_format("%s: its worker ended by signal %d (%s)", path, sig,
                      strsignal(sig));
  return cli_format("%s: expected to finish within %g s (the -timeout limit), "
                    "found it still running: its worker was stopped",
                    path, pc->c->opts.timeout);
}

/* The progress line, from the workers' slots. */
static void pool_tick(void *ctx, int done) {
  pool_ctx *pc = ctx;
  progress *p = &pc->run->prog;
  long sum = 0;
  for (int i = 0; i < p->total; i++)
    sum += p->slots[i];
  p->done = done;
  print_progress(p, "running", sum);
}

/* A worker past the test's -timeout by half as much again and a second
 * is taken for stuck (the library checks its deadline between steps). */
static double stuck_after(double timeout) {
  return timeout > 0 ? timeout * 1.5 + 1 : 0;
}

/* The workers are forked: each has the parent's options, its models and
 * the collector's settings (-max-heap) as they are. */
static int run_parallel(const sim_cli *c, sim_run *run) {
  pool_ctx pc = {c, run, {NULL, 0}};
  cli_pool pool = {.jobs = c->jobs,
                   .ntasks = c->files.n,
                   .deadline = stuck_after(c->opts.timeout),
                   .ctx = &pc,
                   .task = pool_task,
                   .stuck = pool_stuck,
                   .tick = run->prog.slots ? pool_tick : NULL,
                   .print_err = pool_print_err};
  int failed = cli_pool_run(&pool);
  return failed != 0 ? EXIT_SOME_FAILED : EXIT_ALL_RAN;
}

int cmd_sim(int argc, char **argv) {
  sim_cli c;
  memset(&c, 0, sizeof c);
  int rc = parse_options(&c, argc, argv);
  if (rc >= 0)
    return rc;
  bool some_missing = rc == -2;
  sim_run run;
  memset(&run, 0, sizeof run);
  c.progress = isatty(2);
  run.prog.total = c.files.n;
  run.prog.start = sc_seconds();
  if (c.progress && c.jobs > 1) {
    size_t size = sizeof(long) * (size_t)(c.files.n + 1);
    void *page = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                      -1, 0);
    if (page == MAP_FAILED)
      c.progress = false; /* no line then, the tests still run */
    else
      run.prog.slots = page;
  }
  if (!preload_model(&c, &run))
    return EXIT_SOME_FAILED;
  int failed = 0;
  if (c.jobs > 1) {
    rc = run_parallel(&c, &run);
    failed = rc != EXIT_ALL_RAN;
  } else {
    for (int i = 0; i < c.files.n; i++, run.prog.done++)
      failed += !run_one(&c, &run, c.files.paths[i], stdout);
  }
  return failed || some_missing ? EXIT_SOME_FAILED : EXIT_ALL_RAN;
}
