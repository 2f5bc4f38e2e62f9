/* hist.h: one Test block of a log (struct sc_hist of the public header),
 * shared by the reader (hist.c), the test finder (hist_match.c) and the
 * comparison (compare.c). */
#ifndef SC_HIST_H
#define SC_HIST_H

#include "report/outcome.h"
#include "scopecat.h"

#include <stdbool.h>

typedef struct sc_hist_row {
  sc_outcome outcome;
  const char *text; /* canonical (sci_outcome_string) */
  long count;       /* instances; 0 in a herd7 log */
  bool marked;      /* "*>": an outcome the condition is about */
  int line, col;    /* where its bindings start in the log (col from 1);
                       outcome.var_at and value_at count from there */
} sc_hist_row;

struct sc_hist {
  const char *file;
  int line;              /* of the Test line */
  const char *name;
  bool has_counts;       /* a Histogram (hardware), not herd7's States */
  sc_hist_row *states;
  int nstates;
  long instances;        /* the sum of the counts */
  const char *condition; /* "exists (...)", NULL when the log has none */
  const char *device;    /* the log's device name, NULL */
  const char *hash;      /* the Hash= value, NULL */
  const char *source;    /* the test as the log prints it, NULL */
  int source_line;       /* the line of the log where it starts */
  /* "Hangs NAME LAUNCHES INSTANCES SECONDS": launches that did not finish
   * within SECONDS (scopecat's GPU harness), 0 when none */
  long hung_launches, hung_instances;
  double hang_limit;
  /* "Liveness NAME Pass|Fail" (a model's verdict): 1 Pass, 0 Fail, -1 none */
  int liveness;
};

#endif
