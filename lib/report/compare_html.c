/* compare_html.c: the comparison as one self-contained HTML page (inline
 * CSS, SVG and a short script; nothing fetched): a summary per model, then
 * per model and test the histogram as a bar chart, each outcome coloured
 * allowed or forbidden, the condition's outcomes starred, and the allowed
 * states hardware never showed drawn hollow.  Tests filter by verdict. */
#include "report/compare.h"

#include "util/gcmem.h"
#include "util/strbuf.h"

#include <string.h>

static void put_escaped(sc_strbuf *sb, const char *s) {
  for (; s && *s; s++) {
    switch (*s) {
    case '<': sci_sb_puts(sb, "&lt;"); break;
    case '>': sci_sb_puts(sb, "&gt;"); break;
    case '&': sci_sb_puts(sb, "&amp;"); break;
    case '"': sci_sb_puts(sb, "&quot;"); break;
    default: sci_sb_putc(sb, *s);
    }
  }
}

static const char *verdict_class(sc_verdict v) {
  return v == SC_VERDICT_SOUND     ? "sound"
         : v == SC_VERDICT_UNSOUND ? "UNSOUND"
                                   : "none";
}

static const char *verdict_text(sc_verdict v) {
  return v == SC_VERDICT_NONE ? "no verdict" : verdict_class(v);
}

static const char *const style =
    "body{font-family:sans-serif;margin:2em;color:#222;max-width:80em}\n"
    "table{border-collapse:collapse;margin-bottom:1.5em}\n"
    "td,th{padding:2px 10px;border-bottom:1px solid #ddd;text-align:right}\n"
    "td:first-child,th:first-child{text-align:left}\n"
    ".test{border:1px solid #ccc;border-radius:4px;padding:0.5em 1em;"
    "margin:1em 0}\n"
    ".test h3{margin:0.2em 0;font-size:1.05em}\n"
    ".cond,.src{font-family:monospace;margin:0.2em 0;color:#444}\n"
    ".hang{margin:0.2em 0;color:#8a4b00}\n"
    ".badge{padding:1px 6px;border-radius:3px;color:#fff;font-size:0.85em}\n"
    ".badge.sound{background:#2e7d32}.badge.UNSOUND{background:#c62828}\n"
    ".badge.none{background:#888}\n"
    "#filter{position:sticky;top:0;background:#fff;padding:0.5em 0;"
    "border-bottom:1px solid #ccc}\n"
    "svg text{font-family:monospace;font-size:12px}\n";

/* Show or hide every element whose data-verdict is unticked. */
static const char *const script =
    "function scFilter(){\n"
    "  var shown={};\n"
    "  document.querySelectorAll('#filter input').forEach(function(b){"
    "shown[b.value]=b.checked;});\n"
    "  document.querySelectorAll('[data-verdict]').forEach(function(e){\n"
    "    e.style.display=shown[e.getAttribute('data-verdict')]?'':'none';"
    "});\n"
    "}\n"
    "document.querySelectorAll('#filter input').forEach(function(b){"
    "b.addEventListener('change',scFilter);});\n";

/* ---- The bar chart ------------------------------------------------------- */

#define ROW_HEIGHT 18
#define BAR_WIDTH 320
#define CHAR_WIDTH 7.3

/* Bars are on a log scale, so that an outcome seen once among 10^5 runs
 * (often the weak behaviour of interest) is still visible.  log10(1 + n),
 * without libm: whole decades, then linear within the last one. */
static double log_scale(long n) {
  double x = (double)n + 1, decades = 0;
  while (x >= 10) {
    x /= 10;
    decades++;
  }
  return decades + (x - 1) / 9;
}

typedef struct chart {
  sc_strbuf *sb;
  int label_width; /* pixels */
  double max;      /* log_scale of the largest count */
  int y;
} chart;

static const char *fill_of(const sc_compare *c, int model, int t, int i,
                           const char **word) {
  if (sc_compare_verdict(c, model, t) == SC_VERDICT_NONE) {
    *word = "no verdict";
    return "#9e9e9e";
  }
  if (sc_compare_outcome_allowed(c, model, t, i)) {
    *word = "allowed";
    return "#43a047";
  }
  *word = "FORBIDDEN";
  return "#e53935";
}

static void bar_tooltip(chart *ch, const sc_compare *c, int t, int i,
                        const char *word) {
  sci_sb_printf(ch->sb, "<title>%s: %ld", word,
               sc_compare_outcome_instances(c, t, i, -1));
  for (int s = 0; c->nsources > 1 && s < c->nsources; s++) {
    sci_sb_printf(ch->sb, "%s", s ? ", " : " (");
    put_escaped(ch->sb, c->sources[s]);
    sci_sb_printf(ch->sb, " %ld", sc_compare_outcome_instances(c, t, i, s));
  }
  sci_sb_puts(ch->sb, c->nsources > 1 ? ")</title>" : "</title>");
}

static void label(chart *ch, const char *text, bool marked) {
  sci_sb_printf(ch->sb, "<text x=\"4\" y=\"%d\"%s>%s", ch->y + 13,
               marked ? " font-weight=\"bold\"" : "", marked ? "&#9733; " : "");
  put_escaped(ch->sb, text);
  sci_sb_puts(ch->sb, "</text>");
}

static void observed_bar(chart *ch, const sc_compare *c, int model, int t,
                         int i) {
  const char *word;
  const char *fill = fill_of(c, model, t, i, &word);
  long n = sc_compare_outcome_instances(c, t, i, -1);
  double w = ch->max > 0 ? BAR_WIDTH * log_scale(n) / ch->max : 0;
  if (w < 2)
    w = 2;
  sci_sb_puts(ch->sb, "<g>");
  bar_tooltip(ch, c, t, i, word);
  label(ch, sc_compare_outcome(c, t, i), sc_compare_outcome_marked(c, t, i));
  sci_sb_printf(ch->sb,
               "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
               "fill=\"%s\"/><text x=\"%.1f\" y=\"%d\">%ld%s</text></g>\n",
               ch->label_width, ch->y + 3, w, ROW_HEIGHT - 5, fill,
               ch->label_width + w + 6, ch->y + 13, n,
               word[0] == 'F' ? " forbidden" : "");
  ch->y += ROW_HEIGHT;
}

static void unseen_bar(chart *ch, const char *state) {
  sci_sb_puts(ch->sb, "<g><title>allowed, never observed</title>");
  label(ch, state, false);
  sci_sb_printf(ch->sb,
               "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
               "fill=\"none\" stroke=\"#9e9e9e\" stroke-dasharray=\"3,2\"/>"
               "<text x=\"%d\" y=\"%d\" fill=\"#777\">0 (allowed, "
               "unseen)</text></g>\n",
               ch->label_width, ch->y + 3, BAR_WIDTH / 8, ROW_HEIGHT - 5,
               ch->label_width + BAR_WIDTH / 8 + 6, ch->y + 13);
  ch->y += ROW_HEIGHT;
}

static void bar_chart(sc_strbuf *sb, const sc_compare *c, int model, int t) {
  int n = sc_compare_outcome_count(c, t);
  int unseen = sc_compare_unseen_count(c, model, t);
  size_t longest = 0;
  long most = 0;
  for (int i = 0; i < n; i++) {
    size_t len = strlen(sc_compare_outcome(c, t, i));
    longest = len > longest ? len : longest;
    long k = sc_compare_outcome_instances(c, t, i, -1);
    most = k > most ? k : most;
  }
  for (int i = 0; i < unseen; i++) {
    size_t len = strlen(sc_compare_unseen(c, model, t, i));
    longest = len > longest ? len : longest;
  }
  chart ch = {sb, (int)((double)(longest + 3) * CHAR_WIDTH) + 8,
              log_scale(most), 0};
  sci_sb_printf(sb,
               "<svg width=\"%d\" "
               "height=\"%d\" role=\"img\">\n",
               ch.label_width + BAR_WIDTH + 160, (n + unseen) * ROW_HEIGHT + 4);
  for (int i = 0; i < n; i++)
    observed_bar(&ch, c, model, t, i);
  for (int i = 0; i < unseen; i++)
    unseen_bar(&ch, sc_compare_unseen(c, model, t, i));
  sci_sb_puts(sb, "</svg>\n");
}

/* ---- The page ------------------------------------------------------------ */

static void test_card(sc_strbuf *sb, const sc_compare *c, int model, int t) {
  sc_verdict v = sc_compare_verdict(c, model, t);
  sci_sb_printf(sb, "<div class=\"test\" data-verdict=\"%s\">\n<h3>",
               verdict_class(v));
  put_escaped(sb, sc_compare_test_name(c, t));
  sci_sb_printf(sb, " <span class=\"badge %s\">%s</span></h3>\n",
               verdict_class(v), verdict_text(v));
  if (c->tests[t].condition) {
    sci_sb_puts(sb, "<p class=\"cond\">");
    put_escaped(sb, c->tests[t].condition);
    sci_sb_puts(sb, "</p>\n");
  }
  sci_sb_printf(sb, "<p class=\"src\">%ld instances", sci_compare_test_instances(c, t, -1));
  for (int s = 0; c->nsources > 1 && s < c->nsources; s++) {
    sci_sb_puts(sb, s ? ", " : ": ");
    put_escaped(sb, c->sources[s]);
    sci_sb_printf(sb, " %ld", sci_compare_test_instances(c, t, s));
  }
  const char *why = sc_compare_failure(c, model, t);
  if (why) {
    sci_sb_puts(sb, "; no verdict: ");
    put_escaped(sb, why);
  }
  sci_sb_puts(sb, "</p>\n");
  if (sc_compare_test_hung_launches(c, t) > 0) {
    sci_sb_puts(sb, "<p class=\"hang\">Hung: ");
    put_escaped(sb, sci_compare_hang_text(c, model, t));
    sci_sb_puts(sb, "</p>\n");
  }
  bar_chart(sb, c, model, t);
  sci_sb_puts(sb, "</div>\n");
}

static void summary_table(sc_strbuf *sb, const sc_compare *c, int model) {
  sci_sb_puts(sb, "<table>\n<tr><th>test</th><th>instances</th>");
  for (int s = 0; c->nsources > 1 && s < c->nsources; s++) {
    sci_sb_puts(sb, "<th>");
    put_escaped(sb, c->sources[s]);
    sci_sb_puts(sb, "</th>");
  }
  sci_sb_puts(sb, "<th>outcomes</th><th>forbidden</th><th>unseen</th>"
                 "<th>verdict</th></tr>\n");
  for (int t = 0; t < c->ntests; t++) {
    sc_verdict v = sc_compare_verdict(c, model, t);
    sci_sb_printf(sb, "<tr data-verdict=\"%s\"><td>", verdict_class(v));
    put_escaped(sb, sc_compare_test_name(c, t));
    sci_sb_printf(sb, "</td><td>%ld</td>", sci_compare_test_instances(c, t, -1));
    for (int s = 0; c->nsources > 1 && s < c->nsources; s++)
      sci_sb_printf(sb, "<td>%ld</td>", sci_compare_test_instances(c, t, s));
    sci_sb_printf(sb, "<td>%d</td>", sc_compare_outcome_count(c, t));
    if (v == SC_VERDICT_NONE)
      sci_sb_puts(sb, "<td>-</td><td>-</td>");
    else
      sci_sb_printf(sb, "<td>%d</td><td>%d</td>",
                   sci_compare_forbidden(c, model, t, NULL),
                   sc_compare_unseen_count(c, model, t));
    sci_sb_printf(sb, "<td><span class=\"badge %s\">%s</span></td></tr>\n",
                 verdict_class(v), verdict_text(v));
  }
  sci_sb_puts(sb, "</table>\n");
}

static void filter_box(sc_strbuf *sb, const sc_compare *c) {
  static const sc_verdict order[] = {SC_VERDICT_UNSOUND, SC_VERDICT_SOUND,
                                     SC_VERDICT_NONE};
  sci_sb_puts(sb, "<div id=\"filter\">Show tests that are: ");
  for (int k = 0; k < 3; k++) {
    int n = 0;
    for (int m = 0; m < c->nmodels; m++)
      for (int t = 0; t < c->ntests; t++)
        n += sc_compare_verdict(c, m, t) == order[k];
    sci_sb_printf(sb,
                 "<label><input type=\"checkbox\" value=\"%s\" checked> %s "
                 "(%d)</label> ",
                 verdict_class(order[k]), verdict_text(order[k]), n);
  }
  sci_sb_puts(sb, "</div>\n");
}

const char *sc_compare_html(const sc_compare *c, const char *title) {
  sc_strbuf sb;
  sci_sb_init(&sb);
  const char *t = title ? title : "scopecat compare";
  sci_sb_puts(&sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
                  "<meta charset=\"utf-8\">\n<title>");
  put_escaped(&sb, t);
  sci_sb_printf(&sb, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>",
               style);
  put_escaped(&sb, t);
  sci_sb_printf(&sb,
               "</h1>\n<p>Hardware histograms against models (scopecat %s). "
               "A test is <b>sound</b> under a model when the model allows "
               "every outcome hardware showed, <b>UNSOUND</b> when hardware "
               "showed outcomes the model forbids. Each chart has a bar per "
               "observed outcome (log scale): green when the model allows "
               "it, red when it forbids it; &#9733; marks the outcomes the "
               "log says the condition is about; hollow bars are states the "
               "model allows that hardware never showed.</p>\n",
               sc_version());
  filter_box(&sb, c);
  for (int m = 0; m < c->nmodels; m++) {
    sci_sb_puts(&sb, "<section>\n<h2>Model ");
    put_escaped(&sb, c->models[m].label);
    sci_sb_puts(&sb, "</h2>\n");
    if (c->progress) {
      sci_sb_puts(&sb, "<p class=\"hang\">Progress model of the liveness "
                       "verdicts beside hangs: ");
      put_escaped(&sb, c->progress);
      sci_sb_puts(&sb, "</p>\n");
    }
    summary_table(&sb, c, m);
    for (int i = 0; i < c->ntests; i++)
      test_card(&sb, c, m, i);
    sci_sb_puts(&sb, "</section>\n");
  }
  sci_sb_printf(&sb, "<script>\n%s</script>\n</body>\n</html>\n", script);
  return sb.data;
}
