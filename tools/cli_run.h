/* cli_run.h: what cli_run.c offers beyond cli.h's cli_spawn and cli_run:
 * the one watchdog over a running command, the children a signal to this
 * process reaches, and temporary folders that do not outlive it. */
#ifndef SC_CLI_RUN_H
#define SC_CLI_RUN_H

#include "cli.h"

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

/* A line of a command's output; true when it tells of progress, so that
 * the watchdog's limit starts again (a batch process: one test ended). */
typedef bool (*cli_line_fn)(void *ctx, const char *line);

typedef struct cli_watch {
  double limit;     /* seconds since the start or the last progress; 0: none */
  FILE *out;        /* a copy of the output as it comes (NULL: none) */
  cli_line_fn line; /* each line of the output, '\n' left out (NULL: none) */
  void *ctx;
} cli_watch;

/* The watchdog: read the output of `pid` (started by cli_spawn, output on
 * `fd`) until it ends, killing its process group when `w->limit` passes
 * first; closes fd and reaps it.  Its exit status, -1 when it did not
 * exit, CLI_RUN_TIMED_OUT when it was killed. */
int cli_watch_child(pid_t pid, int fd, const cli_watch *w);

/* fork(), a worker of this process that a SIGINT, SIGTERM or SIGHUP to it
 * reaches too: 0 in the worker (which forgets its parent's children and
 * temporary folders and ends with _exit), its pid in the parent. */
pid_t cli_fork(void);
/* Wait for worker `pid`; its wait status. */
int cli_reap(pid_t pid);

/* A new folder under $TMPDIR (/tmp when unset) named scopecat-WHAT-XXXXXX,
 * removed with what it holds by cli_temp_remove, at exit, or when a signal
 * ends the program; NULL (errno set) when it cannot be made. */
const char *cli_temp_dir(const char *what);
void cli_temp_remove(const char *dir);

#endif
