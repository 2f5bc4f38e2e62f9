/* parse.c: litmus tests in herd's GPU_PTX dialect and Dat3M's PTX
 * dialect, into the test of litmus.h.  One grammar serves both: the first
 * word picks the dialect, which only decides whether registers must be
 * declared and how threads are placed (scopeTree or P0@cta 0,gpu 0).
 * Instructions are parsed in instr.c. */
#define _POSIX_C_SOURCE 200809L
#include "litmus/parser.h"

#include "util/error.h"
#include "util/file.h"
#include "util/gcmem.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* An initial value: an integer, or a location name (its address). */
static sc_value parse_value(sc_parser *p) {
  sc_value v = {SC_VAL_INT, 0, 0};
  if (sci_peek(p, 0)->kind == SC_TK_IDENT) {
    v.kind = SC_VAL_LOC;
    v.loc = sci_parser_location(p, sci_next(p)->text);
  } else {
    v.i = sci_parse_int(p, "a value (an integer or a location)");
  }
  return v;
}

/* ---- Header: "ARCH NAME", doc lines, up to '{' --------------------------- */

typedef struct header {
  const char *body; /* at '{' */
  int line, col;
} header;

static const char *skip_blank(const char *s, int *line, int *col) {
  while (*s && isspace((unsigned char)*s)) {
    if (*s == '\n') {
      (*line)++;
      *col = 1;
    } else {
      (*col)++;
    }
    s++;
  }
  return s;
}

static header parse_header(sc_parser *p, const char *src) {
  int line = 1, col = 1;
  const char *s = skip_blank(src, &line, &col);
  const char *w = s;
  while (*s && !isspace((unsigned char)*s))
    s++;
  char *arch = sci_strndup(w, (size_t)(s - w));
  if (strcmp(arch, "GPU_PTX") == 0)
    p->t->dialect = SC_DIALECT_GPU_PTX;
  else if (strcmp(arch, "PTX") == 0)
    p->t->dialect = SC_DIALECT_PTX;
  else
    sci_parse_error_at(p, line, col, *arch ? SC_ERR_UNSUPPORTED : SC_ERR_SYNTAX,
                      "expected the architecture GPU_PTX or PTX, found %s",
                      *arch ? sci_printf("'%s'", arch) : "end of file");
  col += (int)(s - w);
  while (*s == ' ' || *s == '\t')
    s++, col++;
  const char *n = s;
  while (*s && *s != '\n' && *s != '\r')
    s++;
  const char *e = s;
  while (e > n && isspace((unsigned char)e[-1]))
    e--;
  if (e == n)
    sci_parse_error_at(p, line, col, SC_ERR_SYNTAX,
                      "expected a test name after %s, found end of line", arch);
  p->t->name = sci_strndup(n, (size_t)(e - n));
  /* Doc lines until the one that starts with '{'.  Read line by line, not
   * as quoted strings: Dat3M's doc strings may hold unbalanced quotes. */
  int cap = 0;
  for (;;) {
    s = skip_blank(s, &line, &col);
    if (*s == '{')
      break;
    if (!*s)
      sci_parse_error_at(p, line, col, SC_ERR_SYNTAX,
                        "expected '{' opening the initial state, found end of "
                        "file");
    const char *start = s;
    while (*s && *s != '\n')
      s++;
    col += (int)(s - start);
    e = s;
    while (e > start && isspace((unsigned char)e[-1]))
      e--;
    sci_grow(&p->t->info, &cap, p->t->ninfo + 1, sizeof(char *));
    p->t->info[p->t->ninfo++] = sci_strndup(start, (size_t)(e - start));
  }
  header h = {s, line, col};
  return h;
}

/* ---- Initial state: { ... } ----------------------------------------------- */

/* Register declarations come before the program says how many threads there
 * are, so they wait here until it does. */
typedef struct pending_reg {
  int thread;
  const sc_token *name;
  sc_type type;
  sc_value init;
} pending_reg;

typedef struct init_state {
  pending_reg *regs;
  int nregs, cap;
} init_state;

static void parse_register_item(sc_parser *p, init_state *st) {
  int thread = sci_parser_expect_thread(p, "a thread");
  sci_expect_punct(p, ':', "':' after the thread");
  pending_reg r = {thread, NULL, SC_TYPE_NONE, {SC_VAL_INT, 0, 0}};
  if (sci_at_word(p, ".reg")) {
    sci_next(p);
    const sc_token *ty = sci_expect_ident(p, "a register type (.s32 .u32 .b32 "
                                            ".s64 .u64 .b64 .pred)");
    int v = ty->text[0] == '.'
                ? sci_name_lookup(sci_type_names, SC_TYPE_COUNT, ty->text + 1)
                : -1;
    if (v <= 0)
      sci_parse_error_at(p, ty->line, ty->col, SC_ERR_SYNTAX,
                        "expected a register type (.s32 .u32 .b32 .s64 .u64 "
                        ".b64 .pred), found '%s'", ty->text);
    r.type = (sc_type)v;
    r.name = sci_expect_ident(p, "a register name");
    if (sci_accept_punct(p, '='))
      r.init = parse_value(p);
  } else {
    r.name = sci_expect_ident(p, "a register name or .reg");
    sci_expect_punct(p, '=', "'=' and the register's initial value");
    r.init = parse_value(p);
  }
  sci_grow(&st->regs, &st->cap, st->nregs + 1, sizeof(pending_reg));
  st->regs[st->nregs++] = r;
}

/* Dat3M: "y @ surface aliases x": y names x through the surface proxy. */
static void parse_alias_item(sc_parser *p, const sc_token *name) {
  sci_expect_punct(p, '@', "'@'");
  const sc_token *kind = sci_expect_ident(p, "a proxy (generic, surface, "
                                            "texture, constant)");
  int v = sci_name_lookup(sci_proxy_names, SC_PROXY_COUNT, kind->text);
  if (v < 0 || v == SC_PROXY_ALIAS)
    sci_parse_error_at(p, kind->line, kind->col, SC_ERR_SYNTAX,
                      "expected a proxy (generic, surface, texture, constant), "
                      "found '%s'", kind->text);
  if (!sci_at_word(p, "aliases"))
    sci_parse_expected(p, "'aliases'");
  sci_next(p);
  const sc_token *target = sci_expect_ident(p, "the aliased location");
  int l = sci_parser_location(p, name->text);
  int to = sci_parser_location(p, target->text);
  if (l == to || p->t->locs[l].alias_of >= 0)
    sci_parse_error_at(p, name->line, name->col, SC_ERR_SEMANTIC,
                      "expected one alias declaration for '%s' naming another "
                      "location", name->text);
  p->t->locs[l].proxy = (sc_proxy)v;
  p->t->locs[l].alias_of = to;
}

static void parse_init(sc_parser *p, init_state *st) {
  sci_expect_punct(p, '{', "'{' opening the initial state");
  bool *seen_init = NULL; /* per location: initialised already? */
  int capseen = 0;
  while (!sci_accept_punct(p, '}')) {
    if (sci_accept_punct(p, ';'))
      continue;
    const sc_token *tk = sci_peek(p, 0);
    if (sci_parser_thread_number(tk) >= 0 && sci_token_is_punct(sci_peek(p, 1), ':')) {
      parse_register_item(p, st);
    } else if (tk->kind == SC_TK_IDENT && sci_token_is_punct(sci_peek(p, 1), '@')) {
      sci_next(p);
      parse_alias_item(p, tk);
    } else if (tk->kind == SC_TK_IDENT) {
      sci_next(p);
      int l = sci_parser_location(p, tk->text);
      sci_grow(&seen_init, &capseen, p->t->nlocs, sizeof(bool));
      if (seen_init[l])
        sci_parse_error_at(p, tk->line, tk->col, SC_ERR_SEMANTIC,
                          "expected one initial value for '%s', found a "
                          "second", tk->text);
      seen_init[l] = true;
      p->t->locs[l].initialised = true;
      sci_expect_punct(p, '=', "'=' and the location's initial value");
      sc_value v = parse_value(p);
      p->t->locs[l].init = v;
    } else {
      sci_parse_expected(p, "a register (0:.reg .s32 r0; or P0:r0=0;), a "
                           "location (x=0;) or '}'");
    }
    if (!sci_at_punct(p, '}'))
      sci_expect_punct(p, ';', "';' after an initial-state item");
  }
}

static void apply_pending_registers(sc_parser *p, const init_state *st) {
  for (int i = 0; i < st->nregs; i++) {
    const pending_reg *r = &st->regs[i];
    if (r->thread >= p->t->nthreads)
      sci_parse_error_at(p, r->name->line, r->name->col, SC_ERR_SEMANTIC,
                        "expected a register of threads 0..%d, found one of "
                        "thread %d", p->t->nthreads - 1, r->thread);
    if (sci_thread_find_register(&p->t->threads[r->thread], r->name->text) >= 0)
      sci_parse_error_at(p, r->name->line, r->name->col, SC_ERR_SEMANTIC,
                        "expected one declaration of register %s of thread %d, "
                        "found a second", r->name->text, r->thread);
    int k = sci_parser_add_register(p, r->thread, r->name->text, r->type);
    p->t->threads[r->thread].regs[k].init = r->init;
  }
}

/* ---- Program ---------------------------------------------------------------- */

/* Dat3M placement "P0@cta 0,gpu 0": cta and gpu numbers per thread. */
typedef struct placement {
  bool given;
  int64_t cta, gpu;
  int line, col; /* of the thread name */
} placement;

static void parse_placement(sc_parser *p, placement *pl) {
  if (!sci_accept_punct(p, '@'))
    return;
  pl->given = true;
  bool have_cta = false, have_gpu = false;
  do {
    const sc_token *w = sci_expect_ident(p, "'cta' or 'gpu'");
    int64_t v = sci_parse_int(p, sci_printf("the number of the %s", w->text));
    if (strcmp(w->text, "cta") == 0 && !have_cta)
      pl->cta = v, have_cta = true;
    else if (strcmp(w->text, "gpu") == 0 && !have_gpu)
      pl->gpu = v, have_gpu = true;
    else
      sci_parse_error_at(p, w->line, w->col, SC_ERR_SYNTAX,
                        "expected one 'cta N' and one 'gpu N', found '%s'",
                        w->text);
  } while (sci_accept_punct(p, ','));
  if (!have_cta || !have_gpu)
    sci_parse_expected(p, "both 'cta N' and 'gpu N' in the placement");
}

static placement *parse_thread_row(sc_parser *p) {
  sc_test *t = p->t;
  placement *pl = NULL;
  int cap = 0;
  for (;;) {
    const sc_token *tk = sci_peek(p, 0);
    int n = sci_parser_thread_number(tk);
    if (n < 0 || tk->kind != SC_TK_IDENT)
      sci_parse_expected(p, sci_printf("the thread name P%d", t->nthreads));
    if (n != t->nthreads)
      sci_parse_error_at(p, tk->line, tk->col, SC_ERR_SEMANTIC,
                        "expected the thread name P%d, found '%s'",
                        t->nthreads, tk->text);
    if (t->nthreads >= p->limits.max_threads)
      sci_parse_error_at(p, tk->line, tk->col, SC_ERR_LIMIT,
                        "expected at most %d threads (the thread limit)",
                        p->limits.max_threads);
    sci_next(p);
    sci_grow(&pl, &cap, t->nthreads + 1, sizeof(placement));
    pl[t->nthreads].line = tk->line;
    pl[t->nthreads].col = tk->col;
    parse_placement(p, &pl[t->nthreads]);
    int ncap = t->nthreads;
    sci_grow(&t->threads, &ncap, t->nthreads + 1, sizeof(sc_thread));
    t->threads[t->nthreads].name = tk->text;
    t->nthreads++;
    if (sci_accept_punct(p, ';'))
      return pl;
    sci_expect_punct(p, '|', "'|' or ';' after a thread name");
  }
}

/* True when the next tokens start what follows the program. */
static bool at_program_end(const sc_parser *p) {
  const sc_token *tk = sci_peek(p, 0);
  if (tk->kind == SC_TK_EOF || sci_token_is_punct(tk, '~'))
    return true;
  if (tk->kind != SC_TK_IDENT)
    return false;
  static const char *const keywords[] = {"scopeTree", "ScopeTree", "exists",
                                         "forall", "locations", "filter"};
  for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
    if (sci_token_is_word(tk, keywords[i]))
      return true;
  /* memory map "x: global" (a label "L0:" is followed by an instruction) */
  const sc_token *colon = sci_peek(p, 1), *region = sci_peek(p, 2);
  return sci_token_is_punct(colon, ':') && region->kind == SC_TK_IDENT &&
         (strcmp(region->text, "global") == 0 ||
          strcmp(region->text, "shared") == 0 ||
          strcmp(region->text, "local") == 0 ||
          strcmp(region->text, "const") == 0);
}

typedef struct branch_fixup {
  int thread, pc;
  const sc_token *label;
} branch_fixup;

typedef struct program_state {
  branch_fixup *fix;
  int nfix, capfix;
} program_state;

static void add_label(sc_parser *p, int thread, const sc_token *name) {
  sc_thread *th = &p->t->threads[thread];
  for (int i = 0; i < th->nlabels; i++)
    if (strcmp(th->labels[i].name, name->text) == 0)
      sci_parse_error_at(p, name->line, name->col, SC_ERR_SEMANTIC,
                        "expected a new label, found '%s' defined twice in "
                        "thread %d", name->text, thread);
  sci_grow(&th->labels, &th->caplabels, th->nlabels + 1, sizeof(sc_label));
  sc_label *l = &th->labels[th->nlabels++];
  l->name = name->text;
  l->pc = th->ninstrs;
  l->line = name->line;
  l->col = name->col;
}

static void parse_cell(sc_parser *p, program_state *ps, int thread) {
  sc_thread *th = &p->t->threads[thread];
  while (sci_peek(p, 0)->kind == SC_TK_IDENT && sci_token_is_punct(sci_peek(p, 1), ':')) {
    add_label(p, thread, sci_next(p));
    sci_next(p);
  }
  if (sci_at_punct(p, '|') || sci_at_punct(p, ';'))
    return;
  if (th->ninstrs >= p->limits.max_instructions) {
    const sc_token *tk = sci_peek(p, 0);
    sci_parse_error_at(p, tk->line, tk->col, SC_ERR_LIMIT,
                      "expected at most %d instructions per thread (the "
                      "instruction limit)", p->limits.max_instructions);
  }
  sci_grow(&th->code, &th->capinstrs, th->ninstrs + 1, sizeof(sc_instr));
  const sc_token *target = NULL;
  sci_parse_instruction(p, thread, &th->code[th->ninstrs], &target);
  if (target) {
    sci_grow(&ps->fix, &ps->capfix, ps->nfix + 1, sizeof(branch_fixup));
    branch_fixup f = {thread, th->ninstrs, target};
    ps->fix[ps->nfix++] = f;
  }
  th->ninstrs++;
}

static void parse_program_rows(sc_parser *p, program_state *ps) {
  int n = p->t->nthreads;
  while (!at_program_end(p)) {
    for (int col = 0;; col++) {
      parse_cell(p, ps, col);
      if (sci_at_punct(p, ';')) {
        if (col != n - 1)
          sci_parse_expected(p, sci_printf("'|' and %d more column%s (the test "
                                         "has %d threads)", n - 1 - col,
                                         n - 1 - col == 1 ? "" : "s", n));
        sci_next(p);
        break;
      }
      if (col == n - 1)
        sci_parse_expected(p, sci_printf("';' ending the row (the test has %d "
                                       "thread%s)", n, n == 1 ? "" : "s"));
      sci_expect_punct(p, '|', "'|' or ';'");
    }
  }
}

static void resolve_branches(sc_parser *p, const program_state *ps) {
  for (int i = 0; i < ps->nfix; i++) {
    const branch_fixup *f = &ps->fix[i];
    sc_thread *th = &p->t->threads[f->thread];
    int found = -1;
    for (int l = 0; l < th->nlabels; l++)
      if (strcmp(th->labels[l].name, f->label->text) == 0)
        found = l;
    if (found < 0)
      sci_parse_error_at(p, f->label->line, f->label->col, SC_ERR_SEMANTIC,
                        "expected a label of thread %d, found '%s'", f->thread,
                        f->label->text);
    th->code[f->pc].target = found;
  }
}

/* ---- Scope tree, memory map --------------------------------------------- */

sc_scope_node *sci_scope_node_new(sc_level level, int thread) {
  sc_scope_node *n = sci_alloc(sizeof *n);
  n->level = level;
  n->thread = thread;
  return n;
}

void sci_scope_node_add(sc_scope_node *parent, sc_scope_node *kid) {
  sci_grow(&parent->kids, &parent->capkids, parent->nkids + 1,
          sizeof(sc_scope_node *));
  parent->kids[parent->nkids++] = kid;
}

static void add_root(sc_test *t, sc_scope_node *n) {
  sci_grow(&t->scope_roots, &t->capscope_roots, t->nscope_roots + 1,
          sizeof(sc_scope_node *));
  t->scope_roots[t->nscope_roots++] = n;
}

static int level_of_word(const char *w) {
  if (strcmp(w, "device") == 0) return SC_LEVEL_DEVICE;
  if (strcmp(w, "kernel") == 0 || strcmp(w, "grid") == 0) return SC_LEVEL_KERNEL;
  if (strcmp(w, "cta") == 0) return SC_LEVEL_CTA;
  if (strcmp(w, "warp") == 0) return SC_LEVEL_WARP;
  return -1;
}

static sc_scope_node *parse_scope_node(sc_parser *p, int parent_level,
                                       bool *placed) {
  sci_expect_punct(p, '(', "'(' opening a scope");
  const sc_token *w = sci_expect_ident(p, "a scope level (device, kernel, "
                                         "grid, cta, warp)");
  int level = level_of_word(w->text);
  if (level < 0)
    sci_parse_error_at(p, w->line, w->col, SC_ERR_SYNTAX,
                      "expected a scope level (device, kernel, grid, cta, "
                      "warp), found '%s'", w->text);
  if (level <= parent_level)
    sci_parse_error_at(p, w->line, w->col, SC_ERR_SEMANTIC,
                      "expected a scope narrower than its parent %s, found %s",
                      sci_level_name((sc_level)parent_level), w->text);
  sc_scope_node *n = sci_scope_node_new((sc_level)level, -1);
  while (!sci_accept_punct(p, ')')) {
    if (sci_at_punct(p, '(')) {
      sci_scope_node_add(n, parse_scope_node(p, level, placed));
      continue;
    }
    const sc_token *tk = sci_peek(p, 0);
    int th = sci_parser_thread_number(tk);
    if (th < 0 || tk->kind != SC_TK_IDENT)
      sci_parse_expected(p, "a thread name, '(' or ')'");
    if (th >= p->t->nthreads)
      sci_parse_error_at(p, tk->line, tk->col, SC_ERR_SEMANTIC,
                        "expected a thread of this test (P0..P%d), found '%s'",
                        p->t->nthreads - 1, tk->text);
    if (placed[th])
      sci_parse_error_at(p, tk->line, tk->col, SC_ERR_SEMANTIC,
                        "expected each thread once in the scope tree, found "
                        "'%s' again", tk->text);
    placed[th] = true;
    sci_next(p);
    sci_scope_node_add(n, sci_scope_node_new(SC_LEVEL_THREAD, th));
  }
  if (n->nkids == 0)
    sci_parse_error_at(p, w->line, w->col, SC_ERR_SEMANTIC,
                      "expected threads or scopes inside (%s ...)", w->text);
  return n;
}

static void parse_scope_tree(sc_parser *p) {
  const sc_token *kw = sci_next(p);
  if (p->t->nscope_roots > 0)
    sci_parse_error_at(p, kw->line, kw->col, SC_ERR_SEMANTIC,
                      "expected one thread placement, found a scope tree in "
                      "addition to an earlier one");
  bool *placed = sci_alloc(sizeof(bool) * (size_t)(p->t->nthreads + 1));
  if (!sci_at_punct(p, '('))
    sci_parse_expected(p, "'(' opening the scope tree");
  while (sci_at_punct(p, '('))
    add_root(p->t, parse_scope_node(p, -1, placed));
  for (int i = 0; i < p->t->nthreads; i++)
    if (!placed[i])
      sci_parse_error_at(p, kw->line, kw->col, SC_ERR_SEMANTIC,
                        "expected every thread in the scope tree, but %s is "
                        "missing", p->t->threads[i].name);
}

static void parse_memory_map(sc_parser *p) {
  p->t->has_memory_map = true;
  bool *seen = NULL;
  int cap = 0;
  while (sci_peek(p, 0)->kind == SC_TK_IDENT && sci_token_is_punct(sci_peek(p, 1), ':')) {
    const sc_token *name = sci_next(p);
    sci_next(p);
    const sc_token *r = sci_expect_ident(p, "a memory region (global, shared)");
    int region = sci_name_lookup(sci_space_names, SC_SPACE_COUNT, r->text);
    if (region <= 0)
      sci_parse_error_at(p, r->line, r->col, SC_ERR_UNSUPPORTED,
                        "expected a memory region global or shared, found '%s'",
                        r->text);
    int l = sci_parser_location(p, name->text);
    sci_grow(&seen, &cap, p->t->nlocs, sizeof(bool));
    if (seen[l])
      sci_parse_error_at(p, name->line, name->col, SC_ERR_SEMANTIC,
                        "expected one region for '%s', found a second",
                        name->text);
    seen[l] = true;
    p->t->locs[l].region = (sc_space)region;
    if (!sci_accept_punct(p, ','))
      sci_accept_punct(p, ';');
  }
}

/* ---- Conditions ------------------------------------------------------------- */

static sc_prop *new_prop(sc_prop_kind kind, sc_prop *a, sc_prop *b) {
  sc_prop *pr = sci_alloc(sizeof *pr);
  pr->kind = kind;
  pr->a = a;
  pr->b = b;
  return pr;
}

/* 0:r1, P0:r1, x, [x], or an integer constant.  On the right of '=', a
 * bare location name is its address (herd's reading of "0:r1=x"). */
static sc_lval parse_lval(sc_parser *p, bool rhs) {
  sc_lval lv = {SC_LVAL_LOC, 0, 0, 0, 0};
  const sc_token *tk = sci_peek(p, 0);
  if (sci_parser_thread_number(tk) >= 0 && sci_token_is_punct(sci_peek(p, 1), ':')) {
    lv.kind = SC_LVAL_REG;
    lv.thread = sci_parser_expect_thread(p, "a thread");
    sci_next(p);
    lv.reg = sci_parser_register(p, lv.thread,
                                sci_expect_ident(p, "a register name"));
  } else if (tk->kind == SC_TK_INT || sci_token_is_punct(tk, '-')) {
    lv.kind = SC_LVAL_CONST;
    lv.constant = sci_parse_int(p, "an integer");
  } else if (sci_accept_punct(p, '[')) {
    lv.loc = sci_parser_location(p, sci_expect_ident(p, "a location")->text);
    sci_expect_punct(p, ']', "']'");
  } else {
    lv.loc = sci_parser_location(
        p, sci_expect_ident(p, "a register (0:r1), a location or a value")->text);
    if (rhs)
      lv.kind = SC_LVAL_ADDR;
  }
  return lv;
}

static sc_prop *parse_prop(sc_parser *p);

static sc_prop *parse_atom_prop(sc_parser *p) {
  /* herd7 writes negation "~", "not" (in its logs) or "!" */
  if (sci_accept_punct(p, '~') || sci_accept_punct(p, '!'))
    return new_prop(SC_PROP_NOT, parse_atom_prop(p), NULL);
  if (sci_at_word(p, "not") && sci_token_is_punct(sci_peek(p, 1), '(')) {
    sci_next(p);
    return new_prop(SC_PROP_NOT, parse_atom_prop(p), NULL);
  }
  if (sci_accept_punct(p, '(')) {
    sc_prop *pr = parse_prop(p);
    sci_expect_punct(p, ')', "')' closing the parenthesis");
    return pr;
  }
  if (sci_at_word(p, "true") || sci_at_word(p, "false"))
    return new_prop(strcmp(sci_next(p)->text, "true") == 0 ? SC_PROP_TRUE
                                                         : SC_PROP_FALSE,
                    NULL, NULL);
  sc_prop *pr = new_prop(SC_PROP_EQ, NULL, NULL);
  pr->lhs = parse_lval(p, false);
  if (sci_accept_punct(p, SC_P_NEQ))
    pr->kind = SC_PROP_NE;
  else if (!sci_accept_punct(p, '=') && !sci_accept_punct(p, SC_P_EQEQ))
    sci_parse_expected(p, "'=', '==' or '!=' in the condition");
  pr->rhs = parse_lval(p, true);
  return pr;
}

static sc_prop *parse_conj(sc_parser *p) {
  sc_prop *pr = parse_atom_prop(p);
  while (sci_accept_punct(p, SC_P_AND))
    pr = new_prop(SC_PROP_AND, pr, parse_atom_prop(p));
  return pr;
}

static sc_prop *parse_disj(sc_parser *p) {
  sc_prop *pr = parse_conj(p);
  while (sci_accept_punct(p, SC_P_OR))
    pr = new_prop(SC_PROP_OR, pr, parse_conj(p));
  return pr;
}

static sc_prop *parse_prop(sc_parser *p) {
  sc_prop *pr = parse_disj(p);
  if (sci_accept_punct(p, SC_P_IMPLIES))
    pr = new_prop(SC_PROP_IMPLIES, pr, parse_prop(p));
  return pr;
}

static void parse_observed(sc_parser *p) {
  sci_next(p);
  sc_test *t = p->t;
  sci_expect_punct(p, '[', "'[' opening the list of locations");
  while (!sci_accept_punct(p, ']')) {
    if (sci_accept_punct(p, ';'))
      continue;
    sc_lval lv = parse_lval(p, false);
    if (lv.kind == SC_LVAL_CONST)
      sci_parse_expected(p, "a register or a location in 'locations'");
    sci_grow(&t->observed, &t->capobserved, t->nobserved + 1, sizeof(sc_lval));
    t->observed[t->nobserved++] = lv;
  }
}

/* scopeTree, memory map, locations, filter, then the final condition. */
static void parse_tail(sc_parser *p) {
  for (;;) {
    if (sci_at_word(p, "scopeTree") || sci_at_word(p, "ScopeTree")) {
      parse_scope_tree(p);
    } else if (sci_at_word(p, "locations")) {
      parse_observed(p);
    } else if (sci_at_word(p, "filter")) {
      sci_next(p);
      p->t->filter = parse_prop(p);
    } else if (sci_peek(p, 0)->kind == SC_TK_IDENT &&
               sci_token_is_punct(sci_peek(p, 1), ':') && !p->t->has_memory_map) {
      parse_memory_map(p);
    } else {
      break;
    }
  }
  if (sci_at_word(p, "exists")) {
    p->t->quant = SC_EXISTS;
  } else if (sci_at_word(p, "forall")) {
    p->t->quant = SC_FORALL;
  } else if (sci_at_punct(p, '~') && sci_token_is_word(sci_peek(p, 1), "exists")) {
    p->t->quant = SC_NOT_EXISTS;
    sci_next(p);
  } else {
    sci_parse_expected(p, "scopeTree, a memory map (x: global), locations, "
                         "filter, exists, ~exists or forall");
  }
  sci_next(p);
  p->t->cond = parse_prop(p);
  if (sci_peek(p, 0)->kind != SC_TK_EOF)
    sci_parse_expected(p, "end of file after the final condition");
}

/* ---- Placement -------------------------------------------------------------- */

/* Dat3M placements become a scope tree: (device (cta P0 P1) (cta P2)) per
 * gpu number, CTAs keyed by (gpu, cta). */
static void placement_to_tree(sc_parser *p, const placement *pl) {
  sc_test *t = p->t;
  int nplaced = 0;
  for (int i = 0; i < t->nthreads; i++)
    nplaced += pl[i].given;
  if (nplaced == 0)
    return;
  for (int i = 0; nplaced != t->nthreads && i < t->nthreads; i++)
    if (!pl[i].given)
      sci_parse_error_at(p, pl[i].line, pl[i].col, SC_ERR_SEMANTIC,
                        "expected a placement (@cta N,gpu N) for every thread "
                        "or for none, found none for %s", t->threads[i].name);
  sc_scope_node **dev = sci_alloc(sizeof(sc_scope_node *) * (size_t)t->nthreads);
  int64_t *dev_gpu = sci_alloc(sizeof(int64_t) * (size_t)t->nthreads);
  int ndev = 0;
  for (int i = 0; i < t->nthreads; i++) {
    int d = 0;
    while (d < ndev && dev_gpu[d] != pl[i].gpu)
      d++;
    if (d == ndev) {
      dev[ndev] = sci_scope_node_new(SC_LEVEL_DEVICE, -1);
      dev_gpu[ndev++] = pl[i].gpu;
      add_root(t, dev[d]);
    }
    sc_scope_node *cta = NULL;
    for (int k = 0; k < dev[d]->nkids; k++) {
      int first = dev[d]->kids[k]->kids[0]->thread;
      if (pl[first].cta == pl[i].cta)
        cta = dev[d]->kids[k];
    }
    if (!cta) {
      cta = sci_scope_node_new(SC_LEVEL_CTA, -1);
      sci_scope_node_add(dev[d], cta);
    }
    sci_scope_node_add(cta, sci_scope_node_new(SC_LEVEL_THREAD, i));
  }
}

/* Instance numbers per level.  A level the tree leaves out is implicit:
 * one device and one kernel shared by the threads that have none, and a
 * CTA and a warp of its own for each thread that has none. */
typedef struct place_walk {
  sc_test *t;
  int next[SC_LEVEL_THREAD];
} place_walk;

static void place_node(place_walk *w, const sc_scope_node *n,
                       int inherited[SC_LEVEL_THREAD]) {
  if (n->level == SC_LEVEL_THREAD) {
    memcpy(w->t->threads[n->thread].place, inherited,
           sizeof(int) * SC_LEVEL_THREAD);
    return;
  }
  int mine[SC_LEVEL_THREAD];
  memcpy(mine, inherited, sizeof mine);
  mine[n->level] = w->next[n->level]++;
  for (int i = 0; i < n->nkids; i++)
    place_node(w, n->kids[i], mine);
}

static void compute_placement(sc_test *t) {
  place_walk w = {t, {0}};
  int none[SC_LEVEL_THREAD] = {-1, -1, -1, -1};
  for (int i = 0; i < t->nthreads; i++)
    memcpy(t->threads[i].place, none, sizeof none);
  for (int r = 0; r < t->nscope_roots; r++)
    place_node(&w, t->scope_roots[r], none);
  int implicit_device = w.next[SC_LEVEL_DEVICE];
  for (int i = 0; i < t->nthreads; i++) {
    int *pl = t->threads[i].place;
    if (pl[SC_LEVEL_DEVICE] < 0)
      pl[SC_LEVEL_DEVICE] = implicit_device;
    if (pl[SC_LEVEL_KERNEL] < 0) /* one implicit kernel per device */
      pl[SC_LEVEL_KERNEL] = w.next[SC_LEVEL_KERNEL] + pl[SC_LEVEL_DEVICE];
    if (pl[SC_LEVEL_CTA] < 0)
      pl[SC_LEVEL_CTA] = w.next[SC_LEVEL_CTA]++;
    if (pl[SC_LEVEL_WARP] < 0)
      pl[SC_LEVEL_WARP] = w.next[SC_LEVEL_WARP]++;
  }
}

/* ---- Entry points --------------------------------------------------------- */

static void parse_test(sc_parser *p, const char *src) {
  header h = parse_header(p, src);
  sc_status st = sci_lex(p->file, h.body, h.line, h.col, &p->toks, &p->ntoks,
                        &p->err);
  if (st)
    longjmp(p->on_error, 1);
  init_state init = {NULL, 0, 0};
  parse_init(p, &init);
  placement *pl = parse_thread_row(p);
  apply_pending_registers(p, &init);
  program_state ps = {NULL, 0, 0};
  parse_program_rows(p, &ps);
  resolve_branches(p, &ps);
  placement_to_tree(p, pl);
  parse_tail(p);
  compute_placement(p->t);
}

/* A proposition in the condition language, about the final state of
 * test `t` (which it may not change: unknown names are errors). */
sc_status sci_test_parse_prop(const sc_test *t, const char *text,
                             sc_prop **out, sc_error **err) {
  sc_parser *p = sci_alloc(sizeof *p);
  p->file = "<proposition>";
  p->t = (sc_test *)t; /* frozen: never written */
  p->frozen = true;
  *out = NULL;
  if (setjmp(p->on_error)) {
    if (err)
      *err = p->err;
    return p->err->status;
  }
  if (sci_lex(p->file, text, 1, 1, &p->toks, &p->ntoks, &p->err))
    longjmp(p->on_error, 1);
  sc_prop *pr = parse_prop(p);
  if (sci_peek(p, 0)->kind != SC_TK_EOF)
    sci_parse_expected(p, "end of the proposition");
  *out = pr;
  return SC_OK;
}


/* The test of `text` (sc_test_load_string of the public header). */
sc_status sci_litmus_parse(const char *text, const char *filename,
                          const sc_parse_limits *limits, sc_test **out,
                          sc_error **err) {
  *out = NULL;
  if (!text)
    return sci_fail(err, SC_ERR_USAGE, filename, 0, 0, "no text to parse");
  sc_parser *p = sci_alloc(sizeof *p);
  p->file = filename ? sci_strdup(filename) : "<string>";
  sci_parser_limits(&p->limits, limits);
  if (strlen(text) > p->limits.max_file_bytes)
    return sci_fail(err, SC_ERR_LIMIT, p->file, 0, 0,
                   "expected at most %zu bytes (the file-size limit)",
                   p->limits.max_file_bytes);
  p->t = sci_alloc(sizeof(sc_test));
  p->t->file = p->file;
  p->t->max_events = p->limits.max_events;
  if (setjmp(p->on_error)) {
    if (err)
      *err = p->err;
    return p->err->status;
  }
  parse_test(p, text);
  *out = p->t;
  return SC_OK;
}

