/* cmd_compare.c: `scopecat compare`: do the models account for what the
 * hardware showed?  A table per model, sound or UNSOUND per test, and an
 * exit status for CI. */

/* It reads histogram logs, finds each log's test, runs the models (or
 * reads their herd7 logs) and prints; the reading, matching and
 * classifying are the library's (sc_hist_*, sc_compare_*). */
#define _XOPEN_SOURCE 700
#include "cli_opts.h"
#include "models.h"

#include "scopecat.h"

#include <errno.h>
#include <gc/gc.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Beside EXIT_ALL_RAN, EXIT_SOME_FAILED and EXIT_USAGE: the comparison is
 * complete and some observed outcome is forbidden by a model.  A comparison
 * that is not complete (a log, test or model failed) exits 1 whatever it
 * found: 3 tells CI that the model, not the input, is at fault. */
enum { EXIT_UNSOUND = 3 };

typedef struct compare_cli {
  cli_list models;       /* -model, in order; none: each test's default */
  cli_list user_dirs;    /* -I */
  model_dirs dirs;       /* the -I folders, then the bundled ones */
  cli_list verdicts;     /* -verdicts LOG */
  cli_list tests_named;  /* -tests, as given */
  cli_list logs_named;   /* the arguments, as given */
  file_list tests;       /* -tests: candidate litmus files */
  file_list logs;        /* the histogram logs */
  cli_shard shard;       /* -shard I/N: of the logs */
  const char *html;      /* -html FILE */
  unsigned flags;        /* -detail */
  bool verbose;          /* -v: the model of each test, and why */
  sc_sim_options opts;
  bool progress_said;    /* -progress given: the reports say the model */
  int failed;            /* what could not be read or run */
} compare_cli;

/* -progress: sim's reading, and the reports then name the model. */
static const char *read_progress(void *opts, const cli_opt *o, const char *val) {
  compare_cli *c = opts;
  const char *why = cli_read_progress(opts, o, val);
  c->progress_said = c->progress_said || !why;
  return why;
}

static void compare_usage(FILE *out) {
  fprintf(out,
          "usage: scopecat compare [options] LOG|DIR...\n"
          "  -model FILE        a model to compare with (repeat for several;\n"
          "                     default: each test's own, as sim's: ptx-rmo.cat\n"
          "                     for GPU_PTX tests, ptx-v7.5.cat for those that\n"
          "                     use fence.sc, .acquire/.release or\n"
          "                     .relaxed.SCOPE; ptx-v6.0.cat for the PTX\n"
          "                     dialect, ptx-v7.5.cat with proxies)\n"
          "  -I DIR             search DIR for models and their includes\n"
          "  -tests DIR|FILE    where to find the logs' litmus tests (a\n"
          "                     folder's PTX and GPU_PTX ones: others are\n"
          "                     passed over)\n"
          "  -verdicts LOG|DIR  a herd7 log of a model's verdicts, instead of\n"
          "                     running it (repeat for several); a folder's\n"
          "                     logs (*.txt, *.log: one per shard) are one\n"
          "                     model's\n"
          "  -html FILE         also write a self-contained HTML report\n"
          "  -detail            list every outcome of every test\n"
          "  -v                 say which model judged each test, and why\n"
          "  -timeout S         give up a test after S seconds\n"
          "  -engine E          enum, smt or auto (default), as sim's; where a\n"
          "                     test's launches hung, the model's liveness\n"
          "                     (sim -liveness) is shown beside the hang\n");
  cli_progress_usage(out, 21);
  cli_shard_usage(out, 21);
  cli_common_usage(out, 21);
  fprintf(out,
          "exit status: 0 every test sound, 3 some test UNSOUND, 1 something\n"
          "could not be read, found or run (whatever the rest found), 2 bad\n"
          "usage\n");
}

#define AT(field) .offset = offsetof(compare_cli, field)
static const cli_opt compare_opts[] = {
    {.name = "model", .kind = CLI_LIST, AT(models)},
    {.name = "cat", .kind = CLI_LIST, AT(models)},
    {.name = "I", .kind = CLI_LIST, AT(user_dirs)},
    {.name = "tests", .kind = CLI_LIST, AT(tests_named)},
    {.name = "verdicts", .kind = CLI_LIST, AT(verdicts)},
    {.name = "html", .kind = CLI_STRING, AT(html)},
    {.name = "detail", .kind = CLI_BITS, AT(flags), .bits = SC_REPORT_DETAIL},
    {.name = "v", .kind = CLI_FLAG, AT(verbose)},
    {.name = "timeout", .kind = CLI_SECONDS, AT(opts.timeout),
     .bad = "-timeout expects seconds, found '%v'"},
    {.name = "engine", .kind = CLI_CHOICE, AT(opts.engine), .choices = cli_engine_words,
     .bad = "-engine expects enum, smt or auto, found '%v'"},
    {.name = "progress", .kind = CLI_CALL, AT(opts.progress_model),
     .call = read_progress, .bad = "-progress expects %w, found '%v'"},
    CLI_SHARD_OPTION(compare_cli, shard),
    {0}};

static const cli_command compare_command = {
    "compare", compare_opts, {.kind = CLI_LIST, AT(logs_named)},
    compare_usage, false};

/* Whether `path` was named itself rather than found in a folder named: a
 * file found by a walk may be something else (a LISA test beside the PTX
 * ones, a notes file beside the logs) and is then passed over. */
static bool named_itself(const cli_list *named, const char *path) {
  for (int i = 0; i < named->n; i++)
    if (strcmp(named->items[i], path) == 0)
      return true; /* a folder's files are never the folder's own path */
  return false;
}

/* Returns -1 to go on, else the exit status. */
static int parse_options(compare_cli *c, int argc, char **argv) {
  c->opts.engine = SC_ENGINE_AUTO;
  int missing;
  int rc = cli_parse(&compare_command, c, argc, argv, &missing);
  if (rc != CLI_GO_ON)
    return rc;
  if (c->logs_named.n == 0) {
    compare_usage(stderr);
    return EXIT_USAGE;
  }
  for (int i = 0; i < c->tests_named.n; i++)
    c->failed += !cli_collect(&c->tests, c->tests_named.items[i]);
  for (int i = 0; i < c->logs_named.n; i++)
    c->failed += !cli_collect_logs(&c->logs, c->logs_named.items[i]);
  cli_shard_files(&c->logs, c->shard);
  c->opts.unroll = -1;
  for (int i = 0; i < c->user_dirs.n; i++)
    models_add_dir(&c->dirs, c->user_dirs.items[i]);
  models_add_bundled(&c->dirs);
  return -1;
}

/* ---- Reading the logs ---------------------------------------------------- */

/* Whether the litmus file at `path` is of an architecture scopecat reads
 * (its first word is GPU_PTX or PTX): hardware logs come only from those. */
static bool ptx_litmus(const char *path) {
  char *text;
  sc_error *err;
  if (sc_read_file(path, 0, &text, NULL, &err) != SC_OK)
    return true; /* let the parser say why */
  size_t skip = strspn(text, " \t\r\n");
  size_t len = strcspn(text + skip, " \t\r\n");
  return (len == 7 && strncmp(text + skip, "GPU_PTX", 7) == 0) ||
         (len == 3 && strncmp(text + skip, "PTX", 3) == 0);
}

/* The candidate tests of -tests; a file that does not parse is reported,
 * unless a folder walk found it and it is of another architecture. */
static const sc_test **load_candidates(compare_cli *c, int *n) {
  const sc_test **tests =
      GC_MALLOC(sizeof(sc_test *) * (size_t)(c->tests.n + 1));
  *n = 0;
  for (int i = 0; i < c->tests.n; i++) {
    const char *path = c->tests.paths[i];
    sc_test *t;
    sc_error *err;
    if (sc_test_load_file(path, NULL, &t, &err) == SC_OK) {
      tests[(*n)++] = t;
    } else if (named_itself(&c->tests_named, path) || ptx_litmus(path)) {
      fprintf(stderr, "%s\n", sc_error_message(err));
      c->failed++;
    }
  }
  return tests;
}

/* A log's source is the name of the folder that holds it ("titan" for
 * ptx/results/titan/x.txt): the logs of one folder (of folders of one
 * name) add up in one column. */
static const char *source_of(const char *path) {
  char *dir = GC_STRDUP(path), *slash = strrchr(dir, '/');
  if (slash)
    *slash = '\0';
  else
    dir = ".";
  char real[PATH_MAX];
  const char *full = realpath(dir, real) ? real : dir;
  const char *base = strrchr(full, '/');
  return GC_STRDUP(base && base[1] ? base + 1 : full);
}

/* The blocks of a log; false (reported, counted as a failure) when it
 * cannot be read. */
static bool load_log(compare_cli *c, const char *path, sc_hist ***blocks,
                     int *n) {
  sc_error *err;
  if (sc_hist_load_file(path, blocks, n, &err) == SC_OK)
    return true;
  fprintf(stderr, "%s\n", sc_error_message(err));
  c->failed++;
  return false;
}

static void add_log(compare_cli *c, sc_compare *cmp, const char *path,
                    const sc_test *const *cands, int ncands, bool need_tests) {
  sc_hist **blocks;
  int n;
  if (!load_log(c, path, &blocks, &n))
    return;
  if (n == 0) {
    /* an empty file, or text that is no log, named: nothing compared is
     * no evidence that the models are sound (one found in a folder is
     * passed over: notes beside the logs; a comparison of no test at all
     * fails in cmd_compare) */
    if (named_itself(&c->logs_named, path)) {
      fprintf(stderr, "%s:1:1: expected a log with a 'Test NAME' block, "
                      "found none\n", path);
      c->failed++;
    }
    return;
  }
  for (int i = 0; i < n; i++) {
    const sc_hist *h = blocks[i];
    const sc_test *t = NULL;
    sc_error *err;
    if (!sc_hist_has_counts(h)) {
      fprintf(stderr, "%s:%d:1: expected a histogram, found herd7's States "
                      "(give a model's log with -verdicts)\n",
              path, sc_hist_line(h));
      c->failed++;
      continue;
    }
    if (sc_hist_find_test(h, cands, ncands, &t, &err) != SC_OK && need_tests) {
      fprintf(stderr, "%s%s\n", sc_error_message(err),
              ncands ? "" : " (give -tests DIR)");
      c->failed++;
      continue;
    }
    if (sc_compare_add_hist(cmp, source_of(path), h, t) < 0) {
      fprintf(stderr, "%s:%d:1: expected counts that add up, over the logs "
                      "compared, to a number that fits a long; test %s "
                      "takes them past it\n",
              path, sc_hist_line(h), sc_hist_name(h));
      c->failed++;
    }
  }
}

/* ---- The models ---------------------------------------------------------- */

/* "ptx-rmo.cat: PTX RMO per scope (...)": the name and the model's title. */
static const char *model_title(const compare_cli *c, const char *name) {
  sc_model *m;
  sc_error *err;
  const char *title = models_load(&c->dirs, name, &m, NULL, &err) == SC_OK
                          ? sc_model_title(m)
                          : "";
  return cli_format("%s%s%s", name, *title ? ": " : "", title);
}

/* The models each test runs under without -model, and how many tests
 * each judges, in the order of the tests. */
typedef struct default_models {
  cli_list names;
  int *tests;     /* beside names */
  bool reasoned;  /* some test's default is not its dialect's plain one */
} default_models;

static default_models defaults_of(const sc_compare *cmp) {
  default_models d = {{0}, NULL, false};
  for (int t = 0; t < sc_compare_test_count(cmp); t++) {
    const sc_test *test = sc_compare_test(cmp, t);
    if (!test)
      continue;
    const char *why, *name = models_default_why(test, &why);
    d.reasoned |= strncmp(why, "the default for ", 16) != 0;
    int k = 0;
    while (k < d.names.n && strcmp(d.names.items[k], name) != 0)
      k++;
    if (k == d.names.n) {
      cli_push(&d.names, name);
      d.tests = GC_REALLOC(d.tests, sizeof(int) * (size_t)d.names.n);
      d.tests[k] = 0;
    }
    d.tests[k]++;
  }
  return d;
}

/* The label of the table of a model: the one named; without -model, the
 * models that judged the tests (each test's default), so that the label
 * never names a model that did not judge them. */
static const char *model_label(const compare_cli *c, const sc_compare *cmp,
                               const char *name) {
  if (name)
    return model_title(c, name);
  default_models d = defaults_of(cmp);
  if (d.names.n == 0)
    return "the default of each test (no test was found)";
  if (d.names.n == 1)
    return cli_format("%s (the default%s)", model_title(c, d.names.items[0]),
                      d.reasoned ? " of these tests: -v says why" : "");
  const char *label = "the default of each test (-v says which and why):";
  for (int k = 0; k < d.names.n; k++)
    label = cli_format("%s%s %s for %d test%s", label, k ? ";" : "",
                       model_title(c, d.names.items[k]), d.tests[k],
                       d.tests[k] == 1 ? "" : "s");
  return label;
}

/* -v: each test's model without -model, and why it is that one. */
static void print_defaults(const sc_compare *cmp) {
  for (int t = 0; t < sc_compare_test_count(cmp); t++) {
    const sc_test *test = sc_compare_test(cmp, t);
    const char *why, *name = test ? models_default_why(test, &why) : NULL;
    if (name)
      printf("%s: %s (%s)\n", sc_compare_test_name(cmp, t), name, why);
  }
}

/* Where a test's launches hung, the model's liveness verdict goes beside
 * the hang (sim -liveness); without one, the hang stays an observation. */
static void model_liveness(compare_cli *c, sc_compare *cmp, int m, int t,
                           const sc_model *model) {
  sc_sim_options o = c->opts;
  o.liveness = 1;
  sc_result *r;
  sc_error *err;
  const sc_test *test = sc_compare_test(cmp, t);
  if (sc_simulate(test, model, &o, &r, &err) != SC_OK) {
    fprintf(stderr, "test %s, liveness: %s\n", sc_test_name(test),
            sc_error_message(err));
    return;
  }
  sc_compare_set_liveness(cmp, m, t, sc_result_liveness(r));
}

static void run_model(compare_cli *c, sc_compare *cmp, const char *name) {
  int m = sc_compare_add_model(cmp, model_label(c, cmp, name));
  for (int t = 0; t < sc_compare_test_count(cmp); t++) {
    const sc_test *test = sc_compare_test(cmp, t);
    const char *model_name = name;
    if (!model_name && test)
      model_name = models_default(test);
    sc_model *model;
    sc_result *r;
    sc_error *err;
    if (!test) {
      sc_compare_set_failure(cmp, m, t, "its litmus test was not found");
    } else if (!model_name) {
      sc_compare_set_failure(cmp, m, t, "no default model for the PTX "
                                        "dialect yet: give -model FILE");
    } else if (models_load(&c->dirs, model_name, &model, NULL, &err) != SC_OK) {
      fprintf(stderr, "%s\n", sc_error_message(err));
      sc_compare_set_failure(cmp, m, t, sc_error_message(err));
    } else if (sc_simulate(test, model, &c->opts, &r, &err) != SC_OK) {
      fprintf(stderr, "test %s under %s: %s\n", sc_test_name(test), model_name,
              sc_error_message(err));
      sc_compare_set_failure(cmp, m, t, sc_error_message(err));
    } else {
      sc_compare_set_result(cmp, m, t, r);
      if (sc_compare_test_hung_launches(cmp, t) > 0)
        model_liveness(c, cmp, m, t, model);
    }
  }
}

/* One model's verdicts: a herd7 log, or a folder of them (the logs of
 * the shards of one run), their blocks together. */
static void read_verdicts(compare_cli *c, sc_compare *cmp, const char *path) {
  file_list logs = {0};
  if (!cli_collect_logs(&logs, path)) {
    c->failed++;
    return;
  }
  sc_hist **all = NULL;
  int nall = 0;
  for (int i = 0; i < logs.n; i++) {
    sc_hist **blocks;
    int n;
    if (!load_log(c, logs.paths[i], &blocks, &n) || n == 0)
      continue; /* an empty log gives no blocks (and no array to copy) */
    all = GC_REALLOC(all, sizeof(sc_hist *) * (size_t)(nall + n + 1));
    memcpy(all + nall, blocks, sizeof(sc_hist *) * (size_t)n);
    nall += n;
  }
  bool folder = logs.n != 1 || strcmp(logs.paths[0], path) != 0;
  if (nall == 0 && logs.n > 0) {
    fprintf(stderr, "%s%s expected herd7 blocks ('Test NAME' and its "
                    "States), found none\n", path, folder ? ":" : ":1:1:");
    c->failed++;
  }
  const char *label = cli_format("%s (%s)", path,
                                 folder ? "herd7 logs" : "a herd7 log");
  int m = sc_compare_add_model(cmp, label);
  sc_compare_set_verdicts(cmp, m, all, nall);
}

/* ---- Output -------------------------------------------------------------- */

static bool write_html(const char *file, const sc_compare *cmp) {
  FILE *f = fopen(file, "w");
  if (!f || fputs(cli_text(sc_compare_html(cmp, "scopecat compare")), f) < 0 ||
      fclose(f) != 0) {
    fprintf(stderr, "scopecat compare: cannot write %s: %s\n", file,
            strerror(errno));
    return false;
  }
  return true;
}

static int without_verdict(const sc_compare *cmp) {
  int n = 0;
  for (int m = 0; m < sc_compare_model_count(cmp); m++)
    for (int t = 0; t < sc_compare_test_count(cmp); t++)
      n += sc_compare_verdict(cmp, m, t) == SC_VERDICT_NONE;
  return n;
}

int cmd_compare(int argc, char **argv) {
  compare_cli c;
  memset(&c, 0, sizeof c);
  int rc = parse_options(&c, argc, argv);
  if (rc >= 0)
    return rc;
  int ncands;
  const sc_test **cands = load_candidates(&c, &ncands);
  /* a model runs on the tests themselves; a herd7 log needs only names */
  bool run_models = c.models.n > 0 || c.verdicts.n == 0;
  sc_compare *cmp = sc_compare_new();
  if (c.progress_said)
    sc_compare_set_progress(cmp, sc_progress_name(&c.opts.progress_model));
  for (int i = 0; i < c.logs.n; i++)
    add_log(&c, cmp, c.logs.paths[i], cands, ncands, run_models);
  /* (a shard may hold no log: its share of a folder is then empty) */
  if (sc_compare_test_count(cmp) == 0 && c.failed == 0 &&
      (c.logs.n > 0 || c.shard.count == 0)) {
    fprintf(stderr, "scopecat compare: expected a log with a 'Test NAME' "
                    "block in %s%s, found none\n", c.logs_named.items[0],
            c.logs_named.n > 1 ? " and the others named" : "");
    c.failed++;
  }
  if (c.verbose && run_models && c.models.n == 0)
    print_defaults(cmp);
  for (int i = 0; run_models && i < (c.models.n ? c.models.n : 1); i++)
    run_model(&c, cmp, c.models.n ? c.models.items[i] : NULL);
  for (int i = 0; i < c.verdicts.n; i++)
    read_verdicts(&c, cmp, c.verdicts.items[i]);
  for (int m = 0; m < sc_compare_model_count(cmp); m++)
    printf("%s%s", m ? "\n" : "", cli_text(sc_compare_table(cmp, m, c.flags)));
  if (c.html && !write_html(c.html, cmp))
    c.failed++;
  if (c.failed || without_verdict(cmp))
    return EXIT_SOME_FAILED;
  return sc_compare_unsound_count(cmp) > 0 ? EXIT_UNSOUND : EXIT_ALL_RAN;
}
