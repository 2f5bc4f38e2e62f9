// @Input: in = {1, 2, 3, 4}, partial = {0, 0}, count = {0}, result = {0}
// @Output: forall (result[0] == 10)
// @Config: 1, 1, 2
//
// The last-block reduction of the CUDA samples (threadFenceReduction) and of the CUDA C++
// Programming Guide's __threadfence() example: each CTA writes its partial sum, takes a
// ticket with atomicInc, and the CTA that draws the last ticket sums the partials.  Thread 0
// of each CTA does the CTA's part (one thread per CTA in the launch; the CTA's verdict is
// shared through a __shared__ flag and __syncthreads(), as in the sample).  The partials are
// plain stores and loads: only the fences order them.  Variants (-D): NO_FENCE_BEFORE drops
// the __threadfence() between the partial's store and the ticket; NO_FENCE_AFTER drops the
// one between the last ticket and the partials' loads (the samples have no such fence).
extern "C" __global__ void sum(int *in, int *partial, unsigned *count, int *result) {
  __shared__ bool isLast;

  if (threadIdx.x == 0) {
    partial[blockIdx.x] = in[2 * blockIdx.x] + in[2 * blockIdx.x + 1];
#ifndef NO_FENCE_BEFORE
    __threadfence();
#endif
    unsigned ticket = atomicInc(count, gridDim.x);
    isLast = (ticket == gridDim.x - 1);
  }
  __syncthreads();

  if (isLast && threadIdx.x == 0) {
#ifndef NO_FENCE_AFTER
    __threadfence();
#endif
    int s = 0;
    for (unsigned i = 0; i < gridDim.x; i++)
      s += partial[i];
    *result = s;
  }
}
