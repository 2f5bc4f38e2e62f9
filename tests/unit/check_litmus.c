/* check_litmus.c: unit tests of the litmus front end (lib/litmus_*.c):
 * hand-checked parses of the paper's Fig. 12 and of Dat3M forms, the
 * canonical round trip, and malformed inputs with the exact position and
 * message each must produce. */
#include "litmus/litmus.h"
#include "util/md5.h"

#include <check.h>

#include "check_run.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static sc_test *parse_ok(const char *text) {
  sc_test *t = NULL;
  sc_error *err = NULL;
  sc_status st = sc_test_load_string(text, "t.litmus", NULL, &t, &err);
  ck_assert_msg(st == SC_OK, "parse failed: %s", sc_error_message(err));
  return t;
}

/* ---- The paper's Fig. 12, as printed (T0/T1, ScopeTree, grid) --------- */

static const char fig12[] =
    "GPU_PTX SB\n"
    "{0:.reg .s32 r0;      0:.reg .s32 r2;\n"
    " 0:.reg .b64 r1 = x; 0:.reg .b64 r3 = y;\n"
    " 1:.reg .s32 r0;    1:.reg .s32 r2;\n"
    " 1:.reg .b64 r1 = y; 1:.reg .b64 r3 = x;}\n"
    "T0                    | T1                    ;\n"
    "mov.s32 r0,1          | mov.s32 r0,1          ;\n"
    "st.cg.s32 [r1],r0    | st.cg.s32 [r1],r0    ;\n"
    "ld.cg.s32 r2,[r3]   | ld.cg.s32 r2,[r3]   ;\n"
    "ScopeTree(grid(cta(warp T0) (warp T1)))\n"
    "x: shared, y: global\n"
    "exists (0:r2=0 /\\ 1:r2=0)\n";

START_TEST(fig12_structure) {
  sc_test *t = parse_ok(fig12);
  ck_assert_str_eq(t->name, "SB");
  ck_assert_int_eq(t->dialect, SC_DIALECT_GPU_PTX);
  ck_assert_int_eq(t->nthreads, 2);
  for (int i = 0; i < 2; i++) {
    const sc_thread *th = &t->threads[i];
    ck_assert_int_eq(th->ninstrs, 3);
    ck_assert_int_eq(th->nregs, 4);
    ck_assert_int_eq(th->code[0].op, SC_OP_MOV);
    ck_assert_int_eq(th->code[0].src[0].kind, SC_OPND_IMM);
    ck_assert_int_eq(th->code[0].src[0].imm, 1);
    const sc_instr *st = &th->code[1];
    ck_assert_int_eq(st->op, SC_OP_ST);
    ck_assert_int_eq(st->cacheop, SC_CACHE_CG);
    ck_assert_int_eq(st->type, SC_TYPE_S32);
    ck_assert_int_eq(st->sem, SC_SEM_NONE);
    ck_assert_int_eq(st->addr.base.kind, SC_OPND_REG);
    ck_assert_str_eq(th->regs[st->addr.base.index].name, "r1");
    ck_assert_int_eq(th->code[2].op, SC_OP_LD);
    ck_assert_str_eq(th->regs[th->code[2].dst.index].name, "r2");
  }
  /* thread 0's r1 holds x, thread 1's r1 holds y */
  const sc_register *r1 = &t->threads[0].regs[2];
  ck_assert_str_eq(r1->name, "r1");
  ck_assert_int_eq(r1->type, SC_TYPE_B64);
  ck_assert_int_eq(r1->init.kind, SC_VAL_LOC);
  ck_assert_str_eq(t->locs[r1->init.loc].name, "x");
  ck_assert_str_eq(t->locs[t->threads[1].regs[2].init.loc].name, "y");
  /* same CTA, different warps */
  const int *p0 = t->threads[0].place, *p1 = t->threads[1].place;
  ck_assert_int_eq(p0[SC_LEVEL_CTA], p1[SC_LEVEL_CTA]);
  ck_assert_int_eq(p0[SC_LEVEL_KERNEL], p1[SC_LEVEL_KERNEL]);
  ck_assert_int_ne(p0[SC_LEVEL_WARP], p1[SC_LEVEL_WARP]);
  /* memory map */
  ck_assert_int_eq(t->locs[sci_test_find_location(t, "x")].region, SC_SPACE_SHARED);
  ck_assert_int_eq(t->locs[sci_test_find_location(t, "y")].region, SC_SPACE_GLOBAL);
  /* exists (0:r2=0 /\ 1:r2=0) */
  ck_assert_int_eq(t->quant, SC_EXISTS);
  ck_assert_int_eq(t->cond->kind, SC_PROP_AND);
  ck_assert_int_eq(t->cond->a->kind, SC_PROP_EQ);
  ck_assert_int_eq(t->cond->a->lhs.kind, SC_LVAL_REG);
  ck_assert_int_eq(t->cond->a->lhs.thread, 0);
  ck_assert_int_eq(t->cond->b->lhs.thread, 1);
  ck_assert_int_eq(t->cond->b->rhs.kind, SC_LVAL_CONST);
  ck_assert_int_eq(t->cond->b->rhs.constant, 0);
}
END_TEST

START_TEST(fig12_round_trip) {
  sc_test *t = parse_ok(fig12);
  const char *text = sc_test_to_string(t);
  sc_test *again = parse_ok(text);
  ck_assert(sc_test_equal(t, again));
  /* printing is a fixpoint */
  ck_assert_str_eq(sc_test_to_string(again), text);
  ck_assert_ptr_nonnull(strstr(text, "st.cg.s32 [r1], r0"));
  ck_assert_ptr_nonnull(strstr(text, "(kernel (cta (warp T0) (warp T1)))"));
}
END_TEST

/* ---- Dat3M's PTX dialect ------------------------------------------------ */

static const char dat3m[] =
    "PTX D\n"
    "\"doc with an unbalanced \" quote\n"
    "{\n"
    "x=0; flag=0;\n"
    "s @ surface aliases x;\n"
    "P1:r1 = 0;\n"
    "}\n"
    " P0@cta 0,gpu 0          | P1@cta 1, gpu 0          | P2@cta 0,gpu 1 ;\n"
    " ld r0, 1                | LC00:                    | sust.weak s, 2 ;\n"
    " st.release.gpu flag, r0 | ld.acquire.gpu r1, flag  |                ;\n"
    " red.acq_rel.sys.add x, 1| bne r1, 1, LC00          |                ;\n"
    "                         | atom.relaxed.gpu.cas r2, x, 1, 0 |         ;\n"
    "exists (P1:r1 == P1:r2 /\\ P1:r2 != 3 \\/ 0==0)\n";

START_TEST(dat3m_structure) {
  sc_test *t = parse_ok(dat3m);
  ck_assert_int_eq(t->dialect, SC_DIALECT_PTX);
  ck_assert_int_eq(t->ninfo, 1);
  ck_assert_int_eq(t->nthreads, 3);
  /* "ld r0, 1" loads an immediate: a mov */
  const sc_thread *p0 = &t->threads[0];
  ck_assert_int_eq(p0->code[0].op, SC_OP_MOV);
  ck_assert_int_eq(p0->code[1].op, SC_OP_ST);
  ck_assert_int_eq(p0->code[1].sem, SC_SEM_RELEASE);
  ck_assert_int_eq(p0->code[1].scope, SC_SCOPE_GPU);
  ck_assert_int_eq(p0->code[1].addr.base.kind, SC_OPND_LOC);
  ck_assert_int_eq(p0->code[1].src[0].kind, SC_OPND_REG);
  ck_assert_int_eq(p0->code[2].op, SC_OP_RED);
  ck_assert_int_eq(p0->code[2].atomop, SC_ATOM_ADD);
  /* bne back to LC00 at pc 0 */
  const sc_thread *p1 = &t->threads[1];
  ck_assert_int_eq(p1->nlabels, 1);
  ck_assert_int_eq(p1->labels[0].pc, 0);
  ck_assert_int_eq(p1->code[1].op, SC_OP_BNE);
  ck_assert_int_eq(p1->code[1].target, 0);
  ck_assert_int_eq(p1->code[2].atomop, SC_ATOM_CAS);
  ck_assert_int_eq(p1->code[2].nsrc, 2);
  /* the surface store and its alias */
  const sc_thread *p2 = &t->threads[2];
  ck_assert_int_eq(p2->code[0].op, SC_OP_ST);
  ck_assert_int_eq(p2->code[0].proxy, SC_PROXY_SURFACE);
  int s = sci_test_find_location(t, "s");
  ck_assert_int_eq(t->locs[s].proxy, SC_PROXY_SURFACE);
  ck_assert_int_eq(t->locs[s].alias_of, sci_test_find_location(t, "x"));
  /* placement: P0 and P2 both "cta 0" but on different GPUs */
  ck_assert_int_ne(t->threads[0].place[SC_LEVEL_CTA], t->threads[1].place[SC_LEVEL_CTA]);
  ck_assert_int_ne(t->threads[0].place[SC_LEVEL_CTA], t->threads[2].place[SC_LEVEL_CTA]);
  ck_assert_int_eq(t->threads[0].place[SC_LEVEL_DEVICE], t->threads[1].place[SC_LEVEL_DEVICE]);
  ck_assert_int_ne(t->threads[0].place[SC_LEVEL_DEVICE], t->threads[2].place[SC_LEVEL_DEVICE]);
  /* (a /\ b) \/ c, with a register on the right of == */
  ck_assert_int_eq(t->cond->kind, SC_PROP_OR);
  ck_assert_int_eq(t->cond->a->kind, SC_PROP_AND);
  ck_assert_int_eq(t->cond->a->a->rhs.kind, SC_LVAL_REG);
  ck_assert_int_eq(t->cond->a->b->kind, SC_PROP_NE);
  ck_assert_int_eq(t->cond->b->lhs.kind, SC_LVAL_CONST);
  /* the canonical form keeps the dialect, and so the meaning */
  const char *text = sc_test_to_string(t);
  ck_assert(strncmp(text, "PTX D\n", 6) == 0);
  ck_assert_ptr_nonnull(strstr(text, "P2@cta 2,gpu 1"));
  sc_test *again = parse_ok(text);
  ck_assert_int_eq(again->dialect, SC_DIALECT_PTX);
  ck_assert(sc_test_equal(t, again));
  ck_assert_str_eq(sc_test_to_string(again), text);
  ck_assert_str_eq(sci_test_hash(again), sci_test_hash(t));
}
END_TEST

/* The same code read as GPU_PTX is another test: another default model,
 * and under Dat3M's models another coherence (the bug: parse printed a
 * PTX test as GPU_PTX, -check called it a good round trip, and both got
 * the same Hash). */
START_TEST(dialect_is_part_of_the_meaning) {
  sc_test *t = parse_ok(dat3m);
  sc_test *gpu = parse_ok(sc_test_to_dialect(t, SC_DIALECT_GPU_PTX));
  ck_assert_int_eq(gpu->dialect, SC_DIALECT_GPU_PTX);
  ck_assert(!sc_test_equal(t, gpu));
  ck_assert(!sc_test_equal(gpu, t));
  ck_assert_str_ne(sci_test_hash(t), sci_test_hash(gpu));
  /* both default to ptx-v7.5.cat (proxies; PTX 7 instructions), for
   * reasons of their dialects */
  const char *why_ptx, *why_gpu;
  sc_test_default_model_why(t, &why_ptx);
  sc_test_default_model_why(gpu, &why_gpu);
  ck_assert_str_ne(why_ptx, why_gpu);
  /* a GPU_PTX test's hash is the MD5 of its GPU_PTX text, as before */
  const char *text = sc_test_to_dialect(gpu, SC_DIALECT_GPU_PTX);
  char hex[33];
  sci_md5_hex(text, strlen(text), hex);
  ck_assert_str_eq(sci_test_hash(gpu), hex);
}
END_TEST

/* The library's default model follows what a GPU_PTX test uses, as the
 * CLI's did (the bug: sc_test_default_model gave ptx-rmo.cat, which
 * ignores fence.sc in silence, to a test using it): a guarded fence.sc
 * and a .relaxed access with a scope each pick ptx-v7.5.cat and say
 * why; membar and a .relaxed without scope leave ptx-rmo.cat. */
static const char sb_fence_sc[] =
    "GPU_PTX SB+fence.sc\n"
    "{ 0:.reg .s32 r0; 0:.reg .pred p; 1:.reg .s32 r0; x=0; y=0; }\n"
    " P0                  | P1                  ;\n"
    " setp.eq.s32 p, 1, 1 | st.cg.s32 [y], 1    ;\n"
    " st.cg.s32 [x], 1    | membar.gl           ;\n"
    " @p fence.sc.gpu     | ld.cg.s32 r0, [x]   ;\n"
    " ld.cg.s32 r0, [y]   |                     ;\n"
    "exists (0:r0=0 /\\ 1:r0=0)\n";

START_TEST(default_model_follows_instructions) {
  const char *why = NULL;
  sc_test *t = parse_ok(sb_fence_sc);
  ck_assert_str_eq(sc_test_default_model_why(t, &why), "ptx-v7.5.cat");
  ck_assert_str_eq(why, "it uses fence.sc.gpu, which ptx-rmo.cat ignores");
  ck_assert_str_eq(sc_test_default_model(t), "ptx-v7.5.cat");
  t = parse_ok("GPU_PTX R\n{ 0:.reg .s32 r0; x=0; }\n P0 ;\n"
               " ld.relaxed.gpu.s32 r0, [x] ;\nexists (0:r0=0)\n");
  ck_assert_str_eq(sc_test_default_model_why(t, &why), "ptx-v7.5.cat");
  ck_assert_str_eq(why, "it uses ld.relaxed.gpu.s32, which ptx-rmo.cat ignores");
  t = parse_ok(fig12);
  ck_assert_str_eq(sc_test_default_model_why(t, &why), "ptx-rmo.cat");
  ck_assert_str_eq(why, "the default for GPU_PTX tests");
  t = parse_ok(dat3m); /* sust: a proxy */
  ck_assert_str_eq(sc_test_default_model_why(t, &why), "ptx-v7.5.cat");
  ck_assert_str_eq(why, "it uses proxies, which only ptx-v7.5.cat knows");
  t = parse_ok("PTX M\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.release.gpu x, 1 ;\n"
               "exists (x=1)\n");
  ck_assert_str_eq(sc_test_default_model_why(t, NULL), "ptx-v6.0.cat");
  sc_test_default_model_why(t, &why);
  ck_assert_str_eq(why, "the default for the PTX dialect");
}
END_TEST

/* A PTX test placed by a scope tree with warps keeps them: the thread
 * headers cannot say a warp, so the tree is printed. */
static const char ptx_warps[] =
    "PTX W\n"
    "{ x=0; }\n"
    " P0           | P1           | P2          ;\n"
    " st.weak x, 1 | ld.weak r0, x | ld.weak r1, x ;\n"
    "scopeTree (device (cta (warp P0 P1) (warp P2)))\n"
    "exists (P1:r0 == 1)\n";

START_TEST(ptx_scope_tree_round_trip) {
  sc_test *t = parse_ok(ptx_warps);
  ck_assert_int_eq(t->threads[0].place[SC_LEVEL_WARP],
                   t->threads[1].place[SC_LEVEL_WARP]);
  ck_assert_int_ne(t->threads[0].place[SC_LEVEL_WARP],
                   t->threads[2].place[SC_LEVEL_WARP]);
  const char *text = sc_test_to_string(t);
  ck_assert_ptr_nonnull(strstr(text, "(warp P0 P1) (warp P2)"));
  sc_test *again = parse_ok(text);
  ck_assert_int_eq(again->dialect, SC_DIALECT_PTX);
  ck_assert(sc_test_equal(t, again));
}
END_TEST

/* ---- Predicates, setp, branches, equality -------------------------------- */

static const char predicated[] =
    "GPU_PTX P\n"
    "{ 0:.reg .s32 r0; 0:.reg .pred p; 0:.reg .b64 r1 = x; x=5; }\n"
    " P0                         ;\n"
    " ld.cg.s32 r0, [r1+4]       ;\n"
    " setp.eq.s32 p, r0, 0       ;\n"
    " @!p bra DONE               ;\n"
    " and.b32 r0, r0, 0x80000000 ;\n"
    " DONE:                      ;\n"
    "locations [x; 0:r0;]\n"
    "~exists (0:r0=-1 => not (x=5))\n";

START_TEST(predicated_branch) {
  sc_test *t = parse_ok(predicated);
  const sc_thread *th = &t->threads[0];
  ck_assert_int_eq(th->ninstrs, 4);
  ck_assert_int_eq(th->code[0].addr.offset, 4);
  ck_assert_int_eq(th->code[1].cmp, SC_CMP_EQ);
  ck_assert_int_eq(th->code[2].op, SC_OP_BRA);
  ck_assert(th->code[2].guard_negated);
  ck_assert_str_eq(th->regs[th->code[2].guard].name, "p");
  ck_assert_int_eq(th->labels[th->code[2].target].pc, 4); /* end of code */
  ck_assert_int_eq(th->code[3].src[1].imm, 0x80000000);
  ck_assert_int_eq(t->locs[0].init.i, 5);
  ck_assert_int_eq(t->nobserved, 2);
  ck_assert_int_eq(t->quant, SC_NOT_EXISTS);
  ck_assert_int_eq(t->cond->kind, SC_PROP_IMPLIES);
  ck_assert_int_eq(t->cond->a->rhs.constant, -1);
  ck_assert_int_eq(t->cond->b->kind, SC_PROP_NOT);
  /* no scope tree: one kernel, a CTA each */
  ck_assert_int_eq(t->nscope_roots, 0);
  sc_test *again = parse_ok(sc_test_to_string(t));
  ck_assert(sc_test_equal(t, again));
}
END_TEST

/* Equality must see every difference, or the round-trip test is void. */
START_TEST(equality_sees_differences) {
  sc_test *a = parse_ok(fig12);
  const char *variants[][2] = {
      {"st.cg.s32 [r1],r0    | st.cg", "st.wt.s32 [r1],r0    | st.cg"},
      {"ScopeTree(grid(cta(warp T0) (warp T1)))",
       "ScopeTree(grid(cta(warp T0)) (cta (warp T1)))"},
      {"ScopeTree(grid(cta(warp T0) (warp T1)))",
       "ScopeTree(grid(cta(warp T0 T1)))"},
      {"x: shared", "x: global"},
      {"exists (0:r2=0 /\\ 1:r2=0)", "exists (0:r2=0 \\/ 1:r2=0)"},
      {"exists (0:r2=0 /\\ 1:r2=0)", "forall (0:r2=0 /\\ 1:r2=0)"},
      {"exists (0:r2=0 /\\ 1:r2=0)", "exists (0:r2=0 /\\ 1:r2=1)"},
      {"1:.reg .b64 r3 = x;", "1:.reg .b64 r3 = y;"},
      {"mov.s32 r0,1          | mov.s32 r0,1 ", "mov.s32 r0,1          | mov.s32 r0,2 "},
      {"ld.cg.s32 r2,[r3]   | ld.cg", "ld.ca.s32 r2,[r3]   | ld.cg"},
  };
  for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) {
    const char *at = strstr(fig12, variants[i][0]);
    ck_assert_msg(at != NULL, "variant %zu does not apply", i);
    size_t pre = (size_t)(at - fig12), oldlen = strlen(variants[i][0]);
    char buf[2048];
    snprintf(buf, sizeof buf, "%.*s%s%s", (int)pre, fig12, variants[i][1],
             at + oldlen);
    sc_test *b = parse_ok(buf);
    ck_assert_msg(!sc_test_equal(a, b), "variant %zu compared equal", i);
  }
  ck_assert(sc_test_equal(a, parse_ok(fig12)));
}
END_TEST

/* A location named once in the whole test is likely misspelt: Dat3M's
 * MP-gpu with "yy" for y in P0's release store (a new location at 0, and
 * the test's verdict changes in silence). */
static const char mp_gpu[] =
    "PTX MP-gpu\n"
    "{\n"
    "x=0;\n"
    "y=0;\n"
    "}\n"
    " P0@cta 0,gpu 0         | P1@cta 0,gpu 0         ;\n"
    " st.weak x, 1           | ld.acquire.gpu r1, y   ;\n"
    " st.release.gpu Y, 1    | ld.weak r2, x          ;\n"
    "~exists\n"
    "(P1:r1 == 1 /\\ P1:r2 != 1)\n";

static char *replace_once(const char *text, const char *from, const char *to) {
  const char *at = strstr(text, from);
  ck_assert_ptr_nonnull(at);
  size_t pre = (size_t)(at - text);
  char *out = malloc(strlen(text) + strlen(to) + 1);
  sprintf(out, "%.*s%s%s", (int)pre, text, to, at + strlen(from));
  return out;
}

START_TEST(location_named_once) {
  int n;
  /* as Dat3M wrote it: y in both threads, x and y in the init */
  char *good = replace_once(mp_gpu, "release.gpu Y", "release.gpu y");
  sc_test_warnings(parse_ok(good), &n);
  ck_assert_int_eq(n, 0);
  /* the typo: Y is named once, at 8:17 */
  const char *const *w = sc_test_warnings(parse_ok(mp_gpu), &n);
  ck_assert_int_eq(n, 1);
  ck_assert_ptr_nonnull(strstr(w[0], "t.litmus:8:17: warning: location 'Y' "
                                     "is named only here"));
  /* named once but given a value, looked at by the condition, or placed
   * in a memory map: meant */
  char *init = replace_once(mp_gpu, "y=0;", "y=0; Y=0;");
  sc_test_warnings(parse_ok(init), &n);
  ck_assert_int_eq(n, 0);
  char *cond = replace_once(mp_gpu, "P1:r2 != 1)", "P1:r2 != 1 /\\ Y == 1)");
  sc_test_warnings(parse_ok(cond), &n);
  ck_assert_int_eq(n, 0);
  /* GPU_PTX: a register's initial address is the mention */
  char *gpu = replace_once(fig12, "1:.reg .b64 r3 = x;", "1:.reg .b64 r3 = xx;");
  w = sc_test_warnings(parse_ok(gpu), &n);
  ck_assert_int_eq(n, 1);
  ck_assert_ptr_nonnull(strstr(w[0], "location 'xx'"));
  sc_test_warnings(parse_ok(fig12), &n);
  ck_assert_int_eq(n, 0);
  free(good);
  free(init);
  free(cond);
  free(gpu);
}
END_TEST

START_TEST(summary_line) {
  sc_test *t = parse_ok(dat3m);
  ck_assert_str_eq(sc_test_summary(t),
                   "D: PTX, 3 threads, 7 instructions, 3 locations, exists, "
                   "cta [P0] [P1] || [P2]");
}
END_TEST

/* The quantifier as herd7 writes it, for each of the three. */
START_TEST(quantifier_names) {
  ck_assert_str_eq(sc_test_quantifier(parse_ok(fig12)), "exists");
  const char *tail = strstr(fig12, "exists (");
  char *text = malloc(strlen(fig12) + 8);
  const char *as[] = {"forall", "~exists"};
  for (int i = 0; i < 2; i++) {
    sprintf(text, "%.*s%s%s", (int)(tail - fig12), fig12, as[i], tail + strlen("exists"));
    ck_assert_str_eq(sc_test_quantifier(parse_ok(text)), as[i]);
  }
  free(text);
}
END_TEST

START_TEST(select_pattern) {
  sc_select *sel;
  sc_error *err;
  ck_assert_int_eq(sc_select_compile("^mp\\+", &sel, &err), SC_OK);
  ck_assert(sc_select_match(sel, "mp+membar.gls"));
  ck_assert(!sc_select_match(sel, "xmp+membar.gls"));
  ck_assert_int_eq(sc_select_compile("mp(", &sel, &err), SC_ERR_USAGE);
  ck_assert_ptr_nonnull(strstr(sc_error_message(err), "-select:1:4:"));
  ck_assert_ptr_nonnull(strstr(sc_error_message(err), "missing closing parenthesis"));
}
END_TEST

/* ---- Malformed inputs ----------------------------------------------------- */

/* One register each, one thread: instruction cases go on line 7. */
#define ONE "GPU_PTX T\n{\n0:.reg .s32 r0;\n0:.reg .b64 r1 = x;\n}\n P0 ;\n"
#define ONE_TAIL "scopeTree (device (cta P0))\nexists (0:r0=0)\n"
#define INSTR(text) ONE " " text " ;\n" ONE_TAIL
#define TWO "GPU_PTX T\n{\n0:.reg .s32 r0;\n1:.reg .s32 r0;\n}\n P0 | P1 ;\n"
#define TAIL(text) ONE " mov.s32 r0, 1 ;\n" text
#define DAT3M "PTX T\n{\nx=0;\n}\n"

typedef struct bad_case {
  const char *text;
  const char *where;   /* "line:col" */
  const char *message; /* fragment of the message */
  sc_status status;
} bad_case;

static const bad_case bad[] = {
    /* header */
    {"", "1:1", "expected the architecture GPU_PTX or PTX, found end of file", SC_ERR_SYNTAX},
    {"X86 SB\n{\n}\n", "1:1", "expected the architecture GPU_PTX or PTX, found 'X86'", SC_ERR_UNSUPPORTED},
    {"GPU_PTX\n{\n}\n", "1:8", "expected a test name after GPU_PTX", SC_ERR_SYNTAX},
    {"GPU_PTX T\n", "2:1", "expected '{' opening the initial state, found end of file", SC_ERR_SYNTAX},
    /* initial state */
    {"GPU_PTX T\n{\n0:.reg .f32 r0;\n}\n", "3:8", "expected a register type", SC_ERR_SYNTAX},
    {"GPU_PTX T\n{\n1:.reg .s32 r0;\n}\n P0 ;\n", "3:13", "found one of thread 1", SC_ERR_SEMANTIC},
    {"GPU_PTX T\n{\n0:.reg .s32 r0;\n0:.reg .s32 r0;\n}\n P0 ;\n", "4:13",
     "expected one declaration of register r0 of thread 0, found a second", SC_ERR_SEMANTIC},
    {"GPU_PTX T\n{\nx=1;\nx=2;\n}\n", "4:1", "expected one initial value for 'x', found a second", SC_ERR_SEMANTIC},
    {"GPU_PTX T\n{\nx=99999999999999999999;\n}\n", "3:3", "does not fit in 64 bits", SC_ERR_SYNTAX},
    {"GPU_PTX T\n{\n(* oops\n}\n", "3:1", "expected '*)' closing this comment", SC_ERR_SYNTAX},
    {"GPU_PTX T\n{\nx=1;\xc3\xa9\n}\n", "3:5", "unexpected byte 0xc3", SC_ERR_SYNTAX},
    {"GPU_PTX T\n{\nx=1 y=2;\n}\n", "3:5", "expected ';' after an initial-state item, found 'y'", SC_ERR_SYNTAX},
    {"GPU_PTX T\n{\n0:r0;\n}\n", "3:5", "expected '=' and the register's initial value, found ';'", SC_ERR_SYNTAX},
    {DAT3M "\n", "6:1", "expected the thread name P0, found end of file", SC_ERR_SYNTAX},
    /* instructions */
    {INSTR("mov.s32 r5, 1"), "7:10", "expected a declared register of thread 0, found 'r5'", SC_ERR_SEMANTIC},
    {INSTR("foo.s32 r0, 1"), "7:2", "unknown instruction 'foo'", SC_ERR_UNSUPPORTED},
    {INSTR("ld.zz.s32 r0,[r1]"), "7:5", "unknown qualifier '.zz' for ld", SC_ERR_UNSUPPORTED},
    {INSTR("ld.cg.ca.s32 r0,[r1]"), "7:8", "found a second one '.ca'", SC_ERR_SYNTAX},
    {INSTR("ld.release.gpu.s32 r0,[r1]"), "7:2", "expected .acquire, not .release, on a load", SC_ERR_SYNTAX},
    {INSTR("ld.relaxed.s32 r0,[r1]"), "7:2", "expected a scope (.cta .cluster .gpu .sys)", SC_ERR_SYNTAX},
    {INSTR("ld.cg.gpu.s32 r0,[r1]"), "7:2", "expected .relaxed/.acquire/.release before a scope", SC_ERR_SYNTAX},
    {INSTR("st.acquire.gpu.s32 [r1],r0"), "7:2", "expected .release, not .acquire, on a store", SC_ERR_SYNTAX},
    {INSTR("st.ca.s32 [r1],r0"), "7:2", "expected a store cache operator", SC_ERR_SYNTAX},
    {INSTR("atom.s32 r0,[r1],1"), "7:2", "expected an operation (.cas .exch .add ...)", SC_ERR_SYNTAX},
    {INSTR("red.cas.b32 [r1],1"), "7:2", "red has no .cas or .exch", SC_ERR_SYNTAX},
    {INSTR("atom.cas.b32 r0,[r1],1"), "7:25", "expected ',' between the operands of atom, found ';'", SC_ERR_SYNTAX},
    {INSTR("membar"), "7:2", "expected a scope (.cta .gl .sys)", SC_ERR_SYNTAX},
    {INSTR("membar.gpu"), "7:9", "unknown qualifier '.gpu' for membar", SC_ERR_UNSUPPORTED},
    {INSTR("fence.acquire.gpu"), "7:2", "expected .sc or .acq_rel", SC_ERR_SYNTAX},
    {INSTR("fence.proxy.foo"), "7:14", "expected a proxy kind after fence.proxy", SC_ERR_SYNTAX},
    {INSTR("setp.s32 r0, r0, 1"), "7:2", "expected a comparison", SC_ERR_SYNTAX},
    {INSTR("cvt.s32 r0, r0"), "7:2", "expected two types", SC_ERR_SYNTAX},
    {INSTR("bar.cta 0"), "7:2", "expected .sync or .arrive", SC_ERR_SYNTAX},
    {INSTR("st.cg.s32 [r1] r0"), "7:17", "expected ',' between the operands of st, found 'r0'", SC_ERR_SYNTAX},
    {INSTR("ld.cg.s32 r0,[r1"), "7:19", "expected ']' closing the address, found ';'", SC_ERR_SYNTAX},
    {INSTR("mov.s32 r0, 1, 2"), "7:15", "expected '|' or ';' after the operands of mov.s32, found ','", SC_ERR_SYNTAX},
    {INSTR("ld. r0,[r1]"), "7:5", "expected a qualifier after '.', found nothing", SC_ERR_SYNTAX},
    {INSTR("ld.cg.s32 1,[r1]"), "7:12", "expected a destination register, found integer 1", SC_ERR_SYNTAX},
    {INSTR("bra L9"), "7:6", "expected a label of thread 0, found 'L9'", SC_ERR_SEMANTIC},
    {INSTR("@ mov.s32 r0, 1"), "7:4", "expected a declared register of thread 0, found 'mov.s32'", SC_ERR_SEMANTIC},
    {ONE " L0: mov.s32 r0, 1 ;\n L0: mov.s32 r0, 2 ;\n" ONE_TAIL, "8:2", "found 'L0' defined twice", SC_ERR_SEMANTIC},
    /* program shape */
    {TWO " mov.s32 r0,1 ;\n", "7:15", "expected '|' and 1 more column (the test has 2 threads), found ';'", SC_ERR_SYNTAX},
    {TWO " mov.s32 r0,1 | mov.s32 r0,1 | mov.s32 r0,1 ;\n", "7:30",
     "expected ';' ending the row (the test has 2 threads), found '|'", SC_ERR_SYNTAX},
    {"GPU_PTX T\n{\n}\n P1 | P0 ;\n", "4:2", "expected the thread name P0, found 'P1'", SC_ERR_SEMANTIC},
    /* scope tree and memory map */
    {TAIL("scopeTree (device (block P0))\n"), "8:20", "expected a scope level (device, kernel, grid, cta, warp), found 'block'", SC_ERR_SYNTAX},
    {TWO " mov.s32 r0,1 | mov.s32 r0,1 ;\nscopeTree (device (cta P0))\nexists (0:r0=0)\n", "8:1",
     "P1 is missing", SC_ERR_SEMANTIC},
    {TAIL("scopeTree (device (cta P0 P0))\n"), "8:27", "found 'P0' again", SC_ERR_SEMANTIC},
    {TAIL("scopeTree (cta (device P0))\n"), "8:17", "expected a scope narrower than its parent cta, found device", SC_ERR_SEMANTIC},
    {TAIL("scopeTree (device (cta P5))\n"), "8:24", "expected a thread of this test (P0..P0), found 'P5'", SC_ERR_SEMANTIC},
    {TAIL("scopeTree (device (cta))\n"), "8:20", "expected threads or scopes inside (cta ...)", SC_ERR_SEMANTIC},
    {TAIL("x: local\n"), "8:4", "expected a memory region global or shared, found 'local'", SC_ERR_UNSUPPORTED},
    /* conditions */
    {TAIL("scopeTree (device (cta P0))\n"), "9:1",
     "expected scopeTree, a memory map (x: global), locations, filter, exists, ~exists or forall, found end of file", SC_ERR_SYNTAX},
    {TAIL("exists (0:r0 < 1)\n"), "8:14", "unexpected character '<'", SC_ERR_SYNTAX},
    {TAIL("exists (0:r0=0\n"), "9:1", "expected ')' closing the parenthesis, found end of file", SC_ERR_SYNTAX},
    {TAIL("exists (0:r0=0) foo\n"), "8:17", "expected end of file after the final condition, found 'foo'", SC_ERR_SYNTAX},
    {TAIL("exists (0:r9=1)\n"), "8:11", "expected a declared register of thread 0, found 'r9'", SC_ERR_SEMANTIC},
    {TAIL("exists (0:r0 1)\n"), "8:14", "expected '=', '==' or '!=' in the condition, found integer 1", SC_ERR_SYNTAX},
    {TAIL("exists (3:r0=1)\n"), "8:9", "expected a thread of this test (P0..P0), found integer 3", SC_ERR_SEMANTIC},
    {TAIL("locations [x; 1;]\nexists (x=0)\n"), "8:16", "expected a register or a location in 'locations'", SC_ERR_SYNTAX},
    /* Dat3M placement and aliases */
    {DAT3M " P0@cta 0 | P1@cta 0,gpu 0 ;\n", "5:11", "expected both 'cta N' and 'gpu N' in the placement, found '|'", SC_ERR_SYNTAX},
    {DAT3M " P0@cta 0,gpu 0 | P1 ;\n st.weak x, 1 | ld.weak r0, x ;\nexists (P1:r0=0)\n", "5:19",
     "expected a placement (@cta N,gpu N) for every thread or for none, found none for P1", SC_ERR_SEMANTIC},
    {DAT3M " P0@cta 0,cta 1 ;\n", "5:11", "expected one 'cta N' and one 'gpu N', found 'cta'", SC_ERR_SYNTAX},
    {"PTX T\n{\nx=0;\ny @ foo aliases x;\n}\n", "4:5", "expected a proxy (generic, surface, texture, constant), found 'foo'", SC_ERR_SYNTAX},
    {"PTX T\n{\nx=0;\ny @ surface x;\n}\n", "4:13", "expected 'aliases', found 'x'", SC_ERR_SYNTAX},
};

START_TEST(malformed_input) {
  const bad_case *c = &bad[_i];
  sc_test *t = (sc_test *)1;
  sc_error *err = NULL;
  sc_status st = sc_test_load_string(c->text, "bad.litmus", NULL, &t, &err);
  ck_assert_msg(st != SC_OK, "case %d parsed", _i);
  ck_assert_ptr_null(t);
  const char *msg = sc_error_message(err);
  char where[64];
  snprintf(where, sizeof where, "bad.litmus:%s: ", c->where);
  ck_assert_msg(strncmp(msg, where, strlen(where)) == 0,
                "case %d: expected position %s, got: %s", _i, where, msg);
  ck_assert_msg(strstr(msg, c->message) != NULL,
                "case %d: expected \"%s\" in: %s", _i, c->message, msg);
  ck_assert_msg(st == c->status, "case %d: status %s, expected %s", _i,
                sc_status_string(st), sc_status_string(c->status));
}
END_TEST

/* ---- Limits ----------------------------------------------------------------- */

START_TEST(limits) {
  sc_test *t;
  sc_error *err;
  sc_parse_limits lim = {.max_threads = 1};
  ck_assert_int_eq(sc_test_load_string(fig12, "f", &lim, &t, &err), SC_ERR_LIMIT);
  ck_assert_ptr_nonnull(strstr(sc_error_message(err), "f:6:25: expected at most 1 threads"));
  sc_parse_limits lim2 = {.max_instructions = 2};
  ck_assert_int_eq(sc_test_load_string(fig12, "f", &lim2, &t, &err), SC_ERR_LIMIT);
  ck_assert_ptr_nonnull(strstr(sc_error_message(err), "f:9:1: expected at most 2 instructions per thread"));
  sc_parse_limits lim3 = {.max_file_bytes = 100};
  ck_assert_int_eq(sc_test_load_string(fig12, "f", &lim3, &t, &err), SC_ERR_LIMIT);
  ck_assert_ptr_nonnull(strstr(sc_error_message(err), "at most 100 bytes"));
  /* the defaults accept it */
  ck_assert_int_eq(sc_test_load_string(fig12, "f", NULL, &t, &err), SC_OK);
}
END_TEST

START_TEST(missing_file) {
  sc_test *t;
  sc_error *err;
  ck_assert_int_eq(sc_test_load_file("/nonexistent/x.litmus", NULL, &t, &err), SC_ERR_IO);
  ck_assert_ptr_nonnull(strstr(sc_error_message(err), "/nonexistent/x.litmus: cannot open"));
}
END_TEST

static Suite *litmus_suite(void) {
  Suite *s = suite_create("litmus");
  TCase *tc = tcase_create("parse");
  tcase_add_test(tc, fig12_structure);
  tcase_add_test(tc, quantifier_names);
  tcase_add_test(tc, fig12_round_trip);
  tcase_add_test(tc, dat3m_structure);
  tcase_add_test(tc, dialect_is_part_of_the_meaning);
  tcase_add_test(tc, ptx_scope_tree_round_trip);
  tcase_add_test(tc, predicated_branch);
  tcase_add_test(tc, equality_sees_differences);
  tcase_add_test(tc, summary_line);
  tcase_add_test(tc, location_named_once);
  tcase_add_test(tc, select_pattern);
  tcase_add_test(tc, limits);
  tcase_add_test(tc, missing_file);
  tcase_add_test(tc, default_model_follows_instructions);
  tcase_add_loop_test(tc, malformed_input, 0, (int)(sizeof bad / sizeof bad[0]));
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return sc_check_run(litmus_suite());
}
