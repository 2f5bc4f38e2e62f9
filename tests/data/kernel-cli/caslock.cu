// A CAS spin lock (CUDA by Example's shape) round a plain increment, two CTAs.
// Mutual exclusion holds under ptx-v7.5: the fences after taking and before
// releasing order the increments, so count[0] is 2 in every execution.  A
// thread whose CAS fails spins; each failed turn repeats the state, so from
// -unroll 3 on the repeats are cut and no run is lost (PASS), while at
// -unroll 2 and below the full unrolling would cut the spinning runs, so the
// verdict is UNKNOWN there: no execution violates forall (nor satisfies an
// exists that never holds) up to the bound.
// @Input: mutex = {0}, count = {0}
// @Output: forall (count[0] == 2)
// @Config: 1, 1, 2
__global__ void inc(int *mutex, int *count) {
  while (atomicCAS(mutex, 0, 1) != 0) {
  }
  __threadfence();
  count[0] = count[0] + 1;
  __threadfence();
  atomicExch(mutex, 0);
}
