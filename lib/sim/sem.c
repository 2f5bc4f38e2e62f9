/* sem.c: running a thread's PTX code.  A run is driven by the values its
 * reads return; every path is found by depth-first search over those
 * values (a run stops at the first read it has no value for, and is
 * replayed once per value the location may hold).  A run is cut where
 * the unroll bound says, where a loop iteration repeats a state (past
 * SC_SEM_REPEAT_UNROLL; in a liveness search where loops_unnested lets
 * it), and the search stops at its deadline. */
#include "sim/sem.h"

#include "util/error.h"
#include "util/gcmem.h"

#include <inttypes.h>
#include <string.h>

#define DEFAULT_UNROLL SC_SEM_DEFAULT_UNROLL
#define DEFAULT_MAX_TRACES 100000
#define DEFAULT_MAX_EVENTS 4096 /* SC_CAT_MAX_EVENTS: what a model holds */

/* ---- Addresses and values ------------------------------------------------ */

int64_t sci_loc_address(int loc) { return (int64_t)(loc + 1) << 32; }

int64_t sci_test_loc_address(const sc_test *t, int loc) {
  return t->byte_addresses ? t->locs[loc].address : sci_loc_address(loc);
}

/* A kernel's locations lie at increasing byte addresses (lib/kernel lays
 * them out in order): the one at `addr`, by bisection. */
static int loc_at_byte_address(const sc_test *t, int64_t addr) {
  int lo = 0, hi = t->nlocs - 1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    if (t->locs[mid].address == addr)
      return mid;
    if (t->locs[mid].address < addr)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return -1;
}

int sci_address_loc(const sc_test *t, int64_t addr) {
  if (t->byte_addresses)
    return loc_at_byte_address(t, addr);
  if (addr <= 0 || (addr & 0xffffffff) != 0)
    return -1;
  int64_t l = (addr >> 32) - 1;
  return l < t->nlocs ? (int)l : -1;
}

const char *sci_value_string(const sc_test *t, int64_t v) {
  int l = sci_address_loc(t, v);
  return l >= 0 ? t->locs[l].name : sci_printf("%" PRId64, v);
}

int64_t sci_value_of(sc_value v) {
  return v.kind == SC_VAL_LOC ? sci_loc_address(v.loc) : v.i;
}

int64_t sci_test_value_of(const sc_test *t, sc_value v) {
  return v.kind == SC_VAL_LOC ? sci_test_loc_address(t, v.loc) : v.i;
}

int sci_physical_loc(const sc_test *t, int l) {
  for (int hops = 0; t->locs[l].alias_of >= 0 && hops <= t->nlocs; hops++)
    l = t->locs[l].alias_of;
  return l;
}

bool sci_values_hold(const sc_value_sets *vs, int loc, int64_t v) {
  for (int i = 0; i < vs->n[loc]; i++)
    if (vs->vals[loc][i] == v)
      return true;
  return false;
}

bool sci_values_add(sc_value_sets *vs, int loc, int64_t v) {
  if (sci_values_hold(vs, loc, v))
    return false;
  sci_grow(&vs->vals[loc], &vs->cap[loc], vs->n[loc] + 1, sizeof(int64_t));
  vs->vals[loc][vs->n[loc]++] = v;
  return true;
}

sc_value_sets *sci_values_initial(const sc_test *t) {
  sc_value_sets *vs = sci_alloc(sizeof *vs);
  vs->nlocs = t->nlocs;
  vs->vals = sci_alloc(sizeof(int64_t *) * (size_t)(t->nlocs + 1));
  vs->n = sci_alloc_atomic(sizeof(int) * (size_t)(t->nlocs + 1));
  vs->cap = sci_alloc_atomic(sizeof(int) * (size_t)(t->nlocs + 1));
  memset(vs->n, 0, sizeof(int) * (size_t)(t->nlocs + 1));
  memset(vs->cap, 0, sizeof(int) * (size_t)(t->nlocs + 1));
  for (int l = 0; l < t->nlocs; l++) {
    int p = sci_physical_loc(t, l);
    sci_values_add(vs, p, sci_test_value_of(t, t->locs[p].init));
  }
  return vs;
}


/* ---- One run ------------------------------------------------------------- */

/* RUN_CUT: the -unroll bound cut the run (a loss the result reports);
 * RUN_REPEAT: an iteration that repeats a state was not followed (no
 * state is lost: see repeats_state); RUN_WATCHED: the end of a run
 * followed past such a cut only to find recurrences whose infix is the
 * cut iteration (watch_as_infix), which keeps nothing more. */
typedef enum run_result {
  RUN_DONE, RUN_NEED_VALUE, RUN_CUT, RUN_REPEAT, RUN_ERROR,
  RUN_FAULT, /* a kernel's access outside its memory: the thread stops there */
  RUN_WATCHED
} run_result;

typedef struct run {
  const sc_test *t;
  int thread;
  const sc_thread *th;
  const sc_sem_limits *lim;
  const int64_t *given; /* values of the first `ngiven` reads */
  int ngiven, nreads;
  int64_t *regs;
  uint64_t *taint;      /* per register: reads its value depends on */
  uint64_t ctrl;        /* reads that decided a branch so far */
  int *backjumps;       /* per pc */
  /* repeated states (not in liveness searches): per pc, its number as a
   * loop head (a target of backward jumps), -1 when none; per head, the
   * registers live there (a bit set of `words` words), and the events,
   * registers and their reads at the last arrival (head_nev -1: not
   * arrived at yet in this run) */
  int *head_of;
  int nheads, words;
  uint64_t *live_at_head;
  int *head_nev;
  int64_t *head_regs;
  uint64_t *head_taint;
  double deadline;      /* sc_seconds() past which the search fails, 0: none */
  double timeout;       /* the -timeout limit it comes from, for the message */
  unsigned long ticks;  /* steps taken, for a look at the clock now and then */
  sc_trace_event ev[SC_TRACE_MAX];
  int nev;
  int need_loc;         /* RUN_NEED_VALUE: the location to read */
  const sc_instr *fault; /* RUN_FAULT: the access, and its address */
  int64_t fault_address;
  sc_error *err;
  /* liveness: per pc, the events, registers and steps when the run last
   * arrived there (a loop head: where the iteration now ending began), and
   * the same for its last ARRIVALS_KEPT arrivals (hist_*, slot n % kept of
   * the n-th, hist_n arrivals so far: where earlier iterations began); the
   * steps taken (pc, and whether its guard let it run) */
  int *arrival_nev, *arrival_step;
  int *hist_n, *hist_nev, *hist_step;
  int64_t *hist_regs;
  int64_t *arrival_regs;
  int *path;
  bool *path_on;
  int npath, cappath, cappath_on;
  bool *live, *written; /* per register: scratch of spin_iteration */
  sc_thread_traces *out; /* where stuck runs are kept as they are met */
  /* liveness, loops unnested (loops_unnested): a repeat
   * cut goes on watching the cut iteration as an infix (watch_as_infix):
   * the head it closed (-1: not watching) and the arrival there that
   * began it (its number among hist_n's) */
  bool infix_watch;
  int watch_head, watch_arrival;
} run;

static sc_status keep_trace(run *r, sc_stuck stuck, int spin_from, int infix_from);
static sc_status keep_cut_run(run *r, bool by_bound);

/* Arrivals at a pc a liveness run remembers: a recurrence's suffix may be
 * up to ARRIVALS_KEPT - 1 iterations long (the default -unroll 2 runs
 * three iterations: an infix and a suffix of one or two). */
#define ARRIVALS_KEPT 4

static void mark_read(const run *r, sc_operand o) {
  if (o.kind == SC_OPND_REG && !r->written[o.index])
    r->live[o.index] = true;
}

/* The registers the steps since `from` read before writing them: those
 * whose value at the loop head the iteration depends on (Dat3M compares
 * the live ones). */
static void live_registers(const run *r, int from) {
  memset(r->live, 0, sizeof(bool) * (size_t)(r->th->nregs + 1));
  memset(r->written, 0, sizeof(bool) * (size_t)(r->th->nregs + 1));
  for (int k = from; k < r->npath; k++) {
    const sc_instr *in = &r->th->code[r->path[k]];
    if (in->guard >= 0)
      mark_read(r, (sc_operand){.kind = SC_OPND_REG, .index = in->guard});
    if (!r->path_on[k])
      continue;
    for (int i = 0; i < in->nsrc && i < 3; i++)
      mark_read(r, in->src[i]);
    mark_read(r, in->addr.base);
    if (in->dst.kind == SC_OPND_REG)
      r->written[in->dst.index] = true;
  }
}

/* Whether every register that the iteration a backward jump to `head`
 * closes read before writing is as it was in `then` (the registers at an
 * arrival at the head: the next time round, reading the same values, it
 * does the same as from there). */
static bool head_state_again(const run *r, int head, const int64_t *then) {
  live_registers(r, r->arrival_step[head]);
  for (int i = 0; i < r->th->nregs; i++)
    if (r->live[i] && r->regs[i] != then[i])
      return false;
  return true;
}

static bool has_event(const run *r, int from, sc_event_kind kind) {
  for (int i = from; i < r->nev; i++)
    if (r->ev[i].kind == kind)
      return true;
  return false;
}

/* Whether the iteration that a backward jump to `head` closes had no side
 * effect: no write nor barrier since the run last arrived at the head, and
 * the registers it reads as they were then. */
static bool spin_iteration(const run *r, int head) {
  if (r->arrival_step[head] < 0)
    return false; /* jumped into, never through: no iteration to repeat */
  int from = r->arrival_nev[head];
  return !has_event(r, from, SC_EV_WRITE) && !has_event(r, from, SC_EV_BARRIER) &&
         head_state_again(r, head, &r->arrival_regs[(size_t)head * (size_t)r->th->nregs]);
}

/* Whether events a and b are one event of two iterations: the same
 * instruction, kind, location and value, an atom's partner as far away. */
static bool same_event(const sc_trace_event *a, const sc_trace_event *b, int shift) {
  return a->pc == b->pc && a->kind == b->kind && a->loc == b->loc &&
         a->value == b->value &&
         (a->rmw_partner < 0 ? b->rmw_partner < 0 : b->rmw_partner == a->rmw_partner + shift);
}

/* The slot of the n-th arrival at pc among those a liveness run keeps. */
static int arrival_slot(int pc, int n) {
  return pc * ARRIVALS_KEPT + n % ARRIVALS_KEPT;
}

/* Whether the m iterations that a backward jump to `head` closes (the
 * suffix) write and repeat the iteration before them (the infix; Dat3M's
 * side-effectful non-termination with one infix iteration): the last of
 * them takes the infix's steps and makes its events with the same values,
 * none meets a barrier, and the registers the last one reads are as they
 * were where the infix ended.  Then the run may go on repeating the
 * suffix, each copy the same as the last, as long as memory gives its
 * reads the same values: liveness.c's fairness says when it may (a thread
 * doing atom.exch until 0 comes back reads its own last 1 for ever; two
 * threads exchanging in turns, one twice a turn, make a suffix of two
 * iterations of the other). */
static bool recurring_iterations(const run *r, int head, int m) {
  int n = r->hist_n[head]; /* the (n-1)-th arrival began the last iteration */
  if (r->arrival_step[head] < 0 || n - 1 - m < 0 || m >= ARRIVALS_KEPT)
    return false; /* fewer than m + 1 iterations */
  int infix = arrival_slot(head, n - 1 - m), ended = arrival_slot(head, n - m);
  int s0 = r->hist_step[infix], s1 = r->arrival_step[head];
  int e0 = r->hist_nev[infix], e1 = r->arrival_nev[head];
  int len = r->hist_nev[ended] - e0;
  if (r->npath - s1 != r->hist_step[ended] - s0 || r->nev - e1 != len ||
      !has_event(r, r->hist_nev[ended], SC_EV_WRITE) ||
      has_event(r, e0, SC_EV_BARRIER))
    return false;
  for (int k = 0; k < r->npath - s1; k++)
    if (r->path[s0 + k] != r->path[s1 + k] || r->path_on[s0 + k] != r->path_on[s1 + k])
      return false;
  for (int i = 0; i < len; i++)
    if (!same_event(&r->ev[e0 + i], &r->ev[e1 + i], e1 - e0))
      return false;
  return head_state_again(r, head, &r->hist_regs[(size_t)ended * (size_t)r->th->nregs]);
}

/* Whether an event orders what follows it in its thread against other
 * threads: a write (the start of a release pattern), a fence, a barrier. */
static bool orders_later(sc_event_kind kind) {
  return kind == SC_EV_WRITE || kind == SC_EV_FENCE || kind == SC_EV_BARRIER;
}

/* Whether a read may be the iteration's first event without a twin
 * before it: its twin is then the first event of what follows the cut,
 * the same instruction of the same location (the registers live at the
 * head decide the way there).  A plain load neither acquiring (no
 * acquire pattern ends at it: ptx_names.c's ACQ) nor of an atom (no rmw
 * pair, as its twin has none): sim/repeat_gate.c says why that is enough. */
static bool has_twin_after(const sc_trace_event *e) {
  const sc_instr *in = e->instr;
  return in->op == SC_OP_LD && (in->sem == SC_SEM_NONE || in->sem == SC_SEM_WEAK ||
                                in->sem == SC_SEM_RELAXED || in->sem == SC_SEM_VOLATILE);
}

/* Whether limits' race_free marks read e: no write of another thread can
 * race with it, so cutting it loses no race and it needs no twin. */
static bool race_free_read(const run *r, const sc_trace_event *e) {
  return r->lim->race_free && e->vloc >= 0 &&
         r->lim->race_free[r->thread][(size_t)e->pc * (size_t)r->t->nlocs + (size_t)e->vloc];
}

/* The first event of the run after its last write, fence or barrier
 * before event `from`: a twin of the iteration's read lies from there. */
static int twins_since(const run *r, int from) {
  int since = from;
  while (since > 0 && !orders_later(r->ev[since - 1].kind))
    since--;
  return since;
}

/* Whether the iteration's read at event i (the iteration from event
 * `from` on) has a twin: an earlier read of the run by the same
 * instruction of the same location, from `since` on (twins_since); or,
 * for the iteration's first event, the next iteration's first
 * (has_twin_after). */
static bool read_has_twin(const run *r, int from, int since, int i) {
  const sc_trace_event *e = &r->ev[i];
  if (i == from && has_twin_after(e))
    return true;
  for (int j = from - 1; j >= since; j--)
    if (r->ev[j].kind == SC_EV_READ && r->ev[j].pc == e->pc && r->ev[j].loc == e->loc)
      return true;
  return false;
}

/* For limits' repeat_twins (the race flags' cut, sim/repeat_gate.c): the
 * iteration from event `from` on has no fence, and each of its reads has
 * a twin (read_has_twin) or is race-free (race_free_read).  A race of the
 * iteration's read is then one of its twin's, which the shorter run
 * keeps. */
static bool reads_have_twins(const run *r, int from) {
  int since = twins_since(r, from);
  for (int i = from; i < r->nev; i++) {
    const sc_trace_event *e = &r->ev[i];
    if (e->kind == SC_EV_FENCE)
      return false;
    if (e->kind == SC_EV_READ && !race_free_read(r, e) && !read_has_twin(r, from, since, i))
      return false;
  }
  return true;
}

/* For limits' note_twinless, at an iteration (from event `from` on) that
 * the cut without twins takes: what would make repeat_twins refuse it,
 * noted in the thread's sc_thread_traces: a fence (twin_refused), and
 * each read with no twin, marked in twinless (twin_refused when it has no
 * location as addressed, which no race-free mark can cover).  The twin
 * cut, race-free reads or not, takes exactly the iterations that this cut
 * takes and reads_have_twins passes: the same with these notes covered
 * by the race-free marks. */
static void note_twinless(const run *r, int from) {
  if (!r->lim->note_twinless)
    return;
  sc_thread_traces *o = r->out;
  int since = twins_since(r, from);
  for (int i = from; i < r->nev; i++) {
    const sc_trace_event *e = &r->ev[i];
    if (e->kind == SC_EV_FENCE)
      o->twin_refused = true;
    if (e->kind != SC_EV_READ || read_has_twin(r, from, since, i))
      continue;
    if (e->vloc < 0) {
      o->twin_refused = true;
      continue;
    }
    if (!o->twinless) {
      size_t n = (size_t)(r->th->ninstrs + 1) * (size_t)r->t->nlocs;
      o->twinless = sci_alloc_atomic(n);
      memset(o->twinless, 0, n);
    }
    o->twinless[(size_t)e->pc * (size_t)r->t->nlocs + (size_t)e->vloc] = true;
  }
}

/* Whether the iteration that a backward jump to `head` closes repeats a
 * state: no write nor barrier since the run last arrived at the head, and
 * each register live there as it was then, in value and in the reads it
 * depends on.  Then what the run does next it could do from that arrival
 * on, with the same values read, making the same events, dependencies
 * included (ctrl only grows: the iteration's part of it goes with its
 * reads).  An execution of the run without the iteration is one with the
 * iteration's reads and fences taken out, its other relations as they
 * were (ctrl and the membar relations may lose pairs): a model whose
 * checks get no stronger with fewer events allows it when it allowed the
 * longer (cat/removal.c's condition; the caller sets limits' repeat_cut
 * only for such a model).  So cutting the run here loses no final state:
 * the shorter run is met anyway (see sci_sem_traces).  The cut takes out
 * reads and fences only, never a write (nor a barrier): an iteration with
 * one is no repeat (the loop below), and what the dropped run would do
 * after it the shorter run does, writes included; sim/repeat_gate.c's
 * race-free reads rest on that. */
static bool repeats_state(const run *r, int head) {
  int h = r->head_of[head];
  if (h < 0 || r->head_nev[h] < 0)
    return false; /* jumped into, never through: no iteration to repeat */
  for (int i = r->head_nev[h]; i < r->nev; i++)
    if (r->ev[i].kind == SC_EV_WRITE || r->ev[i].kind == SC_EV_BARRIER)
      return false;
  if (r->lim->repeat_twins && !reads_have_twins(r, r->head_nev[h]))
    return false;
  const uint64_t *live = &r->live_at_head[(size_t)h * (size_t)r->words];
  size_t at = (size_t)h * (size_t)r->th->nregs;
  for (int i = 0; i < r->th->nregs; i++)
    if ((live[i / 64] >> (i % 64) & 1) &&
        (r->regs[i] != r->head_regs[at + (size_t)i] ||
         r->taint[i] != r->head_taint[at + (size_t)i]))
      return false;
  return true;
}

/* A liveness run keeps a stuck copy of itself where it is now: once per
 * path (the point is met with every given value read, r->nreads ==
 * r->ngiven, only in the replay that first gets there). */
static run_result keep_stuck(run *r, sc_stuck how, int spin_from, int infix_from) {
  if (!r->lim->liveness || r->nreads != r->ngiven)
    return RUN_DONE;
  return keep_trace(r, how, spin_from, infix_from) ? RUN_ERROR : RUN_DONE;
}

/* A liveness run that a backward jump to `head` brings round again keeps
 * a stuck copy of itself when it may repeat the iteration for ever, or
 * the last m iterations (one copy for each such m). */
static run_result keep_if_spinning(run *r, int head) {
  if (spin_iteration(r, head))
    return keep_stuck(r, SC_STUCK_SPIN, r->arrival_nev[head], r->arrival_nev[head]);
  for (int m = 1; m < ARRIVALS_KEPT; m++)
    if (recurring_iterations(r, head, m) &&
        keep_stuck(r, SC_STUCK_SPIN, r->hist_nev[arrival_slot(head, r->hist_n[head] - m)],
                   r->hist_nev[arrival_slot(head, r->hist_n[head] - 1 - m)]) == RUN_ERROR)
      return RUN_ERROR;
  return RUN_DONE;
}

static run_result fail_at(run *r, const sc_instr *in, const char *fmt,
                          const char *detail) {
  r->err = sci_error_new(SC_ERR_SEMANTIC, r->t->file, in->line, in->col, fmt,
                        r->th->name, detail);
  return RUN_ERROR;
}

/* Whether cell `loc` is collapsed (sc_sem_limits.collapsed). */
static bool collapsed_cell(const run *r, int loc) {
  return r->lim->collapsed && r->lim->collapsed[loc];
}

/* With collapsed cells (sc_sem_limits.collapsed): the cells of the reads
 * in `reads` (a taint) reached a decision, or a value written where it is
 * kept; noted for sim/data_only.c, which un-collapses them. */
static void note_deciding(run *r, uint64_t reads) {
  if (!r->lim->collapsed || !reads)
    return;
  sc_thread_traces *o = r->out;
  if (!o->deciding) {
    o->deciding = sci_alloc_atomic(sizeof(bool) * (size_t)(r->t->nlocs + 1));
    memset(o->deciding, 0, sizeof(bool) * (size_t)(r->t->nlocs + 1));
  }
  for (uint64_t b = reads; b; b &= b - 1) {
    const sc_trace_event *e = &r->ev[__builtin_ctzll(b)];
    if (e->kind == SC_EV_READ && e->loc >= 0)
      o->deciding[e->loc] = true;
  }
}

static int64_t operand(const run *r, sc_operand o, uint64_t *taint) {
  switch (o.kind) {
  case SC_OPND_REG:
    *taint |= r->taint[o.index];
    return r->regs[o.index];
  case SC_OPND_IMM: return o.imm;
  case SC_OPND_LOC: return sci_test_loc_address(r->t, o.index);
  case SC_OPND_NONE: break;
  }
  return 0;
}

/* Whether a kernel's access of `in` at location l fits its element: the
 * access's width is the element's (an untyped access fits any). */
static bool fits_element(const sc_test *t, const sc_instr *in, int l) {
  int bytes = sci_type_bytes(in->type);
  return bytes == 0 || bytes == t->locs[l].size;
}

/* Resolve the memory operand: -1 when it is no location, with r->err (a
 * litmus test: an error) or r->fault (a kernel: a finding, the access
 * outside every array or not on an element's start and width). */
static int address(run *r, const sc_instr *in, uint64_t *taint, int *vloc) {
  int64_t a = operand(r, in->addr.base, taint) + in->addr.offset;
  note_deciding(r, *taint);
  int l = sci_address_loc(r->t, a);
  if (r->t->byte_addresses && (l < 0 || !fits_element(r->t, in, l))) {
    r->fault = in;
    r->fault_address = a;
    return -1;
  }
  if (l < 0) {
    fail_at(r, in, "%s accesses address %s, which is no location of the test",
            sci_value_string(r->t, a));
    return -1;
  }
  *vloc = l;
  return sci_physical_loc(r->t, l);
}

/* What an access that resolved to no location makes of the run. */
static run_result no_location(const run *r) {
  return r->fault ? RUN_FAULT : RUN_ERROR;
}

static sc_trace_event *new_event(run *r, const sc_instr *in, int pc,
                                 sc_event_kind kind, uint64_t guard_taint) {
  if (r->nev == r->lim->max_run_events) {
    r->err = sci_error_new(SC_ERR_LIMIT, r->t->file, in->line, in->col,
                          "expected at most %d events in a thread's run (the "
                          "-max-run-events limit)", r->lim->max_run_events);
    return NULL;
  }
  sc_trace_event *e = &r->ev[r->nev++];
  memset(e, 0, sizeof *e);
  e->kind = kind;
  e->instr = in;
  e->pc = pc;
  e->loc = e->vloc = -1;
  e->rmw_partner = -1;
  e->ctrl_deps = r->ctrl | guard_taint;
  return e;
}

static int64_t atomic_result(sc_atomop op, int64_t old, int64_t b, int64_t c) {
  switch (op) {
  case SC_ATOM_CAS: return old == b ? c : old;
  case SC_ATOM_EXCH: return b;
  case SC_ATOM_ADD: return old + b;
  case SC_ATOM_SUB: return old - b;
  case SC_ATOM_INC: return old >= b ? 0 : old + 1;           /* PTX atom.inc */
  case SC_ATOM_DEC: return old == 0 || old > b ? b : old - 1; /* PTX atom.dec */
  case SC_ATOM_AND: return old & b;
  case SC_ATOM_OR: return old | b;
  case SC_ATOM_XOR: return old ^ b;
  case SC_ATOM_MIN: return old < b ? old : b;
  case SC_ATOM_MAX: return old > b ? old : b;
  default: return old;
  }
}

static bool unsigned_type(sc_type t) {
  return t == SC_TYPE_U32 || t == SC_TYPE_B32 || t == SC_TYPE_U64 ||
         t == SC_TYPE_B64 || t == SC_TYPE_U8 || t == SC_TYPE_B8 ||
         t == SC_TYPE_U16 || t == SC_TYPE_B16;
}

static int64_t compare(sc_cmp c, sc_type type, int64_t a, int64_t b) {
  uint64_t x = (uint64_t)a, y = (uint64_t)b;
  switch (c) { /* PTX's unsigned comparisons, whatever the type */
  case SC_CMP_LO: return x < y;
  case SC_CMP_LS: return x <= y;
  case SC_CMP_HI: return x > y;
  case SC_CMP_HS: return x >= y;
  default: break;
  }
  if (unsigned_type(type)) {
    uint64_t x = (uint64_t)a, y = (uint64_t)b;
    switch (c) {
    case SC_CMP_LT: return x < y;
    case SC_CMP_LE: return x <= y;
    case SC_CMP_GT: return x > y;
    case SC_CMP_GE: return x >= y;
    default: break;
    }
  }
  switch (c) {
  case SC_CMP_EQ: return a == b;
  case SC_CMP_NE: return a != b;
  case SC_CMP_LT: return a < b;
  case SC_CMP_LE: return a <= b;
  case SC_CMP_GT: return a > b;
  case SC_CMP_GE: return a >= b;
  default: return 0;
  }
}

/* A kernel's value at the width of type `ty` (a litmus test's as it is). */
static int64_t kernel_wrap(const run *r, sc_type ty, int64_t v) {
  return r->t->byte_addresses ? sci_wrap(ty, v) : v;
}

/* The value a kernel's memory cell holds after a write of `v` by `in`:
 * the element's bits, read as a signed integer of its width (a cell
 * written as .u32 0xffffffff reads -1 in a condition); a litmus test's
 * value as it is. */
static int64_t memory_value(const run *r, const sc_instr *in, int64_t v) {
  if (!r->t->byte_addresses)
    return v;
  switch (sci_type_bytes(in->type)) {
  case 1: return sci_wrap(SC_TYPE_S8, v);
  case 2: return sci_wrap(SC_TYPE_S16, v);
  case 4: return sci_wrap(SC_TYPE_S32, v);
  default: return v;
  }
}

static bool signed_of(sc_type ty) {
  return ty == SC_TYPE_S8 || ty == SC_TYPE_S16 || ty == SC_TYPE_S32 ||
         ty == SC_TYPE_S64;
}

/* A kernel's atom/red result at the instruction's width: min and max
 * compare as its type says, inc and dec as the PTX ISA (unsigned). */
static int64_t kernel_atomic(const sc_instr *in, int64_t old, int64_t b) {
  sc_type ty = in->type;
  uint64_t uo = (uint64_t)sci_wrap(SC_TYPE_U64, old), ub = (uint64_t)b;
  int bytes = sci_type_bytes(ty);
  if (bytes > 0 && bytes < 8) {
    uint64_t mask = ((uint64_t)1 << (bytes * 8)) - 1;
    uo &= mask;
    ub &= mask;
  }
  switch (in->atomop) {
  case SC_ATOM_ADD: return sci_wrap(ty, (int64_t)(uo + ub));
  case SC_ATOM_SUB: return sci_wrap(ty, (int64_t)(uo - ub));
  case SC_ATOM_INC: return sci_wrap(ty, uo >= ub ? 0 : (int64_t)(uo + 1));
  case SC_ATOM_DEC:
    return sci_wrap(ty, uo == 0 || uo > ub ? (int64_t)ub : (int64_t)(uo - 1));
  case SC_ATOM_AND: return sci_wrap(ty, old & b);
  case SC_ATOM_OR: return sci_wrap(ty, old | b);
  case SC_ATOM_XOR: return sci_wrap(ty, old ^ b);
  case SC_ATOM_MIN:
    return signed_of(ty) ? (old < b ? old : b) : (int64_t)(uo < ub ? uo : ub);
  case SC_ATOM_MAX:
    return signed_of(ty) ? (old > b ? old : b) : (int64_t)(uo > ub ? uo : ub);
  default: return old;
  }
}

/* A read: its value is the next given one, or the run pauses for one. */
static run_result do_read(run *r, const sc_instr *in, int pc, uint64_t guard,
                          int *out_event) {
  uint64_t at = 0;
  int vloc, loc = address(r, in, &at, &vloc);
  if (loc < 0)
    return no_location(r);
  if (r->nreads == r->ngiven) {
    r->need_loc = loc;
    return RUN_NEED_VALUE;
  }
  sc_trace_event *e = new_event(r, in, pc, SC_EV_READ, guard);
  if (!e)
    return RUN_ERROR;
  e->loc = loc;
  e->vloc = vloc;
  e->value = r->given[r->nreads++];
  e->value_unknown = collapsed_cell(r, loc);
  e->addr_deps = at;
  *out_event = r->nev - 1;
  return RUN_DONE;
}

static run_result do_write(run *r, const sc_instr *in, int pc, uint64_t guard,
                           int64_t value, uint64_t data) {
  uint64_t at = 0;
  int vloc, loc = address(r, in, &at, &vloc);
  if (loc < 0)
    return no_location(r);
  sc_trace_event *e = new_event(r, in, pc, SC_EV_WRITE, guard);
  if (!e)
    return RUN_ERROR;
  e->value_unknown = collapsed_cell(r, loc);
  if (e->value_unknown)
    value = sci_value_of(r->t->locs[loc].init); /* its one value */
  else
    note_deciding(r, data);
  e->loc = loc;
  e->vloc = vloc;
  e->value = value;
  e->addr_deps = at;
  e->data_deps = data;
  return RUN_DONE;
}

static void set_reg(run *r, sc_operand dst, int64_t v, uint64_t taint) {
  r->regs[dst.index] = v;
  r->taint[dst.index] = taint;
}

static run_result do_atomic(run *r, const sc_instr *in, int pc, uint64_t guard) {
  int rd;
  run_result rr = do_read(r, in, pc, guard, &rd);
  if (rr != RUN_DONE)
    return rr;
  int64_t old = kernel_wrap(r, in->type, r->ev[rd].value);
  uint64_t data = 0;
  int64_t b = kernel_wrap(r, in->type, operand(r, in->src[0], &data));
  int64_t c = in->nsrc > 1 ? kernel_wrap(r, in->type, operand(r, in->src[1], &data)) : 0;
  if (in->op == SC_OP_ATOM)
    set_reg(r, in->dst, old, (uint64_t)1 << rd);
  if (in->atomop != SC_ATOM_EXCH)
    note_deciding(r, (uint64_t)1 << rd); /* whether it writes, or what */
  if (in->atomop == SC_ATOM_CAS && old != b)
    return RUN_DONE; /* a failing cas only reads */
  int64_t v = r->t->byte_addresses ? kernel_atomic(in, old, b)
                                   : atomic_result(in->atomop, old, b, c);
  if (in->atomop == SC_ATOM_CAS || in->atomop == SC_ATOM_EXCH)
    v = in->atomop == SC_ATOM_CAS ? c : b;
  rr = do_write(r, in, pc, guard, memory_value(r, in, v), data);
  if (rr != RUN_DONE)
    return rr;
  r->ev[rd].rmw_partner = r->nev - 1;
  r->ev[r->nev - 1].rmw_partner = rd;
  return RUN_DONE;
}

/* A barrier keeps its operands' values: which barriers synchronise
 * depends on them (bar.cta.sync 1, r2). */
static run_result do_barrier(run *r, const sc_instr *in, int pc, uint64_t guard) {
  sc_trace_event *e = new_event(r, in, pc, SC_EV_BARRIER, guard);
  if (!e)
    return RUN_ERROR;
  uint64_t taint = 0;
  for (int i = 0; i < in->nsrc && i < 3; i++)
    e->bar_ops[e->nbar_ops++] = operand(r, in->src[i], &taint);
  note_deciding(r, taint);
  if (in->barmode == SC_BAR_ARRIVE)
    return RUN_DONE;
  if (r->watch_head >= 0)
    return RUN_WATCHED; /* a recurrence meets no barrier */
  return keep_stuck(r, SC_STUCK_BARRIER, 0, 0); /* waiting here for ever */
}

/* Whether a run cut at once where its iteration repeats a state counts as
 * one the bound cut: the same iteration, taken again and again, reaches
 * the bound before the SC_SEM_REPEAT_UNROLL-th jump back when the bound is
 * at most that, and then the full unrolling reports the loss; so the
 * verdicts (UNKNOWN when a run was cut) stay those of the full cut. */
static bool repeat_lost(const run *r) {
  return r->lim->repeat_at_once && r->lim->unroll <= SC_SEM_REPEAT_UNROLL;
}

/* The repeat cut of an iteration R that a backward jump to `head` closes,
 * in a liveness run of a thread whose loops are unnested (loops_unnested
 * says why): the cut run is kept as explore keeps one
 * (`cut` says how), once, by the replay that first gets here; then the
 * run goes on, uncut, only to meet the recurrences whose infix is R
 * (watched_jump). */
static run_result watch_as_infix(run *r, int head, run_result cut, int *next) {
  if (r->nreads == r->ngiven && keep_cut_run(r, cut == RUN_CUT))
    return RUN_ERROR;
  r->watch_head = head;
  r->watch_arrival = r->hist_n[head] - 1;
  *next = head;
  return RUN_DONE;
}

/* A jump of a run that watches the cut iteration R as an infix: a
 * recurrence's suffix is its last m < ARRIVALS_KEPT iterations and its
 * infix the one before, all of one head; so the run keeps the stuck copy
 * whose infix is R, if the m-th iteration after R closes one and is no
 * spin (keep_if_spinning keeps a spin as such, never as a recurrence:
 * the cut search keeps that spin without R, its prefix), and ends
 * past the (ARRIVALS_KEPT - 1)-th, at the bound, or where it leaves R's
 * loop (a backward jump to another head: it never comes back, the
 * regions being disjoint). */
static run_result watched_jump(run *r, int pc, int to, int *next) {
  if (to > pc) {
    *next = to;
    return RUN_DONE;
  }
  if (to != r->watch_head)
    return RUN_WATCHED;
  int n = r->hist_n[to], m = n - 1 - r->watch_arrival;
  if (!spin_iteration(r, to) && recurring_iterations(r, to, m) && /* as keep_if_spinning */
      keep_stuck(r, SC_STUCK_SPIN, r->hist_nev[arrival_slot(to, n - m)],
                 r->hist_nev[arrival_slot(to, n - 1 - m)]) == RUN_ERROR)
    return RUN_ERROR;
  if (m >= ARRIVALS_KEPT - 1 || ++r->backjumps[pc] > r->lim->unroll)
    return RUN_WATCHED;
  *next = to;
  return RUN_DONE;
}

static run_result jump(run *r, int pc, int target_label, int *next) {
  int to = r->th->labels[target_label].pc;
  if (r->watch_head >= 0)
    return watched_jump(r, pc, to, next);
  if (to <= pc && r->lim->liveness && keep_if_spinning(r, to) == RUN_ERROR)
    return RUN_ERROR;
  if (to <= pc && ++r->backjumps[pc] > r->lim->unroll)
    return RUN_CUT;
  int repeat_from = r->lim->repeat_at_once ? 0 : SC_SEM_REPEAT_UNROLL;
  if (to <= pc && r->backjumps[pc] > repeat_from && r->nheads > 0 &&
      repeats_state(r, to)) { /* nheads: prepare_repeats ran */
    note_twinless(r, r->head_nev[r->head_of[to]]);
    run_result cut = repeat_lost(r) ? RUN_CUT : RUN_REPEAT; /* either feeds values (keep_cut_run) */
    return r->infix_watch ? watch_as_infix(r, to, cut, next) : cut;
  }
  *next = to;
  return RUN_DONE;
}

static int64_t alu(sc_opcode op, int64_t a, int64_t b) {
  switch (op) {
  case SC_OP_ADD: return (int64_t)((uint64_t)a + (uint64_t)b);
  case SC_OP_SUB: return (int64_t)((uint64_t)a - (uint64_t)b);
  case SC_OP_AND: return a & b;
  case SC_OP_OR: return a | b;
  case SC_OP_XOR: return a ^ b;
  default: return a; /* mov, cvt */
  }
}

/* The type twice as wide as `ty` (the result of mul.wide, mad.wide). */
static sc_type wider(sc_type ty) {
  switch (ty) {
  case SC_TYPE_S16: return SC_TYPE_S32;
  case SC_TYPE_U16: case SC_TYPE_B16: return SC_TYPE_U32;
  case SC_TYPE_S32: return SC_TYPE_S64;
  case SC_TYPE_U32: case SC_TYPE_B32: return SC_TYPE_U64;
  default: return ty;
  }
}

/* A shift by `n` at the width of `ty`: past the width, 0 (or the sign,
 * shifting a signed value right), as the PTX ISA clamps it. */
static int64_t shift(sc_opcode op, sc_type ty, int64_t a, int64_t n) {
  int bits = sci_type_bytes(ty) ? sci_type_bytes(ty) * 8 : 64;
  uint64_t un = (uint64_t)sci_wrap(SC_TYPE_U32, n);
  if (op == SC_OP_SHL)
    return un >= (uint64_t)bits ? 0 : sci_wrap(ty, (int64_t)((uint64_t)a << un));
  if (signed_of(ty))
    return un >= (uint64_t)bits ? (a < 0 ? -1 : 0) : a >> un;
  uint64_t ua = (uint64_t)a;
  if (bits < 64)
    ua &= ((uint64_t)1 << bits) - 1;
  return un >= (uint64_t)bits ? 0 : sci_wrap(ty, (int64_t)(ua >> un));
}

/* A kernel's integer instruction: operands read at the instruction's
 * type (sci_wrap), the result wrapped to the width of its destination. */
static int64_t kernel_alu(const sc_instr *in, const int64_t *v) {
  sc_type ty = in->type;
  int64_t a = sci_wrap(ty, v[0]), b = sci_wrap(ty, v[1]);
  uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
  switch (in->op) {
  case SC_OP_MOV: return sci_wrap(ty, v[0]);
  case SC_OP_CVT: return sci_wrap(ty, sci_wrap(in->type2, v[0]));
  case SC_OP_ADD: return sci_wrap(ty, (int64_t)(ua + ub));
  case SC_OP_SUB: return sci_wrap(ty, (int64_t)(ua - ub));
  case SC_OP_AND: return sci_wrap(ty, a & b);
  case SC_OP_OR: return sci_wrap(ty, a | b);
  case SC_OP_XOR: return sci_wrap(ty, a ^ b);
  case SC_OP_NOT: return sci_wrap(ty, ~a);
  case SC_OP_NEG: return sci_wrap(ty, (int64_t)(0 - ua));
  case SC_OP_MUL:
  case SC_OP_MAD: {
    sc_type rt = in->wide ? wider(ty) : ty;
    uint64_t prod = (uint64_t)sci_wrap(rt, a) * (uint64_t)sci_wrap(rt, b);
    if (in->op == SC_OP_MAD)
      prod += (uint64_t)sci_wrap(rt, v[2]);
    return sci_wrap(rt, (int64_t)prod);
  }
  case SC_OP_SHL:
  case SC_OP_SHR: return shift(in->op, ty, a, v[1]);
  case SC_OP_MIN:
    return signed_of(ty) ? (a < b ? a : b) : (ua < ub ? a : b);
  case SC_OP_MAX:
    return signed_of(ty) ? (a > b ? a : b) : (ua > ub ? a : b);
  case SC_OP_SELP: return v[2] ? a : b;
  default: return a;
  }
}

/* Execute instruction `pc`; *next is the pc to go on with. */
static run_result step(run *r, int pc, int *next) {
  const sc_instr *in = &r->th->code[pc];
  *next = pc + 1;
  uint64_t guard = 0;
  if (in->guard >= 0) {
    guard = r->taint[in->guard];
    note_deciding(r, guard);
    bool on = (r->regs[in->guard] != 0) != in->guard_negated;
    if (in->op == SC_OP_BRA)
      r->ctrl |= guard; /* the branch decided, taken or not */
    if (!on)
      return RUN_DONE;
  }
  uint64_t taint = 0;
  int rd;
  switch (in->op) {
  case SC_OP_LD: {
    run_result rr = do_read(r, in, pc, guard, &rd);
    if (rr == RUN_DONE)
      set_reg(r, in->dst, kernel_wrap(r, in->type, r->ev[rd].value),
              (uint64_t)1 << rd);
    return rr;
  }
  case SC_OP_ST: {
    int64_t v = operand(r, in->src[0], &taint);
    return do_write(r, in, pc, guard, memory_value(r, in, v), taint);
  }
  case SC_OP_ATOM:
  case SC_OP_RED:
    return do_atomic(r, in, pc, guard);
  case SC_OP_MEMBAR:
  case SC_OP_FENCE:
  case SC_OP_FENCE_PROXY:
    return new_event(r, in, pc, SC_EV_FENCE, guard) ? RUN_DONE : RUN_ERROR;
  case SC_OP_BAR:
    return do_barrier(r, in, pc, guard);
  case SC_OP_MOV:
  case SC_OP_CVT:
  case SC_OP_ADD:
  case SC_OP_SUB:
  case SC_OP_AND:
  case SC_OP_OR:
  case SC_OP_XOR:
  case SC_OP_MUL:
  case SC_OP_MAD:
  case SC_OP_SHL:
  case SC_OP_SHR:
  case SC_OP_MIN:
  case SC_OP_MAX:
  case SC_OP_NOT:
  case SC_OP_NEG:
  case SC_OP_SELP: {
    int64_t v[3] = {0, 0, 0};
    for (int i = 0; i < in->nsrc && i < 3; i++)
      v[i] = operand(r, in->src[i], &taint);
    int64_t res = r->t->byte_addresses ? kernel_alu(in, v) : alu(in->op, v[0], v[1]);
    set_reg(r, in->dst, res, taint | guard);
    return RUN_DONE;
  }
  case SC_OP_SETP: {
    int64_t a = operand(r, in->src[0], &taint);
    int64_t b = operand(r, in->src[1], &taint);
    a = kernel_wrap(r, in->type, a);
    b = kernel_wrap(r, in->type, b);
    set_reg(r, in->dst, compare(in->cmp, in->type, a, b), taint | guard);
    return RUN_DONE;
  }
  case SC_OP_RET:
    *next = r->th->ninstrs;
    return RUN_DONE;
  case SC_OP_BRA:
    return jump(r, pc, in->target, next);
  case SC_OP_BEQ:
  case SC_OP_BNE: {
    int64_t a = operand(r, in->src[0], &taint);
    int64_t b = operand(r, in->src[1], &taint);
    r->ctrl |= taint | guard;
    note_deciding(r, taint);
    if ((a == b) == (in->op == SC_OP_BEQ))
      return jump(r, pc, in->target, next);
    return RUN_DONE;
  }
  case SC_OP_COUNT:
    break;
  }
  return RUN_DONE;
}

/* A run notes each arrival at loop head h: the state repeats_state
 * compares. */
static void arrive_at_head(run *r, int h) {
  size_t n = (size_t)r->th->nregs, at = (size_t)h * n;
  r->head_nev[h] = r->nev;
  memcpy(&r->head_regs[at], r->regs, sizeof(int64_t) * n);
  memcpy(&r->head_taint[at], r->taint, sizeof(uint64_t) * n);
}

/* Whether the search is past its deadline: the clock is read once in 4096
 * steps (a step is tens of nanoseconds). */
static bool past_deadline(run *r) {
  return r->deadline > 0 && (++r->ticks & 4095) == 0 &&
         sc_seconds() > r->deadline;
}

static run_result out_of_time(run *r) {
  sci_fail(&r->err, SC_ERR_LIMIT, r->t->file, 0, 0,
          "expected to finish within %g s (the -timeout limit)", r->timeout);
  return RUN_ERROR;
}

/* A liveness run notes each arrival at pc, and the step it takes there. */
static void arrive(run *r, int pc) {
  const sc_thread *th = r->th;
  const sc_instr *in = &th->code[pc];
  int slot = arrival_slot(pc, r->hist_n[pc]++);
  r->hist_nev[slot] = r->nev;
  r->hist_step[slot] = r->npath;
  memcpy(&r->hist_regs[(size_t)slot * (size_t)th->nregs], r->regs,
         sizeof(int64_t) * (size_t)th->nregs);
  r->arrival_nev[pc] = r->nev;
  r->arrival_step[pc] = r->npath;
  memcpy(&r->arrival_regs[(size_t)pc * (size_t)th->nregs], r->regs,
         sizeof(int64_t) * (size_t)th->nregs);
  sci_grow(&r->path, &r->cappath, r->npath + 1, sizeof(int));
  sci_grow(&r->path_on, &r->cappath_on, r->npath + 1, sizeof(bool));
  r->path[r->npath] = pc;
  r->path_on[r->npath++] =
      in->guard < 0 || (r->regs[in->guard] != 0) != in->guard_negated;
}

static run_result run_thread(run *r) {
  const sc_thread *th = r->th;
  for (int i = 0; i < th->nregs; i++) {
    r->regs[i] = sci_test_value_of(r->t, th->regs[i].init);
    r->taint[i] = 0;
  }
  memset(r->backjumps, 0, sizeof(int) * (size_t)(th->ninstrs + 1));
  r->ctrl = 0;
  r->nev = 0;
  r->nreads = 0;
  r->fault = NULL;
  r->npath = 0;
  r->watch_head = -1;
  if (r->lim->liveness) { /* -1: not arrived at yet in this run */
    memset(r->arrival_step, 0xff, sizeof(int) * (size_t)(th->ninstrs + 1));
    memset(r->hist_n, 0, sizeof(int) * (size_t)(th->ninstrs + 1));
  }
  if (r->nheads > 0) /* a liveness run too, where loops_unnested lets it */
    memset(r->head_nev, 0xff, sizeof(int) * (size_t)r->nheads);
  for (int pc = 0; pc < th->ninstrs;) {
    if (past_deadline(r))
      return out_of_time(r);
    if (r->lim->liveness)
      arrive(r, pc);
    if (r->nheads > 0 && r->head_of[pc] >= 0)
      arrive_at_head(r, r->head_of[pc]);
    run_result rr = step(r, pc, &pc);
    if (rr != RUN_DONE)
      return rr == RUN_FAULT && r->watch_head >= 0 ? RUN_WATCHED : rr;
  }
  return r->watch_head >= 0 ? RUN_WATCHED : RUN_DONE;
}

/* A run of `thread` under lim, its registers not set yet (run_thread
 * sets them). */
static void run_init(run *r, const sc_test *t, int thread, const sc_sem_limits *lim) {
  const sc_thread *th = &t->threads[thread];
  r->t = t;
  r->thread = thread;
  r->th = th;
  r->lim = lim;
  r->regs = sci_alloc_atomic(sizeof(int64_t) * (size_t)(th->nregs + 1));
  r->taint = sci_alloc_atomic(sizeof(uint64_t) * (size_t)(th->nregs + 1));
  r->backjumps = sci_alloc_atomic(sizeof(int) * (size_t)(th->ninstrs + 1));
}

/* ---- Every path of a thread ---------------------------------------------- */

typedef struct explorer {
  run r;
  const sc_value_sets *values;
  int64_t *given;
} explorer;

/* Keep the run so far as a trace; SC_ERR_LIMIT (r->err) past the limit. */
static sc_status keep_trace(run *r, sc_stuck stuck, int spin_from, int infix_from) {
  sc_thread_traces *o = r->out;
  if (o->ntraces >= r->lim->max_traces)
    return sci_fail(&r->err, SC_ERR_LIMIT, r->t->file, 0, 0,
                   "expected at most %d runs of thread %s (the trace limit)",
                   r->lim->max_traces, r->th->name);
  sci_grow(&o->traces, &o->cap, o->ntraces + 1, sizeof(sc_trace));
  sc_trace *tr = &o->traces[o->ntraces++];
  tr->nevents = r->nev;
  tr->events = sci_alloc(sizeof(sc_trace_event) * (size_t)(r->nev ? r->nev : 1));
  memcpy(tr->events, r->ev, sizeof(sc_trace_event) * (size_t)r->nev);
  tr->final_regs = sci_alloc_atomic(sizeof(int64_t) * (size_t)(r->th->nregs + 1));
  memcpy(tr->final_regs, r->regs, sizeof(int64_t) * (size_t)r->th->nregs);
  tr->stuck = stuck;
  tr->spin_from = spin_from;
  tr->infix_from = infix_from;
  tr->fault = r->fault;
  tr->fault_address = r->fault_address;
  return SC_OK;
}

/* Two cut runs that read and write the same values at the same places are
 * one for the values they may feed. */
static bool same_accesses(const sc_trace *a, const sc_trace_event *ev, int nev) {
  if (a->nevents != nev)
    return false;
  for (int i = 0; i < nev; i++)
    if (a->events[i].pc != ev[i].pc || a->events[i].kind != ev[i].kind ||
        a->events[i].loc != ev[i].loc || a->events[i].value != ev[i].value)
      return false;
  return true;
}

/* Keep a run cut short, up to the cut (see sc_thread_traces); count it
 * when the -unroll bound cut it (`by_bound`), not a repeated state. */
static sc_status keep_cut_run(run *r, bool by_bound) {
  sc_thread_traces *o = r->out;
  if (by_bound)
    o->cut_runs++;
  bool writes = false;
  for (int i = 0; i < r->nev && !writes; i++)
    writes = r->ev[i].kind == SC_EV_WRITE;
  if (!writes)
    return SC_OK; /* feeds nothing */
  for (int k = 0; k < o->ncut; k++)
    if (same_accesses(&o->cut[k], r->ev, r->nev))
      return SC_OK;
  if (o->ncut >= r->lim->max_traces)
    return sci_fail(&r->err, SC_ERR_LIMIT, r->t->file, 0, 0,
                   "expected at most %d runs of thread %s cut by the unroll "
                   "bound (the trace limit)", r->lim->max_traces, r->th->name);
  sci_grow(&o->cut, &o->cut_cap, o->ncut + 1, sizeof(sc_trace));
  sc_trace *tr = &o->cut[o->ncut++];
  memset(tr, 0, sizeof *tr);
  tr->nevents = r->nev;
  tr->events = sci_alloc(sizeof(sc_trace_event) * (size_t)(r->nev ? r->nev : 1));
  memcpy(tr->events, r->ev, sizeof(sc_trace_event) * (size_t)r->nev);
  return SC_OK;
}

static sc_status explore(explorer *x, int ngiven) {
  run *r = &x->r;
  r->given = x->given;
  r->ngiven = ngiven;
  run_result rr = run_thread(r);
  switch (rr) {
  case RUN_DONE:
  case RUN_FAULT: /* the thread stopped at the fault: a complete run */
    return keep_trace(r, SC_STUCK_NONE, 0, 0);
  case RUN_CUT:
  case RUN_REPEAT:
    return keep_cut_run(r, rr == RUN_CUT);
  case RUN_ERROR:
    return r->err->status;
  case RUN_WATCHED:
    return SC_OK; /* its cut was kept, and any recurrence it watched for */
  case RUN_NEED_VALUE:
    break;
  }
  int loc = r->need_loc;
  for (int i = 0; i < x->values->n[loc]; i++) {
    x->given[ngiven] = x->values->vals[loc][i];
    sc_status st = explore(x, ngiven + 1);
    if (st)
      return st;
  }
  return SC_OK;
}

/* ---- Loop heads and live registers ---------------------------------------- */

/* Where control may go after instruction pc: its successors, 1 or 2. */
static int successors(const sc_thread *th, int pc, int succ[2]) {
  const sc_instr *in = &th->code[pc];
  if (in->op == SC_OP_RET) {
    succ[0] = th->ninstrs;
    succ[1] = pc + 1;
    return in->guard < 0 ? 1 : 2;
  }
  bool branch = in->op == SC_OP_BRA || in->op == SC_OP_BEQ || in->op == SC_OP_BNE;
  if (!branch || in->target < 0) {
    succ[0] = pc + 1;
    return 1;
  }
  succ[0] = th->labels[in->target].pc;
  if (in->op == SC_OP_BRA && in->guard < 0)
    return 1; /* an unguarded bra always jumps */
  succ[1] = pc + 1;
  return 2;
}

/* The register an instruction surely sets (not under a guard, which may
 * leave it as it was), -1 if none. */
static int sure_def(const sc_instr *in) {
  if (in->guard >= 0 || in->dst.kind != SC_OPND_REG)
    return -1;
  switch (in->op) {
  case SC_OP_LD:
  case SC_OP_ATOM: /* a failing cas too: dst takes the old value */
  case SC_OP_MOV:
  case SC_OP_CVT:
  case SC_OP_ADD:
  case SC_OP_SUB:
  case SC_OP_AND:
  case SC_OP_OR:
  case SC_OP_XOR:
  case SC_OP_SETP:
  case SC_OP_MUL:
  case SC_OP_MAD:
  case SC_OP_SHL:
  case SC_OP_SHR:
  case SC_OP_MIN:
  case SC_OP_MAX:
  case SC_OP_NOT:
  case SC_OP_NEG:
  case SC_OP_SELP:
    return in->dst.index;
  default:
    return -1;
  }
}

static void add_register(uint64_t *set, sc_operand o) {
  if (o.kind == SC_OPND_REG)
    set[o.index / 64] |= (uint64_t)1 << (o.index % 64);
}

/* Add the registers an instruction may read to the bit set: its guard,
 * sources and address, whatever the opcode (more than it reads only cuts
 * less). */
static void add_uses(const sc_instr *in, uint64_t *set) {
  if (in->guard >= 0)
    add_register(set, (sc_operand){.kind = SC_OPND_REG, .index = in->guard});
  add_register(set, in->addr.base);
  for (int i = 0; i < in->nsrc && i < 3; i++)
    add_register(set, in->src[i]);
}

/* Number the loop heads, the pcs a backward jump goes to (r->head_of). */
static void number_heads(run *r) {
  const sc_thread *th = r->th;
  memset(r->head_of, 0xff, sizeof(int) * (size_t)(th->ninstrs + 1));
  r->nheads = 0;
  for (int pc = 0; pc < th->ninstrs; pc++) {
    int succ[2], nsucc = successors(th, pc, succ);
    for (int k = 0; k < nsucc; k++)
      if (succ[k] <= pc && r->head_of[succ[k]] < 0)
        r->head_of[succ[k]] = r->nheads++;
  }
}

/* The registers live at each loop head (r->live_at_head): those that some
 * path from there reads before it writes them; the end of the code reads
 * every register (the final state).  The least fixpoint over every pc, by
 * backward rounds (about one per loop nesting level), the deadline looked
 * at as it goes. */
static run_result live_at_heads(run *r) {
  const sc_thread *th = r->th;
  size_t w = (size_t)r->words, cells = (size_t)(th->ninstrs + 1) * w;
  uint64_t *live = sci_alloc_atomic(sizeof(uint64_t) * (cells + 1));
  uint64_t *set = sci_alloc_atomic(sizeof(uint64_t) * (w + 1));
  memset(live, 0, sizeof(uint64_t) * cells);
  for (int i = 0; i < th->nregs; i++)
    add_register(&live[(size_t)th->ninstrs * w],
                 (sc_operand){.kind = SC_OPND_REG, .index = i});
  for (bool grew = true; grew;) {
    grew = false;
    for (int pc = th->ninstrs - 1; pc >= 0; pc--) {
      if (past_deadline(r))
        return out_of_time(r);
      const sc_instr *in = &th->code[pc];
      int succ[2], nsucc = successors(th, pc, succ), def = sure_def(in);
      memset(set, 0, sizeof(uint64_t) * w);
      for (int k = 0; k < nsucc; k++)
        for (size_t j = 0; j < w; j++)
          set[j] |= live[(size_t)succ[k] * w + j];
      if (def >= 0)
        set[def / 64] &= ~((uint64_t)1 << (def % 64));
      add_uses(in, set);
      for (size_t j = 0; j < w; j++)
        if (set[j] & ~live[(size_t)pc * w + j]) {
          live[(size_t)pc * w + j] |= set[j];
          grew = true;
        }
    }
  }
  r->live_at_head = sci_alloc_atomic(sizeof(uint64_t) * (size_t)r->nheads * w + 1);
  for (int pc = 0; pc < th->ninstrs; pc++)
    if (r->head_of[pc] >= 0)
      memcpy(&r->live_at_head[(size_t)r->head_of[pc] * w], &live[(size_t)pc * w],
             sizeof(uint64_t) * w);
  return RUN_DONE;
}

/* What a run needs to find repeated states: the loop heads, the registers
 * live there, room for the state at each arrival. */
static run_result prepare_repeats(run *r) {
  const sc_thread *th = r->th;
  r->head_of = sci_alloc_atomic(sizeof(int) * (size_t)(th->ninstrs + 1));
  number_heads(r);
  if (r->nheads == 0)
    return RUN_DONE; /* no loop */
  r->words = (th->nregs + 63) / 64;
  size_t cells = (size_t)r->nheads * (size_t)(th->nregs + 1);
  r->head_nev = sci_alloc_atomic(sizeof(int) * (size_t)r->nheads);
  r->head_regs = sci_alloc_atomic(sizeof(int64_t) * cells);
  r->head_taint = sci_alloc_atomic(sizeof(uint64_t) * cells);
  return live_at_heads(r);
}

/* Why a liveness run may take the repeated-state cut (repeats_state) at
 * an iteration R in the prefix of a witness's run (loops_unnested's
 * first case).  Let X be a witness whose run rho of this thread goes on
 * past R, R's events being prefix events: reads and fences (R writes
 * nothing and meets no barrier).  rho without R, rho', is a run the
 * search meets anyway (the cut's own argument, repeats_state): what rho
 * does after R it does from R's start, every register read afterwards
 * before being written being live at R's head and so as it was; so rho'
 * ends as rho does, finished, at the same barrier, or spinning with the
 * same suffix, whose registers at its start and end are rho's
 * (spin_iteration holds again), kept stuck the same way (jump keeps the
 * stuck copy before it cuts).  So X' = X without R's events is a
 * candidate of the cut search (by induction, every repeated iteration
 * gone): the model allows it (the cut is taken only under a model whose
 * checks allow an execution with fewer reads and fences,
 * sim/repeat_gate.c); it is fair (liveness.c's clauses are over rf and co
 * pairs whose reads are suffix reads, or prefix reads that must not read
 * suffix writes: dropping prefix reads drops clauses only); its stuck
 * threads are X's, and a thread that started in X and not in X' (rho was
 * R, then its end) asks less of a progress model, never more.
 * tests/unit/check_sem.c counts the runs kept; tests/sh/kernel_cli.sh's
 * wait.ptx under -norace is a FAIL only if the stuck copy is kept before
 * the cut.  (Before loops_unnested, threads of simple loops took the cut
 * only when no iteration wrote, and were explored again uncut otherwise:
 * xf-barrier-3.1.3's counted sum loop made its spins unroll in full.) */

/* Whether thread th's loops are unnested: the regions [head, last
 * branch] of the backward jumps to different heads pairwise disjoint, a
 * head having any number of jumps back (ttaslock's `while (1) { while
 * (load(l)) {} if (!exchange(l, 1)) return; }`, the spin and the failed
 * exchange jumping to one head).  Then, as for simple loops, an iteration
 * of head h (the path between two arrivals at h) stays in h's region and
 * meets no other head, and a run that leaves the region never arrives at
 * h again (a jump back to h from past it would widen the region; one to
 * an earlier head h2 would make h2's region hold h's).
 *
 * A liveness run of such a thread takes the repeated-state cut too, the
 * loops writing or not (no fall-back to the uncut search), if the cut
 * watches the iteration it cuts as a possible infix (watch_as_infix):
 * then no witness is lost.  Let X be a witness of the uncut search whose
 * run rho of this thread goes on past an iteration R that a backward jump
 * to h closes, R repeating a state (repeats_state: no write, no barrier,
 * the registers live at h as at R's start).  rho ends finished, at a
 * barrier, or spinning with a suffix S, the last m iterations of one head
 * h', m < ARRIVALS_KEPT, and either no infix (S is one iteration that
 * writes nothing) or an infix I, the iteration of h' just before S, which
 * the last iteration of S, L, repeats step for step and value for value
 * (recurring_iterations), S writing.  R is not L (no jump closes L before
 * rho ends; the stuck copy at R's own jump is kept before the cut).  If
 * h' is not h, R is in no iteration of h' (unnested), so, as when rho
 * does not spin, R is in the prefix.  Three cases:
 *   - R in the prefix: the argument above loops_unnested.
 *   - R in S, not L: rho without R, rho', is met by the cut search (the
 *     same argument: what rho does after R it does from R's start, the
 *     registers read being live at h), and at L's jump it repeats I with
 *     m - 1 iterations: L, I, the registers where I ended (before R) and
 *     at L's start and end are rho's (so L is no spin there either, and
 *     keep_if_spinning keeps the recurrence), and S without R still
 *     writes (R does not) and meets no barrier.  X without R's events is
 *     then a candidate of the
 *     cut search whose parts (liveness.c's parts_of) are X's but for R's
 *     reads and fences gone from the suffix: the infix, its twins in L and
 *     the infix and suffix writes are the same, so every fairness clause
 *     is one of X's, and the clauses of R's reads are dropped; the model
 *     allows it (sim/repeat_gate.c, fewer reads and fences), the other
 *     threads are X's.
 *   - R is I: L repeats R, so L writes nothing, S writes before L, and
 *     L is no spin (keep_if_spinning keeps a spin as one, never as a
 *     recurrence: then rho's stuck copy is that spin, and R is in its
 *     prefix).  Dropping R loses the infix (rho' may have no iteration
 *     before S that L repeats), so the cut search keeps such runs another
 *     way: at R's cut it goes on from R's end, uncut, for at most
 *     ARRIVALS_KEPT - 1 more iterations of h, keeping only the stuck
 *     copies whose infix is R and whose last iteration is no spin
 *     (watched_jump); rho, with the repeats before R taken out by the
 *     first case, is among them, its infix and suffix unchanged, so X is
 *     a candidate of the cut search as it is.
 * By induction on the repeats in rho (the iterations the cut search
 * cuts), every witness has one in the cut search.  Conversely every run the cut search keeps is a run the uncut
 * search keeps, stuck the same way (the watched copies too), and the
 * values they feed are the same (a repeat writes nothing, what follows it
 * the shorter run writes): the verdicts are the same.
 * tests/unit/check_sem.c counts the runs kept (ttaslock's loop, one run
 * kept by the watch alone); tests/data/kernel-cli/infix-spin.ptx FAILs at
 * -unroll 1 only through a recurrence whose infix is a cut spin turn
 * (PASS without the watch). */
static bool loops_unnested(const sc_thread *th) {
  int *last = sci_alloc_atomic(sizeof(int) * (size_t)(th->ninstrs + 1));
  memset(last, 0xff, sizeof(int) * (size_t)(th->ninstrs + 1)); /* -1: no head */
  for (int pc = 0; pc < th->ninstrs; pc++) {
    int succ[2], nsucc = successors(th, pc, succ);
    for (int k = 0; k < nsucc; k++)
      if (succ[k] <= pc)
        last[succ[k]] = pc; /* the last jump back to a head, pcs rising */
  }
  int region_end = -1;
  for (int pc = 0; pc < th->ninstrs; pc++) {
    if (last[pc] < 0)
      continue;
    if (pc <= region_end)
      return false; /* in an earlier head's region: nested or overlapping */
    region_end = last[pc];
  }
  return true;
}

/* What bounds a search: the limits, and its deadline (0: none) with the
 * -timeout it comes from. */
typedef struct bounds {
  sc_sem_limits lim;
  double deadline, timeout;
} bounds;

static sc_status explore_thread(const sc_test *t, int thread, const bounds *b,
                                const sc_value_sets *values,
                                sc_thread_traces *out, sc_error **err) {
  explorer x;
  memset(&x, 0, sizeof x);
  const sc_thread *th = &t->threads[thread];
  const sc_sem_limits *lim = &b->lim;
  run_init(&x.r, t, thread, lim);
  x.r.deadline = b->deadline;
  x.r.timeout = b->timeout;
  if (lim->liveness) {
    size_t cells = (size_t)(th->ninstrs + 1) * (size_t)(th->nregs + 1);
    x.r.arrival_nev = sci_alloc_atomic(sizeof(int) * (size_t)(th->ninstrs + 1));
    x.r.arrival_step = sci_alloc_atomic(sizeof(int) * (size_t)(th->ninstrs + 1));
    size_t kept = (size_t)(th->ninstrs + 1) * ARRIVALS_KEPT;
    x.r.hist_n = sci_alloc_atomic(sizeof(int) * (size_t)(th->ninstrs + 1));
    x.r.hist_nev = sci_alloc_atomic(sizeof(int) * kept);
    x.r.hist_step = sci_alloc_atomic(sizeof(int) * kept);
    x.r.hist_regs = sci_alloc_atomic(sizeof(int64_t) * kept * (size_t)(th->nregs + 1));
    x.r.live = sci_alloc_atomic(sizeof(bool) * (size_t)(th->nregs + 1));
    x.r.written = sci_alloc_atomic(sizeof(bool) * (size_t)(th->nregs + 1));
    x.r.arrival_regs = sci_alloc_atomic(sizeof(int64_t) * cells);
  }
  x.r.out = out;
  x.values = values;
  x.given = sci_alloc_atomic(sizeof(int64_t) * SC_TRACE_MAX);
  bool repeats = lim->repeat_cut && (!lim->liveness || loops_unnested(th));
  x.r.infix_watch = repeats && lim->liveness;
  sc_status st = repeats && prepare_repeats(&x.r) == RUN_ERROR
                     ? x.r.err->status
                     : explore(&x, 0);
  if (st && err)
    *err = x.r.err;
  return st;
}

/* The largest execution the traces make, one trace per thread, after the
 * initial writes, must fit the event limit: past it the relations of a
 * model (n*n bits each) are what would run out. */
static sc_status check_events(const sc_test *t, const sc_thread_traces *all,
                              int max_events, sc_error **err) {
  long n = 0;
  for (int l = 0; l < t->nlocs; l++)
    n += t->locs[l].alias_of < 0; /* one initial write per memory cell */
  for (int th = 0; th < t->nthreads; th++) {
    int most = 0;
    for (int i = 0; i < all[th].ntraces; i++)
      if (all[th].traces[i].nevents > most)
        most = all[th].traces[i].nevents;
    n += most;
  }
  if (n > max_events)
    return sci_fail(err, SC_ERR_LIMIT, t->file, 0, 0,
                   "expected executions of at most %d events (the -max-events "
                   "limit), found one of %ld", max_events, n);
  return SC_OK;
}

sc_status sci_sem_traces_timed(const sc_test *t, const sc_sem_limits *limits,
                              double start, double timeout,
                              const sc_value_sets *values,
                              sc_thread_traces **out, sc_error **err) {
  bounds b = {.lim = {.unroll = DEFAULT_UNROLL,
                      .max_traces = DEFAULT_MAX_TRACES,
                      .liveness = false},
              .deadline = timeout > 0 ? start + timeout : 0,
              .timeout = timeout};
  if (limits) {
    b.lim.liveness = limits->liveness;
    b.lim.repeat_cut = limits->repeat_cut;
    b.lim.repeat_at_once = limits->repeat_at_once;
    b.lim.repeat_twins = limits->repeat_twins;
    b.lim.race_free = limits->race_free;
    b.lim.note_twinless = limits->note_twinless;
    b.lim.collapsed = limits->collapsed;
  }
  if (limits && limits->unroll >= 0)
    b.lim.unroll = limits->unroll;
  if (limits && limits->max_traces > 0)
    b.lim.max_traces = limits->max_traces;
  b.lim.max_run_events = SC_TRACE_MAX;
  if (limits && limits->max_run_events > 0 && limits->max_run_events < SC_TRACE_MAX)
    b.lim.max_run_events = limits->max_run_events;

  sc_thread_traces *all =
      sci_alloc(sizeof(sc_thread_traces) * (size_t)(t->nthreads + 1));
  for (int th = 0; th < t->nthreads; th++) {
    sc_status st = explore_thread(t, th, &b, values, &all[th], err);
    if (st)
      return st;
  }
  sc_status st = check_events(
      t, all, t->max_events > 0 ? t->max_events : DEFAULT_MAX_EVENTS, err);
  if (st)
    return st;
  *out = all;
  return SC_OK;
}

sc_status sci_sem_traces(const sc_test *t, const sc_sem_limits *limits,
                        const sc_value_sets *values, sc_thread_traces **out,
                        sc_error **err) {
  return sci_sem_traces_timed(t, limits, 0, 0, values, out, err);
}

sc_status sci_sem_replay(const sc_test *t, int thread, int unroll, const int64_t *given,
                         int ngiven, sc_trace *out, sc_error **err) {
  sc_sem_limits lim = {.unroll = unroll, .max_traces = 1, .max_run_events = SC_TRACE_MAX};
  sc_thread_traces one;
  memset(&one, 0, sizeof one);
  run *r = sci_alloc(sizeof *r); /* its events: too large for the stack */
  run_init(r, t, thread, &lim);
  r->out = &one;
  r->given = given;
  r->ngiven = ngiven;
  run_result rr = run_thread(r);
  if (rr == RUN_ERROR) {
    if (err)
      *err = r->err;
    return r->err->status;
  }
  if ((rr != RUN_DONE && rr != RUN_FAULT) || r->nreads != ngiven)
    return sci_fail(err, SC_ERR_USAGE, t->file, 0, 0,
                   "expected thread %s to run to its end on the %d values given, "
                   "found it %s", t->threads[thread].name, ngiven,
                   rr == RUN_NEED_VALUE ? "reads more" : r->nreads != ngiven
                       ? "reads fewer" : "cut by the unroll bound");
  sc_status st = keep_trace(r, SC_STUCK_NONE, 0, 0);
  if (st) {
    if (err)
      *err = r->err;
    return st;
  }
  *out = one.traces[0];
  return SC_OK;
}
