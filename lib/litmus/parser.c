/* parser.c: the parser state's services, shared by the test-level parser
 * (parse.c) and the instruction parser (instr.c) and below both: errors
 * that unwind to the entry point, the token cursor, registers and
 * locations by name, and the parse limits' defaults. */
#define _POSIX_C_SOURCE 200809L
#include "litmus/parser.h"

#include "util/error.h"
#include "util/gcmem.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_MAX_FILE_BYTES (16u << 20)
#define DEFAULT_MAX_THREADS 256
#define DEFAULT_MAX_INSTRUCTIONS 4096

/* ---- Errors and tokens ---------------------------------------------------- */

_Noreturn void sci_parse_error_at(sc_parser *p, int line, int col,
                                 sc_status status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *what = sci_vprintf(fmt, ap);
  va_end(ap);
  p->err = sci_error_new(status, p->file, line, col, "%s", what);
  longjmp(p->on_error, 1);
}

_Noreturn void sci_parse_expected(sc_parser *p, const char *what) {
  const sc_token *tk = sci_peek(p, 0);
  sci_parse_error_at(p, tk->line, tk->col, SC_ERR_SYNTAX, "expected %s, found %s",
                    what, sci_token_describe(tk));
}

const sc_token *sci_peek(const sc_parser *p, int ahead) {
  int i = p->pos + ahead;
  return &p->toks[i < p->ntoks ? i : p->ntoks - 1];
}

const sc_token *sci_next(sc_parser *p) {
  const sc_token *tk = sci_peek(p, 0);
  if (p->pos < p->ntoks - 1)
    p->pos++;
  return tk;
}

int sci_at_punct(const sc_parser *p, int punct) {
  return sci_token_is_punct(sci_peek(p, 0), punct);
}

int sci_accept_punct(sc_parser *p, int punct) {
  if (!sci_at_punct(p, punct))
    return 0;
  sci_next(p);
  return 1;
}

const sc_token *sci_expect_punct(sc_parser *p, int punct, const char *what) {
  if (!sci_at_punct(p, punct))
    sci_parse_expected(p, what);
  return sci_next(p);
}

int sci_at_word(const sc_parser *p, const char *word) {
  return sci_token_is_word(sci_peek(p, 0), word);
}

const sc_token *sci_expect_ident(sc_parser *p, const char *what) {
  if (sci_peek(p, 0)->kind != SC_TK_IDENT)
    sci_parse_expected(p, what);
  return sci_next(p);
}

int64_t sci_parse_int(sc_parser *p, const char *what) {
  bool neg = sci_accept_punct(p, '-');
  if (sci_peek(p, 0)->kind != SC_TK_INT)
    sci_parse_expected(p, what);
  int64_t v = sci_next(p)->ival;
  return neg ? (int64_t)(0 - (uint64_t)v) : v;
}

/* ---- Names: threads, registers, locations -------------------------------- */

/* "P3", "T3" or "3" as a thread number; -1 when `tk` is none of these. */
int sci_parser_thread_number(const sc_token *tk) {
  const char *s = tk->text;
  if (tk->kind == SC_TK_INT)
    return tk->ival >= 0 && tk->ival < 1000000 ? (int)tk->ival : -1;
  if (tk->kind != SC_TK_IDENT || (s[0] != 'P' && s[0] != 'T') || !s[1])
    return -1;
  long v = 0;
  for (const char *c = s + 1; *c; c++) {
    if (!isdigit((unsigned char)*c) || v > 1000000)
      return -1;
    v = v * 10 + (*c - '0');
  }
  return (int)v;
}

int sci_parser_expect_thread(sc_parser *p, const char *what) {
  const sc_token *tk = sci_peek(p, 0);
  int n = sci_parser_thread_number(tk);
  if (n < 0)
    sci_parse_expected(p, what);
  if (p->t->nthreads > 0 && n >= p->t->nthreads)
    sci_parse_error_at(p, tk->line, tk->col, SC_ERR_SEMANTIC,
                      "expected a thread of this test (P0..P%d), found %s",
                      p->t->nthreads - 1, sci_token_describe(tk));
  sci_next(p);
  return n;
}

int sci_parser_add_register(sc_parser *p, int thread, const char *name,
                        sc_type type) {
  sc_thread *th = &p->t->threads[thread];
  sci_grow(&th->regs, &th->capregs, th->nregs + 1, sizeof(sc_register));
  sc_register *r = &th->regs[th->nregs];
  r->name = name;
  r->type = type;
  r->init.kind = SC_VAL_INT;
  r->init.i = 0;
  return th->nregs++;
}

int sci_parser_register(sc_parser *p, int thread, const sc_token *tk) {
  int r = sci_thread_find_register(&p->t->threads[thread], tk->text);
  if (r >= 0)
    return r;
  if (p->frozen)
    sci_parse_error_at(p, tk->line, tk->col, SC_ERR_SEMANTIC,
                      "expected a register of thread %d, found '%s'", thread,
                      tk->text);
  if (p->t->dialect == SC_DIALECT_GPU_PTX)
    sci_parse_error_at(p, tk->line, tk->col, SC_ERR_SEMANTIC,
                      "expected a declared register of thread %d, found '%s' "
                      "(declare it as %d:.reg .s32 %s;)",
                      thread, tk->text, thread, tk->text);
  return sci_parser_add_register(p, thread, tk->text, SC_TYPE_NONE);
}

/* The token that named `name` just now: the last one taken, or the next. */
static const sc_token *naming_token(const sc_parser *p, const char *name) {
  for (int back = 1; back >= 0; back--) {
    int i = p->pos - back;
    if (i >= 0 && i < p->ntoks && p->toks[i].text &&
        strcmp(p->toks[i].text, name) == 0)
      return &p->toks[i];
  }
  return &p->toks[p->pos > 0 ? p->pos - 1 : 0];
}

int sci_parser_location(sc_parser *p, const char *name) {
  sc_test *t = p->t;
  int l = sci_test_find_location(t, name);
  if (l >= 0) {
    if (!p->frozen)
      t->locs[l].mentions++;
    return l;
  }
  if (p->frozen) {
    const sc_token *tk = &p->toks[p->pos > 0 ? p->pos - 1 : 0];
    sci_parse_error_at(p, tk->line, tk->col, SC_ERR_SEMANTIC,
                      "expected a location of the test, found '%s'", name);
  }
  sci_grow(&t->locs, &t->caplocs, t->nlocs + 1, sizeof(sc_location));
  sc_location *loc = &t->locs[t->nlocs];
  loc->name = sci_strdup(name);
  loc->init.kind = SC_VAL_INT;
  loc->region = SC_SPACE_NONE;
  loc->proxy = SC_PROXY_GENERIC;
  loc->alias_of = -1;
  loc->mentions = 1;
  const sc_token *tk = naming_token(p, name);
  loc->line = tk->line;
  loc->col = tk->col;
  loc->initialised = false;
  return t->nlocs++;
}

void sci_parser_limits(sc_parse_limits *out, const sc_parse_limits *in) {
  sc_parse_limits d = {DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_THREADS,
                       DEFAULT_MAX_INSTRUCTIONS, 0};
  if (in) {
    if (in->max_file_bytes)
      d.max_file_bytes = in->max_file_bytes;
    if (in->max_threads > 0)
      d.max_threads = in->max_threads;
    if (in->max_instructions > 0)
      d.max_instructions = in->max_instructions;
    if (in->max_events > 0)
      d.max_events = in->max_events; /* 0: sim/sem.c's default */
  }
  *out = d;
}
