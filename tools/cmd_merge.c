/* cmd_merge.c: `scopecat merge`: herd7 logs (the per-shard logs of one
 * run of `scopecat sim`, or herd7's) made one log, its blocks by test
 * name, each test once, so that mcompare7 and compare read the whole. */

/* A block is its text as written, from its Test line to the next block's
 * (the library's log reader finds and checks them); a test found in two
 * logs is kept once when its blocks agree but for the Time line. */
#define _POSIX_C_SOURCE 200809L
#include "cli_opts.h"

#include "scopecat.h"

#include <gc/gc.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct merge_cli {
  file_list logs;
} merge_cli;

static void merge_usage(FILE *out) {
  fprintf(out,
          "usage: scopecat merge LOG|DIR...\n"
          "  herd7 logs (scopecat sim's output, one per shard, or herd7's;\n"
          "  folders: their *.txt and *.log files) printed as one herd7 log\n"
          "  on stdout: every block, sorted by test name (logs named first\n"
          "  first among equal names), a test found in several logs once\n"
          "  when its blocks agree but for the Time line\n");
  cli_common_usage(out, 21);
  fprintf(out, "exit status: 0 merged, 1 a log could not be read or two\n"
               "blocks of one test disagree, 2 bad usage\n");
}

#define AT(field) .offset = offsetof(merge_cli, field)
static const cli_opt merge_opts[] = {{0}};

static const cli_command merge_command = {
    "merge", merge_opts, {.kind = CLI_LOGS, AT(logs)}, merge_usage, false};

/* The blocks of every log, in arrays the collector does not scan: their
 * names and hashes are kept in `strings`, their text is in the logs'
 * texts, which `texts` keeps (10^6 blocks are a few objects to mark). */
typedef struct block {
  const char *name, *hash; /* hash: NULL without a Hash= line */
  const char *text;        /* its lines, as in its log */
  size_t len;
  const char *file;
  int line;                /* of its Test line */
  int order;               /* in the logs as named */
} block;

typedef struct blocks {
  block *items;
  int n, cap;
  cli_arena strings;
  cli_list texts;
} blocks;

static void add_block(blocks *all, block b) {
  if (all->n == all->cap) {
    all->cap = all->cap ? all->cap * 2 : 256;
    block *items = GC_MALLOC_ATOMIC(sizeof(block) * (size_t)all->cap);
    if (all->n)
      memcpy(items, all->items, sizeof(block) * (size_t)all->n);
    all->items = items;
  }
  b.order = all->n;
  all->items[all->n++] = b;
}

static const char *keep(blocks *all, const char *s) {
  return s ? cli_arena_copy(&all->strings, s, strlen(s)) : NULL;
}

/* Where each line of `text` starts; lines[nlines] is its end.  (Pointers
 * into `text`, which the caller keeps.) */
static const char **line_starts(const char *text, int *nlines) {
  int n = 0, cap = 1024;
  const char **lines = GC_MALLOC_ATOMIC(sizeof(char *) * (size_t)cap);
  for (const char *p = text; *p;) {
    if (n + 1 >= cap) {
      const char **more = GC_MALLOC_ATOMIC(sizeof(char *) * (size_t)cap * 2);
      memcpy(more, lines, sizeof(char *) * (size_t)cap);
      lines = more;
      cap *= 2;
    }
    lines[n++] = p;
    const char *nl = strchr(p, '\n');
    p = nl ? nl + 1 : p + strlen(p);
  }
  lines[n] = text + strlen(text);
  *nlines = n;
  return lines;
}

static bool blank(const char *from, const char *to) {
  for (; from < to; from++)
    if (!strchr(" \t\r\n", *from))
      return false;
  return true;
}

/* The blocks of the log `path`; false, with a message, when it cannot be
 * read or is no herd7 log. */
static bool read_log(const char *path, blocks *all) {
  char *text;
  sc_error *err;
  sc_hist **found;
  int n;
  if (sc_read_file(path, 0, &text, NULL, &err) != SC_OK ||
      sc_hist_load_string(text, path, &found, &n, &err) != SC_OK) {
    fprintf(stderr, "%s\n", sc_error_message(err));
    return false;
  }
  for (int i = 0; i < n; i++)
    if (sc_hist_has_counts(found[i])) {
      fprintf(stderr, "%s:%d:1: expected herd7's States, found a histogram "
                      "(a hardware log: compare reads a folder of those as "
                      "one run)\n",
              path, sc_hist_line(found[i]));
      return false;
    }
  int nlines;
  const char **lines = line_starts(text, &nlines);
  int first = n ? sc_hist_line(found[0]) - 1 : nlines;
  for (int k = 0; k < first; k++)
    if (!blank(lines[k], lines[k + 1])) {
      fprintf(stderr, "%s:%d:1: expected a herd7 block ('Test NAME ...'), "
                      "found '%.*s'\n",
              path, k + 1, (int)strcspn(lines[k], "\r\n"), lines[k]);
      return false;
    }
  cli_push(&all->texts, text);
  const char *file = keep(all, path);
  for (int i = 0; i < n; i++) {
    int from = sc_hist_line(found[i]) - 1;
    int to = i + 1 < n ? sc_hist_line(found[i + 1]) - 1 : nlines;
    add_block(all, (block){keep(all, sc_hist_name(found[i])),
                           keep(all, sc_hist_hash(found[i])), lines[from],
                           (size_t)(lines[to] - lines[from]), file, from + 1,
                           0});
  }
  return true;
}

static int by_name(const void *a, const void *b) {
  const block *x = a, *y = b;
  int c = strcmp(x->name, y->name);
  return c ? c : (x->order > y->order) - (x->order < y->order);
}

static bool same_hash(const block *a, const block *b) {
  return a->hash && b->hash ? strcmp(a->hash, b->hash) == 0
                            : !a->hash && !b->hash;
}

/* The next line from `*p` to `end` that is not a Time line (NULL at the
 * end), its length in *len. */
static const char *next_kept_line(const char **p, const char *end,
                                  size_t *len) {
  while (*p < end) {
    const char *line = *p, *nl = memchr(line, '\n', (size_t)(end - line));
    *len = nl ? (size_t)(nl - line) : (size_t)(end - line);
    *p = line + *len + (nl != NULL);
    if (*len < 5 || strncmp(line, "Time ", 5) != 0)
      return line;
  }
  return NULL;
}

/* The blocks say the same, Time lines aside. */
static bool same_but_time(const block *a, const block *b) {
  const char *p = a->text, *q = b->text;
  for (;;) {
    size_t la, lb;
    const char *x = next_kept_line(&p, a->text + a->len, &la);
    const char *y = next_kept_line(&q, b->text + b->len, &lb);
    if (!x || !y)
      return !x && !y;
    if (la != lb || memcmp(x, y, la) != 0)
      return false;
  }
}

/* A block as written, ending in a newline. */
static void print_block(const block *b) {
  fwrite(b->text, 1, b->len, stdout);
  if (b->len == 0 || b->text[b->len - 1] != '\n')
    putchar('\n');
}

int cmd_merge(int argc, char **argv) {
  merge_cli c = {{0}};
  int missing;
  int rc = cli_parse(&merge_command, &c, argc, argv, &missing);
  if (rc != CLI_GO_ON)
    return rc;
  if (c.logs.n == 0 && missing == 0) {
    merge_usage(stderr);
    return EXIT_USAGE;
  }
  int failed = missing, again = 0;
  blocks all = {NULL, 0, 0, {NULL, 0, NULL, 0}, {NULL, 0}};
  for (int i = 0; i < c.logs.n; i++)
    failed += !read_log(c.logs.paths[i], &all);
  if (all.n > 1)
    qsort(all.items, (size_t)all.n, sizeof(block), by_name);
  /* the blocks of one name are together: each is printed unless one
   * printed before has its Hash= (a test run twice) */
  for (int i = 0, first = 0; i < all.n; i++) {
    const block *b = &all.items[i];
    if (i > 0 && strcmp(b->name, all.items[i - 1].name) != 0)
      first = i;
    const block *twin = NULL;
    for (int k = first; k < i && !twin; k++)
      if (all.items[k].text && same_hash(&all.items[k], b))
        twin = &all.items[k];
    if (!twin) {
      print_block(b);
      continue;
    }
    if (!same_but_time(twin, b)) {
      fprintf(stderr, "%s:%d:1: test %s differs from its block at %s:%d "
                      "(logs of different models or options?); the first "
                      "is kept\n",
              b->file, b->line, b->name, twin->file, twin->line);
      failed++;
    }
    again++;
    all.items[i].text = NULL; /* not printed: no twin of later ones */
  }
  if (again)
    fprintf(stderr, "scopecat merge: %d block%s of a test found before, "
                    "kept once\n", again, again == 1 ? "" : "s");
  if (fflush(stdout) != 0) {
    perror("scopecat merge: stdout");
    failed++;
  }
  return failed ? EXIT_SOME_FAILED : EXIT_ALL_RAN;
}
