/* oom.h: running out of memory.  The heap may be capped (sc_set_max_heap).
 * An allocation the cap refuses does not return: it jumps back to the
 * innermost guard, set by the library's entry points, which then fail
 * with SC_ERR_LIMIT.  Everything allocated on the way is the collector's,
 * so nothing leaks.  Usage:
 *
 *   sc_oom_guard g;
 *   if (!SC_OOM_ENTER(g))
 *     return sci_oom_fail(&g, path, err);
 *   sc_status st = work(...);
 *   sci_oom_leave(&g);
 *   return st;
 */
#ifndef SC_OOM_H
#define SC_OOM_H

#include "scopecat.h"

#include <setjmp.h>

typedef struct sc_oom_guard {
  jmp_buf on_oom;
  struct sc_oom_guard *outer;
} sc_oom_guard;

/* True on entry; false after a refused allocation jumped back here. */
#define SC_OOM_ENTER(g) (sci_oom_push(&(g)), setjmp((g).on_oom) == 0)
void sci_oom_push(sc_oom_guard *g);
void sci_oom_leave(sc_oom_guard *g);
/* After the jump: leave the guard and report the failure in *err, at
 * `file` (the test or model being worked on; may be NULL). */
sc_status sci_oom_fail(sc_oom_guard *g, const char *file, sc_error **err);

/* The room the cap leaves for memory the collector does not see (a
 * solver's): the cap less the collector's heap, at least `least` bytes;
 * 0 when there is no cap. */
size_t sci_oom_room(size_t least);
/* A failure to allocate outside the collector (`who`: "the solver"),
 * reported as the guard reports its own, naming the cap when there is one. */
sc_status sci_oom_fail_outside(const char *file, const char *who, sc_error **err);

/* The same for a function that returns a string: NULL after the jump. */
const char *sci_oom_null(sc_oom_guard *g);

#endif
