/* ptx_parse.c: a PTX module as nvcc -ptx emits it, read into entries.
 * The module's directives (.version .target .address_size .file
 * .section), its variables (.global, .shared), and each .entry: its
 * parameters, register declarations, labels, .loc lines, inline asm
 * blocks (their braces are scopes; what they hold is ordinary PTX) and
 * instructions.  An instruction of the litmus grammar goes to it
 * (litmus/instr.c: one grammar for ld st atom red fence membar bar mov
 * add sub and or xor cvt setp bra); the kernel ALU, ld.param, cvta and
 * ret/exit are read here.  Anything else is an error at its
 * file:line:col naming it. */
#define _POSIX_C_SOURCE 200809L
#include "kernel/kernel.h"

#include "litmus/parser.h"
#include "util/error.h"
#include "util/gcmem.h"

#include <string.h>

/* A register declaration: `name` alone, or `name<count>` (count names
 * name0 .. name<count-1>, never made one by one: a huge count costs
 * nothing until its registers are used). */
typedef struct regdecl {
  const char *name;
  sc_type type;
  long long count; /* -1: the single register `name` */
} regdecl;

typedef struct reader {
  sc_parser p; /* the litmus parser's state, over the whole module's tokens */
  ptx_module *m;
  ptx_entry *e; /* the entry being read */
  regdecl *regs;
  int nregs, capregs;
  int capvars, capentries;
  int loc_file, loc_line, loc_col; /* the last .loc kept */
} reader;

#define FAIL(rd, tk, st, ...) sci_parse_error_at(&(rd)->p, (tk)->line, (tk)->col, st, __VA_ARGS__)

static const sc_token *peek(reader *rd) { return sci_peek(&rd->p, 0); }
static const sc_token *next(reader *rd) { return sci_next(&rd->p); }

static bool at_word(reader *rd, const char *w) { return sci_at_word(&rd->p, w); }

static const sc_token *expect_int(reader *rd, const char *what) {
  const sc_token *tk = peek(rd);
  if (tk->kind != SC_TK_INT)
    sci_parse_expected(&rd->p, what);
  return next(rd);
}

/* The tokens up to the end of `line`: directives without ';' end there. */
static void skip_line(reader *rd, int line) {
  while (peek(rd)->kind != SC_TK_EOF && peek(rd)->line == line)
    next(rd);
}

static sc_type type_of_word(reader *rd, const sc_token *tk) {
  int v = tk->text[0] == '.'
              ? sci_name_lookup(sci_type_names, SC_TYPE_COUNT, tk->text + 1)
              : -1;
  if (v <= 0)
    FAIL(rd, tk, SC_ERR_UNSUPPORTED,
         "expected an integer type (.b8 .u8 .s8 ... .b64 .u64 .s64 .pred), "
         "found %s", sci_token_describe(tk));
  return (sc_type)v;
}

/* ---- Variables ------------------------------------------------------------ */

static int type_bytes(sc_type ty) {
  switch (ty) {
  case SC_TYPE_S8: case SC_TYPE_U8: case SC_TYPE_B8: return 1;
  case SC_TYPE_S16: case SC_TYPE_U16: case SC_TYPE_B16: return 2;
  case SC_TYPE_S64: case SC_TYPE_U64: case SC_TYPE_B64: return 8;
  default: return 4;
  }
}

static void parse_initialiser(reader *rd, ptx_var *v) {
  bool braces = sci_accept_punct(&rd->p, '{');
  do {
    sci_grow(&v->init, &(int){v->ninit}, v->ninit + 1, sizeof(int64_t));
    v->init[v->ninit++] = sci_parse_int(&rd->p, "an integer initial value");
  } while (braces && sci_accept_punct(&rd->p, ','));
  if (braces)
    sci_expect_punct(&rd->p, '}', "'}' closing the initial values");
}

/* .global/.shared [.align N] .type name[N] [= init]; (the state space word
 * taken already). */
static void parse_variable(reader *rd, const sc_token *space_tk) {
  ptx_var v;
  memset(&v, 0, sizeof v);
  v.space = strcmp(space_tk->text, ".shared") == 0 ? SC_SPACE_SHARED : SC_SPACE_GLOBAL;
  v.line = space_tk->line;
  v.col = space_tk->col;
  if (at_word(rd, ".align")) {
    next(rd);
    expect_int(rd, "an alignment after .align");
  }
  v.type = type_of_word(rd, next(rd));
  const sc_token *name = sci_expect_ident(&rd->p, "a variable name");
  v.name = name->text;
  v.bytes = type_bytes(v.type);
  if (sci_accept_punct(&rd->p, '[')) {
    if (sci_at_punct(&rd->p, ']'))
      FAIL(rd, peek(rd), SC_ERR_UNSUPPORTED,
           "expected an array size: arrays of unknown size (extern .shared) "
           "are not supported");
    const sc_token *n = expect_int(rd, "an array size");
    if (n->ival <= 0 || n->ival > (1 << 24))
      FAIL(rd, n, SC_ERR_LIMIT, "expected an array size from 1 to %d, found %s",
           1 << 24, n->text);
    v.bytes *= n->ival;
    v.is_array = true;
    sci_expect_punct(&rd->p, ']', "']' closing the array size");
  }
  if (sci_accept_punct(&rd->p, '=')) {
    if (v.space == SC_SPACE_SHARED)
      FAIL(rd, peek(rd), SC_ERR_SYNTAX, "expected ';': .shared variables take "
                                         "no initial value");
    parse_initialiser(rd, &v);
  }
  sci_expect_punct(&rd->p, ';', "';' after the variable");
  sci_grow(&rd->m->vars, &rd->capvars, rd->m->nvars + 1, sizeof(ptx_var));
  rd->m->vars[rd->m->nvars++] = v;
}

/* ---- Registers ------------------------------------------------------------- */

/* .reg .type %a, %b<N>, ...; */
static void parse_reg_decl(reader *rd) {
  sc_type ty = type_of_word(rd, next(rd));
  do {
    const sc_token *name = sci_expect_ident(&rd->p, "a register name");
    if (name->text[0] == '.')
      FAIL(rd, name, SC_ERR_SYNTAX, "expected a register name, found '%s'",
           name->text);
    regdecl d = {name->text, ty, -1};
    if (sci_accept_punct(&rd->p, '<')) {
      const sc_token *n = expect_int(rd, "a register count");
      d.count = n->ival;
      sci_expect_punct(&rd->p, '>', "'>' closing the register count");
    }
    sci_grow(&rd->regs, &rd->capregs, rd->nregs + 1, sizeof(regdecl));
    rd->regs[rd->nregs++] = d;
  } while (sci_accept_punct(&rd->p, ','));
  sci_expect_punct(&rd->p, ';', "';' after the register declaration");
}

/* The declared type of register `name`; SC_TYPE_NONE when undeclared. */
static sc_type declared_type(const reader *rd, const char *name) {
  for (int i = rd->nregs - 1; i >= 0; i--) {
    const regdecl *d = &rd->regs[i];
    if (d->count < 0) {
      if (strcmp(d->name, name) == 0)
        return d->type;
      continue;
    }
    size_t n = strlen(d->name);
    const char *digits = name + n;
    if (strncmp(name, d->name, n) != 0 || !*digits || (digits[0] == '0' && digits[1]))
      continue;
    long long k = 0;
    for (; *digits >= '0' && *digits <= '9' && k < d->count; digits++)
      k = k * 10 + (*digits - '0');
    if (!*digits && k < d->count)
      return d->type;
  }
  return SC_TYPE_NONE;
}

static const struct {
  const char *name;
  ptx_special which;
  bool axes;
} specials[] = {
    {"%tid", PTX_TID, true},       {"%ntid", PTX_NTID, true},
    {"%ctaid", PTX_CTAID, true},   {"%nctaid", PTX_NCTAID, true},
    {"%laneid", PTX_LANEID, false}, {"%warpid", PTX_WARPID, false},
    {"%nwarpid", PTX_NWARPID, false},
};

/* Whether `name` is a special register the launch sets; its axis. */
static ptx_special special_of(const char *name, int *axis) {
  *axis = 0;
  for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++) {
    size_t n = strlen(specials[i].name);
    if (strncmp(name, specials[i].name, n) != 0)
      continue;
    if (!specials[i].axes && !name[n])
      return specials[i].which;
    if (specials[i].axes && name[n] == '.' && name[n + 1] >= 'x' &&
        name[n + 1] <= 'z' && !name[n + 2]) {
      *axis = name[n + 1] - 'x';
      return specials[i].which;
    }
  }
  return PTX_SPECIAL_NONE;
}

/* Make register `tk` of the template known: a declared one with its
 * type, a special one; anything else is an error here. */
static void use_register(reader *rd, const sc_token *tk) {
  sc_thread *th = &rd->p.t->threads[0];
  if (sci_thread_find_register(th, tk->text) >= 0)
    return;
  int axis;
  ptx_special sp = special_of(tk->text, &axis);
  sc_type ty = sp ? SC_TYPE_U32 : declared_type(rd, tk->text);
  if (!sp && ty == SC_TYPE_NONE)
    FAIL(rd, tk, tk->text[1] ? SC_ERR_SEMANTIC : SC_ERR_SYNTAX,
         "expected a declared register (.reg) or a special register (%%tid "
         "%%ntid %%ctaid %%nctaid .x/.y/.z, %%laneid, %%warpid, %%nwarpid), "
         "found '%s'", tk->text);
  int r = sci_parser_add_register(&rd->p, 0, tk->text, ty);
  ptx_entry *e = rd->e;
  sci_grow(&e->special, &(int){r}, r + 1, sizeof(ptx_special));
  sci_grow(&e->axis, &(int){r}, r + 1, sizeof(int));
  e->special[r] = sp;
  e->axis[r] = axis;
}

/* ---- Instructions ------------------------------------------------------ */

/* The parts of a mnemonic of the kernel ALU: its base and qualifiers. */
typedef struct alu_info {
  const char *name;
  sc_opcode op;
  int nsrc;
} alu_info;

static const alu_info alu_ops[] = {
    {"mul", SC_OP_MUL, 2}, {"mad", SC_OP_MAD, 3}, {"shl", SC_OP_SHL, 2},
    {"shr", SC_OP_SHR, 2}, {"min", SC_OP_MIN, 2}, {"max", SC_OP_MAX, 2},
    {"not", SC_OP_NOT, 1}, {"neg", SC_OP_NEG, 1}, {"selp", SC_OP_SELP, 3},
    {"cvta", SC_OP_MOV, 1}, {"ret", SC_OP_RET, 0}, {"exit", SC_OP_RET, 0},
};

static const alu_info *find_alu(const char *base) {
  for (size_t i = 0; i < sizeof alu_ops / sizeof alu_ops[0]; i++)
    if (strcmp(alu_ops[i].name, base) == 0)
      return &alu_ops[i];
  return NULL;
}

/* The qualifiers of a kernel ALU mnemonic: a type, .lo/.wide for mul and
 * mad, cvta's .to and state space. */
static void alu_qualifiers(reader *rd, const sc_token *tk, const alu_info *a,
                           sc_instr *in) {
  const char *s = strchr(tk->text, '.');
  while (s) {
    const char *e = strchr(s + 1, '.');
    size_t n = e ? (size_t)(e - s - 1) : strlen(s + 1);
    char *w = sci_strndup(s + 1, n);
    int col = tk->col + (int)(s + 1 - tk->text);
    int v = sci_name_lookup(sci_type_names, SC_TYPE_COUNT, w);
    bool mul = a->op == SC_OP_MUL || a->op == SC_OP_MAD;
    if (v > 0 && v != SC_TYPE_PRED && !in->type)
      in->type = (sc_type)v;
    else if (mul && strcmp(w, "lo") == 0)
      in->wide = false;
    else if (mul && strcmp(w, "wide") == 0)
      in->wide = true;
    else if (strcmp(a->name, "cvta") == 0 &&
             (strcmp(w, "to") == 0 || strcmp(w, "global") == 0 ||
              strcmp(w, "shared") == 0))
      ; /* generic and global/shared addresses are one here */
    else
      sci_parse_error_at(&rd->p, tk->line, col, SC_ERR_UNSUPPORTED,
                        "unsupported qualifier '.%s' for %s", w, a->name);
    s = e;
  }
  if (a->op != SC_OP_RET && !in->type)
    FAIL(rd, tk, SC_ERR_SYNTAX, "expected a type on %s", tk->text);
  if ((a->op == SC_OP_MUL || a->op == SC_OP_MAD) && !strstr(tk->text, ".lo") &&
      !in->wide)
    FAIL(rd, tk, SC_ERR_UNSUPPORTED,
         "expected mul/mad .lo or .wide ('%s': .hi is not supported)", tk->text);
}

/* A source operand: a register, an integer or a name (a variable). */
static sc_operand source(reader *rd) {
  sc_operand o = {SC_OPND_IMM, 0, 0};
  const sc_token *tk = peek(rd);
  if (tk->kind == SC_TK_INT || sci_at_punct(&rd->p, '-')) {
    o.imm = sci_parse_int(&rd->p, "an integer");
    return o;
  }
  tk = sci_expect_ident(&rd->p, "an operand");
  if (tk->text[0] == '%' ||
      sci_thread_find_register(&rd->p.t->threads[0], tk->text) >= 0) {
    o.kind = SC_OPND_REG;
    o.index = sci_parser_register(&rd->p, 0, tk);
  } else {
    o.kind = SC_OPND_LOC;
    o.index = sci_parser_location(&rd->p, tk->text);
  }
  return o;
}

static sc_operand dest(reader *rd) {
  const sc_token *tk = sci_expect_ident(&rd->p, "a destination register");
  if (sci_thread_find_register(&rd->p.t->threads[0], tk->text) < 0)
    FAIL(rd, tk, SC_ERR_SYNTAX, "expected a destination register, found '%s'",
         tk->text);
  return (sc_operand){SC_OPND_REG, sci_parser_register(&rd->p, 0, tk), 0};
}

static void parse_alu(reader *rd, const sc_token *tk, const alu_info *a,
                      sc_instr *in) {
  in->op = a->op;
  in->is_exit = strcmp(a->name, "exit") == 0;
  alu_qualifiers(rd, tk, a, in);
  if (a->op == SC_OP_RET)
    return;
  in->dst = dest(rd);
  for (int i = 0; i < a->nsrc; i++) {
    sci_expect_punct(&rd->p, ',', "',' between operands");
    in->src[in->nsrc++] = source(rd);
  }
}

/* ld.param.type %r, [name] or [name+off]: the parameter's value, a mov
 * from the template location that stands for the parameter. */
static void parse_ld_param(reader *rd, const sc_token *tk, sc_instr *in) {
  in->op = SC_OP_MOV;
  const char *ty = tk->text + strlen("ld.param");
  if (*ty != '.' || sci_name_lookup(sci_type_names, SC_TYPE_COUNT, ty + 1) <= 0)
    FAIL(rd, tk, SC_ERR_UNSUPPORTED, "expected ld.param.TYPE, found '%s'", tk->text);
  in->type = (sc_type)sci_name_lookup(sci_type_names, SC_TYPE_COUNT, ty + 1);
  in->dst = dest(rd);
  sci_expect_punct(&rd->p, ',', "',' between operands");
  sci_expect_punct(&rd->p, '[', "'[' before the parameter");
  const sc_token *name = sci_expect_ident(&rd->p, "a parameter name");
  int k = -1;
  for (int i = 0; i < rd->e->nparams; i++)
    if (strcmp(rd->e->params[i].name, name->text) == 0)
      k = i;
  if (k < 0)
    FAIL(rd, name, SC_ERR_SEMANTIC, "expected a parameter of %s, found '%s'",
         rd->e->name, name->text);
  if (sci_at_punct(&rd->p, '+'))
    FAIL(rd, peek(rd), SC_ERR_UNSUPPORTED,
         "expected ']': parts of a parameter (structs) are not supported");
  sci_expect_punct(&rd->p, ']', "']' after the parameter");
  in->src[in->nsrc++] = (sc_operand){SC_OPND_LOC, sci_parser_location(&rd->p, name->text), 0};
}

/* Whether the statement at the cursor (up to ';') names only registers
 * that are declared; declares them in the template as it goes. */
static void declare_statement_registers(reader *rd) {
  for (int i = rd->p.pos; i < rd->p.ntoks; i++) {
    const sc_token *tk = &rd->p.toks[i];
    if (tk->kind == SC_TK_EOF || sci_token_is_punct(tk, ';'))
      return;
    if (tk->kind == SC_TK_IDENT && i > rd->p.pos && tk->text[0] != '.' &&
        (tk->text[0] == '%' || declared_type(rd, tk->text) != SC_TYPE_NONE))
      use_register(rd, tk); /* inline asm's registers may lack the '%' */
  }
}

static void add_instruction(reader *rd, sc_instr *in) {
  sc_thread *th = &rd->p.t->threads[0];
  if (th->ninstrs >= rd->p.limits.max_instructions)
    sci_parse_error_at(&rd->p, in->line, in->col, SC_ERR_LIMIT,
                      "expected at most %d instructions in a kernel (the "
                      "instruction limit)", rd->p.limits.max_instructions);
  in->ptx_line = in->line;
  if (rd->loc_file >= 0) { /* the .cu position .loc gives */
    in->line = rd->loc_line;
    in->col = rd->loc_col;
  }
  sci_grow(&th->code, &th->capinstrs, th->ninstrs + 1, sizeof(sc_instr));
  th->code[th->ninstrs++] = *in;
}

/* Branch targets by name, resolved once the body is read. */
typedef struct pending {
  const sc_token *target;
  int pc;
} pending;

static void parse_instruction(reader *rd, pending **pend, int *npend, int *cappend) {
  declare_statement_registers(rd);
  int start = rd->p.pos;
  const sc_token *first = peek(rd);
  sc_instr in;
  memset(&in, 0, sizeof in);
  in.guard = -1;
  in.target = -1;
  in.line = first->line;
  in.col = first->col;
  if (sci_accept_punct(&rd->p, '@')) {
    in.guard_negated = sci_accept_punct(&rd->p, '!');
    const sc_token *g = sci_expect_ident(&rd->p, "a predicate register after '@'");
    in.guard = sci_parser_register(&rd->p, 0, g);
  }
  const sc_token *tk = sci_expect_ident(&rd->p, "an instruction");
  char *base = sci_strndup(tk->text, strcspn(tk->text, "."));
  const alu_info *a = find_alu(base);
  const sc_token *target = NULL;
  if (strncmp(tk->text, "ld.param", 8) == 0) {
    parse_ld_param(rd, tk, &in);
  } else if (a) {
    parse_alu(rd, tk, a, &in);
  } else {
    rd->p.pos = start; /* the litmus grammar reads the guard again */
    sci_parse_instruction(&rd->p, 0, &in, &target);
  }
  if (!sci_at_punct(&rd->p, ';'))
    sci_parse_expected(&rd->p, sci_printf("';' after the operands of %s", tk->text));
  next(rd);
  if (target) {
    sci_grow(pend, cappend, *npend + 1, sizeof(pending));
    (*pend)[(*npend)++] = (pending){target, rd->p.t->threads[0].ninstrs};
  }
  add_instruction(rd, &in);
}

/* ---- The entry's body ------------------------------------------------------ */

static void add_label(reader *rd, const sc_token *name) {
  sc_thread *th = &rd->p.t->threads[0];
  for (int i = 0; i < th->nlabels; i++)
    if (strcmp(th->labels[i].name, name->text) == 0)
      FAIL(rd, name, SC_ERR_SEMANTIC, "label '%s' defined twice (first at line %d)",
           name->text, th->labels[i].line);
  sci_grow(&th->labels, &th->caplabels, th->nlabels + 1, sizeof(sc_label));
  th->labels[th->nlabels++] = (sc_label){name->text, th->ninstrs, name->line, name->col};
}

/* .loc FILE LINE COL [, function_name ..., inlined_at ...]: the position
 * of what follows.  Lines of the entry's first .loc file (the .cu) are
 * kept; those of inlined headers leave the last kept one in force. */
static void parse_loc(reader *rd, const sc_token *dir) {
  const sc_token *f = expect_int(rd, "a file number after .loc");
  const sc_token *l = expect_int(rd, "a line number after .loc");
  const sc_token *c = expect_int(rd, "a column number after .loc");
  if (rd->e->loc_file < 0)
    rd->e->loc_file = (int)f->ival;
  if (f->ival == rd->e->loc_file) {
    rd->loc_file = (int)f->ival;
    rd->loc_line = (int)l->ival;
    rd->loc_col = (int)c->ival > 0 ? (int)c->ival : 1;
  }
  skip_line(rd, dir->line);
}

static void parse_body(reader *rd) {
  pending *pend = NULL;
  int npend = 0, cappend = 0, depth = 1;
  rd->loc_file = -1;
  while (depth > 0) {
    const sc_token *tk = peek(rd);
    if (tk->kind == SC_TK_EOF)
      sci_parse_expected(&rd->p, sci_printf("'}' closing the body of %s", rd->e->name));
    if (sci_accept_punct(&rd->p, '{')) {
      depth++; /* an inline asm block's scope */
    } else if (sci_accept_punct(&rd->p, '}')) {
      depth--;
    } else if (tk->kind == SC_TK_IDENT && sci_token_is_punct(sci_peek(&rd->p, 1), ':')) {
      next(rd);
      next(rd);
      add_label(rd, tk);
    } else if (sci_token_is_word(tk, ".reg")) {
      next(rd);
      parse_reg_decl(rd);
    } else if (sci_token_is_word(tk, ".shared") || sci_token_is_word(tk, ".global")) {
      next(rd);
      parse_variable(rd, tk);
    } else if (sci_token_is_word(tk, ".loc")) {
      next(rd);
      parse_loc(rd, tk);
    } else if (sci_token_is_word(tk, ".pragma")) {
      while (!sci_at_punct(&rd->p, ';') && peek(rd)->kind != SC_TK_EOF)
        next(rd);
      sci_expect_punct(&rd->p, ';', "';' after .pragma");
    } else if (tk->kind == SC_TK_IDENT && tk->text[0] == '.') {
      FAIL(rd, tk, SC_ERR_UNSUPPORTED,
           "expected an instruction or a directive of a kernel body (.reg "
           ".shared .global .loc .pragma), found '%s'", tk->text);
    } else {
      parse_instruction(rd, &pend, &npend, &cappend);
    }
  }
  rd->loc_file = -1; /* past the body: no source line in force */
  sc_thread *th = &rd->p.t->threads[0];
  for (int i = 0; i < npend; i++) {
    int k = -1;
    for (int j = 0; j < th->nlabels; j++)
      if (strcmp(th->labels[j].name, pend[i].target->text) == 0)
        k = j;
    if (k < 0)
      FAIL(rd, pend[i].target, SC_ERR_SEMANTIC, "expected a label of %s, found '%s'",
           rd->e->name, pend[i].target->text);
    th->code[pend[i].pc].target = k;
  }
}

/* ---- Entries ------------------------------------------------------------ */

static void parse_params(reader *rd, ptx_entry *e) {
  int cap = 0;
  sci_expect_punct(&rd->p, '(', "'(' opening the parameters");
  if (sci_accept_punct(&rd->p, ')'))
    return;
  do {
    const sc_token *kw = sci_expect_ident(&rd->p, ".param");
    if (strcmp(kw->text, ".param") != 0)
      FAIL(rd, kw, SC_ERR_SYNTAX, "expected .param, found '%s'", kw->text);
    ptx_param prm = {NULL, type_of_word(rd, next(rd)), kw->line, kw->col};
    if (at_word(rd, ".ptr"))
      FAIL(rd, peek(rd), SC_ERR_UNSUPPORTED, "unsupported parameter attribute '.ptr'");
    const sc_token *name = sci_expect_ident(&rd->p, "a parameter name");
    prm.name = name->text;
    if (sci_at_punct(&rd->p, '['))
      FAIL(rd, peek(rd), SC_ERR_UNSUPPORTED,
           "expected ',' or ')': array parameters (structs passed by value) "
           "are not supported");
    sci_grow(&e->params, &cap, e->nparams + 1, sizeof(ptx_param));
    e->params[e->nparams++] = prm;
  } while (sci_accept_punct(&rd->p, ','));
  sci_expect_punct(&rd->p, ')', "')' closing the parameters");
}

static sc_test *new_template(const char *file) {
  sc_test *t = sci_alloc(sizeof *t);
  t->dialect = SC_DIALECT_GPU_PTX;
  t->file = file;
  t->threads = sci_alloc(sizeof(sc_thread));
  t->nthreads = 1;
  t->threads[0].name = "T";
  return t;
}

/* Performance directives between the parameters and the body. */
static bool performance_directive(const sc_token *tk) {
  static const char *const words[] = {".maxntid", ".reqntid", ".minnctapersm",
                                      ".maxnreg", ".maxclusterrank",
                                      ".reqnctapercluster", ".noreturn"};
  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
    if (sci_token_is_word(tk, words[i]))
      return true;
  return false;
}

static void parse_entry(reader *rd, const sc_token *kw) {
  ptx_entry e;
  memset(&e, 0, sizeof e);
  const sc_token *name = sci_expect_ident(&rd->p, "the entry's name");
  e.name = name->text;
  e.line = kw->line;
  e.col = kw->col;
  e.loc_file = -1;
  e.tmpl = new_template(rd->m->file);
  e.tmpl->name = e.name;
  rd->e = &e;
  rd->p.t = e.tmpl;
  rd->nregs = 0;
  parse_params(rd, &e);
  while (performance_directive(peek(rd))) {
    int line = next(rd)->line;
    while (peek(rd)->line == line && !sci_at_punct(&rd->p, '{'))
      next(rd);
  }
  sci_expect_punct(&rd->p, '{', sci_printf("'{' opening the body of %s", e.name));
  parse_body(rd);
  int nloc = e.tmpl->nlocs;
  e.symbols = sci_alloc(sizeof(ptx_symbol) * (size_t)(nloc + 1));
  for (int l = 0; l < nloc; l++) {
    const sc_location *loc = &e.tmpl->locs[l];
    int k = -1;
    for (int i = 0; i < e.nparams; i++)
      if (strcmp(e.params[i].name, loc->name) == 0)
        k = i;
    if (k >= 0) {
      e.symbols[l] = (ptx_symbol){true, k};
      continue;
    }
    for (int i = 0; i < rd->m->nvars; i++)
      if (strcmp(rd->m->vars[i].name, loc->name) == 0)
        k = i;
    if (k < 0)
      sci_parse_error_at(&rd->p, loc->line, loc->col, SC_ERR_SEMANTIC,
                        "expected a register, a parameter or a variable "
                        "(.global, .shared), found '%s'", loc->name);
    e.symbols[l] = (ptx_symbol){false, k};
  }
  int nr = e.tmpl->threads[0].nregs;
  sci_grow(&e.special, &(int){nr}, nr + 1, sizeof(ptx_special));
  sci_grow(&e.axis, &(int){nr}, nr + 1, sizeof(int));
  sci_grow(&rd->m->entries, &rd->capentries, rd->m->nentries + 1, sizeof(ptx_entry));
  rd->m->entries[rd->m->nentries++] = e;
  rd->e = NULL;
}

/* .func: a device function nvcc did not inline; skipped (a call to it is
 * an unsupported instruction of the entry that makes it). */
static void skip_function(reader *rd) {
  int depth = 0;
  for (;;) {
    const sc_token *tk = next(rd);
    if (tk->kind == SC_TK_EOF)
      return;
    if (sci_token_is_punct(tk, '{'))
      depth++;
    else if (sci_token_is_punct(tk, '}') && --depth == 0)
      return;
    else if (sci_token_is_punct(tk, ';') && depth == 0)
      return;
  }
}

/* .file N "name" [, timestamp, size] */
static void parse_file(reader *rd, const sc_token *dir) {
  const sc_token *n = expect_int(rd, "a file number after .file");
  const sc_token *name = peek(rd);
  if (name->kind != SC_TK_STRING)
    sci_parse_expected(&rd->p, "a file name (a string) after the .file number");
  next(rd);
  if (n->ival < 0 || n->ival > 100000)
    FAIL(rd, n, SC_ERR_LIMIT, "expected a file number from 0 to 100000");
  int cap = rd->m->nfiles;
  sci_grow(&rd->m->files, &cap, (int)n->ival + 1, sizeof(char *));
  for (int i = rd->m->nfiles; i <= n->ival; i++)
    rd->m->files[i] = NULL;
  if (n->ival >= rd->m->nfiles)
    rd->m->nfiles = (int)n->ival + 1;
  rd->m->files[n->ival] = sci_strndup(name->text + 1, strlen(name->text) - 2);
  skip_line(rd, dir->line);
}

static void skip_section(reader *rd, const sc_token *dir) {
  sci_expect_ident(&rd->p, "a section name");
  if (!sci_at_punct(&rd->p, '{')) {
    skip_line(rd, dir->line);
    return;
  }
  int depth = 0;
  do {
    const sc_token *tk = next(rd);
    if (tk->kind == SC_TK_EOF)
      FAIL(rd, dir, SC_ERR_SYNTAX, "expected '}' closing this .section");
    depth += sci_token_is_punct(tk, '{') - sci_token_is_punct(tk, '}');
  } while (depth > 0);
}

static void parse_module(reader *rd) {
  while (peek(rd)->kind != SC_TK_EOF) {
    const sc_token *tk = next(rd);
    if (sci_token_is_word(tk, ".version") || sci_token_is_word(tk, ".target") ||
        sci_token_is_word(tk, ".address_size")) {
      if (peek(rd)->line != tk->line)
        FAIL(rd, tk, SC_ERR_SYNTAX, "expected a value after %s on its line", tk->text);
      skip_line(rd, tk->line);
    } else if (sci_token_is_word(tk, ".file")) {
      parse_file(rd, tk);
    } else if (sci_token_is_word(tk, ".section")) {
      skip_section(rd, tk);
    } else if (sci_token_is_word(tk, ".visible") || sci_token_is_word(tk, ".weak") ||
               sci_token_is_word(tk, ".extern")) {
      continue; /* linkage of what follows */
    } else if (sci_token_is_word(tk, ".entry")) {
      parse_entry(rd, tk);
    } else if (sci_token_is_word(tk, ".func")) {
      skip_function(rd);
    } else if (sci_token_is_word(tk, ".global") || sci_token_is_word(tk, ".shared")) {
      parse_variable(rd, tk);
    } else {
      FAIL(rd, tk, tk->kind == SC_TK_IDENT && tk->text[0] == '.'
                       ? SC_ERR_UNSUPPORTED : SC_ERR_SYNTAX,
           "expected a module directive (.version .target .address_size "
           ".file .section .entry .func .global .shared), found %s",
           sci_token_describe(tk));
    }
  }
}

/* An error met in an entry's body where a .loc is in force also names
 * the source line it gives: nvcc's PTX of a .cu is a file the user may
 * never have seen, the .cu line is where to look. */
static sc_error *with_source_line(const reader *rd, sc_error *e) {
  if (rd->loc_file < 0 || e->line <= 0)
    return e;
  return sci_error_new(e->status, e->file, e->line, e->col, "%s (source line %d, by .loc)",
                      e->what, rd->loc_line);
}

sc_status sci_ptx_parse(const char *text, const char *file,
                       const sc_parse_limits *limits, ptx_module **out,
                       sc_error **err) {
  *out = NULL;
  reader rd;
  memset(&rd, 0, sizeof rd);
  rd.p.file = file;
  rd.loc_file = -1;
  sci_parser_limits(&rd.p.limits, limits);
  if (strlen(text) > rd.p.limits.max_file_bytes)
    return sci_fail(err, SC_ERR_LIMIT, file, 0, 0,
                   "expected at most %zu bytes of PTX (the file size limit)",
                   rd.p.limits.max_file_bytes);
  sc_status st = sci_ptx_lex(file, text, &rd.p.toks, &rd.p.ntoks, err);
  if (st)
    return st;
  rd.m = sci_alloc(sizeof(ptx_module));
  rd.m->file = file;
  rd.p.t = new_template(file);
  if (setjmp(rd.p.on_error)) {
    if (err)
      *err = with_source_line(&rd, rd.p.err);
    return rd.p.err->status;
  }
  parse_module(&rd);
  *out = rd.m;
  return SC_OK;
}
