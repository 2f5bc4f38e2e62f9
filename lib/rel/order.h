/* order.h: the orders of a few items (the writes to one location, the
 * fence.sc events of an execution), each listed exactly once, for the
 * enumerator to choose from: every strict total order, or every strict
 * partial order in which given pairs are comparable.  Pure combinatorics:
 * nothing here knows of events or tests. */
#ifndef SC_ORDER_H
#define SC_ORDER_H

#include <stdint.h>

/* Items are 0..k-1, k at most SC_ORDER_MAX_ITEMS. */
#define SC_ORDER_MAX_ITEMS 32

/* A list of orders of k items.  An order is k masks: bit j of mask i says
 * that j comes before i (j < i in the order). */
typedef struct sc_order_list {
  int k;           /* items */
  int n;           /* orders */
  uint32_t *below; /* order o is below[o * k .. o * k + k - 1] */
  int cap;
} sc_order_list;

static inline const uint32_t *sc_order_at(const sc_order_list *l, int o) {
  return l->below + (long)o * l->k;
}

/* Every total order of the k items, in the lexicographic order of their
 * sequences (0 < 1 < ... < k-1 first).  NULL when there are more than
 * `limit`. */
sc_order_list *sci_orders_total(int k, long limit);

/* Every strict partial order of the k items in which i and j are
 * comparable whenever bit j of comparable[i] is set (comparable may be
 * NULL: no such pair).  NULL when there are more than `limit`. */
sc_order_list *sci_orders_partial(int k, const uint32_t *comparable, long limit);

/* Walking the same orders, in the same order, one step at a time: visit
 * sees each partial step and each complete order (placed has all k bits).
 * below[i] holds what is known to come before item i: total orders are
 * built position by position (an item not placed yet comes after every
 * placed one, and nothing more is known of it), partial orders item by
 * item (items 0..i placed; an item not placed yet has below 0 and may
 * still go before or after placed ones, but the order among placed items
 * is final).  A step whose one way on is the next call is not shown.
 * visit returns <0 to stop the walk (the walk returns -1), 0 to cut this
 * branch, >0 to go on.  With k = 0 the one (empty) order is visited. */
/* The set of all k items, 0 <= k <= 32: what `placed` is once an order is
 * complete. */
static inline uint32_t sc_order_all(int k) {
  return k == 32 ? UINT32_MAX : (UINT32_C(1) << k) - 1;
}

typedef int (*sc_order_visit)(void *ctx, const uint32_t *below, uint32_t placed);
int sci_orders_walk_total(int k, sc_order_visit visit, void *ctx);
int sci_orders_walk_partial(int k, const uint32_t *comparable, sc_order_visit visit,
                           void *ctx);

/* The items of order o that nothing comes after: a mask. */
uint32_t sci_order_maximal(const sc_order_list *l, int o);

#endif
