/* strbuf.h: a growable string in GC memory, used to build printed output
 * (canonical tests, summaries, messages).  Not for parsing. */
#ifndef SC_STRBUF_H
#define SC_STRBUF_H

#include <stddef.h>

typedef struct sc_strbuf {
  char *data; /* always NUL-terminated */
  size_t len;
  size_t cap;
} sc_strbuf;

void sci_sb_init(sc_strbuf *sb);
void sci_sb_putc(sc_strbuf *sb, char c);
void sci_sb_puts(sc_strbuf *sb, const char *s);
void sci_sb_putn(sc_strbuf *sb, const char *s, size_t n);
void sci_sb_printf(sc_strbuf *sb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Pad with spaces up to `width` characters since offset `from`. */
void sci_sb_pad(sc_strbuf *sb, size_t from, size_t width);

#endif
