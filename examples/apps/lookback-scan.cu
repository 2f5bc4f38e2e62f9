/* lookback-scan.cu: a decoupled look-back prefix sum (Merrill and
 * Garland; 000's cub-scan), a case study of `scopecat gpu app`: CTAs take
 * tiles in order from a counter, publish their tile's sum (flag 1) and,
 * once they know it, their inclusive prefix (flag 2), each in a word of
 * its own (agg, incl) written before the flag; a CTA looks back over its
 * predecessors' flags to make its prefix.  `nofence` leaves out the
 * fences between a value and its flag and between reading a flag and its
 * value, which the idiom needs: a successor may see the flag and read the
 * old value.  The post-condition is the exit status: 0 when every one of
 * ITERS launches gave the exact prefix sums.
 * Build: nvcc -O3 -arch=sm_90 -cudart shared -I include -o lookback-scan
 *        examples/apps/lookback-scan.cu
 * Run:   lookback-scan fenced|nofence [ITERS] */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "scopecat/app.cuh"

enum { TPB = 256, TILES = 512, N = TPB * TILES };

template <bool FENCED>
__global__ void scan(const int *in, int *out, volatile int *agg,
                     volatile int *incl, volatile int *flag,
                     unsigned *next_tile) {
  __shared__ int s[TPB];
  __shared__ unsigned tile;
  __shared__ int prefix;
  unsigned t = sc_app_thread_id();
  if (t == 0)
    tile = atomicAdd(next_tile, 1); /* tiles in order of arrival */
  __syncthreads();
  s[t] = in[tile * TPB + t];
  __syncthreads();
  for (unsigned d = 1; d < TPB; d *= 2) { /* inclusive scan in the tile */
    int v = t >= d ? s[t - d] : 0;
    __syncthreads();
    s[t] += v;
    __syncthreads();
  }
  if (t == 0) {
    int sum = s[TPB - 1], before = 0;
    if (tile > 0) {
      agg[tile] = sum;
      if (FENCED)
        __threadfence();
      flag[tile] = 1; /* aggregate */
      for (int p = (int)tile - 1; p >= 0; p--) {
        int f;
        while ((f = flag[p]) == 0)
          ;
        if (FENCED)
          __threadfence();
        if (f == 2) { /* an inclusive prefix: done */
          before += incl[p];
          break;
        }
        before += agg[p];
      }
    }
    incl[tile] = before + sum;
    if (FENCED)
      __threadfence();
    flag[tile] = 2; /* inclusive prefix */
    prefix = before;
  }
  __syncthreads();
  out[tile * TPB + t] = prefix + s[t];
}

int main(int argc, char **argv) {
  if (argc < 2 || (strcmp(argv[1], "fenced") && strcmp(argv[1], "nofence"))) {
    fprintf(stderr, "usage: lookback-scan fenced|nofence [ITERS]\n");
    return 2;
  }
  bool fenced = !strcmp(argv[1], "fenced");
  int iters = argc > 2 ? atoi(argv[2]) : 100;
  std::vector<int> h(N), want(N), got(N);
  for (int i = 0, acc = 0; i < N; i++) {
    h[i] = i % 9 - 3;
    want[i] = acc += h[i];
  }
  int *in, *out, *agg, *incl, *flag;
  unsigned *next;
  if (cudaMalloc(&in, N * sizeof(int)) || cudaMalloc(&out, N * sizeof(int)) ||
      cudaMalloc(&agg, TILES * sizeof(int)) || cudaMalloc(&incl, TILES * sizeof(int)) ||
      cudaMalloc(&flag, TILES * sizeof(int)) ||
      cudaMalloc(&next, sizeof(unsigned))) {
    fprintf(stderr, "lookback-scan: cudaMalloc failed\n");
    return 3;
  }
  cudaMemcpy(in, h.data(), N * sizeof(int), cudaMemcpyHostToDevice);
  int wrong = 0;
  for (int it = 0; it < iters; it++) {
    cudaMemset(flag, 0, TILES * sizeof(int));
    cudaMemset(agg, 0x55, TILES * sizeof(int)); /* stale values */
    cudaMemset(incl, 0x55, TILES * sizeof(int));
    cudaMemset(next, 0, sizeof(unsigned));
    if (fenced)
      scan<true><<<TILES, TPB>>>(in, out, agg, incl, flag, next);
    else
      scan<false><<<TILES, TPB>>>(in, out, agg, incl, flag, next);
    if (cudaMemcpy(got.data(), out, N * sizeof(int), cudaMemcpyDeviceToHost)) {
      fprintf(stderr, "lookback-scan: the kernel failed\n");
      return 3;
    }
    for (int i = 0; i < N; i++)
      if (got[i] != want[i]) {
        if (!wrong++)
          printf("launch %d: out[%d] = %d, expected %d\n", it, i, got[i], want[i]);
        break;
      }
  }
  printf("%d of %d launches wrong\n", wrong, iters);
  return wrong ? 1 : 0;
}
