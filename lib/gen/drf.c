/* drf.c: the litmus test of a wrong load that `scopecat gpu drf` found
 * (sc_drf_litmus): the reader's episode and the writer's, each reduced to
 * the variable x, the lock word m and their synchronisation, as two
 * threads in Dat3M's PTX dialect, so that a model can judge whether the
 * stale value is allowed. */
#include "scopecat.h"

#include "util/error.h"
#include "util/gcmem.h"
#include "util/oom.h"
#include "util/strbuf.h"

#include <stdbool.h>
#include <string.h>

static const char *const scope_words[] = {"cta", "gpu", "sys"};

/* The lines of one thread. */
enum { MAX_LINES = 16 };
typedef struct thread_code {
  const char *line[MAX_LINES];
  int n;
} thread_code;

static void put(thread_code *t, const char *s) {
  if (t->n < MAX_LINES)
    t->line[t->n++] = s;
}

static const char *format(const char *fmt, const char *a, const char *b) {
  sc_strbuf sb;
  sci_sb_init(&sb);
  sci_sb_printf(&sb, fmt, a, b);
  return sb.data;
}

/* The acquire of episode e: r0 reads the lock word m, 2 when it follows
 * the other episode's release (which writes 2); a relaxed acquire is
 * followed by its fence unless a fault dropped it. */
static void put_acquire(const sc_drf_episode *e, thread_code *t) {
  const char *sc = scope_words[e->scope];
  const char *sem = e->acquire ? "acquire" : "relaxed";
  put(t, e->ticket ? format("ld.%s.%s r0, m", sem, sc)
                   : format("atom.%s.%s.cas r0, m, 2, 3", sem, sc));
  if (!e->acquire && e->acquire_fence)
    put(t, format("fence.acq_rel.%s%s", sc, ""));
}

/* The release of episode e: m := val; a relaxed release is preceded by its
 * fence unless a fault dropped it. */
static void put_release(const sc_drf_episode *e, const char *val,
                        thread_code *t) {
  const char *sc = scope_words[e->scope];
  if (!e->release && e->release_fence)
    put(t, format("fence.acq_rel.%s%s", sc, ""));
  sc_strbuf sb;
  sci_sb_init(&sb);
  sci_sb_printf(&sb, "st.%s.%s m, %s", e->release ? "release" : "relaxed", sc,
               val);
  put(t, sb.data);
}

/* The reader's load of x (inside its episode, or after its release when a
 * fault moved it there), with its acquire when `acquire`; its release
 * writes `val` (2 when the other thread's acquire follows it). */
static void put_reader(const sc_drf_episode *e, bool acquire, const char *val,
                       thread_code *t) {
  if (acquire)
    put_acquire(e, t);
  if (!e->load_moved)
    put(t, "ld.weak r1, x");
  put_release(e, val, t);
  if (e->load_moved)
    put(t, "ld.weak r1, x");
}

/* The test's text: two columns of 24 characters. */
static const char *two_threads(const char *name, const char *doc,
                               const char *init, int cta1,
                               const thread_code *c0, const thread_code *c1,
                               const char *cond) {
  enum { W = 24 };
  sc_strbuf sb;
  sci_sb_init(&sb);
  sci_sb_printf(&sb, "PTX %s\n\"%s\"\n{\n%s\n}\n", name, doc, init);
  sc_strbuf p1;
  sci_sb_init(&p1);
  sci_sb_printf(&p1, "P1@cta %d,gpu 0", cta1);
  sci_sb_printf(&sb, " %-*s | %-*s ;\n", W, "P0@cta 0,gpu 0", W, p1.data);
  int n = c0->n > c1->n ? c0->n : c1->n;
  for (int i = 0; i < n; i++)
    sci_sb_printf(&sb, " %-*s | %-*s ;\n", W, i < c0->n ? c0->line[i] : "", W,
                 i < c1->n ? c1->line[i] : "");
  sci_sb_printf(&sb, "exists (%s)\n", cond);
  return sb.data;
}

static bool valid_episode(const sc_drf_episode *e) {
  return e && e->scope >= 0 && e->scope <= 2 && e->cta >= 0;
}

static sc_status drf_litmus_unguarded(sc_drf_shape shape,
                                      const sc_drf_episode *reader,
                                      const sc_drf_episode *writer,
                                      const char *name, const char *doc,
                                      const char **text, sc_error **err) {
  if (!valid_episode(reader) || !valid_episode(writer) || !name || !doc ||
      !text)
    return sci_fail(err, SC_ERR_USAGE, NULL, 0, 0,
                   "sc_drf_litmus: an episode, a name, a doc line and "
                   "somewhere to put the text are needed");
  if (strpbrk(doc, "\"\n"))
    return sci_fail(err, SC_ERR_USAGE, NULL, 0, 0,
                   "sc_drf_litmus: the doc line holds a quote or a newline");
  thread_code c0 = {{0}, 0}, c1 = {{0}, 0};
  const char *init, *cond;
  switch (shape) {
  case SC_DRF_READ_LATER:
    /* P0, the reader, read the store of P1, an episode after it in the
     * lock's order: P1 acquires what P0 released (m = 2) */
    put_reader(reader, false, "2", &c0);
    put_acquire(writer, &c1);
    put(&c1, "st.weak x, 2");
    init = "x=1; m=0; P0:r1=0; P1:r0=0;";
    cond = "P0:r1 == 2 /\\ P1:r0 == 2";
    break;
  case SC_DRF_MISSED_EARLIER:
    /* P1, the reader, missed the store of P0, the episode before it */
    put(&c0, "st.weak x, 2");
    put_release(writer, "2", &c0);
    put_reader(reader, true, "4", &c1);
    init = "x=1; m=0; P0:r0=0; P1:r0=0; P1:r1=0;";
    cond = "P1:r0 == 2 /\\ P1:r1 == 1";
    break;
  case SC_DRF_OVERWRITTEN:
    /* the store of P0, an earlier episode, landed after P1's own */
    put(&c0, "st.weak x, 2");
    put_release(writer, "2", &c0);
    put_acquire(reader, &c1);
    put(&c1, "st.weak x, 3");
    put(&c1, "ld.weak r1, x");
    init = "x=1; m=0; P0:r0=0; P1:r0=0; P1:r1=0;";
    cond = "P1:r0 == 2 /\\ P1:r1 == 2";
    break;
  default:
    return sci_fail(err, SC_ERR_USAGE, NULL, 0, 0,
                   "sc_drf_litmus: no shape %d", (int)shape);
  }
  /* the writer is P1 in the first shape, P0 in the others: P1 shares
   * P0's CTA when the two episodes ran in one */
  *text = two_threads(name, doc, init, reader->cta == writer->cta ? 0 : 1,
                      &c0, &c1, cond);
  return SC_OK;
}

sc_status sc_drf_litmus(sc_drf_shape shape, const sc_drf_episode *reader,
                        const sc_drf_episode *writer, const char *name,
                        const char *doc, const char **text, sc_error **err) {
  sc_oom_guard g;
  if (!SC_OOM_ENTER(g))
    return sci_oom_fail(&g, NULL, err);
  sc_status st =
      drf_litmus_unguarded(shape, reader, writer, name, doc, text, err);
  sci_oom_leave(&g);
  return st;
}
