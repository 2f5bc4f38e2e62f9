/* outcome.h: a final state as a map from variables to values, in one
 * canonical form whatever printed it (herd7's States, litmus7's histogram,
 * scopecat's results), so that states of a model and of hardware compare. */
#ifndef SC_OUTCOME_H
#define SC_OUTCOME_H

#include <stdbool.h>

/* Variables sorted as herd sorts them: registers ("1:r0") by thread, then
 * name; then locations ("x", "[x]" read as "x") by name.  Integer values
 * are in decimal ("0x10" reads as "16"); others (a location's name held in
 * a register) stay as written. */
typedef struct sc_outcome {
  int n;
  const char **vars;
  const char **values;
  int *var_at, *value_at; /* where each was in the text parsed (offsets),
                             so that a reader can point at one */
} sc_outcome;

/* Parse "1:r0=0; x=1;" (every binding ends in ';').  A value is an integer
 * that fits 64 bits (decimal or 0x hexadecimal, an optional '-') or a
 * name (a location's, held in a register).  On failure returns false and
 * *why says what was expected and found. */
bool sci_outcome_parse(const char *text, sc_outcome *out, const char **why);
/* The same; *at (when not NULL) gets the offset in `text` of the failure. */
bool sci_outcome_parse_at(const char *text, sc_outcome *out, const char **why,
                         int *at);

/* The canonical text: "1:r0=0; x=1;". */
const char *sci_outcome_string(const sc_outcome *o);

/* Whether two outcomes give the same value to every variable both show.
 * (A model shows the variables of the condition and `locations'; a log may
 * show more or fewer: only the shared ones can be compared.) */
bool sci_outcome_agree(const sc_outcome *a, const sc_outcome *b);

/* How many variables both show. */
int sci_outcome_shared(const sc_outcome *a, const sc_outcome *b);

/* An order for display: variable by variable, integers by value. */
int sci_outcome_compare(const sc_outcome *a, const sc_outcome *b);

#endif
