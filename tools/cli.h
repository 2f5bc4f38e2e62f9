/* cli.h: the helpers every scopecat command shares (cli.c): exit
 * statuses, the files named on the command line, lists, strings, this
 * program's path, and the shell runner (cli_run.c). */

/* They call nothing of the commands: the CLI is a thin layer that reads
 * arguments, calls libscopecat, prints. */
#ifndef SC_CLI_H
#define SC_CLI_H

#include <stdbool.h>
#include <stdio.h>

enum { EXIT_ALL_RAN = 0, EXIT_SOME_FAILED = 1, EXIT_USAGE = 2 };

typedef struct file_list {
  char **paths;
  int n, cap;
} file_list;

/* Add `arg`: a file as is, a directory as its *.litmus files (recursively,
 * sorted).  Returns false (with a message on stderr) when arg is missing:
 * the caller counts it as a failure and goes on with the rest. */
bool cli_collect(file_list *files, const char *arg);
/* The same for logs: a directory gives its *.txt and *.log files. */
bool cli_collect_logs(file_list *files, const char *arg);

/* A growing list of strings (GC-owned). */
typedef struct cli_list {
  const char **items;
  int n;
} cli_list;
void cli_push(cli_list *list, const char *s);

/* Whether `arg` is the option `name` (accepting one or two dashes). */
bool cli_is_option(const char *arg, const char *name);

/* printf into a new GC-owned string. */
char *cli_format(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/* The whole file `path` (sc_read_file), NULL when it cannot be read. */
char *cli_read_file(const char *path);

/* The path of this very program (/proc/self/exe), NULL when unknown. */
const char *cli_self_exe(void);

/* Run `cmd` with /bin/sh, its standard output to `out` (dropped when
 * NULL); its exit status, -1 when it did not exit, or CLI_RUN_TIMED_OUT
 * when `limit` > 0 seconds passed first and it was killed. */
enum { CLI_RUN_TIMED_OUT = -2 };
int cli_run(const char *cmd, FILE *out, double limit);
/* The same, the output returned as a GC-owned string (NULL when it could
 * not be captured), the status in *status. */
char *cli_run_capture(const char *cmd, double limit, int *status);

#endif
