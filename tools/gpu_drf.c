/* gpu_drf.c: `scopecat gpu drf`: data-race-free random testing on the GPU
 * (Ta et al., seed 002): generate, build and run the program, or check a
 * recorded trace; report wrong loads with a litmus test the model judges. */

/* The program and its checker are tools/gpu/drf_prog.h, compiled here as C
 * (for -check TRACE) and into the generated CUDA program (drf_main.cuh),
 * which checks every load on the GPU and prints what it found as lines
 * this file reads (see drf_main.cuh).  A wrong load becomes a two-thread
 * litmus test in Dat3M's PTX dialect (the writer's and the reader's
 * episodes, reduced to the variable, the lock word and their
 * synchronisation), simulated under its default model. */
#define _POSIX_C_SOURCE 200809L
#include "cli_opts.h"
#include "gpu.h"
#include "models.h"

#include "gpu/drf_prog.h"

#include <errno.h>
#include <gc/gc.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

static const char *const inject_names[] = {
    "none", "release-relaxed", "no-acquire-fence", "cta-shared",
    "load-outside", NULL};
static const char *const scope_words[] = {"cta", "gpu", "sys"};
static const char *const ld_cops[] = {"-", "ca", "cg", "cs", "lu", "cv"};
static const char *const st_cops[] = {"-", "wb", "cg", "cs", "wt"};
static const char *const sync_ops[] = {
    "atom.relaxed.add", "ld.acquire", "ld.relaxed", "atom.acquire.cas",
    "atom.relaxed.cas", "fence.acq_rel", "st.release", "st.relaxed"};

typedef struct drf_cli {
  int ctas, tpb, episodes, actions, vars, locks, cta_locks, loads, spacing;
  int swarm;          /* 1: each round draws the knobs not given */
  unsigned fixed;     /* DRF_K_* bits of the knobs fixed for every round */
  long seed;
  long n;            /* checked loads wanted */
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

static void add_round(drf_outcome *o, const drf_round *r) {
  if (o->nround == o->capround) {
    long long cap = o->capround ? 2 * o->capround : 64;
    drf_round *n = GC_MALLOC_ATOMIC(sizeof(drf_round) * (size_t)cap);
    if (!n)
      return;
    if (o->nround)
      memcpy(n, o->round, sizeof(drf_round) * (size_t)o->nround);
    o->round = n, o->capround = cap;
  }
  o->round[o->nround++] = *r;
}

static void drf_usage(FILE *out) {
  fprintf(out,
      "usage: scopecat gpu drf [options]            run on the GPU\n"
      "       scopecat gpu drf -check TRACE [-o DIR] check a recorded trace\n"
      "       scopecat gpu drf -gen DIR              write the CUDA program\n"
      "options:\n"
      "  -ctas N            CTAs (default 264: 2 per SM of an H100)\n"
      "  -tpb N             threads per CTA (default 256)\n"
      "  knobs -episodes to -spacing: drawn each round unless given (-swarm);\n"
      "  their defaults are the values of every round with -swarm 0\n"
      "  -episodes N        episodes per thread (default 16)\n"
      "  -actions N         loads and stores per episode (default 32)\n"
      "  -vars N            variables per lock, 1..64 (default 8)\n"
      "  -locks N           locks shared by all CTAs (default 1024)\n"
      "  -cta-locks N       locks of each CTA, used by its threads (default 8)\n"
      "  -loads P           percent of actions that are loads (default 50)\n"
      "  -spacing N         words between variables and lock words\n"
      "                     (default 1: false sharing; 32: a line each)\n"
      "  -seed N            seed of the first round (default 1)\n"
      "  -swarm 0|1         1 (default): each round draws from its seed the\n"
      "                     knobs above that are not given (episodes: at\n"
      "                     most -episodes); 0: the defaults in every round\n"
      "  -n N               checked loads wanted (default 100000000)\n"
      "  -max-seconds S     stop after S s of GPU time (default: none)\n"
      "  -inject FAULT      release-relaxed, no-acquire-fence, cta-shared,\n"
      "                     load-outside (default none)\n"
      "  -stop              stop at the first round with a finding\n"
      "                     (the default with -inject)\n"
      "  -spin-timeout S    forward progress: an acquire spinning S s\n"
      "                     fails (default 2)\n"
      "  -timeout S         watchdog on the program (default 600; 0: none)\n"
      "  -o DIR             the log (DIR/drf.txt) and litmus tests of\n"
      "                     wrong loads (default: litmus tests in .)\n"
      "  -trace FILE        record the first round's trace in FILE\n"
      "  -check TRACE       check a recorded trace instead (no GPU)\n"
      "  -gen DIR           write the program (DIR/drf.cu) and stop\n"
      "  -plan N            print the settings of the first N rounds and\n"
      "                     stop (no GPU)\n"
      "  -nvcc PATH         the CUDA compiler (default %s)\n"
      "  -gpudir DIR        the harness templates (tools/gpu)\n"
      "  -keep DIR          build in DIR and keep it\n",
      gpu_configured_nvcc);
  cli_common_usage(out, 21);
}

#define AT(field) .offset = offsetof(drf_cli, field)
#define NUM(nm, fld, l, h)                                                  \
  {.name = nm, .kind = CLI_INT, AT(fld), .lo = l, .hi = h,                  \
   .bad = "%o: expected a number from %l to %h, not '%v'"}
static const cli_opt drf_opts[] = {
    NUM("ctas", ctas, 1, 1 << 20),
    NUM("tpb", tpb, 1, 1024),
    NUM("episodes", episodes, 1, 1 << 20),
    NUM("actions", actions, 1, 1 << 16),
    NUM("vars", vars, 1, DRF_MAXV),
    NUM("locks", locks, 0, 1 << 22),
    NUM("cta-locks", cta_locks, 0, 1 << 16),
    NUM("loads", loads, 0, 100),
    NUM("spacing", spacing, 1, 1 << 12),
    NUM("swarm", swarm, 0, 1),
    {.name = "seed", .kind = CLI_LONG, AT(seed), .lo = 0, .hi = LONG_MAX,
     .bad = "%o: expected a non-negative number, not '%v'"},
    {.name = "n", .kind = CLI_LONG, AT(n), .lo = 1, .hi = LONG_MAX,
     .bad = "%o: expected a positive number, not '%v'"},
    {.name = "plan", .kind = CLI_LONG, AT(plan), .lo = 1, .hi = 1000000,
     .bad = "%o: expected a number from 1 to 1000000, not '%v'"},
    {.name = "inject", .kind = CLI_CHOICE, AT(inject),
     .choices = inject_names,
     .bad = "%o: expected none, release-relaxed, no-acquire-fence, "
            "cta-shared or load-outside, not '%v'"},
    {.name = "max-seconds", .kind = CLI_SECONDS, AT(max_seconds),
     .bad = "%o: expected seconds, not '%v'"},
    {.name = "spin-timeout", .kind = CLI_SECONDS, AT(spin),
     .bad = "%o: expected seconds, not '%v'"},
    {.name = "timeout", .kind = CLI_SECONDS, AT(timeout),
     .bad = "%o: expected seconds, not '%v'"},
    {.name = "stop", .kind = CLI_FLAG, AT(stop)},
    {.name = "o", .kind = CLI_STRING, AT(outdir)},
    {.name = "trace", .kind = CLI_STRING, AT(trace)},
    {.name = "check", .kind = CLI_STRING, AT(check)},
    {.name = "gen", .kind = CLI_STRING, AT(gen)},
    {.name = "nvcc", .kind = CLI_STRING, AT(nvcc)},
    {.name = "gpudir", .kind = CLI_STRING, AT(gpudir)},
    {.name = "keep", .kind = CLI_STRING, AT(keep)},
    {0}};

/* Why these parameters make no program; NULL when they do. */
static const char *bad_params(const drf_params *p) {
  if (p->locks == 0 && p->cta_locks == 0)
    return "-locks and -cta-locks are both 0: no lock to take";
  if ((double)p->ctas * p->tpb * p->episodes > (double)INT_MAX)
    return "-ctas x -tpb x -episodes: more than 2^31 episodes";
  if ((double)p->ctas * p->tpb * p->episodes * p->actions >= 4294967295.0)
    return "-ctas x -tpb x -episodes x -actions: stored values must fit in "
           "32 bits";
  if ((double)drf_nlocks(p) * (2 + p->vars) * p->spacing > 1e10)
    return "-spacing: the slots need more than 10^10 words";
  return NULL;
}

/* ---- naming what the program did ------------------------------------------ */

static const char *episode_name(const drf_params *p, long long e) {
  long long t = e / p->episodes;
  return cli_format("episode %lld of thread %lld (CTA %lld, thread %lld of "
                    "it; global episode %lld)",
                    e % p->episodes, t, t / p->tpb, t % p->tpb, e);
}

static const char *lock_name(const drf_params *p, int lock) {
  return cli_format("lock %d (%s, %s lock, .%s)", lock,
                    lock < p->locks ? "shared by all CTAs"
                                    : cli_format("CTA %d's own",
                                                 (lock - p->locks) /
                                                     (p->cta_locks ? p->cta_locks : 1)),
                    drf_lock_kind(p, lock) == DRF_LOCK_TICKET ? "ticket"
                                                              : "CAS",
                    scope_words[drf_lock_scope(p, lock)]);
}

/* Who wrote `v` to variable `var` of `lock`: "the initial value", an
 * episode's store, or no store of it. */
static const char *writer_name(const drf_params *p, uint32_t v, int lock,
                               int var, long long *we) {
  *we = -1;
  if (v == 0)
    return "the initial value";
  long long e = (long long)(v - 1) / p->actions;
  int a = (int)((long long)(v - 1) % p->actions);
  if (e >= drf_nepisodes(p))
    return "written by no store of the program";
  drf_action x = drf_episode_action(p, e, a);
  if (x.load || drf_episode_lock(p, e) != lock || x.var != var)
    return cli_format("the value of action %d of %s, a %s: not a store to "
                      "this variable", a, episode_name(p, e),
                      x.load ? "load" : "store to another variable");
  *we = e;
  return cli_format("stored by action %d of %s", a, episode_name(p, e));
}

/* ---- the litmus test of a wrong load --------------------------------------- */

/* The acquire of episode e as PTX lines: r0 reads the lock word m, 2 when
 * it follows the other episode's release (which writes 2). */
static void put_acquire(const drf_params *p, long long e, cli_list *code) {
  int lock = drf_episode_lock(p, e);
  const char *sc = scope_words[drf_lock_scope(p, lock)];
  int acq = drf_acq_style(p, e);
  if (drf_lock_kind(p, lock) == DRF_LOCK_TICKET)
    cli_push(code, cli_format("ld.%s.%s r0, m", acq ? "acquire" : "relaxed", sc));
  else
    cli_push(code, cli_format("atom.%s.%s.cas r0, m, 2, 3",
                              acq ? "acquire" : "relaxed", sc));
  if (!acq && p->inject != DRF_INJ_NO_ACQ_FENCE)
    cli_push(code, cli_format("fence.acq_rel.%s", sc));
}

static void put_release(const drf_params *p, long long e, int val,
                        cli_list *code) {
  const char *sc = scope_words[drf_lock_scope(p, drf_episode_lock(p, e))];
  int rel = drf_rel_style(p, e);
  if (!rel && p->inject != DRF_INJ_RELEASE_RELAXED)
    cli_push(code, cli_format("fence.acq_rel.%s", sc));
  cli_push(code, cli_format("st.%s.%s m, %d", rel ? "release" : "relaxed", sc,
                            val));
}

/* The reader's load of x (inside its episode, or after its release when
 * the fault moved it there). */
static void put_reader(const drf_params *p, long long e, int a, bool acquire,
                       cli_list *code) {
  if (acquire)
    put_acquire(p, e, code);
  bool moved = drf_moved_load(p, e) == a;
  if (!moved)
    cli_push(code, "ld.weak r1, x");
  put_release(p, e, 4, code);
  if (moved)
    cli_push(code, "ld.weak r1, x");
}

static const char *two_threads(const char *name, const char *doc,
                               const char *init, int cta0, int cta1,
                               const cli_list *c0, const cli_list *c1,
                               const char *cond) {
  int w = 24;
  char *s = cli_format("PTX %s\n\"%s\"\n{\n%s\n}\n", name, doc, init);
  s = cli_format("%s %-*s | %-*s ;\n", s, w, cli_format("P0@cta %d,gpu 0", cta0),
                 w, cli_format("P1@cta %d,gpu 0", cta1));
  int n = c0->n > c1->n ? c0->n : c1->n;
  for (int i = 0; i < n; i++)
    s = cli_format("%s %-*s | %-*s ;\n", s, w, i < c0->n ? c0->items[i] : "",
                   w, i < c1->n ? c1->items[i] : "");
  return cli_format("%sexists (%s)\n", s, cond);
}

/* Write the litmus test of mismatch m and simulate it; a sentence for the
 * report. */
static const char *reproduce(const drf_params *p, const drf_found *m,
                             long long wseen, long long wexp, const char *dir) {
  long long r = m->episode;
  int same_cta;
  cli_list c0 = {0}, c1 = {0};
  const char *cond, *init, *doc;
  if (wseen >= 0 && wseen != r && m->wplace > m->place) {
    /* the reader saw a store of an episode after it in the lock's order */
    same_cta = r / p->episodes / p->tpb == wseen / p->episodes / p->tpb;
    put_reader(p, r, m->action, false, &c0);
    put_acquire(p, wseen, &c1);
    cli_push(&c1, "st.weak x, 2");
    init = "x=1; m=0; P0:r1=0; P1:r0=0;";
    cond = "P0:r1 == 2 /\\ P1:r0 == 2";
    doc = cli_format("scopecat gpu drf, seed %" PRIu64 ": P0 is %s, P1 is %s, "
                     "after it in the order of their lock; P0 read P1's store",
                     m->seed, episode_name(p, r), episode_name(p, wseen));
  } else if (wexp >= 0 && wexp != r && (wseen < 0 || wseen != r)) {
    /* the reader missed the store of an episode before it */
    same_cta = r / p->episodes / p->tpb == wexp / p->episodes / p->tpb;
    cli_push(&c0, "st.weak x, 2");
    put_release(p, wexp, 2, &c0);
    put_reader(p, r, m->action, true, &c1);
    init = "x=1; m=0; P0:r0=0; P1:r0=0; P1:r1=0;";
    cond = "P1:r0 == 2 /\\ P1:r1 == 1";
    doc = cli_format("scopecat gpu drf, seed %" PRIu64 ": P0 is %s, P1 is %s, "
                     "after it in the order of their lock; P1 missed P0's "
                     "store", m->seed, episode_name(p, wexp),
                     episode_name(p, r));
  } else if (wexp == r && wseen >= 0 && m->wplace >= 0 &&
             m->wplace < m->place) {
    /* an earlier episode's store landed after the reader's own */
    same_cta = r / p->episodes / p->tpb == wseen / p->episodes / p->tpb;
    cli_push(&c0, "st.weak x, 2");
    put_release(p, wseen, 2, &c0);
    put_acquire(p, r, &c1);
    cli_push(&c1, "st.weak x, 3");
    cli_push(&c1, "ld.weak r1, x");
    init = "x=1; m=0; P0:r0=0; P1:r0=0; P1:r1=0;";
    cond = "P1:r0 == 2 /\\ P1:r1 == 2";
    doc = cli_format("scopecat gpu drf, seed %" PRIu64 ": P0 is %s, P1 is %s, "
                     "after it in the order of their lock; P0's store "
                     "overwrote P1's own", m->seed, episode_name(p, wseen),
                     episode_name(p, r));
  } else if (wseen == r) {
    return "no litmus test: the load read a store its own episode makes "
           "after it in program order (the load was moved past it)";
  } else {
    return "no litmus test: the value seen and the value expected do not "
           "come from two episodes of this lock";
  }
  const char *name = cli_format("drf-s%" PRIu64 "-e%lld-a%d", m->seed, r,
                                m->action);
  const char *src = two_threads(name, doc, init, 0, same_cta ? 0 : 1, &c0,
                                &c1, cond);
  const char *path = cli_format("%s/%s.litmus", dir, name);
  FILE *f = fopen(path, "w");
  if (!f)
    return cli_format("%s: %s", path, strerror(errno));
  fputs(src, f);
  fclose(f);
  sc_test *t;
  sc_error *err;
  if (sc_test_load_string(src, path, NULL, &t, &err) != SC_OK)
    return cli_format("%s: %s", path, sc_error_message(err));
  model_dirs md = {0};
  models_add_bundled(&md);
  const char *mname = models_default(t), *mpath = NULL;
  sc_model *model;
  if (models_load(&md, mname, &model, &mpath, &err) != SC_OK)
    return cli_format("%s: %s", path, sc_error_message(err));
  sc_sim_options opts;
  memset(&opts, 0, sizeof opts);
  sc_result *res;
  if (sc_simulate(t, model, &opts, &res, &err) != SC_OK)
    return cli_format("%s: %s", path, sc_error_message(err));
  bool allowed = sc_result_positive(res) > 0;
  const char *base = strrchr(mname, '/') ? strrchr(mname, '/') + 1 : mname;
  return cli_format(
      "%s: %s %s it (%s)", path, base, allowed ? "allows" : "forbids",
      allowed ? "the program as run is not correctly synchronised: the "
                "model predicts the stale value"
              : "the GPU did what the model forbids");
}

/* ---- the report ----------------------------------------------------------- */

/* The setting of the round of `seed` (the base when none is recorded). */
static drf_params setting_of(const drf_outcome *o, drf_params base,
                             uint64_t seed) {
  for (long long i = 0; i < o->nround; i++)
    if (o->round[i].set.seed == seed)
      return o->round[i].set;
  base.seed = seed;
  return base;
}

static int knob_value(const drf_params *p, int k) {
  switch (k) {
  case DRF_K_EPISODES: return p->episodes;
  case DRF_K_ACTIONS: return p->actions;
  case DRF_K_VARS: return p->vars;
  case DRF_K_LOCKS: return p->locks;
  case DRF_K_CTA_LOCKS: return p->cta_locks;
  case DRF_K_LOADS: return p->loads;
  default: return p->spacing;
  }
}

static const char *const profile_names[] = {"wide", "contended", "fixed"};

static const char *setting_words(int profile, const drf_params *p) {
  return cli_format("%s: episodes %d, actions %d, vars %d, locks %d, "
                    "cta-locks %d, loads %d%%, spacing %d",
                    profile_names[profile], p->episodes, p->actions, p->vars,
                    p->locks, p->cta_locks, p->loads, p->spacing);
}

/* The knobs in `fixed`, by name ("none" when none). */
static const char *fixed_words(unsigned fixed) {
  const char *s = "";
  for (int k = 0; k < DRF_NKNOBS; k++)
    if (fixed >> k & 1)
      s = cli_format("%s%s%s", s, *s ? "," : "", drf_knob_names[k]);
  return *s ? s : "none";
}

/* Swarm: how the rounds' settings were drawn, a histogram of each knob
 * (value x rounds), the checked loads and time of each profile, and the
 * setting of each round with a finding. */
static void report_swarm(FILE *out, const drf_cli *c, const drf_outcome *o) {
  if (!o->device) {
    if (c->fixed == DRF_FIXED_ALL)
      fprintf(out, "Swarm: off (the trace's setting is its params line)\n");
    else
      fprintf(out, "Swarm: on (fixed: %s; episodes at most %d): the params "
                   "line is the draw of seed %" PRIu64 "\n",
              fixed_words(c->fixed), c->episodes, o->last_seed);
    return;
  }
  if (c->fixed == DRF_FIXED_ALL)
    fprintf(out, "Swarm: off (every round has the parameters above)\n");
  else
    fprintf(out, "Swarm: on (each round draws its setting from its seed; "
                 "fixed: %s)\n", fixed_words(c->fixed));
  if (!o->nround)
    return;
  fprintf(out, "Settings (value: rounds):\n");
  for (int k = -1; k < DRF_NKNOBS; k++) {
    if (k >= 0 && c->fixed >> k & 1)
      continue;
    enum { MAXVAL = 32 };
    int val[MAXVAL];
    long long cnt[MAXVAL];
    int nv = 0;
    for (long long i = 0; i < o->nround; i++) {
      int v = k < 0 ? o->round[i].profile : knob_value(&o->round[i].set, k);
      int j = 0;
      while (j < nv && val[j] != v)
        j++;
      if (j == nv && nv < MAXVAL)
        val[nv] = v, cnt[nv++] = 0;
      if (j < nv)
        cnt[j]++;
    }
    for (int a = 1; a < nv; a++) /* ascending values */
      for (int b = a; b > 0 && val[b - 1] > val[b]; b--) {
        int tv = val[b];
        long long tc = cnt[b];
        val[b] = val[b - 1], cnt[b] = cnt[b - 1];
        val[b - 1] = tv, cnt[b - 1] = tc;
      }
    fprintf(out, "  %-10s", k < 0 ? "profile" : drf_knob_names[k]);
    for (int j = 0; j < nv; j++)
      fprintf(out, " %s:%lld", k < 0 ? profile_names[val[j]]
                                     : cli_format("%d", val[j]), cnt[j]);
    fputc('\n', out);
  }
  for (int pr = 0; pr < 3; pr++) {
    long long n = 0;
    unsigned long long loads = 0;
    double t = 0;
    for (long long i = 0; i < o->nround; i++)
      if (o->round[i].profile == pr)
        n++, loads += o->round[i].loads, t += o->round[i].seconds;
    if (n)
      fprintf(out, "  %-10s %lld rounds, %llu checked loads in %.3f s of "
                   "GPU time (%.4g loads/s)\n",
              profile_names[pr], n, loads, t, t > 0 ? loads / t : 0.0);
  }
  for (long long i = 0, shown = 0; i < o->nround && shown < MAXREC; i++)
    if (o->round[i].found) {
      fprintf(out, "  round %lld (seed %" PRIu64 ") found something: %s\n",
              i, o->round[i].set.seed,
              setting_words(o->round[i].profile, &o->round[i].set));
      shown++;
    }
}

static void report(FILE *out, const drf_cli *c, drf_params p,
                   const drf_outcome *o, const char *dir) {
  const drf_params base = p;
  fprintf(out, "scopecat gpu drf: data-race-free random testing\n");
  const char *kv[DRF_NKNOBS];
  for (int k = 0; k < DRF_NKNOBS; k++)
    kv[k] = c->fixed >> k & 1 || !o->device
                ? cli_format("%d", knob_value(&p, k))
            : k == DRF_K_EPISODES ? cli_format("<=%d*", p.episodes)
                                  : "*";
  fprintf(out, "Parameters: ctas %d; tpb %d; episodes %s; actions %s; vars %s; "
               "locks %s; cta-locks %s; loads %s%%; spacing %s; seed %" PRIu64
               "; inject %s%s\n",
          p.ctas, p.tpb, kv[DRF_K_EPISODES], kv[DRF_K_ACTIONS], kv[DRF_K_VARS],
          kv[DRF_K_LOCKS], kv[DRF_K_CTA_LOCKS], kv[DRF_K_LOADS],
          kv[DRF_K_SPACING], p.seed, inject_names[p.inject],
          c->fixed == DRF_FIXED_ALL || !o->device ? ""
                                                  : " (*: drawn each round)");
  report_swarm(out, c, o);
  if (o->device)
    fprintf(out, "Device: %s\n", o->device);
  fprintf(out, "Rounds: %lld (seeds %" PRIu64 " to %" PRIu64 ")\n", o->rounds,
          p.seed, o->last_seed);
  fprintf(out, "Episodes: %llu acquired, %llu did not acquire in time, %llu "
               "abandoned after that\n",
          o->episodes, o->timedout, o->abandoned);
  fprintf(out, "Checked loads: %llu (stores %llu)\n", o->loads, o->stores);
  if (o->device) {
    double t = o->run_s + o->check_s;
    fprintf(out, "Time: GPU %.3f s (run %.3f s, check %.3f s)\n", t, o->run_s,
            o->check_s);
    fprintf(out, "Rate: %.4g checked loads/s\n", t > 0 ? o->loads / t : 0.0);
  }
  fprintf(out, "Mismatches: %llu\n", o->mismatches);
  fprintf(out, "Lock failures: %llu\n", o->dups);
  int n = 0;
  for (int i = 0; i < DRF_NCOVER; i++)
    n += o->cover[i] > 0;
  fprintf(out, "Coverage: %d of %d combinations of scope x operation x cache "
               "operator\n", n, DRF_NCOVER);
  for (int i = 0; i < DRF_NCOVER; i++) {
    const char *sc, *op, *cop;
    if (i < DRF_NSYNC * 3) {
      sc = scope_words[i % 3];
      op = sync_ops[i / 3];
      cop = "-";
    } else if (i < DRF_NSYNC * 3 + DRF_NLDC) {
      sc = "-";
      op = "ld.weak";
      cop = ld_cops[i - DRF_NSYNC * 3];
    } else {
      sc = "-";
      op = "st.weak";
      cop = st_cops[i - DRF_NSYNC * 3 - DRF_NLDC];
    }
    fprintf(out, "  %-4s %-17s %-3s %llu\n", sc, op, cop, o->cover[i]);
  }
  for (int i = 0; i < o->nmm; i++) {
    const drf_found *m = &o->mm[i];
    p = setting_of(o, base, m->seed);
    int lock = drf_episode_lock(&p, m->episode);
    drf_action x = drf_episode_action(&p, m->episode, m->action);
    long long ws, we;
    const char *seen = writer_name(&p, m->seen, lock, x.var, &ws);
    const char *exp = writer_name(&p, m->expected, lock, x.var, &we);
    fprintf(out, "\nMismatch %d (seed %" PRIu64 "): %s, action %d%s: ld.%s of "
                 "variable %d of %s, place %d in its order\n",
            i + 1, m->seed, episode_name(&p, m->episode), m->action,
            drf_moved_load(&p, m->episode) == m->action
                ? " (moved after the release)" : "",
            ld_cops[x.cop][0] == '-' ? "weak" : ld_cops[x.cop], x.var,
            lock_name(&p, lock), m->place);
    fprintf(out, "  seen     %u: %s", m->seen, seen);
    if (ws >= 0 && m->wplace >= 0)
      fprintf(out, ", place %d", m->wplace);
    else if (ws >= 0 && m->wplace != -3)
      fprintf(out, ", which never acquired the lock");
    fprintf(out, "\n  expected %u: %s\n", m->expected, exp);
    fprintf(out, "  litmus: %s\n", reproduce(&p, m, ws, we, dir));
  }
  for (int i = 0; i < o->nstuck; i++) {
    p = setting_of(o, base, (uint64_t)o->stuck[i][0]);
    fprintf(out, "\nForward progress (seed %" PRIu64 "): %s did not acquire %s "
                 "%s\n",
            p.seed, episode_name(&p, o->stuck[i][1]),
            lock_name(&p, (int)o->stuck[i][2]),
            o->device ? cli_format("within %g s", c->spin)
                      : "(place -1 in the trace)");
  }
  for (int i = 0; i < o->ndup; i++) {
    p = setting_of(o, base, (uint64_t)o->dup[i][0]);
    fprintf(out, "\nLock failure (seed %" PRIu64 "): %s recorded place %lld "
                 "of %s, which another episode holds or which does not "
                 "exist\n",
            p.seed, episode_name(&p, o->dup[i][3]), o->dup[i][2],
            lock_name(&p, (int)o->dup[i][1]));
  }
  if (o->watchdog)
    fprintf(out, "\nWatchdog: the program was killed after %g s\n", c->timeout);
  bool bad = o->mismatches || o->timedout || o->dups || o->watchdog;
  if (o->setting_mismatch)
    fprintf(out, "\nSetting: a round ran a setting that is not its seed's "
                 "draw\n");
  bad = bad || o->setting_mismatch;
  if (p.inject != DRF_INJ_NONE && o->device)
    fprintf(out, "\nInjected fault %s: %s\n", inject_names[p.inject],
            bad ? cli_format("caught after %.3f s of GPU time (round %lld, "
                             "%s)", o->caught_s, o->caught_round,
                             o->caught_round >= 0 &&
                                     o->caught_round < o->nround
                                 ? setting_words(
                                       o->round[o->caught_round].profile,
                                       &o->round[o->caught_round].set)
                                 : "?")
                : "NOT caught");
  fprintf(out, "\nVerdict: %s\n",
          bad ? "FAIL (loads or locks did not behave as the order says)"
              : "PASS (every load read the last store before it)");
  if (c->argv) {
    fprintf(out, "Command: scopecat gpu drf");
    for (int i = 1; i < c->argc; i++)
      fprintf(out, " %s", c->argv[i]);
    fputc('\n', out);
  }
}

/* ---- checking a recorded trace --------------------------------------------- */

typedef struct cursor {
  const char *file;
  int line;
  char *start, *at;
} cursor;

static bool trace_fail(const cursor *k, const char *fmt, const char *arg) {
  fprintf(stderr, "%s:%d:%d: ", k->file, k->line, (int)(k->at - k->start) + 1);
  fprintf(stderr, fmt, arg);
  fputc('\n', stderr);
  return false;
}

static void skip_blanks(cursor *k) {
  while (*k->at == ' ' || *k->at == '\t')
    k->at++;
}

static bool read_word(cursor *k, char *buf, size_t n) {
  skip_blanks(k);
  size_t i = 0;
  while (k->at[i] && k->at[i] != ' ' && k->at[i] != '\t' && i + 1 < n) {
    buf[i] = k->at[i];
    i++;
  }
  buf[i] = '\0';
  return i > 0;
}

/* A number in [lo, hi] at the cursor. */
static bool read_num(cursor *k, long long lo, long long hi, long long *v,
                     const char *what) {
  skip_blanks(k);
  char *end;
  errno = 0;
  long long x = strtoll(k->at, &end, 10);
  if (end == k->at || errno || (*end && *end != ' ' && *end != '\t'))
    return trace_fail(k, "expected %s", what);
  if (x < lo || x > hi)
    return trace_fail(k, "%s out of range", what);
  *v = x;
  k->at = end;
  return true;
}

static bool end_of_line(cursor *k) {
  skip_blanks(k);
  return *k->at ? trace_fail(k, "unexpected '%s'", k->at) : true;
}

static bool read_params(cursor *k, drf_params *p) {
  static const char *const keys[] = {"ctas", "tpb", "episodes", "actions",
                                     "vars", "locks", "cta-locks", "loads",
                                     "spacing", "seed", "inject"};
  static const long long hi[] = {1 << 20, 1024, 1 << 20, 1 << 16, DRF_MAXV,
                                 1 << 22, 1 << 16, 100, 1 << 12, LLONG_MAX};
  static const long long lo[] = {1, 1, 1, 1, 1, 0, 0, 0, 1, 0};
  int *fields[] = {&p->ctas, &p->tpb, &p->episodes, &p->actions, &p->vars,
                   &p->locks, &p->cta_locks, &p->loads, &p->spacing};
  unsigned seen = 0;
  char key[64];
  while (read_word(k, key, sizeof key)) {
    int i = 0;
    while (i < 11 && strcmp(keys[i], key))
      i++;
    if (i == 11)
      return trace_fail(k, "unknown parameter '%s'", key);
    k->at += strlen(key);
    if (i == 10) {
      char name[64];
      skip_blanks(k);
      if (!read_word(k, name, sizeof name))
        return trace_fail(k, "expected a fault name%s", "");
      int j = 0;
      while (inject_names[j] && strcmp(inject_names[j], name))
        j++;
      if (!inject_names[j])
        return trace_fail(k, "unknown fault '%s'", name);
      p->inject = j;
      k->at += strlen(name);
    } else {
      long long v;
      if (!read_num(k, lo[i], hi[i], &v, cli_format("a value of %s", key)))
        return false;
      if (i == 9)
        p->seed = (uint64_t)v;
      else
        *fields[i] = (int)v;
    }
    seen |= 1u << i;
  }
  if (seen != (1u << 11) - 1)
    return trace_fail(k, "params needs all of ctas tpb episodes actions vars "
                         "locks cta-locks loads spacing seed inject%s", "");
  const char *why = bad_params(p);
  if (why) {
    k->at = k->start;
    return trace_fail(k, "%s", why);
  }
  return true;
}

/* The swarm line: "swarm off", or "swarm on episodes-max N fixed LIST"
 * (LIST: none, or knob names joined by commas). */
static bool read_swarm(cursor *k, unsigned *fixed, int *emax) {
  char w[128];
  if (!read_word(k, w, sizeof w) || (strcmp(w, "on") && strcmp(w, "off")))
    return trace_fail(k, "expected on or off after swarm%s", "");
  k->at += strlen(w);
  if (!strcmp(w, "off")) {
    *fixed = DRF_FIXED_ALL;
    return end_of_line(k);
  }
  if (!read_word(k, w, sizeof w) || strcmp(w, "episodes-max"))
    return trace_fail(k, "expected episodes-max%s", "");
  k->at += strlen(w);
  long long v;
  if (!read_num(k, 1, 1 << 20, &v, "a value of episodes-max"))
    return false;
  *emax = (int)v;
  skip_blanks(k);
  if (!read_word(k, w, sizeof w) || strcmp(w, "fixed"))
    return trace_fail(k, "expected fixed%s", "");
  k->at += strlen(w);
  skip_blanks(k);
  if (!read_word(k, w, sizeof w))
    return trace_fail(k, "expected none or knob names after fixed%s", "");
  *fixed = 0;
  if (strcmp(w, "none")) {
    char *save = NULL;
    for (char *n = strtok_r(w, ",", &save); n; n = strtok_r(NULL, ",", &save)) {
      int i = 0;
      while (i < DRF_NKNOBS && strcmp(drf_knob_names[i], n))
        i++;
      if (i == DRF_NKNOBS) {
        k->at += n - w;
        return trace_fail(k, "unknown knob '%s' (episodes, actions, vars, "
                             "locks, cta-locks, loads, spacing)", n);
      }
      *fixed |= 1u << i;
    }
  }
  while (*k->at && *k->at != ' ' && *k->at != '\t')
    k->at++;
  return end_of_line(k);
}

/* Check `path`; the outcome in *o, how its setting was drawn in *fixed and
 * *emax; false after a message (malformed). */
static bool check_trace(const char *path, drf_params *p, unsigned *fixed,
                        int *emax, drf_outcome *o) {
  int swarm_line = 0;
  *fixed = DRF_FIXED_ALL;
  char *src = cli_read_file(path);
  if (!src) {
    fprintf(stderr, "scopecat gpu drf: %s: cannot read\n", path);
    return false;
  }
  bool have_params = false;
  long long nep = 0;
  int *tick = NULL, *tick_line = NULL;
  uint32_t *rec = NULL;
  unsigned char *have = NULL;
  cursor k = {path, 0, NULL, NULL};
  for (char *l = src, *nl; l && *l; l = nl) {
    nl = strchr(l, '\n');
    if (nl)
      *nl++ = '\0';
    k.line++;
    k.start = k.at = l;
    skip_blanks(&k);
    if (!*k.at || *k.at == '#')
      continue;
    char word[32], *wstart = k.at;
    read_word(&k, word, sizeof word);
    k.at += strlen(word);
    if (!strcmp(word, "params")) {
      if (have_params) {
        k.at = wstart;
        return trace_fail(&k, "a second params line%s", "");
      }
      if (!read_params(&k, p))
        return false;
      have_params = true;
      nep = drf_nepisodes(p);
      tick = GC_MALLOC_ATOMIC(sizeof(int) * (size_t)nep);
      tick_line = GC_MALLOC_ATOMIC(sizeof(int) * (size_t)nep);
      rec = GC_MALLOC_ATOMIC(sizeof(uint32_t) * (size_t)nep * p->actions);
      have = GC_MALLOC_ATOMIC((size_t)nep * p->actions);
      if (!tick || !tick_line || !rec || !have)
        return trace_fail(&k, "out of memory for %s episodes", "its");
      for (long long e = 0; e < nep; e++)
        tick[e] = -2, tick_line[e] = 0;
      memset(have, 0, (size_t)nep * p->actions);
      continue;
    }
    if (!strcmp(word, "swarm")) {
      if (swarm_line) {
        k.at = wstart;
        return trace_fail(&k, "a second swarm line%s", "");
      }
      if (!read_swarm(&k, fixed, emax))
        return false;
      swarm_line = k.line;
      continue;
    }
    if (strcmp(word, "ticket") && strcmp(word, "load")) {
      k.at = wstart;
      return trace_fail(&k, "expected params, swarm, ticket or load, not '%s'",
                        word);
    }
    if (!have_params)
      return trace_fail(&k, "%s before the params line", word);
    long long e, a, v;
    if (!read_num(&k, 0, nep - 1, &e, "an episode number"))
      return false;
    if (!strcmp(word, "ticket")) {
      if (!read_num(&k, -1, nep - 1, &v, "a place (-1: not acquired)") ||
          !end_of_line(&k))
        return false;
      if (tick[e] != -2)
        return trace_fail(&k, "a second ticket for episode %s",
                          cli_format("%lld", e));
      tick[e] = (int)v;
      tick_line[e] = k.line;
      continue;
    }
    char *acol = k.at;
    if (!read_num(&k, 0, p->actions - 1, &a, "an action number"))
      return false;
    if (!drf_episode_action(p, e, (int)a).load) {
      k.at = acol;
      skip_blanks(&k);
      return trace_fail(&k, "action %s is a store, not a load",
                        cli_format("%lld of episode %lld", a, e));
    }
    if (!read_num(&k, 0, UINT32_MAX, &v, "a 32-bit value") || !end_of_line(&k))
      return false;
    rec[e * p->actions + a] = (uint32_t)v;
    have[e * p->actions + a] = 1;
  }
  if (!have_params) {
    fprintf(stderr, "%s:1:1: no params line\n", path);
    return false;
  }
  /* a drawn setting must be its seed's draw */
  if (*fixed != DRF_FIXED_ALL) {
    drf_params base = *p;
    base.episodes = *emax;
    drf_params q = drf_swarm(&base, p->seed, *fixed);
    for (int i = 0; i < DRF_NKNOBS; i++)
      if (knob_value(&q, i) != knob_value(p, i)) {
        fprintf(stderr, "%s:%d:1: the params line is not the setting seed "
                        "%" PRIu64 " draws: %s %d, the draw gives %d\n",
                path, swarm_line, p->seed, drf_knob_names[i],
                knob_value(p, i), knob_value(&q, i));
        return false;
      }
  }
  /* every acquired episode's loads */
  for (long long e = 0; e < nep; e++) {
    if (tick[e] < 0)
      continue;
    for (int a = 0; a < p->actions; a++)
      if (drf_episode_action(p, e, a).load && !have[e * p->actions + a]) {
        fprintf(stderr, "%s:%d:1: episode %lld acquired its lock but its "
                        "load %d is not recorded\n",
                path, tick_line[e], e, a);
        return false;
      }
  }
  memset(o, 0, sizeof *o);
  o->rounds = 1;
  o->last_seed = p->seed;
  drf_round rd = {0};
  rd.set = *p;
  rd.profile = drf_profile(p->seed, *fixed);
  add_round(o, &rd);
  /* each lock's places, as the GPU does it */
  int nl = drf_nlocks(p);
  long long *count = GC_MALLOC_ATOMIC(sizeof(long long) * (size_t)nl);
  long long *base = GC_MALLOC_ATOMIC(sizeof(long long) * (size_t)(nl + 1));
  long long *owner = GC_MALLOC_ATOMIC(sizeof(long long) * (size_t)(nep ? nep : 1));
  memset(count, 0, sizeof(long long) * (size_t)nl);
  for (long long e = 0; e < nep; e++)
    count[drf_episode_lock(p, e)]++;
  base[0] = 0;
  for (int l = 0; l < nl; l++)
    base[l + 1] = base[l] + count[l];
  for (long long i = 0; i < nep; i++)
    owner[i] = -1;
  for (long long e = 0; e < nep; e++) {
    if (tick[e] < 0) {
      if (o->nstuck < MAXREC) {
        o->stuck[o->nstuck][0] = (long long)p->seed;
        o->stuck[o->nstuck][1] = e;
        o->stuck[o->nstuck][2] = drf_episode_lock(p, e);
        o->nstuck++;
      }
      o->timedout++;
      continue;
    }
    int l = drf_episode_lock(p, e);
    if (tick[e] >= count[l] || owner[base[l] + tick[e]] >= 0) {
      if (o->ndup < MAXREC) {
        long long *d = o->dup[o->ndup++];
        d[0] = (long long)p->seed, d[1] = l, d[2] = tick[e], d[3] = e;
      }
      o->dups++;
      continue;
    }
    owner[base[l] + tick[e]] = e;
  }
  drf_tally tally = {0};
  drf_mismatch mm[MAXREC];
  for (int l = 0; l < nl; l++)
    drf_check_lock(p, l, owner + base[l], count[l], rec, &tally, o->cover, mm,
                   MAXREC);
  o->episodes = tally.episodes;
  o->loads = tally.loads;
  o->stores = tally.stores;
  o->mismatches = tally.mismatches;
  o->nmm = tally.mismatches < MAXREC ? (int)tally.mismatches : MAXREC;
  for (int i = 0; i < o->nmm; i++) {
    drf_found *f = &o->mm[i];
    f->seed = p->seed;
    f->episode = mm[i].episode;
    f->action = mm[i].action;
    f->place = mm[i].place;
    f->seen = mm[i].seen;
    f->expected = mm[i].expected;
    long long we = mm[i].seen ? (long long)(mm[i].seen - 1) / p->actions : -1;
    f->wplace = we >= 0 && we < nep ? (tick[we] < 0 ? -1 : tick[we]) : -3;
  }
  return true;
}

/* ---- running on the GPU ---------------------------------------------------- */

static const char *write_program(const char *dir) {
  const char *cu = cli_format("%s/drf.cu", dir);
  FILE *f = fopen(cu, "w");
  if (!f) {
    fprintf(stderr, "scopecat gpu drf: %s: %s\n", cu, strerror(errno));
    return NULL;
  }
  fprintf(f, "// Generated by scopecat gpu drf: data-race-free random testing "
             "of the GPU's memory.\n// The program is a function of the run "
             "time parameters (drf_prog.h); the kernels,\n// the recording "
             "and the checker are the harness templates' (drf_main.cuh).\n"
             "#include \"gpu_prelude.cuh\"\n#include \"drf_prog.h\"\n"
             "#include \"drf_main.cuh\"\n");
  fclose(f);
  return cu;
}

/* Read the program's lines into *o; each round's setting must be the one
 * its seed draws from the base p. */
static void read_output(const char *out, const drf_cli *c, const drf_params *p,
                        drf_outcome *o) {
  char *text = GC_STRDUP(out ? out : ""), *save = NULL;
  for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
    long long r, e, x[8];
    unsigned long long sd, ep, ld, st, mmn, to, ab, du;
    double rm, cm;
    unsigned seen, exp;
    int a, pl, wp;
    if (!strncmp(l, "device ", 7)) {
      char *sp = strrchr(l, ' ');
      o->device = cli_format("%.*s (%s SMs)", (int)(sp - l - 7), l + 7, sp + 1);
    } else if (sscanf(l, "round %lld %llu %llu %llu %llu %llu %llu %llu %llu %lf %lf",
                      &r, &sd, &ep, &ld, &st, &mmn, &to, &ab, &du, &rm, &cm) == 11) {
      drf_round rd = {0};
      rd.set = drf_swarm(p, sd, c->fixed);
      rd.profile = drf_profile(sd, c->fixed);
      rd.loads = ld;
      rd.seconds = (rm + cm) / 1000;
      rd.found = mmn || to || du;
      int f[8];
      const char *set = strstr(l, " set ");
      if (!set || sscanf(set, " set %d %d %d %d %d %d %d %d", &f[0], &f[1],
                         &f[2], &f[3], &f[4], &f[5], &f[6], &f[7]) != 8 ||
          f[0] != rd.profile || f[1] != rd.set.episodes ||
          f[2] != rd.set.actions || f[3] != rd.set.vars ||
          f[4] != rd.set.locks || f[5] != rd.set.cta_locks ||
          f[6] != rd.set.loads || f[7] != rd.set.spacing) {
        o->setting_mismatch = true;
        rd.found = true;
      }
      add_round(o, &rd);
      o->rounds = r + 1;
      o->last_seed = sd;
      o->episodes += ep, o->loads += ld, o->stores += st;
      o->mismatches += mmn, o->timedout += to, o->abandoned += ab, o->dups += du;
      o->run_s += rm / 1000, o->check_s += cm / 1000;
      if ((mmn || to || du) && o->caught_round < 0) {
        o->caught_round = r;
        o->caught_s = o->run_s + o->check_s;
      }
    } else if (sscanf(l, "mismatch %lld %llu %lld %d %u %u %d %d", &r, &sd, &e,
                      &a, &seen, &exp, &pl, &wp) == 8) {
      if (o->nmm < MAXREC)
        o->mm[o->nmm++] = (drf_found){sd, e, a, pl, wp, seen, exp};
    } else if (sscanf(l, "stuck %lld %llu %lld %lld", &r, &sd, &x[0], &x[1]) == 4) {
      if (o->nstuck < MAXREC) {
        o->stuck[o->nstuck][0] = (long long)sd;
        o->stuck[o->nstuck][1] = x[0];
        o->stuck[o->nstuck++][2] = x[1];
      }
    } else if (sscanf(l, "dup %lld %llu %lld %lld %lld", &r, &sd, &x[0], &x[1],
                      &x[2]) == 5) {
      if (o->ndup < MAXREC) {
        long long *d = o->dup[o->ndup++];
        d[0] = (long long)sd, d[1] = x[0], d[2] = x[1], d[3] = x[2];
      }
    } else if (sscanf(l, "cover %lld %llu", &r, &sd) == 2 && r >= 0 &&
               r < DRF_NCOVER) {
      o->cover[r] += sd;
    }
  }
}

static int run_gpu(drf_cli *c, drf_params *p, FILE *log, const char *dir) {
  const char *bdir;
  if (c->keep) {
    mkdir(c->keep, 0777);
    bdir = c->keep;
  } else {
    char tmpl[] = "/tmp/scopecat-drf-XXXXXX";
    if (!mkdtemp(tmpl)) {
      fprintf(stderr, "scopecat gpu drf: %s: %s\n", tmpl, strerror(errno));
      return EXIT_SOME_FAILED;
    }
    bdir = GC_STRDUP(tmpl);
  }
  const char *cu = write_program(bdir);
  if (!cu)
    return EXIT_SOME_FAILED;
  const char *exe = cli_format("%s/drf", bdir);
  const char *nvcc = gpu_nvcc(c->nvcc);
  const char *cmd = cli_format(
      "'%s' -O3 -arch=sm_90 -lineinfo -std=c++17 -I '%s' -o '%s' '%s' 2>&1",
      nvcc, gpu_dir(c->gpudir), exe, cu);
  /* a kept folder's binary, built by the same command, is reused */
  const char *stamp = cli_format("%s.ok", exe);
  char *done = cli_read_file(stamp);
  if (!(done && !strcmp(done, cli_format("%s\n", cmd)) &&
        access(exe, X_OK) == 0)) {
    if (isatty(2))
      fprintf(stderr, "scopecat gpu drf: compiling %s\n", cu);
    int st;
    char *msg = cli_run_capture(cmd, 0, &st);
    if (st != 0) {
      fprintf(stderr, "scopecat gpu drf: nvcc failed (%s):\n%s", cmd,
              msg ? msg : "");
      return EXIT_SOME_FAILED;
    }
    FILE *ok = fopen(stamp, "w");
    if (ok) {
      fprintf(ok, "%s\n", cmd);
      fclose(ok);
    }
  }
  /* the program runs rounds until it has checked -n loads */
  const char *run = cli_format(
      "'%s' -ctas %d -tpb %d -episodes %d -actions %d -vars %d -locks %d "
      "-cta-locks %d -loads %d -spacing %d -seed %" PRIu64 " -inject %d "
      "-fixed %u -want %ld -seconds-ms %lld -stop %d -spin-ms %lld%s%s 2>&1",
      exe, p->ctas, p->tpb, p->episodes, p->actions, p->vars, p->locks,
      p->cta_locks, p->loads, p->spacing, p->seed, p->inject, c->fixed, c->n,
      (long long)(c->max_seconds * 1000), c->stop ? 1 : 0,
      (long long)(c->spin * 1000), c->trace ? " -trace " : "",
      c->trace ? cli_format("'%s'", c->trace) : "");
  if (isatty(2))
    fprintf(stderr, "scopecat gpu drf: running until %ld loads are checked\n",
            c->n);
  int st;
  char *out = cli_run_capture(run, c->timeout, &st);
  drf_outcome o;
  memset(&o, 0, sizeof o);
  o.caught_round = -1;
  read_output(out, c, p, &o);
  o.watchdog = st == CLI_RUN_TIMED_OUT;
  if (!o.device) {
    fprintf(stderr, "scopecat gpu drf: the program failed (%s):\n%s", run,
            out ? out : "");
    return EXIT_SOME_FAILED;
  }
  report(log, c, *p, &o, dir);
  if (!c->keep)
    cli_run(cli_format("rm -rf '%s'", bdir), NULL, 0);
  return o.mismatches || o.timedout || o.dups || o.watchdog ||
                 o.setting_mismatch || st != 0
             ? EXIT_SOME_FAILED
             : EXIT_ALL_RAN;
}

int cmd_gpu_drf(int argc, char **argv) {
  drf_cli c;
  memset(&c, 0, sizeof c);
  /* the knobs a round may draw: -1 until given */
  c.ctas = 264, c.tpb = 256, c.episodes = -1, c.actions = -1, c.vars = -1;
  c.locks = -1, c.cta_locks = -1, c.loads = -1, c.spacing = -1, c.swarm = 1;
  c.seed = 1, c.n = 100000000, c.spin = 2, c.timeout = 600;
  c.argc = argc;
  c.argv = argv;
  const cli_command cmd = {"gpu drf", drf_opts,
                           {.kind = CLI_LIST, AT(operands)}, drf_usage, false};
  int missing;
  int rc = cli_parse(&cmd, &c, argc, argv, &missing);
  if (rc != CLI_GO_ON)
    return rc;
  if (c.operands.n) {
    fprintf(stderr, "scopecat gpu drf: unexpected argument '%s' (gpu drf "
                    "takes options only)\n", c.operands.items[0]);
    drf_usage(stderr);
    return EXIT_USAGE;
  }
  if (c.inject != DRF_INJ_NONE)
    c.stop = true;
  int *knob[DRF_NKNOBS] = {&c.episodes, &c.actions, &c.vars, &c.locks,
                           &c.cta_locks, &c.loads, &c.spacing};
  static const int dflt[DRF_NKNOBS] = {16, 32, 8, 1024, 8, 50, 1};
  c.fixed = c.swarm ? 0 : DRF_FIXED_ALL;
  for (int k = 0; k < DRF_NKNOBS; k++) {
    if (*knob[k] >= 0)
      c.fixed |= 1u << k;
    else
      *knob[k] = dflt[k];
  }
  const char *dir = c.outdir ? c.outdir : ".";
  if (c.outdir && mkdir(c.outdir, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "scopecat gpu drf: %s: %s\n", c.outdir, strerror(errno));
    return EXIT_USAGE;
  }
  drf_params p;
  memset(&p, 0, sizeof p);
  if (c.check) {
    drf_outcome o;
    if (!check_trace(c.check, &p, &c.fixed, &c.episodes, &o))
      return EXIT_SOME_FAILED;
    FILE *log = c.outdir ? fopen(cli_format("%s/drf.txt", c.outdir), "w") : NULL;
    c.argv = NULL;
    report(stdout, &c, p, &o, dir);
    if (log) {
      report(log, &c, p, &o, dir);
      fclose(log);
    }
    return o.mismatches || o.timedout || o.dups ? EXIT_SOME_FAILED
                                                : EXIT_ALL_RAN;
  }
  p.ctas = c.ctas, p.tpb = c.tpb, p.episodes = c.episodes;
  p.actions = c.actions, p.vars = c.vars, p.locks = c.locks;
  p.cta_locks = c.cta_locks, p.loads = c.loads, p.spacing = c.spacing;
  p.inject = c.inject, p.seed = (uint64_t)c.seed;
  /* the largest setting a round may draw must make a program too */
  drf_params big = p;
  if (!(c.fixed >> DRF_K_ACTIONS & 1))
    big.actions = DRF_SWARM_MAX_ACTIONS;
  if (!(c.fixed >> DRF_K_VARS & 1))
    big.vars = DRF_MAXV;
  if (!(c.fixed >> DRF_K_SPACING & 1))
    big.spacing = DRF_SWARM_MAX_SPACING;
  if (!(c.fixed >> DRF_K_LOCKS & 1))
    big.locks = DRF_SWARM_MAX_LOCKS;
  if (!(c.fixed >> DRF_K_CTA_LOCKS & 1))
    big.cta_locks = DRF_SWARM_MAX_CTA_LOCKS;
  const char *why = bad_params(&p);
  if (!why && c.fixed != DRF_FIXED_ALL && (why = bad_params(&big)))
    why = cli_format("%s (in a round that draws the largest setting; "
                     "-swarm 0 or a smaller knob)", why);
  if (why) {
    fprintf(stderr, "scopecat gpu drf: %s\n", why);
    return EXIT_USAGE;
  }
  if (c.plan) {
    for (long r = 0; r < c.plan; r++) {
      uint64_t sd = p.seed + (uint64_t)r;
      drf_params q = drf_swarm(&p, sd, c.fixed);
      printf("round %ld seed %" PRIu64 " %s\n", r, sd,
             setting_words(drf_profile(sd, c.fixed), &q));
    }
    return EXIT_ALL_RAN;
  }
  if (c.gen) {
    if (mkdir(c.gen, 0777) != 0 && errno != EEXIST) {
      fprintf(stderr, "scopecat gpu drf: %s: %s\n", c.gen, strerror(errno));
      return EXIT_USAGE;
    }
    const char *cu = write_program(c.gen);
    if (!cu)
      return EXIT_SOME_FAILED;
    printf("%s\n", cu);
    return EXIT_ALL_RAN;
  }
  if (gpu_count() < 1) {
    fprintf(stderr, "scopecat gpu drf: no GPU visible: SKIP\n");
    return 77;
  }
  char *text = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&text, &len);
  rc = run_gpu(&c, &p, mem, dir);
  fclose(mem);
  fputs(text ? text : "", stdout);
  if (c.outdir && text) {
    FILE *f = fopen(cli_format("%s/drf.txt", c.outdir), "w");
    if (f) {
      fputs(text, f);
      fclose(f);
    }
  }
  free(text);
  return rc;
}
