/* sink.c: where both engines put what they find: the result's observed
 * terms, its final states and their counts, the flags raised (each with
 * a witness: an execution and a pair of events in the flagged relation),
 * the first execution that decides the condition, the executions kept to
 * be drawn (with the cycle that forbids each), and the liveness witness. */
#include "sim/sink.h"

#include "sim/data_only.h"
#include "sim/engine.h"
#include "sim/liveness.h"
#include "sim/symmetry.h"
#include "util/gcmem.h"

#include <string.h>

/* ---- Observed terms and states ------------------------------------------- */

static void observe(sc_result *r, sc_lval lv, int *cap) {
  if (lv.kind != SC_LVAL_REG && lv.kind != SC_LVAL_LOC)
    return;
  for (int i = 0; i < r->nobserved; i++) {
    const sc_lval *o = &r->observed[i];
    if (o->kind == lv.kind && o->loc == lv.loc &&
        (lv.kind == SC_LVAL_LOC || (o->thread == lv.thread && o->reg == lv.reg)))
      return;
  }
  sci_grow(&r->observed, cap, r->nobserved + 1, sizeof(sc_lval));
  r->observed[r->nobserved++] = lv;
}

static void observe_prop(sc_result *r, const sc_prop *p, int *cap) {
  if (!p)
    return;
  if (sci_prop_is_comparison(p)) {
    observe(r, p->lhs, cap);
    observe(r, p->rhs, cap);
  }
  observe_prop(r, p->a, cap);
  observe_prop(r, p->b, cap);
}

/* Registers before locations; registers by thread, then name; locations
 * by name. */
static int compare_lvals(const sc_test *t, const sc_lval *a, const sc_lval *b) {
  if (a->kind != b->kind)
    return a->kind == SC_LVAL_REG ? -1 : 1;
  if (a->kind == SC_LVAL_LOC)
    return strcmp(t->locs[a->loc].name, t->locs[b->loc].name);
  if (a->thread != b->thread)
    return a->thread - b->thread;
  return strcmp(t->threads[a->thread].regs[a->reg].name,
                t->threads[b->thread].regs[b->reg].name);
}

/* herd shows the terms of the condition and of `locations [...]`, in the
 * order of compare_lvals (an insertion sort: there are a handful). */
static void choose_observed(sc_result *r, const sc_test *t) {
  int cap = 0;
  for (int i = 0; i < t->nobserved; i++)
    observe(r, t->observed[i], &cap);
  observe_prop(r, t->cond, &cap);
  for (int i = 1; i < r->nobserved; i++) {
    sc_lval key = r->observed[i];
    int j = i;
    for (; j > 0 && compare_lvals(t, &r->observed[j - 1], &key) > 0; j--)
      r->observed[j] = r->observed[j - 1];
    r->observed[j] = key;
  }
}

static int compare_values(const int64_t *a, const int64_t *b, int n) {
  for (int i = 0; i < n; i++)
    if (a[i] != b[i])
      return a[i] < b[i] ? -1 : 1;
  return 0;
}

/* Whether some state has these values. */
static bool state_known(const sc_result *r, const int64_t *values) {
  int lo = 0, hi = r->nstates;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    int c = compare_values(r->states[mid].values, values, r->nobserved);
    if (c == 0)
      return true;
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return false;
}

/* Count one allowed execution ending in `values` (kept sorted). */
static void record_state(sc_result *r, const int64_t *values, bool holds) {
  int lo = 0, hi = r->nstates;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    int c = compare_values(r->states[mid].values, values, r->nobserved);
    if (c == 0) {
      r->states[mid].count++;
      return;
    }
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  sci_grow(&r->states, &r->capstates, r->nstates + 1, sizeof(sc_state));
  memmove(&r->states[lo + 1], &r->states[lo],
          sizeof(sc_state) * (size_t)(r->nstates - lo));
  sc_state *s = &r->states[lo];
  s->values = sci_alloc_atomic(sizeof(int64_t) * (size_t)(r->nobserved + 1));
  memcpy(s->values, values, sizeof(int64_t) * (size_t)r->nobserved);
  s->count = 1;
  s->holds = holds;
  r->nstates++;
}

static void record_flag(sc_result *r, const char *name) {
  for (int k = 0; k < r->nflags; k++)
    if (strcmp(r->flags[k], name) == 0)
      return;
  sci_grow(&r->flags, &r->capflags, r->nflags + 1, sizeof(char *));
  r->flags[r->nflags++] = name;
}

/* ---- Witnesses ------------------------------------------------------------ */

static bool has_flag_witness(const sc_result *r, const char *name) {
  for (int k = 0; k < r->nflag_witnesses; k++)
    if (strcmp(r->flag_witnesses[k].flag, name) == 0)
      return true;
  return false;
}

/* The first pair (a, b), a < b when the relation has one (a race is
 * symmetric), of the value a flag tested in x; for a set, its first event
 * and b = -1. */
static void first_pair(const sc_execution *x, const sc_cat_value *v, int *a, int *b) {
  *a = *b = -1;
  const sc_rel *rel = v ? sci_cat_value_rel(v, x->nevents) : NULL;
  if (rel) {
    for (int pass = 0; pass < 2; pass++) /* a < b first, then any pair */
      for (int i = 0; i < x->nevents; i++)
        for (int j = pass ? 0 : i + 1; j < x->nevents; j++)
          if (sc_rel_has(rel, i, j)) {
            *a = i, *b = j;
            return;
          }
    return;
  }
  const sc_set *set = v ? sci_cat_value_set(v, x->nevents) : NULL;
  for (int i = 0; set && i < x->nevents; i++)
    if (sc_set_has(set, i)) {
      *a = i;
      return;
    }
}

/* Keep x as the witness of each flag `out` raised that has none yet. */
static void keep_flag_witnesses(sc_result *r, const sc_execution *x,
                                const sc_cat_outcome *out) {
  sc_execution *copy = NULL;
  for (int i = 0; i < out->nchecks; i++) {
    const sc_cat_check *c = &out->checks[i];
    if (!c->is_flag || !c->passed || c->skipped || has_flag_witness(r, c->name))
      continue;
    if (!copy)
      copy = sci_exec_snapshot(x);
    sci_grow(&r->flag_witnesses, &r->capflag_witnesses, r->nflag_witnesses + 1,
             sizeof(sci_flag_witness));
    sci_flag_witness *w = &r->flag_witnesses[r->nflag_witnesses++];
    *w = (sci_flag_witness){.flag = c->name, .x = copy};
    first_pair(x, c->value, &w->a, &w->b);
  }
}

/* The first execution that decides the condition is kept (the story of a
 * failed forall or a satisfied ~exists). */
static void keep_cond_witness(sim_search *s, const sc_execution *x, bool holds) {
  if (!s->r->cond_witness && s->t->cond && sci_sim_decides(s->t, holds))
    s->r->cond_witness = sci_exec_snapshot(x);
}


static bool wants_picture(const sim_search *s, bool holds) {
  switch (s->opts.show) {
  case SC_SHOW_NONE: return false;
  case SC_SHOW_PROP: return holds;
  case SC_SHOW_NEG: return !holds;
  case SC_SHOW_COND: return sci_sim_decides(s->t, holds);
  case SC_SHOW_ALL: return true;
  }
  return false;
}

/* Why the model forbids x: a cycle in the relation of its first failed
 * check (acyclic, irreflexive), drawn bold; NULL when there is none. */
static const sc_cycle *forbidding_cycle(const sc_execution *x,
                                        const sc_cat_outcome *out) {
  for (int i = 0; i < out->nchecks; i++) {
    const sc_cat_check *c = &out->checks[i];
    if (c->passed || c->is_flag || c->skipped)
      continue;
    const sc_rel *r = c->value ? sci_cat_value_rel(c->value, x->nevents) : NULL;
    int *events = sci_alloc_atomic(sizeof(int) * (size_t)(x->nevents + 1));
    int k = r ? sci_rel_find_cycle(r, events) : 0;
    if (k == 0)
      return NULL;
    sc_cycle *cycle = sci_alloc(sizeof *cycle);
    *cycle = (sc_cycle){.check = c->name, .events = events, .n = k};
    return cycle;
  }
  return NULL;
}

/* SC_SPEEDCHECK_VERDICTS: whether each answer the search can have early
 * is in (the condition decided; where the model may raise a flag, one
 * raised): then it stops. */
static void stop_when_answered(sim_search *s) {
  if (s->opts.speedcheck == SC_SPEEDCHECK_VERDICTS && s->r->cond_witness &&
      (!s->may_flag || s->model_flag_raised))
    s->done = true;
}

/* Under -speedcheck, whether an execution ending where the condition's
 * proposition `holds` (or not) is counted; fast stops the search at the
 * first one counted. */
static bool speedcheck_counts(sim_search *s, bool holds) {
  if (s->opts.speedcheck == SC_SPEEDCHECK_FALSE ||
      s->opts.speedcheck == SC_SPEEDCHECK_VERDICTS)
    return true;
  if (!sci_sim_decides(s->t, holds))
    return false;
  s->done = s->opts.speedcheck == SC_SPEEDCHECK_FAST;
  return true;
}

/* Kept to be drawn, when -show asks for it and -max-shown leaves room. */
static void keep_picture(sim_search *s, const sc_execution *x, const sc_cat_outcome *out,
                         bool holds) {
  sc_result *r = s->r;
  if (!wants_picture(s, holds) || r->nshown >= s->opts.max_shown)
    return;
  sci_grow(&r->execs, &r->capexecs, r->nshown + 1, sizeof(sc_execution *));
  sci_grow(&r->cycles, &r->capcycles, r->nshown + 1, sizeof(sc_cycle *));
  r->cycles[r->nshown] = out->allowed ? NULL : forbidding_cycle(x, out);
  r->execs[r->nshown++] = sci_exec_snapshot(x);
}

/* The observed values of x's final state in s->values. */
static void read_values(sim_search *s, const sc_execution *x) {
  for (int i = 0; i < s->r->nobserved; i++)
    s->values[i] = sci_exec_lval(x, &s->r->observed[i]);
}

/* Count one allowed execution ending in `values`: an engine that counts
 * states (README: Engines) counts each once, also those of the
 * combinations it has enumerated. */
static void count_state(sim_search *s, const int64_t *values, bool holds) {
  if (s->engine->counts_states && state_known(s->r, values))
    return;
  if (holds)
    s->r->positive++;
  else
    s->r->negative++;
  record_state(s->r, values, holds);
}

/* Under thread symmetry, the execution just counted stands for one in each
 * other combination of its orbit (or, counting states, for its images
 * under every symmetry): their final states are its own permuted, and
 * decide the condition alike (symmetry.c keeps it). */
static void count_symmetric_states(sim_search *s, bool holds) {
  int n = sci_sim_symmetry_nimages(s->sym);
  if (n == 0)
    return;
  for (int k = 0; k < n; k++)
    count_state(s, sci_sim_symmetry_image(s->sym, k, s->values), holds);
}

/* ---- The sink ---------------------------------------------------------------- */

sc_result *sci_sim_sink_new_result(const sim_search *s) {
  sc_result *r = sci_alloc(sizeof(sc_result));
  r->test = s->t;
  r->engine = s->engine->name;
  r->speedcheck = s->opts.speedcheck;
  r->liveness = s->opts.liveness ? SC_LIVE_PASS : SC_LIVE_NONE; /* till a witness */
  choose_observed(r, s->t);
  return r;
}

/* A kernel's thread that stopped at an access outside its memory, in an
 * execution the model allows: the flag out-of-bounds, and the first such
 * access kept for sc_result_bounds. */
static void note_fault(sc_result *r, const sc_execution *x) {
  for (int i = 0; i < x->test->nthreads; i++) {
    const sc_trace *tr = x->traces[i];
    if (!tr || !tr->fault)
      continue;
    record_flag(r, "out-of-bounds");
    if (!r->fault) {
      r->fault = tr->fault;
      r->fault_thread = i;
      r->fault_address = tr->fault_address;
    }
    return;
  }
}

/* x with its collapsed values computed (values_after), or x itself; NULL
 * when that failed (s->err, and the search stops). */
static const sc_execution *with_values(sim_search *s, const sc_execution *x) {
  if (!s->values_after)
    return x;
  sc_execution *y;
  if (sci_sim_data_only_values(x, sci_sem_unroll_of(s->opts.unroll), &y, &s->err)) {
    s->values_failed = s->done = true;
    return NULL;
  }
  return y;
}

bool sci_sim_sink_execution(sim_search *s, sc_execution *given, const sc_cat_outcome *out) {
  const sc_execution *x;
  if (s->done || !(x = with_values(s, given)) ||
      (s->t->filter && !sci_exec_holds(x, s->t->filter)))
    return false;
  if (s->t->byte_addresses)
    note_fault(s->r, x);
  bool holds = sci_exec_holds(x, s->t->cond);
  if (!speedcheck_counts(s, holds))
    return false;
  read_values(s, x);
  count_state(s, s->values, holds);
  count_symmetric_states(s, holds);
  keep_cond_witness(s, x, holds);
  if (!out) {
    stop_when_answered(s);
    return true;
  }
  for (int i = 0; i < out->nflags; i++)
    record_flag(s->r, out->flags[i]);
  if (out->nflags) {
    keep_flag_witnesses(s->r, x, out);
    s->model_flag_raised = true;
  }
  if (!s->engine->counts_states)
    keep_picture(s, x, out, holds);
  stop_when_answered(s);
  return true;
}

void sci_sim_sink_flag(sim_search *s, const char *name, const sc_execution *x,
                       const sc_cat_outcome *out) {
  record_flag(s->r, name);
  if (x && out && !(x = with_values(s, x)))
    return;
  if (x && out)
    keep_flag_witnesses(s->r, x, out);
  s->model_flag_raised = true;
  stop_when_answered(s);
}

bool sci_sim_sink_wants_checks(const sim_search *s, const sc_cat_outcome *out) {
  if (out->nchecks)
    return false;
  for (int i = 0; i < out->nflags; i++)
    if (!has_flag_witness(s->r, out->flags[i]))
      return true;
  return false;
}

bool sci_sim_sink_flag_known(const sim_search *s, const char *name) {
  for (int k = 0; k < s->r->nflags; k++)
    if (strcmp(s->r->flags[k], name) == 0)
      return true;
  return false;
}

bool sci_sim_sink_state_known(sim_search *s, const sc_execution *x) {
  read_values(s, x);
  return state_known(s->r, s->values);
}

void sci_sim_sink_liveness_witness(sim_search *s, const sc_execution *x) {
  sci_live_witness(s->r, x, s->opts.show != SC_SHOW_NONE);
  if (s->opts.speedcheck == SC_SPEEDCHECK_VERDICTS)
    s->done = true; /* one witness is the answer: no combination after it */
}
