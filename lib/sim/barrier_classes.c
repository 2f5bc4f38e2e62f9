/* barrier_classes.c: the combinations of runs whose barriers deadlock,
 * skipped before their execution is built.  sci_barrier_syncs (barrier.c)
 * reads of a run only which of its events are barriers, their
 * instructions and operands, and how the run ends (finished, spinning,
 * stuck at a barrier): two combinations whose runs agree on these, thread
 * by thread, have the same barrier synchronisations.  Each thread's runs
 * fall into a few classes of that agreement (a spin's other exit or
 * another value read changes none), and a choice of one class per thread
 * is learnt once: when a combination of it is found to have no
 * synchronisation at all (the barriers deadlock in every order of
 * arrival, as when one thread of a CTA spins for ever while another
 * passes the CTA's barrier), every later combination of the same classes
 * has none either.  Such a combination gives the engine nothing (the
 * simulator hands the engine one candidate per synchronisation): no
 * state, flag, witness or candidate counted, so skipping it before its
 * execution is built changes no output.  The one other thing a
 * combination may do before its barriers are looked at is fail with too
 * many writes to one location (search.c); the table is only made where no
 * combination can have that many.
 *
 * xf-barrier-2.1.2's liveness search (ptx-v7.5, -unroll 3) fed 450000
 * combinations with a stuck run through execution, rf choices, fairness
 * and preparation to find that 446000 of them deadlock at the barriers. */
#include "sim/barrier_classes.h"

#include "rel/order.h"
#include "util/gcmem.h"

#include <stdint.h>
#include <string.h>

/* The table's most entries (bytes), and a thread's most classes: beyond,
 * no table (the classes are found by comparing each run with one of each
 * class found so far). */
#define MAX_CLASS_CHOICES (1L << 22)
#define MAX_CLASSES 256

enum { UNKNOWN = 0, SYNCS, DEADLOCK };

struct sim_barrier_classes {
  const sc_thread_traces *all;
  int n;
  int **class_of; /* per thread, per trace: its class */
  long *stride;   /* per thread: the class's weight in the table's index */
  unsigned char *known; /* per choice of classes: UNKNOWN, SYNCS, DEADLOCK */
};

bool sci_barrier_same_runs(const sc_trace *a, const sc_trace *b) {
  if (a == b)
    return true;
  if (a->nevents != b->nevents || a->stuck != b->stuck)
    return false;
  for (int i = 0; i < a->nevents; i++) {
    const sc_trace_event *x = &a->events[i], *y = &b->events[i];
    if ((x->kind == SC_EV_BARRIER) != (y->kind == SC_EV_BARRIER))
      return false;
    if (x->kind == SC_EV_BARRIER &&
        (x->pc != y->pc || x->nbar_ops != y->nbar_ops ||
         memcmp(x->bar_ops, y->bar_ops, sizeof x->bar_ops) != 0))
      return false;
  }
  return true;
}

/* Each trace's class in class_of (the index of its first trace in the
 * thread's order); the number of classes, -1 past MAX_CLASSES. */
static int classes_of(const sc_thread_traces *tt, int *class_of, int *first) {
  int nclasses = 0;
  for (int i = 0; i < tt->ntraces; i++) {
    int c = 0;
    while (c < nclasses && !sci_barrier_same_runs(&tt->traces[first[c]], &tt->traces[i]))
      c++;
    if (c == nclasses && nclasses == MAX_CLASSES)
      return -1;
    if (c == nclasses)
      first[nclasses++] = i;
    class_of[i] = c;
  }
  return nclasses;
}

/* Whether some run of `all` meets a barrier: without one no barrier can
 * deadlock, and the classes would be the runs' lengths, for nothing. */
static bool any_barrier(const sc_thread_traces *all, int n) {
  for (int th = 0; th < n; th++)
    for (int i = 0; i < all[th].ntraces; i++)
      for (int e = 0; e < all[th].traces[i].nevents; e++)
        if (all[th].traces[i].events[e].kind == SC_EV_BARRIER)
          return true;
  return false;
}

/* Whether some combination of `all` may write one location more often
 * than SC_ORDER_MAX_ITEMS times (each thread's most writes there, summed). */
static bool may_write_too_often(const sc_test *t, const sc_thread_traces *all) {
  int *most = sci_alloc_atomic(sizeof(int) * (size_t)(t->nlocs + 1));
  int *sum = sci_alloc_atomic(sizeof(int) * (size_t)(t->nlocs + 1));
  int *here = sci_alloc_atomic(sizeof(int) * (size_t)(t->nlocs + 1));
  memset(sum, 0, sizeof(int) * (size_t)(t->nlocs + 1));
  for (int th = 0; th < t->nthreads; th++) {
    memset(most, 0, sizeof(int) * (size_t)(t->nlocs + 1));
    for (int i = 0; i < all[th].ntraces; i++) {
      const sc_trace *tr = &all[th].traces[i];
      memset(here, 0, sizeof(int) * (size_t)(t->nlocs + 1));
      for (int e = 0; e < tr->nevents; e++) {
        int l = tr->events[e].loc;
        if (tr->events[e].kind == SC_EV_WRITE && ++here[l] > most[l])
          most[l] = here[l];
      }
    }
    for (int l = 0; l < t->nlocs; l++)
      if ((sum[l] += most[l]) > SC_ORDER_MAX_ITEMS)
        return true;
  }
  return false;
}

sim_barrier_classes *sci_barrier_classes(const sc_test *t, const sc_thread_traces *all) {
  int n = t->nthreads;
  if (!any_barrier(all, n) || may_write_too_often(t, all))
    return NULL;
  sim_barrier_classes *bc = sci_alloc(sizeof *bc);
  bc->all = all;
  bc->n = n;
  bc->class_of = sci_alloc(sizeof(int *) * (size_t)(n + 1));
  bc->stride = sci_alloc_atomic(sizeof(long) * (size_t)(n + 1));
  long size = 1;
  for (int th = 0; th < n; th++) {
    size_t bytes = sizeof(int) * (size_t)(all[th].ntraces + 1);
    bc->class_of[th] = sci_alloc_atomic(bytes);
    int nclasses = classes_of(&all[th], bc->class_of[th], sci_alloc_atomic(bytes));
    bc->stride[th] = size;
    if (nclasses < 0 || (nclasses > 0 && size > MAX_CLASS_CHOICES / nclasses))
      return NULL;
    size *= nclasses > 0 ? nclasses : 1;
  }
  bc->known = sci_alloc_atomic((size_t)size);
  memset(bc->known, UNKNOWN, (size_t)size);
  return bc;
}

/* The table's index of the classes of `chosen`. */
static long index_of(const sim_barrier_classes *bc, const sc_trace *const *chosen) {
  long at = 0;
  for (int th = 0; th < bc->n; th++)
    at += bc->stride[th] * bc->class_of[th][chosen[th] - bc->all[th].traces];
  return at;
}

bool sci_barrier_classes_deadlock(const sim_barrier_classes *bc,
                                  const sc_trace *const *chosen) {
  return bc && bc->known[index_of(bc, chosen)] == DEADLOCK;
}

void sci_barrier_classes_note(sim_barrier_classes *bc, const sc_trace *const *chosen,
                              int nsyncs) {
  if (bc)
    bc->known[index_of(bc, chosen)] = nsyncs > 0 ? SYNCS : DEADLOCK;
}
