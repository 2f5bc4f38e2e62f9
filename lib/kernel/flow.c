/* flow.c: whether a kernel's verdict generalises over its data inputs
 * (Leung et al.'s test amplification): a taint analysis from the data
 * inputs (every value read from memory, every scalar parameter) through
 * the registers to the addresses and branch conditions (guards
 * included).  Conservative: flow-insensitive over each thread's code, a
 * register once tainted stays so; where no taint reaches an address or a
 * decision, the same accesses happen whatever the inputs' values. */
#include "kernel/kernel.h"

#include "util/gcmem.h"

#include <string.h>

/* Where a register's taint came from: the pc of the instruction whose
 * data input it carries, -1 when untainted. */
static bool taint_registers(const sc_thread *th, int *from) {
  bool grew = false;
  for (int pc = 0; pc < th->ninstrs; pc++) {
    const sc_instr *in = &th->code[pc];
    if (in->dst.kind != SC_OPND_REG || from[in->dst.index] >= 0)
      continue;
    int src = -1;
    if (in->op == SC_OP_LD || in->op == SC_OP_ATOM || in->data_input)
      src = pc;
    for (int k = 0; k < in->nsrc && k < 3 && src < 0; k++)
      if (in->src[k].kind == SC_OPND_REG && from[in->src[k].index] >= 0)
        src = from[in->src[k].index];
    if (src >= 0) {
      from[in->dst.index] = src;
      grew = true;
    }
  }
  return grew;
}

static const char *origin_text(const sc_test *t, const sc_instr *in) {
  (void)t;
  if (in->data_input)
    return sci_printf("a scalar parameter read at line %d", in->line);
  return sci_printf("the value %s reads at line %d", sci_opcode_name(in->op),
                   in->line);
}

/* The first use of a tainted register in thread th as an address or a
 * decision; NULL when none. */
static const char *first_tainted_use(const sc_test *t, int thread, const int *from) {
  const sc_thread *th = &t->threads[thread];
  for (int pc = 0; pc < th->ninstrs; pc++) {
    const sc_instr *in = &th->code[pc];
    const char *what = NULL;
    int src = -1;
    if (in->guard >= 0 && from[in->guard] >= 0) {
      src = from[in->guard];
      what = in->op == SC_OP_BRA ? "branch" : "guard";
    } else if (sci_instr_is_access(in) && in->addr.base.kind == SC_OPND_REG &&
               from[in->addr.base.index] >= 0) {
      src = from[in->addr.base.index];
      what = "address";
    } else if ((in->op == SC_OP_BEQ || in->op == SC_OP_BNE) &&
               ((in->src[0].kind == SC_OPND_REG && from[in->src[0].index] >= 0) ||
                (in->src[1].kind == SC_OPND_REG && from[in->src[1].index] >= 0))) {
      src = from[in->src[0].kind == SC_OPND_REG && from[in->src[0].index] >= 0
                     ? in->src[0].index : in->src[1].index];
      what = "branch";
    }
    if (what)
      return sci_printf("%s %s:%d: %s on data (%s)", th->name, t->file, in->line,
                       what, origin_text(t, &th->code[src]));
  }
  return NULL;
}

int sc_kernel_generalises(const sc_test *t, const char **why) {
  if (!t->byte_addresses) {
    if (why)
      *why = "not a kernel";
    return 0;
  }
  for (int i = 0; i < t->nthreads; i++) {
    const sc_thread *th = &t->threads[i];
    int *from = sci_alloc_atomic(sizeof(int) * (size_t)(th->nregs + 1));
    memset(from, 0xff, sizeof(int) * (size_t)(th->nregs + 1));
    while (taint_registers(th, from))
      ;
    const char *use = first_tainted_use(t, i, from);
    if (use) {
      if (why)
        *why = use;
      return 0;
    }
  }
  if (why)
    *why = NULL;
  return 1;
}
