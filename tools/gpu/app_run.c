/* app_run.c: the runs of `scopecat gpu app`: a program run again and
 * again in one environment, the interposer's variables set for it, each
 * run judged by its exit status, -check, -run-timeout or a signal, and
 * the interposer's ledger of each run read into the environment's tally
 * (kernel launches, stress, and with -cost kernel time and energy).
 * app.c (the command) and app_fences.c (-fences) both run programs so. */
#define _POSIX_C_SOURCE 200809L
#include "app.h"

#include <gc/gc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Whether an environment needs the interposer (and so a GPU). */
bool app_interposed(const app_cli *c, app_env e) {
  return e.mode != SC_APP_NONE || e.randomise || c->cost;
}

/* Set the variables the interposer reads for environment `e`. */
void app_set_env_vars(const gpu_cli *tuned, app_env e, bool cost) {
  setenv(SC_APP_ENV_MODE, sc_app_mode_names[e.mode], 1);
  setenv(SC_APP_ENV_COST, cost ? "1" : "0", 1);
  setenv(SC_APP_ENV_RAND, e.randomise ? "1" : "0", 1);
  /* every module loaded when the program's context starts: loaded lazily
   * (CUDA 12.2 on, the default), the first launch of a kernel waits for
   * the device, and the stress grid, which runs until the stop kernel
   * queued behind the program's kernel ends it, never lets it: on the H100
   * every stressed program hung at its first kernel */
  static bool saved;
  static const char *users; /* the user's own setting, for the others */
  if (!saved) {
    const char *v = getenv("CUDA_MODULE_LOADING");
    users = v ? cli_format("%s", v) : NULL;
    saved = true;
  }
  if (e.mode != SC_APP_NONE)
    setenv("CUDA_MODULE_LOADING", "EAGER", 1);
  else if (users)
    setenv("CUDA_MODULE_LOADING", users, 1);
  else
    unsetenv("CUDA_MODULE_LOADING");
  const struct { const char *opt, *var; } map[] = {
      {"stress-seq", SC_APP_ENV_SEQ}, {"stress-patch", SC_APP_ENV_PATCH},
      {"stress-regions", SC_APP_ENV_REGIONS},
      {"stress-spread", SC_APP_ENV_SPREAD}, {"tpb", SC_APP_ENV_TPB}};
  for (size_t i = 0; i < sizeof map / sizeof *map; i++) {
    const char *v = gpu_prog_val(tuned, map[i].opt);
    if (v)
      setenv(map[i].var, v, 1);
    else
      unsetenv(map[i].var);
  }
}

/* ---- runs ------------------------------------------------------------------ */

/* One run of `p` (`env`: the shell's exports of the interposer, for the
 * program alone, not the -check command): whether it erred, and how. */
static bool run_once(const app_cli *c, const app_prog *p, const char *env,
                     const char *tmp, app_kind *kind) {
  int st;
  char *out = cli_run_capture(
      cli_format("%sexec %s 2>/dev/null", env, p->command), c->run_timeout, &st);
  if (st == CLI_RUN_TIMED_OUT)
    return *kind = APP_HANG, true;
  if (st == -1)
    return *kind = APP_CRASH, true;
  if (st != 0)
    return *kind = APP_EXIT, true;
  if (!p->check)
    return false;
  const char *file = cli_format("%s/output", tmp);
  FILE *f = fopen(file, "w");
  if (f) {
    fputs(out ? out : "", f);
    fclose(f);
  }
  int cst = cli_run(cli_format("%s < '%s'", p->check, file), NULL,
                    c->run_timeout);
  if (cst != 0)
    return *kind = APP_CHECK, true;
  return false;
}

/* Read and remove the interposer's ledger of one run (a line per
 * process that launched a kernel): add it to the environment's, and its
 * cost to the runs'. */
static void read_ledger(const char *path, app_tally *t) {
  char *text = cli_read_file(path);
  if (!text)
    return;
  sc_app_ledger run;
  memset(&run, 0, sizeof run);
  for (char *save = NULL, *l = strtok_r(text, "\n", &save); l;
       l = strtok_r(NULL, "\n", &save)) {
    sc_app_ledger_add(&t->ledger, l);
    sc_app_ledger_add(&run, l);
  }
  unlink(path);
  if (!run.costed)
    return;
  if (!t->kernel_ms) {
    t->kernel_ms = GC_MALLOC_ATOMIC(sizeof(double) * (size_t)(t->runs + 64) * 2);
    t->energy_j = GC_MALLOC_ATOMIC(sizeof(double) * (size_t)(t->runs + 64) * 2);
    t->cost_cap = (t->runs + 64) * 2;
  }
  if (t->ncost == t->cost_cap) {
    t->cost_cap *= 2;
    t->kernel_ms = GC_REALLOC(t->kernel_ms, sizeof(double) * (size_t)t->cost_cap);
    t->energy_j = GC_REALLOC(t->energy_j, sizeof(double) * (size_t)t->cost_cap);
  }
  t->kernel_ms[t->ncost++] = (double)run.kernel_us / 1000;
  if (run.energy_known)
    t->energy_j[t->nenergy++] = (double)run.energy_mj / 1000;
}

/* Run `p` in environment `e` as long as -runs and -seconds say. */
void app_run_env(const app_cli *c, const gpu_cli *tuned, const app_prog *p,
                    app_env e, const char *so, const char *tmp, app_tally *t) {
  memset(t, 0, sizeof *t);
  app_set_env_vars(tuned, e, c->cost);
  const char *ledger = cli_format("%s/ledger", tmp);
  unlink(ledger);
  t->interposed = app_interposed(c, e);
  const char *env = t->interposed
                        ? cli_format("export LD_PRELOAD=%s %s=%s; ",
                                     cli_shell_quote(so), SC_APP_ENV_LOG,
                                     cli_shell_quote(ledger))
                        : "";
  long max_runs = c->runs ? c->runs : c->seconds > 0 ? 0 : 100;
  double t0 = sc_seconds();
  while ((!max_runs || t->runs < max_runs) &&
         (c->seconds <= 0 || t->runs == 0 || sc_seconds() - t0 < c->seconds)) {
    setenv(SC_APP_ENV_SEED, cli_format("%ld", c->seed + t->runs), 1);
    app_kind kind;
    t->runs++;
    if (run_once(c, p, env, tmp, &kind)) {
      t->errors[kind]++;
      if (!t->first_error)
        t->first_error = t->runs, t->first_kind = kind;
    }
    if (t->interposed)
      read_ledger(ledger, t);
  }
  t->seconds = sc_seconds() - t0;
}
