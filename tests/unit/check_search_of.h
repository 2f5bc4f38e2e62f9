/* check_search_of.h: a search of a test under a model written inline, as
 * sci_sim_prepare needs one (pruning on), and the trace of a thread with a
 * given value at a given event: what check_prepared and check_sym_scope
 * each need to prepare combinations of their own choosing. */
#ifndef CHECK_SEARCH_OF_H
#define CHECK_SEARCH_OF_H

#include "sim/search.h"
#include "sim/traces.h"
#include "scopecat.h"

#include <check.h>
#include <string.h>

static inline sim_search search_of_model(const sc_test *t, const char *model_text) {
  sc_model *m;
  sc_error *err;
  ck_assert_msg(sc_model_load_string(model_text, "m.cat", NULL, 0, &m, &err) == SC_OK,
                "%s", sc_error_message(err));
  sim_search s;
  memset(&s, 0, sizeof s);
  s.t = t;
  s.m = m;
  s.prune = true;
  return s;
}

/* The trace of `thread` whose event `i` has `value`. */
static inline const sc_trace *trace_with(const sc_thread_traces *all, int thread, int i,
                                         int64_t value) {
  for (int k = 0; k < all[thread].ntraces; k++) {
    const sc_trace *tr = &all[thread].traces[k];
    if (tr->nevents > i && tr->events[i].value == value)
      return tr;
  }
  ck_abort_msg("thread %d has no trace whose event %d has value %lld", thread, i,
               (long long)value);
  return NULL;
}

#endif
