// @Input: flag = {0, 0, 0, 0, 0, 0, 0, 0}
// @Input: in = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
// @Input: out = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
// @Output: forall (out[0] == 4 and out[1] == 4 and out[2] == 4 and out[3] == 4)
// @Config: 2, 1, 2
//
// Dat3M's xf-barrier.cl as CUDA: Xiao and Feng's cross-CTA barrier.  CTA 0's thread i waits
// for CTA i+1 to arrive (flag[i+1] = 1), the CTA meets at __syncthreads(), then releases
// CTA i+1 (flag[i+1] = 0); in the other CTAs thread 0 arrives and waits for its release
// between two __syncthreads().  Every thread writes in[its id] = 1 before the barrier and
// sums all of in after it: out[id] is the number of threads when the barrier works.
// Variants (-D) weaken one order each, as in the OpenCL file: FAIL1 CTA 0's wait (acquire),
// FAIL2 CTA 0's release store, FAIL3 the arrival store (release), FAIL4 the arrival's wait
// (acquire).  The atomics are at device scope (OpenCL's default memory_scope_device).
#include <cuda/atomic>

#ifdef FAIL1
#define MO1 cuda::memory_order_relaxed
#else
#define MO1 cuda::memory_order_acquire
#endif

#ifdef FAIL2
#define MO2 cuda::memory_order_relaxed
#else
#define MO2 cuda::memory_order_release
#endif

#ifdef FAIL3
#define MO3 cuda::memory_order_relaxed
#else
#define MO3 cuda::memory_order_release
#endif

#ifdef FAIL4
#define MO4 cuda::memory_order_relaxed
#else
#define MO4 cuda::memory_order_acquire
#endif

typedef cuda::atomic_ref<unsigned, cuda::thread_scope_device> flag_word;

extern "C" __global__ void xf_barrier(unsigned *flag, unsigned *in, unsigned *out) {
  unsigned group_id = blockIdx.x;
  unsigned local_id = threadIdx.x;
  unsigned num_groups = gridDim.x;
  unsigned global_id = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned global_size = gridDim.x * blockDim.x;

  in[global_id] = 1;

  if (group_id == 0) {
    if (local_id + 1 < num_groups) {
      while (flag_word(flag[local_id + 1]).load(MO1) == 0) {
      }
    }
    __syncthreads();
    if (local_id + 1 < num_groups) {
      flag_word(flag[local_id + 1]).store(0u, MO2);
    }
  } else {
    __syncthreads();
    if (local_id == 0) {
      flag_word(flag[group_id]).store(1u, MO3);
      while (flag_word(flag[group_id]).load(MO4) == 1) {
      }
    }
    __syncthreads();
  }

  for (unsigned i = 0; i < global_size; i++) {
    out[global_id] += in[i];
  }
}
