/* work-queue.cu: a work queue of producers and consumers (in the style of
 * 000's tpo-tm and ct-octree), a case study of `scopecat gpu app`: half
 * of the CTAs produce items, each writing an item into the slot it takes
 * from a counter and then raising the slot's ready flag; the other half
 * consume, each taking a slot from another counter, waiting for its flag
 * and adding the item to a checksum.  `nofence` leaves out the fence
 * between an item and its flag (and between seeing the flag and reading
 * the item), which the idiom needs: a consumer may read the slot's old
 * item.  The post-condition is the exit status: 0 when every one of ITERS
 * launches consumed exactly the items produced.
 * Build: nvcc -O3 -arch=sm_90 -cudart shared -I include -o work-queue
 *        examples/apps/work-queue.cu
 * Run:   work-queue fenced|nofence [ITERS] */
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "scopecat/app.cuh"

/* the consumers wait on producers: every CTA must be resident at once
 * (64 CTAs of 128 threads fit an H100's 132 SMs with room to spare, even
 * beside the stress, which gpu app keeps to half the GPU) */
enum { TPB = 128, CTAS = 64, ITEMS = TPB * CTAS / 2 };

template <bool FENCED>
__global__ void queue(volatile int *items, volatile int *ready,
                      unsigned *produced, unsigned *consumed,
                      unsigned long long *checksum, int round) {
  bool producer = sc_app_block_id() % 2 == 0;
  if (producer) {
    unsigned slot = atomicAdd(produced, 1);
    items[slot] = (int)(slot * 7 + round);
    if (FENCED)
      __threadfence();
    ready[slot] = round;
  } else {
    unsigned slot = atomicAdd(consumed, 1);
    while (ready[slot] != round)
      ;
    if (FENCED)
      __threadfence();
    atomicAdd(checksum, (unsigned long long)items[slot]);
  }
}

int main(int argc, char **argv) {
  if (argc < 2 || (strcmp(argv[1], "fenced") && strcmp(argv[1], "nofence"))) {
    fprintf(stderr, "usage: work-queue fenced|nofence [ITERS]\n");
    return 2;
  }
  bool fenced = !strcmp(argv[1], "fenced");
  int iters = argc > 2 ? atoi(argv[2]) : 100;
  int *items, *ready;
  unsigned *counters;
  unsigned long long *checksum;
  if (cudaMalloc(&items, ITEMS * sizeof(int)) || cudaMalloc(&ready, ITEMS * sizeof(int)) ||
      cudaMalloc(&counters, 2 * sizeof(unsigned)) ||
      cudaMalloc(&checksum, sizeof(unsigned long long))) {
    fprintf(stderr, "work-queue: cudaMalloc failed\n");
    return 3;
  }
  cudaMemset(ready, 0, ITEMS * sizeof(int));
  int wrong = 0;
  for (int it = 0; it < iters; it++) {
    int round = it + 1; /* the flag a slot is ready with this round */
    unsigned long long want = 0, got = 0;
    for (unsigned s = 0; s < ITEMS; s++)
      want += s * 7 + round;
    cudaMemset(items, 0xff, ITEMS * sizeof(int)); /* old items: -1 */
    cudaMemset(counters, 0, 2 * sizeof(unsigned));
    cudaMemset(checksum, 0, sizeof(unsigned long long));
    if (fenced)
      queue<true><<<CTAS, TPB>>>(items, ready, counters, counters + 1, checksum, round);
    else
      queue<false><<<CTAS, TPB>>>(items, ready, counters, counters + 1, checksum, round);
    if (cudaMemcpy(&got, checksum, sizeof got, cudaMemcpyDeviceToHost)) {
      fprintf(stderr, "work-queue: the kernel failed\n");
      return 3;
    }
    if (got != want && !wrong++)
      printf("launch %d: checksum %llu, expected %llu\n", it, got, want);
  }
  printf("%d of %d launches wrong\n", wrong, iters);
  return wrong ? 1 : 0;
}
