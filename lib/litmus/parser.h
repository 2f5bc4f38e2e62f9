/* parser.h: parser state shared by the test-level parser
 * (parse.c) and the instruction parser (instr.c).  Errors
 * unwind with longjmp to the entry point, as in Lua: all memory is GC-owned,
 * so nothing leaks on the way out. */
#ifndef SC_LITMUS_PARSE_H
#define SC_LITMUS_PARSE_H

#include "litmus/litmus.h"
#include "litmus/lex.h"

#include <setjmp.h>
#include <stdbool.h>

typedef struct sc_parser {
  const char *file;
  sc_test *t;
  sc_token *toks;
  int ntoks, pos;
  sc_parse_limits limits;
  jmp_buf on_error;
  sc_error *err;
  bool frozen; /* parsing against a finished test: unknown names are errors */
} sc_parser;

_Noreturn void sci_parse_error_at(sc_parser *p, int line, int col,
                                 sc_status status, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* "expected WHAT, found <current token>" at the current token. */
_Noreturn void sci_parse_expected(sc_parser *p, const char *what);

const sc_token *sci_peek(const sc_parser *p, int ahead);
const sc_token *sci_next(sc_parser *p);
int sci_at_punct(const sc_parser *p, int punct);
int sci_accept_punct(sc_parser *p, int punct);
const sc_token *sci_expect_punct(sc_parser *p, int punct, const char *what);
int sci_at_word(const sc_parser *p, const char *word);
const sc_token *sci_expect_ident(sc_parser *p, const char *what);
/* An integer with an optional leading '-'. */
int64_t sci_parse_int(sc_parser *p, const char *what);

/* "P3", "T3" or "3" as a thread number; -1 when `tk` is none of these. */
int sci_parser_thread_number(const sc_token *tk);
/* A thread name at the current token, as a thread number. */
int sci_parser_expect_thread(sc_parser *p, const char *what);
/* Declare register `name` of `thread` with `type`; its index. */
int sci_parser_add_register(sc_parser *p, int thread, const char *name,
                           sc_type type);
/* Register `name` of thread `th`, declared implicitly in the PTX dialect;
 * an error at `tk` in GPU_PTX, where registers must be declared. */
int sci_parser_register(sc_parser *p, int thread, const sc_token *tk);
/* Location by name, created with default attributes when new. */
int sci_parser_location(sc_parser *p, const char *name);

/* `in` with the defaults filled in for its zero fields. */
void sci_parser_limits(sc_parse_limits *out, const sc_parse_limits *in);

/* Parse one instruction from the current token up to '|' or ';' into `in`
 * of thread `thread`; branch targets are left as label names in
 * `*target_name` and resolved by the caller. */
void sci_parse_instruction(sc_parser *p, int thread, sc_instr *in,
                          const sc_token **target_tok);

#endif
