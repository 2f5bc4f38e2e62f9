/* ptx_lex.c: the tokens of a PTX module, in the litmus layer's token form
 * (so that an instruction's tokens go straight to its instruction
 * grammar, litmus/instr.c).  Identifiers take dots, '%' and '$'
 * ("ld.global.u32", "%tid.x", "$L__BB0_3"); // and block comments are
 * skipped; positions are 1-based lines and columns. */
#define _POSIX_C_SOURCE 200809L
#include "kernel/kernel.h"

#include "util/error.h"
#include "util/gcmem.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct lexer {
  const char *file, *p;
  int line, col;
  sc_token *toks;
  int ntoks, cap;
} lexer;

static int ident_start(int c) {
  return isalpha(c) || c == '_' || c == '.' || c == '%' || c == '$';
}

static void advance(lexer *lx) {
  if (*lx->p == '\n') {
    lx->line++;
    lx->col = 1;
  } else {
    lx->col++;
  }
  lx->p++;
}

static sc_token *push(lexer *lx, sc_tok_kind kind, int line, int col,
                      const char *start) {
  sci_grow(&lx->toks, &lx->cap, lx->ntoks + 1, sizeof(sc_token));
  sc_token *tk = &lx->toks[lx->ntoks++];
  memset(tk, 0, sizeof *tk);
  tk->kind = kind;
  tk->line = line;
  tk->col = col;
  tk->text = sci_strndup(start, (size_t)(lx->p - start));
  return tk;
}

/* Blanks and comments; an unterminated block comment is an error. */
static sc_status skip_blanks(lexer *lx, sc_error **err) {
  for (;;) {
    while (*lx->p && isspace((unsigned char)*lx->p))
      advance(lx);
    if (lx->p[0] == '/' && lx->p[1] == '/') {
      while (*lx->p && *lx->p != '\n')
        advance(lx);
    } else if (lx->p[0] == '/' && lx->p[1] == '*') {
      int line = lx->line, col = lx->col;
      advance(lx);
      advance(lx);
      while (*lx->p && !(lx->p[0] == '*' && lx->p[1] == '/'))
        advance(lx);
      if (!*lx->p)
        return sci_fail(err, SC_ERR_SYNTAX, lx->file, line, col,
                       "expected '*/' closing this comment, found end of file");
      advance(lx);
      advance(lx);
    } else {
      return SC_OK;
    }
  }
}

static sc_status lex_number(lexer *lx, sc_error **err) {
  int line = lx->line, col = lx->col;
  const char *start = lx->p;
  int base = 10;
  if (lx->p[0] == '0' && (lx->p[1] == 'x' || lx->p[1] == 'X')) {
    base = 16;
    advance(lx);
    advance(lx);
  }
  while (base == 16 ? isxdigit((unsigned char)*lx->p) : isdigit((unsigned char)*lx->p))
    advance(lx);
  if (*lx->p == 'U')
    advance(lx); /* PTX's unsigned suffix */
  if (isalnum((unsigned char)*lx->p) || *lx->p == '_' || lx->p == start + 2 * (base == 16))
    return sci_fail(err, SC_ERR_UNSUPPORTED, lx->file, line, col,
                   "expected an integer (decimal or 0x hexadecimal), found "
                   "'%.*s' (floating-point literals are not supported)",
                   (int)(lx->p - start) + 1, start);
  sc_token *tk = push(lx, SC_TK_INT, line, col, start);
  errno = 0;
  unsigned long long v = strtoull(base == 16 ? start + 2 : start, NULL, base);
  if (errno == ERANGE)
    return sci_fail(err, SC_ERR_SYNTAX, lx->file, line, col,
                   "integer %s does not fit in 64 bits", tk->text);
  tk->ival = (int64_t)v;
  return SC_OK;
}

static sc_status lex_string(lexer *lx, sc_error **err) {
  int line = lx->line, col = lx->col;
  const char *start = lx->p;
  advance(lx);
  while (*lx->p && *lx->p != '"' && *lx->p != '\n')
    advance(lx);
  if (*lx->p != '"')
    return sci_fail(err, SC_ERR_SYNTAX, lx->file, line, col,
                   "expected '\"' closing this string on its line");
  advance(lx);
  push(lx, SC_TK_STRING, line, col, start);
  return SC_OK;
}

static const char puncts[] = "{};,:[]()@+-!<>=|";

sc_status sci_ptx_lex(const char *file, const char *text, sc_token **out,
                     int *ntoks, sc_error **err) {
  lexer lx = {file, text, 1, 1, NULL, 0, 0};
  for (;;) {
    sc_status st = skip_blanks(&lx, err);
    if (st)
      return st;
    int c = (unsigned char)*lx.p;
    if (!c)
      break;
    int line = lx.line, col = lx.col;
    const char *start = lx.p;
    if (isdigit(c)) {
      if ((st = lex_number(&lx, err)))
        return st;
    } else if (ident_start(c)) {
      while (ident_start((unsigned char)*lx.p) || isdigit((unsigned char)*lx.p))
        advance(&lx);
      push(&lx, SC_TK_IDENT, line, col, start);
    } else if (c == '"') {
      if ((st = lex_string(&lx, err)))
        return st;
    } else if (strchr(puncts, c)) {
      advance(&lx);
      push(&lx, SC_TK_PUNCT, line, col, start)->punct = c;
    } else {
      return sci_fail(err, SC_ERR_SYNTAX, file, line, col,
                     c >= 32 && c < 127 ? "unexpected character '%c' in PTX"
                                        : "unexpected byte 0x%02x in PTX",
                     c);
    }
  }
  push(&lx, SC_TK_EOF, lx.line, lx.col, lx.p);
  *out = lx.toks;
  *ntoks = lx.ntoks;
  return SC_OK;
}
