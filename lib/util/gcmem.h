/* gcmem.h: the library's only allocator, Boehm GC.  Everything the library
 * allocates comes from here; nothing is freed by hand.  Use sci_alloc for
 * memory that holds pointers and sci_alloc_atomic for plain bytes. */
#ifndef SC_GCMEM_H
#define SC_GCMEM_H

#include <stdarg.h>
#include <stddef.h>

void sci_gc_init(void);
void *sci_alloc(size_t size);        /* zeroed, scanned for pointers */
void *sci_alloc_atomic(size_t size); /* not scanned, not zeroed */
void *sci_realloc(void *p, size_t size);
char *sci_strdup(const char *s);
char *sci_strndup(const char *s, size_t n);
char *sci_printf(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
char *sci_vprintf(const char *fmt, va_list ap);

/* A growable array of `elem` sized items: *items grows to hold at least
 * `need` of them; *cap tracks the capacity. */
void sci_grow(void *items_ptr, int *cap, int need, size_t elem);

#endif
