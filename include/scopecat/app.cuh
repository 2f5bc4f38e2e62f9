/* scopecat/app.cuh: thread randomisation for `scopecat gpu app` (seed 000,
 * Sec. 3.5), the one source change the method asks of a program: take
 * block and thread ids from these functions instead of blockIdx and
 * threadIdx.  Under an environment with +rand they permute the CTAs of the
 * grid, and the threads of each CTA so that threads of one warp stay in
 * one warp (warps are permuted among themselves, lanes within a warp; a
 * last, partial warp keeps its place); otherwise, and outside `gpu app`,
 * they are the identity. */

/* How the seed arrives: each file that includes this header has its own
 * `static __device__ unsigned long long sc_app_seed`, zero (the identity)
 * unless written.  The interposer that `gpu app` preloads sees the CUDA
 * runtime register the program's device variables (__cudaRegisterVar),
 * keeps those named sc_app_seed, and before each kernel launch copies a
 * fresh non-zero seed into each (cudaMemcpyToSymbolAsync on the kernel's
 * stream), so every launch draws its own permutation.  A program linked
 * statically against the runtime registers past the interposer: build
 * with `nvcc -cudart shared`. */
#ifndef SCOPECAT_APP_CUH
#define SCOPECAT_APP_CUH

#ifdef __CUDACC__
#define SC_APP_HD __host__ __device__ static inline
#else
#define SC_APP_HD static inline /* the host's tests of the permutations */
#endif

/* splitmix64's finaliser: a key per use from the seed. */
SC_APP_HD unsigned long long sc_app_mix(unsigned long long x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

SC_APP_HD unsigned sc_app_gcd(unsigned a, unsigned b) {
  while (b) {
    unsigned t = a % b;
    a = b, b = t;
  }
  return a;
}

/* A permutation of 0..n-1 drawn by `key`: i -> (a i + b) mod n with a
 * prime to n; the identity for key 0. */
SC_APP_HD unsigned sc_app_permute(unsigned i, unsigned n, unsigned long long key) {
  if (key == 0 || n < 2)
    return i;
  unsigned a = (unsigned)(key % n), b = (unsigned)((key >> 32) % n);
  if (a == 0)
    a = 1;
  while (sc_app_gcd(a, n) != 1)
    a = a + 1 < n ? a + 1 : 1;
  return (unsigned)(((unsigned long long)a * i + b) % n);
}

/* Thread t of a CTA of nt threads, warps kept whole: full warps permuted
 * among themselves and each one's lanes within it; the threads of a
 * partial last warp permuted among themselves. */
SC_APP_HD unsigned sc_app_thread_perm(unsigned t, unsigned nt,
                                      unsigned long long seed) {
  if (seed == 0)
    return t;
  unsigned full = nt / 32;
  if (t >= full * 32)
    return full * 32 + sc_app_permute(t - full * 32, nt - full * 32,
                                      sc_app_mix(seed ^ 3));
  unsigned w = t / 32, lane = t % 32;
  return sc_app_permute(w, full, sc_app_mix(seed ^ 2)) * 32 +
         sc_app_permute(lane, 32, sc_app_mix(seed ^ (4ull + w)));
}

/* CTA b of a grid of nb CTAs. */
SC_APP_HD unsigned sc_app_block_perm(unsigned b, unsigned nb,
                                     unsigned long long seed) {
  return seed ? sc_app_permute(b, nb, sc_app_mix(seed ^ 1)) : b;
}

#ifdef __CUDACC__
static __device__ unsigned long long sc_app_seed;

/* The CTA's id in the grid, as x + y X + z X Y. */
__device__ static inline unsigned sc_app_block_id(void) {
  unsigned nb = gridDim.x * gridDim.y * gridDim.z;
  unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  return sc_app_block_perm(b, nb, *(volatile unsigned long long *)&sc_app_seed);
}

/* The thread's id in its CTA, as x + y X + z X Y. */
__device__ static inline unsigned sc_app_thread_id(void) {
  unsigned nt = blockDim.x * blockDim.y * blockDim.z;
  unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  return sc_app_thread_perm(t, nt, *(volatile unsigned long long *)&sc_app_seed);
}

/* blockIdx and threadIdx, permuted. */
__device__ static inline dim3 sc_app_block_idx(void) {
  unsigned b = sc_app_block_id();
  return dim3(b % gridDim.x, b / gridDim.x % gridDim.y,
              b / (gridDim.x * gridDim.y));
}

__device__ static inline dim3 sc_app_thread_idx(void) {
  unsigned t = sc_app_thread_id();
  return dim3(t % blockDim.x, t / blockDim.x % blockDim.y,
              t / (blockDim.x * blockDim.y));
}

/* The thread's id in the grid: block id * CTA size + thread id. */
__device__ static inline unsigned long long sc_app_global_id(void) {
  return (unsigned long long)sc_app_block_id() *
             (blockDim.x * blockDim.y * blockDim.z) +
         sc_app_thread_id();
}
#endif

#endif
