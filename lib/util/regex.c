/* regex.c: PCRE2 patterns with their memory in Boehm GC (see regex.h).
 * Patterns match whole lines of logs; anchoring is up to each pattern. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "util/regex.h"

#include "util/gcmem.h"

#include <pcre2.h>
#include <string.h>

struct sc_regex {
  pcre2_code *code;
  pcre2_general_context *gctx;
  /* Made at the first match and kept: PCRE2 gives a match data its own
   * 20 KiB of frames, which a log reader matching every line of a 10^6-
   * block log would otherwise allocate once per line.  So a pattern is
   * matched by one thread at a time. */
  pcre2_match_data *md;
};

static void *gc_pcre_alloc(size_t size, void *data) {
  (void)data;
  return sci_alloc(size);
}

static void gc_pcre_free(void *p, void *data) {
  (void)p;
  (void)data; /* the collector reclaims it */
}

sc_regex *sci_regex_compile(const char *pattern, const char **message,
                           size_t *offset) {
  sci_gc_init();
  sc_regex *re = sci_alloc(sizeof *re);
  re->gctx = pcre2_general_context_create(gc_pcre_alloc, gc_pcre_free, NULL);
  pcre2_compile_context *cctx = pcre2_compile_context_create(re->gctx);
  int code;
  PCRE2_SIZE at;
  re->code = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, 0,
                           &code, &at, cctx);
  if (re->code)
    return re;
  if (message) {
    PCRE2_UCHAR *buf = sci_alloc_atomic(256);
    pcre2_get_error_message(code, buf, 256);
    *message = (const char *)buf;
  }
  if (offset)
    *offset = at;
  return NULL;
}

sc_regex *sci_regex_new(const char *pattern) {
  return sci_regex_compile(pattern, NULL, NULL);
}

bool sci_regex_match(sc_regex *re, const char *subject, const char **caps,
                    int ncaps) {
  if (!re->md)
    re->md = pcre2_match_data_create_from_pattern(re->code, re->gctx);
  pcre2_match_data *md = re->md;
  int rc = pcre2_match(re->code, (PCRE2_SPTR)subject, strlen(subject), 0, 0,
                       md, NULL);
  if (rc < 0)
    return false;
  PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
  for (int i = 0; i < ncaps; i++) {
    int g = i + 1;
    if (g >= rc || ov[2 * g] == PCRE2_UNSET)
      caps[i] = NULL;
    else
      caps[i] = sci_strndup(subject + ov[2 * g], ov[2 * g + 1] - ov[2 * g]);
  }
  return true;
}
