/* cmd_gen.c: `scopecat gen`: litmus tests from cycles of edges, as diy
 * makes them: one test from a cycle named on the command line, or the
 * family of every cycle up to -size over the edges of a file. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include "scopecat.h"

#include <gc/gc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

static void gen_usage(FILE *out) {
  fprintf(out,
          "usage: scopecat gen [-name NAME] EDGE...\n"
          "       scopecat gen -size N -edges FILE [-o DIR]\n"
          "  EDGE...       a cycle: Rfe Fre Coe (.cta, .warp), Rfi Fri Coi,\n"
          "                PodXY PosXY, DpAddrdR DpAddrdW DpDatadW DpCtrldR\n"
          "                DpCtrldW, Fence<Cta|Gl|Sys|ScGpu|AcqRelCta...><d|s>XY;\n"
          "                [ca], [relaxed.gpu], [shared] annotate the access\n"
          "                the next edge starts from\n"
          "  -name NAME    name the test (default: diy's name, mp+membar.gls)\n"
          "  -size N       every cycle of 2 to N edges over the edges of FILE\n"
          "  -edges FILE   the edges, separated by blanks or newlines\n"
          "                (# starts a comment)\n"
          "  -o DIR        write DIR/NAME.litmus and DIR/@all (default: print)\n"
          "  -dialect D    write GPU_PTX (default) or PTX (Dat3M's headers\n"
          "                P0@cta N,gpu N; modelled by ptx-v6.0.cat; no\n"
          "                .warp placements)\n"
          "  EDGE may carry the annotation of its source access glued on,\n"
          "  [acquire.gpu]PodRR, in a cycle and in an edges file\n");
}

static bool want_arg(int argc, char **argv, int i) {
  if (i + 1 < argc)
    return true;
  fprintf(stderr, "scopecat gen: %s needs an argument\n", argv[i]);
  return false;
}

/* The words of an edges file, comments dropped. */
static char **read_edges(const char *path, int *n) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "scopecat gen: %s: cannot read\n", path);
    return NULL;
  }
  char **words = NULL, line[1024];
  *n = 0;
  while (fgets(line, sizeof line, f)) {
    char *hash = strchr(line, '#'), *save = NULL;
    if (hash)
      *hash = '\0';
    for (char *w = strtok_r(line, " \t\r\n,", &save); w;
         w = strtok_r(NULL, " \t\r\n,", &save)) {
      words = GC_REALLOC(words, sizeof(char *) * (size_t)(*n + 1));
      words[(*n)++] = GC_STRDUP(w);
    }
  }
  fclose(f);
  return words;
}

static bool write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (!f || fputs(text, f) == EOF || fclose(f) != 0) {
    fprintf(stderr, "scopecat gen: %s: cannot write\n", path);
    return false;
  }
  return true;
}

/* Each test to DIR/NAME.litmus, and DIR/@all listing them (as diy). */
static sc_dialect dialect = SC_DIALECT_GPU_PTX;

/* Dat3M's placements say CTAs and GPUs, not warps. */
static bool placeable(char **words, int n) {
  for (int i = 0; dialect == SC_DIALECT_PTX && i < n; i++)
    if (strstr(words[i], ".warp")) {
      fprintf(stderr, "scopecat gen: %s: the PTX dialect places threads in "
                      "CTAs, not warps\n", words[i]);
      return false;
    }
  return true;
}

static int write_family(sc_test **tests, int n, const char *dir) {
  if (!dir) {
    for (int i = 0; i < n; i++)
      printf("%s%s", i ? "\n" : "", sc_test_to_dialect(tests[i], dialect));
    return EXIT_ALL_RAN;
  }
  mkdir(dir, 0777);
  size_t len = 0;
  char *all = NULL;
  FILE *list = open_memstream(&all, &len);
  for (int i = 0; i < n; i++) {
    const char *name = sc_test_name(tests[i]);
    size_t plen = strlen(dir) + strlen(name) + 9;
    char *path = GC_MALLOC_ATOMIC(plen);
    snprintf(path, plen, "%s/%s.litmus", dir, name);
    if (!write_file(path, sc_test_to_dialect(tests[i], dialect)))
      return EXIT_SOME_FAILED;
    fprintf(list, "%s.litmus\n", name);
  }
  fclose(list);
  size_t plen = strlen(dir) + 6;
  char *path = GC_MALLOC_ATOMIC(plen);
  snprintf(path, plen, "%s/@all", dir);
  bool ok = write_file(path, all);
  free(all);
  return ok ? EXIT_ALL_RAN : EXIT_SOME_FAILED;
}

static int gen_family(const char *edges_path, long size, const char *dir) {
  int nedges;
  char **edges = read_edges(edges_path, &nedges);
  if (!edges || !placeable(edges, nedges))
    return EXIT_SOME_FAILED;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  sc_test **tests;
  int n;
  sc_error *err;
  if (sc_gen_family((const char *const *)edges, nedges, (int)size, &tests, &n,
                    &err) != SC_OK) {
    fprintf(stderr, "%s\n", sc_error_message(err));
    return EXIT_SOME_FAILED;
  }
  int status = write_family(tests, n, dir);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  fprintf(stderr, "scopecat gen: %d tests from %d edges, cycles up to %ld, "
                  "%.2f s\n", n, nedges, size,
          (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
  return status;
}

static int gen_one(char **words, int n, const char *name, const char *dir) {
  if (!placeable(words, n))
    return EXIT_SOME_FAILED;
  size_t len = 1;
  for (int i = 0; i < n; i++)
    len += strlen(words[i]) + 1;
  char *cycle = GC_MALLOC_ATOMIC(len);
  cycle[0] = '\0';
  for (int i = 0; i < n; i++) {
    strcat(cycle, words[i]);
    strcat(cycle, " ");
  }
  sc_test *t;
  sc_error *err;
  if (sc_gen_cycle(cycle, name, &t, &err) != SC_OK) {
    fprintf(stderr, "%s\n", sc_error_message(err));
    return EXIT_SOME_FAILED;
  }
  return write_family(&t, 1, dir);
}

int cmd_gen(int argc, char **argv) {
  const char *edges = NULL, *dir = NULL, *name = NULL;
  long size = 0;
  char **words = GC_MALLOC(sizeof(char *) * (size_t)argc);
  int nwords = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (cli_is_option(a, "help") || cli_is_option(a, "h")) {
      gen_usage(stdout);
      return EXIT_ALL_RAN;
    } else if (cli_is_option(a, "edges")) {
      if (!want_arg(argc, argv, i)) return EXIT_USAGE;
      edges = argv[++i];
    } else if (cli_is_option(a, "o")) {
      if (!want_arg(argc, argv, i)) return EXIT_USAGE;
      dir = argv[++i];
    } else if (cli_is_option(a, "dialect")) {
      if (!want_arg(argc, argv, i)) return EXIT_USAGE;
      const char *d = argv[++i];
      if (strcasecmp(d, "ptx") != 0 && strcasecmp(d, "gpu_ptx") != 0) {
        fprintf(stderr, "scopecat gen: -dialect expects PTX or GPU_PTX, "
                        "found '%s'\n", d);
        return EXIT_USAGE;
      }
      dialect = strcasecmp(d, "ptx") == 0 ? SC_DIALECT_PTX : SC_DIALECT_GPU_PTX;
    } else if (cli_is_option(a, "name")) {
      if (!want_arg(argc, argv, i)) return EXIT_USAGE;
      name = argv[++i];
    } else if (cli_is_option(a, "size")) {
      if (!want_arg(argc, argv, i)) return EXIT_USAGE;
      char *end;
      size = strtol(argv[++i], &end, 10);
      if (*end || size < 2) {
        fprintf(stderr, "scopecat gen: -size expects an integer >= 2, "
                        "found '%s'\n", argv[i]);
        return EXIT_USAGE;
      }
    } else if (a[0] == '-') {
      fprintf(stderr, "scopecat gen: unknown option '%s'\n", a);
      gen_usage(stderr);
      return EXIT_USAGE;
    } else {
      words[nwords++] = argv[i];
    }
  }
  if (edges && size && !nwords)
    return gen_family(edges, size, dir);
  if (!edges && !size && nwords)
    return gen_one(words, nwords, name, dir);
  gen_usage(stderr);
  return EXIT_USAGE;
}
