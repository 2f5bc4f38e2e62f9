/* enumerate.c: candidate executions and the simulation loop.  First the values
 * each location may hold are found (a least fixpoint: initial values, then
 * the values written by trace combinations in which every read can find a
 * write of its value, until nothing new appears; values out of thin air
 * are never guessed, as herd7's equations never invent them).  Then for
 * each choice of one trace per thread, every rf (each read from a write of
 * the same location and value) and every co (per location, an order of its
 * writes after the initial one: total as in herd, partial for the PTX
 * dialect as in Dat3M), and, when the model names them, every barrier
 * synchronisation and fence.sc order, is built and given to the model; the
 * final states of the executions it allows are collected.  With -liveness
 * only the combinations with a stuck run are searched, for one witness
 * (liveness.c) instead of the states. */
#define _POSIX_C_SOURCE 200809L
#include "util/error.h"
#include "util/strbuf.h"
#include "sim/execution.h"
#include "sim/dynamic.h"
#include "util/gcmem.h"
#include "util/oom.h"
#include "sim/model.h"
#include "rel/order.h"
#include "sim/liveness.h"
#include "sim/result.h"
#include "sim/symbolic.h"

#include <string.h>
#include <stdlib.h>

#define DEFAULT_MAX_EXECUTIONS 10000000L
#define MAX_VALUES_PER_LOCATION 256
#define DEFAULT_MAX_SHOWN 100
/* -engine auto: enumerate when the estimate of the candidates (the rf and
 * co choices of every combination of traces) is at most this, else go
 * symbolic. */
#define AUTO_MAX_EXECUTIONS 20000L

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
  sc_grow(&r->observed, cap, r->nobserved + 1, sizeof(sc_lval));
  r->observed[r->nobserved++] = lv;
}

static void observe_prop(sc_result *r, const sc_prop *p, int *cap) {
  if (!p)
    return;
  if (p->kind == SC_PROP_EQ || p->kind == SC_PROP_NE) {
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
  sc_grow(&r->states, &r->capstates, r->nstates + 1, sizeof(sc_state));
  memmove(&r->states[lo + 1], &r->states[lo],
          sizeof(sc_state) * (size_t)(r->nstates - lo));
  sc_state *s = &r->states[lo];
  s->values = sc_alloc_atomic(sizeof(int64_t) * (size_t)(r->nobserved + 1));
  memcpy(s->values, values, sizeof(int64_t) * (size_t)r->nobserved);
  s->count = 1;
  s->holds = holds;
  r->nstates++;
}

static void record_flags(sc_result *r, const sc_cat_outcome *o) {
  for (int i = 0; i < o->nflags; i++) {
    bool known = false;
    for (int k = 0; k < r->nflags && !known; k++)
      known = strcmp(r->flags[k], o->flags[i]) == 0;
    if (known)
      continue;
    sc_grow(&r->flags, &r->capflags, r->nflags + 1, sizeof(char *));
    r->flags[r->nflags++] = o->flags[i];
  }
}

/* ---- The search ---------------------------------------------------------- */

/* What the adaptive cutting keeps per depth of the search tree. */
#define MAX_DEPTH_STATS 256

typedef struct search {
  const sc_test *t;
  const sc_model *m;
  sc_sim_options opts;
  sc_cat_run_options eval;
  sc_result *r;
  double start, last_progress;
  int64_t *values; /* scratch: the observed values of one execution */
  bool partial_co;      /* co need not be total (the PTX dialect, as Dat3M) */
  bool want_syncbar;    /* the model names syncbar: barriers are scheduled */
  bool want_sync_fence; /* the model names sync_fence: fence.sc is ordered */
  bool prune;           /* cut branches early (not -noprune, not -through) */
  /* co is chosen before rf: with co known, fr and po cut most rf choices.
   * Only when nothing reported depends on the order executions are met
   * in (no drawings, no flags: states are sorted, counts are sums). */
  bool co_first;
  bool smt;             /* the symbolic engine: rf and co are solver choices */
  bool *final_locs;     /* smt: per location, whether its final value is read */
  bool may_flag;        /* smt: the model may raise a flag */
  bool hybrid;          /* smt under auto: small combinations are enumerated */
  struct sc_sym_session *session; /* smt: the solver's context */
  bool done;            /* -speedcheck fast: an execution decided the
                           condition, the search stops */
  long nodes;           /* partial candidates looked at */
  /* hybrid: a quick look for one allowed execution before a solver call
   * (witness_search): looks left (0: not looking), and how it ended */
  long witness_left;
  bool witness_found, witness_spent;
  /* per depth: partial candidates looked at, and those cut */
  long tries[MAX_DEPTH_STATS], cuts[MAX_DEPTH_STATS], passes[MAX_DEPTH_STATS];
  sc_error *err;
} search;

/* Per location: its writes (not the initial one) and the order co puts
 * them in so far (rel/order.h's walk: complete once every write is placed). */
typedef struct co_choice {
  int init;    /* the initial write */
  int *writes;
  int n;
  uint32_t below[SC_ORDER_MAX_ITEMS];
  uint32_t placed;
  int depth;   /* the search depth before its first write is placed */
} co_choice;

/* Checks that can cut a branch, run together on the same bounds: rf and co
 * as chosen so far (lower bounds of every completion's), or their upper
 * bounds (every edge a completion may still add). */
typedef struct prune_group {
  bool rf_upper, co_upper;
  const struct sc_cat_test **checks;
  int n;
  sc_cat_run_options eval;
} prune_group;

/* The choices made for one execution, and the search's scratch. */
typedef struct candidate {
  sc_execution *x;
  sc_cat_env *env;
  co_choice *co; /* per location */
  int nlocs;
  int nreads;    /* rf: read k reads from cands[k][pick] */
  int *reads, **cands, *ncands;
  int rf_left;   /* reads 0..rf_left-1 are not chosen yet */
  bool co_choices; /* some location has two writes or more to order */
  int rf_depth;    /* the search depth of the first read chosen */
  bool rf_choices; /* some read has two candidate writes or more */
  sc_rel *rf_low, *co_low; /* the choices so far: x->rf and x->co point here */
  sc_rel *rf_up, *co_up; /* upper bounds, for prune groups that want them */
  prune_group groups[4];
  int ngroups;
  sc_cat_run_options eval; /* s->eval, keeping the model's fixed values */
} candidate;

/* co from the orders so far; every write follows its initial write. */
static void build_co(sc_rel *co, const co_choice *cc, int nlocs) {
  sc_rel_clear(co);
  for (int l = 0; l < nlocs; l++) {
    const co_choice *c = &cc[l];
    for (int i = 0; i < c->n; i++) {
      if (c->init >= 0)
        sc_rel_add(co, c->init, c->writes[i]);
      for (uint32_t b = c->below[i]; b; b &= b - 1)
        sc_rel_add(co, c->writes[__builtin_ctz(b)], c->writes[i]);
    }
  }
}

/* Every pair a completion of the orders so far may have in co: the pairs
 * chosen, and those with a write still to place (a total order puts it
 * after the placed ones: only pairs of unplaced writes are open). */
static void build_co_upper(sc_rel *up, const sc_rel *co, const co_choice *cc,
                           int nlocs, bool partial) {
  sc_rel_assign(up, co);
  for (int l = 0; l < nlocs; l++) {
    const co_choice *c = &cc[l];
    for (int a = 0; a < c->n; a++)
      for (int b = 0; b < c->n; b++) {
        bool pa = c->placed >> a & 1, pb = c->placed >> b & 1;
        if (a != b && (partial ? !(pa && pb) : !(pa || pb)))
          sc_rel_add(up, c->writes[a], c->writes[b]);
      }
  }
}

/* Every pair rf may have: the reads chosen, and any write for the others. */
static void build_rf_upper(candidate *cd) {
  sc_rel_assign(cd->rf_up, cd->rf_low);
  for (int k = 0; k < cd->rf_left; k++)
    for (int j = 0; j < cd->ncands[k]; j++)
      sc_rel_add(cd->rf_up, cd->cands[k][j], cd->reads[k]);
}

static sc_status out_of_time(search *s) {
  return sc_fail(&s->err, SC_ERR_LIMIT, s->t->file, 0, 0,
                 "expected to finish within %g s (the -timeout limit)",
                 s->opts.timeout);
}

static sc_status check_budget(search *s) {
  if (s->done)
    return SC_ERR_LIMIT; /* unwinds the search; search_once knows why */
  long n = ++s->r->candidates;
  if (s->witness_left && --s->witness_left == 0) {
    s->witness_spent = true;
    return SC_ERR_LIMIT;
  }
  if (n > s->opts.max_executions)
    return sc_fail(&s->err, SC_ERR_LIMIT, s->t->file, 0, 0,
                   "expected at most %ld candidate executions (the "
                   "-max-executions limit)", s->opts.max_executions);
  if ((n & 255) == 0) {
    double t = sc_seconds();
    if (s->opts.timeout > 0 && t - s->start > s->opts.timeout)
      return out_of_time(s);
    if (s->opts.progress && t - s->last_progress > 0.25) {
      s->last_progress = t;
      s->opts.progress(s->opts.progress_ctx, n, t - s->start);
    }
  }
  return SC_OK;
}

static bool wants_picture(const search *s, bool holds) {
  switch (s->opts.show) {
  case SC_SHOW_NONE: return false;
  case SC_SHOW_PROP: return holds;
  case SC_SHOW_NEG: return !holds;
  case SC_SHOW_COND: return sc_sim_decides(s->t, holds);
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
    const sc_rel *r = c->value ? sc_cat_value_rel(c->value, x->nevents) : NULL;
    int *events = sc_alloc_atomic(sizeof(int) * (size_t)(x->nevents + 1));
    int k = r ? sc_rel_find_cycle(r, events) : 0;
    if (k == 0)
      return NULL;
    sc_cycle *cycle = sc_alloc(sizeof *cycle);
    *cycle = (sc_cycle){c->name, events, k};
    return cycle;
  }
  return NULL;
}

/* Under -speedcheck, whether an execution ending where the condition's
 * proposition `holds` (or not) is counted; fast stops the search at the
 * first one counted. */
static bool speedcheck_counts(search *s, bool holds) {
  if (s->opts.speedcheck == SC_SPEEDCHECK_FALSE)
    return true;
  if (!sc_sim_decides(s->t, holds))
    return false;
  s->done = s->opts.speedcheck == SC_SPEEDCHECK_FAST;
  return true;
}

/* One outcome of an execution the model allows (or that -through keeps):
 * its final state counted, and drawn if asked. */
static void record(search *s, sc_execution *x, const sc_cat_outcome *out) {
  if (s->done || (s->t->filter && !sc_exec_holds(x, s->t->filter)))
    return;
  bool holds = sc_exec_holds(x, s->t->cond);
  if (!speedcheck_counts(s, holds))
    return;
  for (int i = 0; i < s->r->nobserved; i++)
    s->values[i] = sc_exec_lval(x, &s->r->observed[i]);
  /* a combination enumerated under smt counts states, as the solver does */
  if (!s->smt || !state_known(s->r, s->values)) {
    if (holds)
      s->r->positive++;
    else
      s->r->negative++;
    record_state(s->r, s->values, holds);
  }
  record_flags(s->r, out);
  if (s->smt)
    return;
  if (wants_picture(s, holds) && s->r->nshown < s->opts.max_shown) {
    sc_grow(&s->r->execs, &s->r->capexecs, s->r->nshown + 1, sizeof(sc_execution *));
    sc_grow(&s->r->cycles, &s->r->capcycles, s->r->nshown + 1, sizeof(sc_cycle *));
    s->r->cycles[s->r->nshown] = out->allowed ? NULL : forbidding_cycle(x, out);
    s->r->execs[s->r->nshown++] = sc_exec_snapshot(x);
  }
}

/* The writes an observed location may end with: the maximal ones of its
 * co (one, unless co is partial); an empty mask when it has no writes
 * but the initial one. */
static uint32_t last_writes(const co_choice *c) {
  uint32_t before_something = 0;
  for (int i = 0; i < c->n; i++)
    before_something |= c->below[i];
  return c->placed & ~before_something;
}

/* Every outcome of an allowed execution.  When co leaves several writes of
 * an observed location unordered at its end, the location may end with
 * the value of any of them (Dat3M): one outcome each. */
static void record_outcomes(search *s, candidate *cd, const sc_cat_outcome *out,
                            int from) {
  sc_execution *x = cd->x;
  for (int i = from; i < s->r->nobserved; i++) {
    const sc_lval *o = &s->r->observed[i];
    if (o->kind != SC_LVAL_LOC)
      continue;
    int l = sc_physical_loc(s->t, o->loc);
    uint32_t last = last_writes(&cd->co[l]);
    if (__builtin_popcount(last) < 2 || x->final_write[l] >= 0)
      continue; /* decided, or decided by an earlier term */
    for (uint32_t b = last; b; b &= b - 1) {
      x->final_write[l] = cd->co[l].writes[__builtin_ctz(b)];
      record_outcomes(s, cd, out, i + 1);
    }
    x->final_write[l] = -1;
    return;
  }
  record(s, x, out);
}

/* One candidate: rf, co and the other choices are set in x. */
static sc_status evaluate(search *s, candidate *cd) {
  if (s->r->liveness == SC_LIVE_FAIL)
    return SC_OK; /* one witness is the answer */
  sc_status st = check_budget(s);
  if (st)
    return st;
  /* -speedcheck: with co total the final state is known before the
   * model runs; herd runs it only where that state decides (worth_going) */
  if (s->opts.speedcheck && !s->partial_co && !s->opts.through &&
      ((s->t->filter && !sc_exec_holds(cd->x, s->t->filter)) ||
       !sc_sim_decides(s->t, sc_exec_holds(cd->x, s->t->cond))))
    return SC_OK;
  sc_exec_bind_dynamic(cd->x, cd->env);
  sc_cat_outcome out;
  st = sc_cat_run(s->m->cat, cd->env, &cd->eval, &out, &s->err);
  if (st)
    return st;
  if (s->opts.liveness) { /* a witness, not a state (liveness.c) */
    if (out.allowed && sc_live_fair(cd->x))
      sc_live_witness(s->r, cd->x, s->opts.show != SC_SHOW_NONE);
    return SC_OK;
  }
  if (out.allowed || s->opts.through)
    record_outcomes(s, cd, &out, 0);
  if (out.allowed && s->witness_left) {
    s->witness_found = true; /* one is all witness_search asks for */
    return SC_ERR_LIMIT;
  }
  return SC_OK;
}

/* Whether the write at position wi of trace `tw` may be what the read at
 * position ri of trace `tr` reads: same location and value, and the write's
 * value must not be made from the read itself (its own atom's write, or a
 * write of the same run whose data depends on it): such a value would come
 * out of thin air, as herd7's equations (v = v + 0) leave it undetermined. */
static bool may_feed(const sc_trace *tw, int wi, const sc_trace *tr, int ri) {
  const sc_trace_event *w = &tw->events[wi], *r = &tr->events[ri];
  if (w->kind != SC_EV_WRITE || w->loc != r->loc || w->value != r->value)
    return false;
  if (tw != tr)
    return true;
  return w->rmw_partner != ri && !(w->data_deps & ((uint64_t)1 << ri));
}

/* may_feed for events of an execution; initial writes feed any read of
 * their location and value. */
static bool write_may_feed(const sc_execution *x, int w, int r) {
  const sc_event *we = &x->events[w], *re = &x->events[r];
  if (we->thread < 0)
    return we->kind == SC_EV_WRITE && we->loc == re->loc && we->value == re->value;
  const sc_trace *tw = x->traces[we->thread], *tr = x->traces[re->thread];
  return may_feed(tw, w - x->thread_first[we->thread], tr,
                  r - x->thread_first[re->thread]);
}

/* ---- Cutting branches ------------------------------------------------------ */

/* Whether looking at the partial candidates of this depth still pays: at
 * first always, then while they are cut often enough, then one in 16 (a
 * look never changes what is found, only how fast). */
static bool worth_a_look(search *s, int depth) {
  if (depth >= MAX_DEPTH_STATS)
    depth = MAX_DEPTH_STATS - 1;
  long t = s->tries[depth];
  if (t < 64 || s->cuts[depth] * 20 >= t || (s->passes[depth]++ & 15) == 0) {
    s->tries[depth]++;
    return true;
  }
  return false;
}

/* Whether the partial candidate in cd may still complete to an execution
 * the model allows: 0 when a check that only gets worse as edges are
 * added (cat/mono.c) already fails on the bounds; <0 past the time limit. */
static int may_complete(search *s, candidate *cd, int depth) {
  if (s->witness_left && --s->witness_left == 0) {
    s->witness_spent = true;
    return -1;
  }
  if (!cd->ngroups || !worth_a_look(s, depth))
    return 1;
  if ((++s->nodes & 255) == 0 && s->opts.timeout > 0 &&
      sc_seconds() - s->start > s->opts.timeout) {
    out_of_time(s);
    return -1;
  }
  sc_execution *x = cd->x;
  int verdict = 1;
  for (int g = 0; g < cd->ngroups && verdict; g++) {
    const prune_group *pg = &cd->groups[g];
    if (pg->rf_upper)
      build_rf_upper(cd);
    if (pg->co_upper)
      build_co_upper(cd->co_up, cd->co_low, cd->co, cd->nlocs, s->partial_co);
    x->rf = pg->rf_upper ? cd->rf_up : cd->rf_low;
    x->co = pg->co_upper ? cd->co_up : cd->co_low;
    sc_exec_bind_dynamic(x, cd->env);
    sc_cat_outcome out;
    sc_error *err = NULL;
    /* an error is for the complete candidates to report, if they meet it */
    if (sc_cat_run(s->m->cat, cd->env, &pg->eval, &out, &err) == SC_OK &&
        !out.allowed)
      verdict = 0;
  }
  x->rf = cd->rf_low;
  x->co = cd->co_low;
  if (!verdict)
    s->cuts[depth < MAX_DEPTH_STATS ? depth : MAX_DEPTH_STATS - 1]++;
  return verdict;
}

/* ---- The search tree ------------------------------------------------------- */

/* Reads and locations are chosen in the order the odometers of full
 * enumeration turned them (the last read and the last location vary
 * slowest), so that the executions kept come in the same order. */
static sc_status co_level(search *s, candidate *cd, int l);

typedef struct co_walk {
  search *s;
  candidate *cd;
  int l;
  sc_status st;
} co_walk;

static int co_step(void *ctx, const uint32_t *below, uint32_t placed) {
  co_walk *w = ctx;
  co_choice *c = &w->cd->co[w->l];
  memcpy(c->below, below, sizeof(uint32_t) * (size_t)c->n);
  c->placed = placed;
  if (placed == sc_order_all(c->n)) {
    w->st = co_level(w->s, w->cd, w->l - 1);
    return w->st ? -1 : 1;
  }
  build_co(w->cd->co_low, w->cd->co, w->cd->nlocs);
  int r = may_complete(w->s, w->cd, c->depth + __builtin_popcount(placed));
  if (r < 0)
    w->st = SC_ERR_LIMIT;
  return r;
}

/* The orders of location l, then those of the locations before it; every
 * choice made: one candidate. */
static sc_status rf_level(search *s, candidate *cd, int k);

/* What comes once rf, or co, is chosen. */
static sc_status after_rf(search *s, candidate *cd) {
  return s->co_first ? evaluate(s, cd) : co_level(s, cd, cd->nlocs - 1);
}

static sc_status after_co(search *s, candidate *cd) {
  build_co(cd->co_low, cd->co, cd->nlocs);
  return s->co_first ? rf_level(s, cd, cd->nreads) : evaluate(s, cd);
}

static sc_status co_level(search *s, candidate *cd, int l) {
  if (l < 0)
    return after_co(s, cd);
  co_choice *c = &cd->co[l];
  if (c->n == 0)
    return co_level(s, cd, l - 1);
  co_walk w = {s, cd, l, SC_OK};
  if (s->partial_co)
    sc_orders_walk_partial(c->n, NULL, co_step, &w);
  else
    sc_orders_walk_total(c->n, co_step, &w);
  memset(c->below, 0, sizeof c->below);
  c->placed = 0;
  build_co(cd->co_low, cd->co, cd->nlocs); /* the levels above see their co */
  return w.st;
}

/* Reads k-1 down to 0 still to choose, then what follows rf.  A read with
 * one candidate write was given it from the start (each_rf). */
static sc_status rf_level(search *s, candidate *cd, int k) {
  if (k == 0)
    return after_rf(s, cd);
  int r = k - 1, depth = cd->rf_depth + cd->nreads - k;
  if (cd->ncands[r] == 1) {
    cd->rf_left = r;
    /* with rf complete and co to choose, the last look before co */
    int ok = r == 0 && !s->co_first && cd->co_choices && cd->rf_choices
                 ? may_complete(s, cd, depth)
                 : 1;
    return ok < 0 ? SC_ERR_LIMIT : ok ? rf_level(s, cd, r) : SC_OK;
  }
  cd->rf_left = r;
  for (int j = 0; j < cd->ncands[r]; j++) {
    sc_rel_add(cd->rf_low, cd->cands[r][j], cd->reads[r]);
    int ok = may_complete(s, cd, depth);
    sc_status st = ok < 0 ? SC_ERR_LIMIT : ok ? rf_level(s, cd, r) : SC_OK;
    sc_rel_remove(cd->rf_low, cd->cands[r][j], cd->reads[r]);
    cd->rf_left = r;
    if (st)
      return st;
  }
  return SC_OK;
}

/* The look before any choice of rf and co: the reads with one candidate
 * write read from it from the start, as every completion has it, and a
 * check that only gets worse as rf and co grow may fail already (the
 * reads' values may already be wrong).  may_complete's answer. */
static int root_look(search *s, candidate *cd) {
  sc_rel_clear(cd->rf_low);
  for (int k = 0; k < cd->nreads; k++)
    if (cd->ncands[k] == 1)
      sc_rel_add(cd->rf_low, cd->cands[k][0], cd->reads[k]);
  cd->rf_left = cd->nreads;
  build_co(cd->co_low, cd->co, cd->nlocs);
  return may_complete(s, cd, 0);
}

/* Every rf and co for the traces in x. */
static sc_status each_rf(search *s, candidate *cd) {
  int ok = root_look(s, cd);
  if (ok <= 0)
    return ok < 0 ? SC_ERR_LIMIT : SC_OK;
  return s->co_first ? co_level(s, cd, cd->nlocs - 1) : rf_level(s, cd, cd->nreads);
}

/* The candidate writes of each read; false when a read has none (the
 * traces read a value nobody writes). */
static bool rf_choices(candidate *cd) {
  sc_execution *x = cd->x;
  int n = x->nevents;
  cd->reads = sc_alloc_atomic(sizeof(int) * (size_t)(n + 1));
  cd->cands = sc_alloc(sizeof(int *) * (size_t)(n + 1));
  cd->ncands = sc_alloc_atomic(sizeof(int) * (size_t)(n + 1));
  cd->nreads = 0;
  for (int i = 0; i < n; i++) {
    if (x->events[i].kind != SC_EV_READ)
      continue;
    int k = cd->nreads;
    cd->cands[k] = sc_alloc_atomic(sizeof(int) * (size_t)n);
    cd->ncands[k] = 0;
    for (int w = 0; w < n; w++)
      if (write_may_feed(x, w, i))
        cd->cands[k][cd->ncands[k]++] = w;
    if (cd->ncands[k] == 0)
      return false;
    cd->reads[cd->nreads++] = i;
  }
  return true;
}

/* Per location, its writes; each starts unordered. */
static sc_status co_choices(search *s, candidate *cd) {
  sc_execution *x = cd->x;
  int n = x->nevents;
  cd->nlocs = s->t->nlocs;
  cd->co = sc_alloc(sizeof(co_choice) * (size_t)(cd->nlocs + 1));
  for (int l = 0; l < cd->nlocs; l++) {
    cd->co[l].writes = sc_alloc_atomic(sizeof(int) * (size_t)(n + 1));
    cd->co[l].init = -1;
  }
  for (int i = 0; i < n; i++) {
    const sc_event *e = &x->events[i];
    if (e->kind != SC_EV_WRITE)
      continue;
    co_choice *c = &cd->co[e->loc];
    if (e->thread < 0)
      c->init = i;
    else if (c->n == SC_ORDER_MAX_ITEMS)
      return sc_fail(&s->err, SC_ERR_LIMIT, s->t->file, 0, 0,
                     "expected at most %d writes to location %s",
                     SC_ORDER_MAX_ITEMS, s->t->locs[e->loc].name);
    else
      c->writes[c->n++] = i;
  }
  int depth = s->co_first ? 1 : 1 + cd->nreads; /* depth 0: the root */
  for (int l = cd->nlocs - 1; l >= 0; l--) {
    cd->co[l].depth = depth;
    depth += cd->co[l].n;
    cd->co_choices |= cd->co[l].n > 1;
  }
  cd->rf_depth = s->co_first ? depth : 1;
  for (int k = 0; k < cd->nreads; k++)
    cd->rf_choices |= cd->ncands[k] > 1;
  return SC_OK;
}

/* The checks that may cut branches, grouped by the bounds they need: a
 * check whose failure grows with rf (or co) looks at the choices so far,
 * one whose failure grows as rf (or co) shrinks looks at the upper bound;
 * one that depends on rf or co both ways, or on neither, is left to the
 * complete candidates. */
static void prune_groups(search *s, candidate *cd, const sc_cat_analysis *an) {
  cd->ngroups = 0;
  if (!s->prune)
    return;
  const uint32_t mask = SIM_IN_RF | SIM_IN_CO;
  for (int i = 0; i < sc_cat_analysis_nchecks(an); i++) {
    sc_cat_dep d;
    const struct sc_cat_test *t = sc_cat_analysis_check(an, i, &d);
    if ((d.up & d.down & mask) || !((d.up | d.down) & mask))
      continue;
    bool rfu = d.down & SIM_IN_RF, cou = d.down & SIM_IN_CO;
    int g = 0;
    while (g < cd->ngroups &&
           (cd->groups[g].rf_upper != rfu || cd->groups[g].co_upper != cou))
      g++;
    prune_group *pg = &cd->groups[g];
    if (g == cd->ngroups) {
      cd->ngroups++;
      *pg = (prune_group){rfu, cou, sc_alloc(sizeof(void *) * 64), 0, cd->eval};
    }
    if (pg->n < 64)
      pg->checks[pg->n++] = t;

  }
  for (int g = 0; g < cd->ngroups; g++) {
    cd->groups[g].eval.only = cd->groups[g].checks;
    cd->groups[g].eval.nonly = cd->groups[g].n;
  }
}

/* The environment of the traces in cd->x, what the model's values depend
 * on, and the search's buffers. */
static void prepare(search *s, candidate *cd) {
  int n = cd->x->nevents;
  const char *names[SIM_NDYNAMIC];
  sc_cat_dynamic deps[SIM_NDYNAMIC];
  sim_dynamic_name_list(names);
  sim_dynamic_deps(deps);
  cd->env = sc_cat_env_new(n);
  sc_exec_bind_static(cd->x, cd->env);
  sc_exec_bind_dynamic(cd->x, cd->env);
  sc_cat_env_set_dynamic(cd->env, names, SIM_NDYNAMIC);
  const sc_cat_analysis *an =
      sc_cat_analyse(s->m->cat, cd->env, deps, SIM_NDYNAMIC, &s->eval);
  cd->eval = s->eval;
  cd->eval.analysis = an;
  prune_groups(s, cd, an);
  cd->rf_low = cd->x->rf;
  cd->co_low = cd->x->co;
  cd->rf_up = sc_rel_new(n);
  cd->co_up = sc_rel_new(n);
}

/* ---- The symbolic engine's hooks ------------------------------------------ */

static bool sym_found(void *ctx, sc_execution *x) {
  search *s = ctx;
  if (s->done || (s->t->filter && !sc_exec_holds(x, s->t->filter)))
    return false;
  bool holds = sc_exec_holds(x, s->t->cond);
  if (!speedcheck_counts(s, holds))
    return false;
  for (int i = 0; i < s->r->nobserved; i++)
    s->values[i] = sc_exec_lval(x, &s->r->observed[i]);
  if (state_known(s->r, s->values))
    return true;
  /* Positive and Negative count states under smt (README: Engines) */
  if (holds)
    s->r->positive++;
  else
    s->r->negative++;
  record_state(s->r, s->values, holds);
  return true;
}

static void sym_flag(void *ctx, const char *name) {
  search *s = ctx;
  sc_cat_outcome o = {0};
  o.flags = &name;
  o.nflags = 1;
  record_flags(s->r, &o);
}

static bool sym_flag_known(void *ctx, const char *name) {
  search *s = ctx;
  for (int k = 0; k < s->r->nflags; k++)
    if (strcmp(s->r->flags[k], name) == 0)
      return true;
  return false;
}

/* -liveness: the solver found a fair allowed execution (rf, co set in x). */
static void sym_witness(void *ctx, sc_execution *x) {
  search *s = ctx;
  sc_live_witness(s->r, x, s->opts.show != SC_SHOW_NONE);
}

/* n times the orders of w writes (w! total ones; the labelled strict
 * partial orders when co is partial), up to `most` (then most + 1). */
static long times_orders(long n, int w, bool partial, long most) {
  static const long posets[] = {1, 1, 3, 19, 219, 4231, 130023};
  if (partial) {
    if (w > 6)
      return most + 1;
    n *= posets[w];
  } else {
    for (int i = 2; i <= w && n <= most; i++)
      n *= i;
  }
  return n <= most ? n : most + 1;
}

/* How many rf and co choices the traces in cd leave, up to `most` (then
 * most + 1): the reads' candidate writes, the orders of each location's
 * writes (n! total ones; labelled strict partial orders when co is
 * partial). */
static long choices_upto(const search *s, const candidate *cd, long most) {
  long n = 1;
  for (int k = 0; k < cd->nreads && n <= most; k++)
    n *= cd->ncands[k];
  for (int l = 0; l < cd->nlocs && n <= most; l++)
    n = times_orders(n, cd->co[l].n, s->partial_co, most);
  return n <= most ? n : most + 1;
}

/* -engine auto, once symbolic: a combination with this many rf and co
 * choices or fewer is enumerated (cheaper than a solver call); its states
 * are counted as the solver's are.  -engine smt asks the solver always.
 * Small: at 1024, Ticketlock-diff-gpu (ptx/dat3m) enumerated 2916
 * candidates in several times the solver's time for the same combinations. */
#define SMT_ENUMERATE_AT_MOST 16L

/* -engine auto, once symbolic: the looks (partial and complete candidates)
 * the enumerator may take for a witness before a solver call. */
#define WITNESS_LOOKS 64L

/* -engine auto, once symbolic: the executions a concrete run may refute
 * (an encoding that over-approximates: `with co from S`, symbolic.h) before
 * the test is enumerated instead.  herd's cos.cat needs none (its S holds
 * every co); S = {co0} refutes every co of 8 writers, 40320 of them. */
#define MOST_REFUTED 256

/* When the traces fix the state (fixed, below), one allowed execution
 * settles the combination: the enumerator looks for one, within
 * WITNESS_LOOKS, before the solver is asked.  *settled when it found one
 * or enumerated them all; an error is the search's. */
static sc_status witness_search(search *s, candidate *cd, bool *settled) {
  s->witness_left = WITNESS_LOOKS;
  s->witness_found = s->witness_spent = false;
  sc_status st = each_rf(s, cd);
  s->witness_left = 0;
  *settled = s->witness_found || !s->witness_spent;
  if (s->witness_found || s->witness_spent) {
    s->err = NULL; /* the search's own stop, not an error */
    return SC_OK;
  }
  return st;
}

/* rf and co for the traces in x: enumerated, or left to the solver. */
static sc_status each_rf_or_solve(search *s, candidate *cd) {
  if (s->done)
    return SC_ERR_LIMIT; /* -speedcheck fast: see check_budget */
  if (s->r->liveness == SC_LIVE_FAIL)
    return SC_OK; /* one witness is the answer */
  if (!s->smt ||
      (s->hybrid && choices_upto(s, cd, SMT_ENUMERATE_AT_MOST) <= SMT_ENUMERATE_AT_MOST))
    return each_rf(s, cd);
  int ok = root_look(s, cd); /* the look each_rf takes first */
  if (ok <= 0)
    return ok < 0 ? SC_ERR_LIMIT : SC_OK;
  /* When no observed location has a write to choose from, the traces fix
   * the one state this combination may end in: known already (or cut by
   * the filter), it is not worth a solver call, unless a flag may be
   * raised on the way. */
  bool fixed = !s->may_flag && !s->opts.liveness;
  for (int l = 0; l < cd->nlocs && fixed; l++)
    fixed = !s->final_locs[l] || cd->co[l].n == 0;
  if (fixed) {
    for (int i = 0; i < s->r->nobserved; i++)
      s->values[i] = sc_exec_lval(cd->x, &s->r->observed[i]);
    if ((s->t->filter && !sc_exec_holds(cd->x, s->t->filter)) ||
        state_known(s->r, s->values))
      return SC_OK;
    bool settled = false;
    sc_status st = s->hybrid && !s->opts.through ? witness_search(s, cd, &settled) : SC_OK;
    if (st || settled)
      return st;
  }
  s->r->candidates++;
  sc_exec_bind_dynamic(cd->x, cd->env); /* syncbar, sync_fence */
  if (!s->session)
    s->session = sc_sym_open();
  int nl = cd->nlocs;
  int *init = sc_alloc_atomic(sizeof(int) * (size_t)(nl + 1));
  int **writes = sc_alloc(sizeof(int *) * (size_t)(nl + 1));
  int *nwrites = sc_alloc_atomic(sizeof(int) * (size_t)(nl + 1));
  for (int l = 0; l < nl; l++) {
    init[l] = cd->co[l].init;
    writes[l] = cd->co[l].writes;
    nwrites[l] = cd->co[l].n;
  }
  double left = 0;
  if (s->opts.timeout > 0) {
    left = s->opts.timeout - (sc_seconds() - s->start);
    if (left <= 0)
      return out_of_time(s);
  }
  sc_cat_run_options eval = s->eval;
  eval.transient = false;
  sc_sym_problem p = {
    s->t, s->m, cd->x, cd->env, &eval, cd->nreads, cd->reads, cd->cands,
    cd->ncands, nl, init, writes, nwrites, s->partial_co, s->opts.through != 0,
    s->final_locs, left, s->opts.timeout, sym_found, sym_flag, sym_flag_known, s,
    NULL, 0, NULL, s->hybrid ? MOST_REFUTED : 0, &s->done};
  if (s->opts.liveness) {
    p.spin_reads = sc_alloc_atomic(sizeof(int) * (size_t)(cd->x->nevents + 1));
    p.nspin_reads = sc_live_spin_reads(cd->x, p.spin_reads);
    p.witness = sym_witness;
  }
  return sc_sym_solve(s->session, &p, &s->err);
}

/* Every order of the fence.sc events that relates each pair in sr (the
 * morally strong pairs, Dat3M's sync_fence), when the model names it. */
static sc_status each_fence_order(search *s, candidate *cd) {
  sc_execution *x = cd->x;
  if (!s->want_sync_fence)
    return each_rf_or_solve(s, cd);
  int fences[SC_ORDER_MAX_ITEMS], k = 0;
  for (int e = 0; e < x->nevents; e++)
    if (sc_exec_is_fence_sc(x, e)) {
      if (k == SC_ORDER_MAX_ITEMS)
        return sc_fail(&s->err, SC_ERR_LIMIT, s->t->file, 0, 0,
                       "expected at most %d fence.sc events", SC_ORDER_MAX_ITEMS);
      fences[k++] = e;
    }
  uint32_t comparable[SC_ORDER_MAX_ITEMS];
  for (int i = 0; i < k; i++) {
    comparable[i] = 0;
    for (int j = 0; j < k; j++)
      if (i != j && sc_exec_same_scope(x, fences[i], fences[j]))
        comparable[i] |= UINT32_C(1) << j;
  }
  sc_order_list *orders = sc_orders_partial(k, comparable, s->opts.max_executions);
  if (!orders)
    return sc_fail(&s->err, SC_ERR_LIMIT, s->t->file, 0, 0,
                   "expected at most %ld orders of the fence.sc events (the "
                   "-max-executions limit)", s->opts.max_executions);
  for (int o = 0; o < orders->n; o++) {
    const uint32_t *below = sc_order_at(orders, o);
    sc_rel_clear(x->sync_fence);
    for (int i = 0; i < k; i++)
      for (uint32_t b = below[i]; b; b &= b - 1)
        sc_rel_add(x->sync_fence, fences[__builtin_ctz(b)], fences[i]);
    sc_status st = each_rf_or_solve(s, cd);
    if (st)
      return st;
  }
  return SC_OK;
}

/* Every way the barriers may synchronise, when the model names syncbar (a
 * model that does not sees barriers as plain events, as herd7 does). */
static sc_status each_barrier_sync(search *s, candidate *cd) {
  if (!s->want_syncbar && !s->opts.liveness) /* liveness: quorums count */
    return each_fence_order(s, cd);
  sc_rel **syncs;
  int n;
  sc_status st = sc_barrier_syncs(cd->x, s->opts.max_executions, &syncs, &n, &s->err);
  for (int i = 0; i < n && !st; i++) {
    sc_rel_assign(cd->x->syncbar, syncs[i]);
    st = each_fence_order(s, cd);
  }
  return st;
}

/* The next choice of one trace per thread (an odometer); false after the
 * last, when `pick` is back to all zeros. */
static bool next_choice(int *pick, const sc_thread_traces *all, int nthreads) {
  int th = 0;
  while (th < nthreads && ++pick[th] == all[th].ntraces)
    pick[th++] = 0;
  return th < nthreads;
}

static void choose(const sc_trace **chosen, const int *pick,
                   const sc_thread_traces *all, int nthreads) {
  for (int th = 0; th < nthreads; th++)
    chosen[th] = &all[th].traces[pick[th]];
}

static bool any_thread_without_traces(const sc_thread_traces *all, int n) {
  for (int th = 0; th < n; th++)
    if (all[th].ntraces == 0)
      return true; /* every path of this thread was cut by the unroll bound */
  return false;
}

/* Can these traces form an execution: does every read find a write of its
 * value, the initial one or one of the chosen traces? */
static bool reads_can_be_fed(const sc_test *t, const sc_trace **chosen) {
  for (int a = 0; a < t->nthreads; a++)
    for (int i = 0; i < chosen[a]->nevents; i++) {
      const sc_trace_event *r = &chosen[a]->events[i];
      if (r->kind != SC_EV_READ || r->value == sc_value_of(t->locs[r->loc].init))
        continue;
      bool fed = false;
      for (int b = 0; b < t->nthreads && !fed; b++)
        for (int j = 0; j < chosen[b]->nevents && !fed; j++)
          fed = may_feed(chosen[b], j, chosen[a], i);
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
  sc_thread_traces *view = sc_alloc(sizeof(sc_thread_traces) * (size_t)(nthreads + 1));
  for (int th = 0; th < nthreads; th++) {
    const sc_thread_traces *a = &all[th];
    view[th] = *a;
    int n = a->ntraces + a->ncut + (a->ntraces == 0);
    if (n == a->ntraces)
      continue;
    view[th].traces = sc_alloc(sizeof(sc_trace) * (size_t)n); /* zeroed: the empty run last */
    if (a->ntraces > 0)
      memcpy(view[th].traces, a->traces, sizeof(sc_trace) * (size_t)a->ntraces);
    if (a->ncut > 0)
      memcpy(view[th].traces + a->ntraces, a->cut, sizeof(sc_trace) * (size_t)a->ncut);
    view[th].ntraces = n;
  }
  return view;
}

/* Each thread's traces, shortest first (ties in their order), for the
 * symbolic engine and -liveness: a spin loop's shortest traces are those
 * whose spins succeed at once, the combinations most often allowed; and
 * when the traces fix the state (each_rf_or_solve), the first allowed
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

static sc_thread_traces *shortest_first(const sc_thread_traces *all, int nthreads) {
  sc_thread_traces *view = sc_alloc(sizeof(sc_thread_traces) * (size_t)(nthreads + 1));
  for (int th = 0; th < nthreads; th++) {
    const sc_thread_traces *a = &all[th];
    int n = a->ntraces;
    view[th] = *a;
    trace_rank *rank = sc_alloc_atomic(sizeof(trace_rank) * (size_t)(n + 1));
    for (int i = 0; i < n; i++)
      rank[i] = (trace_rank){a->traces[i].nevents, i};
    qsort(rank, (size_t)n, sizeof(trace_rank), by_length);
    view[th].traces = sc_alloc(sizeof(sc_trace) * (size_t)(n + 1));
    for (int i = 0; i < n; i++)
      view[th].traces[i] = a->traces[rank[i].index];
  }
  return view;
}

/* The least fixpoint of the values locations may hold, and the traces
 * that reading them gives. */
static sc_status find_traces(search *s, const sc_sem_limits *lim,
                             sc_thread_traces **out, sc_error **err) {
  const sc_test *t = s->t;
  sc_value_sets *vs = sc_values_initial(t);
  int *pick = sc_alloc_atomic(sizeof(int) * (size_t)(t->nthreads + 1));
  const sc_trace **chosen = sc_alloc(sizeof(sc_trace *) * (size_t)(t->nthreads + 1));
  for (;;) {
    sc_thread_traces *all;
    sc_status st = sc_sem_traces(t, lim, vs, &all, err);
    if (st)
      return st;
    *out = all;
    all = value_feeders(all, t->nthreads);
    bool grew = false;
    memset(pick, 0, sizeof(int) * (size_t)(t->nthreads + 1));
    do {
      choose(chosen, pick, all, t->nthreads);
      if (!reads_can_be_fed(t, chosen))
        continue;
      for (int a = 0; a < t->nthreads; a++)
        for (int i = 0; i < chosen[a]->nevents; i++) {
          const sc_trace_event *w = &chosen[a]->events[i];
          if (w->kind == SC_EV_WRITE)
            grew |= sc_values_add(vs, w->loc, w->value);
        }
    } while (next_choice(pick, all, t->nthreads));
    if (!grew)
      return SC_OK;
    for (int l = 0; l < t->nlocs; l++)
      if (vs->n[l] > MAX_VALUES_PER_LOCATION)
        return sc_fail(err, SC_ERR_LIMIT, t->file, 0, 0,
                       "expected location %s to hold at most %d values",
                       t->locs[l].name, MAX_VALUES_PER_LOCATION);
  }
}

/* Every choice of one trace per thread. */
static sc_status each_trace_choice(search *s, const sc_thread_traces *all) {
  const sc_test *t = s->t;
  if (any_thread_without_traces(all, t->nthreads))
    return SC_OK;
  int *pick = sc_alloc_atomic(sizeof(int) * (size_t)(t->nthreads + 1));
  memset(pick, 0, sizeof(int) * (size_t)(t->nthreads + 1));
  const sc_trace **chosen = sc_alloc(sizeof(sc_trace *) * (size_t)(t->nthreads + 1));
  do {
    choose(chosen, pick, all, t->nthreads);
    if (s->opts.liveness && (s->r->liveness == SC_LIVE_FAIL ||
                             !sc_live_any_stuck(chosen, t->nthreads)))
      continue; /* found, or no thread stuck: no witness */
    if (!reads_can_be_fed(t, chosen))
      continue;
    candidate cd;
    memset(&cd, 0, sizeof cd);
    cd.x = sc_exec_new(t, chosen);
    if (!rf_choices(&cd))
      continue; /* some read finds no write of its value */
    if (s->opts.liveness &&
        !sc_live_fair_candidates(cd.x, cd.nreads, cd.reads, cd.cands, cd.ncands))
      continue; /* a repeated read can read no co-maximal write */
    prepare(s, &cd);
    sc_status st = co_choices(s, &cd);
    if (!st)
      st = each_barrier_sync(s, &cd);
    if (st)
      return st;
  } while (next_choice(pick, all, t->nthreads));
  return SC_OK;
}

/* The rf and co choices of one combination of traces, as choices_upto
 * counts them, up to `most` (then most + 1), from the traces alone (no
 * execution built: a large test is not made twice); writes_at: scratch,
 * one per location. */
static long combination_choices(const search *s, const sc_trace **chosen,
                                int *writes_at, long most) {
  const sc_test *t = s->t;
  memset(writes_at, 0, sizeof(int) * (size_t)(t->nlocs + 1));
  long n = 1;
  for (int a = 0; a < t->nthreads; a++)
    for (int i = 0; i < chosen[a]->nevents && n <= most; i++) {
      const sc_trace_event *e = &chosen[a]->events[i];
      if (e->kind == SC_EV_WRITE) {
        writes_at[e->loc]++;
        continue;
      }
      if (e->kind != SC_EV_READ)
        continue;
      long feeders = e->value == sc_value_of(t->locs[e->loc].init); /* the initial write */
      for (int b = 0; b < t->nthreads; b++)
        for (int j = 0; j < chosen[b]->nevents; j++)
          feeders += may_feed(chosen[b], j, chosen[a], i);
      n *= feeders;
    }
  for (int l = 0; l < t->nlocs && n <= most; l++)
    n = times_orders(n, writes_at[l], s->partial_co, most);
  return n <= most ? n : most + 1;
}

/* -engine auto's estimate of enumeration's cost, before any model is run:
 * the rf and co choices of every combination of traces, summed, up to
 * `most` (then most + 1).  Barrier and fence.sc orders are left out (both
 * engines go through them alike), and so are the branches the enumerator
 * cuts early: an upper bound of the candidates, cheap next to one of them. */
static long estimate_candidates(search *s, const sc_thread_traces *all, long most) {
  const sc_test *t = s->t;
  if (any_thread_without_traces(all, t->nthreads))
    return 0;
  int *pick = sc_alloc_atomic(sizeof(int) * (size_t)(t->nthreads + 1));
  memset(pick, 0, sizeof(int) * (size_t)(t->nthreads + 1));
  const sc_trace **chosen = sc_alloc(sizeof(sc_trace *) * (size_t)(t->nthreads + 1));
  int *writes_at = sc_alloc_atomic(sizeof(int) * (size_t)(t->nlocs + 1));
  long sum = 0;
  do {
    choose(chosen, pick, all, t->nthreads);
    if (reads_can_be_fed(t, chosen))
      sum += combination_choices(s, chosen, writes_at, most - sum);
  } while (sum <= most && next_choice(pick, all, t->nthreads));
  return sum <= most ? sum : most + 1;
}

/* A result to fill, with the observed terms chosen. */
static sc_result *new_result(search *s) {
  sc_result *r = sc_alloc(sizeof(sc_result));
  r->test = s->t;
  r->engine = s->smt ? "smt" : "enum";
  r->speedcheck = s->opts.speedcheck;
  r->liveness = s->opts.liveness ? SC_LIVE_PASS : SC_LIVE_NONE; /* till a witness */
  choose_observed(r, s->t);
  return r;
}

/* -engine auto: enumerate when the estimate is small, else go symbolic
 * (s->smt); when the model cannot be encoded, enumerate after all.  The
 * choice and its reason go in the result. */
static sc_status auto_search(search *s, const sc_thread_traces *all) {
  /* -liveness has no counts to keep exact, and the symbolic engine
   * enumerates its small combinations anyway: it goes there at once */
  long est = s->opts.liveness ? AUTO_MAX_EXECUTIONS + 1
                              : estimate_candidates(s, all, AUTO_MAX_EXECUTIONS);
  const char *why_smt =
      s->opts.liveness ? "auto: -liveness, symbolic (small combinations enumerated)"
                       : sc_printf("auto: over %ld candidates (estimate)", AUTO_MAX_EXECUTIONS);
  if (est <= AUTO_MAX_EXECUTIONS) {
    s->r->engine_reason =
        sc_printf("auto: at most %ld candidates (estimate, up to %ld enumerated)",
                  est, AUTO_MAX_EXECUTIONS);
    return each_trace_choice(s, all);
  }
  s->smt = s->hybrid = true;
  s->r = new_result(s);
  s->r->engine_reason = why_smt;
  const sc_thread_traces *ordered = s->opts.liveness ? all /* search_once's */
                                                     : shortest_first(all, s->t->nthreads);
  sc_status st = each_trace_choice(s, ordered);
  sc_sym_close(s->session);
  s->session = NULL;
  if (st != SC_ERR_UNSUPPORTED)
    return st;
  const char *reason =
      sc_printf("%s, but %s", why_smt,
                s->err ? sc_error_message(s->err) : "the model cannot be encoded");
  s->smt = s->hybrid = false;
  s->err = NULL;
  s->r = new_result(s);
  s->r->engine_reason = reason;
  return each_trace_choice(s, all);
}

/* The tags the bell file declares for events of `type`, joined for a
 * message; NULL when it declares none for that type (unconstrained). */
static const char *declared_tags(const sc_cat_model *m, const char *type,
                                 const char *annotation, bool *declared) {
  sc_strbuf all;
  sc_sb_init(&all);
  bool any = false;
  *declared = false;
  for (int i = 0; i < sc_cat_model_declaration_count(m); i++) {
    const char *const *tags;
    int ntags;
    if (strcmp(sc_cat_model_declaration(m, i, &tags, &ntags), type) != 0)
      continue;
    any = true;
    for (int k = 0; k < ntags; k++) {
      sc_sb_printf(&all, "%s'%s", all.len ? " " : "", tags[k]);
      *declared |= strcmp(tags[k], annotation) == 0;
    }
  }
  return any ? all.data : NULL;
}

/* With a bell file, every annotation an instruction gives an event of a
 * declared type must be declared for it, as herd7 checks a test against
 * the bell's `instructions` before running it. */
static sc_status check_declarations(const sc_test *t, const sc_cat_model *m,
                                    sc_error **err) {
  if (sc_cat_model_declaration_count(m) == 0)
    return SC_OK;
  for (int th = 0; th < t->nthreads; th++)
    for (int pc = 0; pc < t->threads[th].ninstrs; pc++) {
      const sc_instr *in = &t->threads[th].code[pc];
      const char *types[3], *annots[2];
      int nt = sc_instr_event_types(in, types), na = sc_instr_annotations(in, annots);
      for (int a = 0; a < na; a++)
        for (int k = 0; k < nt; k++) {
          bool ok;
          const char *tags = declared_tags(m, types[k], annots[a], &ok);
          if (tags && !ok)
            return sc_fail(err, SC_ERR_SEMANTIC, t->file, in->line, in->col,
                           "expected an annotation the bell file declares for "
                           "%s events (%s), found '%s'", types[k], tags,
                           annots[a]);
        }
    }
  return SC_OK;
}

/* The locations whose final value a proposition reads. */
static void prop_locs(const sc_test *t, const sc_prop *p, bool *locs) {
  if (!p)
    return;
  if (p->kind == SC_PROP_EQ || p->kind == SC_PROP_NE) {
    if (p->lhs.kind == SC_LVAL_LOC)
      locs[sc_physical_loc(t, p->lhs.loc)] = true;
    if (p->rhs.kind == SC_LVAL_LOC)
      locs[sc_physical_loc(t, p->rhs.loc)] = true;
  }
  prop_locs(t, p->a, locs);
  prop_locs(t, p->b, locs);
}

/* One search: with the symbolic engine (smt), by enumeration, or, when
 * `choose` (-engine auto), with the one auto_search picks. */
static sc_status search_once(const sc_test *t, const sc_model *m,
                             const sc_sim_options *opts, bool smt, bool choose,
                             sc_result **out, sc_error **err) {
  search s;
  memset(&s, 0, sizeof s);
  s.t = t;
  s.m = m;
  s.opts = *opts;
  if (s.opts.max_executions <= 0)
    s.opts.max_executions = DEFAULT_MAX_EXECUTIONS;
  if (s.opts.max_shown <= 0)
    s.opts.max_shown = DEFAULT_MAX_SHOWN;
  s.smt = smt;
  s.partial_co = t->dialect == SC_DIALECT_PTX;
  s.want_syncbar = sc_cat_model_names(m->cat, "syncbar");
  s.want_sync_fence = sc_cat_model_names(m->cat, "sync_fence");
  s.eval.variants = s.opts.variants;
  s.eval.nvariants = s.opts.nvariants;
  s.eval.skipchecks = s.opts.skipchecks;
  s.eval.nskip = s.opts.nskip;
  s.prune = !s.opts.noprune && !s.opts.through;
  s.eval.transient = true; /* record() reads the outcome at once */
  s.may_flag = sc_cat_model_may_flag(m->cat, &s.eval);
  s.co_first = s.prune && s.opts.show == SC_SHOW_NONE && !s.may_flag;
  s.r = new_result(&s);
  s.final_locs = sc_alloc_atomic(sizeof(bool) * (size_t)(t->nlocs + 1));
  memset(s.final_locs, 0, sizeof(bool) * (size_t)(t->nlocs + 1));
  for (int i = 0; i < s.r->nobserved; i++)
    if (s.r->observed[i].kind == SC_LVAL_LOC)
      s.final_locs[sc_physical_loc(t, s.r->observed[i].loc)] = true;
  prop_locs(t, t->filter, s.final_locs);
  s.values = sc_alloc_atomic(sizeof(int64_t) * (size_t)(s.r->nobserved + 1));
  s.start = s.last_progress = sc_seconds();
  sc_sem_limits lim = {s.opts.unroll, 0, s.opts.liveness != 0};
  sc_status st = check_declarations(t, m->cat, err);
  if (st)
    return st;
  sc_thread_traces *all;
  st = find_traces(&s, &lim, &all, err);
  if (st)
    return st;
  /* the symbolic road, and -liveness under either engine (the two then
   * meet the same first combination with a witness: the same threads
   * stuck), take each thread's shortest traces first */
  if (s.smt || s.opts.liveness)
    all = shortest_first(all, t->nthreads);
  st = choose ? auto_search(&s, all) : each_trace_choice(&s, all);
  sc_sym_close(s.session);
  if (st && !s.done) {
    if (err)
      *err = s.err;
    return st;
  }
  s.r->seconds = sc_seconds() - s.start;
  *out = s.r;
  return SC_OK;
}

static sc_status simulate_unguarded(const sc_test *t, const sc_model *m,
                                    const sc_sim_options *opts, sc_result **out,
                                    sc_error **err) {
  sc_gc_init();
  *out = NULL;
  if (!t || !m)
    return sc_fail(err, SC_ERR_USAGE, NULL, 0, 0, "no test or no model given");
  sc_sim_options o;
  memset(&o, 0, sizeof o);
  if (opts)
    o = *opts;
  else
    o.unroll = -1;
  if (o.liveness && o.through)
    return sc_fail(err, SC_ERR_USAGE, NULL, 0, 0,
                   "expected no -through with -liveness (a witness is an "
                   "execution the model allows)");
  const char *why = NULL;
  sc_status st;
  switch (o.engine) {
  case SC_ENGINE_ENUM:
    st = search_once(t, m, &o, false, false, out, err);
    if (!st)
      (*out)->engine_reason = "-engine enum";
    return st;
  case SC_ENGINE_SMT:
    if (!sc_sym_available(&why))
      return sc_fail(err, SC_ERR_UNSUPPORTED, t->file, 0, 0,
                     "expected the symbolic engine (-engine smt), but %s", why);
    if (o.show != SC_SHOW_NONE && !o.liveness) /* a witness it can draw */
      return sc_fail(err, SC_ERR_UNSUPPORTED, t->file, 0, 0,
                     "expected no -show with -engine smt (it draws enumerated "
                     "executions: use -engine enum)");
    st = search_once(t, m, &o, true, false, out, err);
    if (!st)
      (*out)->engine_reason = "-engine smt";
    return st;
  case SC_ENGINE_AUTO:
    break;
  default:
    return sc_fail(err, SC_ERR_USAGE, NULL, 0, 0, "unknown engine %d", (int)o.engine);
  }
  if (sc_sym_available(&why) && (o.show == SC_SHOW_NONE || o.liveness))
    return search_once(t, m, &o, false, true, out, err);
  st = search_once(t, m, &o, false, false, out, err);
  if (!st)
    (*out)->engine_reason = why ? "auto: no symbolic engine in this build"
                                : "auto: -show draws enumerated executions";
  return st;
}

sc_status sc_simulate(const sc_test *t, const sc_model *m,
                      const sc_sim_options *opts, sc_result **out,
                      sc_error **err) {
  sc_oom_guard g;
  if (!SC_OOM_ENTER(g))
    return sc_oom_fail(&g, t->file, err);
  sc_status st = simulate_unguarded(t, m, opts, out, err);
  sc_oom_leave(&g);
  return st;
}
