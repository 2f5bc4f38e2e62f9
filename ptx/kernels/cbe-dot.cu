// @Input: mutex = {0}, a = {1, 2, 3, 4}, b = {1, 1, 1, 1}, c = {0}, n = 4
// @Output: forall (c[0] == 10)
// @Config: 2, 1, 2
//
// The dot product of "CUDA by Example" (appendix A.1.2) as Fig. 1 of the ASPLOS'16 paper on
// testing GPU applications shows it (cbe-dot), on ints: each thread sums its strided share of
// a[i] * b[i], each CTA reduces its shares in shared memory, and thread 0 of each CTA adds
// the CTA's sum to *c under the book's lock (atomicCAS / atomicExch, relaxed, no fence).
// The lock does not order the critical section, so a CTA may add to a stale *c.
// Variants (-D): FENCED puts __threadfence() at the end of lock and the start of unlock.
#define THREADS_PER_CTA 2 /* the launch's threads per CTA (blockDim.x): a power of two */

__device__ static void lock(int *mutex) {
  while (atomicCAS(mutex, 0, 1) != 0) {
  }
#ifdef FENCED
  __threadfence();
#endif
}

__device__ static void unlock(int *mutex) {
#ifdef FENCED
  __threadfence();
#endif
  atomicExch(mutex, 0);
}

extern "C" __global__ void dot(int *mutex, int *a, int *b, int *c, int n) {
  __shared__ int cache[THREADS_PER_CTA];
  int tid = threadIdx.x + blockIdx.x * blockDim.x;
  unsigned cacheIndex = threadIdx.x;
  int temp = 0;

  while (tid < n) {
    temp += a[tid] * b[tid];
    tid += blockDim.x * gridDim.x;
  }
  cache[cacheIndex] = temp;
  __syncthreads();

  for (unsigned i = blockDim.x / 2; i != 0; i /= 2) {
    if (cacheIndex < i)
      cache[cacheIndex] += cache[cacheIndex + i];
    __syncthreads();
  }

  if (cacheIndex == 0) {
    lock(mutex);
    *c += cache[0];
    unlock(mutex);
  }
}
