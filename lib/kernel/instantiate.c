/* instantiate.c: a kernel's test for a launch (sc_kernel_load_string).
 * Every thread of the grid is a copy of the entry's template thread, its
 * special registers set as initial values; the parameters are bound
 * (a pointer to its array's first element, a scalar to its value); the
 * memory is laid out as locations at byte addresses (sim/sem.c resolves
 * base + offset to the element), each array a run of elements of the
 * width the code accesses it with, each .shared variable once per CTA. */
#define _POSIX_C_SOURCE 200809L
#include "kernel/kernel.h"

#include "litmus/parser.h"
#include "util/error.h"
#include "util/gcmem.h"

#include <stdio.h>
#include <string.h>

/* Where memory starts, and the gap between two blocks (arrays, variables):
 * addresses stay below 2^31, so that nvcc's 32-bit .shared addresses
 * hold them, and a pointer run off a block's end lands in no other. */
#define MEMORY_BASE 0x10000000LL
#define BLOCK_ALIGN 0x100000LL
#define MEMORY_END 0x7fff0000LL

typedef struct inst {
  const ptx_module *m;
  const ptx_entry *e;
  const sc_kernel_launch *l;
  sc_parse_limits lim;
  sc_test *t;
  const sc_kernel_input **input; /* per parameter, NULL when none */
  int *param_width, *var_width;  /* access width per parameter, variable */
  int *param_first, *var_first;  /* first location (per CTA for .shared:
                                    var_first[v * ctas + c]) */
  int64_t next_address;
  sc_error *err;
} inst;

static sc_status header_fail(inst *in, int line, int col, sc_status st,
                             const char *msg) {
  return sci_fail(&in->err, st, in->l->header_file ? in->l->header_file
                                                   : in->m->file,
                  line, col, "%s", msg);
}

/* An error at input `ki`, in the file it was written in (the header's,
 * or -input's). */
static sc_status input_fail(inst *in, const sc_kernel_input *ki, sc_status st,
                            const char *msg) {
  if (!ki->file)
    return header_fail(in, ki->line, ki->col, st, msg);
  return sci_fail(&in->err, st, ki->file, ki->line, ki->col, "%s", msg);
}

/* ---- Names ----------------------------------------------------------------- */

/* A local static's mangled name, _ZZ<fn>E<len><name>, shortened to
 * <name>; any other name as it is. */
static const char *short_name(const char *name) {
  if (strncmp(name, "_ZZ", 3) != 0)
    return name;
  const char *e = strrchr(name, 'E');
  if (!e || e[1] < '1' || e[1] > '9')
    return name;
  int len = 0;
  const char *p = e + 1;
  while (*p >= '0' && *p <= '9')
    len = len * 10 + (*p++ - '0');
  return (int)strlen(p) == len ? sci_strdup(p) : name;
}

/* A kernel's own name from its mangled one: _Z<len><name>... gives
 * <name>; an extern "C" name is itself. */
static const char *kernel_name(const char *name) {
  if (strncmp(name, "_Z", 2) != 0 || name[2] < '1' || name[2] > '9')
    return name;
  int len = 0;
  const char *p = name + 2;
  while (*p >= '0' && *p <= '9' && len < 100000)
    len = len * 10 + (*p++ - '0');
  return (int)strlen(p) >= len ? sci_strndup(p, (size_t)len) : name;
}

/* The name the launch knows parameter k by. */
static const char *param_name(const inst *in, int k) {
  return in->l->nparam_names > 0 ? in->l->param_names[k] : in->e->params[k].name;
}

/* ---- Inputs --------------------------------------------------------------- */

static sc_status bind_inputs(inst *in) {
  const ptx_entry *e = in->e;
  if (in->l->nparam_names > 0 && in->l->nparam_names != e->nparams)
    return sci_fail(&in->err, SC_ERR_SEMANTIC, in->m->file, e->line, e->col,
                   "expected %d parameter names for %s, found %d", e->nparams,
                   e->name, in->l->nparam_names);
  in->input = sci_alloc(sizeof(sc_kernel_input *) * (size_t)(e->nparams + 1));
  for (int i = 0; i < in->l->ninputs; i++) {
    const sc_kernel_input *ki = &in->l->inputs[i];
    int k = -1;
    for (int j = 0; j < e->nparams; j++)
      if (strcmp(param_name(in, j), ki->param) == 0)
        k = j;
    if (k < 0) {
      char names[512] = "";
      for (int j = 0; j < e->nparams && strlen(names) < 400; j++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                 j ? ", " : "", param_name(in, j));
      return input_fail(in, ki, SC_ERR_SEMANTIC,
                         sci_printf("expected a parameter of %s (%s), found '%s'",
                                   e->name, e->nparams ? names : "none",
                                   ki->param));
    }
    if (in->input[k])
      return input_fail(in, ki, SC_ERR_SEMANTIC,
                         sci_printf("expected one value for parameter '%s', "
                                   "found a second", ki->param));
    if (ki->is_array && ki->nvalues <= 0)
      return input_fail(in, ki, SC_ERR_SEMANTIC,
                         sci_printf("expected at least one value in the array "
                                   "of '%s'", ki->param));
    if (ki->is_array && ki->nvalues > (1 << 20))
      return input_fail(in, ki, SC_ERR_LIMIT,
                         sci_printf("expected at most %d values in the array "
                                   "of '%s'", 1 << 20, ki->param));
    in->input[k] = ki;
  }
  return SC_OK;
}

/* ---- Element widths: what the code accesses each array with ------------ */

/* Which parameter or variable each template register's value points
 * into (-1: none known): ld.param, mov of a variable, and what cvta,
 * mov, cvt, add and sub make of such a value, to a fixpoint. */
typedef struct origin {
  bool is_param;
  int index; /* -1: none */
} origin;

static origin operand_origin(const inst *in, const origin *reg, sc_operand o) {
  if (o.kind == SC_OPND_REG)
    return reg[o.index];
  if (o.kind == SC_OPND_LOC) {
    ptx_symbol s = in->e->symbols[o.index];
    return (origin){s.is_param, s.index};
  }
  return (origin){false, -1};
}

static bool propagates(sc_opcode op) {
  return op == SC_OP_MOV || op == SC_OP_CVT || op == SC_OP_ADD || op == SC_OP_SUB;
}

static void find_origins(const inst *in, origin *reg) {
  const sc_thread *th = &in->e->tmpl->threads[0];
  for (int i = 0; i < th->nregs; i++)
    reg[i] = (origin){false, -1};
  for (bool grew = true; grew;) {
    grew = false;
    for (int pc = 0; pc < th->ninstrs; pc++) {
      const sc_instr *ins = &th->code[pc];
      if (!propagates(ins->op) || ins->dst.kind != SC_OPND_REG ||
          reg[ins->dst.index].index >= 0)
        continue;
      for (int k = 0; k < ins->nsrc && k < 2; k++) {
        origin o = operand_origin(in, reg, ins->src[k]);
        if (o.index >= 0) {
          reg[ins->dst.index] = o;
          grew = true;
          break;
        }
      }
    }
  }
}

/* The access width of each parameter and variable; 0 when no access
 * says (the declared type's then). */
static sc_status find_widths(inst *in) {
  const sc_thread *th = &in->e->tmpl->threads[0];
  origin *reg = sci_alloc(sizeof(origin) * (size_t)(th->nregs + 1));
  find_origins(in, reg);
  in->param_width = sci_alloc_atomic(sizeof(int) * (size_t)(in->e->nparams + 1));
  in->var_width = sci_alloc_atomic(sizeof(int) * (size_t)(in->m->nvars + 1));
  memset(in->param_width, 0, sizeof(int) * (size_t)(in->e->nparams + 1));
  memset(in->var_width, 0, sizeof(int) * (size_t)(in->m->nvars + 1));
  for (int pc = 0; pc < th->ninstrs; pc++) {
    const sc_instr *ins = &th->code[pc];
    if (!sci_instr_is_access(ins))
      continue;
    origin o = operand_origin(in, reg, ins->addr.base);
    int bytes = 0;
    switch (ins->type) {
    case SC_TYPE_S8: case SC_TYPE_U8: case SC_TYPE_B8: bytes = 1; break;
    case SC_TYPE_S16: case SC_TYPE_U16: case SC_TYPE_B16: bytes = 2; break;
    case SC_TYPE_S64: case SC_TYPE_U64: case SC_TYPE_B64: bytes = 8; break;
    case SC_TYPE_NONE: case SC_TYPE_PRED: case SC_TYPE_COUNT: bytes = 0; break;
    default: bytes = 4; break;
    }
    if (o.index < 0 || bytes == 0)
      continue;
    int *w = o.is_param ? &in->param_width[o.index] : &in->var_width[o.index];
    if (*w == 0 || bytes < *w)
      *w = bytes; /* the narrowest: a wider access is then off its element */
  }
  return SC_OK;
}

/* ---- Memory ------------------------------------------------------------------ */

static int64_t align_up(int64_t v, int64_t a) { return (v + a - 1) / a * a; }

/* Lay out a block of `count` elements of `size` bytes: the locations
 * `name[0]` .. (or `name` alone when !array), initial values from
 * `values` (missing ones 0); returns its first location, -1 on error. */
static int add_block(inst *in, const char *name, bool array, int size,
                     long long count, const long long *values, int nvalues,
                     const int64_t *values64, sc_space space) {
  sc_test *t = in->t;
  int64_t base = in->next_address;
  int64_t end = base + (int64_t)size * count;
  if (count <= 0 || end > MEMORY_END || t->nlocs + count > (1 << 20)) {
    sci_fail(&in->err, SC_ERR_LIMIT, in->m->file, in->e->line, in->e->col,
            "expected the kernel's memory to fit in %lld bytes of at most %d "
            "elements; %s does not", MEMORY_END - MEMORY_BASE, 1 << 20, name);
    return -1;
  }
  in->next_address = align_up(end, BLOCK_ALIGN) + BLOCK_ALIGN;
  int first = t->nlocs;
  sci_grow(&t->locs, &t->caplocs, t->nlocs + (int)count, sizeof(sc_location));
  static const sc_type signed_of_size[9] = {SC_TYPE_NONE, SC_TYPE_S8, SC_TYPE_S16,
                                            SC_TYPE_NONE, SC_TYPE_S32, SC_TYPE_NONE,
                                            SC_TYPE_NONE, SC_TYPE_NONE, SC_TYPE_S64};
  for (long long i = 0; i < count; i++) {
    sc_location *loc = &t->locs[t->nlocs++];
    memset(loc, 0, sizeof *loc);
    loc->name = array ? sci_printf("%s[%lld]", name, i) : name;
    int64_t v = i < nvalues ? (values ? values[i] : values64[i]) : 0;
    loc->init = (sc_value){SC_VAL_INT, sci_wrap(signed_of_size[size], v), 0};
    loc->region = space;
    loc->proxy = SC_PROXY_GENERIC;
    loc->alias_of = -1;
    loc->mentions = 2; /* no "named once" warning: the launch names it */
    loc->initialised = true;
    loc->address = base + (int64_t)size * i;
    loc->size = size;
    loc->first = first;
    loc->count = (int)count;
  }
  return first;
}

static int default_width(const ptx_var *v) {
  switch (v->type) {
  case SC_TYPE_S16: case SC_TYPE_U16: case SC_TYPE_B16: return 2;
  case SC_TYPE_S64: case SC_TYPE_U64: case SC_TYPE_B64: return 8;
  case SC_TYPE_S32: case SC_TYPE_U32: case SC_TYPE_B32: return 4;
  default: return 1;
  }
}

/* The variables the entry's code names (a module's others are left out). */
static bool var_used(const inst *in, int v) {
  for (int l = 0; l < in->e->tmpl->nlocs; l++)
    if (!in->e->symbols[l].is_param && in->e->symbols[l].index == v)
      return true;
  return false;
}

static sc_status lay_out_memory(inst *in) {
  const ptx_entry *e = in->e;
  int ctas = in->l->ctas;
  in->next_address = MEMORY_BASE;
  in->param_first = sci_alloc_atomic(sizeof(int) * (size_t)(e->nparams + 1));
  for (int k = 0; k < e->nparams; k++) {
    const sc_kernel_input *ki = in->input[k];
    in->param_first[k] = -1;
    if (!ki || !ki->is_array)
      continue;
    int w = in->param_width[k] ? in->param_width[k] : 4;
    in->param_first[k] = add_block(in, param_name(in, k), true, w, ki->nvalues,
                                   ki->values, ki->nvalues, NULL, SC_SPACE_GLOBAL);
    if (in->param_first[k] < 0)
      return in->err->status;
  }
  in->var_first = sci_alloc_atomic(sizeof(int) * (size_t)(in->m->nvars * ctas + 1));
  for (int v = 0; v < in->m->nvars; v++) {
    const ptx_var *var = &in->m->vars[v];
    for (int c = 0; c < ctas; c++)
      in->var_first[v * ctas + c] = -1;
    if (!var_used(in, v))
      continue;
    int w = in->var_width[v] ? in->var_width[v] : default_width(var);
    if (var->bytes % w)
      return sci_fail(&in->err, SC_ERR_SEMANTIC, in->m->file, var->line, var->col,
                     "expected %s's %lld bytes to hold whole elements of the "
                     "%d bytes the code accesses it with", var->name, var->bytes, w);
    bool array = var->is_array && var->bytes / w > 1;
    const char *name = short_name(var->name);
    if (var->space == SC_SPACE_GLOBAL) {
      int f = add_block(in, name, array, w, var->bytes / w, NULL, 0, NULL,
                        SC_SPACE_GLOBAL);
      if (f < 0)
        return in->err->status;
      if (var->ninit) { /* initial values are of the declared type's width */
        int dw = default_width(var);
        for (int i = 0; i < var->ninit && (long long)i * dw / w < var->bytes / w; i++)
          if (dw == w)
            in->t->locs[f + i].init.i = var->init[i];
      }
      for (int c = 0; c < ctas; c++)
        in->var_first[v * ctas + c] = f;
      continue;
    }
    for (int c = 0; c < ctas; c++) {
      int f = add_block(in, sci_printf("%s@cta%d", name, c), array, w,
                        var->bytes / w, NULL, 0, NULL, SC_SPACE_SHARED);
      if (f < 0)
        return in->err->status;
      in->var_first[v * ctas + c] = f;
    }
  }
  return SC_OK;
}

/* ---- Threads ----------------------------------------------------------------- */

/* A template operand in thread of CTA `cta`: parameters and variables
 * become their values and locations; *err_param the parameter that has
 * no value (-1: none). */
static sc_operand bind_operand(const inst *in, sc_operand o, int cta, int *missing) {
  if (o.kind != SC_OPND_LOC)
    return o;
  ptx_symbol s = in->e->symbols[o.index];
  if (!s.is_param)
    return (sc_operand){SC_OPND_LOC, in->var_first[s.index * in->l->ctas + cta], 0};
  const sc_kernel_input *ki = in->input[s.index];
  if (!ki) {
    *missing = s.index;
    return (sc_operand){SC_OPND_IMM, 0, 0};
  }
  if (ki->is_array)
    return (sc_operand){SC_OPND_LOC, in->param_first[s.index], 0};
  return (sc_operand){SC_OPND_IMM, 0, ki->nvalues > 0 ? ki->values[0] : 0};
}

/* Whether template operand `o` is a scalar parameter that is data (not
 * is_config): flow.c's data inputs. */
static bool is_data_scalar(const inst *in, sc_operand o) {
  if (o.kind != SC_OPND_LOC || !in->e->symbols[o.index].is_param)
    return false;
  const sc_kernel_input *ki = in->input[in->e->symbols[o.index].index];
  return ki && !ki->is_array && !ki->is_config;
}

static int64_t special_value(const inst *in, ptx_special sp, int axis, int g) {
  int X = in->l->threads_per_warp, Y = in->l->warps_per_cta, Z = in->l->ctas;
  int per_cta = X * Y, local = g % per_cta;
  switch (sp) {
  case PTX_TID: return axis ? 0 : local;
  case PTX_NTID: return axis ? 1 : per_cta;
  case PTX_CTAID: return axis ? 0 : g / per_cta;
  case PTX_NCTAID: return axis ? 1 : Z;
  case PTX_LANEID: return local % X;
  case PTX_WARPID: return local / X;
  case PTX_NWARPID: return Y;
  case PTX_SPECIAL_NONE: break;
  }
  return 0;
}

static sc_status make_thread(inst *in, int g) {
  const sc_thread *tp = &in->e->tmpl->threads[0];
  sc_thread *th = &in->t->threads[g];
  int per_cta = in->l->threads_per_warp * in->l->warps_per_cta;
  int cta = g / per_cta;
  th->name = sci_printf("T%d", g);
  th->nregs = th->capregs = tp->nregs;
  th->regs = sci_alloc(sizeof(sc_register) * (size_t)(tp->nregs + 1));
  if (tp->nregs)
    memcpy(th->regs, tp->regs, sizeof(sc_register) * (size_t)tp->nregs);
  for (int r = 0; r < tp->nregs; r++)
    if (in->e->special[r])
      th->regs[r].init = (sc_value){SC_VAL_INT,
                                    special_value(in, in->e->special[r], in->e->axis[r], g), 0};
  th->ninstrs = th->capinstrs = tp->ninstrs;
  th->code = sci_alloc(sizeof(sc_instr) * (size_t)(tp->ninstrs + 1));
  int missing = -1;
  for (int pc = 0; pc < tp->ninstrs; pc++) {
    sc_instr ins = tp->code[pc];
    for (int k = 0; k < ins.nsrc && k < 3; k++) {
      ins.data_input = ins.data_input || is_data_scalar(in, ins.src[k]);
      ins.src[k] = bind_operand(in, ins.src[k], cta, &missing);
    }
    if (ins.addr.base.kind == SC_OPND_LOC) {
      ins.addr.base = bind_operand(in, ins.addr.base, cta, &missing);
      if (ins.addr.base.kind != SC_OPND_LOC)
        return sci_fail(&in->err, SC_ERR_SEMANTIC, in->m->file, ins.ptx_line,
                       tp->code[pc].col, "expected an address, found a scalar "
                       "parameter");
    }
    if (missing >= 0)
      return sci_fail(&in->err, SC_ERR_SEMANTIC,
                     in->l->header_file ? in->l->header_file : in->m->file, 1, 1,
                     "expected an @Input giving parameter '%s' of %s (its PTX "
                     "line %d reads it)", param_name(in, missing), in->e->name,
                     ins.ptx_line);
    th->code[pc] = ins;
  }
  th->nlabels = th->caplabels = tp->nlabels;
  th->labels = sci_alloc(sizeof(sc_label) * (size_t)(tp->nlabels + 1));
  if (tp->nlabels) /* a kernel without a branch has no label (and no array) */
    memcpy(th->labels, tp->labels, sizeof(sc_label) * (size_t)tp->nlabels);
  th->place[SC_LEVEL_DEVICE] = 0;
  th->place[SC_LEVEL_KERNEL] = 0;
  th->place[SC_LEVEL_CTA] = cta;
  th->place[SC_LEVEL_WARP] = g / in->l->threads_per_warp;
  return SC_OK;
}

/* (device (kernel (cta (warp T0 T1) ...) ...)): the launch's tree. */
static void scope_tree(inst *in) {
  sc_test *t = in->t;
  sc_scope_node *kernel = sci_scope_node_new(SC_LEVEL_KERNEL, -1), *cta = NULL, *warp = NULL;
  int X = in->l->threads_per_warp, per_cta = X * in->l->warps_per_cta;
  for (int g = 0; g < t->nthreads; g++) {
    if (g % per_cta == 0)
      sci_scope_node_add(kernel, cta = sci_scope_node_new(SC_LEVEL_CTA, -1));
    if (g % X == 0)
      sci_scope_node_add(cta, warp = sci_scope_node_new(SC_LEVEL_WARP, -1));
    sci_scope_node_add(warp, sci_scope_node_new(SC_LEVEL_THREAD, g));
  }
  sc_scope_node *device = sci_scope_node_new(SC_LEVEL_DEVICE, -1);
  sci_scope_node_add(device, kernel);
  sci_grow(&t->scope_roots, &t->capscope_roots, 1, sizeof(sc_scope_node *));
  t->scope_roots[0] = device;
  t->nscope_roots = 1;
}

/* forall true, every location observed: the final states are the memory's. */
static void default_condition(sc_test *t) {
  t->quant = SC_FORALL;
  t->cond = sci_alloc(sizeof(sc_prop));
  t->cond->kind = SC_PROP_TRUE;
  t->observed = sci_alloc(sizeof(sc_lval) * (size_t)(t->nlocs + 1));
  for (int l = 0; l < t->nlocs; l++)
    t->observed[l] = (sc_lval){.kind = SC_LVAL_LOC, .loc = l};
  t->nobserved = t->capobserved = t->nlocs;
}

static sc_status check_launch(inst *in) {
  const sc_kernel_launch *l = in->l;
  const char *f = l->header_file ? l->header_file : in->m->file;
  if (l->threads_per_warp < 1 || l->warps_per_cta < 1 || l->ctas < 1)
    return sci_fail(&in->err, SC_ERR_SEMANTIC, f, 0, 0,
                   "expected a launch of at least 1 thread per warp, warp per "
                   "CTA and CTA, found %d, %d, %d", l->threads_per_warp,
                   l->warps_per_cta, l->ctas);
  long long n = (long long)l->threads_per_warp * l->warps_per_cta * l->ctas;
  if (n > in->lim.max_threads)
    return sci_fail(&in->err, SC_ERR_LIMIT, f, 0, 0,
                   "expected at most %d threads (the thread limit), found a "
                   "launch of %lld (%d x %d x %d)", in->lim.max_threads, n,
                   l->threads_per_warp, l->warps_per_cta, l->ctas);
  return SC_OK;
}

static const ptx_entry *choose_entry(inst *in) {
  const ptx_module *m = in->m;
  if (m->nentries == 0) {
    sci_fail(&in->err, SC_ERR_SEMANTIC, m->file, 0, 0,
            "expected a kernel (.entry) in the PTX, found none");
    return NULL;
  }
  if (!in->l->entry) {
    if (m->nentries == 1)
      return &m->entries[0];
    sci_fail(&in->err, SC_ERR_SEMANTIC, m->file, m->entries[1].line,
            m->entries[1].col, "expected one kernel, found %d (%s, %s%s): "
            "name one (-entry)", m->nentries, m->entries[0].name,
            m->entries[1].name, m->nentries > 2 ? ", ..." : "");
    return NULL;
  }
  for (int i = 0; i < m->nentries; i++) /* the PTX name, or the .cu one */
    if (strcmp(m->entries[i].name, in->l->entry) == 0 ||
        strcmp(kernel_name(m->entries[i].name), in->l->entry) == 0)
      return &m->entries[i];
  sci_fail(&in->err, SC_ERR_SEMANTIC, m->file, 0, 0,
          "expected a kernel named %s, found %s%s", in->l->entry,
          m->entries[0].name, m->nentries > 1 ? ", ..." : "");
  return NULL;
}

static sc_status instantiate(inst *in) {
  sc_status st;
  if ((st = check_launch(in)) || !(in->e = choose_entry(in)) ||
      (st = bind_inputs(in)) || (st = find_widths(in)))
    return st ? st : in->err->status;
  sc_test *t = in->t = sci_alloc(sizeof(sc_test));
  t->dialect = SC_DIALECT_GPU_PTX;
  t->name = kernel_name(in->e->name);
  t->ptx_file = in->m->file;
  t->file = in->m->file;
  int lf = in->e->loc_file;
  if (lf >= 0 && lf < in->m->nfiles && in->m->files[lf])
    t->file = in->m->files[lf];
  t->byte_addresses = true;
  t->max_events = in->lim.max_events;
  if ((st = lay_out_memory(in)))
    return st;
  t->nthreads = in->l->threads_per_warp * in->l->warps_per_cta * in->l->ctas;
  t->threads = sci_alloc(sizeof(sc_thread) * (size_t)t->nthreads);
  for (int g = 0; g < t->nthreads; g++)
    if ((st = make_thread(in, g)))
      return st;
  scope_tree(in);
  default_condition(t);
  return SC_OK;
}

sc_status sc_kernel_load_string(const char *ptx, const char *ptx_file,
                                const sc_kernel_launch *launch,
                                const sc_parse_limits *limits, sc_test **out,
                                sc_error **err) {
  *out = NULL;
  inst in;
  memset(&in, 0, sizeof in);
  in.l = launch;
  sci_parser_limits(&in.lim, limits);
  ptx_module *m;
  sc_status st = sci_ptx_parse(ptx, ptx_file ? ptx_file : "<ptx>", limits, &m, err);
  if (st)
    return st;
  in.m = m;
  if ((st = instantiate(&in))) {
    if (err)
      *err = in.err;
    return st;
  }
  *out = in.t;
  return SC_OK;
}

sc_status sc_kernel_entries(const char *ptx, const char *ptx_file,
                            const char ***names, int *n, sc_error **err) {
  ptx_module *m;
  sc_status st = sci_ptx_parse(ptx, ptx_file ? ptx_file : "<ptx>", NULL, &m, err);
  if (st)
    return st;
  *names = sci_alloc(sizeof(char *) * (size_t)(m->nentries + 1));
  for (int i = 0; i < m->nentries; i++)
    (*names)[i] = m->entries[i].name;
  *n = m->nentries;
  return SC_OK;
}

const char *sc_test_file(const sc_test *t) { return t->file; }

int sc_test_instruction_line(const sc_test *t, int thread, int pc, int *ptx_line) {
  if (thread < 0 || thread >= t->nthreads || pc < 0 ||
      pc >= t->threads[thread].ninstrs)
    return -1;
  if (ptx_line)
    *ptx_line = t->threads[thread].code[pc].ptx_line;
  return t->threads[thread].code[pc].line;
}
