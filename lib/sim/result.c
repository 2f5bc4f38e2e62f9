/* result.c: what a result says beyond its counts: whether the test's
 * condition is validated under its quantifier, herd7's Observation word,
 * the kind word and the Witnesses counts of herd7's block (herd's
 * top_herd.ml: check_cond, observation, dump_as_kind, check_wit), the runs
 * the unroll bound cut.  Read by the printers and by the public accessors. */
#include "sim/result.h"

bool sci_sim_validated(const sc_result *r) {
  switch (r->test->quant) {
  case SC_EXISTS: return r->positive > 0;
  case SC_NOT_EXISTS: return r->positive == 0;
  case SC_FORALL: return r->negative == 0;
  }
  return false;
}

bool sci_sim_decides(const sc_test *t, bool holds) {
  return t->quant == SC_FORALL ? !holds : holds;
}

/* Under -speedcheck only the executions that decide the condition are
 * counted, so the word says only what they show: no Always for exists and
 * ~exists (the others were not counted), no Never for forall. */
const char *sci_sim_observation(const sc_result *r) {
  if (r->speedcheck != SC_SPEEDCHECK_FALSE) {
    if (r->test->quant == SC_FORALL)
      return r->negative == 0 ? "Always" : "Sometimes";
    return r->positive == 0 ? "Never" : "Sometimes";
  }
  if (r->positive == 0)
    return "Never";
  return r->negative == 0 ? "Always" : "Sometimes";
}

const char *sci_sim_kind(const sc_result *r) {
  switch (r->test->quant) {
  case SC_EXISTS: return "Allowed";
  case SC_NOT_EXISTS: return "Forbidden";
  case SC_FORALL: return "Required";
  }
  return "Allowed";
}

void sci_sim_witnesses(const sc_result *r, long *positive, long *negative) {
  bool swap = r->test->quant == SC_NOT_EXISTS;
  *positive = swap ? r->negative : r->positive;
  *negative = swap ? r->positive : r->negative;
}

long sci_sim_cut_runs(const sc_result *r) {
  long n = 0;
  for (int th = 0; r->cut_runs && th < r->test->nthreads; th++)
    n += r->cut_runs[th];
  return n;
}

int sc_result_bounds(const sc_result *r, int *thread, int *line,
                     long long *address) {
  if (!r->fault)
    return 0;
  if (thread)
    *thread = r->fault_thread;
  if (line)
    *line = r->fault->line;
  if (address)
    *address = r->fault_address;
  return 1;
}
