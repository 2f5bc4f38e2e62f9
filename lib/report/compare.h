/* compare.h: the comparison of histograms with models (struct sc_compare
 * of the public header), shared by the classifier (compare.c) and the
 * reports (compare_text.c, compare_html.c). */
#ifndef SC_COMPARE_H
#define SC_COMPARE_H

#include "report/outcome.h"
#include "scopecat.h"

#include <stdbool.h>

/* An outcome hardware showed, its counts summed over the logs of a test. */
typedef struct cmp_outcome {
  sc_outcome outcome;
  const char *text;
  long *counts; /* per source; sources added later count 0 */
  int ncounts;
  long total;
  bool marked;  /* some log marks it "*>" */
} cmp_outcome;

/* A test and what every log of it showed. */
typedef struct cmp_test {
  const char *name;
  const sc_test *test;   /* NULL when unknown */
  const char *source;    /* the printed source, when the test is unknown */
  const char *log;       /* the first log that showed it (file name) */
  const char *condition; /* as a log prints it, NULL */
  cmp_outcome *outcomes; /* sorted */
  int noutcomes, cap;
  long hung_launches, hung_instances; /* over every log */
  double hang_limit;                  /* the largest limit of a log */
} cmp_test;

/* What a model allows for a test. */
typedef struct cmp_verdict {
  bool known;
  const char *failure;   /* why there is no verdict */
  sc_outcome *states;
  const char **texts;
  int nstates;
  bool has_liveness;     /* the verdict log says Liveness Pass|Fail */
  bool live;             /* ... Pass */
} cmp_verdict;

typedef struct cmp_model {
  const char *label;
  cmp_verdict *verdicts; /* per test; tests added later have none */
  int nverdicts;
} cmp_model;

struct sc_compare {
  cmp_test *tests;
  int ntests, captests;
  const char **sources;
  int nsources, capsources;
  cmp_model *models;
  int nmodels, capmodels;
  long instances; /* over every histogram: every sum of counts a report
                     prints is at most this, so it fits when this does */
  const char *progress; /* the progress model of the liveness verdicts
                           (sc_compare_set_progress), NULL when not said */
};

/* The verdict of a model on a test, or NULL when it has none. */
const cmp_verdict *sci_compare_verdict_of(const sc_compare *c, int model,
                                         int test);

/* How many of a test's observed outcomes the model forbids, and their
 * instances. */
int sci_compare_forbidden(const sc_compare *c, int model, int test,
                         long *instances);

/* The instances of test `test` in source `source` (-1: every source). */
long sci_compare_test_instances(const sc_compare *c, int test, int source);

/* "N launch(es) (M instances) did not finish within S s; " and the
 * model's liveness verdict beside it, or "an observation". */
const char *sci_compare_hang_text(const sc_compare *c, int model, int test);

#endif
