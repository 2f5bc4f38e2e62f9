// Each thread of the grid records its special registers and works on
// arrays of 1-, 2- and 8-byte elements, a .global counter and a .shared
// array, with a loop (tests/unit/check_kernel.c: launch 2, 2, 2).
__device__ int counter;

__global__ void grid(int *ids, signed char *bytes, short *halves,
                     long long *longs) {
  __shared__ int seen[4];
  unsigned lane, warp;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(warp));
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  ids[4 * g + 0] = threadIdx.x;
  ids[4 * g + 1] = blockIdx.x * 10 + gridDim.x;
  ids[4 * g + 2] = lane * 10 + warp;
  ids[4 * g + 3] = blockDim.x;
  bytes[g] = bytes[g] + 100;   /* wraps at 8 bits for 100 + 100 */
  halves[g] = halves[g] * 2;
  longs[g] = longs[g] << 33;
  seen[threadIdx.x] = g;
  __syncthreads();
  int sum = 0;
  for (int i = 0; i < blockDim.x; i++)
    sum += seen[i];
  if (threadIdx.x == 0)
    atomicAdd(&counter, sum);
}
