/* dot.c: a candidate execution as a Graphviz digraph, herd-style: one
 * column (cluster) per thread with its events top to bottom, lettered
 * "a: W[x]=1" in thread order (initial writes unlettered, on top), the
 * threads boxed by their scopes (device, kernel, cta, warp), edges for po,
 * rf, co, fr, rmw and dependencies, and the cycle that makes a check fail
 * drawn bold.  Text only: rendering is Graphviz's business. */
#include "report/dot.h"

#include "util/gcmem.h"
#include "sim/sem.h"
#include "util/strbuf.h"

#include <string.h>

static void put_node(sc_strbuf *sb, const sc_execution *x, int i,
                     const char *indent) {
  sc_sb_printf(sb, "%se%d [label=\"%s\"];\n", indent, i, sc_exec_event_label(x, i));
}

static void put_thread(sc_strbuf *sb, const sc_execution *x, int th,
                       const char *indent) {
  /* a liveness witness's stuck threads are marked (sem.h's sc_stuck) */
  sc_stuck stuck = x->traces[th]->stuck;
  sc_sb_printf(sb, "%ssubgraph cluster_thread%d {\n%s  label=\"%s%s\";%s\n", indent,
               th, indent, x->test->threads[th].name,
               stuck == SC_STUCK_SPIN ? " (stuck: spins for ever)"
               : stuck == SC_STUCK_BARRIER ? " (stuck: waits at its barrier for ever)"
                                           : "",
               stuck == SC_STUCK_NONE ? "" : " color=crimson; fontcolor=crimson;");
  const char *inner = sc_printf("%s  ", indent);
  for (int i = x->ninit; i < x->nevents; i++)
    if (x->events[i].thread == th)
      put_node(sb, x, i, inner);
  sc_sb_printf(sb, "%s}\n", indent);
}

/* Scope boxes, following the test's scope tree. */
static void put_scope(sc_strbuf *sb, const sc_execution *x,
                      const sc_scope_node *n, int *next_box, int depth) {
  const char *indent = sc_printf("%*s", 2 * depth, "");
  if (n->level == SC_LEVEL_THREAD) {
    put_thread(sb, x, n->thread, indent);
    return;
  }
  sc_sb_printf(sb, "%ssubgraph cluster_scope%d {\n%s  label=\"%s\"; style=dashed;\n",
               indent, (*next_box)++, indent, sc_level_name(n->level));
  for (int i = 0; i < n->nkids; i++)
    put_scope(sb, x, n->kids[i], next_box, depth + 1);
  sc_sb_printf(sb, "%s}\n", indent);
}

typedef struct edge_style {
  const char *name, *color, *style;
} edge_style;

static void put_edge(sc_strbuf *sb, int a, int b, edge_style s,
                     const char *extra) {
  sc_sb_printf(sb, "  e%d -> e%d [label=\"%s\", color=%s, fontcolor=%s%s%s%s];\n",
               a, b, s.name, s.color, s.color, s.style ? ", style=" : "",
               s.style ? s.style : "", extra);
}

/* Only po places events (threads as columns, program order downwards);
 * the other edges are drawn without moving anything. */
static void put_edges(sc_strbuf *sb, const sc_execution *x, const sc_rel *r,
                      edge_style s, bool immediate_only) {
  const char *extra = strcmp(s.name, "po") == 0 ? "" : ", constraint=false";
  for (int a = 0; a < x->nevents; a++)
    for (int b = 0; b < x->nevents; b++) {
      if (!sc_rel_has(r, a, b))
        continue;
      bool skip = false; /* po and co: only immediate successors */
      for (int c = 0; immediate_only && c < x->nevents && !skip; c++)
        skip = sc_rel_has(r, a, c) && sc_rel_has(r, c, b);
      if (!skip)
        put_edge(sb, a, b, s, extra);
    }
}

void sc_dot_execution(sc_strbuf *sb, const sc_execution *x, const char *title,
                      const sc_cycle *cycle) {
  const sc_test *t = x->test;
  sc_sb_printf(sb, "digraph \"%s\" {\n  label=\"%s%s%s\";\n  node [shape=none];\n",
               title, title, cycle ? ": cycle in " : "", cycle ? cycle->check : "");
  sc_sb_puts(sb, "  subgraph cluster_init {\n    label=\"initial state\";\n");
  for (int i = 0; i < x->ninit; i++)
    put_node(sb, x, i, "    ");
  sc_sb_puts(sb, "  }\n");
  /* the parser places every thread in the tree when there is one */
  int box = 0;
  for (int r = 0; r < t->nscope_roots; r++)
    put_scope(sb, x, t->scope_roots[r], &box, 1);
  if (t->nscope_roots == 0)
    for (int th = 0; th < t->nthreads; th++)
      put_thread(sb, x, th, "  ");
  /* the initial state above every thread's first event */
  for (int th = 0; th < t->nthreads && x->ninit > 0; th++)
    if (x->thread_first[th] < x->nevents &&
        x->events[x->thread_first[th]].thread == th)
      sc_sb_printf(sb, "  e0 -> e%d [style=invis];\n", x->thread_first[th]);
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
  if (cycle)
    for (int i = 0; i < cycle->n; i++)
      put_edge(sb, cycle->events[i], cycle->events[(i + 1) % cycle->n],
               (edge_style){cycle->check, "crimson", "bold"},
               ", penwidth=2.5, constraint=false");
  sc_sb_puts(sb, "}\n");
}
