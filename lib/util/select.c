/* select.c: choosing tests by name with a PCRE2 pattern (-select REGEX),
 * through the library's PCRE2 wrapper (regex.c). */
#include "util/error.h"
#include "util/gcmem.h"
#include "util/oom.h"
#include "util/regex.h"

struct sc_select {
  sc_regex *re;
};

static sc_status select_compile_unguarded(const char *pattern, sc_select **out,
                                          sc_error **err) {
  sci_gc_init();
  *out = NULL;
  if (!pattern)
    return sci_fail(err, SC_ERR_USAGE, NULL, 0, 0, "no pattern given");
  const char *message;
  size_t offset;
  sc_regex *re = sci_regex_compile(pattern, &message, &offset);
  if (!re)
    return sci_fail(err, SC_ERR_USAGE, "-select", 1, (int)offset + 1,
                   "expected a PCRE2 pattern: %s", message);
  *out = sci_alloc(sizeof **out);
  (*out)->re = re;
  return SC_OK;
}

sc_status sc_select_compile(const char *pattern, sc_select **out,
                            sc_error **err) {
  sc_oom_guard g;
  if (!SC_OOM_ENTER(g))
    return sci_oom_fail(&g, NULL, err);
  sc_status st = select_compile_unguarded(pattern, out, err);
  sci_oom_leave(&g);
  return st;
}

int sc_select_match(const sc_select *sel, const char *name) {
  return !sel || sci_regex_match(sel->re, name, NULL, 0);
}
