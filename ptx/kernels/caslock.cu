// @Input: l = {0}, x = {0}, A = {-1, -1}
// @Output: forall (A[0] == -1 or A[1] == -1 or A[0] != A[1])
// @Config: 2, 1, 1
//
// Dat3M's caslock.cl as CUDA: a compare-and-swap spin lock guards a plain counter x; each
// thread records the value of x it saw in A[its global id].  Mutual exclusion holds when no
// two threads saw the same value.  Variants (-D), as in the OpenCL file: ACQ2RX makes the
// lock's acquire relaxed, REL2RX the unlock's release relaxed, DV2WG the scope the CTA
// (work-group) instead of the GPU (device).
#include <cuda/atomic>

#ifdef ACQ2RX
#define MO_LOCK cuda::memory_order_relaxed
#else
#define MO_LOCK cuda::memory_order_acquire
#endif

#ifdef REL2RX
#define MO_UNLOCK cuda::memory_order_relaxed
#else
#define MO_UNLOCK cuda::memory_order_release
#endif

#ifdef DV2WG
#define SCOPE cuda::thread_scope_block
#else
#define SCOPE cuda::thread_scope_device
#endif

typedef cuda::atomic_ref<unsigned, SCOPE> lock_word;

__device__ static void lock(unsigned *l) {
  unsigned expected = 0;
  while (!lock_word(*l).compare_exchange_strong(expected, 1u, MO_LOCK, MO_LOCK)) {
    expected = 0;
  }
}

__device__ static void unlock(unsigned *l) {
  lock_word(*l).store(0u, MO_UNLOCK);
}

extern "C" __global__ void mutex_test(unsigned *l, int *x, int *A) {
  int a;
  lock(l);
  a = *x;
  *x = a + 1;
  unlock(l);
  A[blockIdx.x * blockDim.x + threadIdx.x] = a;
}
