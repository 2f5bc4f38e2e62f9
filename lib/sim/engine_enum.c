/* engine_enum.c: the enumeration engine.  For one combination of traces,
 * every rf (each read from a write of the same location and value) and
 * every co (per location, an order of its writes after the initial one:
 * total as in herd, partial for a model that expects it, as Dat3M's PTX
 * models do: model.c) is built and given to the model, and the outcomes
 * of the executions it allows go to the sink.  The search is a tree of
 * choices, one read or one write's place at a time, cut early where a check that only gets worse as rf and
 * co grow (cat/mono.c) already fails.  With -liveness a fair allowed
 * execution is the witness instead. */
#include "sim/engine.h"

#include "cat/exec.h"
#include "sim/dynamic.h"
#include "sim/liveness.h"
#include "sim/sink.h"
#include "util/error.h"
#include "util/gcmem.h"

#include <string.h>

/* co from the orders so far; every write follows its initial write. */
static void build_co(sc_rel *co, const co_choice *cc, int nlocs) {
  sci_rel_clear(co);
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
  sci_rel_assign(up, co);
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
static void build_rf_upper(sim_candidate *cd) {
  sci_rel_assign(cd->rf_up, cd->rf_low);
  for (int k = 0; k < cd->rf_left; k++)
    for (int j = 0; j < cd->ncands[k]; j++)
      sc_rel_add(cd->rf_up, cd->cands[k][j], cd->reads[k]);
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
static void record_outcomes(sim_search *s, sim_candidate *cd,
                            const sc_cat_outcome *out, int from) {
  sc_execution *x = cd->x;
  for (int i = from; i < s->r->nobserved; i++) {
    const sc_lval *o = &s->r->observed[i];
    if (o->kind != SC_LVAL_LOC)
      continue;
    int l = sci_physical_loc(s->t, o->loc);
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
  sci_sim_sink_execution(s, x, out);
}

/* ---- The model, compiled or interpreted ---------------------------------- */

/* fr = rf^-1 ; co, row by row: a read's row is the co rows of the writes
 * it reads from (execution.c's sci_exec_bind_dynamic, without scratch). */
static void build_fr(sc_rel *fr, const sc_rel *rf, const sc_rel *co) {
  sci_rel_clear(fr);
  int nw = fr->nwords;
  for (int w = 0; w < rf->n; w++) {
    const uint64_t *from = sc_rel_crow(rf, w), *after = sc_rel_crow(co, w);
    for (int k = 0; k < nw; k++)
      for (uint64_t b = from[k]; b; b &= b - 1) {
        uint64_t *row = sc_rel_row(fr, k * 64 + __builtin_ctzll(b));
        for (int j = 0; j < nw; j++)
          row[j] |= after[j];
      }
  }
}

/* FW: the writes with no co successor. */
static void build_fw(sc_set *fw, const sc_execution *x) {
  sci_set_clear(fw);
  for (int i = 0; i < x->nevents; i++) {
    if (x->events[i].kind != SC_EV_WRITE)
      continue;
    const uint64_t *row = sc_rel_crow(x->co, i);
    bool last = true;
    for (int j = 0; j < x->co->nwords && last; j++)
      last = row[j] == 0;
    if (last)
      sc_set_add(fw, i);
  }
}

/* The dynamic names the model reads (dynamic.h's table, in the order
 * sci_sim_prepare declared them), from x into the compiled form's inputs. */
static void fill_inputs(sc_cat_exec *cx, const sc_execution *x) {
  for (int i = 0; i < SIM_NDYNAMIC; i++) {
    if (!sci_cat_exec_reads(cx, i))
      continue;
    const sim_dynamic *d = &sci_sim_dynamic_names[i];
    if (sci_sim_dyn_is_set(d->source)) {
      build_fw(sci_cat_exec_input_set(cx, i), x);
      continue;
    }
    sc_rel *r = sci_cat_exec_input_rel(cx, i);
    switch (d->source) {
    case SIM_DYN_RF: sci_rel_assign(r, x->rf); break;
    case SIM_DYN_CO: sci_rel_assign(r, x->co); break;
    case SIM_DYN_FR: build_fr(r, x->rf, x->co); break;
    case SIM_DYN_SYNCBAR: sci_rel_assign(r, x->syncbar); break;
    case SIM_DYN_SYNC_FENCE: sci_rel_assign(r, x->sync_fence); break;
    default: break;
    }
    if (d->part == SIM_DYN_INTERNAL)
      sci_rel_inter(r, r, x->internal);
    else if (d->part == SIM_DYN_EXTERNAL)
      sci_rel_diff(r, r, x->internal);
  }
}

/* The model on the candidate in cd->x (rf and co as set there): by its
 * compiled form (cat/exec.h) where the model has one and the run needs no
 * more than whether it is allowed and its flags (no pictures, which draw
 * the failed check's relation) and -interpret does not ask for the
 * interpreter, else by the interpreter. */
static sc_status run_model(sim_search *s, sim_candidate *cd,
                           const sc_cat_run_options *eval, sc_cat_outcome *out,
                           sc_error **err) {
  if (s->opts.show == SC_SHOW_NONE && !s->opts.interpret) {
    sc_cat_exec *cx = sci_cat_exec_of(s->m->cat, cd->env, eval, NULL);
    if (cx) {
      fill_inputs(cx, cd->x);
      /* a flag raised for the first time wants its witness pair, which
       * only the interpreter's checks carry: that candidate runs again */
      if (sci_cat_exec_run(cx, cd->env, eval, out) &&
          !sci_sim_sink_wants_checks(s, out))
        return SC_OK;
    }
  }
  sci_exec_bind_dynamic(cd->x, cd->env);
  return sci_cat_run(s->m->cat, cd->env, eval, out, err);
}

/* One candidate: rf, co and the other choices are set in x. */
static sc_status evaluate(sim_search *s, sim_candidate *cd) {
  if (s->r->liveness == SC_LIVE_FAIL)
    return SC_OK; /* one witness is the answer */
  sc_status st = sci_sim_check_budget(s);
  if (st)
    return st;
  /* -speedcheck: with co total the final state is known before the
   * model runs (unless the sink computes its values: values_after); herd
   * runs it only where that state decides (worth_going) */
  if ((s->opts.speedcheck == SC_SPEEDCHECK_TRUE ||
       s->opts.speedcheck == SC_SPEEDCHECK_FAST) && !s->partial_co && !s->opts.through &&
      !s->values_after &&
      ((s->t->filter && !sci_exec_holds(cd->x, s->t->filter)) ||
       !sci_sim_decides(s->t, sci_exec_holds(cd->x, s->t->cond))))
    return SC_OK;
  sc_cat_outcome out;
  st = run_model(s, cd, &cd->eval, &out, &s->err);
  if (st)
    return st;
  if (s->opts.liveness) { /* a witness, not a state (liveness.c) */
    if (out.allowed && sci_live_fair(cd->x))
      sci_sim_sink_liveness_witness(s, cd->x);
    return SC_OK;
  }
  if (out.allowed || s->opts.through)
    record_outcomes(s, cd, &out, 0);
  if (out.allowed && s->probe.left && s->probe.first_only) {
    s->probe.found = true; /* one is all the probe asks for */
    return SIM_STOP;
  }
  return SC_OK;
}

/* ---- Cutting branches ------------------------------------------------------ */

/* Whether looking at the partial candidates of this depth still pays: at
 * first always, then while they are cut often enough, then one in 16 (a
 * look never changes what is found, only how fast). */
static bool worth_a_look(sim_search *s, int depth) {
  if (depth >= MAX_DEPTH_STATS)
    depth = MAX_DEPTH_STATS - 1;
  sim_cut_stats *c = &s->stats;
  long t = c->tries[depth];
  if (t < 64 || c->cuts[depth] * 20 >= t || (c->passes[depth]++ & 15) == 0) {
    c->tries[depth]++;
    return true;
  }
  return false;
}

/* Whether a check of cd's prune groups fails on the bounds of rf and co
 * (rf_low and co_low as chosen so far, the upper bounds built from them),
 * write `last` (-1: none) left without a co successor in the upper bound.
 * An error is for the complete candidates to report, if they meet it. */
static bool fails_on_bounds(sim_search *s, sim_candidate *cd, int last) {
  sc_execution *x = cd->x;
  bool fails = false;
  for (int g = 0; g < cd->ngroups && !fails; g++) {
    const prune_group *pg = &cd->groups[g];
    if (pg->rf_upper)
      build_rf_upper(cd);
    if (pg->co_upper) {
      build_co_upper(cd->co_up, cd->co_low, cd->co, cd->nlocs, s->partial_co);
      if (last >= 0)
        memset(sc_rel_row(cd->co_up, last), 0, sizeof(uint64_t) * (size_t)cd->co_up->nwords);
    }
    x->rf = pg->rf_upper ? cd->rf_up : cd->rf_low;
    x->co = pg->co_upper ? cd->co_up : cd->co_low;
    sc_cat_outcome out;
    sc_error *err = NULL;
    fails = run_model(s, cd, &pg->eval, &out, &err) == SC_OK && !out.allowed;
  }
  x->rf = cd->rf_low;
  x->co = cd->co_low;
  return fails;
}

/* Whether the partial candidate in cd may still complete to an execution
 * the model allows (*may): not when a check that only gets worse as edges
 * are added (cat/mono.c) already fails on the bounds.  SIM_STOP when the
 * probe has spent its looks; SC_ERR_LIMIT past the time limit. */
static sc_status may_complete(sim_search *s, sim_candidate *cd, int depth, bool *may) {
  *may = true;
  if (s->probe.left && --s->probe.left == 0) {
    s->probe.spent = true;
    return SIM_STOP;
  }
  if (!cd->ngroups || !worth_a_look(s, depth))
    return SC_OK;
  if ((++s->stats.nodes & 255) == 0 && sci_sim_clock_expired(&s->clock))
    return sci_sim_out_of_time(s);
  *may = !fails_on_bounds(s, cd, -1);
  if (!*may)
    s->stats.cuts[depth < MAX_DEPTH_STATS ? depth : MAX_DEPTH_STATS - 1]++;
  return SC_OK;
}

/* ---- The search tree ------------------------------------------------------- */

/* Reads and locations are chosen in the order the odometers of full
 * enumeration turned them (the last read and the last location vary
 * slowest), so that the executions kept come in the same order. */
static sc_status co_level(sim_search *s, sim_candidate *cd, int l);

typedef struct co_walk {
  sim_search *s;
  sim_candidate *cd;
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
  bool may;
  w->st = may_complete(w->s, w->cd, c->depth + __builtin_popcount(placed), &may);
  return w->st ? -1 : may;
}

/* The orders of location l, then those of the locations before it; every
 * choice made: one candidate. */
static sc_status rf_level(sim_search *s, sim_candidate *cd, int k);

/* What comes once rf, or co, is chosen. */
static sc_status after_rf(sim_search *s, sim_candidate *cd) {
  return s->co_first ? evaluate(s, cd) : co_level(s, cd, cd->nlocs - 1);
}

static sc_status after_co(sim_search *s, sim_candidate *cd) {
  build_co(cd->co_low, cd->co, cd->nlocs);
  return s->co_first ? rf_level(s, cd, cd->nreads) : evaluate(s, cd);
}

static sc_status co_level(sim_search *s, sim_candidate *cd, int l) {
  if (l < 0)
    return after_co(s, cd);
  co_choice *c = &cd->co[l];
  if (c->n == 0)
    return co_level(s, cd, l - 1);
  co_walk w = {.s = s, .cd = cd, .l = l, .st = SC_OK};
  if (s->partial_co)
    sci_orders_walk_partial(c->n, NULL, co_step, &w);
  else
    sci_orders_walk_total(c->n, co_step, &w);
  memset(c->below, 0, sizeof c->below);
  c->placed = 0;
  build_co(cd->co_low, cd->co, cd->nlocs); /* the levels above see their co */
  return w.st;
}

/* Reads k-1 down to 0 still to choose, then what follows rf.  A read with
 * one candidate write was given it from the start (each_rf). */
static sc_status rf_level(sim_search *s, sim_candidate *cd, int k) {
  if (k == 0)
    return after_rf(s, cd);
  int r = k - 1, depth = cd->rf_depth + cd->nreads - k;
  if (cd->ncands[r] == 1) {
    cd->rf_left = r;
    /* with rf complete and co to choose, the last look before co */
    bool may = true;
    sc_status st = r == 0 && !s->co_first && cd->co_choices && cd->rf_choices
                       ? may_complete(s, cd, depth, &may)
                       : SC_OK;
    return st ? st : may ? rf_level(s, cd, r) : SC_OK;
  }
  cd->rf_left = r;
  for (int j = 0; j < cd->ncands[r]; j++) {
    sc_rel_add(cd->rf_low, cd->cands[r][j], cd->reads[r]);
    bool may;
    sc_status st = may_complete(s, cd, depth, &may);
    if (!st && may)
      st = rf_level(s, cd, r);
    sc_rel_remove(cd->rf_low, cd->cands[r][j], cd->reads[r]);
    cd->rf_left = r;
    if (st)
      return st;
  }
  return SC_OK;
}

/* The bounds before any choice of rf and co: the reads with one
 * candidate write read from it, as every completion has it. */
static void root_bounds(sim_candidate *cd) {
  sci_rel_clear(cd->rf_low);
  for (int k = 0; k < cd->nreads; k++)
    if (cd->ncands[k] == 1)
      sc_rel_add(cd->rf_low, cd->cands[k][0], cd->reads[k]);
  cd->rf_left = cd->nreads;
  build_co(cd->co_low, cd->co, cd->nlocs);
}

/* The look before any choice of rf and co: a check that only gets worse
 * as rf and co grow may fail already (the reads' values may already be
 * wrong). */
sc_status sci_sim_enum_root_look(sim_search *s, sim_candidate *cd, bool *may) {
  root_bounds(cd);
  return may_complete(s, cd, 0, may);
}

/* The name dynamic.h gives the whole of co. */
static const char *whole_co_name(void) {
  for (int i = 0; i < SIM_NDYNAMIC; i++)
    if (sci_sim_dynamic_names[i].source == SIM_DYN_CO &&
        sci_sim_dynamic_names[i].part == SIM_DYN_WHOLE)
      return sci_sim_dynamic_names[i].name;
  return NULL;
}

sc_rel *sci_sim_enum_co_ordered(sim_search *s, sim_candidate *cd) {
  const sc_cat_analysis *an = cd->eval.analysis;
  const char *co = whole_co_name();
  const struct sc_cat_test **only =
      sci_alloc(sizeof *only * (size_t)(sci_cat_analysis_norders(an) + 1));
  int n = 0;
  for (int i = 0; i < sci_cat_analysis_norders(an); i++) {
    const char *input;
    const struct sc_cat_test *t = sci_cat_analysis_order(an, i, &input);
    if (co && strcmp(input, co) == 0)
      only[n++] = t;
  }
  if (!n)
    return NULL;
  /* each check's value with co empty is its E (cat.h): rf and the other
   * names as at the root, which E does not read */
  sc_execution *x = cd->x;
  root_bounds(cd);
  sc_rel *none = sci_rel_new(x->nevents);
  x->co = none;
  sci_exec_bind_dynamic(x, cd->env);
  sc_cat_run_options eval = cd->eval;
  eval.only = only;
  eval.nonly = n;
  eval.keep_going = true; /* every E, though the first already fails */
  eval.transient = false;
  sc_cat_outcome out;
  sc_error *err = NULL;
  sc_rel *ordered = NULL;
  if (sci_cat_run(s->m->cat, cd->env, &eval, &out, &err) == SC_OK) {
    ordered = sci_rel_new(x->nevents);
    for (int i = 0; i < out.nchecks; i++) {
      const sc_rel *e = out.checks[i].value && !out.checks[i].skipped
                            ? sci_cat_value_rel(out.checks[i].value, x->nevents)
                            : NULL;
      if (e)
        sci_rel_union(ordered, ordered, e);
    }
  }
  x->co = cd->co_low;
  return ordered;
}

/* Add to co's lower bound (w', w) for every other write w' of w's location
 * that every allowed execution orders with w in co (ordered, from
 * sci_sim_enum_co_ordered): w having no co successor, w' comes first.
 * The model's c there is co or co+, and both engines' co is transitive
 * (the enumerator's partial orders, the solver's asserted order): c is
 * co itself, so the pair is in co, not only in its closure. */
static void order_before_last(sim_candidate *cd, const sc_rel *ordered, int w) {
  for (int l = 0; l < cd->nlocs; l++)
    for (int i = 0; i < cd->co[l].n; i++)
      if (cd->co[l].writes[i] == w)
        for (int j = 0; j < cd->co[l].n; j++) {
          int v = cd->co[l].writes[j];
          if (j != i && (sc_rel_has(ordered, v, w) || sc_rel_has(ordered, w, v)))
            sc_rel_add(cd->co_low, v, w);
        }
}

bool sci_sim_enum_refutes_maximal_read(sim_search *s, sim_candidate *cd,
                                       const sc_rel *ordered, int w, int r) {
  if (!cd->ngroups)
    return false;
  root_bounds(cd);
  sc_rel_add(cd->rf_low, w, r);
  if (!s->partial_co) /* w last of a total order: every other write before it */
    for (int l = 0; l < cd->nlocs; l++)
      for (int i = 0; i < cd->co[l].n; i++)
        if (cd->co[l].writes[i] == w)
          for (int j = 0; j < cd->co[l].n; j++)
            if (j != i)
              sc_rel_add(cd->co_low, cd->co[l].writes[j], w);
  if (s->partial_co && ordered)
    order_before_last(cd, ordered, w);
  bool refuted = fails_on_bounds(s, cd, w);
  root_bounds(cd); /* the root look's bounds again */
  return refuted;
}

/* Whether the bounds with (w, r) added to the lower bound `base` of rf
 * fail a check (fails_on_bounds), the upper bounds those of the root. */
static bool fails_reading(sim_search *s, sim_candidate *cd, const sc_rel *base,
                          int w, int r) {
  sci_rel_assign(cd->rf_low, base);
  sc_rel_add(cd->rf_low, w, r);
  return fails_on_bounds(s, cd, -1);
}

/* One round of sci_sim_enum_refutes_by_reads: each read with two live
 * candidates or more tries each; a candidate whose bounds fail is dead
 * (dead[k][j]), a read left with one is given it in `base`.  *changed
 * when a read was left with one; false when a read was left with none. */
static bool reads_round(sim_search *s, sim_candidate *cd, sc_rel *base, bool **dead,
                        int *live, bool *changed) {
  for (int k = 0; k < cd->nreads; k++) {
    if (live[k] < 2)
      continue;
    for (int j = 0; j < cd->ncands[k]; j++)
      if (!dead[k][j] && fails_reading(s, cd, base, cd->cands[k][j], cd->reads[k])) {
        dead[k][j] = true;
        live[k]--;
      }
    if (live[k] == 0)
      return false;
    if (live[k] == 1) {
      for (int j = 0; j < cd->ncands[k]; j++)
        if (!dead[k][j])
          sc_rel_add(base, cd->cands[k][j], cd->reads[k]);
      *changed = true;
    }
  }
  return true;
}

/* How many rounds the reads are tried (each after one was left with a
 * single candidate): the first rounds refute most of what rounds refute. */
#define READS_ROUNDS 4

bool sci_sim_enum_refutes_by_reads(sim_search *s, sim_candidate *cd) {
  if (!cd->ngroups)
    return false;
  root_bounds(cd);
  sc_rel *base = sci_rel_copy(cd->rf_low);
  int *live = sci_alloc_atomic(sizeof(int) * (size_t)(cd->nreads + 1));
  bool **dead = sci_alloc(sizeof(bool *) * (size_t)(cd->nreads + 1));
  for (int k = 0; k < cd->nreads; k++) {
    live[k] = cd->ncands[k];
    dead[k] = sci_alloc_atomic(sizeof(bool) * (size_t)(cd->ncands[k] + 1));
    memset(dead[k], 0, sizeof(bool) * (size_t)(cd->ncands[k] + 1));
  }
  bool refuted = false, changed = true;
  for (int round = 0; round < READS_ROUNDS && changed && !refuted; round++) {
    changed = false;
    refuted = !reads_round(s, cd, base, dead, live, &changed);
  }
  root_bounds(cd); /* the root look's bounds again */
  return refuted;
}

/* Every rf and co for the traces in x. */
static sc_status each_rf(sim_search *s, sim_candidate *cd) {
  bool may;
  sc_status st = sci_sim_enum_root_look(s, cd, &may);
  if (st || !may)
    return st;
  return s->co_first ? co_level(s, cd, cd->nlocs - 1) : rf_level(s, cd, cd->nreads);
}


/* The looks (partial and complete candidates) the probe may take. */
#define PROBE_LOOKS 64L

sc_status sci_sim_enum_within(sim_search *s, sim_candidate *cd, long looks,
                              bool first_only, bool *settled) {
  s->probe = (sim_probe){.left = looks > 0 ? looks : 1, .first_only = first_only};
  sc_status st = each_rf(s, cd);
  s->probe.left = 0;
  *settled = s->probe.found || !s->probe.spent;
  if (st == SIM_STOP && s->done)
    return SIM_STOP; /* -speedcheck fast has its verdict: no solver call */
  if (st == SIM_STOP && (s->probe.found || s->probe.spent))
    return SC_OK; /* the budget's own stop */
  return st;
}

sc_status sci_sim_enum_probe(sim_search *s, sim_candidate *cd, bool *settled) {
  return sci_sim_enum_within(s, cd, PROBE_LOOKS, true, settled);
}

static bool enum_available(const char **why) {
  if (why)
    *why = NULL;
  return true;
}

static void enum_finish(sim_search *s) {
  (void)s; /* nothing is kept from one combination to the next */
}

const sim_engine sci_sim_engine_enum = {
  .name = "enum",
  .what = "the enumerator",
  .counts_states = false,
  .shortest_first = false,
  .available = enum_available,
  .combination = each_rf,
  .finish = enum_finish,
};
