/* app_plan.h: the bookkeeping of `scopecat gpu app`'s interposer
 * (app_interpose.cu), in plain C with no CUDA in it, so that the CLI
 * (tools/gpu/app*.c), the interposer and the unit tests (check_app.c)
 * share one copy: the environment variables that carry an environment's
 * parameters into the program, reading and checking them, how many
 * stressing CTAs a kernel gets, the generation numbers that start and stop
 * them, the ledger the interposer leaves behind, and the device variable
 * that app.cuh's id functions read their seed from. */

/* The stress follows Sorensen and Donaldson's testing environment (seed
 * 000, Sec. 3-4): a scratchpad disjoint from the program's memory,
 * hammered by extra CTAs on a stream of their own while each of the
 * program's kernels runs; their number drawn in 15%..50% of the kernel's
 * CTAs.  One departure, said in doc/apps.md: no more than half the CTAs the
 * GPU holds at once stress, so that the kernel's own CTAs always find room
 * (the stress waits for the kernel to end: if it filled the GPU, neither
 * would). */
#ifndef SC_APP_PLAN_H
#define SC_APP_PLAN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The environment variables `gpu app` sets for each run. */
#define SC_APP_ENV_MODE "SCOPECAT_APP_STRESS"     /* none|stress|random|cache */
#define SC_APP_ENV_RAND "SCOPECAT_APP_RANDOMISE"  /* 0|1 */
#define SC_APP_ENV_SEED "SCOPECAT_APP_SEED"       /* the run's seed */
#define SC_APP_ENV_SEQ "SCOPECAT_APP_STRESS_SEQ"  /* st,ld,... */
#define SC_APP_ENV_PATCH "SCOPECAT_APP_STRESS_PATCH"     /* words a patch */
#define SC_APP_ENV_REGIONS "SCOPECAT_APP_STRESS_REGIONS" /* patches */
#define SC_APP_ENV_SPREAD "SCOPECAT_APP_STRESS_SPREAD"   /* patches at once */
#define SC_APP_ENV_TPB "SCOPECAT_APP_STRESS_TPB"  /* threads a stressing CTA */
#define SC_APP_ENV_LOG "SCOPECAT_APP_LOG" /* the ledger's file (appended) */
#define SC_APP_ENV_COST "SCOPECAT_APP_COST" /* 1: time kernels, read energy */

/* The name app.cuh gives its seed variable (a `static __device__` of each
 * file that includes it; nvcc may decorate the name, hence a substring). */
#define SC_APP_SEED_VAR "sc_app_seed"

typedef enum sc_app_mode {
  SC_APP_NONE,   /* no stress (randomisation alone, or nothing) */
  SC_APP_STRESS, /* 000's tuned stress: seq at `spread` random patches */
  SC_APP_RANDOM, /* 000's rand-str: a random load or store, random word */
  SC_APP_CACHE   /* 000's cache-str: an L2-sized scratchpad, every word
                    loaded and stored */
} sc_app_mode;

static const char *const sc_app_mode_names[] = {"none", "stress", "random",
                                                "cache", NULL};

enum { SC_APP_MAX_SEQ = 16 };

typedef struct sc_app_params {
  int mode;                 /* sc_app_mode */
  int randomise;            /* app.cuh's ids permuted */
  int cost;                 /* kernels timed, energy read */
  unsigned long long seed;
  unsigned seq;             /* bit i set: access i of the sequence stores */
  unsigned seq_len;
  unsigned patch, regions, spread, tpb;
} sc_app_params;

/* `gpu run`'s stress defaults (gpu.c's usage), which `gpu tune` starts
 * from: st,ld at 2 of 64 patches of 32 words, 256 threads a CTA. */
static inline void sc_app_params_default(sc_app_params *p) {
  memset(p, 0, sizeof *p);
  p->seed = 1;
  p->seq = 1u, p->seq_len = 2;
  p->patch = 32, p->regions = 64, p->spread = 2, p->tpb = 256;
}

/* A decimal number in [lo, hi] spanning all of `s`. */
static inline int sc_app_number(const char *s, unsigned long long lo,
                                unsigned long long hi,
                                unsigned long long *out) {
  char *end;
  if (!s || !*s || *s == '-')
    return 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (*end || v < lo || v > hi)
    return 0;
  *out = v;
  return 1;
}

/* Read an access sequence "st,ld,..." into p->seq and p->seq_len. */
static inline int sc_app_read_seq(sc_app_params *p, const char *s) {
  unsigned seq = 0, n = 0;
  for (;;) {
    if (n == SC_APP_MAX_SEQ)
      return 0;
    if (!strncmp(s, "st", 2))
      seq |= 1u << n;
    else if (strncmp(s, "ld", 2))
      return 0;
    n++;
    s += 2;
    if (!*s)
      break;
    if (*s++ != ',')
      return 0;
  }
  p->seq = seq, p->seq_len = n;
  return 1;
}

/* Read the parameters from `get` (getenv, or a table in the tests): the
 * defaults where a variable is unset.  NULL when they are good, else the
 * variable whose value is not (*why: what was expected). */
static inline const char *sc_app_params_read(sc_app_params *p,
                                             const char *(*get)(const char *),
                                             const char **why) {
  sc_app_params_default(p);
  unsigned long long v;
  const char *s = get(SC_APP_ENV_MODE);
  if (s) {
    int m = 0;
    while (sc_app_mode_names[m] && strcmp(sc_app_mode_names[m], s))
      m++;
    if (!sc_app_mode_names[m])
      return *why = "none, stress, random or cache", SC_APP_ENV_MODE;
    p->mode = m;
  }
  if ((s = get(SC_APP_ENV_RAND))) {
    if (!sc_app_number(s, 0, 1, &v))
      return *why = "0 or 1", SC_APP_ENV_RAND;
    p->randomise = (int)v;
  }
  if ((s = get(SC_APP_ENV_COST))) {
    if (!sc_app_number(s, 0, 1, &v))
      return *why = "0 or 1", SC_APP_ENV_COST;
    p->cost = (int)v;
  }
  if ((s = get(SC_APP_ENV_SEED))) {
    if (!sc_app_number(s, 0, ~0ull, &v))
      return *why = "a non-negative number", SC_APP_ENV_SEED;
    p->seed = v;
  }
  if ((s = get(SC_APP_ENV_SEQ)) && !sc_app_read_seq(p, s))
    return *why = "at most 16 of st and ld separated by commas",
           SC_APP_ENV_SEQ;
  struct { const char *name; unsigned *field; unsigned long long lo, hi; }
  nums[] = {{SC_APP_ENV_PATCH, &p->patch, 1, 1u << 20},
            {SC_APP_ENV_REGIONS, &p->regions, 1, 1u << 20},
            {SC_APP_ENV_SPREAD, &p->spread, 1, 32},
            {SC_APP_ENV_TPB, &p->tpb, 32, 1024}};
  for (size_t i = 0; i < sizeof nums / sizeof *nums; i++) {
    if (!(s = get(nums[i].name)))
      continue;
    if (!sc_app_number(s, nums[i].lo, nums[i].hi, &v))
      return *why = "a positive number in range", nums[i].name;
    *nums[i].field = (unsigned)v;
  }
  if (p->tpb % 32)
    return *why = "a multiple of 32", SC_APP_ENV_TPB;
  if (p->spread > p->regions)
    return *why = "no more patches than the scratchpad has",
           SC_APP_ENV_SPREAD;
  return NULL;
}

/* The same draws on the host and in the stress kernels (nvcc), one code. */
#ifdef __CUDACC__
#define SC_APP_HOST_DEVICE __host__ __device__
#else
#define SC_APP_HOST_DEVICE
#endif

/* splitmix64: the interposer's draws, from the run's seed. */
SC_APP_HOST_DEVICE static inline unsigned long long sc_app_rng(unsigned long long *state) {
  unsigned long long z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* How many stressing CTAs a kernel of `kernel_ctas` CTAs gets: none
 * without stress, else drawn in [ceil(15%), floor(50%)] of its CTAs (at
 * least 1), and no more than half of the `resident` CTAs of `tpb` threads
 * the GPU holds at once (at least 1). */
static inline unsigned sc_app_stress_ctas(const sc_app_params *p,
                                          unsigned long long kernel_ctas,
                                          unsigned resident,
                                          unsigned long long *rng) {
  if (p->mode == SC_APP_NONE || kernel_ctas == 0)
    return 0;
  unsigned long long lo = (kernel_ctas * 15 + 99) / 100;
  unsigned long long hi = kernel_ctas * 50 / 100;
  if (lo < 1)
    lo = 1;
  if (hi < lo)
    hi = lo;
  unsigned long long n = lo + sc_app_rng(rng) % (hi - lo + 1);
  unsigned long long cap = resident / 2 ? resident / 2 : 1;
  return (unsigned)(n < cap ? n : cap);
}

/* What the interposer did, written to SC_APP_ENV_LOG at exit: kernels it
 * saw launched, of them those it stressed, stressing CTAs started, stress
 * grids told to stop (one per stressed kernel: a difference is a stress
 * grid left running); with SC_APP_ENV_COST, the kernels' time (CUDA
 * events around each launch, microseconds) and the GPU's energy from the
 * first launch to the exit (NVML's total-energy counter, millijoules;
 * energy_known 0 where the card or driver does not report it). */
typedef struct sc_app_ledger {
  unsigned long long launches, stressed, stress_ctas, stopped;
  unsigned long long kernel_us, energy_mj;
  int costed, energy_known;
  unsigned generation; /* of the last stressed launch */
} sc_app_ledger;

/* A kernel is launched with `ctas` stressing CTAs beside it: the
 * generation its stress grid runs under (it stops when the stop word
 * reaches it), 0 when there is no stress. */
static inline unsigned sc_app_launch_begin(sc_app_ledger *l, unsigned ctas) {
  l->launches++;
  if (!ctas)
    return 0;
  l->stressed++;
  l->stress_ctas += ctas;
  return ++l->generation;
}

/* The stop of generation `g` is queued behind its kernel. */
static inline void sc_app_launch_stop(sc_app_ledger *l, unsigned g) {
  if (g)
    l->stopped++;
}

/* One line: the counts, then " kernel-us N" and " energy-mj N" (or
 * " energy-mj -") when costed. */
static inline void sc_app_ledger_write(const sc_app_ledger *l, FILE *f) {
  fprintf(f, "scopecat-app launches %llu stressed %llu ctas %llu stopped %llu",
          l->launches, l->stressed, l->stress_ctas, l->stopped);
  if (l->costed) {
    fprintf(f, " kernel-us %llu energy-mj ", l->kernel_us);
    if (l->energy_known)
      fprintf(f, "%llu", l->energy_mj);
    else
      fputc('-', f);
  }
  fputc('\n', f);
}

/* Add a ledger line to *l (a run's processes each write one); whether it
 * was one.  Energy stays known only while every costed line knows it. */
static inline int sc_app_ledger_add(sc_app_ledger *l, const char *line) {
  unsigned long long a, b, c, d, us, mj;
  int used = 0;
  if (sscanf(line, "scopecat-app launches %llu stressed %llu ctas %llu "
                   "stopped %llu%n", &a, &b, &c, &d, &used) != 4)
    return 0;
  int first = !l->costed;
  l->launches += a, l->stressed += b, l->stress_ctas += c, l->stopped += d;
  const char *rest = line + used;
  int more = 0;
  if (sscanf(rest, " kernel-us %llu energy-mj %n", &us, &more) == 1 && more) {
    l->costed = 1;
    l->kernel_us += us;
    int known = sscanf(rest + more, "%llu", &mj) == 1;
    l->energy_known = known && (first || l->energy_known);
    if (known)
      l->energy_mj += mj;
  }
  return 1;
}

/* Whether a device variable registered by the program is app.cuh's seed. */
static inline int sc_app_is_seed_var(const char *device_name) {
  return device_name && strstr(device_name, SC_APP_SEED_VAR) != NULL;
}

/* The seed app.cuh sees for launch `k` of a run: never 0 (0 is the
 * identity) when randomising, 0 otherwise. */
static inline unsigned long long sc_app_launch_seed(const sc_app_params *p,
                                                    unsigned long long k) {
  if (!p->randomise)
    return 0;
  unsigned long long s = p->seed ^ (k * 0xD1B54A32D192ED03ull);
  unsigned long long v = sc_app_rng(&s);
  return v ? v : 1;
}

#endif
