/* exec.h: the compiled evaluator (exec.c): a model's lowered graph
 * (graph.h) evaluated over concrete bit matrices, for callers that run one
 * model on many candidate executions of the same events (the enumerator).
 * Each node is computed at most once per run, into a buffer of its own;
 * the nodes that depend on no dynamic name (rf, co...) only once per
 * binding of the fixed names.  No allocation per run.
 *
 * It answers what sci_cat_run answers about a transient evaluation (is the
 * execution allowed, which flags it raises) and nothing else: no checks'
 * values, no shows.  Where the graph does not hold the whole model (the
 * lowering stopped, or a `with ... from` was approximated) there is no
 * compiled form, and where a run would report an error (a `let rec` past
 * its limit) it declines: the caller asks the interpreter then, which
 * answers with its own words. */
#ifndef SC_CAT_EXEC_H
#define SC_CAT_EXEC_H

#include "cat/cat.h"

typedef struct sc_cat_exec sc_cat_exec;

/* The compiled form of model m over env's names (its entries and dynamic
 * names as bound now) under opts (variants, skipped checks); NULL, and
 * *why says why, when the model has none.  Kept with the model's graph:
 * a later call for the same signature and event count is served from it. */
sc_cat_exec *sci_cat_exec_of(const sc_cat_model *m, const sc_cat_env *env,
                             const sc_cat_run_options *opts, const char **why);

/* Whether the model reads the dynamic name env->dynamic[i] at all. */
bool sci_cat_exec_reads(const sc_cat_exec *x, int i);

/* The buffer the caller fills with dynamic name i's value before a run:
 * exactly one of the two is not NULL, as the name is a set or a relation
 * in the environment the compiled form was made for. */
sc_set *sci_cat_exec_input_set(sc_cat_exec *x, int i);
sc_rel *sci_cat_exec_input_rel(sc_cat_exec *x, int i);

/* One run over env's fixed names and the inputs as filled: out->allowed
 * and out->flags (owned by x: read them before the next run), no checks,
 * no result.  opts->only and opts->keep_going are honoured as by
 * sci_cat_run.  False when it declines (see above): out is then zero. */
bool sci_cat_exec_run(sc_cat_exec *x, const sc_cat_env *env,
                      const sc_cat_run_options *opts, sc_cat_outcome *out);

#endif
