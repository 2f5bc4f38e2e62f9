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
            : c->n ? cli_format("-n %ld loads checked", c->n)
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
