/* rel.c: bitset event sets and bit-matrix relations.  Word-parallel loops
 * only; no knowledge of what the events mean.  Must not allocate except in
 * the constructors (*_new, *_copy), sci_rel_seq with an aliased
 * destination, and the graph searches when n exceeds their stack buffers. */
#include "rel/rel.h"

#include "util/gcmem.h"

#include <string.h>

/* Graph searches keep their per-event arrays on the stack up to this size. */
#define STACK_EVENTS 256

static int words_for(int n) { return n > 0 ? (n + 63) / 64 : 0; }

/* Mask of the valid bits in the last word of a row (all ones when n is a
 * multiple of 64). */
static uint64_t last_mask(int n) {
  int r = n & 63;
  return r ? (UINT64_C(1) << r) - 1 : ~UINT64_C(0);
}

static int ctz64(uint64_t x) { return __builtin_ctzll(x); }
static int popcount64(uint64_t x) { return __builtin_popcountll(x); }

/* ---- Event sets ---------------------------------------------------------- */

sc_set *sci_set_new(int n) {
  if (n < 0)
    n = 0;
  int nw = words_for(n);
  sc_set *s = sci_alloc_atomic(sizeof *s + sizeof(uint64_t) * (size_t)nw);
  s->n = n;
  s->nwords = nw;
  memset(s->w, 0, sizeof(uint64_t) * (size_t)nw);
  return s;
}

sc_set *sci_set_copy(const sc_set *s) {
  sc_set *c = sci_set_new(s->n);
  sci_set_assign(c, s);
  return c;
}

void sci_set_assign(sc_set *dst, const sc_set *src) {
  if (dst != src)
    memcpy(dst->w, src->w, sizeof(uint64_t) * (size_t)src->nwords);
}

void sci_set_clear(sc_set *s) {
  memset(s->w, 0, sizeof(uint64_t) * (size_t)s->nwords);
}

void sci_set_fill(sc_set *s) {
  for (int i = 0; i < s->nwords; i++)
    s->w[i] = ~UINT64_C(0);
  if (s->nwords)
    s->w[s->nwords - 1] &= last_mask(s->n);
}

bool sci_set_equal(const sc_set *a, const sc_set *b) {
  return memcmp(a->w, b->w, sizeof(uint64_t) * (size_t)a->nwords) == 0;
}

bool sci_set_subset(const sc_set *a, const sc_set *b) {
  for (int i = 0; i < a->nwords; i++)
    if (a->w[i] & ~b->w[i])
      return false;
  return true;
}

bool sci_set_is_empty(const sc_set *s) {
  for (int i = 0; i < s->nwords; i++)
    if (s->w[i])
      return false;
  return true;
}

int sci_set_count(const sc_set *s) {
  int c = 0;
  for (int i = 0; i < s->nwords; i++)
    c += popcount64(s->w[i]);
  return c;
}

/* The first set bit at or after `from` in a word array of `nwords`, or -1. */
static int next_bit(const uint64_t *w, int nwords, int from) {
  if (from < 0)
    from = 0;
  int i = from >> 6;
  if (i >= nwords)
    return -1;
  uint64_t x = w[i] & (~UINT64_C(0) << (from & 63));
  for (;;) {
    if (x)
      return i * 64 + ctz64(x);
    if (++i >= nwords)
      return -1;
    x = w[i];
  }
}

int sci_set_next(const sc_set *s, int from) {
  return next_bit(s->w, s->nwords, from);
}

void sci_set_union(sc_set *dst, const sc_set *a, const sc_set *b) {
  for (int i = 0; i < dst->nwords; i++)
    dst->w[i] = a->w[i] | b->w[i];
}

void sci_set_inter(sc_set *dst, const sc_set *a, const sc_set *b) {
  for (int i = 0; i < dst->nwords; i++)
    dst->w[i] = a->w[i] & b->w[i];
}

void sci_set_diff(sc_set *dst, const sc_set *a, const sc_set *b) {
  for (int i = 0; i < dst->nwords; i++)
    dst->w[i] = a->w[i] & ~b->w[i];
}

void sci_set_complement(sc_set *dst, const sc_set *a) {
  for (int i = 0; i < dst->nwords; i++)
    dst->w[i] = ~a->w[i];
  if (dst->nwords)
    dst->w[dst->nwords - 1] &= last_mask(dst->n);
}

/* Compare two bit sequences as sorted element lists.  At the first element
 * d in only one of them (say a), the lists agree below d; a's next element
 * is d, so a is smaller exactly when b still has an element after d. */
static int compare_bits(const uint64_t *a, const uint64_t *b, int nwords) {
  for (int i = 0; i < nwords; i++) {
    uint64_t x = a[i] ^ b[i];
    if (!x)
      continue;
    int bit = ctz64(x);
    uint64_t above = bit == 63 ? 0 : ~UINT64_C(0) << (bit + 1);
    bool a_has = (a[i] >> bit) & 1;
    const uint64_t *other = a_has ? b : a;
    bool other_goes_on = (other[i] & above) != 0;
    for (int j = i + 1; !other_goes_on && j < nwords; j++)
      other_goes_on = other[j] != 0;
    int a_smaller = a_has ? other_goes_on : !other_goes_on;
    return a_smaller ? -1 : 1;
  }
  return 0;
}

int sci_set_compare(const sc_set *a, const sc_set *b) {
  return compare_bits(a->w, b->w, a->nwords);
}

/* ---- Relations ----------------------------------------------------------- */

static size_t rel_words(const sc_rel *r) { return (size_t)r->n * (size_t)r->nwords; }

sc_rel *sci_rel_new(int n) {
  if (n < 0)
    n = 0;
  int nw = words_for(n);
  size_t total = (size_t)n * (size_t)nw;
  sc_rel *r = sci_alloc_atomic(sizeof *r + sizeof(uint64_t) * total);
  r->n = n;
  r->nwords = nw;
  memset(r->w, 0, sizeof(uint64_t) * total);
  return r;
}

sc_rel *sci_rel_copy(const sc_rel *r) {
  sc_rel *c = sci_rel_new(r->n);
  sci_rel_assign(c, r);
  return c;
}

void sci_rel_assign(sc_rel *dst, const sc_rel *src) {
  if (dst != src)
    memcpy(dst->w, src->w, sizeof(uint64_t) * rel_words(src));
}

void sci_rel_clear(sc_rel *r) { memset(r->w, 0, sizeof(uint64_t) * rel_words(r)); }

void sci_rel_fill(sc_rel *r) {
  for (int a = 0; a < r->n; a++) {
    uint64_t *row = sc_rel_row(r, a);
    for (int i = 0; i < r->nwords; i++)
      row[i] = ~UINT64_C(0);
    row[r->nwords - 1] &= last_mask(r->n);
  }
}

bool sci_rel_equal(const sc_rel *a, const sc_rel *b) {
  return memcmp(a->w, b->w, sizeof(uint64_t) * rel_words(a)) == 0;
}

bool sci_rel_subset(const sc_rel *a, const sc_rel *b) {
  size_t t = rel_words(a);
  for (size_t i = 0; i < t; i++)
    if (a->w[i] & ~b->w[i])
      return false;
  return true;
}

bool sci_rel_is_empty(const sc_rel *r) {
  size_t t = rel_words(r);
  for (size_t i = 0; i < t; i++)
    if (r->w[i])
      return false;
  return true;
}

int sci_rel_count(const sc_rel *r) {
  int c = 0;
  size_t t = rel_words(r);
  for (size_t i = 0; i < t; i++)
    c += popcount64(r->w[i]);
  return c;
}

void sci_rel_union(sc_rel *dst, const sc_rel *a, const sc_rel *b) {
  size_t t = rel_words(dst);
  for (size_t i = 0; i < t; i++)
    dst->w[i] = a->w[i] | b->w[i];
}

void sci_rel_inter(sc_rel *dst, const sc_rel *a, const sc_rel *b) {
  size_t t = rel_words(dst);
  for (size_t i = 0; i < t; i++)
    dst->w[i] = a->w[i] & b->w[i];
}

void sci_rel_diff(sc_rel *dst, const sc_rel *a, const sc_rel *b) {
  size_t t = rel_words(dst);
  for (size_t i = 0; i < t; i++)
    dst->w[i] = a->w[i] & ~b->w[i];
}

void sci_rel_complement(sc_rel *dst, const sc_rel *a) {
  for (int r = 0; r < dst->n; r++) {
    uint64_t *d = sc_rel_row(dst, r);
    const uint64_t *s = sc_rel_crow(a, r);
    for (int i = 0; i < dst->nwords; i++)
      d[i] = ~s[i];
    d[dst->nwords - 1] &= last_mask(dst->n);
  }
}

/* Row by row: the successors of x through a;b are the union of the b-rows
 * of x's a-successors. */
static void seq_into(sc_rel *dst, const sc_rel *a, const sc_rel *b) {
  int nw = dst->nwords;
  if (nw == 1) { /* up to 64 events: a row is a word */
    for (int x = 0; x < dst->n; x++) {
      uint64_t d = 0;
      for (uint64_t bits = a->w[x]; bits; bits &= bits - 1)
        d |= b->w[ctz64(bits)];
      dst->w[x] = d;
    }
    return;
  }
  for (int x = 0; x < dst->n; x++) {
    uint64_t *d = sc_rel_row(dst, x);
    memset(d, 0, sizeof(uint64_t) * (size_t)nw);
    const uint64_t *ra = sc_rel_crow(a, x);
    for (int i = 0; i < nw; i++) {
      for (uint64_t bits = ra[i]; bits; bits &= bits - 1) {
        const uint64_t *rb = sc_rel_crow(b, i * 64 + ctz64(bits));
        for (int k = 0; k < nw; k++)
          d[k] |= rb[k];
      }
    }
  }
}

void sci_rel_seq(sc_rel *dst, const sc_rel *a, const sc_rel *b) {
  if (dst == a || dst == b) {
    sc_rel *tmp = sci_rel_new(dst->n);
    seq_into(tmp, a, b);
    sci_rel_assign(dst, tmp);
  } else {
    seq_into(dst, a, b);
  }
}

void sci_rel_inverse(sc_rel *dst, const sc_rel *a) {
  if (dst == a) { /* transpose in place: swap (x,y) and (y,x) above the diagonal */
    for (int x = 0; x < dst->n; x++)
      for (int y = x + 1; y < dst->n; y++) {
        bool xy = sc_rel_has(dst, x, y), yx = sc_rel_has(dst, y, x);
        if (xy != yx) {
          if (xy) { sc_rel_remove(dst, x, y); sc_rel_add(dst, y, x); }
          else { sc_rel_remove(dst, y, x); sc_rel_add(dst, x, y); }
        }
      }
    return;
  }
  sci_rel_clear(dst);
  for (int x = 0; x < a->n; x++) {
    const uint64_t *row = sc_rel_crow(a, x);
    for (int i = 0; i < a->nwords; i++)
      for (uint64_t bits = row[i]; bits; bits &= bits - 1)
        sc_rel_add(dst, i * 64 + ctz64(bits), x);
  }
}

/* Warshall's algorithm over word rows: after step k, x reaches y through
 * intermediate events < k+1; a row that contains k absorbs row k. */
/* Whether row x of r has no pair. */
static bool row_empty(const sc_rel *r, int x) {
  const uint64_t *row = sc_rel_crow(r, x);
  for (int i = 0; i < r->nwords; i++)
    if (row[i])
      return false;
  return true;
}

/* One step of Warshall's closure: row k passes its successors on to each
 * row that reaches k, among rows[0..nrows-1] (NULL: every row). */
static void pass_on(sc_rel *dst, int k, const int *rows, int nrows) {
  int nw = dst->nwords;
  const uint64_t *rk = sc_rel_crow(dst, k);
  uint64_t kbit = UINT64_C(1) << (k & 63);
  int kw = k >> 6;
  for (int j = 0; j < nrows; j++) {
    uint64_t *rx = sc_rel_row(dst, rows ? rows[j] : j);
    if (rx[kw] & kbit)
      for (int w = 0; w < nw; w++)
        rx[w] |= rk[w];
  }
}

/* Warshall's closure, with only the rows that have a pair taking part: a
 * row gains pairs only from the rows of its successors, so an empty row
 * stays empty and, as a step in between, passes nothing on.  The models'
 * relations are sparse (most events of an execution have no rf or fence
 * successor), and the closure was the costliest step of a candidate's
 * concrete run. */
void sci_rel_plus(sc_rel *dst, const sc_rel *a) {
  sci_rel_assign(dst, a);
  if (dst->n > STACK_EVENTS) { /* every row, without a list on the heap */
    for (int k = 0; k < dst->n; k++)
      if (!row_empty(dst, k))
        pass_on(dst, k, NULL, dst->n);
    return;
  }
  int rows[STACK_EVENTS], nrows = 0;
  for (int x = 0; x < dst->n; x++)
    if (!row_empty(dst, x))
      rows[nrows++] = x;
  for (int i = 0; i < nrows; i++)
    pass_on(dst, rows[i], rows, nrows);
}

static void add_identity(sc_rel *r) {
  for (int x = 0; x < r->n; x++)
    sc_rel_add(r, x, x);
}

void sci_rel_star(sc_rel *dst, const sc_rel *a) {
  sci_rel_plus(dst, a);
  add_identity(dst);
}

void sci_rel_opt(sc_rel *dst, const sc_rel *a) {
  sci_rel_assign(dst, a);
  add_identity(dst);
}

void sci_rel_identity(sc_rel *dst, const sc_set *s) {
  sci_rel_clear(dst);
  for (int x = 0; x < dst->n; x++)
    if (!s || sc_set_has(s, x))
      sc_rel_add(dst, x, x);
}

void sci_rel_cartesian(sc_rel *dst, const sc_set *s1, const sc_set *s2) {
  int nw = dst->nwords;
  for (int x = 0; x < dst->n; x++) {
    uint64_t *d = sc_rel_row(dst, x);
    if (sc_set_has(s1, x))
      memcpy(d, s2->w, sizeof(uint64_t) * (size_t)nw);
    else
      memset(d, 0, sizeof(uint64_t) * (size_t)nw);
  }
}

void sci_rel_restrict(sc_rel *dst, const sc_rel *r, const sc_set *dom,
                     const sc_set *ran) {
  int nw = dst->nwords;
  for (int x = 0; x < dst->n; x++) {
    uint64_t *d = sc_rel_row(dst, x);
    const uint64_t *s = sc_rel_crow(r, x);
    if (dom && !sc_set_has(dom, x)) {
      memset(d, 0, sizeof(uint64_t) * (size_t)nw);
      continue;
    }
    for (int i = 0; i < nw; i++)
      d[i] = ran ? s[i] & ran->w[i] : s[i];
  }
}

void sci_rel_domain(sc_set *dst, const sc_rel *r) {
  sci_set_clear(dst);
  for (int x = 0; x < r->n; x++) {
    const uint64_t *row = sc_rel_crow(r, x);
    for (int i = 0; i < r->nwords; i++)
      if (row[i]) {
        sc_set_add(dst, x);
        break;
      }
  }
}

void sci_rel_range(sc_set *dst, const sc_rel *r) {
  uint64_t *acc = dst->w;
  memset(acc, 0, sizeof(uint64_t) * (size_t)dst->nwords);
  for (int x = 0; x < r->n; x++) {
    const uint64_t *row = sc_rel_crow(r, x);
    for (int i = 0; i < r->nwords; i++)
      acc[i] |= row[i];
  }
}

bool sci_rel_is_irreflexive(const sc_rel *r) {
  for (int x = 0; x < r->n; x++)
    if (sc_rel_has(r, x, x))
      return false;
  return true;
}

/* An int array of n entries: on the stack when small enough. */
static int *int_buffer(int *stack_buf, int n) {
  return n <= STACK_EVENTS ? stack_buf : sci_alloc_atomic(sizeof(int) * (size_t)n);
}

/* Whether row (nw words) meets the events of live. */
static bool meets(const uint64_t *row, const uint64_t *live, int nw) {
  for (int i = 0; i < nw; i++)
    if (row[i] & live[i])
      return true;
  return false;
}

/* Sinks peeled off, bit-parallel: an event whose successors have all been
 * removed cannot be on a cycle, so it goes; the relation is acyclic exactly
 * when every event goes.  Each look at an event is one AND of its row with
 * the events left.  The events are visited from the last to the first, so
 * that a chain in increasing order (po) goes in one sweep. */
bool sci_rel_is_acyclic(const sc_rel *r) {
  int nw = r->nwords;
  uint64_t live_buf[(STACK_EVENTS + 63) / 64];
  uint64_t *live = r->n <= STACK_EVENTS ? live_buf
                                        : sci_alloc_atomic(sizeof(uint64_t) * (size_t)nw);
  for (int i = 0; i < nw; i++)
    live[i] = ~UINT64_C(0);
  if (nw)
    live[nw - 1] = last_mask(r->n);
  bool any = r->n > 0;
  for (bool removed = any; removed;) {
    removed = false;
    any = false;
    for (int i = nw - 1; i >= 0; i--)
      for (uint64_t bits = live[i]; bits;) {
        int b = 63 - __builtin_clzll(bits);
        bits &= ~(UINT64_C(1) << b);
        if (!meets(sc_rel_crow(r, i * 64 + b), live, nw)) {
          live[i] &= ~(UINT64_C(1) << b);
          removed = true;
        }
      }
    for (int i = 0; i < nw && !any; i++)
      any = live[i] != 0;
  }
  return !any;
}

/* Depth-first search with an explicit stack (no recursion, so no depth
 * limit).  An edge to an event still on the stack closes a cycle: the cycle
 * is the stack from that event up to the top. */
int sci_rel_find_cycle(const sc_rel *r, int *cycle) {
  enum { WHITE, GREY, BLACK };
  int n = r->n;
  int color_buf[STACK_EVENTS], stack_buf[STACK_EVENTS], next_buf[STACK_EVENTS];
  int *color = int_buffer(color_buf, n), *stack = int_buffer(stack_buf, n);
  int *next = int_buffer(next_buf, n); /* where each stacked event resumes scanning */
  memset(color, 0, sizeof(int) * (size_t)n);
  for (int root = 0; root < n; root++) {
    if (color[root] != WHITE)
      continue;
    int top = 0;
    stack[top] = root;
    next[top] = 0;
    color[root] = GREY;
    while (top >= 0) {
      int x = stack[top];
      int y = next_bit(sc_rel_crow(r, x), r->nwords, next[top]);
      if (y < 0) {
        color[x] = BLACK;
        top--;
        continue;
      }
      next[top] = y + 1;
      if (color[y] == GREY) {
        int from = top;
        while (stack[from] != y)
          from--;
        int k = 0;
        for (int i = from; i <= top; i++)
          cycle[k++] = stack[i];
        return k;
      }
      if (color[y] == WHITE) {
        color[y] = GREY;
        top++;
        stack[top] = y;
        next[top] = 0;
      }
    }
  }
  return 0;
}

/* Pairs in lexicographic order are the bits in row-major order, so compare
 * rows in turn; a difference in row x is decided as for sets, with "the
 * other goes on" extended to the rows after x. */
int sci_rel_compare(const sc_rel *a, const sc_rel *b) {
  int nw = a->nwords;
  for (int x = 0; x < a->n; x++) {
    const uint64_t *ra = sc_rel_crow(a, x), *rb = sc_rel_crow(b, x);
    int i = 0;
    while (i < nw && ra[i] == rb[i])
      i++;
    if (i == nw)
      continue;
    uint64_t diff = ra[i] ^ rb[i];
    int bit = ctz64(diff);
    bool a_has = (ra[i] >> bit) & 1;
    const sc_rel *other = a_has ? b : a;
    const uint64_t *ro = sc_rel_crow(other, x);
    uint64_t above = bit == 63 ? 0 : ~UINT64_C(0) << (bit + 1);
    bool goes_on = (ro[i] & above) != 0;
    for (int j = i + 1; !goes_on && j < nw; j++)
      goes_on = ro[j] != 0;
    for (int y = x + 1; !goes_on && y < a->n; y++) {
      const uint64_t *row = sc_rel_crow(other, y);
      for (int j = 0; !goes_on && j < nw; j++)
        goes_on = row[j] != 0;
    }
    int a_smaller = a_has ? goes_on : !goes_on;
    return a_smaller ? -1 : 1;
  }
  return 0;
}
