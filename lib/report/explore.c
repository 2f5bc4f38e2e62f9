/* explore.c: the public view of the executions a simulation kept (those
 * sc_sim_options.show chose): their events and relations, read-only. */
#include "sim/execution.h"
#include "sim/result.h"

#include <string.h>

int sc_result_execution_count(const sc_result *r) { return r->nshown; }

const sc_execution *sc_result_execution(const sc_result *r, int i) {
  return i >= 0 && i < r->nshown ? r->execs[i] : NULL;
}

int sc_execution_event_count(const sc_execution *x) { return x->nevents; }

const char *sc_execution_event(const sc_execution *x, int e) {
  return e >= 0 && e < x->nevents ? sc_exec_event_label(x, e) : NULL;
}

int sc_execution_event_thread(const sc_execution *x, int e) {
  return e >= 0 && e < x->nevents ? x->events[e].thread : -1;
}

int sc_execution_related(const sc_execution *x, const char *relation, int a,
                         int b) {
  if (a < 0 || b < 0 || a >= x->nevents || b >= x->nevents || !relation)
    return -1;
  if (strcmp(relation, "fr") == 0) { /* rf^-1 ; co */
    for (int w = 0; w < x->nevents; w++)
      if (sc_rel_has(x->rf, w, a) && sc_rel_has(x->co, w, b))
        return 1;
    return 0;
  }
  /* the relations an execution carries, by the names models give them;
   * syncbar and sync_fence are absent when the test has nothing to order */
  static const char *const names[] = {"po", "rf", "co", "addr", "data", "ctrl",
                                      "rmw", "syncbar", "sync_fence"};
  const sc_rel *rels[] = {x->po, x->rf, x->co, x->addr, x->data, x->ctrl,
                          x->rmw, x->syncbar, x->sync_fence};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcmp(relation, names[i]) == 0)
      return rels[i] ? sc_rel_has(rels[i], a, b) : 0;
  return -1;
}
