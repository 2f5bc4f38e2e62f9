/* drf_prog.h: the program of `scopecat gpu drf` and its checker, one text
 * compiled twice: as C by the host (tools/gpu/drf_trace.c checks recorded
 * traces) and as CUDA by the generated program (drf_main.cuh checks on the GPU). */

/* A program is a pure function of its parameters and seed: thread t's
 * episode k (global episode e = t * episodes + k) takes lock
 * drf_episode_lock(), acquires it in the style drawn for it, runs
 * `actions` loads and stores to the variables that lock guards, and
 * releases it.  Every store writes a value naming its episode and action
 * (drf_value), so a value read names its writer.  The checker replays each
 * lock's episodes in the order the GPU recorded (the ticket, or the value
 * the acquiring CAS returned) against a reference copy of its variables:
 * a load must read the last store before it in that order. */
#ifndef SC_DRF_PROG_H
#define SC_DRF_PROG_H

#include <stdint.h>

#ifdef __CUDACC__
#define DRF_FN static inline __host__ __device__
#define DRF_CHECK_FN static inline __device__
#define DRF_HOST_FN static inline __host__
#define DRF_ADD(p, v) atomicAdd((p), (v))
#else
#define DRF_FN static inline
#define DRF_CHECK_FN static inline
#define DRF_HOST_FN static inline
#define DRF_ADD(p, v) drf_add((p), (v))
static inline unsigned long long drf_add(unsigned long long *p,
                                         unsigned long long v) {
  unsigned long long old = *p;
  *p += v;
  return old;
}
#endif

enum { DRF_MAXV = 64 };

/* Faults injected on purpose (-inject): each makes the program wrong. */
enum {
  DRF_INJ_NONE,
  DRF_INJ_RELEASE_RELAXED, /* every release a relaxed store, no fence */
  DRF_INJ_NO_ACQ_FENCE,    /* every acquire relaxed, its fence dropped */
  DRF_INJ_CTA_SHARED,      /* locks shared across CTAs use .cta */
  DRF_INJ_LOAD_OUTSIDE,    /* each episode's first load after its release */
  DRF_NINJ
};

enum { DRF_SCOPE_CTA, DRF_SCOPE_GPU, DRF_SCOPE_SYS };
enum { DRF_LOCK_TICKET, DRF_LOCK_CAS };

/* Coverage: operation x scope for the synchronisation, operation x cache
 * operator for the guarded accesses. */
enum {
  DRF_OP_TICKET_ADD, /* atom.relaxed.add: take a ticket */
  DRF_OP_SPIN_ACQ,   /* ld.acquire: wait for one's turn */
  DRF_OP_SPIN_RLX,   /* ld.relaxed (then a fence) */
  DRF_OP_CAS_ACQ,    /* atom.acquire.cas */
  DRF_OP_CAS_RLX,    /* atom.relaxed.cas (then a fence) */
  DRF_OP_FENCE,      /* fence.acq_rel */
  DRF_OP_ST_REL,     /* st.release */
  DRF_OP_ST_RLX,     /* st.relaxed */
  DRF_NSYNC
};
enum { DRF_NLDC = 6, DRF_NSTC = 5 };
enum { DRF_NCOVER = DRF_NSYNC * 3 + DRF_NLDC + DRF_NSTC };

typedef struct drf_params {
  int ctas, tpb;      /* CTAs, threads per CTA */
  int episodes;       /* episodes per thread */
  int actions;        /* loads and stores per episode */
  int vars;           /* variables per lock */
  int locks;          /* locks shared by every CTA */
  int cta_locks;      /* locks of each CTA, used by its threads only */
  int loads;          /* percent of actions that are loads */
  int spacing;        /* words between two slots (1: false sharing) */
  int inject;         /* DRF_INJ_* */
  uint64_t seed;      /* this round's seed */
} drf_params;

DRF_FN int drf_threads(const drf_params *p) { return p->ctas * p->tpb; }
DRF_FN long long drf_nepisodes(const drf_params *p) {
  return (long long)drf_threads(p) * p->episodes;
}
DRF_FN int drf_nlocks(const drf_params *p) {
  return p->locks + p->ctas * p->cta_locks;
}

DRF_FN uint64_t drf_hash(uint64_t seed, uint64_t a, uint64_t b, uint64_t c) {
  uint64_t z = seed * 0x9e3779b97f4a7c15ULL + a * 0xd1b54a32d192ed03ULL +
               b * 0xabc98388fb8fac03ULL + c * 0x8cb92ba72f3d8dd7ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* ---- swarm testing (Groce et al.) ----------------------------------------
 * Each round draws its own setting of the knobs below from its seed: a
 * quarter of the rounds are "contended" (a few locks shared by all CTAs,
 * no CTA locks, short episodes: where a weak release shows), the others
 * "wide" (many locks, long episodes: the throughput).  A knob in `fixed`
 * (a bit per DRF_K_*) keeps the base's value in every round; all fixed is
 * swarm off.  Drawn episodes per thread are at most the base's, lowered
 * so that no lock has more than DRF_SWARM_QUEUE episodes in a round (a
 * long queue is slow and trips the forward-progress check). */
enum {
  DRF_K_EPISODES, DRF_K_ACTIONS, DRF_K_VARS, DRF_K_LOCKS, DRF_K_CTA_LOCKS,
  DRF_K_LOADS, DRF_K_SPACING, DRF_NKNOBS
};
static const char *const drf_knob_names[] = {
    "episodes", "actions", "vars", "locks", "cta-locks", "loads", "spacing"};
enum { DRF_FIXED_ALL = (1 << DRF_NKNOBS) - 1, DRF_SWARM_QUEUE = 2048 };
enum { DRF_PROFILE_WIDE, DRF_PROFILE_CONTENDED, DRF_PROFILE_FIXED };
/* The largest value a drawn knob takes (actions: values must fit in 32
 * bits; spacing: memory). */
enum {
  DRF_SWARM_MAX_ACTIONS = 32, DRF_SWARM_MAX_SPACING = 32,
  DRF_SWARM_MAX_LOCKS = 16384, DRF_SWARM_MAX_CTA_LOCKS = 64
};

DRF_HOST_FN int drf_pick(uint64_t seed, int knob, const int *list, int n) {
  return list[drf_hash(seed, 5, (uint64_t)knob + 1, 0) % (uint64_t)n];
}
DRF_HOST_FN int drf_profile(uint64_t seed, unsigned fixed) {
  if ((fixed & DRF_FIXED_ALL) == DRF_FIXED_ALL)
    return DRF_PROFILE_FIXED;
  return drf_hash(seed, 5, 0, 0) % 4 == 0 ? DRF_PROFILE_CONTENDED
                                          : DRF_PROFILE_WIDE;
}
/* The setting of the round of seed `seed`: the base's knobs where fixed,
 * drawn ones elsewhere; ctas, tpb and inject are always the base's. */
DRF_HOST_FN drf_params drf_swarm(const drf_params *base, uint64_t seed,
                            unsigned fixed) {
  static const int w_actions[] = {8, 16, 32, 32}, c_actions[] = {1, 2, 4, 4, 8};
  static const int w_vars[] = {2, 4, 8, 16, 64}, c_vars[] = {1, 2, 4};
  static const int w_locks[] = {256, 1024, 1024, 4096, 16384},
                   c_locks[] = {32, 64, 128, 128, 256};
  static const int w_cta[] = {0, 1, 8, 8, 64};
  static const int w_loads[] = {25, 50, 50, 75, 90},
                   c_loads[] = {25, 50, 50, 75};
  static const int spacings[] = {1, 1, 1, 2, 8, 32};
  drf_params p = *base;
  p.seed = seed;
  int prof = drf_profile(seed, fixed);
  if (prof == DRF_PROFILE_FIXED)
    return p;
  int c = prof == DRF_PROFILE_CONTENDED;
#define DRF_DRAW(k, field, wl, cl)                                          \
  if (!(fixed >> (k) & 1))                                                  \
    p.field = c ? drf_pick(seed, k, cl, (int)(sizeof cl / sizeof *cl))      \
                : drf_pick(seed, k, wl, (int)(sizeof wl / sizeof *wl));
  DRF_DRAW(DRF_K_ACTIONS, actions, w_actions, c_actions)
  DRF_DRAW(DRF_K_VARS, vars, w_vars, c_vars)
  DRF_DRAW(DRF_K_LOCKS, locks, w_locks, c_locks)
  DRF_DRAW(DRF_K_LOADS, loads, w_loads, c_loads)
  DRF_DRAW(DRF_K_SPACING, spacing, spacings, spacings)
#undef DRF_DRAW
  if (!(fixed >> DRF_K_CTA_LOCKS & 1))
    p.cta_locks = c ? 0 : drf_pick(seed, DRF_K_CTA_LOCKS, w_cta, 5);
  if (p.locks == 0 && p.cta_locks == 0)
    p.cta_locks = 1;
  if (!(fixed >> DRF_K_EPISODES & 1)) {
    /* the longest queue: a shared lock's, or a CTA lock's */
    for (;;) {
      double all = (double)p.ctas * p.tpb * p.episodes;
      double share = p.cta_locks ? 0.5 : 1.0;
      double q = p.locks ? all * share / p.locks : 0;
      double qc = p.cta_locks ? (double)p.tpb * p.episodes *
                                    (p.locks ? 0.5 : 1.0) / p.cta_locks
                              : 0;
      if ((q <= DRF_SWARM_QUEUE && qc <= DRF_SWARM_QUEUE) || p.episodes == 1)
        break;
      p.episodes = p.episodes / 2 > 0 ? p.episodes / 2 : 1;
    }
  }
  return p;
}

/* The episode's lock: one shared by all CTAs or one of its own CTA's. */
DRF_FN int drf_episode_lock(const drf_params *p, long long e) {
  uint64_t h = drf_hash(p->seed, 1, (uint64_t)e, 0);
  int cta = (int)(e / p->episodes) / p->tpb;
  if (p->locks > 0 && (p->cta_locks == 0 || (h & 1)))
    return (int)((h >> 8) % (uint64_t)p->locks);
  return p->locks + cta * p->cta_locks +
         (int)((h >> 8) % (uint64_t)p->cta_locks);
}
/* Acquire with an acquire operation (1) or a relaxed one and a fence (0);
 * release with a release store (1) or a fence and a relaxed store (0). */
DRF_FN int drf_acq_style(const drf_params *p, long long e) {
  if (p->inject == DRF_INJ_NO_ACQ_FENCE)
    return 0;
  return (int)(drf_hash(p->seed, 1, (uint64_t)e, 0) >> 4 & 1);
}
DRF_FN int drf_rel_style(const drf_params *p, long long e) {
  if (p->inject == DRF_INJ_RELEASE_RELAXED)
    return 0;
  return (int)(drf_hash(p->seed, 1, (uint64_t)e, 0) >> 5 & 1);
}
DRF_FN int drf_lock_kind(const drf_params *p, int lock) {
  return (int)(drf_hash(p->seed, 2, (uint64_t)lock, 0) & 1);
}
/* A CTA's own lock may use .cta (scoped race freedom); a shared one must
 * use .gpu or wider, unless the fault says otherwise. */
DRF_FN int drf_lock_scope(const drf_params *p, int lock) {
  uint64_t h = drf_hash(p->seed, 2, (uint64_t)lock, 0) >> 1;
  if (lock < p->locks)
    return p->inject == DRF_INJ_CTA_SHARED ? DRF_SCOPE_CTA
                                           : (h & 1) ? DRF_SCOPE_SYS
                                                     : DRF_SCOPE_GPU;
  return (h & 3) < 2 ? DRF_SCOPE_CTA : (h & 3) == 2 ? DRF_SCOPE_GPU
                                                    : DRF_SCOPE_SYS;
}

/* Action a of episode e: its variable (of the lock's), load or store,
 * cache operator (loads: none ca cg cs lu cv; stores: none wb cg cs wt). */
typedef struct drf_action {
  int var, load, cop;
} drf_action;
DRF_FN drf_action drf_episode_action(const drf_params *p, long long e, int a) {
  uint64_t h = drf_hash(p->seed, 3, (uint64_t)e, (uint64_t)a);
  drf_action x;
  x.var = (int)(h % (uint64_t)p->vars);
  x.load = (int)((h >> 20) % 100) < p->loads;
  x.cop = (int)((h >> 40) % (uint64_t)(x.load ? DRF_NLDC : DRF_NSTC));
  return x;
}
/* The action moved out of its episode by DRF_INJ_LOAD_OUTSIDE: the
 * episode's first load (-1: none). */
DRF_FN int drf_moved_load(const drf_params *p, long long e) {
  if (p->inject != DRF_INJ_LOAD_OUTSIDE)
    return -1;
  for (int a = 0; a < p->actions; a++)
    if (drf_episode_action(p, e, a).load)
      return a;
  return -1;
}

/* The value action a of episode e stores: never 0, the initial value. */
DRF_FN uint32_t drf_value(const drf_params *p, long long e, int a) {
  return (uint32_t)(e * p->actions + a + 1);
}

/* Slots: lock l's two words (ticket and turn, or the CAS lock's word) are
 * 2l and 2l+1, its variables follow all the locks' words. */
DRF_FN long long drf_nslots(const drf_params *p) {
  return (long long)drf_nlocks(p) * (2 + p->vars);
}
DRF_FN long long drf_var_slot(const drf_params *p, int lock, int var) {
  return 2LL * drf_nlocks(p) + (long long)lock * p->vars + var;
}

/* The synchronisation operations of one episode, counted in cover[]. */
DRF_FN int drf_cover_sync(int op, int scope) { return op * 3 + scope; }
DRF_FN int drf_cover_load(int cop) { return DRF_NSYNC * 3 + cop; }
DRF_FN int drf_cover_store(int cop) { return DRF_NSYNC * 3 + DRF_NLDC + cop; }

DRF_FN void drf_cover_episode(const drf_params *p, long long e,
                              unsigned long long *cover) {
  int lock = drf_episode_lock(p, e), sc = drf_lock_scope(p, lock);
  int acq = drf_acq_style(p, e), rel = drf_rel_style(p, e);
  if (drf_lock_kind(p, lock) == DRF_LOCK_TICKET) {
    cover[drf_cover_sync(DRF_OP_TICKET_ADD, sc)]++;
    cover[drf_cover_sync(acq ? DRF_OP_SPIN_ACQ : DRF_OP_SPIN_RLX, sc)]++;
  } else {
    cover[drf_cover_sync(acq ? DRF_OP_CAS_ACQ : DRF_OP_CAS_RLX, sc)]++;
  }
  if (!acq && p->inject != DRF_INJ_NO_ACQ_FENCE)
    cover[drf_cover_sync(DRF_OP_FENCE, sc)]++;
  if (!rel && p->inject != DRF_INJ_RELEASE_RELAXED)
    cover[drf_cover_sync(DRF_OP_FENCE, sc)]++;
  cover[drf_cover_sync(rel ? DRF_OP_ST_REL : DRF_OP_ST_RLX, sc)]++;
}

/* One wrong load: the episode and action, what it read, what the order
 * says it must read, and the reading episode's place in its lock's order. */
typedef struct drf_mismatch {
  long long episode;
  int action, place;
  uint32_t seen, expected;
} drf_mismatch;

typedef struct drf_tally {
  unsigned long long loads, stores, episodes;
  unsigned long long mismatches;
} drf_tally;

/* Replay lock `lock`'s episodes, owner[0..n) in its order (-1: a place no
 * episode recorded), against a reference copy of its variables; loads of
 * episode e are rec[e * actions + a].  Wrong loads go to mm[] (at most
 * cap, the count in tally->mismatches, which may be shared: DRF_ADD). */
DRF_CHECK_FN void drf_check_lock(const drf_params *p, int lock,
                           const long long *owner, long long n,
                           const uint32_t *rec, drf_tally *tally,
                           unsigned long long *cover, drf_mismatch *mm,
                           unsigned long long cap) {
  uint32_t ref[DRF_MAXV];
  (void)lock;
  for (int v = 0; v < p->vars; v++)
    ref[v] = 0;
  unsigned long long loads = 0, stores = 0, eps = 0;
  for (long long k = 0; k < n; k++) {
    long long e = owner[k];
    if (e < 0)
      continue;
    eps++;
    drf_cover_episode(p, e, cover);
    for (int a = 0; a < p->actions; a++) {
      drf_action x = drf_episode_action(p, e, a);
      if (!x.load) {
        ref[x.var] = drf_value(p, e, a);
        stores++;
        cover[drf_cover_store(x.cop)]++;
        continue;
      }
      loads++;
      cover[drf_cover_load(x.cop)]++;
      uint32_t seen = rec[e * p->actions + a];
      if (seen != ref[x.var]) {
        unsigned long long i = DRF_ADD(&tally->mismatches, 1ULL);
        if (i < cap) {
          mm[i].episode = e;
          mm[i].action = a;
          mm[i].place = (int)k;
          mm[i].seen = seen;
          mm[i].expected = ref[x.var];
        }
      }
    }
  }
  DRF_ADD(&tally->loads, loads);
  DRF_ADD(&tally->stores, stores);
  DRF_ADD(&tally->episodes, eps);
}

#endif
