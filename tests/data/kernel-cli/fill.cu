// One thread fills A[0..n-1] with 0..n-1: a loop of n turns, which
// -unroll 2 cuts (the verdict is then UNKNOWN: it holds up to the bound)
// and -unroll 4 follows to its end.
// @Input: A = {-1, -1, -1, -1}, n = 4
// @Output: forall (A[3] == 3 and A[0] < A[1])
// @Config: 1, 1, 1
__global__ void fill(int *A, int n) {
#pragma unroll 1
  for (int i = 0; i < n; i++)
    A[i] = i;
}
