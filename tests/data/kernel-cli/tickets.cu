// @Input: next = {0}, got = {-1, -1, -1, -1, -1, -1}
// @Output: forall (next[0] == 6)
// @Config: 2, 3, 1
// Every thread draws a ticket; with SCOPE the CTA (the default), draws of
// two CTAs are not atomic with each other, so two may draw the same ticket
// (-config 2,1,3: three CTAs); at device scope (-D SCOPE=...device) never.
#include <cuda/atomic>
#ifndef SCOPE
#define SCOPE cuda::thread_scope_block
#endif
extern "C" __global__ void draw(unsigned *next, int *got) {
  unsigned t = cuda::atomic_ref<unsigned, SCOPE>(*next).fetch_add(1u, cuda::memory_order_relaxed);
  got[blockIdx.x * blockDim.x + threadIdx.x] = (int)t;
}
