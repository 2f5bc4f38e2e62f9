// @Input: owner = {0}, next = {0}, x = {0}, A = {-1, -1}
// @Output: forall (A[0] == -1 or A[1] == -1 or A[0] != A[1])
// @Config: 2, 1, 1
//
// Dat3M's ticketlock.cl as CUDA: a thread draws a ticket from next (relaxed fetch-add) and
// spins until owner shows it; unlock bumps owner.  Each thread records the value of the plain
// counter x it saw in A[its global id].  Variants (-D), as in the OpenCL file: ACQ2RX makes
// the spin's acquire relaxed, REL2RX the unlock's release relaxed, DV2WG the scope the CTA.
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

__device__ static void lock(unsigned *owner, unsigned *next) {
  unsigned ticket = lock_word(*next).fetch_add(1u, cuda::memory_order_relaxed);
  while (lock_word(*owner).load(MO_LOCK) != ticket) {
  }
}

__device__ static void unlock(unsigned *owner) {
  unsigned current = lock_word(*owner).load(cuda::memory_order_relaxed);
  lock_word(*owner).store(current + 1, MO_UNLOCK);
}

extern "C" __global__ void mutex_test(unsigned *owner, unsigned *next, int *x, int *A) {
  int a;
  lock(owner, next);
  a = *x;
  *x = a + 1;
  unlock(owner);
  A[blockIdx.x * blockDim.x + threadIdx.x] = a;
}
