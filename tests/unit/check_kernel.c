#define _POSIX_C_SOURCE 200809L
/* check_kernel.c: unit tests of the kernel layer (lib/kernel/): nvcc's PTX
 * of small kernels (tests/data/kernel/: each .cu, their .ptx committed) read,
 * instantiated for a launch and simulated under cat/ptx-v7.5.cat, the
 * final states worked out by hand in the comments; malformed PTX and
 * launches, each with its file:line:col message; an out-of-bounds store
 * found; the limits; the engines agreeing. */
#include "scopecat.h"

#include <check.h>
#include <stdbool.h>

#include "check_corpus_kernel.h"
#include "check_run.h"
#include "check_srcdir.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One @Input item as the front end would make it, the fields the tests set
 * named (the others, a -input file and the launch-shaping mark, zero). */
#define INPUT(p, v, n, arr, l, c) \
  {.param = (p), .values = (v), .nvalues = (n), .is_array = (arr), .line = (l), .col = (c)}

/* The text of tests/data/kernel/NAME. */
static char *read_data(const char *name) {
  char rel[256];
  snprintf(rel, sizeof rel, "tests/data/kernel/%s", name);
  char *path = srcdir_path(rel);
  char *text = file_text(path);
  free(path);
  return text;
}

static sc_model *model(void) {
  static sc_model *m;
  if (!m) {
    char *path = srcdir_path("cat/ptx-v7.5.cat");
    sc_error *err;
    ck_assert_msg(sc_model_load_file(path, NULL, 0, &m, &err) == SC_OK, "%s",
                  sc_error_message(err));
    free(path);
  }
  return m;
}

static sc_test *load(const char *file, const char *const *names, int nnames,
                     const sc_kernel_input *in, int nin, int x, int y, int z) {
  sc_kernel_launch l = {NULL, x, y, z, in, nin, names, nnames, "header"};
  sc_test *t;
  sc_error *err;
  char *ptx = read_data(file);
  ck_assert_msg(sc_kernel_load_string(ptx, file, &l, NULL, &t, &err) == SC_OK,
                "%s", sc_error_message(err));
  free(ptx);
  return t;
}

static sc_result *simulate(const sc_test *t, sc_engine engine) {
  sc_sim_options o;
  memset(&o, 0, sizeof o);
  o.unroll = -1;
  o.engine = engine;
  sc_result *r;
  sc_error *err;
  ck_assert_msg(sc_simulate(t, model(), &o, &r, &err) == SC_OK, "%s",
                sc_error_message(err));
  return r;
}

/* Whether some final state of r holds every "name=value;" of `parts`. */
static int has_state(const sc_result *r, const char *const *parts, int n) {
  for (int i = 0; i < sc_result_state_count(r); i++) {
    const char *s = sc_result_state(r, i);
    int all = 1;
    for (int k = 0; k < n && all; k++) {
      char needle[128];
      snprintf(needle, sizeof needle, "%s;", parts[k]);
      const char *at = strstr(s, needle);
      all = at && (at == s || at[-1] == ' ');
    }
    if (all)
      return 1;
  }
  return 0;
}

static long long zero[1] = {0}, minus1[2] = {-1, -1};

/* ---- Message passing ------------------------------------------------------ */

/* mp2.cu: T0 stores data=1 then releases flag=1; T1 acquires flag into
 * out[0] and reads data into out[1].  Under PTX's model the acquire that
 * reads 1 synchronises with the release, so out = {1, 1}; reading 0 it
 * may see data 0 or 1: {0, 0}, {0, 1}.  {1, 0} is forbidden.  data and
 * flag end 1 in every execution: three final states. */
static const char *const mp_names[] = {"data", "flag", "out"};

static sc_test *mp_test(void) {
  long long *d = zero, *f = zero;
  sc_kernel_input in[] = {INPUT("data", d, 1, 1, 1, 1), INPUT("flag", f, 1, 1, 1, 20),
                          INPUT("out", minus1, 2, 1, 1, 40)};
  return load("mp2.ptx", mp_names, 3, in, 3, 2, 1, 1);
}

START_TEST(mp_states) {
  sc_test *t = mp_test();
  ck_assert_int_eq(sc_test_thread_count(t), 2);
  sc_result *r = simulate(t, SC_ENGINE_ENUM);
  ck_assert_int_eq(sc_result_state_count(r), 3);
  const char *s11[] = {"data[0]=1", "flag[0]=1", "out[0]=1", "out[1]=1"};
  const char *s00[] = {"out[0]=0", "out[1]=0"};
  const char *s01[] = {"out[0]=0", "out[1]=1"};
  const char *s10[] = {"out[0]=1", "out[1]=0"};
  ck_assert(has_state(r, s11, 4));
  ck_assert(has_state(r, s00, 2));
  ck_assert(has_state(r, s01, 2));
  ck_assert(!has_state(r, s10, 2));
  ck_assert_int_eq(sc_result_bounds(r, NULL, NULL, NULL), 0);
  ck_assert_ptr_null(strstr(sc_result_log(r, 0), "out-of-bounds"));
}
END_TEST

/* The symbolic engine finds the same three states. */
START_TEST(mp_engines_agree) {
  const char *why;
  if (!sc_engine_smt_available(&why))
    return;
  sc_test *t = mp_test();
  sc_result *a = simulate(t, SC_ENGINE_ENUM), *b = simulate(t, SC_ENGINE_SMT);
  ck_assert_int_eq(sc_result_state_count(a), sc_result_state_count(b));
  for (int i = 0; i < sc_result_state_count(a); i++)
    ck_assert_str_eq(sc_result_state(a, i), sc_result_state(b, i));
}
END_TEST

/* Source lines: mp2.cu line 8 is data[0] = 1 (T0's first store); with
 * -lineinfo the test's file is the .cu named by .file 1. */
START_TEST(mp_source_lines) {
  sc_test *t = mp_test();
  ck_assert_str_eq(sc_test_file(t), "mp2.cu");
  int found = 0;
  for (int pc = 0; pc < sc_test_instruction_count(t, 0); pc++) {
    int ptx_line, line = sc_test_instruction_line(t, 0, pc, &ptx_line);
    ck_assert_int_gt(ptx_line, 0);
    if (line == 8)
      found = 1;
  }
  ck_assert(found);
  ck_assert_int_eq(sc_test_instruction_line(t, 0, 10000, NULL), -1);
}
END_TEST

/* No value read from memory decides a branch or an address (T1 only
 * stores what it reads; the branch is on %tid.x): the verdict holds for
 * every value of the arrays. */
START_TEST(mp_generalises) {
  const char *why = "unset";
  ck_assert_int_eq(sc_kernel_generalises(mp_test(), &why), 1);
  ck_assert_ptr_null(why);
}
END_TEST

/* ---- The ALU ----------------------------------------------------------- */

/* alu.cu, in = {-7, 3, 100, 2147483647, 511}: each result by hand, as
 * 32-bit two's complement read as signed (what a .u32 cell holds reads as
 * the signed value of its bits). */
START_TEST(alu_results) {
  long long in[] = {-7, 3, 100, 2147483647, 511};
  long long out[20], wide[2] = {0, 0};
  for (int i = 0; i < 20; i++)
    out[i] = 0;
  static const char *const names[] = {"in", "out", "wide"};
  sc_kernel_input inputs[] = {INPUT("in", in, 5, 1, 1, 1), INPUT("out", out, 20, 1, 1, 1),
                              INPUT("wide", wide, 2, 1, 1, 1)};
  sc_test *t = load("alu.ptx", names, 3, inputs, 3, 1, 1, 1);
  sc_result *r = simulate(t, SC_ENGINE_ENUM);
  ck_assert_int_eq(sc_result_state_count(r), 1);
  const char *expect[] = {
      "out[0]=-21",         /* mul.lo.s32 -7*3 */
      "out[1]=79",          /* mad.lo.s32 -7*3+100 */
      "out[2]=-56",         /* shl.b32 -7<<3 */
      "out[3]=-1",          /* shr.s32 -7>>3, arithmetic */
      "out[4]=536870911",   /* shr.u32 0xfffffff9>>3 = 0x1fffffff */
      "out[5]=96",          /* and.b32 ...11111001 & 01100100 = 01100000 */
      "out[6]=-5",          /* or.b32 ...11111001 | 011 = ...11111011 */
      "out[7]=-99",         /* xor.b32 ...11111001 ^ 01100100 = ...10011101 */
      "out[8]=6",           /* not.b32 -7 */
      "out[9]=7",           /* neg.s32 -7 */
      "out[10]=-7",         /* min.s32 */
      "out[11]=3",          /* max.s32 */
      "out[12]=3",          /* min.u32: 0xfffffff9 > 3 */
      "out[13]=-7",         /* max.u32: 0xfffffff9 */
      "out[14]=100",        /* -7 < 3 signed: selp picks c */
      "out[15]=0",          /* 0xfffffff9 < 3 unsigned: false */
      "out[16]=-2147483648", /* add.s32 wraps at 32 bits */
      "out[17]=-107",       /* sub.s32 -7-100 */
      "out[18]=-1",         /* cvt.s32.s8 of 0x1ff: the byte 0xff */
      "out[19]=1",          /* setp.hi.u32 0xfffffff9 > 3 */
      "wide[0]=-700",       /* mul.wide.s32 -7*100 */
      "wide[1]=12884901867", /* mul.wide.u32 0xfffffff9*3 */
  };
  for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++)
    ck_assert_msg(has_state(r, &expect[i], 1), "expected %s in %s", expect[i],
                  sc_result_state(r, 0));
}
END_TEST

/* ---- The grid ------------------------------------------------------------------ */

/* grid.cu, launched 2, 1, 2 (two CTAs of one warp of two threads): thread
 * g = 2c + t records %tid.x, %ctaid.x*10 + %nctaid.x, %laneid*10 +
 * %warpid, %ntid.x; adds 100 to a byte (wrapping at 8 bits), doubles a
 * half (wrapping at 16), shifts a long left by 33; each CTA sums its
 * .shared copy after bar.sync (CTA 0: 0+1, CTA 1: 2+3) and its thread 0
 * adds the sum to the .global counter: 6 in every execution. */
START_TEST(grid_launch) {
  static const char *const names[] = {"ids", "bytes", "halves", "longs"};
  long long ids[16], bytes[] = {100, -1, 127, -128}, halves[] = {16384, -3, 0, 7},
            longs[] = {1, -1, 3, 0};
  for (int i = 0; i < 16; i++)
    ids[i] = -1;
  sc_kernel_input in[] = {INPUT("ids", ids, 16, 1, 1, 1), INPUT("bytes", bytes, 4, 1, 1, 1),
                          INPUT("halves", halves, 4, 1, 1, 1), INPUT("longs", longs, 4, 1, 1, 1)};
  sc_test *t = load("grid.ptx", names, 4, in, 4, 2, 1, 2);
  ck_assert_int_eq(sc_test_thread_count(t), 4);
  sc_result *r = simulate(t, SC_ENGINE_ENUM);
  ck_assert_int_eq(sc_result_state_count(r), 1);
  const char *expect[] = {
      "ids[0]=0", "ids[1]=2", "ids[2]=0", "ids[3]=2",     /* T0: cta 0, lane 0 */
      "ids[4]=1", "ids[5]=2", "ids[6]=10", "ids[7]=2",    /* T1: lane 1 */
      "ids[8]=0", "ids[9]=12", "ids[10]=0", "ids[11]=2",  /* T2: cta 1 */
      "ids[12]=1", "ids[13]=12", "ids[14]=10", "ids[15]=2",
      "bytes[0]=-56", "bytes[1]=99", "bytes[2]=-29", "bytes[3]=-28",
      "halves[0]=-32768", "halves[1]=-6", "halves[2]=0", "halves[3]=14",
      "longs[0]=8589934592", "longs[1]=-8589934592", "longs[2]=25769803776",
      "longs[3]=0",
      "counter=6", "seen@cta0[1]=1", "seen@cta1[0]=2", "seen@cta1[1]=3",
  };
  for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++)
    ck_assert_msg(has_state(r, &expect[i], 1), "expected %s in %s", expect[i],
                  sc_result_state(r, 0));
  ck_assert_int_eq(sc_result_bounds(r, NULL, NULL, NULL), 0);
  /* the values read decide no address nor branch (the loop runs on
   * %ntid.x): the verdict holds for any contents of the arrays */
  const char *why = "unset";
  ck_assert_int_eq(sc_kernel_generalises(t, &why), 1);
  ck_assert_str_eq(sc_test_name(t), "grid");
}
END_TEST

/* misc.ptx (by hand), n = 5: A = {1, 5, 7, 10}; the guards decide on n,
 * a scalar parameter: the verdict is for these inputs only. */
START_TEST(misc_instructions) {
  long long a[] = {0, 0, 0, 0}, n[] = {5};
  static const char *const names[] = {"A", "n"};
  sc_kernel_input in[] = {INPUT("A", a, 4, 1, 1, 1), INPUT("n", n, 1, 0, 1, 12)};
  sc_test *t = load("misc.ptx", names, 2, in, 2, 1, 1, 1);
  sc_result *r = simulate(t, SC_ENGINE_ENUM);
  ck_assert_int_eq(sc_result_state_count(r), 1);
  const char *s[] = {"A[0]=1", "A[1]=5", "A[2]=7", "A[3]=10"};
  ck_assert_msg(has_state(r, s, 4), "%s", sc_result_state(r, 0));
  const char *why = NULL;
  ck_assert_int_eq(sc_kernel_generalises(t, &why), 0);
  ck_assert_str_eq(why, "T0 misc.ptx:25: guard on data (a scalar parameter "
                        "read at line 23)");
  /* n marked a launch parameter (is_config): no data input is left */
  in[1].is_config = 1;
  ck_assert_int_eq(sc_kernel_generalises(load("misc.ptx", names, 2, in, 2, 1, 1, 1), &why), 1);
}
END_TEST

/* ---- Bounds ---------------------------------------------------------------- */

/* oob.cu with n = 1, A = {0, 0}, two threads: T0 stores A[1], T1 stores
 * past A's end (A[2]): a finding, T1 stopping there; A ends {0, 7}. */
START_TEST(out_of_bounds_store) {
  static const char *const names[] = {"A", "n"};
  long long a[] = {0, 0}, n[] = {1};
  sc_kernel_input in[] = {INPUT("A", a, 2, 1, 1, 1), INPUT("n", n, 1, 0, 1, 12)};
  sc_test *t = load("oob.ptx", names, 2, in, 2, 2, 1, 1);
  for (int e = 0; e < 2; e++) {
    const char *why;
    if (e == 1 && !sc_engine_smt_available(&why))
      break;
    sc_result *r = simulate(t, e ? SC_ENGINE_SMT : SC_ENGINE_ENUM);
    int thread, line;
    long long addr;
    ck_assert_int_eq(sc_result_bounds(r, &thread, &line, &addr), 1);
    ck_assert_int_eq(thread, 1);
    ck_assert_int_eq(line, 4);
    ck_assert_ptr_nonnull(strstr(sc_result_log(r, 0), "out-of-bounds"));
    const char *s[] = {"A[0]=0", "A[1]=7"};
    ck_assert(has_state(r, s, 2));
  }
  /* in bounds with n = 0: no finding */
  n[0] = 0;
  sc_result *r = simulate(load("oob.ptx", names, 2, in, 2, 2, 1, 1), SC_ENGINE_ENUM);
  ck_assert_int_eq(sc_result_bounds(r, NULL, NULL, NULL), 0);
  const char *s[] = {"A[0]=7", "A[1]=7"};
  ck_assert(has_state(r, s, 2));
  /* the address depends on n, a data input */
  const char *why = NULL;
  ck_assert_int_eq(sc_kernel_generalises(load("oob.ptx", names, 2, in, 2, 2, 1, 1), &why), 0);
  ck_assert_ptr_nonnull(strstr(why, "address on data"));
}
END_TEST

/* A store off an element's start (A + 2 in an array of 4-byte elements)
 * is a finding too; the thread stops there: the store before it happens,
 * the one after does not.  Without .loc the line is the PTX's (9). */
START_TEST(misaligned_store) {
  const char *ptx = ".version 9.0\n.target sm_90\n.address_size 64\n"
                    ".visible .entry k(.param .u64 k_param_0)\n{\n"
                    "\t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [k_param_0];\n"
                    "\tst.global.u32 [%rd1+4], 5;\n\tst.global.u32 [%rd1+2], 6;\n"
                    "\tst.global.u32 [%rd1], 7;\n}\n";
  long long a[] = {0, 0};
  sc_kernel_input in[] = {INPUT("k_param_0", a, 2, 1, 1, 1)};
  sc_kernel_launch l = {"k", 1, 1, 1, in, 1, NULL, 0, "header"};
  sc_test *t;
  sc_error *err;
  ck_assert_msg(sc_kernel_load_string(ptx, "m.ptx", &l, NULL, &t, &err) == SC_OK,
                "%s", sc_error_message(err));
  sc_result *r = simulate(t, SC_ENGINE_ENUM);
  int thread, line;
  long long addr;
  ck_assert_int_eq(sc_result_bounds(r, &thread, &line, &addr), 1);
  ck_assert_int_eq(thread, 0);
  ck_assert_int_eq(line, 9);
  const char *s[] = {"k_param_0[0]=0", "k_param_0[1]=5"};
  ck_assert_msg(has_state(r, s, 2), "%s", sc_result_state(r, 0));
}
END_TEST

/* ---- Errors ---------------------------------------------------------------- */

static const char *load_error(const char *ptx, const sc_kernel_launch *l) {
  sc_test *t;
  sc_error *err;
  sc_parse_limits lim = {0, 8, 100, 0};
  ck_assert_int_ne(sc_kernel_load_string(ptx, "bad.ptx", l, &lim, &t, &err), SC_OK);
  ck_assert_ptr_null(t);
  return sc_error_message(err);
}

#define ENTRY_HEAD ".version 9.0\n.target sm_90\n.address_size 64\n" \
                   ".visible .entry k(\n\t.param .u64 k_param_0\n)\n{\n" \
                   "\t.reg .b32 %r<5>;\n\t.reg .b64 %rd<3>;\n"

static void expect_error(const char *ptx, const char *message) {
  sc_kernel_launch l = {NULL, 1, 1, 1, NULL, 0, NULL, 0, "header"};
  const char *m = load_error(ptx, &l);
  ck_assert_msg(strstr(m, message) != NULL, "expected '%s' in '%s'", message, m);
}

START_TEST(malformed) {
  /* an instruction outside the front end's set names itself (line 10) */
  expect_error(ENTRY_HEAD "\tmov.u32 %r1, 1;\n\tpopc.b32 %r2, %r1;\n\tret;\n}\n",
               "bad.ptx:11:2: expected an instruction");
  expect_error(ENTRY_HEAD "\tpopc.b32 %r2, %r1;\n}\n", "'popc'");
  /* a register outside its declared range */
  expect_error(ENTRY_HEAD "\tmov.u32 %r5, 1;\n}\n",
               "bad.ptx:10:10: expected a declared register");
  /* an unknown qualifier of a known instruction */
  expect_error(ENTRY_HEAD "\tld.global.nc.u32 %r1, [%rd1];\n}\n",
               "bad.ptx:10:12: unknown qualifier '.nc' for ld");
  expect_error(ENTRY_HEAD "\tmul.hi.s32 %r1, %r2, %r3;\n}\n",
               "bad.ptx:10:6: unsupported qualifier '.hi' for mul");
  /* __syncwarp(): refused by name */
  expect_error(ENTRY_HEAD "\tbar.warp.sync -1;\n}\n",
               "bad.ptx:10:6: expected a barrier of a CTA (bar.sync, bar.arrive, barrier), "
               "found bar.warp.sync (CUDA's __syncwarp()), which is not supported");
  /* malformed directives */
  expect_error(".version 9.0\n.bogus 3\n", "bad.ptx:2:1: expected a module directive");
  expect_error(".version\n.target sm_90\n", "bad.ptx:1:1: expected a value after .version");
  expect_error(ENTRY_HEAD "\t.reg .b32 %q<;\n}\n", "bad.ptx:10:15: expected a register count");
  expect_error(ENTRY_HEAD "\t.local .b8 x[4];\n}\n",
               "bad.ptx:10:2: expected an instruction or a directive");
  expect_error(ENTRY_HEAD "\tbra $L__missing;\n}\n", "bad.ptx:10:6: expected a label");
  expect_error(ENTRY_HEAD "\tmov.u32 %r1, 1;\n", "expected '}' closing the body of k");
  expect_error(ENTRY_HEAD "\tmov.u32 %r1, 0f3F800000;\n}\n",
               "bad.ptx:10:15: expected an integer");
  expect_error(ENTRY_HEAD "\tmov.u32 %r1, nothing;\n}\n",
               "bad.ptx:10:15: expected a register, a parameter or a variable");
  expect_error(".version 9.0 /* open\n", "bad.ptx:1:14: expected '*/'");
  /* in a body where a .loc is in force, the source line it gives too
   * (nvcc's PTX of a .cu is a file the user has not seen); none before
   * the first .loc, nor past the body */
  expect_error(ENTRY_HEAD "\t.loc 1 7 3\n\tpopc.b32 %r2, %r1;\n}\n",
               "found unknown instruction 'popc' "
               "(source line 7, by .loc)");
  sc_kernel_launch l = {NULL, 1, 1, 1, NULL, 0, NULL, 0, "header"};
  ck_assert_ptr_null(strstr(load_error(ENTRY_HEAD "\tpopc.b32 %r2, %r1;\n}\n", &l), "by .loc"));
  ck_assert_ptr_null(strstr(load_error(ENTRY_HEAD "\t.loc 1 7 3\n\tbra $L__missing;\n}\n"
                                       ".bogus 3\n", &l), "by .loc"));
  ck_assert_ptr_null(strstr(load_error(ENTRY_HEAD "\t.loc 1 7 3\n\tret;\n}\n.bogus 3\n", &l),
                            "by .loc"));
}
END_TEST

START_TEST(launch_errors) {
  const char *ptx = ENTRY_HEAD "\tld.param.u64 %rd1, [k_param_0];\n"
                               "\tst.global.u32 [%rd1], 1;\n\tret;\n}\n";
  long long v[1] = {0};
  sc_kernel_input wrong = INPUT("B", v, 1, 1, 3, 12);
  const char *names[] = {"A"};
  sc_kernel_launch l = {NULL, 1, 1, 1, &wrong, 1, names, 1, "k.cu"};
  ck_assert_str_eq(load_error(ptx, &l),
                   "k.cu:3:12: expected a parameter of k (A), found 'B'");
  l.ninputs = 0; /* the parameter the code reads has no value */
  ck_assert_ptr_nonnull(strstr(load_error(ptx, &l), "expected an @Input giving parameter 'A'"));
  /* a grid past the thread limit (8 here): refused before any allocation */
  sc_kernel_input right = INPUT("A", v, 1, 1, 3, 12);
  l.inputs = &right;
  l.ninputs = 1;
  l.threads_per_warp = 1000000;
  ck_assert_ptr_nonnull(strstr(load_error(ptx, &l), "expected at most 8 threads"));
  l.threads_per_warp = 2;
  l.ctas = 0;
  ck_assert_ptr_nonnull(strstr(load_error(ptx, &l), "expected a launch of at least 1"));
}
END_TEST

/* A huge register range costs nothing until used; a kernel past the
 * instruction limit (100 here) is refused. */
START_TEST(limits) {
  sc_kernel_launch l = {NULL, 1, 1, 1, NULL, 0, NULL, 0, "header"};
  const char *huge = ".version 9.0\n.visible .entry k()\n{\n\t.reg .b32 %r<100000000>;\n"
                     "\tmov.u32 %r99999999, 1;\n\tret;\n}\n";
  sc_test *t;
  sc_error *err;
  ck_assert_msg(sc_kernel_load_string(huge, "h.ptx", &l, NULL, &t, &err) == SC_OK,
                "%s", sc_error_message(err));
  char *many = malloc(200 * 20 + 200);
  strcpy(many, ".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n");
  for (int i = 0; i < 200; i++)
    strcat(many, "\tmov.u32 %r1, 1;\n");
  strcat(many, "}\n");
  ck_assert_ptr_nonnull(strstr(load_error(many, &l), "expected at most 100 instructions"));
  free(many);
}
END_TEST

/* sc_sim_options.verdicts_only: the searches that collapse the values
 * that decide nothing (sim/data_only.c) raise the flags the whole search
 * raises and give its liveness verdict, on the corpus kernels of two
 * threads (each row's -unroll: expected.csv), under ptx-v7.5.cat with
 * its race flags; and a race pair at a collapsed cell says its value is
 * unknown (ttaslock-dv2wg-1.1.2's counter and record, known in the whole
 * search). */
static const struct {
  const char *kernel;
  int unroll;
} small_kernels[] = {
  {"caslock-1.1.2", 3},    {"caslock-dv2wg-1.1.2", 0}, {"caslock-acq2rx", 0},
  {"ticketlock-1.1.2", 3}, {"ticketlock-dv2wg-1.1.2", 0}, {"ticketlock-rel2rx", 0},
  {"ttaslock-1.1.2", 1},   {"ttaslock-dv2wg-1.1.2", 0}, {"ttaslock-acq2rx", 0},
  {"xf-barrier-1.1.2", 3}, {"xf-barrier-2.1.1", 1},     {"cbe-dot", 0},
  {"cbe-lock", 0},         {"lastblock-no-fence-after", 1}, {"gridbar", 3},
};

/* ptx-v7.5.cat with its race flags, loaded once. */
static const sc_model *racing_model(void) {
  static sc_model *m;
  if (!m) {
    char *path = srcdir_path("cat/ptx-v7.5.cat");
    const char *const races[] = {SC_RACE_INCLUDE};
    sc_error *err;
    ck_assert_msg(sc_model_load_with_includes(path, races, 1, NULL, 0, &m, &err) == SC_OK,
                  "%s", sc_error_message(err));
    free(path);
  }
  return m;
}

/* A search of t under m at -unroll `unroll` with the engine and the
 * choices given; it must succeed. */
static sc_result *search_under(const sc_test *t, const sc_model *m, const sc_sim_options *o) {
  sc_result *r;
  sc_error *err;
  ck_assert_msg(sc_simulate(t, m, o, &r, &err) == SC_OK, "%s", sc_error_message(err));
  return r;
}

/* The options of such a search. */
static sc_sim_options options_with(int unroll, sc_engine engine, bool liveness,
                                   bool verdicts_only, bool exact_states) {
  sc_sim_options o;
  memset(&o, 0, sizeof o);
  o.unroll = unroll;
  o.engine = engine;
  o.liveness = liveness;
  o.verdicts_only = verdicts_only;
  o.exact_states = exact_states;
  return o;
}

static sc_result *search_with(const sc_test *t, const sc_model *m, int unroll,
                              sc_engine engine, bool liveness, bool verdicts_only,
                              bool exact_states) {
  sc_sim_options o = options_with(unroll, engine, liveness, verdicts_only, exact_states);
  return search_under(t, m, &o);
}

static sc_result *search(const sc_test *t, const sc_model *m, int unroll, bool liveness,
                         bool verdicts_only) {
  return search_with(t, m, unroll, SC_ENGINE_ENUM, liveness, verdicts_only, false);
}

/* Whether `flag` is among r's raised flags. */
static bool raised(const sc_result *r, const char *flag) {
  for (int i = 0; i < sc_result_flag_count(r); i++)
    if (strcmp(sc_result_flag(r, i), flag) == 0)
      return true;
  return false;
}

START_TEST(verdicts_only_agrees) {
  const sc_model *m = racing_model();
  sc_test *t = corpus_kernel(small_kernels[_i].kernel);
  int u = small_kernels[_i].unroll;
  sc_result *whole = search(t, m, u, false, false), *alone = search(t, m, u, false, true);
  const char *flags[] = {SC_FLAG_DATA_RACE, SC_FLAG_SHARED_RACE};
  for (int k = 0; k < 2; k++)
    ck_assert_msg(raised(whole, flags[k]) == raised(alone, flags[k]), "%s: %s",
                  small_kernels[_i].kernel, flags[k]);
  ck_assert_int_eq(sc_result_liveness(search(t, m, u, true, false)),
                   sc_result_liveness(search(t, m, u, true, true)));
  if (strcmp(small_kernels[_i].kernel, "ttaslock-dv2wg-1.1.2") == 0) {
    /* the lock word l decides (the spin): known; the counter x and the
     * record A decide nothing: unknown, in the collapsed search alone */
    int unknown = 0;
    for (int k = 0; k < 2; k++) {
      const sc_execution *x = sc_result_flag_witness(k ? whole : alone, SC_FLAG_DATA_RACE,
                                                     NULL, NULL);
      ck_assert_ptr_nonnull(x);
      sc_access a;
      for (int e = 0; sc_execution_access(x, e, &a); e++) {
        if (!a.location || a.thread < 0)
          continue;
        ck_assert_int_eq(a.value_unknown, k == 0 && a.location[0] != 'l');
        unknown += a.value_unknown;
      }
    }
    ck_assert_int_gt(unknown, 0);
  }
}
END_TEST

/* sc_sim_options.exact_states: the search that collapses the values
 * that decide nothing and computes them after (sim/data_only.c's
 * sci_sim_data_only_values) finds the whole search's states, under
 * -engine enum with the same counts (a collapsed execution has one
 * concrete one: data_only.c) and under the solver (which counts states),
 * on the same corpus kernels; its witnesses' values are all computed. */
static sc_result *exact_search(const sc_test *t, const sc_model *m, int unroll,
                               sc_engine engine, bool exact) {
  return search_with(t, m, unroll, engine, false, exact, exact);
}

static void same_states(const char *kernel, const sc_result *a, const sc_result *b,
                        bool counts) {
  ck_assert_msg(sc_result_state_count(a) == sc_result_state_count(b), "%s: %d states, %d",
                kernel, sc_result_state_count(a), sc_result_state_count(b));
  for (int i = 0; i < sc_result_state_count(a); i++)
    ck_assert_str_eq(sc_result_state(a, i), sc_result_state(b, i));
  if (counts) {
    ck_assert_int_eq(sc_result_positive(a), sc_result_positive(b));
    ck_assert_int_eq(sc_result_negative(a), sc_result_negative(b));
  }
}

START_TEST(exact_states_agree) {
  const sc_model *m = racing_model();
  const char *k = small_kernels[_i].kernel;
  sc_test *t = corpus_kernel(k);
  int u = small_kernels[_i].unroll;
  same_states(k, exact_search(t, m, u, SC_ENGINE_ENUM, false),
              exact_search(t, m, u, SC_ENGINE_ENUM, true), true);
  if (!sc_engine_smt_available(NULL))
    return;
  sc_result *whole = exact_search(t, m, u, SC_ENGINE_SMT, false);
  sc_result *alone = exact_search(t, m, u, SC_ENGINE_SMT, true);
  same_states(k, whole, alone, false);
  const sc_execution *x = sc_result_flag_witness(alone, SC_FLAG_DATA_RACE, NULL, NULL);
  sc_access a;
  for (int e = 0; x && sc_execution_access(x, e, &a); e++)
    ck_assert_int_eq(a.value_unknown, 0);
}
END_TEST

/* sc_sim_options.layout_search: where the solver chooses each thread's
 * trace too (forced on: 1), what a search stopping at its answers
 * (-speedcheck verdicts, the symbolic engine) tells is what the whole
 * search tells, on the same corpus kernels: whether the condition is
 * violated, each race flag, liveness; with the values that decide
 * nothing collapsed and computed after too (their tables: data_only.h).
 * Where the whole search has a violation, a race and a stuck thread, the
 * layout search's answer is its own (the engine's reason says so), so a
 * defect that made it miss one would show. */
static sc_result *layout_search(const sc_test *t, const sc_model *m, int unroll,
                                bool liveness, bool collapse) {
  sc_sim_options o = options_with(unroll, SC_ENGINE_SMT, liveness, collapse, collapse);
  o.speedcheck = SC_SPEEDCHECK_VERDICTS;
  o.layout_search = 1;
  return search_under(t, m, &o);
}

static bool by_layouts(const sc_result *r) {
  return strstr(sc_result_engine_reason(r), "the solver chose the traces") != NULL;
}

START_TEST(layout_search_agrees) {
  if (!sc_engine_smt_available(NULL))
    return;
  const sc_model *m = racing_model();
  const char *k = small_kernels[_i].kernel;
  sc_test *t = corpus_kernel(k);
  int u = small_kernels[_i].unroll;
  sc_result *whole = search(t, m, u, false, false);
  bool violated = sc_result_condition_witness(whole) != NULL, races = false;
  const char *flags[] = {SC_FLAG_DATA_RACE, SC_FLAG_SHARED_RACE};
  for (int c = 0; c < 2; c++) {
    sc_result *r = layout_search(t, m, u, false, c);
    ck_assert_msg((sc_result_condition_witness(r) != NULL) == violated, "%s: condition", k);
    for (int f = 0; f < 2; f++) {
      ck_assert_msg(raised(r, flags[f]) == raised(whole, flags[f]), "%s: %s", k, flags[f]);
      races |= raised(whole, flags[f]);
    }
    if (violated && races)
      ck_assert_msg(by_layouts(r), "%s: %s", k, sc_result_engine_reason(r));
  }
  int live = sc_result_liveness(search(t, m, u, true, false));
  sc_result *r = layout_search(t, m, u, true, false);
  ck_assert_int_eq(sc_result_liveness(r), live);
  if (live == 0) /* a stuck thread: the witness */
    ck_assert_msg(by_layouts(r), "%s: %s", k, sc_result_engine_reason(r));
}
END_TEST

int main(void) {
  Suite *s = suite_create("kernel");
  TCase *tc = tcase_create("kernel");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, mp_states);
  tcase_add_test(tc, mp_engines_agree);
  tcase_add_test(tc, mp_source_lines);
  tcase_add_test(tc, mp_generalises);
  tcase_add_test(tc, alu_results);
  tcase_add_test(tc, grid_launch);
  tcase_add_test(tc, misc_instructions);
  tcase_add_test(tc, out_of_bounds_store);
  tcase_add_test(tc, misaligned_store);
  tcase_add_test(tc, malformed);
  tcase_add_test(tc, launch_errors);
  tcase_add_test(tc, limits);
  tcase_add_loop_test(tc, exact_states_agree, 0,
                      (int)(sizeof small_kernels / sizeof small_kernels[0]));
  tcase_add_loop_test(tc, verdicts_only_agrees, 0,
                      (int)(sizeof small_kernels / sizeof small_kernels[0]));
  tcase_add_loop_test(tc, layout_search_agrees, 0,
                      (int)(sizeof small_kernels / sizeof small_kernels[0]));
  suite_add_tcase(s, tc);
  return sc_check_run(s);
}
