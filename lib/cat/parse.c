/* parse.c: the parser of .cat models, from tokens to the syntax tree of
 * ast.h, following herd7's modelParser.mly.  It does not read files or
 * resolve includes (load.c does) and evaluates nothing.
 *
 * Operators, as modelParser.mly declares them (lowest first):
 *
 *   %right UNION                 a | b
 *   %right PLUSPLUS              a ++ b
 *   %right SEMI                  a ; b
 *   %left  DIFF                  a \ b
 *   %right INTER                 a & b
 *   %nonassoc STAR PLUS OPT COMP a * b, a*, a+, a?, ~a
 *   %nonassoc HAT                a^-1
 *
 * Application (f x, f(x, y)) binds tighter than all of them, and a tuple
 * (a, b) is looser: its items are whole operator expressions.  So
 * "a | b ; c" is a | (b;c), "a ; b \ c" is a ; (b\c), "a & b \ c" is
 * (a&b) \ c.  The parser below is a precedence climber that takes the same
 * decisions as the LR tables yacc builds from those declarations, including
 * their errors: operators of one %nonassoc level do not combine, so herd
 * rejects "~a*", "a*b*c" and "a * ~b", and so do we.  A '*' followed by
 * something that can start an operand is the cartesian product; otherwise
 * it is the postfix reflexive-transitive closure. */
#include "cat/ast.h"

#include "util/error.h"
#include "util/gcmem.h"

#include <stdarg.h>
#include <string.h>

/* Deeper nesting than this is refused rather than risking the C stack. */
#define MAX_NESTING 200

typedef struct parser {
  const char *file;
  sc_cat_token *toks;
  int pos;
  sc_cat_symtab *syms;
  sc_error **err;
  bool failed;
  int depth;
} parser;

/* ---- Tokens -------------------------------------------------------------- */

static const sc_cat_token *peek(const parser *p) { return &p->toks[p->pos]; }

static sc_cat_tok peek_kind(const parser *p) { return p->toks[p->pos].kind; }

static sc_cat_tok peek_kind2(const parser *p) {
  return p->toks[p->pos].kind == CT_EOF ? CT_EOF : p->toks[p->pos + 1].kind;
}

static const sc_cat_token *next(parser *p) {
  const sc_cat_token *tk = &p->toks[p->pos];
  if (tk->kind != CT_EOF)
    p->pos++;
  return tk;
}

static bool accept(parser *p, sc_cat_tok kind) {
  if (peek_kind(p) != kind)
    return false;
  next(p);
  return true;
}

/* Report "expected WHAT, found TOKEN" at the current token (first error
 * only) and return NULL so that callers can write `return error(...)`. */
static void *error_at(parser *p, const sc_cat_token *tk, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void *error_at(parser *p, const sc_cat_token *tk, const char *fmt, ...) {
  if (!p->failed) {
    va_list ap;
    va_start(ap, fmt);
    char *what = sci_vprintf(fmt, ap);
    va_end(ap);
    sci_fail(p->err, SC_ERR_SYNTAX, p->file, tk->line, tk->col, "%s", what);
    p->failed = true;
  }
  return NULL;
}

static void *expected(parser *p, const char *what) {
  return error_at(p, peek(p), "expected %s, found %s", what,
                  sci_cat_token_describe(peek(p)));
}

/* Consume a token of `kind` or fail with "expected <what>". */
static const sc_cat_token *expect(parser *p, sc_cat_tok kind, const char *what) {
  if (peek_kind(p) != kind)
    return expected(p, what ? what : sci_cat_tok_spelling(kind));
  return next(p);
}

/* "expected ')' closing the '(' at 3:7" */
static const sc_cat_token *expect_closing(parser *p, sc_cat_tok kind,
                                          const sc_cat_token *open) {
  if (peek_kind(p) == kind)
    return next(p);
  return expected(p, sci_printf("%s closing the %s at %d:%d",
                               sci_cat_tok_spelling(kind),
                               sci_cat_tok_spelling(open->kind), open->line,
                               open->col));
}

static const char *name_of(parser *p, const sc_cat_token *tk) {
  return sci_cat_intern(p->syms, tk->text);
}

static const char *expect_name(parser *p, const char *what) {
  const sc_cat_token *tk = expect(p, CT_VAR, what);
  return tk ? name_of(p, tk) : NULL;
}

static bool enter(parser *p) {
  if (++p->depth > MAX_NESTING) {
    error_at(p, peek(p), "expected at most %d levels of nesting, found more",
             MAX_NESTING);
    return false;
  }
  return true;
}

static void leave(parser *p) { p->depth--; }

/* ---- Growable arrays of pointers ----------------------------------------- */

typedef struct ptrs {
  void **items;
  int n, cap;
} ptrs;

static void push_ptr(ptrs *a, void *x) {
  sci_grow(&a->items, &a->cap, a->n + 1, sizeof(void *));
  a->items[a->n++] = x;
}

/* ---- Expressions --------------------------------------------------------- */

static sc_cat_exp *parse_exp(parser *p);
static sc_cat_exp *parse_base(parser *p, int prec, int assoc,
                              const sc_cat_token *ctx_op);

static sc_cat_exp *new_exp_at(parser *p, sc_cat_exp_kind kind, int line, int col) {
  sc_cat_exp *e = sci_alloc(sizeof *e);
  e->kind = kind;
  e->file = p->file;
  e->line = line;
  e->col = col;
  return e;
}

static sc_cat_exp *new_exp(parser *p, sc_cat_exp_kind kind, const sc_cat_token *at) {
  return new_exp_at(p, kind, at->line, at->col);
}

static sc_cat_exp *new_op1(parser *p, sc_cat_op1 op, const sc_cat_token *at,
                           sc_cat_exp *arg) {
  sc_cat_exp *e = new_exp(p, EX_OP1, at);
  e->op1 = op;
  e->args = sci_alloc(sizeof *e->args);
  e->args[0] = arg;
  e->nargs = 1;
  return e;
}

static sc_cat_exp *new_binary(parser *p, sc_cat_exp_kind kind,
                              const sc_cat_token *at, sc_cat_exp *a,
                              sc_cat_exp *b) {
  sc_cat_exp *e = new_exp(p, kind, at);
  e->args = sci_alloc(2 * sizeof *e->args);
  e->args[0] = a;
  e->args[1] = b;
  e->nargs = 2;
  return e;
}

/* Union and sequence are n-ary, like herd's do_op: nested operands of the
 * same operator are flattened. */
static sc_cat_exp *new_nary(parser *p, sc_cat_exp_kind kind,
                            const sc_cat_token *at, sc_cat_exp *a,
                            sc_cat_exp *b) {
  ptrs items = {0};
  sc_cat_exp *sides[2] = {a, b};
  for (int s = 0; s < 2; s++) {
    if (sides[s]->kind == kind)
      for (int i = 0; i < sides[s]->nargs; i++)
        push_ptr(&items, sides[s]->args[i]);
    else
      push_ptr(&items, sides[s]);
  }
  sc_cat_exp *e = new_exp(p, kind, at);
  if (a->kind == kind) { /* keep the position of the first operator */
    e->line = a->line;
    e->col = a->col;
  }
  e->args = (sc_cat_exp **)items.items;
  e->nargs = items.n;
  return e;
}

/* Tokens that can start an operand of an operator (herd's `base`). */
static bool starts_base(sc_cat_tok k) {
  switch (k) {
  case CT_VAR: case CT_EMPTY: case CT_TAG: case CT_LACC: case CT_UNDERSCORE:
  case CT_LPAR: case CT_BEGIN: case CT_LBRAC: case CT_COMP:
    return true;
  default:
    return false;
  }
}

/* Tokens that can start a function argument (herd's `arg`). */
static bool starts_arg(sc_cat_tok k) { return k != CT_COMP && starts_base(k); }

/* Comma-separated operands up to `close` (which is not consumed), for
 * {a, b} and bell's instructions R[...]. */
static bool parse_base_list(parser *p, sc_cat_tok close, sc_cat_exp ***out, int *n) {
  ptrs items = {0};
  if (peek_kind(p) != close) {
    do {
      sc_cat_exp *e = parse_base(p, 0, 0, NULL);
      if (!e)
        return false;
      push_ptr(&items, e);
    } while (accept(p, CT_COMMA));
  }
  *out = (sc_cat_exp **)items.items;
  *n = items.n;
  return true;
}

/* An expression and the token that closes the group `open` began: ')',
 * 'end' or ']'. */
static sc_cat_exp *parse_enclosed(parser *p, sc_cat_tok closing,
                                  const sc_cat_token *open) {
  sc_cat_exp *inner = parse_exp(p);
  if (!inner || !expect_closing(p, closing, open))
    return NULL;
  return inner;
}

/* herd's `simple`: constants, {..}, (..), begin .. end, [..]. */
static sc_cat_exp *parse_simple(parser *p) {
  const sc_cat_token *tk = peek(p);
  sc_cat_exp *e, *inner;
  switch (tk->kind) {
  case CT_EMPTY:
    next(p);
    return new_exp(p, EX_EMPTY_REL, tk);
  case CT_UNDERSCORE:
    next(p);
    return new_exp(p, EX_UNIV, tk);
  case CT_TAG:
    next(p);
    e = new_exp(p, EX_TAG, tk);
    e->name = name_of(p, tk);
    return e;
  case CT_LACC:
    next(p);
    e = new_exp(p, EX_EXPLICIT_SET, tk);
    if (!parse_base_list(p, CT_RACC, &e->args, &e->nargs) ||
        !expect_closing(p, CT_RACC, tk))
      return NULL;
    return e;
  case CT_LPAR:
    next(p);
    if (accept(p, CT_RPAR))
      return new_exp(p, EX_TUPLE, tk); /* () */
    return parse_enclosed(p, CT_RPAR, tk);
  case CT_BEGIN:
    next(p);
    return parse_enclosed(p, CT_END, tk);
  case CT_LBRAC:
    next(p);
    inner = parse_enclosed(p, CT_RBRAC, tk);
    return inner ? new_op1(p, OP1_TOID, tk, inner) : NULL;
  default:
    return expected(p, "an expression");
  }
}

static sc_cat_exp *parse_var(parser *p) {
  const sc_cat_token *tk = next(p);
  sc_cat_exp *e = new_exp(p, EX_VAR, tk);
  e->name = name_of(p, tk);
  return e;
}

/* An operand: a simple expression, or a name applied to arguments
 * (herd's exp0: application is by juxtaposition, left-associative). */
static sc_cat_exp *parse_primary(parser *p) {
  if (peek_kind(p) != CT_VAR)
    return parse_simple(p);
  sc_cat_exp *e = parse_var(p);
  while (starts_arg(peek_kind(p))) {
    sc_cat_exp *arg = peek_kind(p) == CT_VAR ? parse_var(p) : parse_simple(p);
    if (!arg)
      return NULL;
    sc_cat_exp *app = new_exp_at(p, EX_APP, e->line, e->col);
    app->args = sci_alloc(2 * sizeof *app->args);
    app->args[0] = e;
    app->args[1] = arg;
    app->nargs = 2;
    e = app;
  }
  return e;
}

enum { ASSOC_LEFT = 1, ASSOC_RIGHT, ASSOC_NONASSOC };

#define PREC_COMP 6

/* The precedence (1 = loosest) of a token used as an infix or postfix
 * operator, 0 when it is none. */
static int operator_prec(sc_cat_tok k, int *assoc) {
  switch (k) {
  case CT_UNION: *assoc = ASSOC_RIGHT; return 1;
  case CT_PLUSPLUS: *assoc = ASSOC_RIGHT; return 2;
  case CT_SEMI: *assoc = ASSOC_RIGHT; return 3;
  case CT_DIFF: *assoc = ASSOC_LEFT; return 4;
  case CT_INTER: *assoc = ASSOC_RIGHT; return 5;
  case CT_STAR: case CT_PLUS: case CT_OPT: *assoc = ASSOC_NONASSOC; return 6;
  case CT_HAT: *assoc = ASSOC_NONASSOC; return 7;
  default: return 0;
  }
}

static void *nonassoc_error(parser *p, const sc_cat_token *op,
                            const sc_cat_token *ctx_op) {
  return error_at(p, op,
                  "expected parentheses: '%s' (at %d:%d) and '%s' do not "
                  "associate in herd's grammar, found '%s'",
                  ctx_op ? ctx_op->text : "?", ctx_op ? ctx_op->line : 0,
                  ctx_op ? ctx_op->col : 0, op->text, op->text);
}

/* Parse an operand of an operator of precedence `prec` and associativity
 * `assoc` (0 at the top).  Following the LR tables: an operator binding
 * tighter than `prec` is taken into the operand; a looser one ends it; an
 * equal one is taken when right-associative, ends it when left-associative
 * and is an error when non-associative. */
static sc_cat_exp *parse_base(parser *p, int prec, int assoc,
                              const sc_cat_token *ctx_op) {
  if (!enter(p))
    return NULL;
  sc_cat_exp *left;
  if (peek_kind(p) == CT_COMP) {
    const sc_cat_token *op = next(p);
    sc_cat_exp *arg = parse_base(p, PREC_COMP, ASSOC_NONASSOC, op);
    left = arg ? new_op1(p, OP1_COMP, op, arg) : NULL;
  } else {
    left = parse_primary(p);
  }
  while (left) {
    const sc_cat_token *op = peek(p);
    int op_assoc = 0;
    int q = operator_prec(op->kind, &op_assoc);
    if (q == 0 || q < prec)
      break;
    if (q == prec) {
      if (assoc == ASSOC_LEFT)
        break;
      if (assoc == ASSOC_NONASSOC) {
        left = nonassoc_error(p, op, ctx_op);
        break;
      }
    }
    next(p);
    switch (op->kind) {
    case CT_PLUS: left = new_op1(p, OP1_PLUS, op, left); break;
    case CT_OPT: left = new_op1(p, OP1_OPT, op, left); break;
    case CT_HAT:
      left = expect(p, CT_INV, "'-1' after '^'") ? new_op1(p, OP1_INV, op, left) : NULL;
      break;
    case CT_STAR:
      if (peek_kind(p) == CT_COMP) {
        left = nonassoc_error(p, peek(p), op);
      } else if (starts_base(peek_kind(p))) {
        sc_cat_exp *right = parse_base(p, q, op_assoc, op);
        left = right ? new_binary(p, EX_CARTESIAN, op, left, right) : NULL;
      } else {
        left = new_op1(p, OP1_STAR, op, left);
      }
      break;
    default: {
      sc_cat_exp *right = parse_base(p, q, op_assoc, op);
      if (!right) {
        left = NULL;
        break;
      }
      switch (op->kind) {
      case CT_UNION: left = new_nary(p, EX_UNION, op, left, right); break;
      case CT_SEMI: left = new_nary(p, EX_SEQ, op, left, right); break;
      case CT_PLUSPLUS: left = new_binary(p, EX_ADD, op, left, right); break;
      case CT_DIFF: left = new_binary(p, EX_DIFF, op, left, right); break;
      default: left = new_binary(p, EX_INTER, op, left, right); break;
      }
    }
    }
  }
  leave(p);
  return left;
}

/* herd's baseortuple: an operand, or several separated by commas. */
static sc_cat_exp *parse_base_or_tuple(parser *p) {
  const sc_cat_token *start = peek(p);
  sc_cat_exp *first = parse_base(p, 0, 0, NULL);
  if (!first || peek_kind(p) != CT_COMMA)
    return first;
  ptrs items = {0};
  push_ptr(&items, first);
  while (accept(p, CT_COMMA)) {
    sc_cat_exp *e = parse_base(p, 0, 0, NULL);
    if (!e)
      return NULL;
    push_ptr(&items, e);
  }
  sc_cat_exp *t = new_exp(p, EX_TUPLE, start);
  t->args = (sc_cat_exp **)items.items;
  t->nargs = items.n;
  return t;
}

/* ---- Patterns and bindings ----------------------------------------------- */

/* pat0: a name or '_' (NULL). */
static bool parse_pat0(parser *p, const char **out) {
  if (accept(p, CT_UNDERSCORE)) {
    *out = NULL;
    return true;
  }
  const char *name = expect_name(p, "a name or '_'");
  *out = name;
  return name != NULL;
}

/* formals: zero or more pat0 separated by commas, up to ')'. */
static bool parse_formals(parser *p, sc_cat_pat *pat) {
  ptrs names = {0};
  if (peek_kind(p) != CT_RPAR) {
    do {
      const char *x;
      if (!parse_pat0(p, &x))
        return false;
      push_ptr(&names, (void *)x);
    } while (accept(p, CT_COMMA));
  }
  pat->names = (const char **)names.items;
  pat->n = names.n;
  pat->is_tuple = names.n != 1; /* herd's tuple_pat: one formal is a plain name */
  return true;
}

static sc_cat_pat single_pat(const char *name) {
  sc_cat_pat pat = {false, 1, sci_alloc(sizeof(char *))};
  pat.names[0] = name;
  return pat;
}

static sc_cat_exp *new_fun(parser *p, const sc_cat_token *at, sc_cat_pat pat,
                           sc_cat_exp *body, const char *name) {
  sc_cat_exp *f = new_exp(p, EX_FUN, at);
  f->pat = pat;
  f->body = body;
  f->name = name;
  return f;
}

/* One binding of a let: x = e | (x, y) = e | x, y = e | f(x, y) = e |
 * f x = e. */
static bool parse_bind(parser *p, sc_cat_bind *b) {
  const sc_cat_token *start = peek(p);
  b->line = start->line;
  b->col = start->col;
  if (start->kind == CT_LPAR) {
    next(p);
    if (!parse_formals(p, &b->pat) || !expect_closing(p, CT_RPAR, start) ||
        !expect(p, CT_EQUAL, "'=' after the pattern"))
      return false;
    b->exp = parse_exp(p);
    return b->exp != NULL;
  }
  if (start->kind == CT_VAR &&
      (peek_kind2(p) == CT_LPAR ||
       ((peek_kind2(p) == CT_VAR || peek_kind2(p) == CT_UNDERSCORE) &&
        p->toks[p->pos + 2].kind == CT_EQUAL))) {
    const char *fname = name_of(p, next(p));
    sc_cat_pat formals;
    if (peek_kind(p) == CT_LPAR) {
      const sc_cat_token *open = next(p);
      if (!parse_formals(p, &formals) || !expect_closing(p, CT_RPAR, open))
        return false;
    } else {
      const char *x;
      if (!parse_pat0(p, &x))
        return false;
      formals = single_pat(x);
    }
    if (!expect(p, CT_EQUAL, "'=' after the parameters"))
      return false;
    sc_cat_exp *body = parse_exp(p);
    if (!body)
      return false;
    b->pat = single_pat(fname);
    b->exp = new_fun(p, start, formals, body, fname);
    return true;
  }
  ptrs names = {0};
  do {
    const char *x;
    if (!parse_pat0(p, &x))
      return false;
    push_ptr(&names, (void *)x);
  } while (accept(p, CT_COMMA));
  b->pat.names = (const char **)names.items;
  b->pat.n = names.n;
  b->pat.is_tuple = names.n != 1;
  if (!expect(p, CT_EQUAL, "'=' after the name"))
    return false;
  b->exp = parse_exp(p);
  return b->exp != NULL;
}

static bool parse_bind_list(parser *p, sc_cat_bind **out, int *n) {
  sc_cat_bind *binds = NULL;
  int cap = 0, count = 0;
  do {
    sci_grow(&binds, &cap, count + 1, sizeof *binds);
    if (!parse_bind(p, &binds[count]))
      return false;
    count++;
  } while (accept(p, CT_AND));
  *out = binds;
  *n = count;
  return true;
}

/* ---- Compound expressions ------------------------------------------------ */

/* A variant condition: "name", variant "name", not c, c && c, c || c. */
static sc_cat_vcond *parse_vcond(parser *p);

static sc_cat_vcond *parse_vatom(parser *p) {
  sc_cat_vcond *v = sci_alloc(sizeof *v);
  if (accept(p, CT_NOT)) {
    v->kind = VC_NOT;
    v->a = parse_vatom(p);
    return v->a ? v : NULL;
  }
  if (peek_kind(p) == CT_LPAR) {
    const sc_cat_token *open = next(p);
    sc_cat_vcond *inner = parse_vcond(p);
    return inner && expect_closing(p, CT_RPAR, open) ? inner : NULL;
  }
  accept(p, CT_VARIANT);
  const sc_cat_token *tk = expect(p, CT_STRING, "a variant name (a string)");
  if (!tk)
    return NULL;
  v->kind = VC_NAME;
  v->name = tk->text;
  return v;
}

static sc_cat_vcond *new_vcond(int kind, sc_cat_vcond *a, sc_cat_vcond *b) {
  sc_cat_vcond *v = sci_alloc(sizeof *v);
  v->kind = kind;
  v->a = a;
  v->b = b;
  return v;
}

/* "&&" binds tighter than "||", both to the left. */
static sc_cat_vcond *parse_vand(parser *p) {
  sc_cat_vcond *left = parse_vatom(p);
  while (left && accept(p, CT_LAND)) {
    sc_cat_vcond *right = parse_vatom(p);
    left = right ? new_vcond(VC_AND, left, right) : NULL;
  }
  return left;
}

static sc_cat_vcond *parse_vcond(parser *p) {
  if (!enter(p))
    return NULL;
  sc_cat_vcond *left = parse_vand(p);
  while (left && accept(p, CT_ALT)) {
    sc_cat_vcond *right = parse_vand(p);
    left = right ? new_vcond(VC_OR, left, right) : NULL;
  }
  leave(p);
  return left;
}

static bool starts_vcond(sc_cat_tok k) {
  return k == CT_STRING || k == CT_VARIANT || k == CT_NOT;
}

static sc_cat_exp *parse_if(parser *p) {
  const sc_cat_token *tk = next(p);
  sc_cat_exp *e = new_exp(p, EX_IF, tk);
  if (starts_vcond(peek_kind(p))) {
    e->cond = COND_VARIANT;
    if (!(e->vcond = parse_vcond(p)))
      return NULL;
  } else {
    if (!(e->c1 = parse_exp(p)))
      return NULL;
    switch (peek_kind(p)) {
    case CT_EQUAL: e->cond = COND_EQ; break;
    case CT_SUBSET: e->cond = COND_SUBSET; break;
    case CT_IN: e->cond = COND_IN; break;
    default: return expected(p, "'=', 'subset' or 'in' in the condition");
    }
    next(p);
    if (!(e->c2 = parse_exp(p)))
      return NULL;
  }
  if (!expect(p, CT_THEN, "'then'") || !(e->ifso = parse_exp(p)) ||
      !expect(p, CT_ELSE, "'else'") || !(e->ifnot = parse_exp(p)))
    return NULL;
  return e;
}

/* match e with 'a -> e1 || 'b -> e2 || _ -> e3 end */
static bool parse_tag_clauses(parser *p, sc_cat_exp *e) {
  ptrs tags = {0}, cases = {0};
  for (;;) {
    if (peek_kind(p) == CT_UNDERSCORE) {
      next(p);
      if (!expect(p, CT_ARROW, "'->'") || !(e->dflt = parse_exp(p)))
        return false;
      break;
    }
    const sc_cat_token *tag = expect(p, CT_TAG, "a tag or '_'");
    if (!tag || !expect(p, CT_ARROW, "'->'"))
      return false;
    sc_cat_exp *body = parse_exp(p);
    if (!body)
      return false;
    push_ptr(&tags, (void *)name_of(p, tag));
    push_ptr(&cases, body);
    if (!accept(p, CT_ALT))
      break;
  }
  e->tags = (const char **)tags.items;
  e->cases = (sc_cat_exp **)cases.items;
  e->ncases = tags.n;
  return true;
}

/* The element clause of a set match: x ++ rest -> e, or pre | x ++ post -> e. */
static bool parse_elt_clause(parser *p, sc_cat_exp *e) {
  const char *a, *b;
  if (!parse_pat0(p, &a))
    return false;
  if (accept(p, CT_UNION)) {
    e->elt_has_pre = true;
    e->elt_pre = a;
    if (!parse_pat0(p, &a))
      return false;
  }
  if (!expect(p, CT_PLUSPLUS, "'++'") || !parse_pat0(p, &b) ||
      !expect(p, CT_ARROW, "'->'"))
    return false;
  e->elt_x = a;
  e->elt_rest = b;
  return (e->elt_case = parse_exp(p)) != NULL;
}

static bool parse_empty_clause(parser *p, sc_cat_exp *e) {
  if (!expect(p, CT_LACC, "'{'") || !expect(p, CT_RACC, "'}'") ||
      !expect(p, CT_ARROW, "'->'"))
    return false;
  return (e->empty_case = parse_exp(p)) != NULL;
}

/* match e with {} -> e1 || x ++ s -> e2 end (either order). */
static bool parse_set_clauses(parser *p, sc_cat_exp *e) {
  if (peek_kind(p) == CT_LACC)
    return parse_empty_clause(p, e) && expect(p, CT_ALT, "'||'") &&
           parse_elt_clause(p, e);
  return parse_elt_clause(p, e) && expect(p, CT_ALT, "'||'") &&
         parse_empty_clause(p, e);
}

static sc_cat_exp *parse_match(parser *p) {
  const sc_cat_token *tk = next(p);
  sc_cat_exp *scrut = parse_exp(p);
  if (!scrut || !expect(p, CT_WITH, "'with'"))
    return NULL;
  accept(p, CT_ALT);
  sc_cat_exp *e;
  bool tag_form = peek_kind(p) == CT_TAG ||
                  (peek_kind(p) == CT_UNDERSCORE && peek_kind2(p) == CT_ARROW);
  e = new_exp(p, tag_form ? EX_MATCH : EX_MATCHSET, tk);
  e->args = sci_alloc(sizeof *e->args);
  e->args[0] = scrut;
  e->nargs = 1;
  if (!(tag_form ? parse_tag_clauses(p, e) : parse_set_clauses(p, e)))
    return NULL;
  return expect_closing(p, CT_END, tk) ? e : NULL;
}

/* herd's exp: let .. in, fun, try, if, match, or operators (maybe a tuple). */
static sc_cat_exp *parse_exp(parser *p) {
  if (!enter(p))
    return NULL;
  const sc_cat_token *tk = peek(p);
  sc_cat_exp *e = NULL;
  switch (tk->kind) {
  case CT_LET: {
    next(p);
    bool rec = accept(p, CT_REC);
    e = new_exp(p, rec ? EX_BINDREC : EX_BIND, tk);
    if (!parse_bind_list(p, &e->binds, &e->nbinds) ||
        !expect(p, CT_IN, "'in' after the bindings of this 'let' expression") ||
        !(e->body = parse_exp(p)))
      e = NULL;
    break;
  }
  case CT_FUN: {
    next(p);
    sc_cat_pat pat;
    if (peek_kind(p) == CT_LPAR) {
      const sc_cat_token *open = next(p);
      if (!parse_formals(p, &pat) || !expect_closing(p, CT_RPAR, open))
        break;
    } else {
      const char *x;
      if (!parse_pat0(p, &x))
        break;
      pat = single_pat(x);
    }
    if (!expect(p, CT_ARROW, "'->'"))
      break;
    sc_cat_exp *body = parse_exp(p);
    if (body)
      e = new_fun(p, tk, pat, body, "*fun*");
    break;
  }
  case CT_TRY:
    next(p);
    e = new_exp(p, EX_TRY, tk);
    e->args = sci_alloc(sizeof *e->args);
    e->nargs = 1;
    if (!(e->args[0] = parse_exp(p)) || !expect(p, CT_WITH, "'with'") ||
        !(e->body = parse_exp(p)))
      e = NULL;
    break;
  case CT_IF:
    e = parse_if(p);
    break;
  case CT_MATCH:
    e = parse_match(p);
    break;
  default:
    e = parse_base_or_tuple(p);
  }
  leave(p);
  return e;
}

/* ---- Instructions -------------------------------------------------------- */

static bool parse_prog(parser *p, bool toplevel, sc_cat_prog *out);

static sc_cat_ins *new_ins(parser *p, sc_cat_ins_kind kind, const sc_cat_token *at) {
  sc_cat_ins *ins = sci_alloc(sizeof *ins);
  ins->kind = kind;
  ins->file = p->file;
  ins->line = at->line;
  ins->col = at->col;
  return ins;
}

static bool starts_test(sc_cat_tok k) {
  switch (k) {
  case CT_REQUIRES: case CT_FLAG: case CT_ASSERT: case CT_ACYCLIC:
  case CT_IRREFLEXIVE: case CT_TESTEMPTY: case CT_COMP:
    return true;
  default:
    return false;
  }
}

/* [flag|undefined_unless|assert] [~] acyclic|irreflexive|empty e [as name];
 * with `typed` false, only the part from [~] (a `let rec ... when` test). */
static sc_cat_test *parse_test(parser *p, bool typed) {
  const sc_cat_token *start = peek(p);
  sc_cat_test *t = sci_alloc(sizeof *t);
  t->line = start->line;
  t->col = start->col;
  t->type = TT_CHECK;
  if (typed) {
    if (accept(p, CT_REQUIRES))
      t->type = TT_UNDEFINED_UNLESS;
    else if (accept(p, CT_FLAG))
      t->type = TT_FLAG;
    else if (accept(p, CT_ASSERT))
      t->type = TT_ASSERT;
  }
  t->negated = accept(p, CT_COMP);
  switch (peek_kind(p)) {
  case CT_ACYCLIC: t->kind = TEST_ACYCLIC; break;
  case CT_IRREFLEXIVE: t->kind = TEST_IRREFLEXIVE; break;
  case CT_TESTEMPTY: t->kind = TEST_EMPTY; break;
  default: return expected(p, "'acyclic', 'irreflexive' or 'empty'");
  }
  next(p);
  if (!(t->exp = parse_exp(p)))
    return NULL;
  if (accept(p, CT_AS) && !(t->name = expect_name(p, "a name after 'as'")))
    return NULL;
  return t;
}

static sc_cat_ins *parse_let_ins(parser *p) {
  const sc_cat_token *tk = next(p);
  bool rec = accept(p, CT_REC);
  sc_cat_ins *ins = new_ins(p, rec ? IN_REC : IN_LET, tk);
  if (!parse_bind_list(p, &ins->binds, &ins->nbinds))
    return NULL;
  if (rec && accept(p, CT_WHEN) && !(ins->test = parse_test(p, false)))
    return NULL;
  accept(p, CT_IN); /* herd accepts a stray 'in' after a top-level let */
  return ins;
}

static bool parse_name_list(parser *p, ptrs *names) {
  do {
    const char *x = expect_name(p, "a name");
    if (!x)
      return false;
    push_ptr(names, (void *)x);
  } while (accept(p, CT_COMMA));
  return true;
}

/* show e as name | show x, y, ... */
static sc_cat_ins *parse_show(parser *p) {
  const sc_cat_token *tk = next(p);
  sc_cat_exp *e = parse_base(p, 0, 0, NULL);
  if (!e)
    return NULL;
  if (accept(p, CT_AS)) {
    sc_cat_ins *ins = new_ins(p, IN_SHOWAS, tk);
    ins->exp = e;
    ins->name = expect_name(p, "a name after 'as'");
    return ins->name ? ins : NULL;
  }
  if (e->kind != EX_VAR)
    return expected(p, "'as' after the expression to show");
  ptrs names = {0};
  push_ptr(&names, (void *)e->name);
  if (accept(p, CT_COMMA) && !parse_name_list(p, &names))
    return NULL;
  sc_cat_ins *ins = new_ins(p, IN_SHOW, tk);
  ins->names = (const char **)names.items;
  ins->nnames = names.n;
  return ins;
}

static sc_cat_ins *parse_unshow(parser *p) {
  const sc_cat_token *tk = next(p);
  ptrs names = {0};
  if (!parse_name_list(p, &names))
    return NULL;
  sc_cat_ins *ins = new_ins(p, IN_UNSHOW, tk);
  ins->names = (const char **)names.items;
  ins->nnames = names.n;
  return ins;
}

/* A body of instructions closed by 'end' (the opening token names it in the
 * message when 'end' is missing). */
static bool parse_body_end(parser *p, const sc_cat_token *open, sc_cat_prog *body) {
  if (!parse_prog(p, false, body))
    return false;
  if (peek_kind(p) == CT_END) {
    next(p);
    return true;
  }
  expected(p, sci_printf("an instruction or 'end' closing the %s at %d:%d",
                        sci_cat_tok_spelling(open->kind), open->line, open->col));
  return false;
}

/* procedure [rec] p(x, y) = instructions end | procedure p x = ... end */
static sc_cat_ins *parse_procedure(parser *p) {
  const sc_cat_token *tk = next(p);
  sc_cat_ins *ins = new_ins(p, IN_PROCEDURE, tk);
  ins->is_rec = accept(p, CT_REC);
  if (!(ins->name = expect_name(p, "the procedure's name")))
    return NULL;
  if (peek_kind(p) == CT_LPAR) {
    const sc_cat_token *open = next(p);
    if (!parse_formals(p, &ins->pat) || !expect_closing(p, CT_RPAR, open))
      return NULL;
  } else {
    const char *x;
    if (!parse_pat0(p, &x))
      return NULL;
    ins->pat = single_pat(x);
  }
  if (!expect(p, CT_EQUAL, "'=' after the parameters"))
    return NULL;
  return parse_body_end(p, tk, &ins->body) ? ins : NULL;
}

static sc_cat_ins *parse_call(parser *p) {
  const sc_cat_token *tk = next(p);
  sc_cat_ins *ins = new_ins(p, IN_CALL, tk);
  if (!(ins->name = expect_name(p, "the name of the procedure to call")))
    return NULL;
  if (!starts_arg(peek_kind(p)) || peek_kind(p) == CT_VAR)
    return expected(p, "the procedure's arguments, as in p(x, y)");
  if (!(ins->exp = parse_simple(p)))
    return NULL;
  if (accept(p, CT_AS) && !(ins->as_name = expect_name(p, "a name after 'as'")))
    return NULL;
  return ins;
}

static sc_cat_ins *parse_enum(parser *p) {
  const sc_cat_token *tk = next(p);
  sc_cat_ins *ins = new_ins(p, IN_ENUM, tk);
  if (!(ins->name = expect_name(p, "the enum's name")) ||
      !expect(p, CT_EQUAL, "'=' after the enum's name"))
    return NULL;
  accept(p, CT_ALT);
  ptrs tags = {0};
  do {
    const sc_cat_token *tag = expect(p, CT_TAG, "a tag such as 'name");
    if (!tag)
      return NULL;
    push_ptr(&tags, (void *)name_of(p, tag));
  } while (accept(p, CT_ALT));
  ins->names = (const char **)tags.items;
  ins->nnames = tags.n;
  return ins;
}

/* match e with 'a -> instructions || _ -> instructions end */
static sc_cat_ins *parse_match_ins(parser *p) {
  const sc_cat_token *tk = next(p);
  sc_cat_ins *ins = new_ins(p, IN_MATCH, tk);
  if (!(ins->exp = parse_exp(p)) || !expect(p, CT_WITH, "'with'"))
    return NULL;
  accept(p, CT_ALT);
  ptrs tags = {0}, cases = {0};
  for (;;) {
    if (peek_kind(p) == CT_UNDERSCORE) {
      next(p);
      ins->dflt = sci_alloc(sizeof *ins->dflt);
      if (!expect(p, CT_ARROW, "'->'") || !parse_prog(p, false, ins->dflt))
        return NULL;
      break;
    }
    const sc_cat_token *tag = expect(p, CT_TAG, "a tag or '_'");
    if (!tag || !expect(p, CT_ARROW, "'->'"))
      return NULL;
    sc_cat_prog *body = sci_alloc(sizeof *body);
    if (!parse_prog(p, false, body))
      return NULL;
    push_ptr(&tags, (void *)name_of(p, tag));
    push_ptr(&cases, body);
    if (!accept(p, CT_ALT))
      break;
  }
  ins->tags = (const char **)tags.items;
  ins->ncases = tags.n;
  ins->cases = sci_alloc(sizeof *ins->cases * (size_t)(tags.n ? tags.n : 1));
  for (int i = 0; i < tags.n; i++)
    ins->cases[i] = *(sc_cat_prog *)cases.items[i];
  return expect_closing(p, CT_END, tk) ? ins : NULL;
}

/* if "variant" instructions [else instructions] end: herd's grammar has no
 * `then` here (cos.cat: if "cos-opt" include ... else include ... end);
 * one is accepted too, like the expression's `if ... then`, since no
 * instruction starts with it. */
static sc_cat_ins *parse_if_ins(parser *p) {
  const sc_cat_token *tk = next(p);
  sc_cat_ins *ins = new_ins(p, IN_IFVARIANT, tk);
  if (!(ins->vcond = parse_vcond(p)))
    return NULL;
  accept(p, CT_THEN);
  if (!parse_prog(p, false, &ins->body))
    return NULL;
  if (accept(p, CT_ELSE) && !parse_prog(p, false, &ins->other))
    return NULL;
  return expect_closing(p, CT_END, tk) ? ins : NULL;
}

static sc_cat_ins *parse_ins(parser *p, bool toplevel) {
  const sc_cat_token *tk = peek(p);
  sc_cat_ins *ins;
  if (starts_test(tk->kind)) {
    ins = new_ins(p, IN_TEST, tk);
    return (ins->test = parse_test(p, true)) ? ins : NULL;
  }
  switch (tk->kind) {
  case CT_DOC:
    next(p);
    ins = new_ins(p, IN_DOC, tk);
    ins->text = tk->text;
    return ins;
  case CT_LET:
    return parse_let_ins(p);
  case CT_ENUM:
    if (!toplevel)
      return error_at(p, tk, "expected an instruction, found 'enum' "
                             "(enums are declared at the top level only)");
    return parse_enum(p);
  case CT_MATCH:
    return parse_match_ins(p);
  case CT_SHOW:
    return parse_show(p);
  case CT_UNSHOW:
    return parse_unshow(p);
  case CT_INCLUDE: {
    next(p);
    const sc_cat_token *file =
        expect(p, CT_STRING, "a file name (a string) after 'include'");
    if (!file)
      return NULL;
    ins = new_ins(p, IN_INCLUDE, tk);
    ins->text = file->text;
    return ins;
  }
  case CT_PROCEDURE:
    return parse_procedure(p);
  case CT_CALL:
    return parse_call(p);
  case CT_DEBUG:
    next(p);
    ins = new_ins(p, IN_DEBUG, tk);
    return (ins->exp = parse_exp(p)) ? ins : NULL;
  case CT_FORALL:
    next(p);
    ins = new_ins(p, IN_FORALL, tk);
    if (!(ins->name = expect_name(p, "the loop variable")) ||
        !expect(p, CT_IN, "'in'") || !(ins->exp = parse_exp(p)) ||
        !expect(p, CT_DO, "'do'") || !parse_body_end(p, tk, &ins->body))
      return NULL;
    return ins;
  case CT_WITH:
    next(p);
    ins = new_ins(p, IN_WITHFROM, tk);
    if (!(ins->name = expect_name(p, "a name after 'with'")) ||
        !expect(p, CT_FROM, "'from'") || !(ins->exp = parse_exp(p)))
      return NULL;
    return ins;
  case CT_INSTRUCTIONS:
  case CT_DEFAULT: {
    next(p);
    ins = new_ins(p, IN_EVENTS, tk);
    const sc_cat_token *open;
    if (!(ins->name = expect_name(p, "an event type name")) ||
        !(open = expect(p, CT_LBRAC, "'['")) ||
        !parse_base_list(p, CT_RBRAC, &ins->exps, &ins->nexps) ||
        !expect_closing(p, CT_RBRAC, open))
      return NULL;
    return ins;
  }
  case CT_IF:
    return parse_if_ins(p);
  default:
    return expected(p, "an instruction (let, acyclic, irreflexive, empty, "
                       "flag, show, include, procedure, call...)");
  }
}

static bool starts_ins(sc_cat_tok k) {
  switch (k) {
  case CT_DOC: case CT_LET: case CT_ENUM: case CT_MATCH: case CT_SHOW:
  case CT_UNSHOW: case CT_INCLUDE: case CT_PROCEDURE: case CT_CALL:
  case CT_DEBUG: case CT_FORALL: case CT_WITH: case CT_INSTRUCTIONS:
  case CT_DEFAULT: case CT_IF:
    return true;
  default:
    return starts_test(k);
  }
}

/* Instructions up to a token that cannot start one (the caller checks it). */
static bool parse_prog(parser *p, bool toplevel, sc_cat_prog *out) {
  ptrs ins = {0};
  while (starts_ins(peek_kind(p))) {
    if (!enter(p))
      return false;
    sc_cat_ins *i = parse_ins(p, toplevel);
    leave(p);
    if (!i)
      return false;
    push_ptr(&ins, i);
  }
  out->file = p->file;
  out->ins = (sc_cat_ins **)ins.items;
  out->n = ins.n;
  return true;
}

/* The model's identity line: "Title", or Arch, or Arch "Title", or
 * Arch Title, then herd's old model options (withco, catdep...). */
static bool is_model_option(const sc_cat_token *tk) {
  static const char *const options[] = {"withco", "withoutco", "withinit",
                                        "withoutinit", "withsc", "withoutsc"};
  if (tk->kind == CT_CATDEP)
    return true;
  if (tk->kind != CT_VAR)
    return false;
  for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
    if (strcmp(tk->text, options[i]) == 0)
      return true;
  return false;
}

static const char *parse_identity(parser *p) {
  const char *title = "";
  if (peek_kind(p) == CT_STRING) {
    title = next(p)->text;
  } else if (peek_kind(p) == CT_VAR && !is_model_option(peek(p))) {
    title = next(p)->text;
    if (peek_kind(p) == CT_STRING ||
        (peek_kind(p) == CT_VAR && !is_model_option(peek(p))))
      title = next(p)->text;
  }
  while (is_model_option(peek(p)))
    next(p);
  return title;
}

sc_status sci_cat_parse(const char *file, const char *text, sc_cat_symtab *syms,
                       const char **title, sc_cat_prog *out, sc_error **err) {
  sc_cat_token *toks;
  int ntoks;
  sc_status st = sci_cat_lex(file, text, &toks, &ntoks, err);
  if (st)
    return st;
  parser p = {file, toks, 0, syms, err, false, 0};
  const char *t = parse_identity(&p);
  if (!parse_prog(&p, true, out))
    return SC_ERR_SYNTAX;
  if (peek_kind(&p) != CT_EOF) {
    expected(&p, "an instruction (let, acyclic, irreflexive, empty, flag, "
                 "show, include, procedure, call...)");
    return SC_ERR_SYNTAX;
  }
  if (title)
    *title = t;
  return SC_OK;
}
