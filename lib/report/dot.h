/* dot.h: drawing candidate executions in Graphviz's DOT language. */
#ifndef SC_DOT_H
#define SC_DOT_H

#include "sim/execution.h"
#include "util/strbuf.h"

/* Append one digraph for execution `x`, titled `title`; `cycle` may be
 * NULL; laid out and filtered by `opts` (the public sc_dot_options; NULL:
 * herd7's defaults, cluster and noregs). */
void sci_dot_execution_with(sc_strbuf *sb, const sc_execution *x,
                           const char *title, const sc_cycle *cycle,
                           const sc_dot_options *opts);
/* The same with the defaults. */
void sci_dot_execution(sc_strbuf *sb, const sc_execution *x, const char *title,
                      const sc_cycle *cycle);

#endif
