/* cli_result.h: printing a simulation's result, shared by the commands
 * that run tests (sim, kernel): herd's block or its JSON object, and the
 * drawings of the executions -show chose (cli_result.c). */
#ifndef SC_CLI_RESULT_H
#define SC_CLI_RESULT_H

#include "cli.h"

#include "scopecat.h"

/* Where -show's drawings go: after the block on `out`, and/or to
 * DIR/NAME-K.dot (rendered beside as NAME-K.FORMAT when format is set). */
typedef struct cli_drawing {
  bool to_out;            /* DOT after each block */
  const char *outdir;     /* NULL: no files */
  const char *format;     /* "svg", "png" or NULL */
  const sc_dot_options *dot;
} cli_drawing;

/* herd's block of r (its JSON object with `json`) on `out`, `flags` as
 * sc_result_log's; false (said on stderr, naming `path` and the test)
 * when the library had no memory left to print it. */
bool cli_print_result(const char *path, const sc_test *t, const sc_result *r,
                      bool json, unsigned flags, FILE *out);

/* The shown executions of r drawn as `d` says; false (said on stderr)
 * when a file could not be written or rendered. */
bool cli_draw_shown(const cli_drawing *d, const char *path, const sc_test *t,
                    const sc_result *r, FILE *out);

#endif
