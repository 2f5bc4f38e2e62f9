/* exec.h: candidate executions.  An execution is one trace per thread plus
 * the initial writes (its events, numbered 0..n-1, initial writes first),
 * and a choice of rf and co.  This layer turns them into the named sets and
 * relations a cat model sees (the table in README's "Names a model sees"),
 * and reads off the final state.  It knows traces and relations, not cat
 * syntax nor how candidates are enumerated. */
#ifndef SC_EXEC_H
#define SC_EXEC_H

#include "cat.h"
#include "rel.h"
#include "sem.h"

typedef struct sc_event {
  sc_event_kind kind;
  int thread;            /* -1 for an initial write */
  int pc;                /* instruction index, -1 for an initial write */
  const sc_instr *instr; /* NULL for an initial write */
  int loc, vloc;         /* -1 for fences and barriers */
  int64_t value;
} sc_event;

typedef struct sc_execution {
  const sc_test *test;
  const sc_trace **traces; /* one per thread */
  int nevents, ninit;
  sc_event *events;
  int *thread_first;       /* index of each thread's first event */
  /* relations fixed by the traces */
  sc_rel *po, *addr, *data, *ctrl, *rmw;
  /* relations chosen per candidate */
  sc_rel *rf, *co;
} sc_execution;

/* The events of the traces chosen for each thread; rf and co empty. */
sc_execution *sc_exec_new(const sc_test *t, const sc_trace **traces);

/* Bind every name that does not depend on rf or co into `env`. */
void sc_exec_bind_static(const sc_execution *x, sc_cat_env *env);
/* Bind rf, co and what derives from them (fr, the e/i variants, FW). */
void sc_exec_bind_dynamic(const sc_execution *x, sc_cat_env *env);

/* Final value of location `loc` (alias resolved): the co-last write. */
int64_t sc_exec_final_value(const sc_execution *x, int loc);
/* The value of a condition term in the final state. */
int64_t sc_exec_lval(const sc_execution *x, const sc_lval *lv);
/* Whether proposition `p` holds in the final state. */
bool sc_exec_holds(const sc_execution *x, const sc_prop *p);

#endif
