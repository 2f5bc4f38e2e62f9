#include <cuda/atomic>
__global__ void mp(int *data, int *flag, int *out) {
  __shared__ int s[4];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  if (threadIdx.x == 0) {
    data[0] = 42 + s[1];
    cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
    f.store(1, cuda::memory_order_release);
  } else {
    cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
    while (f.load(cuda::memory_order_acquire) == 0) {}
    out[0] = data[0];
    atomicCAS(flag, 1, 2);
    __threadfence();
  }
}
