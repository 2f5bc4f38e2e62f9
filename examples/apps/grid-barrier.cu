/* grid-barrier.cu: a grid-wide barrier between two phases (a sense-
 * reversing counter barrier, the idiom 000 left out because it depends
 * on every CTA being resident), a case study of `scopecat gpu app`: each
 * CTA writes its row, meets the others at the barrier, then reads its
 * neighbour's row.  `nofence` leaves out the fences on either side of the
 * barrier's atomics, which the idiom needs: a CTA may read its
 * neighbour's row before the neighbour's stores are visible.  One CTA per
 * SM at most, so that all are resident; beside gpu app's stress, which
 * takes up to half the GPU, use no more CTAs than half the SMs (the
 * default, 32, suits an H100's 132).  The post-condition is the exit
 * status: 0 when every one of ITERS launches read every row right.
 * Build: nvcc -O3 -arch=sm_90 -cudart shared -I include -o grid-barrier
 *        examples/apps/grid-barrier.cu
 * Run:   grid-barrier fenced|nofence [ITERS] */
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "scopecat/app.cuh"

enum { TPB = 256, CTAS = 32, ROW = TPB * 4 };

template <bool FENCED>
__device__ void grid_sync(unsigned *count, volatile unsigned *sense,
                          unsigned round) {
  __syncthreads();
  if (threadIdx.x == 0) {
    if (FENCED)
      __threadfence();
    if (atomicAdd(count, 1) == gridDim.x - 1) {
      *count = 0;
      *sense = round;
    } else {
      while (*sense != round)
        ;
    }
    if (FENCED)
      __threadfence();
  }
  __syncthreads();
}

template <bool FENCED>
__global__ void phases(int *rows, unsigned *count, volatile unsigned *sense,
                       int *bad, unsigned round) {
  unsigned b = sc_app_block_id(), t = sc_app_thread_id();
  for (unsigned i = t; i < ROW; i += TPB)
    rows[b * ROW + i] = (int)(b * 131 + i + round);
  grid_sync<FENCED>(count, sense, round);
  unsigned n = (b + 1) % CTAS;
  for (unsigned i = t; i < ROW; i += TPB)
    if (((volatile int *)rows)[n * ROW + i] != (int)(n * 131 + i + round))
      atomicAdd(bad, 1);
}

int main(int argc, char **argv) {
  if (argc < 2 || (strcmp(argv[1], "fenced") && strcmp(argv[1], "nofence"))) {
    fprintf(stderr, "usage: grid-barrier fenced|nofence [ITERS]\n");
    return 2;
  }
  bool fenced = !strcmp(argv[1], "fenced");
  int iters = argc > 2 ? atoi(argv[2]) : 100;
  int *rows, *bad;
  unsigned *count, *sense;
  if (cudaMalloc(&rows, CTAS * ROW * sizeof(int)) || cudaMalloc(&bad, sizeof(int)) ||
      cudaMalloc(&count, sizeof(unsigned)) || cudaMalloc(&sense, sizeof(unsigned))) {
    fprintf(stderr, "grid-barrier: cudaMalloc failed\n");
    return 3;
  }
  cudaMemset(count, 0, sizeof(unsigned));
  cudaMemset(sense, 0, sizeof(unsigned));
  int wrong = 0;
  for (int it = 0; it < iters; it++) {
    int got = 0;
    cudaMemset(bad, 0, sizeof(int));
    if (fenced)
      phases<true><<<CTAS, TPB>>>(rows, count, sense, bad, (unsigned)it + 1);
    else
      phases<false><<<CTAS, TPB>>>(rows, count, sense, bad, (unsigned)it + 1);
    if (cudaMemcpy(&got, bad, sizeof got, cudaMemcpyDeviceToHost)) {
      fprintf(stderr, "grid-barrier: the kernel failed\n");
      return 3;
    }
    if (got && !wrong++)
      printf("launch %d: %d words read stale\n", it, got);
  }
  printf("%d of %d launches wrong\n", wrong, iters);
  return wrong ? 1 : 0;
}
