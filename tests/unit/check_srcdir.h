/* check_srcdir.h: files of the source tree ($SC_SRCDIR, else the current
 * directory), their path and their whole text, failing the test when one
 * cannot be read: what check_kernel, check_ptx_write and
 * check_corpus_kernel.h each need. */
#ifndef CHECK_SRCDIR_H
#define CHECK_SRCDIR_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The path of `relpath` in the source tree (a buffer of its own). */
static inline char *srcdir_path(const char *relpath) {
  const char *dir = getenv("SC_SRCDIR") ? getenv("SC_SRCDIR") : ".";
  size_t n = strlen(dir) + strlen(relpath) + 2;
  char *path = malloc(n);
  ck_assert_ptr_nonnull(path);
  snprintf(path, n, "%s/%s", dir, relpath);
  return path;
}

/* The whole text of the file at `path` (a buffer of its own; at most 1 MB). */
static inline char *file_text(const char *path) {
  FILE *f = fopen(path, "rb");
  ck_assert_msg(f != NULL, "cannot open %s", path);
  static char buf[1 << 20];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  return strdup(buf);
}

#endif
