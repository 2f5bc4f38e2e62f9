/* oom.c: running out of memory as an error, not an abort.  The heap may
 * be capped (sc_set_max_heap); the collector's out-of-memory hook jumps to
 * the innermost guard (oom.h), set by the library's entry points, which
 * then fail with SC_ERR_LIMIT naming memory and the limit. */
#include "util/oom.h"

#include "util/error.h"
#include "util/gcmem.h"

#include <gc/gc.h>

/* The smallest heap limit: the initial heap and room to report. */
#define SC_MIN_MAX_HEAP (8u << 20)

/* The innermost guard of this thread (none outside the library's calls). */
static _Thread_local sc_oom_guard *innermost;
static _Thread_local size_t refused_bytes;
/* The cap sc_set_max_heap set (0: none), for messages. */
static size_t max_heap;

/* The collector calls this, without its lock held, when it cannot satisfy
 * a request; it may not return.  Inside a guard it jumps there.  Outside
 * every guard (a small accessor formatting a string, say) there is nothing
 * to jump to, and NULL would crash the caller: the cap is lifted for that
 * one allocation, which the cap's next check then counts. */
static void *GC_CALLBACK on_oom(size_t bytes) {
  refused_bytes = bytes;
  if (innermost)
    longjmp(innermost->on_oom, 1);
  if (!max_heap)
    return NULL; /* the machine itself is out of memory */
  GC_set_max_heap_size(0);
  void *p = GC_MALLOC(bytes);
  GC_set_max_heap_size(max_heap);
  return p;
}

/* Install the hook once (before the first guard or cap). */
static void hook(void) {
  static int hooked;
  sci_gc_init();
  if (!hooked) {
    GC_set_oom_fn(on_oom);
    hooked = 1;
  }
}

void sci_oom_push(sc_oom_guard *g) {
  hook();
  g->outer = innermost;
  innermost = g;
}

void sci_oom_leave(sc_oom_guard *g) { innermost = g->outer; }

sc_status sci_oom_fail(sc_oom_guard *g, const char *file, sc_error **err) {
  sci_oom_leave(g);
  /* The message needs a little memory, which the cap may refuse even
   * after the failed call's garbage is collected: lift it meanwhile. */
  GC_set_max_heap_size(0);
  sc_status st;
  if (!max_heap)
    st = sci_fail(err, SC_ERR_LIMIT, file, 0, 0,
                 "out of memory: the collector could not get %zu more bytes",
                 refused_bytes);
  else
    st = sci_fail(err, SC_ERR_LIMIT, file, 0, 0,
                 "out of memory: %zu more bytes would pass the heap limit of "
                 "%zu bytes (-max-heap)", refused_bytes, max_heap);
  GC_set_max_heap_size(max_heap);
  return st;
}

size_t sci_oom_room(size_t least) {
  if (!max_heap)
    return 0;
  /* the bytes in use, not the heap's size: the heap never shrinks, and
   * after a test that failed at the cap its size is the cap, though most
   * of it is free again once collected (collected only when the room
   * looks short: a collection costs) */
  size_t used = GC_get_heap_size() - GC_get_free_bytes();
  if (used + least >= max_heap) {
    GC_gcollect();
    used = GC_get_heap_size() - GC_get_free_bytes();
  }
  return used + least < max_heap ? max_heap - used : least;
}

sc_status sci_oom_fail_outside(const char *file, const char *who, sc_error **err) {
  GC_set_max_heap_size(0); /* the message's few bytes, as sci_oom_fail */
  sc_status st;
  if (!max_heap)
    st = sci_fail(err, SC_ERR_LIMIT, file, 0, 0,
                 "out of memory: %s could not allocate", who);
  else
    st = sci_fail(err, SC_ERR_LIMIT, file, 0, 0,
                 "out of memory: %s would pass the heap limit of %zu bytes "
                 "(-max-heap)", who, max_heap);
  GC_set_max_heap_size(max_heap);
  return st;
}

const char *sci_oom_null(sc_oom_guard *g) {
  sci_oom_leave(g);
  return NULL;
}

sc_status sc_set_max_heap(size_t bytes, sc_error **err) {
  hook();
  if (bytes && bytes < SC_MIN_MAX_HEAP)
    return sci_fail(err, SC_ERR_USAGE, NULL, 0, 0,
                   "expected a heap limit of 0 (none) or at least %u bytes, "
                   "found %zu", SC_MIN_MAX_HEAP, bytes);
  max_heap = bytes;
  GC_set_max_heap_size(bytes);
  return SC_OK;
}
