/* gpu.h: what the files of `scopecat gpu`'s runner share: litmus tests on
 * an Nvidia GPU.  A file per job: gpu.c (the subcommands and `gen`),
 * options.c (the options and the program's parameters), build.c (the one
 * build step, its cache, optcheck of what was built), run.c (running and
 * scheduling tests: `run`, `build`), tune.c, optcheck.c (the SASS
 * checker), env.c (the harness's folder, the GPUs, nvcc), drf*.c (`gpu
 * drf`). */

/* The library writes each test's CUDA program (sc_gpu_generate, lib/gpu):
 * one self-contained program whose testing threads run the test's PTX as
 * written (one inline `asm volatile` block per test thread), on the
 * templates of harness/; the runner compiles it with nvcc, checks the
 * machine code (optcheck), runs it and prints litmus7's histogram format.
 * Only the public API is used here. */
#ifndef SC_GPU_H
#define SC_GPU_H

#include "cli_opts.h"
#include "scopecat.h"

#include <stdbool.h>
#include <stdio.h>

/* ---- options (options.c) ------------------------------------------------- */

/* The generated program's options, in its own spelling. */
extern const char *const gpu_prog_opts[];
enum { GPU_MAX_PROG_OPTS = 32 };

typedef struct gpu_cli {
  const char *outdir;   /* -o: logs (run), programs (gen), file (tune) */
  const char *config;   /* -config FILE: tuned parameters */
  const char *nvcc;
  const char *gpudir;   /* the harness templates */
  const char *keep;     /* -keep DIR: keep the build folders */
  const char *vals[GPU_MAX_PROG_OPTS]; /* program options, by gpu_prog_opts index */
  int gpus;             /* -gpus N: 0 = all visible */
  int jobs;             /* -jobs N: programs built at once, ahead */
  int batch;            /* -batch N: tests run in one process (1: each its
                           own program, as built for tune) */
  bool resume;          /* -resume: skip tests whose log in -o DIR is done */
  double timeout;       /* -timeout S: the watchdog, seconds per program */
  cli_shard shard;      /* -shard I/N: of the tests (not tune) */
  file_list files;
  int argc;
  char **argv;
} gpu_cli;

void gpu_usage(FILE *out);
/* Parse `gpu SUB [options] FILE|DIR...` into *c: -1 to go on,
 * EXIT_SOME_FAILED to go on with a test missing, else the exit status. */
int gpu_parse_opts(gpu_cli *c, int argc, char **argv);
/* Read a file `gpu tune` wrote (lines NAME VALUE) into c->vals, values
 * the command line set kept; false after a message. */
bool gpu_read_config(gpu_cli *c, const char *path);
/* The value of program option `name`, NULL when not set. */
const char *gpu_prog_val(const gpu_cli *c, const char *name);
/* The program's options as arguments, `over` (NAME VALUE pairs) first. */
const char *gpu_prog_args(const gpu_cli *c, const char *const *over);

/* ---- building (build.c) --------------------------------------------------- */

/* One step of nvcc: `cmd` (its compiler `nvcc`) makes `out` from `inputs`
 * (every file whose content the result depends on).  A result whose key
 * (the command, the compiler, the inputs' contents) is that of an earlier
 * successful step is reused; otherwise the old result goes first, so that a
 * failed step leaves nothing to reuse.  False after nvcc's output in `log`,
 * with `what` (a test's path, "batch driver"). */
bool gpu_step(const char *nvcc, const char *cmd, const cli_list *inputs,
              const char *out, const char *what, FILE *log);
/* `src` and every file it includes with #include "..." (its own folder,
 * then `incdir`), transitively. */
cli_list gpu_sources(const char *src, const char *incdir);
/* The common flags of every compile of a harness program. */
extern const char *const gpu_nvcc_flags;

typedef struct built {
  const char *dir, *exe; /* exe: the object, in a batch */
  const char *id;        /* in a batch: the namespace of its symbols */
  const sc_gpu_program *prog;
  sc_test *test;
  bool optcheck_ok, optcheck_ran;
  bool temp;             /* dir is a temporary folder (no -keep) */
} built;

/* A file name made of `name` ([A-Za-z0-9+-._], others '_'). */
const char *gpu_safe_name(const char *name);
/* The name of a test's log and build folder (see build.c). */
const char *gpu_test_key(const char *key);
/* Why a test cannot run on the GPU: the error's message, less its file. */
const char *gpu_skip_reason(const sc_error *e);
/* Write the program of the test at `path` (DIR/NAME.cu) and its optcheck
 * specification (DIR/NAME.spec); false after a message in `err`. */
bool gpu_gen_one(const char *path, const char *dir, const char **cu_out,
                 const sc_gpu_program **prog_out, FILE *err);
/* Generate, compile and optcheck one test (build.c). */
bool gpu_build(const gpu_cli *c, const char *path, const char *name,
               bool object, built *b, FILE *log);
/* The batch driver's object in -keep DIR; NULL after nvcc's output. */
const char *gpu_batch_driver(const gpu_cli *c, FILE *log);
/* The executable of a batch of n objects; NULL after nvcc's output. */
const char *gpu_link_batch(const gpu_cli *c, const char *driver,
                           const built *const *objs, int n, FILE *log);

/* ---- running (run.c) and tuning (tune.c) ---------------------------------- */

int gpu_cmd_run(gpu_cli *c);
int gpu_cmd_build(gpu_cli *c);
int gpu_cmd_tune(gpu_cli *c);

/* ---- optcheck (optcheck.c) ------------------------------------------------- */

/* optcheck: read nvdisasm -g output of the program and compare each test
 * thread's memory instructions with what `prog` expects of it.  Writes a
 * verdict per thread to `log`; true when every thread's accesses and
 * fences survive in order. */
bool gpu_optcheck(FILE *sass, const sc_gpu_program *prog, FILE *log);

/* ---- the machine (env.c) ----------------------------------------------------- */

/* The folder of the harness templates: `given` (-gpudir), else
 * $SCOPECAT_GPU_DIR, beside the program, installed, the source tree's. */
const char *gpu_dir(const char *given);
/* The GPUs this process may use: nvidia-smi's list, no more than
 * CUDA_VISIBLE_DEVICES names (0 without a GPU or driver). */
int gpu_count(void);
/* The CUDA compiler: `given` (-nvcc), else $NVCC, else the one configure
 * found (gpu_configured_nvcc: plain "nvcc" without one). */
const char *gpu_nvcc(const char *given);
extern const char *const gpu_configured_nvcc;

/* `scopecat gpu drf ...` (drf.c): argv[0] is "drf". */
int cmd_gpu_drf(int argc, char **argv);
/* `scopecat gpu app ...` (app.c, app.h): argv[0] is "app". */
int cmd_gpu_app(int argc, char **argv);

#endif
