/* gcmem.h: the library's only allocator, Boehm GC.  Everything the library
 * allocates comes from here; nothing is freed by hand.  Use sc_alloc for
 * memory that holds pointers and sc_alloc_atomic for plain bytes. */
#ifndef SC_GCMEM_H
#define SC_GCMEM_H

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

/* A growable array of `elem` sized items: *items grows to hold at least
 * `need` of them; *cap tracks the capacity. */
void sc_grow(void *items_ptr, int *cap, int need, size_t elem);

#endif
