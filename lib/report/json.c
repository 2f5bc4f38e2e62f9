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
  sci_sb_putc(sb, '"');
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      sci_sb_printf(sb, "\\%c", c);
    else if (c < 0x20)
      sci_sb_printf(sb, "\\u%04x", c);
    else
      sci_sb_putc(sb, (char)c);
  }
  sci_sb_putc(sb, '"');
}

static void put_json_value(sc_strbuf *sb, const sc_test *t, int64_t v) {
  if (sci_address_loc(t, v) >= 0)
    put_json_string(sb, sci_value_string(t, v));
  else
    sci_sb_puts(sb, sci_value_string(t, v));
}

static const char *lval_name(const sc_test *t, const sc_lval *lv) {
  if (lv->kind == SC_LVAL_REG)
    return sci_printf("%d:%s", lv->thread, t->threads[lv->thread].regs[lv->reg].name);
  return t->locs[lv->loc].name;
}

static void put_states(sc_strbuf *sb, const sc_result *r) {
  sci_sb_puts(sb, "\"states\":[");
  for (int i = 0; i < r->nstates; i++) {
    const sc_state *s = &r->states[i];
    sci_sb_puts(sb, i ? ",{\"values\":{" : "{\"values\":{");
    for (int k = 0; k < r->nobserved; k++) {
      if (k)
        sci_sb_putc(sb, ',');
      put_json_string(sb, lval_name(r->test, &r->observed[k]));
      sci_sb_putc(sb, ':');
      put_json_value(sb, r->test, s->values[k]);
    }
    sci_sb_printf(sb, "},\"count\":%ld,\"holds\":%s}", s->count,
                 s->holds ? "true" : "false");
  }
  sci_sb_puts(sb, "]");
}

static void put_pairs(sc_strbuf *sb, const char *name, const sc_rel *rel) {
  sci_sb_printf(sb, ",\"%s\":[", name);
  const char *sep = "";
  for (int a = 0; a < rel->n; a++)
    for (int b = 0; b < rel->n; b++)
      if (sc_rel_has(rel, a, b)) {
        sci_sb_printf(sb, "%s[%d,%d]", sep, a, b);
        sep = ",";
      }
  sci_sb_putc(sb, ']');
}

/* The executions -show kept: events by number (initial writes first), and
 * rf and co as pairs of event numbers. */
static void put_executions(sc_strbuf *sb, const sc_result *r) {
  sci_sb_puts(sb, ",\"executions\":[");
  for (int i = 0; i < r->nshown; i++) {
    const sc_execution *x = r->execs[i];
    sci_sb_puts(sb, i ? ",{\"events\":[" : "{\"events\":[");
    for (int e = 0; e < x->nevents; e++) {
      if (e)
        sci_sb_putc(sb, ',');
      put_json_string(sb, sci_exec_event_label(x, e));
    }
    sci_sb_putc(sb, ']');
    put_pairs(sb, "rf", x->rf);
    put_pairs(sb, "co", x->co);
    sci_sb_putc(sb, '}');
  }
  sci_sb_putc(sb, ']');
}

/* How each stuck thread of a liveness witness ends. */
static void put_stuck(sc_strbuf *sb, const sc_result *r) {
  sci_sb_puts(sb, ",\"stuck\":[");
  const char *sep = "";
  for (int th = 0; r->stuck && th < r->test->nthreads; th++) {
    if (r->stuck[th] == SC_STUCK_NONE)
      continue;
    sci_sb_printf(sb, "%s{\"thread\":", sep);
    put_json_string(sb, r->test->threads[th].name);
    sci_sb_printf(sb, ",\"how\":\"%s\"}",
                 r->stuck[th] == SC_STUCK_SPIN      ? "spin"
                 : r->stuck[th] == SC_STUCK_HALTED ? "halted"
                                                   : "barrier");
    sep = ",";
  }
  sci_sb_putc(sb, ']');
}

/* The runs the unroll bound cut, and by which threads (none: 0, []). */
static void put_cut(sc_strbuf *sb, const sc_result *r) {
  sci_sb_printf(sb, ",\"unroll_cut\":{\"runs\":%ld,\"threads\":[", sci_sim_cut_runs(r));
  const char *sep = "";
  for (int th = 0; r->cut_runs && th < r->test->nthreads; th++)
    if (r->cut_runs[th] > 0) {
      sci_sb_puts(sb, sep);
      put_json_string(sb, r->test->threads[th].name);
      sep = ",";
    }
  sci_sb_puts(sb, "]}");
}

static void put_engine(sc_strbuf *sb, const sc_result *r, unsigned flags) {
  if (!(flags & SC_LOG_NOTIME))
    sci_sb_printf(sb, ",\"time\":%.3f", r->seconds);
  if (!(flags & SC_LOG_NOHASH))
    sci_sb_printf(sb, ",\"hash\":\"%s\"", sci_test_hash(r->test));
  sci_sb_puts(sb, ",\"engine\":");
  put_json_string(sb, r->engine ? r->engine : "enum");
  sci_sb_puts(sb, ",\"engine_reason\":");
  put_json_string(sb, r->engine_reason ? r->engine_reason : "");
  sci_sb_printf(sb, ",\"co\":\"%s\",\"co_reason\":", r->partial_co ? "partial" : "total");
  put_json_string(sb, r->co_reason ? r->co_reason : "");
  put_cut(sb, r);
  sci_sb_puts(sb, "}\n");
}

/* A liveness result: the verdict, the stuck threads and the witness (when
 * shown) instead of the states. */
static const char *json_liveness(const sc_result *r, unsigned flags) {
  sc_strbuf sb;
  sci_sb_init(&sb);
  sci_sb_puts(&sb, "{\"test\":");
  put_json_string(&sb, r->test->name);
  sci_sb_puts(&sb, ",\"file\":");
  put_json_string(&sb, r->test->file);
  sci_sb_printf(&sb, ",\"liveness\":\"%s\"",
               r->liveness == SC_LIVE_PASS ? "Pass" : "Fail");
  put_stuck(&sb, r);
  /* a search deepened past the bound it started from (simulate.c) */
  if (r->unroll != r->unroll_from)
    sci_sb_printf(&sb, ",\"liveness_unroll\":{\"from\":%d,\"reached\":%d,\"max\":%d}",
                  r->unroll_from, r->unroll, r->unroll_max);
  /* a loop whose iterations write: not checked (liveness.c) */
  sci_sb_puts(&sb, ",\"unchecked_loop\":");
  if (r->unchecked_branch) {
    sci_sb_puts(&sb, "{\"thread\":");
    put_json_string(&sb, r->test->threads[r->unchecked_thread].name);
    sci_sb_printf(&sb, ",\"line\":%d}", r->unchecked_branch->line);
  } else {
    sci_sb_puts(&sb, "null");
  }
  sci_sb_printf(&sb, ",\"candidates\":%ld", r->candidates);
  if (r->nshown)
    put_executions(&sb, r);
  put_engine(&sb, r, flags);
  return sb.data;
}

const char *sci_json_result(const sc_result *r, unsigned flags) {
  if (r->liveness != SC_LIVE_NONE)
    return json_liveness(r, flags);
  const sc_test *t = r->test;
  sc_strbuf sb, cond;
  sci_sb_init(&sb);
  sci_sb_init(&cond);
  sci_print_prop(&cond, t, t->cond);
  sci_sb_puts(&sb, "{\"test\":");
  put_json_string(&sb, t->name);
  sci_sb_puts(&sb, ",\"file\":");
  put_json_string(&sb, t->file);
  sci_sb_printf(&sb, ",\"kind\":\"%s\",\"quantifier\":\"%s\",\"condition\":",
               sci_sim_kind(r),
               sci_quantifier_name(t->quant));
  put_json_string(&sb, cond.data);
  sci_sb_putc(&sb, ',');
  put_states(&sb, r);
  sci_sb_printf(&sb, ",\"validated\":%s,\"positive\":%ld,\"negative\":%ld,"
               "\"observation\":\"%s\",\"flags\":[",
               sci_sim_validated(r) ? "true" : "false", r->positive,
               r->negative, sci_sim_observation(r));
  for (int i = 0; i < r->nflags; i++) {
    if (i)
      sci_sb_putc(&sb, ',');
    put_json_string(&sb, r->flags[i]);
  }
  sci_sb_printf(&sb, "],\"candidates\":%ld", r->candidates);
  if (r->stopped_early) /* -speedcheck: the states are those found */
    sci_sb_puts(&sb, ",\"stopped_early\":true");
  if (r->nshown)
    put_executions(&sb, r);
  put_engine(&sb, r, flags);
  return sb.data;
}
