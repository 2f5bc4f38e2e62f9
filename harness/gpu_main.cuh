// gpu_main.cuh: kernels and host driver of a generated test program.
// What the program must define before it includes this is gpu_program.h's
// list, checked there.
#include "gpu_program.h"

__global__ void test_kernel(Params p, const int *__restrict__ role,
                            const int *__restrict__ locidx,
                            const int *__restrict__ shslot, int *mem,
                            long long *res, int *bar, int *gfinal,
                            int *scratch, unsigned *sinkout) {
  extern __shared__ int smem[];
  unsigned sink = 0;
  if ((int)blockIdx.x >= p.test_blocks) {
    // memory stress: this thread's one location, the access sequence
    // repeated on it
    int id = (blockIdx.x - p.test_blocks) * blockDim.x + threadIdx.x;
    volatile int *a = scratch + p.stress_loc[id % p.stress_spread];
    for (int i = 0; i < p.stress_iters; i++) {
      int op = p.stress_seq[i % p.stress_len];
      if (op) *a = i; else sink += *a;
    }
    if (sink == 0x9e3779b9u) *sinkout = sink;
    return;
  }
  int gt = blockIdx.x * blockDim.x + threadIdx.x;
  int r = role[gt];
  if (NSHLOC) {
    for (int i = threadIdx.x; i < p.sh_words; i += blockDim.x) smem[i] = 0;
    __syncthreads();
    if (r >= 0) {
      int inst = r >> SC_GPU_THREAD_BITS;
      for (int l = 0; l < NLOC; l++)
        if (LOC_SHARED[l] && LOC_OWNER[l] == (r & (SC_GPU_MAX_THREADS - 1)))
          smem[shslot[inst] * NLOC + l] = LOC_INIT[l];
    }
    __syncthreads();
  }
  // a barrier test: the threads of no test thread leave at once, so that
  // the test's barriers count the test's warps alone (a warp arrives as a
  // whole; its exited lanes are not waited for)
  if (BARRIERS && r < 0) return;
  if (r >= 0) {
    int inst = r >> SC_GPU_THREAD_BITS, t = r & (SC_GPU_MAX_THREADS - 1);
    int *addr[NLOC > 0 ? NLOC : 1];
    for (int l = 0; l < NLOC; l++)
      addr[l] = LOC_SHARED[l] ? &smem[shslot[inst] * NLOC + l]
                              : &mem[locidx[(long long)inst * NLOC + l]];
    if (p.warmup) {
      // stores to this thread's local memory: the first version of this
      // harness did the like by accident (its parameter block spilled to
      // the stack) and saw three times as many weak outcomes
      volatile int local[32];
      for (int i = 0; i < p.warmup; i++) local[i & 31] = i;
      sink += local[gt & 31];
    }
    if (p.sync_spin) {
      atomicAdd(&bar[inst], 1);
      for (int s = 0; s < p.sync_spin; s++)
        if (*(volatile int *)&bar[inst] >= NT) break;
    }
    run_thread(t, inst, res, &sink, addr);
  } else if (p.bank) {
    // idle lanes of a test warp: same-bank shared accesses (stride 32 words)
    int lane = threadIdx.x & 31;
    volatile int *b = smem + NSHLOC * 0 + (p.sh_words - 1024) +
                      ((lane * 32) & 1023);
    for (int i = 0; i < 8; i++) { *b = i; sink += *b; }
  }
  if (NSHLOC) {
    __syncthreads();
    if (r >= 0) {
      int inst = r >> SC_GPU_THREAD_BITS;
      for (int l = 0; l < NLOC; l++)
        if (LOC_SHARED[l] && LOC_OWNER[l] == (r & (SC_GPU_MAX_THREADS - 1)))
          gfinal[(long long)inst * NLOC + l] = smem[shslot[inst] * NLOC + l];
    }
  }
  if (sink == 0x9e3779b9u) *sinkout = sink;
}

// Every instance's outcome is counted exactly: in a shared-memory bucket
// when each value lies in [0, RADIX) (the common case, cheap), else in the
// outcome table (outcome_table.h), lanes of a warp with the same outcome
// counted by one insert.
// (Out of line, the outcome by value: the common path keeps its values in
// registers.)
struct Outcome { long long v[NOBS > 0 ? NOBS : 1]; };
__device__ __noinline__ void count_in_table(ot_table tab, Outcome o) {
  const long long *v = o.v;
  unsigned long long h = ot_hash(v, NOBS);
  unsigned active = __activemask();
  unsigned group = __match_any_sync(active, h);
  int leader = __ffs(group) - 1;
  bool same = true;
  for (int j = 0; j < NOBS; j++)
    same = same && __shfl_sync(group, v[j], leader) == v[j];
  unsigned agree = __ballot_sync(group, same);
  if ((int)(threadIdx.x & 31) == leader)
    ot_insert(tab, v, (unsigned long long)__popc(agree));
  else if (!same)
    ot_insert(tab, v, 1);
}

__global__ void collect_kernel(Params p, const int *__restrict__ locidx,
                               int *mem, const long long *res, int *bar,
                               const int *gfinal,
                               unsigned long long *hist, ot_table tab) {
  __shared__ unsigned sh[NBUCKETS];
  for (int i = threadIdx.x; i < NBUCKETS; i += blockDim.x) sh[i] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.ninst) {
    long long v[NOBS > 0 ? NOBS : 1];
    for (int j = 0; j < NOBS; j++) {
      if (OBS_KIND[j] == 0) v[j] = res[(long long)i * NRES + OBS_B[j]];
      else {
        int l = OBS_A[j];
        v[j] = LOC_SHARED[l] ? gfinal[(long long)i * NLOC + l]
                             : mem[locidx[(long long)i * NLOC + l]];
      }
    }
    for (int l = 0; l < NLOC; l++)
      if (!LOC_SHARED[l]) mem[locidx[(long long)i * NLOC + l]] = LOC_INIT[l];
    bar[i] = 0;
    long key = 0, m = 1;
    bool fits = true;
    for (int j = 0; j < NOBS; j++) {
      if (v[j] < 0 || v[j] >= RADIX) fits = false;
      key += v[j] * m;
      m *= RADIX;
    }
    if (fits) atomicAdd(&sh[key], 1u);
    else {
      Outcome o;
      for (int j = 0; j < NOBS; j++) o.v[j] = v[j];
      count_in_table(tab, o);
    }
  }
  __syncthreads();
  for (int b = threadIdx.x; b < NBUCKETS; b += blockDim.x)
    if (sh[b]) atomicAdd(&hist[b], (unsigned long long)sh[b]);
}

// ---- host ----------------------------------------------------------------

static uint64_t rng_state;
static uint64_t rnd() {  // splitmix64
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
static void shuffle(std::vector<int> &v) {
  sc_shuffle_ints(v.data(), (int)v.size(), rnd);
}

static long long opt(int argc, char **argv, const char *name, long long dflt) {
  for (int i = 1; i + 1 < argc; i++)
    if (!strcmp(argv[i], name)) return atoll(argv[i + 1]);
  return dflt;
}
static const char *sopt(int argc, char **argv, const char *name,
                        const char *dflt) {
  for (int i = 1; i + 1 < argc; i++)
    if (!strcmp(argv[i], name)) return argv[i + 1];
  return dflt;
}

struct Row { long long v[NOBS > 0 ? NOBS : 1]; unsigned long long n; };

// ---- the outcome table on the device ---------------------------------------

static const int OT_W = NOBS > 0 ? NOBS : 1;

// A table of `cap` slots (a power of two) on the device, and its mirror in
// page-locked host memory.
struct Table {
  ot_table dev;
  unsigned long long *h_tag, *h_count;
  long long *h_key;
};

static Table table_new(unsigned cap, unsigned *d_used,
                       unsigned long long *d_lost) {
  Table t;
  t.dev.cap = cap;
  t.dev.width = OT_W;
  t.dev.used = d_used;
  t.dev.lost = d_lost;
  CK(cudaMalloc(&t.dev.tag, sizeof(unsigned long long) * cap));
  CK(cudaMalloc(&t.dev.ready, sizeof(unsigned) * cap));
  CK(cudaMalloc(&t.dev.key, sizeof(long long) * (size_t)cap * OT_W));
  CK(cudaMalloc(&t.dev.count, sizeof(unsigned long long) * cap));
  CK(cudaHostAlloc(&t.h_tag, sizeof(unsigned long long) * cap, cudaHostAllocDefault));
  CK(cudaHostAlloc(&t.h_count, sizeof(unsigned long long) * cap, cudaHostAllocDefault));
  CK(cudaHostAlloc(&t.h_key, sizeof(long long) * (size_t)cap * OT_W,
                   cudaHostAllocDefault));
  return t;
}

static void table_clear(Table &t) {
  CK(cudaMemset(t.dev.tag, 0, sizeof(unsigned long long) * t.dev.cap));
  CK(cudaMemset(t.dev.ready, 0, sizeof(unsigned) * t.dev.cap));
  CK(cudaMemset(t.dev.count, 0, sizeof(unsigned long long) * t.dev.cap));
  CK(cudaMemset(t.dev.used, 0, sizeof(unsigned)));
  CK(cudaMemset(t.dev.lost, 0, sizeof(unsigned long long)));
}

static void table_free(Table &t) {
  CK(cudaFree(t.dev.tag));
  CK(cudaFree(t.dev.ready));
  CK(cudaFree(t.dev.key));
  CK(cudaFree(t.dev.count));
  CK(cudaFreeHost(t.h_tag));
  CK(cudaFreeHost(t.h_count));
  CK(cudaFreeHost(t.h_key));
}

// The table's rows, read on stream `s`.
static void table_rows(Table &t, cudaStream_t s, std::vector<Row> &rows) {
  unsigned cap = t.dev.cap;
  CK(cudaMemcpyAsync(t.h_tag, t.dev.tag, sizeof(unsigned long long) * cap,
                     cudaMemcpyDeviceToHost, s));
  CK(cudaMemcpyAsync(t.h_count, t.dev.count, sizeof(unsigned long long) * cap,
                     cudaMemcpyDeviceToHost, s));
  CK(cudaMemcpyAsync(t.h_key, t.dev.key, sizeof(long long) * (size_t)cap * OT_W,
                     cudaMemcpyDeviceToHost, s));
  CK(cudaStreamSynchronize(s));
  for (unsigned i = 0; i < cap; i++) {
    if (!t.h_tag[i] || !t.h_count[i]) continue;
    Row r;
    for (int j = 0; j < NOBS; j++) r.v[j] = t.h_key[(size_t)i * OT_W + j];
    r.n = t.h_count[i];
    rows.push_back(r);
  }
}

static double now_s() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#if NALIAS
// Generic aliases (Dat3M's "y @ generic aliases x"): the global locations'
// memory is mapped twice, at d_mem and ALIAS_WORDS words further, so that
// an alias's slot names its location's memory at a second virtual address
// (as two virtual mappings of one page would in a program).  The driver's
// virtual memory calls are reached through the runtime, so that the
// program needs no -lcuda.
#include <cudaTypedefs.h>
template <typename F> static F driver_fn(const char *name) {
  void *f = NULL;
  cudaDriverEntryPointQueryResult q;
  CK(cudaGetDriverEntryPointByVersion(name, &f, 12000, cudaEnableDefault, &q));
  if (!f || q != cudaDriverEntryPointSuccess) {
    fprintf(stderr, "CUDA driver: no %s\n", name);
    exit(3);
  }
  return (F)f;
}
#define CKD(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { \
  fprintf(stderr, "CUDA driver error %d at %s:%d\n", (int)r_, __FILE__, \
          __LINE__); exit(3); } } while (0)
static CUmemAllocationProp alias_prop(int device) {
  CUmemAllocationProp pr;
  memset(&pr, 0, sizeof pr);
  pr.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  pr.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  pr.location.id = device;
  return pr;
}
// Bytes of one mapping holding `words` words (a multiple of the granularity).
static size_t alias_bytes(size_t words, int device) {
  CUmemAllocationProp pr = alias_prop(device);
  size_t gran = 0;
  CKD(driver_fn<PFN_cuMemGetAllocationGranularity_v10020>(
      "cuMemGetAllocationGranularity")(&gran, &pr,
                                       CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  return (words * sizeof(int) + gran - 1) / gran * gran;
}
// One allocation of `bytes`, mapped at va and at va + bytes.
static int *alias_map(size_t bytes, int device) {
  CUmemAllocationProp pr = alias_prop(device);
  CUmemGenericAllocationHandle h;
  CKD(driver_fn<PFN_cuMemCreate_v10020>("cuMemCreate")(&h, bytes, &pr, 0));
  CUdeviceptr va;
  CKD(driver_fn<PFN_cuMemAddressReserve_v10020>("cuMemAddressReserve")(
      &va, 2 * bytes, 0, 0, 0));
  PFN_cuMemMap_v10020 map = driver_fn<PFN_cuMemMap_v10020>("cuMemMap");
  CKD(map(va, bytes, 0, h, 0));
  CKD(map(va + bytes, bytes, 0, h, 0));
  CUmemAccessDesc a;
  memset(&a, 0, sizeof a);
  a.location = pr.location;
  a.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  CKD(driver_fn<PFN_cuMemSetAccess_v10020>("cuMemSetAccess")(va, 2 * bytes,
                                                             &a, 1));
  CKD(driver_fn<PFN_cuMemRelease_v10020>("cuMemRelease")(h));  // freed unmapped
  return (int *)va;
}
// Both mappings of alias_map's allocation, and its address range.
static void alias_unmap(int *mem, size_t bytes) {
  CUdeviceptr va = (CUdeviceptr)mem;
  CKD(driver_fn<PFN_cuMemUnmap_v10020>("cuMemUnmap")(va, 2 * bytes));
  CKD(driver_fn<PFN_cuMemAddressFree_v10020>("cuMemAddressFree")(va,
                                                                 2 * bytes));
}
#endif

// ---- the host driver ---------------------------------------------------------

// A run of the program: its parameters, the layout of the instances, the
// buffers on the device and the launches.  main's steps fill it in turn.
struct Run {
  double t_start;
  long long want;       // -n: instances wanted
  double launch_limit;  // -launch-timeout S: a launch not finished after S
                        // seconds is a hang, recorded in the log (0: wait
                        // for ever)
  int device;
  cudaDeviceProp prop;
  Params p;
  int sb_lo, sb_hi;     // stressing CTAs of a launch, drawn in sb_lo..sb_hi
  const char *seq;      // -stress-seq as given
  int shuffle_on, variants;
  long long seed;
  int oversub;          // -oversubscribe 1: each CTA of the test's scope
                        // tree in a range of CTAs of its own, the first
                        // filling the GPU (plan_layout)
  int resident;         // CTAs of test_kernel the GPU holds at once
  // the layout
  int ipw;              // instances per warp
  int gpb;              // warp groups per CTA
  int ipbg;             // instances per group of NC CTAs
  int nthr;             // threads of the test CTAs
  std::vector<std::vector<int>> roles, locs;  // `variants` of each
  std::vector<int> shslot;
  size_t memwords;
  size_t membytes;      // a generic alias: the bytes of one mapping
  long long alias_words;
  // the device
  int *d_role, *d_loc, *d_shslot, *d_mem, *d_bar, *d_gfinal, *d_scratch;
  long long *d_res;
  unsigned long long *d_hist, *d_lost;
  unsigned *d_used, *d_sink;
  size_t scratchwords, shbytes;
  Table tab;
  unsigned long long *h_hist;  // the buckets and `lost`, read back here
  unsigned long long *snap;    // two snapshots of the buckets and `used`
  // the launches
  long long launches;
  std::vector<int> vseq, sblocks, sloc;
  cudaStream_t stream;
  std::vector<cudaEvent_t> cps;  // a checkpoint every CP launches
  cudaEvent_t e0, e1;
  float ms;
  std::vector<Row> rows;  // the table's rows, when they are read
};

static const int SNAP = NBUCKETS + 1;  // words of one snapshot
static const long long CP = 16;        // launches between checkpoints
// Before recording checkpoint c the host waits for checkpoint c - AHEAD:
// the GPU keeps AHEAD * CP launches queued meanwhile.
static const long long AHEAD = 4;

// The command line: the parameters, each with its default.
static void read_options(Run &r, int argc, char **argv) {
  r.want = opt(argc, argv, "-n", 100000000LL);
  r.launch_limit = atof(sopt(argc, argv, "-launch-timeout", "1"));
  r.device = (int)opt(argc, argv, "-device", 0);
  CK(cudaSetDevice(r.device));
  CK(cudaGetDeviceProperties(&r.prop, r.device));
  Params &p = r.p;
  memset(&p, 0, sizeof p);
  p.tpb = (int)opt(argc, argv, "-tpb", 256);
  int sms = r.prop.multiProcessorCount;
  // a barrier test: one instance in each group of NC CTAs of BAR_WARPS
  // warps, as many CTAs as fit on the GPU at once (32 per SM, 64 warps)
  if (BARRIERS) p.tpb = BAR_WARPS * 32;
  int bar_warps = BAR_WARPS > 0 ? BAR_WARPS : 1;
  int bar_ctas_per_sm = 64 / bar_warps < 32 ? 64 / bar_warps : 32;
  p.test_blocks = (int)opt(argc, argv, "-blocks",
                           BARRIERS ? sms * bar_ctas_per_sm : sms * 4);
  // -stress-blocks N or LO-HI: 000 draws the number of stressing CTAs at
  // random for each run; here for each launch
  const char *sbs = sopt(argc, argv, "-stress-blocks", "0");
  r.sb_lo = atoi(sbs), r.sb_hi = r.sb_lo;
  if (strchr(sbs, '-')) r.sb_hi = atoi(strchr(sbs, '-') + 1);
  if (r.sb_lo < 0) r.sb_lo = 0;
  if (r.sb_hi < r.sb_lo) r.sb_hi = r.sb_lo;
  p.spacing = (int)opt(argc, argv, "-spacing", 32);
  p.sync_spin = (int)opt(argc, argv, "-sync-spin", 0);
  p.warmup = (int)opt(argc, argv, "-warmup", 0);
  p.bank = (int)opt(argc, argv, "-bank-conflicts", 0);
  p.stress_iters = (int)opt(argc, argv, "-stress-iters", 64);
  p.stress_patch = (int)opt(argc, argv, "-stress-patch", 32);
  p.stress_regions = (int)opt(argc, argv, "-stress-regions", 64);
  p.stress_spread = (int)opt(argc, argv, "-stress-spread", 2);
  r.seq = sopt(argc, argv, "-stress-seq", "st,ld");
  r.shuffle_on = (int)opt(argc, argv, "-shuffle", 1);
  r.variants = (int)opt(argc, argv, "-variants", 8);
  r.seed = opt(argc, argv, "-seed", 1);
  r.oversub = (int)opt(argc, argv, "-oversubscribe", 0);
  rng_state = (uint64_t)r.seed;
  for (const char *s = r.seq; *s && p.stress_len < 16; s++) {
    if (*s == 's') { p.stress_seq[p.stress_len++] = 1; s++; }
    else if (*s == 'l') { p.stress_seq[p.stress_len++] = 0; s++; }
    while (*s && *s != ',') s++;
    if (!*s) break;
  }
  if (p.stress_len == 0) { p.stress_len = 1; p.stress_seq[0] = 1; }
  if (p.stress_patch < 1) p.stress_patch = 1;
  if (p.stress_regions < 1) p.stress_regions = 1;
  if (p.stress_spread < 1) p.stress_spread = 1;
  if (p.stress_spread > 32) p.stress_spread = 32;
  if (p.stress_spread > p.stress_regions) p.stress_spread = p.stress_regions;
}

// test_kernel's CTAs may have `shbytes` of dynamic shared memory (past
// 48 KiB it must be asked for).
static void allow_shared(size_t shbytes) {
  if (shbytes > 48 * 1024)
    CK(cudaFuncSetAttribute(test_kernel,
                            cudaFuncAttributeMaxDynamicSharedMemorySize,
                            (int)shbytes));
}

// The CTAs of test_kernel that the GPU holds at once, with p.tpb threads
// and p.sh_words of shared memory each (the CUDA occupancy calculator's
// CTAs per SM, times the SMs).
static int resident_ctas(Run &r) {
  size_t shbytes = sizeof(int) * (size_t)r.p.sh_words;
  allow_shared(shbytes);
  int per_sm = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, test_kernel,
                                                   r.p.tpb, shbytes));
  return per_sm * r.prop.multiProcessorCount;
}

// How many instances a launch holds and where; false when a CTA cannot
// hold one.  (p.test_blocks holds -blocks until then.)  Oversubscribed,
// each of the NC CTAs of the scope tree has as many CTAs as the GPU holds
// at once (-blocks does not apply): make_roles puts the first CTA of every
// instance in CTAs 0..R-1, the second in R..2R-1, and so on
// (cta_order.h).  The GPU hands out CTAs in index order as room frees up
// (CUDA does not promise it; NVIDIA's GPUs are seen to do it), so an
// instance's second CTA starts only once some first CTA has ended: a
// thread of the first CTA that waits for one of a later CTA waits for
// ever (occupancy-bound execution).
static bool plan_layout(Run &r) {
  Params &p = r.p;
  r.ipw = BARRIERS ? 1 : 32 / NLMAX;
  r.gpb = BARRIERS ? 1 : (p.tpb / 32) / NWMAX;
  if (r.gpb < 1) return false;
  r.ipbg = r.gpb * r.ipw;
  p.sh_words = NSHLOC ? r.ipbg * NLOC : 0;
  if (p.bank) p.sh_words += 1024;
  int nbg = p.test_blocks / NC;
  if (r.oversub) nbg = r.resident = resident_ctas(r);
  if (nbg < 1) nbg = 1;
  p.test_blocks = nbg * NC;
  p.ninst = nbg * r.ipbg;
  r.nthr = p.test_blocks * p.tpb;
  r.shslot.resize(p.ninst);
  for (int i = 0; i < p.ninst; i++) r.shslot[i] = i % r.ipbg;
  int nglob = 0;  // global locations with memory of their own
  for (int l = 0; l < NLOC; l++) nglob += !LOC_SHARED[l] && LOC_ALIAS[l] < 0;
  long long nslots = (long long)p.ninst * (nglob ? nglob : 1);
  r.memwords = (size_t)nslots * p.spacing + 64;
#if NALIAS
  r.membytes = alias_bytes(r.memwords, r.device);
  r.alias_words = (long long)(r.membytes / sizeof(int));
#endif
  return true;
}

// Variant v's roles: which test thread (and instance) each thread of the
// test CTAs is, CTAs, warps and lanes shuffled.
static void make_roles(Run &r, int v) {
  const Params &p = r.p;
  std::vector<int> bperm(p.test_blocks), wperm(p.tpb / 32);
  std::vector<int> groups(p.test_blocks / NC);
  sc_cta_order(bperm.data(), groups.data(), p.test_blocks, NC, r.oversub,
               r.shuffle_on, rnd);
  std::vector<int> &role = r.roles[v];
  role.assign(r.nthr, -1);
  for (int b = 0; b < p.test_blocks; b++) {
    int g = b / NC, c = b % NC;
    for (int w = 0; w < p.tpb / 32; w++) wperm[w] = w;
    if (r.shuffle_on) shuffle(wperm);
    for (int wg = 0; wg < r.gpb; wg++)
      for (int t = 0; t < NT; t++) {
        if (T_CTA[t] != c) continue;
        int w = wg * NWMAX + T_WARP[t];
        for (int k = 0; k < r.ipw; k++) {
          int inst = g * r.ipbg + wg * r.ipw + k;
          int lane = T_LANE[t] * r.ipw + k;
          int phys = bperm[b] * p.tpb + wperm[w] * 32 + lane;
          role[phys] = (inst << SC_GPU_THREAD_BITS) | t;
        }
      }
    // lane randomisation: permute lanes of each warp as a whole
    if (r.shuffle_on)
      for (int w = 0; w < p.tpb / 32; w++) {
        int base = bperm[b] * p.tpb + w * 32;
        for (int k = 31; k > 0; k--)
          std::swap(role[base + k], role[base + (int)(rnd() % (k + 1))]);
      }
  }
}

// Variant v's location slots: each global location has its own region (so
// that a slot's initial value is the same in every variant); instances are
// shuffled in it; an alias is its location's slot in the second mapping.
static void make_slots(Run &r, int v) {
  const Params &p = r.p;
  std::vector<int> &li = r.locs[v];
  li.assign((size_t)p.ninst * NLOC, 0);
  std::vector<int> perm(p.ninst);
  int g = 0;
  for (int l = 0; l < NLOC; l++) {
    if (LOC_SHARED[l] || LOC_ALIAS[l] >= 0) continue;
    for (int i = 0; i < p.ninst; i++) perm[i] = i;
    if (r.shuffle_on) shuffle(perm);
    for (int i = 0; i < p.ninst; i++)
      li[(size_t)i * NLOC + l] =
          (int)(((long long)g * p.ninst + perm[i]) * p.spacing);
    g++;
  }
#if NALIAS
  for (int l = 0; l < NLOC; l++)
    if (LOC_ALIAS[l] >= 0)
      for (int i = 0; i < p.ninst; i++)
        li[(size_t)i * NLOC + l] =
            (int)(li[(size_t)i * NLOC + LOC_ALIAS[l]] + r.alias_words);
#endif
}

// The device's buffers, the variants and the initial values copied in.
static void make_buffers(Run &r) {
  const Params &p = r.p;
  int variants = r.variants;
  CK(cudaMalloc(&r.d_role, sizeof(int) * (size_t)r.nthr * variants));
  CK(cudaMalloc(&r.d_loc, sizeof(int) * (size_t)p.ninst * (NLOC ? NLOC : 1) * variants));
  CK(cudaMalloc(&r.d_shslot, sizeof(int) * (size_t)p.ninst));
#if NALIAS
  r.d_mem = alias_map(r.membytes, r.device);
#else
  CK(cudaMalloc(&r.d_mem, sizeof(int) * r.memwords));
#endif
  CK(cudaMalloc(&r.d_bar, sizeof(int) * (size_t)p.ninst));
  CK(cudaMalloc(&r.d_gfinal, sizeof(int) * (size_t)p.ninst * (NLOC ? NLOC : 1)));
  r.scratchwords = (size_t)p.stress_patch * p.stress_regions + 64;
  CK(cudaMalloc(&r.d_scratch, sizeof(int) * r.scratchwords));
  CK(cudaMalloc(&r.d_res, sizeof(long long) * (size_t)p.ninst * NRES));
  CK(cudaMalloc(&r.d_hist, sizeof(unsigned long long) * NBUCKETS));
  CK(cudaMalloc(&r.d_used, sizeof(unsigned)));
  CK(cudaMalloc(&r.d_lost, sizeof(unsigned long long)));
  CK(cudaMalloc(&r.d_sink, sizeof(unsigned)));
  for (int v = 0; v < variants; v++) {
    CK(cudaMemcpy(r.d_role + (size_t)v * r.nthr, r.roles[v].data(),
                  sizeof(int) * r.nthr, cudaMemcpyHostToDevice));
    if (NLOC)
      CK(cudaMemcpy(r.d_loc + (size_t)v * p.ninst * NLOC, r.locs[v].data(),
                    sizeof(int) * (size_t)p.ninst * NLOC, cudaMemcpyHostToDevice));
  }
  CK(cudaMemcpy(r.d_shslot, r.shslot.data(), sizeof(int) * p.ninst,
                cudaMemcpyHostToDevice));
  // initial values
  {
    std::vector<int> m(r.memwords, 0);
    for (int i = 0; i < p.ninst; i++)
      for (int l = 0; l < NLOC; l++)
        if (!LOC_SHARED[l] && LOC_ALIAS[l] < 0)
          for (int v = 0; v < variants; v++)
            m[r.locs[v][(size_t)i * NLOC + l]] = LOC_INIT[l];
    CK(cudaMemcpy(r.d_mem, m.data(), sizeof(int) * r.memwords,
                  cudaMemcpyHostToDevice));
  }
  CK(cudaMemset(r.d_bar, 0, sizeof(int) * p.ninst));
  CK(cudaMemset(r.d_scratch, 0, sizeof(int) * r.scratchwords));
  CK(cudaMemset(r.d_res, 0, sizeof(long long) * (size_t)p.ninst * NRES));
  CK(cudaMemset(r.d_hist, 0, sizeof(unsigned long long) * NBUCKETS));
  CK(cudaMemset(r.d_used, 0, sizeof(unsigned)));
  CK(cudaMemset(r.d_lost, 0, sizeof(unsigned long long)));
  // The outcome table starts small; a run whose table filled up (some
  // instance found no slot: `lost`) is thrown away and made again with a
  // table four times as large, so that a log never misses an instance.
  r.tab = table_new(1u << 16, r.d_used, r.d_lost);
  CK(cudaHostAlloc(&r.h_hist, sizeof(unsigned long long) * (NBUCKETS + 1),
                   cudaHostAllocDefault));
  // Snapshots of the buckets and of the table's slots in use, copied in
  // stream order before each checkpoint (two, alternating): what a hang
  // leaves readable, since nothing is read from the device once a kernel
  // spins for ever (the copy would wait behind it).
  CK(cudaHostAlloc(&r.snap, sizeof(unsigned long long) * SNAP * 2,
                   cudaHostAllocDefault));
  memset(r.snap, 0, sizeof(unsigned long long) * SNAP * 2);
  r.shbytes = sizeof(int) * (size_t)p.sh_words;
  allow_shared(r.shbytes);
}

// The launches: each one's variant, its stressing CTAs and which patches
// they stress (distinct), all fixed by the seed; the stream and events.
static void plan_launches(Run &r) {
  const Params &p = r.p;
  r.launches = (r.want + p.ninst - 1) / p.ninst;
  if (r.launches < 1) r.launches = 1;
  r.vseq.resize(r.launches);
  for (long long k = 0; k < r.launches; k++)
    r.vseq[k] = (int)(rnd() % r.variants);
  r.sblocks.resize(r.launches);
  r.sloc.resize((size_t)r.launches * p.stress_spread);
  std::vector<int> patches(p.stress_regions);
  for (long long k = 0; k < r.launches; k++) {
    r.sblocks[k] = r.sb_lo + (int)(rnd() % (uint64_t)(r.sb_hi - r.sb_lo + 1));
    for (int i = 0; i < p.stress_regions; i++) patches[i] = i;
    for (int i = 0; i < p.stress_spread; i++) {
      int j = i + (int)(rnd() % (uint64_t)(p.stress_regions - i));
      std::swap(patches[i], patches[j]);
      r.sloc[(size_t)k * p.stress_spread + i] = patches[i] * p.stress_patch;
    }
  }
  CK(cudaStreamCreateWithFlags(&r.stream, cudaStreamNonBlocking));
  r.cps.resize((size_t)((r.launches + CP - 1) / CP));
  for (auto &e : r.cps) CK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  CK(cudaEventCreate(&r.e0));
  CK(cudaEventCreate(&r.e1));
  r.ms = 0;
}

// The log, from the buckets in h_hist and the table's rows: the counts of
// the launches that finished (after a hang, whole launches: total / ninst).
// The instances without a slot in the table.
static unsigned long long print_log(Run &r, bool hung) {
  const Params &p = r.p;
  unsigned long long *h_hist = r.h_hist;
  std::vector<Row> &rows = r.rows;
  unsigned long long lost = hung ? 0 : h_hist[NBUCKETS];
  for (long b = 0; b < NBUCKETS; b++) {
    if (!h_hist[b]) continue;
    Row row;
    long k = b;
    for (int j = 0; j < NOBS; j++) { row.v[j] = k % RADIX; k /= RADIX; }
    row.n = h_hist[b];
    rows.push_back(row);
  }
  std::sort(rows.begin(), rows.end(), [](const Row &a, const Row &b) {
    for (int j = 0; j < NOBS; j++)
      if (a.v[j] != b.v[j]) return a.v[j] < b.v[j];
    return false;
  });
  unsigned long long pos = 0, neg = 0, total = 0;
  printf("Test %s %s\n", TEST_NAME,
         QUANT == 0 ? "Allowed" : QUANT == 1 ? "Forbidden" : "Required");
  printf("Histogram (%d states)\n", (int)rows.size());
  for (auto &row : rows) {
    bool c = cond_holds(row.v);
    if (c) pos += row.n; else neg += row.n;
    total += row.n;
    printf("%-10llu%s>", row.n, c ? "*" : ":");
    for (int j = 0; j < NOBS; j++) printf("%s=%lld; ", OBS_NAME[j], row.v[j]);
    printf("\n");
  }
  bool validated = QUANT == 0 ? pos > 0 : QUANT == 1 ? pos == 0 : neg == 0;
  bool ok = QUANT == 0 ? pos > 0 : QUANT == 1 ? pos == 0 : neg == 0;
  printf("%s\n\nWitnesses\n", ok ? "Ok" : "No");
  printf("Positive: %llu, Negative: %llu\n", pos, neg);
  printf("Condition %s is %svalidated\n", CONDITION, validated ? "" : "NOT ");
  printf("Observation %s %s %llu %llu\n", TEST_NAME,
         pos == 0 ? "Never" : neg == 0 ? "Always" : "Sometimes", pos, neg);
  printf("Time %s %.2f\n", TEST_NAME, r.ms / 1000.0);
  // A launch that did not finish within the limit: the hardware's answer
  // to a test whose threads may spin forever.  One line, after Time, that
  // litmus7's readers skip: Hangs NAME LAUNCHES INSTANCES SECONDS.
  if (hung)
    printf("Hangs %s 1 %d %g\n", TEST_NAME, p.ninst, r.launch_limit);
  printf("\n  -- device info --\nName:                           %s\n", r.prop.name);
  printf("Major revision number:          %d\nMinor revision number:          %d\n",
         r.prop.major, r.prop.minor);
  printf("Number of multiprocessors:      %d\n", r.prop.multiProcessorCount);
  long long finished = hung ? (long long)(total / p.ninst) : r.launches;
  printf("\nParameters: instances %llu in %lld launches of %d; tpb %d; "
         "test CTAs %d; stress CTAs %d-%d; stress-seq %s; stress-iters %d; "
         "stress-patch %d; stress-regions %d; stress-spread %d; spacing %d; "
         "sync-spin %d; warmup %d; bank-conflicts %d; shuffle %d; "
         "variants %d; seed %lld",
         total, finished, p.ninst, p.tpb, p.test_blocks, r.sb_lo, r.sb_hi,
         r.seq, p.stress_iters, p.stress_patch, p.stress_regions,
         p.stress_spread, p.spacing, p.sync_spin, p.warmup, p.bank,
         r.shuffle_on, r.variants, r.seed);
  if (r.oversub)
    printf("; oversubscribe 1 (%d CTAs resident at once)", r.resident);
  printf("\n");
  printf("Rate: %.4g instances/s, %.4g weak (condition) per instance\n",
         r.ms > 0 ? total / (r.ms / 1000.0) : 0.0,
         total ? (double)pos / total : 0.0);
  unsigned long long ran = (unsigned long long)finished * p.ninst;
  if (lost || total != ran)
    printf("Warning: %llu instances ran, %llu counted, %llu without a slot\n",
           ran, total, lost);
  fflush(stdout);
  return lost;
}

// The log after checkpoint `c` did not come: the launches of the last
// checkpoint that did, from its snapshot; when some of their outcomes are
// in the table (which is not snapshotted), no histogram.  The hung kernel
// ends with the process's context.
static void report_hang(Run &r, long long c) {
  long long last = c - 1;
  while (last >= 0 && cudaEventQuery(r.cps[last]) != cudaSuccess) last--;
  const unsigned long long *sn = last >= 0 ? r.snap + (last % 2) * SNAP : NULL;
  if (sn && sn[NBUCKETS]) {
    fprintf(stderr, "a launch hung after %lld launches, some of whose "
                    "outcomes are not readable now: no histogram\n",
            (last + 1) * CP);
    _exit(3);
  }
  for (long b = 0; b < NBUCKETS; b++) r.h_hist[b] = sn ? sn[b] : 0;
  r.ms = (float)((now_s() - r.t_start) * 1000.0);
  print_log(r, true);
  _exit(4);
}

// Wait for checkpoint c, polling, so that the host never blocks inside the
// driver: a checkpoint that does not come within the launch limit is a
// hang.
static void wait_checkpoint(Run &r, long long c) {
  double since = now_s();
  for (;;) {
    cudaError_t e = cudaEventQuery(r.cps[c]);
    if (e == cudaSuccess) return;
    if (e != cudaErrorNotReady) CK(e);
    if (r.launch_limit > 0 && now_s() - since > r.launch_limit) {
      r.ms = (float)((now_s() - r.t_start) * 1000.0);
      report_hang(r, c);
    }
    usleep(20);
  }
}

// One try: every launch, a checkpoint (snapshots, then an event) every CP
// launches.  The instances without a slot in the table.
static unsigned long long run_launches(Run &r) {
  Params &p = r.p;
  CK(cudaMemset(r.d_hist, 0, sizeof(unsigned long long) * NBUCKETS));
  table_clear(r.tab);
  CK(cudaDeviceSynchronize());
  CK(cudaEventRecord(r.e0, r.stream));
  int cblocks = (p.ninst + 255) / 256;
  for (long long k = 0; k < r.launches; k++) {
    int v = r.vseq[k];
    p.stress_blocks = r.sblocks[k];
    for (int i = 0; i < p.stress_spread; i++)
      p.stress_loc[i] = r.sloc[(size_t)k * p.stress_spread + i];
    test_kernel<<<p.test_blocks + p.stress_blocks, p.tpb, r.shbytes, r.stream>>>(
        p, r.d_role + (size_t)v * r.nthr, r.d_loc + (size_t)v * p.ninst * NLOC,
        r.d_shslot, r.d_mem, r.d_res, r.d_bar, r.d_gfinal, r.d_scratch,
        r.d_sink);
    collect_kernel<<<cblocks, 256, 0, r.stream>>>(
        p, r.d_loc + (size_t)v * p.ninst * NLOC, r.d_mem, r.d_res, r.d_bar,
        r.d_gfinal, r.d_hist, r.tab.dev);
    if ((k + 1) % CP == 0 || k + 1 == r.launches) {
      long long c = k / CP;
      if (c >= AHEAD) wait_checkpoint(r, c - AHEAD);
      unsigned long long *sn = r.snap + (c % 2) * SNAP;
      CK(cudaMemcpyAsync(sn, r.d_hist, sizeof(unsigned long long) * NBUCKETS,
                         cudaMemcpyDeviceToHost, r.stream));
      CK(cudaMemcpyAsync(sn + NBUCKETS, r.d_used, sizeof(unsigned),
                         cudaMemcpyDeviceToHost, r.stream));
      CK(cudaEventRecord(r.cps[c], r.stream));
    }
  }
  for (long long c = (r.launches - 1) / CP - AHEAD + 1;
       c <= (r.launches - 1) / CP; c++)
    if (c >= 0) wait_checkpoint(r, c);
  CK(cudaEventRecord(r.e1, r.stream));
  CK(cudaEventSynchronize(r.e1));
  CK(cudaGetLastError());
  CK(cudaEventElapsedTime(&r.ms, r.e0, r.e1));
  unsigned long long lost = 0;
  CK(cudaMemcpy(&lost, r.d_lost, sizeof lost, cudaMemcpyDeviceToHost));
  return lost;
}

// In a batch (gpu_batch_main.cu) the next test runs in this context: give
// back what this one took.
static void free_buffers(Run &r) {
  table_free(r.tab);
  for (auto &e : r.cps) CK(cudaEventDestroy(e));
  CK(cudaEventDestroy(r.e0));
  CK(cudaEventDestroy(r.e1));
  CK(cudaStreamDestroy(r.stream));
  CK(cudaFreeHost(r.h_hist));
  CK(cudaFreeHost(r.snap));
  void *bufs[] = {r.d_role, r.d_loc, r.d_shslot, r.d_bar, r.d_gfinal,
                  r.d_scratch, r.d_res, r.d_hist, r.d_used, r.d_lost,
                  r.d_sink};
  for (void *b : bufs) CK(cudaFree(b));
#if NALIAS
  alias_unmap(r.d_mem, r.membytes);
#else
  CK(cudaFree(r.d_mem));
#endif
}

int main(int argc, char **argv) {
  Run r = Run();
  r.t_start = now_s();
  read_options(r, argc, argv);
  if (!plan_layout(r)) { fprintf(stderr, "-tpb too small\n"); return 2; }
  r.roles.resize(r.variants);
  r.locs.resize(r.variants);
  for (int v = 0; v < r.variants; v++) {
    make_roles(r, v);
    make_slots(r, v);
  }
  make_buffers(r);
  plan_launches(r);
  for (int tries = 1;; tries++) {
    if (!run_launches(r)) break;
    if (r.tab.dev.cap >= (1u << 28)) {
      fprintf(stderr, "the outcome table of %u slots is full: no histogram\n",
              r.tab.dev.cap);
      return 5;
    }
    unsigned cap = r.tab.dev.cap * 4;
    fprintf(stderr, "try %d: the outcome table of %u slots filled up; "
                    "again with %u\n", tries, r.tab.dev.cap, cap);
    table_free(r.tab);
    r.tab = table_new(cap, r.d_used, r.d_lost);
  }
  CK(cudaMemcpy(r.h_hist, r.d_hist, sizeof(unsigned long long) * NBUCKETS,
                cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(r.h_hist + NBUCKETS, r.d_lost, sizeof(unsigned long long),
                cudaMemcpyDeviceToHost));
  table_rows(r.tab, r.stream, r.rows);
  unsigned long long lost = print_log(r, false);
  free_buffers(r);
  return lost ? 5 : 0;
}
