// Thread i stores to A[i + n]: with n = 1 and two elements, thread 1
// stores past the end of A (a bounds finding, tests/unit/check_kernel.c).
__global__ void oob(int *A, int n) {
  A[threadIdx.x + n] = 7;
}
