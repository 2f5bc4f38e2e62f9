/* warnings.c: what a test that parses may not mean: a location named once
 * in the whole test.  A misspelt location in one access is a new location
 * starting at 0 (it flipped a message-passing test's verdict in silence);
 * a location meant as such is given a value, read or written by another
 * access, or looked at by the condition. */
#include "litmus/litmus.h"

#include "util/gcmem.h"

static bool named_once(const sc_location *loc) {
  return loc->mentions == 1 && !loc->initialised &&
         loc->region == SC_SPACE_NONE && loc->alias_of < 0;
}

const char **sci_litmus_warnings(const sc_test *t, int *n) {
  const char **out = NULL;
  int cap = 0;
  *n = 0;
  for (int l = 0; l < t->nlocs; l++) {
    const sc_location *loc = &t->locs[l];
    if (!named_once(loc))
      continue;
    sci_grow(&out, &cap, *n + 1, sizeof *out);
    out[(*n)++] = sci_printf(
        "%s:%d:%d: warning: location '%s' is named only here (no initial "
        "value, no other access, not in the condition): a misspelling? It "
        "would be a new location starting at 0",
        t->file ? t->file : t->name, loc->line, loc->col, loc->name);
  }
  return out;
}
