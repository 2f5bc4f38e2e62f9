/* cli.h: the helpers every scopecat command shares (cli.c): exit
 * statuses, the files named on the command line, lists, strings, this
 * program's path, the shell runner (cli_run.c) and shards (cli_shard.c). */

/* They call nothing of the commands: the CLI is a thin layer that reads
 * arguments, calls libscopecat, prints. */
#ifndef SC_CLI_H
#define SC_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

enum { EXIT_ALL_RAN = 0, EXIT_SOME_FAILED = 1, EXIT_USAGE = 2 };

/* Strings kept for the whole run in blocks of 1 MiB that the collector
 * neither scans nor marks one by one: a list of 10^6 test paths is a few
 * dozen objects to mark at each collection, not 10^6 (marking those cost
 * more than simulating small tests: 4.7 ms a test instead of 0.6, with
 * half a million paths live). */
typedef struct cli_arena {
  char **blocks; /* the one array the collector scans */
  int n;
  char *next;    /* the free end of the last block */
  size_t left;   /* its bytes */
} cli_arena;
/* A copy of the `len` bytes at `s`, NUL added, kept in `arena`. */
char *cli_arena_copy(cli_arena *arena, const char *s, size_t len);

typedef struct file_list {
  char **paths;      /* kept in `arena`; the arrays are not scanned */
  const char **keys; /* each path's shard key: its path relative to the
                        folder named, or its name when named itself */
  int n, cap;
  cli_arena arena;
} file_list;

/* Add `arg`: a file as is, a directory as its *.litmus files (recursively,
 * sorted), an index file (a name starting with '@', as gen's @all) as the
 * paths it lists a line, relative to its folder.  Returns false (with a message on stderr) when arg is missing:
 * the caller counts it as a failure and goes on with the rest. */
bool cli_collect(file_list *files, const char *arg);
/* The same for logs: a directory gives its *.txt and *.log files. */
bool cli_collect_logs(file_list *files, const char *arg);

/* -shard I/N: shard `index` (from 1) of `count`; count 0 takes all. */
typedef struct cli_shard {
  int index, count;
} cli_shard;
enum { CLI_SHARD_MOST = 1000000 }; /* the most shards */

/* Read "I/N" (1 <= I <= N <= CLI_SHARD_MOST); false when it is not. */
bool cli_shard_read(const char *text, cli_shard *shard);
/* The shard (1..count) of a test whose key is `key`: a stable hash of
 * the key, its extension dropped (x/MP.litmus and x/MP.txt agree), so a
 * test's shard depends on nothing but its own key and count. */
int cli_shard_of(const char *key, int count);
/* A stable 64-bit hash of n bytes of text (FNV-1a, mixed): shards, and
 * names made from a test's path. */
uint64_t cli_hash(const char *text, size_t n);
/* Whether `shard` takes the test of key `key` (any test when count is 0). */
bool cli_shard_takes(cli_shard shard, const char *key);
/* Keep the files of `shard`, in order. */
void cli_shard_files(file_list *files, cli_shard shard);

/* A growing list of strings (GC-owned). */
typedef struct cli_list {
  const char **items;
  int n;
} cli_list;
void cli_push(cli_list *list, const char *s);

/* herd's -names and -excl files: the first word of each line is a test
 * name (blank lines and # comments skipped), added to `names`; false
 * (said on stderr) when the file cannot be read. */
bool cli_read_names(const char *path, cli_list *names);
bool cli_names_has(const cli_list *names, const char *name);

/* Whether `arg` is the option `name` (accepting one or two dashes). */
bool cli_is_option(const char *arg, const char *name);

/* printf into a new GC-owned string. */
/* What the library's string functions returning NULL means: it had no
 * memory left to make the string (the -max-heap limit). */
const char *cli_no_memory(void);
/* `text`, a string the library made; NULL (out of memory) ends the
 * program with cli_no_memory's message and exit status 1, since no later
 * output could be trusted to be whole. */
const char *cli_text(const char *text);

char *cli_format(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/* `s` quoted as one word for /bin/sh ('it'\''s'). */
const char *cli_shell_quote(const char *s);

/* Each of the n lines (the library's warnings) on stderr. */
void cli_print_lines(const char *const *lines, int n);

/* The whole file `path` (sc_read_file), NULL when it cannot be read. */
char *cli_read_file(const char *path);

/* The path of this very program (/proc/self/exe), NULL when unknown. */
const char *cli_self_exe(void);

/* Start `cmd` with /bin/sh in a process group of its own (a watchdog's
 * kill(-pid) reaches all it starts), its standard output the pipe whose
 * reading end is *fd; its pid, -1 when it could not be started. */
pid_t cli_spawn(const char *cmd, int *fd);

/* Run `cmd` with /bin/sh, its standard output to `out` (dropped when
 * NULL); its exit status, -1 when it did not exit, or CLI_RUN_TIMED_OUT
 * when `limit` > 0 seconds passed first and it was killed. */
enum { CLI_RUN_TIMED_OUT = -2 };
int cli_run(const char *cmd, FILE *out, double limit);
/* The same, the output returned as a GC-owned string (NULL when it could
 * not be captured), the status in *status. */
char *cli_run_capture(const char *cmd, double limit, int *status);

#endif
