/* gpu_gen.c: the CUDA program of a litmus test for `scopecat gpu` (see
 * gpu.h): the test's PTX as inline asm, placed by its scope tree. */

/* Layout.  Each test thread gets a CTA class, a warp class within it and a
 * lane slot within the warp (from the scope tree: thread.place[]).  A group
 * of NC consecutive test blocks holds (TPB/32/NWMAX) * (32/NLMAX)
 * instances; the host builds a role table (instance, test thread) for every
 * hardware thread, optionally permuting blocks, warps within a block and
 * lanes within a warp (thread randomisation keeps CTA and warp membership).
 * Each instance has its own copy of every location, at a shuffled slot,
 * `spacing` words apart.  A second kernel reads each instance's registers
 * and final memory, counts the outcome in a histogram and resets the
 * locations.  Extra CTAs stress a scratchpad while the test runs. */
#define _POSIX_C_SOURCE 200809L
#include "gpu.h"

#include "litmus/litmus.h"

#include <gc/gc.h>
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

/* The library keeps these internal: local copies. */
static bool is_access(const sc_instr *in) {
  return in->op == SC_OP_LD || in->op == SC_OP_ST || in->op == SC_OP_ATOM ||
         in->op == SC_OP_RED;
}

static void each_lval(const sc_prop *p,
                              void (*fn)(const sc_lval *, void *), void *ctx) {
  if (!p)
    return;
  if (p->kind == SC_PROP_EQ || p->kind == SC_PROP_NE) {
    fn(&p->lhs, ctx);
    fn(&p->rhs, ctx);
  }
  each_lval(p->a, fn, ctx);
  each_lval(p->b, fn, ctx);
}

/* Local name tables (the library's are internal). */
static const char *const type_names[] = {"", "s32", "u32", "b32", "s64",
                                         "u64", "b64", "pred"};
static const char *const sem_names[] = {"", "weak", "volatile", "relaxed",
                                        "acquire", "release", "acq_rel", "sc"};
static const char *const scope_names[] = {"", "cta", "cluster", "gpu", "sys"};
static const char *const space_names[] = {"", "global", "shared"};
static const char *const cache_names[] = {"", "ca", "cg", "cs", "lu",
                                          "cv", "wb", "wt"};
static const char *const atom_names[] = {"", "cas", "exch", "add", "sub",
                                         "inc", "dec", "and", "or", "xor",
                                         "min", "max"};
static const char *const cmp_names[] = {"", "eq", "ne", "lt", "le", "gt", "ge"};
static const char *const proxy_names[] = {"", "surface", "texture",
                                          "constant", "alias"};
static const char *const alu_names[] = {
    [SC_OP_MOV] = "mov", [SC_OP_ADD] = "add", [SC_OP_SUB] = "sub",
    [SC_OP_AND] = "and", [SC_OP_OR] = "or", [SC_OP_XOR] = "xor",
    [SC_OP_CVT] = "cvt", [SC_OP_SETP] = "setp"};

/* A growing text (the asm block is built before it is written). */
typedef struct text {
  char *s;
  size_t n, cap;
} text;

static void tput(text *t, const char *fmt, ...) {
  va_list ap;
  for (;;) {
    va_start(ap, fmt);
    size_t room = t->cap - t->n;
    int k = vsnprintf(t->s ? t->s + t->n : NULL, t->s ? room : 0, fmt, ap);
    va_end(ap);
    if (k >= 0 && t->s && (size_t)k < room) {
      t->n += (size_t)k;
      return;
    }
    size_t want = t->n + (size_t)(k > 0 ? k : 0) + 256;
    t->cap = want * 2;
    char *s = GC_MALLOC_ATOMIC(t->cap);
    if (t->s)
      memcpy(s, t->s, t->n);
    t->s = s;
  }
}

static bool is64(sc_type ty) {
  return ty == SC_TYPE_S64 || ty == SC_TYPE_U64 || ty == SC_TYPE_B64;
}

/* The declared PTX type of a register (Dat3M's untyped ones: b64 when they
 * hold an address, else s32). */
static sc_type reg_type(const sc_register *r) {
  if (r->type != SC_TYPE_NONE)
    return r->type;
  return r->init.kind == SC_VAL_LOC ? SC_TYPE_B64 : SC_TYPE_S32;
}

typedef struct gen {
  const sc_test *t;
  char *why;
  size_t whylen;
  bool ok;
  int cta[32], warp[32], lane[32];
  int nc, nwmax, nlmax;
  bool loc_shared[64];
  int loc_owner[64];   /* the test thread that writes a shared location back */
  /* observed terms: kind 0 register (thread, reg, result slot), 1 location */
  int nobs, obs_kind[64], obs_a[64], obs_b[64];
  int nres;            /* result slots (observed registers) */
  int res_slot[32][64];/* [thread][reg] -> slot, -1 */
} gen;

static void fail(gen *g, const char *fmt, ...) {
  if (!g->ok)
    return;
  g->ok = false;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(g->why, g->whylen, fmt, ap);
  va_end(ap);
}

static void put_operand(text *o, const sc_thread *th, const sc_test *t,
                        sc_operand op, bool shared_addr) {
  switch (op.kind) {
  case SC_OPND_REG: tput(o, "tr_%s", th->regs[op.index].name); break;
  case SC_OPND_LOC:
    tput(o, "%s_%s", shared_addr ? "ts" : "tl", t->locs[op.index].name);
    break;
  case SC_OPND_IMM: tput(o, "%" PRId64, op.imm); break;
  case SC_OPND_NONE: break;
  }
}

static sc_type operand_type(const sc_thread *th, sc_operand op) {
  if (op.kind == SC_OPND_REG)
    return reg_type(&th->regs[op.index]);
  if (op.kind == SC_OPND_LOC)
    return SC_TYPE_B64;
  return SC_TYPE_NONE;
}

/* Whether a location or register is used as the address of a .shared
 * access in this thread (its register then holds a shared-window
 * address). */
static bool reg_used_shared(const sc_thread *th, int reg) {
  for (int i = 0; i < th->ninstrs; i++) {
    const sc_instr *in = &th->code[i];
    if (is_access(in) && in->space == SC_SPACE_SHARED &&
        in->addr.base.kind == SC_OPND_REG && in->addr.base.index == reg)
      return true;
  }
  return false;
}

static const char *access_type(const sc_instr *in, const sc_thread *th) {
  if (in->type != SC_TYPE_NONE)
    return type_names[in->type];
  sc_type rt = SC_TYPE_NONE;
  if (in->dst.kind == SC_OPND_REG)
    rt = operand_type(th, in->dst);
  else if (in->nsrc > 0)
    rt = operand_type(th, in->src[0]);
  bool w = is64(rt);
  if (in->op == SC_OP_ATOM || in->op == SC_OP_RED) {
    switch (in->atomop) {
    case SC_ATOM_ADD: case SC_ATOM_INC: case SC_ATOM_DEC:
      return w ? "u64" : "u32";
    case SC_ATOM_MIN: case SC_ATOM_MAX: return w ? "s64" : "s32";
    case SC_ATOM_SUB: return "s32";
    default: return w ? "b64" : "b32";
    }
  }
  return w ? "b64" : "b32";
}

static void put_qual(text *o, const char *q) {
  if (q && *q)
    tput(o, ".%s", q);
}

/* One instruction of thread `ti` as PTX (lines end with "\\n\\t" for the C
 * string literal). */
static void put_instr(gen *g, text *o, int ti, const sc_instr *in,
                      char *classes, int *ncls) {
  const sc_test *t = g->t;
  const sc_thread *th = &t->threads[ti];
  char guard[96] = "";
  if (in->guard >= 0)
    snprintf(guard, sizeof guard, "@%str_%s ", in->guard_negated ? "!" : "",
             th->regs[in->guard].name);
  if (in->proxy != SC_PROXY_GENERIC && in->op != SC_OP_FENCE_PROXY)
    fail(g, "%s:%d:%d: accesses through the %s proxy are not supported on "
            "the GPU", t->file, in->line, in->col, proxy_names[in->proxy]);
  bool shared = in->space == SC_SPACE_SHARED;
  switch (in->op) {
  case SC_OP_LD:
  case SC_OP_ST:
  case SC_OP_ATOM:
  case SC_OP_RED: {
    const char *ty = access_type(in, th);
    /* st takes a register: materialise immediates */
    char stsrc[96] = "";
    if (in->op == SC_OP_ST && in->nsrc > 0 && in->src[0].kind == SC_OPND_IMM) {
      bool w = ty[1] == '6';
      tput(o, "%smov.b%s tI%s, %" PRId64 ";\\n\\t", guard, w ? "64" : "32",
           w ? "64" : "32", in->src[0].imm);
      snprintf(stsrc, sizeof stsrc, "tI%s", w ? "64" : "32");
    }
    /* Dat3M's atom/red .sub is not PTX: add the negated operand */
    bool sub = in->atomop == SC_ATOM_SUB;
    char subsrc[96] = "";
    if (sub && in->nsrc > 0) {
      if (in->src[0].kind == SC_OPND_IMM) {
        snprintf(subsrc, sizeof subsrc, "%" PRId64, -in->src[0].imm);
      } else {
        tput(o, "%sneg.s32 tI32, ", guard);
        put_operand(o, th, t, in->src[0], false);
        tput(o, ";\\n\\t");
        snprintf(subsrc, sizeof subsrc, "tI32");
      }
      ty = "u32";
    }
    tput(o, "%s%s", guard,
         in->op == SC_OP_LD ? "ld" : in->op == SC_OP_ST ? "st"
         : in->op == SC_OP_ATOM ? "atom" : "red");
    put_qual(o, sem_names[in->sem]);
    put_qual(o, scope_names[in->scope]);
    put_qual(o, space_names[in->space]);
    put_qual(o, cache_names[in->cacheop]);
    put_qual(o, sub ? "add" : atom_names[in->atomop]);
    tput(o, ".%s ", ty);
    if (in->dst.kind != SC_OPND_NONE) {
      put_operand(o, th, t, in->dst, false);
      tput(o, ", ");
    }
    tput(o, "[");
    put_operand(o, th, t, in->addr.base, shared);
    if (in->addr.offset)
      tput(o, "%+" PRId64, in->addr.offset);
    tput(o, "]");
    for (int i = 0; i < in->nsrc; i++) {
      tput(o, ", ");
      if (i == 0 && stsrc[0])
        tput(o, "%s", stsrc);
      else if (i == 0 && subsrc[0])
        tput(o, "%s", subsrc);
      else
        put_operand(o, th, t, in->src[i], false);
    }
    tput(o, ";\\n\\t");
    classes[(*ncls)++] = in->op == SC_OP_LD ? 'L' : in->op == SC_OP_ST ? 'S'
                                                                       : 'A';
    break;
  }
  case SC_OP_MEMBAR:
    tput(o, "%smembar.%s;\\n\\t", guard,
         in->scope == SC_SCOPE_GPU ? "gl" : scope_names[in->scope]);
    classes[(*ncls)++] = 'F';
    break;
  case SC_OP_FENCE:
    tput(o, "%sfence", guard);
    put_qual(o, sem_names[in->sem]);
    put_qual(o, scope_names[in->scope]);
    tput(o, ";\\n\\t");
    classes[(*ncls)++] = 'F';
    break;
  case SC_OP_FENCE_PROXY:
    tput(o, "%sfence.proxy.%s;\\n\\t", guard, proxy_names[in->proxy]);
    break;
  case SC_OP_BAR:
    fail(g, "%s:%d:%d: barriers are not supported on the GPU (the test's "
            "threads share their CTAs with other instances)",
         t->file, in->line, in->col);
    break;
  case SC_OP_MOV: case SC_OP_ADD: case SC_OP_SUB: case SC_OP_AND:
  case SC_OP_OR: case SC_OP_XOR: case SC_OP_CVT: case SC_OP_SETP: {
    tput(o, "%s%s", guard, alu_names[in->op]);
    if (in->op == SC_OP_SETP)
      put_qual(o, cmp_names[in->cmp]);
    sc_type ty = in->type;
    if (ty == SC_TYPE_NONE) {
      sc_type rt = in->op == SC_OP_SETP ? operand_type(th, in->src[0])
                                        : operand_type(th, in->dst);
      bool bits = in->op == SC_OP_MOV || in->op == SC_OP_AND ||
                  in->op == SC_OP_OR || in->op == SC_OP_XOR;
      ty = is64(rt) ? (bits ? SC_TYPE_B64 : SC_TYPE_S64)
                    : (bits ? SC_TYPE_B32 : SC_TYPE_S32);
    }
    tput(o, ".%s", type_names[ty]);
    if (in->op == SC_OP_CVT)
      tput(o, ".%s", type_names[in->type2 ? in->type2 : SC_TYPE_S32]);
    tput(o, " ");
    put_operand(o, th, t, in->dst, false);
    for (int i = 0; i < in->nsrc; i++) {
      tput(o, ", ");
      put_operand(o, th, t, in->src[i], false);
    }
    tput(o, ";\\n\\t");
    break;
  }
  case SC_OP_BRA:
    tput(o, "%sbra%s tL%d_%s;\\n\\t", guard, in->uni ? ".uni" : "", ti,
         th->labels[in->target].name);
    break;
  case SC_OP_BEQ:
  case SC_OP_BNE: {
    bool w = is64(operand_type(th, in->src[0]));
    tput(o, "%ssetp.%s.s%s tP, ", guard, in->op == SC_OP_BEQ ? "eq" : "ne",
         w ? "64" : "32");
    put_operand(o, th, t, in->src[0], false);
    tput(o, ", ");
    put_operand(o, th, t, in->src[1], false);
    tput(o, ";\\n\\t%s@tP bra tL%d_%s;\\n\\t", in->guard >= 0 ? "" : "", ti,
         th->labels[in->target].name);
    if (in->guard >= 0)
      fail(g, "%s:%d:%d: guarded beq/bne is not supported", t->file, in->line,
           in->col);
    break;
  }
  default:
    fail(g, "%s:%d:%d: instruction not supported on the GPU", t->file,
         in->line, in->col);
  }
}

static void note_obs(const sc_lval *lv, void *ctx) {
  gen *g = ctx;
  if (lv->kind == SC_LVAL_REG) {
    if (g->res_slot[lv->thread][lv->reg] >= 0)
      return;
    g->res_slot[lv->thread][lv->reg] = g->nres;
    g->obs_kind[g->nobs] = 0;
    g->obs_a[g->nobs] = lv->thread;
    g->obs_b[g->nobs] = g->nres++;
    g->nobs++;
  } else if (lv->kind == SC_LVAL_LOC) {
    for (int i = 0; i < g->nobs; i++)
      if (g->obs_kind[i] == 1 && g->obs_a[i] == lv->loc)
        return;
    g->obs_kind[g->nobs] = 1;
    g->obs_a[g->nobs] = lv->loc;
    g->obs_b[g->nobs] = 0;
    g->nobs++;
  }
}

/* The condition as a C expression over v[] (the observed values). */
static void put_prop(gen *g, text *o, const sc_prop *p) {
  switch (p->kind) {
  case SC_PROP_TRUE: tput(o, "true"); return;
  case SC_PROP_FALSE: tput(o, "false"); return;
  case SC_PROP_NOT: tput(o, "!("); put_prop(g, o, p->a); tput(o, ")"); return;
  case SC_PROP_AND: case SC_PROP_OR: case SC_PROP_IMPLIES:
    tput(o, "(%s(", p->kind == SC_PROP_IMPLIES ? "!" : "");
    put_prop(g, o, p->a);
    tput(o, ") %s (", p->kind == SC_PROP_AND ? "&&" : "||");
    put_prop(g, o, p->b);
    tput(o, "))");
    return;
  case SC_PROP_EQ: case SC_PROP_NE: {
    const sc_lval *s[2] = {&p->lhs, &p->rhs};
    tput(o, "(");
    for (int k = 0; k < 2; k++) {
      const sc_lval *lv = s[k];
      if (k)
        tput(o, p->kind == SC_PROP_EQ ? " == " : " != ");
      if (lv->kind == SC_LVAL_CONST) {
        tput(o, "%" PRId64 "LL", lv->constant);
      } else if (lv->kind == SC_LVAL_ADDR) {
        tput(o, "ADDR_TERM");
        fail(g, "conditions on addresses are not supported on the GPU");
      } else {
        for (int i = 0; i < g->nobs; i++)
          if ((lv->kind == SC_LVAL_REG && g->obs_kind[i] == 0 &&
               g->obs_a[i] == lv->thread &&
               g->obs_b[i] == g->res_slot[lv->thread][lv->reg]) ||
              (lv->kind == SC_LVAL_LOC && g->obs_kind[i] == 1 &&
               g->obs_a[i] == lv->loc))
            tput(o, "v[%d]", i);
      }
    }
    tput(o, ")");
    return;
  }
  }
}

static void walk_consts(const sc_prop *p, int64_t *max) {
  if (!p)
    return;
  if (p->kind == SC_PROP_EQ || p->kind == SC_PROP_NE) {
    if (p->lhs.kind == SC_LVAL_CONST && p->lhs.constant > *max)
      *max = p->lhs.constant;
    if (p->rhs.kind == SC_LVAL_CONST && p->rhs.constant > *max)
      *max = p->rhs.constant;
  }
  walk_consts(p->a, max);
  walk_consts(p->b, max);
}

bool gpu_generate(FILE *out, const sc_test *t, gpu_spec *spec, char *why,
                  size_t whylen) {
  gen gs, *g = &gs;
  memset(g, 0, sizeof *g);
  g->t = t;
  g->why = why;
  g->whylen = whylen;
  g->ok = true;
  memset(g->res_slot, -1, sizeof g->res_slot);
  if (t->nthreads > 16 || t->nlocs > 64) {
    snprintf(why, whylen, "too many threads or locations for the GPU harness");
    return false;
  }
  /* classes from the placement */
  int ctaid[32], nwc[32];
  for (int i = 0; i < t->nthreads; i++) {
    const sc_thread *th = &t->threads[i];
    int c = -1;
    for (int j = 0; j < i; j++)
      if (t->threads[j].place[SC_LEVEL_CTA] == th->place[SC_LEVEL_CTA] &&
          t->threads[j].place[SC_LEVEL_KERNEL] == th->place[SC_LEVEL_KERNEL] &&
          t->threads[j].place[SC_LEVEL_DEVICE] == th->place[SC_LEVEL_DEVICE])
        c = g->cta[j];
    if (c < 0) {
      c = g->nc++;
      nwc[c] = 0;
      ctaid[c] = th->place[SC_LEVEL_CTA];
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
      w = nwc[c]++;
    g->warp[i] = w;
    g->lane[i] = l;
    if (nwc[c] > g->nwmax)
      g->nwmax = nwc[c];
    if (l + 1 > g->nlmax)
      g->nlmax = l + 1;
  }
  (void)ctaid;
  if (g->nwmax > 8) {
    snprintf(why, whylen, "more than 8 warps in one CTA");
    return false;
  }
  /* locations: shared ones live in one CTA */
  for (int l = 0; l < t->nlocs; l++) {
    const sc_location *loc = &t->locs[l];
    if (loc->alias_of >= 0 || loc->proxy != SC_PROXY_GENERIC) {
      snprintf(why, whylen, "location %s: aliases and proxies are not "
               "supported on the GPU", loc->name);
      return false;
    }
    if (loc->init.kind == SC_VAL_LOC) {
      snprintf(why, whylen, "location %s holds an address: not supported on "
               "the GPU", loc->name);
      return false;
    }
    g->loc_shared[l] = loc->region == SC_SPACE_SHARED;
    g->loc_owner[l] = -1;
    for (int i = 0; i < t->nthreads; i++) {
      const sc_thread *th = &t->threads[i];
      bool uses = false;
      for (int r = 0; r < th->nregs; r++)
        if (th->regs[r].init.kind == SC_VAL_LOC && th->regs[r].init.loc == l)
          uses = true;
      for (int k = 0; k < th->ninstrs; k++) {
        const sc_instr *in = &th->code[k];
        if (is_access(in) && in->addr.base.kind == SC_OPND_LOC &&
            in->addr.base.index == l)
          uses = true;
        for (int s = 0; s < in->nsrc; s++)
          if (in->src[s].kind == SC_OPND_LOC && in->src[s].index == l)
            uses = true;
      }
      if (!uses)
        continue;
      if (g->loc_owner[l] < 0)
        g->loc_owner[l] = i;
      else if (g->loc_shared[l] && g->cta[i] != g->cta[g->loc_owner[l]]) {
        snprintf(why, whylen, "shared location %s is used by threads of "
                 "different CTAs", loc->name);
        return false;
      }
    }
    if (g->loc_owner[l] < 0)
      g->loc_owner[l] = 0;
  }
  /* observed terms: the condition, then `locations [...]` */
  each_lval(t->cond, note_obs, g);
  if (t->filter)
    each_lval(t->filter, note_obs, g);
  for (int i = 0; i < t->nobserved; i++)
    note_obs(&t->observed[i], g);
  if (g->nobs > 12) {
    snprintf(why, whylen, "more than 12 observed values");
    return false;
  }
  int64_t maxc = 1;
  walk_consts(t->cond, &maxc);
  for (int l = 0; l < t->nlocs; l++)
    if (t->locs[l].init.i > maxc)
      maxc = t->locs[l].init.i;
  for (int i = 0; i < t->nthreads; i++)
    for (int k = 0; k < t->threads[i].ninstrs; k++)
      for (int s = 0; s < t->threads[i].code[k].nsrc; s++)
        if (t->threads[i].code[k].src[s].kind == SC_OPND_IMM &&
            t->threads[i].code[k].src[s].imm > maxc &&
            t->threads[i].code[k].src[s].imm < 1000)
          maxc = t->threads[i].code[k].src[s].imm;
  int radix = (int)maxc + 2;
  long nbuckets = 1;
  for (int i = 0; i < g->nobs; i++) {
    if (nbuckets * radix > 4096) {
      radix = 2;
      break;
    }
    nbuckets *= radix;
  }
  nbuckets = 1;
  for (int i = 0; i < g->nobs; i++)
    nbuckets *= radix;
  if (nbuckets > 4096) {
    snprintf(why, whylen, "too many observed values for the histogram");
    return false;
  }

  /* header: the test's constants */
  int line = 1;
#define EMIT(...) do { fprintf(out, __VA_ARGS__); } while (0)
  EMIT("// Generated by scopecat gpu from %s: test %s\n", t->file, t->name);
  line++;
  EMIT("#include \"gpu_prelude.cuh\"\n");
  line++;
  EMIT("#define TEST_NAME \"%s\"\n", t->name); line++;
  EMIT("#define NT %d\n#define NC %d\n#define NWMAX %d\n#define NLMAX %d\n",
       t->nthreads, g->nc, g->nwmax, g->nlmax);
  line += 4;
  EMIT("#define NLOC %d\n#define NOBS %d\n#define NRES %d\n#define RADIX %d\n"
       "#define NBUCKETS %ld\n", t->nlocs, g->nobs, g->nres ? g->nres : 1,
       radix, nbuckets);
  line += 5;
  EMIT("#define QUANT %d\n", t->quant == SC_EXISTS ? 0
       : t->quant == SC_NOT_EXISTS ? 1 : 2);
  line++;
  int nsh = 0;
  for (int l = 0; l < t->nlocs; l++)
    nsh += g->loc_shared[l];
  EMIT("#define NSHLOC %d\n", nsh); line++;
#define ARR(name, n, expr)                                                   \
  do {                                                                       \
    for (int k_ = 0; k_ < 2; k_++) {                                         \
      EMIT("%s int %s_%s[%d] = {", k_ ? "__constant__" : "static const",     \
           k_ ? "d" : "h", name, (n) > 0 ? (n) : 1);                         \
      for (int i_ = 0; i_ < (n); i_++)                                       \
        EMIT("%s%d", i_ ? ", " : "", (int)(expr));                           \
      if ((n) == 0)                                                          \
        EMIT("0");                                                           \
      EMIT("};\n");                                                         \
    }                                                                        \
    EMIT("#ifdef __CUDA_ARCH__\n#define %s d_%s\n#else\n#define %s h_%s\n"  \
         "#endif\n", name, name, name, name);                                \
    line += 7;                                                               \
  } while (0)
  ARR("T_CTA", t->nthreads, g->cta[i_]);
  ARR("T_WARP", t->nthreads, g->warp[i_]);
  ARR("T_LANE", t->nthreads, g->lane[i_]);
  ARR("LOC_SHARED", t->nlocs, g->loc_shared[i_]);
  ARR("LOC_INIT", t->nlocs, t->locs[i_].init.i);
  ARR("LOC_OWNER", t->nlocs, g->loc_owner[i_]);
  ARR("OBS_KIND", g->nobs, g->obs_kind[i_]);
  ARR("OBS_A", g->nobs, g->obs_a[i_]);
  ARR("OBS_B", g->nobs, g->obs_b[i_]);
  EMIT("static const char *const OBS_NAME[%d] = {", g->nobs ? g->nobs : 1);
  for (int i = 0; i < g->nobs; i++) {
    if (g->obs_kind[i] == 0) {
      const sc_thread *th = &t->threads[g->obs_a[i]];
      const char *rn = "?";
      for (int r = 0; r < th->nregs; r++)
        if (g->res_slot[g->obs_a[i]][r] == g->obs_b[i])
          rn = th->regs[r].name;
      EMIT("%s\"%d:%s\"", i ? ", " : "", g->obs_a[i], rn);
    } else {
      EMIT("%s\"%s\"", i ? ", " : "", t->locs[g->obs_a[i]].name);
    }
  }
  EMIT("%s};\n", g->nobs ? "" : "\"\"");
  line++;
  text cond = {0};
  put_prop(g, &cond, t->cond);
  EMIT("static bool cond_holds(const long long *v) { (void)v; return %s; }\n",
       cond.s ? cond.s : "true");
  line++;
  EMIT("static const char *const CONDITION = \"%s", t->quant == SC_EXISTS
       ? "exists" : t->quant == SC_NOT_EXISTS ? "~exists" : "forall");
  {
    text pc = {0};
    /* the printed condition: from the library (public API gives the whole
     * test; take its last exists/forall line) */
    const char *whole = sc_test_to_string(t);
    const char *c = NULL;
    for (const char *p = whole; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
      if (!strncmp(p, "exists", 6) || !strncmp(p, "~exists", 7) ||
          !strncmp(p, "forall", 6))
        c = p;
      if (!strchr(p, '\n'))
        break;
    }
    if (c) {
      while (*c && *c != ' ' && *c != '(') c++;
      while (*c == ' ') c++;
      for (; *c && *c != '\n'; c++)
        tput(&pc, *c == '"' || *c == '\\' ? "\\%c" : "%c", *c);
    }
    EMIT(" %s\";\n", pc.s ? pc.s : "");
    line++;
  }

  EMIT("__device__ __forceinline__ void run_thread(int t, int inst, "
       "long long *res, unsigned *sink, int **addr) {\n");
  line++;
  EMIT("  switch (t) {\n");
  line++;
  spec->nthreads = t->nthreads;
  for (int ti = 0; ti < t->nthreads; ti++) {
    const sc_thread *th = &t->threads[ti];
    /* outputs: observed registers, and every register an access writes */
    int outreg[64], nout = 0;
    for (int r = 0; r < th->nregs && r < 64; r++) {
      bool w = g->res_slot[ti][r] >= 0;
      for (int k = 0; k < th->ninstrs; k++)
        if ((th->code[k].op == SC_OP_LD || th->code[k].op == SC_OP_ATOM) &&
            th->code[k].dst.kind == SC_OPND_REG && th->code[k].dst.index == r)
          w = true;
      if (w)
        outreg[nout++] = r;
    }
    text a = {0};
    tput(&a, "{\\n\\t.reg .pred tP;\\n\\t.reg .b32 tI32;\\n\\t.reg .b64 tI64;"
             "\\n\\t");
    int nin = 0;
    int locop[64];
    for (int l = 0; l < t->nlocs; l++) {
      tput(&a, ".reg .b64 tl_%s;\\n\\tmov.b64 tl_%s, %%%d;\\n\\t",
           t->locs[l].name, t->locs[l].name, nout + nin);
      locop[nin++] = l;
      if (g->loc_shared[l])
        tput(&a, ".reg .b64 ts_%s;\\n\\tcvta.to.shared.u64 ts_%s, tl_%s;"
                 "\\n\\t", t->locs[l].name, t->locs[l].name, t->locs[l].name);
    }
    for (int r = 0; r < th->nregs; r++) {
      const sc_register *rg = &th->regs[r];
      sc_type ty = reg_type(rg);
      tput(&a, ".reg .%s tr_%s;\\n\\t", type_names[ty], rg->name);
      if (rg->init.kind == SC_VAL_LOC) {
        bool sh = g->loc_shared[rg->init.loc] && reg_used_shared(th, r);
        tput(&a, "mov.b64 tr_%s, %s_%s;\\n\\t", rg->name, sh ? "ts" : "tl",
             t->locs[rg->init.loc].name);
      } else if (ty != SC_TYPE_PRED) {
        tput(&a, "mov.%s tr_%s, %" PRId64 ";\\n\\t",
             is64(ty) ? "b64" : "b32", rg->name, rg->init.i);
      } else {
        tput(&a, "setp.ne.b32 tr_%s, tI32, tI32;\\n\\t", rg->name);
      }
    }
    int ncls = 0;
    char *cls = spec->threads[ti].classes;
    for (int k = 0; k < th->ninstrs && ncls < 250; k++) {
      for (int lb = 0; lb < th->nlabels; lb++)
        if (th->labels[lb].pc == k)
          tput(&a, "tL%d_%s:\\n\\t", ti, th->labels[lb].name);
      put_instr(g, &a, ti, &th->code[k], cls, &ncls);
    }
    for (int lb = 0; lb < th->nlabels; lb++)
      if (th->labels[lb].pc == th->ninstrs)
        tput(&a, "tL%d_%s:\\n\\t", ti, th->labels[lb].name);
    cls[ncls] = '\0';
    for (int o = 0; o < nout; o++) {
      const sc_register *rg = &th->regs[outreg[o]];
      sc_type ty = reg_type(rg);
      if (ty == SC_TYPE_PRED)
        tput(&a, "selp.u64 %%%d, 1, 0, tr_%s;\\n\\t", o, rg->name);
      else if (is64(ty))
        tput(&a, "mov.b64 %%%d, tr_%s;\\n\\t", o, rg->name);
      else
        tput(&a, "cvt.%s64.%s32 %%%d, tr_%s;\\n\\t",
             ty == SC_TYPE_U32 || ty == SC_TYPE_B32 ? "u" : "s",
             ty == SC_TYPE_U32 || ty == SC_TYPE_B32 ? "u" : "s", o, rg->name);
    }
    tput(&a, "}");
    EMIT("  case %d: {\n", ti);
    line++;
    EMIT("    long long o[%d];\n", nout ? nout : 1);
    line++;
    spec->threads[ti].line = line;
    EMIT("    asm volatile(\"%s\"", a.s);
    EMIT(" :");
    for (int o = 0; o < nout; o++)
      EMIT("%s \"=l\"(o[%d])", o ? "," : "", o);
    EMIT(" :");
    for (int i = 0; i < nin; i++)
      EMIT("%s \"l\"(addr[%d])", i ? "," : "", locop[i]);
    EMIT(" : \"memory\");\n");
    line++;
    for (int o = 0; o < nout; o++) {
      int slot = g->res_slot[ti][outreg[o]];
      if (slot >= 0)
        EMIT("    res[(long long)inst * NRES + %d] = o[%d];\n", slot, o);
      else
        EMIT("    *sink ^= (unsigned)o[%d];\n", o);
      line++;
    }
    EMIT("    break;\n  }\n");
    line += 2;
  }
  EMIT("  }\n}\n");
  EMIT("#include \"gpu_main.cuh\"\n");
  if (!g->ok)
    return false;
  return true;
}
