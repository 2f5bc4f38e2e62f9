/* gpu.h: `scopecat gpu`'s generator (gpu_gen.c) and optcheck
 * (gpu_optcheck.c), for the runner (gpu.c): litmus tests on an Nvidia
 * GPU. */

/* The generator turns a parsed test into one self-contained CUDA program
 * whose testing threads run the test's PTX as written (one inline
 * `asm volatile` block per test thread); the runner compiles it with nvcc,
 * checks the machine code (optcheck), runs it and prints litmus7's
 * histogram format.  The generator reads the parsed test's structures
 * (lib/litmus/litmus.h) but calls only the public API: nothing here needs
 * CUDA. */
#ifndef SC_GPU_H
#define SC_GPU_H

#include "scopecat.h"

#include <stdbool.h>
#include <stdio.h>

/* What optcheck expects of one test thread: the line of the generated .cu
 * that holds its asm block, and the classes of its memory accesses and
 * fences in program order (L load, S store, A atom/red, F fence/membar). */
typedef struct gpu_spec_thread {
  int line;
  char classes[256];
} gpu_spec_thread;

typedef struct gpu_spec {
  int nthreads;
  gpu_spec_thread threads[32];
} gpu_spec;

/* Write the CUDA program for `t` to `out`.  False, with the reason in
 * `why`, for tests the generator cannot place or express (barriers,
 * non-generic proxies, shared locations used across CTAs...). */
bool gpu_generate(FILE *out, const sc_test *t, gpu_spec *spec, char *why,
                  size_t whylen);

/* optcheck: read nvdisasm -g output of the program and compare each test
 * thread's memory instructions with `spec`.  Writes a verdict per thread to
 * `log`; true when every thread's accesses and fences survive in order. */
bool gpu_optcheck(FILE *sass, const gpu_spec *spec, FILE *log);

/* The folder of the harness templates: `given` (-gpudir), else
 * $SCOPECAT_GPU_DIR, beside the program, installed, the source tree's
 * (gpu_env.c). */
const char *gpu_dir(const char *given);
/* The GPUs this process may use: nvidia-smi's list, no more than
 * CUDA_VISIBLE_DEVICES names (0 without a GPU or driver). */
int gpu_count(void);

/* `scopecat gpu drf ...` (gpu_drf.c): argv[0] is "drf". */
int cmd_gpu_drf(int argc, char **argv);

#endif
