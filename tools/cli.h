/* cli.h: what the scopecat subcommands share: the list of test files named
 * on the command line (directories searched for *.litmus) and the exit
 * statuses.  The CLI is a thin layer: it reads arguments, calls
 * libscopecat, prints. */
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

/* Whether argv[i] is the option `name` (accepting one or two dashes). */
bool cli_is_option(const char *arg, const char *name);

/* Run `cmd` with /bin/sh, its standard output to `out` (dropped when
 * NULL); its exit status, -1 when it did not exit, or CLI_RUN_TIMED_OUT
 * when `limit` > 0 seconds passed first and it was killed. */
enum { CLI_RUN_TIMED_OUT = -2 };
int cli_run(const char *cmd, FILE *out, double limit);
/* The same, the output returned as a GC-owned string (NULL when it could
 * not be captured), the status in *status. */
char *cli_run_capture(const char *cmd, double limit, int *status);

/* printf into a new GC-owned string. */
char *cli_format(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

int cmd_parse(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_gpu(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_fences(int argc, char **argv);

#endif
