/* cli_opts.c: the option parser of every scopecat command (cli_opts.h):
 * argv read in order against the command's table, then the common options;
 * each refusal worded by the table, so each command keeps its messages. */
#define _POSIX_C_SOURCE 200809L
#include "cli_opts.h"

#include "scopecat.h"

#include <ctype.h>
#include <errno.h>
#include <gc/gc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The common options, into a struct of cli_parse's own: their effect is
 * the process's (the collector's heap), which -j's workers inherit. */
typedef struct common {
  size_t max_heap; /* SIZE_MAX: not given (GC_MAXIMUM_HEAP_SIZE stands) */
} common;

static const cli_opt common_opts[] = {
    {.name = "max-heap", .kind = CLI_BYTES,
     .offset = offsetof(common, max_heap),
     .bad = "%o expects a size in bytes (K, M or G: binary multiples), found "
            "'%v'"},
    {.name = "conf", .kind = CLI_CONF},
    {.name = "help", .kind = CLI_HELP},
    {.name = "h", .kind = CLI_HELP},
    {0}};

static const char *const common_help[][2] = {
    {"-max-heap SIZE", "stop a test or model that needs more than SIZE bytes "
                       "of memory (K, M, G: binary multiples; 0, the "
                       "default: no limit)"},
    {"-conf FILE", "read options from FILE, herd7's configuration format: "
                   "one a line, 'key value' or 'key = value' (the option "
                   "without its dash; true or false for a flag), # "
                   "comments"}};

/* One option's usage: its name, then its description from `column`,
 * wrapped before column 78. */
static void usage_line(FILE *out, int column, const char *name,
                       const char *text) {
  int at = fprintf(out, "  %s", name);
  if (at + 2 > column) { /* the description on lines of its own */
    fputc('\n', out);
    at = 0;
  }
  char *words = GC_STRDUP(text), *save = NULL;
  for (char *w = strtok_r(words, " ", &save); w;
       w = strtok_r(NULL, " ", &save)) {
    int len = (int)strlen(w);
    if (at >= column && at + 1 + len > 78) {
      fputc('\n', out);
      at = 0;
    }
    at += fprintf(out, "%*s%s", at < column ? column - at : 1, "", w);
  }
  fputc('\n', out);
}

void cli_common_usage(FILE *out, int column) {
  for (size_t k = 0; k < sizeof common_help / sizeof common_help[0]; k++)
    usage_line(out, column, common_help[k][0], common_help[k][1]);
}

void cli_shard_usage(FILE *out, int column) {
  usage_line(out, column, "-shard I/N",
             "only shard I of N: the tests whose path relative to the "
             "folder named (extension dropped) hashes into it; the N shards "
             "split the tests, a test's shard never depends on the others");
}

/* One message: each line of `tmpl` after "scopecat COMMAND: ". */
static void say(const cli_command *cmd, const cli_opt *o, const char *tmpl,
                const char *opt, const char *val, const char *why) {
  fprintf(stderr, "scopecat %s: ", cmd->name);
  for (const char *p = tmpl; *p; p++) {
    if (*p == '\n')
      fprintf(stderr, "\nscopecat %s: ", cmd->name);
    else if (*p != '%' || !p[1])
      fputc(*p, stderr);
    else
      switch (*++p) {
      case 'o': fputs(opt, stderr); break;
      case 'v': fputs(val, stderr); break;
      case 'w': fputs(why, stderr); break;
      case 'l': fprintf(stderr, "%ld", o->lo); break;
      case 'h': fprintf(stderr, "%ld", o->hi); break;
      default: fputc(*p, stderr); break;
      }
  }
  fputc('\n', stderr);
}

/* ---- Values ------------------------------------------------------------- */

/* A decimal integer >= 0 spanning all of `s`. */
static bool read_count(const char *s, long *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end || v < 0)
    return false;
  *out = v;
  return true;
}

/* Bytes: digits, then K, M or G (binary multiples). */
static bool read_bytes(const char *s, size_t *out) {
  if (!isdigit((unsigned char)*s))
    return false;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  unsigned long long unit = 1;
  switch (toupper((unsigned char)*end)) {
  case 'K': unit = 1ULL << 10; end++; break;
  case 'M': unit = 1ULL << 20; end++; break;
  case 'G': unit = 1ULL << 30; end++; break;
  }
  if (errno || *end || v > SIZE_MAX / unit)
    return false;
  *out = (size_t)(v * unit);
  return true;
}

/* Seconds: a number >= 0 spanning all of `s`. */
static bool read_seconds(const char *s, double *out) {
  char *end;
  double v = strtod(s, &end);
  if (end == s || *end || !(v >= 0))
    return false;
  *out = v;
  return true;
}

/* Store `val` for option `o` (given as `opt`); false after a message. */
static bool take(const cli_command *cmd, const cli_opt *o, void *opts,
                 const char *opt, const char *val, int *missing) {
  long v = 0;
  const char *why = "";
  sc_error *err;
  switch (o->kind) {
  case CLI_STRING:
    *CLI_FIELD(const char *, opts, o) = val;
    return true;
  case CLI_LIST:
    cli_push(CLI_FIELD(cli_list, opts, o), val);
    return true;
  case CLI_NAMES: {
    char *names = GC_STRDUP(val), *save = NULL;
    for (char *n = strtok_r(names, ",", &save); n;
         n = strtok_r(NULL, ",", &save))
      cli_push(CLI_FIELD(cli_list, opts, o), n);
    return true;
  }
  case CLI_INT:
  case CLI_LONG:
  case CLI_SIZE:
    if (!read_count(val, &v))
      break;
    if (v < o->lo || v > o->hi) {
      say(cmd, o, o->range ? o->range : o->bad, opt, val, why);
      return false;
    }
    if (o->kind == CLI_INT)
      *CLI_FIELD(int, opts, o) = (int)v;
    else if (o->kind == CLI_LONG)
      *CLI_FIELD(long, opts, o) = v;
    else
      *CLI_FIELD(size_t, opts, o) = (size_t)v;
    return true;
  case CLI_BYTES:
    if (read_bytes(val, CLI_FIELD(size_t, opts, o)))
      return true;
    break;
  case CLI_SECONDS:
    if (read_seconds(val, CLI_FIELD(double, opts, o)))
      return true;
    break;
  case CLI_CHOICE:
    for (int k = 0; o->choices[k]; k++)
      if (strcmp(o->choices[k], val) == 0) {
        *CLI_FIELD(int, opts, o) = k;
        return true;
      }
    break;
  case CLI_SELECT:
    if (sc_select_compile(val, CLI_FIELD(sc_select *, opts, o), &err) == SC_OK)
      return true;
    why = sc_error_message(err);
    break;
  case CLI_TESTS:
    *missing += !cli_collect(CLI_FIELD(file_list, opts, o), val);
    return true;
  case CLI_LOGS:
    *missing += !cli_collect_logs(CLI_FIELD(file_list, opts, o), val);
    return true;
  case CLI_SHARD:
    if (cli_shard_read(val, CLI_FIELD(cli_shard, opts, o)))
      return true;
    break;
  case CLI_CALL:
    why = o->call(opts, o, val);
    if (!why)
      return true;
    break;
  default:
    break;
  }
  say(cmd, o, o->bad, opt, val, why);
  return false;
}

/* The option `arg` names: the command's, else a common one (-help only
 * where the command has a usage text). */
static const cli_opt *find(const cli_command *cmd, const char *arg,
                           bool *common) {
  *common = false;
  for (const cli_opt *o = cmd->opts; o->kind != CLI_END; o++)
    if (cli_is_option(arg, o->name))
      return o;
  *common = true;
  for (const cli_opt *o = common_opts; o->kind != CLI_END; o++)
    if (cli_is_option(arg, o->name) && (o->kind != CLI_HELP || cmd->usage))
      return o;
  return NULL;
}

static int parse_args(const cli_command *cmd, void *opts, common *com,
                      int argc, char **argv, int *missing);

/* One line of a configuration file, "key value" or "key = value", as the
 * arguments -key value (a flag's value true, or false: no argument). */
static int conf_line(const cli_command *cmd, void *opts, common *com,
                     char *line, int *missing, const char *where) {
  char *key = line;
  size_t klen = strspn(key, "abcdefghijklmnopqrstuvwxyz"
                            "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-");
  char *val = key + klen;
  val += strspn(val, " \t");
  if (*val == '=')
    val += 1 + strspn(val + 1, " \t");
  size_t vlen = strlen(val);
  while (vlen > 0 && isspace((unsigned char)val[vlen - 1]))
    val[--vlen] = '\0';
  key[klen] = '\0';
  char *dashed = cli_format("-%s", key);
  bool common_opt;
  const cli_opt *o = klen ? find(cmd, dashed, &common_opt) : NULL;
  if (!o || o->kind == CLI_HELP || o->kind == CLI_VERSION) {
    fprintf(stderr, "%s: expected an option of scopecat %s without its dash "
                    "and its value, found the key '%s'\n", where, cmd->name,
            key);
    return EXIT_USAGE;
  }
  bool flag = o->kind == CLI_FLAG || o->kind == CLI_SET || o->kind == CLI_BITS;
  if (flag && strcmp(val, "false") == 0)
    return CLI_GO_ON;
  if (flag && strcmp(val, "true") != 0) {
    fprintf(stderr, "%s: expected true or false after '%s', found '%s'\n",
            where, key, val);
    return EXIT_USAGE;
  }
  char *args[] = {"conf", dashed, val, NULL};
  int rc = parse_args(cmd, opts, com, flag ? 2 : 3, args, missing);
  if (rc != CLI_GO_ON)
    fprintf(stderr, "%s: (the configuration line above)\n", where);
  return rc;
}

static int read_conf(const cli_command *cmd, void *opts, common *com,
                     const char *path, int *missing) {
  char *text = cli_read_file(path);
  if (!text) {
    fprintf(stderr, "scopecat %s: -conf %s: cannot read the file\n",
            cmd->name, path);
    return EXIT_USAGE;
  }
  int lineno = 0;
  for (char *line = text; line; ) {
    char *nl = strchr(line, '\n');
    if (nl)
      *nl = '\0';
    lineno++;
    char *start = line + strspn(line, " \t\r");
    if (*start && *start != '#' && *start != '\r') {
      int rc = conf_line(cmd, opts, com, start, missing,
                         cli_format("%s:%d:%d", path, lineno,
                                    (int)(start - line) + 1));
      if (rc != CLI_GO_ON)
        return rc;
    }
    line = nl ? nl + 1 : NULL;
  }
  return CLI_GO_ON;
}

int cli_parse(const cli_command *cmd, void *opts, int argc, char **argv,
              int *missing) {
  common com = {SIZE_MAX};
  *missing = 0;
  int rc = parse_args(cmd, opts, &com, argc, argv, missing);
  if (rc != CLI_GO_ON)
    return rc;
  sc_error *err;
  if (com.max_heap != SIZE_MAX && sc_set_max_heap(com.max_heap, &err)) {
    fprintf(stderr, "scopecat %s: -max-heap: %s\n", cmd->name,
            sc_error_message(err));
    return EXIT_USAGE;
  }
  return CLI_GO_ON;
}

static int parse_args(const cli_command *cmd, void *opts, common *com,
                      int argc, char **argv, int *missing) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    bool common;
    const cli_opt *o = find(cmd, a, &common);
    void *into = common ? (void *)com : opts;
    if (!o && a[0] == '-' && (a[1] || cmd->dash_is_option)) {
      fprintf(stderr, "scopecat %s: unknown option '%s'\n", cmd->name, a);
      if (cmd->usage)
        cmd->usage(stderr);
      return EXIT_USAGE;
    }
    if (!o) {
      take(cmd, &cmd->operands, opts, a, a, missing);
      continue;
    }
    switch (o->kind) {
    case CLI_FLAG:
      *CLI_FIELD(bool, into, o) = true;
      continue;
    case CLI_SET:
      *CLI_FIELD(int, into, o) = (int)o->lo;
      continue;
    case CLI_BITS:
      *CLI_FIELD(unsigned, into, o) |= o->bits;
      continue;
    case CLI_HELP:
      cmd->usage(stdout);
      return EXIT_ALL_RAN;
    case CLI_VERSION:
      printf("scopecat %s\n", sc_version());
      return EXIT_ALL_RAN;
    default:
      break;
    }
    if (i + 1 == argc) {
      say(cmd, o, o->missing ? o->missing : "%o needs an argument", a, "", "");
      return EXIT_USAGE;
    }
    if (o->kind == CLI_CONF) {
      int rc = read_conf(cmd, opts, com, argv[++i], missing);
      if (rc != CLI_GO_ON)
        return rc;
      continue;
    }
    if (!take(cmd, o, into, a, argv[++i], missing))
      return EXIT_USAGE;
  }
  return CLI_GO_ON;
}

const char *const cli_engine_words[] = {"enum", "smt", "auto", NULL};

const char *const cli_symmetry_words[] = {"on", "off", NULL};
const char *const cli_layouts_words[] = {"auto", "on", "off", NULL};

const char *cli_read_progress(void *opts, const cli_opt *o, const char *val) {
  const char *why = NULL;
  if (sc_progress_parse(val, CLI_FIELD(sc_progress, opts, o), &why) != 0)
    return why;
  return NULL;
}

void cli_progress_usage(FILE *out, int column) {
  usage_line(out, column, "-progress P",
             "with -liveness, the progress model: which threads may be left "
             "halted for ever: fair (default: none), hsa, obe, hsa_obe, lobe "
             "or unfair, or one per level, as cta=obe,gpu=unfair (levels: "
             "warp, cta, gpu, device, sys, default)");
}
