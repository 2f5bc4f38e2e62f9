/* drf_trace.c: `scopecat gpu drf -check TRACE`: read a trace the program
 * recorded (-trace) and check it on the host with the checker the GPU runs
 * (drf_prog.h); a malformed trace is refused at its file:line:col. */
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
      while (drf_inject_names[j] && strcmp(drf_inject_names[j], name))
        j++;
      if (!drf_inject_names[j])
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
  const char *why = drf_bad_params(p);
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
bool drf_check_trace(const char *path, drf_params *p, unsigned *fixed,
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
  int *have = NULL; /* each load's record: its line (0: none yet) */
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
      have = GC_MALLOC_ATOMIC(sizeof(int) * (size_t)nep * p->actions);
      if (!tick || !tick_line || !rec || !have)
        return trace_fail(&k, "out of memory for %s episodes", "its");
      for (long long e = 0; e < nep; e++)
        tick[e] = -2, tick_line[e] = 0;
      memset(have, 0, sizeof(int) * (size_t)nep * p->actions);
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
    /* one record per load: a second would replace the first, and the
     * verdict would depend on their order */
    if (have[e * p->actions + a]) {
      k.at = wstart;
      return trace_fail(&k, "a second load record for %s",
                        cli_format("action %lld of episode %lld (the first "
                                   "is on line %d)", a, e,
                                   have[e * p->actions + a]));
    }
    rec[e * p->actions + a] = (uint32_t)v;
    have[e * p->actions + a] = k.line;
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
      if (drf_knob_value(&q, i) != drf_knob_value(p, i)) {
        fprintf(stderr, "%s:%d:1: the params line is not the setting seed "
                        "%" PRIu64 " draws: %s %d, the draw gives %d\n",
                path, swarm_line, p->seed, drf_knob_names[i],
                drf_knob_value(p, i), drf_knob_value(&q, i));
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
  drf_add_round(o, &rd);
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
