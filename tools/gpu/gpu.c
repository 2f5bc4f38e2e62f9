/* gpu.c: `scopecat gpu gen|run|tune|build|drf`: litmus tests on Nvidia
 * GPUs, compiled with nvcc, checked by optcheck, run, printed as litmus7's
 * histograms; this file picks the subcommand and does `gen`. */

/*   gen  writes each test's CUDA program (NAME.cu) and its optcheck
 *        specification (NAME.spec) to a folder;
 *   run  generates, compiles with nvcc -arch=sm_90 -lineinfo, runs optcheck
 *        on the SASS of the very binary it runs (cuobjdump + nvdisasm -g),
 *        runs it and prints litmus7's histogram format, tests spread over
 *        every visible GPU;
 *   tune searches stress parameters for the most weak outcomes per second
 *        on the given tests and writes the best as a file `run -config`
 *        reads;
 *   build compiles the programs ahead (-keep DIR), on a machine without a
 *        GPU;
 *   app  runs a user's program in seed 000's testing environments (app.c).
 * The kernels are inline PTX in CUDA C (see README): nvcc compiles the
 * harness around them, ptxas sees the test's PTX verbatim. */
#define _POSIX_C_SOURCE 200809L
#include "gpu.h"

#include <gc/gc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int cmd_gpu_gen(gpu_cli *c) {
  const char *dir = c->outdir ? c->outdir : ".";
  mkdir(dir, 0777);
  int fails = 0, skips = 0;
  for (int i = 0; i < c->files.n; i++) {
    const char *cu;
    const sc_gpu_program *prog;
    char *msg = NULL;
    size_t len = 0;
    FILE *err = open_memstream(&msg, &len);
    bool ok = gpu_gen_one(c->files.paths[i], dir, &cu, &prog, err);
    fclose(err);
    if (!ok) {
      fputs(msg, stderr);
      if (strstr(msg, "SKIP"))
        skips++;
      else
        fails++;
    } else {
      printf("%s\n", cu);
    }
    free(msg);
  }
  (void)skips;
  return fails ? EXIT_SOME_FAILED : EXIT_ALL_RAN;
}

int cmd_gpu(int argc, char **argv) {
  if (argc < 2 || cli_is_option(argv[1], "help") || cli_is_option(argv[1], "h")) {
    gpu_usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? EXIT_USAGE : EXIT_ALL_RAN;
  }
  gpu_cli c;
  memset(&c, 0, sizeof c);
  c.timeout = 120;
  c.batch = 32;
  c.argc = argc + 1;
  c.argv = argv - 1;
  const char *sub = argv[1];
  if (!strcmp(sub, "drf"))
    return cmd_gpu_drf(argc - 1, argv + 1);
  if (!strcmp(sub, "app"))
    return cmd_gpu_app(argc - 1, argv + 1);
  int st = gpu_parse_opts(&c, argc - 1, argv + 1);
  if (st >= 0 && st != EXIT_SOME_FAILED)
    return st;
  int missing = st == EXIT_SOME_FAILED;
  if (c.files.n == 0) {
    fprintf(stderr, "scopecat gpu %s: no tests\n", sub);
    return EXIT_USAGE;
  }
  if (c.shard.count && !strcmp(sub, "tune")) {
    fprintf(stderr, "scopecat gpu tune: -shard splits a batch of tests; "
                    "tune scores one setting over all of them\n");
    return EXIT_USAGE;
  }
  cli_shard_files(&c.files, c.shard);
  int rc;
  if (!strcmp(sub, "gen"))
    rc = cmd_gpu_gen(&c);
  else if (!strcmp(sub, "run"))
    rc = gpu_cmd_run(&c);
  else if (!strcmp(sub, "build"))
    rc = gpu_cmd_build(&c);
  else if (!strcmp(sub, "tune"))
    rc = gpu_cmd_tune(&c);
  else {
    fprintf(stderr, "scopecat gpu: unknown command '%s'\n", sub);
    gpu_usage(stderr);
    return EXIT_USAGE;
  }
  return rc == EXIT_ALL_RAN && missing ? EXIT_SOME_FAILED : rc;
}
