// @Input: mutex = {0}, x = {0}, A = {-1, -1}
// @Output: forall (A[0] == -1 or A[1] == -1 or A[0] != A[1])
// @Config: 1, 1, 2
//
// The lock of "CUDA by Example" (Sanders and Kandrot, appendix A.1), as the ASPLOS'15 paper
// on GPU concurrency found it: atomicCAS to take the mutex, atomicExch to give it back, both
// relaxed (CUDA's atomic* functions are relaxed at device scope) and no fence.  The kernel
// is Dat3M's mutex test: each thread records the value of the plain counter x it saw in
// A[its global id]; mutual exclusion holds when no two threads saw the same value.
// Variants (-D): FENCE_UNLOCK puts __threadfence() at the start of unlock (the repair the
// testing papers report), FENCED also puts one at the end of lock.
struct Lock {
  int *mutex;
  __device__ explicit Lock(int *m) : mutex(m) {}

  __device__ void lock() {
    while (atomicCAS(mutex, 0, 1) != 0) {
    }
#ifdef FENCED
    __threadfence();
#endif
  }

  __device__ void unlock() {
#if defined(FENCED) || defined(FENCE_UNLOCK)
    __threadfence();
#endif
    atomicExch(mutex, 0);
  }
};

extern "C" __global__ void mutex_test(int *mutex, int *x, int *A) {
  Lock m(mutex);
  int a;
  m.lock();
  a = *x;
  *x = a + 1;
  m.unlock();
  A[blockIdx.x * blockDim.x + threadIdx.x] = a;
}
