/* dot.c: a candidate execution as a Graphviz digraph, herd-style: events
 * lettered "a: W[x]=1" in thread order (initial writes unlettered, on
 * top), edges for po, rf, co, fr, rmw and dependencies, and the cycle that
 * makes a check fail drawn bold.  herd7's -graph layouts: CLUSTER boxes
 * each thread (a column of its events, top to bottom) inside boxes for its
 * scopes (device, kernel, cta, warp); FREE draws no box and lets Graphviz
 * place the events; COLUMNS puts the threads side by side under a header
 * each, the k-th drawn event of every thread on one row (rank=same).
 * herd7's -showevents chooses the events drawn (an edge is drawn when
 * both its ends are).  Text only: rendering is Graphviz's business. */
#include "report/dot.h"

#include "util/gcmem.h"
#include "util/oom.h"
#include "sim/result.h"
#include "sim/sem.h"
#include "util/strbuf.h"

#include <string.h>

/* One drawing being written: the execution, the options, and which of its
 * events are drawn. */
typedef struct drawing {
  sc_strbuf *sb;
  const sc_execution *x;
  sc_dot_options opts;
  bool *drawn; /* per event */
} drawing;

/* herd7's selection: our executions have no register events, so noregs
 * and all draw the same; mem keeps the reads and writes (initial writes
 * too), memfence adds the fences and barriers. */
static bool event_drawn(sc_dot_events which, sc_event_kind kind) {
  switch (which) {
  case SC_DOT_EVENTS_MEM:
    return kind == SC_EV_READ || kind == SC_EV_WRITE;
  case SC_DOT_EVENTS_MEMFENCE:
  case SC_DOT_EVENTS_NOREGS:
  case SC_DOT_EVENTS_ALL:
  default:
    return true;
  }
}

static void put_node(const drawing *d, int i, const char *indent) {
  if (d->drawn[i])
    sci_sb_printf(d->sb, "%se%d [label=\"%s\"];\n", indent, i,
                 sci_exec_event_label(d->x, i));
}

/* A thread's name, and its marks when a liveness witness leaves it stuck
 * (sem.h's sc_stuck): the label text and the attributes after it. */
static const char *thread_label(const sc_execution *x, int th) {
  sc_stuck stuck = x->traces[th]->stuck;
  return sci_printf("label=\"%s%s\";%s", x->test->threads[th].name,
                   stuck == SC_STUCK_SPIN ? " (stuck: spins for ever)"
                   : stuck == SC_STUCK_BARRIER
                       ? " (stuck: waits at its barrier for ever)"
                   : stuck == SC_STUCK_HALTED
                       ? " (halted: never scheduled again)"
                       : "",
                   stuck == SC_STUCK_NONE ? ""
                                          : " color=crimson; fontcolor=crimson;");
}

static void put_thread_nodes(const drawing *d, int th, const char *indent) {
  for (int i = d->x->ninit; i < d->x->nevents; i++)
    if (d->x->events[i].thread == th)
      put_node(d, i, indent);
}

static void put_thread(const drawing *d, int th, const char *indent) {
  sci_sb_printf(d->sb, "%ssubgraph cluster_thread%d {\n%s  %s\n", indent, th,
               indent, thread_label(d->x, th));
  put_thread_nodes(d, th, sci_printf("%s  ", indent));
  sci_sb_printf(d->sb, "%s}\n", indent);
}

/* Scope boxes, following the test's scope tree. */
static void put_scope(const drawing *d, const sc_scope_node *n, int *next_box,
                      int depth) {
  const char *indent = sci_printf("%*s", 2 * depth, "");
  if (n->level == SC_LEVEL_THREAD) {
    put_thread(d, n->thread, indent);
    return;
  }
  sci_sb_printf(d->sb, "%ssubgraph cluster_scope%d {\n%s  label=\"%s\"; style=dashed;\n",
               indent, (*next_box)++, indent, sci_level_name(n->level));
  for (int i = 0; i < n->nkids; i++)
    put_scope(d, n->kids[i], next_box, depth + 1);
  sci_sb_printf(d->sb, "%s}\n", indent);
}

/* The first drawn event of thread th, -1 when none is. */
static int first_drawn(const drawing *d, int th) {
  for (int i = d->x->ninit; i < d->x->nevents; i++)
    if (d->x->events[i].thread == th && d->drawn[i])
      return i;
  return -1;
}

/* The initial state above every thread's first drawn event. */
static void put_init_anchors(const drawing *d) {
  for (int th = 0; th < d->x->test->nthreads && d->x->ninit > 0; th++) {
    int first = first_drawn(d, th);
    if (first >= 0)
      sci_sb_printf(d->sb, "  e0 -> e%d [style=invis];\n", first);
  }
}

/* CLUSTER: herd7's default, the initial state and each thread boxed. */
static void put_clusters(const drawing *d) {
  const sc_test *t = d->x->test;
  sci_sb_puts(d->sb, "  subgraph cluster_init {\n    label=\"initial state\";\n");
  for (int i = 0; i < d->x->ninit; i++)
    put_node(d, i, "    ");
  sci_sb_puts(d->sb, "  }\n");
  /* the parser places every thread in the tree when there is one */
  int box = 0;
  for (int r = 0; r < t->nscope_roots; r++)
    put_scope(d, t->scope_roots[r], &box, 1);
  if (t->nscope_roots == 0)
    for (int th = 0; th < t->nthreads; th++)
      put_thread(d, th, "  ");
  put_init_anchors(d);
}

/* FREE: no box at all; a comment names each thread's events. */
static void put_free(const drawing *d) {
  sci_sb_puts(d->sb, "  // initial state\n");
  for (int i = 0; i < d->x->ninit; i++)
    put_node(d, i, "  ");
  for (int th = 0; th < d->x->test->nthreads; th++) {
    sci_sb_printf(d->sb, "  // %s\n", d->x->test->threads[th].name);
    put_thread_nodes(d, th, "  ");
  }
  put_init_anchors(d);
}

/* Event k (from 0) of thread th among its drawn ones, -1 past its last. */
static int kth_drawn(const drawing *d, int th, int k) {
  for (int i = d->x->ninit; i < d->x->nevents; i++)
    if (d->x->events[i].thread == th && d->drawn[i] && k-- == 0)
      return i;
  return -1;
}

/* One row of COLUMNS: its nodes on one rank, and invisible edges between
 * neighbours that keep the threads in order, left to right. */
static void put_row(const drawing *d, const char *const *nodes, int n) {
  sci_sb_puts(d->sb, "  { rank=same;");
  for (int i = 0; i < n; i++)
    sci_sb_printf(d->sb, " %s;", nodes[i]);
  sci_sb_puts(d->sb, " }\n");
  for (int i = 0; i + 1 < n; i++)
    sci_sb_printf(d->sb, "  %s -> %s [style=invis];\n", nodes[i], nodes[i + 1]);
}

/* COLUMNS: the initial writes on the top row, then a header per thread,
 * then row k holds the k-th drawn event of each thread. */
static void put_columns(const drawing *d) {
  const sc_execution *x = d->x;
  int nth = x->test->nthreads;
  const char **row = sci_alloc(sizeof(char *) * (size_t)(nth + x->ninit + 1));
  int n = 0;
  for (int i = 0; i < x->ninit; i++) {
    put_node(d, i, "  ");
    if (d->drawn[i])
      row[n++] = sci_printf("e%d", i);
  }
  if (n > 0)
    put_row(d, row, n);
  for (int th = 0; th < nth; th++) {
    sci_sb_printf(d->sb, "  thread%d [shape=box, %s];\n", th,
                 thread_label(x, th));
    put_thread_nodes(d, th, "  ");
  }
  for (int th = 0; th < nth; th++)
    row[th] = sci_printf("thread%d", th);
  put_row(d, row, nth);
  for (int th = 0; th < nth && x->ninit > 0 && d->drawn[0]; th++)
    sci_sb_printf(d->sb, "  e0 -> thread%d [style=invis];\n", th);
  for (int th = 0; th < nth; th++)
    if (first_drawn(d, th) >= 0)
      sci_sb_printf(d->sb, "  thread%d -> e%d [style=invis];\n", th,
                   first_drawn(d, th));
  for (int k = 0;; k++) {
    n = 0;
    for (int th = 0; th < nth; th++) {
      int e = kth_drawn(d, th, k);
      if (e >= 0)
        row[n++] = sci_printf("e%d", e);
    }
    if (n == 0)
      break;
    put_row(d, row, n);
  }
}

typedef struct edge_style {
  const char *name, *color, *style;
} edge_style;

static void put_edge(sc_strbuf *sb, int a, int b, edge_style s,
                     const char *extra) {
  sci_sb_printf(sb, "  e%d -> e%d [label=\"%s\", color=%s, fontcolor=%s%s%s%s];\n",
               a, b, s.name, s.color, s.color, s.style ? ", style=" : "",
               s.style ? s.style : "", extra);
}

/* Only po places events (program order downwards); the other edges are
 * drawn without moving anything.  An edge between drawn events; for po
 * and co only immediate ones, among the drawn events (po from a read to
 * the next drawn event, across a fence left out). */
static void put_edges(const drawing *d, const sc_rel *r, edge_style s,
                      bool immediate_only) {
  const sc_execution *x = d->x;
  const char *extra = strcmp(s.name, "po") == 0 ? "" : ", constraint=false";
  for (int a = 0; a < x->nevents; a++)
    for (int b = 0; b < x->nevents; b++) {
      if (!d->drawn[a] || !d->drawn[b] || !sc_rel_has(r, a, b))
        continue;
      bool skip = false;
      for (int c = 0; immediate_only && c < x->nevents && !skip; c++)
        skip = d->drawn[c] && sc_rel_has(r, a, c) && sc_rel_has(r, c, b);
      if (!skip)
        put_edge(d->sb, a, b, s, extra);
    }
}

void sci_dot_execution_with(sc_strbuf *sb, const sc_execution *x,
                           const char *title, const sc_cycle *cycle,
                           const sc_dot_options *opts) {
  drawing d = {sb, x, opts ? *opts : (sc_dot_options){0},
               sci_alloc_atomic(sizeof(bool) * (size_t)(x->nevents + 1))};
  for (int i = 0; i < x->nevents; i++)
    d.drawn[i] = event_drawn(d.opts.events, x->events[i].kind);
  sci_sb_printf(sb, "digraph \"%s\" {\n  label=\"%s%s%s\";\n  node [shape=none];\n",
               title, title, cycle ? ": cycle in " : "", cycle ? cycle->check : "");
  if (d.opts.layout == SC_DOT_FREE)
    put_free(&d);
  else if (d.opts.layout == SC_DOT_COLUMNS)
    put_columns(&d);
  else
    put_clusters(&d);
  sc_rel *rfinv = sci_rel_new(x->nevents), *fr = sci_rel_new(x->nevents);
  sci_rel_inverse(rfinv, x->rf);
  sci_rel_seq(fr, rfinv, x->co);
  put_edges(&d, x->po, (edge_style){"po", "black", NULL}, true);
  put_edges(&d, x->rf, (edge_style){"rf", "red", NULL}, false);
  put_edges(&d, x->co, (edge_style){"co", "blue", NULL}, true);
  put_edges(&d, fr, (edge_style){"fr", "orange", NULL}, false);
  put_edges(&d, x->rmw, (edge_style){"rmw", "darkgreen", "bold"}, false);
  put_edges(&d, x->addr, (edge_style){"addr", "indigo", "dashed"}, false);
  put_edges(&d, x->data, (edge_style){"data", "indigo", "dashed"}, false);
  put_edges(&d, x->ctrl, (edge_style){"ctrl", "indigo", "dashed"}, false);
  for (int i = 0; cycle && i < cycle->n; i++) {
    int a = cycle->events[i], b = cycle->events[(i + 1) % cycle->n];
    if (d.drawn[a] && d.drawn[b])
      put_edge(sb, a, b, (edge_style){cycle->check, "crimson", "bold"},
               ", penwidth=2.5, constraint=false");
  }
  sci_sb_puts(sb, "}\n");
}

void sci_dot_execution(sc_strbuf *sb, const sc_execution *x, const char *title,
                      const sc_cycle *cycle) {
  sci_dot_execution_with(sb, x, title, cycle, NULL);
}

/* Titled "NAME #K" as sc_result_dot_graph's. */
const char *sc_result_dot_graph_with(const sc_result *r, int i,
                                     const sc_dot_options *opts) {
  if (!r || i < 0 || i >= r->nshown)
    return NULL;
  sc_oom_guard g;
  if (!SC_OOM_ENTER(g))
    return sci_oom_null(&g);
  sc_strbuf sb;
  sci_sb_init(&sb);
  sci_dot_execution_with(&sb, r->execs[i],
                        sci_printf("%s #%d", r->test->name, i + 1),
                        r->cycles[i], opts);
  sci_oom_leave(&g);
  return sb.data;
}
