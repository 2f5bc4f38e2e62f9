/* cli_pool.h: -j N of the batch commands: N worker processes, forked once,
 * each running many tasks (test indices fed over a pipe), their output
 * printed in the order of the tasks, as one process would print it. */
#ifndef SC_CLI_POOL_H
#define SC_CLI_POOL_H

#include <stdbool.h>
#include <stdio.h>

enum { CLI_JOBS_MOST = 256 }; /* the most workers -j takes */

typedef struct cli_pool {
  int jobs;        /* workers */
  int ntasks;      /* tasks 0 .. ntasks-1 */
  /* Seconds a task may run before its worker is taken for stuck, killed
   * and replaced (0: no limit); the task then fails with `stuck`'s line. */
  double deadline;
  void *ctx;
  /* In a worker: run task i, its output to `out` (stderr is captured
   * too); false when it failed. */
  bool (*task)(void *ctx, int i, FILE *out);
  /* In the parent: the line (no newline) of task i killed past the
   * deadline, or whose worker died (`signal` nonzero, deadline passed
   * or not). */
  const char *(*stuck)(void *ctx, int i, int signal);
  /* In the parent, about four times a second while tasks run, with the
   * count of tasks done (NULL: none); and task i's stderr bytes (NULL:
   * written as they are). */
  void (*tick)(void *ctx, int done);
  void (*print_err)(void *ctx, int i, const char *text, size_t len);
} cli_pool;

/* Run the tasks; the count of tasks that failed, or -1 when no worker
 * could be started (a message on stderr).  SIGINT and SIGTERM sent to
 * this process reach the workers: they are reaped and the signal then
 * ends this process as it would have. */
int cli_pool_run(const cli_pool *pool);

#endif
