/* dot.c: a candidate execution as a Graphviz digraph, herd-style: one
 * column (cluster) per thread with its events top to bottom, labelled
 * "a: W[x]=1", initial writes on top, and edges for po, rf, co, fr, rmw
 * and dependencies.  Text only: rendering is Graphviz's business. */
#include "dot.h"

#include "gcmem.h"
#include "sem.h"
#include "strbuf.h"

/* Event names as herd gives them: a, b, ..., z, then a1, b1... */
static const char *event_name(int i) {
  return i < 26 ? sc_printf("%c", 'a' + i) : sc_printf("%c%d", 'a' + i % 26, i / 26);
}

static void put_label(sc_strbuf *sb, const sc_execution *x, int i) {
  const sc_event *e = &x->events[i];
  const sc_test *t = x->test;
  sc_sb_printf(sb, "%s: ", event_name(i));
  switch (e->kind) {
  case SC_EV_READ:
  case SC_EV_WRITE:
    sc_sb_printf(sb, "%s%s[%s]=%s", e->kind == SC_EV_READ ? "R" : "W",
                 e->thread < 0 ? "i" : "", t->locs[e->vloc].name,
                 sc_value_string(t, e->value));
    break;
  case SC_EV_FENCE:
  case SC_EV_BARRIER: {
    sc_strbuf in;
    sc_sb_init(&in);
    sc_print_instruction(&in, t, &t->threads[e->thread], e->instr);
    sc_sb_puts(sb, in.data);
    break;
  }
  }
}

typedef struct edge_style {
  const char *name, *color, *style;
} edge_style;

static void put_edges(sc_strbuf *sb, const sc_execution *x, const sc_rel *r,
                      edge_style s, bool immediate_only) {
  for (int a = 0; a < x->nevents; a++)
    for (int b = 0; b < x->nevents; b++) {
      if (!sc_rel_has(r, a, b))
        continue;
      bool skip = false; /* po and co: only immediate successors */
      for (int c = 0; immediate_only && c < x->nevents && !skip; c++)
        skip = sc_rel_has(r, a, c) && sc_rel_has(r, c, b);
      if (!skip)
        sc_sb_printf(sb, "  e%d -> e%d [label=\"%s\", color=%s, fontcolor=%s%s%s];\n",
                     a, b, s.name, s.color, s.color, s.style ? ", style=" : "",
                     s.style ? s.style : "");
    }
}

void sc_dot_execution(sc_strbuf *sb, const sc_execution *x, const char *title) {
  const sc_test *t = x->test;
  sc_sb_printf(sb, "digraph \"%s\" {\n  label=\"%s\";\n  node [shape=none];\n",
               title, title);
  sc_sb_puts(sb, "  subgraph cluster_init {\n    label=\"init\";\n");
  for (int i = 0; i < x->ninit; i++) {
    sc_sb_printf(sb, "    e%d [label=\"", i);
    put_label(sb, x, i);
    sc_sb_puts(sb, "\"];\n");
  }
  sc_sb_puts(sb, "  }\n");
  for (int th = 0; th < t->nthreads; th++) {
    sc_sb_printf(sb, "  subgraph cluster_%d {\n    label=\"%s\";\n", th,
                 t->threads[th].name);
    for (int i = x->ninit; i < x->nevents; i++) {
      if (x->events[i].thread != th)
        continue;
      sc_sb_printf(sb, "    e%d [label=\"", i);
      put_label(sb, x, i);
      sc_sb_puts(sb, "\"];\n");
    }
    sc_sb_puts(sb, "  }\n");
  }
  sc_rel *rfinv = sc_rel_new(x->nevents), *fr = sc_rel_new(x->nevents);
  sc_rel_inverse(rfinv, x->rf);
  sc_rel_seq(fr, rfinv, x->co);
  put_edges(sb, x, x->po, (edge_style){"po", "black", NULL}, true);
  put_edges(sb, x, x->rf, (edge_style){"rf", "red", NULL}, false);
  put_edges(sb, x, x->co, (edge_style){"co", "blue", NULL}, true);
  put_edges(sb, x, fr, (edge_style){"fr", "orange", NULL}, false);
  put_edges(sb, x, x->rmw, (edge_style){"rmw", "darkgreen", "bold"}, false);
  put_edges(sb, x, x->addr, (edge_style){"addr", "indigo", "dashed"}, false);
  put_edges(sb, x, x->data, (edge_style){"data", "indigo", "dashed"}, false);
  put_edges(sb, x, x->ctrl, (edge_style){"ctrl", "indigo", "dashed"}, false);
  sc_sb_puts(sb, "}\n");
}
