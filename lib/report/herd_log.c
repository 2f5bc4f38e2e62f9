/* log.c: results in herd7's log format (the block herd7 prints per test),
 * which herdtools' scripts (mcompare7...) read.  The Hash is the MD5 of
 * the test's canonical text: equal for equal tests, not herd7's own. */
#include "util/error.h"
#include "util/gcmem.h"
#include "util/md5.h"
#include "sim/result.h"
#include "sim/sem.h"
#include "util/strbuf.h"

#include <string.h>

static void put_state(sc_strbuf *sb, const sc_result *r, const sc_state *s) {
  const sc_test *t = r->test;
  for (int i = 0; i < r->nobserved; i++) {
    const sc_lval *lv = &r->observed[i];
    if (i)
      sc_sb_putc(sb, ' ');
    if (lv->kind == SC_LVAL_REG)
      sc_sb_printf(sb, "%d:%s=", lv->thread,
                   t->threads[lv->thread].regs[lv->reg].name);
    else
      sc_sb_printf(sb, "%s=", t->locs[lv->loc].name);
    sc_sb_printf(sb, "%s;", sc_value_string(t, s->values[i]));
  }
}

const char *sc_result_state(const sc_result *r, int i) {
  if (i < 0 || i >= r->nstates)
    return NULL;
  sc_strbuf sb;
  sc_sb_init(&sb);
  put_state(&sb, r, &r->states[i]);
  return sb.data;
}

int sc_result_validated(const sc_result *r) {
  switch (r->test->quant) {
  case SC_EXISTS: return r->positive > 0;
  case SC_NOT_EXISTS: return r->positive == 0;
  case SC_FORALL: return r->negative == 0;
  }
  return 0;
}

const char *sc_result_observation(const sc_result *r) {
  if (r->positive == 0)
    return "Never";
  return r->negative == 0 ? "Always" : "Sometimes";
}

long sc_result_positive(const sc_result *r) { return r->positive; }
long sc_result_negative(const sc_result *r) { return r->negative; }
long sc_result_candidates(const sc_result *r) { return r->candidates; }
double sc_result_seconds(const sc_result *r) { return r->seconds; }
int sc_result_state_count(const sc_result *r) { return r->nstates; }
int sc_result_shown(const sc_result *r) { return r->nshown; }
const char *sc_result_dot(const sc_result *r) {
  if (!r->nshown)
    return NULL;
  sc_strbuf sb;
  sc_sb_init(&sb);
  for (int i = 0; i < r->nshown; i++)
    sc_sb_puts(&sb, r->dots[i]);
  return sb.data;
}

const char *sc_result_dot_graph(const sc_result *r, int i) {
  return i >= 0 && i < r->nshown ? r->dots[i] : NULL;
}

static const char *quantifier(sc_quantifier q) {
  return q == SC_EXISTS ? "exists" : q == SC_FORALL ? "forall" : "~exists";
}


const char *sc_result_log(const sc_result *r, unsigned flags) {
  const sc_test *t = r->test;
  sc_strbuf sb;
  sc_sb_init(&sb);
  sc_sb_printf(&sb, "Test %s %s\n", t->name,
               t->quant == SC_FORALL ? "Required" : "Allowed");
  sc_sb_printf(&sb, "States %d\n", r->nstates);
  for (int i = 0; i < r->nstates; i++) {
    put_state(&sb, r, &r->states[i]);
    sc_sb_putc(&sb, '\n');
  }
  sc_sb_printf(&sb, "%s\nWitnesses\nPositive: %ld Negative: %ld\n",
               sc_result_validated(r) ? "Ok" : "No", r->positive, r->negative);
  for (int i = 0; i < r->nflags; i++)
    sc_sb_printf(&sb, "Flag %s\n", r->flags[i]);
  sc_sb_printf(&sb, "Condition %s (", quantifier(t->quant));
  sc_print_prop(&sb, t, t->cond);
  sc_sb_puts(&sb, ")\n");
  sc_sb_printf(&sb, "Observation %s %s %ld %ld\n", t->name,
               sc_result_observation(r), r->positive, r->negative);
  if (!(flags & SC_LOG_NOTIME))
    sc_sb_printf(&sb, "Time %s %.2f\n", t->name, r->seconds);
  if (!(flags & SC_LOG_NOHASH))
    sc_sb_printf(&sb, "Hash=%s\n", sc_test_hash(t));
  sc_sb_putc(&sb, '\n');
  return sb.data;
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
  case SC_LVAL_ADDR: return sc_loc_address(lv->loc);
  default: return c->s->values[observed_index(c->r, lv)];
  }
}

sc_status sc_result_allows(const sc_result *r, const char *proposition,
                           int *allowed, sc_error **err) {
  sc_prop *p;
  *allowed = 0;
  sc_status st = sc_test_parse_prop(r->test, proposition, &p, err);
  if (st)
    return st;
  state_ctx c = {r, NULL, NULL};
  sc_prop_each_lval(p, note_unobserved, &c);
  if (c.unobserved) {
    const sc_lval *lv = c.unobserved;
    return sc_fail(err, SC_ERR_USAGE, "<proposition>", 0, 0,
                   "expected a register or location the result observes (those "
                   "of the condition and `locations'), found %s",
                   lv->kind == SC_LVAL_LOC
                       ? r->test->locs[lv->loc].name
                       : sc_printf("%d:%s", lv->thread,
                                   r->test->threads[lv->thread].regs[lv->reg].name));
  }
  for (int i = 0; i < r->nstates && !*allowed; i++) {
    c.s = &r->states[i];
    *allowed = sc_prop_holds(p, state_value, &c);
  }
  return SC_OK;
}
