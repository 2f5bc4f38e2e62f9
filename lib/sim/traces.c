/* traces.c: the traces a simulation combines.  The values each location
 * may hold are a least fixpoint: initial values, then the values written
 * by trace combinations in which every read can find a write of its value,
 * until nothing new appears (each round a walk over those combinations, or,
 * where they are too many, a question to the solver: solve_round); values
 * out of thin air are never guessed, as herd7's equations never invent
 * them.  Also the odometer over one trace per thread, which write may feed
 * which read, the shortest-first order of the symbolic engine and
 * -liveness, and each thread's traces grouped by layout (the layout
 * search's: simulate.c). */
#include "sim/traces.h"

#include "sim/execution.h"
#include "sim/symbolic.h"

#include "util/error.h"
#include "util/gcmem.h"

#include <stdlib.h>
#include <string.h>

#define MAX_VALUES_PER_LOCATION 256

/* ---- The deadline and the budget ------------------------------------------- */

bool sci_sim_clock_expired(const sim_clock *c) {
  return c->timeout > 0 && sc_seconds() - c->start > c->timeout;
}

sc_status sci_sim_clock_timeout(const sim_clock *c, sc_error **err) {
  return sci_fail(err, SC_ERR_LIMIT, c->file, 0, 0,
                 "expected to finish within %g s (the -timeout limit)", c->timeout);
}

sc_status sci_sim_clock_step(sim_clock *c, long steps, const char *what, sc_error **err) {
  if (steps > c->max_steps && c->max_steps > 0)
    return sci_fail(err, SC_ERR_LIMIT, c->file, 0, 0,
                   "expected at most %ld %s (the -max-executions limit)",
                   c->max_steps, what);
  if ((++c->ticks & 255) == 0 && sci_sim_clock_expired(c))
    return sci_sim_clock_timeout(c, err);
  return SC_OK;
}

/* Whether the write at position wi of trace `tw` may be what the read at
 * position ri of trace `tr` reads: same location and value, and the write's
 * value must not be made from the read itself (its own atom's write, or a
 * write of the same run whose data depends on it): such a value would come
 * out of thin air, as herd7's equations (v = v + 0) leave it undetermined. */
bool sci_sim_may_feed_but_value(const sc_trace *tw, int wi, const sc_trace *tr, int ri) {
  const sc_trace_event *w = &tw->events[wi], *r = &tr->events[ri];
  if (w->kind != SC_EV_WRITE || w->loc != r->loc)
    return false;
  if (tw != tr)
    return true;
  return w->rmw_partner != ri && !(w->data_deps & ((uint64_t)1 << ri));
}

bool sci_sim_may_feed(const sc_trace *tw, int wi, const sc_trace *tr, int ri) {
  return tw->events[wi].value == tr->events[ri].value &&
         sci_sim_may_feed_but_value(tw, wi, tr, ri);
}

/* ---- Layouts ------------------------------------------------------------- */

/* Whether two traces of a thread share a layout and end alike. */
static bool same_group(const sc_trace *a, const sc_trace *b) {
  return sci_exec_same_trace_layout(a, b) && a->spin_from == b->spin_from &&
         a->infix_from == b->infix_from && a->fault == b->fault;
}

/* One thread's traces in groups of one layout, in *ngroups. */
static sim_trace_group *group_thread(const sc_thread_traces *tt, int *ngroups) {
  sim_trace_group *g = sci_alloc(sizeof(sim_trace_group) * (size_t)(tt->ntraces + 1));
  int *group_of = sci_alloc_atomic(sizeof(int) * (size_t)(tt->ntraces + 1));
  int *first = sci_alloc_atomic(sizeof(int) * (size_t)(tt->ntraces + 1));
  int n = 0;
  for (int i = 0; i < tt->ntraces; i++) {
    int k = 0;
    while (k < n && !same_group(&tt->traces[first[k]], &tt->traces[i]))
      k++;
    if (k == n)
      first[n++] = i;
    group_of[i] = k;
    g[k].n++;
  }
  for (int k = 0; k < n; k++) {
    g[k].traces = sci_alloc(sizeof(sc_trace *) * (size_t)(g[k].n + 1));
    g[k].n = 0;
  }
  for (int i = 0; i < tt->ntraces; i++)
    g[group_of[i]].traces[g[group_of[i]].n++] = &tt->traces[i];
  *ngroups = n;
  return g;
}

sim_layouts *sci_sim_layouts(const sc_thread_traces *all, int nthreads) {
  sim_layouts *l = sci_alloc(sizeof *l);
  l->combinations = l->layouts = 1;
  l->groups = sci_alloc(sizeof(sim_trace_group *) * (size_t)(nthreads + 1));
  l->ngroups = sci_alloc_atomic(sizeof(int) * (size_t)(nthreads + 1));
  for (int th = 0; th < nthreads; th++) {
    l->groups[th] = group_thread(&all[th], &l->ngroups[th]);
    l->combinations *= all[th].ntraces;
    l->layouts *= l->ngroups[th];
  }
  return l;
}


/* The odometer's turn: the highest digit it turned, nthreads after the
 * last combination (every digit back to zero). */
static int turn_digits(int *pick, const sc_thread_traces *all, int nthreads) {
  int th = 0;
  while (th < nthreads && ++pick[th] == all[th].ntraces)
    pick[th++] = 0;
  return th;
}

/* The next choice of one trace per thread (an odometer); false after the
 * last, when `pick` is back to all zeros. */
bool sci_sim_next_choice(int *pick, const sc_thread_traces *all, int nthreads) {
  return turn_digits(pick, all, nthreads) < nthreads;
}

void sci_sim_choose(const sc_trace **chosen, const int *pick,
                   const sc_thread_traces *all, int nthreads) {
  for (int th = 0; th < nthreads; th++)
    chosen[th] = &all[th].traces[pick[th]];
}

bool sci_sim_any_thread_without_traces(const sc_thread_traces *all, int n) {
  for (int th = 0; th < n; th++)
    if (all[th].ntraces == 0)
      return true; /* every path of this thread was cut by the unroll bound */
  return false;
}

/* Can these traces form an execution: does every read find a write of its
 * value, the initial one or one of the chosen traces? */
bool sci_sim_reads_can_be_fed(const sc_test *t, const sc_trace **chosen) {
  for (int a = 0; a < t->nthreads; a++)
    for (int i = 0; i < chosen[a]->nevents; i++) {
      const sc_trace_event *r = &chosen[a]->events[i];
      if (r->kind != SC_EV_READ || r->value == sci_value_of(t->locs[r->loc].init))
        continue;
      bool fed = false;
      for (int b = 0; b < t->nthreads && !fed; b++)
        for (int j = 0; j < chosen[b]->nevents && !fed; j++)
          fed = sci_sim_may_feed(chosen[b], j, chosen[a], i);
      if (!fed)
        return false;
    }
  return true;
}

/* ---- The odometer over the combinations some write may feed ------------- */

/* Which combinations can be fed is a question of sets: each (location,
 * value) pair some trace writes gets a bit, and each trace two sets of
 * them, the pairs it writes and the pairs its reads need from another
 * thread (neither initial nor given by a write of its own that may feed
 * them, sci_sim_may_feed's rule).  A combination is fed exactly when each
 * thread's needs lie in the writes of the others: sci_sim_reads_can_be_fed
 * in a few word operations instead of a walk over every pair of a read and
 * a write.  xf-barrier-2.1.2 visits 5 million combinations for 65536 fed
 * ones: that walk was most of its time. */

/* One written value of a location. */
typedef struct loc_value {
  int loc;
  int64_t value;
} loc_value;

/* One trace's sets, `words` words each. */
typedef struct trace_sets {
  uint64_t *writes, *needs;
} trace_sets;

struct sim_feed_odometer {
  const sc_test *t;
  const sc_thread_traces *all;
  int n;
  const sim_clock *clock;
  unsigned ticks;
  loc_value *pairs; /* the bits: every pair some trace writes, sorted */
  int npairs;
  int words;        /* per set: npairs + 1 bits (the last: no write gives it) */
  trace_sets **sets; /* per thread, per trace */
  /* per k: the writes threads 0..k-1 have room for, per location (the
   * most any one trace of each makes there), and the pairs they may
   * write, whatever their traces */
  int *room;
  uint64_t *writable;
  /* per k, for the traces chosen for threads k..n-1: their writes and
   * their needs (scratch of settle, level by level) */
  uint64_t *suffix_writes, *suffix_needs;
  uint64_t *scratch;
  int *per_loc; /* scratch: needs per location */
  /* The value fixpoint's sets (sci_sim_feed_odometer_values), NULL when
   * none are attached; known: the pairs they hold; fresh[th][i]: the
   * pairs trace i of thread th writes that they lack. */
  sc_value_sets *vs;
  uint64_t *known;
  int **fresh;
};

static int by_loc_value(const void *a, const void *b) {
  const loc_value *x = a, *y = b;
  if (x->loc != y->loc)
    return x->loc < y->loc ? -1 : 1;
  return (x->value > y->value) - (x->value < y->value);
}

/* The bit of (loc, value); the last bit (npairs) when no trace writes it. */
static int pair_bit(const sim_feed_odometer *o, int loc, int64_t value) {
  loc_value key = {loc, value};
  const loc_value *p = bsearch(&key, o->pairs, (size_t)o->npairs, sizeof key, by_loc_value);
  return p ? (int)(p - o->pairs) : o->npairs;
}

static void set_bit(uint64_t *set, int bit) { set[bit / 64] |= UINT64_C(1) << (bit % 64); }

static uint64_t *words_at(const sim_feed_odometer *o, uint64_t *base, int k) {
  return base + (size_t)k * (size_t)o->words;
}

/* The pairs that some trace of some thread writes, sorted, each once. */
static void collect_pairs(sim_feed_odometer *o) {
  int cap = 1;
  for (int th = 0; th < o->n; th++)
    for (int i = 0; i < o->all[th].ntraces; i++)
      cap += o->all[th].traces[i].nevents;
  loc_value *set = sci_alloc_atomic(sizeof(loc_value) * (size_t)cap);
  int n = 0;
  for (int th = 0; th < o->n; th++)
    for (int i = 0; i < o->all[th].ntraces; i++)
      for (int e = 0; e < o->all[th].traces[i].nevents; e++) {
        const sc_trace_event *w = &o->all[th].traces[i].events[e];
        if (w->kind == SC_EV_WRITE)
          set[n++] = (loc_value){w->loc, w->value};
      }
  qsort(set, (size_t)n, sizeof(loc_value), by_loc_value);
  int kept = 0;
  for (int i = 0; i < n; i++)
    if (kept == 0 || by_loc_value(&set[kept - 1], &set[i]) != 0)
      set[kept++] = set[i];
  o->pairs = set;
  o->npairs = kept;
  o->words = (kept + 1 + 63) / 64;
}

/* Whether a write of trace tr itself may feed its read at ri. */
static bool fed_within(const sc_trace *tr, int ri) {
  for (int j = 0; j < tr->nevents; j++)
    if (sci_sim_may_feed(tr, j, tr, ri))
      return true;
  return false;
}

/* A trace's writes and needs. */
static trace_sets sets_of(const sim_feed_odometer *o, const sc_trace *tr) {
  size_t bytes = sizeof(uint64_t) * (size_t)o->words;
  trace_sets s = {sci_alloc_atomic(bytes), sci_alloc_atomic(bytes)};
  memset(s.writes, 0, bytes);
  memset(s.needs, 0, bytes);
  for (int i = 0; i < tr->nevents; i++) {
    const sc_trace_event *e = &tr->events[i];
    if (e->kind == SC_EV_WRITE)
      set_bit(s.writes, pair_bit(o, e->loc, e->value));
    else if (e->kind == SC_EV_READ && e->value != sci_value_of(o->t->locs[e->loc].init) &&
             !fed_within(tr, i))
      set_bit(s.needs, pair_bit(o, e->loc, e->value));
  }
  return s;
}

/* room[k+1]: room[k] and the most writes a trace of thread k makes at
 * each location. */
static void add_thread_room(sim_feed_odometer *o, int k, int *count) {
  int nl = o->t->nlocs;
  int *room = &o->room[(size_t)(k + 1) * (size_t)nl], *most = count + nl;
  memcpy(room, &o->room[(size_t)k * (size_t)nl], sizeof(int) * (size_t)nl);
  memset(most, 0, sizeof(int) * (size_t)nl);
  const sc_thread_traces *a = &o->all[k];
  for (int i = 0; i < a->ntraces; i++) {
    const sc_trace *tr = &a->traces[i];
    for (int e = 0; e < tr->nevents; e++)
      if (tr->events[e].kind == SC_EV_WRITE)
        count[tr->events[e].loc] = 0;
    for (int e = 0; e < tr->nevents; e++)
      if (tr->events[e].kind == SC_EV_WRITE &&
          ++count[tr->events[e].loc] > most[tr->events[e].loc])
        most[tr->events[e].loc] = count[tr->events[e].loc];
  }
  for (int l = 0; l < nl; l++)
    room[l] += most[l];
}

/* writable[k+1]: writable[k] and every pair a trace of thread k writes. */
static void add_thread_writes(sim_feed_odometer *o, int k) {
  uint64_t *next = words_at(o, o->writable, k + 1);
  memcpy(next, words_at(o, o->writable, k), sizeof(uint64_t) * (size_t)o->words);
  for (int i = 0; i < o->all[k].ntraces; i++)
    for (int w = 0; w < o->words; w++)
      next[w] |= o->sets[k][i].writes[w];
}

sim_feed_odometer *sci_sim_feed_odometer(const sc_test *t, const sc_thread_traces *all,
                                         const sim_clock *clock) {
  sim_feed_odometer *o = sci_alloc(sizeof *o);
  int n = t->nthreads, nl = t->nlocs;
  *o = (sim_feed_odometer){.t = t, .all = all, .n = n, .clock = clock};
  collect_pairs(o);
  o->sets = sci_alloc(sizeof(trace_sets *) * (size_t)(n + 1));
  for (int th = 0; th < n; th++) {
    o->sets[th] = sci_alloc(sizeof(trace_sets) * (size_t)(all[th].ntraces + 1));
    for (int i = 0; i < all[th].ntraces; i++)
      o->sets[th][i] = sets_of(o, &all[th].traces[i]);
  }
  size_t level_bytes = sizeof(uint64_t) * (size_t)(n + 1) * (size_t)o->words;
  o->writable = sci_alloc_atomic(level_bytes);
  o->suffix_writes = sci_alloc_atomic(level_bytes);
  o->suffix_needs = sci_alloc_atomic(level_bytes);
  memset(o->writable, 0, level_bytes);
  memset(o->suffix_writes, 0, level_bytes); /* level n: no thread, nothing */
  memset(o->suffix_needs, 0, level_bytes);
  o->scratch = sci_alloc_atomic(sizeof(uint64_t) * (size_t)o->words);
  o->room = sci_alloc_atomic(sizeof(int) * (size_t)(n + 1) * (size_t)(nl + 1));
  memset(o->room, 0, sizeof(int) * (size_t)(nl + 1));
  o->per_loc = sci_alloc_atomic(sizeof(int) * (size_t)(nl + 1));
  memset(o->per_loc, 0, sizeof(int) * (size_t)(nl + 1));
  int *count = sci_alloc_atomic(sizeof(int) * 2 * (size_t)(nl + 1));
  for (int k = 0; k < n; k++) {
    add_thread_writes(o, k);
    add_thread_room(o, k, count);
  }
  return o;
}

/* suffix_writes and suffix_needs of level k: level k+1's and those of the
 * trace chosen for thread k. */
static void enter_level(sim_feed_odometer *o, const int *pick, int k) {
  const trace_sets *s = &o->sets[k][pick[k]];
  uint64_t *w = words_at(o, o->suffix_writes, k), *nd = words_at(o, o->suffix_needs, k);
  const uint64_t *w1 = words_at(o, o->suffix_writes, k + 1);
  const uint64_t *n1 = words_at(o, o->suffix_needs, k + 1);
  for (int i = 0; i < o->words; i++) {
    w[i] = w1[i] | s->writes[i];
    nd[i] = n1[i] | s->needs[i];
  }
}

/* Whether the traces chosen for threads k..n-1 may still be fed once
 * threads 0..k-1 have theirs: each pair their reads need that they do
 * not write themselves some thread below k may write, and at each
 * location the threads below k have room for as many writes as such
 * values.  A necessary condition of sci_sim_reads_can_be_fed, so a
 * combination it rules out is one that would be dropped anyway. */
static bool suffix_may_be_fed(sim_feed_odometer *o, int k) {
  const uint64_t *w = words_at(o, o->suffix_writes, k), *nd = words_at(o, o->suffix_needs, k);
  const uint64_t *below = words_at(o, o->writable, k);
  const int *room = &o->room[(size_t)k * (size_t)o->t->nlocs];
  uint64_t *missing = o->scratch;
  bool any = false;
  for (int i = 0; i < o->words; i++) {
    missing[i] = nd[i] & ~w[i];
    if (missing[i] & ~below[i])
      return false; /* a pair no thread below k writes (or nobody: the last bit) */
    any |= missing[i] != 0;
  }
  if (!any)
    return true;
  bool fits = true;
  for (int i = 0; i < o->words; i++) /* distinct values a location lacks */
    for (uint64_t b = missing[i]; b; b &= b - 1) {
      int loc = o->pairs[i * 64 + __builtin_ctzll(b)].loc;
      fits &= ++o->per_loc[loc] <= room[loc];
    }
  for (int i = 0; i < o->words; i++)
    for (uint64_t b = missing[i]; b; b &= b - 1)
      o->per_loc[o->pairs[i * 64 + __builtin_ctzll(b)].loc] = 0;
  return fits;
}

/* Whether the whole combination (every level entered) is fed: each
 * thread's needs lie in the writes of the others.  Exactly
 * sci_sim_reads_can_be_fed. */
static bool all_fed(sim_feed_odometer *o, const int *pick) {
  uint64_t *before = o->scratch; /* the writes of threads 0..a-1 */
  memset(before, 0, sizeof(uint64_t) * (size_t)o->words);
  for (int a = 0; a < o->n; a++) {
    const trace_sets *s = &o->sets[a][pick[a]];
    const uint64_t *after = words_at(o, o->suffix_writes, a + 1);
    for (int i = 0; i < o->words; i++) {
      if (s->needs[i] & ~(before[i] | after[i]))
        return false;
      before[i] |= s->writes[i];
    }
  }
  return true;
}

/* Move pick, in the odometer's order (thread 0 turning fastest), to the
 * first combination from it on that is fed, every prefix on the way
 * checked first; false when none is left, or past the deadline (the
 * caller's clock then says so: no combination it is given is unfed).
 * `from`: the highest digit that turned since the combination given
 * last (n - 1 for the first).  When settle gave it, every level had been
 * entered and had passed its check with the digits it still has above
 * `from`, and a level's sets and check depend only on the digits at and
 * above it: those levels stand, and the descent starts at `from` (as,
 * within one call, a digit that turns at level k is entered again from
 * k).  The next combination mostly turns thread 0 alone: one level
 * entered, not n (entering them all was most of the value fixpoint's
 * time once its additions were cheap). */
static bool settle(sim_feed_odometer *o, int *pick, int from) {
  int k = from;
  while (k >= 0) {
    if ((++o->ticks & 1023) == 0 && o->clock && sci_sim_clock_expired(o->clock))
      return false;
    enter_level(o, pick, k);
    if (k > 0 ? suffix_may_be_fed(o, k) : all_fed(o, pick)) {
      k--;
      continue;
    }
    for (int j = 0; j < k; j++)
      pick[j] = 0; /* the next value of digit k, the digits below it first */
    while (++pick[k] == o->all[k].ntraces) {
      pick[k] = 0;
      if (++k == o->n)
        return false;
    }
  }
  return true;
}

bool sci_sim_first_fed_choice(sim_feed_odometer *o, int *pick) {
  memset(pick, 0, sizeof(int) * (size_t)(o->n + 1));
  if (sci_sim_any_thread_without_traces(o->all, o->n))
    return false;
  return settle(o, pick, o->n - 1);
}

bool sci_sim_next_fed_choice(sim_feed_odometer *o, int *pick) {
  int turned = turn_digits(pick, o->all, o->n);
  return turned < o->n && settle(o, pick, turned);
}

/* ---- The value fixpoint's additions --------------------------------------- */

/* A round of the value fixpoint adds the writes of every fed combination
 * to the value sets, in the odometer's order (the order of a location's
 * values orders the next round's traces, and so the witness told).
 * sci_values_add looks for each value in its location's set, and the
 * rows that walk 10^7 combinations a round spent 40% of their time there
 * (performance.md), nearly always finding it.  Here each pair some trace
 * writes is a bit (the odometer's), the bits the sets hold are known, and
 * each trace keeps how many of its pairs the sets lack: a combination's
 * trace with none adds nothing and is passed over in O(1); the others
 * add their writes in order, as before, each new one once. */

static bool holds_bit(const uint64_t *set, int bit) {
  return (set[bit / 64] >> (bit % 64)) & 1;
}

/* The pairs trace i of thread th writes that the sets lack. */
static int fresh_pairs(const sim_feed_odometer *o, int th, int i) {
  int n = 0;
  for (int w = 0; w < o->words; w++)
    n += __builtin_popcountll(o->sets[th][i].writes[w] & ~o->known[w]);
  return n;
}

void sci_sim_feed_odometer_values(sim_feed_odometer *o, sc_value_sets *vs) {
  o->vs = vs;
  o->known = sci_alloc_atomic(sizeof(uint64_t) * (size_t)o->words);
  memset(o->known, 0, sizeof(uint64_t) * (size_t)o->words);
  for (int b = 0; b < o->npairs; b++)
    if (sci_values_hold(vs, o->pairs[b].loc, o->pairs[b].value))
      set_bit(o->known, b);
  o->fresh = sci_alloc(sizeof(int *) * (size_t)(o->n + 1));
  for (int th = 0; th < o->n; th++) {
    o->fresh[th] = sci_alloc_atomic(sizeof(int) * (size_t)(o->all[th].ntraces + 1));
    for (int i = 0; i < o->all[th].ntraces; i++)
      o->fresh[th][i] = fresh_pairs(o, th, i);
  }
}

/* The sets now hold pair `bit`: each trace that writes it lacks one pair
 * fewer.  Once per pair found (at most npairs times a round: a bound as
 * the odometer's own sets, made over every trace without the clock). */
static void learn_pair(sim_feed_odometer *o, int bit) {
  set_bit(o->known, bit);
  for (int th = 0; th < o->n; th++)
    for (int i = 0; i < o->all[th].ntraces; i++)
      o->fresh[th][i] -= holds_bit(o->sets[th][i].writes, bit);
}

bool sci_sim_feed_odometer_add_values(sim_feed_odometer *o, const int *pick) {
  bool grew = false;
  for (int a = 0; a < o->n; a++) {
    if (o->fresh[a][pick[a]] == 0)
      continue; /* the sets hold every pair it writes: sci_values_add adds none */
    const sc_trace *tr = &o->all[a].traces[pick[a]];
    for (int i = 0; i < tr->nevents; i++) {
      const sc_trace_event *w = &tr->events[i];
      if (w->kind != SC_EV_WRITE)
        continue;
      int bit = pair_bit(o, w->loc, w->value);
      if (holds_bit(o->known, bit))
        continue;
      sci_values_add(o->vs, w->loc, w->value);
      learn_pair(o, bit);
      grew = true;
    }
  }
  return grew;
}

/* The bits of a set of `words` words, as a list ending with -1. */
static int *bit_list(const uint64_t *set, int words) {
  int n = 0;
  for (int w = 0; w < words; w++)
    n += __builtin_popcountll(set[w]);
  int *list = sci_alloc_atomic(sizeof(int) * (size_t)(n + 1));
  n = 0;
  for (int w = 0; w < words; w++)
    for (uint64_t b = set[w]; b; b &= b - 1)
      list[n++] = w * 64 + __builtin_ctzll(b);
  list[n] = -1;
  return list;
}

/* The walk of a round put to the solver (sci_sym_fed_pairs): the pairs
 * some fed combination writes, added to the value sets in the order of
 * the pairs (*grew when one was new); *walk when the solver gave up a
 * question (its resource limit) and the round is walked after all. */
static sc_status solve_round(sim_feed_odometer *o, const sim_clock *clock, bool *grew,
                             bool *walk, sc_error **err) {
  int *ntraces = sci_alloc_atomic(sizeof(int) * (size_t)(o->n + 1));
  sc_sym_feed f = {.t = o->t, .limit = clock->timeout, .nthreads = o->n,
                   .npairs = o->npairs, .ntraces = ntraces,
                   .writes = sci_alloc(sizeof(int **) * (size_t)(o->n + 1)),
                   .needs = sci_alloc(sizeof(int **) * (size_t)(o->n + 1))};
  for (int th = 0; th < o->n; th++) {
    ntraces[th] = o->all[th].ntraces;
    f.writes[th] = sci_alloc(sizeof(int *) * (size_t)(ntraces[th] + 1));
    f.needs[th] = sci_alloc(sizeof(int *) * (size_t)(ntraces[th] + 1));
    for (int i = 0; i < ntraces[th]; i++) {
      f.writes[th][i] = bit_list(o->sets[th][i].writes, o->words);
      f.needs[th][i] = bit_list(o->sets[th][i].needs, o->words);
    }
  }
  int *pair_loc = sci_alloc_atomic(sizeof(int) * (size_t)(o->npairs + 1));
  for (int b = 0; b < o->npairs; b++)
    pair_loc[b] = o->pairs[b].loc;
  f.pair_loc = pair_loc;
  bool *known = sci_alloc_atomic(sizeof(bool) * (size_t)(o->npairs + 1));
  for (int b = 0; b < o->npairs; b++)
    known[b] = holds_bit(o->known, b);
  double left = 0;
  if (clock->timeout > 0 && (left = clock->timeout - (sc_seconds() - clock->start)) <= 0)
    return sci_sim_clock_timeout(clock, err);
  sc_status st = sci_sym_fed_pairs(&f, known, left, walk, err);
  for (int b = 0; !st && b < o->npairs; b++)
    if (known[b] && !holds_bit(o->known, b)) {
      sci_values_add(o->vs, o->pairs[b].loc, o->pairs[b].value);
      learn_pair(o, b);
      *grew = true;
    }
  return st;
}

/* A round's walk goes to the solver where the combinations of its traces
 * number this many or more (the walk visits the fed ones: an 8-thread
 * ticket lock's 81 traces a thread leave more than the -max-executions
 * default), when the build has one, in a search that collapses the values
 * deciding nothing (lim->collapsed: where it pays; a search of every
 * value meets the limit as before, and its caller may collapse them). */
#define SOLVED_ROUND_COMBINATIONS 1e7

static bool round_to_solver(const sc_test *t, const sc_sem_limits *lim,
                            const sc_thread_traces *all) {
  if (lim->solve_rounds != 0)
    return lim->solve_rounds > 0 && sci_sym_available(NULL);
  bool collapsed = false;
  for (int l = 0; lim->collapsed && l < t->nlocs; l++)
    collapsed |= lim->collapsed[l];
  double n = 1;
  for (int th = 0; th < t->nthreads; th++)
    n *= all[th].ntraces;
  return collapsed && n >= SOLVED_ROUND_COMBINATIONS && sci_sym_available(NULL);
}

/* The runs whose writes may grow the values: each thread's traces, the
 * runs the unroll bound cut (up to the cut: their writes happen all the
 * same), and an empty run for a thread with neither (every path is cut
 * before any write, but may complete once others' values are known). */
static sc_thread_traces *value_feeders(const sc_thread_traces *all, int nthreads) {
  sc_thread_traces *view = sci_alloc(sizeof(sc_thread_traces) * (size_t)(nthreads + 1));
  for (int th = 0; th < nthreads; th++) {
    const sc_thread_traces *a = &all[th];
    view[th] = *a;
    int n = a->ntraces + a->ncut + (a->ntraces == 0);
    if (n == a->ntraces)
      continue;
    view[th].traces = sci_alloc(sizeof(sc_trace) * (size_t)n); /* zeroed: the empty run last */
    if (a->ntraces > 0)
      memcpy(view[th].traces, a->traces, sizeof(sc_trace) * (size_t)a->ntraces);
    if (a->ncut > 0)
      memcpy(view[th].traces + a->ntraces, a->cut, sizeof(sc_trace) * (size_t)a->ncut);
    view[th].ntraces = n;
  }
  return view;
}

/* Whether pick chooses a trace of `all` for each thread, no cut or empty
 * run of value_feeders' (those come after them). */
static bool whole_traces(const int *pick, const sc_thread_traces *all, int nthreads) {
  for (int th = 0; th < nthreads; th++)
    if (pick[th] >= all[th].ntraces)
      return false;
  return true;
}

/* Each thread's traces, shortest first (ties in their order), for the
 * symbolic engine and -liveness: a spin loop's shortest traces are those
 * whose spins succeed at once, the combinations most often allowed; and
 * when the traces fix the state (engine_smt.c), the first allowed
 * execution settles every later combination ending in that state, each of
 * which otherwise costs a solver call that is mostly a refutation.  Found
 * by CADP's 63_simple (ptx/dat3m): its one allowed combination of 97 came
 * last in trace order. */
typedef struct {
  int length, index;
} trace_rank;

static int by_length(const void *a, const void *b) {
  const trace_rank *x = a, *y = b;
  if (x->length != y->length)
    return x->length < y->length ? -1 : 1;
  return (x->index > y->index) - (x->index < y->index);
}

sc_thread_traces *sci_sim_shortest_first(const sc_thread_traces *all, int nthreads) {
  sc_thread_traces *view = sci_alloc(sizeof(sc_thread_traces) * (size_t)(nthreads + 1));
  for (int th = 0; th < nthreads; th++) {
    const sc_thread_traces *a = &all[th];
    int n = a->ntraces;
    view[th] = *a;
    trace_rank *rank = sci_alloc_atomic(sizeof(trace_rank) * (size_t)(n + 1));
    for (int i = 0; i < n; i++)
      rank[i] = (trace_rank){.length = a->traces[i].nevents, .index = i};
    qsort(rank, (size_t)n, sizeof(trace_rank), by_length);
    view[th].traces = sci_alloc(sizeof(sc_trace) * (size_t)(n + 1));
    for (int i = 0; i < n; i++)
      view[th].traces[i] = a->traces[rank[i].index];
  }
  return view;
}

bool sci_sim_rounds_solved(const sc_test *t, const sc_sem_limits *lim,
                           const sc_thread_traces *all) {
  return round_to_solver(t, lim, value_feeders(all, t->nthreads));
}

sc_status sci_sim_count_fed(const sc_test *t, const sc_thread_traces *all, sim_clock *clock,
                            sc_error **err) {
  int *pick = sci_alloc_atomic(sizeof(int) * (size_t)(t->nthreads + 1));
  sim_feed_odometer *odo = sci_sim_feed_odometer(t, all, clock);
  long fed = 0;
  for (bool more = sci_sim_first_fed_choice(odo, pick); more;
       more = sci_sim_next_fed_choice(odo, pick)) {
    sc_status st = sci_sim_clock_step(clock, ++fed, "candidate executions", err);
    if (st)
      return st;
  }
  return sci_sim_clock_expired(clock) ? sci_sim_clock_timeout(clock, err) : SC_OK;
}

/* The least fixpoint of the values locations may hold, and the traces
 * that reading them gives. */
sc_status sci_sim_find_traces(const sc_test *t, const sc_sem_limits *lim,
                          sim_clock *clock, sc_thread_traces **out, sc_error **err) {
  sc_value_sets *vs = sci_values_initial(t);
  int *pick = sci_alloc_atomic(sizeof(int) * (size_t)(t->nthreads + 1));
  for (;;) {
    sc_thread_traces *all;
    sc_status st = sci_sem_traces_timed(t, lim, clock->start, clock->timeout, vs,
                                       &all, err);
    if (st)
      return st;
    *out = all;
    all = value_feeders(all, t->nthreads);
    bool grew = false;
    long fed = 0;
    sim_feed_odometer *odo = sci_sim_feed_odometer(t, all, clock);
    sci_sim_feed_odometer_values(odo, vs);
    bool solved = round_to_solver(t, lim, all), walk = !solved;
    if (solved && (st = solve_round(odo, clock, &grew, &walk, err)))
      return st;
    for (bool more = walk && sci_sim_first_fed_choice(odo, pick); more;
         more = sci_sim_next_fed_choice(odo, pick)) {
      st = sci_sim_clock_step(clock, 0, NULL, err);
      if (st)
        return st;
      /* traces only grow from one round to the next: each combination of
       * whole traces fed here is one of the last round's, each a candidate
       * execution the engines will count */
      if (whole_traces(pick, *out, t->nthreads)) {
        st = sci_sim_clock_step(clock, ++fed, "candidate executions", err);
        if (st)
          return st;
      }
      grew |= sci_sim_feed_odometer_add_values(odo, pick);
    }
    if (sci_sim_clock_expired(clock))
      return sci_sim_clock_timeout(clock, err); /* the odometer stopped early */
    if (!grew)
      return SC_OK;
    for (int l = 0; l < t->nlocs; l++)
      if (vs->n[l] > MAX_VALUES_PER_LOCATION)
        return sci_fail(err, SC_ERR_LIMIT, t->file, 0, 0,
                       "expected location %s to hold at most %d values",
                       t->locs[l].name, MAX_VALUES_PER_LOCATION);
  }
}
