/* json.c: a result as one JSON object on one line, for programs that
 * read scopecat's answers (the herd7 block is for herdtools' scripts).
 * Values are numbers, or a location's name (a string) for its address. */
#include "sim/execution.h"
#include "util/gcmem.h"
#include "report/report.h"
#include "sim/result.h"
#include "sim/sem.h"
#include "util/strbuf.h"

#include <stdio.h>
#include <string.h>

static void put_json_string(sc_strbuf *sb, const char *s) {
  sc_sb_putc(sb, '"');
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      sc_sb_printf(sb, "\\%c", c);
    else if (c < 0x20)
      sc_sb_printf(sb, "\\u%04x", c);
    else
      sc_sb_putc(sb, (char)c);
  }
  sc_sb_putc(sb, '"');
}

static void put_json_value(sc_strbuf *sb, const sc_test *t, int64_t v) {
  if (sc_address_loc(t, v) >= 0)
    put_json_string(sb, sc_value_string(t, v));
  else
    sc_sb_puts(sb, sc_value_string(t, v));
}

static const char *lval_name(const sc_test *t, const sc_lval *lv) {
  if (lv->kind == SC_LVAL_REG)
    return sc_printf("%d:%s", lv->thread, t->threads[lv->thread].regs[lv->reg].name);
  return t->locs[lv->loc].name;
}

static void put_states(sc_strbuf *sb, const sc_result *r) {
  sc_sb_puts(sb, "\"states\":[");
  for (int i = 0; i < r->nstates; i++) {
    const sc_state *s = &r->states[i];
    sc_sb_puts(sb, i ? ",{\"values\":{" : "{\"values\":{");
    for (int k = 0; k < r->nobserved; k++) {
      if (k)
        sc_sb_putc(sb, ',');
      put_json_string(sb, lval_name(r->test, &r->observed[k]));
      sc_sb_putc(sb, ':');
      put_json_value(sb, r->test, s->values[k]);
    }
    sc_sb_printf(sb, "},\"count\":%ld,\"holds\":%s}", s->count,
                 s->holds ? "true" : "false");
  }
  sc_sb_puts(sb, "]");
}

static void put_pairs(sc_strbuf *sb, const char *name, const sc_rel *rel) {
  sc_sb_printf(sb, ",\"%s\":[", name);
  const char *sep = "";
  for (int a = 0; a < rel->n; a++)
    for (int b = 0; b < rel->n; b++)
      if (sc_rel_has(rel, a, b)) {
        sc_sb_printf(sb, "%s[%d,%d]", sep, a, b);
        sep = ",";
      }
  sc_sb_putc(sb, ']');
}

/* The executions -show kept: events by number (initial writes first), and
 * rf and co as pairs of event numbers. */
static void put_executions(sc_strbuf *sb, const sc_result *r) {
  sc_sb_puts(sb, ",\"executions\":[");
  for (int i = 0; i < r->nshown; i++) {
    const sc_execution *x = r->execs[i];
    sc_sb_puts(sb, i ? ",{\"events\":[" : "{\"events\":[");
    for (int e = 0; e < x->nevents; e++) {
      if (e)
        sc_sb_putc(sb, ',');
      put_json_string(sb, sc_exec_event_label(x, e));
    }
    sc_sb_putc(sb, ']');
    put_pairs(sb, "rf", x->rf);
    put_pairs(sb, "co", x->co);
    sc_sb_putc(sb, '}');
  }
  sc_sb_putc(sb, ']');
}

/* How each stuck thread of a liveness witness ends. */
static void put_stuck(sc_strbuf *sb, const sc_result *r) {
  sc_sb_puts(sb, ",\"stuck\":[");
  const char *sep = "";
  for (int th = 0; r->stuck && th < r->test->nthreads; th++) {
    if (r->stuck[th] == SC_STUCK_NONE)
      continue;
    sc_sb_printf(sb, "%s{\"thread\":", sep);
    put_json_string(sb, r->test->threads[th].name);
    sc_sb_printf(sb, ",\"how\":\"%s\"}",
                 r->stuck[th] == SC_STUCK_SPIN ? "spin" : "barrier");
    sep = ",";
  }
  sc_sb_putc(sb, ']');
}

/* The runs the unroll bound cut, and by which threads (none: 0, []). */
static void put_cut(sc_strbuf *sb, const sc_result *r) {
  sc_sb_printf(sb, ",\"unroll_cut\":{\"runs\":%ld,\"threads\":[", sc_sim_cut_runs(r));
  const char *sep = "";
  for (int th = 0; r->cut_runs && th < r->test->nthreads; th++)
    if (r->cut_runs[th] > 0) {
      sc_sb_puts(sb, sep);
      put_json_string(sb, r->test->threads[th].name);
      sep = ",";
    }
  sc_sb_puts(sb, "]}");
}

static void put_engine(sc_strbuf *sb, const sc_result *r, unsigned flags) {
  if (!(flags & SC_LOG_NOTIME))
    sc_sb_printf(sb, ",\"time\":%.3f", r->seconds);
  if (!(flags & SC_LOG_NOHASH))
    sc_sb_printf(sb, ",\"hash\":\"%s\"", sc_test_hash(r->test));
  sc_sb_puts(sb, ",\"engine\":");
  put_json_string(sb, r->engine ? r->engine : "enum");
  sc_sb_puts(sb, ",\"engine_reason\":");
  put_json_string(sb, r->engine_reason ? r->engine_reason : "");
  sc_sb_printf(sb, ",\"co\":\"%s\",\"co_reason\":", r->partial_co ? "partial" : "total");
  put_json_string(sb, r->co_reason ? r->co_reason : "");
  put_cut(sb, r);
  sc_sb_puts(sb, "}\n");
}

/* A liveness result: the verdict, the stuck threads and the witness (when
 * shown) instead of the states. */
static const char *json_liveness(const sc_result *r, unsigned flags) {
  sc_strbuf sb;
  sc_sb_init(&sb);
  sc_sb_puts(&sb, "{\"test\":");
  put_json_string(&sb, r->test->name);
  sc_sb_puts(&sb, ",\"file\":");
  put_json_string(&sb, r->test->file);
  sc_sb_printf(&sb, ",\"liveness\":\"%s\"",
               r->liveness == SC_LIVE_PASS ? "Pass" : "Fail");
  put_stuck(&sb, r);
  /* a loop whose iterations write: not checked (liveness.c) */
  sc_sb_puts(&sb, ",\"unchecked_loop\":");
  if (r->unchecked_branch) {
    sc_sb_puts(&sb, "{\"thread\":");
    put_json_string(&sb, r->test->threads[r->unchecked_thread].name);
    sc_sb_printf(&sb, ",\"line\":%d}", r->unchecked_branch->line);
  } else {
    sc_sb_puts(&sb, "null");
  }
  sc_sb_printf(&sb, ",\"candidates\":%ld", r->candidates);
  if (r->nshown)
    put_executions(&sb, r);
  put_engine(&sb, r, flags);
  return sb.data;
}

const char *sc_json_result(const sc_result *r, unsigned flags) {
  if (r->liveness != SC_LIVE_NONE)
    return json_liveness(r, flags);
  const sc_test *t = r->test;
  sc_strbuf sb, cond;
  sc_sb_init(&sb);
  sc_sb_init(&cond);
  sc_print_prop(&cond, t, t->cond);
  sc_sb_puts(&sb, "{\"test\":");
  put_json_string(&sb, t->name);
  sc_sb_puts(&sb, ",\"file\":");
  put_json_string(&sb, t->file);
  sc_sb_printf(&sb, ",\"kind\":\"%s\",\"quantifier\":\"%s\",\"condition\":",
               sc_sim_kind(r),
               t->quant == SC_EXISTS ? "exists"
               : t->quant == SC_FORALL ? "forall" : "~exists");
  put_json_string(&sb, cond.data);
  sc_sb_putc(&sb, ',');
  put_states(&sb, r);
  sc_sb_printf(&sb, ",\"validated\":%s,\"positive\":%ld,\"negative\":%ld,"
               "\"observation\":\"%s\",\"flags\":[",
               sc_sim_validated(r) ? "true" : "false", r->positive,
               r->negative, sc_sim_observation(r));
  for (int i = 0; i < r->nflags; i++) {
    if (i)
      sc_sb_putc(&sb, ',');
    put_json_string(&sb, r->flags[i]);
  }
  sc_sb_printf(&sb, "],\"candidates\":%ld", r->candidates);
  if (r->nshown)
    put_executions(&sb, r);
  put_engine(&sb, r, flags);
  return sb.data;
}
