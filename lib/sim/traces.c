/* traces.c: the traces a simulation combines.  The values each location
 * may hold are a least fixpoint: initial values, then the values written
 * by trace combinations in which every read can find a write of its value,
 * until nothing new appears; values out of thin air are never guessed, as
 * herd7's equations never invent them.  Also the odometer over one trace
 * per thread, which write may feed which read, and the shortest-first
 * order of the symbolic engine and -liveness. */
#include "sim/traces.h"

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
bool sci_sim_may_feed(const sc_trace *tw, int wi, const sc_trace *tr, int ri) {
  const sc_trace_event *w = &tw->events[wi], *r = &tr->events[ri];
  if (w->kind != SC_EV_WRITE || w->loc != r->loc || w->value != r->value)
    return false;
  if (tw != tr)
    return true;
  return w->rmw_partner != ri && !(w->data_deps & ((uint64_t)1 << ri));
}


/* The next choice of one trace per thread (an odometer); false after the
 * last, when `pick` is back to all zeros. */
bool sci_sim_next_choice(int *pick, const sc_thread_traces *all, int nthreads) {
  int th = 0;
  while (th < nthreads && ++pick[th] == all[th].ntraces)
    pick[th++] = 0;
  return th < nthreads;
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

/* One written value of a location. */
typedef struct loc_value {
  int loc;
  int64_t value;
} loc_value;

struct sim_feed_odometer {
  const sc_test *t;
  const sc_thread_traces *all;
  int n;
  const sim_clock *clock;
  unsigned ticks;
  /* per k: the writes threads 0..k-1 have room for, per location (the
   * most any one trace of each makes there), and the values they may
   * write, sorted */
  int *room;
  loc_value **writable;
  int *nwritable;
  loc_value *demand; /* scratch: the values a prefix's reads still need */
  int cap_demand;
};

static int by_loc_value(const void *a, const void *b) {
  const loc_value *x = a, *y = b;
  if (x->loc != y->loc)
    return x->loc < y->loc ? -1 : 1;
  return (x->value > y->value) - (x->value < y->value);
}

static bool has_loc_value(const loc_value *set, int n, int loc, int64_t value) {
  loc_value key = {loc, value};
  return bsearch(&key, set, (size_t)n, sizeof key, by_loc_value) != NULL;
}

/* writable[k+1]: writable[k] and every value a trace of thread k writes. */
static void add_thread_writes(sim_feed_odometer *o, int k) {
  const sc_thread_traces *a = &o->all[k];
  int n = o->nwritable[k], cap = n + 1;
  for (int i = 0; i < a->ntraces; i++)
    cap += a->traces[i].nevents;
  loc_value *set = sci_alloc_atomic(sizeof(loc_value) * (size_t)cap);
  if (n > 0)
    memcpy(set, o->writable[k], sizeof(loc_value) * (size_t)n);
  for (int i = 0; i < a->ntraces; i++)
    for (int e = 0; e < a->traces[i].nevents; e++) {
      const sc_trace_event *w = &a->traces[i].events[e];
      if (w->kind == SC_EV_WRITE)
        set[n++] = (loc_value){w->loc, w->value};
    }
  qsort(set, (size_t)n, sizeof(loc_value), by_loc_value);
  int kept = 0;
  for (int i = 0; i < n; i++)
    if (kept == 0 || by_loc_value(&set[kept - 1], &set[i]) != 0)
      set[kept++] = set[i];
  o->writable[k + 1] = set;
  o->nwritable[k + 1] = kept;
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

sim_feed_odometer *sci_sim_feed_odometer(const sc_test *t, const sc_thread_traces *all,
                                         const sim_clock *clock) {
  sim_feed_odometer *o = sci_alloc(sizeof *o);
  int n = t->nthreads, nl = t->nlocs;
  *o = (sim_feed_odometer){.t = t, .all = all, .n = n, .clock = clock};
  o->room = sci_alloc_atomic(sizeof(int) * (size_t)(n + 1) * (size_t)(nl + 1));
  memset(o->room, 0, sizeof(int) * (size_t)(nl + 1));
  o->writable = sci_alloc(sizeof(loc_value *) * (size_t)(n + 1));
  o->nwritable = sci_alloc_atomic(sizeof(int) * (size_t)(n + 1));
  o->nwritable[0] = 0;
  int *count = sci_alloc_atomic(sizeof(int) * 2 * (size_t)(nl + 1));
  for (int k = 0; k < n; k++) {
    add_thread_writes(o, k);
    add_thread_room(o, k, count);
  }
  return o;
}

/* Whether a write of the traces chosen for threads k..n-1 has this
 * location and value (who may feed whom aside: a necessary condition). */
static bool prefix_writes(const sim_feed_odometer *o, const int *pick, int k,
                          int loc, int64_t value) {
  for (int b = k; b < o->n; b++) {
    const sc_trace *tr = &o->all[b].traces[pick[b]];
    for (int j = 0; j < tr->nevents; j++)
      if (tr->events[j].kind == SC_EV_WRITE && tr->events[j].loc == loc &&
          tr->events[j].value == value)
        return true;
  }
  return false;
}

/* Whether the traces chosen for threads k..n-1 may still be fed once
 * threads 0..k-1 have theirs: each value their reads need that they do
 * not write themselves some thread below k may write, and at each
 * location the threads below k have room for as many writes as such
 * values.  A necessary condition of sci_sim_reads_can_be_fed, so a
 * combination it rules out is one that would be dropped anyway. */
static bool prefix_may_be_fed(sim_feed_odometer *o, const int *pick, int k) {
  const sc_test *t = o->t;
  const int *room = &o->room[(size_t)k * (size_t)t->nlocs];
  int nd = 0;
  for (int a = k; a < o->n; a++) {
    const sc_trace *tr = &o->all[a].traces[pick[a]];
    for (int i = 0; i < tr->nevents; i++) {
      const sc_trace_event *r = &tr->events[i];
      if (r->kind != SC_EV_READ || r->value == sci_value_of(t->locs[r->loc].init) ||
          prefix_writes(o, pick, k, r->loc, r->value))
        continue;
      int same_loc = 0;
      bool known = false;
      for (int d = 0; d < nd && !known; d++)
        if (o->demand[d].loc == r->loc) {
          same_loc++;
          known = o->demand[d].value == r->value;
        }
      if (known)
        continue;
      if (same_loc + 1 > room[r->loc] ||
          !has_loc_value(o->writable[k], o->nwritable[k], r->loc, r->value))
        return false;
      sci_grow(&o->demand, &o->cap_demand, nd + 1, sizeof(loc_value));
      o->demand[nd++] = (loc_value){r->loc, r->value};
    }
  }
  return true;
}

/* Move pick, in the odometer's order (thread 0 turning fastest), to the
 * first combination from it on whose every prefix may be fed; false when
 * none is left.  Past the deadline it stops where it is: the caller's
 * exact check and clock see to the rest. */
static bool settle(sim_feed_odometer *o, int *pick) {
  int k = o->n - 1;
  while (k >= 0) {
    if ((++o->ticks & 1023) == 0 && o->clock && sci_sim_clock_expired(o->clock))
      return true;
    if (prefix_may_be_fed(o, pick, k)) {
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
  return settle(o, pick);
}

bool sci_sim_next_fed_choice(sim_feed_odometer *o, int *pick) {
  return sci_sim_next_choice(pick, o->all, o->n) && settle(o, pick);
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

/* The least fixpoint of the values locations may hold, and the traces
 * that reading them gives. */
sc_status sci_sim_find_traces(const sc_test *t, const sc_sem_limits *lim,
                          sim_clock *clock, sc_thread_traces **out, sc_error **err) {
  sc_value_sets *vs = sci_values_initial(t);
  int *pick = sci_alloc_atomic(sizeof(int) * (size_t)(t->nthreads + 1));
  const sc_trace **chosen = sci_alloc(sizeof(sc_trace *) * (size_t)(t->nthreads + 1));
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
    for (bool more = sci_sim_first_fed_choice(odo, pick); more;
         more = sci_sim_next_fed_choice(odo, pick)) {
      st = sci_sim_clock_step(clock, 0, NULL, err);
      if (st)
        return st;
      sci_sim_choose(chosen, pick, all, t->nthreads);
      if (!sci_sim_reads_can_be_fed(t, chosen))
        continue;
      /* traces only grow from one round to the next: each combination of
       * whole traces fed here is one of the last round's, each a candidate
       * execution the engines will count */
      if (whole_traces(pick, *out, t->nthreads)) {
        st = sci_sim_clock_step(clock, ++fed, "candidate executions", err);
        if (st)
          return st;
      }
      for (int a = 0; a < t->nthreads; a++)
        for (int i = 0; i < chosen[a]->nevents; i++) {
          const sc_trace_event *w = &chosen[a]->events[i];
          if (w->kind == SC_EV_WRITE)
            grew |= sci_values_add(vs, w->loc, w->value);
        }
    }
    if (!grew)
      return SC_OK;
    for (int l = 0; l < t->nlocs; l++)
      if (vs->n[l] > MAX_VALUES_PER_LOCATION)
        return sci_fail(err, SC_ERR_LIMIT, t->file, 0, 0,
                       "expected location %s to hold at most %d values",
                       t->locs[l].name, MAX_VALUES_PER_LOCATION);
  }
}
