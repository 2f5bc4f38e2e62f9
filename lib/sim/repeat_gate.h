/* repeat_gate.h: whether a model lets the trace search cut the runs whose
 * loop iteration repeats a state (sem.h's repeat_cut): those whose checks
 * get no stronger with fewer events (cat/removal.c), over the names a
 * candidate execution binds. */
#ifndef SC_SIM_REPEAT_GATE_H
#define SC_SIM_REPEAT_GATE_H

#include "cat/cat.h"
#include "litmus/litmus.h"

#include <stdbool.h>

/* Whether model m (run with eval's variants and skipped checks) allows
 * every execution of test t made from one it allows by taking out some
 * reads and fences, the rest keeping their pairs (ctrl and the membar
 * relations may lose some): then sem.c's cut loses no final state. */
bool sci_sim_repeat_cut_safe(const sc_test *t, const sc_cat_model *m,
                         const sc_cat_run_options *eval);

#endif
