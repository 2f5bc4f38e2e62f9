/* app.h: what the files of `scopecat gpu app` share: a user's program run
 * again and again in seed 000's testing environments (app.c: options,
 * environments, runs; app_stats.c: error rates, their intervals and the
 * tables; app_elf.c: whether a program can be interposed; app_kernel.c:
 * the kernel corpus's cases as programs; app_compare.c: their error
 * rates beside the model's verdicts). */
#ifndef SC_GPU_APP_H
#define SC_GPU_APP_H

#include "app_plan.h"
#include "gpu.h"

#include <stdbool.h>
#include <stdio.h>

/* How a run went wrong: its exit status (no -check) or not zero (with
 * -check), the -check command said no, past -run-timeout, a signal. */
typedef enum app_kind { APP_EXIT, APP_CHECK, APP_HANG, APP_CRASH, APP_NKINDS } app_kind;
extern const char *const app_kind_names[];

/* An environment: the stress (sc_app_mode) and thread randomisation. */
typedef struct app_env {
  int mode;
  bool randomise;
} app_env;

/* The environment's name: none, stress, random, cache; "+rand" after it
 * with randomisation. */
const char *app_env_name(app_env e);
/* Read one name of -env; false when it is none. */
bool app_env_read(const char *word, app_env *e);

/* What the runs of one program in one environment gave. */
typedef struct app_tally {
  long runs;
  long errors[APP_NKINDS];
  double seconds;
  long first_error;     /* the run (from 1) of the first error, 0: none */
  app_kind first_kind;
  sc_app_ledger ledger; /* the interposer's, summed over the runs */
  bool interposed;
  /* -cost: each costed run's kernel time (ms) and, where the GPU reports
   * it, its energy (J) */
  double *kernel_ms, *energy_j;
  int ncost, nenergy, cost_cap;
} app_tally;

long app_errors(const app_tally *t);
/* The 95% Wilson score interval of `errors` in `runs` (0..1). */
void app_wilson(long errors, long runs, double *lo, double *hi);
/* Seed 000's mark: errors in more than 5% of the runs. */
bool app_effective(const app_tally *t);
/* The median of x[0..n-1] (sorted in place) and its 95% interval from
 * order statistics (distribution-free, the binomial's normal
 * approximation): x(j) and x(k), 1-based, j = floor(n/2 - z sqrt(n)/2), k
 * = ceil(1 + n/2 + z sqrt(n)/2), kept in 1..n; n > 0. */
void app_median(double *x, int n, double *median, double *lo, double *hi);
/* The report of one program: a line per environment. */
void app_report(FILE *out, const char *name, const app_env *envs,
                app_tally *tallies, int nenv);
/* Seed 000's Tab. 5 for several programs: errors/runs per program and
 * environment (* when effective), then a/b per environment: effective
 * for a programs, errors seen for b. */
void app_table(FILE *out, const char *const *names, int napps,
               const app_env *envs, int nenv, const app_tally *tallies);

/* The options of `gpu app`. */
enum { APP_MAX_ENVS = 8, APP_MAX_APPS = 1024 };

typedef struct app_cli {
  long runs;              /* -runs N: 0 unless given */
  double seconds;         /* -seconds S: per environment, 0: none */
  double run_timeout;     /* -run-timeout S: a run past it hangs */
  const char *envs_arg;   /* -env LIST */
  const char *check;      /* -check CMD */
  const char *apps;       /* -apps FILE */
  const char *config;     /* -config FILE (gpu tune's) */
  const char *nvcc, *gpudir, *keep;
  long seed;
  bool cost;              /* -cost: kernel time and energy per run */
  bool fences;            /* -fences: Alg. 1 over the PTX's accesses */
  const char *ptx;        /* -ptx FILE: the program's PTX */
  const char *build;      /* -build CMD: rebuilds it from {ptx} */
  const char *fence_kind; /* -fence-kind K (default fence.sc.gpu) */
  bool verbose;           /* -v: each check of -fences on stderr */
  bool model_fences;      /* -model-fences: the model's set too (the -ptx
                             file's launch header), costed beside */
  const char *model;      /* -model M: its model (default ptx-v7.5) */
  int unroll;             /* -unroll N: its bound, -1: the default */
  cli_list operands;      /* the program and its arguments, after -- */
  app_env envs[APP_MAX_ENVS];
  int nenv;
} app_cli;

/* One program to test: its name, the shell command that runs it, the file
 * the interposer must be able to see into, its post-condition. */
typedef struct app_prog {
  const char *name, *command, *exe, *check;
} app_prog;

/* app_run.c: whether environment `e` needs the interposer (and so a GPU:
 * stress, randomisation, or -cost's timing); the variables the
 * interposer reads for it. */
bool app_interposed(const app_cli *c, app_env e);
void app_set_env_vars(const gpu_cli *tuned, app_env e, bool cost);
/* Run `p` in environment `e` as long as -runs and -seconds say, into *t
 * (`so`: the interposer, `tmp`: a folder for the run's files). */
void app_run_env(const app_cli *c, const gpu_cli *tuned, const app_prog *p,
                 app_env e, const char *so, const char *tmp, app_tally *t);
/* -fences (app_fences.c): Alg. 1 over the global accesses of c->ptx, each
 * set rebuilt with c->build and checked by c->runs runs of `p` in the
 * first environment; the report on stdout.  The exit status. */
int app_fences(const app_cli *c, const gpu_cli *tuned, const app_prog *p,
               const char *so, const char *tmp);

/* Why program `path` cannot have its launches interposed: it is an ELF
 * program linked statically against the CUDA runtime (no libcudart.so
 * among its needed libraries, nor libcuda.so's driver API).  NULL when it
 * can, or is no ELF file (a script: its children are not checked). */
const char *app_static_cudart(const char *path);

/* A case of the kernel corpus as a program (app_kernel.c): -kernel-program
 * writes its host .cu on stdout, -kernel-check judges the histogram the
 * program printed (stdin) by the case's @Output.  The exit status. */
int app_kernel_program(const char *path);
int app_kernel_check(const char *path);
/* -compare LOG... -verdicts CSV (app_compare.c): programs' error rates
 * beside the model's verdicts.  argv[0] is "-compare".  The exit status. */
int app_compare(int argc, char **argv);

#endif
