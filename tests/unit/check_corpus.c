/* check_corpus.c: every litmus test under ptx/ (the herd GPU_PTX corpus, the
 * Dat3M PTX corpus, the paper's seed tests) parses, and its canonical
 * GPU_PTX form parses back to an equal test.  A file listed in
 * tests/data/unsupported.txt must fail to parse (so the list stays honest);
 * every other file must pass.  One Check test per file. */
#define _POSIX_C_SOURCE 200809L
#include "scopecat.h"

#include <check.h>

#include "check_run.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char **files;
static int nfiles, capfiles;
static char **unsupported; /* relative paths */
static int nunsupported;
static const char *srcdir;

static void add_file(const char *path) {
  if (nfiles == capfiles) {
    capfiles = capfiles ? capfiles * 2 : 256;
    files = realloc(files, sizeof(char *) * (size_t)capfiles);
  }
  files[nfiles++] = strdup(path);
}

static void walk(const char *dir) {
  DIR *d = opendir(dir);
  if (!d)
    return;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.')
      continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    struct stat st;
    size_t n = strlen(e->d_name);
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
      walk(path);
    else if (n > 7 && strcmp(e->d_name + n - 7, ".litmus") == 0)
      add_file(path);
  }
  closedir(d);
}

static int count_under(const char *sub) {
  char prefix[4096];
  snprintf(prefix, sizeof prefix, "%s/ptx/%s/", srcdir, sub);
  int n = 0;
  for (int i = 0; i < nfiles; i++)
    n += strncmp(files[i], prefix, strlen(prefix)) == 0;
  return n;
}

static void read_unsupported(void) {
  char path[4096];
  snprintf(path, sizeof path, "%s/tests/data/unsupported.txt", srcdir);
  FILE *f = fopen(path, "r");
  if (!f)
    return;
  char line[4096];
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#' || line[0] == '\n')
      continue;
    line[strcspn(line, "\t\n")] = '\0';
    unsupported = realloc(unsupported, sizeof(char *) * (size_t)(nunsupported + 1));
    unsupported[nunsupported++] = strdup(line);
  }
  fclose(f);
}

static int is_unsupported(const char *path) {
  const char *rel = path + strlen(srcdir) + 1;
  for (int i = 0; i < nunsupported; i++)
    if (strcmp(unsupported[i], rel) == 0)
      return 1;
  return 0;
}

START_TEST(corpora_present) {
  /* the copies must be complete, or the loop below proves little */
  ck_assert_int_eq(count_under("herd-gpu-ptx"), 17);
  ck_assert_int_eq(count_under("dat3m"), 748);
}
END_TEST

START_TEST(parses_and_round_trips) {
  const char *path = files[_i];
  sc_test *t = NULL, *again = NULL;
  sc_error *err = NULL;
  sc_status st = sc_test_load_file(path, NULL, &t, &err);
  if (is_unsupported(path)) {
    ck_assert_msg(st != SC_OK, "%s is listed as unsupported but parses", path);
    return;
  }
  ck_assert_msg(st == SC_OK, "%s", sc_error_message(err));
  const char *text = sc_test_to_string(t);
  st = sc_test_load_string(text, path, NULL, &again, &err);
  ck_assert_msg(st == SC_OK, "%s: canonical form: %s\n%s", path,
                sc_error_message(err), text);
  ck_assert_msg(sc_test_equal(t, again), "%s: canonical form differs", path);
  ck_assert_str_eq(sc_test_to_string(again), text);
}
END_TEST

int main(void) {
  srcdir = getenv("SC_SRCDIR");
  if (!srcdir)
    srcdir = ".";
  char root[4096];
  snprintf(root, sizeof root, "%s/ptx", srcdir);
  walk(root);
  read_unsupported();
  Suite *s = suite_create("corpus");
  TCase *tc = tcase_create("round trip");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, corpora_present);
  tcase_add_loop_test(tc, parses_and_round_trips, 0, nfiles);
  suite_add_tcase(s, tc);
  return sc_check_run(s);
}
