// gpu_program.h: the 29 names a program of `scopecat gpu` defines for the
// harness (gpu_main.cuh includes this first), each checked here, so that a
// generator and a template that drift apart fail at compile time with the
// name, not with an error deep in a kernel.  The library's generator
// (lib/gpu/program.c) writes them; the layout is worked out in
// lib/gpu/layout.c.  No CUDA here: a host C++ compiler can check a program
// against this list (tests/sh/gpu.sh does).
//
// Sizes (preprocessor constants):
//   TEST_NAME  the test's name, a string
//   NT         test threads of one instance
//   NC         CTAs of one instance
//   NWMAX      warps of the instance's largest CTA
//   NLMAX      lanes of the instance's fullest warp
//   NLOC       locations (NSHLOC of them in shared memory)
//   NOBS       observed values (registers and final memory values)
//   NRES       values each instance writes back (registers)
//   RADIX      observed values lie in [0, RADIX) for the bucket histogram
//   NBUCKETS   RADIX^NOBS buckets (0: the outcome table alone)
//   QUANT      1 when a condition quantifies (forall/~exists), else 0
//   NSHLOC     locations in shared memory
//   BARRIERS   hardware barriers the test uses (0: the packed layout)
//   BAR_WARPS  warps of each instance's CTA in a barrier test
//   NALIAS     generic aliases (LOC_ALIAS entries that are not -1)
// Tables, one entry per test thread or location (each a macro naming the
// host or the __constant__ copy, so that host and kernel read one list):
//   T_CTA T_WARP T_LANE                      thread -> CTA, warp, lane
//   LOC_SHARED LOC_INIT LOC_ALIAS LOC_OWNER  location -> shared?, initial
//                                            value, aliased location, owner
//   OBS_KIND OBS_A OBS_B                     observation -> register or
//                                            final value, and its operands
// Host and device code:
//   OBS_NAME   the observations' names, as litmus7 prints them
//   CONDITION  the test's condition, as litmus7 prints it
//   cond_holds(const long long *v)  whether the observed values satisfy it
//   run_thread(t, inst, res, sink, addr)  test thread t of instance inst:
//              its PTX as one asm block
#ifndef SC_GPU_PROGRAM_H
#define SC_GPU_PROGRAM_H

#ifndef TEST_NAME
#error "scopecat gpu program: TEST_NAME is not defined"
#endif
#ifndef NT
#error "scopecat gpu program: NT is not defined"
#endif
#ifndef NC
#error "scopecat gpu program: NC is not defined"
#endif
#ifndef NWMAX
#error "scopecat gpu program: NWMAX is not defined"
#endif
#ifndef NLMAX
#error "scopecat gpu program: NLMAX is not defined"
#endif
#ifndef NLOC
#error "scopecat gpu program: NLOC is not defined"
#endif
#ifndef NOBS
#error "scopecat gpu program: NOBS is not defined"
#endif
#ifndef NRES
#error "scopecat gpu program: NRES is not defined"
#endif
#ifndef RADIX
#error "scopecat gpu program: RADIX is not defined"
#endif
#ifndef NBUCKETS
#error "scopecat gpu program: NBUCKETS is not defined"
#endif
#ifndef QUANT
#error "scopecat gpu program: QUANT is not defined"
#endif
#ifndef NSHLOC
#error "scopecat gpu program: NSHLOC is not defined"
#endif
#ifndef BARRIERS
#error "scopecat gpu program: BARRIERS is not defined"
#endif
#ifndef BAR_WARPS
#error "scopecat gpu program: BAR_WARPS is not defined"
#endif
#ifndef NALIAS
#error "scopecat gpu program: NALIAS is not defined"
#endif
#ifndef T_CTA
#error "scopecat gpu program: T_CTA is not defined"
#endif
#ifndef T_WARP
#error "scopecat gpu program: T_WARP is not defined"
#endif
#ifndef T_LANE
#error "scopecat gpu program: T_LANE is not defined"
#endif
#ifndef LOC_SHARED
#error "scopecat gpu program: LOC_SHARED is not defined"
#endif
#ifndef LOC_INIT
#error "scopecat gpu program: LOC_INIT is not defined"
#endif
#ifndef LOC_ALIAS
#error "scopecat gpu program: LOC_ALIAS is not defined"
#endif
#ifndef LOC_OWNER
#error "scopecat gpu program: LOC_OWNER is not defined"
#endif
#ifndef OBS_KIND
#error "scopecat gpu program: OBS_KIND is not defined"
#endif
#ifndef OBS_A
#error "scopecat gpu program: OBS_A is not defined"
#endif
#ifndef OBS_B
#error "scopecat gpu program: OBS_B is not defined"
#endif

// The four that are no macros: their types, which the templates rely on
// (a missing one is an undeclared name here).
static_assert(sizeof OBS_NAME >= sizeof(const char *) * NOBS,
              "scopecat gpu program: OBS_NAME must name the NOBS observations");
static_assert(sizeof(CONDITION[0]) == sizeof(char),
              "scopecat gpu program: CONDITION must be the condition's text");
static_assert(sizeof(cond_holds((const long long *)0)) == sizeof(bool),
              "scopecat gpu program: cond_holds(const long long *) -> bool");
// run_thread is device code: nvcc's host pass may not name it
#if !defined(__CUDACC__) || defined(__CUDA_ARCH__)
static_assert(sizeof(run_thread(0, 0, (long long *)0, (unsigned *)0,
                                (int **)0), 0) == sizeof(int),
              "scopecat gpu program: run_thread(t, inst, res, sink, addr)");
#endif

#endif
