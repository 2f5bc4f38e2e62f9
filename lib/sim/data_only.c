/* data_only.c: collapsing the values that decide nothing.  A memory cell
 * is data-only when no read of it reaches, through the registers, a
 * branch, a guard, an address, a barrier's operand, an atom's choice of
 * whether or what to write (all but exch), or the value of a write to a
 * cell that is not data-only.  Then which instructions a run takes, and
 * every value of the other cells, are the same whatever data-only cells
 * hold: a search whose verdicts read no such value (which flags the
 * model raises, which threads may be stuck for ever: sc_sim_options'
 * verdicts_only) may give each of them its initial value alone, every
 * write there writing it too (sem.c, sc_sem_limits.collapsed).  Each
 * thread then has one run per path, not one per path and value read, and
 * the value fixpoint grows over the other cells only (ttaslock's counter
 * and its record of it: 8 runs a thread of ttaslock-dv2wg-2.2.2 become 2).
 *
 * Why the verdicts stay.  A model reads no value, in its checks and its
 * flags alike: only the events, rf, co and the relations sem.c's
 * dependencies make (a witness's accesses there are told as values not
 * computed: sc_trace_event.value_unknown); fairness (liveness.c)
 * reads the spin's reads, which decide the loop's exit, so are not
 * data-only.  A concrete execution forgets its data-only values into a
 * collapsed one with the same events and relations.  Conversely, a
 * collapsed execution X whose rf and data make no cycle has a concrete
 * one: a write's value is computed from the reads its data holds, a
 * read's is its rf write's, so in an order of rf ∪ data (acyclic) each
 * data-only read gets the value its rf write computes; every other value
 * is X's (no data-only read reaches one), so each thread takes X's path,
 * making X's events and dependencies.  A model that
 * forbids every cycle of rf and data (sci_sim_data_only_safe) allows no
 * execution with one, collapsed or not, and those are the only ones lost.
 * An atom other than exch makes its cell not data-only: its write's value
 * (or whether it writes) comes from its read through rmw, which no such
 * check need hold.
 *
 * The set is a greatest fixpoint.  The search starts with every cell
 * collapsed; sem.c notes in each thread's traces the cells whose reads
 * reached a decision (or a write to a cell not collapsed) in some run, and
 * those are un-collapsed and the search made again, until it notes none
 * of the collapsed.  The runs of that last search are those of every
 * concrete value: by induction along a run, each decision reads only
 * cells not collapsed, whose values are the concrete ones. */
#include "sim/data_only.h"

#include "sim/dynamic.h"
#include "sim/repeat_gate.h"
#include "util/error.h"
#include "util/gcmem.h"

#include <string.h>

bool sci_sim_data_only_safe(const sc_test *t, const sc_cat_model *m,
                            const sc_cat_run_options *eval) {
  static const char *const cycle[] = {"rf", "data"};
  sc_cat_dynamic deps[SIM_NDYNAMIC];
  sc_cat_env *env = sci_sim_signature_env(t, deps);
  return sci_cat_model_forbids_cycles(m, env, deps, SIM_NDYNAMIC, cycle, 2, eval);
}

/* Un-collapse the collapsed cells whose reads decided something in the
 * runs `all`; whether there was any. */
static bool uncollapse_deciding(const sc_test *t, const sc_thread_traces *all,
                                bool *collapsed) {
  bool any = false;
  for (int th = 0; th < t->nthreads; th++)
    for (int l = 0; all[th].deciding && l < t->nlocs; l++)
      if (all[th].deciding[l] && collapsed[l]) {
        collapsed[l] = false;
        any = true;
      }
  return any;
}

sc_status sci_sim_find_traces_data_only(sim_trace_finder find, const sc_test *t,
                                        sc_sem_limits *lim, sim_clock *clock,
                                        sc_thread_traces **out, sc_error **err) {
  bool *collapsed = sci_alloc_atomic(sizeof(bool) * (size_t)(t->nlocs + 1));
  for (int l = 0; l < t->nlocs; l++)
    collapsed[l] = t->locs[l].alias_of < 0; /* the cells: events name those */
  lim->collapsed = collapsed;
  for (;;) { /* at most nlocs + 1 searches: each un-collapses a cell */
    sc_status st = find(t, lim, clock, out, err);
    if (st || !uncollapse_deciding(t, *out, collapsed))
      return st;
  }
}

/* ---- The values, once rf is chosen ----------------------------------------- */

/* The write x's read r reads from, -1 when none. */
static int rf_source(const sc_execution *x, int r) {
  for (int w = 0; w < x->nevents; w++)
    if (sc_rel_has(x->rf, w, r))
      return w;
  return -1;
}

/* Whether every read of x that write w's value depends on (data) is
 * marked in `real`. */
static bool deps_real(const sc_execution *x, int w, const bool *real) {
  for (int r = x->thread_first[x->events[w].thread]; r < w; r++)
    if (sc_rel_has(x->data, r, w) && !real[r])
      return false;
  return true;
}

/* One round for thread th of y (see sci_sim_data_only_values): its reads
 * given their values where known (a collapsed read: its rf write's, once
 * that is known), it runs again, and each event whose value the round
 * computed from known values alone is known from now on; *done when all
 * of its events are. */
static sc_status thread_round(sc_execution *y, int th, int unroll, bool *known,
                              bool *real, int64_t *given, bool *progress,
                              bool *done, sc_error **err) {
  const sc_trace *tr = y->traces[th];
  int first = y->thread_first[th], ng = 0;
  for (int i = 0; i < tr->nevents; i++) {
    int e = first + i;
    if (y->events[e].kind != SC_EV_READ)
      continue;
    int w = known[e] ? -1 : rf_source(y, e);
    if (w >= 0 && known[w]) {
      y->events[e].value = y->events[w].value;
      y->events[e].value_unknown = false;
      known[e] = *progress = true;
    }
    real[e] = known[e];
    given[ng++] = known[e] ? y->events[e].value : 0; /* 0: a stand-in */
  }
  sc_trace *again = sci_alloc(sizeof *again);
  sc_status st = sci_sem_replay(y->test, th, unroll, given, ng, again, err);
  if (st)
    return st;
  *done = true;
  for (int i = 0; i < tr->nevents; i++) {
    int e = first + i;
    if (!known[e] && y->events[e].kind == SC_EV_WRITE && deps_real(y, e, real)) {
      y->events[e].value = again->events[i].value;
      y->events[e].value_unknown = false;
      known[e] = *progress = true;
    }
    *done &= known[e];
  }
  if (*done)
    y->traces[th] = again; /* its final registers, computed */
  return SC_OK;
}

sc_status sci_sim_data_only_values(const sc_execution *x, int unroll, sc_execution **out,
                                   sc_error **err) {
  const sc_test *t = x->test;
  int n = x->nevents;
  sc_execution *y = sci_exec_snapshot(x);
  y->events = sci_alloc(sizeof(sc_event) * (size_t)(n + 1));
  memcpy(y->events, x->events, sizeof(sc_event) * (size_t)n);
  bool *known = sci_alloc_atomic(sizeof(bool) * (size_t)(n + 1));
  bool *real = sci_alloc_atomic(sizeof(bool) * (size_t)(n + 1));
  bool *left = sci_alloc_atomic(sizeof(bool) * (size_t)(t->nthreads + 1));
  int64_t *given = sci_alloc_atomic(sizeof(int64_t) * (SC_TRACE_MAX + 1));
  int nleft = 0;
  for (int e = 0; e < n; e++)
    known[e] = !x->events[e].value_unknown;
  for (int th = 0; th < t->nthreads; th++) {
    left[th] = false;
    for (int i = 0; i < x->traces[th]->nevents; i++)
      left[th] |= !known[x->thread_first[th] + i];
    nleft += left[th];
  }
  /* each round makes some value known, or finds a cycle of rf and data */
  while (nleft > 0) {
    bool progress = false;
    for (int th = 0; th < t->nthreads; th++) {
      bool done;
      if (!left[th])
        continue;
      sc_status st = thread_round(y, th, unroll, known, real, given, &progress, &done, err);
      if (st)
        return st;
      if (done) {
        left[th] = false;
        nleft--;
      }
    }
    if (!progress)
      return sci_fail(err, SC_ERR_USAGE, t->file, 0, 0,
                     "expected an execution whose rf and data make no cycle, "
                     "found one: its collapsed values have no concrete ones");
  }
  *out = y;
  return SC_OK;
}

/* Push collapsed event e onto the walk of sci_sim_data_only_sources, once. */
static void push_unknown(const sc_execution *x, int e, bool *seen, int *stack, int *n) {
  if (e >= 0 && !seen[e] && x->events[e].value_unknown && x->events[e].thread >= 0) {
    seen[e] = true;
    stack[(*n)++] = e;
  }
}

int sci_sim_data_only_sources(const sc_execution *x, const int *events, int nevents,
                              int *pairs) {
  int n = x->nevents, np = 0, nstack = 0;
  bool *seen = sci_alloc_atomic(sizeof(bool) * (size_t)(n + 1));
  int *stack = sci_alloc_atomic(sizeof(int) * (size_t)(n + 1));
  memset(seen, 0, sizeof(bool) * (size_t)n);
  for (int k = 0; k < nevents; k++)
    push_unknown(x, events[k], seen, stack, &nstack);
  while (nstack > 0) {
    int e = stack[--nstack];
    if (x->events[e].kind == SC_EV_READ) { /* its value: its rf write's */
      int src = rf_source(x, e);
      pairs[2 * np] = src;
      pairs[2 * np++ + 1] = e;
      push_unknown(x, src, seen, stack, &nstack);
      continue;
    }
    for (int r = x->thread_first[x->events[e].thread]; r < e; r++)
      if (sc_rel_has(x->data, r, e))
        push_unknown(x, r, seen, stack, &nstack);
  }
  return np;
}
