/* fuzz_gpu_ptx.c: libFuzzer harness for litmus tests in herd's GPU_PTX
 * dialect (seeds: ptx/herd-gpu-ptx, ptx/seeds, ptx/gpu-shapes). */
#include "fuzz_litmus.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return fuzz_litmus(data, size);
}
