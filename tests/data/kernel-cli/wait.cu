// One thread waits for a flag that nobody raises: with flag = {0} it spins
// for ever (-liveness fails), with -input 'flag = {1}' it never waits.
// @Input: flag = {0}
// @Config: 1, 1, 1
#include <cuda/atomic>

__global__ void wait(int *flag) {
  cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
  while (f.load(cuda::memory_order_relaxed) == 0) {
  }
}
