/* dot.h: drawing candidate executions in Graphviz's DOT language. */
#ifndef SC_DOT_H
#define SC_DOT_H

#include "sim/execution.h"
#include "util/strbuf.h"

/* Append one digraph for execution `x`, titled `title`; `cycle` may be
 * NULL. */
void sc_dot_execution(sc_strbuf *sb, const sc_execution *x, const char *title,
                      const sc_cycle *cycle);

#endif
