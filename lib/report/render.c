/* render.c: a DOT drawing to SVG or PNG through Graphviz's libgvc, when
 * configure found it (HAVE_GVC); otherwise a clear error saying how to get
 * it.  Graphviz allocates with malloc.  Its layout runs in a child
 * process: Graphviz 2.42 corrupts its heap on some drawings (a double
 * free when it frees the layout, which ends the process or a later
 * drawing), and a crash there must be an error for that picture, not the
 * end of the run. */
#define _POSIX_C_SOURCE 200809L
#include "config.h"

#include "util/error.h"

#include <errno.h>
#include <string.h>
#ifdef HAVE_GVC
#include <graphviz/gvc.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

#ifdef HAVE_GVC
/* How the child's rendering ended: its exit status. */
enum { RENDER_OK, RENDER_UNREADABLE, RENDER_FAILED };

/* In the child: lay `dot` out and write it (gvRenderFilename closes the
 * file).  Nothing is freed: the child ends at once, and Graphviz 2.42
 * double-frees in gvFreeLayout on some drawings with clusters. */
static int render_here(const char *dot, const char *format, const char *path) {
  GVC_t *gvc = gvContext();
  Agraph_t *g = agmemread(dot);
  if (!g)
    return RENDER_UNREADABLE;
  int bad = gvLayout(gvc, g, "dot") || gvRenderFilename(gvc, g, format, path);
  return bad ? RENDER_FAILED : RENDER_OK;
}

static sc_status render_in_child(const char *dot, const char *format,
                                 const char *path, sc_error **err) {
  pid_t pid = fork();
  if (pid < 0)
    return sc_fail(err, SC_ERR_IO, path, 0, 0,
                   "could not start Graphviz's layout: %s", strerror(errno));
  if (pid == 0)
    _exit(render_here(dot, format, path));
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return sc_fail(err, SC_ERR_IO, path, 0, 0,
                     "lost Graphviz's layout: %s", strerror(errno));
  if (WIFSIGNALED(status))
    return sc_fail(err, SC_ERR_IO, path, 0, 0,
                   "expected Graphviz to render the drawing, found it "
                   "crashed (signal %d, %s): a Graphviz bug; its .dot "
                   "file may render with another Graphviz release",
                   WTERMSIG(status), strsignal(WTERMSIG(status)));
  if (WEXITSTATUS(status) == RENDER_UNREADABLE)
    return sc_fail(err, SC_ERR_SYNTAX, path, 0, 0,
                   "Graphviz could not read the drawing");
  if (WEXITSTATUS(status) != RENDER_OK)
    return sc_fail(err, SC_ERR_IO, path, 0, 0, "Graphviz could not render it");
  return SC_OK;
}
#endif

sc_status sc_dot_render(const char *dot, const char *format, const char *path,
                        sc_error **err) {
  if (!dot || !path || !format ||
      (strcmp(format, "svg") != 0 && strcmp(format, "png") != 0))
    return sc_fail(err, SC_ERR_USAGE, NULL, 0, 0,
                   "expected a drawing, a format svg or png, and a file name");
#ifdef HAVE_GVC
  return render_in_child(dot, format, path, err);
#else
  return sc_fail(err, SC_ERR_UNSUPPORTED, path, 0, 0,
                 "expected scopecat built with Graphviz (install libgraphviz-dev "
                 "and run configure again), or run: dot -T%s on the .dot file",
                 format);
#endif
}
