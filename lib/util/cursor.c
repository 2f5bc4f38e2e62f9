/* cursor.c: moving through a text by characters, keeping line and column,
 * and skipping nested (* *) comments (cursor.h). */
#include "util/cursor.h"

#include "util/error.h"

void sci_cursor_advance(sc_cursor *c) {
  if (!*c->p)
    return;
  if (*c->p == '\n') {
    c->line++;
    c->col = 1;
  } else {
    c->col++;
  }
  c->p++;
}

void sci_cursor_advance_n(sc_cursor *c, int n) {
  while (n-- > 0)
    sci_cursor_advance(c);
}

int sci_cursor_at_comment(const sc_cursor *c) {
  return c->p[0] == '(' && c->p[1] == '*';
}

sc_status sci_cursor_skip_comment(sc_cursor *c, sc_error **err) {
  int line = c->line, col = c->col, depth = 0;
  do {
    if (!*c->p)
      return sci_fail(err, SC_ERR_SYNTAX, c->file, line, col,
                     "expected '*)' closing this comment, found end of file");
    if (sci_cursor_at_comment(c)) {
      depth++;
      sci_cursor_advance_n(c, 2);
    } else if (c->p[0] == '*' && c->p[1] == ')') {
      depth--;
      sci_cursor_advance_n(c, 2);
    } else {
      sci_cursor_advance(c);
    }
  } while (depth > 0);
  return SC_OK;
}
