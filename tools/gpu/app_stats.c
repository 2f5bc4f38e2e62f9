/* app_stats.c: `gpu app`'s numbers: each environment's error rate with
 * its 95% interval (Wilson's score interval, which stays inside [0, 1] and
 * is honest at 0 errors, where the normal one collapses to a point), seed
 * 000's "effective" mark, a program's report and the table of several
 * programs (000's Tab. 5). */
#define _POSIX_C_SOURCE 200809L
#include "app.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const app_kind_names[] = {"exit", "check", "hang", "crash"};

const char *app_env_name(app_env e) {
  return cli_format("%s%s", sc_app_mode_names[e.mode],
                    e.randomise ? "+rand" : "");
}

bool app_env_read(const char *word, app_env *e) {
  for (int m = 0; sc_app_mode_names[m]; m++) {
    size_t n = strlen(sc_app_mode_names[m]);
    if (strncmp(word, sc_app_mode_names[m], n))
      continue;
    if (word[n] && strcmp(word + n, "+rand"))
      continue;
    e->mode = m;
    e->randomise = word[n] != '\0';
    return true;
  }
  return false;
}

long app_errors(const app_tally *t) {
  long n = 0;
  for (int k = 0; k < APP_NKINDS; k++)
    n += t->errors[k];
  return n;
}

/* z of a two-sided 95% interval. */
#define Z95 1.959963984540054

void app_wilson(long errors, long runs, double *lo, double *hi) {
  if (runs <= 0) {
    *lo = 0, *hi = 1;
    return;
  }
  double n = (double)runs, p = (double)errors / n, z2 = Z95 * Z95;
  double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  double half =
      Z95 / (1 + z2 / n) * sqrt(p * (1 - p) / n + z2 / (4 * n * n));
  *lo = centre - half < 0 ? 0 : centre - half;
  *hi = centre + half > 1 ? 1 : centre + half;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

void app_median(double *x, int n, double *median, double *lo, double *hi) {
  qsort(x, (size_t)n, sizeof *x, by_value);
  *median = n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
  double half = Z95 * sqrt((double)n) / 2;
  long j = (long)floor(n / 2.0 - half), k = (long)ceil(1 + n / 2.0 + half);
  j = j < 1 ? 1 : j > n ? n : j;
  k = k < 1 ? 1 : k > n ? n : k;
  *lo = x[j - 1], *hi = x[k - 1];
}

/* -cost's line of one environment: kernel time and energy, medians. */
static void cost_line(FILE *out, app_env e, app_tally *t) {
  if (!t->ncost) {
    fprintf(out, "  %s: cost: no run reported its kernel time\n",
            app_env_name(e));
    return;
  }
  double m, lo, hi;
  app_median(t->kernel_ms, t->ncost, &m, &lo, &hi);
  fprintf(out, "  %s: cost over %d runs: kernel time median %.3f ms "
               "[%.3f, %.3f]", app_env_name(e), t->ncost, m, lo, hi);
  if (t->nenergy) {
    app_median(t->energy_j, t->nenergy, &m, &lo, &hi);
    fprintf(out, ", energy median %.3f J [%.3f, %.3f]\n", m, lo, hi);
  } else {
    fprintf(out, ", energy not reported by the GPU\n");
  }
}

bool app_effective(const app_tally *t) {
  return t->runs > 0 && app_errors(t) * 20 > t->runs;
}

void app_report(FILE *out, const char *name, const app_env *envs,
                app_tally *tallies, int nenv) {
  fprintf(out, "Program %s\n", name);
  fprintf(out, "  %-12s %7s %7s %6s %6s %6s %6s %8s  %-17s %s\n",
          "environment", "runs", "errors", "exit", "check", "hang", "crash",
          "rate", "95% interval", "effective");
  for (int e = 0; e < nenv; e++) {
    const app_tally *t = &tallies[e];
    long err = app_errors(t);
    double lo, hi;
    app_wilson(err, t->runs, &lo, &hi);
    fprintf(out, "  %-12s %7ld %7ld %6ld %6ld %6ld %6ld %7.2f%%  "
                 "[%6.2f%%, %6.2f%%]  %s\n",
            app_env_name(envs[e]), t->runs, err, t->errors[APP_EXIT],
            t->errors[APP_CHECK], t->errors[APP_HANG], t->errors[APP_CRASH],
            t->runs ? 100.0 * (double)err / (double)t->runs : 0.0,
            100 * lo, 100 * hi, app_effective(t) ? "yes" : "no");
  }
  for (int e = 0; e < nenv; e++) {
    const app_tally *t = &tallies[e];
    if (t->first_error)
      fprintf(out, "  %s: first error in run %ld (%s)\n",
              app_env_name(envs[e]), t->first_error,
              app_kind_names[t->first_kind]);
    if (t->interposed)
      fprintf(out, "  %s: %llu kernel launches seen, %llu stressed by %llu "
                   "CTAs, %llu stress grids stopped; %.1f s\n",
              app_env_name(envs[e]), t->ledger.launches, t->ledger.stressed,
              t->ledger.stress_ctas, t->ledger.stopped, t->seconds);
    else
      fprintf(out, "  %s: %.1f s\n", app_env_name(envs[e]), t->seconds);
    if (t->ledger.costed || t->ncost)
      cost_line(out, envs[e], &tallies[e]);
  }
}

void app_table(FILE *out, const char *const *names, int napps,
               const app_env *envs, int nenv, const app_tally *tallies) {
  int w = 7;
  for (int a = 0; a < napps; a++)
    if ((int)strlen(names[a]) > w)
      w = (int)strlen(names[a]);
  fprintf(out, "%-*s", w, "program");
  for (int e = 0; e < nenv; e++)
    fprintf(out, " %14s", app_env_name(envs[e]));
  fputc('\n', out);
  for (int a = 0; a < napps; a++) {
    fprintf(out, "%-*s", w, names[a]);
    for (int e = 0; e < nenv; e++) {
      const app_tally *t = &tallies[a * nenv + e];
      fprintf(out, " %14s",
              cli_format("%ld/%ld%s", app_errors(t), t->runs,
                         app_effective(t) ? "*" : ""));
    }
    fputc('\n', out);
  }
  fprintf(out, "%-*s", w, "a/b");
  for (int e = 0; e < nenv; e++) {
    int effective = 0, seen = 0;
    for (int a = 0; a < napps; a++) {
      const app_tally *t = &tallies[a * nenv + e];
      seen += app_errors(t) > 0;
      effective += app_effective(t);
    }
    fprintf(out, " %14s", cli_format("%d/%d", effective, seen));
  }
  fprintf(out, "\n(errors/runs; * effective: errors in over 5%% of runs; "
               "a/b: effective for a programs, errors seen in b)\n");
}
