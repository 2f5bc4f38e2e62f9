/* instr.c: one PTX instruction of a litmus cell, in either dialect.
 * The mnemonic is split at its dots; each qualifier is classified by the
 * tables of names.c and checked against what the opcode allows, so a
 * wrong qualifier is an error at its own column.  Knows no semantics. */
#define _POSIX_C_SOURCE 200809L
#include "litmus/parser.h"

#include "util/gcmem.h"

#include <ctype.h>
#include <string.h>

/* Qualifier classes an opcode may carry. */
enum {
  Q_SEM = 1 << 0, Q_SCOPE = 1 << 1, Q_MEMBAR_SCOPE = 1 << 2, Q_SPACE = 1 << 3,
  Q_CACHE = 1 << 4, Q_TYPE = 1 << 5, Q_TYPE2 = 1 << 6, Q_ATOMOP = 1 << 7,
  Q_CMP = 1 << 8, Q_PROXY = 1 << 9, Q_BAR = 1 << 10, Q_UNI = 1 << 11,
  Q_BAR_CTA = 1 << 12, Q_ALIGNED = 1 << 13 /* seen-only: implied by Q_BAR */
};

typedef struct base_info {
  const char *name;
  sc_opcode op;
  unsigned allowed;
  sc_proxy proxy; /* Dat3M's surface/texture/constant accesses */
} base_info;

#define ACCESS (Q_SEM | Q_SCOPE | Q_SPACE | Q_CACHE | Q_TYPE)
#define ATOMIC (Q_SEM | Q_SCOPE | Q_SPACE | Q_ATOMOP | Q_TYPE)

static const base_info bases[] = {
    {"ld", SC_OP_LD, ACCESS, SC_PROXY_GENERIC},
    {"suld", SC_OP_LD, ACCESS, SC_PROXY_SURFACE},
    {"tld", SC_OP_LD, ACCESS, SC_PROXY_TEXTURE},
    {"cold", SC_OP_LD, ACCESS, SC_PROXY_CONSTANT},
    {"st", SC_OP_ST, ACCESS, SC_PROXY_GENERIC},
    {"sust", SC_OP_ST, ACCESS, SC_PROXY_SURFACE},
    {"atom", SC_OP_ATOM, ATOMIC, SC_PROXY_GENERIC},
    {"red", SC_OP_RED, ATOMIC, SC_PROXY_GENERIC},
    {"membar", SC_OP_MEMBAR, Q_MEMBAR_SCOPE, SC_PROXY_GENERIC},
    {"fence", SC_OP_FENCE, Q_SEM | Q_SCOPE | Q_PROXY, SC_PROXY_GENERIC},
    {"bar", SC_OP_BAR, Q_BAR, SC_PROXY_GENERIC},
    {"barrier", SC_OP_BAR, Q_BAR, SC_PROXY_GENERIC},
    {"mov", SC_OP_MOV, Q_TYPE, SC_PROXY_GENERIC},
    {"add", SC_OP_ADD, Q_TYPE, SC_PROXY_GENERIC},
    {"sub", SC_OP_SUB, Q_TYPE, SC_PROXY_GENERIC},
    {"and", SC_OP_AND, Q_TYPE, SC_PROXY_GENERIC},
    {"or", SC_OP_OR, Q_TYPE, SC_PROXY_GENERIC},
    {"xor", SC_OP_XOR, Q_TYPE, SC_PROXY_GENERIC},
    {"cvt", SC_OP_CVT, Q_TYPE2, SC_PROXY_GENERIC},
    {"setp", SC_OP_SETP, Q_CMP | Q_TYPE, SC_PROXY_GENERIC},
    {"bra", SC_OP_BRA, Q_UNI, SC_PROXY_GENERIC},
    {"goto", SC_OP_BRA, 0, SC_PROXY_GENERIC},
    {"beq", SC_OP_BEQ, 0, SC_PROXY_GENERIC},
    {"bne", SC_OP_BNE, 0, SC_PROXY_GENERIC},
};

static const char *const membar_scopes[SC_SCOPE_COUNT] = {"", "cta", "", "gl",
                                                           "sys"};

static const base_info *find_base(const char *name) {
  for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++)
    if (strcmp(bases[i].name, name) == 0)
      return &bases[i];
  return NULL;
}

/* One dotted part of a mnemonic, with its column. */
typedef struct part {
  char *word;
  int col;
} part;

typedef struct qualifier_state {
  sc_parser *p;
  const sc_token *tk;
  const base_info *base;
  unsigned seen; /* classes already given */
} qualifier_state;

static void once(qualifier_state *q, unsigned cls, const part *pt) {
  if (q->seen & cls)
    sci_parse_error_at(q->p, q->tk->line, pt->col, SC_ERR_SYNTAX,
                      "expected one qualifier of this kind on %s, found a "
                      "second one '.%s'", q->base->name, pt->word);
  q->seen |= cls;
}

#define LOOKUP(table, count, w) sci_name_lookup(table, count, w)

/* Classify part `pt` (and maybe the next one: fence.proxy.KIND); returns
 * how many parts were used. */
static int classify(qualifier_state *q, sc_instr *in, const part *pt,
                    const part *next) {
  unsigned allowed = q->base->allowed;
  const char *w = pt->word;
  int v;
  if ((allowed & Q_SEM) && (v = LOOKUP(sci_sem_names, SC_SEM_COUNT, w)) > 0) {
    once(q, Q_SEM, pt);
    in->sem = (sc_sem)v;
  } else if ((allowed & Q_SCOPE) &&
             (v = LOOKUP(sci_scope_names, SC_SCOPE_COUNT, w)) > 0) {
    once(q, Q_SCOPE, pt);
    in->scope = (sc_scope)v;
  } else if ((allowed & Q_MEMBAR_SCOPE) &&
             (v = LOOKUP(membar_scopes, SC_SCOPE_COUNT, w)) > 0) {
    once(q, Q_MEMBAR_SCOPE, pt);
    in->scope = (sc_scope)v;
  } else if ((allowed & Q_SPACE) &&
             (v = LOOKUP(sci_space_names, SC_SPACE_COUNT, w)) > 0) {
    once(q, Q_SPACE, pt);
    in->space = (sc_space)v;
  } else if ((allowed & Q_CACHE) &&
             (v = LOOKUP(sci_cacheop_names, SC_CACHE_COUNT, w)) > 0) {
    once(q, Q_CACHE, pt);
    in->cacheop = (sc_cacheop)v;
  } else if ((allowed & Q_ATOMOP) &&
             (v = LOOKUP(sci_atomop_names, SC_ATOM_COUNT, w)) > 0) {
    once(q, Q_ATOMOP, pt);
    in->atomop = (sc_atomop)v;
  } else if ((allowed & Q_CMP) && (v = LOOKUP(sci_cmp_names, SC_CMP_COUNT, w)) > 0) {
    once(q, Q_CMP, pt);
    in->cmp = (sc_cmp)v;
  } else if ((allowed & (Q_TYPE | Q_TYPE2)) &&
             (v = LOOKUP(sci_type_names, SC_TYPE_COUNT, w)) > 0) {
    if ((allowed & Q_TYPE2) && in->type != SC_TYPE_NONE) {
      once(q, Q_TYPE2, pt);
      in->type2 = (sc_type)v;
    } else {
      once(q, Q_TYPE, pt);
      in->type = (sc_type)v;
    }
  } else if ((allowed & Q_PROXY) && strcmp(w, "proxy") == 0) {
    once(q, Q_PROXY, pt);
    if (!next || (v = LOOKUP(sci_proxy_names, SC_PROXY_COUNT, next->word)) < 0)
      sci_parse_error_at(q->p, q->tk->line, next ? next->col : pt->col,
                        SC_ERR_SYNTAX,
                        "expected a proxy kind after fence.proxy (alias, "
                        "surface, texture, constant, generic), found %s",
                        next ? sci_printf("'.%s'", next->word) : "nothing");
    in->op = SC_OP_FENCE_PROXY;
    in->proxy = (sc_proxy)v;
    return 2;
  } else if ((allowed & Q_BAR) && strcmp(w, "cta") == 0) {
    once(q, Q_BAR_CTA, pt);
    in->bar_cta = true;
  } else if ((allowed & Q_BAR) && strcmp(w, "sync") == 0) {
    once(q, Q_BAR, pt);
    in->barmode = SC_BAR_SYNC;
  } else if ((allowed & Q_BAR) && strcmp(w, "arrive") == 0) {
    once(q, Q_BAR, pt);
    in->barmode = SC_BAR_ARRIVE;
  } else if ((allowed & Q_BAR) && strcmp(w, "aligned") == 0) {
    once(q, Q_ALIGNED, pt);
    in->aligned = true;
  } else if ((allowed & Q_BAR) && strcmp(w, "warp") == 0) {
    /* a warp's barrier waits for the non-exited threads of its mask, a
     * quorum no barrier group here has: refused by name, not as a typo */
    sci_parse_error_at(q->p, q->tk->line, pt->col, SC_ERR_UNSUPPORTED,
                      "expected a barrier of a CTA (bar.sync, bar.arrive, barrier), "
                      "found bar.warp.sync (CUDA's __syncwarp()), which is not supported");
  } else if ((allowed & Q_UNI) && strcmp(w, "uni") == 0) {
    once(q, Q_UNI, pt);
    in->uni = true;
  } else {
    sci_parse_error_at(q->p, q->tk->line, pt->col, SC_ERR_UNSUPPORTED,
                      "unknown qualifier '.%s' for %s", w, q->base->name);
  }
  return 1;
}

static _Noreturn void bad_qualifier(sc_parser *p, const sc_token *tk,
                                    const char *why) {
  sci_parse_error_at(p, tk->line, tk->col, SC_ERR_SYNTAX, "%s in '%s'", why,
                    tk->text);
}

/* Combinations the PTX ISA rules out (or that mean nothing to a model). */
static void check_qualifiers(sc_parser *p, const sc_token *tk, sc_instr *in,
                             const qualifier_state *q) {
  bool strong = in->sem == SC_SEM_RELAXED || in->sem == SC_SEM_ACQUIRE ||
                in->sem == SC_SEM_RELEASE || in->sem == SC_SEM_ACQ_REL ||
                in->sem == SC_SEM_SC;
  switch (in->op) {
  case SC_OP_LD:
  case SC_OP_ST:
    if (in->sem == SC_SEM_ACQ_REL || in->sem == SC_SEM_SC)
      bad_qualifier(p, tk, "expected .weak, .volatile, .relaxed or an "
                           "acquire (ld) / release (st)");
    if (in->op == SC_OP_LD && in->sem == SC_SEM_RELEASE)
      bad_qualifier(p, tk, "expected .acquire, not .release, on a load");
    if (in->op == SC_OP_ST && in->sem == SC_SEM_ACQUIRE)
      bad_qualifier(p, tk, "expected .release, not .acquire, on a store");
    if (strong && in->scope == SC_SCOPE_NONE)
      bad_qualifier(p, tk, "expected a scope (.cta .cluster .gpu .sys) after "
                           "a memory order");
    if (!strong && in->scope != SC_SCOPE_NONE)
      bad_qualifier(p, tk, "expected .relaxed/.acquire/.release before a "
                           "scope");
    if (in->cacheop && strong)
      bad_qualifier(p, tk, "expected no cache operator on a strong access");
    if (in->op == SC_OP_LD && in->cacheop &&
        (in->cacheop == SC_CACHE_WB || in->cacheop == SC_CACHE_WT))
      bad_qualifier(p, tk, "expected a load cache operator (.ca .cg .cs .lu "
                           ".cv)");
    if (in->op == SC_OP_ST && in->cacheop &&
        (in->cacheop == SC_CACHE_CA || in->cacheop == SC_CACHE_LU ||
         in->cacheop == SC_CACHE_CV))
      bad_qualifier(p, tk, "expected a store cache operator (.wb .cg .cs .wt)");
    break;
  case SC_OP_ATOM:
  case SC_OP_RED:
    if (!(q->seen & Q_ATOMOP))
      bad_qualifier(p, tk, "expected an operation (.cas .exch .add ...)");
    if (in->sem == SC_SEM_WEAK || in->sem == SC_SEM_VOLATILE ||
        in->sem == SC_SEM_SC)
      bad_qualifier(p, tk, "expected .relaxed, .acquire, .release or "
                           ".acq_rel");
    if (in->op == SC_OP_RED &&
        (in->atomop == SC_ATOM_CAS || in->atomop == SC_ATOM_EXCH))
      bad_qualifier(p, tk, "expected a reduction operation (red has no "
                           ".cas or .exch)");
    if (in->op == SC_OP_RED && in->sem == SC_SEM_ACQUIRE)
      bad_qualifier(p, tk, "expected .relaxed, .release or .acq_rel on red");
    break;
  case SC_OP_MEMBAR:
    if (in->scope == SC_SCOPE_NONE)
      bad_qualifier(p, tk, "expected a scope (.cta .gl .sys)");
    break;
  case SC_OP_FENCE:
    if (in->sem != SC_SEM_NONE && in->sem != SC_SEM_SC &&
        in->sem != SC_SEM_ACQ_REL)
      bad_qualifier(p, tk, "expected .sc or .acq_rel");
    if (in->scope == SC_SCOPE_NONE)
      bad_qualifier(p, tk, "expected a scope (.cta .cluster .gpu .sys)");
    break;
  case SC_OP_FENCE_PROXY:
    if (in->sem != SC_SEM_NONE || in->scope != SC_SCOPE_NONE)
      bad_qualifier(p, tk, "expected only a proxy kind after fence.proxy");
    break;
  case SC_OP_BAR:
    if (!(q->seen & Q_BAR))
      bad_qualifier(p, tk, "expected .sync or .arrive");
    break;
  case SC_OP_CVT:
    if (!in->type || !in->type2)
      bad_qualifier(p, tk, "expected two types (cvt.dtype.atype)");
    break;
  case SC_OP_SETP:
    if (!in->cmp)
      bad_qualifier(p, tk, "expected a comparison (.eq .ne .lt .le .gt .ge)");
    break;
  default:
    break;
  }
}

static void parse_mnemonic(sc_parser *p, const sc_token *tk, sc_instr *in) {
  part parts[16];
  int nparts = 0;
  const char *s = tk->text;
  int off = 0;
  while (s[off]) {
    int len = 0;
    while (s[off + len] && s[off + len] != '.')
      len++;
    if (nparts == 16)
      sci_parse_error_at(p, tk->line, tk->col + off, SC_ERR_SYNTAX,
                        "expected at most 16 parts in a mnemonic");
    if (len == 0)
      sci_parse_error_at(p, tk->line, tk->col + off, SC_ERR_SYNTAX,
                        "expected a qualifier after '.', found %s",
                        s[off] ? "'.'" : "nothing");
    parts[nparts].word = sci_strndup(s + off, (size_t)len);
    parts[nparts].col = tk->col + off;
    nparts++;
    off += len;
    if (s[off] == '.') {
      off++;
      if (!s[off])
        sci_parse_error_at(p, tk->line, tk->col + off, SC_ERR_SYNTAX,
                          "expected a qualifier after '.', found nothing");
    }
  }
  const base_info *base = find_base(parts[0].word);
  if (!base)
    sci_parse_error_at(p, tk->line, tk->col, SC_ERR_UNSUPPORTED,
                      "expected an instruction (ld st atom red membar fence "
                      "bar mov add sub and or xor cvt setp bra ...), found "
                      "unknown instruction '%s'", parts[0].word);
  in->op = base->op;
  in->proxy = base->proxy;
  in->bar_long = strcmp(base->name, "barrier") == 0;
  qualifier_state q = {p, tk, base, 0};
  for (int i = 1; i < nparts;)
    i += classify(&q, in, &parts[i], i + 1 < nparts ? &parts[i + 1] : NULL);
  check_qualifiers(p, tk, in, &q);
}

/* ---- Operands ------------------------------------------------------------ */

/* Register syntax: r<digits>, p<digits> or %name.  Such names are never
 * taken for locations, so that a mistyped register is an error rather
 * than a fresh location. */
static bool looks_like_register(const char *s) {
  if (s[0] == '%')
    return true;
  if ((s[0] != 'r' && s[0] != 'p') || !s[1])
    return false;
  for (const char *c = s + 1; *c; c++)
    if (!isdigit((unsigned char)*c))
      return false;
  return true;
}

static bool is_known_register(sc_parser *p, int thread, const char *name) {
  return sci_thread_find_register(&p->t->threads[thread], name) >= 0;
}

static sc_operand reg_operand(sc_parser *p, int thread, const char *what) {
  const sc_token *tk = sci_expect_ident(p, what);
  sc_operand o = {SC_OPND_REG, sci_parser_register(p, thread, tk), 0};
  return o;
}

/* A register, an integer, or a location name standing for its address. */
static sc_operand value_operand(sc_parser *p, int thread, const char *what) {
  sc_operand o = {SC_OPND_IMM, 0, 0};
  const sc_token *tk = sci_peek(p, 0);
  if (tk->kind == SC_TK_INT || (tk->kind == SC_TK_PUNCT && tk->punct == '-')) {
    o.imm = sci_parse_int(p, what);
    return o;
  }
  tk = sci_expect_ident(p, what);
  if (is_known_register(p, thread, tk->text) || looks_like_register(tk->text)) {
    o.kind = SC_OPND_REG;
    o.index = sci_parser_register(p, thread, tk);
  } else {
    o.kind = SC_OPND_LOC;
    o.index = sci_parser_location(p, tk->text);
  }
  return o;
}

static sc_address address_operand(sc_parser *p, int thread) {
  sc_address a = {{SC_OPND_LOC, 0, 0}, 0};
  bool bracket = sci_accept_punct(p, '[');
  const sc_token *tk = sci_expect_ident(p, "an address ([reg], [location] or "
                                          "a location name)");
  if (is_known_register(p, thread, tk->text) || looks_like_register(tk->text)) {
    a.base.kind = SC_OPND_REG;
    a.base.index = sci_parser_register(p, thread, tk);
  } else {
    a.base.index = sci_parser_location(p, tk->text);
  }
  if (bracket) {
    if (sci_at_punct(p, '+') || sci_at_punct(p, '-')) {
      bool neg = sci_next(p)->punct == '-';
      int64_t off = sci_parse_int(p, "an address offset");
      a.offset = neg ? -off : off;
    }
    sci_expect_punct(p, ']', "']' closing the address");
  }
  return a;
}

static void comma(sc_parser *p, const sc_instr *in) {
  sci_expect_punct(p, ',', sci_printf("',' between the operands of %s",
                                    sci_opcode_name(in->op)));
}

static void parse_operands(sc_parser *p, int thread, sc_instr *in,
                           const sc_token **target) {
  switch (in->op) {
  case SC_OP_LD:
    in->dst = reg_operand(p, thread, "a destination register");
    comma(p, in);
    /* Dat3M writes "ld r0, 1" for loading an immediate: a mov. */
    if (in->proxy == SC_PROXY_GENERIC && !in->sem && !in->scope &&
        !in->space && !in->cacheop && !in->type &&
        (sci_peek(p, 0)->kind == SC_TK_INT || sci_at_punct(p, '-'))) {
      in->op = SC_OP_MOV;
      in->src[in->nsrc++] = value_operand(p, thread, "a value");
      return;
    }
    in->addr = address_operand(p, thread);
    return;
  case SC_OP_ST:
    in->addr = address_operand(p, thread);
    comma(p, in);
    in->src[in->nsrc++] = value_operand(p, thread, "a value to store");
    return;
  case SC_OP_ATOM:
    in->dst = reg_operand(p, thread, "a destination register");
    comma(p, in);
    in->addr = address_operand(p, thread);
    comma(p, in);
    in->src[in->nsrc++] = value_operand(p, thread, "an operand");
    if (in->atomop == SC_ATOM_CAS) {
      comma(p, in);
      in->src[in->nsrc++] = value_operand(p, thread, "the new value of cas");
    }
    return;
  case SC_OP_RED:
    in->addr = address_operand(p, thread);
    comma(p, in);
    in->src[in->nsrc++] = value_operand(p, thread, "an operand");
    return;
  case SC_OP_MEMBAR:
  case SC_OP_FENCE:
  case SC_OP_FENCE_PROXY:
    return;
  case SC_OP_BAR:
    in->src[in->nsrc++] = value_operand(p, thread, "a barrier operand");
    while (sci_accept_punct(p, ',')) {
      if (in->nsrc == 3)
        sci_parse_expected(p, "at most three barrier operands");
      in->src[in->nsrc++] = value_operand(p, thread, "a barrier operand");
    }
    return;
  case SC_OP_MOV:
  case SC_OP_CVT:
    in->dst = reg_operand(p, thread, "a destination register");
    comma(p, in);
    in->src[in->nsrc++] = value_operand(p, thread, "a source operand");
    return;
  case SC_OP_ADD:
  case SC_OP_SUB:
  case SC_OP_AND:
  case SC_OP_OR:
  case SC_OP_XOR:
  case SC_OP_SETP:
    in->dst = reg_operand(p, thread, "a destination register");
    comma(p, in);
    in->src[in->nsrc++] = value_operand(p, thread, "a source operand");
    comma(p, in);
    in->src[in->nsrc++] = value_operand(p, thread, "a source operand");
    return;
  case SC_OP_BEQ:
  case SC_OP_BNE:
    in->src[in->nsrc++] = reg_operand(p, thread, "a register to compare");
    comma(p, in);
    in->src[in->nsrc++] = value_operand(p, thread, "a value to compare with");
    comma(p, in);
    *target = sci_expect_ident(p, "a label");
    return;
  case SC_OP_BRA:
    *target = sci_expect_ident(p, "a label");
    return;
  default: /* the kernel ALU: lib/kernel parses its operands */
    break;
  }
}

void sci_parse_instruction(sc_parser *p, int thread, sc_instr *in,
                          const sc_token **target) {
  memset(in, 0, sizeof *in);
  in->guard = -1;
  in->target = -1;
  *target = NULL;
  const sc_token *first = sci_peek(p, 0);
  in->line = first->line;
  in->col = first->col;
  if (sci_accept_punct(p, '@')) {
    in->guard_negated = sci_accept_punct(p, '!');
    const sc_token *g = sci_expect_ident(p, "a predicate register after '@'");
    in->guard = sci_parser_register(p, thread, g);
  }
  const sc_token *tk = sci_expect_ident(p, "an instruction");
  parse_mnemonic(p, tk, in);
  parse_operands(p, thread, in, target);
  if (!sci_at_punct(p, '|') && !sci_at_punct(p, ';'))
    sci_parse_expected(p, sci_printf("'|' or ';' after the operands of %s",
                                   tk->text));
}
