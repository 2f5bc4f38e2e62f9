/* simulate.c: the simulator's front door (sc_simulate) and its driver.
 * The traces of each thread are found (traces.c); then for each choice of
 * one trace per thread, and, when the model names them, every barrier
 * synchronisation and fence.sc order, the combination is handed to an
 * engine (engine.h), which chooses rf and co and puts the final states of
 * the executions the model allows into the sink (sink.c).  -engine auto
 * picks the road per test from engine.h's cost model: the rf and co
 * choices enumeration would try against the solver's calls.  With
 * -liveness only the combinations with a stuck run are searched, for one
 * witness (liveness.c) instead of the states. */
#define _POSIX_C_SOURCE 200809L
#include "sim/engine.h"

#include "sim/barrier_classes.h"
#include "sim/data_only.h"
#include "sim/live_refute.h"
#include "sim/liveness.h"
#include "sim/progress.h"
#include "sim/repeat_gate.h"
#include "sim/symbolic.h"
#include "sim/sink.h"
#include "sim/symmetry.h"
#include "sim/traces.h"
#include "util/error.h"
#include "util/gcmem.h"
#include "util/oom.h"
#include "util/strbuf.h"

#include <string.h>

#define DEFAULT_MAX_EXECUTIONS 10000000L
#define DEFAULT_MAX_SHOWN 100

/* One combination, its barrier and fence.sc orders chosen, to the engine. */
static sc_status engine_combination(sim_search *s, sim_candidate *cd) {
  if (s->done)
    return SIM_STOP; /* -speedcheck fast has its verdict */
  if (s->r->liveness == SC_LIVE_FAIL)
    return SC_OK; /* one witness is the answer */
  if (s->opts.progress) /* a combination may take the solver a while */
    sci_sim_progress(s, sc_seconds());
  if (s->opts.liveness && (!s->may_deepen || s->r->candidates > SC_LIVE_DEEPEN_CANDIDATES) &&
      sci_live_refuted_by_model(s, cd))
    return SC_OK; /* a read fairness keeps on a last write the model refutes */
  return s->engine->combination(s, cd);
}

/* The walk over the fence.sc orders of one candidate: each complete order
 * goes to the engine as it is met, none is kept (their number grows as the
 * posets of k items: 6129859 for seven fences no pair of which must be
 * ordered).  st: how the walk ended. */
typedef struct fence_walk {
  sim_search *s;
  sim_candidate *cd;
  const int *fences;
  int k;
  long orders;
  sc_status st;
} fence_walk;

static int fence_order_step(void *ctx, const uint32_t *below, uint32_t placed) {
  fence_walk *w = ctx;
  sim_search *s = w->s;
  w->st = sci_sim_clock_step(&s->clock, 0, NULL, &s->err);
  if (w->st)
    return -1;
  if (placed != sc_order_all(w->k))
    return 1; /* a partial step: go on */
  if (++w->orders > s->opts.max_executions) {
    w->st = sci_fail(&s->err, SC_ERR_LIMIT, s->t->file, 0, 0,
                    "expected at most %ld orders of the fence.sc events (the "
                    "-max-executions limit)", s->opts.max_executions);
    return -1;
  }
  sc_execution *x = w->cd->x;
  sci_rel_clear(x->sync_fence);
  for (int i = 0; i < w->k; i++)
    for (uint32_t b = below[i]; b; b &= b - 1)
      sc_rel_add(x->sync_fence, w->fences[__builtin_ctz(b)], w->fences[i]);
  w->st = engine_combination(s, w->cd);
  return w->st ? -1 : 1;
}

/* Every order of the fence.sc events that relates each pair in sr (the
 * morally strong pairs, Dat3M's sync_fence), when the model names it. */
static sc_status each_fence_order(sim_search *s, sim_candidate *cd) {
  sc_execution *x = cd->x;
  if (!s->want_sync_fence)
    return engine_combination(s, cd);
  int fences[SC_ORDER_MAX_ITEMS], k = 0;
  for (int e = 0; e < x->nevents; e++)
    if (sci_exec_is_fence_sc(x, e)) {
      if (k == SC_ORDER_MAX_ITEMS)
        return sci_fail(&s->err, SC_ERR_LIMIT, s->t->file, 0, 0,
                       "expected at most %d fence.sc events", SC_ORDER_MAX_ITEMS);
      fences[k++] = e;
    }
  uint32_t comparable[SC_ORDER_MAX_ITEMS];
  for (int i = 0; i < k; i++) {
    comparable[i] = 0;
    for (int j = 0; j < k; j++)
      if (i != j && sci_exec_same_scope(x, fences[i], fences[j]))
        comparable[i] |= UINT32_C(1) << j;
  }
  fence_walk w = {.s = s, .cd = cd, .fences = fences, .k = k};
  sci_orders_walk_partial(k, comparable, fence_order_step, &w);
  return w.st;
}

/* The barrier synchronisations of the last combination that had them
 * worked out: the next combination whose barriers sit where its traces
 * had them, with the same operands, gets the same ones (barrier.c reads
 * nothing else of a run: which event is a barrier, its instruction and
 * operands, whether the run ends stuck).  A spin's other exit or another
 * value read changes no barrier: xf-barrier-2.1.2's 65536 combinations
 * have a few barrier layouts. */
typedef struct barrier_memo {
  const sc_trace **traces; /* per thread, NULL until one is worked out */
  sc_rel **syncs;
  int n;
  sc_status st;
  sim_barrier_classes *classes; /* the classes known to deadlock */
} barrier_memo;

/* sci_barrier_syncs of cd's execution, or the memo's when its barriers
 * are the last one's. */
static sc_status barrier_syncs(sim_search *s, sim_candidate *cd, barrier_memo *memo,
                               sc_rel ***syncs, int *n) {
  if (sci_sim_layout_syncs(s, cd, syncs, n)) {
    sci_barrier_classes_note(memo->classes, cd->x->traces, *n);
    return SC_OK; /* its layout's (search.c): the same barriers, ending alike */
  }
  const sc_execution *x = cd->x;
  int nthreads = s->t->nthreads;
  bool same = memo->traces != NULL;
  for (int th = 0; th < nthreads && same; th++)
    same = sci_barrier_same_runs(memo->traces[th], x->traces[th]);
  if (!same) {
    memo->st = sci_barrier_syncs(x, &s->clock, s->opts.max_executions, &memo->syncs,
                                 &memo->n, &s->err);
    if (!memo->traces)
      memo->traces = sci_alloc(sizeof(sc_trace *) * (size_t)(nthreads + 1));
    memcpy(memo->traces, x->traces, sizeof(sc_trace *) * (size_t)nthreads);
    if (memo->st)
      memo->traces = NULL; /* an error is reported once, never reused */
  }
  *syncs = memo->syncs;
  *n = memo->n;
  if (!memo->st) {
    sci_sim_keep_layout_syncs(s, cd, memo->syncs, memo->n);
    sci_barrier_classes_note(memo->classes, x->traces, memo->n);
  }
  return memo->st;
}

/* Every way the barriers may synchronise, when the model names syncbar (a
 * model that does not sees barriers as plain events, as herd7 does). */
static sc_status each_barrier_sync(sim_search *s, sim_candidate *cd, barrier_memo *memo) {
  if (!s->want_syncbar && !s->opts.liveness) /* liveness: quorums count */
    return each_fence_order(s, cd);
  sc_rel **syncs;
  int n;
  sc_status st = barrier_syncs(s, cd, memo, &syncs, &n);
  for (int i = 0; i < n && !st; i++) {
    st = sci_sim_clock_step(&s->clock, 0, NULL, &s->err);
    if (st)
      break;
    sci_rel_assign(cd->x->syncbar, syncs[i]);
    st = each_fence_order(s, cd);
  }
  return st;
}



/* The candidate of one combination of traces, in *cd, its environment
 * prepared; false when it has none worth a search. */
static bool candidate_of(sim_search *s, const sc_trace **chosen, sim_candidate *cd) {
  const sc_test *t = s->t;
  if (s->opts.liveness && (s->r->liveness == SC_LIVE_FAIL ||
                           !sci_live_may_witness(t, &s->opts.progress_model, chosen)))
    return false; /* found, or no thread stuck (or halted unfairly): none */
  memset(cd, 0, sizeof *cd); /* the odometer gave a combination whose reads can be fed */
  cd->x = sci_sim_execution(s, chosen);
  if (!sci_sim_rf_choices(cd))
    return false; /* some read finds no write of its value */
  if (s->opts.liveness &&
      !sci_live_fair_candidates(cd->x, cd->nreads, cd->reads, cd->cands, cd->ncands))
    return false; /* a repeated read can read no co-maximal write */
  sci_sim_prepare(s, cd);
  return true;
}

/* Every choice of one trace per thread. */
static sc_status each_trace_choice(sim_search *s, const sc_thread_traces *all) {
  const sc_test *t = s->t;
  if (sci_sim_any_thread_without_traces(all, t->nthreads))
    return SC_OK;
  sc_status counted = s->count_fed ? sci_sim_count_fed(t, all, &s->clock, &s->err) : SC_OK;
  if (counted)
    return counted;
  int *pick = sci_alloc_atomic(sizeof(int) * (size_t)(t->nthreads + 1));
  const sc_trace **chosen = sci_alloc(sizeof(sc_trace *) * (size_t)(t->nthreads + 1));
  sim_feed_odometer *odo = sci_sim_feed_odometer(t, all, &s->clock);
  barrier_memo memo = {0};
  if (s->want_syncbar || s->opts.liveness) /* each_barrier_sync's condition */
    memo.classes = sci_barrier_classes(t, all);
  /* values_after: the symmetries are found on the collapsed traces, whose
   * values they cannot see (a kernel's data[%tid] = %tid + 1), so one
   * would map a state onto one that no execution ends in */
  s->sym = s->values_after ? NULL : sci_sim_symmetry(t, all, s->r, &s->opts);
  for (bool more = sci_sim_first_fed_choice(odo, pick); more;
       more = sci_sim_next_fed_choice(odo, pick)) {
    sc_status st = sci_sim_clock_step(&s->clock, 0, NULL, &s->err);
    if (st)
      return st;
    if (s->sym && !sci_sim_symmetry_representative(s->sym, pick, s->engine->counts_states))
      continue; /* its orbit's first combination stood for it (sink.c) */
    sci_sim_choose(chosen, pick, all, t->nthreads);
    if (sci_barrier_classes_deadlock(memo.classes, chosen))
      continue; /* its barriers deadlock, as an earlier one's: no candidate */
    sim_candidate cd;
    if (!candidate_of(s, chosen, &cd))
      continue;
    st = sci_sim_co_choices(s, &cd);
    if (!st)
      st = each_barrier_sync(s, &cd, &memo);
    if (st)
      return st;
  }
  return SC_OK;
}

/* ---- Layouts first: the solver chooses the traces too ------------------ */

/* A layout search pays where the odometer would meet
 * SC_LAYOUT_SEARCH_MIN combinations of traces per layout, on average, at
 * least: a solver call per layout and question against a walk that, on an
 * 8-thread ticket lock, passes 10 million combinations without meeting
 * the one that answers (every thread's ticket and the owner it waits for
 * in turn); and where the layouts are few: each costs its own encoding. */
#define LAYOUT_SEARCH_MAX_LAYOUTS 256

/* Whether the search asks only what one execution answers (a liveness
 * witness; under -speedcheck fast and verdicts, the condition decided and
 * each flag raised) and the symbolic engine may choose the traces too:
 * not with -through (states of forbidden executions). */
static bool may_search_layouts(const sim_search *s) {
  bool witnesses = s->opts.liveness || s->opts.speedcheck == SC_SPEEDCHECK_FAST ||
                   s->opts.speedcheck == SC_SPEEDCHECK_VERDICTS;
  return witnesses && s->engine == &sci_sim_engine_smt && !s->opts.through &&
         s->opts.layout_search != 2;
}

/* Whether the layout search pays for the layouts l (or is asked for):
 * where the values are computed after, at any count, since the tables
 * let the solver ask the condition at once where a combination's own
 * problem goes through its executions one by one (ttaslock-dv2wg-2.2.2:
 * 0.3 s against 6 s). */
static bool layouts_pay(const sim_search *s, const sim_layouts *l) {
  return s->opts.layout_search == 1 ||
         (l->layouts <= LAYOUT_SEARCH_MAX_LAYOUTS &&
          (s->values_after || l->combinations >= SC_LAYOUT_SEARCH_MIN * l->layouts));
}

/* The candidate of one layout: x of each group's first trace, each read's
 * writes of its location (the values left to the solver); false when it
 * has none worth a search (candidate_of's liveness rules, which read no
 * value). */
static bool layout_candidate(sim_search *s, const sc_trace **chosen,
                             const sim_trace_group *const *groups, sim_candidate *cd) {
  const sc_test *t = s->t;
  if (s->opts.liveness && (s->r->liveness == SC_LIVE_FAIL ||
                           !sci_live_may_witness(t, &s->opts.progress_model, chosen)))
    return false;
  memset(cd, 0, sizeof *cd);
  cd->x = sci_sim_execution(s, chosen);
  if (!sci_sim_rf_layout_choices(cd))
    return false;
  if (s->opts.liveness &&
      !sci_live_fair_candidates(cd->x, cd->nreads, cd->reads, cd->cands, cd->ncands))
    return false;
  sci_sim_prepare(s, cd);
  cd->select = groups;
  return true;
}

/* Every layout: one group of traces per thread, an odometer over the
 * groups. */
static sc_status each_layout(sim_search *s, const sc_thread_traces *all,
                             const sim_layouts *l) {
  const sc_test *t = s->t;
  int n = t->nthreads;
  int *pick = sci_alloc_atomic(sizeof(int) * (size_t)(n + 1));
  memset(pick, 0, sizeof(int) * (size_t)(n + 1));
  const sc_trace **chosen = sci_alloc(sizeof(sc_trace *) * (size_t)(n + 1));
  const sim_trace_group **groups = sci_alloc(sizeof(sim_trace_group *) * (size_t)(n + 1));
  barrier_memo memo = {0};
  if (s->want_syncbar || s->opts.liveness) /* each_barrier_sync's condition */
    memo.classes = sci_barrier_classes(t, all);
  for (int turned = 0; turned < n;) {
    sc_status st = sci_sim_clock_step(&s->clock, 0, NULL, &s->err);
    if (st)
      return st;
    for (int th = 0; th < n; th++) {
      groups[th] = &l->groups[th][pick[th]];
      chosen[th] = groups[th]->traces[0];
    }
    sim_candidate cd;
    if (!sci_barrier_classes_deadlock(memo.classes, chosen) &&
        layout_candidate(s, chosen, groups, &cd)) {
      st = sci_sim_co_choices(s, &cd);
      if (!st)
        st = each_barrier_sync(s, &cd, &memo);
      if (st)
        return st;
    }
    for (turned = 0; turned < n && ++pick[turned] == l->ngroups[turned]; turned++)
      pick[turned] = 0;
  }
  return SC_OK;
}

/* Every choice of one trace per thread, after a layout search where it
 * may be made and pays (may_search_layouts, layouts_pay, or -layouts on):
 * when that answers what the search asks, its
 * answer is the search's; else the search starts again from nothing, as
 * without it (the result's reason says which road answered). */
static sc_status each_choice(sim_search *s, const sc_thread_traces *all) {
  if (!may_search_layouts(s) || sci_sim_any_thread_without_traces(all, s->t->nthreads))
    return each_trace_choice(s, all);
  sim_layouts *l = sci_sim_layouts(all, s->t->nthreads);
  if (!layouts_pay(s, l))
    return each_trace_choice(s, all);
  const char *reason = s->r->engine_reason;
  sc_status st = each_layout(s, all, l);
  if (st == SIM_STOP || (!st && (s->done || s->r->liveness == SC_LIVE_FAIL))) {
    s->r->engine_reason =
        sci_printf("%s%sthe solver chose the traces too (layouts: %.0f; combinations of "
                   "traces: %.3g)", reason ? reason : "", reason ? "; " : "", l->layouts,
                   l->combinations);
    return st;
  }
  if (st)
    return st;
  s->r = sci_sim_sink_new_result(s);
  s->r->engine_reason = reason;
  s->model_flag_raised = false;
  return each_trace_choice(s, all);
}

/* Per location, the writes of one combination of traces, in writes_at. */
static void combination_writes(const sc_test *t, const sc_trace **chosen, int *writes_at) {
  memset(writes_at, 0, sizeof(int) * (size_t)(t->nlocs + 1));
  for (int a = 0; a < t->nthreads; a++)
    for (int i = 0; i < chosen[a]->nevents; i++)
      if (chosen[a]->events[i].kind == SC_EV_WRITE)
        writes_at[chosen[a]->events[i].loc]++;
}

/* The rf and co choices of one combination of traces, as sci_sim_choices_upto
 * counts them, up to `most` (then most + 1), from the traces alone (no
 * execution built: a large test is not made twice); writes_at: its writes
 * per location (combination_writes). */
static long combination_choices(const sim_search *s, const sc_trace **chosen,
                                const int *writes_at, long most) {
  const sc_test *t = s->t;
  long n = 1;
  for (int a = 0; a < t->nthreads; a++)
    for (int i = 0; i < chosen[a]->nevents && n <= most; i++) {
      const sc_trace_event *e = &chosen[a]->events[i];
      if (e->kind != SC_EV_READ)
        continue;
      long feeders = e->value == sci_value_of(t->locs[e->loc].init); /* the initial write */
      for (int b = 0; b < t->nthreads; b++)
        for (int j = 0; j < chosen[b]->nevents; j++)
          feeders += sci_sim_may_feed(chosen[b], j, chosen[a], i);
      n *= feeders;
    }
  for (int l = 0; l < t->nlocs && n <= most; l++)
    n = sci_sim_times_orders(n, writes_at[l], s->partial_co, most);
  return n <= most ? n : most + 1;
}

/* The final states the solver may find for one combination of traces at
 * most: per observed location with writes, any of them may be the last
 * (engine_smt.c counts the same of a candidate); *fixed when the traces
 * fix the state (no observed location has a write: settle_fixed_state's
 * case, unless a flag may be raised). */
static double combination_states(const sim_search *s, const int *writes_at, bool *fixed) {
  double n = 1;
  *fixed = !s->may_flag;
  for (int l = 0; l < s->t->nlocs; l++)
    if (s->smt.final_locs[l] && writes_at[l] > 0) {
      n *= writes_at[l];
      *fixed = false;
    }
  return n;
}

/* -engine auto's estimate, before any model is run, from engine.h's cost
 * model: *enumerated, the seconds enumeration would take (every rf and co
 * choice of every combination of traces: an upper bound, the enumerator
 * cuts branches early); *mixed, the symbolic road's, where each
 * combination goes the cheaper way (engine_smt.c), and one whose traces
 * fix its state costs the probe's looks at most (counting states, the
 * symbolic road skips it once the state is known; enumeration counts
 * every execution).  Barrier and fence.sc orders are left out (both roads
 * go through them alike).  The sums stop once enumeration costs more than
 * `slack` beyond the mixed road: per combination it never costs less, so
 * that gap only grows. */
static sc_status estimate_costs(sim_search *s, const sc_thread_traces *all, double slack,
                                double *enumerated, double *mixed) {
  const sc_test *t = s->t;
  *enumerated = *mixed = 0;
  if (sci_sim_any_thread_without_traces(all, t->nthreads))
    return SC_OK;
  int *pick = sci_alloc_atomic(sizeof(int) * (size_t)(t->nthreads + 1));
  const sc_trace **chosen = sci_alloc(sizeof(sc_trace *) * (size_t)(t->nthreads + 1));
  int *writes_at = sci_alloc_atomic(sizeof(int) * (size_t)(t->nlocs + 1));
  long gap = (long)(slack / SIM_COST_ENUM_CHOICE) + 1; /* choices past the mixed road's */
  sim_feed_odometer *odo = sci_sim_feed_odometer(t, all, &s->clock);
  for (bool more = sci_sim_first_fed_choice(odo, pick);
       more && *enumerated - *mixed <= slack; more = sci_sim_next_fed_choice(odo, pick)) {
    sc_status st = sci_sim_clock_step(&s->clock, 0, NULL, &s->err);
    if (st)
      return st;
    sci_sim_choose(chosen, pick, all, t->nthreads);
    combination_writes(t, chosen, writes_at);
    bool fixed;
    double solver = sci_sim_cost_solver(combination_states(s, writes_at, &fixed));
    /* a known state is skipped, a new one probed first */
    long cheaper = fixed ? SIM_COST_PROBE_LOOKS : sci_sim_cost_enumerate_at_most(solver);
    long n = combination_choices(s, chosen, writes_at, cheaper + gap);
    *enumerated += (double)n * SIM_COST_ENUM_CHOICE;
    if (n <= cheaper)
      *mixed += (double)n * SIM_COST_ENUM_CHOICE;
    else
      *mixed += fixed ? (double)cheaper * SIM_COST_ENUM_CHOICE : solver;
  }
  return SC_OK;
}

/* -engine auto: enumerate whole when the estimate of enumeration is at
 * most SIM_COST_SLACK beyond the mixed road's, else go symbolic (hybrid:
 * each combination the cheaper way); when the model cannot be encoded,
 * enumerate after all.  The choice and its reason go in the result. */
static sc_status auto_search(sim_search *s, const sc_thread_traces *all) {
  /* -liveness has no counts to keep exact, and the symbolic engine
   * enumerates its cheap combinations anyway: it goes there at once */
  double enumerated = 0, mixed = 0;
  if (!s->opts.liveness) {
    sc_status st = estimate_costs(s, all, SIM_COST_SLACK, &enumerated, &mixed);
    if (st)
      return st;
  }
  const char *why_smt =
      s->opts.liveness
          ? "auto: -liveness, symbolic (cheap combinations enumerated)"
          : sci_printf("auto: symbolic, each combination the cheaper way (estimate: "
                       "enumeration over %.2f s slower)", SIM_COST_SLACK);
  if (!s->opts.liveness && enumerated - mixed <= SIM_COST_SLACK) {
    s->r->engine_reason =
        sci_printf("auto: enumeration (estimate: %.2f s, at most %.2f s slower than "
                   "each combination the cheaper way)", enumerated, SIM_COST_SLACK);
    return each_trace_choice(s, all);
  }
  s->engine = &sci_sim_engine_smt;
  s->smt.hybrid = true;
  s->r = sci_sim_sink_new_result(s);
  s->r->engine_reason = why_smt;
  const sc_thread_traces *ordered = s->opts.liveness ? all /* search_once's */
                                                     : sci_sim_shortest_first(all, s->t->nthreads);
  sc_status st = each_choice(s, ordered);
  s->engine->finish(s);
  if (st != SC_ERR_UNSUPPORTED)
    return st;
  const char *reason =
      sci_printf("%s, but %s", why_smt,
                s->err ? sc_error_message(s->err) : "the model cannot be encoded");
  s->engine = &sci_sim_engine_enum;
  s->smt.hybrid = false;
  s->err = NULL;
  s->r = sci_sim_sink_new_result(s);
  s->r->engine_reason = reason;
  return each_trace_choice(s, all);
}

/* The tags the bell file declares for events of `type`, joined for a
 * message; NULL when it declares none for that type (unconstrained). */
static const char *declared_tags(const sc_cat_model *m, const char *type,
                                 const char *annotation, bool *declared) {
  sc_strbuf all;
  sci_sb_init(&all);
  bool any = false;
  *declared = false;
  for (int i = 0; i < sci_cat_model_declaration_count(m); i++) {
    const char *const *tags;
    int ntags;
    if (strcmp(sci_cat_model_declaration(m, i, &tags, &ntags), type) != 0)
      continue;
    any = true;
    for (int k = 0; k < ntags; k++) {
      sci_sb_printf(&all, "%s'%s", all.len ? " " : "", tags[k]);
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
  if (sci_cat_model_declaration_count(m) == 0)
    return SC_OK;
  for (int th = 0; th < t->nthreads; th++)
    for (int pc = 0; pc < t->threads[th].ninstrs; pc++) {
      const sc_instr *in = &t->threads[th].code[pc];
      const char *types[3], *annots[2];
      int nt = sci_instr_event_types(in, types), na = sci_instr_annotations(in, annots);
      for (int a = 0; a < na; a++)
        for (int k = 0; k < nt; k++) {
          bool ok;
          const char *tags = declared_tags(m, types[k], annots[a], &ok);
          if (tags && !ok)
            return sci_fail(err, SC_ERR_SEMANTIC, t->file, in->line, in->col,
                           "expected an annotation the bell file declares for "
                           "%s events (%s), found '%s'", types[k], tags,
                           annots[a]);
        }
    }
  return SC_OK;
}

/* Where the terms a search reads are marked: per location (alias
 * resolved), whether its final value is read; per thread, whether one of
 * its registers is (either may be NULL). */
typedef struct term_marks {
  const sc_test *t;
  bool *locs, *threads;
} term_marks;

static void mark_term(const sc_lval *lv, void *ctx) {
  term_marks *m = ctx;
  if (lv->kind == SC_LVAL_LOC && m->locs)
    m->locs[sci_physical_loc(m->t, lv->loc)] = true;
  if (lv->kind == SC_LVAL_REG && m->threads)
    m->threads[lv->thread] = true;
}

static bool *no_marks(int n) {
  bool *marks = sci_alloc_atomic(sizeof(bool) * (size_t)(n + 1));
  memset(marks, 0, sizeof(bool) * (size_t)(n + 1));
  return marks;
}

/* The terms r observes and the filter's, marked in m. */
static void mark_read_terms(const sc_test *t, const sc_result *r, term_marks *m) {
  for (int i = 0; i < r->nobserved; i++)
    mark_term(&r->observed[i], m);
  sci_prop_each_lval(t->filter, mark_term, m);
}

/* Per location, whether its final value is read: an observed term's, or
 * the filter's. */
static bool *final_locations(const sc_test *t, const sc_result *r) {
  term_marks m = {t, no_marks(t->nlocs), NULL};
  mark_read_terms(t, r, &m);
  return m.locs;
}

/* Per thread of t, whether r observes a register of it or the filter
 * reads one. */
static bool *register_threads(const sc_test *t, const sc_result *r) {
  term_marks m = {t, NULL, no_marks(t->nthreads)};
  mark_read_terms(t, r, &m);
  return m.threads;
}

/* Per location of t, whether the condition or the filter reads it. */
static bool *condition_locations(const sc_test *t) {
  term_marks m = {t, no_marks(t->nlocs), NULL};
  sci_prop_each_lval(t->cond, mark_term, &m);
  sci_prop_each_lval(t->filter, mark_term, &m);
  return m.locs;
}

/* The search's state for test t and model m under the options o, with
 * engine e. */
static void search_init(sim_search *s, const sc_test *t, const sc_model *m,
                        const sc_sim_options *o, const sim_engine *e) {
  memset(s, 0, sizeof *s);
  s->t = t;
  s->m = m;
  s->opts = *o;
  if (s->opts.max_executions <= 0)
    s->opts.max_executions = DEFAULT_MAX_EXECUTIONS;
  if (s->opts.max_shown <= 0)
    s->opts.max_shown = DEFAULT_MAX_SHOWN;
  s->engine = e;
  s->partial_co = sci_sim_model_partial_co(m, o, &s->co_reason);
  s->want_syncbar = sci_cat_model_names(m->cat, "syncbar");
  s->want_sync_fence = sci_cat_model_names(m->cat, "sync_fence");
  s->eval = (sc_cat_run_options){
    .variants = s->opts.variants, .nvariants = s->opts.nvariants,
    .skipchecks = s->opts.skipchecks, .nskip = s->opts.nskip,
    .transient = true /* the sink reads the outcome at once */};
  s->prune = !s->opts.noprune && !s->opts.through;
  s->may_flag = sci_cat_model_may_flag(m->cat, &s->eval);
  s->co_first = s->prune && s->opts.show == SC_SHOW_NONE && !s->may_flag;
  s->r = sci_sim_sink_new_result(s);
  s->smt.final_locs = final_locations(t, s->r);
  s->smt.cond_locs = condition_locations(t);
  s->smt.reg_threads = register_threads(t, s->r);
  s->values = sci_alloc_atomic(sizeof(int64_t) * (size_t)(s->r->nobserved + 1));
  s->start = s->last_progress = sc_seconds();
  s->clock = (sim_clock){.file = t->file, .start = s->start,
                         .timeout = s->opts.timeout,
                         .max_steps = s->opts.max_executions};
}

/* Per thread, the runs the unroll bound cut. */
static const long *cut_runs(const sc_thread_traces *all, int nthreads) {
  long *n = sci_alloc_atomic(sizeof(long) * (size_t)(nthreads + 1));
  for (int th = 0; th < nthreads; th++)
    n[th] = all[th].cut_runs;
  return n;
}

/* What a result says besides its states: which co the model saw, the runs
 * the unroll bound cut, and under -liveness the first loop it does not
 * check. */
static void note_how(sim_search *s, const long *cuts) {
  s->r->partial_co = s->partial_co;
  s->r->co_reason = s->co_reason;
  s->r->cut_runs = cuts;
  s->r->unchecked_thread = -1;
  if (s->opts.liveness)
    sci_live_writing_loop(s->t, s->opts.unroll, &s->r->unchecked_thread, &s->r->unchecked_branch);
}

/* The value fixpoint's traces under lim's twin cut, given `first`, the
 * full cut's, found with note_twinless.  Where the twin cut would take
 * every iteration the full cut took (sci_sim_twin_cut_same), its search
 * would be the first one's step by step: each round from the same values
 * makes the same runs (sem.c decides each iteration alike, and every run
 * of a round is one of the last round's, from fewer values, whose
 * iterations the notes cover), so the same combinations are fed in the
 * same order and the same values are added in the same order, round
 * after round, to the same traces; those are the first pass's, taken as
 * they are.  Else the twin cut's own fixpoint, from the initial values. */
static sc_status twin_cut_pass(const sc_test *t, const sc_sem_limits *lim,
                               sc_thread_traces *first, sim_clock *clock,
                               sc_thread_traces **out, sc_error **err) {
  if (sci_sim_twin_cut_same(t, first, lim->race_free)) {
    *out = first;
    return SC_OK;
  }
  return sci_sim_find_traces(t, lim, clock, out, err);
}

/* The traces under the race flags' cut (lim: repeat_twins), where the
 * reads that no write can race with need no twin.  Which those are needs
 * every write of every execution: those of the runs the full cut keeps (a
 * first pass, its value fixpoint its own; sim/repeat_gate.c says why they
 * are all).  The second pass's writes are checked against the claim; were
 * it ever wrong, or the first pass failed, the traces are the plain twin
 * cut's, as without this.  A later pass is not run where it would be the
 * first one again (twin_cut_pass). */
static sc_status find_traces_race_free(const sc_test *t, sc_sem_limits *lim, sim_clock *clock,
                                       sc_thread_traces **out, sc_error **err) {
  sc_sem_limits full = *lim;
  full.repeat_twins = false;
  full.note_twinless = true;
  sc_thread_traces *first;
  sc_error *ignored = NULL;
  lim->race_free = NULL;
  if (sci_sim_find_traces(t, &full, clock, &first, &ignored) != SC_OK)
    return sci_sim_find_traces(t, lim, clock, out, err);
  if ((lim->race_free = sci_sim_race_free_reads(t, first)) != NULL) {
    sc_status st = twin_cut_pass(t, lim, first, clock, out, err);
    if (st || sci_sim_race_free_reads_hold(t, *out, lim->race_free))
      return st;
    lim->race_free = NULL;
  }
  return twin_cut_pass(t, lim, first, clock, out, err);
}

/* sci_sim_find_traces as a sim_trace_finder. */
static sc_status find_traces(const sc_test *t, sc_sem_limits *lim, sim_clock *clock,
                             sc_thread_traces **out, sc_error **err) {
  return sci_sim_find_traces(t, lim, clock, out, err);
}

/* Whether lim collapses some memory cell of t. */
static bool any_collapsed(const sc_test *t, const sc_sem_limits *lim) {
  for (int l = 0; lim->collapsed && l < t->nlocs; l++)
    if (lim->collapsed[l])
      return true;
  return false;
}

/* One search with engine e, or, when `choose` (-engine auto), with the one
 * auto_search picks. */
static sc_status search_once(const sc_test *t, const sc_model *m,
                             const sc_sim_options *opts, const sim_engine *e,
                             bool choose, sc_result **out, sc_error **err) {
  sim_search s;
  search_init(&s, t, m, opts, e);
  bool fewer_events_safe = sci_sim_repeat_cut_safe(t, m->cat, &s.eval);
  /* a model with race flags: the narrower cut that keeps them, if any */
  bool twins = !fewer_events_safe && sci_sim_repeat_cut_keeps_races(t, m->cat, &s.eval);
  sc_sem_limits lim = {.unroll = s.opts.unroll, .max_traces = 0,
                       .liveness = s.opts.liveness != 0,
                       /* -liveness: the full cut alone, for threads whose
                        * loops are simple and silent (sem.c); twins keep
                        * race flags, which a liveness search does not ask */
                       .repeat_cut = fewer_events_safe || (twins && !s.opts.liveness),
                       .repeat_at_once = t->ptx_file != NULL, /* a kernel */
                       .repeat_twins = twins && !s.opts.liveness,
                       .max_run_events = s.opts.max_run_events};
  sc_status st = check_declarations(t, m->cat, err);
  if (st)
    return st;
  sc_thread_traces *all;
  sim_trace_finder find = twins && !lim.liveness ? find_traces_race_free : find_traces;
  if (s.opts.verdicts_only && sci_sim_data_only_safe(t, m->cat, &s.eval)) {
    st = sci_sim_find_traces_data_only(find, t, &lim, &s.clock, &all, err);
    /* (exact_states excludes -through, whose executions the model forbids
     * may have a cycle of rf and data; a liveness search counts no state,
     * and its stuck runs end before their code does) */
    s.values_after = s.opts.exact_states && !s.opts.liveness && any_collapsed(t, &lim);
  } else
    st = find(t, &lim, &s.clock, &all, err);
  if (st)
    return st;
  s.count_fed = sci_sim_rounds_solved(t, &lim, all);
  const long *cuts = cut_runs(all, t->nthreads);
  /* a deeper search's own count decides nothing unless -liveness-unroll-max
   * goes past its bound (search_deepening) */
  bool deepens = s.opts.liveness && (s.opts.unroll < 0 || s.opts.liveness_unroll_max > 0);
  for (int th = 0; th < t->nthreads; th++)
    s.may_deepen |= deepens && cuts[th] > 0;
  if (s.opts.liveness) /* the runs a progress model may halt */
    sci_progress_add_halts(t, &s.opts.progress_model, fewer_events_safe, all);
  /* the symbolic road, and -liveness under either engine (the two then
   * meet the same first combination with a witness: the same threads
   * stuck), take each thread's shortest traces first */
  if (s.engine->shortest_first || s.opts.liveness)
    all = sci_sim_shortest_first(all, t->nthreads);
  st = choose ? auto_search(&s, all) : each_choice(&s, all);
  s.engine->finish(&s);
  if (s.values_failed)
    st = s.err->status; /* no verdict: an execution's values could not be had */
  else if (st == SIM_STOP || s.done) {
    st = SC_OK; /* -speedcheck fast has its verdict */
    s.r->stopped_early = s.done;
  }
  if (!st && sci_sim_clock_expired(&s.clock))
    st = sci_sim_out_of_time(&s); /* an answer past the deadline is no answer */
  if (st) {
    if (err)
      *err = s.err;
    return st;
  }
  s.r->seconds = sc_seconds() - s.start;
  note_how(&s, cuts);
  *out = s.r;
  return SC_OK;
}

/* The engines -engine names; SC_ENGINE_AUTO picks one (auto_search).  A
 * new engine: its file, and its row here. */
static const sim_engine *const engines[] = {
  [SC_ENGINE_ENUM] = &sci_sim_engine_enum,
  [SC_ENGINE_SMT] = &sci_sim_engine_smt,
};

/* -engine enum, smt...: the one named, when this build has it. */
static sc_status search_with(const sc_test *t, const sc_model *m,
                             const sc_sim_options *o, const sim_engine *e,
                             sc_result **out, sc_error **err) {
  const char *why = NULL;
  if (!e->available(&why))
    return sci_fail(err, SC_ERR_UNSUPPORTED, t->file, 0, 0,
                   "expected %s (-engine %s), but %s", e->what, e->name, why);
  /* an engine that draws nothing still draws a liveness witness */
  if (e->counts_states && o->show != SC_SHOW_NONE && !o->liveness)
    return sci_fail(err, SC_ERR_UNSUPPORTED, t->file, 0, 0,
                   "expected no -show with -engine %s (it draws enumerated "
                   "executions: use -engine enum)", e->name);
  sc_status st = search_once(t, m, o, e, false, out, err);
  if (!st) /* what the search said of its road, after the engine's name */
    (*out)->engine_reason =
        (*out)->engine_reason ? sci_printf("-engine %s; %s", e->name, (*out)->engine_reason)
                              : sci_printf("-engine %s", e->name);
  return st;
}

/* -engine auto: chosen per test when the symbolic engine is there and
 * nothing is to be drawn, else enumeration. */
static sc_status search_auto(const sc_test *t, const sc_model *m,
                             const sc_sim_options *o, sc_result **out,
                             sc_error **err) {
  const char *why = NULL;
  if (sci_sim_engine_smt.available(&why) && (o->show == SC_SHOW_NONE || o->liveness))
    return search_once(t, m, o, &sci_sim_engine_enum, true, out, err);
  sc_status st = search_once(t, m, o, &sci_sim_engine_enum, false, out, err);
  if (!st)
    (*out)->engine_reason = why ? "auto: no symbolic engine in this build"
                                : "auto: -show draws enumerated executions";
  return st;
}

/* One search of t under o, by the engine o names (auto: per test). */
static sc_status search_engine(const sc_test *t, const sc_model *m,
                               const sc_sim_options *o, sc_result **out,
                               sc_error **err) {
  if (o->engine == SC_ENGINE_AUTO)
    return search_auto(t, m, o, out, err);
  int nengines = (int)(sizeof engines / sizeof engines[0]);
  if ((int)o->engine < 0 || (int)o->engine >= nengines || !engines[o->engine])
    return sci_fail(err, SC_ERR_USAGE, NULL, 0, 0, "unknown engine %d", (int)o->engine);
  return search_with(t, m, o, engines[o->engine], out, err);
}

/* A result that may be deepened: a liveness Pass some run of which the
 * bound cut (a thread stuck only past the bound is not found), found by a
 * search of at most SC_LIVE_DEEPEN_CANDIDATES candidates (each deeper
 * bound multiplies the runs: a three-thread CADP test whose search at
 * -unroll 2 takes 590 candidates and 6 s takes minutes at 3). */
static bool cut_pass(const sc_result *r) {
  return r->liveness == SC_LIVE_PASS && sci_sim_cut_runs(r) > 0 &&
         r->candidates <= SC_LIVE_DEEPEN_CANDIDATES;
}

/* -liveness: search at the bound, and while the answer is a Pass that the
 * bound cut, again at bound+1, ... up to the deepest bound
 * (sci_live_unroll_max), within the test's time: a Fail found deeper is a
 * Fail (its witness is whole), a Pass is as deep as it goes.  A deeper
 * search that runs out of time or of candidates leaves the answer of the
 * bound before it (which the Unroll line qualifies). */
static sc_status search_deepening(const sc_test *t, const sc_model *m,
                                  const sc_sim_options *o, sc_result **out,
                                  sc_error **err) {
  int from = sci_sem_unroll_of(o->unroll);
  int max = sci_live_unroll_max(o);
  double start = sc_seconds();
  sc_status st = search_engine(t, m, o, out, err);
  if (st)
    return st;
  int bound = from;
  while (cut_pass(*out) && bound < max) {
    sc_sim_options deeper = *o;
    deeper.unroll = bound + 1;
    if (o->timeout > 0) {
      deeper.timeout = o->timeout - (sc_seconds() - start);
      if (deeper.timeout <= 0)
        break;
    }
    sc_result *r;
    if (search_engine(t, m, &deeper, &r, NULL))
      break;
    *out = r;
    bound++;
  }
  (*out)->unroll = bound;
  (*out)->unroll_from = from;
  (*out)->unroll_max = max;
  (*out)->seconds = sc_seconds() - start;
  return SC_OK;
}

static sc_status simulate_unguarded(const sc_test *t, const sc_model *m,
                                    const sc_sim_options *opts, sc_result **out,
                                    sc_error **err) {
  sci_gc_init();
  *out = NULL;
  if (!t || !m)
    return sci_fail(err, SC_ERR_USAGE, NULL, 0, 0, "no test or no model given");
  sc_sim_options o;
  memset(&o, 0, sizeof o);
  if (opts)
    o = *opts;
  else
    o.unroll = -1;
  if (o.max_run_events < 0 || o.max_run_events > SC_MAX_RUN_EVENTS)
    return sci_fail(err, SC_ERR_USAGE, NULL, 0, 0,
                   "expected at most %d events per run of a thread (its "
                   "dependencies are 64-bit masks), found %d", SC_MAX_RUN_EVENTS,
                   o.max_run_events);
  if (o.liveness && o.through)
    return sci_fail(err, SC_ERR_USAGE, NULL, 0, 0,
                   "expected no -through with -liveness (a witness is an "
                   "execution the model allows)");
  if (o.exact_states && o.through)
    return sci_fail(err, SC_ERR_USAGE, NULL, 0, 0,
                   "expected no -through with exact_states (an execution the "
                   "model forbids may have no values to compute)");
  if (o.liveness)
    return search_deepening(t, m, &o, out, err);
  sc_status st = search_engine(t, m, &o, out, err);
  if (!st)
    (*out)->unroll = (*out)->unroll_from = (*out)->unroll_max =
        sci_sem_unroll_of(o.unroll);
  return st;
}

sc_status sc_simulate(const sc_test *t, const sc_model *m,
                      const sc_sim_options *opts, sc_result **out,
                      sc_error **err) {
  sc_oom_guard g;
  sc_sym_session *const mark = sci_sym_mark();
  if (!SC_OOM_ENTER(g)) {
    sci_sym_close_since(mark); /* the solver's, left open by the jump */
    return sci_oom_fail(&g, t->file, err);
  }
  sc_status st = simulate_unguarded(t, m, opts, out, err);
  sci_oom_leave(&g);
  return st;
}
