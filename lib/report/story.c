/* story.c: a witness execution told as the program's story: per thread,
 * its memory accesses, fences and barriers in program order, each with
 * the source line it came from (sc_instr.line: the .cu line where a
 * kernel's PTX had .loc), the instruction, the location and the value
 * read or written; for a flag (a race), the two accesses of its pair
 * named first and marked.  Also the witnesses' public accessors and
 * their pictures.  Text only: the library never prints. */
#include "report/dot.h"
#include "sim/result.h"

#include "util/gcmem.h"
#include "util/oom.h"
#include "util/strbuf.h"

#include <string.h>

/* ---- Witnesses ------------------------------------------------------------ */

int sc_result_flag_count(const sc_result *r) { return r ? r->nflags : 0; }

const char *sc_result_flag(const sc_result *r, int i) {
  return r && i >= 0 && i < r->nflags ? r->flags[i] : NULL;
}

static const sci_flag_witness *flag_witness(const sc_result *r, const char *flag) {
  for (int k = 0; r && flag && k < r->nflag_witnesses; k++)
    if (strcmp(r->flag_witnesses[k].flag, flag) == 0)
      return &r->flag_witnesses[k];
  return NULL;
}

const sc_execution *sc_result_flag_witness(const sc_result *r, const char *flag,
                                           int *a, int *b) {
  const sci_flag_witness *w = flag_witness(r, flag);
  if (a)
    *a = w ? w->a : -1;
  if (b)
    *b = w ? w->b : -1;
  return w ? w->x : NULL;
}

const sc_execution *sc_result_condition_witness(const sc_result *r) {
  return r ? r->cond_witness : NULL;
}

/* ---- Events as source accesses ----------------------------------------------- */

static char kind_letter(sc_event_kind k) {
  switch (k) {
  case SC_EV_READ: return 'R';
  case SC_EV_WRITE: return 'W';
  case SC_EV_FENCE: return 'F';
  case SC_EV_BARRIER: return 'B';
  }
  return '?';
}

static const char *instruction_text(const sc_execution *x, const sc_event *e) {
  sc_strbuf sb;
  sci_sb_init(&sb);
  sci_print_instruction(&sb, x->test, &x->test->threads[e->thread], e->instr);
  return sb.data;
}

int sc_execution_access(const sc_execution *x, int e, sc_access *out) {
  if (!x || !out || e < 0 || e >= x->nevents)
    return 0;
  const sc_event *ev = &x->events[e];
  const sc_test *t = x->test;
  bool init = ev->thread < 0 || !ev->instr;
  *out = (sc_access){
      .thread = init ? -1 : ev->thread,
      .thread_name = init ? "init" : t->threads[ev->thread].name,
      .instr = init ? -1 : ev->pc,
      .file = t->file,
      .line = init ? 0 : ev->instr->line,
      .col = init ? 0 : ev->instr->col,
      .kind = kind_letter(ev->kind),
      .mnemonic = init ? "init" : sci_opcode_name(ev->instr->op),
      .instruction = init ? "" : instruction_text(x, ev),
      .location = ev->vloc >= 0 ? t->locs[ev->vloc].name : NULL,
      .value = (long long)ev->value,
      .value_unknown = ev->value_unknown};
  return 1;
}

/* "file:line", or "line N" when the test has no file name. */
static const char *where(const sc_access *a) {
  if (a->thread < 0)
    return "init";
  return a->file ? sci_printf("%s:%d", a->file, a->line) : sci_printf("line %d", a->line);
}

/* "T0 kernel.cu:12 st A[0]=1": who, where, what, and the value. */
static const char *access_line(const sc_execution *x, int e) {
  sc_access a;
  sc_execution_access(x, e, &a);
  if (!a.location)
    return sci_printf("%s %s %s", a.thread_name, where(&a), a.instruction);
  return sci_printf("%s %s %s %s=%s", a.thread_name, where(&a), a.mnemonic, a.location,
                   sci_exec_value_text(x, e));
}

static const char *pair_text(const sci_flag_witness *w) {
  if (w->a < 0)
    return "";
  if (w->b < 0)
    return access_line(w->x, w->a);
  return sci_printf("%s / %s", access_line(w->x, w->a), access_line(w->x, w->b));
}

const char *sc_result_flag_pair(const sc_result *r, const char *flag) {
  const sci_flag_witness *w = flag_witness(r, flag);
  if (!w)
    return NULL;
  sc_oom_guard g;
  if (!SC_OOM_ENTER(g))
    return sci_oom_null(&g);
  const char *s = pair_text(w);
  sci_oom_leave(&g);
  return s;
}

/* ---- The story ------------------------------------------------------------------- */

/* One event of a thread: where, the instruction, what it read or wrote,
 * and `mark` when it is one of the flagged pair. */
static void put_event(sc_strbuf *sb, const sc_execution *x, int e, const char *mark) {
  sc_access a;
  sc_execution_access(x, e, &a);
  sci_sb_printf(sb, "    %s  ", where(&a));
  if (a.location) /* instructions padded: what they read and wrote in a column */
    sci_sb_printf(sb, "%-24s  %s %s=%s", a.instruction, a.kind == 'R' ? "reads" : "writes",
                 a.location, sci_exec_value_text(x, e));
  else
    sci_sb_puts(sb, a.instruction);
  if (mark)
    sci_sb_printf(sb, "  <- %s", mark);
  sci_sb_puts(sb, "\n");
}

/* Per thread that has an access, a fence or a barrier: each, in program
 * order (the events of a thread are numbered so). */
static void put_threads(sc_strbuf *sb, const sc_execution *x, int a, int b,
                        const char *mark) {
  int n = x->test->nthreads;
  for (int th = 0; th < n; th++) {
    int first = x->thread_first[th];
    int last = th + 1 < n ? x->thread_first[th + 1] : x->nevents;
    if (first >= last)
      continue;
    sci_sb_printf(sb, "  %s:\n", x->test->threads[th].name);
    for (int e = first; e < last; e++)
      put_event(sb, x, e, e == a || e == b ? mark : NULL);
  }
}

static const char *story(const sc_result *r, const char *flag) {
  sc_strbuf sb;
  sci_sb_init(&sb);
  if (flag) {
    const sci_flag_witness *w = flag_witness(r, flag);
    if (!w)
      return NULL;
    sci_sb_printf(&sb, "%s: %s\n", flag, pair_text(w));
    put_threads(&sb, w->x, w->a, w->b, flag);
    return sb.data;
  }
  if (!r->cond_witness)
    return NULL;
  put_threads(&sb, r->cond_witness, -1, -1, NULL);
  return sb.data;
}

const char *sc_result_story(const sc_result *r, const char *flag) {
  if (!r)
    return NULL;
  sc_oom_guard g;
  if (!SC_OOM_ENTER(g))
    return sci_oom_null(&g);
  const char *s = story(r, flag);
  sci_oom_leave(&g);
  return s;
}

/* ---- The witness drawn ----------------------------------------------------------- */

/* The witness as -show draws executions; a flag's pair drawn bold both
 * ways (a race is symmetric), as the cycle of a forbidden execution. */
static const char *witness_dot(const sc_result *r, const char *flag,
                               const sc_dot_options *opts) {
  const sc_execution *x = flag ? sc_result_flag_witness(r, flag, NULL, NULL)
                               : r->cond_witness;
  if (!x)
    return NULL;
  const sci_flag_witness *w = flag ? flag_witness(r, flag) : NULL;
  sc_cycle *pair = NULL;
  if (w && w->a >= 0 && w->b >= 0) {
    int *events = sci_alloc_atomic(2 * sizeof(int));
    events[0] = w->a;
    events[1] = w->b;
    pair = sci_alloc(sizeof *pair);
    *pair = (sc_cycle){.check = flag, .events = events, .n = 2};
  }
  sc_strbuf sb;
  sci_sb_init(&sb);
  sci_dot_execution_with(&sb, x,
                        sci_printf("%s %s", r->test->name, flag ? flag : "condition"),
                        pair, opts);
  return sb.data;
}

const char *sc_result_witness_dot(const sc_result *r, const char *flag,
                                  const sc_dot_options *opts) {
  if (!r)
    return NULL;
  sc_oom_guard g;
  if (!SC_OOM_ENTER(g))
    return sci_oom_null(&g);
  const char *s = witness_dot(r, flag, opts);
  sci_oom_leave(&g);
  return s;
}
