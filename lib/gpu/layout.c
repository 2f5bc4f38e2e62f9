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

#include <inttypes.h>
#include <stdarg.h>

void sci_gpu_fail(sc_gpu_gen *g, sc_status status, int line, int col,
                 const char *fmt, ...) {
  if (g->err)
    return;
  va_list ap;
  va_start(ap, fmt);
  const char *what = sci_vprintf(fmt, ap);
  va_end(ap);
  g->err = sci_error_new(status, g->t->file, line, col, "%s", what);
}

bool sci_gpu_check_size(sc_gpu_gen *g) {
  const sc_test *t = g->t;
  if (t->nthreads > SC_GPU_MAX_THREADS || t->nlocs > SC_GPU_MAX_LOCATIONS) {
    sci_gpu_fail(g, SC_ERR_LIMIT, 0, 0,
                "too many threads or locations for the GPU harness (%d "
                "threads and %d locations at most)", SC_GPU_MAX_THREADS,
                SC_GPU_MAX_LOCATIONS);
    return false;
  }
  for (int i = 0; i < t->nthreads; i++)
    if (t->threads[i].nregs > SC_GPU_MAX_REGISTERS) {
      sci_gpu_fail(g, SC_ERR_LIMIT, 0, 0,
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
bool sci_gpu_place_threads(sc_gpu_gen *g) {
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
    sci_gpu_fail(g, SC_ERR_LIMIT, 0, 0, "more than %d warps in one CTA",
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
    if (sci_instr_is_access(in) && in->addr.base.kind == SC_OPND_LOC &&
        in->addr.base.index == l)
      return true;
    for (int s = 0; s < in->nsrc; s++)
      if (in->src[s].kind == SC_OPND_LOC && in->src[s].index == l)
        return true;
  }
  return false;
}

/* The spelling of an access in Dat3M's dialect (suld, sust, tld, cold). */
static const char *access_spelling(const sc_instr *in) {
  if (in->proxy == SC_PROXY_SURFACE)
    return in->op == SC_OP_ST ? "sust" : "suld";
  if (in->proxy == SC_PROXY_TEXTURE)
    return "tld";
  if (in->proxy == SC_PROXY_CONSTANT)
    return "cold";
  return sci_opcode_name(in->op);
}

static void note_observed(const sc_lval *lv, void *ctx) {
  int *l = ctx;
  if (lv->kind == SC_LVAL_LOC && lv->loc == *l)
    *l = -1;
}

/* An alias or proxy location (Dat3M's "y @ surface aliases x") runs only
 * where no thread names it and no condition reads it: the harness gives
 * each location memory of its own and has no surface, texture or constant
 * binding of it.  Otherwise the first use is refused, naming it. */
static bool alias_unused(sc_gpu_gen *g, int l) {
  const sc_test *t = g->t;
  const sc_location *loc = &t->locs[l];
  const char *what = loc->alias_of < 0 ? "a proxy name"
      : loc->proxy == SC_PROXY_GENERIC
      ? sci_printf("a generic alias of %s (a second virtual address of its "
                  "memory)", t->locs[loc->alias_of].name)
      : sci_printf("%s through the %s proxy", t->locs[loc->alias_of].name,
                  sci_proxy_name(loc->proxy));
  const char *why = loc->proxy == SC_PROXY_SURFACE
      ? "CUDA binds surfaces to CUDA arrays only, which no generic access "
        "reaches"
      : "the GPU harness binds no texture or constant view of its "
        "locations";
  for (int i = 0; i < t->nthreads; i++) {
    const sc_thread *th = &t->threads[i];
    for (int k = 0; k < th->ninstrs; k++) {
      const sc_instr *in = &th->code[k];
      if (sci_instr_is_access(in) && in->addr.base.kind == SC_OPND_LOC &&
          in->addr.base.index == l) {
        sci_gpu_fail(g, SC_ERR_UNSUPPORTED, in->line, in->col,
                    "%s of %s, %s: not supported on the GPU (%s)",
                    access_spelling(in), loc->name, what, why);
        return false;
      }
    }
    if (thread_uses(th, l)) {
      sci_gpu_fail(g, SC_ERR_UNSUPPORTED, 0, 0,
                  "thread %s uses %s, %s: not supported on the GPU (%s)",
                  th->name, loc->name, what, why);
      return false;
    }
  }
  int seen = l;
  sci_prop_each_lval(t->cond, note_observed, &seen);
  if (t->filter)
    sci_prop_each_lval(t->filter, note_observed, &seen);
  for (int i = 0; i < t->nobserved; i++)
    note_observed(&t->observed[i], &seen);
  if (seen < 0) {
    sci_gpu_fail(g, SC_ERR_UNSUPPORTED, 0, 0,
                "the final value of %s, %s, is observed: not supported on "
                "the GPU (%s)", loc->name, what, why);
    return false;
  }
  return true;
}

/* A generic alias names the memory of the location it aliases (through
 * an alias of an alias, the first that is none) at a second virtual
 * address: the harness maps its global locations twice (gpu_main.cuh),
 * and the alias's slot is its location's in the second mapping.  Global
 * memory only: shared memory has one address per CTA. */
static bool place_generic_alias(sc_gpu_gen *g, int l) {
  const sc_test *t = g->t;
  int root = t->locs[l].alias_of;
  for (int hops = 0; t->locs[root].alias_of >= 0 &&
                     t->locs[root].proxy == SC_PROXY_GENERIC &&
                     hops < t->nlocs; hops++)
    root = t->locs[root].alias_of;
  if (t->locs[root].alias_of >= 0 || t->locs[root].proxy != SC_PROXY_GENERIC)
    return alias_unused(g, l);
  if (t->locs[l].region == SC_SPACE_SHARED ||
      t->locs[root].region == SC_SPACE_SHARED) {
    sci_gpu_fail(g, SC_ERR_UNSUPPORTED, 0, 0,
                "location %s, a generic alias of %s, is in shared memory: "
                "the GPU harness aliases global memory only",
                t->locs[l].name, t->locs[root].name);
    return false;
  }
  g->loc_alias[l] = root;
  g->nalias++;
  return true;
}

/* Shared locations live in one CTA: the first thread that uses one owns it
 * (initialises it, writes it back); a user in another CTA is refused. */
bool sci_gpu_place_locations(sc_gpu_gen *g) {
  const sc_test *t = g->t;
  for (int l = 0; l < t->nlocs; l++) {
    const sc_location *loc = &t->locs[l];
    g->loc_alias[l] = -1;
    if (loc->alias_of >= 0 && loc->proxy == SC_PROXY_GENERIC) {
      if (!place_generic_alias(g, l))
        return false;
    } else if ((loc->alias_of >= 0 || loc->proxy != SC_PROXY_GENERIC) &&
               !alias_unused(g, l)) {
      return false;
    }
    if (loc->init.kind == SC_VAL_LOC) {
      sci_gpu_fail(g, SC_ERR_UNSUPPORTED, 0, 0,
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
        sci_gpu_fail(g, SC_ERR_UNSUPPORTED, 0, 0,
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

bool sci_gpu_observe(sc_gpu_gen *g) {
  const sc_test *t = g->t;
  for (int i = 0; i < SC_GPU_MAX_THREADS; i++)
    for (int r = 0; r < SC_GPU_MAX_REGISTERS; r++)
      g->res_slot[i][r] = -1;
  sci_prop_each_lval(t->cond, note_obs, g);
  if (t->filter)
    sci_prop_each_lval(t->filter, note_obs, g);
  for (int i = 0; i < t->nobserved; i++)
    note_obs(&t->observed[i], g);
  if (g->obs_overflow) {
    sci_gpu_fail(g, SC_ERR_LIMIT, 0, 0, "more than %d observed values",
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
void sci_gpu_size_histogram(sc_gpu_gen *g) {
  const sc_test *t = g->t;
  int64_t maxc = 1;
  sci_prop_each_lval(t->cond, max_constant, &maxc);
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

/* ---- Barriers ----------------------------------------------------------- */

/* Whether some instruction of `th` writes register `reg`. */
static bool reg_written(const sc_thread *th, int reg) {
  for (int k = 0; k < th->ninstrs; k++)
    if (th->code[k].dst.kind == SC_OPND_REG && th->code[k].dst.index == reg)
      return true;
  return false;
}

/* A barrier operand's value before the run: an immediate, or a register
 * nothing writes (its initial value). */
static bool bar_operand(sc_gpu_gen *g, int ti, const sc_instr *in, int i,
                        int64_t *v) {
  const sc_thread *th = &g->t->threads[ti];
  sc_operand op = in->src[i];
  if (op.kind == SC_OPND_IMM) {
    *v = op.imm;
    return true;
  }
  if (op.kind == SC_OPND_REG && !reg_written(th, op.index) &&
      th->regs[op.index].init.kind == SC_VAL_INT) {
    *v = th->regs[op.index].init.i;
    return true;
  }
  sci_gpu_fail(g, SC_ERR_UNSUPPORTED, in->line, in->col,
              "barrier operand %d is computed during the run: the GPU "
              "harness needs each barrier's group and thread count before "
              "the run", i + 1);
  return false;
}

static int find_group(const sc_gpu_gen *g, int cta, int nops,
                      const int64_t *ops) {
  for (int i = 0; i < g->nbargroups; i++) {
    const sc_gpu_bargroup *b = &g->bargroup[i];
    if (b->cta == cta && b->nops == nops && b->ops[0] == ops[0] &&
        (nops < 2 || b->ops[1] == ops[1]))
      return i;
  }
  return -1;
}

/* Record the group of one barrier; its quorum, when given, in *quorum. */
static bool note_barrier(sc_gpu_gen *g, int ti, const sc_instr *in,
                         int *max_quorum) {
  int64_t ops[3] = {0, 0, 0};
  for (int i = 0; i < in->nsrc && i < 3; i++)
    if (!bar_operand(g, ti, in, i, &ops[i]))
      return false;
  int nops = in->nsrc < 2 ? 1 : 2;
  if (in->nsrc == 3 && ops[2] > *max_quorum) {
    if (ops[2] > SC_GPU_MAX_BAR_WARPS) {
      sci_gpu_fail(g, SC_ERR_LIMIT, in->line, in->col,
                  "barrier quorum %" PRId64 ": more than %d threads (a test "
                  "thread is a warp on the GPU, a CTA at most %d warps)",
                  ops[2], SC_GPU_MAX_BAR_WARPS, SC_GPU_MAX_BAR_WARPS);
      return false;
    }
    *max_quorum = (int)ops[2];
  }
  int k = find_group(g, g->cta[ti], nops, ops);
  if (k < 0) {
    k = g->nbargroups++;
    g->bargroup[k] = (sc_gpu_bargroup){.cta = g->cta[ti], .nops = nops,
                                       .ops = {ops[0], ops[1]}, .hwid = -1};
  }
  sc_gpu_bargroup *b = &g->bargroup[k];
  if (!(b->threads & (1u << ti))) {
    b->threads |= 1u << ti;
    b->size++;
  }
  return true;
}

/* Whether hardware barrier `id` of CTA class `cta` is taken. */
static bool hwid_taken(const sc_gpu_gen *g, int cta, int id) {
  for (int i = 0; i < g->nbargroups; i++)
    if (g->bargroup[i].cta == cta && g->bargroup[i].hwid == id)
      return true;
  return false;
}

/* A group named by one operand keeps it as its hardware barrier (PTX's
 * `bar.sync a`); Dat3M's two-operand groups (instance and resource ids,
 * not PTX) take the free ones in order. */
static bool assign_hwids(sc_gpu_gen *g, const sc_instr *first) {
  for (int i = 0; i < g->nbargroups; i++) {
    sc_gpu_bargroup *b = &g->bargroup[i];
    if (b->nops != 1)
      continue;
    if (b->ops[0] < 0 || b->ops[0] >= SC_GPU_MAX_BARRIERS) {
      sci_gpu_fail(g, SC_ERR_UNSUPPORTED, first->line, first->col,
                  "barrier %" PRId64 ": PTX has barriers 0 to %d", b->ops[0],
                  SC_GPU_MAX_BARRIERS - 1);
      return false;
    }
    b->hwid = (int)b->ops[0];
  }
  for (int i = 0; i < g->nbargroups; i++) {
    sc_gpu_bargroup *b = &g->bargroup[i];
    for (int id = 0; b->hwid < 0 && id < SC_GPU_MAX_BARRIERS; id++)
      if (!hwid_taken(g, b->cta, id))
        b->hwid = id;
    if (b->hwid < 0) {
      sci_gpu_fail(g, SC_ERR_LIMIT, first->line, first->col,
                  "more than %d barrier groups in one CTA (the hardware's "
                  "barriers)", SC_GPU_MAX_BARRIERS);
      return false;
    }
  }
  return true;
}

/* Whether test thread `ti` shares its warp with another test thread. */
static bool shares_warp(const sc_gpu_gen *g, int ti) {
  for (int j = 0; j < g->t->nthreads; j++)
    if (j != ti && g->cta[j] == g->cta[ti] && g->warp[j] == g->warp[ti])
      return true;
  return false;
}

/* A barrier test runs one instance per CTA: PTX's barrier synchronises the
 * threads of a CTA, which then must be the test's alone; each test thread
 * is a warp of its own, whose other lanes leave at once (a barrier counts
 * whole warps and waits for the non-exited threads of the warp). */
bool sci_gpu_place_barriers(sc_gpu_gen *g) {
  const sc_test *t = g->t;
  const sc_instr *first = NULL;
  int max_quorum = 0;
  for (int ti = 0; ti < t->nthreads; ti++)
    for (int k = 0; k < t->threads[ti].ninstrs; k++) {
      const sc_instr *in = &t->threads[ti].code[k];
      if (in->op != SC_OP_BAR)
        continue;
      if (!first)
        first = in;
      if (shares_warp(g, ti)) {
        sci_gpu_fail(g, SC_ERR_UNSUPPORTED, in->line, in->col,
                    "barrier in thread %s, which shares a warp with another "
                    "test thread: a barrier counts whole warps, so the GPU "
                    "harness needs each test thread in a warp of its own",
                    t->threads[ti].name);
        return false;
      }
      if (g->nbargroups == SC_GPU_MAX_BARRIERS * SC_GPU_MAX_THREADS) {
        sci_gpu_fail(g, SC_ERR_LIMIT, in->line, in->col,
                    "more than %d barrier groups in one CTA (the hardware's "
                    "barriers)", SC_GPU_MAX_BARRIERS);
        return false;
      }
      if (!note_barrier(g, ti, in, &max_quorum))
        return false;
    }
  if (!first)
    return true;
  for (int l = 0; l < t->nlocs; l++)
    if (g->loc_shared[l]) {
      sci_gpu_fail(g, SC_ERR_UNSUPPORTED, first->line, first->col,
                  "barrier in a test with shared location %s: the harness "
                  "writes shared locations back after a CTA barrier, which "
                  "the test's barriers would meet", t->locs[l].name);
      return false;
    }
  g->barriers = true;
  g->bar_warps = g->nwmax > max_quorum ? g->nwmax : max_quorum;
  return assign_hwids(g, first);
}

const sc_gpu_bargroup *sci_gpu_barrier_of(const sc_gpu_gen *g, int ti,
                                         const sc_instr *in, int *count) {
  const sc_thread *th = &g->t->threads[ti];
  int64_t ops[3] = {0, 0, 0};
  for (int i = 0; i < in->nsrc && i < 3; i++) {
    sc_operand op = in->src[i];
    ops[i] = op.kind == SC_OPND_IMM ? op.imm : th->regs[op.index].init.i;
  }
  int k = find_group(g, g->cta[ti], in->nsrc < 2 ? 1 : 2, ops);
  if (k < 0)
    return NULL;
  int64_t quorum = in->nsrc == 3 ? ops[2] : g->bargroup[k].size;
  *count = 32 * (int)(quorum < 1 ? 1 : quorum);
  return &g->bargroup[k];
}
