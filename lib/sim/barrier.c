/* barrier.c: which barriers synchronise (syncbar).  The barriers of one
 * CTA whose operands agree form a group: bar.cta.sync a names group a,
 * bar.cta.sync a, b group (a, b), and a third operand is the quorum, how
 * many of the group must arrive before any may leave (by default, all of
 * it; Dat3M's instance id, resource id and quorum).  bar.sync waits for
 * its quorum; bar.arrive does not wait.  A hardware barrier is reused
 * phase by phase (PTX ISA, "bar"): a thread's k-th arrival at a group
 * meets the other threads' k-th arrivals, so a barrier passed twice (two
 * __syncthreads(), a barrier in a loop) makes a group per phase.
 *
 * Every order in which the barriers may arrive is tried: each thread's
 * barriers arrive in program order, and a thread leaves a barrier as soon
 * as its quorum has arrived, before arriving at its next one.  Then b1
 * syncbar b2 when b2 waits (bar.sync) and b1 arrived no later than the
 * arrival that let b2 leave; b syncbar b for a waiting b, as in Dat3M.  An
 * order in which some thread would wait for ever (a quorum never reached,
 * barriers met in crossed orders) is no execution, except in a liveness
 * search, where a run that ends stuck at a bar.sync (sem.h's
 * SC_STUCK_BARRIER) is one that waits for ever: its last barrier must then
 * never be released, and every other barrier must be. */
#include "util/error.h"
#include "sim/execution.h"
#include "sim/traces.h"
#include "util/gcmem.h"

#include <string.h>

typedef struct barrier {
  int event;
  int thread;
  int group;   /* same operands and phase, same number */
  int quorum;  /* arrivals the barrier waits for; 0 for bar.arrive */
} barrier;

typedef struct schedule {
  const sc_execution *x;
  barrier *bars;
  int nbars;
  int *order;   /* barriers in order of arrival, as far as placed */
  int *placed;  /* per thread: how many of its barriers are placed */
  sc_rel ***found;
  int *nfound, capfound;
  long tried, limit;
  const sim_clock *clock; /* the deadline, looked at every 256 orders */
  bool late;              /* the deadline passed */
} schedule;

/* ---- Groups ------------------------------------------------------------- */

static const sc_trace_event *trace_event(const sc_execution *x, int e) {
  int th = x->events[e].thread;
  return &x->traces[th]->events[e - x->thread_first[th]];
}

/* Two barriers are in one group: same CTA, same operands but the quorum. */
static bool same_group(const sc_execution *x, int a, int b) {
  const sc_test *t = x->test;
  int ca = t->threads[x->events[a].thread].place[SC_LEVEL_CTA];
  int cb = t->threads[x->events[b].thread].place[SC_LEVEL_CTA];
  const sc_trace_event *ta = trace_event(x, a), *tb = trace_event(x, b);
  int na = ta->nbar_ops < 2 ? ta->nbar_ops : 2, nb = tb->nbar_ops < 2 ? tb->nbar_ops : 2;
  if (ca != cb || na != nb)
    return false;
  for (int i = 0; i < na; i++)
    if (ta->bar_ops[i] != tb->bar_ops[i])
      return false;
  return true;
}

/* A liveness search's combinations each have a stuck run (sem.h). */
static bool liveness_run(const sc_execution *x) {
  for (int th = 0; th < x->test->nthreads; th++)
    if (x->traces[th]->stuck != SC_STUCK_NONE)
      return true;
  return false;
}

/* Whether the operands that name a group (the first two) are equal. */
static bool same_ids(const int64_t *a, int na, const int64_t *b, int nb) {
  na = na < 2 ? na : 2;
  nb = nb < 2 ? nb : 2;
  if (na != nb)
    return false;
  for (int k = 0; k < na; k++)
    if (a[k] != b[k])
      return false;
  return true;
}

/* Whether the bar at `pc` of thread th names te's group: by the operands
 * its run gave it where it reached it, else (never reached) when its
 * operands are immediates naming the group; a register's value at a point
 * never reached is unknown, and Dat3M's solver may pick one that differs. */
static bool bar_names_group(const sc_execution *x, int th, int pc,
                            const sc_trace_event *te) {
  const sc_instr *in = &x->test->threads[th].code[pc];
  const sc_trace *tr = x->traces[th];
  bool reached = false;
  for (int i = 0; i < tr->nevents; i++)
    if (tr->events[i].pc == pc && tr->events[i].kind == SC_EV_BARRIER) {
      if (same_ids(tr->events[i].bar_ops, tr->events[i].nbar_ops, te->bar_ops,
                   te->nbar_ops))
        return true;
      reached = true;
    }
  if (reached)
    return false;
  int64_t ops[2];
  int n = in->nsrc < 2 ? in->nsrc : 2;
  for (int k = 0; k < n; k++) {
    if (in->src[k].kind != SC_OPND_IMM)
      return false;
    ops[k] = in->src[k].imm;
  }
  return same_ids(ops, n, te->bar_ops, te->nbar_ops);
}

/* The threads of the barrier's CTA whose code names its group. */
static int threads_naming(const sc_execution *x, int e) {
  const sc_test *t = x->test;
  const sc_trace_event *te = trace_event(x, e);
  int cta = t->threads[x->events[e].thread].place[SC_LEVEL_CTA], n = 0;
  for (int th = 0; th < t->nthreads; th++) {
    if (t->threads[th].place[SC_LEVEL_CTA] != cta)
      continue;
    bool names = false;
    for (int pc = 0; pc < t->threads[th].ninstrs && !names; pc++)
      names = t->threads[th].code[pc].op == SC_OP_BAR && bar_names_group(x, th, pc, te);
    n += names;
  }
  return n;
}

/* How many arrivals barrier i of bars[0..n-1] waits for: none for
 * bar.arrive, its third operand when given (more than n is never
 * reached), else its whole group: the barriers of the group the runs
 * reach, and in a liveness search, as in Dat3M, also one per thread of the
 * CTA whose code names the group, reached or not (a thread stuck before
 * its barrier, or gone past it by another path, leaves the others
 * waiting). */
static int quorum(const sc_execution *x, const barrier *bars, int n, int i) {
  const sc_trace_event *te = trace_event(x, bars[i].event);
  if (te->instr->barmode == SC_BAR_ARRIVE)
    return 0;
  if (te->nbar_ops == 3)
    return te->bar_ops[2] < 1 ? 1 : te->bar_ops[2] > n ? n + 1 : (int)te->bar_ops[2];
  int size = 0;
  for (int j = 0; j < n; j++)
    size += bars[j].group == bars[i].group;
  if (liveness_run(x)) {
    int named = threads_naming(x, bars[i].event);
    if (named > size)
      size = named;
  }
  return size;
}

/* The phase of barrier i of bars[0..i]: how many barriers of its thread
 * with the same operands come before it (each thread's in program order). */
static int phase_of(const sc_execution *x, const barrier *bars, int i) {
  int k = 0;
  for (int j = 0; j < i; j++)
    k += bars[j].thread == bars[i].thread && same_group(x, bars[j].event, bars[i].event);
  return k;
}

/* The barriers of x in event order (so each thread's in program order),
 * with their groups (operands and phase) and quorums. */
static int collect(const sc_execution *x, barrier *bars) {
  int n = 0;
  int *phase = sci_alloc_atomic(sizeof(int) * (size_t)(x->nevents + 1));
  for (int e = 0; e < x->nevents; e++) {
    const sc_event *ev = &x->events[e];
    if (ev->kind != SC_EV_BARRIER)
      continue;
    barrier *b = &bars[n];
    b->event = e;
    b->thread = ev->thread;
    b->group = n;
    phase[n] = phase_of(x, bars, n);
    for (int i = 0; i < n; i++)
      if (phase[i] == phase[n] && same_group(x, bars[i].event, e)) {
        b->group = bars[i].group;
        break;
      }
    n++;
  }
  for (int i = 0; i < n; i++)
    bars[i].quorum = quorum(x, bars, n, i);
  return n;
}

/* ---- One order of arrival ---------------------------------------------------- */

/* The position in s->order at which barrier i may be left: its own arrival,
 * or the arrival that completes its quorum; -1 when that never comes. */
static int release(const schedule *s, int i, const int *pos) {
  const barrier *b = &s->bars[i];
  int seen = 0;
  for (int p = 0; p < s->nbars && seen < b->quorum; p++)
    if (s->bars[s->order[p]].group == b->group && ++seen == b->quorum)
      return p > pos[i] ? p : pos[i];
  return b->quorum == 0 ? pos[i] : -1;
}

/* Whether barrier i is where its thread's run ends stuck, waiting. */
static bool stuck_at(const schedule *s, int i) {
  const sc_execution *x = s->x;
  int th = s->bars[i].thread;
  const sc_trace *tr = x->traces[th];
  return tr->stuck == SC_STUCK_BARRIER &&
         s->bars[i].event == x->thread_first[th] + tr->nevents - 1;
}

/* The syncbar of the complete order in s->order, or NULL when in it some
 * thread waits for ever (but where its run is stuck) or arrives at a
 * barrier before leaving the last. */
static sc_rel *syncbar_of(const schedule *s) {
  int n = s->nbars;
  int *pos = sci_alloc_atomic(sizeof(int) * (size_t)(n + 1));
  int *rel = sci_alloc_atomic(sizeof(int) * (size_t)(n + 1));
  for (int p = 0; p < n; p++)
    pos[s->order[p]] = p;
  for (int i = 0; i < n; i++)
    if (((rel[i] = release(s, i, pos)) < 0) != stuck_at(s, i))
      return NULL;
  for (int i = 0; i + 1 < n; i++)
    if (s->bars[i].thread == s->bars[i + 1].thread && rel[i] >= pos[i + 1])
      return NULL;
  sc_rel *r = sci_rel_new(s->x->nevents);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      if (s->bars[i].group == s->bars[j].group && s->bars[j].quorum > 0 &&
          pos[i] <= rel[j])
        sc_rel_add(r, s->bars[i].event, s->bars[j].event);
  return r;
}

static void keep(schedule *s, sc_rel *r) {
  for (int i = 0; i < *s->nfound; i++)
    if (sci_rel_equal((*s->found)[i], r))
      return;
  sci_grow(s->found, &s->capfound, *s->nfound + 1, sizeof(sc_rel *));
  (*s->found)[(*s->nfound)++] = r;
}

/* The next barrier of a thread: the first of its barriers not placed. */
static int next_of(const schedule *s, int thread) {
  int k = 0;
  for (int i = 0; i < s->nbars; i++)
    if (s->bars[i].thread == thread && k++ == s->placed[thread])
      return i;
  return -1;
}

/* Place the barrier arriving at position p, each thread's next in turn. */
static bool interleave(schedule *s, int p) {
  if (p == s->nbars) {
    if (++s->tried > s->limit)
      return false;
    if ((s->tried & 255) == 0 && s->clock && sci_sim_clock_expired(s->clock)) {
      s->late = true;
      return false;
    }
    sc_rel *r = syncbar_of(s);
    if (r)
      keep(s, r);
    return true;
  }
  for (int th = 0; th < s->x->test->nthreads; th++) {
    int i = next_of(s, th);
    if (i < 0)
      continue;
    s->order[p] = i;
    s->placed[th]++;
    bool ok = interleave(s, p + 1);
    s->placed[th]--;
    if (!ok)
      return false;
  }
  return true;
}

/* ---- Each CTA on its own ------------------------------------------------- */

/* Barriers of different CTAs never share a group, so whether an order of
 * arrival leaves a thread waiting, and the syncbar it makes, are those of
 * each CTA's barriers in the order's restriction to them; and any order
 * of each CTA's barriers is the restriction of a whole order (one CTA's
 * after another's).  So the syncbars of the whole are the unions of one
 * syncbar of each CTA: the orders of CTAs of k1, k2 ... barriers are
 * tried as k1! k2! ... orders at most, not (k1 + k2 + ...)!, which a
 * grid barrier of three CTAs (15 barriers) could not be. */

static int cta_of(const sc_execution *x, const barrier *b) {
  return x->test->threads[b->thread].place[SC_LEVEL_CTA];
}

/* Move the barriers of the CTA of all[from] to the front of the
 * remaining ones (stable), returning how many they are. */
static int take_cta(const sc_execution *x, barrier *all, int from, int n,
                    barrier *scratch) {
  int cta = cta_of(x, &all[from]), k = 0, rest = 0;
  for (int i = from; i < n; i++)
    if (cta_of(x, &all[i]) == cta)
      all[from + k++] = all[i];
    else
      scratch[rest++] = all[i];
  memcpy(&all[from + k], scratch, sizeof(barrier) * (size_t)rest);
  return k;
}

/* Every order of arrival of s->bars (s->nbars of them), the distinct
 * syncbars kept in *out, *n; false past the limit or the deadline. */
static bool try_orders(schedule *s, sc_rel ***out, int *n) {
  memset(s->placed, 0, sizeof(int) * (size_t)(s->x->test->nthreads + 1));
  *out = NULL;
  *n = 0;
  s->found = out;
  s->nfound = n;
  s->capfound = 0;
  return interleave(s, 0);
}

/* The unions of one syncbar per CTA (per[c][0..nper[c]-1]), into *out. */
static bool combine(schedule *s, sc_rel ***per, const int *nper, int nctas,
                    sc_rel ***out, int *n) {
  int *pick = sci_alloc_atomic(sizeof(int) * (size_t)(nctas + 1));
  memset(pick, 0, sizeof(int) * (size_t)(nctas + 1));
  int cap = 0;
  for (;;) {
    if (++s->tried > s->limit)
      return false;
    if ((s->tried & 255) == 0 && s->clock && sci_sim_clock_expired(s->clock)) {
      s->late = true;
      return false;
    }
    sc_rel *r = sci_rel_new(s->x->nevents);
    for (int c = 0; c < nctas; c++)
      sci_rel_union(r, r, per[c][pick[c]]);
    sci_grow(out, &cap, *n + 1, sizeof(sc_rel *));
    (*out)[(*n)++] = r;
    int c = 0;
    while (c < nctas && ++pick[c] == nper[c])
      pick[c++] = 0;
    if (c == nctas)
      return true;
  }
}

sc_status sci_barrier_syncs(const sc_execution *x, const sim_clock *clock,
                           long limit, sc_rel ***out, int *n, sc_error **err) {
  schedule s;
  memset(&s, 0, sizeof s);
  s.x = x;
  barrier *all = sci_alloc_atomic(sizeof(barrier) * (size_t)(x->nevents + 1));
  barrier *scratch = sci_alloc_atomic(sizeof(barrier) * (size_t)(x->nevents + 1));
  int nall = collect(x, all);
  s.order = sci_alloc_atomic(sizeof(int) * (size_t)(nall + 1));
  s.placed = sci_alloc_atomic(sizeof(int) * (size_t)(x->test->nthreads + 1));
  s.limit = limit;
  s.clock = clock;
  *out = NULL;
  *n = 0;
  sc_rel ***per = sci_alloc(sizeof(sc_rel **) * (size_t)(nall + 1));
  int *nper = sci_alloc_atomic(sizeof(int) * (size_t)(nall + 1));
  int nctas = 0;
  bool ok = true, none = false;
  for (int from = 0; from < nall && ok && !none; nctas++) {
    int k = take_cta(x, all, from, nall, scratch);
    s.bars = &all[from];
    s.nbars = k;
    ok = try_orders(&s, &per[nctas], &nper[nctas]);
    none = ok && nper[nctas] == 0; /* some thread waits in every order */
    from += k;
  }
  if (ok && !none) {
    if (nctas == 0) {
      s.bars = all;
      s.nbars = 0;
      ok = try_orders(&s, out, n); /* no barrier: the one empty order */
    } else if (nctas == 1) {
      *out = per[0];
      *n = nper[0];
    } else {
      ok = combine(&s, per, nper, nctas, out, n);
    }
  }
  if (!ok && s.late)
    return sci_sim_clock_timeout(clock, err);
  if (s.tried > limit)
    return sci_fail(err, SC_ERR_LIMIT, x->test->file, 0, 0,
                   "expected at most %ld orders of arrival at barriers (the "
                   "-max-executions limit)", limit);
  return SC_OK;
}
