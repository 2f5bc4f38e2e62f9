/* scopecat.c: the command-line entry point: main hands the arguments to
 * the command named (commands.h); plain `scopecat FILE...` is sim.  The
 * commands' shared helpers are in cli.c, their option parser in cli_opts.c. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "commands.h"

#include "scopecat.h"

#include <gc/gc.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static void usage(FILE *out) {
  fprintf(out,
          "usage: scopecat COMMAND [options] FILE|DIR...\n"
          "commands:\n"
          "  sim       (the default) enumerate the candidate executions of\n"
          "            each test and print which final states the model\n"
          "            allows, in herd7's format; `scopecat sim -help'\n"
          "  parse     parse litmus tests (GPU_PTX or PTX dialect) and print\n"
          "            them in canonical form, each in its own dialect\n"
          "            (-summary: one line each; -check: verify the\n"
          "            canonical form parses back equal, dialect included)\n"
          "  compare   compare hardware histograms (litmus7 logs) with the\n"
          "            verdicts of models: sound or UNSOUND per test;\n"
          "            `scopecat compare -help'\n"
          "  gpu       run tests on an Nvidia GPU (gen, run, tune) and print\n"
          "            litmus7 histograms; `scopecat gpu -help'\n"
          "  gen       litmus tests from cycles of edges (diy): one cycle, or\n"
          "            a family; `scopecat gen -help'\n"
          "  fences    the cheapest fence insertions that forbid a test's\n"
          "            condition; `scopecat fences -help'\n"          "  merge     herd7 logs (one per shard of a run) made one log, for\n"
          "            mcompare7 and compare; `scopecat merge -help'\n"
          "  kernel    check a CUDA kernel (.cu or .ptx) for the launch and\n"
          "            the condition its header gives: herd7's block, then a\n"
          "            Property line each; `scopecat kernel -help'\n"
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
  if (strcmp(argv[1], "merge") == 0)
    return cmd_merge(argc - 1, argv + 1);
  if (strcmp(argv[1], "kernel") == 0)
    return cmd_kernel(argc - 1, argv + 1);
  /* plain `scopecat FILE...` simulates, as plain herd7 does */
  struct stat st;
  if (argv[1][0] == '-' || stat(argv[1], &st) == 0 || strchr(argv[1], '.'))
    return cmd_sim(argc, argv);
  fprintf(stderr, "scopecat: unknown command '%s'\n", argv[1]);
  usage(stderr);
  return EXIT_USAGE;
}
