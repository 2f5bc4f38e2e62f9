/* strbuf.c: growable GC-owned strings for printers. */
#include "util/strbuf.h"

#include "util/gcmem.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void sci_sb_init(sc_strbuf *sb) {
  sb->cap = 64;
  sb->len = 0;
  sb->data = sci_alloc_atomic(sb->cap);
  sb->data[0] = '\0';
}

static void reserve(sc_strbuf *sb, size_t extra) {
  if (!sb->data)
    sci_sb_init(sb);
  if (sb->len + extra + 1 <= sb->cap)
    return;
  size_t ncap = sb->cap * 2;
  while (ncap < sb->len + extra + 1)
    ncap *= 2;
  char *n = sci_alloc_atomic(ncap);
  memcpy(n, sb->data, sb->len + 1);
  sb->data = n;
  sb->cap = ncap;
}

void sci_sb_putn(sc_strbuf *sb, const char *s, size_t n) {
  reserve(sb, n);
  memcpy(sb->data + sb->len, s, n);
  sb->len += n;
  sb->data[sb->len] = '\0';
}

void sci_sb_puts(sc_strbuf *sb, const char *s) { sci_sb_putn(sb, s, strlen(s)); }

void sci_sb_putc(sc_strbuf *sb, char c) { sci_sb_putn(sb, &c, 1); }

void sci_sb_printf(sc_strbuf *sb, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = sci_vprintf(fmt, ap);
  va_end(ap);
  sci_sb_puts(sb, s);
}

void sci_sb_pad(sc_strbuf *sb, size_t from, size_t width) {
  while (sb->len < from + width)
    sci_sb_putc(sb, ' ');
}
