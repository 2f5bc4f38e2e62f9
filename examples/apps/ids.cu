/* ids.cu: whether app.cuh's ids are what `scopecat gpu app` promises on a
 * real GPU (a check of the interposer rather than a case study): every
 * thread of a 3-D grid records the CTA and thread ids it was given; the
 * host checks that they form a permutation of the grid that keeps each CTA
 * and each warp whole, and prints how many CTAs and threads moved ("moved
 * 0 0" without randomisation: the identity).  Exit 1 when they are no
 * such permutation.
 * Build: nvcc -O3 -arch=sm_90 -cudart shared -I include -o ids
 *        examples/apps/ids.cu */
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "scopecat/app.cuh"

__global__ void record(unsigned *block_of, unsigned *thread_of) {
  unsigned phys_b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  unsigned nt = blockDim.x * blockDim.y * blockDim.z;
  unsigned phys_t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  dim3 b = sc_app_block_idx(), t = sc_app_thread_idx();
  unsigned lb = b.x + gridDim.x * (b.y + gridDim.y * b.z);
  unsigned lt = t.x + blockDim.x * (t.y + blockDim.y * t.z);
  block_of[phys_b * nt + phys_t] = lb;
  thread_of[phys_b * nt + phys_t] = lt;
}

int main(void) {
  const dim3 grid(5, 3, 2), block(32, 3, 1); /* 30 CTAs of 96 threads */
  const unsigned nb = 30, nt = 96, n = nb * nt;
  unsigned *db, *dt;
  cudaMalloc(&db, n * sizeof(unsigned));
  cudaMalloc(&dt, n * sizeof(unsigned));
  record<<<grid, block>>>(db, dt);
  std::vector<unsigned> hb(n), ht(n);
  if (cudaMemcpy(hb.data(), db, n * sizeof(unsigned), cudaMemcpyDeviceToHost) ||
      cudaMemcpy(ht.data(), dt, n * sizeof(unsigned), cudaMemcpyDeviceToHost)) {
    fprintf(stderr, "ids: the kernel failed\n");
    return 3;
  }
  std::vector<int> block_seen(nb, 0), pair_seen(n, 0);
  unsigned moved_b = 0, moved_t = 0;
  for (unsigned b = 0; b < nb; b++) {
    unsigned lb = hb[b * nt];
    moved_b += lb != b;
    if (lb >= nb || block_seen[lb]++)
      return printf("CTA %u: id %u repeated or out of range\n", b, lb), 1;
    for (unsigned t = 0; t < nt; t++) {
      unsigned i = b * nt + t, lt = ht[i];
      moved_t += lt != t;
      if (hb[i] != lb)
        return printf("CTA %u split\n", b), 1;
      if (lt >= nt || pair_seen[lb * nt + lt]++)
        return printf("thread id %u repeated in CTA %u\n", lt, b), 1;
      if (ht[b * nt + t / 32 * 32] / 32 != lt / 32)
        return printf("warp %u of CTA %u split\n", t / 32, b), 1;
    }
  }
  printf("moved %u %u (CTAs of %u, threads of %u)\n", moved_b, moved_t, nb, n);
  return 0;
}
