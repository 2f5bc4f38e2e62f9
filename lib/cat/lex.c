/* lex.c: the tokenizer of .cat models, following herd7's model lexer:
 * names may hold '.', '-' and a final quote ("po-loc", "membar.cta"),
 * "(* *)" comments nest, "//" and "#" start line comments.  It also reads
 * the {% ... %} documentation blocks of 2015-era herd models as one token.
 * It only splits text; what the tokens mean is the parser's business. */
#include "cat/ast.h"

#include "util/cursor.h"
#include "util/error.h"
#include "util/gcmem.h"

#include <ctype.h>
#include <string.h>

typedef struct lexer {
  sc_cursor at;
  sc_cat_token *toks;
  int ntoks, cap;
} lexer;

static const struct {
  const char *word;
  sc_cat_tok kind;
} keywords[] = {
  {"let", CT_LET}, {"rec", CT_REC}, {"and", CT_AND}, {"when", CT_WHEN},
  {"acyclic", CT_ACYCLIC}, {"irreflexive", CT_IRREFLEXIVE},
  {"show", CT_SHOW}, {"unshow", CT_UNSHOW}, {"empty", CT_TESTEMPTY},
  {"subset", CT_SUBSET}, {"as", CT_AS}, {"fun", CT_FUN}, {"in", CT_IN},
  {"undefined_unless", CT_REQUIRES}, {"flag", CT_FLAG},
  {"assert", CT_ASSERT}, {"include", CT_INCLUDE}, {"variant", CT_VARIANT},
  {"begin", CT_BEGIN}, {"end", CT_END}, {"procedure", CT_PROCEDURE},
  {"call", CT_CALL}, {"enum", CT_ENUM}, {"debug", CT_DEBUG},
  {"match", CT_MATCH}, {"with", CT_WITH}, {"forall", CT_FORALL},
  {"from", CT_FROM}, {"do", CT_DO}, {"try", CT_TRY}, {"if", CT_IF},
  {"then", CT_THEN}, {"else", CT_ELSE}, {"catdep", CT_CATDEP},
  {"instructions", CT_INSTRUCTIONS}, {"default", CT_DEFAULT},
  {"not", CT_NOT},
};

/* Punctuation, longest spelling first so that "||" wins over "|". */
static const struct {
  const char *text;
  sc_cat_tok kind;
} puncts[] = {
  {"||", CT_ALT}, {"&&", CT_LAND}, {"++", CT_PLUSPLUS}, {"-1", CT_INV},
  {"->", CT_ARROW}, {"(", CT_LPAR}, {")", CT_RPAR}, {"{", CT_LACC},
  {"}", CT_RACC}, {"[", CT_LBRAC}, {"]", CT_RBRAC}, {"0", CT_EMPTY},
  {"|", CT_UNION}, {"&", CT_INTER}, {"*", CT_STAR}, {"~", CT_COMP},
  {"+", CT_PLUS}, {"^", CT_HAT}, {"\\", CT_DIFF}, {"?", CT_OPT},
  {"=", CT_EQUAL}, {";", CT_SEMI}, {",", CT_COMMA},
};

const char *sci_cat_tok_spelling(sc_cat_tok kind) {
  switch (kind) {
  case CT_EOF: return "end of file";
  case CT_VAR: return "a name";
  case CT_TAG: return "a tag";
  case CT_STRING: return "a string";
  case CT_DOC: return "a {% ... %} block";
  case CT_UNDERSCORE: return "'_'";
  default: break;
  }
  for (size_t i = 0; i < sizeof puncts / sizeof puncts[0]; i++)
    if (puncts[i].kind == kind)
      return sci_printf("'%s'", puncts[i].text);
  for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
    if (keywords[i].kind == kind)
      return sci_printf("'%s'", keywords[i].word);
  return "?";
}

const char *sci_cat_token_describe(const sc_cat_token *tk) {
  switch (tk->kind) {
  case CT_VAR: return sci_printf("'%s'", tk->text);
  case CT_TAG: return sci_printf("tag '%s", tk->text);
  case CT_STRING: return sci_printf("string \"%s\"", tk->text);
  default: return sci_cat_tok_spelling(tk->kind);
  }
}

static sc_cat_token *push(lexer *lx, sc_cat_tok kind, int line, int col) {
  sci_grow(&lx->toks, &lx->cap, lx->ntoks + 1, sizeof(sc_cat_token));
  sc_cat_token *tk = &lx->toks[lx->ntoks++];
  tk->kind = kind;
  tk->line = line;
  tk->col = col;
  tk->text = "";
  return tk;
}

/* Skip blanks and every kind of comment. */
static sc_status skip_space(lexer *lx, sc_error **err) {
  for (;;) {
    if (*lx->at.p && isspace((unsigned char)*lx->at.p)) {
      sci_cursor_advance(&lx->at);
    } else if (sci_cursor_at_comment(&lx->at)) {
      sc_status st = sci_cursor_skip_comment(&lx->at, err);
      if (st)
        return st;
    } else if ((lx->at.p[0] == '/' && lx->at.p[1] == '/') || lx->at.p[0] == '#') {
      while (*lx->at.p && *lx->at.p != '\n')
        sci_cursor_advance(&lx->at);
    } else {
      return SC_OK;
    }
  }
}

/* A {% ... %} block: LaTeX commentary that herd (up to 7.51) read as one
 * LATEX token, allowed where an instruction may stand and ignored when the
 * model runs.  Its body is either plain text up to "%}", or, as in the 2015
 * PTX models, a comment: "{%(* ... %*)}" ends with the comment's "*)" and a
 * closing '}'. */
static sc_status lex_doc(lexer *lx, sc_error **err) {
  int line = lx->at.line, col = lx->at.col;
  const char *start;
  sci_cursor_advance_n(&lx->at, 2);
  const char *q = lx->at.p;
  while (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n')
    q++;
  if (q[0] == '(' && q[1] == '*') {
    while (lx->at.p != q)
      sci_cursor_advance(&lx->at);
    start = lx->at.p;
    sc_status st = sci_cursor_skip_comment(&lx->at, err);
    if (st)
      return st;
    const char *end = lx->at.p;
    while (*lx->at.p && isspace((unsigned char)*lx->at.p))
      sci_cursor_advance(&lx->at);
    if (*lx->at.p != '}')
      return sci_fail(err, SC_ERR_SYNTAX, lx->at.file, lx->at.line, lx->at.col,
                     "expected '}' closing the {%% block opened at %d:%d, "
                     "found %s", line, col,
                     *lx->at.p ? sci_printf("'%c'", *lx->at.p) : "end of file");
    sci_cursor_advance(&lx->at);
    push(lx, CT_DOC, line, col)->text = sci_strndup(start, (size_t)(end - start));
    return SC_OK;
  }
  start = lx->at.p;
  while (*lx->at.p && !(lx->at.p[0] == '%' && lx->at.p[1] == '}'))
    sci_cursor_advance(&lx->at);
  if (!*lx->at.p)
    return sci_fail(err, SC_ERR_SYNTAX, lx->at.file, line, col,
                   "expected '%%}' closing this {%% block, found end of file");
  push(lx, CT_DOC, line, col)->text = sci_strndup(start, (size_t)(lx->at.p - start));
  sci_cursor_advance_n(&lx->at, 2);
  return SC_OK;
}

static int is_name_char(int c) {
  return isalnum(c) || c == '_' || c == '.' || c == '-';
}

/* herd's names: '_'? alpha (alpha | digit | '_' | '.' | '-')* '\''? */
static int name_length(const char *p) {
  int i = 0;
  if (p[i] == '_')
    i++;
  if (!isalpha((unsigned char)p[i]))
    return 0;
  while (is_name_char((unsigned char)p[i]))
    i++;
  if (p[i] == '\'')
    i++;
  return i;
}

static sc_cat_tok keyword_kind(const char *word) {
  for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
    if (strcmp(keywords[i].word, word) == 0)
      return keywords[i].kind;
  return CT_VAR;
}

static sc_status lex_string(lexer *lx, sc_error **err) {
  int line = lx->at.line, col = lx->at.col;
  sci_cursor_advance(&lx->at);
  const char *start = lx->at.p;
  while (*lx->at.p && *lx->at.p != '"')
    sci_cursor_advance(&lx->at);
  if (!*lx->at.p)
    return sci_fail(err, SC_ERR_SYNTAX, lx->at.file, line, col,
                   "expected '\"' closing this string, found end of file");
  push(lx, CT_STRING, line, col)->text = sci_strndup(start, (size_t)(lx->at.p - start));
  sci_cursor_advance(&lx->at);
  return SC_OK;
}

static sc_status lex_one(lexer *lx, sc_error **err) {
  int line = lx->at.line, col = lx->at.col;
  int c = (unsigned char)*lx->at.p;
  int len = name_length(lx->at.p);
  if (len > 0) {
    char *word = sci_strndup(lx->at.p, (size_t)len);
    sc_cat_token *tk = push(lx, keyword_kind(word), line, col);
    tk->text = word;
    sci_cursor_advance_n(&lx->at, len);
    return SC_OK;
  }
  if (c == '\'') {
    len = name_length(lx->at.p + 1);
    if (len == 0)
      return sci_fail(err, SC_ERR_SYNTAX, lx->at.file, line, col,
                     "expected a tag name after '\\''");
    push(lx, CT_TAG, line, col)->text = sci_strndup(lx->at.p + 1, (size_t)len);
    sci_cursor_advance_n(&lx->at, len + 1);
    return SC_OK;
  }
  if (c == '"')
    return lex_string(lx, err);
  if (c == '{' && lx->at.p[1] == '%')
    return lex_doc(lx, err);
  if (c == '_') {
    push(lx, CT_UNDERSCORE, line, col)->text = "_";
    sci_cursor_advance(&lx->at);
    return SC_OK;
  }
  for (size_t i = 0; i < sizeof puncts / sizeof puncts[0]; i++) {
    size_t n = strlen(puncts[i].text);
    if (strncmp(lx->at.p, puncts[i].text, n) == 0) {
      push(lx, puncts[i].kind, line, col)->text = puncts[i].text;
      sci_cursor_advance_n(&lx->at, (int)n);
      return SC_OK;
    }
  }
  if (c >= 32 && c < 127)
    return sci_fail(err, SC_ERR_SYNTAX, lx->at.file, line, col,
                   "unexpected character '%c'", c);
  return sci_fail(err, SC_ERR_SYNTAX, lx->at.file, line, col,
                 "unexpected byte 0x%02x (cat models are ASCII text)", c);
}

sc_status sci_cat_lex(const char *file, const char *src, sc_cat_token **out,
                     int *ntoks, sc_error **err) {
  lexer lx = {{file, src, 1, 1}, NULL, 0, 0};
  for (;;) {
    sc_status st = skip_space(&lx, err);
    if (st)
      return st;
    if (!*lx.at.p)
      break;
    if ((st = lex_one(&lx, err)))
      return st;
  }
  push(&lx, CT_EOF, lx.at.line, lx.at.col);
  *out = lx.toks;
  *ntoks = lx.ntoks;
  return SC_OK;
}
