/* order.c: listing the total or partial orders of a few items, each once.
 * Total orders come from the permutations in lexicographic order.  Partial
 * orders are built one item at a time: each partial order of items 0..i
 * restricts to exactly one of items 0..i-1, so extending every order of
 * 0..i-1 in every possible way by item i lists each order exactly once. */
#include "order.h"

#include "gcmem.h"

#include <stdbool.h>
#include <string.h>

static sc_order_list *new_list(int k) {
  sc_order_list *l = sc_alloc(sizeof *l);
  l->k = k;
  return l;
}

/* Append an order; false (and nothing appended) past the limit. */
static bool keep(sc_order_list *l, const uint32_t *below, long limit) {
  if (l->n >= limit)
    return false;
  sc_grow(&l->below, &l->cap, (l->n + 1) * l->k, sizeof(uint32_t));
  memcpy(l->below + (long)l->n * l->k, below, sizeof(uint32_t) * (size_t)l->k);
  l->n++;
  return true;
}

/* ---- Total orders ---------------------------------------------------------- */

static void reverse(int *a, int lo, int hi) {
  for (; lo < hi; lo++, hi--) {
    int tmp = a[lo];
    a[lo] = a[hi];
    a[hi] = tmp;
  }
}

/* The next sequence in lexicographic order; false after the last. */
static bool next_permutation(int *a, int n) {
  int i = n - 2;
  while (i >= 0 && a[i] >= a[i + 1])
    i--;
  if (i < 0)
    return false;
  int j = n - 1;
  while (a[j] <= a[i])
    j--;
  int tmp = a[i];
  a[i] = a[j];
  a[j] = tmp;
  reverse(a, i + 1, n - 1);
  return true;
}

sc_order_list *sc_orders_total(int k, long limit) {
  sc_order_list *l = new_list(k);
  int seq[SC_ORDER_MAX_ITEMS];
  uint32_t below[SC_ORDER_MAX_ITEMS];
  for (int i = 0; i < k; i++)
    seq[i] = i;
  do {
    uint32_t before = 0;
    for (int t = 0; t < k; t++) {
      below[seq[t]] = before;
      before |= UINT32_C(1) << seq[t];
    }
    if (!keep(l, below, limit))
      return NULL;
  } while (next_permutation(seq, k));
  return l;
}

/* ---- Partial orders -------------------------------------------------------- */

typedef struct builder {
  int k;
  const uint32_t *comparable;
  long limit;
  sc_order_list *out;
} builder;

/* Items among 0..i-1 that come after item j. */
static uint32_t above(const uint32_t *below, int i, int j) {
  uint32_t a = 0;
  for (int m = 0; m < i; m++)
    if (below[m] >> j & 1)
      a |= UINT32_C(1) << m;
  return a;
}

/* A set of items is down-closed when it holds what comes before each of
 * its items, up-closed when it holds what comes after. */
static bool down_closed(const uint32_t *below, uint32_t set) {
  for (uint32_t s = set; s; s &= s - 1)
    if (below[__builtin_ctz(s)] & ~set)
      return false;
  return true;
}

static bool up_closed(const uint32_t *below, int i, uint32_t set) {
  for (uint32_t s = set; s; s &= s - 1)
    if (above(below, i, __builtin_ctz(s)) & ~set)
      return false;
  return true;
}

static bool extend(builder *b, uint32_t *below, int i);

/* Item i goes after the items of `down` and before those of `up`. */
static bool place(builder *b, const uint32_t *below, int i, uint32_t down,
                  uint32_t up) {
  uint32_t next[SC_ORDER_MAX_ITEMS];
  memcpy(next, below, sizeof(uint32_t) * (size_t)i);
  next[i] = down;
  for (uint32_t s = up; s; s &= s - 1)
    next[__builtin_ctz(s)] |= UINT32_C(1) << i;
  return extend(b, next, i + 1);
}

/* Every way to add item i to the order of items 0..i-1: a down-closed set
 * below it, an up-closed set above it, everything below before everything
 * above already (so that the order stays transitive), and the pairs that
 * must be comparable on one side or the other. */
static bool extend(builder *b, uint32_t *below, int i) {
  if (i == b->k)
    return keep(b->out, below, b->limit);
  uint32_t all = (UINT32_C(1) << i) - 1;
  uint32_t must = b->comparable ? b->comparable[i] & all : 0;
  for (uint32_t down = 0;; down = (down - all) & all) { /* every subset */
    if (down_closed(below, down)) {
      uint32_t room = all & ~down; /* candidates for `up` */
      for (uint32_t d = down; d; d &= d - 1)
        room &= above(below, i, __builtin_ctz(d));
      if ((must & ~down & ~room) == 0)
        for (uint32_t up = room;; up = (up - 1) & room) { /* every subset */
          if ((must & ~(down | up)) == 0 && up_closed(below, i, up) &&
              !place(b, below, i, down, up))
            return false;
          if (up == 0)
            break;
        }
    }
    if (down == all)
      break;
  }
  return true;
}

sc_order_list *sc_orders_partial(int k, const uint32_t *comparable, long limit) {
  builder b = {k, comparable, limit, new_list(k)};
  uint32_t below[SC_ORDER_MAX_ITEMS] = {0};
  return extend(&b, below, 0) ? b.out : NULL;
}

uint32_t sc_order_maximal(const sc_order_list *l, int o) {
  const uint32_t *below = sc_order_at(l, o);
  uint32_t all = l->k == 32 ? UINT32_MAX : (UINT32_C(1) << l->k) - 1;
  uint32_t before_something = 0;
  for (int i = 0; i < l->k; i++)
    before_something |= below[i];
  return all & ~before_something;
}
