/* symbol.c: the model's interned names (sc_cat_symtab of ast.h): equal
 * names are one pointer, so the interpreter compares names as pointers.
 * Below the parser, which interns, and the interpreter, which looks up. */
#include "cat/ast.h"

#include "util/gcmem.h"

#include <string.h>

static unsigned hash_name(const char *s) {
  unsigned h = 2166136261u; /* FNV-1a */
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}

static int find_slot(const sc_cat_symtab *t, const char *name) {
  int mask = t->cap - 1;
  int i = (int)(hash_name(name) & (unsigned)mask);
  while (t->slots[i] && strcmp(t->slots[i], name) != 0)
    i = (i + 1) & mask;
  return i;
}

static void symtab_grow(sc_cat_symtab *t) {
  const char **old = t->slots;
  int oldcap = t->cap;
  t->cap = oldcap ? oldcap * 2 : 256;
  t->slots = sci_alloc(sizeof *t->slots * (size_t)t->cap);
  for (int i = 0; i < oldcap; i++)
    if (old[i])
      t->slots[find_slot(t, old[i])] = old[i];
}

const char *sci_cat_intern(sc_cat_symtab *t, const char *name) {
  if (2 * (t->count + 1) > t->cap)
    symtab_grow(t);
  int i = find_slot(t, name);
  if (!t->slots[i]) {
    t->slots[i] = sci_strdup(name);
    t->count++;
  }
  return t->slots[i];
}

const char *sci_cat_symbol(const sc_cat_symtab *t, const char *name) {
  if (!t->cap)
    return NULL;
  return t->slots[find_slot(t, name)];
}

