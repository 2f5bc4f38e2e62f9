/* drf.h: what the files of `scopecat gpu drf` share (drf.c: the command
 * and the run; drf_trace.c: the checker of recorded traces; drf_report.c:
 * the report and the litmus tests of wrong loads; drf_params.c: the
 * parameters' names and checks, the record of rounds). */
#ifndef SC_GPU_DRF_H
#define SC_GPU_DRF_H

#include "gpu.h"

#include "drf_prog.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

extern const char *const drf_inject_names[];
/* The profiles a round draws its setting from: wide, contended, fixed. */
extern const char *const drf_profile_names[];

/* -n's default; -max-seconds' default with -inject. */
#define DRF_DEFAULT_LOADS 100000000L
#define DRF_INJECT_SECONDS 60.0

typedef struct drf_cli {
  int ctas, tpb, episodes, actions, vars, locks, cta_locks, loads, spacing;
  int swarm;          /* 1: each round draws the knobs not given */
  unsigned fixed;     /* DRF_K_* bits of the knobs fixed for every round */
  long seed;
  long n;            /* -n: checked loads wanted (0: not given) */
  long want;         /* the loads the program is asked to check */
  long plan;         /* print the first rounds' settings and stop */
  int inject;
  double max_seconds; /* stop after this much GPU time (0: none) */
  double spin;        /* seconds an acquire may spin */
  double timeout;     /* watchdog on the whole program */
  bool stop;          /* stop at the first round that finds anything */
  const char *outdir, *check, *trace, *gen, *nvcc, *gpudir, *keep;
  cli_list operands;  /* none is taken: a usage error */
  int argc;
  char **argv;
} drf_cli;

/* What a run or a checked trace found. */
enum { MAXREC = 16 };
typedef struct drf_found {
  uint64_t seed;
  long long episode;
  int action, place, wplace;
  uint32_t seen, expected;
} drf_found;

/* One round's setting and what it checked. */
typedef struct drf_round {
  int profile;
  drf_params set;
  unsigned long long loads;
  double seconds;
  bool found;
} drf_round;

typedef struct drf_outcome {
  const char *device;
  long long rounds;
  uint64_t last_seed;
  unsigned long long episodes, loads, stores, mismatches, timedout,
      abandoned, dups;
  double run_s, check_s;
  double caught_s;  /* GPU time up to the end of the first failing round */
  long long caught_round;
  unsigned long long cover[DRF_NCOVER];
  drf_found mm[MAXREC];
  int nmm;
  long long stuck[MAXREC][3]; /* seed, episode, lock */
  int nstuck;
  long long dup[MAXREC][4];   /* seed, lock, place, episode */
  int ndup;
  bool watchdog;
  drf_round *round; /* the rounds' settings (a run), or the trace's one */
  long long nround, capround;
  bool setting_mismatch; /* a round's setting is not its seed's draw */
} drf_outcome;

/* Whether a run found what an injected fault must cause: a wrong load, an
 * acquire that never succeeded, a lock failure. */
static inline bool drf_caught(const drf_outcome *o) {
  return o->mismatches || o->timedout || o->dups;
}

void drf_add_round(drf_outcome *o, const drf_round *r);
/* Why these parameters make no program; NULL when they do. */
const char *drf_bad_params(const drf_params *p);
/* Knob k's value in p (DRF_K_*). */
int drf_knob_value(const drf_params *p, int k);
/* A round's setting in words: "PROFILE: episodes N, actions N, ...". */
const char *drf_setting_words(int profile, const drf_params *p);
/* The report of a run or a checked trace, litmus tests of wrong loads in
 * `dir` (drf_report.c). */
void drf_report(FILE *out, const drf_cli *c, drf_params p,
                const drf_outcome *o, const char *dir);
/* Check the trace `path` (drf_trace.c): the outcome in *o, how its
 * setting was drawn in *fixed and *emax; false after a message. */
bool drf_check_trace(const char *path, drf_params *p, unsigned *fixed,
                     int *emax, drf_outcome *o);

#endif
