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

void sc_sb_init(sc_strbuf *sb);
void sc_sb_putc(sc_strbuf *sb, char c);
void sc_sb_puts(sc_strbuf *sb, const char *s);
void sc_sb_putn(sc_strbuf *sb, const char *s, size_t n);
void sc_sb_printf(sc_strbuf *sb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Pad with spaces up to `width` characters since offset `from`. */
void sc_sb_pad(sc_strbuf *sb, size_t from, size_t width);

#endif
