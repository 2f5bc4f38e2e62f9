/* regex.h: PCRE2 patterns for the readers of line formats (hardware and
 * herd7 logs), with PCRE2's memory in Boehm GC.  A match hands back its
 * capture groups as GC strings; nothing needs freeing. */
#ifndef SC_REGEX_H
#define SC_REGEX_H

#include <stdbool.h>
#include <stddef.h>

typedef struct sc_regex sc_regex;

/* Compile a pattern written in the library's own code; NULL only when the
 * pattern is wrong (a bug, which the unit tests catch). */
sc_regex *sci_regex_new(const char *pattern);

/* Compile a pattern a user wrote: NULL when it is wrong, with PCRE2's
 * message in *message and the 0-based offset of the fault in *offset. */
sc_regex *sci_regex_compile(const char *pattern, const char **message,
                           size_t *offset);

/* Whether `subject` matches; on a match caps[i] is capture group i+1 (NULL
 * when that group took no part), for i < ncaps.  The pattern keeps its
 * match data from one match to the next: one thread at a time. */
bool sci_regex_match(sc_regex *re, const char *subject, const char **caps,
                    int ncaps);

#endif
