/* gpu_limits.h: the limits of the litmus harness, in one place.  The
 * generator (lib/gpu) refuses a test past them with a message naming the
 * limit; the kernels (gpu_main.cuh, through gpu_prelude.cuh) size their
 * arrays and encode their role table by them.  Plain C preprocessor: it is
 * read by the C library and by nvcc. */
#ifndef SC_GPU_LIMITS_H
#define SC_GPU_LIMITS_H

/* A hardware thread's role is (instance << SC_GPU_THREAD_BITS) | test
 * thread: at most 2^SC_GPU_THREAD_BITS threads per test instance. */
#define SC_GPU_THREAD_BITS 4
#define SC_GPU_MAX_THREADS (1 << SC_GPU_THREAD_BITS)
/* Locations of one test (each instance has its own copy of each). */
#define SC_GPU_MAX_LOCATIONS 64
/* Registers of one test thread that the generator tracks. */
#define SC_GPU_MAX_REGISTERS 64
/* Warps of one test CTA that hold distinct test threads (a CTA of the
 * default 256 threads holds 8 warps). */
#define SC_GPU_MAX_WARPS 8
/* Observed values: the registers and locations the condition and
 * `locations [...]` name (each instance's outcome has this many; the
 * outcome table keys hold them all, 8 bytes each). */
#define SC_GPU_MAX_OBSERVED 32
/* Shared-memory buckets of the collecting kernel (4 bytes each): the
 * outcomes of small values; the others go to the outcome table. */
#define SC_GPU_MAX_BUCKETS 4096
/* Memory accesses and fences of one test thread that optcheck follows. */
#define SC_GPU_MAX_ACCESSES 250

/* Hardware barriers of one CTA (PTX: bar/barrier a, a in 0..15), and the
 * warps of a barrier test's CTA (a quorum counts warps, 1024 threads). */
#define SC_GPU_MAX_BARRIERS 16
#define SC_GPU_MAX_BAR_WARPS 32

#endif
