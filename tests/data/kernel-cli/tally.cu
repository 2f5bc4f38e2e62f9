// Four threads add to a plain tally and record what they read; thread 1
// raises `done`, which thread 0 waits for.  The tally's values multiply the
// states search's runs, but decide nothing: the race and liveness searches
// collapse them (doc/engines.md, "Values that decide nothing").  Data race
// FAIL: the tally's plain ld and st of two threads.  Liveness PASS: under
// fairness thread 1's release is eventually seen, and nobody else waits.
// @Input: tally = {0}, seen = {0, 0, 0, 0}, done = {0}
// @Output: forall (seen[0] >= 0)
// @Config: 4, 1, 1
#include <cuda/atomic>

__global__ void tally(int *tally, int *seen, int *done) {
  int t = threadIdx.x;
  int a = tally[0];
  tally[0] = a + t + 1;
  seen[t] = a;
  cuda::atomic_ref<int, cuda::thread_scope_device> d(*done);
  if (t == 1)
    d.store(1, cuda::memory_order_release);
  if (t == 0)
    while (d.load(cuda::memory_order_acquire) == 0) {
    }
}
