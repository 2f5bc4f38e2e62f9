/* result.h: what a simulation found for one test (struct sc_result of the
 * public header), shared by the enumerator that fills it (enum.c) and the
 * printers that read it (log.c). */
#ifndef SC_RESULT_H
#define SC_RESULT_H

#include "litmus/litmus.h"

#include <stdbool.h>
#include <stdint.h>

/* A final state: the values of the observed terms, and how many allowed
 * executions ended in it. */
typedef struct sc_state {
  int64_t *values;
  long count;
  bool holds; /* the condition's proposition holds in it */
} sc_state;

struct sc_result {
  const sc_test *test;
  sc_lval *observed; /* registers by thread and name, then locations */
  int nobserved;
  sc_state *states;  /* sorted */
  int nstates, capstates;
  long positive, negative, candidates;
  const char **flags; /* raised in some allowed execution */
  int nflags, capflags;
  double seconds;
  const char **dots; /* one digraph per shown execution */
  struct sc_execution **execs; /* and the execution itself */
  int nshown, capdots, capexecs;
};


#endif
