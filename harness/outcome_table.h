/* outcome_table.h: the exact part of the harness's histogram: a hash
 * table of whole outcomes (every observed value, 64 bits each) with a
 * count each, filled on the GPU by the collecting kernel (outcomes that
 * fall outside its shared-memory buckets).  Open
 * addressing, linear probing; a slot is claimed by a compare-and-swap of
 * its tag (the outcome's hash, never 0), its key written, then published
 * by `ready`; an insert that meets its tag waits for `ready` and compares
 * the whole key, so two outcomes of the same hash keep their own slots.
 * An insert that finds no free slot counts its instances in `lost`; the
 * host then makes the whole run again with a larger table (gpu_main.cuh),
 * so that a log never misses an instance.
 *
 * Plain C as well as CUDA: the same code runs on the device and, in the
 * unit test (tests/unit/check_gpu.c), on the host. */
#ifndef SC_OUTCOME_TABLE_H
#define SC_OUTCOME_TABLE_H

#include <stdint.h>

#ifdef __CUDACC__
#define OT_FN static __host__ __device__ inline
#else
#define OT_FN static inline
#endif

typedef struct ot_table {
  unsigned long long *tag;   /* cap: the outcome's hash, 0 while empty */
  unsigned *ready;           /* cap: 1 once the slot's key is written */
  long long *key;            /* cap * width values */
  unsigned long long *count; /* cap: instances with this outcome */
  unsigned *used;            /* slots claimed */
  unsigned long long *lost;  /* instances that found no free slot */
  unsigned cap;              /* a power of two */
  int width;                 /* values per outcome */
} ot_table;

/* splitmix64's finaliser over the values; | 1 keeps 0 for "empty". */
OT_FN unsigned long long ot_hash(const long long *v, int width) {
  unsigned long long h = 0x9e3779b97f4a7c15ULL;
  for (int j = 0; j < width; j++) {
    h ^= (unsigned long long)v[j] + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
    h ^= h >> 31;
  }
  return h | 1;
}

OT_FN unsigned long long ot_cas64(unsigned long long *p, unsigned long long old,
                                  unsigned long long val) {
#ifdef __CUDA_ARCH__
  return atomicCAS(p, old, val);
#else
  __atomic_compare_exchange_n(p, &old, val, 0, __ATOMIC_SEQ_CST,
                              __ATOMIC_SEQ_CST);
  return old;
#endif
}

OT_FN void ot_add64(unsigned long long *p, unsigned long long n) {
#ifdef __CUDA_ARCH__
  atomicAdd(p, n);
#else
  __atomic_fetch_add(p, n, __ATOMIC_SEQ_CST);
#endif
}

OT_FN void ot_add32(unsigned *p, unsigned n) {
#ifdef __CUDA_ARCH__
  atomicAdd(p, n);
#else
  __atomic_fetch_add(p, n, __ATOMIC_SEQ_CST);
#endif
}

/* Publish a claimed slot once its key is written. */
OT_FN void ot_publish(unsigned *ready) {
#ifdef __CUDA_ARCH__
  __threadfence();
  atomicExch(ready, 1u);
#else
  __atomic_store_n(ready, 1u, __ATOMIC_RELEASE);
#endif
}

/* Wait until another insert has published the slot's key. */
OT_FN void ot_wait_ready(unsigned *ready) {
#ifdef __CUDA_ARCH__
  while (*(volatile unsigned *)ready == 0) {
  }
  __threadfence();
#else
  while (__atomic_load_n(ready, __ATOMIC_ACQUIRE) == 0) {
  }
#endif
}

OT_FN int ot_same_key(const long long *slot, const long long *v, int width) {
  for (int j = 0; j < width; j++)
    if (((volatile const long long *)slot)[j] != v[j])
      return 0;
  return 1;
}

/* Count `n` instances of outcome v[0..width): 1 when a slot took them, 0
 * when the table had no free slot (they are counted in *lost). */
OT_FN int ot_insert(ot_table t, const long long *v, unsigned long long n) {
  unsigned long long h = ot_hash(v, t.width);
  unsigned mask = t.cap - 1;
  for (unsigned i = 0; i < t.cap; i++) {
    unsigned s = (unsigned)(h + i) & mask;
    unsigned long long was = ot_cas64(&t.tag[s], 0, h);
    long long *k = t.key + (size_t)s * (size_t)t.width;
    if (was == 0) {
      for (int j = 0; j < t.width; j++)
        k[j] = v[j];
      ot_publish(&t.ready[s]);
      ot_add32(t.used, 1);
      ot_add64(&t.count[s], n);
      return 1;
    }
    if (was != h)
      continue;
    ot_wait_ready(&t.ready[s]);
    if (ot_same_key(k, v, t.width)) {
      ot_add64(&t.count[s], n);
      return 1;
    }
  }
  ot_add64(t.lost, n);
  return 0;
}

#endif
