/* execution.c: from chosen traces to the sets and relations a model sees.
 * Everything fixed by the traces is bound once (sci_exec_bind_static);
 * rf, co and their consequences are bound per candidate. */
#include "sim/execution.h"

#include "sim/dynamic.h"

#include "util/gcmem.h"
#include "util/strbuf.h"

#include <string.h>

/* The relations chosen per candidate, empty, and no final write chosen. */
static void new_choices(sc_execution *x) {
  int n = x->nevents;
  x->rf = sci_rel_new(n);
  x->co = sci_rel_new(n);
  x->syncbar = sci_rel_new(n);
  x->sync_fence = sci_rel_new(n);
  x->final_write = sci_alloc_atomic(sizeof(int) * (size_t)(x->test->nlocs + 1));
  for (int l = 0; l < x->test->nlocs; l++)
    x->final_write[l] = -1;
}

sc_execution *sci_exec_new(const sc_test *t, const sc_trace **traces) {
  sc_execution *x = sci_alloc(sizeof *x);
  x->test = t;
  x->traces = traces;
  int n = 0;
  for (int l = 0; l < t->nlocs; l++)
    n += t->locs[l].alias_of < 0;
  x->ninit = n;
  for (int th = 0; th < t->nthreads; th++)
    n += traces[th]->nevents;
  x->nevents = n;
  x->events = sci_alloc(sizeof(sc_event) * (size_t)(n + 1));
  x->thread_first = sci_alloc_atomic(sizeof(int) * (size_t)(t->nthreads + 1));
  x->po = sci_rel_new(n);
  x->addr = sci_rel_new(n);
  x->data = sci_rel_new(n);
  x->ctrl = sci_rel_new(n);
  x->rmw = sci_rel_new(n);
  new_choices(x);
  int e = 0;
  for (int l = 0; l < t->nlocs; l++) {
    if (t->locs[l].alias_of >= 0)
      continue;
    sc_event *ev = &x->events[e++];
    ev->kind = SC_EV_WRITE;
    ev->thread = ev->pc = -1;
    ev->loc = ev->vloc = l;
    ev->value = sci_value_of(t->locs[l].init);
  }
  for (int th = 0; th < t->nthreads; th++) {
    const sc_trace *tr = traces[th];
    int first = x->thread_first[th] = e;
    for (int i = 0; i < tr->nevents; i++, e++) {
      const sc_trace_event *te = &tr->events[i];
      sc_event *ev = &x->events[e];
      ev->kind = te->kind;
      ev->thread = th;
      ev->pc = te->pc;
      ev->instr = te->instr;
      ev->loc = te->loc;
      ev->vloc = te->vloc;
      ev->value = te->value;
      ev->value_unknown = te->value_unknown;
      for (int j = 0; j < i; j++) {
        sc_rel_add(x->po, first + j, e);
        uint64_t bit = (uint64_t)1 << j;
        if (te->addr_deps & bit) sc_rel_add(x->addr, first + j, e);
        if (te->data_deps & bit) sc_rel_add(x->data, first + j, e);
        if (te->ctrl_deps & bit) sc_rel_add(x->ctrl, first + j, e);
      }
      if (te->rmw_partner > i)
        sc_rel_add(x->rmw, e, first + te->rmw_partner);
    }
  }
  x->internal = sci_rel_new(n);
  for (int a = 0; a < n; a++)
    for (int b = 0; b < n; b++)
      if (a == b || (x->events[a].thread >= 0 &&
                     x->events[a].thread == x->events[b].thread))
        sc_rel_add(x->internal, a, b);
  return x;
}

/* Whether events a and b are one event but for its value: the same
 * instruction at the same place in the run, the same locations,
 * dependencies, atomic partner and barrier operands. */
static bool same_event_but_value(const sc_trace_event *a, const sc_trace_event *b) {
  return a->kind == b->kind && a->instr == b->instr && a->pc == b->pc &&
         a->loc == b->loc && a->vloc == b->vloc && a->rmw_partner == b->rmw_partner &&
         a->addr_deps == b->addr_deps && a->data_deps == b->data_deps &&
         a->ctrl_deps == b->ctrl_deps && a->nbar_ops == b->nbar_ops &&
         memcmp(a->bar_ops, b->bar_ops, sizeof a->bar_ops) == 0;
}

bool sci_exec_same_trace_layout(const sc_trace *a, const sc_trace *b) {
  if (a == b)
    return true;
  if (a->nevents != b->nevents || a->stuck != b->stuck)
    return false;
  for (int i = 0; i < a->nevents; i++)
    if (!same_event_but_value(&a->events[i], &b->events[i]))
      return false;
  return true;
}

bool sci_exec_same_layout(const sc_test *t, const sc_trace **these, const sc_trace **those) {
  for (int th = 0; th < t->nthreads; th++)
    if (!sci_exec_same_trace_layout(these[th], those[th]))
      return false;
  return true;
}

sc_execution *sci_exec_new_like(const sc_execution *like, const sc_trace **traces) {
  sc_execution *x = sci_alloc(sizeof *x);
  *x = *like; /* the test, the events' count and the relations of the layout */
  x->traces = traces;
  x->events = sci_alloc(sizeof(sc_event) * (size_t)(x->nevents + 1));
  memcpy(x->events, like->events, sizeof(sc_event) * (size_t)x->nevents);
  for (int th = 0; th < x->test->nthreads; th++)
    for (int i = 0; i < traces[th]->nevents; i++)
      x->events[x->thread_first[th] + i].value = traces[th]->events[i].value;
  new_choices(x);
  return x;
}

/* ---- Sets ------------------------------------------------------------------- */

typedef bool (*event_pred)(const sc_execution *x, const sc_event *e, int arg);

static sc_set *set_of(const sc_execution *x, event_pred pred, int arg) {
  sc_set *s = sci_set_new(x->nevents);
  for (int i = 0; i < x->nevents; i++)
    if (pred(x, &x->events[i], arg))
      sc_set_add(s, i);
  return s;
}

static bool is_kind(const sc_execution *x, const sc_event *e, int k) {
  (void)x;
  return (int)e->kind == k;
}
static bool is_memory(const sc_execution *x, const sc_event *e, int unused) {
  (void)x, (void)unused;
  return e->kind == SC_EV_READ || e->kind == SC_EV_WRITE;
}
static bool is_init(const sc_execution *x, const sc_event *e, int unused) {
  (void)x, (void)unused;
  return e->thread < 0;
}
static bool has_cacheop(const sc_execution *x, const sc_event *e, int c) {
  (void)x;
  return e->instr && (int)e->instr->cacheop == c;
}
static bool has_sem(const sc_execution *x, const sc_event *e, int s) {
  (void)x;
  return e->instr && (int)e->instr->sem == s;
}
static bool is_membar(const sc_execution *x, const sc_event *e, int scope) {
  (void)x;
  return e->instr && e->instr->op == SC_OP_MEMBAR && (int)e->instr->scope == scope;
}
/* The region of an access: the instruction's state space when written,
 * else the location's memory map entry, else global (CUDA's default). */
static bool in_region(const sc_execution *x, const sc_event *e, int region) {
  if (e->loc < 0)
    return false;
  int r = e->instr && e->instr->space ? (int)e->instr->space
                                      : (int)x->test->locs[e->loc].region;
  return (r ? r : SC_SPACE_GLOBAL) == region;
}
static bool is_atomic(const sc_execution *x, const sc_event *e, int op) {
  (void)x;
  return e->instr && (int)e->instr->op == op;
}

static void bind_sets(const sc_execution *x, sc_cat_env *env) {
  sc_set *r = set_of(x, is_kind, SC_EV_READ), *w = set_of(x, is_kind, SC_EV_WRITE);
  sci_cat_env_bind_set(env, "R", r);
  sci_cat_env_bind_set(env, "W", w);
  sci_cat_env_bind_set(env, "M", set_of(x, is_memory, 0));
  sci_cat_env_bind_set(env, "F", set_of(x, is_kind, SC_EV_FENCE));
  sci_cat_env_bind_set(env, "BAR", set_of(x, is_kind, SC_EV_BARRIER));
  sci_cat_env_bind_set(env, "IW", set_of(x, is_init, 0));
  sc_set *rmw = sci_set_new(x->nevents), *ran = sci_set_new(x->nevents);
  sci_rel_domain(rmw, x->rmw);
  sci_rel_range(ran, x->rmw);
  sci_set_union(rmw, rmw, ran);
  sci_cat_env_bind_set(env, "RMW", rmw);
  sci_cat_env_bind_set(env, "atom", set_of(x, is_atomic, SC_OP_ATOM));
  sci_cat_env_bind_set(env, "red", set_of(x, is_atomic, SC_OP_RED));
  for (int c = 1; c < SC_CACHE_COUNT; c++)
    sci_cat_env_bind_set(env, sci_cacheop_name((sc_cacheop)c), set_of(x, has_cacheop, c));
  for (int s = 1; s < SC_SEM_COUNT; s++)
    sci_cat_env_bind_set(env, sci_sem_name((sc_sem)s), set_of(x, has_sem, s));
  for (int g = 1; g < SC_SPACE_COUNT; g++)
    sci_cat_env_bind_set(env, sci_space_name((sc_space)g), set_of(x, in_region, g));
  sci_cat_env_bind_set(env, "MEMBAR.CTA", set_of(x, is_membar, SC_SCOPE_CTA));
  sci_cat_env_bind_set(env, "MEMBAR.GL", set_of(x, is_membar, SC_SCOPE_GPU));
  sci_cat_env_bind_set(env, "MEMBAR.SYS", set_of(x, is_membar, SC_SCOPE_SYS));
}

/* ---- Relations ---------------------------------------------------------------- */

typedef bool (*pair_pred)(const sc_execution *x, const sc_event *a,
                          const sc_event *b, int arg);

static sc_rel *rel_of(const sc_execution *x, pair_pred pred, int arg) {
  sc_rel *r = sci_rel_new(x->nevents);
  for (int i = 0; i < x->nevents; i++)
    for (int j = 0; j < x->nevents; j++)
      if (pred(x, &x->events[i], &x->events[j], arg))
        sc_rel_add(r, i, j);
  return r;
}

static bool same_loc(const sc_execution *x, const sc_event *a, const sc_event *b,
                     int unused) {
  (void)x, (void)unused;
  return a->loc >= 0 && a->loc == b->loc;
}
/* Threads in the same instance of `level`.  Initial writes belong to no
 * thread, so only sys (every pair) relates them. */
static bool same_scope(const sc_execution *x, const sc_event *a,
                       const sc_event *b, int level) {
  if (a->thread < 0 || b->thread < 0)
    return false;
  const sc_thread *ta = &x->test->threads[a->thread];
  const sc_thread *tb = &x->test->threads[b->thread];
  return ta->place[level] == tb->place[level];
}

/* fencerel(S): pairs separated in po by an event of S. */
static sc_rel *fencerel(const sc_execution *x, const sc_set *s) {
  sc_rel *before = sci_rel_new(x->nevents), *r = sci_rel_new(x->nevents);
  sci_rel_restrict(before, x->po, NULL, s);
  sci_rel_seq(r, before, x->po);
  return r;
}

static void bind_relations(const sc_execution *x, sc_cat_env *env) {
  int n = x->nevents;
  sc_rel *loc = rel_of(x, same_loc, 0), *intr = x->internal;
  sc_rel *ext = sci_rel_new(n), *id = sci_rel_new(n), *poloc = sci_rel_new(n);
  sci_rel_complement(ext, intr);
  sci_rel_identity(id, NULL);
  sci_rel_inter(poloc, x->po, loc);
  sci_cat_env_bind_rel(env, "id", id);
  sci_cat_env_bind_rel(env, "loc", loc);
  sci_cat_env_bind_rel(env, "int", intr);
  sci_cat_env_bind_rel(env, "ext", ext);
  sci_cat_env_bind_rel(env, "po", x->po);
  sci_cat_env_bind_rel(env, "po-loc", poloc);
  sci_cat_env_bind_rel(env, "addr", x->addr);
  sci_cat_env_bind_rel(env, "data", x->data);
  sci_cat_env_bind_rel(env, "ctrl", x->ctrl);
  sci_cat_env_bind_rel(env, "rmw", x->rmw);
  sci_cat_env_bind_rel(env, "amo", x->rmw); /* atom and red: one instruction */
  sci_cat_env_bind_rel(env, "warp", rel_of(x, same_scope, SC_LEVEL_WARP));
  sci_cat_env_bind_rel(env, "cta", rel_of(x, same_scope, SC_LEVEL_CTA));
  sci_cat_env_bind_rel(env, "gl", rel_of(x, same_scope, SC_LEVEL_KERNEL));
  sc_rel *sys = sci_rel_new(n);
  sci_rel_fill(sys);
  sci_cat_env_bind_rel(env, "sys", sys);
  static const struct { const char *rel; int scope; } membars[] = {
      {"membar.cta", SC_SCOPE_CTA}, {"membar.gl", SC_SCOPE_GPU},
      {"membar.sys", SC_SCOPE_SYS}};
  for (size_t i = 0; i < sizeof membars / sizeof membars[0]; i++)
    sci_cat_env_bind_rel(env, membars[i].rel,
                        fencerel(x, set_of(x, is_membar, membars[i].scope)));
}

void sci_exec_bind_static(const sc_execution *x, sc_cat_env *env) {
  bind_sets(x, env);
  bind_relations(x, env);
  sci_exec_bind_ptx(x, env);
}

/* The pairs of r a dynamic name keeps: all, those of one thread (& int)
 * or those across threads (\ int). */
static const sc_rel *part_of(const sc_execution *x, const sc_rel *r,
                             sim_dyn_part part) {
  if (part == SIM_DYN_WHOLE)
    return r;
  sc_rel *out = sci_rel_new(x->nevents);
  if (part == SIM_DYN_INTERNAL)
    sci_rel_inter(out, r, x->internal);
  else
    sci_rel_diff(out, r, x->internal);
  return out;
}

/* The writes with no co successor. */
static sc_set *co_last_writes(const sc_execution *x) {
  int n = x->nevents;
  sc_set *fw = sci_set_new(n), *has_next = sci_set_new(n);
  for (int i = 0; i < n; i++)
    if (x->events[i].kind == SC_EV_WRITE)
      sc_set_add(fw, i);
  sci_rel_domain(has_next, x->co);
  sci_set_diff(fw, fw, has_next);
  return fw;
}

/* Every name of dynamic.h's table, each from its source. */
void sci_exec_bind_dynamic(const sc_execution *x, sc_cat_env *env) {
  sc_rel *rfinv = sci_rel_new(x->nevents), *fr = sci_rel_new(x->nevents);
  sci_rel_inverse(rfinv, x->rf);
  sci_rel_seq(fr, rfinv, x->co);
  const sc_rel *source[SIM_DYN_NSOURCES] = {
    [SIM_DYN_RF] = x->rf, [SIM_DYN_CO] = x->co, [SIM_DYN_FR] = fr,
    [SIM_DYN_SYNCBAR] = x->syncbar, [SIM_DYN_SYNC_FENCE] = x->sync_fence};
  for (int i = 0; i < SIM_NDYNAMIC; i++) {
    const sim_dynamic *d = &sci_sim_dynamic_names[i];
    if (sci_sim_dyn_is_set(d->source))
      sci_cat_env_bind_set(env, d->name, co_last_writes(x));
    else
      sci_cat_env_bind_rel(env, d->name, part_of(x, source[d->source], d->part));
  }
}

/* ---- Final state ---------------------------------------------------------------- */

int64_t sci_exec_final_value(const sc_execution *x, int loc) {
  loc = sci_physical_loc(x->test, loc);
  if (x->final_write[loc] >= 0)
    return x->events[x->final_write[loc]].value;
  int64_t v = 0;
  for (int i = 0; i < x->nevents; i++) {
    const sc_event *e = &x->events[i];
    if (e->kind != SC_EV_WRITE || e->loc != loc)
      continue;
    bool last = true;
    for (int j = 0; j < x->nevents && last; j++)
      last = !sc_rel_has(x->co, i, j);
    if (last)
      v = e->value;
  }
  return v;
}

int64_t sci_exec_lval(const sc_execution *x, const sc_lval *lv) {
  switch (lv->kind) {
  case SC_LVAL_REG: return x->traces[lv->thread]->final_regs[lv->reg];
  case SC_LVAL_LOC: return sci_exec_final_value(x, lv->loc);
  case SC_LVAL_CONST: return lv->constant;
  case SC_LVAL_ADDR: return sci_loc_address(lv->loc);
  }
  return 0;
}

bool sci_exec_holds(const sc_execution *x, const sc_prop *p) {
  switch (p->kind) {
  case SC_PROP_TRUE: return true;
  case SC_PROP_FALSE: return false;
  case SC_PROP_EQ: case SC_PROP_NE: case SC_PROP_LT: case SC_PROP_LE:
  case SC_PROP_GT: case SC_PROP_GE:
    return sci_prop_compare(p->kind, sci_exec_lval(x, &p->lhs), sci_exec_lval(x, &p->rhs));
  case SC_PROP_NOT: return !sci_exec_holds(x, p->a);
  case SC_PROP_AND: return sci_exec_holds(x, p->a) && sci_exec_holds(x, p->b);
  case SC_PROP_OR: return sci_exec_holds(x, p->a) || sci_exec_holds(x, p->b);
  case SC_PROP_IMPLIES: return !sci_exec_holds(x, p->a) || sci_exec_holds(x, p->b);
  }
  return false;
}

/* ---- Kept executions ------------------------------------------------------- */

static sc_rel *copy_rel(const sc_rel *r) { return r ? sci_rel_copy(r) : NULL; }

sc_execution *sci_exec_snapshot(const sc_execution *x) {
  sc_execution *k = sci_alloc(sizeof *k);
  *k = *x; /* events, traces and the relations of the traces never change */
  /* but the array naming the traces is the enumerator's, reused per choice */
  const sc_trace **traces = sci_alloc(sizeof(sc_trace *) * (size_t)(x->test->nthreads + 1));
  memcpy(traces, x->traces, sizeof(sc_trace *) * (size_t)x->test->nthreads);
  k->traces = traces;
  k->rf = copy_rel(x->rf);
  k->co = copy_rel(x->co);
  k->syncbar = copy_rel(x->syncbar);
  k->sync_fence = copy_rel(x->sync_fence);
  k->final_write = sci_alloc_atomic(sizeof(int) * (size_t)(x->test->nlocs + 1));
  memcpy(k->final_write, x->final_write, sizeof(int) * (size_t)x->test->nlocs);
  return k;
}

/* Thread events are named a, b, ..., z, a1, b1...; initial writes have no
 * letter (herd draws them as the initial state). */
static const char *event_name(const sc_execution *x, int i) {
  int k = i - x->ninit;
  if (k < 0)
    return "";
  return k < 26 ? sci_printf("%c: ", 'a' + k) : sci_printf("%c%d: ", 'a' + k % 26, k / 26);
}

const char *sci_exec_value_text(const sc_execution *x, int e) {
  return x->events[e].value_unknown ? "?" : sci_value_string(x->test, x->events[e].value);
}

const char *sci_exec_event_label(const sc_execution *x, int i) {
  sc_strbuf buf, *sb = &buf;
  sci_sb_init(sb);
  const sc_event *e = &x->events[i];
  const sc_test *t = x->test;
  sci_sb_puts(sb, event_name(x, i));
  switch (e->kind) {
  case SC_EV_READ:
  case SC_EV_WRITE:
    sci_sb_printf(sb, "%s[%s]=%s", e->kind == SC_EV_READ ? "R" : "W",
                 t->locs[e->vloc].name, sci_exec_value_text(x, i));
    if (e->instr && e->instr->cacheop)
      sci_sb_printf(sb, " %s", sci_cacheop_name(e->instr->cacheop));
    if (e->instr && e->instr->sem)
      sci_sb_printf(sb, " %s", sci_sem_name(e->instr->sem));
    if (e->instr && e->instr->scope)
      sci_sb_printf(sb, ".%s", sci_scope_name(e->instr->scope));
    break;
  case SC_EV_FENCE:
  case SC_EV_BARRIER:
    sci_print_instruction(sb, t, &t->threads[e->thread], e->instr);
    break;
  }
  return buf.data;
}

/* ---- The public view of a kept execution (sc_execution_*): its events
 * and relations, read-only. */

int sc_execution_event_count(const sc_execution *x) { return x->nevents; }

const char *sc_execution_event(const sc_execution *x, int e) {
  return e >= 0 && e < x->nevents ? sci_exec_event_label(x, e) : NULL;
}

int sc_execution_event_thread(const sc_execution *x, int e) {
  return e >= 0 && e < x->nevents ? x->events[e].thread : -1;
}

int sc_execution_related(const sc_execution *x, const char *relation, int a,
                         int b) {
  if (a < 0 || b < 0 || a >= x->nevents || b >= x->nevents || !relation)
    return -1;
  if (strcmp(relation, "fr") == 0) { /* rf^-1 ; co */
    for (int w = 0; w < x->nevents; w++)
      if (sc_rel_has(x->rf, w, a) && sc_rel_has(x->co, w, b))
        return 1;
    return 0;
  }
  /* the relations an execution carries, by the names models give them;
   * syncbar and sync_fence are absent when the test has nothing to order */
  static const char *const names[] = {"po", "rf", "co", "addr", "data", "ctrl",
                                      "rmw", "syncbar", "sync_fence"};
  const sc_rel *rels[] = {x->po, x->rf, x->co, x->addr, x->data, x->ctrl,
                          x->rmw, x->syncbar, x->sync_fence};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcmp(relation, names[i]) == 0)
      return rels[i] ? sc_rel_has(rels[i], a, b) : 0;
  return -1;
}
