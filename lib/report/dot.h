/* dot.h: drawing candidate executions in Graphviz's DOT language. */
#ifndef SC_DOT_H
#define SC_DOT_H

#include "sim/execution.h"
#include "util/strbuf.h"

/* A cycle to draw bold: the events of a cycle in the relation that check
 * `check` tested (the reason the model forbids the execution). */
typedef struct sc_dot_cycle {
  const char *check;
  const int *events;
  int n;
} sc_dot_cycle;

/* Append one digraph for execution `x`, titled `title`; `cycle` may be
 * NULL. */
void sc_dot_execution(sc_strbuf *sb, const sc_execution *x, const char *title,
                      const sc_dot_cycle *cycle);

#endif
