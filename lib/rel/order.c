/* order.c: listing the total or partial orders of a few items, each once,
 * or walking them step by step so that a caller can cut a branch early.
 * Total orders come from the permutations in lexicographic order, built
 * position by position.  Partial
 * orders are built one item at a time: each partial order of items 0..i
 * restricts to exactly one of items 0..i-1, so extending every order of
 * 0..i-1 in every possible way by item i lists each order exactly once. */
#include "rel/order.h"

#include "util/gcmem.h"

#include <stdbool.h>
#include <string.h>

static sc_order_list *new_list(int k) {
  sc_order_list *l = sci_alloc(sizeof *l);
  l->k = k;
  return l;
}

/* Append an order; false (and nothing appended) past the limit. */
static bool keep(sc_order_list *l, const uint32_t *below, long limit) {
  if (l->n >= limit)
    return false;
  sci_grow(&l->below, &l->cap, (l->n + 1) * l->k, sizeof(uint32_t));
  memcpy(l->below + (long)l->n * l->k, below, sizeof(uint32_t) * (size_t)l->k);
  l->n++;
  return true;
}

/* ---- Total orders ---------------------------------------------------------- */

/* ---- Walks --------------------------------------------------------------- */

/* A walk calls visit at each step and at each complete order; a step is
 * skipped when it has a single way on (its one child comes next). */
typedef struct walk {
  int k;
  uint32_t all;
  const uint32_t *comparable; /* partial orders only */
  sc_order_visit visit;
  void *ctx;
} walk;

/* The order so far: <0 stops the walk, 0 cuts this branch, >0 goes on. */
static int step(walk *w, const uint32_t *below, uint32_t placed, bool single) {
  if (placed != w->all && single)
    return 1;
  return w->visit(w->ctx, below, placed);
}

/* Total orders, position by position: the items not placed yet come
 * after every placed one (below[j] = placed), in lexicographic order of
 * the sequences. */
static int walk_total(walk *w, uint32_t *below, uint32_t placed) {
  if (placed == w->all)
    return 0;
  for (int i = 0; i < w->k; i++) {
    if (placed >> i & 1)
      continue;
    uint32_t now = placed | UINT32_C(1) << i;
    below[i] = placed;
    for (int j = 0; j < w->k; j++)
      if (!(now >> j & 1))
        below[j] = now;
    int r = step(w, below, now, __builtin_popcount(now) == w->k - 1);
    if (r < 0 || (r > 0 && walk_total(w, below, now) < 0))
      return -1;
  }
  return 0;
}

int sci_orders_walk_total(int k, sc_order_visit visit, void *ctx) {
  walk w = {k, sc_order_all(k), NULL, visit, ctx};
  uint32_t below[SC_ORDER_MAX_ITEMS] = {0};
  if (k == 0)
    return visit(ctx, below, 0) < 0 ? -1 : 0;
  return walk_total(&w, below, 0);
}

/* Collecting every order into a list. */
typedef struct collect {
  sc_order_list *out;
  long limit;
  bool over;
} collect;

static int collect_one(void *ctx, const uint32_t *below, uint32_t placed) {
  collect *c = ctx;
  if (placed != sc_order_all(c->out->k))
    return 1;
  if (!keep(c->out, below, c->limit)) {
    c->over = true;
    return -1;
  }
  return 1;
}

sc_order_list *sci_orders_total(int k, long limit) {
  collect c = {new_list(k), limit, false};
  sci_orders_walk_total(k, collect_one, &c);
  return c.over ? NULL : c.out;
}

/* ---- Partial orders -------------------------------------------------------- */

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

static int extend(walk *w, uint32_t *below, int i);

/* Item i goes after the items of `down` and before those of `up`. */
static int place(walk *w, const uint32_t *below, int i, uint32_t down, uint32_t up) {
  uint32_t next[SC_ORDER_MAX_ITEMS] = {0};
  memcpy(next, below, sizeof(uint32_t) * (size_t)i);
  next[i] = down;
  for (uint32_t s = up; s; s &= s - 1)
    next[__builtin_ctz(s)] |= UINT32_C(1) << i;
  uint32_t placed = sc_order_all(i + 1);
  int r = step(w, next, placed, false);
  return r <= 0 ? r : extend(w, next, i + 1);
}

/* Every way to add item i to the order of items 0..i-1: a down-closed set
 * below it, an up-closed set above it, everything below before everything
 * above already (so that the order stays transitive), and the pairs that
 * must be comparable on one side or the other. */
static int extend(walk *w, uint32_t *below, int i) {
  if (i == w->k)
    return 0;
  uint32_t all = (UINT32_C(1) << i) - 1;
  uint32_t must = w->comparable ? w->comparable[i] & all : 0;
  for (uint32_t down = 0;; down = (down - all) & all) { /* every subset */
    if (down_closed(below, down)) {
      uint32_t room = all & ~down; /* candidates for `up` */
      for (uint32_t d = down; d; d &= d - 1)
        room &= above(below, i, __builtin_ctz(d));
      if ((must & ~down & ~room) == 0)
        for (uint32_t up = room;; up = (up - 1) & room) { /* every subset */
          if ((must & ~(down | up)) == 0 && up_closed(below, i, up) &&
              place(w, below, i, down, up) < 0)
            return -1;
          if (up == 0)
            break;
        }
    }
    if (down == all)
      break;
  }
  return 0;
}

int sci_orders_walk_partial(int k, const uint32_t *comparable, sc_order_visit visit,
                           void *ctx) {
  walk w = {k, sc_order_all(k), comparable, visit, ctx};
  uint32_t below[SC_ORDER_MAX_ITEMS] = {0};
  if (k == 0)
    return visit(ctx, below, 0) < 0 ? -1 : 0;
  return extend(&w, below, 0);
}

sc_order_list *sci_orders_partial(int k, const uint32_t *comparable, long limit) {
  collect c = {new_list(k), limit, false};
  sci_orders_walk_partial(k, comparable, collect_one, &c);
  return c.over ? NULL : c.out;
}

uint32_t sci_order_maximal(const sc_order_list *l, int o) {
  const uint32_t *below = sc_order_at(l, o);
  uint32_t all = sc_order_all(l->k);
  uint32_t before_something = 0;
  for (int i = 0; i < l->k; i++)
    before_something |= below[i];
  return all & ~before_something;
}
