/* family.c: every cycle up to a given size over a set of edges, each
 * once up to rotation (the rotation whose edge indices sort first stands
 * for all), made into tests; cycles that make no test (one edge leaving a
 * location, contradictory placements...) are skipped. */
#include "gen/gen.h"

#include "util/error.h"
#include "util/gcmem.h"
#include "util/oom.h"
#include "util/strbuf.h"

#include <string.h>

typedef struct family {
  const gen_edge *edges;
  int nedges, max_size;
  int *seq;          /* the cycle being built, as edge indices */
  sc_test **tests;
  int ntests, cap;
  const char **names; /* names taken, an open-addressing hash set */
  int nslots;
} family;

/* Whether seq[0..n) is the least of its rotations. */
static bool least_rotation(const int *seq, int n) {
  for (int r = 1; r < n; r++)
    for (int k = 0; k < n; k++) {
      int a = seq[k], b = seq[(k + r) % n];
      if (b < a)
        return false;
      if (b > a)
        break;
    }
  return true;
}

static unsigned long hash(const char *s) {
  unsigned long h = 5381;
  while (*s)
    h = h * 33 + (unsigned char)*s++;
  return h;
}

/* Whether `name` was free; it is taken now. */
static bool take_name(family *f, const char *name) {
  if (2 * (f->ntests + 1) > f->nslots) {
    const char **old = f->names;
    int n = f->nslots;
    f->nslots = n ? 2 * n : 1024;
    f->names = sci_alloc(sizeof(char *) * (size_t)f->nslots);
    for (int i = 0; i < n; i++)
      if (old[i])
        take_name(f, old[i]);
  }
  unsigned long i = hash(name) % (unsigned long)f->nslots;
  for (; f->names[i]; i = (i + 1) % (unsigned long)f->nslots)
    if (strcmp(f->names[i], name) == 0)
      return false;
  f->names[i] = name;
  return true;
}

/* Two tests may get one name (diy's names do not say everything): the
 * later ones get "-2", "-3"... */
static const char *unique_name(family *f, const char *name) {
  const char *try = name;
  for (int k = 2; !take_name(f, try); k++)
    try = sci_printf("%s-%d", name, k);
  return try;
}

static void add_cycle(family *f, int n) {
  sc_strbuf sb;
  sci_sb_init(&sb);
  for (int i = 0; i < n; i++)
    sci_sb_printf(&sb, "%s%s", i ? " " : "", f->edges[f->seq[i]].word);
  sc_test *t;
  if (sc_gen_cycle(sb.data, NULL, &t, NULL) != SC_OK)
    return;
  const char *name = unique_name(f, t->name);
  if (name != t->name)
    sc_gen_cycle(sb.data, name, &t, NULL);
  sci_grow(&f->tests, &f->cap, f->ntests + 1, sizeof(sc_test *));
  f->tests[f->ntests++] = t;
}

/* Extend seq[0..n) by every edge whose source fits the last target. */
static void extend(family *f, int n) {
  if (n >= 2 && f->edges[f->seq[n - 1]].dst == f->edges[f->seq[0]].src &&
      least_rotation(f->seq, n))
    add_cycle(f, n);
  if (n == f->max_size)
    return;
  for (int i = 0; i < f->nedges; i++) {
    if (n > 0 && f->edges[f->seq[n - 1]].dst != f->edges[i].src)
      continue;
    if (n > 0 && i < f->seq[0]) /* the first edge is the least */
      continue;
    f->seq[n] = i;
    extend(f, n + 1);
  }
}

static sc_status gen_family_unguarded(const char *const *edges, int nedges,
                                      int max_size, sc_test ***out, int *count,
                                      sc_error **err) {
  *out = NULL;
  *count = 0;
  family f = {0};
  gen_edge *e = sci_alloc(sizeof(gen_edge) * (size_t)(nedges + 1));
  for (int i = 0; i < nedges; i++) {
    gen_annot a;
    if (!sci_gen_word_read(edges[i], &e[i], &a))
      return sci_fail(err, SC_ERR_SYNTAX, "edges", i + 1, 1,
                     "expected an edge such as Rfe, PodWR, DpAddrdW, "
                     "FenceGldWW or [acquire.gpu]PodRR, found '%s'",
                     edges[i]);
    e[i].word = edges[i]; /* the cycle's text keeps the annotation */
  }
  if (max_size < 2 || max_size > 16)
    return sci_fail(err, SC_ERR_USAGE, NULL, 0, 0,
                   "the size of cycles must be between 2 and 16, not %d",
                   max_size);
  f.edges = e;
  f.nedges = nedges;
  f.max_size = max_size;
  f.seq = sci_alloc_atomic(sizeof(int) * (size_t)max_size);
  extend(&f, 0);
  *out = f.tests;
  *count = f.ntests;
  return SC_OK;
}

sc_status sc_gen_family(const char *const *edges, int nedges, int max_size,
                        sc_test ***out, int *count, sc_error **err) {
  sc_oom_guard g;
  if (!SC_OOM_ENTER(g))
    return sci_oom_fail(&g, NULL, err);
  sc_status st = gen_family_unguarded(edges, nedges, max_size, out, count, err);
  sci_oom_leave(&g);
  return st;
}
