/* ast.h: the tokens and syntax tree of the cat language, shared by the
 * lexer, the parser and the interpreter.  Plain data: building and reading
 * it is the other files' business.  Names in the tree are interned in the
 * model's symbol table, so the interpreter compares them as pointers. */
#ifndef SC_CAT_AST_H
#define SC_CAT_AST_H

#include "cat/cat.h"

/* ---- Tokens -------------------------------------------------------------- */

typedef enum sc_cat_tok {
  CT_EOF, CT_VAR, CT_TAG, CT_STRING, CT_DOC, /* DOC: a {% ... %} block */
  /* punctuation */
  CT_LPAR, CT_RPAR, CT_LACC, CT_RACC, CT_LBRAC, CT_RBRAC, CT_UNDERSCORE,
  CT_EMPTY, /* 0 */
  CT_UNION, CT_ALT, CT_INTER, CT_LAND, CT_STAR, CT_COMP, CT_PLUS, CT_PLUSPLUS,
  CT_HAT, CT_INV, CT_DIFF, CT_OPT, CT_EQUAL, CT_SEMI, CT_COMMA, CT_ARROW,
  /* keywords */
  CT_LET, CT_REC, CT_AND, CT_WHEN, CT_ACYCLIC, CT_IRREFLEXIVE, CT_SHOW,
  CT_UNSHOW, CT_TESTEMPTY, CT_SUBSET, CT_AS, CT_FUN, CT_IN, CT_REQUIRES,
  CT_FLAG, CT_ASSERT, CT_INCLUDE, CT_VARIANT, CT_BEGIN, CT_END, CT_PROCEDURE,
  CT_CALL, CT_ENUM, CT_DEBUG, CT_MATCH, CT_WITH, CT_FORALL, CT_FROM, CT_DO,
  CT_TRY, CT_IF, CT_THEN, CT_ELSE, CT_CATDEP, CT_INSTRUCTIONS, CT_DEFAULT,
  CT_NOT
} sc_cat_tok;

typedef struct sc_cat_token {
  sc_cat_tok kind;
  const char *text; /* VAR and TAG: the name; STRING: the contents */
  int line, col;
} sc_cat_token;

/* Split a model's text into tokens ending with CT_EOF. */
sc_status sci_cat_lex(const char *file, const char *src, sc_cat_token **out,
                     int *ntoks, sc_error **err);
/* How messages show a token kind ("'|'", "keyword 'let'", "a name"). */
const char *sci_cat_tok_spelling(sc_cat_tok kind);
/* How messages show one token ("'po'", "keyword 'let'", "end of file"). */
const char *sci_cat_token_describe(const sc_cat_token *tk);

/* ---- Expressions --------------------------------------------------------- */

typedef enum sc_cat_exp_kind {
  EX_EMPTY_REL,    /* 0 */
  EX_UNIV,         /* _ */
  EX_TAG,          /* 'name */
  EX_VAR,          /* name */
  EX_EXPLICIT_SET, /* {e1, e2} */
  EX_TUPLE,        /* (e1, e2), () */
  EX_OP1,          /* op1 e */
  EX_UNION,        /* e1 | e2 | ... (flattened) */
  EX_SEQ,          /* e1 ; e2 ; ... (flattened) */
  EX_INTER, EX_DIFF, EX_CARTESIAN, EX_ADD, /* binary: & \ * ++ */
  EX_APP,          /* f arg */
  EX_FUN,          /* fun pat -> body */
  EX_BIND,         /* let binds in body */
  EX_BINDREC,      /* let rec binds in body */
  EX_MATCH,        /* match e with 'tag -> e || _ -> e end */
  EX_MATCHSET,     /* match e with {} -> e || x ++ s -> e end */
  EX_TRY,          /* try e with e */
  EX_IF            /* if cond then e else e */
} sc_cat_exp_kind;

typedef enum sc_cat_op1 {
  OP1_PLUS, OP1_STAR, OP1_OPT, OP1_INV, OP1_COMP, OP1_TOID /* [e] */
} sc_cat_op1;

/* A binding pattern: one name (or '_', NULL) or a tuple of them. */
typedef struct sc_cat_pat {
  bool is_tuple;
  int n;
  const char **names; /* NULL entries stand for '_' */
} sc_cat_pat;

typedef struct sc_cat_exp sc_cat_exp;

typedef struct sc_cat_bind {
  int line, col;
  sc_cat_pat pat;
  sc_cat_exp *exp;
} sc_cat_bind;

typedef enum sc_cat_cond_kind {
  COND_EQ, COND_SUBSET, COND_IN, COND_VARIANT
} sc_cat_cond_kind;

/* A variant condition: "name", not c, c && c, c || c. */
typedef struct sc_cat_vcond {
  enum { VC_NAME, VC_NOT, VC_AND, VC_OR } kind;
  const char *name;
  struct sc_cat_vcond *a, *b;
} sc_cat_vcond;

struct sc_cat_exp {
  sc_cat_exp_kind kind;
  const char *file;
  int line, col;
  sc_cat_op1 op1;      /* EX_OP1 */
  const char *name;    /* EX_VAR, EX_TAG; EX_FUN: the function's name */
  sc_cat_exp **args;   /* operands, set elements, tuple items; APP: f, arg */
  int nargs;
  sc_cat_pat pat;      /* EX_FUN */
  sc_cat_exp *body;    /* EX_FUN, EX_BIND(REC), EX_TRY (the `with` part) */
  sc_cat_bind *binds;  /* EX_BIND(REC) */
  int nbinds;
  /* EX_MATCH: clauses on tags, then an optional default */
  const char **tags;
  sc_cat_exp **cases;
  int ncases;
  sc_cat_exp *dflt;
  /* EX_MATCHSET: args[0] the matched set; `empty_case` for {}; the element
   * clause binds x ++ rest, or pre | x ++ post when `pre` is set */
  sc_cat_exp *empty_case, *elt_case;
  const char *elt_pre, *elt_x, *elt_rest; /* names, NULL for '_' */
  bool elt_has_pre;
  /* EX_IF */
  sc_cat_cond_kind cond;
  sc_cat_exp *c1, *c2;  /* the compared expressions */
  sc_cat_vcond *vcond;
  sc_cat_exp *ifso, *ifnot;
};

/* ---- Instructions -------------------------------------------------------- */

typedef enum sc_cat_ins_kind {
  IN_LET, IN_REC, IN_TEST, IN_SHOW, IN_SHOWAS, IN_UNSHOW, IN_INCLUDE,
  IN_PROCEDURE, IN_CALL, IN_ENUM, IN_DEBUG, IN_FORALL, IN_WITHFROM,
  IN_EVENTS, IN_MATCH, IN_IFVARIANT, IN_DOC
} sc_cat_ins_kind;

typedef enum sc_cat_test_kind {
  TEST_ACYCLIC, TEST_IRREFLEXIVE, TEST_EMPTY
} sc_cat_test_kind;
typedef enum sc_cat_test_type {
  TT_CHECK, TT_UNDEFINED_UNLESS, TT_FLAG, TT_ASSERT
} sc_cat_test_type;

typedef struct sc_cat_test {
  int line, col;
  sc_cat_test_type type;
  sc_cat_test_kind kind;
  bool negated; /* ~acyclic ... */
  sc_cat_exp *exp;
  const char *name; /* `as` name or NULL */
} sc_cat_test;

typedef struct sc_cat_prog sc_cat_prog;
typedef struct sc_cat_ins sc_cat_ins;

struct sc_cat_prog {
  const char *file;
  sc_cat_ins **ins;
  int n;
};

struct sc_cat_ins {
  sc_cat_ins_kind kind;
  const char *file;
  int line, col;
  /* IN_LET, IN_REC */
  sc_cat_bind *binds;
  int nbinds;
  bool is_default;      /* prelude binding: skipped when the caller binds the name */
  sc_cat_test *test;    /* IN_TEST; IN_REC: the optional `when` test */
  const char **names;   /* IN_SHOW, IN_UNSHOW: names; IN_ENUM: tags */
  int nnames;
  const char *name;     /* SHOWAS, PROCEDURE, CALL, ENUM, FORALL, WITHFROM,
                           EVENTS: the name */
  const char *as_name;  /* IN_CALL: the `as` name */
  sc_cat_exp *exp;      /* SHOWAS, DEBUG, MATCH; CALL: the argument;
                           FORALL, WITHFROM: the set */
  sc_cat_exp **exps;    /* IN_EVENTS */
  int nexps;
  sc_cat_pat pat;       /* IN_PROCEDURE */
  bool is_rec;          /* IN_PROCEDURE */
  sc_cat_prog body;     /* PROCEDURE, FORALL; IFVARIANT: the `then` part */
  sc_cat_prog other;    /* IFVARIANT: the `else` part */
  sc_cat_vcond *vcond;  /* IFVARIANT */
  const char **tags;    /* IN_MATCH clauses */
  sc_cat_prog *cases;
  int ncases;
  sc_cat_prog *dflt;
  const sc_cat_prog *included; /* IN_INCLUDE: the parsed file */
  const char *text;     /* IN_INCLUDE: the file name as written; IN_DOC: the text */
};

/* ---- Models -------------------------------------------------------------- */

/* Interned names: equal names are the same pointer. */
typedef struct sc_cat_symtab {
  const char **slots;
  int cap, count;
} sc_cat_symtab;

const char *sci_cat_intern(sc_cat_symtab *t, const char *name);
/* The interned copy of `name`, or NULL when no model text used it. */
const char *sci_cat_symbol(const sc_cat_symtab *t, const char *name);

struct sc_cat_model {
  const char *filename;
  const char *title;
  sc_cat_prog prelude; /* scopecat's herd stdlib defaults, run first */
  sc_cat_prog bell;    /* herd's -bell file, run next (often empty) */
  sc_cat_prog prog;
  sc_cat_symtab *syms;
  sc_model_limits limits; /* zero fields: the defaults of interp.h */
  /* the model lowered for symbolic runs (graph.c), one per signature of
   * the caller's names, built on first use; a copy starts without */
  struct sc_cat_graph_cache *graphs;
  /* the sets of `with x from S` kept across environments, by the values
   * of every name of the caller's S reads (run.c's shared_set) */
  struct cat_with_shared *with_shared;
};

/* Parse one file's text (no include resolved: load.c does that).
 * *title gets the model's identity line, "" when absent. */
sc_status sci_cat_parse(const char *file, const char *text, sc_cat_symtab *syms,
                       const char **title, sc_cat_prog *out, sc_error **err);

/* The text of the built-in prelude (see prelude.c). */
extern const char sci_cat_prelude_text[];

#endif
