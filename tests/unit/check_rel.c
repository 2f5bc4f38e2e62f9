/* check_rel.c: unit tests of the relation layer (lib/rel/) against answers
 * worked out by hand on small hand-made sets and relations, and the
 * counts of orders (OEIS). */
#include "util/gcmem.h"
#include "rel/order.h"
#include "rel/rel.h"

#include <check.h>

#include "check_run.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A relation over n events from a list of pairs a0,b0,a1,b1,...,-1. */
static sc_rel *rel_of(int n, const int *pairs) {
  sc_rel *r = sci_rel_new(n);
  for (int i = 0; pairs[i] >= 0; i += 2)
    sc_rel_add(r, pairs[i], pairs[i + 1]);
  return r;
}

static sc_set *set_of(int n, const int *elts) {
  sc_set *s = sci_set_new(n);
  for (int i = 0; elts[i] >= 0; i++)
    sc_set_add(s, elts[i]);
  return s;
}

/* ---- Sets ---------------------------------------------------------------- */

START_TEST(set_basics) {
  sc_set *s = sci_set_new(130); /* three words */
  ck_assert(sci_set_is_empty(s));
  sc_set_add(s, 0);
  sc_set_add(s, 64);
  sc_set_add(s, 129);
  ck_assert_int_eq(sci_set_count(s), 3);
  ck_assert(sc_set_has(s, 64));
  ck_assert(!sc_set_has(s, 63));
  sc_set_remove(s, 64);
  ck_assert(!sc_set_has(s, 64));
  ck_assert_int_eq(sci_set_count(s), 2);
  sc_set *c = sci_set_copy(s);
  ck_assert(sci_set_equal(s, c));
  sci_set_clear(c);
  ck_assert(sci_set_is_empty(c));
  ck_assert(!sci_set_equal(s, c));
}
END_TEST

START_TEST(set_zero_events) {
  sc_set *s = sci_set_new(0), *t = sci_set_new(0);
  sci_set_fill(s);
  sci_set_complement(t, s);
  ck_assert(sci_set_is_empty(s));
  ck_assert(sci_set_is_empty(t));
  ck_assert_int_eq(sci_set_next(s, 0), -1);
  ck_assert_int_eq(sci_set_compare(s, t), 0);
}
END_TEST

START_TEST(set_operations) {
  /* n = 70: the complement must not spill past event 69 */
  sc_set *a = set_of(70, (int[]){1, 2, 3, 66, -1});
  sc_set *b = set_of(70, (int[]){3, 4, 66, 69, -1});
  sc_set *d = sci_set_new(70);
  sci_set_union(d, a, b);
  ck_assert(sci_set_equal(d, set_of(70, (int[]){1, 2, 3, 4, 66, 69, -1})));
  sci_set_inter(d, a, b);
  ck_assert(sci_set_equal(d, set_of(70, (int[]){3, 66, -1})));
  sci_set_diff(d, a, b);
  ck_assert(sci_set_equal(d, set_of(70, (int[]){1, 2, -1})));
  sci_set_complement(d, a);
  ck_assert_int_eq(sci_set_count(d), 70 - 4);
  ck_assert(!sc_set_has(d, 66));
  ck_assert(sc_set_has(d, 69));
  sci_set_fill(d);
  ck_assert_int_eq(sci_set_count(d), 70);
  ck_assert(sci_set_subset(a, d));
  ck_assert(!sci_set_subset(d, a));
  /* aliasing: a = a | b */
  sci_set_union(a, a, b);
  ck_assert_int_eq(sci_set_count(a), 6);
}
END_TEST

START_TEST(set_iteration_and_order) {
  sc_set *s = set_of(200, (int[]){5, 63, 64, 199, -1});
  int seen[4], k = 0;
  for (int e = sci_set_next(s, 0); e >= 0; e = sci_set_next(s, e + 1))
    seen[k++] = e;
  ck_assert_int_eq(k, 4);
  ck_assert_int_eq(seen[0], 5);
  ck_assert_int_eq(seen[1], 63);
  ck_assert_int_eq(seen[2], 64);
  ck_assert_int_eq(seen[3], 199);
  /* sorted lists compared lexicographically: {0,5} < {1}, {0} < {0,1} */
  ck_assert_int_lt(sci_set_compare(set_of(8, (int[]){0, 5, -1}), set_of(8, (int[]){1, -1})), 0);
  ck_assert_int_gt(sci_set_compare(set_of(8, (int[]){1, -1}), set_of(8, (int[]){0, 5, -1})), 0);
  ck_assert_int_lt(sci_set_compare(set_of(8, (int[]){0, -1}), set_of(8, (int[]){0, 1, -1})), 0);
  ck_assert_int_lt(sci_set_compare(sci_set_new(8), set_of(8, (int[]){7, -1})), 0);
  ck_assert_int_eq(sci_set_compare(set_of(100, (int[]){70, -1}), set_of(100, (int[]){70, -1})), 0);
  /* across words: {3, 90} < {3, 91} < {4} */
  ck_assert_int_lt(sci_set_compare(set_of(100, (int[]){3, 90, -1}), set_of(100, (int[]){3, 91, -1})), 0);
  ck_assert_int_lt(sci_set_compare(set_of(100, (int[]){3, 91, -1}), set_of(100, (int[]){4, -1})), 0);
}
END_TEST

/* ---- Relations ----------------------------------------------------------- */

START_TEST(rel_basics) {
  sc_rel *r = rel_of(70, (int[]){0, 1, 1, 69, 69, 0, -1});
  ck_assert_int_eq(sci_rel_count(r), 3);
  ck_assert(sc_rel_has(r, 1, 69));
  ck_assert(!sc_rel_has(r, 69, 1));
  sc_rel *c = sci_rel_copy(r);
  ck_assert(sci_rel_equal(r, c));
  sc_rel_remove(c, 1, 69);
  ck_assert(!sci_rel_equal(r, c));
  ck_assert(sci_rel_subset(c, r));
  ck_assert(!sci_rel_subset(r, c));
  sci_rel_complement(c, r);
  ck_assert_int_eq(sci_rel_count(c), 70 * 70 - 3);
  sci_rel_fill(c);
  ck_assert_int_eq(sci_rel_count(c), 4900);
  sci_rel_clear(c);
  ck_assert(sci_rel_is_empty(c));
}
END_TEST

START_TEST(rel_seq) {
  /* a = {0->1, 1->2}, b = {1->3, 2->0}: a;b = {0->3, 1->0} */
  sc_rel *a = rel_of(4, (int[]){0, 1, 1, 2, -1});
  sc_rel *b = rel_of(4, (int[]){1, 3, 2, 0, -1});
  sc_rel *d = sci_rel_new(4);
  sci_rel_seq(d, a, b);
  ck_assert(sci_rel_equal(d, rel_of(4, (int[]){0, 3, 1, 0, -1})));
  /* b;a = {1->3 then nothing from 3, 2->0->1} = {2->1} */
  sci_rel_seq(d, b, a);
  ck_assert(sci_rel_equal(d, rel_of(4, (int[]){2, 1, -1})));
  /* a;a with the destination aliased: {0->2} */
  sci_rel_seq(a, a, a);
  ck_assert(sci_rel_equal(a, rel_of(4, (int[]){0, 2, -1})));
}
END_TEST

START_TEST(rel_inverse) {
  sc_rel *r = rel_of(100, (int[]){0, 1, 5, 99, 99, 99, 3, 2, 2, 3, -1});
  sc_rel *d = sci_rel_new(100);
  sci_rel_inverse(d, r);
  ck_assert(sci_rel_equal(d, rel_of(100, (int[]){1, 0, 99, 5, 99, 99, 2, 3, 3, 2, -1})));
  sci_rel_inverse(r, r); /* in place */
  ck_assert(sci_rel_equal(r, d));
}
END_TEST

START_TEST(rel_closures) {
  /* chain 0->1->2->3, event 4 alone */
  sc_rel *r = rel_of(5, (int[]){0, 1, 1, 2, 2, 3, -1});
  sc_rel *p = sci_rel_new(5);
  sci_rel_plus(p, r);
  ck_assert(sci_rel_equal(p, rel_of(5, (int[]){0, 1, 0, 2, 0, 3, 1, 2, 1, 3, 2, 3, -1})));
  sc_rel *s = sci_rel_new(5);
  sci_rel_star(s, r); /* plus the identity on all five events, 4 included */
  ck_assert_int_eq(sci_rel_count(s), 6 + 5);
  ck_assert(sc_rel_has(s, 4, 4));
  sc_rel *o = sci_rel_new(5);
  sci_rel_opt(o, r);
  ck_assert_int_eq(sci_rel_count(o), 3 + 5);
  ck_assert(!sc_rel_has(o, 0, 2));
  /* close the cycle 3->0: {0..3} x {0..3} */
  sc_rel_add(r, 3, 0);
  sci_rel_plus(r, r);
  ck_assert_int_eq(sci_rel_count(r), 16);
  ck_assert(!sc_rel_has(r, 4, 4));
}
END_TEST

START_TEST(rel_long_chain) {
  /* 0->1->...->199: the closure has 199*200/2 pairs */
  int n = 200;
  sc_rel *r = sci_rel_new(n);
  for (int i = 0; i + 1 < n; i++)
    sc_rel_add(r, i, i + 1);
  sc_rel *p = sci_rel_new(n);
  sci_rel_plus(p, r);
  ck_assert_int_eq(sci_rel_count(p), 199 * 200 / 2);
  ck_assert(sci_rel_is_acyclic(r));
  ck_assert(sci_rel_is_acyclic(p));
  sc_rel_add(r, 199, 0);
  ck_assert(!sci_rel_is_acyclic(r));
  int cycle[200];
  ck_assert_int_eq(sci_rel_find_cycle(r, cycle), 200);
}
END_TEST

START_TEST(rel_sets) {
  sc_set *a = set_of(6, (int[]){0, 2, -1}), *b = set_of(6, (int[]){1, 5, -1});
  sc_rel *d = sci_rel_new(6);
  sci_rel_identity(d, a);
  ck_assert(sci_rel_equal(d, rel_of(6, (int[]){0, 0, 2, 2, -1})));
  sci_rel_identity(d, NULL);
  ck_assert_int_eq(sci_rel_count(d), 6);
  sci_rel_cartesian(d, a, b);
  ck_assert(sci_rel_equal(d, rel_of(6, (int[]){0, 1, 0, 5, 2, 1, 2, 5, -1})));
  sc_rel *r = rel_of(6, (int[]){0, 1, 2, 3, 4, 4, 4, 5, -1});
  sc_set *s = sci_set_new(6);
  sci_rel_domain(s, r);
  ck_assert(sci_set_equal(s, set_of(6, (int[]){0, 2, 4, -1})));
  sci_rel_range(s, r);
  ck_assert(sci_set_equal(s, set_of(6, (int[]){1, 3, 4, 5, -1})));
  /* [{0,4}] ; r ; [{1,4}] = {0->1, 4->4} */
  sci_rel_restrict(d, r, set_of(6, (int[]){0, 4, -1}), set_of(6, (int[]){1, 4, -1}));
  ck_assert(sci_rel_equal(d, rel_of(6, (int[]){0, 1, 4, 4, -1})));
  sci_rel_restrict(d, r, NULL, set_of(6, (int[]){5, -1}));
  ck_assert(sci_rel_equal(d, rel_of(6, (int[]){4, 5, -1})));
}
END_TEST

START_TEST(rel_cycles) {
  /* 4->0->1->2->3->0: the cycle is 0 1 2 3 (4 only leads into it) */
  sc_rel *r = rel_of(6, (int[]){4, 0, 0, 1, 1, 2, 2, 3, 3, 0, 5, 4, -1});
  ck_assert(!sci_rel_is_acyclic(r));
  ck_assert(sci_rel_is_irreflexive(r));
  int cycle[6];
  int k = sci_rel_find_cycle(r, cycle);
  ck_assert_int_eq(k, 4);
  int seen = 0;
  for (int i = 0; i < k; i++) {
    ck_assert(sc_rel_has(r, cycle[i], cycle[(i + 1) % k]));
    seen |= 1 << cycle[i];
  }
  ck_assert_int_eq(seen, 0xf);
  /* a self loop is a cycle of one */
  sc_rel *loop = rel_of(3, (int[]){0, 1, 2, 2, -1});
  ck_assert(!sci_rel_is_irreflexive(loop));
  ck_assert(!sci_rel_is_acyclic(loop));
  ck_assert_int_eq(sci_rel_find_cycle(loop, cycle), 1);
  ck_assert_int_eq(cycle[0], 2);
  /* acyclic: a diamond */
  sc_rel *dag = rel_of(4, (int[]){0, 1, 0, 2, 1, 3, 2, 3, -1});
  ck_assert(sci_rel_is_acyclic(dag));
  ck_assert_int_eq(sci_rel_find_cycle(dag, cycle), 0);
  ck_assert(sci_rel_is_acyclic(sci_rel_new(0)));
}
END_TEST

/* Random relations (a fixed LCG), sparse to dense, of one word a row and
 * of several: acyclicity (sinks peeled off bit-parallel) agrees with the
 * irreflexivity of the transitive closure (Warshall), and composition
 * (one-word rows take their own path) with the definition, pair by pair. */
static unsigned lcg_next(unsigned *state) {
  *state = *state * 1103515245u + 12345u;
  return *state >> 16;
}

/* reached[y]: whether y is reachable from x in one or more steps of a
 * (a search of its own, to check the closure against). */
static void reach_from(const sc_rel *a, int x, bool *reached) {
  int n = a->n, *stack = malloc(sizeof(int) * (size_t)n), top = 0;
  memset(reached, 0, sizeof(bool) * (size_t)n);
  for (int z = 0; z < n; z++)
    if (sc_rel_has(a, x, z) && !reached[z])
      reached[z] = true, stack[top++] = z;
  while (top > 0) {
    int z = stack[--top];
    for (int w = 0; w < n; w++)
      if (sc_rel_has(a, z, w) && !reached[w])
        reached[w] = true, stack[top++] = w;
  }
  free(stack);
}

/* sci_rel_plus lets only the rows with a pair take part, and lists them on
 * the stack up to 256 events: sparse relations (most rows empty, chains
 * through few events, cycles), both sides of that size, and in place. */
START_TEST(rel_plus_sparse) {
  unsigned state = 7;
  static const int sizes[] = {1, 3, 64, 65, 130, 256, 257, 300};
  for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
    int n = sizes[si];
    for (int trial = 0; trial < 4; trial++) {
      sc_rel *a = sci_rel_new(n);
      int pairs = 1 + (int)(lcg_next(&state) % (unsigned)(2 * n));
      for (int k = 0; k < pairs; k++) /* a few sources, any targets */
        sc_rel_add(a, (int)(lcg_next(&state) % (unsigned)(n / 8 + 1)) * 8 % n,
                   (int)(lcg_next(&state) % (unsigned)n));
      sc_rel *plus = sci_rel_new(n), *inplace = sci_rel_copy(a);
      sci_rel_plus(plus, a);
      sci_rel_plus(inplace, inplace);
      bool reached[300];
      for (int x = 0; x < n; x++) {
        reach_from(a, x, reached);
        for (int y = 0; y < n; y++) {
          ck_assert_int_eq(sc_rel_has(plus, x, y), reached[y]);
          ck_assert_int_eq(sc_rel_has(inplace, x, y), reached[y]);
        }
      }
    }
  }
}
END_TEST

START_TEST(rel_random_agree) {
  unsigned state = 29;
  static const int sizes[] = {1, 2, 5, 17, 63, 64, 65, 100};
  for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
    int n = sizes[si];
    for (int trial = 0; trial < 16; trial++) {
      sc_rel *a = sci_rel_new(n), *b = sci_rel_new(n);
      unsigned per_mille = 1 + lcg_next(&state) % (trial < 8 ? 40 : 300);
      bool dag = trial % 2 == 0; /* half of them upward only: acyclic */
      for (int x = 0; x < n; x++)
        for (int y = 0; y < n; y++) {
          if (lcg_next(&state) % 1000 < per_mille && (!dag || x < y))
            sc_rel_add(a, dag ? n - 1 - x : x, dag ? n - 1 - y : y);
          if (lcg_next(&state) % 1000 < per_mille)
            sc_rel_add(b, x, y);
        }
      sc_rel *plus = sci_rel_new(n);
      sci_rel_plus(plus, a);
      ck_assert_int_eq(sci_rel_is_acyclic(a), sci_rel_is_irreflexive(plus));
      if (dag)
        ck_assert(sci_rel_is_acyclic(a));
      sc_rel *ab = sci_rel_new(n);
      sci_rel_seq(ab, a, b);
      for (int x = 0; x < n; x++)
        for (int z = 0; z < n; z++) {
          bool via = false;
          for (int y = 0; y < n && !via; y++)
            via = sc_rel_has(a, x, y) && sc_rel_has(b, y, z);
          ck_assert_int_eq(sc_rel_has(ab, x, z), via);
        }
    }
  }
}
END_TEST

START_TEST(rel_order) {
  /* pairs in lexicographic order: {(0,5)} < {(1,0)}; {(0,1)} < {(0,1),(0,2)} */
  ck_assert_int_lt(sci_rel_compare(rel_of(6, (int[]){0, 5, -1}), rel_of(6, (int[]){1, 0, -1})), 0);
  ck_assert_int_lt(sci_rel_compare(rel_of(6, (int[]){0, 1, -1}), rel_of(6, (int[]){0, 1, 0, 2, -1})), 0);
  ck_assert_int_gt(sci_rel_compare(rel_of(6, (int[]){0, 2, -1}), rel_of(6, (int[]){0, 1, 3, 3, -1})), 0);
  ck_assert_int_eq(sci_rel_compare(rel_of(6, (int[]){2, 2, -1}), rel_of(6, (int[]){2, 2, -1})), 0);
}
END_TEST

/* ---- Orders --------------------------------------------------------------------------- */

/* The numbers of labelled partial orders (OEIS A001035) and of total
 * orders; requiring every pair comparable leaves the total orders. */
START_TEST(order_counts) {
  static const int posets[] = {1, 1, 3, 19, 219, 4231};
  static const int totals[] = {1, 1, 2, 6, 24, 120};
  for (int k = 0; k <= 5; k++) {
    ck_assert_int_eq(sci_orders_partial(k, NULL, 1000000)->n, posets[k]);
    ck_assert_int_eq(sci_orders_total(k, 1000000)->n, totals[k]);
    uint32_t all[SC_ORDER_MAX_ITEMS];
    for (int i = 0; i < k; i++)
      all[i] = ((UINT32_C(1) << k) - 1) & ~(UINT32_C(1) << i);
    ck_assert_int_eq(sci_orders_partial(k, all, 1000000)->n, totals[k]);
  }
  ck_assert_ptr_null(sci_orders_partial(5, NULL, 4230));
}
END_TEST

/* Every listed partial order is irreflexive and transitive, and no two
 * are the same. */
START_TEST(orders_are_partial_and_distinct) {
  sc_order_list *l = sci_orders_partial(4, NULL, 1000000);
  for (int o = 0; o < l->n; o++) {
    const uint32_t *b = sc_order_at(l, o);
    for (int i = 0; i < 4; i++) {
      ck_assert(!(b[i] >> i & 1));
      for (int j = 0; j < 4; j++)
        if (b[i] >> j & 1)
          ck_assert((b[j] & ~b[i]) == 0);
    }
    for (int p = 0; p < o; p++)
      ck_assert(memcmp(b, sc_order_at(l, p), 4 * sizeof(uint32_t)) != 0);
  }
}
END_TEST

static Suite *rel_suite(void) {
  Suite *s = suite_create("rel");
  TCase *sets = tcase_create("sets");
  tcase_add_test(sets, set_basics);
  tcase_add_test(sets, set_zero_events);
  tcase_add_test(sets, set_operations);
  tcase_add_test(sets, set_iteration_and_order);
  suite_add_tcase(s, sets);
  TCase *rels = tcase_create("relations");
  tcase_add_test(rels, rel_basics);
  tcase_add_test(rels, rel_seq);
  tcase_add_test(rels, rel_inverse);
  tcase_add_test(rels, rel_closures);
  tcase_add_test(rels, rel_long_chain);
  tcase_add_test(rels, rel_sets);
  tcase_add_test(rels, rel_cycles);
  tcase_add_test(rels, rel_order);
  tcase_add_test(rels, rel_random_agree);
  tcase_add_test(rels, rel_plus_sparse);
  suite_add_tcase(s, rels);
  TCase *orders = tcase_create("orders");
  tcase_add_test(orders, order_counts);
  tcase_add_test(orders, orders_are_partial_and_distinct);
  suite_add_tcase(s, orders);
  return s;
}

int main(void) {
  sci_gc_init();
  return sc_check_run(rel_suite());
}
