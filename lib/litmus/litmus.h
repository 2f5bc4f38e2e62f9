/* litmus.h: the in-memory litmus test that both dialect parsers produce and
 * every later layer reads (semantics, kernel generator, printers).  It knows
 * nothing of events or models: it is the test as written, typed and
 * resolved (register, location and label names become indices). */
#ifndef SC_LITMUS_H
#define SC_LITMUS_H

#include "scopecat.h"

#include <stdbool.h>
#include <stdint.h>

/* ---- Small vocabularies (each has a name table in names.c) ------ */

/* Register and instruction types.  NONE: the test did not say (Dat3M). */
typedef enum sc_type {
  SC_TYPE_NONE, SC_TYPE_S32, SC_TYPE_U32, SC_TYPE_B32,
  SC_TYPE_S64, SC_TYPE_U64, SC_TYPE_B64, SC_TYPE_PRED,
  /* the narrow types of PTX kernels (lib/kernel): accesses to arrays of 1-
   * and 2-byte elements, cvt */
  SC_TYPE_S8, SC_TYPE_U8, SC_TYPE_B8, SC_TYPE_S16, SC_TYPE_U16, SC_TYPE_B16,
  SC_TYPE_COUNT
} sc_type;

/* Memory-order semantics written on an instruction.  NONE: no qualifier
 * (herd's 2015 tests: ld.cg...), which PTX treats as weak but which we keep
 * apart from an explicit .weak so that printing gives back what was written. */
typedef enum sc_sem {
  SC_SEM_NONE, SC_SEM_WEAK, SC_SEM_VOLATILE, SC_SEM_RELAXED,
  SC_SEM_ACQUIRE, SC_SEM_RELEASE, SC_SEM_ACQ_REL, SC_SEM_SC,
  SC_SEM_COUNT
} sc_sem;

/* Scopes of instructions; membar spells GPU as "gl". */
typedef enum sc_scope {
  SC_SCOPE_NONE, SC_SCOPE_CTA, SC_SCOPE_CLUSTER, SC_SCOPE_GPU, SC_SCOPE_SYS,
  SC_SCOPE_COUNT
} sc_scope;

/* State space written on an access, and memory region of a location. */
typedef enum sc_space {
  SC_SPACE_NONE, SC_SPACE_GLOBAL, SC_SPACE_SHARED, SC_SPACE_COUNT
} sc_space;

/* Cache operators (PTX ISA "Cache Operators"). */
typedef enum sc_cacheop {
  SC_CACHE_NONE, SC_CACHE_CA, SC_CACHE_CG, SC_CACHE_CS, SC_CACHE_LU,
  SC_CACHE_CV, SC_CACHE_WB, SC_CACHE_WT, SC_CACHE_COUNT
} sc_cacheop;

/* Operations of atom and red (Dat3M adds sub). */
typedef enum sc_atomop {
  SC_ATOM_NONE, SC_ATOM_CAS, SC_ATOM_EXCH, SC_ATOM_ADD, SC_ATOM_SUB,
  SC_ATOM_INC, SC_ATOM_DEC, SC_ATOM_AND, SC_ATOM_OR, SC_ATOM_XOR,
  SC_ATOM_MIN, SC_ATOM_MAX, SC_ATOM_COUNT
} sc_atomop;

/* Comparisons of setp. */
typedef enum sc_cmp {
  SC_CMP_NONE, SC_CMP_EQ, SC_CMP_NE, SC_CMP_LT, SC_CMP_LE, SC_CMP_GT,
  SC_CMP_GE,
  SC_CMP_LO, SC_CMP_LS, SC_CMP_HI, SC_CMP_HS, /* unsigned <, <=, >, >= */
  SC_CMP_COUNT
} sc_cmp;

/* Proxies (PTX ISA "Proxies"): the generic proxy is the default; the others
 * come from surface/texture/constant accesses, aliases and fence.proxy. */
typedef enum sc_proxy {
  SC_PROXY_GENERIC, SC_PROXY_SURFACE, SC_PROXY_TEXTURE, SC_PROXY_CONSTANT,
  SC_PROXY_ALIAS, /* only as fence.proxy.alias */
  SC_PROXY_COUNT
} sc_proxy;

/* What a barrier instruction does. */
typedef enum sc_barmode { SC_BAR_SYNC, SC_BAR_ARRIVE, SC_BAR_COUNT } sc_barmode;

typedef enum sc_opcode {
  SC_OP_LD,          /* ld, and Dat3M's suld/tld/cold (proxy != GENERIC) */
  SC_OP_ST,          /* st, and Dat3M's sust */
  SC_OP_ATOM,        /* atom.op: dst, [addr], b (, c for cas) */
  SC_OP_RED,         /* red.op: [addr], b */
  SC_OP_MEMBAR,      /* membar.cta/.gl/.sys */
  SC_OP_FENCE,       /* fence.sc/.acq_rel.scope */
  SC_OP_FENCE_PROXY, /* fence.proxy.kind */
  SC_OP_BAR,         /* bar.sync, bar.cta.sync, barrier.sync, bar.arrive */
  SC_OP_MOV, SC_OP_ADD, SC_OP_SUB, SC_OP_AND, SC_OP_OR, SC_OP_XOR,
  SC_OP_CVT,         /* cvt.dtype.stype */
  SC_OP_SETP,        /* setp.cmp: pred dst, a, b */
  SC_OP_BRA,         /* bra L, and Dat3M's goto L */
  SC_OP_BEQ,         /* Dat3M: beq r, v, L */
  SC_OP_BNE,         /* Dat3M: bne r, v, L */
  /* The integer ALU of PTX kernels (lib/kernel), at the width of their
   * type (sc_instr.wide: the .wide forms, whose result is twice as wide) */
  SC_OP_MUL,         /* mul.lo, mul.wide: dst, a, b */
  SC_OP_MAD,         /* mad.lo, mad.wide: dst, a, b, c (a*b+c) */
  SC_OP_SHL, SC_OP_SHR, SC_OP_MIN, SC_OP_MAX,
  SC_OP_NOT, SC_OP_NEG, /* dst, a */
  SC_OP_SELP,        /* selp: dst, a, b, p (p ? a : b) */
  SC_OP_RET,         /* ret, exit: the thread ends */
  SC_OP_COUNT
} sc_opcode;

/* ---- Values and operands ----------------------------------------------- */

/* A value: an integer, or the address of a location. */
typedef enum sc_value_kind { SC_VAL_INT, SC_VAL_LOC } sc_value_kind;
typedef struct sc_value {
  sc_value_kind kind;
  int64_t i; /* SC_VAL_INT */
  int loc;   /* SC_VAL_LOC: index into test->locs */
} sc_value;

typedef enum sc_operand_kind {
  SC_OPND_NONE, SC_OPND_REG, SC_OPND_IMM, SC_OPND_LOC
} sc_operand_kind;

typedef struct sc_operand {
  sc_operand_kind kind;
  int index;   /* register (thread's table) or location index */
  int64_t imm; /* SC_OPND_IMM */
} sc_operand;

/* A memory operand: [reg], [loc], [reg+off], [loc+off] (or Dat3M's bare
 * name).  base is SC_OPND_REG or SC_OPND_LOC. */
typedef struct sc_address {
  sc_operand base;
  int64_t offset;
} sc_address;

/* ---- Instructions, threads ---------------------------------------------- */

typedef struct sc_instr {
  sc_opcode op;
  int line, col; /* where the instruction starts in its file; a kernel's
                    (lib/kernel): its .cu line from .loc when known */
  int ptx_line;  /* a kernel's: its line in the PTX file; 0 otherwise */
  /* qualifiers, NONE where absent */
  sc_sem sem;
  sc_scope scope;
  sc_space space;
  sc_cacheop cacheop;
  sc_type type;  /* cvt: destination type */
  sc_type type2; /* cvt: source type */
  sc_atomop atomop;
  sc_cmp cmp;
  sc_proxy proxy;     /* accesses and fence.proxy */
  sc_barmode barmode; /* bar */
  bool bar_cta;       /* bar spelled with .cta */
  bool bar_long;      /* spelled barrier rather than bar */
  bool aligned;       /* barrier .aligned */
  bool uni;           /* bra.uni */
  bool wide;          /* mul.wide, mad.wide */
  bool is_exit;       /* SC_OP_RET spelled exit */
  bool data_input;    /* a kernel's: reads a scalar parameter's value */
  /* predicate guard: @p or @!p */
  int guard;          /* register index, -1 when unguarded */
  bool guard_negated;
  sc_operand dst;     /* destination register (ld, atom, ALU, setp) */
  sc_address addr;    /* memory operand (ld, st, atom, red) */
  sc_operand src[3];  /* st value; atom b, c; ALU a, b; setp a, b;
                         bne/beq r, v; bar operands */
  int nsrc;
  int target;         /* branch target: label index, -1 when none */
} sc_instr;

typedef struct sc_register {
  const char *name;
  sc_type type;
  sc_value init; /* herd: 0 unless given */
} sc_register;

/* A label names a position in a thread's code: pc is the index of the
 * instruction it precedes (ninstrs when it ends the code). */
typedef struct sc_label {
  const char *name;
  int pc;
  int line, col;
} sc_label;

/* Placement of a thread in the concurrency hierarchy: one instance number
 * per level; threads share a level's instance iff they share the number.
 * Levels the scope tree leaves out get fresh numbers (CTA, warp) or the
 * shared implicit instance (device, kernel): see parse.c. */
typedef enum sc_level {
  SC_LEVEL_DEVICE, SC_LEVEL_KERNEL, SC_LEVEL_CTA, SC_LEVEL_WARP,
  SC_LEVEL_THREAD, SC_LEVEL_COUNT
} sc_level;

typedef struct sc_thread {
  const char *name; /* as written: P0, T0 */
  sc_register *regs;
  int nregs, capregs;
  sc_instr *code;
  int ninstrs, capinstrs;
  sc_label *labels;
  int nlabels, caplabels;
  int place[SC_LEVEL_COUNT - 1]; /* instance of device, kernel, cta, warp */
} sc_thread;

/* ---- Locations and scope tree ------------------------------------------- */

typedef struct sc_location {
  const char *name;
  sc_value init;    /* 0 unless given */
  sc_space region;  /* memory map: global/shared, NONE when unsaid */
  sc_proxy proxy;   /* Dat3M "y @ surface aliases x": proxy of this name */
  int alias_of;     /* location it aliases, -1 when none */
  /* For sc_test_warnings: how often the test's text names it, where
   * first, and whether the initial state gives it a value. */
  int mentions;
  int line, col;
  bool initialised;
  /* A kernel's memory (lib/kernel, sc_test.byte_addresses): the element's
   * byte address and size; the array it belongs to is the run of
   * locations from `first` with `count` elements (a scalar: count 1). */
  int64_t address;
  int size, first, count;
} sc_location;

typedef struct sc_scope_node {
  sc_level level; /* THREAD for a leaf */
  int thread;     /* leaf: thread index */
  struct sc_scope_node **kids;
  int nkids, capkids;
} sc_scope_node;

/* ---- Conditions --------------------------------------------------------- */

/* A term of a condition: a register's or a location's final value, an
 * integer, or (right of '=' only) a location's address. */
typedef enum sc_lval_kind {
  SC_LVAL_REG, SC_LVAL_LOC, SC_LVAL_CONST, SC_LVAL_ADDR
} sc_lval_kind;
typedef struct sc_lval {
  sc_lval_kind kind;
  int thread, reg;  /* SC_LVAL_REG */
  int loc;          /* SC_LVAL_LOC, SC_LVAL_ADDR */
  int64_t constant; /* SC_LVAL_CONST (Dat3M's "exists 0==0") */
} sc_lval;

/* LT LE GT GE: the relational comparisons of a kernel's @Output
 * (lib/kernel/launch.c); herd's condition language has none, so a litmus
 * file never makes them and the printer writes them with C's operators. */
typedef enum sc_prop_kind {
  SC_PROP_TRUE, SC_PROP_FALSE, SC_PROP_EQ, SC_PROP_NE, SC_PROP_NOT,
  SC_PROP_AND, SC_PROP_OR, SC_PROP_IMPLIES,
  SC_PROP_LT, SC_PROP_LE, SC_PROP_GT, SC_PROP_GE
} sc_prop_kind;

typedef struct sc_prop {
  sc_prop_kind kind;
  sc_lval lhs, rhs;            /* the comparisons: EQ NE LT LE GT GE */
  struct sc_prop *a, *b;       /* NOT (a), AND/OR/IMPLIES (a, b) */
} sc_prop;

typedef enum sc_quantifier {
  SC_EXISTS, SC_NOT_EXISTS, SC_FORALL
} sc_quantifier;

/* How herd7 writes a quantifier: "exists", "~exists", "forall". */
const char *sci_quantifier_name(sc_quantifier q);

/* ---- The test ------------------------------------------------------------ */

struct sc_test {
  sc_dialect dialect;
  const char *file;  /* where it was read from (for messages) */
  const char *name;
  const char **info; /* lines between the name and '{' (doc strings) */
  int ninfo;
  sc_thread *threads;
  int nthreads;
  sc_location *locs;
  int nlocs, caplocs;
  sc_scope_node **scope_roots; /* top-level trees; none when unsaid */
  int nscope_roots, capscope_roots;
  bool has_memory_map;
  sc_lval *observed; /* `locations [...]` */
  int nobserved, capobserved;
  sc_prop *filter;   /* NULL when absent */
  sc_quantifier quant;
  sc_prop *cond;
  int max_events;    /* sc_parse_limits's, for the semantics (sim/sem.c) */
  /* A kernel (lib/kernel): locations live at their byte `address`, an
   * access outside every location is a finding (sim/sem.c), and
   * arithmetic wraps at its instruction's width */
  bool byte_addresses;
  const char *ptx_file; /* the PTX the kernel came from, NULL otherwise */
};

/* ---- Names (names.c) ---------------------------------------------- */
const char *sci_type_name(sc_type t);       /* "s32"; "" for NONE */
const char *sci_sem_name(sc_sem s);
const char *sci_scope_name(sc_scope s);
const char *sci_space_name(sc_space s);
const char *sci_cacheop_name(sc_cacheop c);
const char *sci_atomop_name(sc_atomop a);
const char *sci_cmp_name(sc_cmp c);
const char *sci_proxy_name(sc_proxy p);
const char *sci_level_name(sc_level l);
const char *sci_opcode_name(sc_opcode op);  /* base mnemonic: "ld", "atom" */
/* Look a word up in one of the tables above; -1 when absent. */
int sci_name_lookup(const char *const *table, int count, const char *word);
extern const char *const sci_type_names[SC_TYPE_COUNT];
extern const char *const sci_sem_names[SC_SEM_COUNT];
extern const char *const sci_scope_names[SC_SCOPE_COUNT];
extern const char *const sci_space_names[SC_SPACE_COUNT];
extern const char *const sci_cacheop_names[SC_CACHE_COUNT];
extern const char *const sci_atomop_names[SC_ATOM_COUNT];
extern const char *const sci_cmp_names[SC_CMP_COUNT];
extern const char *const sci_proxy_names[SC_PROXY_COUNT];

/* Bytes of a value of type `ty` (0: untyped or a predicate), and `v` cut
 * to that width and sign- or zero-extended as the type says (names.c). */
int sci_type_bytes(sc_type ty);
int64_t sci_wrap(sc_type ty, int64_t v);

/* ---- Printing (print.c) --------------------------------------------- */
struct sc_strbuf;
/* One instruction in canonical syntax: "ld.relaxed.gpu.s32 r0, [x]". */
void sci_print_instruction(struct sc_strbuf *sb, const sc_test *t,
                          const sc_thread *th, const sc_instr *in);
/* A condition in herd syntax: "0:r1=1 /\ x=2". */
void sci_print_prop(struct sc_strbuf *sb, const sc_test *t, const sc_prop *p);

/* The annotations an instruction gives its events, named as the sets a
 * model sees ("cg", "relaxed"); and the types of the events it makes
 * ("R", "W", "RMW", "F"), as bell files name them.  Return the count. */
int sci_instr_annotations(const sc_instr *in, const char *out[2]);
int sci_instr_event_types(const sc_instr *in, const char *out[3]);

/* True for instructions that touch memory (ld st atom red). */
bool sci_instr_is_access(const sc_instr *in);

/* The test of `text`: sc_test_load_string's work (parse.c). */
sc_status sci_litmus_parse(const char *text, const char *filename,
                          const sc_parse_limits *limits, sc_test **out,
                          sc_error **err);
/* The canonical text of `t` in dialect `d`, and its summary line
 * (print.c); whether two tests are the same test (equal.c). */
const char *sci_litmus_print(const sc_test *t, sc_dialect d);
const char *sci_litmus_summary(const sc_test *t);
int sci_litmus_equal(const sc_test *a, const sc_test *b);
/* sc_test_warnings's work (warnings.c). */
const char **sci_litmus_warnings(const sc_test *t, int *n);
/* The Hash of a test in logs: MD5 of its canonical text (test.c). */
const char *sci_test_hash(const sc_test *t);

/* Parse a proposition of the condition language ("0:r1=1 /\\ x=2") about
 * the final state of `t`; names the test lacks are errors (parse.c). */
sc_status sci_test_parse_prop(const sc_test *t, const char *text,
                             sc_prop **out, sc_error **err);

/* Whether `p` holds when each term has the value `value_of` gives it
 * (prop.c); and a walk over the terms of `p`. */
typedef int64_t (*sc_lval_value_fn)(const sc_lval *lv, void *ctx);
bool sci_prop_holds(const sc_prop *p, sc_lval_value_fn value_of, void *ctx);
/* Whether p compares two terms (EQ NE LT LE GT GE); whether the values a
 * and b stand in the comparison `kind`. */
bool sci_prop_is_comparison(const sc_prop *p);
bool sci_prop_compare(sc_prop_kind kind, int64_t a, int64_t b);
void sci_prop_each_lval(const sc_prop *p, void (*fn)(const sc_lval *, void *),
                       void *ctx);

/* A scope-tree node (thread: the leaf's thread, -1 above), and a kid
 * added under a parent: the parser's and the kernel instantiation's
 * trees are built by these (parse.c). */
sc_scope_node *sci_scope_node_new(sc_level level, int thread);
void sci_scope_node_add(sc_scope_node *parent, sc_scope_node *kid);

/* Index of a location by name, -1 when absent. */
int sci_test_find_location(const sc_test *t, const char *name);
int sci_thread_find_register(const sc_thread *th, const char *name);

#endif
