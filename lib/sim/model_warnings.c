/* model_warnings.c: sc_model_warnings of the public header: the names of
 * a model that match nothing (cat/names_check.c), against the names every
 * execution binds, taken from the environment of an empty one. */
#include "sim/execution.h"
#include "sim/model.h"

#include "util/gcmem.h"
#include "util/oom.h"

#include <string.h>

/* The base environment of an execution of no thread and no location: the
 * names are bound whatever the test (empty sets and relations here). */
static const sc_cat_env *base_names(void) {
  sc_test *none = sci_alloc(sizeof *none);
  sc_execution *x = sci_exec_new(none, NULL);
  sc_cat_env *env = sci_cat_env_new(0);
  sci_exec_bind_static(x, env);
  sci_exec_bind_dynamic(x, env);
  return env;
}

const char *const *sc_model_warnings(const sc_model *m,
                                     const sc_sim_options *opts, int *n) {
  *n = 0;
  sc_oom_guard g;
  if (!SC_OOM_ENTER(g)) {
    sci_oom_null(&g);
    return NULL;
  }
  sci_gc_init();
  sc_cat_run_options ro;
  memset(&ro, 0, sizeof ro);
  if (opts) {
    ro.skipchecks = opts->skipchecks;
    ro.nskip = opts->nskip;
    ro.variants = opts->variants;
    ro.nvariants = opts->nvariants;
  }
  const char **w = sci_cat_model_warnings(m->cat, base_names(), &ro, n);
  sci_oom_leave(&g);
  return w;
}
