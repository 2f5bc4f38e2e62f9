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

/* `key_at`: where the path's shard key starts in it. */
static void add_path(file_list *files, const char *path, size_t key_at) {
  if (files->n == files->cap) {
    files->cap = files->cap ? files->cap * 2 : 64;
    /* pointers into the arena, which keeps what they point to */
    size_t size = sizeof(char *) * (size_t)files->cap;
    char **paths = GC_MALLOC_ATOMIC(size);
    const char **keys = GC_MALLOC_ATOMIC(size);
    if (files->n) {
      memcpy(paths, files->paths, sizeof(char *) * (size_t)files->n);
      memcpy(keys, files->keys, sizeof(char *) * (size_t)files->n);
    }
    files->paths = paths;
    files->keys = keys;
  }
  files->paths[files->n] = cli_arena_copy(&files->arena, path, strlen(path));
  files->keys[files->n] = files->paths[files->n] + key_at;
  files->n++;
}

/* Sorting a folder's files by path, their keys along. */
typedef struct keyed_path {
  char *path;
  const char *key;
} keyed_path;

static int compare_paths(const void *a, const void *b) {
  return strcmp(((const keyed_path *)a)->path, ((const keyed_path *)b)->path);
}

static void sort_paths(file_list *files, int first) {
  int n = files->n - first;
  /* not scanned: the arena keeps the paths */
  keyed_path *v = GC_MALLOC_ATOMIC(sizeof(keyed_path) * (size_t)n);
  for (int i = 0; i < n; i++)
    v[i] = (keyed_path){files->paths[first + i], files->keys[first + i]};
  qsort(v, (size_t)n, sizeof *v, compare_paths);
  for (int i = 0; i < n; i++) {
    files->paths[first + i] = v[i].path;
    files->keys[first + i] = v[i].key;
  }
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

/* `root_len`: the length of the folder named on the command line, whose
 * files' keys are their paths relative to it. */
static void collect_dir(file_list *files, const char *dir, size_t root_len,
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
      collect_dir(files, path, root_len, suffixes);
    else if (ends_with_any(e->d_name, suffixes))
      add_path(files, path, root_len + 1);
  }
  closedir(d);
  if (files->n > first) /* a folder of no tests leaves paths NULL: no qsort */
    sort_paths(files, first);
}

static bool collect(file_list *files, const char *arg,
                    const char *const *suffixes);

/* An index file (herd's @FILE, as diy's and gen's @all): a path a line,
 * relative to the index's folder; blank lines and # comments skipped.
 * False when a path it lists is missing (each said). */
static bool collect_index(file_list *files, const char *index,
                          const char *const *suffixes) {
  char *text = cli_read_file(index);
  if (!text) {
    fprintf(stderr, "scopecat: %s: cannot read the index file\n", index);
    return false;
  }
  const char *slash = strrchr(index, '/');
  int dirlen = slash ? (int)(slash - index) : 0;
  bool ok = true;
  for (char *save, *line = strtok_r(text, "\r\n", &save); line;
       line = strtok_r(NULL, "\r\n", &save)) {
    while (*line == ' ' || *line == '\t')
      line++;
    size_t n = strlen(line);
    while (n > 0 && (line[n - 1] == ' ' || line[n - 1] == '\t'))
      line[--n] = '\0';
    if (n == 0 || line[0] == '#')
      continue;
    const char *path = line[0] == '/' || !slash
                           ? line
                           : cli_format("%.*s/%s", dirlen, index, line);
    ok &= collect(files, path, suffixes);
  }
  return ok;
}

static bool is_index(const char *arg) {
  const char *slash = strrchr(arg, '/');
  return (slash ? slash[1] : arg[0]) == '@';
}

static bool collect(file_list *files, const char *arg,
                    const char *const *suffixes) {
  struct stat st;
  if (stat(arg, &st) != 0) {
    fprintf(stderr, "scopecat: %s: no such file or directory\n", arg);
    return false;
  }
  if (!S_ISDIR(st.st_mode) && is_index(arg))
    return collect_index(files, arg, suffixes);
  if (S_ISDIR(st.st_mode)) {
    collect_dir(files, arg, strlen(arg), suffixes);
  } else {
    const char *slash = strrchr(arg, '/');
    add_path(files, arg, slash ? (size_t)(slash + 1 - arg) : 0);
  }
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

enum { ARENA_BLOCK = 1 << 20 };

char *cli_arena_copy(cli_arena *arena, const char *s, size_t len) {
  if (len + 1 > arena->left) {
    size_t size = len + 1 > ARENA_BLOCK ? len + 1 : ARENA_BLOCK;
    arena->blocks = GC_REALLOC(arena->blocks,
                               sizeof(char *) * (size_t)(arena->n + 1));
    arena->next = arena->blocks[arena->n++] = GC_MALLOC_ATOMIC(size);
    arena->left = size;
  }
  char *kept = arena->next;
  memcpy(kept, s, len);
  kept[len] = '\0';
  arena->next += len + 1;
  arena->left -= len + 1;
  return kept;
}


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

const char *cli_no_memory(void) {
  return "out of memory: the library could not make its output (-max-heap)";
}

const char *cli_text(const char *text) {
  if (text)
    return text;
  fflush(stdout);
  fprintf(stderr, "scopecat: %s\n", cli_no_memory());
  exit(EXIT_SOME_FAILED);
}

void cli_print_lines(const char *const *lines, int n) {
  for (int i = 0; i < n; i++)
    fprintf(stderr, "%s\n", lines[i]);
}

bool cli_read_names(const char *path, cli_list *names) {
  char *text = cli_read_file(path);
  if (!text) {
    fprintf(stderr, "scopecat: %s: cannot read the file of test names\n", path);
    return false;
  }
  for (char *save, *line = strtok_r(text, "\r\n", &save); line;
       line = strtok_r(NULL, "\r\n", &save)) {
    char *word_save, *word = strtok_r(line, " \t", &word_save);
    if (word && word[0] != '#')
      cli_push(names, word);
  }
  return true;
}

bool cli_names_has(const cli_list *names, const char *name) {
  for (int i = 0; i < names->n; i++)
    if (strcmp(names->items[i], name) == 0)
      return true;
  return false;
}

/* 'it'\''s': one word for sh. */
const char *cli_shell_quote(const char *s) {
  size_t len = 0;
  char *buf = NULL;
  FILE *f = open_memstream(&buf, &len);
  fputc('\'', f);
  for (; *s; s++)
    fputs(*s == '\'' ? "'\\''" : (char[]){*s, 0}, f);
  fputc('\'', f);
  fclose(f);
  char *out = GC_STRDUP(buf);
  free(buf);
  return out;
}
