// drf_main.cuh: kernels and host driver of the program `scopecat gpu drf`
// generates (after gpu_prelude.cuh and drf_prog.h): runs data-race-free
// random episodes, records loads and lock orders, checks them on the GPU.

// Output, one line each, read by scopecat (tools/gpu/drf.c):
//   device NAME SMS
//   round R SEED EPISODES LOADS STORES MISMATCHES TIMEDOUT ABANDONED DUPS RUN_MS CHECK_MS
//         set PROFILE EPISODES ACTIONS VARS LOCKS CTA_LOCKS LOADS SPACING (the round's setting)
//   mismatch R SEED EPISODE ACTION SEEN EXPECTED PLACE PLACE_OF_SEEN_WRITER
//   stuck R SEED EPISODE LOCK
//   dup R SEED LOCK PLACE EPISODE
//   cover INDEX COUNT
#include <cuda_runtime.h>

__device__ __forceinline__ unsigned long long drf_now() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// One asm statement per scope: the scope is drawn at run time.
#define DRF_ASM3(sc, pre, post, ...)                                       \
  do {                                                                     \
    if ((sc) == DRF_SCOPE_CTA) asm volatile(pre ".cta" post __VA_ARGS__);  \
    else if ((sc) == DRF_SCOPE_GPU) asm volatile(pre ".gpu" post __VA_ARGS__); \
    else asm volatile(pre ".sys" post __VA_ARGS__);                        \
  } while (0)

__device__ __forceinline__ unsigned drf_ticket(unsigned *a, int sc) {
  unsigned r;
  DRF_ASM3(sc, "atom.relaxed", ".global.add.u32 %0, [%1], 1;",
           : "=r"(r) : "l"(a) : "memory");
  return r;
}
__device__ __forceinline__ unsigned drf_ld_acq(unsigned *a, int sc) {
  unsigned r;
  DRF_ASM3(sc, "ld.acquire", ".global.u32 %0, [%1];",
           : "=r"(r) : "l"(a) : "memory");
  return r;
}
__device__ __forceinline__ unsigned drf_ld_rlx(unsigned *a, int sc) {
  unsigned r;
  DRF_ASM3(sc, "ld.relaxed", ".global.u32 %0, [%1];",
           : "=r"(r) : "l"(a) : "memory");
  return r;
}
__device__ __forceinline__ unsigned drf_cas(unsigned *a, unsigned x,
                                            unsigned y, int sc, int acq) {
  unsigned r;
  if (acq)
    DRF_ASM3(sc, "atom.acquire", ".global.cas.b32 %0, [%1], %2, %3;",
             : "=r"(r) : "l"(a), "r"(x), "r"(y) : "memory");
  else
    DRF_ASM3(sc, "atom.relaxed", ".global.cas.b32 %0, [%1], %2, %3;",
             : "=r"(r) : "l"(a), "r"(x), "r"(y) : "memory");
  return r;
}
__device__ __forceinline__ void drf_fence(int sc) {
  DRF_ASM3(sc, "fence.acq_rel", ";", : : : "memory");
}
__device__ __forceinline__ void drf_st(unsigned *a, unsigned v, int sc,
                                       int rel) {
  if (rel)
    DRF_ASM3(sc, "st.release", ".global.u32 [%0], %1;",
             : : "l"(a), "r"(v) : "memory");
  else
    DRF_ASM3(sc, "st.relaxed", ".global.u32 [%0], %1;",
             : : "l"(a), "r"(v) : "memory");
}

// The guarded accesses: weak, with a cache operator.
__device__ __forceinline__ unsigned drf_load(unsigned *a, int cop) {
  unsigned r;
  switch (cop) {
  case 0: asm volatile("ld.global.u32 %0, [%1];" : "=r"(r) : "l"(a) : "memory"); break;
  case 1: asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(r) : "l"(a) : "memory"); break;
  case 2: asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(r) : "l"(a) : "memory"); break;
  case 3: asm volatile("ld.global.cs.u32 %0, [%1];" : "=r"(r) : "l"(a) : "memory"); break;
  case 4: asm volatile("ld.global.lu.u32 %0, [%1];" : "=r"(r) : "l"(a) : "memory"); break;
  default: asm volatile("ld.global.cv.u32 %0, [%1];" : "=r"(r) : "l"(a) : "memory"); break;
  }
  return r;
}
__device__ __forceinline__ void drf_store(unsigned *a, unsigned v, int cop) {
  switch (cop) {
  case 0: asm volatile("st.global.u32 [%0], %1;" : : "l"(a), "r"(v) : "memory"); break;
  case 1: asm volatile("st.global.wb.u32 [%0], %1;" : : "l"(a), "r"(v) : "memory"); break;
  case 2: asm volatile("st.global.cg.u32 [%0], %1;" : : "l"(a), "r"(v) : "memory"); break;
  case 3: asm volatile("st.global.cs.u32 [%0], %1;" : : "l"(a), "r"(v) : "memory"); break;
  default: asm volatile("st.global.wt.u32 [%0], %1;" : : "l"(a), "r"(v) : "memory"); break;
  }
}

struct DrfDev {
  unsigned *mem;            // every slot, `spacing` words apart
  const long long *slotpos; // slot -> word
  int *tick;                // episode -> place in its lock's order
  uint32_t *rec;            // episode * actions + action -> value loaded
  int *count;               // lock -> episodes that take it
  long long *base;          // lock -> first index of its places in owner
  long long *owner;         // places, lock by lock -> episode
  int *stop;                // set when an acquire timed out
  unsigned long long spin_ns;
  unsigned long long *ctr;  // 0 timed out, 1 abandoned, 2 dups, 3 stuck kept, 4 dup kept
  long long *stuck;         // timed-out episodes (first 16)
  long long *dups;          // (lock, place, episode) of duplicated places
  drf_tally *tally;
  unsigned long long *cover;
  drf_mismatch *mm;
  int mmcap;
};

// 0: go on spinning; 1: timed out; 2: another acquire timed out (stop).
__device__ __forceinline__ int drf_wait(unsigned i, unsigned long long deadline,
                                        const DrfDev &d) {
  if (i < 4) return 0;
  __nanosleep(i < 64 ? 20 : 200);
  if ((i & 7) == 0) {
    if (*(volatile int *)d.stop) return 2;
    if (drf_now() > deadline) return 1;
  }
  return 0;
}

__global__ void drf_count(drf_params p, DrfDev d) {
  long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (e < drf_nepisodes(&p)) atomicAdd(&d.count[drf_episode_lock(&p, e)], 1);
}

// Exclusive prefix sum of count[] into base[], one block of 1024 threads.
__global__ void drf_scan(int nlocks, DrfDev d) {
  __shared__ long long part[1024];
  int t = threadIdx.x, chunk = (nlocks + 1023) / 1024;
  int lo = t * chunk, hi = min(nlocks, lo + chunk);
  long long s = 0;
  for (int i = lo; i < hi; i++) s += d.count[i];
  part[t] = s;
  __syncthreads();
  if (t == 0) {
    long long run = 0;
    for (int i = 0; i < 1024; i++) { long long x = part[i]; part[i] = run; run += x; }
  }
  __syncthreads();
  s = part[t];
  for (int i = lo; i < hi; i++) { d.base[i] = s; s += d.count[i]; }
}

__global__ void drf_run(drf_params p, DrfDev d) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= drf_threads(&p)) return;
  for (int k = 0; k < p.episodes; k++) {
    long long e = (long long)t * p.episodes + k;
    int lock = drf_episode_lock(&p, e), sc = drf_lock_scope(&p, lock);
    int kind = drf_lock_kind(&p, lock);
    int acq = drf_acq_style(&p, e), rel = drf_rel_style(&p, e);
    unsigned *w0 = d.mem + d.slotpos[2 * lock];
    unsigned *w1 = d.mem + d.slotpos[2 * lock + 1];
    unsigned long long deadline = drf_now() + d.spin_ns;
    int place = -1, why = 0;
    unsigned mine = 0;
    if (kind == DRF_LOCK_TICKET) {
      mine = drf_ticket(w0, sc);
      for (unsigned i = 0;; i++) {
        unsigned s = acq ? drf_ld_acq(w1, sc) : drf_ld_rlx(w1, sc);
        if (s == mine) { place = (int)mine; break; }
        if ((why = drf_wait(i, deadline, d))) break;
      }
    } else {
      for (unsigned i = 0;; i++) {
        unsigned x = drf_ld_rlx(w0, sc);
        if (!(x & 1) && drf_cas(w0, x, x + 1, sc, acq) == x) {
          place = (int)(x >> 1);
          mine = x;
          break;
        }
        if ((why = drf_wait(i, deadline, d))) break;
      }
    }
    if (place < 0) {
      d.tick[e] = why == 1 ? -1 : -2;
      if (why == 1) {
        atomicExch(d.stop, 1);
        unsigned long long n = atomicAdd(&d.ctr[0], 1ULL);
        if (n < 16) d.stuck[n] = e;
      } else {
        atomicAdd(&d.ctr[1], 1ULL);
      }
      continue;
    }
    if (!acq && p.inject != DRF_INJ_NO_ACQ_FENCE) drf_fence(sc);
    d.tick[e] = place;
    int moved = drf_moved_load(&p, e);
    for (int a = 0; a < p.actions; a++) {
      if (a == moved) continue;
      drf_action x = drf_episode_action(&p, e, a);
      unsigned *addr = d.mem + d.slotpos[drf_var_slot(&p, lock, x.var)];
      if (x.load) d.rec[e * p.actions + a] = drf_load(addr, x.cop);
      else drf_store(addr, drf_value(&p, e, a), x.cop);
    }
    unsigned *rw = kind == DRF_LOCK_TICKET ? w1 : w0;
    unsigned next = kind == DRF_LOCK_TICKET ? mine + 1 : mine + 2;
    if (!rel && p.inject != DRF_INJ_RELEASE_RELAXED) drf_fence(sc);
    drf_st(rw, next, sc, rel);
    if (moved >= 0) {
      drf_action x = drf_episode_action(&p, e, moved);
      unsigned *addr = d.mem + d.slotpos[drf_var_slot(&p, lock, x.var)];
      d.rec[e * p.actions + moved] = drf_load(addr, x.cop);
    }
  }
}

// Each acquired episode into its lock's place; two in one place (or a place
// past the lock's episodes) means the lock itself failed.
__global__ void drf_scatter(drf_params p, DrfDev d) {
  long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= drf_nepisodes(&p)) return;
  int place = d.tick[e];
  if (place < 0) return;
  int lock = drf_episode_lock(&p, e);
  unsigned long long old = ~0ULL;
  if (place < d.count[lock])
    old = atomicCAS((unsigned long long *)&d.owner[d.base[lock] + place], ~0ULL,
                    (unsigned long long)e);
  if (place >= d.count[lock] || old != ~0ULL) {
    unsigned long long n = atomicAdd(&d.ctr[2], 1ULL);
    if (n < 16) {
      d.dups[3 * n] = lock;
      d.dups[3 * n + 1] = place;
      d.dups[3 * n + 2] = e;
    }
  }
}

__global__ void drf_check(drf_params p, DrfDev d) {
  int lock = blockIdx.x * blockDim.x + threadIdx.x;
  if (lock >= drf_nlocks(&p)) return;
  unsigned long long cover[DRF_NCOVER];
  for (int i = 0; i < DRF_NCOVER; i++) cover[i] = 0;
  drf_check_lock(&p, lock, d.owner + d.base[lock], d.count[lock], d.rec,
                 d.tally, cover, d.mm, (unsigned long long)d.mmcap);
  for (int i = 0; i < DRF_NCOVER; i++)
    if (cover[i]) atomicAdd(&d.cover[i], cover[i]);
}

static long long drf_opt(int argc, char **argv, const char *name,
                         long long dflt) {
  for (int i = 1; i + 1 < argc; i++)
    if (!strcmp(argv[i], name)) return atoll(argv[i + 1]);
  return dflt;
}
static const char *drf_sopt(int argc, char **argv, const char *name) {
  for (int i = 1; i + 1 < argc; i++)
    if (!strcmp(argv[i], name)) return argv[i + 1];
  return NULL;
}

static const char *const drf_inject_names[] = {
    "none", "release-relaxed", "no-acquire-fence", "cta-shared",
    "load-outside"};

// ---- the host driver ---------------------------------------------------------

// What the command line asks for.
struct DrfOptions {
  int device;
  drf_params base;   // the base setting: each round draws its own from it
  uint64_t seed;     // of the first round
  unsigned fixed;    // DRF_K_* bits of the knobs no round draws
  long long rounds;  // rounds when no loads are wanted
  long long want;    // checked loads (0: `rounds` rounds)
  double seconds;    // of GPU time (0: no limit)
  int stop_first;    // stop at the first round with a finding
  const char *trace; // record the first round here (NULL: no)
  unsigned long long spin_ns;
};

// The buffers on the device, grown to the largest round's setting.
struct DrfBuffers {
  DrfDev d;
  long long cap_nep, cap_rec, cap_locks, cap_slots;
  size_t cap_words;
  long long perm_slots, perm_spacing;  // the setting slotpos was made for
  long long *slotpos;
};

// What one round found, read back from the device.
struct DrfRound {
  float run_ms, check_ms;
  drf_tally tl;
  unsigned long long ctr[8];
};

// The options; false when they make no program.
static bool drf_read_options(DrfOptions &o, int argc, char **argv,
                             const cudaDeviceProp &prop) {
  drf_params &p = o.base;
  memset(&p, 0, sizeof p);
  p.ctas = (int)drf_opt(argc, argv, "-ctas", 0);
  if (p.ctas <= 0) p.ctas = 2 * prop.multiProcessorCount;
  p.tpb = (int)drf_opt(argc, argv, "-tpb", 256);
  p.episodes = (int)drf_opt(argc, argv, "-episodes", 16);
  p.actions = (int)drf_opt(argc, argv, "-actions", 32);
  p.vars = (int)drf_opt(argc, argv, "-vars", 8);
  p.locks = (int)drf_opt(argc, argv, "-locks", 1024);
  p.cta_locks = (int)drf_opt(argc, argv, "-cta-locks", 8);
  p.loads = (int)drf_opt(argc, argv, "-loads", 50);
  p.spacing = (int)drf_opt(argc, argv, "-spacing", 1);
  p.inject = (int)drf_opt(argc, argv, "-inject", 0);
  o.seed = (uint64_t)drf_opt(argc, argv, "-seed", 1);
  o.fixed = (unsigned)drf_opt(argc, argv, "-fixed", 0);
  o.rounds = drf_opt(argc, argv, "-rounds", 1);
  o.want = drf_opt(argc, argv, "-want", 0);
  o.seconds = (double)drf_opt(argc, argv, "-seconds-ms", 0) / 1000.0;
  o.stop_first = (int)drf_opt(argc, argv, "-stop", 0);
  o.trace = drf_sopt(argc, argv, "-trace");
  o.spin_ns = (unsigned long long)drf_opt(argc, argv, "-spin-ms", 2000) * 1000000ULL;
  return !(p.vars < 1 || p.vars > DRF_MAXV || p.actions < 1 ||
           p.episodes < 1 || p.tpb < 1 || p.spacing < 1 ||
           (p.locks < 1 && p.cta_locks < 1) || p.inject < 0 ||
           p.inject >= DRF_NINJ);
}

// The buffers every round uses whatever its setting.
static void drf_fixed_buffers(DrfBuffers &b, const DrfOptions &o) {
  memset(&b, 0, sizeof b);
  b.perm_slots = b.perm_spacing = -1;
  DrfDev &d = b.d;
  CK(cudaMalloc(&d.stop, sizeof(int)));
  CK(cudaMalloc(&d.ctr, sizeof(unsigned long long) * 8));
  CK(cudaMalloc(&d.stuck, sizeof(long long) * 16));
  CK(cudaMalloc(&d.dups, sizeof(long long) * 48));
  CK(cudaMalloc(&d.tally, sizeof(drf_tally)));
  CK(cudaMalloc(&d.cover, sizeof(unsigned long long) * DRF_NCOVER));
  d.mmcap = 16;
  CK(cudaMalloc(&d.mm, sizeof(drf_mismatch) * d.mmcap));
  CK(cudaMemset(d.cover, 0, sizeof(unsigned long long) * DRF_NCOVER));
  d.spin_ns = o.spin_ns;
}

// Grow the buffers to setting p; place its slots at random places,
// `spacing` words apart when the slots or the spacing changed (with
// spacing 1, locks and variables of different locks share cache lines:
// false sharing).
static void drf_fit_buffers(DrfBuffers &b, const drf_params &p,
                            uint64_t seed) {
  DrfDev &d = b.d;
  int nlocks = drf_nlocks(&p);
  long long nep = drf_nepisodes(&p), nslots = drf_nslots(&p);
  size_t memwords = (size_t)nslots * p.spacing + 32;
  if (nep > b.cap_nep) {
    if (b.cap_nep) { CK(cudaFree(d.tick)); CK(cudaFree(d.owner)); }
    CK(cudaMalloc(&d.tick, sizeof(int) * nep));
    CK(cudaMalloc(&d.owner, sizeof(long long) * nep));
    b.cap_nep = nep;
  }
  if (nep * p.actions > b.cap_rec) {
    if (b.cap_rec) CK(cudaFree(d.rec));
    CK(cudaMalloc(&d.rec, sizeof(uint32_t) * nep * p.actions));
    b.cap_rec = nep * p.actions;
  }
  if (nlocks > b.cap_locks) {
    if (b.cap_locks) { CK(cudaFree(d.count)); CK(cudaFree(d.base)); }
    CK(cudaMalloc(&d.count, sizeof(int) * nlocks));
    CK(cudaMalloc(&d.base, sizeof(long long) * nlocks));
    b.cap_locks = nlocks;
  }
  if (memwords > b.cap_words) {
    if (b.cap_words) CK(cudaFree(d.mem));
    CK(cudaMalloc(&d.mem, sizeof(unsigned) * memwords));
    b.cap_words = memwords;
  }
  if (nslots != b.perm_slots || p.spacing != b.perm_spacing) {
    std::vector<long long> perm(nslots);
    for (long long i = 0; i < nslots; i++) perm[i] = i;
    for (long long i = nslots - 1; i > 0; i--) {
      uint64_t h = drf_hash(seed, 4, (uint64_t)i, 0);
      std::swap(perm[i], perm[(long long)(h % (uint64_t)(i + 1))]);
    }
    for (long long i = 0; i < nslots; i++) perm[i] *= p.spacing;
    if (nslots > b.cap_slots) {
      if (b.cap_slots) CK(cudaFree(b.slotpos));
      CK(cudaMalloc(&b.slotpos, sizeof(long long) * nslots));
      b.cap_slots = nslots;
    }
    CK(cudaMemcpy(b.slotpos, perm.data(), sizeof(long long) * nslots,
                  cudaMemcpyHostToDevice));
    d.slotpos = b.slotpos;
    b.perm_slots = nslots, b.perm_spacing = p.spacing;
  }
  CK(cudaMemset(d.mem, 0, sizeof(unsigned) * memwords));
}

// One round of setting p: run, record, check on the GPU; what it found.
static DrfRound drf_run_round(DrfBuffers &b, const drf_params &p,
                              cudaEvent_t e0, cudaEvent_t e1, cudaEvent_t e2) {
  DrfDev &d = b.d;
  int nlocks = drf_nlocks(&p);
  long long nep = drf_nepisodes(&p);
  int eb = (int)((nep + 255) / 256);
  CK(cudaMemset(d.tick, 0xff, sizeof(int) * nep));
  CK(cudaMemset(d.count, 0, sizeof(int) * nlocks));
  CK(cudaMemset(d.owner, 0xff, sizeof(long long) * nep));
  CK(cudaMemset(d.stop, 0, sizeof(int)));
  CK(cudaMemset(d.ctr, 0, sizeof(unsigned long long) * 8));
  CK(cudaMemset(d.tally, 0, sizeof(drf_tally)));
  drf_count<<<eb, 256>>>(p, d);
  drf_scan<<<1, 1024>>>(nlocks, d);
  CK(cudaEventRecord(e0));
  drf_run<<<p.ctas, p.tpb>>>(p, d);
  CK(cudaEventRecord(e1));
  drf_scatter<<<eb, 256>>>(p, d);
  drf_check<<<(nlocks + 127) / 128, 128>>>(p, d);
  CK(cudaEventRecord(e2));
  CK(cudaEventSynchronize(e2));
  CK(cudaGetLastError());
  DrfRound out;
  out.run_ms = out.check_ms = 0;
  CK(cudaEventElapsedTime(&out.run_ms, e0, e1));
  CK(cudaEventElapsedTime(&out.check_ms, e1, e2));
  CK(cudaMemcpy(&out.tl, d.tally, sizeof out.tl, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(out.ctr, d.ctr, sizeof out.ctr, cudaMemcpyDeviceToHost));
  return out;
}

// Round r's lines: its figures and setting, then each wrong load (with
// the place of the episode whose value it saw), stuck episode and
// duplicated place.
static void drf_print_round(long long r, const drf_params &p, unsigned fixed,
                            const DrfRound &rd, const DrfDev &d) {
  const drf_tally &tl = rd.tl;
  const unsigned long long *ctr = rd.ctr;
  long long nep = drf_nepisodes(&p);
  printf("round %lld %llu %llu %llu %llu %llu %llu %llu %llu %.3f %.3f "
         "set %d %d %d %d %d %d %d %d\n", r,
         (unsigned long long)p.seed, tl.episodes, tl.loads, tl.stores,
         tl.mismatches, ctr[0], ctr[1], ctr[2], rd.run_ms, rd.check_ms,
         drf_profile(p.seed, fixed), p.episodes, p.actions, p.vars, p.locks,
         p.cta_locks, p.loads, p.spacing);
  if (tl.mismatches) {
    int n = tl.mismatches < (unsigned long long)d.mmcap ? (int)tl.mismatches
                                                        : d.mmcap;
    std::vector<drf_mismatch> mm(n);
    CK(cudaMemcpy(mm.data(), d.mm, sizeof(drf_mismatch) * n,
                  cudaMemcpyDeviceToHost));
    for (auto &m : mm) {
      int wplace = -3;
      long long we = m.seen ? (long long)((m.seen - 1) / p.actions) : -1;
      if (we >= 0 && we < nep)
        CK(cudaMemcpy(&wplace, d.tick + we, sizeof(int),
                      cudaMemcpyDeviceToHost));
      printf("mismatch %lld %llu %lld %d %u %u %d %d\n", r,
             (unsigned long long)p.seed, m.episode, m.action, m.seen,
             m.expected, m.place, wplace);
    }
  }
  if (ctr[0]) {
    long long st[16];
    int n = ctr[0] < 16 ? (int)ctr[0] : 16;
    CK(cudaMemcpy(st, d.stuck, sizeof(long long) * n, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
      printf("stuck %lld %llu %lld %d\n", r, (unsigned long long)p.seed,
             st[i], drf_episode_lock(&p, st[i]));
  }
  if (ctr[2]) {
    long long du[48];
    int n = ctr[2] < 16 ? (int)ctr[2] : 16;
    CK(cudaMemcpy(du, d.dups, sizeof(long long) * 3 * n,
                  cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
      printf("dup %lld %llu %lld %lld %lld\n", r, (unsigned long long)p.seed,
             du[3 * i], du[3 * i + 1], du[3 * i + 2]);
  }
}

// The trace of a round (-trace): its setting, how it was drawn (the
// checker draws it again), each episode's place and loads.  False when
// the file cannot be written.
static bool drf_write_trace(const DrfOptions &o, const drf_params &p,
                            const DrfDev &d, const cudaDeviceProp &prop) {
  long long nep = drf_nepisodes(&p);
  std::vector<int> tick(nep);
  std::vector<uint32_t> rec((size_t)nep * p.actions);
  CK(cudaMemcpy(tick.data(), d.tick, sizeof(int) * nep, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(rec.data(), d.rec, sizeof(uint32_t) * rec.size(),
                cudaMemcpyDeviceToHost));
  FILE *f = fopen(o.trace, "w");
  if (!f) { perror(o.trace); return false; }
  fprintf(f, "# scopecat gpu drf trace, recorded on %s\n", prop.name);
  fprintf(f, "params ctas %d tpb %d episodes %d actions %d vars %d locks %d "
             "cta-locks %d loads %d spacing %d seed %llu inject %s\n",
          p.ctas, p.tpb, p.episodes, p.actions, p.vars, p.locks,
          p.cta_locks, p.loads, p.spacing, (unsigned long long)p.seed,
          drf_inject_names[p.inject]);
  if ((o.fixed & DRF_FIXED_ALL) == DRF_FIXED_ALL) {
    fprintf(f, "swarm off\n");
  } else {
    fprintf(f, "swarm on episodes-max %d fixed", o.base.episodes);
    int any = 0;
    for (int k = 0; k < DRF_NKNOBS; k++)
      if (o.fixed >> k & 1)
        fprintf(f, "%s%s", any++ ? "," : " ", drf_knob_names[k]);
    fprintf(f, "%s\n", any ? "" : " none");
  }
  for (long long e = 0; e < nep; e++) {
    fprintf(f, "ticket %lld %d\n", e, tick[e] < 0 ? -1 : tick[e]);
    if (tick[e] < 0) continue;
    for (int a = 0; a < p.actions; a++)
      if (drf_episode_action(&p, e, a).load)
        fprintf(f, "load %lld %d %u\n", e, a, rec[(size_t)e * p.actions + a]);
  }
  fclose(f);
  return true;
}

int main(int argc, char **argv) {
  int device = (int)drf_opt(argc, argv, "-device", 0);
  CK(cudaSetDevice(device));
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, device));
  DrfOptions o;
  if (!drf_read_options(o, argc, argv, prop)) {
    fprintf(stderr, "drf: bad parameters\n");
    return 2;
  }
  printf("device %s %d\n", prop.name, prop.multiProcessorCount);
  fflush(stdout);
  DrfBuffers b;
  drf_fixed_buffers(b, o);
  cudaEvent_t e0, e1, e2;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  CK(cudaEventCreate(&e2));
  double gpu_s = 0;
  unsigned long long checked = 0;
  for (long long r = 0; r < o.rounds || o.want > 0; r++) {
    drf_params p = drf_swarm(&o.base, o.seed + (uint64_t)r, o.fixed);
    drf_fit_buffers(b, p, o.seed);
    DrfRound rd = drf_run_round(b, p, e0, e1, e2);
    gpu_s += (rd.run_ms + rd.check_ms) / 1000.0;
    checked += rd.tl.loads;
    drf_print_round(r, p, o.fixed, rd, b.d);
    if (o.trace && r == 0 && !drf_write_trace(o, p, b.d, prop)) return 3;
    fflush(stdout);
    if ((o.stop_first && (rd.tl.mismatches || rd.ctr[0] || rd.ctr[2])) ||
        (o.seconds > 0 && gpu_s >= o.seconds) ||
        (o.want > 0 && checked >= (unsigned long long)o.want) ||
        (o.want <= 0 && r + 1 >= o.rounds))
      break;
  }
  std::vector<unsigned long long> cover(DRF_NCOVER);
  CK(cudaMemcpy(cover.data(), b.d.cover, sizeof(unsigned long long) * DRF_NCOVER,
                cudaMemcpyDeviceToHost));
  for (int i = 0; i < DRF_NCOVER; i++)
    printf("cover %d %llu\n", i, cover[i]);
  return 0;
}
