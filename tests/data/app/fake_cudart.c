/* fake_cudart.c: a stand-in for the CUDA runtime (libcudart.so.13) for
 * tests/sh/gpu_app.sh: enough of it for the interposer that `gpu app`
 * builds (harness/app_interpose.cu) and for fake_app.c to run without a
 * GPU.  Every launch and seed copy is logged, a line each, to
 * $FAKE_CUDA_LOG, so that the test can check what the interposer did
 * around each of the program's launches; the device is an H100's shape
 * (132 SMs of 2048 threads, 50 MB of L2). */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { unsigned x, y, z; } dim3;
typedef int cudaError_t;

/* the interposer's stress kernel's argument (app_interpose.cu) */
typedef struct {
  void *scratch;
  unsigned long long words;
  void *stop;
  unsigned gen;
  int mode;
  unsigned seq, seq_len, patch, regions, spread;
  unsigned long long seed;
} stress_args;

typedef struct entry {
  const void *host;
  const char *name;
} entry;
static entry funcs[64], vars[64];
static int nfuncs, nvars;

static void logf_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void logf_(const char *fmt, ...) {
  const char *path = getenv("FAKE_CUDA_LOG");
  FILE *f = path ? fopen(path, "a") : NULL;
  if (!f)
    return;
  va_list ap;
  va_start(ap, fmt);
  vfprintf(f, fmt, ap);
  va_end(ap);
  fputc('\n', f);
  fclose(f);
}

static const char *name_of(const void *host, int n, const entry *table) {
  for (int i = 0; i < n; i++)
    if (table[i].host == host)
      return table[i].name;
  return "?";
}

void **__cudaRegisterFatBinary(void *fat) { (void)fat; static void *h; return &h; }
void __cudaRegisterFatBinaryEnd(void **h) { (void)h; }
void __cudaUnregisterFatBinary(void **h) { (void)h; }
void __cudaRegisterFunction(void **h, const char *host, char *dev, const char *name,
                            int limit, void *tid, void *bid, void *bdim, void *gdim,
                            int *wsize) {
  (void)h, (void)dev, (void)limit, (void)tid, (void)bid, (void)bdim, (void)gdim, (void)wsize;
  if (nfuncs < 64)
    funcs[nfuncs].host = host, funcs[nfuncs++].name = name;
}
void __cudaRegisterVar(void **h, char *host, char *dev, const char *name, int ext,
                       size_t size, int constant, int global) {
  (void)h, (void)dev, (void)ext, (void)size, (void)constant, (void)global;
  if (nvars < 64)
    vars[nvars].host = host, vars[nvars++].name = name;
}
cudaError_t __cudaGetKernel(void **k, const void *f) { *k = (void *)f; return 0; }
cudaError_t __cudaPopCallConfiguration(dim3 *g, dim3 *b, size_t *s, void **st) {
  (void)g, (void)b, (void)s, (void)st;
  return 0;
}

cudaError_t cudaGetDevice(int *d) { *d = 0; return 0; }
cudaError_t cudaDeviceGetAttribute(int *v, int attr, int dev) {
  (void)dev;
  *v = attr == 16 ? 132 : attr == 39 ? 2048 : attr == 38 ? 50 << 20 : 0;
  return 0;
}
cudaError_t cudaDeviceGetPCIBusId(char *bus, int len, int dev) {
  (void)dev;
  snprintf(bus, (size_t)len, "0000:00:00.0");
  return 0;
}
cudaError_t cudaMalloc(void **p, size_t n) { *p = calloc(1, n); return *p ? 0 : 2; }
cudaError_t cudaMemset(void *p, int v, size_t n) { memset(p, v, n); return 0; }
cudaError_t cudaStreamCreateWithFlags(void **s, unsigned flags) {
  logf_("stream created, flags %u", flags);
  const char *loading = getenv("CUDA_MODULE_LOADING");
  logf_("module loading %s", loading ? loading : "unset");
  *s = (void *)0x5151;
  return 0;
}
cudaError_t cudaDeviceSynchronize(void) { return 0; }
cudaError_t cudaGetLastError(void) { return 0; }
cudaError_t cudaEventCreate(void **e) { *e = malloc(1); return 0; }
cudaError_t cudaEventDestroy(void *e) { free(e); return 0; }
cudaError_t cudaEventRecord(void *e, void *s) { (void)e; logf_("event on %p", s); return 0; }
cudaError_t cudaEventSynchronize(void *e) { (void)e; return 0; }
cudaError_t cudaEventElapsedTime(float *ms, void *a, void *b) {
  (void)a, (void)b;
  *ms = 0.25f;
  return 0;
}
cudaError_t cudaMemcpyToSymbolAsync(const void *sym, const void *src, size_t n,
                                    size_t off, int kind, void *s) {
  (void)off, (void)kind;
  unsigned long long v = 0;
  memcpy(&v, src, n < sizeof v ? n : sizeof v);
  logf_("seed %s %s on %p", name_of(sym, nvars, vars), v ? "nonzero" : "zero", s);
  return 0;
}

/* The interposer loads its own kernels before its first stress grid. */
cudaError_t cudaFuncGetAttributes(void *attr, const void *f) {
  (void)attr;
  logf_("attributes of %s", name_of(f, nfuncs, funcs));
  return 0;
}

/* Where this runtime's cudaLaunchKernel goes on to, through the PLT as a
 * real runtime's exported entry points may: the preloaded interposer
 * wraps this name too, and must pass a launch it makes itself straight
 * through (once, it re-entered its own lock and hung). */
cudaError_t cudaLaunchKernel_ptsz(const void *f, dim3 g, dim3 b, void **args,
                                  size_t shmem, void *s) {
  (void)f, (void)g, (void)b, (void)args, (void)shmem, (void)s;
  return 0;
}

/* The interposer's own launches: the stress grid and the stop kernel. */
cudaError_t cudaLaunchKernel(const void *f, dim3 g, dim3 b, void **args,
                             size_t shmem, void *s) {
  if (cudaLaunchKernel_ptsz(f, g, b, args, shmem, s))
    return 1;
  const char *name = name_of(f, nfuncs, funcs);
  if (strstr(name, "sc_app_stress")) {
    const stress_args *a = args[0];
    logf_("stress grid %u block %u on %p gen %u mode %d", g.x, b.x, s, a->gen, a->mode);
  } else if (strstr(name, "sc_app_stop")) {
    logf_("stop grid %u on %p gen %u", g.x, s, *(unsigned *)args[1]);
  } else {
    logf_("launch %s grid %u on %p", name, g.x, s);
  }
  return 0;
}

/* The program's launches (CUDA 13's <<<>>>). */
cudaError_t __cudaLaunchKernel(void *k, dim3 g, dim3 b, void **args,
                               size_t shmem, void *s) {
  (void)k, (void)b, (void)args, (void)shmem;
  logf_("app grid %u on %p", g.x * g.y * g.z, s);
  return 0;
}
