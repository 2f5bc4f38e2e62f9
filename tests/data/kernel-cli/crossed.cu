// Two threads of one CTA meet the named barriers 1 and 2 in crossed
// orders: T0 waits at barrier 1 for T1, which waits at barrier 2 for T0.
// No execution completes (a deadlock), so the forall holds of none: no
// verdict but UNKNOWN; -liveness fails, both threads waiting for ever.
// @Input: out = {0, 0}
// @Output: forall (out[0] == 1 and out[1] == 1)
// @Config: 2, 1, 1

__global__ void crossed(int *out) {
  if (threadIdx.x == 0) {
    asm volatile("bar.sync 1;" ::: "memory");
    asm volatile("bar.sync 2;" ::: "memory");
  } else {
    asm volatile("bar.sync 2;" ::: "memory");
    asm volatile("bar.sync 1;" ::: "memory");
  }
  out[threadIdx.x] = 1;
}
