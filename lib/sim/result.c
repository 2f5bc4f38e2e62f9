/* result.c: what a result says beyond its counts: whether the test's
 * condition is validated under its quantifier, and herd7's Observation
 * word.  Read by the printers and by the public accessors. */
#include "sim/result.h"

bool sc_sim_validated(const sc_result *r) {
  switch (r->test->quant) {
  case SC_EXISTS: return r->positive > 0;
  case SC_NOT_EXISTS: return r->positive == 0;
  case SC_FORALL: return r->negative == 0;
  }
  return false;
}

const char *sc_sim_observation(const sc_result *r) {
  if (r->positive == 0)
    return "Never";
  return r->negative == 0 ? "Always" : "Sometimes";
}
