/* compare_text.c: the table of a comparison, per model: a line per test
 * (instances, per source when there are several, outcomes observed,
 * forbidden, allowed but unseen, verdict), totals, then what a model author
 * must look at: each forbidden outcome with its count, tests without a
 * verdict, names that stand for several tests. */
#include "report/compare.h"

#include "util/gcmem.h"
#include "util/strbuf.h"

#include <stdio.h>
#include <string.h>

static const char *verdict_word(sc_verdict v) {
  return v == SC_VERDICT_SOUND     ? "sound"
         : v == SC_VERDICT_UNSOUND ? "UNSOUND"
                                   : "-";
}

/* Widths of the name and source columns. */
typedef struct layout {
  int name;
  int *source;
  bool per_source; /* one column per source when there are several */
} layout;

static int max_int(int a, int b) { return a > b ? a : b; }

static layout measure(const sc_compare *c) {
  layout l = {4, sci_alloc(sizeof(int) * (size_t)(c->nsources + 1)),
              c->nsources > 1};
  for (int t = 0; t < c->ntests; t++)
    l.name = max_int(l.name, (int)strlen(sc_compare_test_name(c, t)));
  for (int s = 0; s < c->nsources; s++)
    l.source[s] = max_int(9, (int)strlen(c->sources[s]));
  return l;
}

static void header(sc_strbuf *sb, const sc_compare *c, layout l) {
  sci_sb_printf(sb, "%-*s  %9s", l.name, "test", "instances");
  for (int s = 0; l.per_source && s < c->nsources; s++)
    sci_sb_printf(sb, "  %*s", l.source[s], c->sources[s]);
  sci_sb_printf(sb, "  %8s  %9s  %6s  %s\n", "outcomes", "forbidden", "unseen",
               "verdict");
}

static void row(sc_strbuf *sb, const sc_compare *c, int model, int t,
                layout l) {
  sci_sb_printf(sb, "%-*s  %9ld", l.name, sc_compare_test_name(c, t),
               sci_compare_test_instances(c, t, -1));
  for (int s = 0; l.per_source && s < c->nsources; s++)
    sci_sb_printf(sb, "  %*ld", l.source[s], sci_compare_test_instances(c, t, s));
  sci_sb_printf(sb, "  %8d", sc_compare_outcome_count(c, t));
  sc_verdict v = sc_compare_verdict(c, model, t);
  if (v == SC_VERDICT_NONE)
    sci_sb_printf(sb, "  %9s  %6s", "-", "-");
  else
    sci_sb_printf(sb, "  %9d  %6d", sci_compare_forbidden(c, model, t, NULL),
                 sc_compare_unseen_count(c, model, t));
  sci_sb_printf(sb, "  %s\n", verdict_word(v));
}

static void totals(sc_strbuf *sb, const sc_compare *c, int model) {
  int sound = 0, unsound = 0, none = 0, outcomes = 0, forbidden = 0;
  long instances = 0, forbidden_instances = 0;
  for (int t = 0; t < c->ntests; t++) {
    sc_verdict v = sc_compare_verdict(c, model, t);
    sound += v == SC_VERDICT_SOUND;
    unsound += v == SC_VERDICT_UNSOUND;
    none += v == SC_VERDICT_NONE;
    outcomes += sc_compare_outcome_count(c, t);
    instances += sci_compare_test_instances(c, t, -1);
    long n;
    forbidden += sci_compare_forbidden(c, model, t, &n);
    forbidden_instances += n;
  }
  sci_sb_printf(sb,
               "total: %d test%s: %d sound, %d UNSOUND, %d without a verdict; "
               "%ld instances, %d outcomes observed, %d forbidden (%ld "
               "instances)\n",
               c->ntests, c->ntests == 1 ? "" : "s", sound, unsound, none,
               instances, outcomes, forbidden, forbidden_instances);
}

/* "(titan 10, h100 2)" when there are several sources. */
static const char *per_source(const sc_compare *c, int t, int i) {
  if (c->nsources < 2)
    return "";
  sc_strbuf sb;
  sci_sb_init(&sb);
  for (int s = 0; s < c->nsources; s++)
    sci_sb_printf(&sb, "%s%s %ld", s ? ", " : "  (", c->sources[s],
                 sc_compare_outcome_instances(c, t, i, s));
  sci_sb_putc(&sb, ')');
  return sb.data;
}

static void forbidden_outcomes(sc_strbuf *sb, const sc_compare *c, int model,
                               int t) {
  sci_sb_printf(sb, "UNSOUND %s: observed outcomes the model forbids:\n",
               sc_compare_test_name(c, t));
  for (int i = 0; i < sc_compare_outcome_count(c, t); i++)
    if (!sc_compare_outcome_allowed(c, model, t, i))
      sci_sb_printf(sb, "  %9ld  %s%s\n",
                   sc_compare_outcome_instances(c, t, i, -1),
                   sc_compare_outcome(c, t, i), per_source(c, t, i));
}

/* Every outcome of a test, and the allowed states hardware never showed. */
static void detail(sc_strbuf *sb, const sc_compare *c, int model, int t) {
  const char *cond = c->tests[t].condition;
  sci_sb_printf(sb, "%s%s%s\n", sc_compare_test_name(c, t), cond ? ": " : "",
               cond ? cond : "");
  bool known = sc_compare_verdict(c, model, t) != SC_VERDICT_NONE;
  for (int i = 0; i < sc_compare_outcome_count(c, t); i++)
    sci_sb_printf(sb, "  %9ld  %-9s %s%s%s\n",
                 sc_compare_outcome_instances(c, t, i, -1),
                 !known ? "?"
                 : sc_compare_outcome_allowed(c, model, t, i) ? "allowed"
                                                              : "FORBIDDEN",
                 sc_compare_outcome(c, t, i),
                 sc_compare_outcome_marked(c, t, i) ? "  *" : "",
                 per_source(c, t, i));
  for (int i = 0; i < sc_compare_unseen_count(c, model, t); i++)
    sci_sb_printf(sb, "  %9s  %-9s %s\n", "-", "unseen",
                 sc_compare_unseen(c, model, t, i));
}

/* A test whose launches hung, beside the model's liveness verdict. */
static void hangs(sc_strbuf *sb, const sc_compare *c, int model, int t) {
  sci_sb_printf(sb, "hangs %s: %s\n", sc_compare_test_name(c, t),
               sci_compare_hang_text(c, model, t));
}

/* Names that stand for several different tests. */
static void name_clashes(sc_strbuf *sb, const sc_compare *c) {
  for (int t = 0; t < c->ntests; t++) {
    int n = 0, first = -1;
    for (int u = 0; u < c->ntests; u++)
      if (strcmp(c->tests[u].name, c->tests[t].name) == 0) {
        n++;
        if (first < 0)
          first = u;
      }
    if (n > 1 && first == t)
      sci_sb_printf(sb, "note: %d different tests are named %s; each is shown "
                       "with the log that holds it\n",
                   n, c->tests[t].name);
  }
}

const char *sc_compare_table(const sc_compare *c, int model, unsigned flags) {
  sc_strbuf sb;
  sci_sb_init(&sb);
  if (model < 0 || model >= c->nmodels)
    return sb.data;
  layout l = measure(c);
  sci_sb_printf(&sb, "Model %s\n", c->models[model].label);
  if (c->progress)
    sci_sb_printf(&sb, "Progress %s (the model's liveness verdicts beside "
                       "hangs)\n", c->progress);
  header(&sb, c, l);
  for (int t = 0; t < c->ntests; t++)
    row(&sb, c, model, t, l);
  totals(&sb, c, model);
  name_clashes(&sb, c);
  for (int t = 0; t < c->ntests; t++) {
    const char *why = sc_compare_failure(c, model, t);
    if (why)
      sci_sb_printf(&sb, "no verdict for %s: %s\n", sc_compare_test_name(c, t),
                   why);
  }
  for (int t = 0; t < c->ntests; t++)
    if (sc_compare_verdict(c, model, t) == SC_VERDICT_UNSOUND)
      forbidden_outcomes(&sb, c, model, t);
  for (int t = 0; t < c->ntests; t++)
    if (c->tests[t].hung_launches > 0)
      hangs(&sb, c, model, t);
  for (int t = 0; (flags & SC_REPORT_DETAIL) && t < c->ntests; t++)
    detail(&sb, c, model, t);
  return sb.data;
}
