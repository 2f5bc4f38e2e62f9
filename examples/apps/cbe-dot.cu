/* cbe-dot.cu: a lock-protected dot product (Sorensen and Donaldson's
 * cbe-dot, seed 000 Fig. 1, after "CUDA by Example" A.1.2), a case study
 * of `scopecat gpu app`: each CTA sums its share in shared memory, then
 * its thread 0 takes a global spin lock (atomicCAS), adds the share to the
 * result with a plain load and store, and frees the lock (atomicExch).
 * `nofence` leaves out the two fences the idiom needs (after taking the
 * lock, before freeing it): a CTA may then read the result before the
 * last holder's store is visible, or its own store may land after the
 * lock is free, and a share is lost.  The post-condition is the exit
 * status: 0 when every one of ITERS launches gave the exact sum.
 * Build: nvcc -O3 -arch=sm_90 -cudart shared -I include -o cbe-dot
 *        examples/apps/cbe-dot.cu
 * Run:   cbe-dot fenced|nofence [ITERS] */
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "scopecat/app.cuh"

enum { N = 64 * 1024, TPB = 256, CTAS = 128 };

template <bool FENCED>
__global__ void dot(const int *a, const int *b, volatile int *c, int *mutex) {
  __shared__ int cache[TPB];
  unsigned tid = sc_app_thread_id();
  unsigned gid = sc_app_block_id() * TPB + tid;
  int sum = 0;
  for (unsigned i = gid; i < N; i += TPB * CTAS)
    sum += a[i] * b[i];
  cache[tid] = sum;
  __syncthreads();
  for (unsigned s = TPB / 2; s; s /= 2) {
    if (tid < s)
      cache[tid] += cache[tid + s];
    __syncthreads();
  }
  if (tid == 0) {
    while (atomicCAS(mutex, 0, 1) != 0)
      ;
    if (FENCED)
      __threadfence();
    *c = *c + cache[0];
    if (FENCED)
      __threadfence();
    atomicExch(mutex, 0);
  }
}

int main(int argc, char **argv) {
  if (argc < 2 || (strcmp(argv[1], "fenced") && strcmp(argv[1], "nofence"))) {
    fprintf(stderr, "usage: cbe-dot fenced|nofence [ITERS]\n");
    return 2;
  }
  bool fenced = !strcmp(argv[1], "fenced");
  int iters = argc > 2 ? atoi(argv[2]) : 100;
  int *a, *b, *c, *mutex, expected = 0;
  int *ha = (int *)malloc(N * sizeof(int)), *hb = (int *)malloc(N * sizeof(int));
  for (int i = 0; i < N; i++) {
    ha[i] = i % 7, hb[i] = i % 5 + 1;
    expected += ha[i] * hb[i];
  }
  if (cudaMalloc(&a, N * sizeof(int)) || cudaMalloc(&b, N * sizeof(int)) ||
      cudaMalloc(&c, sizeof(int)) || cudaMalloc(&mutex, sizeof(int))) {
    fprintf(stderr, "cbe-dot: cudaMalloc failed\n");
    return 3;
  }
  cudaMemcpy(a, ha, N * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(b, hb, N * sizeof(int), cudaMemcpyHostToDevice);
  int wrong = 0;
  for (int it = 0; it < iters; it++) {
    cudaMemset(c, 0, sizeof(int));
    cudaMemset(mutex, 0, sizeof(int));
    if (fenced)
      dot<true><<<CTAS, TPB>>>(a, b, c, mutex);
    else
      dot<false><<<CTAS, TPB>>>(a, b, c, mutex);
    int got = 0;
    cudaError_t e = cudaMemcpy(&got, c, sizeof(int), cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
      fprintf(stderr, "cbe-dot: %s\n", cudaGetErrorString(e));
      return 3;
    }
    if (got != expected && !wrong++)
      printf("launch %d: sum %d, expected %d\n", it, got, expected);
  }
  printf("%d of %d launches wrong\n", wrong, iters);
  return wrong ? 1 : 0;
}
