/* scopecat.c: the command-line entry point: dispatches subcommands and
 * holds the helpers they share (file collection, option spelling). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include "scopecat.h"

#include <dirent.h>
#include <gc/gc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void add_path(file_list *files, const char *path) {
  if (files->n == files->cap) {
    files->cap = files->cap ? files->cap * 2 : 64;
    files->paths = GC_REALLOC(files->paths, sizeof(char *) * (size_t)files->cap);
  }
  files->paths[files->n++] = GC_STRDUP(path);
}

static int compare_paths(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

static bool ends_with_any(const char *s, const char *const *suffixes) {
  for (; *suffixes; suffixes++)
    if (ends_with(s, *suffixes))
      return true;
  return false;
}

static void collect_dir(file_list *files, const char *dir,
                        const char *const *suffixes) {
  DIR *d = opendir(dir);
  if (!d) {
    fprintf(stderr, "scopecat: %s: cannot read directory\n", dir);
    return;
  }
  int first = files->n;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.')
      continue;
    size_t len = strlen(dir) + strlen(e->d_name) + 2;
    char *path = GC_MALLOC_ATOMIC(len);
    snprintf(path, len, "%s/%s", dir, e->d_name);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
      collect_dir(files, path, suffixes);
    else if (ends_with_any(e->d_name, suffixes))
      add_path(files, path);
  }
  closedir(d);
  if (files->n > first) /* a folder of no tests leaves paths NULL: no qsort */
    qsort(files->paths + first, (size_t)(files->n - first), sizeof(char *),
          compare_paths);
}

static bool collect(file_list *files, const char *arg,
                    const char *const *suffixes) {
  struct stat st;
  if (stat(arg, &st) != 0) {
    fprintf(stderr, "scopecat: %s: no such file or directory\n", arg);
    return false;
  }
  if (S_ISDIR(st.st_mode))
    collect_dir(files, arg, suffixes);
  else
    add_path(files, arg);
  return true;
}

bool cli_collect(file_list *files, const char *arg) {
  static const char *const litmus[] = {".litmus", NULL};
  return collect(files, arg, litmus);
}

bool cli_collect_logs(file_list *files, const char *arg) {
  static const char *const logs[] = {".txt", ".log", NULL};
  return collect(files, arg, logs);
}

char *cli_format(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *s = GC_MALLOC_ATOMIC((size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}

bool cli_is_option(const char *arg, const char *name) {
  if (arg[0] != '-')
    return false;
  arg += arg[1] == '-' ? 2 : 1;
  return strcmp(arg, name) == 0;
}

static void usage(FILE *out) {
  fprintf(out,
          "usage: scopecat COMMAND [options] FILE|DIR...\n"
          "commands:\n"
          "  sim       (the default) enumerate the candidate executions of\n"
          "            each test and print which final states the model\n"
          "            allows, in herd7's format; `scopecat sim -help'\n"
          "  parse     parse litmus tests (GPU_PTX or PTX dialect) and print\n"
          "            them in canonical GPU_PTX form (-summary: one line each;\n"
          "            -check: verify the canonical form parses back equal)\n"
          "  compare   compare hardware histograms (litmus7 logs) with the\n"
          "            verdicts of models: sound or UNSOUND per test;\n"
          "            `scopecat compare -help'\n"
          "  gpu       run tests on an Nvidia GPU (gen, run, tune) and print\n"
          "            litmus7 histograms; `scopecat gpu -help'\n"
          "  gen       litmus tests from cycles of edges (diy): one cycle, or\n"
          "            a family; `scopecat gen -help'\n"
          "  fences    the cheapest fence insertions that forbid a test's\n"
          "            condition; `scopecat fences -help'\n"
          "options: -version, -help\n");
}

int main(int argc, char **argv) {
  GC_INIT();
  if (argc < 2) {
    usage(stderr);
    return EXIT_USAGE;
  }
  if (cli_is_option(argv[1], "version")) {
    printf("scopecat %s\n", sc_version());
    return EXIT_ALL_RAN;
  }
  if (cli_is_option(argv[1], "help") || cli_is_option(argv[1], "h")) {
    usage(stdout);
    return EXIT_ALL_RAN;
  }
  if (strcmp(argv[1], "parse") == 0)
    return cmd_parse(argc - 1, argv + 1);
  if (strcmp(argv[1], "sim") == 0)
    return cmd_sim(argc - 1, argv + 1);
  if (strcmp(argv[1], "compare") == 0)
    return cmd_compare(argc - 1, argv + 1);
  if (strcmp(argv[1], "gpu") == 0)
    return cmd_gpu(argc - 1, argv + 1);
  if (strcmp(argv[1], "gen") == 0)
    return cmd_gen(argc - 1, argv + 1);
  if (strcmp(argv[1], "fences") == 0)
    return cmd_fences(argc - 1, argv + 1);
  /* plain `scopecat FILE...` simulates, as plain herd7 does */
  struct stat st;
  if (argv[1][0] == '-' || stat(argv[1], &st) == 0 || strchr(argv[1], '.'))
    return cmd_sim(argc, argv);
  fprintf(stderr, "scopecat: unknown command '%s'\n", argv[1]);
  usage(stderr);
  return EXIT_USAGE;
}
