/* print.c: the canonical text of a test, in either dialect, and its
 * one-line summary.  The canonical form parses back to an equal test (see
 * equal.c): every location and register is declared, addresses are
 * bracketed, qualifiers come in PTX's order, and Dat3M's extensions
 * (aliases, untyped registers, bne/beq) are written in their own syntax. */
#include "litmus/litmus.h"

#include "util/gcmem.h"
#include "util/strbuf.h"

#include <inttypes.h>
#include <string.h>

static void put_value(sc_strbuf *sb, const sc_test *t, sc_value v) {
  if (v.kind == SC_VAL_LOC)
    sci_sb_puts(sb, t->locs[v.loc].name);
  else
    sci_sb_printf(sb, "%" PRId64, v.i);
}

static void put_operand(sc_strbuf *sb, const sc_test *t, const sc_thread *th,
                        sc_operand o) {
  switch (o.kind) {
  case SC_OPND_REG: sci_sb_puts(sb, th->regs[o.index].name); break;
  case SC_OPND_LOC: sci_sb_puts(sb, t->locs[o.index].name); break;
  case SC_OPND_IMM: sci_sb_printf(sb, "%" PRId64, o.imm); break;
  case SC_OPND_NONE: break;
  }
}

static void put_address(sc_strbuf *sb, const sc_test *t, const sc_thread *th,
                        sc_address a) {
  sci_sb_putc(sb, '[');
  put_operand(sb, t, th, a.base);
  if (a.offset > 0)
    sci_sb_printf(sb, "+%" PRId64, a.offset);
  else if (a.offset < 0)
    sci_sb_printf(sb, "-%" PRIu64, (uint64_t)0 - (uint64_t)a.offset);
  sci_sb_putc(sb, ']');
}

static void qual(sc_strbuf *sb, const char *name) {
  if (name && *name) {
    sci_sb_putc(sb, '.');
    sci_sb_puts(sb, name);
  }
}

static const char *base_name(const sc_instr *in) {
  if (in->op == SC_OP_LD && in->proxy == SC_PROXY_SURFACE) return "suld";
  if (in->op == SC_OP_LD && in->proxy == SC_PROXY_TEXTURE) return "tld";
  if (in->op == SC_OP_LD && in->proxy == SC_PROXY_CONSTANT) return "cold";
  if (in->op == SC_OP_ST && in->proxy == SC_PROXY_SURFACE) return "sust";
  if (in->op == SC_OP_BAR && in->bar_long) return "barrier";
  if (in->op == SC_OP_FENCE_PROXY) return "fence.proxy";
  if (in->op == SC_OP_RET && in->is_exit) return "exit";
  return sci_opcode_name(in->op);
}

static void put_mnemonic(sc_strbuf *sb, const sc_instr *in) {
  sci_sb_puts(sb, base_name(in));
  switch (in->op) {
  case SC_OP_LD:
  case SC_OP_ST:
  case SC_OP_ATOM:
  case SC_OP_RED:
    qual(sb, sci_sem_name(in->sem));
    qual(sb, sci_scope_name(in->scope));
    qual(sb, sci_space_name(in->space));
    qual(sb, sci_cacheop_name(in->cacheop));
    qual(sb, sci_atomop_name(in->atomop));
    break;
  case SC_OP_MEMBAR:
    qual(sb, in->scope == SC_SCOPE_GPU ? "gl" : sci_scope_name(in->scope));
    break;
  case SC_OP_FENCE:
    qual(sb, sci_sem_name(in->sem));
    qual(sb, sci_scope_name(in->scope));
    break;
  case SC_OP_FENCE_PROXY:
    qual(sb, sci_proxy_name(in->proxy));
    break;
  case SC_OP_BAR:
    qual(sb, in->bar_cta ? "cta" : NULL);
    qual(sb, in->barmode == SC_BAR_SYNC ? "sync" : "arrive");
    qual(sb, in->aligned ? "aligned" : NULL);
    break;
  case SC_OP_SETP:
    qual(sb, sci_cmp_name(in->cmp));
    break;
  case SC_OP_BRA:
    qual(sb, in->uni ? "uni" : NULL);
    break;
  case SC_OP_MUL:
  case SC_OP_MAD:
    qual(sb, in->wide ? "wide" : "lo");
    break;
  default:
    break;
  }
  qual(sb, sci_type_name(in->type));
  qual(sb, sci_type_name(in->type2));
}

void sci_print_instruction(sc_strbuf *sb, const sc_test *t, const sc_thread *th,
                          const sc_instr *in) {
  if (in->guard >= 0)
    sci_sb_printf(sb, "@%s%s ", in->guard_negated ? "!" : "",
                 th->regs[in->guard].name);
  put_mnemonic(sb, in);
  const char *sep = " ";
  if (in->dst.kind != SC_OPND_NONE) {
    sci_sb_puts(sb, sep);
    put_operand(sb, t, th, in->dst);
    sep = ", ";
  }
  if (sci_instr_is_access(in)) {
    sci_sb_puts(sb, sep);
    put_address(sb, t, th, in->addr);
    sep = ", ";
  }
  for (int i = 0; i < in->nsrc; i++) {
    sci_sb_puts(sb, sep);
    put_operand(sb, t, th, in->src[i]);
    sep = ", ";
  }
  if (in->target >= 0) {
    sci_sb_puts(sb, sep);
    sci_sb_puts(sb, th->labels[in->target].name);
  }
}

/* ---- The whole test ------------------------------------------------------- */

static void put_init(sc_strbuf *sb, const sc_test *t) {
  sci_sb_puts(sb, "{\n");
  for (int l = 0; l < t->nlocs; l++) {
    const sc_location *loc = &t->locs[l];
    if (loc->alias_of >= 0) {
      sci_sb_printf(sb, "%s @ %s aliases %s;\n", loc->name,
                   sci_proxy_name(loc->proxy), t->locs[loc->alias_of].name);
      continue;
    }
    sci_sb_printf(sb, "%s=", loc->name);
    put_value(sb, t, loc->init);
    sci_sb_puts(sb, ";\n");
  }
  for (int i = 0; i < t->nthreads; i++) {
    const sc_thread *th = &t->threads[i];
    for (int r = 0; r < th->nregs; r++) {
      const sc_register *reg = &th->regs[r];
      if (reg->type == SC_TYPE_NONE) {
        sci_sb_printf(sb, "%d:%s=", i, reg->name);
        put_value(sb, t, reg->init);
      } else {
        sci_sb_printf(sb, "%d:.reg .%s %s", i, sci_type_name(reg->type),
                     reg->name);
        if (reg->init.kind == SC_VAL_LOC || reg->init.i != 0) {
          sci_sb_puts(sb, " = ");
          put_value(sb, t, reg->init);
        }
      }
      sci_sb_puts(sb, ";\n");
    }
  }
  sci_sb_puts(sb, "}\n");
}

/* Whether Dat3M's thread headers ("P0@cta 0,gpu 0") say the placement:
 * read back, they give one kernel per device and a warp per thread, so
 * two threads sharing a warp, or one device but not its kernel, need the
 * scope tree. */
static bool headers_say_placement(const sc_test *t) {
  for (int i = 0; i < t->nthreads; i++)
    for (int j = i + 1; j < t->nthreads; j++) {
      const int *a = t->threads[i].place, *b = t->threads[j].place;
      if (a[SC_LEVEL_WARP] == b[SC_LEVEL_WARP] ||
          (a[SC_LEVEL_DEVICE] == b[SC_LEVEL_DEVICE] &&
           a[SC_LEVEL_KERNEL] != b[SC_LEVEL_KERNEL]))
        return false;
    }
  return true;
}

/* The scope tree is printed for GPU_PTX, and for PTX when the headers
 * cannot say the placement; else PTX gives each thread its header. */
static bool prints_scope_tree(const sc_test *t, sc_dialect d) {
  return d == SC_DIALECT_GPU_PTX || !headers_say_placement(t);
}

/* Cell texts of the program, rows x threads, labels joined to the
 * instruction they precede. */
static char ***program_cells(const sc_test *t, sc_dialect d, int *nrows) {
  int rows = 1;
  for (int i = 0; i < t->nthreads; i++) {
    const sc_thread *th = &t->threads[i];
    int n = th->ninstrs;
    for (int l = 0; l < th->nlabels; l++)
      if (th->labels[l].pc == th->ninstrs)
        n = th->ninstrs + 1;
    if (n + 1 > rows)
      rows = n + 1;
  }
  char ***cells = sci_alloc(sizeof(char **) * (size_t)rows);
  for (int r = 0; r < rows; r++)
    cells[r] = sci_alloc(sizeof(char *) * (size_t)t->nthreads);
  for (int i = 0; i < t->nthreads; i++) {
    const sc_thread *th = &t->threads[i];
    cells[0][i] = prints_scope_tree(t, d)
                      ? sci_strdup(th->name)
                      : sci_printf("%s@cta %d,gpu %d", th->name,
                                  th->place[SC_LEVEL_CTA],
                                  th->place[SC_LEVEL_DEVICE]);
    for (int pc = 0; pc + 1 < rows; pc++) {
      sc_strbuf sb;
      sci_sb_init(&sb);
      for (int l = 0; l < th->nlabels; l++)
        if (th->labels[l].pc == pc)
          sci_sb_printf(&sb, "%s: ", th->labels[l].name);
      if (pc < th->ninstrs)
        sci_print_instruction(&sb, t, th, &th->code[pc]);
      while (sb.len > 0 && sb.data[sb.len - 1] == ' ')
        sb.data[--sb.len] = '\0';
      cells[pc + 1][i] = sb.data;
    }
  }
  *nrows = rows;
  return cells;
}

static void put_program(sc_strbuf *sb, const sc_test *t, sc_dialect d) {
  int rows;
  char ***cells = program_cells(t, d, &rows);
  size_t *width = sci_alloc(sizeof(size_t) * (size_t)t->nthreads);
  for (int r = 0; r < rows; r++)
    for (int i = 0; i < t->nthreads; i++)
      if (strlen(cells[r][i]) > width[i])
        width[i] = strlen(cells[r][i]);
  for (int r = 0; r < rows; r++) {
    for (int i = 0; i < t->nthreads; i++) {
      size_t start = sb->len;
      sci_sb_putc(sb, ' ');
      sci_sb_puts(sb, cells[r][i]);
      sci_sb_pad(sb, start, width[i] + 2);
      sci_sb_puts(sb, i + 1 < t->nthreads ? "|" : ";\n");
    }
  }
}

static void put_scope_node(sc_strbuf *sb, const sc_test *t,
                           const sc_scope_node *n) {
  if (n->level == SC_LEVEL_THREAD) {
    sci_sb_puts(sb, t->threads[n->thread].name);
    return;
  }
  sci_sb_printf(sb, "(%s", sci_level_name(n->level));
  for (int i = 0; i < n->nkids; i++) {
    sci_sb_putc(sb, ' ');
    put_scope_node(sb, t, n->kids[i]);
  }
  sci_sb_putc(sb, ')');
}

static void put_lval(sc_strbuf *sb, const sc_test *t, const sc_lval *lv) {
  switch (lv->kind) {
  case SC_LVAL_REG:
    sci_sb_printf(sb, "%d:%s", lv->thread,
                 t->threads[lv->thread].regs[lv->reg].name);
    break;
  case SC_LVAL_LOC:
  case SC_LVAL_ADDR: sci_sb_puts(sb, t->locs[lv->loc].name); break;
  case SC_LVAL_CONST: sci_sb_printf(sb, "%" PRId64, lv->constant); break;
  }
}

/* Binary operators print left-associated; a right operand of the same or a
 * looser operator gets parentheses so that the tree comes back the same. */
static int prop_rank(sc_prop_kind k) {
  switch (k) {
  case SC_PROP_IMPLIES: return 1;
  case SC_PROP_OR: return 2;
  case SC_PROP_AND: return 3;
  default: return 4;
  }
}

static void put_sub_prop(sc_strbuf *sb, const sc_test *t, const sc_prop *p,
                         int min_rank) {
  bool paren = prop_rank(p->kind) < min_rank;
  if (paren)
    sci_sb_putc(sb, '(');
  sci_print_prop(sb, t, p);
  if (paren)
    sci_sb_putc(sb, ')');
}

/* herd's = and !=; herd has no relational operator, so a kernel's
 * condition that compares (lib/kernel/launch.c) gets C's, in herd's
 * spacing: "A[0]<2" (herd7 would not read it back, nor is it asked to). */
static const char *comparison_operator(sc_prop_kind k) {
  switch (k) {
  case SC_PROP_NE: return "!=";
  case SC_PROP_LT: return "<";
  case SC_PROP_LE: return "<=";
  case SC_PROP_GT: return ">";
  case SC_PROP_GE: return ">=";
  default: return "=";
  }
}

void sci_print_prop(sc_strbuf *sb, const sc_test *t, const sc_prop *p) {
  switch (p->kind) {
  case SC_PROP_TRUE: sci_sb_puts(sb, "true"); return;
  case SC_PROP_FALSE: sci_sb_puts(sb, "false"); return;
  case SC_PROP_EQ: case SC_PROP_NE: case SC_PROP_LT: case SC_PROP_LE:
  case SC_PROP_GT: case SC_PROP_GE:
    put_lval(sb, t, &p->lhs);
    sci_sb_puts(sb, comparison_operator(p->kind));
    put_lval(sb, t, &p->rhs);
    return;
  case SC_PROP_NOT:
    sci_sb_puts(sb, "~");
    put_sub_prop(sb, t, p->a, 5);
    return;
  case SC_PROP_AND:
  case SC_PROP_OR: {
    int r = prop_rank(p->kind);
    put_sub_prop(sb, t, p->a, r);
    sci_sb_puts(sb, p->kind == SC_PROP_AND ? " /\\ " : " \\/ ");
    put_sub_prop(sb, t, p->b, r + 1);
    return;
  }
  case SC_PROP_IMPLIES: /* right-associative */
    put_sub_prop(sb, t, p->a, 2);
    sci_sb_puts(sb, " => ");
    put_sub_prop(sb, t, p->b, 1);
    return;
  }
}

const char *sci_quantifier_name(sc_quantifier q) {
  return q == SC_EXISTS ? "exists" : q == SC_FORALL ? "forall" : "~exists";
}

static void put_tail(sc_strbuf *sb, const sc_test *t, sc_dialect d) {
  if (prints_scope_tree(t, d) && t->nscope_roots > 0) {
    sci_sb_puts(sb, "\nscopeTree\n");
    for (int r = 0; r < t->nscope_roots; r++) {
      if (r)
        sci_sb_putc(sb, ' ');
      put_scope_node(sb, t, t->scope_roots[r]);
    }
    sci_sb_putc(sb, '\n');
  }
  const char *sep = "\n";
  for (int l = 0; l < t->nlocs; l++) {
    if (t->locs[l].region == SC_SPACE_NONE)
      continue;
    sci_sb_printf(sb, "%s%s: %s", sep, t->locs[l].name,
                 sci_space_name(t->locs[l].region));
    sep = ", ";
  }
  if (strcmp(sep, ", ") == 0)
    sci_sb_putc(sb, '\n');
  if (t->nobserved > 0) {
    sci_sb_puts(sb, "\nlocations [");
    for (int i = 0; i < t->nobserved; i++) {
      put_lval(sb, t, &t->observed[i]);
      sci_sb_puts(sb, ";");
      if (i + 1 < t->nobserved)
        sci_sb_putc(sb, ' ');
    }
    sci_sb_puts(sb, "]\n");
  }
  if (t->filter) {
    sci_sb_puts(sb, "\nfilter (");
    sci_print_prop(sb, t, t->filter);
    sci_sb_puts(sb, ")\n");
  }
  sci_sb_printf(sb, "\n%s (", sci_quantifier_name(t->quant));
  sci_print_prop(sb, t, t->cond);
  sci_sb_puts(sb, ")\n");
}

/* The PTX dialect places threads by Dat3M's headers, "P0@cta 0,gpu 1",
 * instead of a scope tree, unless the placement has shared warps or
 * several kernels a device, which the headers cannot say; the rest is the
 * grammar both dialects share. */
const char *sci_litmus_print(const sc_test *t, sc_dialect d) {
  sc_strbuf sb;
  sci_sb_init(&sb);
  sci_sb_printf(&sb, "%s %s\n", d == SC_DIALECT_GPU_PTX ? "GPU_PTX" : "PTX",
               t->name);
  for (int i = 0; i < t->ninfo; i++)
    sci_sb_printf(&sb, "%s\n", t->info[i]);
  put_init(&sb, t);
  put_program(&sb, t, d);
  put_tail(&sb, t, d);
  return sb.data;
}

/* "[P0 P1][P2]": threads grouped by CTA, CTAs by device ("||" between). */
static void put_placement(sc_strbuf *sb, const sc_test *t) {
  bool *done = sci_alloc(sizeof(bool) * (size_t)(t->nthreads + 1));
  int last_device = -1;
  for (int i = 0; i < t->nthreads; i++) {
    if (done[i])
      continue;
    const int *pi = t->threads[i].place;
    if (last_device >= 0 && pi[SC_LEVEL_DEVICE] != last_device)
      sci_sb_puts(sb, " ||");
    last_device = pi[SC_LEVEL_DEVICE];
    sci_sb_puts(sb, " [");
    for (int j = i; j < t->nthreads; j++) {
      if (done[j] || t->threads[j].place[SC_LEVEL_CTA] != pi[SC_LEVEL_CTA])
        continue;
      done[j] = true;
      sci_sb_printf(sb, "%s%s", j == i ? "" : " ", t->threads[j].name);
    }
    sci_sb_putc(sb, ']');
  }
}

const char *sci_litmus_summary(const sc_test *t) {
  int ninstrs = 0;
  for (int i = 0; i < t->nthreads; i++)
    ninstrs += t->threads[i].ninstrs;
  sc_strbuf sb;
  sci_sb_init(&sb);
  sci_sb_printf(&sb, "%s: %s, %d thread%s, %d instruction%s, %d location%s, %s,"
               " cta", t->name,
               t->dialect == SC_DIALECT_GPU_PTX ? "GPU_PTX" : "PTX",
               t->nthreads, t->nthreads == 1 ? "" : "s", ninstrs,
               ninstrs == 1 ? "" : "s", t->nlocs, t->nlocs == 1 ? "" : "s",
               sci_quantifier_name(t->quant));
  put_placement(&sb, t);
  return sb.data;
}
