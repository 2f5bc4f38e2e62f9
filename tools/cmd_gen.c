/* cmd_gen.c: `scopecat gen`: litmus tests from cycles of edges, as diy
 * makes them: one test from a cycle named on the command line, or the
 * family of every cycle up to -size over the edges of a file. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "cli_opts.h"

#include "scopecat.h"

#include <gc/gc.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

typedef struct gen_cli {
  const char *edges;  /* -edges FILE (default: the dialect's bundled set) */
  const char *dir;    /* -o DIR */
  const char *name;   /* -name NAME */
  long size;          /* -size N, 0: one cycle */
  sc_dialect dialect; /* -dialect */
  cli_shard shard;    /* -shard I/N: of the family */
  cli_list words;     /* the cycle's edges */
} gen_cli;

/* The bundled edges of each dialect (ptx/families), and where they are:
 * installed, installed beside this program (a staged install), else the
 * source tree's (a build that is not installed). */
static const char *const default_edges[] = {
    [SC_DIALECT_GPU_PTX] = "asplos15.edges", [SC_DIALECT_PTX] = "modern.edges"};

static const char *families_dir(void) {
  const char *exe = cli_self_exe();
  const char *beside = NULL;
  if (exe && strrchr(exe, '/'))
    beside = cli_format("%.*s/../share/scopecat/families",
                        (int)(strrchr(exe, '/') - exe), exe);
  const char *dirs[] = {SC_FAMILIESDIR, beside};
  for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
    struct stat st;
    char *real = dirs[i] ? realpath(dirs[i], NULL) : NULL;
    if (real &&
        stat(cli_format("%s/%s", real, default_edges[0]), &st) == 0) {
      const char *found = GC_STRDUP(real);
      free(real);
      return found;
    }
    free(real);
  }
  return SC_SRC_FAMILIESDIR;
}

static void gen_usage(FILE *out) {
  fprintf(out,
          "usage: scopecat gen [-name NAME] EDGE...\n"
          "       scopecat gen -size N [-edges FILE] [-shard I/N] [-o DIR]\n"
          "  EDGE...       a cycle: Rfe Fre Coe (.cta, .warp), Rfi Fri Coi,\n"
          "                PodXY PosXY, DpAddrdR DpAddrdW DpDatadW DpCtrldR\n"
          "                DpCtrldW, Fence<Cta|Gl|Sys|ScGpu|AcqRelCta...><d|s>XY;\n"
          "                [ca], [relaxed.gpu], [shared] annotate the access\n"
          "                the next edge starts from\n"
          "  -name NAME    name the test (default: diy's name, mp+membar.gls)\n"
          "  -size N       every cycle of 2 to N edges over the edges of FILE\n"
          "  -edges FILE   the edges, separated by blanks or newlines\n"
          "                (# starts a comment; default: %s,\n"
          "                or %s with -dialect PTX, in\n"
          "                %s)\n"
          "  -o DIR        write DIR/NAME.litmus and DIR/@all (default: print)\n"
          "  -dialect D    write GPU_PTX (default) or PTX (Dat3M's headers\n"
          "                P0@cta N,gpu N; modelled by ptx-v6.0.cat; no\n"
          "                .warp placements)\n",
          default_edges[SC_DIALECT_GPU_PTX], default_edges[SC_DIALECT_PTX],
          families_dir());
  cli_shard_usage(out, 16);
  cli_common_usage(out, 16);
  fprintf(out,
          "  EDGE may carry the annotation of its source access glued on,\n"
          "  [acquire.gpu]PodRR, in a cycle and in an edges file\n");
}

static const char *read_dialect(void *opts, const cli_opt *o, const char *d) {
  (void)o;
  if (strcasecmp(d, "ptx") != 0 && strcasecmp(d, "gpu_ptx") != 0)
    return "";
  ((gen_cli *)opts)->dialect =
      strcasecmp(d, "ptx") == 0 ? SC_DIALECT_PTX : SC_DIALECT_GPU_PTX;
  return NULL;
}

#define AT(field) .offset = offsetof(gen_cli, field)
static const cli_opt gen_opts[] = {
    {.name = "edges", .kind = CLI_STRING, AT(edges)},
    {.name = "o", .kind = CLI_STRING, AT(dir)},
    {.name = "dialect", .kind = CLI_CALL, .call = read_dialect,
     .bad = "-dialect expects PTX or GPU_PTX, found '%v'"},
    {.name = "name", .kind = CLI_STRING, AT(name)},
    {.name = "size", .kind = CLI_LONG, AT(size), .lo = 2, .hi = INT_MAX,
     .bad = "-size expects an integer >= 2, found '%v'"},
    CLI_SHARD_OPTION(gen_cli, shard),
    {0}};

static const cli_command gen_command = {
    "gen", gen_opts, {.kind = CLI_LIST, AT(words)}, gen_usage, true};

/* The words of an edges file, comments dropped. */
static char **read_edges(const char *path, int *n) {
  char *text = cli_read_file(path);
  if (!text) {
    fprintf(stderr, "scopecat gen: %s: cannot read\n", path);
    return NULL;
  }
  char **words = NULL;
  *n = 0;
  for (char *line = text, *next; line; line = next) {
    next = strchr(line, '\n');
    if (next)
      *next++ = '\0';
    char *hash = strchr(line, '#'), *save = NULL;
    if (hash)
      *hash = '\0';
    for (char *w = strtok_r(line, " \t\r,", &save); w;
         w = strtok_r(NULL, " \t\r,", &save)) {
      words = GC_REALLOC(words, sizeof(char *) * (size_t)(*n + 1));
      words[(*n)++] = w;
    }
  }
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

/* Dat3M's placements say CTAs and GPUs, not warps. */
static bool placeable(sc_dialect dialect, const char *const *words, int n) {
  for (int i = 0; dialect == SC_DIALECT_PTX && i < n; i++)
    if (strstr(words[i], ".warp")) {
      fprintf(stderr, "scopecat gen: %s: the PTX dialect places threads in "
                      "CTAs, not warps\n", words[i]);
      return false;
    }
  return true;
}

/* Each test to DIR/NAME.litmus, and DIR/@all listing them (as diy). */
static int write_family(sc_dialect dialect, sc_test **tests, int n,
                        const char *dir) {
  if (!dir) {
    for (int i = 0; i < n; i++)
      printf("%s%s", i ? "\n" : "", cli_text(sc_test_to_dialect(tests[i], dialect)));
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
    if (!write_file(path, cli_text(sc_test_to_dialect(tests[i], dialect))))
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

/* Keep the tests of `shard`, in order, keyed as the files they are
 * written to (NAME.litmus), so that the shard of a family is the shard of
 * its folder; returns how many. */
static int shard_tests(cli_shard shard, sc_test **tests, int n) {
  int kept = 0;
  for (int i = 0; i < n; i++)
    if (cli_shard_takes(shard,
                        cli_format("%s.litmus", sc_test_name(tests[i]))))
      tests[kept++] = tests[i];
  return kept;
}

static int gen_family(const gen_cli *c) {
  const char *edges_path =
      c->edges ? c->edges
               : cli_format("%s/%s", families_dir(), default_edges[c->dialect]);
  int nedges;
  char **edges = read_edges(edges_path, &nedges);
  if (!edges || !placeable(c->dialect, (const char *const *)edges, nedges))
    return EXIT_SOME_FAILED;
  double t0 = sc_seconds();
  sc_test **tests;
  int n;
  sc_error *err;
  if (sc_gen_family((const char *const *)edges, nedges, (int)c->size, &tests,
                    &n, &err) != SC_OK) {
    fprintf(stderr, "%s\n", sc_error_message(err));
    return EXIT_SOME_FAILED;
  }
  int family = n;
  n = shard_tests(c->shard, tests, n);
  int status = write_family(c->dialect, tests, n, c->dir);
  fprintf(stderr, "scopecat gen: %d tests from %d edges, cycles up to %ld",
          family, nedges, c->size);
  if (c->shard.count)
    fprintf(stderr, "; shard %d/%d: %d tests", c->shard.index,
            c->shard.count, n);
  fprintf(stderr, ", %.2f s\n", sc_seconds() - t0);
  return status;
}

static int gen_one(const gen_cli *c) {
  const char *const *words = c->words.items;
  int n = c->words.n;
  if (!placeable(c->dialect, words, n))
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
  if (sc_gen_cycle(cycle, c->name, &t, &err) != SC_OK) {
    fprintf(stderr, "%s\n", sc_error_message(err));
    return EXIT_SOME_FAILED;
  }
  return write_family(c->dialect, &t, 1, c->dir);
}

int cmd_gen(int argc, char **argv) {
  gen_cli c = {.dialect = SC_DIALECT_GPU_PTX};
  int missing;
  int rc = cli_parse(&gen_command, &c, argc, argv, &missing);
  if (rc != CLI_GO_ON)
    return rc;
  if (c.size && !c.words.n)
    return gen_family(&c);
  if (c.shard.count && c.words.n) {
    fprintf(stderr, "scopecat gen: -shard splits a family: it goes with "
                    "-size\n");
    return EXIT_USAGE;
  }
  if (!c.edges && !c.size && c.words.n)
    return gen_one(&c);
  gen_usage(stderr);
  return EXIT_USAGE;
}
