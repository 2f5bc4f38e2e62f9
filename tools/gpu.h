/* gpu.h: what `scopecat gpu`'s runner (gpu.c) shares with optcheck
 * (gpu_optcheck.c), the harness's folder and GPUs (gpu_env.c) and the
 * data-race-free tester (gpu_drf.c): litmus tests on an Nvidia GPU. */

/* The library writes each test's CUDA program (sc_gpu_generate, lib/gpu):
 * one self-contained program whose testing threads run the test's PTX as
 * written (one inline `asm volatile` block per test thread); the runner
 * compiles it with nvcc, checks the machine code (optcheck), runs it and
 * prints litmus7's histogram format.  Only the public API is used here. */
#ifndef SC_GPU_H
#define SC_GPU_H

#include "scopecat.h"

#include <stdbool.h>
#include <stdio.h>

/* optcheck: read nvdisasm -g output of the program and compare each test
 * thread's memory instructions with what `prog` expects of it.  Writes a verdict per thread to
 * `log`; true when every thread's accesses and fences survive in order. */
bool gpu_optcheck(FILE *sass, const sc_gpu_program *prog, FILE *log);

/* The folder of the harness templates: `given` (-gpudir), else
 * $SCOPECAT_GPU_DIR, beside the program, installed, the source tree's
 * (gpu_env.c). */
const char *gpu_dir(const char *given);
/* The GPUs this process may use: nvidia-smi's list, no more than
 * CUDA_VISIBLE_DEVICES names (0 without a GPU or driver). */
int gpu_count(void);
/* The CUDA compiler: `given` (-nvcc), else $NVCC, else the one configure
 * found (gpu_configured_nvcc: plain "nvcc" without one). */
const char *gpu_nvcc(const char *given);
extern const char *const gpu_configured_nvcc;

/* `scopecat gpu drf ...` (gpu_drf.c): argv[0] is "drf". */
int cmd_gpu_drf(int argc, char **argv);

#endif
