/* cat.h: herd7's .cat memory-model language, as scopecat interprets it.
 * A model is parsed once (sc_cat_load_*) and evaluated many times, once per
 * candidate execution (sci_cat_run), against a base environment of named
 * event sets and relations that the caller builds.  This layer knows
 * nothing of PTX or litmus tests: the names it sees come from the model
 * text and the caller's environment. */
#ifndef SC_CAT_H
#define SC_CAT_H

#include "rel/rel.h"
#include "scopecat.h"

#include <stdbool.h>

/* ---- Models -------------------------------------------------------------- */

typedef struct sc_cat_model sc_cat_model;

/* Parse a model and, recursively, the files it includes.  An include is
 * searched in include_dirs (in order), then in the folder of the including
 * file.  On failure *out is NULL and *err says "file:line:col: ...". */
sc_status sci_cat_load_file(const char *path, const char *const *include_dirs,
                           int ninclude, sc_cat_model **out, sc_error **err);
/* The same from a string; `filename` names it in messages and its folder is
 * searched for includes. */
sc_status sci_cat_load_string(const char *text, const char *filename,
                             const char *const *include_dirs, int ninclude,
                             sc_cat_model **out, sc_error **err);

/* herd7's -bell: model m preceded by the bell file at `path` (a new model;
 * m is unchanged).  The bell runs after the prelude and before the model,
 * in the same environment, so its enums (enum scopes), definitions
 * (narrower, wider...) and sets are the model's; its `instructions`
 * declarations are checks of tests that scopecat does not make.  Includes
 * are searched in include_dirs, then in the bell's folder. */
sc_status sci_cat_model_with_bell(const sc_cat_model *m, const char *path,
                                 const char *const *include_dirs, int ninclude,
                                 sc_cat_model **out, sc_error **err);

/* Model m under other limits (sc_model_limits of the public header; the
 * caller has checked them): a copy that shares m's programs. */
sc_cat_model *sci_cat_model_with_limits(const sc_cat_model *m,
                                       const sc_model_limits *limits);

/* The model's title line ("GPU_PTX", "PTX"...); "" when it has none. */
const char *sci_cat_model_title(const sc_cat_model *m);
const char *sci_cat_model_filename(const sc_cat_model *m);
/* Whether the model's text (its includes too) uses `name` anywhere: a
 * caller need not compute a base relation the model never names. */
bool sci_cat_model_names(const sc_cat_model *m, const char *name);
/* Whether the model, bell included, is nothing but includes (its title
 * aside), as sc_model_load_with_includes makes it: then *paths (*n of
 * them) are the files it includes, in order, as found; their own
 * includes are not looked at. */
bool sci_cat_model_only_includes(const sc_cat_model *m, const char ***paths, int *n);

/* How the model first binds `name`, a name of the caller's (co...), in the
 * order it runs: the bell, then the model, includes followed, the branch
 * of each `if "variant"` that opts' variants pick (opts may be NULL);
 * what procedures, forall and match bodies bind is theirs, not looked at. */
typedef enum sc_cat_rebind {
  SC_CAT_KEEPS,     /* it never binds it: the caller's value is used */
  SC_CAT_REBINDS,   /* a `let` whose expression reads the caller's value
                       (Dat3M's `let co = co+`) */
  SC_CAT_REPLACES   /* `with name from S`, a `let rec`, or a `let` that
                       does not read it: the caller's value is not used */
} sc_cat_rebind;
/* *file and *line: where the binding is (NULL and 0 for SC_CAT_KEEPS). */
struct sc_cat_run_options;
sc_cat_rebind sci_cat_model_first_binding(const sc_cat_model *m, const char *name,
                                         const struct sc_cat_run_options *opts,
                                         const char **file, int *line);

/* The bell file's `instructions T[{'a, 'b}]` (and `default`) declarations:
 * how many, the event type T of declaration i ("R", "W", "F"...), and the
 * tags it lets events of that type carry (*tags, *ntags). */
int sci_cat_model_declaration_count(const sc_cat_model *m);
const char *sci_cat_model_declaration(const sc_cat_model *m, int i,
                                     const char *const **tags, int *ntags);

/* ---- The base environment of one candidate execution --------------------- */

typedef struct sc_cat_env sc_cat_env;

/* The most events an environment may have (a relation takes n*n bits). */
#define SC_CAT_MAX_EVENTS 4096

/* Named sets and relations over events 0..nevents-1.  The bind functions
 * copy their argument; binding a name again replaces it.  A value whose n
 * differs from nevents is reported by sci_cat_run (SC_ERR_USAGE). */
sc_cat_env *sci_cat_env_new(int nevents);
int sci_cat_env_nevents(const sc_cat_env *env);
void sci_cat_env_bind_set(sc_cat_env *env, const char *name, const sc_set *s);
void sci_cat_env_bind_rel(sc_cat_env *env, const char *name, const sc_rel *r);

/* The names the caller rebinds from one candidate to the next (rf, co...):
 * rebinding any other name drops what evaluations kept (see `analysis`
 * below). */
void sci_cat_env_set_dynamic(sc_cat_env *env, const char *const *names, int n);

/* ---- Values (what a model's names are bound to) -------------------------- */

typedef struct sc_cat_value sc_cat_value;

typedef enum sc_cat_kind {
  SC_CAT_EMPTY,   /* the polymorphic empty set {} */
  SC_CAT_UNIV,    /* the universe _ (all events, or all pairs) */
  SC_CAT_EVENT,   /* one event (from matching on a set) */
  SC_CAT_PAIR,    /* one pair of events */
  SC_CAT_SET,     /* a set of events */
  SC_CAT_REL,     /* a relation on events */
  SC_CAT_TAG,     /* 'tag of an enum */
  SC_CAT_VALSET,  /* a set of other values (tags, event sets...) */
  SC_CAT_TUPLE,
  SC_CAT_CLOSURE, /* a function of the model */
  SC_CAT_PRIM,    /* a built-in function (domain, range...) */
  SC_CAT_PROC     /* a procedure */
} sc_cat_kind;

sc_cat_kind sci_cat_value_kind(const sc_cat_value *v);
/* The value's type as messages name it: "relation", "event set", "tag of
 * scopes", "set of event set"... */
const char *sci_cat_value_type(const sc_cat_value *v);
/* The value as a relation (EMPTY, UNIV and PAIR convert) or a set (EMPTY,
 * UNIV and EVENT convert) over n events; NULL for any other kind.  The
 * result may be shared: copy it before changing it. */
const sc_rel *sci_cat_value_rel(const sc_cat_value *v, int nevents);
const sc_set *sci_cat_value_set(const sc_cat_value *v, int nevents);

/* ---- Evaluation ---------------------------------------------------------- */


typedef struct sc_cat_check {
  const char *name; /* the `as` name, else e.g. "acyclic@12" */
  const char *file; /* the model file that holds the check */
  int line;
  bool passed;  /* for a flag: its condition held, so the flag was raised */
  bool is_flag; /* flag or undefined_unless: never makes the outcome forbidden */
  bool skipped; /* named in skipchecks: not evaluated, counts as passed */
  const sc_cat_value *value; /* the set or relation tested, NULL if none */
} sc_cat_check;

/* Names bound by the last evaluation, for -show and pictures. */
typedef struct sc_cat_result sc_cat_result;

typedef struct sc_cat_outcome {
  bool allowed;        /* every non-flag check passed (skipped ones excepted) */
  sc_cat_check *checks; /* in evaluation order */
  int nchecks;
  const char **flags;  /* names of the flags raised, each once; as herd,
                          only an allowed outcome reports flags */
  int nflags;
  sc_cat_result *result; /* the final bindings and shows */
} sc_cat_outcome;

typedef struct sc_cat_run_options {
  const char *const *skipchecks; /* check names not to evaluate */
  int nskip;
  int max_fixpoint_iterations; /* per `let rec`; 0 = the model's limit, else
                                  events^2 + 2, at least 100 */
  const char *const *variants; /* variants that `if "name"` sees as set */
  int nvariants;
  bool keep_going; /* evaluate every check after a failed one (herd stops at
                      the first failure: checks and flags after it are not
                      recorded) */
  /* From sci_cat_analyse for this model and environment: the bindings that
   * depend on no choice are kept from one evaluation to the next while the
   * environment's fixed names stay bound to the same values. */
  const struct sc_cat_analysis *analysis;
  /* When nonzero, only these checks run (others, flags and `when` tests
   * are skipped, not recorded): a quick "does one of them fail?". */
  const struct sc_cat_test *const *only;
  int nonly;
  /* The caller reads the outcome (checks, flags) before it rebinds any
   * name or changes these options, and never looks at out->result's
   * values: the evaluation copies neither (the enumerator's hot loop). */
  bool transient;
} sc_cat_run_options;

/* Run the model on one candidate execution.  `opts` may be NULL.  Errors in
 * the model that only evaluation reveals (unbound names, type mismatches,
 * a `let rec` that does not stabilise) come back as "file:line:col: ...". */
sc_status sci_cat_run(const sc_cat_model *m, const sc_cat_env *env,
                      const sc_cat_run_options *opts, sc_cat_outcome *out,
                      sc_error **err);

/* ---- Dependence on the caller's choices (mono.c) --------------------- */

/* The caller numbers its per-candidate choices (inputs 0..7: rf, co...).
 * A value's dependence: the inputs it may grow with as they grow (up) and
 * those it may shrink with (down); an input in both is unknown. */
typedef struct sc_cat_dep {
  uint32_t up, down;
} sc_cat_dep;

/* A base name the caller rebinds per candidate, and how it depends on the
 * inputs (rf: up on rf; fr: up on rf and co; FW: down on co...). */
typedef struct sc_cat_dynamic {
  const char *name;
  sc_cat_dep dep;
} sc_cat_dynamic;

typedef struct sc_cat_analysis sc_cat_analysis;

/* Analyse model m over the names of `base` (its entries, not their values),
 * the other names being fixed.  Checks named in opts->skipchecks, flags and
 * checks the analysis cannot place (inside procedures, after forall, with,
 * match or if instructions) are left out. */
sc_cat_analysis *sci_cat_analyse(const sc_cat_model *m, const sc_cat_env *base,
                                const sc_cat_dynamic *dyn, int ndyn,
                                const sc_cat_run_options *opts);
/* The checks found (i < nchecks): each with the dependence of its failure
 * (a negated test's is flipped), for `only`. */
int sci_cat_analysis_nchecks(const sc_cat_analysis *a);
const struct sc_cat_test *sci_cat_analysis_check(const sc_cat_analysis *a, int i,
                                                sc_cat_dep *dep);

/* The checks found that order pairs (i < norders): each a check (not a
 * flag: a flag never forbids), not negated, whose lowered form is
 * `empty (E \ (c | c^-1))` with c the caller's relation *input or its
 * closure input+, and E depending on none of the inputs (its value is
 * fixed by the other names).  An execution the model allows has every
 * pair of E in c or c^-1; the interpreter's value of the check on an
 * execution where *input is empty is E itself (empty+ is empty).  None
 * when the lowering took a `with ... from` as holding. */
int sci_cat_analysis_norders(const sc_cat_analysis *a);
const struct sc_cat_test *sci_cat_analysis_order(const sc_cat_analysis *a, int i,
                                                const char **input);

/* What the caller knows of its names when events are taken out of an
 * execution, the remaining ones keeping their pairs of every name but
 * those of `shrinking`, which may lose some; the names of `kept` hold
 * only events that are never taken out (the writes, say).  The flags of
 * `vouched` are the caller's to answer for: it has shown that such a flag
 * raised on the longer execution is raised on the shorter one too (for the
 * events it takes out and the model it names: sim/repeat_gate.c). */
typedef struct sc_cat_removal {
  const char *const *shrinking;
  int nshrinking;
  const char *const *kept;
  int nkept;
  const char *const *vouched;
  int nvouched;
} sc_cat_removal;

/* Whether taking events out of any execution that m allows (over base's
 * names, dyn's being the choices as for sci_cat_analyse) as `how` says
 * (a static table: the answer is kept per model, signature and `how`)
 * leaves one that m allows: each check of m is a plain acyclic,
 * irreflexive or empty test of a value that only shrinks with the events
 * (removal.c says which values do), and each flag tests {}.  False for a
 * negated check and for a model that cannot be lowered. */
bool sci_cat_model_drop_events_safe(const sc_cat_model *m, const sc_cat_env *base,
                                   const sc_cat_dynamic *dyn, int ndyn,
                                   const sc_cat_removal *how,
                                   const sc_cat_run_options *opts);

/* Whether some check of m (a plain `acyclic`, not negated, not a flag)
 * forbids every cycle of the union of the caller's relations `names`
 * (over base's names, dyn's being the choices, as for
 * sci_cat_model_drop_events_safe): its value holds each of them, through
 * unions and closures (cycles.c).  False for a model that cannot be
 * lowered. */
bool sci_cat_model_forbids_cycles(const sc_cat_model *m, const sc_cat_env *base,
                                  const sc_cat_dynamic *dyn, int ndyn,
                                  const char *const *names, int nnames,
                                  const sc_cat_run_options *opts);

/* Whether some flag or undefined_unless test of the model (its includes,
 * procedures and branches too) may raise a flag; skipped ones do not. */
bool sci_cat_model_may_flag(const sc_cat_model *m, const sc_cat_run_options *opts);

/* The final value of a top-level name, forcing it if the model never used
 * it.  *out is NULL when the name is unbound.  Forcing may fail (the
 * binding has an error the evaluation never reached).  A result keeps its
 * own copy of the base environment and options, so it stays valid after
 * the caller rebinds names; it is not safe to use from two threads. */
sc_status sci_cat_result_lookup(const sc_cat_result *r, const char *name,
                               const sc_cat_value **out, sc_error **err);
/* What `show` statements asked for, in order (unshow removes). */
int sci_cat_result_nshows(const sc_cat_result *r);
const char *sci_cat_result_show_name(const sc_cat_result *r, int i);
sc_status sci_cat_result_show_value(const sc_cat_result *r, int i,
                                   const sc_cat_value **out, sc_error **err);

/* Names of m that match nothing (names_check.c), found without running
 * it: a name used that neither m (prelude, bell, includes, every branch),
 * a primitive nor `base` binds; a name of opts->skipchecks (opts may be
 * NULL) that no check carries; one of opts->variants that no `if` tests.
 * "file:line:col: warning: ..." each, *n of them. */
const char **sci_cat_model_warnings(const sc_cat_model *m, const sc_cat_env *base,
                                   const sc_cat_run_options *opts, int *n);

/* ---- Symbolic runs (symbolic.c) -------------------------------------- */

/* A Boolean of the caller's making (the sim layer's solver terms), or one
 * of the constants SC_CAT_TRUE and SC_CAT_FALSE (NULL), which symbolic.c
 * folds itself: the callbacks never see a constant. */
typedef const void *sc_cat_bool;
extern const char sci_cat_true_[1];
#define SC_CAT_TRUE ((sc_cat_bool)sci_cat_true_)
#define SC_CAT_FALSE ((sc_cat_bool)NULL)

typedef struct sc_cat_bool_ops {
  void *ctx;
  sc_cat_bool (*and_)(void *ctx, sc_cat_bool a, sc_cat_bool b);
  sc_cat_bool (*or_)(void *ctx, sc_cat_bool a, sc_cat_bool b);
  sc_cat_bool (*not_)(void *ctx, sc_cat_bool a);
  /* A Boolean that the caller only ever asserts, implying that the n x n
   * relation m (row-major, constants allowed) is acyclic (clocks). */
  sc_cat_bool (*acyclic)(void *ctx, int n, const sc_cat_bool *m);
  /* Whether a[i] <=> b[i] for every i < n, whatever the choices. */
  bool (*equivalent)(void *ctx, int n, const sc_cat_bool *a, const sc_cat_bool *b);
} sc_cat_bool_ops;

/* a AND b, a OR b, NOT a through ops, constants folded: the one folding
 * of the model's symbolic run and of its caller's own terms. */
sc_cat_bool sci_cat_bool_and(const sc_cat_bool_ops *ops, sc_cat_bool a, sc_cat_bool b);
sc_cat_bool sci_cat_bool_or(const sc_cat_bool_ops *ops, sc_cat_bool a, sc_cat_bool b);
sc_cat_bool sci_cat_bool_not(const sc_cat_bool_ops *ops, sc_cat_bool a);

/* A base name bound to a symbolic value: n (set) or n * n entries. */
typedef struct sc_cat_sym_input {
  const char *name;
  bool is_set;
  const sc_cat_bool *m;
  bool transitive; /* the caller asserts it transitive: r+ is r itself */
} sc_cat_sym_input;

typedef struct sc_cat_sym_flag {
  const char *name;
  sc_cat_bool when; /* the flag is raised when this holds */
} sc_cat_sym_flag;

typedef struct sc_cat_sym_outcome {
  sc_cat_bool allowed; /* every non-flag check, skipped ones aside, passes */
  /* allowed (and each flag's run) over-approximates: a `with x from S` over
   * a name of the caller's was taken as holding; whether S holds the
   * execution's own x is for the concrete run (sci_cat_run) to say */
  bool approximate;
  sc_cat_sym_flag *flags; /* one per flag test, in the order they run */
  int nflags;
} sc_cat_sym_outcome;

/* Run the model over env's events with the inputs' names symbolic (they
 * hide env's bindings of the same names).  A construct that cannot be
 * encoded (an enum, `with x from S` over a name the model binds, forall,
 * match, a non-monotone let rec...) is SC_ERR_UNSUPPORTED, naming it and
 * its file:line. */
sc_status sci_cat_run_symbolic(const sc_cat_model *m, const sc_cat_env *env,
                              const sc_cat_run_options *opts,
                              const sc_cat_bool_ops *ops,
                              const sc_cat_sym_input *in, int nin,
                              sc_cat_sym_outcome *out, sc_error **err);

#endif
