/* ptx.c: a test thread's code as the PTX of one inline asm block: the
 * test's instructions as written, registers and locations renamed (tr_R,
 * tl_X; ts_X for a shared-window address), labels made unique per thread,
 * and the few Dat3M spellings that are not PTX rewritten. */
#include "gpu/gpu.h"

#include <inttypes.h>
#include <stdio.h>

bool sci_gpu_type_is64(sc_type ty) {
  return ty == SC_TYPE_S64 || ty == SC_TYPE_U64 || ty == SC_TYPE_B64;
}

/* Dat3M's untyped registers: b64 when they hold an address, else s32. */
sc_type sci_gpu_reg_type(const sc_register *r) {
  if (r->type != SC_TYPE_NONE)
    return r->type;
  return r->init.kind == SC_VAL_LOC ? SC_TYPE_B64 : SC_TYPE_S32;
}

static void put_operand(sc_strbuf *o, const sc_test *t, const sc_thread *th,
                        sc_operand op, bool shared_addr) {
  switch (op.kind) {
  case SC_OPND_REG: sci_sb_printf(o, "tr_%s", th->regs[op.index].name); break;
  case SC_OPND_LOC:
    sci_sb_printf(o, "%s_%s", shared_addr ? "ts" : "tl", t->locs[op.index].name);
    break;
  case SC_OPND_IMM: sci_sb_printf(o, "%" PRId64, op.imm); break;
  case SC_OPND_NONE: break;
  }
}

static sc_type operand_type(const sc_thread *th, sc_operand op) {
  if (op.kind == SC_OPND_REG)
    return sci_gpu_reg_type(&th->regs[op.index]);
  if (op.kind == SC_OPND_LOC)
    return SC_TYPE_B64;
  return SC_TYPE_NONE;
}

/* Whether register `reg` is the address of a .shared access in this thread
 * (it then holds a shared-window address). */
static bool reg_used_shared(const sc_thread *th, int reg) {
  for (int i = 0; i < th->ninstrs; i++) {
    const sc_instr *in = &th->code[i];
    if (sci_instr_is_access(in) && in->space == SC_SPACE_SHARED &&
        in->addr.base.kind == SC_OPND_REG && in->addr.base.index == reg)
      return true;
  }
  return false;
}

/* The type suffix of an access written without one: the width of the
 * register it moves, the signedness its atomic operation needs. */
static const char *access_type(const sc_instr *in, const sc_thread *th) {
  if (in->type != SC_TYPE_NONE)
    return sci_type_name(in->type);
  sc_type rt = SC_TYPE_NONE;
  if (in->dst.kind == SC_OPND_REG)
    rt = operand_type(th, in->dst);
  else if (in->nsrc > 0)
    rt = operand_type(th, in->src[0]);
  bool w = sci_gpu_type_is64(rt);
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

static void put_qual(sc_strbuf *o, const char *q) {
  if (q && *q)
    sci_sb_printf(o, ".%s", q);
}

static const char *access_opcode(sc_opcode op) {
  return op == SC_OP_LD ? "ld" : op == SC_OP_ST ? "st"
         : op == SC_OP_ATOM ? "atom" : "red";
}

/* ld/st/atom/red.  st takes a register (an immediate is moved into one
 * first); Dat3M's atom/red .sub is not PTX: .add of the negated operand. */
static void put_access(sc_strbuf *o, const sc_gpu_gen *g, int ti,
                       const sc_instr *in, const char *guard) {
  const sc_test *t = g->t;
  const sc_thread *th = &t->threads[ti];
  bool shared = in->space == SC_SPACE_SHARED;
  const char *ty = access_type(in, th);
  char stsrc[16] = "";
  if (in->op == SC_OP_ST && in->nsrc > 0 && in->src[0].kind == SC_OPND_IMM) {
    bool w = ty[1] == '6';
    sci_sb_printf(o, "%smov.b%s tI%s, %" PRId64 ";\\n\\t", guard,
                 w ? "64" : "32", w ? "64" : "32", in->src[0].imm);
    snprintf(stsrc, sizeof stsrc, "tI%s", w ? "64" : "32");
  }
  bool sub = in->atomop == SC_ATOM_SUB;
  char subsrc[32] = "";
  if (sub && in->nsrc > 0) {
    if (in->src[0].kind == SC_OPND_IMM) {
      snprintf(subsrc, sizeof subsrc, "%" PRId64, -in->src[0].imm);
    } else {
      sci_sb_printf(o, "%sneg.s32 tI32, ", guard);
      put_operand(o, t, th, in->src[0], false);
      sci_sb_puts(o, ";\\n\\t");
      snprintf(subsrc, sizeof subsrc, "tI32");
    }
    ty = "u32";
  }
  sci_sb_printf(o, "%s%s", guard, access_opcode(in->op));
  put_qual(o, sci_sem_name(in->sem));
  put_qual(o, sci_scope_name(in->scope));
  put_qual(o, sci_space_name(in->space));
  put_qual(o, sci_cacheop_name(in->cacheop));
  put_qual(o, sub ? "add" : sci_atomop_name(in->atomop));
  sci_sb_printf(o, ".%s ", ty);
  if (in->dst.kind != SC_OPND_NONE) {
    put_operand(o, t, th, in->dst, false);
    sci_sb_puts(o, ", ");
  }
  sci_sb_puts(o, "[");
  put_operand(o, t, th, in->addr.base, shared);
  if (in->addr.offset)
    sci_sb_printf(o, "%+" PRId64, in->addr.offset);
  sci_sb_puts(o, "]");
  for (int i = 0; i < in->nsrc; i++) {
    sci_sb_puts(o, ", ");
    if (i == 0 && stsrc[0])
      sci_sb_puts(o, stsrc);
    else if (i == 0 && subsrc[0])
      sci_sb_puts(o, subsrc);
    else
      put_operand(o, t, th, in->src[i], false);
  }
  sci_sb_puts(o, ";\\n\\t");
}

/* mov/add/sub/and/or/xor/cvt/setp; an untyped one takes its register's
 * width (bit operations as .b, arithmetic as .s). */
static void put_alu(sc_strbuf *o, const sc_gpu_gen *g, int ti,
                    const sc_instr *in, const char *guard) {
  const sc_thread *th = &g->t->threads[ti];
  sci_sb_printf(o, "%s%s", guard, sci_opcode_name(in->op));
  if (in->op == SC_OP_SETP)
    put_qual(o, sci_cmp_name(in->cmp));
  sc_type ty = in->type;
  if (ty == SC_TYPE_NONE) {
    sc_type rt = in->op == SC_OP_SETP ? operand_type(th, in->src[0])
                                      : operand_type(th, in->dst);
    bool bits = in->op == SC_OP_MOV || in->op == SC_OP_AND ||
                in->op == SC_OP_OR || in->op == SC_OP_XOR;
    ty = sci_gpu_type_is64(rt) ? (bits ? SC_TYPE_B64 : SC_TYPE_S64)
                              : (bits ? SC_TYPE_B32 : SC_TYPE_S32);
  }
  sci_sb_printf(o, ".%s", sci_type_name(ty));
  if (in->op == SC_OP_CVT)
    sci_sb_printf(o, ".%s", sci_type_name(in->type2 ? in->type2 : SC_TYPE_S32));
  sci_sb_puts(o, " ");
  put_operand(o, g->t, th, in->dst, false);
  for (int i = 0; i < in->nsrc; i++) {
    sci_sb_puts(o, ", ");
    put_operand(o, g->t, th, in->src[i], false);
  }
  sci_sb_puts(o, ";\\n\\t");
}

/* Dat3M's beq/bne: a setp into the block's predicate, then a branch. */
static void put_compare_branch(sc_strbuf *o, sc_gpu_gen *g, int ti,
                               const sc_instr *in, const char *guard) {
  const sc_thread *th = &g->t->threads[ti];
  bool w = sci_gpu_type_is64(operand_type(th, in->src[0]));
  sci_sb_printf(o, "%ssetp.%s.s%s tP, ", guard,
               in->op == SC_OP_BEQ ? "eq" : "ne", w ? "64" : "32");
  put_operand(o, g->t, th, in->src[0], false);
  sci_sb_puts(o, ", ");
  put_operand(o, g->t, th, in->src[1], false);
  sci_sb_printf(o, ";\\n\\t@tP bra tL%d_%s;\\n\\t", ti,
               th->labels[in->target].name);
  if (in->guard >= 0)
    sci_gpu_fail(g, SC_ERR_UNSUPPORTED, in->line, in->col,
                "guarded beq/bne is not supported");
}

/* bar.sync a / bar.arrive a, and Dat3M's quorum forms, as PTX's barrier
 * with a thread count: the group's hardware barrier (layout.c), and 32
 * threads for each test thread the quorum or the group counts (a test
 * thread is a warp).  Not .aligned unless the test says so: the test's
 * threads run different code, which .aligned rules out. */
static void put_barrier(sc_strbuf *o, sc_gpu_gen *g, int ti,
                        const sc_instr *in, const char *guard) {
  int count = 0;
  const sc_gpu_bargroup *b = sci_gpu_barrier_of(g, ti, in, &count);
  if (!b) {
    sci_gpu_fail(g, SC_ERR_UNSUPPORTED, in->line, in->col,
                "barrier without a group (not placed)");
    return;
  }
  sci_sb_printf(o, "%sbarrier%s.%s%s %d, %d;\\n\\t", guard,
               in->bar_cta ? ".cta" : "",
               in->barmode == SC_BAR_ARRIVE ? "arrive" : "sync",
               in->aligned ? ".aligned" : "", b->hwid, count);
}

/* One instruction; its class (L, S, A, F) appended to `classes`. */
static void put_instr(sc_strbuf *o, sc_gpu_gen *g, int ti, const sc_instr *in,
                      char *classes, int *ncls) {
  const sc_thread *th = &g->t->threads[ti];
  char guard[96] = "";
  if (in->guard >= 0)
    snprintf(guard, sizeof guard, "@%str_%s ", in->guard_negated ? "!" : "",
             th->regs[in->guard].name);
  if (in->proxy != SC_PROXY_GENERIC && in->op != SC_OP_FENCE_PROXY)
    sci_gpu_fail(g, SC_ERR_UNSUPPORTED, in->line, in->col,
                "access through the %s proxy: not supported on the GPU (the "
                "harness binds no surface, texture or constant view of its "
                "locations)", sci_proxy_name(in->proxy));
  switch (in->op) {
  case SC_OP_LD: case SC_OP_ST: case SC_OP_ATOM: case SC_OP_RED:
    put_access(o, g, ti, in, guard);
    classes[(*ncls)++] = in->op == SC_OP_LD ? 'L' : in->op == SC_OP_ST ? 'S'
                                                                       : 'A';
    break;
  case SC_OP_MEMBAR:
    sci_sb_printf(o, "%smembar.%s;\\n\\t", guard,
                 in->scope == SC_SCOPE_GPU ? "gl" : sci_scope_name(in->scope));
    classes[(*ncls)++] = 'F';
    break;
  case SC_OP_FENCE:
    sci_sb_printf(o, "%sfence", guard);
    put_qual(o, sci_sem_name(in->sem));
    put_qual(o, sci_scope_name(in->scope));
    sci_sb_puts(o, ";\\n\\t");
    classes[(*ncls)++] = 'F';
    break;
  case SC_OP_FENCE_PROXY:
    if (in->proxy != SC_PROXY_ALIAS)
      sci_gpu_fail(g, SC_ERR_UNSUPPORTED, in->line, in->col,
                  "fence.proxy.%s is not PTX (the ISA's fence.proxy kinds "
                  "are alias, async and tensormap): not supported on the GPU",
                  sci_proxy_name(in->proxy));
    sci_sb_printf(o, "%sfence.proxy.%s;\\n\\t", guard, sci_proxy_name(in->proxy));
    break;
  case SC_OP_BAR:
    put_barrier(o, g, ti, in, guard);
    break;
  case SC_OP_MOV: case SC_OP_ADD: case SC_OP_SUB: case SC_OP_AND:
  case SC_OP_OR: case SC_OP_XOR: case SC_OP_CVT: case SC_OP_SETP:
    put_alu(o, g, ti, in, guard);
    break;
  case SC_OP_BRA:
    sci_sb_printf(o, "%sbra%s tL%d_%s;\\n\\t", guard, in->uni ? ".uni" : "",
                 ti, th->labels[in->target].name);
    break;
  case SC_OP_BEQ: case SC_OP_BNE:
    put_compare_branch(o, g, ti, in, guard);
    break;
  default: /* the kernel ALU and ret: a kernel's test is no litmus test */
    sci_gpu_fail(g, SC_ERR_UNSUPPORTED, in->line, in->col,
                "%s is a kernel's instruction (scopecat kernel), not supported "
                "on the GPU", sci_opcode_name(in->op));
  }
}

/* The block's declarations: scratch registers, each location's address
 * (an input operand), each register with its initial value. */
static void put_declarations(sc_strbuf *a, const sc_gpu_gen *g, int ti,
                             int nout, int *locop, int *nin) {
  const sc_test *t = g->t;
  const sc_thread *th = &t->threads[ti];
  sci_sb_puts(a, "{\\n\\t.reg .pred tP;\\n\\t.reg .b32 tI32;\\n\\t"
                ".reg .b64 tI64;\\n\\t");
  *nin = 0;
  for (int l = 0; l < t->nlocs; l++) {
    const char *n = t->locs[l].name;
    sci_sb_printf(a, ".reg .b64 tl_%s;\\n\\tmov.b64 tl_%s, %%%d;\\n\\t", n, n,
                 nout + *nin);
    locop[(*nin)++] = l;
    if (g->loc_shared[l])
      sci_sb_printf(a, ".reg .b64 ts_%s;\\n\\tcvta.to.shared.u64 ts_%s, tl_%s;"
                      "\\n\\t", n, n, n);
  }
  for (int r = 0; r < th->nregs; r++) {
    const sc_register *rg = &th->regs[r];
    sc_type ty = sci_gpu_reg_type(rg);
    sci_sb_printf(a, ".reg .%s tr_%s;\\n\\t", sci_type_name(ty), rg->name);
    if (rg->init.kind == SC_VAL_LOC) {
      bool sh = g->loc_shared[rg->init.loc] && reg_used_shared(th, r);
      sci_sb_printf(a, "mov.b64 tr_%s, %s_%s;\\n\\t", rg->name,
                   sh ? "ts" : "tl", t->locs[rg->init.loc].name);
    } else if (ty != SC_TYPE_PRED) {
      sci_sb_printf(a, "mov.%s tr_%s, %" PRId64 ";\\n\\t",
                   sci_gpu_type_is64(ty) ? "b64" : "b32", rg->name, rg->init.i);
    } else {
      sci_sb_printf(a, "setp.ne.b32 tr_%s, tI32, tI32;\\n\\t", rg->name);
    }
  }
}

/* The block's outputs, widened to 64 bits (predicates as 0 or 1). */
static void put_outputs(sc_strbuf *a, const sc_thread *th, const int *outreg,
                        int nout) {
  for (int o = 0; o < nout; o++) {
    const sc_register *rg = &th->regs[outreg[o]];
    sc_type ty = sci_gpu_reg_type(rg);
    bool u = ty == SC_TYPE_U32 || ty == SC_TYPE_B32;
    if (ty == SC_TYPE_PRED)
      sci_sb_printf(a, "selp.u64 %%%d, 1, 0, tr_%s;\\n\\t", o, rg->name);
    else if (sci_gpu_type_is64(ty))
      sci_sb_printf(a, "mov.b64 %%%d, tr_%s;\\n\\t", o, rg->name);
    else
      sci_sb_printf(a, "cvt.%s64.%s32 %%%d, tr_%s;\\n\\t", u ? "u" : "s",
                   u ? "u" : "s", o, rg->name);
  }
}

/* The registers the block hands back: observed ones, and every one a load
 * or atom writes (kept live so that ptxas keeps the access). */
static int output_registers(const sc_gpu_gen *g, int ti, int *outreg) {
  const sc_thread *th = &g->t->threads[ti];
  int nout = 0;
  for (int r = 0; r < th->nregs; r++) {
    bool w = g->res_slot[ti][r] >= 0;
    for (int k = 0; k < th->ninstrs; k++)
      if ((th->code[k].op == SC_OP_LD || th->code[k].op == SC_OP_ATOM) &&
          th->code[k].dst.kind == SC_OPND_REG && th->code[k].dst.index == r)
        w = true;
    if (w)
      outreg[nout++] = r;
  }
  return nout;
}

static void put_labels_at(sc_strbuf *a, const sc_thread *th, int ti, int pc) {
  for (int lb = 0; lb < th->nlabels; lb++)
    if (th->labels[lb].pc == pc)
      sci_sb_printf(a, "tL%d_%s:\\n\\t", ti, th->labels[lb].name);
}

const char *sci_gpu_thread_asm(sc_gpu_gen *g, int ti, int *outreg, int *nout,
                              int *locop, int *nin, char *classes) {
  const sc_thread *th = &g->t->threads[ti];
  if (g->t->byte_addresses) /* its memory is arrays at byte addresses */
    sci_gpu_fail(g, SC_ERR_UNSUPPORTED, 0, 0,
                "expected a litmus test, found a kernel's test (scopecat "
                "kernel): the GPU runner runs litmus tests only");
  sc_strbuf a;
  sci_sb_init(&a);
  *nout = output_registers(g, ti, outreg);
  put_declarations(&a, g, ti, *nout, locop, nin);
  int ncls = 0;
  for (int k = 0; k < th->ninstrs; k++) {
    if (ncls >= SC_GPU_MAX_ACCESSES) {
      sci_gpu_fail(g, SC_ERR_LIMIT, th->code[k].line, th->code[k].col,
                  "more than %d memory accesses and fences in one thread "
                  "(the GPU harness's limit)", SC_GPU_MAX_ACCESSES);
      break;
    }
    put_labels_at(&a, th, ti, k);
    put_instr(&a, g, ti, &th->code[k], classes, &ncls);
  }
  put_labels_at(&a, th, ti, th->ninstrs);
  classes[ncls] = '\0';
  put_outputs(&a, th, outreg, *nout);
  sci_sb_puts(&a, "}");
  return a.data;
}
