/* herd_log.c: results in herd7's log format (the block herd7 prints per
 * test), which herdtools' scripts (mcompare7...) read.  The Hash is the
 * MD5 of the test's canonical text: equal for equal tests, not herd7's own.
 * scopecat's own lines after it (Unroll) are of the "Word NAME ..." shape
 * that herd's log reader skips. */
#include "util/error.h"
#include "util/gcmem.h"
#include "report/report.h"
#include "sim/result.h"
#include "sim/sem.h"
#include "util/strbuf.h"

#include <string.h>

void sci_herd_state(sc_strbuf *sb, const sc_result *r, const sc_state *s) {
  const sc_test *t = r->test;
  for (int i = 0; i < r->nobserved; i++) {
    const sc_lval *lv = &r->observed[i];
    if (i)
      sci_sb_putc(sb, ' ');
    if (lv->kind == SC_LVAL_REG)
      sci_sb_printf(sb, "%d:%s=", lv->thread,
                   t->threads[lv->thread].regs[lv->reg].name);
    else
      sci_sb_printf(sb, "%s=", t->locs[lv->loc].name);
    sci_sb_printf(sb, "%s;", sci_value_string(t, s->values[i]));
  }
}





/* The threads whose runs the unroll bound cut: "thread P1", "threads P0
 * P1". */
static const char *cut_threads(const sc_result *r) {
  sc_strbuf sb;
  sci_sb_init(&sb);
  int n = 0;
  for (int th = 0; r->cut_runs && th < r->test->nthreads; th++)
    if (r->cut_runs[th] > 0)
      sci_sb_printf(&sb, "%s%s", n++ ? " " : "", r->test->threads[th].name);
  return n > 1 ? sci_printf("threads %s", sb.data) : sci_printf("thread %s", sb.data);
}

/* After the block, when the unroll bound cut runs: a line that herd's
 * tools skip ("Unroll NAME ..."), as herd7's "Loop" before Ok/No says
 * that some execution went too far, so that States 0 is not read as
 * "no execution at all". */
static void put_unroll(sc_strbuf *sb, const sc_result *r) {
  sci_sb_puts(sb, sci_unroll_note(r, r->nstates == 0
                                         ? "no execution within the bound (States 0), not none at all"
                                         : "their executions are not among these states"));
}

const char *sci_unroll_note(const sc_result *r, const char *meaning) {
  long cut = sci_sim_cut_runs(r);
  if (cut == 0)
    return "";
  return sci_printf("Unroll %s the -unroll bound cut %ld run%s of %s: %s\n", r->test->name,
                    cut, cut == 1 ? "" : "s", cut_threads(r), meaning);
}

/* Where a -liveness answer was reached when the bound was deepened
 * (simulate.c: a Pass cut by the bound is searched again at bound+1, ...):
 * "" when it was not. */
static const char *deepened(const sc_result *r) {
  if (r->unroll == r->unroll_from)
    return "";
  return sci_printf("at -unroll %d (the bound %d cut runs: searched again up to "
                    "-liveness-unroll-max %d%s)", r->unroll, r->unroll_from,
                    r->unroll_max, r->unroll < r->unroll_max && r->liveness == SC_LIVE_PASS &&
                                         sci_sim_cut_runs(r) > 0
                                     ? ", no answer deeper within the limits" : "");
}

const char *sci_live_unroll_note(const sc_result *r) {
  const char *where = deepened(r);
  const char *verdict = r->liveness == SC_LIVE_PASS ? "Pass" : "Fail";
  if (r->liveness == SC_LIVE_PASS && sci_sim_cut_runs(r) > 0)
    return sci_unroll_note(r, sci_printf("Pass holds up to the bound (a thread stuck only "
                                         "past it is not found)%s%s", *where ? "; " : "",
                                         where));
  /* a Fail's witness is whole; a Pass no run of which the bound cut too */
  return *where ? sci_printf("Unroll %s %s %s\n", r->test->name, verdict, where) : "";
}


const char *sci_herd_log(const sc_result *r, unsigned flags) {
  const sc_test *t = r->test;
  sc_strbuf sb;
  sci_sb_init(&sb);
  sci_sb_printf(&sb, "Test %s %s\n", t->name, sci_sim_kind(r));
  sci_sb_printf(&sb, "States %d\n", r->nstates);
  for (int i = 0; i < r->nstates; i++) {
    sci_herd_state(&sb, r, &r->states[i]);
    sci_sb_putc(&sb, '\n');
  }
  long positive, negative;
  sci_sim_witnesses(r, &positive, &negative);
  sci_sb_printf(&sb, "%s\nWitnesses\nPositive: %ld Negative: %ld\n",
               sci_sim_validated(r) ? "Ok" : "No", positive, negative);
  for (int i = 0; i < r->nflags; i++)
    sci_sb_printf(&sb, "Flag %s\n", r->flags[i]);
  sci_sb_printf(&sb, "Condition %s (", sci_quantifier_name(t->quant));
  sci_print_prop(&sb, t, t->cond);
  sci_sb_puts(&sb, ")\n");
  sci_sb_printf(&sb, "Observation %s %s %ld %ld\n", t->name,
               sci_sim_observation(r), r->positive, r->negative);
  if (!(flags & SC_LOG_NOTIME))
    sci_sb_printf(&sb, "Time %s %.2f\n", t->name, r->seconds);
  if (!(flags & SC_LOG_NOHASH))
    sci_sb_printf(&sb, "Hash=%s\n", sci_test_hash(t));
  put_unroll(&sb, r);
  sci_sb_putc(&sb, '\n');
  return sb.data;
}
