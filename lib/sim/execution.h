/* execution.h: candidate executions.  An execution is one trace per thread plus
 * the initial writes (its events, numbered 0..n-1, initial writes first),
 * and a choice of rf and co.  This layer turns them into the named sets and
 * relations a cat model sees (the table in README's "Names a model sees"),
 * and reads off the final state.  It knows traces and relations, not cat
 * syntax nor how candidates are enumerated. */
#ifndef SC_EXEC_H
#define SC_EXEC_H

#include "cat/cat.h"
#include "rel/rel.h"
#include "sim/sem.h"

typedef struct sc_event {
  sc_event_kind kind;
  int thread;            /* -1 for an initial write */
  int pc;                /* instruction index, -1 for an initial write */
  const sc_instr *instr; /* NULL for an initial write */
  int loc, vloc;         /* -1 for fences and barriers */
  int64_t value;
  bool value_unknown;    /* the trace's (sem.h): a collapsed cell's */
} sc_event;

typedef struct sc_execution {
  const sc_test *test;
  const sc_trace **traces; /* one per thread */
  int nevents, ninit;
  sc_event *events;
  int *thread_first;       /* index of each thread's first event */
  /* relations fixed by the traces */
  sc_rel *po, *addr, *data, *ctrl, *rmw;
  sc_rel *internal; /* int: events of one thread */
  /* relations chosen per candidate */
  sc_rel *rf, *co;
  sc_rel *syncbar;    /* barriers that synchronise (barrier.c) */
  sc_rel *sync_fence; /* the order of fence.sc events */
  int *final_write;   /* per location: the write whose value it ends with
                         when co leaves a choice; -1: the co-last write */
} sc_execution;

/* The events of the traces chosen for each thread; rf and co empty. */
sc_execution *sci_exec_new(const sc_test *t, const sc_trace **traces);
/* Whether two choices of one trace per thread of t have one layout: per
 * thread the same events (instructions, places, locations, dependencies,
 * atomic partners, barrier operands) but for the values read and written,
 * which none of the names sci_exec_bind_static binds depends on, and runs
 * that end alike (so their barriers synchronise alike: barrier.c). */
bool sci_exec_same_layout(const sc_test *t, const sc_trace **these,
                          const sc_trace **those);
/* The same of one thread's two traces. */
bool sci_exec_same_trace_layout(const sc_trace *a, const sc_trace *b);
/* sci_exec_new(like->test, traces) for traces of the layout of those like
 * was made of (sci_exec_same_layout): the events' values are the traces', the
 * relations fixed by the traces are like's own (shared: they never
 * change), rf and co are empty. */
sc_execution *sci_exec_new_like(const sc_execution *like, const sc_trace **traces);

/* Bind every name that does not depend on rf or co into `env`. */
void sci_exec_bind_static(const sc_execution *x, sc_cat_env *env);
/* Bind the names chosen per candidate: dynamic.h's table (rf, co, what
 * derives from them, syncbar, sync_fence). */
void sci_exec_bind_dynamic(const sc_execution *x, sc_cat_env *env);

/* ---- Dat3M's PTX names (ptx_names.c) ---- */

/* Bind the tags and relations of Dat3M's PTX models (RLX ... SC, CTA GPU
 * SYS, GEN SUR TEX CON ALIAS, sr, scta, vloc); sci_exec_bind_static does. */
void sci_exec_bind_ptx(const sc_execution *x, sc_cat_env *env);
/* Events a and b are in sr: both carry a scope, and each one's scope
 * instance holds the other's thread. */
bool sci_exec_same_scope(const sc_execution *x, int a, int b);
/* Accesses a and b, of different threads, are morally strong under both
 * ptx-v7.5.cat and ptx-v6.0.cat: both strong (strong-m: a write RLX or
 * REL, a read RLX or ACQ), in sr, of one proxy of same-proxy's (GEN, SUR,
 * TEX or CON: ALIAS is none of them), at one location (6.0's loc) and one
 * generic address (7.5's vloc).  False for any other pair (the caller
 * takes that as "may race"). */
bool sci_exec_morally_strong_accesses(const sc_test *t, const sc_event *a,
                                      const sc_event *b);
/* Event e is a fence.sc (or a membar, which the ISA says is one). */
bool sci_exec_is_fence_sc(const sc_execution *x, int e);

/* ---- Barriers (barrier.c) ---- */

/* Every syncbar relation the barriers of x allow, each once, in *out
 * (*n is 0 when they deadlock).  SC_ERR_LIMIT after `limit` orders of
 * arrival, or past the deadline of `clock` (NULL: none; the -timeout
 * error). */
typedef struct sim_clock sim_clock;
sc_status sci_barrier_syncs(const sc_execution *x, const sim_clock *clock,
                           long limit, sc_rel ***out, int *n, sc_error **err);

/* Final value of location `loc` (alias resolved): the co-last write. */
int64_t sci_exec_final_value(const sc_execution *x, int loc);
/* The value of a condition term in the final state. */
int64_t sci_exec_lval(const sc_execution *x, const sc_lval *lv);
/* Whether proposition `p` holds in the final state. */
bool sci_exec_holds(const sc_execution *x, const sc_prop *p);

/* A cycle of events in the relation a check tested: why the model
 * forbids an execution (drawn bold in pictures). */
typedef struct sc_cycle {
  const char *check;
  const int *events;
  int n;
} sc_cycle;

/* A copy that later choices of rf and co do not change (for results). */
sc_execution *sci_exec_snapshot(const sc_execution *x);
/* The value event e read or wrote as herd prints it, "?" when it was not
 * computed (a collapsed cell's: sim/data_only.h). */
const char *sci_exec_value_text(const sc_execution *x, int e);
/* An event as herd labels it: "a: W[x]=1 cg" (initial writes: "W[x]=0"). */
const char *sci_exec_event_label(const sc_execution *x, int e);

#endif
