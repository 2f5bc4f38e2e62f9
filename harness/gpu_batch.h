// gpu_batch.h: what a test's program shares with the batch driver
// (gpu_batch_main.cu) when many tests run in one process, one CUDA
// context.  Each test's object is built from a wrapper `scopecat gpu run`
// writes: this header, then the test's program inside a namespace of its
// own with its main renamed, then a registrar that hands the entry to the
// driver, so that the tests' kernels and globals never meet at link time.
#ifndef SC_GPU_BATCH_H
#define SC_GPU_BATCH_H
// Every system header the programs include (gpu_prelude.cuh,
// outcome_table.h, gpu_main.cuh), included here, outside the test's
// namespace: their include guards then keep them out of it.
#include <cuda_runtime.h>
#include <cudaTypedefs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <vector>
#include <algorithm>

typedef int (*sc_batch_entry)(int argc, char **argv);
// Called before main (static initialisers): the driver's table.
void sc_batch_register(const char *id, sc_batch_entry entry);
struct sc_batch_registrar {
  sc_batch_registrar(const char *id, sc_batch_entry entry) {
    sc_batch_register(id, entry);
  }
};
#endif
