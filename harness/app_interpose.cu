/* app_interpose.cu: `scopecat gpu app`'s interposer, built by it with nvcc
 * as a shared library and preloaded (LD_PRELOAD) into the program under
 * test: it wraps the CUDA runtime's kernel launches (cudaLaunchKernel and
 * CUDA 13's __cudaLaunchKernel, which <<<>>> calls, with their per-thread
 * stream twins) and the driver's (cuLaunchKernel), and beside each kernel
 * starts stressing CTAs on a stream of its own (seed 000's environment);
 * it stops them when the kernel ends, and writes app.cuh's seed before each
 * launch when randomising; with SCOPECAT_APP_COST=1 it times each kernel
 * (CUDA events on its stream) and reads the GPU's energy counter (NVML,
 * loaded with dlopen).  Its parameters come in environment variables and
 * its bookkeeping is app_plan.h's (tested without a GPU); what it did goes
 * to SCOPECAT_APP_LOG at exit. */

/* Start and stop: each stressed launch gets a generation g; the stress
 * grid runs on the stress stream until the stop word reaches g; a one-
 * thread kernel queued on the program's stream right behind its kernel
 * writes g, so the stress ends when the kernel does, with no host thread
 * and no wait.  Generations only grow, so a stop that lands before its
 * stress grid starts still stops it.  The stress stream does not block,
 * so that the legacy default stream does not wait for it. */
#include <cuda.h>
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "app_plan.h"

/* A stress grid's bound, in case its kernel never ends (the run's
 * watchdog ends the program sooner). */
#define STRESS_MAX_NS (60ull * 1000000000ull)
enum { MAX_SEED_VARS = 256, MAX_TIMED = 4096 };

struct stress_args {
  unsigned *scratch;
  unsigned long long words;
  const volatile unsigned *stop;
  unsigned gen;
  int mode;
  unsigned seq, seq_len, patch, regions, spread;
  unsigned long long seed;
};

__device__ static unsigned long long now_ns(void) {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

/* The stressing CTAs: until the stop word reaches their generation,
 * stress: the access sequence at the first word of `spread` patches drawn
 *         per CTA (000's locations: a patch's first word);
 * random: a load or a store, at random, to a random word;
 * cache:  every word of an L2-sized scratchpad loaded and stored. */
__global__ void sc_app_stress(stress_args a) {
  unsigned long long start = now_ns(), iter = 0;
  unsigned long long cta_rng = a.seed ^ (0x9E37ull * (blockIdx.x + 1));
  unsigned long long rng = cta_rng ^ ((unsigned long long)threadIdx.x << 40);
  volatile unsigned *w = a.scratch;
  unsigned sink = 0, word = 0;
  if (a.mode == SC_APP_STRESS) {
    unsigned pick = threadIdx.x % a.spread, patch = 0;
    for (unsigned k = 0; k <= pick; k++)
      patch = (unsigned)(sc_app_rng(&cta_rng) % a.regions);
    word = patch * a.patch;
  }
  unsigned long long nthreads = (unsigned long long)gridDim.x * blockDim.x;
  unsigned long long me = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  for (;; iter++) {
    if ((iter & 15) == 0 &&
        (*a.stop >= a.gen || now_ns() - start > STRESS_MAX_NS))
      break;
    if (a.mode == SC_APP_STRESS) {
      for (unsigned k = 0; k < a.seq_len; k++)
        if (a.seq >> k & 1)
          w[word] = (unsigned)iter;
        else
          sink += w[word];
    } else if (a.mode == SC_APP_RANDOM) {
      unsigned long long r = sc_app_rng(&rng);
      if (r >> 63)
        w[r % a.words] = (unsigned)iter;
      else
        sink += w[r % a.words];
    } else {
      for (unsigned long long i = me; i < a.words; i += nthreads) {
        sink += w[i];
        w[i] = (unsigned)iter;
        if (*a.stop >= a.gen)
          break;
      }
    }
  }
  if (sink == 0xFFFFFFFFu) /* keeps the loads */
    w[0] = sink;
}

__global__ void sc_app_stop(unsigned *stop, unsigned gen) {
  *(volatile unsigned *)stop = gen;
}

/* ---- the interposer's state ---------------------------------------------- */

typedef cudaError_t (*rt_launch_fn)(const void *, dim3, dim3, void **, size_t,
                                    cudaStream_t);
typedef CUresult (*drv_launch_fn)(CUfunction, unsigned, unsigned, unsigned,
                                  unsigned, unsigned, unsigned, unsigned,
                                  CUstream, void **, void **);
typedef void (*register_var_fn)(void **, char *, char *, const char *, int,
                                size_t, int, int);

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static bool ready, device_ready, device_failed;
static sc_app_params params;
static sc_app_ledger ledger;
static unsigned long long rng_state;
static unsigned *scratch, *stop_word;
static unsigned long long scratch_words;
static unsigned resident;
static cudaStream_t stress_stream;
static const void *seed_vars[MAX_SEED_VARS];
static int nseed_vars;
static rt_launch_fn real_launch; /* the runtime's cudaLaunchKernel */

/* ---- cost: kernel time and energy ------------------------------------------- */

static cudaEvent_t timed[MAX_TIMED][2]; /* start and end of launches */
static int ntimed;
typedef int (*nvml_energy_fn)(void *, unsigned long long *);
static nvml_energy_fn nvml_energy;
static void *nvml_device;
static unsigned long long energy_start;

/* Add the time of the launches timed so far and free their events. */
static void sum_timed(void) {
  for (int i = 0; i < ntimed; i++) {
    float ms = 0;
    if (cudaEventSynchronize(timed[i][1]) == cudaSuccess &&
        cudaEventElapsedTime(&ms, timed[i][0], timed[i][1]) == cudaSuccess)
      ledger.kernel_us += (unsigned long long)(ms * 1000.0f + 0.5f);
    cudaEventDestroy(timed[i][0]);
    cudaEventDestroy(timed[i][1]);
  }
  ntimed = 0;
}

/* NVML's total-energy counter of the current device (mJ), through
 * dlopen: none where the library, the card or the driver lacks it. */
static void energy_open(void) {
  void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    return;
  typedef int (*init_fn)(void);
  typedef int (*by_bus_fn)(const char *, void **);
  init_fn init = (init_fn)dlsym(lib, "nvmlInit_v2");
  by_bus_fn by_bus = (by_bus_fn)dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
  nvml_energy_fn energy =
      (nvml_energy_fn)dlsym(lib, "nvmlDeviceGetTotalEnergyConsumption");
  char bus[64];
  int dev;
  if (!init || !by_bus || !energy || init() != 0 || cudaGetDevice(&dev) ||
      cudaDeviceGetPCIBusId(bus, sizeof bus, dev) ||
      by_bus(bus, &nvml_device) != 0 || energy(nvml_device, &energy_start) != 0)
    return;
  nvml_energy = energy;
}

/* Before the program's kernel on `stream`: its start event; the slot, -1
 * when not timing. */
static int cost_begin(cudaStream_t stream) {
  if (!params.cost)
    return -1;
  pthread_mutex_lock(&lock);
  if (ntimed == MAX_TIMED)
    sum_timed();
  int k = ntimed++;
  cudaEventCreate(&timed[k][0]);
  cudaEventCreate(&timed[k][1]);
  cudaEventRecord(timed[k][0], stream);
  pthread_mutex_unlock(&lock);
  return k;
}

static void cost_end(int k, cudaStream_t stream) {
  if (k >= 0)
    cudaEventRecord(timed[k][1], stream);
}

static const char *env(const char *name) { return getenv(name); }

static void write_ledger(void) {
  const char *path = getenv(SC_APP_ENV_LOG);
  FILE *f = path ? fopen(path, "a") : NULL;
  if (!f)
    return;
  pthread_mutex_lock(&lock);
  if (params.cost) {
    sum_timed();
    unsigned long long end;
    ledger.costed = 1;
    if (nvml_energy && nvml_energy(nvml_device, &end) == 0 && end >= energy_start) {
      ledger.energy_known = 1;
      ledger.energy_mj = end - energy_start;
    }
  }
  sc_app_ledger_write(&ledger, f);
  pthread_mutex_unlock(&lock);
  fclose(f);
}

/* Read the parameters once; a bad one ends the program (`gpu app` checks
 * them first, so this is someone running the library by hand). */
static void setup(void) {
  if (ready)
    return;
  const char *why, *bad = sc_app_params_read(&params, env, &why);
  if (bad) {
    fprintf(stderr, "scopecat app interposer: %s='%s': expected %s\n", bad,
            getenv(bad), why);
    exit(3);
  }
  rng_state = params.seed;
  real_launch = (rt_launch_fn)dlsym(RTLD_NEXT, "cudaLaunchKernel");
  atexit(write_ledger);
  ready = true;
}

/* The scratchpad, the stop word and the stress stream, on the current
 * device, at the first launch. */
static bool setup_device(void) {
  if (device_ready || device_failed)
    return device_ready;
  device_failed = true;
  int dev, sms, threads, l2;
  if (cudaGetDevice(&dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) ||
      cudaDeviceGetAttribute(&threads, cudaDevAttrMaxThreadsPerMultiProcessor,
                             dev) ||
      cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev))
    return false;
  resident = (unsigned)sms * ((unsigned)threads / params.tpb);
  scratch_words = params.mode == SC_APP_CACHE
                      ? (unsigned long long)l2 / sizeof(unsigned)
                      : (unsigned long long)params.patch * params.regions;
  if (cudaMalloc(&scratch, scratch_words * sizeof(unsigned)) ||
      cudaMalloc(&stop_word, sizeof(unsigned)) ||
      cudaMemset(scratch, 0, scratch_words * sizeof(unsigned)) ||
      cudaMemset(stop_word, 0, sizeof(unsigned)) ||
      cudaStreamCreateWithFlags(&stress_stream, cudaStreamNonBlocking) ||
      cudaDeviceSynchronize())
    return false;
  /* load our kernels now, while the device is idle: a module loaded
   * lazily at its first launch waits for the device, which the running
   * stress grid keeps busy until the stop kernel ends it (gpu app also
   * asks for eager loading, CUDA_MODULE_LOADING, for the program's) */
  cudaFuncAttributes fa;
  if (cudaFuncGetAttributes(&fa, (const void *)sc_app_stress) ||
      cudaFuncGetAttributes(&fa, (const void *)sc_app_stop))
    return false;
  if (params.cost)
    energy_open();
  device_failed = false;
  return device_ready = true;
}

/* Before a kernel of `ctas` CTAs on `stream`: app.cuh's seed, then the
 * stress grid.  Its generation (0: none). */
static unsigned before_launch(unsigned long long ctas, cudaStream_t stream) {
  pthread_mutex_lock(&lock);
  setup();
  unsigned gen = 0;
  if (real_launch && setup_device()) {
    unsigned long long seed = sc_app_launch_seed(&params, ledger.launches);
    for (int i = 0; i < nseed_vars && params.randomise; i++)
      cudaMemcpyToSymbolAsync(seed_vars[i], &seed, sizeof seed, 0,
                              cudaMemcpyHostToDevice, stream);
    unsigned n = sc_app_stress_ctas(&params, ctas, resident, &rng_state);
    gen = sc_app_launch_begin(&ledger, n);
    if (gen) {
      stress_args a = {scratch, scratch_words, stop_word, gen, params.mode,
                       params.seq, params.seq_len, params.patch,
                       params.regions, params.spread, sc_app_rng(&rng_state)};
      void *args[] = {&a};
      if (real_launch((const void *)sc_app_stress, dim3(n), dim3(params.tpb),
                      args, 0, stress_stream) != cudaSuccess)
        cudaGetLastError(); /* ours: not the program's to see */
    }
  } else {
    sc_app_launch_begin(&ledger, 0);
  }
  pthread_mutex_unlock(&lock);
  return gen;
}

/* After the kernel: its stress grid's stop, queued behind it. */
static void after_launch(unsigned gen, cudaStream_t stream) {
  if (!gen)
    return;
  pthread_mutex_lock(&lock);
  void *args[] = {&stop_word, &gen};
  if (real_launch((const void *)sc_app_stop, dim3(1), dim3(1), args, 0,
                  stream) != cudaSuccess)
    cudaGetLastError();
  sc_app_launch_stop(&ledger, gen);
  pthread_mutex_unlock(&lock);
}

static void *next(const char *name) { return dlsym(RTLD_NEXT, name); }

/* Set while a wrapper runs on this thread.  The runtime's cudaLaunchKernel
 * may call the exported __cudaLaunchKernel (CUDA 13 does), and the stress
 * and stop kernels are launched from inside a wrapper: without the guard
 * such a nested launch re-enters before_launch, whose lock this thread
 * already holds, and the program hangs at its first stressed kernel (seen
 * on the H100), or the program's kernel is stressed twice. */
static __thread bool inside_wrapper;
struct wrapper_scope {
  wrapper_scope() { inside_wrapper = true; }
  ~wrapper_scope() { inside_wrapper = false; }
};

static unsigned long long grid_ctas(dim3 g) {
  return (unsigned long long)g.x * g.y * g.z;
}

/* ---- the wrapped entry points ----------------------------------------------- */

#define RT_WRAPPER(NAME, HANDLE)                                               \
  extern "C" cudaError_t NAME(HANDLE f, dim3 g, dim3 b, void **args,           \
                              size_t shmem, cudaStream_t s) {                  \
    typedef cudaError_t (*fn)(HANDLE, dim3, dim3, void **, size_t,             \
                              cudaStream_t);                                   \
    static fn real;                                                            \
    if (!real)                                                                 \
      real = (fn)next(#NAME);                                                  \
    if (inside_wrapper) /* our own launch, or the runtime calling itself */    \
      return real(f, g, b, args, shmem, s);                                    \
    struct wrapper_scope scope_;                                               \
    unsigned gen = before_launch(grid_ctas(g), s);                             \
    int timed_slot = cost_begin(s);                                            \
    cudaError_t r = real(f, g, b, args, shmem, s);                             \
    cost_end(timed_slot, s);                                                   \
    after_launch(gen, s);                                                      \
    return r;                                                                  \
  }

RT_WRAPPER(cudaLaunchKernel, const void *)
RT_WRAPPER(cudaLaunchKernel_ptsz, const void *)
#if CUDART_VERSION >= 13000
RT_WRAPPER(__cudaLaunchKernel, cudaKernel_t)
RT_WRAPPER(__cudaLaunchKernel_ptsz, cudaKernel_t)
#endif

#define DRV_WRAPPER(NAME)                                                      \
  extern "C" CUresult NAME(CUfunction f, unsigned gx, unsigned gy,             \
                           unsigned gz, unsigned bx, unsigned by, unsigned bz, \
                           unsigned shmem, CUstream s, void **params_,         \
                           void **extra) {                                     \
    static drv_launch_fn real;                                                 \
    if (!real)                                                                 \
      real = (drv_launch_fn)next(#NAME);                                       \
    if (inside_wrapper)                                                        \
      return real(f, gx, gy, gz, bx, by, bz, shmem, s, params_, extra);        \
    struct wrapper_scope scope_;                                               \
    unsigned gen = before_launch((unsigned long long)gx * gy * gz,             \
                                 (cudaStream_t)s);                             \
    int timed_slot = cost_begin((cudaStream_t)s);                              \
    CUresult r = real(f, gx, gy, gz, bx, by, bz, shmem, s, params_, extra);    \
    cost_end(timed_slot, (cudaStream_t)s);                                     \
    after_launch(gen, (cudaStream_t)s);                                        \
    return r;                                                                  \
  }

DRV_WRAPPER(cuLaunchKernel)
DRV_WRAPPER(cuLaunchKernel_ptsz)

/* The program's device variables are registered at its start: note
 * app.cuh's seeds, to write them before each launch. */
extern "C" void __cudaRegisterVar(void **handle, char *host, char *device,
                                  const char *name, int ext, size_t size,
                                  int constant, int global) {
  static register_var_fn real;
  if (!real)
    real = (register_var_fn)next("__cudaRegisterVar");
  real(handle, host, device, name, ext, size, constant, global);
  pthread_mutex_lock(&lock);
  if (sc_app_is_seed_var(name) && size == sizeof(unsigned long long) &&
      nseed_vars < MAX_SEED_VARS)
    seed_vars[nseed_vars++] = host;
  pthread_mutex_unlock(&lock);
}
