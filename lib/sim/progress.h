/* progress.h: progress models (sc_progress, -progress) for liveness
 * searches: the halted runs a model needs, and whether a combination of
 * runs leaves halted only threads the model lets be halted. */
#ifndef SC_SIM_PROGRESS_H
#define SC_SIM_PROGRESS_H

#include "scopecat.h"
#include "sim/sem.h"

/* Where a progress model may leave a thread halted. */
typedef enum sci_halts {
  SCI_HALTS_NONE,      /* FAIR at every level: nowhere */
  SCI_HALTS_UNSTARTED, /* OBE, LOBE, HSA_OBE and FAIR only: before it starts */
  SCI_HALTS_ANYWHERE   /* some level HSA or UNFAIR: at any point */
} sci_halts;

sci_halts sci_progress_halts(const sc_progress *p);

/* Add to each thread's runs (and runs the unroll bound cut) the halted
 * runs (SC_STUCK_HALTED) that `p` may need: the empty one, and under
 * SCI_HALTS_ANYWHERE each distinct prefix that ends before a write or a
 * barrier (when `fewer_events_safe`: the model allows an execution with
 * fewer events when it allowed the one with more, so halting before a
 * read or fence instead of after it loses no witness) or before any event
 * (an atom's read and write are never split).  A prefix shares its run's
 * events. */
void sci_progress_add_halts(const sc_test *t, const sc_progress *p,
                            bool fewer_events_safe, sc_thread_traces *all);

/* Whether the runs chosen (one per thread) halt only threads that `p`
 * lets be halted: true without halted runs. */
bool sci_progress_allows(const sc_test *t, const sc_progress *p,
                         const sc_trace *const *chosen);

#endif
