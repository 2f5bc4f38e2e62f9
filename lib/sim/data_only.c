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

/* ---- Tables of the collapsed values (sci_sim_data_only_tables) ------------ */

#define TABLE_MOST_VALUES 256
#define TABLE_MOST_ROWS 4096

/* v's index among loc's values in vs, -1 when it has none. */
static int value_index(const sc_value_sets *vs, int loc, int64_t v) {
  for (int i = 0; i < vs->n[loc]; i++)
    if (vs->vals[loc][i] == v)
      return i;
  return -1;
}

/* Add v to loc's values (*grew when new); false when they are full. */
static bool add_value(sc_value_sets *vs, int loc, int64_t v, bool *grew) {
  if (sci_values_hold(vs, loc, v))
    return true;
  if (vs->n[loc] == TABLE_MOST_VALUES)
    return false;
  *grew |= sci_values_add(vs, loc, v);
  return true;
}

/* What a table's making shares. */
typedef struct tabling {
  const sc_execution *x;
  const sim_trace_group *const *groups;
  int unroll;
  sc_value_sets *dom; /* per location, its values (sem.h's sets) */
  int *size;       /* per location: its values at the round's start, the
                      tuples' radixes (values are only added after them) */
  int64_t *given;
  sc_error **err;
} tabling;

/* Collapsed write w's value in trace j of its group, its inputs' values
 * the tuple `tuple` of indices into their locations' values: thread th
 * run again (every other collapsed read given its initial value: w's
 * value does not read it). */
static sc_status replay_write(tabling *tb, int w, int j, int tuple, int64_t *value) {
  const sc_execution *x = tb->x;
  int th = x->events[w].thread, first = x->thread_first[th], ng = 0;
  const sc_trace *tr = tb->groups[th]->traces[j];
  for (int i = 0; i < tr->nevents; i++) {
    const sc_trace_event *e = &tr->events[i];
    if (e->kind != SC_EV_READ)
      continue;
    int64_t v = e->value; /* a collapsed read's: its location's initial value */
    if (e->value_unknown && sc_rel_has(x->data, first + i, w)) {
      /* its digit: the inputs are x's reads of w's data, in order */
      int radix = 1;
      for (int r = first + tr->nevents - 1; r > first + i; r--)
        if (x->events[r].kind == SC_EV_READ && x->events[r].value_unknown &&
            sc_rel_has(x->data, r, w))
          radix *= tb->size[x->events[r].loc];
      v = tb->dom->vals[e->loc][(tuple / radix) % tb->size[e->loc]];
    }
    tb->given[ng++] = v;
  }
  sc_trace again;
  sc_status st = sci_sem_replay(x->test, th, tb->unroll, tb->given, ng, &again, tb->err);
  if (!st)
    *value = again.events[w - first].value;
  return st;
}

/* The collapsed reads of w's thread that w's value is made of. */
static int write_inputs(const sc_execution *x, int w, int *inputs) {
  int n = 0, first = x->thread_first[x->events[w].thread];
  for (int r = first; r < w; r++)
    if (x->events[r].kind == SC_EV_READ && x->events[r].value_unknown &&
        sc_rel_has(x->data, r, w))
      inputs[n++] = r;
  return n;
}

/* Whether a read that is not collapsed makes w's value (its rows then
 * one per trace of the group). */
static bool made_by_trace(const sc_execution *x, int w) {
  for (int r = x->thread_first[x->events[w].thread]; r < w; r++)
    if (x->events[r].kind == SC_EV_READ && !x->events[r].value_unknown &&
        sc_rel_has(x->data, r, w))
      return true;
  return false;
}

/* The tuples of w's inputs' values now, and its rows; false past the
 * limits. */
static bool rows_of(const tabling *tb, int w, const int *inputs, int ninputs, int *ntuples,
                    int *nrows) {
  const sc_execution *x = tb->x;
  long tuples = 1;
  for (int k = 0; k < ninputs && tuples <= TABLE_MOST_ROWS; k++)
    tuples *= tb->size[x->events[inputs[k]].loc];
  long rows = made_by_trace(x, w) ? tuples * tb->groups[x->events[w].thread]->n : tuples;
  *ntuples = (int)tuples;
  *nrows = (int)(rows / tuples);
  return rows <= TABLE_MOST_ROWS;
}

/* One round: each collapsed write replayed on every tuple of the values
 * known; *grew when a value was new. */
static sc_status table_round(tabling *tb, bool *grew, bool *fits) {
  const sc_execution *x = tb->x;
  int *inputs = sci_alloc_atomic(sizeof(int) * (size_t)(x->nevents + 1));
  for (int l = 0; l < x->test->nlocs; l++)
    tb->size[l] = tb->dom->n[l];
  for (int w = x->ninit; w < x->nevents && *fits; w++) {
    if (x->events[w].kind != SC_EV_WRITE || !x->events[w].value_unknown)
      continue;
    int n = write_inputs(x, w, inputs), ntuples, nrows;
    if (!(*fits = rows_of(tb, w, inputs, n, &ntuples, &nrows)))
      break;
    for (int j = 0; j < nrows; j++)
      for (int k = 0; k < ntuples; k++) {
        int64_t v;
        sc_status st = replay_write(tb, w, j, k, &v);
        if (st)
          return st;
        if (!(*fits = add_value(tb->dom, x->events[w].loc, v, grew)))
          return SC_OK;
      }
  }
  return SC_OK;
}

/* The tables over the values found. */
static void fill_tables(tabling *tb, sim_value_tables *o) {
  const sc_execution *x = tb->x;
  int n = x->nevents;
  for (int e = x->ninit; e < n; e++) {
    if (!x->events[e].value_unknown)
      continue;
    o->dom[e] = tb->dom->vals[x->events[e].loc];
    o->ndom[e] = tb->dom->n[x->events[e].loc];
  }
}

bool sci_sim_data_only_tables(const sc_execution *x, const sim_trace_group *const *groups,
                              int unroll, sim_value_tables *o, sc_error **err) {
  const sc_test *t = x->test;
  int n = x->nevents, writes = 0;
  tabling tb = {.x = x, .groups = groups, .unroll = unroll, .err = err,
                .given = sci_alloc_atomic(sizeof(int64_t) * (SC_TRACE_MAX + 1)),
                .dom = sci_values_initial(t), /* each location's initial value */
                .size = sci_alloc_atomic(sizeof(int) * (size_t)(t->nlocs + 1))};
  for (int e = x->ninit; e < n; e++)
    writes += x->events[e].value_unknown && x->events[e].kind == SC_EV_WRITE;
  bool grew = true, fits = true;
  for (int round = 0; round < writes && grew && fits; round++) {
    grew = false;
    if (table_round(&tb, &grew, &fits))
      return false;
  }
  if (!fits)
    return false;
  *o = (sim_value_tables){
    .dom = sci_alloc(sizeof(int64_t *) * (size_t)(n + 1)),
    .ndom = sci_alloc_atomic(sizeof(int) * (size_t)(n + 1)),
    .inputs = sci_alloc(sizeof(int *) * (size_t)(n + 1)),
    .ninputs = sci_alloc_atomic(sizeof(int) * (size_t)(n + 1)),
    .per_trace = sci_alloc_atomic(sizeof(bool) * (size_t)(n + 1)),
    .ntuples = sci_alloc_atomic(sizeof(int) * (size_t)(n + 1)),
    .out = sci_alloc(sizeof(int *) * (size_t)(n + 1))};
  memset(o->ndom, 0, sizeof(int) * (size_t)(n + 1));
  memset(o->ninputs, 0, sizeof(int) * (size_t)(n + 1));
  memset(o->per_trace, 0, sizeof(bool) * (size_t)(n + 1));
  memset(o->ntuples, 0, sizeof(int) * (size_t)(n + 1));
  fill_tables(&tb, o);
  for (int l = 0; l < t->nlocs; l++)
    tb.size[l] = tb.dom->n[l];
  for (int w = x->ninit; w < n; w++) {
    if (x->events[w].kind != SC_EV_WRITE || !x->events[w].value_unknown)
      continue;
    int *inputs = sci_alloc_atomic(sizeof(int) * (size_t)(n + 1));
    int ni = write_inputs(x, w, inputs), ntuples, nrows;
    if (!rows_of(&tb, w, inputs, ni, &ntuples, &nrows))
      return false;
    o->inputs[w] = inputs;
    o->ninputs[w] = ni;
    o->per_trace[w] = nrows > 1 || made_by_trace(x, w);
    o->ntuples[w] = ntuples;
    o->out[w] = sci_alloc_atomic(sizeof(int) * (size_t)(nrows * ntuples + 1));
    for (int j = 0; j < nrows; j++)
      for (int k = 0; k < ntuples; k++) {
        int64_t v;
        if (replay_write(&tb, w, j, k, &v))
          return false;
        o->out[w][j * ntuples + k] = value_index(tb.dom, x->events[w].loc, v);
      }
  }
  return true;
}
