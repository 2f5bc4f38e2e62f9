/* search.h: one simulation's state, shared by the driver (simulate.c), the
 * engines (engine.h) and the outcome sink (sink.h): what the test, the
 * model and the options ask for, the budget, and one combination of
 * traces as a candidate whose rf and co are still to choose (search.c
 * builds it). */
#ifndef SC_SIM_SEARCH_H
#define SC_SIM_SEARCH_H

#include "rel/order.h"
#include "sim/execution.h"
#include "sim/model.h"
#include "sim/result.h"
#include "sim/traces.h"

/* A status internal to lib/sim: the search stops because it has what it
 * asked for (-speedcheck fast's verdict; the probe's allowed execution, or
 * its looks spent), not because of an error.  The driver and the probe
 * turn it back into SC_OK: the library never returns it. */
#define SIM_STOP ((sc_status)0x100)

/* What the adaptive cutting keeps per depth of the search tree. */
#define MAX_DEPTH_STATS 256

struct sim_engine;

/* The enumerator's cuts: partial candidates looked at, and per depth those
 * looked at, those cut, and the passes over it (engine_enum.c). */
typedef struct sim_cut_stats {
  long nodes;
  long tries[MAX_DEPTH_STATS], cuts[MAX_DEPTH_STATS], passes[MAX_DEPTH_STATS];
} sim_cut_stats;

/* An enumeration under a budget of looks: under -engine auto, once
 * symbolic, the quick one for one allowed execution before a solver call
 * (sci_sim_enum_probe), and the one that tries a combination the estimate
 * gives the solver (sci_sim_enum_within): looks left (0: no budget),
 * whether the first allowed execution ends it, and how it ended. */
typedef struct sim_probe {
  long left;
  bool first_only;
  bool found, spent;
} sim_probe;

/* The symbolic engine's state (engine_smt.c). */
typedef struct sim_smt_state {
  bool *final_locs; /* per location, whether its final value is read */
  /* per location, whether the condition or the filter reads it; per
   * thread, whether a register of it is observed or filtered on (the
   * solver's blocking where values are computed after: symbolic.h) */
  bool *cond_locs, *reg_threads;
  bool hybrid;      /* under -engine auto: small combinations are enumerated */
  struct sc_sym_session *session; /* the solver's context */
  /* under hybrid, the combinations enumerated (whole, or within the
   * budget) and those given to the solver: the result's engine reason */
  long enumerated, solved;
} sim_smt_state;

/* A layout of traces prepared (sci_sim_prepare): an execution of it, the
 * environment of its names (with what cat keeps of the model's fixed part
 * there: its compiled form, the values of its fixed bindings), the
 * analysis and the prune groups.  A combination of the same layout
 * (sci_exec_same_layout: its traces differ from these in the values read
 * and written at most, the odometer's usual next step) shares them all:
 * nothing sci_exec_bind_static binds depends on a value. */
typedef struct sim_layout {
  const sc_execution *x;
  const sc_trace **traces; /* x's traces, per thread (x->traces is the
                              driver's array, which the next choice fills) */
  sc_cat_env *env;
  sc_cat_run_options eval;
  struct prune_group *groups;
  int ngroups;
  sc_rel **syncs; /* its barrier synchronisations once worked out */
  int nsyncs;
  bool syncs_known;
} sim_layout;

/* The layouts met last, most recently used first: the odometer's fastest
 * thread may take turns between a few (a spin's exits). */
#define SIM_LAYOUTS_KEPT 8
typedef struct sim_prepared {
  sim_layout kept[SIM_LAYOUTS_KEPT];
  int n;
  long shared; /* the combinations that shared one (tests) */
} sim_prepared;

typedef struct sim_search {
  const sc_test *t;
  const sc_model *m;
  sc_sim_options opts;
  sc_cat_run_options eval;
  const struct sim_engine *engine;
  sc_result *r;
  double start, last_progress;
  sim_clock clock;      /* the deadline and budget every loop looks at */
  int64_t *values;      /* scratch: the observed values of one execution */
  bool partial_co;      /* co need not be total (the model expects it so,
                           as Dat3M's PTX models do: model.c) */
  const char *co_reason; /* why co is total or partial */
  bool want_syncbar;    /* the model names syncbar: barriers are scheduled */
  bool want_sync_fence; /* the model names sync_fence: fence.sc is ordered */
  bool prune;           /* cut branches early (not -noprune, not -through) */
  bool may_flag;        /* the model may raise a flag */
  /* co is chosen before rf: with co known, fr and po cut most rf choices.
   * Only when nothing reported depends on the order executions are met
   * in (no drawings, no flags: states are sorted, counts are sums). */
  bool co_first;
  bool model_flag_raised; /* the model raised a flag in an allowed execution */
  bool done;            /* -speedcheck fast: an execution decided the
                           condition, the search stops */
  /* sc_sim_options.exact_states, the cells collapsed: the sink computes
   * each execution's collapsed values from its rf before it reads its
   * state (data_only.h); values_failed when that failed (s->err says
   * why, and the search stops) */
  bool values_after, values_failed;
  /* the value fixpoint asked the solver (traces.h's sci_sim_rounds_solved):
   * a walk over the combinations counts them against -max-executions
   * first */
  bool count_fed;
  sim_cut_stats stats;
  sim_probe probe;
  sim_smt_state smt;
  /* thread symmetry (symmetry.h): NULL when none; else the sink adds the
   * images of each state the engines find in a representative */
  struct sim_symmetry *sym;
  sim_prepared prepared;
  /* -liveness: the bound cut a run, so a Pass found within
   * SC_LIVE_DEEPEN_CANDIDATES candidates is searched again deeper
   * (simulate.c): live_refute.c's cut waits until that many are counted,
   * so that the same searches are deepened as without it */
  bool may_deepen;
  sc_error *err;
} sim_search;

/* Per location: its writes (not the initial one) and the order co puts
 * them in so far (rel/order.h's walk: complete once every write is placed). */
typedef struct co_choice {
  int init;    /* the initial write */
  int *writes;
  int n;
  uint32_t below[SC_ORDER_MAX_ITEMS];
  uint32_t placed;
  int depth;   /* the search depth before its first write is placed */
} co_choice;

/* Checks that can cut a branch, run together on the same bounds: rf and co
 * as chosen so far (lower bounds of every completion's), or their upper
 * bounds (every edge a completion may still add). */
typedef struct prune_group {
  bool rf_upper, co_upper;
  const struct sc_cat_test **checks;
  int n;
  sc_cat_run_options eval;
} prune_group;

/* The choices made for one execution, and the search's scratch. */
typedef struct sim_candidate {
  sc_execution *x;
  sc_cat_env *env;
  co_choice *co; /* per location */
  int nlocs;
  int nreads;    /* rf: read k reads from cands[k][pick] */
  int *reads, **cands, *ncands;
  int rf_left;   /* reads 0..rf_left-1 are not chosen yet */
  bool co_choices; /* some location has two writes or more to order */
  int rf_depth;    /* the search depth of the first read chosen */
  bool rf_choices; /* some read has two candidate writes or more */
  sc_rel *rf_low, *co_low; /* the choices so far: x->rf and x->co point here */
  sc_rel *rf_up, *co_up; /* upper bounds, for prune groups that want them */
  prune_group groups[4];
  int ngroups;
  sc_cat_run_options eval; /* s->eval, keeping the model's fixed values */
  /* A layout search's (NULL: none): per thread, the group of traces whose
   * first x is made of and among which the solver chooses (symbolic.h) */
  const sim_trace_group *const *select;
} sim_candidate;

/* ---- The budget ---- */

/* The -timeout error. */
sc_status sci_sim_out_of_time(sim_search *s);
/* One more candidate: SIM_STOP once the search has its answer or the probe
 * its looks; SC_ERR_LIMIT past -max-executions or -timeout; progress. */
sc_status sci_sim_check_budget(sim_search *s);
/* The caller's progress callback, at most every quarter second (`now`:
 * sc_seconds()). */
void sci_sim_progress(sim_search *s, double now);

/* ---- One combination of traces as a candidate ---- */

/* The candidate writes of each read of cd->x; false when a read has none
 * (the traces read a value nobody writes). */
bool sci_sim_rf_choices(sim_candidate *cd);
/* The same, the values left aside: each read's writes of its location,
 * but for those out of thin air (a layout search's, cd->select). */
bool sci_sim_rf_layout_choices(sim_candidate *cd);
/* The execution of one trace per thread (`chosen`, kept by reference),
 * rf and co empty: sci_exec_new's, or, when the traces have the layout of
 * a combination prepared lately (s->prepared), one sharing its fixed
 * relations (that layout is then the most recently used). */
sc_execution *sci_sim_execution(sim_search *s, const sc_trace **chosen);
/* The environment of the traces in cd->x, what the model's values depend
 * on (dynamic.h), the enumerator's prune groups, and the buffers; all but
 * the buffers are its layout's (s->prepared) when cd->x shares their
 * fixed relations (sci_sim_execution). */
void sci_sim_prepare(sim_search *s, sim_candidate *cd);
/* Per location, its writes, each unordered; the search depths. */
sc_status sci_sim_co_choices(sim_search *s, sim_candidate *cd);
/* The barrier synchronisations of cd's layout (sci_barrier_syncs), when
 * cd shares a kept layout's environment and they were kept for it. */
bool sci_sim_layout_syncs(sim_search *s, const sim_candidate *cd, sc_rel ***syncs,
                          int *n);
/* Keep the barrier synchronisations worked out for cd's layout. */
void sci_sim_keep_layout_syncs(sim_search *s, const sim_candidate *cd, sc_rel **syncs,
                               int n);
/* n times the orders of w writes, up to `most` (then most + 1). */
long sci_sim_times_orders(long n, int w, bool partial, long most);
/* How many rf and co choices cd leaves, up to `most` (then most + 1). */
long sci_sim_choices_upto(const sim_search *s, const sim_candidate *cd, long most);

#endif
