/* rel.h: events as small integers 0..n-1, event sets as bitsets and
 * relations as n x n bit matrices (one row of 64-bit words per event).
 * Pure computation: nothing here knows of PTX, litmus tests or cat.
 *
 * Conventions.  Functions named *_new and *_copy allocate (GC memory, never
 * freed by hand); every other operation writes into a destination the
 * caller owns, so a hot loop can reuse buffers.  All operands of one call
 * must have the same n.  A destination may alias an operand; only
 * sci_rel_seq needs scratch memory then (it allocates), so a hot loop should
 * give it a distinct destination.  Bits at positions >= n are always zero. */
#ifndef SC_REL_H
#define SC_REL_H

#include <stdbool.h>
#include <stdint.h>

typedef struct sc_set {
  int n;      /* events 0..n-1 */
  int nwords; /* (n + 63) / 64 */
  uint64_t w[];
} sc_set;

typedef struct sc_rel {
  int n;      /* events 0..n-1 */
  int nwords; /* words per row: (n + 63) / 64 */
  uint64_t w[]; /* row a at w + a * nwords; bit b of row a is the pair (a, b) */
} sc_rel;

/* ---- Event sets ---------------------------------------------------------- */

sc_set *sci_set_new(int n); /* empty; n >= 0 */
sc_set *sci_set_copy(const sc_set *s);
void sci_set_assign(sc_set *dst, const sc_set *src);
void sci_set_clear(sc_set *s);
void sci_set_fill(sc_set *s); /* every event 0..n-1 */

static inline void sc_set_add(sc_set *s, int e) {
  s->w[e >> 6] |= UINT64_C(1) << (e & 63);
}
static inline void sc_set_remove(sc_set *s, int e) {
  s->w[e >> 6] &= ~(UINT64_C(1) << (e & 63));
}
static inline bool sc_set_has(const sc_set *s, int e) {
  return (s->w[e >> 6] >> (e & 63)) & 1;
}

bool sci_set_equal(const sc_set *a, const sc_set *b);
bool sci_set_subset(const sc_set *a, const sc_set *b); /* a included in b */
bool sci_set_is_empty(const sc_set *s);
int sci_set_count(const sc_set *s);
/* The smallest element >= from, or -1: for (e = sci_set_next(s, 0); e >= 0;
 * e = sci_set_next(s, e + 1)) visits s in increasing order. */
int sci_set_next(const sc_set *s, int from);

void sci_set_union(sc_set *dst, const sc_set *a, const sc_set *b);
void sci_set_inter(sc_set *dst, const sc_set *a, const sc_set *b);
void sci_set_diff(sc_set *dst, const sc_set *a, const sc_set *b);
void sci_set_complement(sc_set *dst, const sc_set *a); /* w.r.t. 0..n-1 */

/* A total order: the sorted element lists compared lexicographically (a
 * proper prefix is smaller).  Returns <0, 0 or >0. */
int sci_set_compare(const sc_set *a, const sc_set *b);

/* ---- Relations ----------------------------------------------------------- */

sc_rel *sci_rel_new(int n); /* empty; n >= 0 */
sc_rel *sci_rel_copy(const sc_rel *r);
void sci_rel_assign(sc_rel *dst, const sc_rel *src);
void sci_rel_clear(sc_rel *r);
void sci_rel_fill(sc_rel *r); /* every pair: the universal relation */

static inline uint64_t *sc_rel_row(sc_rel *r, int a) {
  return r->w + (long)a * r->nwords;
}
static inline const uint64_t *sc_rel_crow(const sc_rel *r, int a) {
  return r->w + (long)a * r->nwords;
}
static inline void sc_rel_add(sc_rel *r, int a, int b) {
  sc_rel_row(r, a)[b >> 6] |= UINT64_C(1) << (b & 63);
}
static inline void sc_rel_remove(sc_rel *r, int a, int b) {
  sc_rel_row(r, a)[b >> 6] &= ~(UINT64_C(1) << (b & 63));
}
static inline bool sc_rel_has(const sc_rel *r, int a, int b) {
  return (sc_rel_crow(r, a)[b >> 6] >> (b & 63)) & 1;
}

bool sci_rel_equal(const sc_rel *a, const sc_rel *b);
bool sci_rel_subset(const sc_rel *a, const sc_rel *b);
bool sci_rel_is_empty(const sc_rel *r);
int sci_rel_count(const sc_rel *r); /* number of pairs */

void sci_rel_union(sc_rel *dst, const sc_rel *a, const sc_rel *b);
void sci_rel_inter(sc_rel *dst, const sc_rel *a, const sc_rel *b);
void sci_rel_diff(sc_rel *dst, const sc_rel *a, const sc_rel *b);
void sci_rel_complement(sc_rel *dst, const sc_rel *a); /* w.r.t. all n*n pairs */

void sci_rel_seq(sc_rel *dst, const sc_rel *a, const sc_rel *b); /* a ; b */
void sci_rel_inverse(sc_rel *dst, const sc_rel *a);              /* a^-1 */
void sci_rel_plus(sc_rel *dst, const sc_rel *a); /* a+: transitive closure */
void sci_rel_star(sc_rel *dst, const sc_rel *a); /* a*: a+ | id */
void sci_rel_opt(sc_rel *dst, const sc_rel *a);  /* a?: a | id */

/* [s]: the identity on s (s NULL: on every event). */
void sci_rel_identity(sc_rel *dst, const sc_set *s);
/* s1 * s2: every pair from s1 to s2. */
void sci_rel_cartesian(sc_rel *dst, const sc_set *s1, const sc_set *s2);
/* [dom] ; r ; [ran]: the pairs of r leaving dom and entering ran (NULL: no
 * restriction on that side). */
void sci_rel_restrict(sc_rel *dst, const sc_rel *r, const sc_set *dom,
                     const sc_set *ran);
void sci_rel_domain(sc_set *dst, const sc_rel *r); /* events with a successor */
void sci_rel_range(sc_set *dst, const sc_rel *r);  /* events with a predecessor */

bool sci_rel_is_irreflexive(const sc_rel *r);
bool sci_rel_is_acyclic(const sc_rel *r);
/* One cycle of r, as events e0 .. ek-1 with (ei, ei+1) and (ek-1, e0) in r.
 * `cycle` must have room for n events.  Returns k, or 0 when r is acyclic. */
int sci_rel_find_cycle(const sc_rel *r, int *cycle);

/* A total order on relations: their pairs in lexicographic order compared
 * as sorted lists (see sci_set_compare). */
int sci_rel_compare(const sc_rel *a, const sc_rel *b);

#endif
