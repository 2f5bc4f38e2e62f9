/* cli_result.c: printing a simulation's result for the commands that run
 * tests (sim, kernel): herd's block or JSON, and -show's drawings, written
 * to files and rendered by Graphviz in a child process. */
#define _POSIX_C_SOURCE 200809L
#include "cli_result.h"

#include <errno.h>
#include <gc/gc.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

bool cli_print_result(const char *path, const sc_test *t, const sc_result *r,
                      bool json, unsigned flags, FILE *out) {
  const char *text = json ? sc_result_json(r, flags) : sc_result_log(r, flags);
  if (!text) { /* the library had no memory left to print it */
    fprintf(stderr, "%s: test %s: %s\n", path, sc_test_name(t), cli_no_memory());
    return false;
  }
  fputs(text, out);
  return true;
}

/* Render `dot` to `file` in a child process: Graphviz 2.42 corrupts its
 * heap when it frees the layout of some drawings (with parallel labelled
 * edges: cas-sl, Co-Total-4-threads) and aborts, which took the whole run
 * down.  A crash is now an error for that picture; the
 * .dot file is written already. */
static bool render_apart(const char *path, const char *dot, const char *format,
                         const char *file) {
  fflush(NULL); /* nothing buffered is written twice */
  pid_t pid = fork();
  if (pid < 0) {
    fprintf(stderr, "%s: %s: cannot start Graphviz: %s\n", path, file,
            strerror(errno));
    return false;
  }
  if (pid == 0) {
    sc_error *err;
    if (sc_dot_render(dot, format, file, &err) == SC_OK)
      _exit(0);
    fprintf(stderr, "%s: %s\n", path, sc_error_message(err));
    _exit(1);
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) {
      fprintf(stderr, "%s: %s: lost Graphviz: %s\n", path, file, strerror(errno));
      return false;
    }
  if (WIFSIGNALED(status))
    fprintf(stderr, "%s: %s: expected Graphviz to render the drawing, found "
                    "it crashed (signal %d, %s): a Graphviz bug; the .dot "
                    "file may render with another Graphviz release\n",
            path, file, WTERMSIG(status), strsignal(WTERMSIG(status)));
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* Each shown execution K (from 1) goes to DIR/NAME-K.dot, and with
 * -graph FMT also to DIR/NAME-K.FMT, rendered. */
bool cli_draw_shown(const cli_drawing *d, const char *path, const sc_test *t,
                    const sc_result *r, FILE *out) {
  if (d->to_out)
    for (int i = 0; i < sc_result_shown(r); i++)
      fputs(cli_text(sc_result_dot_graph_with(r, i, d->dot)), out);
  if (!d->outdir)
    return true;
  size_t len = strlen(d->outdir) + strlen(sc_test_name(t)) + 32;
  char *file = GC_MALLOC_ATOMIC(len);
  for (int i = 0; i < sc_result_shown(r); i++) {
    const char *dot = cli_text(sc_result_dot_graph_with(r, i, d->dot));
    snprintf(file, len, "%s/%s-%d.dot", d->outdir, sc_test_name(t), i + 1);
    FILE *f = fopen(file, "w");
    if (!f || fputs(dot, f) < 0 || fclose(f) != 0) {
      fprintf(stderr, "%s: cannot write %s: %s\n", path, file, strerror(errno));
      return false;
    }
    if (!d->format)
      continue;
    snprintf(file, len, "%s/%s-%d.%s", d->outdir, sc_test_name(t), i + 1,
             d->format);
    if (!render_apart(path, dot, d->format, file))
      return false;
  }
  return true;
}
