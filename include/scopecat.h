/* scopecat.h: the public face of libscopecat, a herd-style memory-model
 * simulator for GPU PTX litmus tests.  Opaque handles, functions that return
 * an sc_status and fill an sc_error; nothing else is exported.  Every symbol
 * carries the sc_ prefix.  Memory is owned by the Boehm collector: handles
 * and strings returned here need no freeing.  Running out of it is an
 * error, never an abort: SC_ERR_LIMIT from a function that returns a
 * status, NULL from one that returns a string (see sc_set_max_heap). */
#ifndef SCOPECAT_H
#define SCOPECAT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SC_VERSION_STRING "0.1.0"

/* Status codes.  SC_OK is zero; every other value names a failure class. */
typedef enum sc_status {
  SC_OK = 0,
  SC_ERR_IO,          /* a file could not be opened or read */
  SC_ERR_SYNTAX,      /* malformed input: expected X, found Y */
  SC_ERR_SEMANTIC,    /* well formed but meaningless (undeclared register...) */
  SC_ERR_UNSUPPORTED, /* valid herd input that scopecat does not implement */
  SC_ERR_LIMIT,       /* a configured limit was hit */
  SC_ERR_USAGE        /* bad argument to a library function */
} sc_status;

/* An error: where (file, line, column; 0 when unknown) and what.  The
 * message of sc_error_message() is "file:line:col: what was expected". */
typedef struct sc_error sc_error;

const char *sc_status_string(sc_status status);
sc_status sc_error_status(const sc_error *err);
const char *sc_error_message(const sc_error *err);
const char *sc_error_file(const sc_error *err);
int sc_error_line(const sc_error *err);
int sc_error_column(const sc_error *err);

/* Library version, e.g. "0.1.0". */
const char *sc_version(void);

/* ---- Services shared with clients -------------------------------------- */

/* Seconds on a monotonic clock: for durations, not dates. */
double sc_seconds(void);

/* The whole file `path` as a NUL-terminated string in *text, its length
 * (bytes before the NUL) in *len (which may be NULL).  SC_ERR_IO when it
 * cannot be opened or read, SC_ERR_LIMIT when it holds more than
 * `max_bytes` bytes (0: no limit). */
sc_status sc_read_file(const char *path, size_t max_bytes, char **text,
                       size_t *len, sc_error **err);

/* Cap the collector's heap at `bytes` (0: no cap, the default), for the
 * whole process; SC_ERR_USAGE for a cap under 8 MiB, too small to work
 * in.  A call that needs more memory than the cap allows fails with
 * SC_ERR_LIMIT and a message naming memory (functions that return a
 * string return NULL); the library stays usable for the next call. */
sc_status sc_set_max_heap(size_t bytes, sc_error **err);

/* ---- Litmus tests ------------------------------------------------------ */

/* The dialect a test was written in.  Both parse to the same test. */
typedef enum sc_dialect {
  SC_DIALECT_GPU_PTX, /* herd's GPU_PTX (ASPLOS'15 Fig. 12) */
  SC_DIALECT_PTX      /* Dat3M's PTX: P0@cta 0,gpu 0 headers */
} sc_dialect;

typedef struct sc_test sc_test;

/* Limits on what a parse accepts; zero fields take the defaults below. */
typedef struct sc_parse_limits {
  size_t max_file_bytes;   /* default 16 MiB */
  int max_threads;         /* default 256 */
  int max_instructions;    /* per thread, default 4096 */
  int max_events;          /* events of one candidate execution (initial
                              writes included), default 4096; checked when
                              sc_simulate runs the test's threads */
} sc_parse_limits;

/* Parse a litmus test (either dialect, recognised by its first word) from a
 * file or from a string; `filename` names the string in error messages.
 * `limits` may be NULL.  On failure *out is NULL and *err says why. */
sc_status sc_test_load_file(const char *path, const sc_parse_limits *limits,
                            sc_test **out, sc_error **err);
sc_status sc_test_load_string(const char *text, const char *filename,
                              const sc_parse_limits *limits, sc_test **out,
                              sc_error **err);

const char *sc_test_name(const sc_test *t);
sc_dialect sc_test_dialect(const sc_test *t);
int sc_test_thread_count(const sc_test *t);
int sc_test_instruction_count(const sc_test *t, int thread);
int sc_test_location_count(const sc_test *t);
/* The condition's quantifier as herd7 writes it: "exists", "~exists" or
 * "forall" (a test with no condition: "forall", of `forall true`). */
const char *sc_test_quantifier(const sc_test *t);

/* The canonical text of a test in its own dialect (sc_test_to_dialect with
 * sc_test_dialect): it parses again to an equal test, of the same meaning. */
const char *sc_test_to_string(const sc_test *t);
/* The text of a test in dialect d: SC_DIALECT_GPU_PTX as above; with
 * SC_DIALECT_PTX the "PTX" header and Dat3M's thread headers
 * "P0@cta N,gpu N" instead of a scope tree (the tree when threads share a
 * warp or a device holds several kernels, which headers cannot say), so
 * that it parses back as a PTX-dialect test (whose default model is
 * Dat3M's). */
const char *sc_test_to_dialect(const sc_test *t, sc_dialect d);

/* A one-line summary: name, dialect, threads, instructions, locations,
 * condition kind, and the scope placement. */
const char *sc_test_summary(const sc_test *t);
/* Warnings about a test that parses but may not say what was meant: a
 * location named once in the whole test (one access of one thread, or one
 * register's initial address), with no initial value, in no other access
 * and not in the condition, is likely misspelt (it would be a new location
 * starting at 0).  Each "file:line:col: warning: ..."; *n gets their count
 * (NULL and 0 when none, or when memory ran out). */
const char *const *sc_test_warnings(const sc_test *t, int *n);

/* 1 when two tests are the same test (dialect, threads, code, initial
 * state, scopes, regions, condition), ignoring comments and source
 * positions.  The dialect counts: it picks the default model, and a PTX
 * test's accesses mean something else under it. */
int sc_test_equal(const sc_test *a, const sc_test *b);

/* ---- Kernels: a CUDA kernel's PTX, instantiated for a launch ------------ */

/* One @Input item: a parameter's value (`n = 4`) or, for a pointer
 * parameter, its array's initial contents (`A = {-1, -1}`: is_array). */
typedef struct sc_kernel_input {
  const char *param;   /* the parameter's name: a .cu name (param_names
                          below) or the PTX one (_Z..._param_N) */
  long long *values;
  int nvalues;
  int is_array;        /* the {..} form */
  int line, col;       /* where it was written (header_file), for errors */
  const char *file;    /* where it was written when not the header_file
                          (-input); NULL: header_file */
  int is_config;       /* a scalar that shapes the launch (a size, a count)
                          rather than data: sc_kernel_generalises does not
                          count it as a data input */
} sc_kernel_input;

/* A launch: the grid and the inputs.  The grid is 1-D: %ntid.x =
 * threads_per_warp * warps_per_cta, %nctaid.x = ctas, %laneid = the index
 * in the warp, %warpid = the warp's index in its CTA (.y and .z: 0, and
 * 1 for %ntid/%nctaid). */
typedef struct sc_kernel_launch {
  const char *entry;   /* NULL: the file's only .entry (an error if several);
                          its PTX name or its own (mp for _Z2mpPiS_S_), which
                          is also the test's name */
  int threads_per_warp, warps_per_cta, ctas;
  const sc_kernel_input *inputs;
  int ninputs;
  const char *const *param_names; /* the .cu signature's names in order */
  int nparam_names;    /* 0: the PTX names */
  const char *header_file; /* where the inputs were written, for errors */
} sc_kernel_launch;

/* Read PTX text (what nvcc -ptx -arch=sm_90 emits) and instantiate the
 * entry for the launch into a test every engine takes (sc_simulate):
 *   - thread T<i> is the grid's thread of linear id i, placed in the scope
 *     tree by CTA and warp, its special registers set;
 *   - memory: each pointer parameter's array A as locations A[0] ..
 *     A[n-1] (elements of the width the code accesses it with: 1, 2, 4 or
 *     8 bytes; values as signed integers of that width), each .global
 *     variable v as v (v[i] for an array), each CTA c's copy of a .shared
 *     variable s as s@cta<c> (s@cta<c>[i]); names are the PTX's, a local
 *     static's mangled name (_ZZ4kernE1s) shortened to its own (s);
 *   - arithmetic wraps at each instruction's width; an access outside
 *     every array, or off an element's start or width, stops its thread
 *     and is a finding (sc_result_bounds);
 *   - sc_instr lines: the .cu line of the .loc before each instruction
 *     (nvcc -lineinfo), else its PTX line; sc_test_file: the .cu file
 *     named by .file when there is one.
 * The test's condition is `forall true` over every location (observed):
 * sc_kernel_set_condition replaces it.  Errors name file:line:col of the
 * PTX, or of the header for the launch's: a malformed directive, an
 * unsupported instruction (naming it), an @Input naming no parameter, a
 * parameter the code reads with no @Input, a grid past limits'
 * max_threads, a kernel past max_instructions. */
sc_status sc_kernel_load_string(const char *ptx, const char *ptx_file,
                                const sc_kernel_launch *launch,
                                const sc_parse_limits *limits, sc_test **out,
                                sc_error **err);

/* The .entry names of PTX text, in order (*n of them). */
sc_status sc_kernel_entries(const char *ptx, const char *ptx_file,
                            const char ***names, int *n, sc_error **err);

/* Whether a kernel test's verdict generalises over its data inputs (the
 * arrays' contents and the scalar parameters not marked is_config): 1 when no value read from
 * memory nor scalar parameter reaches an address or a branch (nor a
 * guard), conservatively (flow.c); else 0 and *why names the first such
 * use ("T0 kernel.cu:12: branch on data (the value ld reads at line 9)").
 * Not a kernel test: 0, "not a kernel". */
int sc_kernel_generalises(const sc_test *t, const char **why);
typedef struct sc_result sc_result;

/* A kernel's bounds finding (sc_simulate's result): 1 when, in an
 * execution the model allows, a thread accessed memory outside every
 * array, or off an element's start or width (the result's flag
 * out-of-bounds); then the first such access's thread, source line and
 * address.  0 when none (or not a kernel). */
int sc_result_bounds(const sc_result *r, int *thread, int *line,
                     long long *address);

/* The file the test's code came from: a kernel's .cu (from .file) or its
 * PTX; a litmus test's file. */
const char *sc_test_file(const sc_test *t);
/* Instruction `pc` of `thread`: its source line (a kernel's .cu line) and
 * PTX line (0 for a litmus test); -1 when out of range. */
int sc_test_instruction_line(const sc_test *t, int thread, int pc, int *ptx_line);

/* The launch header and the @Output condition (lib/kernel/launch.c). */

/* Read the launch header in `text` (a .cu or .ptx file's text; `file`
 * names it in errors) into *out: the lines `// @Input: ...`, `// @Output:
 * ...`, `// @Config: X, Y, Z[, n, ...]` and `// @Params: a, b, ...` (other
 * lines are not read).  The scalar parameters @Config names after the grid
 * are launch parameters, not data (their inputs' is_config).  Several @Input lines add up; a parameter given twice, a
 * second @Output, @Config or @Params, an unknown `// @Word:` line are
 * errors.  *output_condition gets the @Output expression (NULL: none) and
 * *cond_line, *cond_col where it starts, for sc_kernel_set_condition.
 * `limits` (NULL: the defaults) bounds the grid (max_threads threads) and
 * the arrays (max_events elements in all).  Errors are "file:line:col:
 * expected ...". */
sc_status sc_kernel_parse_header(const char *text, const char *file,
                                 const sc_parse_limits *limits,
                                 sc_kernel_launch *out,
                                 const char **output_condition, int *cond_line,
                                 int *cond_col, sc_error **err);
/* Override part of a launch with an option's value, as `what` names it:
 * "input" (the value is an @Input line's text; a parameter it names
 * replaces the launch's value of it, the others are kept) or "config"
 * (X, Y, Z[, n, ...]: the launch parameters marked anew).  Errors name "-input" or "-config" as the file, positions in
 * the value. */
sc_status sc_kernel_launch_override(sc_kernel_launch *launch, const char *what,
                                    const char *value,
                                    const sc_parse_limits *limits,
                                    sc_error **err);
/* Set the condition of the kernel's test t from an @Output expression:
 * `forall` or `exists`, then comparisons (== != < <= > >=) of the final
 * values of locations (A[0], a CTA's shared s@cta0[0]) and integers, with
 * and, or, not and parentheses.  `file`, `line`, `col` place the
 * expression's first character, for errors. */
sc_status sc_kernel_set_condition(sc_test *t, const char *expr, const char *file,
                                  int line, int col, sc_error **err);
/* The parameter names, in order, of the __global__ function of the .cu
 * text `cu` that the PTX entry `entry` (nvcc's mangled name, or an extern
 * "C" kernel's own) was compiled from: the names @Input uses, where nvcc's
 * PTX names them <entry>_param_N.  An unnamed parameter is "".
 * SC_ERR_SEMANTIC when the text has no such function. */
sc_status sc_kernel_cu_params(const char *cu, const char *file, const char *entry,
                              const char ***names, int *n, sc_error **err);

/* ---- Models and simulation ---------------------------------------------- */

/* A .cat model, parsed once and run on any number of tests.  Includes are
 * searched in include_dirs, then in the model's own folder. */
typedef struct sc_model sc_model;

sc_status sc_model_load_file(const char *path, const char *const *include_dirs,
                             int ninclude, sc_model **out, sc_error **err);
sc_status sc_model_load_string(const char *text, const char *filename,
                               const char *const *include_dirs, int ninclude,
                               sc_model **out, sc_error **err);
/* herd7's -bell: a new model that runs the bell file at `path` before m
 * (its enums, such as `enum scopes`, and definitions, such as narrower and
 * wider, are m's); m is unchanged.  Includes are searched in include_dirs,
 * then in the bell's folder. */
sc_status sc_model_add_bell(const sc_model *m, const char *path,
                            const char *const *include_dirs, int ninclude,
                            sc_model **out, sc_error **err);
/* Limits on running a model, checked on every candidate execution; zero
 * fields take the defaults.  Each stops the simulation with SC_ERR_LIMIT
 * and a message that names the limit. */
typedef struct sc_model_limits {
  int max_depth;      /* cat function calls nested, default 1000, at most
                         10000 (deeper runs out of C stack) */
  int max_forks;      /* `with x from S` forks nested, default 200, at
                         most 1000 */
  int max_iterations; /* rounds of one `let rec` before it is reported as
                         not converging; default events^2 + 2 (enough for
                         any monotone body), at least 100 */
  double timeout;     /* seconds for the model on one execution, default
                         60, negative: none (sc_sim_options.timeout bounds
                         the whole test) */
} sc_model_limits;
/* A new model that is m under `limits` (NULL: the defaults); m is
 * unchanged.  SC_ERR_USAGE for a negative or too large limit. */
sc_status sc_model_with_limits(const sc_model *m, const sc_model_limits *limits,
                               sc_model **out, sc_error **err);
/* The model's title line ("GPU_PTX"...), "" when it has none. */
const char *sc_model_title(const sc_model *m);
/* The bundled model a test runs under when none is named: "ptx-rmo.cat"
 * for GPU_PTX tests, but "ptx-v7.5.cat" for those that use one of PTX 7's
 * memory-model instructions (fence.sc, fence.acq_rel, .acquire, .release,
 * .acq_rel, or .relaxed with a scope), which ptx-rmo.cat would ignore in
 * silence; for the PTX dialect Dat3M's "ptx-v6.0.cat", or "ptx-v7.5.cat"
 * when the test uses proxies (suld, sust, tld, cold, fence.proxy, or a
 * location aliased through a proxy). */
const char *sc_test_default_model(const sc_test *t);
/* The same, and in *why (when `why` is not NULL) the reason in words, as
 * `scopecat sim -v` says it: "it uses fence.sc.gpu, which ptx-rmo.cat
 * ignores", "the default for GPU_PTX tests", "it uses proxies, which only
 * ptx-v7.5.cat knows" or "the default for the PTX dialect".  NULL (and
 * *why NULL) when memory ran out. */
const char *sc_test_default_model_why(const sc_test *t, const char **why);

/* Which allowed executions a simulation draws (herd's -show): those where
 * the condition's proposition holds (PROP), does not hold (NEG), those that
 * decide the verdict (COND: witnesses of exists and ~exists, counterexamples
 * of forall), or all of them. */
typedef enum sc_show {
  SC_SHOW_NONE, SC_SHOW_PROP, SC_SHOW_NEG, SC_SHOW_COND, SC_SHOW_ALL
} sc_show;

/* How a simulation searches the candidate executions.  ENUM builds and
 * runs the model on each (exact counts).  SMT (only when built with Z3)
 * keeps the per-thread traces but makes rf and co solver choices and the
 * model one formula per combination of traces: the same States, Ok/No,
 * flags and Hash, but Positive/Negative count states, not executions
 * (states where the proposition holds / does not).  AUTO enumerates, and
 * goes symbolic when the candidates pass a bound and the model can be
 * encoded (sc_result_engine says which ran and why). */
typedef enum sc_engine { SC_ENGINE_ENUM, SC_ENGINE_SMT, SC_ENGINE_AUTO } sc_engine;

/* herd7's -speedcheck.  FALSE: every allowed execution is counted.  TRUE:
 * only those that decide the condition are (for exists and ~exists those
 * where its proposition holds, for forall those where it fails): States
 * lists their final states, the other count is 0, and the Observation word
 * says only what they show (Never or Sometimes; for forall Always or
 * Sometimes).  FAST: as TRUE, but the search stops at the first such
 * execution: the verdict (Ok/No) is the full run's, the counts are 0 or 1.
 * VERDICTS (`scopecat kernel -speedcheck fast`): every allowed execution
 * is counted, as FALSE, until each answer the run can have early is in:
 * the condition decided (as FAST) and, where the model may raise a flag,
 * a flag raised; with liveness, the first witness.  Then the search stops
 * (sc_result_stopped_early): the verdict (Ok/No) is the full run's, the
 * States are those found until then, the Observation word as TRUE's, and
 * a flag not raised by then is not known to be absent. */
typedef enum sc_speedcheck {
  SC_SPEEDCHECK_FALSE, SC_SPEEDCHECK_TRUE, SC_SPEEDCHECK_FAST,
  SC_SPEEDCHECK_VERDICTS
} sc_speedcheck;

/* 1 when this build has the symbolic engine (Z3); if not (0), *why (when
 * why is not NULL) says so and how to get it. */
int sc_engine_smt_available(const char **why);

/* Which coherence order (co) a simulation gives the model: per location,
 * a total order of its writes (herd's), or a strict partial order
 * (Dat3M's PTX models, whose `let co = co+` says "the co in PTX is not
 * total").  MODEL, the default: partial when the model's first binding of
 * co is a `let` that reads the co it is given, total otherwise (herd's
 * models and those written in their style); TOTAL and PARTIAL (the CLI's
 * -co total|partial): as named, whatever the model says.  The test's
 * dialect plays no part.  sc_result_co says which one a result had. */
typedef enum sc_co { SC_CO_MODEL, SC_CO_TOTAL, SC_CO_PARTIAL } sc_co;

/* Progress models (sc_sim_options.progress_model, the CLI's -progress), as
 * Dat3M defines them (ProgressModel, forward-progress encoding): how a
 * liveness search may leave threads halted for ever (never scheduled
 * again, or never started) beside the stuck one.  The threads are grouped
 * by the scope tree (devices, the kernels of a device, the CTAs of a
 * kernel, the warps of a CTA, the threads of a warp); each group's model
 * says which of its members (its child groups, ordered by id) must go on
 * being scheduled once the group is:
 *   FAIR      every member;
 *   HSA       the lowest-id member not finished and not blocked at a
 *             barrier;
 *   OBE       every member that has started (one of its threads ran);
 *   HSA_OBE   the union of the two;
 *   LOBE      every member that has started and every lower-id one;
 *   UNFAIR    none;
 * and under every model, a scheduled group with a member that could run
 * gives one such member a turn (minimal progress).  A thread scheduled
 * this way finishes, spins for ever or waits at a barrier; any other one
 * may be halted anywhere (OBE, LOBE, HSA_OBE: only before it starts).
 * Zero is FAIR everywhere, the default. */
typedef enum sc_progress_model {
  SC_PROGRESS_FAIR, SC_PROGRESS_HSA, SC_PROGRESS_OBE, SC_PROGRESS_HSA_OBE,
  SC_PROGRESS_LOBE, SC_PROGRESS_UNFAIR
} sc_progress_model;

/* The groups a model schedules the members of, named by the group (Dat3M's
 * scope names): the threads of a warp, the warps of a CTA (a thread whose
 * test gives it no warp has one of its own: then the threads of a CTA),
 * the CTAs of a kernel (Dat3M's "gpu"), the kernels of a device, the
 * devices of the system. */
typedef enum sc_progress_level {
  SC_PROGRESS_WARP, SC_PROGRESS_CTA, SC_PROGRESS_GPU, SC_PROGRESS_DEVICE,
  SC_PROGRESS_SYS, SC_PROGRESS_LEVELS
} sc_progress_level;

typedef struct sc_progress {
  sc_progress_model at[SC_PROGRESS_LEVELS];
} sc_progress;

/* Read a -progress value into *out: a model name (fair, hsa, obe,
 * hsa_obe, lobe, unfair, any case) for every level, or a comma list of
 * LEVEL=MODEL (LEVEL: warp, cta, gpu or its synonym kernel, device, sys;
 * default=MODEL for the levels not named, else fair), as Dat3M's
 * "[cta=OBE,default=HSA]".  0 on success; else -1, *why (when not NULL)
 * saying what was expected. */
int sc_progress_parse(const char *text, sc_progress *out, const char **why);

/* p's name as sc_progress_parse reads it back: the model's ("fair") when
 * every level has one model, else each level whose model differs from the
 * sys level's, then default= that one ("gpu=obe,default=fair").  A string
 * of the library's heap. */
const char *sc_progress_name(const sc_progress *p);

/* Options of a simulation; zero fields take the defaults. */
typedef struct sc_sim_options {
  const char *const *skipchecks; /* herd's -skipcheck: checks not to apply */
  int nskip;
  int through;           /* herd's -through invalid: keep executions that
                            fail the model's checks */
  long max_executions;   /* candidate executions per test, default 10^7 */
  double timeout;        /* seconds per test, 0: none */
  int unroll;            /* backward jumps per branch, default 2; -1: default */
  /* Called about four times a second during long runs, for progress lines;
   * may be NULL.  The library itself never prints. */
  void (*progress)(void *ctx, long candidates, double seconds);
  void *progress_ctx;
  sc_show show;          /* executions to draw, default none */
  int max_shown;         /* at most this many, default 100 */
  const char *const *variants; /* herd's -variant: the names a model's
                                  `if "name"` sees as set */
  int nvariants;
  int noprune;           /* evaluate every candidate: no branch is cut early
                            (the figures are the same; for checking that) */
  sc_engine engine;      /* how candidates are searched, default
                            SC_ENGINE_ENUM (see sc_engine) */
  sc_speedcheck speedcheck; /* herd's -speedcheck, default
                               SC_SPEEDCHECK_FALSE (see sc_speedcheck) */
  int liveness;          /* instead of the final states, whether some fair
                            execution leaves a thread stuck for ever
                            (sc_result_liveness) */
  sc_co co;              /* the co the model sees, default SC_CO_MODEL
                            (see sc_co) */
  int max_run_events;    /* events of one run of a thread, 1 to
                            SC_MAX_RUN_EVENTS; 0: SC_MAX_RUN_EVENTS */
  int interpret;         /* enumeration runs the model by the interpreter
                            only, never its compiled form (the figures
                            are the same; for checking that) */
  sc_progress progress_model; /* with liveness: which threads may be halted
                            (see sc_progress), default FAIR */
  int symmetry_off;      /* search every combination of traces, not one per
                            orbit of the threads' symmetries (the figures
                            are the same; for checking that) */
  int liveness_unroll_max; /* with liveness: a Pass whose runs the unroll
                            bound cut is searched again at bound+1, +2, ...
                            up to this bound (sc_result_unroll says where
                            the answer was reached); 0: SC_LIVE_UNROLL_MAX
                            when unroll is the default, else no deepening */
  int verdicts_only;     /* the caller reads the verdicts alone (the flags
                            raised, the liveness verdict), not the
                            states; under a model that forbids every
                            cycle of rf and data, the memory cells whose
                            values decide nothing then keep their initial
                            value (the result's states show that value
                            for them; a witness's accesses there say
                            sc_access.value_unknown), which shrinks the
                            search to the runs' shapes */
  int exact_states;      /* with verdicts_only (SC_ERR_USAGE with through;
                            ignored by a liveness search): the states
                            and the condition's verdict stay exact, each
                            allowed execution's collapsed values computed
                            from its rf after the model allowed it (and a
                            witness's accesses have their values); the
                            counts of an engine that counts executions
                            stay too, the solver asks once per pattern of
                            the rf edges those values come from, not once
                            per state */
  int layout_search;     /* the symbolic engine, where the search asks
                            only what one execution answers (a liveness
                            witness; speedcheck FAST or VERDICTS: the
                            condition decided, each flag raised): 0 (the
                            default) lets the solver choose each thread's
                            trace too, among those of one layout (the
                            same events but for their values), where the
                            combinations of traces number
                            SC_LAYOUT_SEARCH_MIN a layout or more, or
                            exact_states computes collapsed values; 1
                            wherever it may; 2 never.  Its answers are
                            executions the model's concrete run allows;
                            where it has not every answer, the search
                            starts again as without it (the result's
                            engine reason says which answered) */
} sc_sim_options;

/* sc_sim_options.layout_search's default threshold: the combinations of
 * traces per layout past which the solver chooses the traces (a walk of
 * the combinations meets -max-executions' default long before it has
 * met an 8-thread ticket lock's 81 traces a thread). */
#define SC_LAYOUT_SEARCH_MIN 1e6

/* sc_sim_options.liveness_unroll_max's default: the deepest bound a
 * -liveness Pass cut by the default bound (2) is searched again at.  3:
 * over ptx/dat3m every Pass that a deeper bound turns into a Fail turns at
 * 3 (CADP 59_simple, 69_simple); 4 turned none more on the tests it
 * reached and costs a second deeper search on every Pass still cut. */
#define SC_LIVE_UNROLL_MAX 3
/* A search at a bound that took more candidates than this is not deepened
 * (each deeper bound multiplies the runs, and the cost with them).  16:
 * over ptx/dat3m the 169 cut Passes of at most 16 candidates cost 12 s of
 * CPU more at bound 3 and hold the two that turn Fail (9 candidates each);
 * the 84 of 17 to 64 cost 64 s more and none turned. */
#define SC_LIVE_DEEPEN_CANDIDATES 16

/* The most events one run of a thread may have: its dependencies are bit
 * masks over its events in one 64-bit word. */
#define SC_MAX_RUN_EVENTS 64

/* Names of m that match nothing, found without running it (a typo that
 * evaluation never reaches passes in silence otherwise): a name the model
 * uses (in a `let` never used too) that neither it, its includes, a
 * primitive nor the execution define; a name of opts->skipchecks that no
 * check of the model carries; one of opts->variants that no `if` of the
 * model tests.  `opts` may be NULL.  Each warning is a line,
 * "file:line:col: warning: ..." or "file: warning: ..."; *n gets their
 * count (NULL and 0 when none, or when memory ran out). */
const char *const *sc_model_warnings(const sc_model *m,
                                     const sc_sim_options *opts, int *n);

/* What a model allows for one test: the final states of the allowed
 * executions, and the verdict on the test's condition. */
typedef struct sc_result sc_result;

/* Enumerate the candidate executions of `t` and run `m` on each. */
sc_status sc_simulate(const sc_test *t, const sc_model *m,
                      const sc_sim_options *opts, sc_result **out,
                      sc_error **err);

/* The herd7 block of a result: Test, States, Ok/No, Witnesses,
 * Positive/Negative, Flag, Condition, Observation, Time, Hash. */
enum { SC_LOG_NOHASH = 1, SC_LOG_NOTIME = 2 };
const char *sc_result_log(const sc_result *r, unsigned flags);

/* The same as one JSON object on one line: test, file, kind, quantifier,
 * condition, states (values, count, holds), validated, positive,
 * negative, observation, flags, candidates, time, hash, engine,
 * engine_reason, co, co_reason, unroll_cut (runs, threads). */
const char *sc_result_json(const sc_result *r, unsigned flags);

int sc_result_validated(const sc_result *r); /* herd's Ok */
/* The engine that produced r, "enum" or "smt", and why it was chosen. */
const char *sc_result_engine(const sc_result *r);
const char *sc_result_engine_reason(const sc_result *r);
/* The co the model saw, "total" or "partial" (sc_co), and why: "-co
 * partial", "the model rebinds co at FILE:LINE", "herd's: the model does
 * not rebind co"... */
const char *sc_result_co(const sc_result *r);
const char *sc_result_co_reason(const sc_result *r);
/* The runs of thread `thread` that the unroll bound (sc_sim_options.unroll)
 * cut (-1 for no such thread).  Their executions are none of the result's:
 * a result with no state and runs cut says only that no execution ends
 * within the bound (a lock never released: its waiters never finish).
 * herd's block then ends with a line "Unroll NAME ..." (herd's tools skip
 * it), the JSON has "unroll_cut" (runs, threads). */
long sc_result_cut_runs(const sc_result *r, int thread);
long sc_result_positive(const sc_result *r); /* allowed executions where the
                                                condition's proposition holds */
long sc_result_negative(const sc_result *r);
long sc_result_candidates(const sc_result *r); /* candidates the model saw */
double sc_result_seconds(const sc_result *r);
int sc_result_state_count(const sc_result *r);
/* State i (sorted as herd sorts them), as herd prints it: "0:r1=1; x=2;". */
const char *sc_result_state(const sc_result *r, int i);
/* herd's Observation word: "Always", "Sometimes" or "Never". */
const char *sc_result_observation(const sc_result *r);
/* "Is this outcome allowed?": *allowed is 1 when some allowed execution
 * ends in a state where `proposition` holds.  It is written in the
 * condition language ("1:r0=1 /\\ x=2") and may read only what the result
 * observes (the test's condition and `locations`). */
sc_status sc_result_allows(const sc_result *r, const char *proposition,
                           int *allowed, sc_error **err);

/* Liveness (sc_sim_options.liveness): 1 (Pass) when no fair execution
 * the model allows leaves a thread stuck for ever, 0 (Fail) when one does
 * (the witness), -1 when liveness was not asked.  A thread is stuck when
 * it spins (its run ends closing a loop iteration that wrote nothing, met
 * no barrier and left the registers it reads before writing as they were,
 * or that wrote and repeats the iteration before it, the same events with
 * the same values, ending in the same registers: it repeats it for ever)
 * or waits at a bar.sync whose quorum never arrives; fair: each read of a
 * repeated iteration reads a write of its loop's repeated iterations or
 * a write with no co successor at a location they do not write, and no
 * other write is co-after the loop's; every other
 * thread finishes (runs cut by the unroll bound are no witness) or, under
 * a progress model other than FAIR (sc_sim_options.progress_model), is halted
 * where the model lets it be.  With
 * sc_sim_options.show the witness is also the one shown execution. */
int sc_result_liveness(const sc_result *r);
/* On Fail, how thread `thread` ends in the witness: 0 it finishes, 1 it
 * spins, 2 it waits at a barrier for ever, 3 it is halted (the progress
 * model lets it be never scheduled again); -1 with no witness or no such
 * thread. */
int sc_result_liveness_stuck(const sc_result *r, int thread);
/* On Fail, the witness (its events, rf and co as sc_execution_* give
 * them); NULL otherwise. */
const struct sc_execution *sc_result_liveness_witness(const sc_result *r);
/* With liveness asked under -unroll 0: 1 when the test has a loop whose
 * iterations write memory (a st, red, or atom other than cas between its
 * head and its backward branch: an atom.exch lock), which liveness then
 * does not check (a recurrence needs a second iteration; under -unroll 1
 * or more it is checked): the
 * first such loop's thread and the line of its branch in *thread, *line.
 * 0 otherwise.  The log's Liveness line is then followed by "Unchecked
 * NAME ...", the JSON has "unchecked_loop". */
int sc_result_liveness_unchecked(const sc_result *r, int *thread, int *line);
/* The unroll bound the result's search ran under (sc_sim_options.unroll, 2
 * by default), and the one it started from: they differ when a -liveness
 * Pass cut by the bound was searched again deeper
 * (sc_sim_options.liveness_unroll_max). */
int sc_result_unroll(const sc_result *r, int *started_at);

/* The executions chosen by sc_sim_options.show, as Graphviz DOT digraphs
 * (one per execution, in one text); NULL when none was shown. */
const char *sc_result_dot(const sc_result *r);
int sc_result_shown(const sc_result *r);
/* The digraph of shown execution i (0 <= i < sc_result_shown), or NULL. */
const char *sc_result_dot_graph(const sc_result *r, int i);

/* How a digraph is laid out, herd7's -graph: CLUSTER (the default) boxes
 * each thread's events, inside boxes for its scopes; FREE draws no box;
 * COLUMNS puts the threads side by side, each under a header, the k-th
 * drawn event of every thread on one row (rank=same). */
typedef enum sc_dot_layout {
  SC_DOT_CLUSTER, SC_DOT_FREE, SC_DOT_COLUMNS
} sc_dot_layout;
/* Which events are drawn, herd7's -showevents (an edge is drawn when both
 * its ends are): NOREGS (the default) all but register events, which
 * scopecat's executions do not have, so the same as ALL; MEM the reads
 * and writes (initial writes too); MEMFENCE those and the fences and
 * barriers. */
typedef enum sc_dot_events {
  SC_DOT_EVENTS_NOREGS, SC_DOT_EVENTS_ALL, SC_DOT_EVENTS_MEM,
  SC_DOT_EVENTS_MEMFENCE
} sc_dot_events;
typedef struct sc_dot_options {
  sc_dot_layout layout;
  sc_dot_events events;
} sc_dot_options;
/* sc_result_dot_graph drawn as `opts` says (NULL: the defaults, the same
 * text as sc_result_dot_graph's); NULL for no such execution or when
 * memory ran out. */
const char *sc_result_dot_graph_with(const sc_result *r, int i,
                                     const sc_dot_options *opts);

/* The executions kept by sc_sim_options.show (as many as sc_result_shown):
 * their events, numbered from 0 (initial writes first), as herd labels
 * them ("a: W[x]=1 cg"), the thread of each (-1: an initial write), and
 * whether (a, b) is in a relation: po, rf, co, fr, addr, data, ctrl, rmw,
 * syncbar, sync_fence (1 or 0; -1 for another name). */
typedef struct sc_execution sc_execution;
int sc_result_execution_count(const sc_result *r);
const sc_execution *sc_result_execution(const sc_result *r, int i);
int sc_execution_event_count(const sc_execution *x);
const char *sc_execution_event(const sc_execution *x, int e);
int sc_execution_event_thread(const sc_execution *x, int e);
int sc_execution_related(const sc_execution *x, const char *relation, int a,
                         int b);

/* Render one DOT digraph to `path` as "svg" or "png" through Graphviz's
 * libgvc; SC_ERR_UNSUPPORTED when scopecat was built without it.  In the
 * calling process: Graphviz 2.42 aborts on some drawings (a double free
 * when it frees their layout), so `scopecat sim` calls it in a child
 * process. */
sc_status sc_dot_render(const char *dot, const char *format, const char *path,
                        sc_error **err);

/* ---- Data races, witnesses and the story of an execution ------------- */

/* The cat include that flags data races, bundled beside the models
 * (cat/ptx-race.cat): after a PTX model (ptx-v7.5.cat or ptx-v6.0.cat,
 * whose morally-strong and cause it reads) it raises SC_FLAG_DATA_RACE
 * when an allowed execution has two conflicting accesses (same location,
 * one a write, different threads) neither morally strong nor ordered by
 * causality order either way (the PTX ISA's data race: not undefined
 * behaviour in PTX, undefined in CUDA C++), and SC_FLAG_SHARED_RACE when
 * two conflicting accesses to .shared memory by threads of one CTA are in
 * one barrier interval (no barrier both take part in separates them; two
 * atomics never race).  It forbids nothing. */
#define SC_RACE_INCLUDE "ptx-race.cat"
#define SC_FLAG_DATA_RACE "data-race"
#define SC_FLAG_SHARED_RACE "shared-race"

/* The model at `path` followed by the cat files `extra` (nextra of them,
 * such as SC_RACE_INCLUDE), as a model file holding `include "PATH"`,
 * then `include "EXTRA"` for each, would be: they see the model's
 * definitions and add their checks and flags.  Its title is the model's;
 * errors in the model name its file.  Includes are searched in
 * include_dirs, then in path's folder.  SC_ERR_USAGE for a path or name
 * holding a quote or a line break. */
sc_status sc_model_load_with_includes(const char *path, const char *const *extra,
                                      int nextra, const char *const *include_dirs,
                                      int ninclude, sc_model **out, sc_error **err);

/* The flags raised in some allowed execution (herd's Flag lines), i from
 * 0 to sc_result_flag_count - 1; NULL for no such flag. */
int sc_result_flag_count(const sc_result *r);
const char *sc_result_flag(const sc_result *r, int i);
/* A raised flag's witness: one allowed execution that raised it (the
 * first one met), and in *a, *b (either may be NULL) the events of the
 * first pair in the relation the flag tested, a < b (a race: the two
 * accesses); *b is -1 when the flag tested a set (*a its first event).
 * NULL (and -1s) when the flag was not raised. */
const struct sc_execution *sc_result_flag_witness(const sc_result *r, const char *flag,
                                                  int *a, int *b);
/* The first allowed execution that decides the condition: a witness of
 * exists or ~exists (its proposition holds: for ~exists, the violation),
 * a counterexample of forall (it fails); NULL when there is none (then
 * every allowed execution satisfies forall, none exists). */
const struct sc_execution *sc_result_condition_witness(const sc_result *r);
/* 1 when the search stopped before it was complete because
 * SC_SPEEDCHECK_VERDICTS had its answers (or FAST its verdict), else 0:
 * then the States are only those found, and a flag not raised, an access
 * out of bounds not found, may still happen. */
int sc_result_stopped_early(const sc_result *r);

/* Event e of an execution as a source access. */
typedef struct sc_access {
  int thread;              /* -1 for an initial write */
  const char *thread_name; /* as the test names it ("P0", "T3"); "init" */
  int instr;               /* the instruction's index in its thread's code */
  const char *file;        /* the test's file (a kernel's .cu, from .file) */
  int line, col;           /* sc_instr's: the .cu line where PTX had .loc */
  char kind;               /* 'R' read, 'W' write, 'F' fence, 'B' barrier */
  const char *mnemonic;    /* the base mnemonic: "ld", "st", "atom" */
  const char *instruction; /* as the test's printer writes it */
  const char *location;    /* its name, NULL for fences and barriers */
  long long value;         /* read or written */
  int value_unknown;       /* 1: not computed, `value` being the initial
                              one (a search with verdicts_only collapsed
                              this cell: sc_sim_options) */
} sc_access;
/* 1 and *out filled for an event of x; 0 for no such event. */
int sc_execution_access(const struct sc_execution *x, int e, sc_access *out);

/* A raised flag's pair in one line: "T0 k.cu:12 st A[0]=1 / T1 k.cu:14
 * ld A[0]=0" (thread, file:line, mnemonic, location=value); NULL when
 * the flag was not raised (or memory ran out). */
const char *sc_result_flag_pair(const sc_result *r, const char *flag);
/* The story of a witness: for `flag`, a first line "FLAG: PAIR" (as
 * sc_result_flag_pair), then per thread of the flag's witness a line
 * "  NAME:" and one line per access, fence and barrier in program order,
 * "    FILE:LINE  INSTRUCTION  reads|writes LOC=VALUE", the pair's two
 * marked "  <- FLAG"; with flag NULL the same for the condition's witness
 * (sc_result_condition_witness) without the first line.  NULL when there
 * is no such witness. */
const char *sc_result_story(const sc_result *r, const char *flag);
/* The witness of `flag` (sc_result_flag_witness), or with flag NULL the
 * condition's (sc_result_condition_witness), drawn as -show draws
 * executions, titled "NAME FLAG" ("NAME condition"), a flag's pair drawn
 * bold both ways; NULL when there is no such witness. */
const char *sc_result_witness_dot(const sc_result *r, const char *flag,
                                  const sc_dot_options *opts);

/* ---- Name selection (PCRE2) ------------------------------------------- */

typedef struct sc_select sc_select;

/* Compile a PCRE2 pattern that selects test names; it matches anywhere in
 * the name unless anchored.  A selection keeps its match data from one
 * match to the next: match with it from one thread at a time. */
sc_status sc_select_compile(const char *pattern, sc_select **out,
                            sc_error **err);
int sc_select_match(const sc_select *sel, const char *name);

/* ---- CUDA programs: litmus tests on Nvidia GPUs ------------------------- */

/* The CUDA program that runs a test on an Nvidia GPU (`scopecat gpu`): the
 * test's PTX as written, one inline asm block per test thread, placed by
 * its scope tree (each thread in a CTA, warp and lane of its own class;
 * shared locations in the shared memory of their CTA), between the harness
 * templates gpu_prelude.cuh and gpu_main.cuh that nvcc finds with -I (the
 * folder `scopecat gpu` installs).  The harness's limits (threads per
 * instance, locations, observed values...) are gpu_limits.h's, in that
 * folder (harness/ in the source tree), and the names the program defines
 * for the templates are gpu_program.h's.  SC_ERR_UNSUPPORTED names what the GPU cannot run (a barrier
 * operand loaded during the run, a surface, texture or constant proxy
 * access, a shared location used across CTAs; "file:line:col: what" where
 * an instruction is to blame), SC_ERR_LIMIT the limit a test is past. */
typedef struct sc_gpu_program sc_gpu_program;

sc_status sc_gpu_generate(const sc_test *t, sc_gpu_program **out,
                          sc_error **err);
/* The program's CUDA source. */
const char *sc_gpu_program_text(const sc_gpu_program *p);
/* What optcheck checks in the compiled kernel: for each test thread, the
 * line of the text that holds its asm block, and the classes of its
 * memory accesses and fences in program order ("L" load, "S" store, "A"
 * atom/red, "F" fence or membar; "" when it has none). */
int sc_gpu_program_thread_count(const sc_gpu_program *p);
int sc_gpu_program_asm_line(const sc_gpu_program *p, int thread);
const char *sc_gpu_program_access_classes(const sc_gpu_program *p,
                                          int thread);

/* ---- Hardware histograms, compared with models ----------------------------- */

/* One Test block of a log.  Two formats are read: litmus7's histogram (by
 * litmus7, the GPU litmus runner of ASPLOS'15 and scopecat's harness): how
 * many runs ended in each final state; and herd7's States (by herd7 and
 * `scopecat sim`): the final states a model allows, without counts. */
typedef struct sc_hist sc_hist;

/* Read every Test block of a log into *out (*count of them).  A malformed
 * block fails the whole log: "file:line:1: expected X, found Y". */
sc_status sc_hist_load_file(const char *path, sc_hist ***out, int *count,
                            sc_error **err);
sc_status sc_hist_load_string(const char *text, const char *filename,
                              sc_hist ***out, int *count, sc_error **err);

const char *sc_hist_name(const sc_hist *h);
const char *sc_hist_file(const sc_hist *h);
int sc_hist_line(const sc_hist *h);        /* the line of its Test line */
int sc_hist_has_counts(const sc_hist *h);  /* 1: a histogram; 0: States */
long sc_hist_instances(const sc_hist *h);  /* the sum of the counts */
int sc_hist_state_count(const sc_hist *h);
/* State i in canonical form: "1:r0=0; x=1;", registers by thread and name,
 * then locations ("[x]" is read as x), integers in decimal. */
const char *sc_hist_state(const sc_hist *h, int i);
long sc_hist_state_instances(const sc_hist *h, int i);
/* 1 when the log marks state i "*>": an outcome the condition is about. */
int sc_hist_state_marked(const sc_hist *h, int i);
/* The condition ("exists (...)"), the device's name, the Hash= value and
 * the test's source as the log prints them; NULL when it does not. */
const char *sc_hist_condition(const sc_hist *h);
const char *sc_hist_device(const sc_hist *h);
const char *sc_hist_hash(const sc_hist *h);
const char *sc_hist_source(const sc_hist *h);
/* Launches that did not finish within the harness's limit ("Hangs NAME
 * LAUNCHES INSTANCES SECONDS" after the block: scopecat's GPU harness),
 * the instances they held and the limit; 0 when none hung.  A model's
 * liveness verdict ("Liveness NAME Pass|Fail", sim -liveness): 1 Pass, 0
 * Fail, -1 when the log has none. */
long sc_hist_hung_launches(const sc_hist *h);
long sc_hist_hung_instances(const sc_hist *h);
double sc_hist_hang_limit(const sc_hist *h);
int sc_hist_liveness(const sc_hist *h);

/* The test a log block ran, among `candidates` (tests read from files):
 * - the source the log prints, when it parses; an equal candidate stands
 *   for it when there is one;
 * - else, when it prints the test without its initial state ("{}", as the
 *   GPU litmus runner did), the candidate of the same name whose
 *   declarations complete it into a test equal to that candidate;
 * - else, when the log prints no source, the one candidate of that name.
 * Fails, saying why, when none fits or the name is ambiguous. */
sc_status sc_hist_find_test(const sc_hist *h,
                            const sc_test *const *candidates, int ncandidates,
                            const sc_test **out, sc_error **err);

/* Whether block h witnesses the condition of test t: *witnessed is 1 when
 * some state it shows (with a count above 0, in a histogram) satisfies
 * the condition's proposition ("exists" or not), variables read from the
 * state by name.  Fails when the condition names a variable the states do
 * not show. */
sc_status sc_hist_witnesses(const sc_hist *h, const sc_test *t,
                            int *witnessed, sc_error **err);

/* A comparison of hardware histograms with the verdicts of models.  Tests
 * are added with their histograms (several logs of one test merge, counts
 * kept per source), then models with their verdicts; each (model, test) is
 * then classified: sound when the model allows every observed outcome,
 * UNSOUND when hardware showed outcomes the model forbids. */
typedef struct sc_compare sc_compare;

sc_compare *sc_compare_new(void);

/* Add histogram `h`, observed on `source` (a GPU, a run: "titan"), of test
 * `t` (NULL when unknown: tests are then told apart by their printed
 * source, else by name).  Returns the test's index. */
int sc_compare_add_hist(sc_compare *c, const char *source, const sc_hist *h,
                        const sc_test *t);
int sc_compare_test_count(const sc_compare *c);
const sc_test *sc_compare_test(const sc_compare *c, int test); /* or NULL */
/* The test's name; when several tests share it, followed by the log that
 * holds it: "CoRR [IRIW_uniproc.txt]". */
const char *sc_compare_test_name(const sc_compare *c, int test);
int sc_compare_source_count(const sc_compare *c);
const char *sc_compare_source(const sc_compare *c, int source);

/* Outcome i of a test: the states observed (sorted), their instances on one
 * source (-1: all), and whether a log marks it "*>". */
int sc_compare_outcome_count(const sc_compare *c, int test);
const char *sc_compare_outcome(const sc_compare *c, int test, int i);
long sc_compare_outcome_instances(const sc_compare *c, int test, int i,
                                  int source);
int sc_compare_outcome_marked(const sc_compare *c, int test, int i);

/* Add a model by label; returns its index.  Its verdict on each test comes
 * from a simulation, or from the blocks of a herd7 log (matched to the
 * tests by Hash=, else by name when that names one test); a test without
 * either has no verdict, for the reason given to sc_compare_set_failure. */
int sc_compare_add_model(sc_compare *c, const char *label);
int sc_compare_model_count(const sc_compare *c);
const char *sc_compare_model(const sc_compare *c, int model);
void sc_compare_set_result(sc_compare *c, int model, int test,
                           const sc_result *r);
void sc_compare_set_verdicts(sc_compare *c, int model,
                             sc_hist *const *blocks, int nblocks);
void sc_compare_set_failure(sc_compare *c, int model, int test,
                            const char *why);
/* The model's liveness verdict on a test (sc_result_liveness of a
 * simulation with sc_sim_options.liveness: 1 Pass, 0 Fail), beside the
 * states set before; the CLI asks for it where a test's launches hung. */
void sc_compare_set_liveness(sc_compare *c, int model, int test, int live);
/* The progress model (sc_progress_name) the liveness verdicts were judged
 * under, said by the reports ("Progress obe" after each model's name in
 * the table, a line under its heading in HTML); NULL (the default): not
 * said, the verdicts being FAIR's or a log's. */
void sc_compare_set_progress(sc_compare *c, const char *name);
const char *sc_compare_progress(const sc_compare *c);

typedef enum sc_verdict {
  SC_VERDICT_NONE,   /* no verdict of the model for this test */
  SC_VERDICT_SOUND,  /* every observed outcome is allowed */
  SC_VERDICT_UNSOUND /* some observed outcome is forbidden */
} sc_verdict;

/* An observed outcome is allowed when the model allows a state that gives
 * the same value to every variable both show. */
sc_verdict sc_compare_verdict(const sc_compare *c, int model, int test);
const char *sc_compare_failure(const sc_compare *c, int model, int test);
int sc_compare_outcome_allowed(const sc_compare *c, int model, int test,
                               int i);
/* The states the model allows that no observed outcome shows. */
int sc_compare_unseen_count(const sc_compare *c, int model, int test);
const char *sc_compare_unseen(const sc_compare *c, int model, int test,
                              int i);
/* Hung launches: a test's over its logs (sc_hist_hung_launches), the
 * instances they held, and the model's liveness verdict from a verdict
 * log or sc_compare_set_liveness (1 Pass, 0 Fail, -1 none).  The table lists each test with a hang
 * beside that verdict, or as an observation when there is none. */
long sc_compare_test_hung_launches(const sc_compare *c, int test);
long sc_compare_test_hung_instances(const sc_compare *c, int test);
int sc_compare_liveness(const sc_compare *c, int model, int test);
/* (model, test) pairs classified UNSOUND, over every model. */
int sc_compare_unsound_count(const sc_compare *c);

/* Reports.  The table of a model: a line per test (name, instances per
 * source, outcomes observed, forbidden, allowed unseen, verdict), totals,
 * then each forbidden outcome with its count; SC_REPORT_DETAIL adds every
 * outcome of every test.  The HTML page is self-contained (inline CSS,
 * SVG bar charts, a script to filter tests by verdict). */
enum { SC_REPORT_DETAIL = 1 };
const char *sc_compare_table(const sc_compare *c, int model, unsigned flags);
const char *sc_compare_html(const sc_compare *c, const char *title);

/* ---- Generation: tests from cycles of edges (diy) ---------------------- */

/* The litmus test whose final condition witnesses a cycle of edges, in
 * diy's vocabulary with GPU annotations (scopecat(1), "gen"): Rfe Fre Coe
 * (.cta: threads in one CTA, .warp: in one warp; default: different CTAs),
 * Rfi Fri Coi, PodXY PosXY, DpAddrdR DpAddrdW DpDatadW DpCtrldR DpCtrldW,
 * Fence<Cta|Gl|Sys|ScGpu|AcqRelCta...><d|s><XY>; an annotation "[ca]",
 * "[relaxed.gpu]" or "[shared]" before an edge qualifies the access it
 * starts from.  Dependencies use the paper's "and 0x80000000" form.  The
 * test is named in diy's style ("mp+membar.gls") unless `name` is given,
 * and its doc line records the cycle. */
sc_status sc_gen_cycle(const char *cycle, const char *name, sc_test **out,
                       sc_error **err);
/* Every cycle of 2 to max_size edges taken from `edges`, once up to
 * rotation, made into a test (cycles that make none are skipped); names
 * are unique within the family. */
sc_status sc_gen_family(const char *const *edges, int nedges, int max_size,
                        sc_test ***out, int *count, sc_error **err);

/* ---- Generation: the litmus test of a data-race-free program's wrong load */

/* How an episode of `scopecat gpu drf`'s program takes and gives back its
 * lock (the program draws it from its seed). */
typedef struct sc_drf_episode {
  int scope;         /* the lock's scope: 0 .cta, 1 .gpu, 2 .sys */
  int ticket;        /* 1: a ticket lock (acquired by a load); 0: CAS */
  int acquire;       /* 1: acquires .acquire; 0: .relaxed, then a fence */
  int release;       /* 1: releases with st.release; 0: a fence, then
                        st.relaxed */
  int acquire_fence; /* 1: a relaxed acquire's fence is there (a fault may
                        drop it) */
  int release_fence; /* 1: a relaxed release's fence is there */
  int load_moved;    /* 1: the reader's load comes after its release (a
                        fault moved it there) */
  int cta;           /* the CTA it ran in */
} sc_drf_episode;

/* What the wrong load saw, in the order of the lock the episodes share. */
typedef enum sc_drf_shape {
  SC_DRF_READ_LATER,     /* the store of an episode after the reader's */
  SC_DRF_MISSED_EARLIER, /* not the store of the episode before it */
  SC_DRF_OVERWRITTEN     /* an earlier episode's store, after its own */
} sc_drf_shape;

/* The two-thread litmus test (Dat3M's PTX dialect) of a wrong load: the
 * reader's episode and the writer's, each reduced to the variable x, the
 * lock word m and their synchronisation, named `name`, `doc` its quoted
 * line; its condition holds when the stale value is read.  *text is the
 * test's source (GC-owned). */
sc_status sc_drf_litmus(sc_drf_shape shape, const sc_drf_episode *reader,
                        const sc_drf_episode *writer, const char *name,
                        const char *doc, const char **text, sc_error **err);

/* ---- Fence advice ---------------------------------------------------------- */

/* For a test whose condition a model allows: every minimal set of fence
 * insertions, at the positions between consecutive accesses of a thread,
 * that makes the model forbid it (no allowed execution where the
 * condition's proposition holds).  Kinds: membar.cta/.gl/.sys, or with
 * ptx_fences fence.acq_rel and fence.sc at .cta/.gpu/.sys.  Minimal: no
 * fix's positions hold another fix's, and no fence of a fix can be made
 * narrower (or acq_rel instead of sc).  Fixes come cheapest first: fewest
 * fences, then narrowest scopes, then weakest semantics.  At most
 * max_fences fences (default SC_FENCES_DEFAULT_MAX) are tried.  Each
 * simulation runs with the options `sim` (engine, limits), and stops at
 * the first execution that shows the condition (for exists and ~exists,
 * herd's -speedcheck fast: only the verdict matters here). */
enum { SC_FENCES_DEFAULT_MAX = 4 };

/* Where a fence search stands, for progress lines: insertion `candidate`
 * (a set of positions, from 1) of the `candidates` that sets of 1 to
 * max_fences positions make, with `fences` fences. */
typedef struct sc_fence_progress {
  long candidate, candidates;
  int fences;
  long simulations;           /* run so far */
  double seconds;             /* since the search began */
} sc_fence_progress;

typedef struct sc_fence_options {
  int ptx_fences;             /* 1: fence.sc/.acq_rel; 0: membar */
  int max_fences;             /* default SC_FENCES_DEFAULT_MAX */
  const sc_sim_options *sim;  /* may be NULL */
  double timeout;             /* seconds for the whole search, 0: none;
                                 past it, SC_ERR_LIMIT ("the -timeout
                                 limit") and no advice */
  /* Called before each simulation and, during long ones, about four times
   * a second; may be NULL.  The library itself never prints. */
  void (*progress)(void *ctx, const sc_fence_progress *where);
  void *progress_ctx;
} sc_fence_options;

typedef enum sc_fence_verdict {
  SC_FENCES_FIXED,            /* some fence sets forbid the condition */
  SC_FENCES_ALREADY_FORBIDDEN,/* the model forbids it without fences */
  SC_FENCES_NONE_SUFFICE,     /* not even the strongest fences at every
                                 position: an RMW or a dependency is needed */
  SC_FENCES_NONE_WITHIN_MAX   /* fences at every position forbid it, but no
                                 set of at most max_fences fences does */
} sc_fence_verdict;

typedef struct sc_fence_advice sc_fence_advice;

sc_status sc_fence_advise(const sc_test *t, const sc_model *m,
                          const sc_fence_options *opts,
                          sc_fence_advice **out, sc_error **err);
sc_fence_verdict sc_fence_advice_verdict(const sc_fence_advice *a);
int sc_fence_advice_positions(const sc_fence_advice *a); /* candidates */
long sc_fence_advice_simulations(const sc_fence_advice *a);
int sc_fence_advice_count(const sc_fence_advice *a);       /* fixes */
int sc_fence_advice_size(const sc_fence_advice *a, int i); /* fences */
/* Fix i in words: "membar.gl in P0 between st.cg.s32 [r8], r3 and ..." */
const char *sc_fence_advice_text(const sc_fence_advice *a, int i);
/* The test with fix i applied, named NAME+KIND@T.L (thread T, line L of
 * its code, from 1). */
const sc_test *sc_fence_advice_test(const sc_fence_advice *a, int i);

/* Empirical fence insertion (Alg. 1 of the fence-insertion study): start
 * with a fence (membar.gl, or with ptx_fences fence.sc.gpu) at every
 * position, binary reduction then linear reduction, each step kept when
 * `check` passes; the result is confirmed with a check of 16 times the
 * iterations, else the reduction restarts with twice as many.  `check`
 * runs a patched test for `iterations` and returns 1 when no error
 * (the condition's outcome) was observed, 0 when one was, -1 on failure.
 * The one fix found (or the verdict) is read as for sc_fence_advise. */
typedef int (*sc_fence_check)(const sc_test *patched, long iterations,
                              void *ctx);
sc_status sc_fence_reduce(const sc_test *t, const sc_fence_options *opts,
                          sc_fence_check check, void *ctx, long iterations,
                          sc_fence_advice **out, sc_error **err);

/* ---- Empirical fences in a program's PTX (`scopecat gpu app -fences`) ---- */

/* A global memory access of a PTX module's functions (.entry and .func
 * bodies): a load, store, atomic or reduction whose state space is .global
 * or generic.  Its source line is that of the plain `.loc` in force (one
 * without inlined_at: an inlined library call counts as the line that
 * called it), its file the `.file` that `.loc` names. */
typedef struct sc_ptx_access {
  size_t offset;          /* just past the access's ';': where a fence goes */
  int line, col;          /* its opcode in the PTX text (from 1) */
  const char *source;     /* the .loc's file, NULL when none is in force */
  int source_line;        /* the .loc's line, 0 when none */
  const char *function;   /* the .entry or .func it is in */
  const char *op;         /* its opcode as written: st.global.u32 */
} sc_ptx_access;

/* The global accesses of PTX `text` (read from `file`, for messages), in
 * the order of the text. */
sc_status sc_ptx_accesses(const char *text, const char *file,
                          sc_ptx_access **out, int *n, sc_error **err);
/* `text` with " FENCE; // scopecat fence I" right after each access i of
 * a[0..n-1] whose keep[i] is not 0 (every one when keep is NULL), the
 * rest byte for byte; `fence` is an instruction without its ';'
 * (fence.sc.gpu, membar.gl).  NULL when memory runs out. */
const char *sc_ptx_fenced(const char *text, const sc_ptx_access *a, int n,
                          const int *keep, const char *fence);

/* Alg. 1 of the fence-insertion study over any n positions (a PTX file's
 * accesses; sc_fence_reduce is it over a litmus test's): with a fence at
 * every position, binary reduction then linear reduction, each step kept
 * when `check` passes, the result confirmed with 16 times the iterations
 * (restarting with twice as many when that fails).  `check` gets the set
 * as flags keep[0..n-1] and returns 1 when no error was observed in
 * `iterations`, 0 when one was, -1 when it could not check (every later
 * check is skipped).  With SC_REDUCE_FIXED kept[0..n-1] holds the reduced
 * set as flags; *checks counts the checks run. */
typedef int (*sc_site_check)(const int *keep, long iterations, void *ctx);
typedef enum sc_reduce_verdict {
  SC_REDUCE_NOT_NEEDED,   /* no fence at all passes */
  SC_REDUCE_NONE_SUFFICE, /* every fence still fails */
  SC_REDUCE_FIXED,        /* kept[] passes the longer check */
  SC_REDUCE_FAILED        /* a check returned -1, or memory ran out */
} sc_reduce_verdict;
sc_reduce_verdict sc_fence_reduce_sites(int n, sc_site_check check, void *ctx,
                                        long iterations, int *kept,
                                        long *checks);

#ifdef __cplusplus
}
#endif
#endif /* SCOPECAT_H */
