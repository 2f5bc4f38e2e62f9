/* hist_match.c: which test a log block is about.  A litmus log prints the
 * test it ran, but as the runner printed it, not as the file read: the
 * condition comes before the scope tree and memory map, and the GPU litmus
 * runner of ASPLOS'15 printed the initial state as "{}", losing register
 * declarations (and so which location each address register holds).  Such
 * a source is completed from a candidate test and must then equal it. */
#include "report/hist.h"

#include "util/error.h"
#include "util/gcmem.h"
#include "util/oom.h"
#include "sim/sem.h"
#include "util/strbuf.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- The printed source, as a test file ---------------------------------- */

typedef struct lines {
  const char **at;
  int n, cap;
} lines;

static lines split_lines(const char *text) {
  lines ls = {NULL, 0, 0};
  while (*text) {
    const char *nl = strchr(text, '\n');
    size_t len = nl ? (size_t)(nl - text) : strlen(text);
    sci_grow(&ls.at, &ls.cap, ls.n + 1, sizeof(char *));
    ls.at[ls.n++] = sci_strndup(text, len);
    text += len + (nl != NULL);
  }
  return ls;
}

static const char *skip_space(const char *s) {
  while (isspace((unsigned char)*s))
    s++;
  return s;
}

static bool starts_word(const char *s, const char *word) {
  size_t n = strlen(word);
  return strncmp(s, word, n) == 0 && !isalnum((unsigned char)s[n]);
}

/* A whole condition on one line, as the runner prints it: "exists (...)". */
static bool is_condition_line(const char *line) {
  const char *s = skip_space(line);
  if (*s == '~')
    s = skip_space(s + 1);
  const char *word = starts_word(s, "exists")   ? "exists"
                     : starts_word(s, "forall") ? "forall"
                                                : NULL;
  return word && *skip_space(s + strlen(word)) != '\0';
}

static lines copy_lines(lines ls) {
  lines c = ls;
  c.at = sci_alloc(sizeof(char *) * (size_t)(ls.n + 1));
  memcpy(c.at, ls.at, sizeof(char *) * (size_t)ls.n);
  c.cap = ls.n + 1;
  return c;
}

/* The runner prints the scope tree and the memory map after the condition,
 * the tree without its keyword; a test file has them before.  Lines move,
 * none is added or removed, so positions before the condition still point
 * into the log.  Returns false when nothing follows the condition. */
static bool condition_last(lines ls, lines *out) {
  int c = 0;
  while (c < ls.n && !is_condition_line(ls.at[c]))
    c++;
  if (c >= ls.n - 1)
    return false;
  *out = copy_lines(ls);
  for (int i = c; i + 1 < ls.n; i++) {
    const char *next = ls.at[i + 1];
    bool tree = *skip_space(next) == '(';
    out->at[i] = tree ? sci_printf("scopeTree %s", next) : next;
  }
  out->at[ls.n - 1] = ls.at[c];
  return true;
}

/* The initial state's line, when it is printed empty: "{}". */
static int empty_init(lines ls) {
  for (int i = 0; i < ls.n; i++) {
    const char *s = skip_space(ls.at[i]);
    if (*s != '{')
      continue;
    s = skip_space(s + 1);
    return *s == '}' && *skip_space(s + 1) == '\0' ? i : -1;
  }
  return -1;
}

/* The candidate's initial state on one line, from its canonical text
 * ("{", a declaration per line, "}"), so that line numbers stay put. */
static const char *init_of(const sc_test *t) {
  const char *text = sci_litmus_print(t, SC_DIALECT_GPU_PTX);
  const char *open = strstr(text, "\n{\n"), *close = strstr(text, "\n}\n");
  if (!open || !close || close < open)
    return NULL;
  sc_strbuf sb;
  sci_sb_init(&sb);
  for (const char *p = open + 1; p <= close + 1; p++)
    sci_sb_putc(&sb, *p == '\n' ? ' ' : *p);
  return sb.data;
}

/* The log's text up to the source, as blank lines, then the source: parse
 * errors then give positions in the log. */
static const char *as_file(const sc_hist *h, lines ls) {
  sc_strbuf sb;
  sci_sb_init(&sb);
  for (int i = 1; i < h->source_line; i++)
    sci_sb_putc(&sb, '\n');
  for (int i = 0; i < ls.n; i++) {
    sci_sb_puts(&sb, ls.at[i]);
    sci_sb_putc(&sb, '\n');
  }
  return sb.data;
}

/* ---- Choosing among the candidates --------------------------------------- */

static const sc_test *equal_candidate(const sc_test *t,
                                      const sc_test *const *cands, int n) {
  for (int i = 0; i < n; i++)
    if (sc_test_equal(t, cands[i]))
      return cands[i];
  return NULL;
}

/* The candidate of the block's name that completes its printed source. */
static const sc_test *completing_candidate(const sc_hist *h, lines ls,
                                           int init_line,
                                           const sc_test *const *cands,
                                           int n) {
  for (int i = 0; i < n; i++) {
    const char *init = strcmp(sc_test_name(cands[i]), h->name) == 0
                           ? init_of(cands[i])
                           : NULL;
    if (!init)
      continue;
    lines with = copy_lines(ls);
    with.at[init_line] = init;
    sc_test *t;
    sc_error *ignored;
    if (sc_test_load_string(as_file(h, with), h->file, NULL, &t, &ignored) ==
            SC_OK &&
        sc_test_equal(t, cands[i]))
      return cands[i];
  }
  return NULL;
}

/* The source as printed, else in a test file's order (the condition
 * last); *perr says why the last one tried does not parse. */
static sc_test *parse_source(const sc_hist *h, lines *ls, sc_error **perr) {
  sc_test *t;
  if (sc_test_load_string(as_file(h, *ls), h->file, NULL, &t, perr) == SC_OK)
    return t;
  lines moved;
  if (!condition_last(*ls, &moved))
    return NULL;
  *ls = moved;
  return sc_test_load_string(as_file(h, moved), h->file, NULL, &t, perr) ==
                 SC_OK
             ? t
             : NULL;
}

static sc_status from_source(const sc_hist *h, const sc_test *const *cands,
                             int n, const sc_test **out, sc_error **err) {
  lines ls = split_lines(h->source);
  sc_error *perr;
  sc_test *t = parse_source(h, &ls, &perr);
  if (t) {
    const sc_test *same = equal_candidate(t, cands, n);
    *out = same ? same : t;
    return SC_OK;
  }
  int init_line = empty_init(ls);
  if (init_line >= 0)
    *out = completing_candidate(h, ls, init_line, cands, n);
  if (*out)
    return SC_OK;
  if (init_line < 0)
    return sci_fail(err, perr->status, perr->file, perr->line, perr->col,
                   "%s (in the test source this log prints)", perr->what);
  return sci_fail(err, perr->status, perr->file, perr->line, perr->col,
                 "%s; the log prints test %s without its initial state ({}), "
                 "and no candidate test of that name completes it (%d "
                 "candidates)",
                 perr->what, h->name, n);
}

static sc_status by_name(const sc_hist *h, const sc_test *const *cands, int n,
                         const sc_test **out, sc_error **err) {
  const sc_test **distinct = sci_alloc(sizeof(sc_test *) * (size_t)(n + 1));
  int ndistinct = 0;
  for (int i = 0; i < n; i++)
    if (strcmp(sc_test_name(cands[i]), h->name) == 0 &&
        !equal_candidate(cands[i], distinct, ndistinct))
      distinct[ndistinct++] = cands[i];
  if (ndistinct == 1) {
    *out = distinct[0];
    return SC_OK;
  }
  if (ndistinct == 0)
    return sci_fail(err, SC_ERR_SEMANTIC, h->file, h->line, 1,
                   "expected a test named %s among the %d candidate tests "
                   "(the log does not print its source)",
                   h->name, n);
  return sci_fail(err, SC_ERR_SEMANTIC, h->file, h->line, 1,
                 "expected one test named %s among the candidates, found %d "
                 "different ones (the log does not print its source to tell "
                 "them apart)",
                 h->name, ndistinct);
}

/* ---- Whether the block's states name only what the test has --------------- */

/* Whether `var` ("1:r0" or "x") is a register or a location of t. */
static bool test_has_variable(const sc_test *t, const char *var) {
  char *end;
  if (isdigit((unsigned char)var[0])) {
    long thread = strtol(var, &end, 10);
    if (*end == ':')
      return thread < t->nthreads &&
             sci_thread_find_register(&t->threads[thread], end + 1) >= 0;
  }
  return sci_test_find_location(t, var) >= 0;
}

/* Whether `value` is an integer (sci_outcome_parse writes those in
 * decimal) or a location of t (held in a register). */
static bool test_has_value(const sc_test *t, const char *value) {
  char *end;
  strtoll(value, &end, 10);
  return (*end == '\0' && end != value) || sci_test_find_location(t, value) >= 0;
}

static sc_status unknown_name(const sc_hist *h, const sc_hist_row *row,
                              int at, const char *what, const char *name,
                              const sc_test *t, sc_error **err) {
  return sci_fail(err, SC_ERR_SEMANTIC, h->file, row->line, row->col + at,
                 "expected %s of test %s, found '%s' (an outcome naming what "
                 "the test does not have agrees with every state)",
                 what, sc_test_name(t), name);
}

/* A state that names a register or location t does not have would agree
 * with every state a model allows (a variable one side lacks is not
 * compared), and so would pass for allowed: a typo could hide an UNSOUND
 * outcome. */
static sc_status check_names(const sc_hist *h, const sc_test *t,
                             sc_error **err) {
  for (int i = 0; i < h->nstates; i++) {
    const sc_hist_row *row = &h->states[i];
    const sc_outcome *o = &row->outcome;
    for (int k = 0; k < o->n; k++) {
      if (!test_has_variable(t, o->vars[k]))
        return unknown_name(h, row, o->var_at[k], "a register or location",
                            o->vars[k], t, err);
      if (!test_has_value(t, o->values[k]))
        return unknown_name(h, row, o->value_at[k],
                            "an integer or a location", o->values[k], t, err);
    }
  }
  return SC_OK;
}

static sc_status hist_find_test_unguarded(const sc_hist *h,
                                          const sc_test *const *candidates,
                                          int ncandidates, const sc_test **out,
                                          sc_error **err) {
  *out = NULL;
  sc_status st = h->source ? from_source(h, candidates, ncandidates, out, err)
                           : by_name(h, candidates, ncandidates, out, err);
  if (st == SC_OK && (st = check_names(h, *out, err)) != SC_OK)
    *out = NULL;
  return st;
}

sc_status sc_hist_find_test(const sc_hist *h,
                            const sc_test *const *candidates, int ncandidates,
                            const sc_test **out, sc_error **err) {
  sc_oom_guard g;
  if (!SC_OOM_ENTER(g))
    return sci_oom_fail(&g, NULL, err);
  sc_status st = hist_find_test_unguarded(h, candidates, ncandidates, out, err);
  sci_oom_leave(&g);
  return st;
}

/* ---- Whether a block shows the condition ---------------------------------- */

typedef struct witness_ctx {
  const sc_test *t;
  const sc_outcome *o;
  const char *missing; /* the first variable the state does not show */
} witness_ctx;

static const char *lval_var(const sc_test *t, const sc_lval *lv) {
  if (lv->kind == SC_LVAL_REG)
    return sci_printf("%d:%s", lv->thread,
                     t->threads[lv->thread].regs[lv->reg].name);
  return t->locs[lv->loc].name;
}

static int64_t outcome_value(const sc_lval *lv, void *ctx) {
  witness_ctx *c = ctx;
  if (lv->kind == SC_LVAL_CONST)
    return lv->constant;
  if (lv->kind == SC_LVAL_ADDR)
    return sci_loc_address(lv->loc);
  const char *var = lval_var(c->t, lv);
  for (int i = 0; i < c->o->n; i++)
    if (strcmp(c->o->vars[i], var) == 0) {
      char *end;
      long long v = strtoll(c->o->values[i], &end, 10);
      if (*end == '\0')
        return v;
      int l = sci_test_find_location(c->t, c->o->values[i]);
      return l >= 0 ? sci_loc_address(l) : INT64_MIN; /* a name held */
    }
  if (!c->missing)
    c->missing = var;
  return INT64_MIN;
}

static sc_status hist_witnesses_unguarded(const sc_hist *h, const sc_test *t,
                                          int *witnessed, sc_error **err) {
  *witnessed = 0;
  for (int i = 0; i < h->nstates; i++) {
    if (h->has_counts && h->states[i].count <= 0)
      continue;
    witness_ctx c = {t, &h->states[i].outcome, NULL};
    bool holds = sci_prop_holds(t->cond, outcome_value, &c);
    if (c.missing)
      return sci_fail(err, SC_ERR_SEMANTIC, h->file, h->line, 1,
                     "expected the states of %s to show %s, the condition's "
                     "variable", h->name, c.missing);
    if (holds) {
      *witnessed = 1;
      return SC_OK;
    }
  }
  return SC_OK;
}

sc_status sc_hist_witnesses(const sc_hist *h, const sc_test *t, int *witnessed,
                            sc_error **err) {
  sc_oom_guard g;
  if (!SC_OOM_ENTER(g))
    return sci_oom_fail(&g, NULL, err);
  sc_status st = hist_witnesses_unguarded(h, t, witnessed, err);
  sci_oom_leave(&g);
  return st;
}
