/* fake_app.c: a stand-in CUDA program for tests/sh/gpu_app.sh, linked
 * against fake_cudart.c's libcudart.so.13: it registers app.cuh's seed
 * variable as nvcc's code does at start-up and launches a kernel of 100
 * CTAs (10 x 5 x 2) three times on stream 0x77, through CUDA 13's
 * <<<>>> entry point. */
#include <stddef.h>

typedef struct { unsigned x, y, z; } dim3;
void __cudaRegisterVar(void **h, char *host, char *dev, const char *name, int ext,
                       size_t size, int constant, int global);
int __cudaLaunchKernel(void *k, dim3 g, dim3 b, void **args, size_t shmem, void *s);

static unsigned long long seed_shadow;

int main(void) {
  __cudaRegisterVar(NULL, (char *)&seed_shadow, (char *)"_ZL11sc_app_seed",
                    "_ZL11sc_app_seed", 0, sizeof seed_shadow, 0, 0);
  dim3 grid = {10, 5, 2}, block = {64, 1, 1};
  for (int i = 0; i < 3; i++)
    if (__cudaLaunchKernel((void *)1, grid, block, NULL, 0, (void *)0x77))
      return 1;
  return 0;
}
