// @Input: l = {0}, x = {0}, A = {-1, -1}
// @Output: forall (A[0] == -1 or A[1] == -1 or A[0] != A[1])
// @Config: 2, 1, 1
//
// Dat3M's caslock-sc.cl as CUDA: the compare-and-swap lock written with the OpenCL 1.0
// atom_cmpxchg / atom_xchg, whose SPIR-V is sequentially consistent at device scope; here
// cuda::atomic_ref's default order (memory_order_seq_cst) at device scope.  Each thread
// records the value of the counter x it saw in A[its global id].
#include <cuda/atomic>

typedef cuda::atomic_ref<unsigned, cuda::thread_scope_device> lock_word;

__device__ static void lock(unsigned *l) {
  unsigned expected = 0;
  while (!lock_word(*l).compare_exchange_strong(expected, 1u)) {
    expected = 0;
  }
}

__device__ static void unlock(unsigned *l) {
  lock_word(*l).exchange(0u);
}

extern "C" __global__ void mutex_test(unsigned *l, int *x, int *A) {
  int a;
  lock(l);
  a = *x;
  *x = a + 1;
  unlock(l);
  A[blockIdx.x * blockDim.x + threadIdx.x] = a;
}
