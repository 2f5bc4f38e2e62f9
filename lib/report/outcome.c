/* outcome.c: final states as canonical variable -> value maps (outcome.h).
 * Both herd7's and litmus7's printers write "VAR=VALUE;" bindings; they
 * differ in order, in brackets around locations and in number bases. */
#include "report/outcome.h"

#include "util/gcmem.h"
#include "util/strbuf.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A register is "THREAD:NAME"; anything else is a location. */
static bool is_register(const char *var, long *thread, const char **name) {
  char *end;
  if (!isdigit((unsigned char)var[0]))
    return false;
  long t = strtol(var, &end, 10);
  if (*end != ':')
    return false;
  *thread = t;
  *name = end + 1;
  return true;
}

static int compare_vars(const char *a, const char *b) {
  long ta, tb;
  const char *na, *nb;
  bool ra = is_register(a, &ta, &na), rb = is_register(b, &tb, &nb);
  if (ra != rb)
    return ra ? -1 : 1;
  if (!ra)
    return strcmp(a, b);
  if (ta != tb)
    return ta < tb ? -1 : 1;
  return strcmp(na, nb);
}

/* An integer in decimal or 0x hexadecimal, with an optional '-'. */
static bool parse_integer(const char *s, long long *out) {
  const char *digits = s[0] == '-' ? s + 1 : s;
  bool hex = digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X');
  if (!isdigit((unsigned char)digits[0]))
    return false;
  char *end;
  errno = 0;
  long long v = strtoll(digits, &end, hex ? 16 : 10);
  if (errno || *end)
    return false;
  *out = s[0] == '-' ? -v : v;
  return true;
}

static const char *canonical_value(const char *v) {
  long long n;
  return parse_integer(v, &n) ? sci_printf("%lld", n) : v;
}

static const char *canonical_var(const char *v) {
  size_t n = strlen(v);
  if (n > 2 && v[0] == '[' && v[n - 1] == ']')
    return sci_strndup(v + 1, n - 2);
  return v;
}

static const char *trimmed(const char *from, const char *to) {
  while (from < to && isspace((unsigned char)*from))
    from++;
  while (to > from && isspace((unsigned char)to[-1]))
    to--;
  return sci_strndup(from, (size_t)(to - from));
}

/* A name as the litmus lexer reads one: a letter or '_', then letters,
 * digits, '_' and '.'. */
static bool is_name(const char *s) {
  if (!isalpha((unsigned char)*s) && *s != '_')
    return false;
  for (s++; *s; s++)
    if (!isalnum((unsigned char)*s) && *s != '_' && *s != '.')
      return false;
  return true;
}

static bool has_space(const char *s) {
  for (; *s; s++)
    if (isspace((unsigned char)*s))
      return true;
  return false;
}

/* A binding and where its parts were in the text. */
typedef struct binding {
  const char *var, *value;
  int var_at, value_at;
} binding;

/* Insert a binding keeping the variables sorted (a state has a handful). */
static bool insert(sc_outcome *o, int caps[4], binding b) {
  int i = o->n;
  while (i > 0 && compare_vars(o->vars[i - 1], b.var) > 0)
    i--;
  if (i > 0 && compare_vars(o->vars[i - 1], b.var) == 0)
    return false;
  sci_grow(&o->vars, &caps[0], o->n + 1, sizeof(char *));
  sci_grow(&o->values, &caps[1], o->n + 1, sizeof(char *));
  sci_grow(&o->var_at, &caps[2], o->n + 1, sizeof(int));
  sci_grow(&o->value_at, &caps[3], o->n + 1, sizeof(int));
  size_t tail = (size_t)(o->n - i);
  memmove(o->vars + i + 1, o->vars + i, sizeof(char *) * tail);
  memmove(o->values + i + 1, o->values + i, sizeof(char *) * tail);
  memmove(o->var_at + i + 1, o->var_at + i, sizeof(int) * tail);
  memmove(o->value_at + i + 1, o->value_at + i, sizeof(int) * tail);
  o->vars[i] = b.var;
  o->values[i] = b.value;
  o->var_at[i] = b.var_at;
  o->value_at[i] = b.value_at;
  o->n++;
  return true;
}

/* A kernel test's location: NAME, a CTA's copy of a shared variable
 * NAME@ctaN, each maybe an array element [N] (A[0], s@cta1[2]), as
 * `scopecat kernel` prints its states. */
static bool is_kernel_location(const char *var) {
  size_t len = strcspn(var, "@[");
  if (!len || !is_name(sci_strndup(var, len)))
    return false;
  const char *p = var + len;
  if (!strncmp(p, "@cta", 4) && isdigit((unsigned char)p[4]))
    for (p += 4; isdigit((unsigned char)*p); p++)
      ;
  if (*p == '[' && isdigit((unsigned char)p[1])) {
    for (p++; isdigit((unsigned char)*p); p++)
      ;
    if (*p++ != ']')
      return false;
  }
  return *p == '\0';
}

/* A variable is a location's name or THREAD:REGISTER, as herd7 and
 * litmus7 write them (a location may come in brackets, [x], stripped by
 * canonical_var), or a kernel test's location: anything else names
 * nothing a test can have. */
static bool valid_var(const char *var) {
  const char *colon = strchr(var, ':');
  if (!colon)
    return is_kernel_location(var);
  if (colon == var)
    return false;
  for (const char *d = var; d < colon; d++)
    if (!isdigit((unsigned char)*d))
      return false;
  return is_name(colon + 1);
}

/* A value must mean something in every test it may be compared with: an
 * integer that fits, or a name (a location's).  "+0", "1e0", "\"0\"" or a
 * 20-digit number would match no state and so pass for forbidden. */
static bool valid_value(const char *value) {
  long long n;
  return parse_integer(value, &n) || is_name(value);
}

/* Where `part` (a copy trimmed from text at or after `from`) starts. */
static int offset_of(const char *text, const char *from, const char *part) {
  const char *at = strstr(from, part);
  return (int)((at ? at : from) - text);
}

static bool parse_failure(const char **why, int *at, int where,
                          const char *what) {
  *why = what;
  if (at)
    *at = where;
  return false;
}

bool sci_outcome_parse_at(const char *text, sc_outcome *out, const char **why,
                         int *at) {
  memset(out, 0, sizeof *out);
  int caps[4] = {0, 0, 0, 0};
  const char *p = text;
  for (;;) {
    while (isspace((unsigned char)*p))
      p++;
    if (!*p)
      return true;
    const char *eq = strchr(p, '='), *semi = strchr(p, ';');
    int here = (int)(p - text);
    if (!eq || (semi && semi < eq))
      return parse_failure(why, at, here,
                           sci_printf("expected VARIABLE=VALUE;, found '%s'", p));
    if (!semi)
      return parse_failure(why, at, here,
                           sci_printf("expected ';' after '%s'", p));
    const char *var = trimmed(p, eq), *value = trimmed(eq + 1, semi);
    if (!*var || !*value || has_space(var) || has_space(value))
      return parse_failure(
          why, at, here,
          sci_printf("expected VARIABLE=VALUE;, found '%s'",
                    sci_strndup(p, (size_t)(semi - p + 1))));
    binding b = {canonical_var(var), canonical_value(value),
                 offset_of(text, p, var), offset_of(text, eq + 1, value)};
    if (!valid_var(b.var))
      return parse_failure(
          why, at, b.var_at,
          sci_printf("expected a location or THREAD:REGISTER before '=', "
                    "found '%s'", var));
    if (!valid_value(value))
      return parse_failure(
          why, at, b.value_at,
          sci_printf("expected an integer that fits 64 bits or a location "
                    "name as the value of %s, found '%s'", b.var, value));
    if (!insert(out, caps, b))
      return parse_failure(
          why, at, b.var_at,
          sci_printf("expected each variable once, found %s twice", b.var));
    p = semi + 1;
  }
}

bool sci_outcome_parse(const char *text, sc_outcome *out, const char **why) {
  return sci_outcome_parse_at(text, out, why, NULL);
}

const char *sci_outcome_string(const sc_outcome *o) {
  sc_strbuf sb;
  sci_sb_init(&sb);
  for (int i = 0; i < o->n; i++)
    sci_sb_printf(&sb, "%s%s=%s;", i ? " " : "", o->vars[i], o->values[i]);
  return sb.data;
}

bool sci_outcome_agree(const sc_outcome *a, const sc_outcome *b) {
  int i = 0, j = 0;
  while (i < a->n && j < b->n) {
    int c = compare_vars(a->vars[i], b->vars[j]);
    if (c == 0 && strcmp(a->values[i], b->values[j]) != 0)
      return false;
    i += c <= 0;
    j += c >= 0;
  }
  return true;
}

int sci_outcome_shared(const sc_outcome *a, const sc_outcome *b) {
  int i = 0, j = 0, n = 0;
  while (i < a->n && j < b->n) {
    int c = compare_vars(a->vars[i], b->vars[j]);
    n += c == 0;
    i += c <= 0;
    j += c >= 0;
  }
  return n;
}

static int compare_values(const char *a, const char *b) {
  long long x, y;
  if (parse_integer(a, &x) && parse_integer(b, &y))
    return x < y ? -1 : x > y;
  return strcmp(a, b);
}

int sci_outcome_compare(const sc_outcome *a, const sc_outcome *b) {
  for (int i = 0; i < a->n && i < b->n; i++) {
    int c = compare_vars(a->vars[i], b->vars[i]);
    if (c == 0)
      c = compare_values(a->values[i], b->values[i]);
    if (c != 0)
      return c;
  }
  return a->n - b->n;
}
