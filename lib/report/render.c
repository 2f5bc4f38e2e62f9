/* render.c: a DOT drawing to SVG or PNG through Graphviz's libgvc, when
 * configure found it (HAVE_GVC); otherwise a clear error saying how to get
 * it.  Graphviz allocates with malloc and frees what it allocates. */
#include "config.h"

#include "util/error.h"

#include <string.h>
#ifdef HAVE_GVC
#include <graphviz/gvc.h>
#endif

sc_status sc_dot_render(const char *dot, const char *format, const char *path,
                        sc_error **err) {
  if (!dot || !path || !format ||
      (strcmp(format, "svg") != 0 && strcmp(format, "png") != 0))
    return sci_fail(err, SC_ERR_USAGE, NULL, 0, 0,
                   "expected a drawing, a format svg or png, and a file name");
#ifdef HAVE_GVC
  GVC_t *gvc = gvContext();
  Agraph_t *g = agmemread(dot);
  if (!g) {
    gvFreeContext(gvc);
    return sci_fail(err, SC_ERR_SYNTAX, path, 0, 0,
                   "Graphviz could not read the drawing");
  }
  int bad = gvLayout(gvc, g, "dot") || gvRenderFilename(gvc, g, format, path);
  gvFreeLayout(gvc, g);
  agclose(g);
  gvFreeContext(gvc);
  if (bad)
    return sci_fail(err, SC_ERR_IO, path, 0, 0, "Graphviz could not render it");
  return SC_OK;
#else
  return sci_fail(err, SC_ERR_UNSUPPORTED, path, 0, 0,
                 "expected scopecat built with Graphviz (install libgraphviz-dev "
                 "and run configure again), or run: dot -T%s on the .dot file",
                 format);
#endif
}
