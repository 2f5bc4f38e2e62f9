/* lex.h: tokens of a litmus test body (from '{' to the end).  The
 * header line and doc strings before '{' are read line-wise by the parser;
 * everything after is free-form tokens with positions. */
#ifndef SC_LITMUS_LEX_H
#define SC_LITMUS_LEX_H

#include "scopecat.h"

#include <stdint.h>

typedef enum sc_tok_kind {
  SC_TK_EOF, SC_TK_IDENT, SC_TK_INT, SC_TK_STRING, SC_TK_PUNCT
} sc_tok_kind;

/* Multi-character punctuation; single characters use their own code. */
enum {
  SC_P_EQEQ = 256, /* == */
  SC_P_NEQ,        /* != */
  SC_P_AND,        /* /\ */
  SC_P_OR,         /* \/ */
  SC_P_IMPLIES     /* => */
};

typedef struct sc_token {
  sc_tok_kind kind;
  const char *text; /* NUL-terminated copy of the token's text */
  int punct;        /* SC_TK_PUNCT: the character or SC_P_* code */
  int64_t ival;     /* SC_TK_INT */
  int line, col;
} sc_token;

/* Split `src` (starting at `line`, `col`) into tokens; the array ends with
 * an SC_TK_EOF token.  Comments (* ... *) are skipped. */
sc_status sci_lex(const char *file, const char *src, int line, int col,
                 sc_token **out, int *ntoks, sc_error **err);

/* A token as error messages show it: 'ld.cg', integer 3, end of file. */
const char *sci_token_describe(const sc_token *tk);

/* Whether `tk` is the punctuation `punct` (a character or SC_P_*), or
 * the identifier `word`. */
int sci_token_is_punct(const sc_token *tk, int punct);
int sci_token_is_word(const sc_token *tk, const char *word);

#endif
