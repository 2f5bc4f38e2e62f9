/* fuzz_ptx.c: libFuzzer harness for litmus tests in Dat3M's PTX dialect
 * (seeds: ptx/dat3m). */
#include "fuzz_litmus.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return fuzz_litmus(data, size);
}
