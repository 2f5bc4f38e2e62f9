/* repeat_gate.c: the model's side of sem.c's repeated-state cut.  A run
 * cut there stands for the shorter run, whose executions are the longer
 * run's with one iteration's reads and fences taken out; the names that
 * execution.c and ptx_names.c bind then keep, among the remaining events,
 * the pairs they had, but for these: */
#include "sim/repeat_gate.h"

#include "sim/dynamic.h"
#include "sim/execution.h"

#include "util/gcmem.h"

/* ctrl: the events after the iteration no longer depend on the reads that
 * decided its branches; membar.cta, .gl, .sys (po ; [fence] ; po): a pair
 * that only a removed fence separated leaves them.  Every other name is a
 * property of each event or pair alone (tags, po, loc, scopes, addr and
 * data, as the repeated state's registers carry the same reads), or is
 * made of writes and barriers, none of which is removed (rf, co, fr, FW,
 * syncbar), or is the fence.sc order, whose restriction is one that the
 * shorter run's candidates take. */
static const char *const shrinking[] = {"ctrl", "membar.cta", "membar.gl", "membar.sys"};
/* The names of writes and barriers alone (an atom that writes nothing has
 * no rmw pair). */
static const char *const kept[] = {"W",   "IW",  "FW",  "BAR", "RMW",     "co",
                                   "coi", "coe", "rmw", "amo", "syncbar"};
static const sc_cat_removal removal = {
    shrinking, (int)(sizeof shrinking / sizeof *shrinking),
    kept, (int)(sizeof kept / sizeof *kept)};

bool sci_sim_repeat_cut_safe(const sc_test *t, const sc_cat_model *m,
                         const sc_cat_run_options *eval) {
  /* the names and their kinds, as a candidate binds them (search.c's
   * sci_sim_prepare): those of an execution of no thread's event */
  static const sc_trace no_events = {0};
  const sc_trace **traces = sci_alloc(sizeof *traces * (size_t)(t->nthreads + 1));
  for (int th = 0; th < t->nthreads; th++)
    traces[th] = &no_events;
  sc_execution *x = sci_exec_new(t, traces);
  sc_cat_env *env = sci_cat_env_new(x->nevents);
  sci_exec_bind_static(x, env);
  sci_exec_bind_dynamic(x, env);
  sc_cat_dynamic deps[SIM_NDYNAMIC];
  sci_sim_dynamic_deps(deps);
  return sci_cat_model_drop_events_safe(m, env, deps, SIM_NDYNAMIC, &removal, eval);
}
