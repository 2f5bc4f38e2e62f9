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
  return parse_integer(v, &n) ? sc_printf("%lld", n) : v;
}

static const char *canonical_var(const char *v) {
  size_t n = strlen(v);
  if (n > 2 && v[0] == '[' && v[n - 1] == ']')
    return sc_strndup(v + 1, n - 2);
  return v;
}

static const char *trimmed(const char *from, const char *to) {
  while (from < to && isspace((unsigned char)*from))
    from++;
  while (to > from && isspace((unsigned char)to[-1]))
    to--;
  return sc_strndup(from, (size_t)(to - from));
}

static bool has_space(const char *s) {
  for (; *s; s++)
    if (isspace((unsigned char)*s))
      return true;
  return false;
}

/* Insert a binding keeping the variables sorted (a state has a handful). */
static bool insert(sc_outcome *o, int caps[2], const char *var,
                   const char *value) {
  int i = o->n;
  while (i > 0 && compare_vars(o->vars[i - 1], var) > 0)
    i--;
  if (i > 0 && compare_vars(o->vars[i - 1], var) == 0)
    return false;
  sc_grow(&o->vars, &caps[0], o->n + 1, sizeof(char *));
  sc_grow(&o->values, &caps[1], o->n + 1, sizeof(char *));
  memmove(o->vars + i + 1, o->vars + i, sizeof(char *) * (size_t)(o->n - i));
  memmove(o->values + i + 1, o->values + i,
          sizeof(char *) * (size_t)(o->n - i));
  o->vars[i] = var;
  o->values[i] = value;
  o->n++;
  return true;
}

bool sc_outcome_parse(const char *text, sc_outcome *out, const char **why) {
  memset(out, 0, sizeof *out);
  int caps[2] = {0, 0};
  const char *p = text;
  for (;;) {
    while (isspace((unsigned char)*p))
      p++;
    if (!*p)
      return true;
    const char *eq = strchr(p, '='), *semi = strchr(p, ';');
    if (!eq || (semi && semi < eq)) {
      *why = sc_printf("expected VARIABLE=VALUE;, found '%s'", p);
      return false;
    }
    if (!semi) {
      *why = sc_printf("expected ';' after '%s'", p);
      return false;
    }
    const char *var = trimmed(p, eq), *value = trimmed(eq + 1, semi);
    if (!*var || !*value || has_space(var) || has_space(value)) {
      *why = sc_printf("expected VARIABLE=VALUE;, found '%s'",
                       sc_strndup(p, (size_t)(semi - p + 1)));
      return false;
    }
    var = canonical_var(var);
    if (!insert(out, caps, var, canonical_value(value))) {
      *why = sc_printf("expected each variable once, found %s twice", var);
      return false;
    }
    p = semi + 1;
  }
}

const char *sc_outcome_string(const sc_outcome *o) {
  sc_strbuf sb;
  sc_sb_init(&sb);
  for (int i = 0; i < o->n; i++)
    sc_sb_printf(&sb, "%s%s=%s;", i ? " " : "", o->vars[i], o->values[i]);
  return sb.data;
}

bool sc_outcome_agree(const sc_outcome *a, const sc_outcome *b) {
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

int sc_outcome_shared(const sc_outcome *a, const sc_outcome *b) {
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

int sc_outcome_compare(const sc_outcome *a, const sc_outcome *b) {
  for (int i = 0; i < a->n && i < b->n; i++) {
    int c = compare_vars(a->vars[i], b->vars[i]);
    if (c == 0)
      c = compare_values(a->values[i], b->values[i]);
    if (c != 0)
      return c;
  }
  return a->n - b->n;
}
