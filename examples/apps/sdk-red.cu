/* sdk-red.cu: a last-block reduction (the CUDA samples'
 * threadFenceReduction, 000's sdk-red), a case study of `scopecat gpu
 * app`: each CTA writes its partial sum, then counts itself done with
 * atomicInc; the CTA that counts last sums the partials.  `nofence`
 * leaves out the __threadfence() between a CTA's partial and its count,
 * which the idiom needs: the last CTA may then read a partial before it
 * is visible.  The post-condition is the exit status: 0 when every one of
 * ITERS launches gave the exact sum.
 * Build: nvcc -O3 -arch=sm_90 -cudart shared -I include -o sdk-red
 *        examples/apps/sdk-red.cu
 * Run:   sdk-red fenced|nofence [ITERS] */
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "scopecat/app.cuh"

enum { N = 1 << 20, TPB = 256, CTAS = 512 };

template <bool FENCED>
__global__ void reduce(const int *in, volatile int *partial, unsigned *count,
                       int *out) {
  __shared__ int cache[TPB];
  __shared__ bool last;
  unsigned tid = sc_app_thread_id(), bid = sc_app_block_id();
  int sum = 0;
  for (unsigned i = bid * TPB + tid; i < N; i += TPB * CTAS)
    sum += in[i];
  cache[tid] = sum;
  __syncthreads();
  for (unsigned s = TPB / 2; s; s /= 2) {
    if (tid < s)
      cache[tid] += cache[tid + s];
    __syncthreads();
  }
  if (tid == 0) {
    partial[bid] = cache[0];
    if (FENCED)
      __threadfence();
    last = atomicInc(count, CTAS - 1) == CTAS - 1; /* wraps to 0 */
  }
  __syncthreads();
  if (!last)
    return;
  int total = 0;
  for (unsigned i = tid; i < CTAS; i += TPB)
    total += partial[i];
  cache[tid] = total;
  __syncthreads();
  for (unsigned s = TPB / 2; s; s /= 2) {
    if (tid < s)
      cache[tid] += cache[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    *out = cache[0];
}

int main(int argc, char **argv) {
  if (argc < 2 || (strcmp(argv[1], "fenced") && strcmp(argv[1], "nofence"))) {
    fprintf(stderr, "usage: sdk-red fenced|nofence [ITERS]\n");
    return 2;
  }
  bool fenced = !strcmp(argv[1], "fenced");
  int iters = argc > 2 ? atoi(argv[2]) : 100;
  int *in, *partial, *out, expected = 0;
  unsigned *count;
  int *h = (int *)malloc(N * sizeof(int));
  for (int i = 0; i < N; i++)
    expected += h[i] = i % 13 - 6 + (i % 3 == 0);
  if (cudaMalloc(&in, N * sizeof(int)) || cudaMalloc(&partial, CTAS * sizeof(int)) ||
      cudaMalloc(&out, sizeof(int)) || cudaMalloc(&count, sizeof(unsigned))) {
    fprintf(stderr, "sdk-red: cudaMalloc failed\n");
    return 3;
  }
  cudaMemcpy(in, h, N * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(count, 0, sizeof(unsigned));
  int wrong = 0;
  for (int it = 0; it < iters; it++) {
    cudaMemset(partial, 0xff, CTAS * sizeof(int)); /* stale: -1 each */
    if (fenced)
      reduce<true><<<CTAS, TPB>>>(in, partial, count, out);
    else
      reduce<false><<<CTAS, TPB>>>(in, partial, count, out);
    int got = 0;
    cudaError_t e = cudaMemcpy(&got, out, sizeof(int), cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
      fprintf(stderr, "sdk-red: %s\n", cudaGetErrorString(e));
      return 3;
    }
    if (got != expected && !wrong++)
      printf("launch %d: sum %d, expected %d\n", it, got, expected);
  }
  printf("%d of %d launches wrong\n", wrong, iters);
  return wrong ? 1 : 0;
}
