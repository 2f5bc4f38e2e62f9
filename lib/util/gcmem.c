/* gcmem.c: thin wrappers over Boehm GC so that every allocation in the
 * library goes through one place.  The library never calls free(); what
 * happens when the collector cannot allocate is oom.c's business. */
#define _POSIX_C_SOURCE 200809L
#include "config.h"
#include "util/gcmem.h"


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


#ifdef HAVE_GC_SET_MARKERS_COUNT
/* gc.h declares it for GC_THREADS clients only; the library is one. */
GC_API void GC_CALL GC_set_markers_count(unsigned);
#endif

/* The library never prints: the collector's warnings ("Out of Memory!
 * Returning NULL!", "Repeated allocation of very large block") are
 * dropped; what they warn of reaches the caller as an error. */
static void GC_CALLBACK no_warning(char *msg, GC_word arg) {
  (void)msg;
  (void)arg;
}

void sci_gc_init(void) {
  static int done;
  if (!done) {
#ifdef HAVE_GC_SET_MARKERS_COUNT
    if (!getenv("GC_MARKERS"))
      GC_set_markers_count(1);
#endif
    GC_INIT();
    GC_set_warn_proc(no_warning);
    if (!getenv("GC_INITIAL_HEAP_SIZE") && GC_get_heap_size() < SC_GC_INITIAL_HEAP)
      GC_expand_hp(SC_GC_INITIAL_HEAP - GC_get_heap_size());
    done = 1;
  }
}


void *sci_alloc(size_t size) { return GC_MALLOC(size ? size : 1); }

void *sci_alloc_atomic(size_t size) { return GC_MALLOC_ATOMIC(size ? size : 1); }

void *sci_realloc(void *p, size_t size) { return GC_REALLOC(p, size ? size : 1); }

char *sci_strdup(const char *s) { return sci_strndup(s, strlen(s)); }

char *sci_strndup(const char *s, size_t n) {
  char *d = sci_alloc_atomic(n + 1);
  memcpy(d, s, n);
  d[n] = '\0';
  return d;
}

char *sci_vprintf(const char *fmt, va_list ap) {
  va_list copy;
  va_copy(copy, ap);
  int n = vsnprintf(NULL, 0, fmt, copy);
  va_end(copy);
  if (n < 0)
    return sci_strdup("");
  char *s = sci_alloc_atomic((size_t)n + 1);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  return s;
}

char *sci_printf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = sci_vprintf(fmt, ap);
  va_end(ap);
  return s;
}

void sci_grow(void *items_ptr, int *cap, int need, size_t elem) {
  void **items = items_ptr;
  if (need <= *cap && *items)
    return;
  int ncap = *cap ? *cap : 4;
  while (ncap < need)
    ncap *= 2;
  void *n = sci_alloc(elem * (size_t)ncap);
  if (*items && *cap)
    memcpy(n, *items, elem * (size_t)*cap);
  *items = n;
  *cap = ncap;
}
