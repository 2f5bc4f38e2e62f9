/* gpu.h: the CUDA program of a litmus test (sc_gpu_program of the public
 * header), shared by the generator's phases: layout.c places the test on
 * the GPU (threads in CTAs, warps and lanes; locations in global or shared
 * memory; the observed values and the histogram), ptx.c writes each test
 * thread's PTX as one inline asm block, program.c writes the program and
 * is the public face.  Nothing here needs CUDA: nvcc compiles the text. */
#ifndef SC_GPU_GPU_H
#define SC_GPU_GPU_H

#include "litmus/litmus.h"
#include "util/strbuf.h"

#include "gpu_limits.h"

#include <stdbool.h>

/* What optcheck expects of one test thread: the line of the program that
 * holds its asm block, and the classes of its memory accesses and fences
 * in program order (L load, S store, A atom/red, F fence/membar). */
typedef struct sc_gpu_thread_spec {
  int line;
  char classes[SC_GPU_MAX_ACCESSES + 1];
} sc_gpu_thread_spec;

struct sc_gpu_program {
  const char *text;
  int nthreads;
  sc_gpu_thread_spec threads[SC_GPU_MAX_THREADS];
};

/* An observed value: a register's (its result slot) or a location's. */
typedef enum sc_gpu_obs_kind { SC_GPU_OBS_REG = 0, SC_GPU_OBS_LOC = 1 } sc_gpu_obs_kind;

typedef struct sc_gpu_obs {
  sc_gpu_obs_kind kind;
  int a; /* REG: the test thread; LOC: the location */
  int b; /* REG: the result slot; LOC: 0 */
} sc_gpu_obs;

/* A barrier group (Dat3M's, lib/sim/barrier.c): the barriers of one CTA
 * whose first two operands agree.  On the GPU it is hardware barrier
 * `hwid` of its CTA; `size` test threads of the CTA have a barrier of it. */
typedef struct sc_gpu_bargroup {
  int cta;         /* CTA class */
  int nops;        /* operands that name the group: 1 or 2 */
  int64_t ops[2];
  int hwid;        /* 0 .. SC_GPU_MAX_BARRIERS-1 */
  int size;
  unsigned threads; /* bit i: test thread i has a barrier of the group */
} sc_gpu_bargroup;

/* The generator's state, filled phase by phase. */
typedef struct sc_gpu_gen {
  const sc_test *t;
  sc_error *err; /* the first reason the test cannot run; NULL while it can */
  /* threads: CTA class, warp class within it, lane slot within the warp */
  int cta[SC_GPU_MAX_THREADS], warp[SC_GPU_MAX_THREADS],
      lane[SC_GPU_MAX_THREADS];
  int nc, nwmax, nlmax;
  /* locations: in shared memory, and the thread that writes one back */
  bool loc_shared[SC_GPU_MAX_LOCATIONS];
  int loc_owner[SC_GPU_MAX_LOCATIONS];
  /* a generic alias (Dat3M's "y @ generic aliases x"): the location whose
   * memory it names through the harness's second mapping; -1 otherwise */
  int loc_alias[SC_GPU_MAX_LOCATIONS];
  int nalias;
  /* observed values, the condition's first, then `locations [...]` */
  int nobs;
  bool obs_overflow;
  sc_gpu_obs obs[SC_GPU_MAX_OBSERVED];
  int nres; /* result slots (observed registers) */
  int res_slot[SC_GPU_MAX_THREADS][SC_GPU_MAX_REGISTERS]; /* -1: none */
  /* barriers: the test has some (one instance per CTA, each test thread
   * a warp of its own, CTAs of bar_warps warps); their groups */
  bool barriers;
  int bar_warps;
  int nbargroups;
  sc_gpu_bargroup bargroup[SC_GPU_MAX_BARRIERS * SC_GPU_MAX_THREADS];
  /* the shared-memory buckets: RADIX values per observed value */
  int radix;
  long nbuckets;
} sc_gpu_gen;

/* Record the first reason the test cannot run (later ones are dropped). */
void sci_gpu_fail(sc_gpu_gen *g, sc_status status, int line, int col,
                 const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* layout.c: the phases before any text; each returns false on failure
 * (g->err says why); the histogram's size always fits. */
bool sci_gpu_check_size(sc_gpu_gen *g);
bool sci_gpu_place_threads(sc_gpu_gen *g);
bool sci_gpu_place_locations(sc_gpu_gen *g);
bool sci_gpu_place_barriers(sc_gpu_gen *g);
bool sci_gpu_observe(sc_gpu_gen *g);
/* The group of barrier instruction `in` of test thread `ti`, and the
 * thread count PTX's barrier takes for it: its quorum (the third operand)
 * or its group's size, in whole warps. */
const sc_gpu_bargroup *sci_gpu_barrier_of(const sc_gpu_gen *g, int ti,
                                         const sc_instr *in, int *count);
void sci_gpu_size_histogram(sc_gpu_gen *g);

/* ptx.c: the asm block of test thread `ti` as a C string literal's
 * contents (lines end in "\\n\\t"); its output registers (observed or
 * loaded) in outreg[0..*nout), the locations it takes as inputs in
 * locop[0..*nin), its access classes in `classes`. */
const char *sci_gpu_thread_asm(sc_gpu_gen *g, int ti, int *outreg, int *nout,
                              int *locop, int *nin, char *classes);
/* The PTX type of a register as declared in the asm block. */
sc_type sci_gpu_reg_type(const sc_register *r);
bool sci_gpu_type_is64(sc_type ty);

#endif
