/* cli.c: the helpers every scopecat command shares (cli.h): the test and
 * log files named on the command line, lists, option spelling, formatted
 * strings, files read whole, this program's path. */
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
#include <unistd.h>

/* ---- Files named on the command line ------------------------------------ */

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

/* ---- Strings ------------------------------------------------------------ */

void cli_push(cli_list *list, const char *s) {
  list->items = GC_REALLOC(list->items, sizeof(char *) * (size_t)(list->n + 1));
  list->items[list->n++] = s;
}

bool cli_is_option(const char *arg, const char *name) {
  if (arg[0] != '-')
    return false;
  arg += arg[1] == '-' ? 2 : 1;
  return strcmp(arg, name) == 0;
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

/* ---- Files and this program --------------------------------------------- */

char *cli_read_file(const char *path) {
  char *text;
  sc_error *err;
  return sc_read_file(path, 0, &text, NULL, &err) == SC_OK ? text : NULL;
}

const char *cli_self_exe(void) {
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0)
    return NULL;
  exe[n] = '\0';
  return GC_STRDUP(exe);
}
