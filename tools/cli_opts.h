/* cli_opts.h: the one option parser of every scopecat command: a table of
 * options per command (name, kind, field, bounds, messages), one or two
 * dashes alike, and the common options (-max-heap, -help). */
#ifndef SC_CLI_OPTS_H
#define SC_CLI_OPTS_H

#include "cli.h"

#include <stddef.h>

typedef enum cli_kind {
  CLI_END,     /* ends a table */
  CLI_FLAG,    /* bool: set */
  CLI_SET,     /* int: = lo */
  CLI_BITS,    /* unsigned: |= bits */
  CLI_STRING,  /* const char *: the last one given */
  CLI_LIST,    /* cli_list: every one given, in order */
  CLI_NAMES,   /* cli_list: every name of comma lists, empty ones dropped */
  CLI_INT,     /* int in [lo, hi] */
  CLI_LONG,    /* long in [lo, hi] */
  CLI_SIZE,    /* size_t in [lo, hi] */
  CLI_BYTES,   /* size_t: bytes, with an optional K, M or G suffix */
  CLI_SECONDS, /* double >= 0 */
  CLI_CHOICE,  /* int: the index of the value in `choices` */
  CLI_SELECT,  /* sc_select *: the tests whose name matches (PCRE2) */
  CLI_TESTS,   /* file_list: cli_collect (a name that is missing is said
                  and counted in cli_parse's *missing) */
  CLI_LOGS,    /* file_list: cli_collect_logs, the same way */
  CLI_SHARD,   /* cli_shard: I/N (cli_shard_read) */
  CLI_CALL,    /* `call` checks the value and stores it */
  CLI_CONF,    /* herd's -conf FILE: options a line, "key value" */
  CLI_HELP,    /* print the command's usage on stdout, exit 0 */
  CLI_VERSION  /* print the version, exit 0 */
} cli_kind;

typedef struct cli_opt cli_opt;
struct cli_opt {
  const char *name;   /* without the dash: "model" is -model and --model */
  cli_kind kind;
  size_t offset;      /* the field, in the command's options struct */
  long lo, hi;        /* numbers: the bounds (a negative number is `bad`) */
  unsigned bits;      /* CLI_BITS */
  const char *const *choices; /* CLI_CHOICE: NULL-terminated */
  /* CLI_CALL: NULL when `val` is taken (stored in `opts`), else why not */
  const char *(*call)(void *opts, const cli_opt *o, const char *val);
  /* Messages, each line printed after "scopecat COMMAND: ", with %o the
   * option as given, %v its value, %l and %h the bounds, %w the why of
   * `call` or CLI_SELECT's error: */
  const char *bad;     /* a value refused */
  const char *range;   /* a number out of [lo, hi] (default: `bad`) */
  const char *missing; /* no value (default: "%o needs an argument") */
};

/* The field of option `o` in `opts`. */
#define CLI_FIELD(type, opts, o) ((type *)(void *)((char *)(opts) + (o)->offset))

typedef struct cli_command {
  const char *name;          /* messages start "scopecat NAME: " */
  const cli_opt *opts;       /* ends with kind CLI_END */
  cli_opt operands;          /* the arguments that are no option: a
                                CLI_LIST, CLI_TESTS or CLI_LOGS */
  void (*usage)(FILE *out);  /* -help and -h print it, and it follows the
                                message on an unknown option (NULL: no
                                -help, nothing after the message) */
  bool dash_is_option;       /* a lone "-" is an (unknown) option, not a
                                file */
} cli_command;

/* Read argv[1..argc-1] into `opts`.  CLI_GO_ON when the command goes on
 * (*missing: the files named that were missing, CLI_TESTS and CLI_LOGS),
 * else the exit status: EXIT_USAGE after a message, EXIT_ALL_RAN after
 * -help or -version.  The common options take effect when it goes on. */
enum { CLI_GO_ON = -1 };
int cli_parse(const cli_command *cmd, void *opts, int argc, char **argv,
              int *missing);

/* The usage lines of the common options (-max-heap, -conf), their descriptions from column
 * `column`, for the commands' usage texts. */
void cli_common_usage(FILE *out, int column);

/* -shard I/N, the same in every batch command: its table entry (a
 * cli_shard field of the options struct `type`) and its usage line. */
#define CLI_SHARD_OPTION(type, field)                                         \
  {.name = "shard", .kind = CLI_SHARD, .offset = offsetof(type, field),       \
   .bad = "-shard expects I/N (shard I of N) with 1 <= I <= N <= 1000000, " \
          "found '%v'"}
void cli_shard_usage(FILE *out, int column);

/* -progress MODEL or LEVEL=MODEL,... (sim, compare, kernel): an option
 * of kind CLI_CALL whose field is an sc_progress. */
#define CLI_PROGRESS_OPT(type, field)                                         \
  {.name = "progress", .kind = CLI_CALL, .offset = offsetof(type, field),    \
   .call = cli_read_progress,                                                \
   .bad = "-progress expects %w, found '%v'"}
const char *cli_read_progress(void *opts, const cli_opt *o, const char *val);
/* Its usage lines, descriptions from column `column`. */
void cli_progress_usage(FILE *out, int column);

/* -engine's words, in sc_engine's order (sim and compare). */
extern const char *const cli_engine_words[];
/* -symmetry's words: on (0, the default) and off (sc_sim_options.symmetry_off). */
extern const char *const cli_symmetry_words[];
/* -layouts' words: auto (0, the default), on (1), off (2):
 * sc_sim_options.layout_search. */
extern const char *const cli_layouts_words[];

#endif
