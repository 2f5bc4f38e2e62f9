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
    memset(pick, 0, sizeof(int) * (size_t)(t->nthreads + 1));
    do {
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
    } while (sci_sim_next_choice(pick, all, t->nthreads));
    if (!grew)
      return SC_OK;
    for (int l = 0; l < t->nlocs; l++)
      if (vs->n[l] > MAX_VALUES_PER_LOCATION)
        return sci_fail(err, SC_ERR_LIMIT, t->file, 0, 0,
                       "expected location %s to hold at most %d values",
                       t->locs[l].name, MAX_VALUES_PER_LOCATION);
  }
}
