/* gcmem.c: thin wrappers over Boehm GC so that every allocation in the
 * library goes through one place.  An allocation failure aborts through the
 * collector's own out-of-memory handler; the library never calls free(). */
#define _POSIX_C_SOURCE 200809L
#include "gcmem.h"

#include <gc/gc.h>
#include <stdio.h>
#include <string.h>

void sc_gc_init(void) {
  static int done;
  if (!done) {
    GC_INIT();
    done = 1;
  }
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
