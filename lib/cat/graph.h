/* graph.h: a model lowered once into a graph of set and relation nodes
 * (graph.c), the form that the symbolic encoder (symbolic.c) walks instead
 * of the syntax tree.  Not for use outside the cat layer.
 *
 * The lowering decides what the syntax leaves open, once per model and
 * signature of the caller's names: herd's typing (which names are sets,
 * which relations, where {} and _ adapt to their context), which branch of
 * an `if "variant"` runs, the includes, the bell, procedure calls and
 * function applications (inlined: a function's body is lowered with its
 * argument's nodes), and the shape of each `let rec` (a fixpoint node, or
 * a closed form).  What is left is plain data: nodes shared wherever they
 * denote the same value (hash-consed), and the model's tests over them, in
 * the order they run. */
#ifndef SC_CAT_GRAPH_H
#define SC_CAT_GRAPH_H

#include "cat/interp.h"

typedef enum sc_cat_node_kind {
  CN_EMPTY,   /* no event, no pair */
  CN_FULL,    /* every event, every pair */
  CN_INPUT,   /* a symbolic name of the caller's: in[index] */
  CN_CONST,   /* a fixed name of the caller's: the environment's entry `index` */
  CN_UNION, CN_INTER, CN_DIFF, /* a op b, both of the node's type */
  CN_COMP,    /* the complement of a */
  CN_SEQ,     /* relations a ; b */
  CN_PLUS, CN_STAR, CN_OPT, CN_INV, /* of relation a */
  CN_ID,      /* [a]: the identity on event set a */
  CN_PRODUCT, /* event sets a * b */
  CN_DOMAIN, CN_RANGE, /* of relation a */
  CN_FIXVAR,  /* name `index` of `fix`: its value in the round being computed */
  CN_FIX      /* name `index` of `fix`: its value at the least fixpoint */
} sc_cat_node_kind;

typedef struct sc_cat_fix sc_cat_fix;
typedef struct sc_cat_node sc_cat_node;

struct sc_cat_node {
  sc_cat_node_kind kind;
  bool is_set;      /* an event set, else a relation */
  int id;           /* 0..nnodes-1: an operand's id is below its users' */
  const sc_cat_node *a, *b;
  int index;        /* INPUT, CONST, FIXVAR, FIX */
  bool transitive;  /* INPUT: the caller asserts it transitive */
  const char *name; /* INPUT, CONST: the caller's name (for pictures and tests) */
  sc_cat_fix *fix;  /* FIXVAR, FIX */
};

/* A `let rec` of n names: from all-empty values, each round computes
 * next[k] over vars (each name seeing the new values of those before it,
 * as herd's fix_step), until no value changes. */
struct sc_cat_fix {
  int nvars;
  const char **names;
  const sc_cat_node **vars; /* FIXVAR nodes */
  const sc_cat_node **next; /* the next round's values */
  const char *file;
  int line, col;
  /* the ids of the nodes whose value changes from round to round (those
   * that reach vars): sci_cat_fix_deps, on first use; ndeps < 0: not yet */
  int *deps, ndeps;
};

/* One test of the model (a check, flag or undefined_unless) over a node. */
typedef struct sc_cat_axiom {
  const sc_cat_test *test; /* kind, type, negation, name, position */
  const sc_cat_node *node; /* NULL: the value tested is {} */
  bool positive; /* its result is only ever asserted: acyclic may use clocks */
} sc_cat_axiom;

/* A top-level `let` binding that the tests needed, with the node it was
 * lowered to (NULL: {} or _), for the analysis of what depends on the
 * caller's choices (mono.c).  Bindings inside procedures are left out:
 * one binding there may be lowered once per call. */
typedef struct sc_cat_let {
  const sc_cat_bind *bind;
  const sc_cat_node *node;
} sc_cat_let;

typedef struct sc_cat_node_table sc_cat_node_table;

typedef struct sc_cat_graph {
  sc_cat_node **nodes;
  int nnodes, capnodes;
  sc_cat_axiom *axioms; /* in the order they run */
  int naxioms, capaxioms;
  sc_cat_let *lets; /* in the order they were lowered */
  int nlets, caplets;
  /* a `with x from S` over a name of the caller's was taken as holding */
  bool approximate;
  const struct sc_cat_ins **withs; /* those instructions, in order */
  int nwiths, capwiths;
  /* Where the lowering stopped (an unsupported construct, a type error),
   * reported after the axioms before it have run; NULL when it did not. */
  const sc_error *error;
  sc_cat_node_table *table; /* for sharing */
  /* removal.c's answer for the caller's `drop_events_for` (NULL: not
   * asked yet) */
  const struct sc_cat_removal *drop_events_for;
  bool drop_events_safe;
  /* exec.c's compiled form of the graph, for the last event count */
  struct sc_cat_exec *exec;
} sc_cat_graph;

/* Lower model m for a symbolic run over env's names with the inputs
 * symbolic (the signature: which names, sets or relations, transitive)
 * and opts' variants and skipped checks.  Built once per model and
 * signature, then served from the model's cache; never NULL. */
const sc_cat_graph *sci_cat_graph_of(const sc_cat_model *m, const sc_cat_env *env,
                                    const sc_cat_run_options *opts,
                                    const sc_cat_sym_input *in, int nin);

/* Fill fx->deps (once per graph): the ids of the nodes whose value changes
 * from one of fx's rounds to the next, those that reach its variables
 * (through inner fixpoints too). */
void sci_cat_fix_deps(const sc_cat_graph *g, sc_cat_fix *fx);

/* The inputs of a lowering over the caller's choices: the names of dyn
 * that base binds (in[], their dependences in dep[]), how many. */
int sci_cat_choice_inputs(const sc_cat_env *base, const sc_cat_dynamic *dyn, int ndyn,
                         sc_cat_sym_input *in, sc_cat_dep *dep);

/* How tests and messages name a node kind ("union", "fixpoint"...). */
const char *sci_cat_node_kind_name(sc_cat_node_kind k);

/* Whether expression e names `name` anywhere (binders not followed: a
 * name it binds itself counts too). */
bool sci_cat_exp_mentions(const sc_cat_exp *e, const char *name);
/* Whether pred holds of some name expression e names (binders not
 * followed), visited in the order of the syntax tree. */
bool sci_cat_exp_any_name(const sc_cat_exp *e, bool (*pred)(void *ctx, const char *name),
                         void *ctx);

#endif
