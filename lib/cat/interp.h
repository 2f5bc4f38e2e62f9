/* interp.h: the interpreter's inside: values, environments, the context
 * of one evaluation, and the entry points that context.c, value.c, eval.c,
 * prim.c, env.c and run.c share.  Not for use outside the cat layer. */
#ifndef SC_CAT_EVAL_H
#define SC_CAT_EVAL_H

#include "cat/ast.h"

typedef struct cat_env cat_env;
typedef struct cat_thunk cat_thunk;
typedef struct cat_ctx cat_ctx;

/* ---- Types (for messages, and the element type of value sets) ------------ */

typedef enum cat_type_kind {
  TY_EMPTY, TY_UNIV, TY_EVENT, TY_PAIR, TY_EVENTS, TY_REL, TY_TAG, TY_FUN,
  TY_PROC, TY_SET, TY_TUPLE
} cat_type_kind;

typedef struct cat_type {
  cat_type_kind kind;
  const char *tag_type;        /* TY_TAG: the enum's name */
  const struct cat_type *elt;  /* TY_SET */
  int n;                       /* TY_TUPLE */
  const struct cat_type **items;
} cat_type;

/* ---- Values -------------------------------------------------------------- */

typedef struct cat_closure {
  sc_cat_pat pat;
  const sc_cat_exp *body;
  const cat_env *env; /* patched after creation for `let rec` */
  const char *name;
  int id; /* closures compare by identity */
} cat_closure;

typedef struct cat_prim cat_prim;
typedef sc_cat_value *(*cat_prim_fn)(cat_ctx *c, const cat_prim *self,
                                     sc_cat_value *arg, const sc_cat_exp *where);

struct cat_prim {
  const char *name;
  cat_prim_fn fn;
  int id;
};

typedef struct cat_proc {
  const char *name;
  sc_cat_pat pat;
  const sc_cat_prog *body;
  const cat_env *env; /* includes the procedure itself when recursive */
} cat_proc;

struct sc_cat_value {
  sc_cat_kind kind;
  union {
    int event;
    struct { int a, b; } pair;
    const sc_set *set;
    const sc_rel *rel;
    struct { const char *type, *name; } tag;
    /* VALSET: items sorted, distinct */
    struct { const cat_type *elt; int n; sc_cat_value **items; } vs;
    struct { int n; sc_cat_value **items; } tuple;
    cat_closure *clo;
    cat_prim *prim;
    cat_proc *proc;
  } u;
};

/* ---- Environments: persistent lists, newest binding first ---------------- */

typedef enum cat_bind_kind {
  BK_VALUE, /* name -> thunk */
  BK_TAG,   /* tag name -> the enum that declares it */
  BK_ENUM   /* enum name -> its tags */
} cat_bind_kind;

struct cat_env {
  cat_bind_kind kind;
  const char *name;
  cat_thunk *th;          /* BK_VALUE */
  const char *enum_name;  /* BK_TAG */
  const char **tags;      /* BK_ENUM */
  int ntags;
  const cat_env *next;
};

/* A binding's value, computed when first needed (herd's lets are lazy). */
typedef enum cat_thunk_state { TH_DONE, TH_EXP, TH_PROJ, TH_BUSY } cat_thunk_state;

struct cat_thunk {
  cat_thunk_state state;
  sc_cat_value *value;      /* TH_DONE */
  const sc_cat_exp *exp;    /* TH_EXP: evaluated in env */
  const cat_env *env;
  cat_thunk *of;            /* TH_PROJ: component `index` of a tuple thunk */
  int index;
  const char *file;         /* TH_PROJ: where the pattern is, for messages */
  int line, col;
};

/* ---- The caller's base environment (sc_cat_env) -------------------------- */

struct sc_cat_env_entry {
  const char *name;
  unsigned hash;     /* of the name: most lookups compare no strings */
  const sc_set *set; /* exactly one of set and rel */
  const sc_rel *rel;
  bool dynamic;      /* named by sci_cat_env_set_dynamic */
};

/* What sci_cat_run made of the entries for one model, kept for the next
 * evaluation: a caller rebinds a few names per candidate execution (rf,
 * co...), and the bindings of the entries before the first rebound one
 * stay valid. */
/* The most choices a kept `with` set is keyed by (run.c). */
#define SC_CAT_MAX_DYNAMIC_READS 16
#define SC_CAT_MAX_FIXED_READS 32 /* the others, for sharing across environments */

typedef struct cat_env_memo {
  const sc_cat_model *model;
  const cat_env **chain; /* chain[i]: the bindings of entries 0..i */
  int valid;             /* chain[0..valid-1] are up to date */
  int cap;
  /* The thunks of the bindings that depend on no choice (mono.c),
   * kept while the analysis and the fixed entries (static_gen) stay the
   * same: an open-addressing table from binding to thunk. */
  const sc_cat_analysis *kept_for;
  unsigned long kept_gen;
  const sc_cat_bind **kept_binds;
  cat_thunk **kept;
  int nkept, capkept; /* capkept: a power of two, or 0 */
  /* exec.c's compiled form for this environment (NULL: none asked for, or
   * the model has none: exec_tried), with what it was made for */
  struct sc_cat_exec *exec;
  bool exec_tried;
  const sc_cat_model *exec_model;
  const char *const *exec_variants, *const *exec_skips;
  int exec_nentries, exec_nvariants, exec_nskip;
  /* The sets S of a `with x from S` (herd's cos.cat: generate_cos(co0),
   * every order of the writes) kept with the bindings above, by the
   * values of the choices S reads (run.c's with_set) */
  struct cat_with_memo *with;
} cat_env_memo;

struct sc_cat_env {
  int nevents;
  struct sc_cat_env_entry *entries;
  int n, cap;
  const char *usage_error; /* a bad bind, reported by sci_cat_run */
  cat_env_memo *memo;
  const char **dynamic;     /* sci_cat_env_set_dynamic's names */
  int ndynamic;
  unsigned long static_gen; /* bumped when another name is (re)bound */
};

/* For the compiled evaluator (exec.c): whether the set S of `with x from
 * S` (ins), as kept by an earlier interpreted run for the values the names
 * it reads have now (value_of: a name's value now, NULL if unknown),
 * holds own: 1 or 0; -1 when no set is kept for them, or the interpreter
 * should say why not. */
int sci_cat_with_kept_has(const sc_cat_env *env, const sc_cat_run_options *opts,
                          const struct sc_cat_ins *ins, const sc_cat_value *own,
                          const void *(*value_of)(void *ctx, const char *name),
                          void *ctx);

/* ---- The context of one evaluation --------------------------------------- */

struct cat_ctx {
  const sc_cat_model *model;
  const sc_cat_env *base;
  const cat_env *base_env;   /* the base names the model uses, bound */
  int n;                     /* events */
  sc_error *error;           /* the first error, NULL while all is well */
  int app_depth;             /* nested function applications */
  /* The expression sci_cat_eval_exp starts on is in tail position of a
   * function's body: an application there is handed back to the loop
   * of sci_cat_apply (tail_fun, tail_arg, tail_where) */
  bool tail;
  sc_cat_value *tail_fun, *tail_arg;
  const sc_cat_exp *tail_where;
  int run_depth;             /* nested `with ... from` branches */
  int max_fix;               /* iterations allowed per `let rec` */
  int max_app_depth;         /* the model's limits (sc_model_limits), */
  int max_run_depth;         /* defaults filled in */
  double deadline;           /* CLOCK_MONOTONIC seconds; 0: none */
  double timeout;            /* the limit the deadline came from */
  unsigned ticks;            /* calls since the clock was last read */
  const sc_cat_run_options *opts;
  cat_env_memo *memo;        /* the caller's environment's */
  const sc_rel *id, *unv;    /* built on first use, shared, never changed */
  const sc_set *all;
  int next_id;
};

/* Default limits (sc_model_limits changes them) that keep a runaway model
 * from exhausting the C stack. */
#define CAT_MAX_APP_DEPTH 1000
#define CAT_MAX_RUN_DEPTH 200
#define CAT_MIN_MAX_FIX 100 /* let rec rounds: at least this many */
/* Seconds for one execution.  Real models take milliseconds; a recursion
 * that branches (f x = f x | f x) stays within the depth limit and would
 * still run for ages. */
#define CAT_DEFAULT_TIMEOUT 60.0

/* The rounds a `let rec` may take over n events: the evaluation options'
 * limit, else the model's (-max-iterations), else n*n + 2 (at least
 * CAT_MIN_MAX_FIX), enough for any monotone body (run.c). */
int sci_cat_max_fix(const sc_cat_model *m, const sc_cat_run_options *opts, int nevents);

/* Has the model used up its time on this execution (sc_model_limits's
 * timeout)?  Records the error the first time.  Cheap enough to call on
 * every function application: unless `now`, the clock is read one call in
 * 256 (a `let rec` round, which may be long, reads it each time). */
bool sci_cat_out_of_time(cat_ctx *c, bool now, const char *file, int line,
                        int col);

/* Record an error (the first one wins) and return NULL. */
sc_cat_value *sci_cat_fail(cat_ctx *c, sc_status st, const char *file, int line,
                          int col, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
sc_cat_value *sci_cat_fail_at(cat_ctx *c, const sc_cat_exp *e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Shared constants of the context. */
const sc_rel *sci_cat_id(cat_ctx *c);
const sc_rel *sci_cat_unv(cat_ctx *c);
const sc_set *sci_cat_all(cat_ctx *c);

/* ---- value.c --------------------------------------------------------- */

sc_cat_value *sci_cat_v_empty(void);
sc_cat_value *sci_cat_v_univ(void);
sc_cat_value *sci_cat_v_event(int e);
sc_cat_value *sci_cat_v_pair(int a, int b);
sc_cat_value *sci_cat_v_set(const sc_set *s);
sc_cat_value *sci_cat_v_rel(const sc_rel *r);
sc_cat_value *sci_cat_v_tag(const char *type, const char *name);
sc_cat_value *sci_cat_v_tuple(int n, sc_cat_value **items);
/* A value set from items of one type (sorts them, drops duplicates). */
sc_cat_value *sci_cat_v_valset(cat_ctx *c, const cat_type *elt, int n,
                              sc_cat_value **items);

const cat_type *sci_cat_type_of(const sc_cat_value *v);
/* The common type of two, or NULL (herd's eq_type: {} fits any set type). */
const cat_type *sci_cat_type_unify(const cat_type *a, const cat_type *b);
const char *sci_cat_type_name(const cat_type *t);
const char *sci_cat_vtype(const sc_cat_value *v); /* type name of a value */
/* herd's value order; 0 means equal.  Values of different types set
 * c->error (with the position of `where`) and return 0. */
int sci_cat_compare(cat_ctx *c, const sc_cat_value *a, const sc_cat_value *b,
                   const sc_cat_exp *where);
/* A tag becomes the singleton set of that tag; other values are unchanged. */
sc_cat_value *sci_cat_tag2set(cat_ctx *c, sc_cat_value *v);
/* Membership in a sorted value set. */
bool sci_cat_valset_has(cat_ctx *c, const sc_cat_value *set, const sc_cat_value *v);
/* Printable form for messages ("'a", "{'a,'b}", "<relation>"). */
const char *sci_cat_show_value(const sc_cat_value *v);

/* ---- eval.c ---------------------------------------------------------- */

sc_cat_value *sci_cat_eval_exp(cat_ctx *c, const sc_cat_exp *e, const cat_env *env);
sc_cat_value *sci_cat_force(cat_ctx *c, cat_thunk *t);
sc_cat_value *sci_cat_apply(cat_ctx *c, sc_cat_value *f, sc_cat_value *arg,
                           const sc_cat_exp *where);

cat_thunk *sci_cat_thunk_value(sc_cat_value *v);
const cat_env *sci_cat_env_value(const cat_env *env, const char *name, sc_cat_value *v);
const cat_env *sci_cat_env_thunk(const cat_env *env, const char *name, cat_thunk *t);
/* The binding of `name`, or NULL. */
cat_thunk *sci_cat_env_find(const cat_env *env, const char *name);
/* Bind a pattern to a value (tuple patterns take tuple components), for
 * arguments; NULL with an error on an arity mismatch. */
const cat_env *sci_cat_bind_args(cat_ctx *c, const sc_cat_pat *pat, sc_cat_value *v,
                                const cat_env *env, const sc_cat_exp *where);
/* `let` bindings, lazily, in the environment before them. */
const cat_env *sci_cat_bind_lets(cat_ctx *c, const sc_cat_bind *binds, int n,
                                const cat_env *env);
/* `let rec`: functions close over themselves; other bindings are iterated
 * from {} until no value grows.  After each step `check` (if not NULL) runs
 * on the environment; a false result stops the iteration: *check_failed is
 * set and that environment is returned.  NULL on error. */
typedef bool (*cat_rec_check)(cat_ctx *c, const cat_env *env, void *arg);
const cat_env *sci_cat_bind_rec(cat_ctx *c, const sc_cat_bind *binds, int n,
                               const cat_env *env, const char *file, int line,
                               int col, cat_rec_check check, void *check_arg,
                               bool *check_failed);
/* The value of a test's expression as a relation or event set (herd's
 * eval_rel_set), for the tests and for `show`. */
sc_cat_value *sci_cat_eval_rel_or_set(cat_ctx *c, const sc_cat_exp *e,
                                     const cat_env *env);
bool sci_cat_variant_set(cat_ctx *c, const sc_cat_vcond *v);

/* ---- mono.c ---------------------------------------------------------- */

/* Whether binding b depends on no choice (its thunk may be kept). */
bool sci_cat_analysis_is_static(const sc_cat_analysis *a, const sc_cat_bind *b);

/* ---- prim.c ---------------------------------------------------------- */

/* The environment of built-in functions (domain, range, fail...) on top of
 * `env`. */
const cat_env *sci_cat_add_prims(cat_ctx *c, const cat_env *env);
/* Whether `name` is one of those built-in functions. */
bool sci_cat_is_prim(const char *name);

#endif
