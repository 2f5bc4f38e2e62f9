// Message passing between two threads of one CTA through global memory:
// T0 writes data then releases flag; T1 acquires flag and, if it saw 1,
// reads data into out (tests/unit/check_kernel.c works the states out).
#include <cuda/atomic>
__global__ void mp2(int *data, int *flag, int *out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
  if (threadIdx.x == 0) {
    data[0] = 1;
    f.store(1, cuda::memory_order_release);
  } else {
    int seen = f.load(cuda::memory_order_acquire);
    out[0] = seen;
    out[1] = data[0];
  }
}
