/* search.c: what the engines share of a search: its budget (candidates,
 * time, progress), one combination of traces made a candidate (each
 * read's possible writes, each location's writes to order, the model's
 * environment and the enumerator's prune groups), and the count of the
 * choices a candidate leaves. */
#include "sim/search.h"

#include "sim/dynamic.h"
#include "sim/traces.h"
#include "util/error.h"
#include "util/gcmem.h"

#include <string.h>

/* ---- The budget ------------------------------------------------------------ */

sc_status sci_sim_out_of_time(sim_search *s) {
  return sci_sim_clock_timeout(&s->clock, &s->err);
}

sc_status sci_sim_check_budget(sim_search *s) {
  if (s->done)
    return SIM_STOP; /* unwinds the search */
  long n = ++s->r->candidates;
  if (s->probe.left && --s->probe.left == 0) {
    s->probe.spent = true;
    return SIM_STOP;
  }
  if (n > s->opts.max_executions)
    return sci_fail(&s->err, SC_ERR_LIMIT, s->t->file, 0, 0,
                   "expected at most %ld candidate executions (the "
                   "-max-executions limit)", s->opts.max_executions);
  if ((n & 255) == 0) {
    double t = sc_seconds();
    if (sci_sim_clock_expired(&s->clock))
      return sci_sim_out_of_time(s);
    sci_sim_progress(s, t);
  }
  return SC_OK;
}

void sci_sim_progress(sim_search *s, double now) {
  if (s->opts.progress && now - s->last_progress > 0.25) {
    s->last_progress = now;
    s->opts.progress(s->opts.progress_ctx, s->r->candidates, now - s->start);
  }
}

/* ---- One combination of traces as a candidate ------------------------------ */

/* sci_sim_may_feed for events of an execution; initial writes feed any read of
 * their location and value.  Not by_value: were the values equal
 * (sci_sim_may_feed_but_value: a layout search's, whose solver sees to
 * them). */
static bool write_may_feed(const sc_execution *x, int w, int r, bool by_value) {
  const sc_event *we = &x->events[w], *re = &x->events[r];
  if (we->thread < 0)
    return we->kind == SC_EV_WRITE && we->loc == re->loc &&
           (!by_value || we->value == re->value);
  const sc_trace *tw = x->traces[we->thread], *tr = x->traces[re->thread];
  int wi = w - x->thread_first[we->thread], ri = r - x->thread_first[re->thread];
  return by_value ? sci_sim_may_feed(tw, wi, tr, ri) : sci_sim_may_feed_but_value(tw, wi, tr, ri);
}

/* Each read's candidate writes (write_may_feed); false when one has none. */
static bool rf_candidates(sim_candidate *cd, bool by_value) {
  sc_execution *x = cd->x;
  int n = x->nevents, reads = 0;
  for (int i = 0; i < n; i++)
    reads += x->events[i].kind == SC_EV_READ;
  cd->reads = sci_alloc_atomic(sizeof(int) * (size_t)(n + 1));
  cd->cands = sci_alloc(sizeof(int *) * (size_t)(n + 1));
  cd->ncands = sci_alloc_atomic(sizeof(int) * (size_t)(n + 1));
  /* one block for every read's candidates: one allocation, not one a read */
  int *block = sci_alloc_atomic(sizeof(int) * ((size_t)reads * (size_t)n + 1));
  cd->nreads = 0;
  for (int i = 0; i < n; i++) {
    if (x->events[i].kind != SC_EV_READ)
      continue;
    int k = cd->nreads;
    cd->cands[k] = block + (size_t)k * (size_t)n;
    cd->ncands[k] = 0;
    for (int w = 0; w < n; w++)
      if (write_may_feed(x, w, i, by_value))
        cd->cands[k][cd->ncands[k]++] = w;
    if (cd->ncands[k] == 0)
      return false;
    cd->reads[cd->nreads++] = i;
  }
  return true;
}

bool sci_sim_rf_choices(sim_candidate *cd) { return rf_candidates(cd, true); }

bool sci_sim_rf_layout_choices(sim_candidate *cd) { return rf_candidates(cd, false); }

/* Per location, its writes; each starts unordered. */
sc_status sci_sim_co_choices(sim_search *s, sim_candidate *cd) {
  sc_execution *x = cd->x;
  int n = x->nevents;
  cd->nlocs = s->t->nlocs;
  cd->co = sci_alloc(sizeof(co_choice) * (size_t)(cd->nlocs + 1));
  /* one block for every location's writes: n at most in all */
  int *block = sci_alloc_atomic(sizeof(int) * (size_t)(n + 1)), used = 0;
  for (int i = 0; i < n; i++)
    if (x->events[i].kind == SC_EV_WRITE && x->events[i].thread >= 0)
      cd->co[x->events[i].loc].n++; /* counted here, set again below */
  for (int l = 0; l < cd->nlocs; l++) {
    cd->co[l].writes = block + used;
    used += cd->co[l].n;
    cd->co[l].n = 0;
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
      return sci_fail(&s->err, SC_ERR_LIMIT, s->t->file, 0, 0,
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
static void prune_groups(sim_search *s, sim_candidate *cd, const sc_cat_analysis *an) {
  cd->ngroups = 0;
  if (!s->prune)
    return;
  const uint32_t mask = SIM_IN_RF | SIM_IN_CO;
  for (int i = 0; i < sci_cat_analysis_nchecks(an); i++) {
    sc_cat_dep d;
    const struct sc_cat_test *t = sci_cat_analysis_check(an, i, &d);
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
      *pg = (prune_group){.rf_upper = rfu, .co_upper = cou,
                          .checks = sci_alloc(sizeof(void *) * 64), .n = 0,
                          .eval = cd->eval};
    }
    if (pg->n < 64)
      pg->checks[pg->n++] = t;
  }
  for (int g = 0; g < cd->ngroups; g++) {
    cd->groups[g].eval.only = cd->groups[g].checks;
    cd->groups[g].eval.nonly = cd->groups[g].n;
  }
}

/* Layout i of the kept ones becomes the most recently used. */
static void move_to_front(sim_prepared *p, int i) {
  sim_layout used = p->kept[i];
  memmove(&p->kept[1], &p->kept[0], sizeof(sim_layout) * (size_t)i);
  p->kept[0] = used;
}

sc_execution *sci_sim_execution(sim_search *s, const sc_trace **chosen) {
  sim_prepared *p = &s->prepared;
  for (int i = 0; i < p->n; i++)
    if (sci_exec_same_layout(s->t, p->kept[i].traces, chosen)) {
      move_to_front(p, i);
      return sci_exec_new_like(p->kept[0].x, chosen);
    }
  return sci_exec_new(s->t, chosen);
}

/* The environment, analysis and prune groups of the traces in cd->x, made
 * anew (what sci_sim_prepare shares when it may). */
static void prepare_anew(sim_search *s, sim_candidate *cd) {
  int n = cd->x->nevents;
  const char *names[SIM_NDYNAMIC];
  sc_cat_dynamic deps[SIM_NDYNAMIC];
  sci_sim_dynamic_name_list(names);
  sci_sim_dynamic_deps(deps);
  cd->env = sci_cat_env_new(n);
  sci_exec_bind_static(cd->x, cd->env);
  sci_exec_bind_dynamic(cd->x, cd->env);
  sci_cat_env_set_dynamic(cd->env, names, SIM_NDYNAMIC);
  const sc_cat_analysis *an =
      sci_cat_analyse(s->m->cat, cd->env, deps, SIM_NDYNAMIC, &s->eval);
  cd->eval = s->eval;
  cd->eval.analysis = an;
  prune_groups(s, cd, an);
}

/* The kept layout cd->x was built like, NULL when none: the one used
 * last (sci_sim_execution moved it to the front), when cd->x shares its
 * relations fixed by the traces (sci_exec_new_like) or is its own first
 * execution, so that everything bound from them is the same. */
static sim_layout *layout_of(sim_search *s, const sim_candidate *cd) {
  sim_layout *front = &s->prepared.kept[0];
  return s->prepared.n > 0 && cd->x->po == front->x->po ? front : NULL;
}

/* cd's layout, prepared anew, as the most recently used (the least
 * recently used one is dropped when all are taken). */
static void keep_layout(sim_search *s, const sim_candidate *cd) {
  sim_prepared *p = &s->prepared;
  if (p->n < SIM_LAYOUTS_KEPT)
    p->n++;
  move_to_front(p, p->n - 1);
  sim_layout *l = &p->kept[0];
  int nthreads = s->t->nthreads;
  l->traces = sci_alloc(sizeof(sc_trace *) * (size_t)(nthreads + 1));
  memcpy(l->traces, cd->x->traces, sizeof(sc_trace *) * (size_t)nthreads);
  l->x = cd->x;
  l->env = cd->env;
  l->eval = cd->eval;
  l->ngroups = cd->ngroups;
  l->groups = sci_alloc(sizeof(prune_group) * (size_t)(cd->ngroups + 1));
  memcpy(l->groups, cd->groups, sizeof(prune_group) * (size_t)cd->ngroups);
  l->syncs = NULL;
  l->nsyncs = 0;
  l->syncs_known = false; /* worked out when the barriers are first met */
}

void sci_sim_prepare(sim_search *s, sim_candidate *cd) {
  int n = cd->x->nevents;
  if (layout_of(s, cd)) {
    /* the dynamic names stay bound to the first execution's relations:
     * every run rebinds them, or reads them from cd->x (engine_enum.c's
     * fill_inputs), as within one combination */
    const sim_layout *l = &s->prepared.kept[0];
    cd->env = l->env;
    cd->eval = l->eval;
    cd->ngroups = l->ngroups;
    memcpy(cd->groups, l->groups, sizeof(prune_group) * (size_t)l->ngroups);
    s->prepared.shared++;
  } else {
    prepare_anew(s, cd);
    keep_layout(s, cd);
  }
  cd->rf_low = cd->x->rf;
  cd->co_low = cd->x->co;
  cd->rf_up = sci_rel_new(n);
  cd->co_up = sci_rel_new(n);
}

bool sci_sim_layout_syncs(sim_search *s, const sim_candidate *cd, sc_rel ***syncs,
                          int *n) {
  const sim_layout *l = layout_of(s, cd);
  if (!l || !l->syncs_known)
    return false;
  *syncs = l->syncs;
  *n = l->nsyncs;
  return true;
}

void sci_sim_keep_layout_syncs(sim_search *s, const sim_candidate *cd, sc_rel **syncs,
                               int n) {
  sim_layout *l = layout_of(s, cd);
  if (!l)
    return;
  l->syncs = syncs;
  l->nsyncs = n;
  l->syncs_known = true;
}

/* n times the orders of w writes: w! total ones; the labelled strict
 * partial orders when co is partial. */
long sci_sim_times_orders(long n, int w, bool partial, long most) {
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
long sci_sim_choices_upto(const sim_search *s, const sim_candidate *cd, long most) {
  long n = 1;
  for (int k = 0; k < cd->nreads && n <= most; k++)
    n *= cd->ncands[k];
  for (int l = 0; l < cd->nlocs && n <= most; l++)
    n = sci_sim_times_orders(n, cd->co[l].n, s->partial_co, most);
  return n <= most ? n : most + 1;
}

