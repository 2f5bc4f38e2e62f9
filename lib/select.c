/* select.c: choosing tests by name with a PCRE2 pattern (-select REGEX).
 * PCRE2's own memory is allocated through Boehm GC via a general context,
 * so a selector needs no freeing. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "error.h"
#include "gcmem.h"

#include <pcre2.h>
#include <string.h>

struct sc_select {
  pcre2_code *code;
  pcre2_general_context *gctx;
};

static void *gc_pcre_alloc(size_t size, void *data) {
  (void)data;
  return sc_alloc(size);
}

static void gc_pcre_free(void *p, void *data) {
  (void)p;
  (void)data; /* the collector reclaims it */
}

sc_status sc_select_compile(const char *pattern, sc_select **out,
                            sc_error **err) {
  sc_gc_init();
  *out = NULL;
  if (!pattern)
    return sc_fail(err, SC_ERR_USAGE, NULL, 0, 0, "no pattern given");
  sc_select *s = sc_alloc(sizeof *s);
  s->gctx = pcre2_general_context_create(gc_pcre_alloc, gc_pcre_free, NULL);
  pcre2_compile_context *cctx = pcre2_compile_context_create(s->gctx);
  int code;
  PCRE2_SIZE offset;
  s->code = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, 0, &code,
                          &offset, cctx);
  if (!s->code) {
    PCRE2_UCHAR msg[256];
    pcre2_get_error_message(code, msg, sizeof msg);
    return sc_fail(err, SC_ERR_USAGE, "-select", 1, (int)offset + 1,
                   "expected a PCRE2 pattern: %s", (const char *)msg);
  }
  *out = s;
  return SC_OK;
}

int sc_select_match(const sc_select *sel, const char *name) {
  if (!sel)
    return 1;
  pcre2_match_data *md = pcre2_match_data_create_from_pattern(sel->code, sel->gctx);
  int rc = pcre2_match(sel->code, (PCRE2_SPTR)name, strlen(name), 0, 0, md, NULL);
  return rc >= 0;
}
