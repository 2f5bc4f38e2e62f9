// Message passing between two CTAs: CTA 0 writes data then raises the flag,
// CTA 1 reads the flag then the data.  Without fences (the default) the
// reader may see the flag and stale data; with -D FENCE a __threadfence()
// (fence.sc.gpu) on each side forbids it.
// @Input: data = {0}, flag = {0}, out = {-1}
// @Output: forall (out[0] == -1 or out[0] == 42)
// @Config: 1, 1, 2
#include <cuda/atomic>

__global__ void mp(int *data, int *flag, int *out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
  if (blockIdx.x == 0) {
    data[0] = 42;
#ifdef FENCE
    __threadfence();
#endif
    f.store(1, cuda::memory_order_relaxed);
  } else {
    int seen = f.load(cuda::memory_order_relaxed);
#ifdef FENCE
    __threadfence();
#endif
    if (seen == 1)
      out[0] = data[0];
  }
}
