/* liveness.c: what makes an execution a liveness witness (-liveness), as
 * Dat3M's non-termination encoding defines it for side-effect-free loops
 * and barriers.  A witness is a candidate execution that
 *   - the model allows (as a finite execution: the stuck threads' events
 *     are those up to where they stick);
 *   - has every thread finished or stuck (runs cut by -unroll are none),
 *     or halted where the progress model (progress.c, -progress) lets it
 *     be: never started, or stopped for ever;
 *   - has at least one thread stuck: spinning (its run ends by jumping back
 *     to a loop head, the iteration just closed wrote nothing, met no
 *     barrier, and left every register it reads before writing as it was
 *     at the head: repeating it changes nothing) or waiting at a bar.sync whose quorum never arrives
 *     (barrier.c: a stuck barrier is one its group never releases);
 *   - is fair: each read of a repeated iteration reads a write with no co
 *     successor, so that it may read it for ever (a co-later write would
 *     have to become visible).
 * The runs come from sem.c, the barrier schedules from barrier.c; the
 * engines (engine_enum.c, engine_smt.c with symbolic.c) test or encode the
 * fairness here.  Loops whose iterations write (an atom.exch lock) are
 * outside this definition: a thread that turns in one for ever is not
 * found; sci_live_writing_loop finds such loops so that a Pass can say so. */
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

int sci_live_spin_reads(const sc_execution *x, int *out) {
  int n = 0;
  for (int th = 0; th < x->test->nthreads; th++) {
    const sc_trace *tr = x->traces[th];
    if (tr->stuck != SC_STUCK_SPIN)
      continue;
    for (int i = tr->spin_from; i < tr->nevents; i++)
      if (tr->events[i].kind == SC_EV_READ)
        out[n++] = x->thread_first[th] + i;
  }
  return n;
}

/* Whether location loc has a write besides the initial one. */
static bool written(const sc_execution *x, int loc) {
  for (int e = x->ninit; e < x->nevents; e++)
    if (x->events[e].kind == SC_EV_WRITE && x->events[e].loc == loc)
      return true;
  return false;
}

bool sci_live_fair_candidates(const sc_execution *x, int nreads, const int *reads,
                             int *const *cands, int *ncands) {
  int *spin = sci_alloc_atomic(sizeof(int) * (size_t)(x->nevents + 1));
  int nspin = sci_live_spin_reads(x, spin);
  for (int k = 0; k < nreads; k++) {
    bool repeated = false;
    for (int i = 0; i < nspin && !repeated; i++)
      repeated = spin[i] == reads[k];
    if (!repeated || !written(x, x->events[reads[k]].loc))
      continue;
    int kept = 0; /* the initial write is co-before every other write */
    for (int j = 0; j < ncands[k]; j++)
      if (x->events[cands[k][j]].thread >= 0)
        cands[k][kept++] = cands[k][j];
    ncands[k] = kept;
    if (kept == 0)
      return false;
  }
  return true;
}

/* The write that read `r` reads from, -1 when rf gives it none. */
static int source_of(const sc_execution *x, int r) {
  for (int w = 0; w < x->nevents; w++)
    if (sc_rel_has(x->rf, w, r))
      return w;
  return -1;
}

static bool co_maximal(const sc_execution *x, int w) {
  for (int v = 0; v < x->nevents; v++)
    if (sc_rel_has(x->co, w, v))
      return false;
  return true;
}

bool sci_live_fair(const sc_execution *x) {
  int *reads = sci_alloc_atomic(sizeof(int) * (size_t)(x->nevents + 1));
  int n = sci_live_spin_reads(x, reads);
  for (int k = 0; k < n; k++) {
    int w = source_of(x, reads[k]);
    if (w < 0 || !co_maximal(x, w))
      return false;
  }
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

bool sci_live_writing_loop(const sc_test *t, int *thread, const sc_instr **branch) {
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
