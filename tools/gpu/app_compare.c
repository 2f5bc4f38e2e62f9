/* app_compare.c: `scopecat gpu app -compare LOG... -verdicts CSV`: the
 * hardware's error rates of programs (gpu app's reports, several logs of
 * one program summed: -seconds slices) beside the model's verdict on the
 * same kernel (ptx/kernels/expected.csv: kernel,ptx,config,model,
 * property,verdict,unroll; program NAME is the case NAME.ptx).  Each
 * program is classed: FAIL and seen, FAIL and not seen in N runs, PASS
 * and seen (the model allows no such state: a model or compiler problem,
 * flagged), PASS and not seen.  Seen means a run broke the
 * post-condition (gpu app's `check` errors); runs that exited wrong, hung
 * or crashed are counted apart, as they say nothing of the final state. */
#define _POSIX_C_SOURCE 200809L
#include "app.h"

#include <gc/gc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* One program's runs in one environment, summed over the logs. */
typedef struct env_count {
  app_env env;
  long runs, broken, other;
} env_count;

typedef struct program_row {
  const char *name;
  env_count envs[APP_MAX_ENVS];
  int nenv;
  const char *verdict; /* the model's, NULL: none in the CSV */
} program_row;

typedef struct compare_cli {
  cli_list logs;
  const char *verdicts, *model, *property;
} compare_cli;

static void compare_usage(void) {
  fprintf(stderr,
          "usage: scopecat gpu app -compare LOG... -verdicts CSV [-model M] "
          "[-property P]\n"
          "  LOG: gpu app's reports of the corpus programs (kernel-corpus.sh)\n"
          "  CSV: the model's verdicts (ptx/kernels/expected.csv); -model\n"
          "  (default ptx-v7.5) and -property (default assertion) pick the rows\n");
}

static bool read_args(int argc, char **argv, compare_cli *c) {
  memset(c, 0, sizeof *c);
  c->model = "ptx-v7.5", c->property = "assertion";
  for (int i = 1; i < argc; i++) {
    const char **value = !strcmp(argv[i], "-verdicts")   ? &c->verdicts
                         : !strcmp(argv[i], "-model")    ? &c->model
                         : !strcmp(argv[i], "-property") ? &c->property
                                                         : NULL;
    if (value && i + 1 < argc)
      *value = argv[++i];
    else if (argv[i][0] != '-')
      cli_push(&c->logs, argv[i]);
    else {
      fprintf(stderr, "scopecat gpu app -compare: %s: %s\n", argv[i],
              value ? "expected a value" : "no such option");
      return false;
    }
  }
  if (!c->logs.n || !c->verdicts) {
    compare_usage();
    return false;
  }
  return true;
}

/* The next line of *text (cut at its '\n'), NULL at the end. */
static char *next_line(char **text) {
  char *l = *text;
  if (!l || !*l)
    return NULL;
  char *nl = strchr(l, '\n');
  *text = nl ? nl + 1 : NULL;
  if (nl)
    *nl = '\0';
  return l;
}

static program_row *find_program(program_row *rows, int *n, const char *name) {
  for (int i = 0; i < *n; i++)
    if (!strcmp(rows[i].name, name))
      return &rows[i];
  if (*n == APP_MAX_APPS)
    return NULL;
  program_row *r = &rows[(*n)++];
  memset(r, 0, sizeof *r);
  r->name = GC_STRDUP(name);
  return r;
}

static env_count *find_env(program_row *r, app_env e) {
  for (int i = 0; i < r->nenv; i++)
    if (r->envs[i].env.mode == e.mode && r->envs[i].env.randomise == e.randomise)
      return &r->envs[i];
  if (r->nenv == APP_MAX_ENVS)
    return NULL;
  env_count *c = &r->envs[r->nenv++];
  memset(c, 0, sizeof *c);
  c->env = e;
  return c;
}

/* Add one log's report rows.  A row is "  ENV RUNS ERRORS EXIT CHECK HANG
 * CRASH RATE% [LO%, HI%] yes|no" under a "Program NAME" line; other lines
 * (ledgers, the table) are not read.  False after a message. */
static bool read_log(const char *path, program_row *rows, int *nrows) {
  char *text = cli_read_file(path);
  if (!text) {
    fprintf(stderr, "scopecat gpu app -compare: %s: cannot read\n", path);
    return false;
  }
  program_row *current = NULL;
  int line = 0;
  for (char *l; (l = next_line(&text));) {
    line++;
    if (!strncmp(l, "Program ", 8)) {
      if (!(current = find_program(rows, nrows, l + 8))) {
        fprintf(stderr, "%s:%d:1: more than %d programs\n", path, line,
                APP_MAX_APPS);
        return false;
      }
      continue;
    }
    char env[32];
    long runs, errors, kinds[APP_NKINDS];
    app_env e;
    if (!current || l[0] != ' ' ||
        sscanf(l, " %31s %ld %ld %ld %ld %ld %ld", env, &runs, &errors, &kinds[0],
               &kinds[1], &kinds[2], &kinds[3]) != 7 ||
        !app_env_read(env, &e))
      continue;
    if (kinds[APP_EXIT] + kinds[APP_CHECK] + kinds[APP_HANG] + kinds[APP_CRASH] !=
            errors ||
        errors > runs || runs < 0) {
      fprintf(stderr, "%s:%d:3: expected the errors of %s to add up and be at "
                      "most its runs\n", path, line, env);
      return false;
    }
    env_count *c = find_env(current, e);
    if (!c) {
      fprintf(stderr, "%s:%d:3: more than %d environments\n", path, line,
              APP_MAX_ENVS);
      return false;
    }
    c->runs += runs;
    c->broken += kinds[APP_CHECK];
    c->other += errors - kinds[APP_CHECK];
  }
  return true;
}

/* Field `k` (from 0) of a CSV line without quotes, or NULL. */
static const char *csv_field(const char *line, int k) {
  for (; k > 0; k--)
    if (!(line = strchr(line, ',')))
      return NULL;
    else
      line++;
  return GC_STRNDUP(line, strcspn(line, ",\r\n"));
}

/* Each program's verdict from the CSV: the row of NAME.ptx, the model and
 * the property.  False after a message. */
static bool read_verdicts(const compare_cli *c, program_row *rows, int nrows) {
  char *text = cli_read_file(c->verdicts);
  if (!text) {
    fprintf(stderr, "scopecat gpu app -compare: %s: cannot read\n", c->verdicts);
    return false;
  }
  int line = 0;
  for (char *l; (l = next_line(&text));) {
    if (++line == 1)
      continue; /* the header */
    const char *ptx = csv_field(l, 1), *model = csv_field(l, 3),
               *property = csv_field(l, 4), *verdict = csv_field(l, 5);
    if (!verdict || (strcmp(verdict, "PASS") && strcmp(verdict, "FAIL") &&
                     strcmp(verdict, "UNKNOWN"))) {
      fprintf(stderr, "%s:%d:1: expected kernel,ptx,config,model,property,"
                      "verdict,... with the verdict PASS, FAIL or UNKNOWN\n",
              c->verdicts, line);
      return false;
    }
    if (strcmp(model, c->model) || strcmp(property, c->property))
      continue;
    for (int i = 0; i < nrows; i++)
      if (!strncmp(ptx, rows[i].name, strlen(rows[i].name)) &&
          !strcmp(ptx + strlen(rows[i].name), ".ptx"))
        rows[i].verdict = GC_STRDUP(verdict);
  }
  return true;
}

enum { FAIL_SEEN, FAIL_UNSEEN, PASS_SEEN, PASS_UNSEEN, OTHER_CLASS, NCLASSES };

/* The class of a program whose `judged` runs (those that ended right, so
 * that -kernel-check read their states) broke the post-condition `broken`
 * times. */
static int class_of(const program_row *r, long judged, long broken) {
  if (!r->verdict || !strcmp(r->verdict, "UNKNOWN") || !judged)
    return OTHER_CLASS;
  bool fail = !strcmp(r->verdict, "FAIL");
  return broken ? (fail ? FAIL_SEEN : PASS_SEEN) : (fail ? FAIL_UNSEEN : PASS_UNSEEN);
}

static void print_row(const program_row *r, int w, int *counts) {
  long runs = 0, broken = 0, other = 0;
  const env_count *most = NULL;
  for (int e = 0; e < r->nenv; e++) {
    const env_count *c = &r->envs[e];
    runs += c->runs, broken += c->broken, other += c->other;
    /* the environment of the highest rate: broken/runs, compared crosswise */
    if (c->broken && (!most || c->broken * most->runs > most->broken * c->runs))
      most = c;
  }
  long judged = runs - other; /* runs whose final states were read */
  int k = class_of(r, judged, broken);
  counts[k]++;
  const char *where = "-";
  if (most) {
    double lo, hi;
    app_wilson(most->broken, most->runs, &lo, &hi);
    where = cli_format("%s %ld/%ld [%.2f%%, %.2f%%]", app_env_name(most->env),
                       most->broken, most->runs, 100 * lo, 100 * hi);
  }
  const char *class =
      k == FAIL_SEEN     ? "FAIL, seen"
      : k == FAIL_UNSEEN ? cli_format("FAIL, not seen in %ld runs", judged)
      : k == PASS_SEEN   ? "PASS, SEEN: a model or compiler problem"
      : k == PASS_UNSEEN ? "PASS, not seen"
      : !judged          ? "no run ended right"
                         : cli_format("%s, %s", r->verdict ? r->verdict : "no verdict",
                                      broken ? "seen" : "not seen");
  printf("  %-*s %-7s %6ld %6ld %6ld  %-36s %s\n", w, r->name,
         r->verdict ? r->verdict : "-", runs, broken, other, where, class);
}

int app_compare(int argc, char **argv) {
  compare_cli c;
  if (!read_args(argc, argv, &c))
    return EXIT_USAGE;
  program_row *rows = GC_MALLOC(APP_MAX_APPS * sizeof *rows);
  int nrows = 0;
  for (int i = 0; i < c.logs.n; i++)
    if (!read_log(c.logs.items[i], rows, &nrows))
      return EXIT_USAGE;
  if (!nrows) {
    fprintf(stderr, "scopecat gpu app -compare: no program's report in the "
                    "logs\n");
    return EXIT_USAGE;
  }
  if (!read_verdicts(&c, rows, nrows))
    return EXIT_USAGE;
  int w = 7, counts[NCLASSES] = {0};
  for (int i = 0; i < nrows; i++)
    if ((int)strlen(rows[i].name) > w)
      w = (int)strlen(rows[i].name);
  printf("Programs beside the model %s (%s, %s)\n", c.model, c.property,
         c.verdicts);
  printf("  %-*s %-7s %6s %6s %6s  %-36s %s\n", w, "program", "model", "runs",
         "broken", "other", "most broken in [95% interval]", "class");
  for (int i = 0; i < nrows; i++)
    print_row(&rows[i], w, counts);
  printf("FAIL and seen %d, FAIL and not seen %d, PASS and seen %d, PASS and "
         "not seen %d, other %d\n(broken: runs whose final states broke the "
         "post-condition; other: runs that exited wrong, hung or crashed)\n",
         counts[FAIL_SEEN], counts[FAIL_UNSEEN], counts[PASS_SEEN],
         counts[PASS_UNSEEN], counts[OTHER_CLASS]);
  return counts[PASS_SEEN] ? EXIT_SOME_FAILED : EXIT_ALL_RAN;
}
