/* cbe-ht.cu: a hash table with a lock per bucket (000's cbe-ht, after
 * "CUDA by Example" A.2), a case study of `scopecat gpu app`: every thread
 * inserts its keys, each into its bucket's list, holding the bucket's lock
 * (atomicCAS) while it links its node in with plain stores.  `nofence`
 * leaves out the fences the idiom needs (after taking the lock, before
 * freeing it): the next holder may read a stale head and lose a node.  The
 * post-condition is the exit status: 0 when after every one of ITERS
 * launches each key is in its bucket exactly once.
 * Build: nvcc -O3 -arch=sm_90 -cudart shared -I include -o cbe-ht
 *        examples/apps/cbe-ht.cu
 * Run:   cbe-ht fenced|nofence [ITERS] */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "scopecat/app.cuh"

enum { BUCKETS = 64, TPB = 128, CTAS = 64, PER_THREAD = 4 };
enum { KEYS = TPB * CTAS * PER_THREAD };

struct node {
  unsigned key;
  int next; /* index into the pool, -1: end */
};

template <bool FENCED>
__global__ void insert(volatile node *pool, volatile int *heads, int *locks) {
  unsigned me = (unsigned)sc_app_global_id();
  /* neither loop unrolled: each access is one place in the PTX, so that
   * `gpu app -fences` has one fence site per access of the source (nvcc
   * -O3 made 94 of them a kernel, 32 copies of the critical section) */
#pragma unroll 1
  for (unsigned k = 0; k < PER_THREAD; k++) {
    unsigned key = me * PER_THREAD + k, b = key * 2654435761u % BUCKETS;
    pool[key].key = key;
    /* one lane at a time takes a lock: the warp's lanes must not spin on
     * a lock another lane of the warp holds */
#pragma unroll 1
    for (unsigned lane = 0; lane < 32; lane++) {
      if ((threadIdx.x & 31) != lane)
        continue;
      while (atomicCAS(&locks[b], 0, 1) != 0)
        ;
      if (FENCED)
        __threadfence();
      pool[key].next = heads[b];
      heads[b] = (int)key;
      if (FENCED)
        __threadfence();
      atomicExch(&locks[b], 0);
    }
  }
}

int main(int argc, char **argv) {
  if (argc < 2 || (strcmp(argv[1], "fenced") && strcmp(argv[1], "nofence"))) {
    fprintf(stderr, "usage: cbe-ht fenced|nofence [ITERS]\n");
    return 2;
  }
  bool fenced = !strcmp(argv[1], "fenced");
  int iters = argc > 2 ? atoi(argv[2]) : 100;
  node *pool;
  int *heads, *locks;
  if (cudaMalloc(&pool, KEYS * sizeof(node)) || cudaMalloc(&heads, BUCKETS * sizeof(int)) ||
      cudaMalloc(&locks, BUCKETS * sizeof(int))) {
    fprintf(stderr, "cbe-ht: cudaMalloc failed\n");
    return 3;
  }
  std::vector<node> hp(KEYS);
  std::vector<int> hh(BUCKETS);
  int wrong = 0;
  for (int it = 0; it < iters; it++) {
    cudaMemset(heads, 0xff, BUCKETS * sizeof(int)); /* -1: empty */
    cudaMemset(locks, 0, BUCKETS * sizeof(int));
    if (fenced)
      insert<true><<<CTAS, TPB>>>(pool, heads, locks);
    else
      insert<false><<<CTAS, TPB>>>(pool, heads, locks);
    if (cudaMemcpy(hp.data(), pool, KEYS * sizeof(node), cudaMemcpyDeviceToHost) ||
        cudaMemcpy(hh.data(), heads, BUCKETS * sizeof(int), cudaMemcpyDeviceToHost)) {
      fprintf(stderr, "cbe-ht: the kernel failed\n");
      return 3;
    }
    std::vector<int> seen(KEYS, 0);
    int found = 0;
    bool bad = false;
    for (int b = 0; b < BUCKETS && !bad; b++)
      for (int i = hh[b], steps = 0; i >= 0 && !bad; i = hp[i].next, steps++) {
        bad = i >= KEYS || steps > KEYS || seen[i]++ ||
              (int)(hp[i].key * 2654435761u % BUCKETS) != b;
        found++;
      }
    if ((bad || found != KEYS) && !wrong++)
      printf("launch %d: %d of %d keys found%s\n", it, found, KEYS,
             bad ? ", a list broken" : "");
  }
  printf("%d of %d launches wrong\n", wrong, iters);
  return wrong ? 1 : 0;
}
