/* launch.c: a kernel's launch header and its question, as Dat3M writes
 * them for SPIR-V kernels, here with the CUDA parameter names:
 *   // @Input: lock = {0}, A = {-1, -1}, n = 4
 *   // @Output: forall (A[0] == -1 or A[1] == -1 or A[0] != A[1])
 *   // @Config: 2, 1, 1
 * read into an sc_kernel_launch (sc_kernel_parse_header, the CLI's
 * -input and -config through sc_kernel_launch_override), and the @Output
 * expression made the condition of the kernel's test
 * (sc_kernel_set_condition).  Every malformed line is an error at its
 * file:line:col; nothing here knows PTX. */
#include "kernel/kernel.h"
#include "litmus/litmus.h"
#include "litmus/parser.h"
#include "util/error.h"
#include "util/gcmem.h"

#include <ctype.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* A warp holds 32 threads and a CTA at most 1024 (32 warps) on every GPU
 * CUDA targets (the CUDA C++ Programming Guide, "Compute Capabilities"). */
enum { WARP_SIZE_MOST = 32, WARPS_PER_CTA_MOST = 32 };
/* sc_parse_limits.max_events's default (scopecat.h): an array element is
 * a location, with its initial write an event of every execution. */
enum { DEFAULT_MAX_ELEMENTS = 4096 };

/* ---- Scanning one line ---------------------------------------------------- */

/* A cursor over one line of text (a header line's value, an option's
 * value): errors unwind to the entry point with longjmp, as the litmus
 * parser's do; all memory is the collector's, so nothing leaks. */
typedef struct scan {
  const char *file;
  const char *start, *p, *end; /* the line: [start, end) */
  int line, col0;              /* line, and the column of *start */
  jmp_buf on_error;
  sc_error *err;
} scan;

static int scan_col(const scan *s) { return s->col0 + (int)(s->p - s->start); }

static _Noreturn __attribute__((format(printf, 4, 5))) void
scan_fail(scan *s, int col, sc_status status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *what = sci_vprintf(fmt, ap);
  va_end(ap);
  sci_fail(&s->err, status, s->file, s->line, col, "%s", what);
  longjmp(s->on_error, 1);
}

/* Blanks; and line breaks, which only an option's value can hold (a
 * header line is scanned alone): the position follows them. */
static void skip_blanks(scan *s) {
  while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\r' ||
                           *s->p == '\n'))
    if (*s->p++ == '\n') {
      s->line++;
      s->start = s->p;
      s->col0 = 1;
    }
}

static bool at_end(scan *s) {
  skip_blanks(s);
  return s->p >= s->end;
}

/* What the cursor is at, for "found ..." in messages. */
static const char *found(scan *s) {
  skip_blanks(s);
  if (s->p >= s->end)
    return "the end of the line";
  const char *q = s->p;
  if (isalnum((unsigned char)*q) || *q == '_')
    while (q < s->end && (isalnum((unsigned char)*q) || *q == '_' || *q == '@'))
      q++;
  else
    q++;
  return sci_printf("'%.*s'", (int)(q - s->p), s->p);
}

static _Noreturn void expected(scan *s, const char *what) {
  const char *f = found(s);
  scan_fail(s, scan_col(s), SC_ERR_SYNTAX, "expected %s, found %s", what, f);
}

static bool accept(scan *s, const char *punct) {
  skip_blanks(s);
  size_t n = strlen(punct);
  if ((size_t)(s->end - s->p) < n || strncmp(s->p, punct, n) != 0)
    return false;
  s->p += n;
  return true;
}

static void expect(scan *s, const char *punct, const char *what) {
  if (!accept(s, punct))
    expected(s, what);
}

static bool is_name_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static bool is_name_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* An identifier; NULL when there is none here. */
static const char *accept_name(scan *s) {
  skip_blanks(s);
  if (s->p >= s->end || !is_name_start(*s->p))
    return NULL;
  const char *q = s->p;
  while (s->p < s->end && is_name_char(*s->p))
    s->p++;
  return sci_strndup(q, (size_t)(s->p - q));
}

static const char *expect_name(scan *s, const char *what) {
  const char *name = accept_name(s);
  if (!name)
    expected(s, what);
  return name;
}

/* Whether the word `w` (not a longer name's start) is next; taken if so. */
static bool accept_word(scan *s, const char *w) {
  skip_blanks(s);
  size_t n = strlen(w);
  if ((size_t)(s->end - s->p) < n || strncmp(s->p, w, n) != 0 ||
      (s->p + n < s->end && is_name_char(s->p[n])))
    return false;
  s->p += n;
  return true;
}

static bool at_integer(scan *s) {
  skip_blanks(s);
  const char *q = s->p;
  if (q < s->end && *q == '-')
    q++;
  return q < s->end && isdigit((unsigned char)*q);
}

/* A decimal or 0x integer with an optional '-', in 64 bits. */
static long long expect_integer(scan *s, const char *what) {
  if (!at_integer(s))
    expected(s, what);
  int col = scan_col(s);
  bool negative = *s->p == '-';
  if (negative)
    s->p++;
  int base = 10;
  if (s->end - s->p > 2 && s->p[0] == '0' && (s->p[1] == 'x' || s->p[1] == 'X') &&
      isxdigit((unsigned char)s->p[2])) {
    base = 16;
    s->p += 2;
  }
  unsigned long long v = 0, most = negative ? (unsigned long long)LLONG_MAX + 1
                                            : (unsigned long long)LLONG_MAX;
  bool over = false;
  for (; s->p < s->end && isxdigit((unsigned char)*s->p); s->p++) {
    int d = isdigit((unsigned char)*s->p) ? *s->p - '0'
                                          : tolower((unsigned char)*s->p) - 'a' + 10;
    if (d >= base)
      break;
    over = over || v > (most - (unsigned long long)d) / (unsigned long long)base;
    if (!over)
      v = v * (unsigned long long)base + (unsigned long long)d;
  }
  if (s->p < s->end && is_name_char(*s->p))
    expected(s, "a digit or the integer's end");
  if (over)
    scan_fail(s, col, SC_ERR_LIMIT, "expected %s in 64 bits (from %lld to %lld), "
              "found %.*s", what, LLONG_MIN, LLONG_MAX,
              (int)(s->p - s->start) - (col - s->col0), s->start + (col - s->col0));
  return negative ? (long long)(0 - v) : (long long)v;
}

/* ---- @Input -------------------------------------------------------------- */

typedef struct inputs {
  sc_kernel_input *items;
  int n, cap;
} inputs;

static int find_input(const inputs *in, const char *param) {
  for (int i = 0; i < in->n; i++)
    if (strcmp(in->items[i].param, param) == 0)
      return i;
  return -1;
}

static long total_elements(const inputs *in) {
  long n = 0;
  for (int i = 0; i < in->n; i++)
    n += in->items[i].nvalues;
  return n;
}

static int max_elements(const sc_parse_limits *limits) {
  return limits && limits->max_events > 0 ? limits->max_events
                                          : DEFAULT_MAX_ELEMENTS;
}

/* One `name = {..}` or `name = v` of an @Input line.  `replace`: a
 * parameter given before takes the new value (-input); otherwise giving it
 * again is an error. */
static void read_input(scan *s, inputs *in, const sc_parse_limits *limits,
                       bool replace) {
  skip_blanks(s);
  sc_kernel_input item = {0};
  item.line = s->line;
  item.col = scan_col(s);
  item.file = s->file;
  item.param = expect_name(s, "a parameter name (name = {v, ...} or name = v)");
  expect(s, "=", "'=' after the parameter's name");
  int before = find_input(in, item.param);
  if (before >= 0 && !replace)
    scan_fail(s, item.col, SC_ERR_SEMANTIC,
              "expected each parameter once in the @Input lines, found %s again "
              "(first given at %s:%d:%d)", item.param, s->file,
              in->items[before].line, in->items[before].col);
  long used = total_elements(in) - (before >= 0 ? in->items[before].nvalues : 0);
  long room = max_elements(limits) - used;
  if (accept(s, "{")) {
    item.is_array = 1;
    int col = scan_col(s);
    if (accept(s, "}"))
      scan_fail(s, col, SC_ERR_SYNTAX, "expected an integer (an array holds at "
                "least one element), found '}'");
    int cap = 0;
    do {
      skip_blanks(s);
      if (item.nvalues >= room)
        scan_fail(s, scan_col(s), SC_ERR_LIMIT,
                  "expected at most %d array elements in all the kernel's "
                  "inputs (the -max-events limit: each element is a location, "
                  "its initial write an event), found more",
                  max_elements(limits));
      long long v = expect_integer(s, "an integer (an element's initial value)");
      sci_grow(&item.values, &cap, item.nvalues + 1, sizeof(long long));
      item.values[item.nvalues++] = v;
    } while (accept(s, ","));
    expect(s, "}", "',' or '}' closing the array");
  } else {
    item.values = sci_alloc_atomic(sizeof(long long));
    item.values[0] = expect_integer(s, "'{' opening an array, or an integer");
    item.nvalues = 1;
  }
  if (before >= 0) {
    item.is_config = in->items[before].is_config; /* still a launch parameter */
    in->items[before] = item;
    return;
  }
  sci_grow(&in->items, &in->cap, in->n + 1, sizeof(sc_kernel_input));
  in->items[in->n++] = item;
}

static void read_inputs(scan *s, inputs *in, const sc_parse_limits *limits,
                        bool replace) {
  do
    read_input(s, in, limits, replace);
  while (accept(s, ","));
  if (!at_end(s))
    expected(s, "',' and another parameter, or the end of the line");
}

/* ---- @Config, @Params ----------------------------------------------------- */

static int read_count(scan *s, const char *what, int most, const char *why) {
  int col = (skip_blanks(s), scan_col(s));
  long long v = expect_integer(s, what);
  if (v < 1)
    scan_fail(s, col, SC_ERR_SEMANTIC, "expected %s (at least 1), found %lld",
              what, v);
  if (v > most)
    scan_fail(s, col, SC_ERR_LIMIT, "expected %s of at most %d (%s), found %lld",
              what, most, why, v);
  return (int)v;
}

/* The scalar parameters @Config names after X, Y, Z: launch parameters
 * (a size, a count), not data inputs, for sc_kernel_generalises. */
typedef struct config_name {
  const char *name;
  int line, col;
} config_name;
typedef struct config_names {
  config_name *items;
  int n, cap;
  const char *file;
} config_names;

static void read_config(scan *s, sc_kernel_launch *l,
                        const sc_parse_limits *limits, config_names *cn) {
  sc_parse_limits lim;
  sci_parser_limits(&lim, limits);
  int col = (skip_blanks(s), scan_col(s));
  l->threads_per_warp = read_count(s, "a number of threads per warp", WARP_SIZE_MOST,
                                   "a warp's size");
  expect(s, ",", "',' and the number of warps per CTA");
  l->warps_per_cta = read_count(s, "a number of warps per CTA", WARPS_PER_CTA_MOST,
                                "a CTA holds at most 1024 threads");
  expect(s, ",", "',' and the number of CTAs");
  l->ctas = read_count(s, "a number of CTAs", lim.max_threads,
                       "the -max-threads limit");
  long threads = (long)l->threads_per_warp * l->warps_per_cta * l->ctas;
  if (threads > lim.max_threads)
    scan_fail(s, col, SC_ERR_LIMIT,
              "expected a grid of at most %d threads (the -max-threads limit), "
              "found %d x %d x %d = %ld", lim.max_threads, l->threads_per_warp,
              l->warps_per_cta, l->ctas, threads);
  *cn = (config_names){.file = s->file};
  while (accept(s, ",")) {
    skip_blanks(s);
    config_name c = {.line = s->line, .col = scan_col(s)};
    c.name = expect_name(s, "a scalar parameter's name (a launch parameter, "
                            "as a size: not data)");
    sci_grow(&cn->items, &cn->cap, cn->n + 1, sizeof(config_name));
    cn->items[cn->n++] = c;
  }
  if (!at_end(s))
    expected(s, "',' and a launch parameter's name, or the end of the line");
}

/* Mark the inputs @Config names as launch parameters: each must be a
 * scalar an @Input gives. */
static sc_status mark_config(inputs *in, const config_names *cn, sc_error **err) {
  for (int i = 0; i < in->n; i++)
    in->items[i].is_config = 0;
  for (int k = 0; k < cn->n; k++) {
    const config_name *c = &cn->items[k];
    int i = find_input(in, c->name);
    if (i < 0 || in->items[i].is_array)
      return sci_fail(err, SC_ERR_SEMANTIC, cn->file, c->line, c->col,
                      "expected a scalar parameter that @Input gives a value "
                      "(a launch parameter), found %s%s", c->name,
                      i < 0 ? " (no @Input names it)"
                            : " (an array: its contents are data)");
    in->items[i].is_config = 1;
  }
  return SC_OK;
}

static void read_params(scan *s, sc_kernel_launch *l) {
  const char **names = NULL;
  int n = 0, cap = 0;
  do {
    int col = (skip_blanks(s), scan_col(s));
    const char *name = expect_name(s, "a parameter name");
    for (int i = 0; i < n; i++)
      if (strcmp(names[i], name) == 0)
        scan_fail(s, col, SC_ERR_SEMANTIC,
                  "expected each parameter once in @Params, found %s again", name);
    sci_grow(&names, &cap, n + 1, sizeof(const char *));
    names[n++] = name;
  } while (accept(s, ","));
  if (!at_end(s))
    expected(s, "',' and another parameter name, or the end of the line");
  l->param_names = names;
  l->nparam_names = n;
}

/* ---- The header ---------------------------------------------------------- */

typedef enum header_key { KEY_INPUT, KEY_OUTPUT, KEY_CONFIG, KEY_PARAMS } header_key;
static const char *const key_names[] = {"Input", "Output", "Config", "Params"};

/* Where each one-of-a-kind line was, to say so of a second. */
typedef struct header_state {
  inputs in;
  config_names config;
  int seen_line[4];
  const char *output;
  int output_line, output_col;
} header_state;

/* The line [start, end), number `line`: a header line is `// @Key: value`
 * after blanks; a line that is no comment, or a comment not of that form,
 * is not read.  An unknown @Key with its colon is an error (a misspelt
 * @Ouput would otherwise go unread). */
static void read_header_line(scan *s, header_state *h, sc_kernel_launch *l,
                             const sc_parse_limits *limits) {
  skip_blanks(s);
  if (!accept(s, "//"))
    return;
  skip_blanks(s);
  if (s->p >= s->end || *s->p != '@')
    return;
  int key_col = scan_col(s);
  const char *q = s->p + 1, *word = q;
  while (q < s->end && is_name_char(*q))
    q++;
  if (q == word || q >= s->end || *q != ':')
    return; /* "// @param x": a doc comment, no header line */
  size_t n = (size_t)(q - word);
  int key = -1;
  for (int k = 0; k < 4; k++)
    if (strlen(key_names[k]) == n && strncmp(key_names[k], word, n) == 0)
      key = k;
  if (key < 0)
    scan_fail(s, key_col, SC_ERR_SYNTAX, "expected @Input, @Output, @Config or "
              "@Params, found @%.*s", (int)n, word);
  s->p = q + 1;
  if (key != KEY_INPUT && h->seen_line[key])
    scan_fail(s, key_col, SC_ERR_SEMANTIC, "expected one @%s line, found a "
              "second (the first is line %d)", key_names[key], h->seen_line[key]);
  h->seen_line[key] = s->line;
  switch ((header_key)key) {
  case KEY_INPUT: read_inputs(s, &h->in, limits, false); break;
  case KEY_CONFIG: read_config(s, l, limits, &h->config); break;
  case KEY_PARAMS: read_params(s, l); break;
  case KEY_OUTPUT: {
    if (at_end(s))
      expected(s, "a condition (forall (...) or exists (...))");
    const char *e = s->end;
    while (e > s->p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
      e--;
    h->output_col = scan_col(s);
    h->output_line = s->line;
    h->output = sci_strndup(s->p, (size_t)(e - s->p));
    break;
  }
  }
}

sc_status sc_kernel_parse_header(const char *text, const char *file,
                                 const sc_parse_limits *limits,
                                 sc_kernel_launch *out,
                                 const char **output_condition, int *cond_line,
                                 int *cond_col, sc_error **err) {
  if (!text || !out)
    return sci_fail(err, SC_ERR_USAGE, file, 0, 0,
                    "sc_kernel_parse_header needs a text and a launch");
  sc_kernel_launch l = {0};
  l.header_file = file;
  header_state h = {0};
  scan s = {.file = file, .col0 = 1};
  if (setjmp(s.on_error)) {
    if (err)
      *err = s.err;
    return sc_error_status(s.err);
  }
  const char *p = text;
  for (int line = 1; *p; line++) {
    const char *nl = strchr(p, '\n');
    const char *end = nl ? nl : p + strlen(p);
    s.start = s.p = p;
    s.end = end;
    s.line = line;
    read_header_line(&s, &h, &l, limits);
    p = nl ? nl + 1 : end;
  }
  sc_status st = mark_config(&h.in, &h.config, err);
  if (st)
    return st;
  l.inputs = h.in.items;
  l.ninputs = h.in.n;
  *out = l;
  if (output_condition)
    *output_condition = h.output;
  if (cond_line)
    *cond_line = h.output_line;
  if (cond_col)
    *cond_col = h.output_col;
  return SC_OK;
}

sc_status sc_kernel_launch_override(sc_kernel_launch *launch, const char *what,
                                    const char *value,
                                    const sc_parse_limits *limits,
                                    sc_error **err) {
  if (!launch || !what || !value ||
      (strcmp(what, "input") != 0 && strcmp(what, "config") != 0))
    return sci_fail(err, SC_ERR_USAGE, NULL, 0, 0,
                    "sc_kernel_launch_override overrides \"input\" or "
                    "\"config\" with a value");
  bool input = strcmp(what, "input") == 0;
  scan s = {.file = input ? "-input" : "-config", .start = value, .p = value,
            .end = value + strlen(value), .line = 1, .col0 = 1};
  sc_kernel_launch l = *launch;
  /* a copy: the caller's launch stays as it was when the value is refused */
  inputs in = {0};
  for (int i = 0; i < launch->ninputs; i++) {
    sci_grow(&in.items, &in.cap, in.n + 1, sizeof(sc_kernel_input));
    in.items[in.n++] = launch->inputs[i];
  }
  if (setjmp(s.on_error)) {
    if (err)
      *err = s.err;
    return sc_error_status(s.err);
  }
  config_names cn;
  if (input)
    read_inputs(&s, &in, limits, true);
  else
    read_config(&s, &l, limits, &cn);
  sc_status st = input ? SC_OK : mark_config(&in, &cn, err);
  if (st)
    return st;
  l.inputs = in.items;
  l.ninputs = in.n;
  *launch = l;
  return SC_OK;
}

/* ---- @Output ------------------------------------------------------------- */

/* The expression's parser: a scan over its text and the test whose
 * locations it names. */
typedef struct cond_parser {
  scan s;
  const sc_test *t;
} cond_parser;

static sc_prop *new_prop(sc_prop_kind kind, sc_prop *a, sc_prop *b) {
  sc_prop *p = sci_alloc(sizeof *p);
  p->kind = kind;
  p->a = a;
  p->b = b;
  return p;
}

/* How many elements array `name` has: its locations name[0], name[1]... */
static int array_length(const sc_test *t, const char *name) {
  int n = 0;
  while (sci_test_find_location(t, sci_printf("%s[%d]", name, n)) >= 0)
    n++;
  return n;
}

/* A location: a name (with `@cta0` parts: a CTA's .shared variable) and
 * an index, as the kernel's test names its locations. */
static sc_lval read_location(cond_parser *c) {
  scan *s = &c->s;
  int col = scan_col(s);
  const char *base = expect_name(s, "a location (A[0]) or an integer");
  while (s->p < s->end && *s->p == '@' && s->p + 1 < s->end &&
         is_name_start(s->p[1])) {
    s->p++;
    base = sci_printf("%s@%s", base, accept_name(s));
  }
  const char *name = base;
  bool indexed = false;
  if (accept(s, "[")) {
    long long k = expect_integer(s, "an index");
    expect(s, "]", "']' closing the index");
    name = sci_printf("%s[%lld]", base, k);
    indexed = true;
  }
  sc_lval lv = {.kind = SC_LVAL_LOC, .loc = sci_test_find_location(c->t, name)};
  if (lv.loc >= 0)
    return lv;
  if (indexed && sci_test_find_location(c->t, base) >= 0)
    scan_fail(s, col, SC_ERR_SEMANTIC, "expected %s without an index (a scalar), "
              "found %s", base, name);
  int n = array_length(c->t, base);
  if (n > 0 && indexed)
    scan_fail(s, col, SC_ERR_SEMANTIC, "expected an element of %s (%s[0] to "
              "%s[%d]), found %s", base, base, base, n - 1, name);
  if (n > 0)
    scan_fail(s, col, SC_ERR_SEMANTIC, "expected an element of %s (%s[0] to "
              "%s[%d]), found %s without an index", base, base, base, n - 1, base);
  scan_fail(s, col, SC_ERR_SEMANTIC, "expected a location of the kernel (a "
            "parameter's element as A[0], a CTA's .shared variable as "
            "s@cta0, an element of a .shared array as s@cta0[0]), found %s", name);
}

static sc_lval read_term(cond_parser *c) {
  if (at_integer(&c->s))
    return (sc_lval){.kind = SC_LVAL_CONST,
                     .constant = expect_integer(&c->s, "an integer")};
  return read_location(c);
}

static sc_prop *read_disjunction(cond_parser *c);

/* Longest operators first: "<=" before "<". */
static const struct {
  const char *text;
  sc_prop_kind kind;
} comparisons[] = {{"==", SC_PROP_EQ}, {"!=", SC_PROP_NE}, {"<=", SC_PROP_LE},
                   {">=", SC_PROP_GE}, {"<", SC_PROP_LT},  {">", SC_PROP_GT}};

static sc_prop *read_comparison(cond_parser *c) {
  sc_prop *p = new_prop(SC_PROP_EQ, NULL, NULL);
  p->lhs = read_term(c);
  size_t k = 0, n = sizeof comparisons / sizeof comparisons[0];
  while (k < n && !accept(&c->s, comparisons[k].text))
    k++;
  if (k == n)
    expected(&c->s, "a comparison (==, !=, <, <=, > or >=)");
  p->kind = comparisons[k].kind;
  p->rhs = read_term(c);
  return p;
}

static sc_prop *read_atom(cond_parser *c) {
  if (accept_word(&c->s, "not"))
    return new_prop(SC_PROP_NOT, read_atom(c), NULL);
  if (accept(&c->s, "(")) {
    sc_prop *p = read_disjunction(c);
    expect(&c->s, ")", "')' closing the parenthesis (or and, or)");
    return p;
  }
  if (accept_word(&c->s, "true"))
    return new_prop(SC_PROP_TRUE, NULL, NULL);
  if (accept_word(&c->s, "false"))
    return new_prop(SC_PROP_FALSE, NULL, NULL);
  return read_comparison(c);
}

static sc_prop *read_conjunction(cond_parser *c) {
  sc_prop *p = read_atom(c);
  while (accept_word(&c->s, "and"))
    p = new_prop(SC_PROP_AND, p, read_atom(c));
  return p;
}

static sc_prop *read_disjunction(cond_parser *c) {
  sc_prop *p = read_conjunction(c);
  while (accept_word(&c->s, "or"))
    p = new_prop(SC_PROP_OR, p, read_conjunction(c));
  return p;
}

sc_status sc_kernel_set_condition(sc_test *t, const char *expr, const char *file,
                                  int line, int col, sc_error **err) {
  if (!t || !expr)
    return sci_fail(err, SC_ERR_USAGE, file, line, col,
                    "sc_kernel_set_condition needs a test and an expression");
  const char *end = strchr(expr, '\n');
  if (end)
    return sci_fail(err, SC_ERR_SYNTAX, file, line, col + (int)(end - expr),
                    "expected the condition on one line, found a line break");
  cond_parser c = {.s = {.file = file, .start = expr, .p = expr,
                         .end = expr + strlen(expr), .line = line, .col0 = col},
                   .t = t};
  if (setjmp(c.s.on_error)) {
    if (err)
      *err = c.s.err;
    return sc_error_status(c.s.err);
  }
  sc_quantifier q = SC_FORALL;
  if (accept_word(&c.s, "exists"))
    q = SC_EXISTS;
  else if (!accept_word(&c.s, "forall"))
    expected(&c.s, "forall or exists");
  sc_prop *p = read_disjunction(&c);
  if (!at_end(&c.s))
    expected(&c.s, "and, or, or the end of the condition");
  t->quant = q;
  t->cond = p;
  return SC_OK;
}

/* ---- The parameters' names in the .cu ---------------------------------- */

/* The function a PTX entry name stands for: its own name for an extern
 * "C" kernel, the <len><name> after _Z (the last of _ZN...E's nested
 * names) for a mangled one; NULL when it cannot be read. */
static const char *entry_function(const char *entry) {
  if (strncmp(entry, "_Z", 2) != 0)
    return entry;
  const char *p = entry + 2, *last = NULL;
  size_t last_len = 0;
  bool nested = *p == 'N';
  if (nested)
    p++;
  do {
    if (!isdigit((unsigned char)*p))
      break;
    size_t len = 0;
    while (isdigit((unsigned char)*p))
      len = len * 10 + (size_t)(*p++ - '0');
    if (strlen(p) < len)
      return NULL;
    last = p;
    last_len = len;
    p += len;
  } while (nested && *p != 'E');
  return last ? sci_strndup(last, last_len) : NULL;
}

/* The .cu text with comments, strings and character literals blanked
 * (newlines kept), so that the signature's scan sees only code. */
static char *code_only(const char *text) {
  char *s = sci_strdup(text);
  for (char *p = s; *p; p++) {
    if (p[0] == '/' && p[1] == '/') {
      while (*p && *p != '\n')
        *p++ = ' ';
    } else if (p[0] == '/' && p[1] == '*') {
      for (; *p && !(p[0] == '*' && p[1] == '/'); p++)
        if (*p != '\n')
          *p = ' ';
      if (*p)
        p[0] = p[1] = ' ', p++;
    } else if (*p == '"' || *p == '\'') {
      char q = *p;
      *p++ = ' ';
      for (; *p && *p != q && *p != '\n'; p++) {
        if (*p == '\\' && p[1] && p[1] != '\n')
          *p++ = ' '; /* an escaped quote is no end */
        *p = ' ';
      }
      if (*p == q)
        *p = ' ';
    }
    if (!*p)
      break;
  }
  return s;
}

/* Past the bracketed group that opens at *p (one of ( [ { <). */
static const char *skip_group(const char *p) {
  int depth = 0;
  for (; *p; p++) {
    if (strchr("([{<", *p))
      depth++;
    else if (strchr(")]}>", *p) && --depth == 0)
      return p + 1;
  }
  return p;
}

/* The last identifier in [a, b) that is not part of a bracketed group (a
 * parameter's name: "const int *__restrict__ A" gives A, "int a[4]" a);
 * NULL when there is none but type words ("void", "int"). */
static const char *declarator_name(const char *a, const char *b) {
  const char *name = NULL;
  size_t len = 0;
  for (const char *p = a; p < b;) {
    if (strchr("([{<", *p)) {
      p = skip_group(p);
      continue;
    }
    if (*p == '=')
      break; /* a default argument */
    if (is_name_start(*p)) {
      const char *q = p;
      while (q < b && is_name_char(*q))
        q++;
      name = p;
      len = (size_t)(q - p);
      p = q;
      continue;
    }
    p++;
  }
  static const char *const type_words[] = {"void", "int", "unsigned", "char",
      "short", "long", "float", "double", "bool", "const", "volatile",
      "__restrict__", "signed", NULL};
  for (int k = 0; name && type_words[k]; k++)
    if (strlen(type_words[k]) == len && strncmp(name, type_words[k], len) == 0)
      return NULL;
  return name ? sci_strndup(name, len) : NULL;
}

/* The names of the parameter list that opens at `open` ('('). */
static void parameter_names(const char *open, const char ***names, int *n) {
  const char *end = skip_group(open) - 1; /* its ')' */
  int cap = 0;
  *names = NULL;
  *n = 0;
  const char *start = open + 1;
  for (const char *p = start; p <= end;) {
    if (p < end && strchr("([{<", *p)) {
      p = skip_group(p);
      continue;
    }
    if (p == end || *p == ',') {
      const char *name = declarator_name(start, p);
      if (name || p != end || *n > 0) {
        sci_grow(names, &cap, *n + 1, sizeof(const char *));
        (*names)[(*n)++] = name ? name : ""; /* unnamed: no input names it */
      }
      start = p + 1;
    }
    p++;
  }
}

sc_status sc_kernel_cu_params(const char *cu, const char *file, const char *entry,
                              const char ***names, int *n, sc_error **err) {
  const char *fn = entry ? entry_function(entry) : NULL;
  if (!cu || !fn || !names || !n)
    return sci_fail(err, SC_ERR_USAGE, file, 0, 0, "sc_kernel_cu_params needs "
                    "a .cu text and a PTX entry name, found %s",
                    entry ? entry : "none");
  const char *code = code_only(cu);
  size_t fn_len = strlen(fn);
  for (const char *g = strstr(code, "__global__"); g; g = strstr(g + 1, "__global__")) {
    /* the identifier before the first '(' that opens no attribute */
    const char *p = g + strlen("__global__"), *name = NULL;
    size_t len = 0;
    while (*p && *p != ';' && *p != '{') {
      if (is_name_start(*p)) {
        const char *q = p;
        while (is_name_char(*q))
          q++;
        name = p;
        len = (size_t)(q - p);
        p = q;
      } else if (*p == '(' && name && len == fn_len && strncmp(name, fn, len) == 0) {
        parameter_names(p, names, n);
        return SC_OK;
      } else if (*p == '(' || *p == '<') {
        p = skip_group(p); /* __launch_bounds__(...), a template's <...> */
      } else {
        p++;
      }
    }
  }
  return sci_fail(err, SC_ERR_SEMANTIC, file, 0, 0, "expected a __global__ "
                  "function %s (the PTX's kernel %s), found none", fn, entry);
}
