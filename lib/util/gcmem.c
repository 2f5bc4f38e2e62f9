/* gcmem.c: thin wrappers over Boehm GC so that every allocation in the
 * library goes through one place, and the guards that turn an allocation
 * the heap cap refuses into an error of the call that needed it (the
 * collector's out-of-memory hook jumps to the innermost guard).  The
 * library never calls free(). */
#define _POSIX_C_SOURCE 200809L
#include "config.h"
#include "util/gcmem.h"

#include "util/error.h"

#include <gc/gc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The simulator allocates a lot of short-lived garbage per candidate
 * execution and keeps little: one marker thread (parallel marking only
 * adds hand-offs between threads for so small a live heap; `-j` runs tests
 * in processes of their own) and a heap that starts at 4 MB: fewer early
 * collections, yet small enough to stay in cache.  GC_MARKERS and GC_INITIAL_HEAP_SIZE in the
 * environment still override both. */
#define SC_GC_INITIAL_HEAP (4u << 20)
/* The smallest heap limit: the initial heap and room to report. */
#define SC_MIN_MAX_HEAP (8u << 20)

#ifdef HAVE_GC_SET_MARKERS_COUNT
/* gc.h declares it for GC_THREADS clients only; the library is one. */
GC_API void GC_CALL GC_set_markers_count(unsigned);
#endif

/* The innermost guard of this thread (none outside the library's calls). */
static _Thread_local sc_oom_guard *innermost;
static _Thread_local size_t refused_bytes;
/* The cap sc_set_max_heap set (0: none), for messages. */
static size_t max_heap;

/* The collector calls this, without its lock held, when it cannot satisfy
 * a request; it may not return.  Outside every guard there is nothing to
 * jump to: NULL, which the collector hands to the caller. */
static void *GC_CALLBACK on_oom(size_t bytes) {
  refused_bytes = bytes;
  if (innermost)
    longjmp(innermost->on_oom, 1);
  return NULL;
}

/* The library never prints: the collector's warnings ("Out of Memory!
 * Returning NULL!", "Repeated allocation of very large block") are
 * dropped; what they warn of reaches the caller as an error. */
static void GC_CALLBACK no_warning(char *msg, GC_word arg) {
  (void)msg;
  (void)arg;
}

void sc_oom_push(sc_oom_guard *g) {
  sc_gc_init();
  g->outer = innermost;
  innermost = g;
}

void sc_oom_leave(sc_oom_guard *g) { innermost = g->outer; }

sc_status sc_oom_fail(sc_oom_guard *g, const char *file, sc_error **err) {
  sc_oom_leave(g);
  /* The message needs a little memory, which the cap may refuse even
   * after the failed call's garbage is collected: lift it meanwhile. */
  GC_set_max_heap_size(0);
  sc_status st;
  if (!max_heap)
    st = sc_fail(err, SC_ERR_LIMIT, file, 0, 0,
                 "out of memory: the collector could not get %zu more bytes",
                 refused_bytes);
  else
    st = sc_fail(err, SC_ERR_LIMIT, file, 0, 0,
                 "out of memory: %zu more bytes would pass the heap limit of "
                 "%zu bytes (-max-heap)", refused_bytes, max_heap);
  GC_set_max_heap_size(max_heap);
  return st;
}

const char *sc_oom_null(sc_oom_guard *g) {
  sc_oom_leave(g);
  return NULL;
}

void sc_gc_init(void) {
  static int done;
  if (!done) {
#ifdef HAVE_GC_SET_MARKERS_COUNT
    if (!getenv("GC_MARKERS"))
      GC_set_markers_count(1);
#endif
    GC_INIT();
    GC_set_oom_fn(on_oom);
    GC_set_warn_proc(no_warning);
    if (!getenv("GC_INITIAL_HEAP_SIZE") && GC_get_heap_size() < SC_GC_INITIAL_HEAP)
      GC_expand_hp(SC_GC_INITIAL_HEAP - GC_get_heap_size());
    done = 1;
  }
}

sc_status sc_set_max_heap(size_t bytes, sc_error **err) {
  sc_gc_init();
  if (bytes && bytes < SC_MIN_MAX_HEAP)
    return sc_fail(err, SC_ERR_USAGE, NULL, 0, 0,
                   "expected a heap limit of 0 (none) or at least %u bytes, "
                   "found %zu", SC_MIN_MAX_HEAP, bytes);
  max_heap = bytes;
  GC_set_max_heap_size(bytes);
  return SC_OK;
}

void *sc_alloc(size_t size) { return GC_MALLOC(size ? size : 1); }

void *sc_alloc_atomic(size_t size) { return GC_MALLOC_ATOMIC(size ? size : 1); }

void *sc_realloc(void *p, size_t size) { return GC_REALLOC(p, size ? size : 1); }

char *sc_strdup(const char *s) { return sc_strndup(s, strlen(s)); }

char *sc_strndup(const char *s, size_t n) {
  char *d = sc_alloc_atomic(n + 1);
  memcpy(d, s, n);
  d[n] = '\0';
  return d;
}

char *sc_vprintf(const char *fmt, va_list ap) {
  va_list copy;
  va_copy(copy, ap);
  int n = vsnprintf(NULL, 0, fmt, copy);
  va_end(copy);
  if (n < 0)
    return sc_strdup("");
  char *s = sc_alloc_atomic((size_t)n + 1);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  return s;
}

char *sc_printf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = sc_vprintf(fmt, ap);
  va_end(ap);
  return s;
}

void sc_grow(void *items_ptr, int *cap, int need, size_t elem) {
  void **items = items_ptr;
  if (need <= *cap && *items)
    return;
  int ncap = *cap ? *cap : 4;
  while (ncap < need)
    ncap *= 2;
  void *n = sc_alloc(elem * (size_t)ncap);
  if (*items && *cap)
    memcpy(n, *items, elem * (size_t)*cap);
  *items = n;
  *cap = ncap;
}
