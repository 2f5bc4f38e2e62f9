/* gcmem.h: the library's only allocator, Boehm GC.  Everything the library
 * allocates comes from here; nothing is freed by hand.  Use sc_alloc for
 * memory that holds pointers and sc_alloc_atomic for plain bytes. */
#ifndef SC_GCMEM_H
#define SC_GCMEM_H

#include "scopecat.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

void sc_gc_init(void);
void *sc_alloc(size_t size);        /* zeroed, scanned for pointers */
void *sc_alloc_atomic(size_t size); /* not scanned, not zeroed */
void *sc_realloc(void *p, size_t size);
char *sc_strdup(const char *s);
char *sc_strndup(const char *s, size_t n);
char *sc_printf(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
char *sc_vprintf(const char *fmt, va_list ap);

/* ---- Running out of memory ----
 * The heap may be capped (sc_set_max_heap).  An allocation the cap refuses
 * does not return: it jumps back to the innermost guard, set by the
 * library's entry points, which then fail with SC_ERR_LIMIT.  Everything
 * allocated on the way is the collector's, so nothing leaks.  Usage:
 *
 *   sc_oom_guard g;
 *   if (!SC_OOM_ENTER(g))
 *     return sc_oom_fail(&g, path, err);
 *   sc_status st = work(...);
 *   sc_oom_leave(&g);
 *   return st;
 */
typedef struct sc_oom_guard {
  jmp_buf on_oom;
  struct sc_oom_guard *outer;
} sc_oom_guard;

/* True on entry; false after a refused allocation jumped back here. */
#define SC_OOM_ENTER(g) (sc_oom_push(&(g)), setjmp((g).on_oom) == 0)
void sc_oom_push(sc_oom_guard *g);
void sc_oom_leave(sc_oom_guard *g);
/* After the jump: leave the guard and report the failure in *err, at
 * `file` (the test or model being worked on; may be NULL). */
sc_status sc_oom_fail(sc_oom_guard *g, const char *file, sc_error **err);

/* The same for a function that returns a string: NULL after the jump. */
const char *sc_oom_null(sc_oom_guard *g);

/* A growable array of `elem` sized items: *items grows to hold at least
 * `need` of them; *cap tracks the capacity. */
void sc_grow(void *items_ptr, int *cap, int need, size_t elem);

#endif
