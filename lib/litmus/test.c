/* test.c: the public face of a litmus test (sc_test of the public header):
 * loading from a file or a string, printing, comparing, the summary line,
 * the hash that logs carry, the accessors, and the bundled model a test
 * runs under by default.  The work is the parser's (parse.c), the
 * printer's (print.c) and equal.c's. */
#include "litmus/parser.h"

#include "util/error.h"
#include "util/file.h"
#include "util/gcmem.h"
#include "util/oom.h"
#include "util/md5.h"
#include "util/strbuf.h"

#include <string.h>

static sc_status test_load_string_unguarded(const char *text,
                                            const char *filename,
                                            const sc_parse_limits *limits,
                                            sc_test **out, sc_error **err) {
  sci_gc_init();
  return sci_litmus_parse(text, filename, limits, out, err);
}

sc_status sc_test_load_string(const char *text, const char *filename,
                              const sc_parse_limits *limits, sc_test **out,
                              sc_error **err) {
  sc_oom_guard g;
  if (!SC_OOM_ENTER(g))
    return sci_oom_fail(&g, filename, err);
  sc_status st = test_load_string_unguarded(text, filename, limits, out, err);
  sci_oom_leave(&g);
  return st;
}

static sc_status test_load_file_unguarded(const char *path,
                                          const sc_parse_limits *limits,
                                          sc_test **out, sc_error **err) {
  sci_gc_init();
  *out = NULL;
  sc_parse_limits lim;
  sci_parser_limits(&lim, limits);
  char *buf;
  size_t len;
  int errnum = 0;
  sc_file_failure why =
      sci_file_read(path, lim.max_file_bytes, &buf, &len, &errnum);
  if (why)
    return sci_file_fail(why, path, errnum, lim.max_file_bytes, "read error",
                        "expected at most %zu bytes (the file-size limit)", err);
  if (memchr(buf, '\0', len))
    return sci_fail(err, SC_ERR_SYNTAX, path, 0, 0,
                   "expected a text file, found a NUL byte");
  return sci_litmus_parse(buf, path, limits, out, err);
}

sc_status sc_test_load_file(const char *path, const sc_parse_limits *limits,
                            sc_test **out, sc_error **err) {
  sc_oom_guard g;
  if (!SC_OOM_ENTER(g))
    return sci_oom_fail(&g, path, err);
  sc_status st = test_load_file_unguarded(path, limits, out, err);
  sci_oom_leave(&g);
  return st;
}

const char *sc_test_name(const sc_test *t) { return t->name; }
sc_dialect sc_test_dialect(const sc_test *t) { return t->dialect; }
int sc_test_thread_count(const sc_test *t) { return t->nthreads; }
int sc_test_location_count(const sc_test *t) { return t->nlocs; }
const char *sc_test_quantifier(const sc_test *t) { return sci_quantifier_name(t->quant); }
int sc_test_instruction_count(const sc_test *t, int thread) {
  return thread >= 0 && thread < t->nthreads ? t->threads[thread].ninstrs : -1;
}

const char *sc_test_to_dialect(const sc_test *t, sc_dialect d) {
  sc_oom_guard g;
  if (!SC_OOM_ENTER(g))
    return sci_oom_null(&g);
  const char *s = sci_litmus_print(t, d);
  sci_oom_leave(&g);
  return s;
}

const char *sc_test_to_string(const sc_test *t) {
  return sc_test_to_dialect(t, t->dialect);
}

const char *sc_test_summary(const sc_test *t) {
  sc_oom_guard g;
  if (!SC_OOM_ENTER(g))
    return sci_oom_null(&g);
  const char *s = sci_litmus_summary(t);
  sci_oom_leave(&g);
  return s;
}

const char *const *sc_test_warnings(const sc_test *t, int *n) {
  *n = 0;
  sc_oom_guard g;
  if (!SC_OOM_ENTER(g)) {
    sci_oom_null(&g);
    return NULL;
  }
  const char **w = sci_litmus_warnings(t, n);
  sci_oom_leave(&g);
  return w;
}

int sc_test_equal(const sc_test *a, const sc_test *b) {
  return sci_litmus_equal(a, b);
}

/* The Hash of a test in logs: MD5 of its canonical text in its own
 * dialect, so that equal tests have equal hashes and tests of another
 * dialect (another default model, another coherence) have others (not
 * herd7's own digest). */
const char *sci_test_hash(const sc_test *t) {
  const char *text = sci_litmus_print(t, t->dialect);
  char *hex = sci_alloc_atomic(33);
  sci_md5_hex(text, strlen(text), hex);
  return hex;
}

/* A test uses proxies when an access or fence names one, or a location
 * is reached through a surface, texture or constant alias: only Dat3M's
 * PTX 7.5 model knows them. */
static bool uses_proxies(const sc_test *t) {
  for (int l = 0; l < t->nlocs; l++)
    if (t->locs[l].alias_of >= 0 && t->locs[l].proxy != SC_PROXY_GENERIC)
      return true;
  for (int th = 0; th < t->nthreads; th++)
    for (int i = 0; i < t->threads[th].ninstrs; i++) {
      const sc_instr *in = &t->threads[th].code[i];
      if (in->op == SC_OP_FENCE_PROXY || in->proxy != SC_PROXY_GENERIC)
        return true;
    }
  return false;
}

/* Whether `in` is one of PTX 7's memory-model instructions: a fence.sc or
 * fence.acq_rel, an .acquire, .release or .acq_rel access, or a .relaxed
 * one with a scope.  ptx-rmo.cat knows only membar and would give them
 * no meaning. */
static bool ptx7_instruction(const sc_instr *in) {
  switch (in->sem) {
  case SC_SEM_ACQUIRE:
  case SC_SEM_RELEASE:
  case SC_SEM_ACQ_REL:
  case SC_SEM_SC:
    return true;
  case SC_SEM_RELAXED:
    return in->scope != SC_SCOPE_NONE;
  default:
    return false;
  }
}

/* The opcode of `in` as the test prints it ("fence.sc.gpu"): the first
 * word of its printed form, past a predicate guard. */
static const char *opcode_text(const sc_test *t, const sc_thread *th,
                               const sc_instr *in) {
  sc_strbuf sb;
  sci_sb_init(&sb);
  sci_print_instruction(&sb, t, th, in);
  const char *word = sb.data;
  if (*word == '@')
    word = strchr(word, ' ') ? strchr(word, ' ') + 1 : word;
  return sci_printf("%.*s", (int)strcspn(word, " "), word);
}

/* The first PTX 7 memory-model instruction of a test's code, NULL when
 * it has none. */
static const sc_instr *first_ptx7_instruction(const sc_test *t,
                                              const sc_thread **th) {
  for (int k = 0; k < t->nthreads; k++)
    for (int i = 0; i < t->threads[k].ninstrs; i++)
      if (ptx7_instruction(&t->threads[k].code[i])) {
        *th = &t->threads[k];
        return &t->threads[k].code[i];
      }
  return NULL;
}

static const char *default_model_unguarded(const sc_test *t,
                                           const char **why) {
  const char *model, *reason;
  const sc_thread *th = NULL;
  const sc_instr *in = t->dialect == SC_DIALECT_GPU_PTX
                           ? first_ptx7_instruction(t, &th)
                           : NULL;
  if (in) {
    model = "ptx-v7.5.cat";
    reason = sci_printf("it uses %s, which ptx-rmo.cat ignores",
                       opcode_text(t, th, in));
  } else if (t->dialect == SC_DIALECT_GPU_PTX) {
    model = "ptx-rmo.cat";
    reason = "the default for GPU_PTX tests";
  } else if (uses_proxies(t)) {
    model = "ptx-v7.5.cat";
    reason = "it uses proxies, which only ptx-v7.5.cat knows";
  } else {
    model = "ptx-v6.0.cat";
    reason = "the default for the PTX dialect";
  }
  if (why)
    *why = reason;
  return model;
}

const char *sc_test_default_model_why(const sc_test *t, const char **why) {
  sc_oom_guard g;
  if (!SC_OOM_ENTER(g)) {
    if (why)
      *why = NULL;
    return sci_oom_null(&g);
  }
  const char *model = default_model_unguarded(t, why);
  sci_oom_leave(&g);
  return model;
}

const char *sc_test_default_model(const sc_test *t) {
  return sc_test_default_model_why(t, NULL);
}
