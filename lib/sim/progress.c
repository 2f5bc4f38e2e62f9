/* progress.c: progress models for -liveness (sc_progress), following
 * Dat3M's definitions (ProgressModel and the forward-progress encoding of
 * its ProgramEncoder): facts read there, the code is scopecat's.
 *
 * The threads form a tree by the scope tree: the system holds devices, a
 * device kernels, a kernel CTAs, a CTA warps, a warp threads (a group's id
 * is its place in the test, a thread's its index).  Progress flows down
 * from the system, which has it: a group with progress gives it to the
 * members its model names (sc_progress in scopecat.h: FAIR all, HSA the
 * lowest-id one that can run, OBE the started ones, HSA_OBE both, LOBE the
 * started ones and every lower id, UNFAIR none) and, when some member can
 * run (is not finished nor blocked at a barrier), to at least one member
 * that can (minimal progress).  A thread with progress cannot stop: it
 * finishes, spins for ever or waits at a barrier for ever.  A thread
 * without it may be halted anywhere, not started at all included.  Dat3M
 * lets its solver pick which member gets the minimal progress; here each
 * group is checked for some member that can take it (a halted thread
 * cannot), which is the same question asked member by member.
 *
 * The liveness search (simulate.c) gets the halted runs from
 * sci_progress_add_halts and keeps a combination of runs only where
 * sci_progress_allows it; liveness.c still asks for a stuck thread. */
#include "sim/progress.h"

#include "util/gcmem.h"

#include <ctype.h>
#include <stdint.h>
#include <string.h>

/* ---- Names ---------------------------------------------------------------- */

static const char *const model_names[] = {"fair", "hsa", "obe", "hsa_obe",
                                          "lobe", "unfair"};
enum { NMODELS = (int)(sizeof model_names / sizeof model_names[0]) };

/* Level names in sc_progress_level order; "kernel" is read as "gpu". */
static const char *const level_names[SC_PROGRESS_LEVELS] = {
    "warp", "cta", "gpu", "device", "sys"};

/* Whether text[0..n-1] is `word`, case aside. */
static bool word_is(const char *text, size_t n, const char *word) {
  if (strlen(word) != n)
    return false;
  for (size_t i = 0; i < n; i++)
    if (tolower((unsigned char)text[i]) != word[i])
      return false;
  return true;
}

static int model_of(const char *text, size_t n) {
  for (int m = 0; m < NMODELS; m++)
    if (word_is(text, n, model_names[m]))
      return m;
  return -1;
}

/* A level's index, SC_PROGRESS_LEVELS for "default", -1 for none. */
static int level_of(const char *text, size_t n) {
  for (int l = 0; l < SC_PROGRESS_LEVELS; l++)
    if (word_is(text, n, level_names[l]))
      return l;
  if (word_is(text, n, "kernel"))
    return SC_PROGRESS_GPU;
  return word_is(text, n, "default") ? SC_PROGRESS_LEVELS : -1;
}

static int refuse(const char **why, const char *what) {
  if (why)
    *why = what;
  return -1;
}

#define MODELS "fair, hsa, obe, hsa_obe, lobe or unfair"

int sc_progress_parse(const char *text, sc_progress *out, const char **why) {
  int whole = model_of(text, strlen(text));
  if (whole >= 0) {
    for (int l = 0; l < SC_PROGRESS_LEVELS; l++)
      out->at[l] = (sc_progress_model)whole;
    return 0;
  }
  if (!strchr(text, '='))
    return refuse(why, "a progress model (" MODELS ") or LEVEL=MODEL pairs");
  int given[SC_PROGRESS_LEVELS + 1];
  for (int l = 0; l <= SC_PROGRESS_LEVELS; l++)
    given[l] = -1;
  for (const char *p = text;; p++) { /* each item, and the comma after it */
    size_t len = strcspn(p, ","), key = strcspn(p, "=");
    if (key >= len)
      return refuse(why, "LEVEL=MODEL pairs separated by commas");
    int l = level_of(p, key), m = model_of(p + key + 1, len - key - 1);
    if (l < 0)
      return refuse(why, "a level warp, cta, gpu (or kernel), device, sys or "
                         "default before '='");
    if (m < 0)
      return refuse(why, "a progress model (" MODELS ") after '='");
    if (given[l] >= 0)
      return refuse(why, "each level named once");
    given[l] = m;
    p += len;
    if (!*p)
      break;
  }
  int dflt = given[SC_PROGRESS_LEVELS] >= 0 ? given[SC_PROGRESS_LEVELS] : 0;
  for (int l = 0; l < SC_PROGRESS_LEVELS; l++)
    out->at[l] = (sc_progress_model)(given[l] >= 0 ? given[l] : dflt);
  return 0;
}

const char *sc_progress_name(const sc_progress *p) {
  sc_progress_model dflt = p->at[SC_PROGRESS_SYS];
  const char *name = "";
  for (int l = 0; l < SC_PROGRESS_LEVELS; l++)
    if (p->at[l] != dflt)
      name = sci_printf("%s%s=%s,", name, level_names[l], model_names[p->at[l]]);
  if (!*name)
    return model_names[dflt];
  return sci_printf("%sdefault=%s", name, model_names[dflt]);
}

sci_halts sci_progress_halts(const sc_progress *p) {
  sci_halts h = SCI_HALTS_NONE;
  for (int l = 0; l < SC_PROGRESS_LEVELS; l++)
    if (p->at[l] == SC_PROGRESS_HSA || p->at[l] == SC_PROGRESS_UNFAIR)
      return SCI_HALTS_ANYWHERE;
    else if (p->at[l] != SC_PROGRESS_FAIR)
      h = SCI_HALTS_UNSTARTED;
  return h;
}

/* ---- Halted runs -------------------------------------------------------------- */

/* The halted runs met so far of one thread, by a hash of their events:
 * slot[i] - 1 is the index of one in the thread's runs (0: a free slot;
 * indices, as the runs' array moves when it grows). */
typedef struct halt_set {
  int *slot;
  uint64_t *hash;
  size_t cap, n;
} halt_set;

static uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15u + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdu;
}

static uint64_t event_hash(uint64_t h, const sc_trace_event *e) {
  h = mix(h, (uint64_t)e->pc);
  h = mix(h, (uint64_t)e->kind);
  h = mix(h, (uint64_t)e->loc);
  return mix(h, (uint64_t)e->value);
}

/* Two prefixes with the same accesses at the same places are one run:
 * a thread's run is fixed by the values its reads return. */
static bool same_prefix(const sc_trace *a, const sc_trace_event *ev, int n) {
  if (a->nevents != n)
    return false;
  for (int i = 0; i < n; i++)
    if (a->events[i].pc != ev[i].pc || a->events[i].kind != ev[i].kind ||
        a->events[i].loc != ev[i].loc || a->events[i].value != ev[i].value)
      return false;
  return true;
}

static void grow_set(halt_set *s) {
  size_t cap = s->cap ? 2 * s->cap : 64;
  int *slot = sci_alloc_atomic(sizeof(int) * cap);
  uint64_t *hash = sci_alloc_atomic(sizeof(uint64_t) * cap);
  memset(slot, 0, sizeof(int) * cap);
  for (size_t i = 0; i < s->cap; i++) {
    if (!s->slot[i])
      continue;
    size_t j = s->hash[i] & (cap - 1);
    while (slot[j])
      j = (j + 1) & (cap - 1);
    slot[j] = s->slot[i];
    hash[j] = s->hash[i];
  }
  s->slot = slot;
  s->hash = hash;
  s->cap = cap;
}

/* Add the prefix of n events of `from` (hash h) to the thread's runs,
 * once; `from` is a copy, not in out->traces (which may move). */
static void add_prefix(halt_set *s, sc_thread_traces *out, const sc_trace *from,
                       int n, uint64_t h) {
  if (2 * (s->n + 1) > s->cap)
    grow_set(s);
  size_t i = h & (s->cap - 1);
  for (; s->slot[i]; i = (i + 1) & (s->cap - 1))
    if (s->hash[i] == h &&
        same_prefix(&out->traces[s->slot[i] - 1], from->events, n))
      return;
  sci_grow(&out->traces, &out->cap, out->ntraces + 1, sizeof(sc_trace));
  sc_trace *tr = &out->traces[out->ntraces++];
  *tr = *from;
  tr->nevents = n;
  tr->stuck = SC_STUCK_HALTED;
  tr->spin_from = tr->infix_from = 0;
  tr->fault = NULL;
  s->hash[i] = h;
  s->slot[i] = out->ntraces;
  s->n++;
}

/* Whether a run may be halted just before its event k (k == nevents: at
 * its end, for a run the bound cut; a complete run's end is its finish,
 * a stuck run goes on in another).  Never between an atom's read and
 * write; when fewer events are safe, only before a write, an atom or a
 * barrier, the events that others may wait for. */
static bool halt_point(const sc_trace *tr, int k, bool cut, bool fewer_events_safe) {
  if (k == 0)
    return true;
  if (tr->events[k - 1].kind == SC_EV_READ && tr->events[k - 1].rmw_partner == k)
    return false;
  if (k == tr->nevents)
    return cut;
  if (!fewer_events_safe)
    return true;
  const sc_trace_event *e = &tr->events[k];
  return e->kind == SC_EV_BARRIER || e->kind == SC_EV_WRITE ||
         (e->kind == SC_EV_READ && e->rmw_partner > k);
}

static void add_halts_of(halt_set *s, sc_thread_traces *out, const sc_trace *tr,
                         bool cut, bool fewer_events_safe) {
  uint64_t h = 0;
  for (int k = 0; k <= tr->nevents; k++) {
    if (k > 0)
      h = event_hash(h, &tr->events[k - 1]);
    if (halt_point(tr, k, cut, fewer_events_safe))
      add_prefix(s, out, tr, k, h);
  }
}

void sci_progress_add_halts(const sc_test *t, const sc_progress *p,
                            bool fewer_events_safe, sc_thread_traces *all) {
  sci_halts how = sci_progress_halts(p);
  if (how == SCI_HALTS_NONE)
    return;
  for (int th = 0; th < t->nthreads; th++) {
    sc_thread_traces *out = &all[th];
    halt_set s = {0};
    if (out->ntraces == 0)
      continue;
    if (how == SCI_HALTS_UNSTARTED) { /* not started: no event */
      sc_trace first = out->traces[0];
      add_prefix(&s, out, &first, 0, 0);
      continue;
    }
    int whole = out->ntraces;
    for (int i = 0; i < whole; i++) {
      sc_trace run = out->traces[i];
      add_halts_of(&s, out, &run, false, fewer_events_safe);
    }
    for (int i = 0; i < out->ncut; i++)
      add_halts_of(&s, out, &out->cut[i], true, fewer_events_safe);
  }
}

/* ---- Whether a combination's halted threads may be halted ------------------- */

/* What a thread's chosen run says of it. */
typedef struct member {
  int id;
  bool can_run;  /* not finished nor blocked: halted or spinning */
  bool started;
  bool halted;
} member;

/* The levels of sc_thread.place, from the system's members down: a
 * progress level's members are the groups of the next place level. */
static const int member_place[SC_PROGRESS_LEVELS] = {
    -1 /* warp: threads */, SC_LEVEL_WARP, SC_LEVEL_CTA, SC_LEVEL_KERNEL,
    SC_LEVEL_DEVICE};

typedef struct tree {
  const sc_test *t;
  const sc_progress *p;
  const member *threads;
} tree;

static bool can_take_progress(const tree *w, int level, const int *th, int n);

/* The members of the group th[0..n-1] at `level`: in kid[i] the threads of
 * member i (ordered by id), kn[i] their number; how many members. */
static int members_of(const tree *w, int level, const int *th, int n,
                      int *ids, int **kid, int *kn) {
  int m = 0;
  for (int i = 0; i < n; i++) {
    int id = member_place[level] < 0 ? th[i]
                                      : w->t->threads[th[i]].place[member_place[level]];
    int j = 0;
    while (j < m && ids[j] != id)
      j++;
    if (j == m) {
      int at = m++;
      while (at > 0 && ids[at - 1] > id) { /* keep them sorted by id */
        ids[at] = ids[at - 1];
        kid[at] = kid[at - 1];
        kn[at] = kn[at - 1];
        at--;
      }
      ids[at] = id;
      kid[at] = sci_alloc_atomic(sizeof(int) * (size_t)(n + 1));
      kn[at] = 0;
      j = at;
    }
    kid[j][kn[j]++] = th[i];
  }
  return m;
}

/* The members a group with progress must give it to under `model`
 * (forced[i]), from what its members can do and have done. */
static void forced_members(sc_progress_model model, int m, const bool *can_run,
                           const bool *started, bool *forced) {
  bool any_started_above = false;
  bool hsa_done = false;
  for (int i = m - 1; i >= 0; i--) {
    any_started_above = any_started_above || started[i];
    forced[i] = model == SC_PROGRESS_FAIR ||
                (model == SC_PROGRESS_LOBE && any_started_above) ||
                ((model == SC_PROGRESS_OBE || model == SC_PROGRESS_HSA_OBE) &&
                 started[i]);
  }
  for (int i = 0; i < m && !hsa_done; i++)
    if (can_run[i] && (model == SC_PROGRESS_HSA || model == SC_PROGRESS_HSA_OBE)) {
      forced[i] = true;
      hsa_done = true;
    }
}

/* Whether the group of threads th[0..n-1] at `level` (its members being
 * those of the level below) can have progress: every member its model
 * forces can, and if a member can run, some member that can run can. */
static bool can_take_progress(const tree *w, int level, const int *th, int n) {
  if (level < 0) /* a thread */
    return !w->threads[th[0]].halted;
  int *ids = sci_alloc_atomic(sizeof(int) * (size_t)(n + 1));
  int **kid = sci_alloc(sizeof(int *) * (size_t)(n + 1));
  int *kn = sci_alloc_atomic(sizeof(int) * (size_t)(n + 1));
  bool *can_run = sci_alloc_atomic(sizeof(bool) * (size_t)(3 * n + 3));
  bool *started = can_run + n + 1, *forced = started + n + 1;
  int m = members_of(w, level, th, n, ids, kid, kn);
  for (int i = 0; i < m; i++) {
    can_run[i] = started[i] = false;
    for (int k = 0; k < kn[i]; k++) {
      can_run[i] |= w->threads[kid[i][k]].can_run;
      started[i] |= w->threads[kid[i][k]].started;
    }
  }
  forced_members(w->p->at[level], m, can_run, started, forced);
  bool minimal_done = true;
  for (int i = 0; i < m; i++)
    minimal_done &= !can_run[i];
  for (int i = 0; i < m; i++)
    if (forced[i]) {
      if (!can_take_progress(w, level - 1, kid[i], kn[i]))
        return false;
      minimal_done |= can_run[i];
    }
  for (int i = 0; i < m && !minimal_done; i++)
    minimal_done = can_run[i] && can_take_progress(w, level - 1, kid[i], kn[i]);
  return minimal_done;
}

bool sci_progress_allows(const sc_test *t, const sc_progress *p,
                         const sc_trace *const *chosen) {
  int n = t->nthreads;
  member *threads = sci_alloc_atomic(sizeof(member) * (size_t)(n + 1));
  int *all = sci_alloc_atomic(sizeof(int) * (size_t)(n + 1));
  bool any_halted = false;
  for (int th = 0; th < n; th++) {
    const sc_trace *tr = chosen[th];
    member *mb = &threads[th];
    mb->id = th;
    mb->halted = tr->stuck == SC_STUCK_HALTED;
    mb->can_run = mb->halted || tr->stuck == SC_STUCK_SPIN;
    mb->started = !mb->halted || tr->nevents > 0;
    all[th] = th;
    any_halted |= mb->halted;
  }
  if (!any_halted)
    return true; /* every model lets every thread run */
  tree w = {t, p, threads};
  return can_take_progress(&w, SC_PROGRESS_LEVELS - 1, all, n);
}
