/* cursor.h: a position in a text being tokenized (the file, the next
 * character, its line and column), shared by the litmus and cat lexers:
 * moving on, and skipping ML-style (* nested *) comments, which both
 * languages have. */
#ifndef SC_CURSOR_H
#define SC_CURSOR_H

#include "scopecat.h"

typedef struct sc_cursor {
  const char *file;
  const char *p; /* the next character; '\0' at the end */
  int line, col; /* of *p, from 1 */
} sc_cursor;

/* Move past the next character (never past the end). */
void sci_cursor_advance(sc_cursor *c);
void sci_cursor_advance_n(sc_cursor *c, int n);

/* Whether a (* comment starts here. */
int sci_cursor_at_comment(const sc_cursor *c);
/* Skip the (* ... *) comment that starts here; comments nest.  An
 * unterminated one is an error at its start. */
sc_status sci_cursor_skip_comment(sc_cursor *c, sc_error **err);

#endif
