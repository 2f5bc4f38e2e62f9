// @Input: count = {0}, data = {0, 0}, out = {0, 0}
// @Output: forall (out[0] == 2 and out[1] == 1)
// @Config: 1, 1, 2
//
// A grid barrier across CTAs as hand-rolled before cooperative groups: a counter barrier.
// Thread 0 of each CTA arrives with atomicAdd on count and spins (volatile loads) until
// every CTA has arrived; __syncthreads() holds the CTA's other threads on either side.
// Before the barrier thread i writes data[i] = i + 1; after it, it reads the next CTA's
// element (thread i + blockDim.x, wrapping round): out[i] is that thread's id + 1 when the
// barrier works.  Variants (-D): NO_FENCE drops the __threadfence() before the arrival and
// after the wait; ACQREL replaces both fences and the volatile spin by cuda::atomic_ref
// operations: fetch_add acq_rel, load acquire.
#include <cuda/atomic>

typedef cuda::atomic_ref<unsigned, cuda::thread_scope_device> counter;

__device__ static void grid_sync(unsigned *count) {
  __syncthreads();
  if (threadIdx.x == 0) {
#ifdef ACQREL
    counter(*count).fetch_add(1u, cuda::memory_order_acq_rel);
    while (counter(*count).load(cuda::memory_order_acquire) < gridDim.x) {
    }
#else
#ifndef NO_FENCE
    __threadfence();
#endif
    atomicAdd(count, 1u);
    while (*(volatile unsigned *)count < gridDim.x) {
    }
#ifndef NO_FENCE
    __threadfence();
#endif
#endif
  }
  __syncthreads();
}

extern "C" __global__ void grid_barrier(unsigned *count, int *data, int *out) {
  unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned size = gridDim.x * blockDim.x;
  unsigned next = id + blockDim.x;

  data[id] = id + 1;
  grid_sync(count);
  out[id] = data[next < size ? next : next - size];
}
