/* lex.c: the tokenizer of litmus test bodies.  Identifiers include
 * dots and '%' so that "ld.cg.s32" and ".reg" are single tokens. */
#include "litmus/lex.h"

#include "util/cursor.h"
#include "util/error.h"
#include "util/gcmem.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct lexer {
  sc_cursor at;
  sc_token *toks;
  int ntoks, cap;
} lexer;

static int is_ident_start(int c) {
  return isalpha(c) || c == '_' || c == '.' || c == '%' || c == '$';
}

static int is_ident_char(int c) { return is_ident_start(c) || isdigit(c); }

static sc_token *push(lexer *lx, sc_tok_kind kind, int line, int col) {
  sci_grow(&lx->toks, &lx->cap, lx->ntoks + 1, sizeof(sc_token));
  sc_token *tk = &lx->toks[lx->ntoks++];
  tk->kind = kind;
  tk->line = line;
  tk->col = col;
  tk->text = "";
  return tk;
}

/* Skip blanks and (* nested *) comments; fail on an unterminated one. */
static sc_status skip_space(lexer *lx, sc_error **err) {
  for (;;) {
    while (*lx->at.p && isspace((unsigned char)*lx->at.p))
      sci_cursor_advance(&lx->at);
    if (!sci_cursor_at_comment(&lx->at))
      return SC_OK;
    sc_status st = sci_cursor_skip_comment(&lx->at, err);
    if (st)
      return st;
  }
}

static sc_status lex_number(lexer *lx, sc_error **err) {
  int line = lx->at.line, col = lx->at.col;
  const char *start = lx->at.p;
  int base = 10;
  if (lx->at.p[0] == '0' && (lx->at.p[1] == 'x' || lx->at.p[1] == 'X')) {
    base = 16;
    sci_cursor_advance(&lx->at);
    sci_cursor_advance(&lx->at);
    if (!isxdigit((unsigned char)*lx->at.p))
      return sci_fail(err, SC_ERR_SYNTAX, lx->at.file, line, col,
                     "expected hexadecimal digits after '0x'");
  }
  while (base == 16 ? isxdigit((unsigned char)*lx->at.p) : isdigit((unsigned char)*lx->at.p))
    sci_cursor_advance(&lx->at);
  if (is_ident_char((unsigned char)*lx->at.p) && *lx->at.p != '.')
    return sci_fail(err, SC_ERR_SYNTAX, lx->at.file, line, col,
                   "expected a number, found '%s'",
                   sci_strndup(start, (size_t)(lx->at.p - start) + 1));
  char *text = sci_strndup(start, (size_t)(lx->at.p - start));
  errno = 0;
  unsigned long long v = strtoull(text, NULL, base);
  /* Allow the full 64-bit pattern in hex (0xffffffffffffffff), signed range in decimal */
  if (errno == ERANGE || (base == 10 && v > (unsigned long long)INT64_MAX))
    return sci_fail(err, SC_ERR_SYNTAX, lx->at.file, line, col,
                   "integer %s does not fit in 64 bits", text);
  sc_token *tk = push(lx, SC_TK_INT, line, col);
  tk->text = text;
  tk->ival = (int64_t)v;
  return SC_OK;
}

static sc_status lex_string(lexer *lx, sc_error **err) {
  int line = lx->at.line, col = lx->at.col;
  const char *start = lx->at.p;
  sci_cursor_advance(&lx->at);
  while (*lx->at.p && *lx->at.p != '"')
    sci_cursor_advance(&lx->at);
  if (!*lx->at.p)
    return sci_fail(err, SC_ERR_SYNTAX, lx->at.file, line, col,
                   "expected '\"' closing this string, found end of file");
  sci_cursor_advance(&lx->at);
  sc_token *tk = push(lx, SC_TK_STRING, line, col);
  tk->text = sci_strndup(start, (size_t)(lx->at.p - start));
  return SC_OK;
}

static int two_char_punct(const char *p) {
  if (p[0] == '=' && p[1] == '=') return SC_P_EQEQ;
  if (p[0] == '!' && p[1] == '=') return SC_P_NEQ;
  if (p[0] == '/' && p[1] == '\\') return SC_P_AND;
  if (p[0] == '\\' && p[1] == '/') return SC_P_OR;
  if (p[0] == '=' && p[1] == '>') return SC_P_IMPLIES;
  return 0;
}

static const char single_puncts[] = "{};|,:[]()@+-!~=*";

sc_status sci_lex(const char *file, const char *src, int line, int col,
                 sc_token **out, int *ntoks, sc_error **err) {
  lexer lx = {{file, src, line, col}, NULL, 0, 0};
  for (;;) {
    sc_status st = skip_space(&lx, err);
    if (st)
      return st;
    int c = (unsigned char)*lx.at.p;
    if (!c)
      break;
    int tline = lx.at.line, tcol = lx.at.col;
    if (isdigit(c)) {
      if ((st = lex_number(&lx, err)))
        return st;
    } else if (is_ident_start(c)) {
      const char *start = lx.at.p;
      while (is_ident_char((unsigned char)*lx.at.p))
        sci_cursor_advance(&lx.at);
      sc_token *tk = push(&lx, SC_TK_IDENT, tline, tcol);
      tk->text = sci_strndup(start, (size_t)(lx.at.p - start));
    } else if (c == '"') {
      if ((st = lex_string(&lx, err)))
        return st;
    } else if (two_char_punct(lx.at.p)) {
      sc_token *tk = push(&lx, SC_TK_PUNCT, tline, tcol);
      tk->punct = two_char_punct(lx.at.p);
      tk->text = sci_strndup(lx.at.p, 2);
      sci_cursor_advance(&lx.at);
      sci_cursor_advance(&lx.at);
    } else if (c < 128 && strchr(single_puncts, c)) {
      sc_token *tk = push(&lx, SC_TK_PUNCT, tline, tcol);
      tk->punct = c;
      tk->text = sci_strndup(lx.at.p, 1);
      sci_cursor_advance(&lx.at);
    } else if (c >= 32 && c < 127) {
      return sci_fail(err, SC_ERR_SYNTAX, file, tline, tcol,
                     "unexpected character '%c'", c);
    } else {
      return sci_fail(err, SC_ERR_SYNTAX, file, tline, tcol,
                     "unexpected byte 0x%02x (litmus tests are ASCII text)", c);
    }
  }
  push(&lx, SC_TK_EOF, lx.at.line, lx.at.col);
  *out = lx.toks;
  *ntoks = lx.ntoks;
  return SC_OK;
}

const char *sci_token_describe(const sc_token *tk) {
  switch (tk->kind) {
  case SC_TK_EOF: return "end of file";
  case SC_TK_INT: return sci_printf("integer %s", tk->text);
  case SC_TK_STRING: return "a string";
  case SC_TK_IDENT:
  case SC_TK_PUNCT: return sci_printf("'%s'", tk->text);
  }
  return "?";
}

int sci_token_is_punct(const sc_token *tk, int punct) {
  return tk->kind == SC_TK_PUNCT && tk->punct == punct;
}

int sci_token_is_word(const sc_token *tk, const char *word) {
  return tk->kind == SC_TK_IDENT && strcmp(tk->text, word) == 0;
}
