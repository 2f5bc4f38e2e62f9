/* liveness.c: what makes an execution a liveness witness (-liveness), as
 * Dat3M's non-termination encoding (NonTerminationEncoder, its prefix,
 * infix and suffix) defines it for loops and barriers.  A witness is a
 * candidate execution that
 *   - the model allows (as a finite execution: the stuck threads' events
 *     are those up to where they stick);
 *   - has every thread finished or stuck (runs cut by -unroll are none),
 *     or halted where the progress model (progress.c, -progress) lets it
 *     be: never started, or stopped for ever;
 *   - has at least one thread stuck: spinning (sem.c: its run ends by
 *     jumping back to a loop head, and the iteration just closed, the
 *     suffix, may be repeated for ever: it wrote nothing, met no barrier
 *     and left every register it reads as it was at the head; or it wrote
 *     and repeats the iteration before it, the infix, event for event and
 *     value for value, ending in the same registers: a recurrence) or
 *     waiting at a bar.sync whose quorum never arrives (barrier.c: a stuck
 *     barrier is one its group never releases);
 *   - is fair, so that repeating every suffix for ever gives an infinite
 *     execution in which each write becomes visible at last (co and fr
 *     are prefix-finite).  The prefix is every other event (the initial
 *     writes, finished threads, a spinning thread's iterations before its
 *     infix):
 *       (a) a suffix read reads a write of an infix or a suffix (the
 *           loop's own repeated writes: an atom.exch reads the write of
 *           its previous turn, which is co-immediately before its own),
 *           or a prefix write with no co successor at a location that no
 *           infix or suffix writes (a spin reads it for ever);
 *       (b) no prefix write is co-after a suffix write (the prefix's
 *           writes are all made before the repetition starts), so that
 *           the loop's own writes are the only co successors a repeated
 *           read's write may have: "no co successor outside the loop's own
 *           repeated writes";
 *       (c) only suffix reads read suffix writes (a later copy of the
 *           suffix is never seen by the prefix, which happened before);
 *       (d) rf and co between infix events are rf and co between their
 *           twins of the last iteration, and back (the recurrence repeats
 *           the relations, not only the events).
 *     For a loop that writes nothing, (a) is the old rule (each repeated
 *     read reads a co-maximal write) and (b)-(d) are empty.
 * The runs come from sem.c, the barrier schedules from barrier.c; the
 * rules above become clauses over rf and co pairs (sci_live_fairness) that
 * the engines check (engine_enum.c, through sci_live_fair) or encode
 * (symbolic.c).  Dat3M's rules are the same; as there, a recurrence may
 * be judged repeatable when the model would forbid some later copy of it
 * (the copies are not run through the model). */
#include "sim/liveness.h"

#include "sim/progress.h"

#include "util/gcmem.h"

#include <string.h>

bool sci_live_any_stuck(const sc_trace *const *chosen, int nthreads) {
  for (int th = 0; th < nthreads; th++)
    if (chosen[th]->stuck == SC_STUCK_SPIN || chosen[th]->stuck == SC_STUCK_BARRIER)
      return true;
  return false;
}

bool sci_live_may_witness(const sc_test *t, const sc_progress *p,
                          const sc_trace *const *chosen) {
  return sci_live_any_stuck(chosen, t->nthreads) &&
         sci_progress_allows(t, p, chosen);
}

/* Whether location loc has a write besides the initial one. */
static bool written(const sc_execution *x, int loc) {
  for (int e = x->ninit; e < x->nevents; e++)
    if (x->events[e].kind == SC_EV_WRITE && x->events[e].loc == loc)
      return true;
  return false;
}

/* Whether the fairness clauses forbid rf(w, r) outright. */
static bool rf_forbidden(const sc_live_clause *cl, int ncl, int w, int r) {
  for (int k = 0; k < ncl; k++)
    if (cl[k].rule == SC_LIVE_NO && !cl[k].co && cl[k].a == w && cl[k].b == r)
      return true;
  return false;
}

/* Whether w can never be co-maximal: an initial write, when its location
 * has another (the initial write is co-before every other write). */
static bool never_last(const sc_execution *x, int w) {
  return x->events[w].thread < 0 && written(x, x->events[w].loc);
}

bool sci_live_fair_candidates(const sc_execution *x, int nreads, const int *reads,
                             int *const *cands, int *ncands) {
  sc_live_clause *cl;
  int ncl = sci_live_fairness(x, &cl);
  for (int k = 0; k < nreads; k++) {
    int kept = 0;
    for (int j = 0; j < ncands[k]; j++) {
      int w = cands[k][j];
      bool last_needed = false; /* SC_LIVE_LAST on (w, r) */
      for (int c = 0; c < ncl && !last_needed; c++)
        last_needed = cl[c].rule == SC_LIVE_LAST && cl[c].a == w && cl[c].b == reads[k];
      if (!rf_forbidden(cl, ncl, w, reads[k]) && !(last_needed && never_last(x, w)))
        cands[k][kept++] = w;
    }
    ncands[k] = kept;
    if (kept == 0)
      return false;
  }
  return true;
}

/* Where each event of x lies: prefix (0), infix (1), suffix (2); and each
 * infix event's twin in its thread's last iteration, in twin[]. */
enum { PREFIX, INFIX, SUFFIX };

static char *parts_of(const sc_execution *x, int *twin) {
  char *part = sci_alloc_atomic((size_t)x->nevents + 1);
  memset(part, PREFIX, (size_t)x->nevents + 1);
  for (int th = 0; th < x->test->nthreads; th++) {
    const sc_trace *tr = x->traces[th];
    if (tr->stuck != SC_STUCK_SPIN)
      continue;
    int first = x->thread_first[th], len = tr->spin_from - tr->infix_from;
    for (int i = tr->infix_from; i < tr->spin_from; i++) {
      part[first + i] = INFIX;
      twin[first + i] = first + tr->nevents - len + (i - tr->infix_from);
    }
    for (int i = tr->spin_from; i < tr->nevents; i++)
      part[first + i] = SUFFIX;
  }
  return part;
}

static bool is_kind(const sc_execution *x, int e, sc_event_kind kind) {
  return x->events[e].kind == kind;
}

/* Whether an infix or suffix write is at loc. */
static bool repeated_write_at(const sc_execution *x, const char *part, int loc) {
  for (int e = x->ninit; e < x->nevents; e++)
    if (part[e] != PREFIX && is_kind(x, e, SC_EV_WRITE) && x->events[e].loc == loc)
      return true;
  return false;
}

static void add_clause(sc_live_clause **cl, int *n, int *cap, sc_live_clause c) {
  sci_grow(cl, cap, *n + 1, sizeof(sc_live_clause));
  (*cl)[(*n)++] = c;
}

/* Rules (a), (c) and (d) for rf(w, r). */
static void rf_clauses(const sc_execution *x, const char *part, const int *twin, int w,
                       int r, sc_live_clause **cl, int *n, int *cap) {
  if (part[r] == SUFFIX && part[w] == PREFIX)
    add_clause(cl, n, cap,
               (sc_live_clause){repeated_write_at(x, part, x->events[r].loc) ? SC_LIVE_NO
                                                                           : SC_LIVE_LAST,
                                false, w, r, -1, -1});
  if (part[r] != SUFFIX && part[w] == SUFFIX)
    add_clause(cl, n, cap, (sc_live_clause){SC_LIVE_NO, false, w, r, -1, -1});
  if (part[r] == INFIX && part[w] == INFIX)
    add_clause(cl, n, cap, (sc_live_clause){SC_LIVE_SAME, false, w, r, twin[w], twin[r]});
}

/* Rules (b) and (d) for co(s, w). */
static void co_clauses(const char *part, const int *twin, int s, int w,
                       sc_live_clause **cl, int *n, int *cap) {
  if (part[s] == SUFFIX && part[w] == PREFIX)
    add_clause(cl, n, cap, (sc_live_clause){SC_LIVE_NO, true, s, w, -1, -1});
  if (part[s] == INFIX && part[w] == INFIX)
    add_clause(cl, n, cap, (sc_live_clause){SC_LIVE_SAME, true, s, w, twin[s], twin[w]});
}

int sci_live_fairness(const sc_execution *x, sc_live_clause **out) {
  int *twin = sci_alloc_atomic(sizeof(int) * (size_t)(x->nevents + 1));
  char *part = parts_of(x, twin);
  sc_live_clause *cl = NULL;
  int n = 0, cap = 0;
  for (int a = 0; a < x->nevents; a++)
    for (int b = 0; b < x->nevents; b++) {
      if (a == b || !is_kind(x, a, SC_EV_WRITE) || x->events[a].loc != x->events[b].loc)
        continue;
      if (is_kind(x, b, SC_EV_READ))
        rf_clauses(x, part, twin, a, b, &cl, &n, &cap);
      else if (is_kind(x, b, SC_EV_WRITE))
        co_clauses(part, twin, a, b, &cl, &n, &cap);
    }
  *out = cl;
  return n;
}

static bool co_maximal(const sc_execution *x, int w) {
  for (int v = 0; v < x->nevents; v++)
    if (sc_rel_has(x->co, w, v))
      return false;
  return true;
}

static bool holds(const sc_execution *x, const sc_live_clause *c) {
  const sc_rel *rel = c->co ? x->co : x->rf;
  bool has = sc_rel_has(rel, c->a, c->b);
  switch (c->rule) {
  case SC_LIVE_NO: return !has;
  case SC_LIVE_LAST: return !has || co_maximal(x, c->a);
  case SC_LIVE_SAME: return has == sc_rel_has(rel, c->a2, c->b2);
  }
  return false;
}

bool sci_live_fair(const sc_execution *x) {
  sc_live_clause *cl;
  int n = sci_live_fairness(x, &cl);
  for (int k = 0; k < n; k++)
    if (!holds(x, &cl[k]))
      return false;
  return true;
}

void sci_live_witness(sc_result *r, const sc_execution *x, bool draw) {
  if (r->liveness == SC_LIVE_FAIL)
    return;
  r->liveness = SC_LIVE_FAIL;
  r->witness = sci_exec_snapshot(x);
  int n = x->test->nthreads;
  int *stuck = sci_alloc_atomic(sizeof(int) * (size_t)(n + 1));
  for (int th = 0; th < n; th++)
    stuck[th] = (int)x->traces[th]->stuck;
  r->stuck = stuck;
  if (!draw)
    return;
  sci_grow(&r->execs, &r->capexecs, 1, sizeof(sc_execution *));
  sci_grow(&r->cycles, &r->capcycles, 1, sizeof(sc_cycle *));
  r->execs[0] = r->witness;
  r->cycles[0] = NULL;
  r->nshown = 1;
}

/* Whether instruction `in` writes memory whenever it runs. */
static bool always_writes(const sc_instr *in) {
  return in->op == SC_OP_ST || in->op == SC_OP_RED ||
         (in->op == SC_OP_ATOM && in->atomop != SC_ATOM_CAS);
}

static bool is_branch(const sc_instr *in) {
  return in->op == SC_OP_BRA || in->op == SC_OP_BEQ || in->op == SC_OP_BNE;
}

bool sci_live_writing_loop(const sc_test *t, int unroll, int *thread,
                           const sc_instr **branch) {
  if (unroll != 0) /* below 0: the default bound, 2 */
    return false;   /* checked: the bound lets a second iteration run */
  for (int th = 0; th < t->nthreads; th++) {
    const sc_thread *tr = &t->threads[th];
    for (int pc = 0; pc < tr->ninstrs; pc++) {
      const sc_instr *in = &tr->code[pc];
      if (!is_branch(in) || in->target < 0 || tr->labels[in->target].pc > pc)
        continue;
      for (int i = tr->labels[in->target].pc; i <= pc; i++)
        if (always_writes(&tr->code[i])) {
          *thread = th;
          *branch = in;
          return true;
        }
    }
  }
  return false;
}

int sci_live_unroll_max(const sc_sim_options *o) {
  int from = sci_sem_unroll_of(o->unroll);
  int max = o->liveness_unroll_max > 0 ? o->liveness_unroll_max
            : o->unroll < 0            ? SC_LIVE_UNROLL_MAX
                                       : from;
  return max > from ? max : from;
}
