/* layout.c: where a litmus test goes on the GPU, before any text is
 * written.  Each test thread gets a CTA class, a warp class within it and
 * a lane slot within the warp, from the scope tree (thread.place[]); each
 * location lives in global memory, or in the shared memory of the one CTA
 * whose threads use it; the observed values are the registers and
 * locations the condition, the filter and `locations [...]` name; the
 * histogram has RADIX values for each.  Past a limit of gpu_limits.h, or
 * for what the harness cannot place, the phase fails saying which. */
#include "gpu/gpu.h"

#include "util/error.h"
#include "util/gcmem.h"

#include <stdarg.h>

void sc_gpu_fail(sc_gpu_gen *g, sc_status status, int line, int col,
                 const char *fmt, ...) {
  if (g->err)
    return;
  va_list ap;
  va_start(ap, fmt);
  const char *what = sc_vprintf(fmt, ap);
  va_end(ap);
  g->err = sc_error_new(status, g->t->file, line, col, "%s", what);
}

bool sc_gpu_check_size(sc_gpu_gen *g) {
  const sc_test *t = g->t;
  if (t->nthreads > SC_GPU_MAX_THREADS || t->nlocs > SC_GPU_MAX_LOCATIONS) {
    sc_gpu_fail(g, SC_ERR_LIMIT, 0, 0,
                "too many threads or locations for the GPU harness (%d "
                "threads and %d locations at most)", SC_GPU_MAX_THREADS,
                SC_GPU_MAX_LOCATIONS);
    return false;
  }
  for (int i = 0; i < t->nthreads; i++)
    if (t->threads[i].nregs > SC_GPU_MAX_REGISTERS) {
      sc_gpu_fail(g, SC_ERR_LIMIT, 0, 0,
                  "thread %d has more than %d registers (the GPU harness's "
                  "limit)", i, SC_GPU_MAX_REGISTERS);
      return false;
    }
  return true;
}

static bool same_cta(const sc_thread *a, const sc_thread *b) {
  return a->place[SC_LEVEL_CTA] == b->place[SC_LEVEL_CTA] &&
         a->place[SC_LEVEL_KERNEL] == b->place[SC_LEVEL_KERNEL] &&
         a->place[SC_LEVEL_DEVICE] == b->place[SC_LEVEL_DEVICE];
}

/* CTA classes in order of first appearance; within a CTA, warp classes
 * likewise; a thread's lane is the number of earlier threads in its warp. */
bool sc_gpu_place_threads(sc_gpu_gen *g) {
  const sc_test *t = g->t;
  int warps_of_cta[SC_GPU_MAX_THREADS];
  for (int i = 0; i < t->nthreads; i++) {
    const sc_thread *th = &t->threads[i];
    int c = -1;
    for (int j = 0; j < i; j++)
      if (same_cta(&t->threads[j], th))
        c = g->cta[j];
    if (c < 0) {
      c = g->nc++;
      warps_of_cta[c] = 0;
    }
    g->cta[i] = c;
    int w = -1, l = 0;
    for (int j = 0; j < i; j++)
      if (g->cta[j] == c &&
          t->threads[j].place[SC_LEVEL_WARP] == th->place[SC_LEVEL_WARP]) {
        w = g->warp[j];
        l++;
      }
    if (w < 0)
      w = warps_of_cta[c]++;
    g->warp[i] = w;
    g->lane[i] = l;
    if (warps_of_cta[c] > g->nwmax)
      g->nwmax = warps_of_cta[c];
    if (l + 1 > g->nlmax)
      g->nlmax = l + 1;
  }
  if (g->nwmax > SC_GPU_MAX_WARPS) {
    sc_gpu_fail(g, SC_ERR_LIMIT, 0, 0, "more than %d warps in one CTA",
                SC_GPU_MAX_WARPS);
    return false;
  }
  return true;
}

/* Whether thread `th` names location `l` (as an address, an operand or a
 * register's initial value). */
static bool thread_uses(const sc_thread *th, int l) {
  for (int r = 0; r < th->nregs; r++)
    if (th->regs[r].init.kind == SC_VAL_LOC && th->regs[r].init.loc == l)
      return true;
  for (int k = 0; k < th->ninstrs; k++) {
    const sc_instr *in = &th->code[k];
    if (sc_instr_is_access(in) && in->addr.base.kind == SC_OPND_LOC &&
        in->addr.base.index == l)
      return true;
    for (int s = 0; s < in->nsrc; s++)
      if (in->src[s].kind == SC_OPND_LOC && in->src[s].index == l)
        return true;
  }
  return false;
}

/* Shared locations live in one CTA: the first thread that uses one owns it
 * (initialises it, writes it back); a user in another CTA is refused. */
bool sc_gpu_place_locations(sc_gpu_gen *g) {
  const sc_test *t = g->t;
  for (int l = 0; l < t->nlocs; l++) {
    const sc_location *loc = &t->locs[l];
    if (loc->alias_of >= 0 || loc->proxy != SC_PROXY_GENERIC) {
      sc_gpu_fail(g, SC_ERR_UNSUPPORTED, 0, 0,
                  "location %s: aliases and proxies are not supported on "
                  "the GPU", loc->name);
      return false;
    }
    if (loc->init.kind == SC_VAL_LOC) {
      sc_gpu_fail(g, SC_ERR_UNSUPPORTED, 0, 0,
                  "location %s holds an address: not supported on the GPU",
                  loc->name);
      return false;
    }
    g->loc_shared[l] = loc->region == SC_SPACE_SHARED;
    g->loc_owner[l] = -1;
    for (int i = 0; i < t->nthreads; i++) {
      if (!thread_uses(&t->threads[i], l))
        continue;
      if (g->loc_owner[l] < 0)
        g->loc_owner[l] = i;
      else if (g->loc_shared[l] && g->cta[i] != g->cta[g->loc_owner[l]]) {
        sc_gpu_fail(g, SC_ERR_UNSUPPORTED, 0, 0,
                    "shared location %s is used by threads of different "
                    "CTAs", loc->name);
        return false;
      }
    }
    if (g->loc_owner[l] < 0)
      g->loc_owner[l] = 0;
  }
  return true;
}

static void add_obs(sc_gpu_gen *g, sc_gpu_obs o) {
  if (g->nobs == SC_GPU_MAX_OBSERVED) {
    g->obs_overflow = true;
    return;
  }
  g->obs[g->nobs++] = o;
}

static void note_obs(const sc_lval *lv, void *ctx) {
  sc_gpu_gen *g = ctx;
  if (lv->kind == SC_LVAL_REG) {
    if (g->res_slot[lv->thread][lv->reg] >= 0)
      return;
    g->res_slot[lv->thread][lv->reg] = g->nres;
    add_obs(g, (sc_gpu_obs){SC_GPU_OBS_REG, lv->thread, g->nres++});
  } else if (lv->kind == SC_LVAL_LOC) {
    for (int i = 0; i < g->nobs; i++)
      if (g->obs[i].kind == SC_GPU_OBS_LOC && g->obs[i].a == lv->loc)
        return;
    add_obs(g, (sc_gpu_obs){SC_GPU_OBS_LOC, lv->loc, 0});
  }
}

bool sc_gpu_observe(sc_gpu_gen *g) {
  const sc_test *t = g->t;
  for (int i = 0; i < SC_GPU_MAX_THREADS; i++)
    for (int r = 0; r < SC_GPU_MAX_REGISTERS; r++)
      g->res_slot[i][r] = -1;
  sc_prop_each_lval(t->cond, note_obs, g);
  if (t->filter)
    sc_prop_each_lval(t->filter, note_obs, g);
  for (int i = 0; i < t->nobserved; i++)
    note_obs(&t->observed[i], g);
  if (g->obs_overflow) {
    sc_gpu_fail(g, SC_ERR_LIMIT, 0, 0, "more than %d observed values",
                SC_GPU_MAX_OBSERVED);
    return false;
  }
  return true;
}

static void max_constant(const sc_lval *lv, void *ctx) {
  int64_t *max = ctx;
  if (lv->kind == SC_LVAL_CONST && lv->constant > *max)
    *max = lv->constant;
}

/* RADIX: one more than the largest value the test names (the condition's
 * constants, initial values, small immediates), so that the outcomes of
 * values in [0, RADIX) have a shared-memory bucket each; 2 when that many
 * buckets would not fit, 1 (the all-zero outcome alone) when even that
 * would not.  Every other outcome is counted in the outcome table
 * (outcome_table.h): the histogram is exact whatever the values. */
void sc_gpu_size_histogram(sc_gpu_gen *g) {
  const sc_test *t = g->t;
  int64_t maxc = 1;
  sc_prop_each_lval(t->cond, max_constant, &maxc);
  for (int l = 0; l < t->nlocs; l++)
    if (t->locs[l].init.i > maxc)
      maxc = t->locs[l].init.i;
  for (int i = 0; i < t->nthreads; i++)
    for (int k = 0; k < t->threads[i].ninstrs; k++)
      for (int s = 0; s < t->threads[i].code[k].nsrc; s++) {
        sc_operand op = t->threads[i].code[k].src[s];
        if (op.kind == SC_OPND_IMM && op.imm > maxc && op.imm < 1000)
          maxc = op.imm;
      }
  if (maxc > SC_GPU_MAX_BUCKETS)
    maxc = SC_GPU_MAX_BUCKETS;
  int radix = (int)maxc + 2;
  for (int r = radix; r >= 1; r = r > 2 ? 2 : r - 1) {
    long n = 1;
    for (int i = 0; i < g->nobs && n <= SC_GPU_MAX_BUCKETS; i++)
      n *= r;
    if (n <= SC_GPU_MAX_BUCKETS) {
      g->radix = r;
      g->nbuckets = n;
      return;
    }
  }
}
