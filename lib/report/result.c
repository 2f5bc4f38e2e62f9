/* result.c: the public face of a simulation's result (sc_result of the
 * public header): its counts and states, whether it allows a proposition,
 * the executions it kept, and the result as herd7's log, JSON or DOT
 * pictures (the printers are herd_log.c, json.c and dot.c). */
#include "report/dot.h"
#include "report/report.h"
#include "sim/result.h"

#include "util/error.h"
#include "util/gcmem.h"
#include "util/oom.h"
#include "util/strbuf.h"

const char *sc_result_state(const sc_result *r, int i) {
  if (i < 0 || i >= r->nstates)
    return NULL;
  sc_strbuf sb;
  sci_sb_init(&sb);
  sci_herd_state(&sb, r, &r->states[i]);
  return sb.data;
}

int sc_result_validated(const sc_result *r) { return sci_sim_validated(r); }
const char *sc_result_engine(const sc_result *r) {
  return r && r->engine ? r->engine : "enum";
}
const char *sc_result_engine_reason(const sc_result *r) {
  return r && r->engine_reason ? r->engine_reason : "";
}

const char *sc_result_co(const sc_result *r) {
  return r->partial_co ? "partial" : "total";
}
const char *sc_result_co_reason(const sc_result *r) {
  return r->co_reason ? r->co_reason : "";
}

const char *sc_result_observation(const sc_result *r) {
  return sci_sim_observation(r);
}

long sc_result_positive(const sc_result *r) { return r->positive; }
long sc_result_negative(const sc_result *r) { return r->negative; }
long sc_result_candidates(const sc_result *r) { return r->candidates; }
int sc_result_stopped_early(const sc_result *r) { return r->stopped_early; }
double sc_result_seconds(const sc_result *r) { return r->seconds; }
int sc_result_state_count(const sc_result *r) { return r->nstates; }
int sc_result_shown(const sc_result *r) { return r->nshown; }
/* Shown executions are drawn when asked for, titled "NAME #K". */
static void draw(sc_strbuf *sb, const sc_result *r, int i) {
  sci_dot_execution(sb, r->execs[i], sci_printf("%s #%d", r->test->name, i + 1),
                   r->cycles[i]);
}

/* Graphs `from` to `to` - 1 in one string; NULL when out of memory. */
static const char *draw_range(const sc_result *r, int from, int to) {
  sc_oom_guard g;
  if (!SC_OOM_ENTER(g))
    return sci_oom_null(&g);
  sc_strbuf sb;
  sci_sb_init(&sb);
  for (int i = from; i < to; i++)
    draw(&sb, r, i);
  sci_oom_leave(&g);
  return sb.data;
}

const char *sc_result_dot(const sc_result *r) {
  return r->nshown ? draw_range(r, 0, r->nshown) : NULL;
}

const char *sc_result_dot_graph(const sc_result *r, int i) {
  return i >= 0 && i < r->nshown ? draw_range(r, i, i + 1) : NULL;
}

int sc_result_execution_count(const sc_result *r) { return r->nshown; }

const sc_execution *sc_result_execution(const sc_result *r, int i) {
  return i >= 0 && i < r->nshown ? r->execs[i] : NULL;
}


int sc_result_liveness(const sc_result *r) { return r->liveness; }

int sc_result_liveness_stuck(const sc_result *r, int thread) {
  if (!r->stuck || thread < 0 || thread >= r->test->nthreads)
    return -1;
  return r->stuck[thread];
}

const sc_execution *sc_result_liveness_witness(const sc_result *r) {
  return r->witness;
}

int sc_result_liveness_unchecked(const sc_result *r, int *thread, int *line) {
  if (r->liveness == SC_LIVE_NONE || !r->unchecked_branch)
    return 0;
  *thread = r->unchecked_thread;
  *line = r->unchecked_branch->line;
  return 1;
}

int sc_result_unroll(const sc_result *r, int *started_at) {
  if (started_at)
    *started_at = r->unroll_from;
  return r->unroll;
}

long sc_result_cut_runs(const sc_result *r, int thread) {
  if (thread < 0 || thread >= r->test->nthreads)
    return -1;
  return r->cut_runs ? r->cut_runs[thread] : 0;
}

/* A liveness result prints one line, "Liveness NAME Pass|Fail", instead
 * of herd7's block (it has no final states); then, when the test has a
 * loop whose iterations write, a line saying that such loops are not
 * checked (a line of its own: readers of the Liveness line stay as they
 * are). */
static const char *liveness_log(const sc_result *r) {
  const char *verdict = sci_printf("Liveness %s %s\n", r->test->name,
                                  r->liveness == SC_LIVE_PASS ? "Pass" : "Fail");
  verdict = sci_printf("%s%s", verdict, sci_live_unroll_note(r));
  int th, line;
  if (!sc_result_liveness_unchecked(r, &th, &line))
    return verdict;
  return sci_printf("%sUnchecked %s the loop of %s closed at line %d writes at "
                   "each turn: -liveness does not check such loops\n",
                   verdict, r->test->name, r->test->threads[th].name, line);
}

const char *sc_result_log(const sc_result *r, unsigned flags) {
  sc_oom_guard g;
  if (!SC_OOM_ENTER(g))
    return sci_oom_null(&g);
  const char *s = r->liveness == SC_LIVE_NONE ? sci_herd_log(r, flags) : liveness_log(r);
  sci_oom_leave(&g);
  return s;
}

const char *sc_result_json(const sc_result *r, unsigned flags) {
  sc_oom_guard g;
  if (!SC_OOM_ENTER(g))
    return sci_oom_null(&g);
  const char *s = sci_json_result(r, flags);
  sci_oom_leave(&g);
  return s;
}

/* ---- Queries on the recorded states ---------------------------------------- */

static int observed_index(const sc_result *r, const sc_lval *lv) {
  for (int i = 0; i < r->nobserved; i++) {
    const sc_lval *o = &r->observed[i];
    if (o->kind == lv->kind &&
        (lv->kind == SC_LVAL_LOC ? o->loc == lv->loc
                                 : o->thread == lv->thread && o->reg == lv->reg))
      return i;
  }
  return -1;
}

typedef struct state_ctx {
  const sc_result *r;
  const sc_state *s;
  const sc_lval *unobserved; /* the first term no state records */
} state_ctx;

static void note_unobserved(const sc_lval *lv, void *ctx) {
  state_ctx *c = ctx;
  if ((lv->kind == SC_LVAL_REG || lv->kind == SC_LVAL_LOC) && !c->unobserved &&
      observed_index(c->r, lv) < 0)
    c->unobserved = lv;
}

static int64_t state_value(const sc_lval *lv, void *ctx) {
  const state_ctx *c = ctx;
  switch (lv->kind) {
  case SC_LVAL_CONST: return lv->constant;
  case SC_LVAL_ADDR: return sci_loc_address(lv->loc);
  default: return c->s->values[observed_index(c->r, lv)];
  }
}

static sc_status result_allows_unguarded(const sc_result *r,
                                         const char *proposition, int *allowed,
                                         sc_error **err) {
  sc_prop *p;
  *allowed = 0;
  sc_status st = sci_test_parse_prop(r->test, proposition, &p, err);
  if (st)
    return st;
  state_ctx c = {r, NULL, NULL};
  sci_prop_each_lval(p, note_unobserved, &c);
  if (c.unobserved) {
    const sc_lval *lv = c.unobserved;
    return sci_fail(err, SC_ERR_USAGE, "<proposition>", 0, 0,
                   "expected a register or location the result observes (those "
                   "of the condition and `locations'), found %s",
                   lv->kind == SC_LVAL_LOC
                       ? r->test->locs[lv->loc].name
                       : sci_printf("%d:%s", lv->thread,
                                   r->test->threads[lv->thread].regs[lv->reg].name));
  }
  for (int i = 0; i < r->nstates && !*allowed; i++) {
    c.s = &r->states[i];
    *allowed = sci_prop_holds(p, state_value, &c);
  }
  return SC_OK;
}

sc_status sc_result_allows(const sc_result *r, const char *proposition,
                           int *allowed, sc_error **err) {
  sc_oom_guard g;
  if (!SC_OOM_ENTER(g))
    return sci_oom_fail(&g, NULL, err);
  sc_status st = result_allows_unguarded(r, proposition, allowed, err);
  sci_oom_leave(&g);
  return st;
}
