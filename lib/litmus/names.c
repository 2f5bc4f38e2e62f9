/* names.c: the spelling of every small vocabulary of litmus.h, in
 * one place, shared by the parsers (lookup) and the printers (names). */
#include "litmus/litmus.h"

#include <string.h>

const char *const sci_type_names[SC_TYPE_COUNT] = {
    "", "s32", "u32", "b32", "s64", "u64", "b64", "pred",
    "s8", "u8", "b8", "s16", "u16", "b16"};
const char *const sci_sem_names[SC_SEM_COUNT] = {
    "", "weak", "volatile", "relaxed", "acquire", "release", "acq_rel", "sc"};
const char *const sci_scope_names[SC_SCOPE_COUNT] = {
    "", "cta", "cluster", "gpu", "sys"};
const char *const sci_space_names[SC_SPACE_COUNT] = {"", "global", "shared"};
const char *const sci_cacheop_names[SC_CACHE_COUNT] = {
    "", "ca", "cg", "cs", "lu", "cv", "wb", "wt"};
const char *const sci_atomop_names[SC_ATOM_COUNT] = {
    "", "cas", "exch", "add", "sub", "inc", "dec", "and", "or", "xor",
    "min", "max"};
const char *const sci_cmp_names[SC_CMP_COUNT] = {
    "", "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"};
const char *const sci_proxy_names[SC_PROXY_COUNT] = {
    "generic", "surface", "texture", "constant", "alias"};
static const char *const level_names[SC_LEVEL_COUNT] = {
    "device", "kernel", "cta", "warp", "thread"};
static const char *const opcode_names[SC_OP_COUNT] = {
    "ld", "st", "atom", "red", "membar", "fence", "fence.proxy", "bar",
    "mov", "add", "sub", "and", "or", "xor", "cvt", "setp", "bra", "beq",
    "bne", "mul", "mad", "shl", "shr", "min", "max", "not", "neg", "selp",
    "ret"};

int sci_name_lookup(const char *const *table, int count, const char *word) {
  for (int i = 0; i < count; i++)
    if (table[i][0] && strcmp(table[i], word) == 0)
      return i;
  return -1;
}

const char *sci_type_name(sc_type t) { return sci_type_names[t]; }
const char *sci_sem_name(sc_sem s) { return sci_sem_names[s]; }
const char *sci_scope_name(sc_scope s) { return sci_scope_names[s]; }
const char *sci_space_name(sc_space s) { return sci_space_names[s]; }
const char *sci_cacheop_name(sc_cacheop c) { return sci_cacheop_names[c]; }
const char *sci_atomop_name(sc_atomop a) { return sci_atomop_names[a]; }
const char *sci_cmp_name(sc_cmp c) { return sci_cmp_names[c]; }
const char *sci_proxy_name(sc_proxy p) { return sci_proxy_names[p]; }
const char *sci_level_name(sc_level l) { return level_names[l]; }
const char *sci_opcode_name(sc_opcode op) { return opcode_names[op]; }

bool sci_instr_is_access(const sc_instr *in) {
  return in->op == SC_OP_LD || in->op == SC_OP_ST || in->op == SC_OP_ATOM ||
         in->op == SC_OP_RED;
}

int sci_test_find_location(const sc_test *t, const char *name) {
  for (int i = 0; i < t->nlocs; i++)
    if (strcmp(t->locs[i].name, name) == 0)
      return i;
  return -1;
}

int sci_thread_find_register(const sc_thread *th, const char *name) {
  for (int i = 0; i < th->nregs; i++)
    if (strcmp(th->regs[i].name, name) == 0)
      return i;
  return -1;
}

int sci_instr_annotations(const sc_instr *in, const char *out[2]) {
  int n = 0;
  if (in->cacheop)
    out[n++] = sci_cacheop_name(in->cacheop);
  if (in->sem)
    out[n++] = sci_sem_name(in->sem);
  return n;
}

int sci_instr_event_types(const sc_instr *in, const char *out[3]) {
  switch (in->op) {
  case SC_OP_LD: out[0] = "R"; return 1;
  case SC_OP_ST: out[0] = "W"; return 1;
  case SC_OP_ATOM:
  case SC_OP_RED: out[0] = "R"; out[1] = "W"; out[2] = "RMW"; return 3;
  case SC_OP_MEMBAR:
  case SC_OP_FENCE:
  case SC_OP_FENCE_PROXY: out[0] = "F"; return 1;
  default: return 0;
  }
}

/* ---- Widths: a kernel's arithmetic wraps at its instruction's (sim/sem.c) */

int sci_type_bytes(sc_type ty) {
  switch (ty) {
  case SC_TYPE_S8: case SC_TYPE_U8: case SC_TYPE_B8: return 1;
  case SC_TYPE_S16: case SC_TYPE_U16: case SC_TYPE_B16: return 2;
  case SC_TYPE_S32: case SC_TYPE_U32: case SC_TYPE_B32: return 4;
  case SC_TYPE_S64: case SC_TYPE_U64: case SC_TYPE_B64: return 8;
  default: return 0;
  }
}

static bool signed_type(sc_type ty) {
  return ty == SC_TYPE_S8 || ty == SC_TYPE_S16 || ty == SC_TYPE_S32 ||
         ty == SC_TYPE_S64;
}

/* `v` cut to the width of `ty`, read as that type says: sign-extended for
 * .sN, zero-extended for .uN and .bN (a register of a kernel holds the
 * bits of its type; an untyped or 64-bit value is left as it is). */
int64_t sci_wrap(sc_type ty, int64_t v) {
  int bytes = sci_type_bytes(ty);
  if (bytes == 0 || bytes == 8)
    return v;
  int bits = bytes * 8;
  uint64_t mask = ((uint64_t)1 << bits) - 1, u = (uint64_t)v & mask;
  if (signed_type(ty) && (u >> (bits - 1)) & 1)
    u |= ~mask;
  return (int64_t)u;
}


