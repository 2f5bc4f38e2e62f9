/* drf_report.c: the report of `scopecat gpu drf`: what the rounds drew
 * and checked, each wrong load, stuck episode or lock failure named, and a
 * wrong load as a two-thread litmus test that the model judges. */
#define _POSIX_C_SOURCE 200809L
#include "drf.h"

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
#include "models.h"

static const char *const scope_words[] = {"cta", "gpu", "sys"};
static const char *const ld_cops[] = {"-", "ca", "cg", "cs", "lu", "cv"};
static const char *const st_cops[] = {"-", "wb", "cg", "cs", "wt"};
static const char *const sync_ops[] = {
    "atom.relaxed.add", "ld.acquire", "ld.relaxed", "atom.acquire.cas",
    "atom.relaxed.cas", "fence.acq_rel", "st.release", "st.relaxed"};

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

/* How episode e takes and gives back its lock, for the litmus test. */
static sc_drf_episode episode_of(const drf_params *p, long long e) {
  int lock = drf_episode_lock(p, e);
  sc_drf_episode x;
  memset(&x, 0, sizeof x);
  x.scope = drf_lock_scope(p, lock);
  x.ticket = drf_lock_kind(p, lock) == DRF_LOCK_TICKET;
  x.acquire = drf_acq_style(p, e) != 0;
  x.release = drf_rel_style(p, e) != 0;
  x.acquire_fence = p->inject != DRF_INJ_NO_ACQ_FENCE;
  x.release_fence = p->inject != DRF_INJ_RELEASE_RELAXED;
  x.cta = (int)(e / p->episodes / p->tpb);
  return x;
}

/* Write the litmus test of mismatch m (lib/gen's sc_drf_litmus) and
 * simulate it; a sentence for the report. */
static const char *reproduce(const drf_params *p, const drf_found *m,
                             long long wseen, long long wexp, const char *dir) {
  long long r = m->episode, w;
  sc_drf_shape shape;
  const char *what;
  if (wseen >= 0 && wseen != r && m->wplace > m->place) {
    shape = SC_DRF_READ_LATER, w = wseen;
    what = "P0 is %s, P1 is %s, after it in the order of their lock; P0 "
           "read P1's store";
  } else if (wexp >= 0 && wexp != r && (wseen < 0 || wseen != r)) {
    shape = SC_DRF_MISSED_EARLIER, w = wexp;
    what = "P0 is %s, P1 is %s, after it in the order of their lock; P1 "
           "missed P0's store";
  } else if (wexp == r && wseen >= 0 && m->wplace >= 0 &&
             m->wplace < m->place) {
    shape = SC_DRF_OVERWRITTEN, w = wseen;
    what = "P0 is %s, P1 is %s, after it in the order of their lock; P0's "
           "store overwrote P1's own";
  } else if (wseen == r) {
    return "no litmus test: the load read a store its own episode makes "
           "after it in program order (the load was moved past it)";
  } else {
    return "no litmus test: the value seen and the value expected do not "
           "come from two episodes of this lock";
  }
  sc_drf_episode reader = episode_of(p, r), writer = episode_of(p, w);
  reader.load_moved = drf_moved_load(p, r) == m->action;
  /* P0 is the reader in the first shape, the writer in the others */
  const char *p0 = episode_name(p, shape == SC_DRF_READ_LATER ? r : w);
  const char *p1 = episode_name(p, shape == SC_DRF_READ_LATER ? w : r);
  const char *doc = cli_format("scopecat gpu drf, seed %" PRIu64 ": %s",
                               m->seed, cli_format(what, p0, p1));
  const char *name = cli_format("drf-s%" PRIu64 "-e%lld-a%d", m->seed, r,
                                m->action);
  const char *path = cli_format("%s/%s.litmus", dir, name), *src;
  sc_error *err;
  if (sc_drf_litmus(shape, &reader, &writer, name, doc, &src, &err) != SC_OK)
    return cli_format("%s: %s", path, sc_error_message(err));
  FILE *f = fopen(path, "w");
  if (!f)
    return cli_format("%s: %s", path, strerror(errno));
  fputs(src, f);
  fclose(f);
  sc_test *t;
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
      int v = k < 0 ? o->round[i].profile : drf_knob_value(&o->round[i].set, k);
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
      fprintf(out, " %s:%lld", k < 0 ? drf_profile_names[val[j]]
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
              drf_profile_names[pr], n, loads, t, t > 0 ? loads / t : 0.0);
  }
  for (long long i = 0, shown = 0; i < o->nround && shown < MAXREC; i++)
    if (o->round[i].found) {
      fprintf(out, "  round %lld (seed %" PRIu64 ") found something: %s\n",
              i, o->round[i].set.seed,
              drf_setting_words(o->round[i].profile, &o->round[i].set));
      shown++;
    }
}

/* The injected fault: caught (when, in which round's setting), or not
 * within the run's bound. */
static void report_injected(FILE *out, const drf_cli *c, int inject,
                            const drf_outcome *o) {
  fprintf(out, "\nInjected fault %s: ", drf_inject_names[inject]);
  if (!drf_caught(o)) {
    double t = o->run_s + o->check_s;
    fprintf(out, "NOT caught in %lld rounds, %.3f s of GPU time (%s)\n",
            o->rounds, t,
            o->watchdog ? cli_format("the watchdog killed the program after "
                                     "%g s", c->timeout)
            : c->n && o->loads >= (unsigned long long)c->n
                ? cli_format("-n %ld loads checked", c->n)
                : cli_format("-max-seconds %g", c->max_seconds));
    return;
  }
  long long r = o->caught_round;
  fprintf(out, "caught after %.3f s of GPU time (round %lld, %s)\n",
          o->caught_s, r,
          r >= 0 && r < o->nround
              ? drf_setting_words(o->round[r].profile, &o->round[r].set)
              : "?");
}

void drf_report(FILE *out, const drf_cli *c, drf_params p,
                   const drf_outcome *o, const char *dir) {
  const drf_params base = p;
  fprintf(out, "scopecat gpu drf: data-race-free random testing\n");
  const char *kv[DRF_NKNOBS];
  for (int k = 0; k < DRF_NKNOBS; k++)
    kv[k] = c->fixed >> k & 1 || !o->device
                ? cli_format("%d", drf_knob_value(&p, k))
            : k == DRF_K_EPISODES ? cli_format("<=%d*", p.episodes)
                                  : "*";
  fprintf(out, "Parameters: ctas %d; tpb %d; episodes %s; actions %s; vars %s; "
               "locks %s; cta-locks %s; loads %s%%; spacing %s; seed %" PRIu64
               "; inject %s%s\n",
          p.ctas, p.tpb, kv[DRF_K_EPISODES], kv[DRF_K_ACTIONS], kv[DRF_K_VARS],
          kv[DRF_K_LOCKS], kv[DRF_K_CTA_LOCKS], kv[DRF_K_LOADS],
          kv[DRF_K_SPACING], p.seed, drf_inject_names[p.inject],
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
    report_injected(out, c, p.inject, o);
  fprintf(out, "\nVerdict: %s\n",
          p.inject != DRF_INJ_NONE && o->device && !drf_caught(o)
              ? "FAIL (the injected fault was not caught: the test missed a "
                "bug it must find)"
          : bad ? "FAIL (loads or locks did not behave as the order says)"
                : "PASS (every load read the last store before it)");
  if (c->argv) {
    fprintf(out, "Command: scopecat gpu drf");
    for (int i = 1; i < c->argc; i++)
      fprintf(out, " %s", c->argv[i]);
    fputc('\n', out);
  }
}
