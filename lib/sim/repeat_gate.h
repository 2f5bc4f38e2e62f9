/* repeat_gate.h: whether a model lets the trace search cut the runs whose
 * loop iteration repeats a state (sem.h's repeat_cut): those whose checks
 * get no stronger with fewer events (cat/removal.c), over the names a
 * candidate execution binds; and, for the PTX models followed by their
 * race flags, the narrower cut that keeps every race (repeat_twins). */
#ifndef SC_SIM_REPEAT_GATE_H
#define SC_SIM_REPEAT_GATE_H

#include "cat/cat.h"
#include "litmus/litmus.h"
#include "sim/sem.h"

#include <stdbool.h>

/* The names a candidate execution of t binds, and their kinds, as the
 * model analyses see them (an execution of no event), with the choices'
 * dependences in deps[SIM_NDYNAMIC] (sim/dynamic.h). */
sc_cat_env *sci_sim_signature_env(const sc_test *t, sc_cat_dynamic *deps);

/* Whether model m (run with eval's variants and skipped checks) allows
 * every execution of test t made from one it allows by taking out some
 * reads and fences, the rest keeping their pairs (ctrl and the membar
 * relations may lose some), and raises no flag: then sem.c's cut loses
 * no final state. */
bool sci_sim_repeat_cut_safe(const sc_test *t, const sc_cat_model *m,
                         const sc_cat_run_options *eval);

/* Whether model m is cat/ptx-v7.5.cat or cat/ptx-v6.0.cat followed by
 * cat/ptx-race.cat (those files byte for byte, nothing else: the proof in
 * repeat_gate.c is about their definitions), and its checks allow the
 * shorter executions as for sci_sim_repeat_cut_safe: then sem.c's cut
 * with repeat_twins loses no final state and no race flag. */
bool sci_sim_repeat_cut_keeps_races(const sc_test *t, const sc_cat_model *m,
                                const sc_cat_run_options *eval);

/* Under sci_sim_repeat_cut_keeps_races: the reads that no write can race
 * with, given `all`, the runs of the full repeated-state cut (every write
 * of every execution is one of theirs: repeat_gate.c).  A read of thread
 * th by instruction pc of location (as addressed) l is race-free,
 * marks[th][pc * t->nlocs + l], when its location is not .shared and
 * every write of another thread to it in those runs is morally strong
 * with it.  NULL when there is none.  For sc_sem_limits' race_free. */
bool **sci_sim_race_free_reads(const sc_test *t, const sc_thread_traces *all);
/* Whether every read `marks` calls race-free still is, given the runs
 * `all` (those of the cut that took the marks: a check of the claim that
 * the writes are the same). */
bool sci_sim_race_free_reads_hold(const sc_test *t, const sc_thread_traces *all,
                                  bool *const *marks);
/* Whether the twin cut with race-free reads `marks` (NULL: none) takes
 * exactly the iterations that the full cut took in `all`, runs found with
 * sem.h's note_twinless: none of them met a fence, and each read of them
 * with no twin is marked.  Then, from the same values, the twin cut's
 * search is the full cut's step by step (sem.c decides each iteration
 * the same), and so are its runs and its value fixpoint. */
bool sci_sim_twin_cut_same(const sc_test *t, const sc_thread_traces *all,
                           bool *const *marks);

#endif
