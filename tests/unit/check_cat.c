/* check_cat.c: unit tests of the cat interpreter (lib/cat/cat.h): parsing as
 * herd7 parses (precedence, errors with their positions), evaluation on
 * hand-made relations whose answers are worked out by hand in the comments,
 * includes, and herd's 2015 PTX model on hand-built candidate executions.
 * Data files are found under $SC_SRCDIR/tests/data (default "."). */
#include "cat/cat.h"
#include "cat/graph.h"  /* the lowering, for its tests */
#include "cat/interp.h" /* to look inside value sets */
#include "util/gcmem.h"

#include <check.h>

#include "check_run.h"
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

/* ---- Helpers ------------------------------------------------------------- */

static const char *srcdir(void) {
  const char *d = getenv("SC_SRCDIR");
  return d && *d ? d : ".";
}

static const char *data_path(const char *name) {
  return sci_printf("%s/tests/data/%s", srcdir(), name);
}

static sc_cat_model *load_ok(const char *text) {
  sc_cat_model *m = NULL;
  sc_error *err = NULL;
  sc_status st = sci_cat_load_string(text, "t.cat", NULL, 0, &m, &err);
  ck_assert_msg(st == SC_OK, "load failed: %s", sc_error_message(err));
  return m;
}

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

static void bind_rel(sc_cat_env *env, const char *name, const int *pairs) {
  sci_cat_env_bind_rel(env, name, rel_of(sci_cat_env_nevents(env), pairs));
}

static void bind_set(sc_cat_env *env, const char *name, const int *elts) {
  sci_cat_env_bind_set(env, name, set_of(sci_cat_env_nevents(env), elts));
}

#define NONE ((int[]){-1})

static sc_cat_outcome eval_ok(const sc_cat_model *m, const sc_cat_env *env,
                              const sc_cat_run_options *opts) {
  sc_cat_outcome out;
  sc_error *err = NULL;
  sc_status st = sci_cat_run(m, env, opts, &out, &err);
  ck_assert_msg(st == SC_OK, "eval failed: %s", sc_error_message(err));
  return out;
}

static const sc_cat_value *lookup(const sc_cat_outcome *out, const char *name) {
  const sc_cat_value *v = NULL;
  sc_error *err = NULL;
  sc_status st = sci_cat_result_lookup(out->result, name, &v, &err);
  ck_assert_msg(st == SC_OK, "lookup %s failed: %s", name, sc_error_message(err));
  ck_assert_msg(v != NULL, "%s is unbound", name);
  return v;
}

static const sc_rel *lookup_rel(const sc_cat_outcome *out, const char *name, int n) {
  const sc_rel *r = sci_cat_value_rel(lookup(out, name), n);
  ck_assert_msg(r != NULL, "%s is not a relation", name);
  return r;
}

static void assert_rel(const sc_cat_outcome *out, const char *name, int n,
                       const int *pairs) {
  ck_assert_msg(sci_rel_equal(lookup_rel(out, name, n), rel_of(n, pairs)),
                "%s differs from the expected relation", name);
}

static const sc_cat_check *find_check(const sc_cat_outcome *out, const char *name) {
  for (int i = 0; i < out->nchecks; i++)
    if (strcmp(out->checks[i].name, name) == 0)
      return &out->checks[i];
  ck_abort_msg("no check named %s", name);
  return NULL;
}

/* The model fails to evaluate with `status` and a message holding `where`
 * ("file:line:col") and `what`. */
static void assert_eval_error(const sc_cat_model *m, const sc_cat_env *env,
                              const sc_cat_run_options *opts, sc_status status,
                              const char *where, const char *what) {
  sc_cat_outcome out;
  sc_error *err = NULL;
  sc_status st = sci_cat_run(m, env, opts, &out, &err);
  ck_assert_int_eq(st, status);
  const char *msg = sc_error_message(err);
  ck_assert_msg(strncmp(msg, where, strlen(where)) == 0, "message '%s' not at %s", msg, where);
  ck_assert_msg(strstr(msg, what) != NULL, "message '%s' lacks '%s'", msg, what);
}

/* ---- Precedence, checked on relations where the readings differ ---------- */

/* Each case: an expression, herd's reading (from modelParser.mly's
 * declarations), the other reading, and relations (n = 3) on which the two
 * readings give different values. */
static const struct {
  const char *exp, *herd, *other;
  int a[8], b[8], c[8];
} prec_cases[] = {
  /* | is looser than ;  a={0->1} b={0->1} c={1->2}: a|(b;c) = {0->1,0->2}, (a|b);c = {0->2} */
  {"a | b ; c", "a | (b ; c)", "(a | b) ; c", {0, 1, -1}, {0, 1, -1}, {1, 2, -1}},
  /* \ is tighter than ;  a={0->1} b=c={1->2}: a;(b\c) = {}, (a;b)\c = {0->2} */
  {"a ; b \\ c", "a ; (b \\ c)", "(a ; b) \\ c", {0, 1, -1}, {1, 2, -1}, {1, 2, -1}},
  /* \ is left-associative  a={0->1,0->2} b=c={0->1}: (a\b)\c = {0->2}, a\(b\c) = a */
  {"a \\ b \\ c", "(a \\ b) \\ c", "a \\ (b \\ c)", {0, 1, 0, 2, -1}, {0, 1, -1}, {0, 1, -1}},
  /* & is tighter than \  a=b={0->1} c={}: a\(b&c) = {0->1}, (a\b)&c = {} */
  {"a \\ b & c", "a \\ (b & c)", "(a \\ b) & c", {0, 1, -1}, {0, 1, -1}, {-1}},
  /* | is looser than &  a={0->1} b=c={}: a|(b&c) = {0->1}, (a|b)&c = {} */
  {"a | b & c", "a | (b & c)", "(a | b) & c", {0, 1, -1}, {-1}, {-1}},
  /* ; is looser than &  a={0->1} b=c={1->2}: a;(b&c) = {0->2}, (a;b)&c = {} */
  {"a ; b & c", "a ; (b & c)", "(a ; b) & c", {0, 1, -1}, {1, 2, -1}, {1, 2, -1}},
  /* ~ is tighter than |  a={} b={0->0}: (~a)|b is everything, ~(a|b) lacks 0->0 */
  {"~a | b", "(~a) | b", "~(a | b)", {-1}, {0, 0, -1}, {-1}},
  /* postfix + is tighter than ;  a={0->1} b={1->2,2->1}: a;(b+) = {0->1,0->2}, (a;b)+ = {0->2} */
  {"a ; b+", "a ; (b+)", "(a ; b)+", {0, 1, -1}, {1, 2, 2, 1, -1}, {-1}},
  /* ^-1 is tighter than ;  a={0->1} b={0->2}: (a^-1);b = {1->2}, (a;b)^-1 = {} */
  {"a^-1 ; b", "(a^-1) ; b", "(a ; b)^-1", {0, 1, -1}, {0, 2, -1}, {-1}},
  /* application is tighter than |  f(x) = x;x, a={0->1,1->2} b={2->0}:
   * (f a)|b = {0->2,2->0}, f(a|b) = {0->2,1->0,2->1} */
  {"f(a) | b", "(f(a)) | b", "f(a | b)", {0, 1, 1, 2, -1}, {2, 0, -1}, {-1}},
};

START_TEST(precedence) {
  const char *text = sci_printf("\"prec\"\nlet f(x) = x ; x\nlet x = %s\nlet herd = %s\n"
                               "let other = %s\n",
                               prec_cases[_i].exp, prec_cases[_i].herd, prec_cases[_i].other);
  sc_cat_model *m = load_ok(text);
  sc_cat_env *env = sci_cat_env_new(3);
  bind_rel(env, "a", prec_cases[_i].a);
  bind_rel(env, "b", prec_cases[_i].b);
  bind_rel(env, "c", prec_cases[_i].c);
  sc_cat_outcome out = eval_ok(m, env, NULL);
  const sc_rel *x = lookup_rel(&out, "x", 3);
  const sc_rel *herd = lookup_rel(&out, "herd", 3);
  const sc_rel *other = lookup_rel(&out, "other", 3);
  ck_assert_msg(!sci_rel_equal(herd, other), "case %d does not tell the readings apart", _i);
  ck_assert_msg(sci_rel_equal(x, herd), "'%s' is not read as '%s'", prec_cases[_i].exp,
                prec_cases[_i].herd);
}
END_TEST

START_TEST(cartesian_and_postfix_star) {
  /* W*R binds tighter than &; a '*' before a new instruction is the postfix
   * closure; before an operand it is the cartesian product. */
  sc_cat_model *m = load_ok("\"star\"\n"
                            "let x = r & W * R\n"
                            "let s = r*\n"
                            "let p = W * R\n"
                            "let q = r* ; r\n");
  sc_cat_env *env = sci_cat_env_new(3);
  bind_rel(env, "r", (int[]){0, 1, 1, 0, -1});
  bind_set(env, "W", (int[]){0, -1});
  bind_set(env, "R", (int[]){1, -1});
  sc_cat_outcome out = eval_ok(m, env, NULL);
  assert_rel(&out, "x", 3, (int[]){0, 1, -1});
  /* r* = r+ | id: 0 and 1 reach each other and themselves; 2 only itself */
  assert_rel(&out, "s", 3, (int[]){0, 0, 0, 1, 1, 0, 1, 1, 2, 2, -1});
  assert_rel(&out, "p", 3, (int[]){0, 1, -1});
  assert_rel(&out, "q", 3, (int[]){0, 0, 0, 1, 1, 0, 1, 1, -1});
}
END_TEST

/* ---- Fixpoints, functions ------------------------------------------------ */

START_TEST(let_rec_transitive_closure) {
  /* 0->1->2->3->1: tc must equal r+ (0 reaches 1,2,3; 1,2,3 reach each other) */
  sc_cat_model *m = load_ok("\"tc\"\nlet rec tc = r | (tc ; r)\nlet plus = r+\n");
  sc_cat_env *env = sci_cat_env_new(5);
  bind_rel(env, "r", (int[]){0, 1, 1, 2, 2, 3, 3, 1, -1});
  sc_cat_outcome out = eval_ok(m, env, NULL);
  assert_rel(&out, "tc", 5, (int[]){0, 1, 0, 2, 0, 3, 1, 1, 1, 2, 1, 3, 2, 1, 2, 2, 2, 3,
                                     3, 1, 3, 2, 3, 3, -1});
  ck_assert(sci_rel_equal(lookup_rel(&out, "tc", 5), lookup_rel(&out, "plus", 5)));
}
END_TEST

START_TEST(let_rec_mutual) {
  /* On the chain 0->1->2->3->4, odd holds the pairs at odd distance and
   * even those at even distance >= 2. */
  sc_cat_model *m = load_ok("\"odd-even\"\n"
                            "let rec odd = r | (even ; r)\n"
                            "and even = odd ; r\n");
  sc_cat_env *env = sci_cat_env_new(5);
  bind_rel(env, "r", (int[]){0, 1, 1, 2, 2, 3, 3, 4, -1});
  sc_cat_outcome out = eval_ok(m, env, NULL);
  assert_rel(&out, "odd", 5, (int[]){0, 1, 0, 3, 1, 2, 1, 4, 2, 3, 3, 4, -1});
  assert_rel(&out, "even", 5, (int[]){0, 2, 0, 4, 1, 3, 2, 4, -1});
}
END_TEST

START_TEST(let_rec_iteration_limit) {
  /* x oscillates: {} -> {0} -> {1} -> {0} -> ...: A\x gives {0} when 0 is
   * not in x, range([x&A];ab) gives {1} when it is.  Never stable. */
  sc_cat_model *m = load_ok("\"osc\"\n"
                            "let rec x = (A \\ x) | range([x & A] ; ab)\n"
                            "empty x\n");
  sc_cat_env *env = sci_cat_env_new(2);
  bind_set(env, "A", (int[]){0, -1});
  bind_rel(env, "ab", (int[]){0, 1, -1});
  sc_cat_run_options opts = {.max_fixpoint_iterations = 50};
  assert_eval_error(m, env, &opts, SC_ERR_LIMIT, "t.cat:2:1:", "within 50 iterations");
}
END_TEST

START_TEST(functions) {
  sc_cat_model *m = load_ok("\"fun\"\n"
                            "let f(x) = x ; x\n"
                            "let g(a, b) = a | b\n"
                            "let h = fun x -> x^-1\n"
                            "let add x = fun y -> x | y\n"
                            "let twice f = fun x -> f (f x)\n"
                            "let r1 = f(r)\n"
                            "let r2 = g(r, s)\n"
                            "let r3 = h(r)\n"
                            "let r4 = add r s\n"
                            "let hh = twice h\n"
                            "let r5 = hh r\n"
                            "let r6 = let t = r ; s in t | s\n");
  sc_cat_env *env = sci_cat_env_new(3);
  bind_rel(env, "r", (int[]){0, 1, 1, 2, -1});
  bind_rel(env, "s", (int[]){2, 0, -1});
  sc_cat_outcome out = eval_ok(m, env, NULL);
  assert_rel(&out, "r1", 3, (int[]){0, 2, -1});
  assert_rel(&out, "r2", 3, (int[]){0, 1, 1, 2, 2, 0, -1});
  assert_rel(&out, "r3", 3, (int[]){1, 0, 2, 1, -1});
  assert_rel(&out, "r4", 3, (int[]){0, 1, 1, 2, 2, 0, -1});
  assert_rel(&out, "r5", 3, (int[]){0, 1, 1, 2, -1});
  /* r;s = {1->0}, so r6 = {1->0, 2->0} */
  assert_rel(&out, "r6", 3, (int[]){1, 0, 2, 0, -1});
}
END_TEST

START_TEST(prelude_and_sets) {
  /* One thread 0 -> 1 -> 2 with a fence at 1: fencerel(F) = {0->2}.  map
   * (from herd's stdlib) squares each event set of {A, B}. */
  sc_cat_model *m = load_ok("\"prelude\"\n"
                            "let fr-fence = fencerel(F)\n"
                            "let squares = map (fun e -> e * e) {A, B}\n"
                            "let m = match {A} with {} -> B || x ++ rest -> x end\n"
                            "let i = if A subset B then A else B\n"
                            "let t = try no-such-name with A\n"
                            "let u = try fail(A) with B\n"
                            "let e = emptyset\n");
  sc_cat_env *env = sci_cat_env_new(3);
  bind_rel(env, "po", (int[]){0, 1, 0, 2, 1, 2, -1});
  bind_set(env, "F", (int[]){1, -1});
  bind_set(env, "A", (int[]){0, -1});
  bind_set(env, "B", (int[]){1, 2, -1});
  sc_cat_outcome out = eval_ok(m, env, NULL);
  assert_rel(&out, "fr-fence", 3, (int[]){0, 2, -1});
  const sc_cat_value *sq = lookup(&out, "squares");
  ck_assert_int_eq(sci_cat_value_kind(sq), SC_CAT_VALSET);
  ck_assert_int_eq(sq->u.vs.n, 2);
  ck_assert(sci_set_equal(sci_cat_value_set(lookup(&out, "m"), 3), set_of(3, (int[]){0, -1})));
  ck_assert(sci_set_equal(sci_cat_value_set(lookup(&out, "i"), 3), set_of(3, (int[]){1, 2, -1})));
  ck_assert(sci_set_equal(sci_cat_value_set(lookup(&out, "t"), 3), set_of(3, (int[]){0, -1})));
  ck_assert(sci_set_equal(sci_cat_value_set(lookup(&out, "u"), 3), set_of(3, (int[]){1, 2, -1})));
  ck_assert(sci_set_is_empty(sci_cat_value_set(lookup(&out, "e"), 3)));
}
END_TEST

START_TEST(prelude_defers_to_the_caller) {
  /* The caller binds po-loc but not loc: the prelude's po-loc = po & loc
   * must not replace it.  rfe is not bound: the prelude's rf & ext gives it. */
  sc_cat_model *m = load_ok("\"defaults\"\nlet x = po-loc\nlet y = rfe\n");
  sc_cat_env *env = sci_cat_env_new(3);
  bind_rel(env, "po", (int[]){0, 1, -1});
  bind_rel(env, "po-loc", (int[]){0, 1, -1});
  bind_rel(env, "rf", (int[]){1, 2, 2, 2, -1});
  bind_rel(env, "ext", (int[]){1, 2, 2, 1, -1});
  sc_cat_outcome out = eval_ok(m, env, NULL);
  assert_rel(&out, "x", 3, (int[]){0, 1, -1});
  assert_rel(&out, "y", 3, (int[]){1, 2, -1});
}
END_TEST

START_TEST(lazy_bindings) {
  /* herd's lets are lazy: an unused binding with an unbound name is no error */
  sc_cat_model *m = load_ok("\"lazy\"\nlet x = no-such-name\nempty a\n");
  sc_cat_env *env = sci_cat_env_new(1);
  bind_rel(env, "a", NONE);
  sc_cat_outcome out = eval_ok(m, env, NULL);
  ck_assert(out.allowed);
}
END_TEST

/* ---- Checks, flags, procedures, forall, with ----------------------------- */

START_TEST(flags_and_checks) {
  sc_cat_model *m = load_ok("\"flags\"\n"
                            "flag ~empty a as a-nonempty\n"
                            "flag ~empty b as b-nonempty\n"
                            "undefined_unless empty a\n"
                            "acyclic c as c-acyclic\n"
                            "irreflexive c\n");
  sc_cat_env *env = sci_cat_env_new(2);
  bind_rel(env, "a", (int[]){0, 1, -1});
  bind_rel(env, "b", NONE);
  bind_rel(env, "c", (int[]){0, 1, -1});
  sc_cat_outcome out = eval_ok(m, env, NULL);
  ck_assert(out.allowed);
  ck_assert_int_eq(out.nflags, 2);
  ck_assert_str_eq(out.flags[0], "a-nonempty");
  ck_assert_str_eq(out.flags[1], "undefined");
  ck_assert_int_eq(out.nchecks, 5);
  ck_assert(find_check(&out, "a-nonempty")->is_flag);
  ck_assert(!find_check(&out, "b-nonempty")->passed);
  ck_assert(find_check(&out, "irreflexive@6")->passed);
  ck_assert_int_eq(find_check(&out, "irreflexive@6")->line, 6);

  /* a cycle in c: forbidden, and herd stops at the failed check, so no
   * flag is reported and the irreflexive check is not reached */
  bind_rel(env, "c", (int[]){0, 1, 1, 0, -1});
  out = eval_ok(m, env, NULL);
  ck_assert(!out.allowed);
  ck_assert_int_eq(out.nflags, 0);
  ck_assert_int_eq(out.nchecks, 4);
  ck_assert(!find_check(&out, "c-acyclic")->passed);

  /* keep_going evaluates the rest; skipchecks makes the execution allowed */
  sc_cat_run_options go = {.keep_going = true};
  out = eval_ok(m, env, &go);
  ck_assert(!out.allowed);
  ck_assert_int_eq(out.nchecks, 5);
  const char *skip[] = {"c-acyclic"};
  sc_cat_run_options sk = {.skipchecks = skip, .nskip = 1};
  out = eval_ok(m, env, &sk);
  ck_assert(out.allowed);
  ck_assert(find_check(&out, "c-acyclic")->skipped);
}
END_TEST

START_TEST(assertion) {
  sc_cat_model *m = load_ok("\"assert\"\nassert empty a as must-be-empty\n");
  sc_cat_env *env = sci_cat_env_new(2);
  bind_rel(env, "a", (int[]){0, 1, -1});
  assert_eval_error(m, env, NULL, SC_ERR_SEMANTIC, "t.cat:2:1:",
                    "assertion must-be-empty failed");
}
END_TEST

START_TEST(procedures) {
  sc_cat_model *m = load_ok("\"proc\"\n"
                            "procedure is-acyclic(r) =\n"
                            "  acyclic r as inner\n"
                            "end\n"
                            "call is-acyclic(a) as outer\n"
                            "let after = a\n");
  sc_cat_env *env = sci_cat_env_new(2);
  bind_rel(env, "a", (int[]){0, 1, 1, 0, -1});
  sc_cat_outcome out = eval_ok(m, env, NULL);
  ck_assert(!out.allowed);
  ck_assert(!find_check(&out, "inner")->passed);
  const char *skip[] = {"outer"};
  sc_cat_run_options sk = {.skipchecks = skip, .nskip = 1};
  out = eval_ok(m, env, &sk);
  ck_assert(out.allowed);
  ck_assert(find_check(&out, "outer")->skipped);
  /* the environment after the call is the caller's: r is gone, after is there */
  const sc_cat_value *v = NULL;
  ck_assert_int_eq(sci_cat_result_lookup(out.result, "r", &v, NULL), SC_OK);
  ck_assert_ptr_null(v);
  assert_rel(&out, "after", 2, (int[]){0, 1, 1, 0, -1});
}
END_TEST

START_TEST(forall_and_enums) {
  /* tags iterate in name order: 'green (B = {1}) then 'red (A = {0}) */
  sc_cat_model *m = load_ok("\"forall\"\n"
                            "enum colours = 'red || 'green\n"
                            "let pick(c) = match c with 'red -> A || 'green -> B end\n"
                            "forall c in colours do\n"
                            "  empty pick(c) & C as disjoint\n"
                            "end\n"
                            "let others = ~{'red}\n");
  sc_cat_env *env = sci_cat_env_new(3);
  bind_set(env, "A", (int[]){0, -1});
  bind_set(env, "B", (int[]){1, -1});
  bind_set(env, "C", (int[]){2, -1});
  sc_cat_outcome out = eval_ok(m, env, NULL);
  ck_assert(out.allowed);
  ck_assert_int_eq(out.nchecks, 2);
  const sc_cat_value *others = lookup(&out, "others");
  ck_assert_int_eq(sci_cat_value_kind(others), SC_CAT_VALSET);
  ck_assert_int_eq(others->u.vs.n, 1);
  ck_assert_str_eq(others->u.vs.items[0]->u.tag.name, "green");
  bind_set(env, "C", (int[]){1, -1}); /* 'green now fails, first */
  out = eval_ok(m, env, NULL);
  ck_assert(!out.allowed);
  ck_assert_int_eq(out.nchecks, 1);
}
END_TEST

START_TEST(with_from) {
  /* the rest of the model runs for s = A and for s = B; allowed when one
   * of the runs passes */
  sc_cat_model *m = load_ok("\"with\"\nwith s from {A, B}\nempty s as s-empty\n");
  sc_cat_env *env = sci_cat_env_new(2);
  bind_set(env, "A", NONE);
  bind_set(env, "B", (int[]){0, -1});
  ck_assert(eval_ok(m, env, NULL).allowed);
  bind_set(env, "A", (int[]){1, -1});
  ck_assert(!eval_ok(m, env, NULL).allowed);
}
END_TEST

/* with co from S where the caller binds co (herd's cos.cat: with co from
 * generate_cos(cobase)): the enumerator has chosen co, so the rest runs
 * once, on that co, when S holds it, and the candidate is no execution
 * when S lacks it. */
START_TEST(with_from_the_callers_relation) {
  sc_cat_model *m = load_ok("\"with\"\nwith co from {r1, r2}\n"
                            "empty co \\ r1 as is-r1\n");
  sc_cat_env *env = sci_cat_env_new(2);
  bind_rel(env, "r1", (int[]){0, 1, -1});
  bind_rel(env, "r2", (int[]){1, 0, -1});
  bind_rel(env, "co", (int[]){1, 0, -1}); /* r2: in S, but fails is-r1 */
  sc_cat_outcome out = eval_ok(m, env, NULL);
  ck_assert(!out.allowed);
  ck_assert(!find_check(&out, "is-r1")->passed);
  bind_rel(env, "co", (int[]){0, 1, -1}); /* r1 */
  ck_assert(eval_ok(m, env, NULL).allowed);
  bind_rel(env, "co", NONE); /* not in S: no run passes */
  out = eval_ok(m, env, NULL);
  ck_assert(!out.allowed);
  for (int i = 0; i < out.nchecks; i++) /* is-r1 does not run */
    ck_assert_str_ne(out.checks[i].name, "is-r1");
}
END_TEST

START_TEST(shows) {
  sc_cat_model *m = load_ok("\"show\"\n"
                            "let x = a | b\n"
                            "show x\n"
                            "show a ; b as ab\n"
                            "show b\n"
                            "unshow b\n");
  sc_cat_env *env = sci_cat_env_new(3);
  bind_rel(env, "a", (int[]){0, 1, -1});
  bind_rel(env, "b", (int[]){1, 2, -1});
  sc_cat_outcome out = eval_ok(m, env, NULL);
  ck_assert_int_eq(sci_cat_result_nshows(out.result), 2);
  ck_assert_str_eq(sci_cat_result_show_name(out.result, 0), "x");
  ck_assert_str_eq(sci_cat_result_show_name(out.result, 1), "ab");
  const sc_cat_value *v = NULL;
  ck_assert_int_eq(sci_cat_result_show_value(out.result, 1, &v, NULL), SC_OK);
  ck_assert(sci_rel_equal(sci_cat_value_rel(v, 3), rel_of(3, (int[]){0, 2, -1})));
}
END_TEST

START_TEST(titles_and_doc_blocks) {
  ck_assert_str_eq(sci_cat_model_title(load_ok("\"GPU_PTX\"\nlet x = a\n")), "GPU_PTX");
  ck_assert_str_eq(sci_cat_model_title(load_ok("PTX\n(* c *)\n// d\nlet x = a\n")), "PTX");
  ck_assert_str_eq(sci_cat_model_title(load_ok("AArch64 \"Nice title\"\nlet x = a\n")),
                   "Nice title");
  ck_assert_str_eq(sci_cat_model_title(load_ok("let x = a\n")), "");
  /* {% ... %} blocks: plain, and the comment form of the 2015 models */
  load_ok("\"doc\"\n{% \\paragraph{plain} %}\nlet x = a\n{%(*\n  text (* nested *) \n%*)}\n");
}
END_TEST

START_TEST(deep_recursion_is_refused) {
  sc_cat_model *m = load_ok("\"deep\"\nlet rec f x = f x | x\nlet y = f(a)\nempty y\n");
  sc_cat_env *env = sci_cat_env_new(2);
  bind_rel(env, "a", NONE);
  assert_eval_error(m, env, NULL, SC_ERR_LIMIT, "t.cat:2:15:", "nested at most");
}
END_TEST

/* A bell file runs before the model: its enum scopes and its narrower and
 * wider are the model's; tag2scope names the base relation of a scope
 * tag, tag2instrs (tag2events) the base set of an annotation. */
START_TEST(bell_file) {
  const char *text = "\"uses the bell\"\n"
                     "let s = tag2scope(narrower('gl))\n"
                     "let w = wider('cta)\n"
                     "let c = tag2instrs('cg)\n"
                     "let all = scopes\n"
                     "empty s \\ s\n";
  sc_cat_env *env = sci_cat_env_new(3);
  bind_rel(env, "cta", (int[]){0, 0, 0, 1, 1, 0, 1, 1, 2, 2, -1});
  bind_set(env, "cg", (int[]){0, -1});
  sc_cat_model *plain = load_ok(text), *m = NULL;
  assert_eval_error(plain, env, NULL, SC_ERR_SEMANTIC, "t.cat:2:19:",
                    "unbound name 'narrower'");
  sc_error *err = NULL;
  ck_assert_msg(sci_cat_model_with_bell(plain, data_path("scopes.bell"), NULL, 0,
                                       &m, &err) == SC_OK, "%s", sc_error_message(err));
  sc_cat_outcome out = eval_ok(m, env, NULL);
  assert_rel(&out, "s", 3, (int[]){0, 0, 0, 1, 1, 0, 1, 1, 2, 2, -1});
  ck_assert_str_eq(sci_cat_show_value(lookup(&out, "w")), "'gl");
  ck_assert_str_eq(sci_cat_show_value(lookup(&out, "all")), "{'cta,'gl,'sys}");
  ck_assert(sci_set_equal(sci_cat_value_set(lookup(&out, "c"), 3), set_of(3, (int[]){0, -1})));
  ck_assert(sci_cat_model_with_bell(plain, data_path("nosuch.bell"), NULL, 0, &m, &err) ==
            SC_ERR_IO);
}
END_TEST

/* if "variant": the names the caller sets (herd's -variant), with not,
 * && and ||; an unset variant takes the else branch. */
START_TEST(if_variant) {
  sc_cat_model *m = load_ok("\"v\"\n"
                            "if \"a\" then let x = a else let x = 0 end\n"
                            "if not \"a\" || \"b\" then let y = a else let y = 0 end\n"
                            "if \"a\" && variant \"b\" then let z = a else let z = 0 end\n");
  sc_cat_env *env = sci_cat_env_new(2);
  bind_rel(env, "a", (int[]){0, 1, -1});
  sc_cat_outcome out = eval_ok(m, env, NULL);
  assert_rel(&out, "x", 2, NONE);
  assert_rel(&out, "y", 2, (int[]){0, 1, -1});
  assert_rel(&out, "z", 2, NONE);
  const char *const set_a[] = {"a"};
  sc_cat_run_options opts = {0};
  opts.variants = set_a;
  opts.nvariants = 1;
  out = eval_ok(m, env, &opts);
  assert_rel(&out, "x", 2, (int[]){0, 1, -1});
  assert_rel(&out, "y", 2, NONE);
  assert_rel(&out, "z", 2, NONE);
  const char *const set_ab[] = {"b", "a"};
  opts.variants = set_ab;
  opts.nvariants = 2;
  out = eval_ok(m, env, &opts);
  assert_rel(&out, "y", 2, (int[]){0, 1, -1});
  assert_rel(&out, "z", 2, (int[]){0, 1, -1});
}
END_TEST

/* herd's instruction-level form has no `then` (its cos.cat: if "cos-opt"
 * include ... else include ... end); branches nest, and either may be
 * empty. */
START_TEST(if_variant_herd_form) {
  sc_cat_model *m = load_ok("\"v\"\n"
                            "if \"a\"\n"
                            "  if \"b\" let x = a else let x = a^-1 end\n"
                            "else\n"
                            "  let x = 0\n"
                            "end\n"
                            "if (\"a\" || \"b\") && not \"c\" end\n"
                            "if \"c\" else let y = a end\n");
  sc_cat_env *env = sci_cat_env_new(2);
  bind_rel(env, "a", (int[]){0, 1, -1});
  sc_cat_outcome out = eval_ok(m, env, NULL);
  assert_rel(&out, "x", 2, NONE);
  sc_cat_run_options opts = {0};
  const char *const set_a[] = {"a"};
  opts.variants = set_a;
  opts.nvariants = 1;
  out = eval_ok(m, env, &opts);
  assert_rel(&out, "x", 2, (int[]){1, 0, -1});
  assert_rel(&out, "y", 2, (int[]){0, 1, -1});
  const char *const set_ab[] = {"a", "b"};
  opts.variants = set_ab;
  opts.nvariants = 2;
  out = eval_ok(m, env, &opts);
  assert_rel(&out, "x", 2, (int[]){0, 1, -1});
}
END_TEST

START_TEST(unsupported_primitive) {
  sc_cat_model *m = load_ok("\"prim\"\nlet x = lift(a)\nempty a\nlet y = x\nempty y\n");
  sc_cat_env *env = sci_cat_env_new(2);
  bind_rel(env, "a", NONE);
  assert_eval_error(m, env, NULL, SC_ERR_UNSUPPORTED, "t.cat:2:9:", "'lift' is not supported");
}
END_TEST

/* The event sets of a value set, as sets of event numbers: "{0,1}{2}". */
static const char *show_sets(const sc_cat_value *v, int n) {
  ck_assert_int_eq(v->kind, SC_CAT_VALSET);
  const char *text = "";
  for (int i = 0; i < v->u.vs.n; i++) {
    const sc_set *s = sci_cat_value_set(v->u.vs.items[i], n);
    ck_assert(s);
    const char *one = "";
    for (int e = sci_set_next(s, 0); e >= 0; e = sci_set_next(s, e + 1))
      one = sci_printf("%s%s%d", one, *one ? "," : "", e);
    text = sci_printf("%s{%s}", text, one);
  }
  return text;
}

/* Four events: 0 and 1 write x, 2 writes y, 3 is a fence.  eq relates 0
 * with 1 (and each with itself), and 3 with itself. */
static sc_cat_env *classes_env(void) {
  sc_cat_env *env = sci_cat_env_new(4);
  bind_set(env, "W", (int[]){0, 1, 2, -1});
  bind_rel(env, "loc", (int[]){0, 0, 0, 1, 1, 0, 1, 1, 2, 2, -1});
  bind_rel(env, "eq", (int[]){0, 0, 0, 1, 1, 0, 1, 1, 3, 3, -1});
  bind_rel(env, "before", (int[]){2, 0, -1});
  return env;
}

START_TEST(classes_and_classes_loc) {
  sc_cat_outcome out = eval_ok(load_ok("\"c\"\nlet c = classes(eq)\n"
                                       "let l = classes-loc(_)\n"
                                       "let p = partition(W)\n"),
                               classes_env(), NULL);
  ck_assert_str_eq(show_sets(lookup(&out, "c"), 4), "{0,1}{3}");
  ck_assert_str_eq(show_sets(lookup(&out, "l"), 4), "{0,1}{2}"); /* 3 has no location */
  ck_assert_str_eq(show_sets(lookup(&out, "p"), 4), "{0,1}{2}");
}
END_TEST

/* linearisations(W, before): the total orders of 0, 1, 2 with 2 before 0:
 * 2<0<1, 2<1<0 and 1<2<0 (3 of the 6), each transitive.  `with co from`
 * forks the rest of the model on each: the execution is allowed when one
 * run passes (here: the one where 1 comes first, co relating it to 0 and
 * 2). */
START_TEST(linearisations_extend_the_relation) {
  sc_cat_env *env = classes_env();
  sc_cat_outcome out = eval_ok(load_ok("\"lin\"\nlet ls = linearisations(W, before)\n"),
                               env, NULL);
  const sc_cat_value *ls = lookup(&out, "ls");
  ck_assert_int_eq(ls->kind, SC_CAT_VALSET);
  ck_assert_int_eq(ls->u.vs.n, 3);
  for (int i = 0; i < 3; i++) {
    const sc_rel *o = sci_cat_value_rel(ls->u.vs.items[i], 4);
    ck_assert_int_eq(sci_rel_count(o), 3);
    ck_assert(sc_rel_has(o, 2, 0));
  }
  bind_rel(env, "one_first", (int[]){1, 0, 1, 2, -1});
  out = eval_ok(load_ok("\"lin\"\nwith co from linearisations(W, before)\n"
                        "empty one_first \\ co as first\n"), env, NULL);
  ck_assert(out.allowed);
  bind_rel(env, "one_first", (int[]){1, 0, 0, 2, -1}); /* against before */
  out = eval_ok(load_ok("\"lin\"\nwith co from linearisations(W, before)\n"
                        "empty one_first \\ co as first\n"), env, NULL);
  ck_assert(!out.allowed);
  sc_cat_env *cyclic = classes_env();
  bind_rel(cyclic, "before", (int[]){2, 0, 0, 2, -1});
  out = eval_ok(load_ok("\"lin\"\nlet ls = linearisations(W, before)\n"), cyclic, NULL);
  ls = lookup(&out, "ls");
  ck_assert_int_eq(ls->u.vs.n, 1); /* herd: {before on W} when it is cyclic */
  ck_assert(sci_rel_equal(sci_cat_value_rel(ls->u.vs.items[0], 4),
                         rel_of(4, (int[]){2, 0, 0, 2, -1})));
}
END_TEST

/* ---- Evaluation errors --------------------------------------------------- */

static const struct {
  const char *text, *where, *what;
} eval_errors[] = {
  {"\"t\"\nlet x = po\nacyclic foo\n", "t.cat:3:9:", "unbound name 'foo'"},
  {"\"t\"\nacyclic po | W\n", "t.cat:2:14:",
   "type mismatch in union: expected relation, found event set"},
  {"\"t\"\nlet x = po ; W\nacyclic x\n", "t.cat:2:14:",
   "type mismatch: expected relation, found event set"},
  {"\"t\"\nacyclic W\n", "t.cat:2:9:",
   "type mismatch: expected relation (for 'acyclic'), found event set"},
  {"\"t\"\nempty po * W\n", "t.cat:2:7:", "type mismatch: expected event set, found relation"},
  {"\"t\"\nempty po & W\n", "t.cat:2:10:",
   "type mismatch in intersection: relation and event set"},
  {"\"t\"\nlet x = po(W)\nempty x\n", "t.cat:2:9:",
   "type mismatch: expected function, found relation"},
  {"\"t\"\nlet f(a, b) = a | b\nempty f(po)\n", "t.cat:3:7:",
   "argument mismatch: 2 arguments expected, 1 given"},
  {"\"t\"\nlet x = 'foo\nempty x\n", "t.cat:2:9:", "tag 'foo is undefined"},
  {"\"t\"\nempty domain(W)\n", "t.cat:2:7:",
   "primitive domain: type mismatch: expected relation, found event set"},
  {"\"t\"\nlet x = match po with 'a -> po end\nempty x\n", "t.cat:2:15:",
   "type mismatch: expected tag to match on, found relation"},
  {"\"t\"\nempty W \\ po\n", "t.cat:2:9:", "type mismatch in difference: event set and relation"},
  {"\"t\"\ncall nosuch(po)\n", "t.cat:2:1:", "unbound name 'nosuch'"},
};

START_TEST(evaluation_errors) {
  sc_cat_model *m = load_ok(eval_errors[_i].text);
  sc_cat_env *env = sci_cat_env_new(2);
  bind_rel(env, "po", (int[]){0, 1, -1});
  bind_set(env, "W", (int[]){0, -1});
  assert_eval_error(m, env, NULL, SC_ERR_SEMANTIC, eval_errors[_i].where, eval_errors[_i].what);
}
END_TEST

START_TEST(environment_misuse) {
  sc_cat_model *m = load_ok("\"t\"\nempty a\n");
  sc_cat_env *env = sci_cat_env_new(3);
  sci_cat_env_bind_rel(env, "a", sci_rel_new(4)); /* wrong size */
  sc_cat_outcome out;
  sc_error *err = NULL;
  ck_assert_int_eq(sci_cat_run(m, env, NULL, &out, &err), SC_ERR_USAGE);
  ck_assert_ptr_nonnull(strstr(sc_error_message(err), "'a' is over 4 events"));
  env = sci_cat_env_new(SC_CAT_MAX_EVENTS + 1);
  ck_assert_int_eq(sci_cat_run(m, env, NULL, &out, &err), SC_ERR_USAGE);
  ck_assert_ptr_nonnull(strstr(sc_error_message(err), "expected 0 to 4096 events"));
}
END_TEST

/* ---- Malformed models: syntax errors at their positions ------------------ */

static const struct {
  const char *text, *where, *what;
} malformed[] = {
  {"\"t\"\nlet = a\n", "t.cat:2:5:", "expected a name or '_', found '='"},
  {"\"t\"\nlet x =", "t.cat:2:8:", "expected an expression, found end of file"},
  {"\"t\"\nacyclic (po | rf", "t.cat:2:17:", "expected ')' closing the '(' at 2:9, found end of file"},
  {"\"t\"\nlet x = a |\nlet y = b\n", "t.cat:3:1:", "expected an expression, found 'let'"},
  {"\"t\"\nacyclic po as", "t.cat:2:14:", "expected a name after 'as', found end of file"},
  {"\"t\"\nlet x = a $ b\n", "t.cat:2:11:", "unexpected character '$'"},
  {"\"t\"\n(* never closed\nlet x = a\n", "t.cat:2:1:", "expected '*)' closing this comment"},
  {"\"t\"\ninclude \"x.cat\n", "t.cat:2:9:", "expected '\"' closing this string"},
  {"\"t\"\nlet x = ~a*\n", "t.cat:2:11:",
   "expected parentheses: '~' (at 2:9) and '*' do not associate in herd's grammar, found '*'"},
  {"\"t\"\nlet x = a * b * c\n", "t.cat:2:15:", "'*' (at 2:11) and '*' do not associate"},
  {"\"t\"\nlet x = a * ~b\n", "t.cat:2:13:", "'*' (at 2:11) and '~' do not associate"},
  {"\"t\"\nprocedure p(x) =\n  acyclic x\n", "t.cat:4:1:",
   "expected an instruction or 'end' closing the 'procedure' at 2:1, found end of file"},
  {"\"t\"\nlet f(x = a\n", "t.cat:2:9:", "expected ')' closing the '(' at 2:6, found '='"},
  {"\"t\"\nenum scopes = 'a ||", "t.cat:2:20:", "expected a tag such as 'name, found end of file"},
  {"\"t\"\nshow a,", "t.cat:2:8:", "expected a name, found end of file"},
  {"\"t\"\n{% never closed\n", "t.cat:2:1:", "expected '%}' closing this {% block"},
  {"\"t\"\nlet x = [a", "t.cat:2:11:", "expected ']' closing the '[' at 2:9, found end of file"},
  {"\"t\"\nlet x = match t with 'a -> b", "t.cat:2:29:",
   "expected 'end' closing the 'match' at 2:9, found end of file"},
  {"\"t\"\nacyclic", "t.cat:2:8:", "expected an expression, found end of file"},
  {"\"t\"\nlet x = 'a b\n", "t.cat:2:12:", "expected an instruction (let, acyclic"},
  {"\"t\"\nlet x = r^1\n", "t.cat:2:11:", "unexpected character '1'"},
  {"\"t\"\nflag ~emptyy x as f\n", "t.cat:2:7:",
   "expected 'acyclic', 'irreflexive' or 'empty', found 'emptyy'"},
  {"\"t\"\nprocedure p(x) =\n enum e = 'a\nend\n", "t.cat:3:2:",
   "enums are declared at the top level only"},
  {"\"t\"\nlet x = a\x01\n", "t.cat:2:10:", "unexpected byte 0x01"},
  {"\"t\"\ncall p\n", "t.cat:3:1:", "expected the procedure's arguments, as in p(x, y), found end of file"},
  {"\"t\"\nforall x in S do\nacyclic x\n", "t.cat:4:1:",
   "expected an instruction or 'end' closing the 'forall' at 2:1"},
  {"\"t\"\nlet x = fun -> a\n", "t.cat:2:13:", "expected a name or '_', found '->'"},
  {"\"t\"\nlet x = if a then b else c\n", "t.cat:2:14:",
   "expected '=', 'subset' or 'in' in the condition, found 'then'"},
  {"\"t\"\nlet x = a ^ b\n", "t.cat:2:13:", "expected '-1' after '^', found 'b'"},
  {"\"t\"\nlet x = a ; ; b\n", "t.cat:2:13:", "expected an expression, found ';'"},
  {"\"t\"\nif \"a\"\n  let x = a\n", "t.cat:4:1:",
   "expected 'end' closing the 'if' at 2:1, found end of file"},
  {"\"t\"\nif let x = a end\n", "t.cat:2:4:",
   "expected a variant name (a string), found 'let'"},
  {"\"t\"\nif \"a\" && then let x = a end\n", "t.cat:2:11:",
   "expected a variant name (a string), found 'then'"},
  {"\"t\"\nif \"a\" let x = a else let y = a else end\n", "t.cat:2:33:",
   "expected 'end' closing the 'if' at 2:1, found 'else'"},
};

START_TEST(malformed_models) {
  sc_cat_model *m = NULL;
  sc_error *err = NULL;
  sc_status st = sci_cat_load_string(malformed[_i].text, "t.cat", NULL, 0, &m, &err);
  ck_assert_int_eq(st, SC_ERR_SYNTAX);
  ck_assert_ptr_null(m);
  const char *msg = sc_error_message(err);
  ck_assert_msg(strncmp(msg, malformed[_i].where, strlen(malformed[_i].where)) == 0,
                "case %d: '%s' is not at %s", _i, msg, malformed[_i].where);
  ck_assert_msg(strstr(msg, malformed[_i].what) != NULL, "case %d: '%s' lacks '%s'", _i,
                msg, malformed[_i].what);
}
END_TEST

/* ---- Includes ------------------------------------------------------------ */

START_TEST(include_from_the_models_folder) {
  sc_cat_model *m = NULL;
  sc_error *err = NULL;
  ck_assert_msg(sci_cat_load_file(data_path("inc-main.cat"), NULL, 0, &m, &err) == SC_OK,
                "%s", sc_error_message(err));
  sc_cat_env *env = sci_cat_env_new(3);
  bind_rel(env, "po", (int[]){0, 1, 1, 2, 0, 2, -1});
  sc_cat_outcome out = eval_ok(m, env, NULL);
  ck_assert(out.allowed);
  assert_rel(&out, "po2", 3, (int[]){0, 2, -1});
}
END_TEST

START_TEST(include_from_a_search_folder) {
  const char *text = "\"virtual\"\ninclude \"inc-lib.cat\"\nlet z = twice(po)\n";
  const char *dirs[] = {"/nonexistent", sci_printf("%s/tests/data", srcdir())};
  sc_cat_model *m = NULL;
  sc_error *err = NULL;
  ck_assert_msg(sci_cat_load_string(text, "virtual.cat", dirs, 2, &m, &err) == SC_OK, "%s",
                sc_error_message(err));
  /* herd's stdlib.cat is always found: it is the prelude, already run */
  ck_assert_msg(sci_cat_load_string("\"s\"\ninclude \"stdlib.cat\"\nlet f = fencerel(F)\n",
                                   "s.cat", NULL, 0, &m, &err) == SC_OK, "%s",
                sc_error_message(err));
  /* without the folder the file is not found */
  ck_assert_int_eq(sci_cat_load_string(text, "virtual.cat", NULL, 0, &m, &err), SC_ERR_IO);
  ck_assert_ptr_nonnull(strstr(sc_error_message(err),
                               "virtual.cat:2:1: cannot find included file \"inc-lib.cat\""));
}
END_TEST

START_TEST(include_cycle) {
  sc_cat_model *m = NULL;
  sc_error *err = NULL;
  const char *a = data_path("cycle-a.cat"), *b = data_path("cycle-b.cat");
  ck_assert_int_eq(sci_cat_load_file(a, NULL, 0, &m, &err), SC_ERR_SEMANTIC);
  const char *msg = sc_error_message(err);
  /* reported at the include in cycle-b.cat that closes the cycle */
  const char *prefix = sci_printf("%s:2:1: include cycle: ", b);
  ck_assert_msg(strncmp(msg, prefix, strlen(prefix)) == 0, "%s", msg);
  ck_assert_msg(strstr(msg, sci_printf("%s -> %s -> %s", a, b, a)) != NULL, "%s", msg);
}
END_TEST

START_TEST(missing_model_file) {
  sc_cat_model *m = NULL;
  sc_error *err = NULL;
  ck_assert_int_eq(sci_cat_load_file("/nonexistent/x.cat", NULL, 0, &m, &err), SC_ERR_IO);
  ck_assert_ptr_nonnull(strstr(sc_error_message(err), "/nonexistent/x.cat: cannot open"));
}
END_TEST

START_TEST(corpus_models_parse) {
  /* every model of the project's corpus (herd's and Dat3M's PTX models) */
  const char *dir = sci_printf("%s/cat/corpus", srcdir());
  DIR *d = opendir(dir);
  ck_assert_msg(d != NULL, "cannot open %s", dir);
  int count = 0;
  for (struct dirent *de; (de = readdir(d));) {
    size_t len = strlen(de->d_name);
    if (len < 5 || strcmp(de->d_name + len - 4, ".cat") != 0)
      continue;
    sc_cat_model *m = NULL;
    sc_error *err = NULL;
    const char *path = sci_printf("%s/%s", dir, de->d_name);
    ck_assert_msg(sci_cat_load_file(path, NULL, 0, &m, &err) == SC_OK, "%s",
                  sc_error_message(err));
    count++;
  }
  closedir(d);
  ck_assert_int_ge(count, 6);
}
END_TEST

/* ---- herd's 2015 PTX model on message passing ----------------------------- *
 *
 * MP: thread T0 writes x then y, thread T1 reads y then x.
 *   events: 0 = W x (T0), 1 = W y (T0), 2 = R y (T1), 3 = R x (T1)
 *   po = {0->1, 2->3}; po-loc = {} (different locations)
 *   rf = rfe = {1->2}: R y reads W y
 *   R x reads the initial x, which is co-before W x, so fr = fre = {3->0}
 *   co = coe = {} (one write per location); rmw, addr, data, ctrl = {}
 *   gl and sys relate every pair (one grid); cta relates the events of a
 *   thread (different CTAs) or every pair (same CTA).
 *
 * The model (tests/data/ptx-2015.cat), by hand:
 *   empty rmw & (fre;coe)                   rmw = {}: passes
 *   sc-per-loc-llh: acyclic (po-loc-llh | com), com = rf|fr|co = {1->2, 3->0}:
 *                                           no cycle, passes
 *   no-thin-air: acyclic (dp | rf) = {1->2}: passes
 *   rmo(fence) = dp | rfe | co | fr | fence = {1->2, 3->0} | fence
 *   With a fence relation f = {0->1, 2->3}, rmo(f) has the cycle 0->1->2->3->0.
 *   - no fences: every rmo is {1->2, 3->0}: allowed (RMO allows MP).
 *   - membar.gl on both threads, different CTAs: gl-fence = f, rmo-gl = rmo(f) & gl
 *     keeps the cycle: forbidden by gl-constraint.  cta-constraint passes before
 *     it: rmo-cta = rmo(f) & cta = {0->1, 2->3} (cta drops the cross-thread edges).
 *   - membar.cta only, different CTAs: cta-fence = f but rmo-cta = {0->1, 2->3};
 *     gl-fence = {}: allowed.
 *   - membar.cta only, same CTA: cta relates everything, so rmo-cta keeps the
 *     cycle: forbidden by cta-constraint. */

enum { NO_FENCE, FENCE_CTA, FENCE_GL };

static sc_cat_env *mp_env(int fence, bool same_cta, bool derived_by_prelude) {
  sc_cat_env *env = sci_cat_env_new(4);
  int all[] = {0, 0, 0, 1, 0, 2, 0, 3, 1, 0, 1, 1, 1, 2, 1, 3,
               2, 0, 2, 1, 2, 2, 2, 3, 3, 0, 3, 1, 3, 2, 3, 3, -1};
  int threads[] = {0, 0, 0, 1, 1, 0, 1, 1, 2, 2, 2, 3, 3, 2, 3, 3, -1};
  int fences[] = {0, 1, 2, 3, -1};
  bind_set(env, "M", (int[]){0, 1, 2, 3, -1});
  bind_set(env, "W", (int[]){0, 1, -1});
  bind_set(env, "R", (int[]){2, 3, -1});
  bind_set(env, "F", NONE);
  bind_rel(env, "po", (int[]){0, 1, 2, 3, -1});
  bind_rel(env, "po-loc", NONE);
  bind_rel(env, "loc", (int[]){0, 0, 0, 3, 3, 0, 3, 3, 1, 1, 1, 2, 2, 1, 2, 2, -1});
  bind_rel(env, "int", threads);
  bind_rel(env, "ext", (int[]){0, 2, 0, 3, 1, 2, 1, 3, 2, 0, 2, 1, 3, 0, 3, 1, -1});
  bind_rel(env, "rf", (int[]){1, 2, -1});
  bind_rel(env, "co", NONE);
  bind_rel(env, "fr", (int[]){3, 0, -1});
  if (!derived_by_prelude) {
    bind_rel(env, "rfe", (int[]){1, 2, -1});
    bind_rel(env, "fre", (int[]){3, 0, -1});
    bind_rel(env, "coe", NONE);
  }
  bind_rel(env, "rmw", NONE);
  bind_rel(env, "addr", NONE);
  bind_rel(env, "data", NONE);
  bind_rel(env, "ctrl", NONE);
  bind_rel(env, "membar.cta", fence == FENCE_CTA ? fences : NONE);
  bind_rel(env, "membar.gl", fence == FENCE_GL ? fences : NONE);
  bind_rel(env, "membar.sys", NONE);
  bind_rel(env, "cta", same_cta ? all : threads);
  bind_rel(env, "gl", all);
  bind_rel(env, "sys", all);
  return env;
}

static sc_cat_model *ptx2015(void) {
  sc_cat_model *m = NULL;
  sc_error *err = NULL;
  ck_assert_msg(sci_cat_load_file(data_path("ptx-2015.cat"), NULL, 0, &m, &err) == SC_OK,
                "%s", sc_error_message(err));
  ck_assert_str_eq(sci_cat_model_title(m), "GPU_PTX");
  return m;
}

START_TEST(ptx2015_mp_without_fences_is_allowed) {
  sc_cat_outcome out = eval_ok(ptx2015(), mp_env(NO_FENCE, false, false), NULL);
  ck_assert(out.allowed);
  ck_assert_int_eq(out.nchecks, 6);
  ck_assert_str_eq(out.checks[0].name, "empty@12");
  ck_assert_str_eq(out.checks[1].name, "sc-per-loc-llh");
  ck_assert_str_eq(out.checks[5].name, "sys-constraint");
  for (int i = 0; i < out.nchecks; i++)
    ck_assert(out.checks[i].passed);
}
END_TEST

START_TEST(ptx2015_mp_gl_fences_other_ctas_is_forbidden) {
  sc_cat_model *m = ptx2015();
  sc_cat_env *env = mp_env(FENCE_GL, false, false);
  sc_cat_outcome out = eval_ok(m, env, NULL);
  ck_assert(!out.allowed);
  ck_assert_int_eq(out.nchecks, 5); /* stops at gl-constraint */
  ck_assert(find_check(&out, "cta-constraint")->passed);
  ck_assert(!find_check(&out, "gl-constraint")->passed);
  ck_assert_int_eq(find_check(&out, "gl-constraint")->line, 54);
  /* rmo-gl is the cycle 0->1->2->3->0 */
  const sc_rel *rmo_gl = lookup_rel(&out, "rmo-gl", 4);
  ck_assert(sci_rel_equal(rmo_gl, rel_of(4, (int[]){0, 1, 1, 2, 2, 3, 3, 0, -1})));
  int cycle[4];
  ck_assert_int_eq(sci_rel_find_cycle(rmo_gl, cycle), 4);
  /* with keep_going, sys-constraint (no sys fence) passes */
  sc_cat_run_options go = {.keep_going = true};
  out = eval_ok(m, env, &go);
  ck_assert_int_eq(out.nchecks, 6);
  ck_assert(find_check(&out, "sys-constraint")->passed);
  /* skipping gl-constraint lets it through */
  const char *skip[] = {"gl-constraint"};
  sc_cat_run_options sk = {.skipchecks = skip, .nskip = 1};
  ck_assert(eval_ok(m, env, &sk).allowed);
}
END_TEST

START_TEST(ptx2015_mp_cta_fences_other_ctas_is_allowed) {
  sc_cat_outcome out = eval_ok(ptx2015(), mp_env(FENCE_CTA, false, false), NULL);
  ck_assert(out.allowed);
  assert_rel(&out, "rmo-cta", 4, (int[]){0, 1, 2, 3, -1});
}
END_TEST

START_TEST(ptx2015_mp_cta_fences_same_cta_is_forbidden) {
  sc_cat_outcome out = eval_ok(ptx2015(), mp_env(FENCE_CTA, true, false), NULL);
  ck_assert(!out.allowed);
  ck_assert(!find_check(&out, "cta-constraint")->passed);
}
END_TEST

START_TEST(ptx2015_mp_with_derived_relations_from_the_prelude) {
  /* rfe, fre, coe left to the prelude (rf & ext, ...): same verdicts */
  sc_cat_model *m = ptx2015();
  ck_assert(eval_ok(m, mp_env(NO_FENCE, false, true), NULL).allowed);
  ck_assert(!eval_ok(m, mp_env(FENCE_GL, false, true), NULL).allowed);
  ck_assert(eval_ok(m, mp_env(FENCE_CTA, false, true), NULL).allowed);
}
END_TEST

/* The other herd PTX models of the corpus give MP the same verdicts (by the
 * same reasoning: their extra terms, RRfence and r?;fence;r?, add no edge
 * here since po-loc is empty and id adds only loops that r? absorbs). */
START_TEST(corpus_ptx_models_on_mp) {
  static const char *const models[] = {"ptx-up-2015.cat", "ptx-catalogue.cat"};
  sc_cat_model *m = NULL;
  sc_error *err = NULL;
  const char *path = sci_printf("%s/cat/corpus/%s", srcdir(), models[_i]);
  ck_assert_msg(sci_cat_load_file(path, NULL, 0, &m, &err) == SC_OK, "%s", sc_error_message(err));
  ck_assert(eval_ok(m, mp_env(NO_FENCE, false, false), NULL).allowed);
  ck_assert(!eval_ok(m, mp_env(FENCE_GL, false, false), NULL).allowed);
  ck_assert(eval_ok(m, mp_env(FENCE_CTA, false, false), NULL).allowed);
  ck_assert(!eval_ok(m, mp_env(FENCE_CTA, true, false), NULL).allowed);
}
END_TEST

/* Dat3M's PTX v6.0 model runs too (with its base names bound by hand).
 * Events: 0 = relaxed W x (T0), 1 = relaxed R x (T1) reading it.  No
 * release or acquire, so sync and cause-base are empty; observation =
 * morally-strong & rf = {0->1} (sr relates both, same location); cause =
 * observation ; po-loc = {}.  Every axiom holds: allowed. */
START_TEST(dat3m_ptx_v6_runs) {
  sc_cat_model *m = NULL;
  sc_error *err = NULL;
  const char *path = sci_printf("%s/cat/corpus/ptx-v6.0.cat", srcdir());
  ck_assert_msg(sci_cat_load_file(path, NULL, 0, &m, &err) == SC_OK, "%s", sc_error_message(err));
  sc_cat_env *env = sci_cat_env_new(2);
  int all[] = {0, 0, 0, 1, 1, 0, 1, 1, -1};
  bind_set(env, "M", (int[]){0, 1, -1});
  bind_set(env, "W", (int[]){0, -1});
  bind_set(env, "R", (int[]){1, -1});
  bind_set(env, "RLX", (int[]){0, 1, -1});
  const char *empty_sets[] = {"F", "REL", "ACQ", "ACQ_REL", "SC"};
  for (size_t i = 0; i < sizeof empty_sets / sizeof *empty_sets; i++)
    bind_set(env, empty_sets[i], NONE);
  bind_rel(env, "rf", (int[]){0, 1, -1});
  bind_rel(env, "loc", all);
  bind_rel(env, "sr", all);
  bind_rel(env, "scta", (int[]){0, 0, 1, 1, -1});
  const char *empty_rels[] = {"po", "co", "rmw", "addr", "data", "ctrl", "syncbar", "sync_fence"};
  for (size_t i = 0; i < sizeof empty_rels / sizeof *empty_rels; i++)
    bind_rel(env, empty_rels[i], NONE);
  sc_cat_outcome out = eval_ok(m, env, NULL);
  ck_assert(out.allowed);
  ck_assert_int_eq(out.nchecks, 7);
  assert_rel(&out, "observation", 2, (int[]){0, 1, -1});
}
END_TEST

/* ---- The lowered graph and the symbolic run over it ---------------------- */

/* Boolean operations for symbolic runs over constants only: the run folds
 * constants itself, so none of these may be called. */
static sc_cat_bool no_and(void *ctx, sc_cat_bool a, sc_cat_bool b) {
  (void)ctx, (void)a, (void)b;
  ck_abort_msg("a constant run made a term");
  return SC_CAT_FALSE;
}
static sc_cat_bool no_not(void *ctx, sc_cat_bool a) { return no_and(ctx, a, a); }
static sc_cat_bool no_acyclic(void *ctx, int n, const sc_cat_bool *m) {
  (void)n, (void)m;
  return no_and(ctx, NULL, NULL);
}
static bool no_equivalent(void *ctx, int n, const sc_cat_bool *a, const sc_cat_bool *b) {
  (void)ctx, (void)n, (void)a, (void)b;
  ck_abort_msg("a constant run asked for an equivalence");
  return false;
}
static const sc_cat_bool_ops constant_ops = {NULL, no_and, no_and, no_not, no_acyclic,
                                             no_equivalent};

static sc_status run_symbolic(const sc_cat_model *m, const sc_cat_env *env,
                              sc_cat_sym_outcome *out, sc_error **err) {
  return sci_cat_run_symbolic(m, env, NULL, &constant_ops, NULL, 0, out, err);
}

/* The inputs rf and co (relations over 3 events), the caller's po fixed. */
static sc_cat_sym_input rf_co[2] = {{"rf", false, NULL, false}, {"co", false, NULL, false}};

static const sc_cat_graph *lowered(const char *text, sc_cat_env **envp) {
  sc_cat_env *env = sci_cat_env_new(3);
  bind_rel(env, "po", (int[]){0, 1, 1, 2, -1});
  bind_set(env, "W", (int[]){0, -1});
  if (envp)
    *envp = env;
  return sci_cat_graph_of(load_ok(text), env, NULL, rf_co, 2);
}

static int count_kind(const sc_cat_graph *g, sc_cat_node_kind k) {
  int n = 0;
  for (int i = 0; i < g->nnodes; i++)
    n += g->nodes[i]->kind == k;
  return n;
}

/* com is lowered once and shared by both tests that use it; the union of
 * a test is the same node as the one inside the closure; & of the two
 * inputs is one node.  Nothing else is built: 7 nodes in all. */
START_TEST(lowering_shares_nodes) {
  const sc_cat_graph *g = lowered("\"t\"\nlet com = rf | co\nlet hb = (po | com)+\n"
                                  "acyclic hb as a1\nirreflexive po | com as a2\n"
                                  "empty rf & co as a3\nlet unused = nosuch\n", NULL);
  ck_assert_ptr_null(g->error);
  ck_assert_int_eq(g->naxioms, 3);
  const sc_cat_node *hb = g->axioms[0].node, *u = g->axioms[1].node;
  ck_assert_int_eq(hb->kind, CN_PLUS);
  ck_assert_ptr_eq(hb->a, u); /* shared */
  ck_assert_int_eq(u->kind, CN_UNION);
  ck_assert_int_eq(u->a->kind, CN_CONST);
  ck_assert_str_eq(u->a->name, "po");
  ck_assert_int_eq(u->b->kind, CN_UNION);
  ck_assert_int_eq(u->b->a->kind, CN_INPUT);
  ck_assert_str_eq(u->b->a->name, "rf");
  ck_assert_str_eq(u->b->b->name, "co");
  const sc_cat_node *i = g->axioms[2].node;
  ck_assert_int_eq(i->kind, CN_INTER);
  ck_assert_ptr_eq(i->a, u->b->a); /* the same rf */
  ck_assert_int_eq(g->nnodes, 7);
  for (int k = 0; k < g->nnodes; k++) /* operands come first */
    ck_assert(!g->nodes[k]->a || g->nodes[k]->a->id < k);
  ck_assert(g->axioms[0].positive && g->axioms[0].test->kind == TEST_ACYCLIC);
}
END_TEST

/* A model is lowered once per signature of the caller's names: the same
 * names give the same graph, an input that becomes transitive another
 * (where r+ is r itself). */
START_TEST(lowering_is_cached) {
  sc_cat_model *m = load_ok("\"t\"\nacyclic rf+\n");
  sc_cat_env *env = sci_cat_env_new(3);
  const sc_cat_graph *g = sci_cat_graph_of(m, env, NULL, rf_co, 2);
  ck_assert_ptr_eq(sci_cat_graph_of(m, env, NULL, rf_co, 2), g);
  ck_assert_int_eq(g->axioms[0].node->kind, CN_PLUS);
  sc_cat_sym_input trans[2] = {{"rf", false, NULL, true}, {"co", false, NULL, false}};
  const sc_cat_graph *t = sci_cat_graph_of(m, env, NULL, trans, 2);
  ck_assert_ptr_ne(t, g);
  ck_assert_int_eq(t->axioms[0].node->kind, CN_INPUT);
  /* eight signatures are kept, the one used longest ago is dropped */
  const sc_cat_graph *last = NULL;
  for (int i = 0; i < 8; i++) {
    sc_cat_env *other = sci_cat_env_new(3);
    bind_rel(other, sci_printf("x%d", i), NONE);
    last = sci_cat_graph_of(m, other, NULL, rf_co, 2);
    if (i == 6)
      ck_assert_ptr_eq(sci_cat_graph_of(m, env, NULL, trans, 2), t);
  }
  ck_assert_ptr_eq(sci_cat_graph_of(m, env, NULL, trans, 2), t); /* used lately */
  ck_assert_ptr_ne(sci_cat_graph_of(m, env, NULL, rf_co, 2), g); /* dropped */
  ck_assert_ptr_nonnull(last);
}
END_TEST

/* let rec r = po | r;r is a fixpoint node over one variable: the next
 * round is po | (var ; var).  Run on po = {0->1, 1->2}: r = po+ =
 * {0->1, 1->2, 0->2}, so r \ po = {0->2} is not empty (the flag is
 * raised) and r is acyclic.  The chain shape x = rf | x;po;x needs no
 * fixpoint: rf;(po;rf)*. */
START_TEST(lowering_let_rec) {
  sc_cat_env *env;
  const char *text = "\"t\"\nlet rec r = po | r;r\nacyclic r as ok\n"
                     "flag ~empty r \\ po as longer\nlet rec x = rf | x;po;x\n"
                     "empty x as chain\n";
  const sc_cat_graph *g = lowered(text, &env);
  ck_assert_ptr_null(g->error);
  const sc_cat_node *r = g->axioms[0].node;
  ck_assert_int_eq(r->kind, CN_FIX);
  ck_assert_int_eq(r->fix->nvars, 1);
  ck_assert_str_eq(r->fix->names[0], "r");
  const sc_cat_node *next = r->fix->next[0];
  ck_assert_int_eq(next->kind, CN_UNION);
  ck_assert_int_eq(next->b->kind, CN_SEQ);
  ck_assert_ptr_eq(next->b->a, r->fix->vars[0]);
  ck_assert_ptr_eq(next->b->b, r->fix->vars[0]);
  const sc_cat_node *x = g->axioms[2].node;
  ck_assert_int_eq(x->kind, CN_SEQ);
  ck_assert_str_eq(x->a->name, "rf");
  ck_assert_int_eq(x->b->kind, CN_STAR);
  ck_assert_int_eq(count_kind(g, CN_FIX), 1);
  /* the same model without the inputs' names: a run over constants */
  sc_cat_model *m = load_ok("\"t\"\nlet rec r = po | r;r\nacyclic r as ok\n"
                            "flag ~empty r \\ po as longer\n");
  sc_cat_sym_outcome out;
  sc_error *err = NULL;
  ck_assert_int_eq(run_symbolic(m, env, &out, &err), SC_OK);
  ck_assert_ptr_eq(out.allowed, SC_CAT_TRUE);
  ck_assert_int_eq(out.nflags, 1);
  ck_assert_str_eq(out.flags[0].name, "longer");
  ck_assert_ptr_eq(out.flags[0].when, SC_CAT_TRUE);
}
END_TEST

/* What the graph cannot express stops the lowering with its line, after
 * the tests before it: the run reports it, not a verdict. */
START_TEST(lowering_unsupported) {
  const sc_cat_graph *g = lowered("\"t\"\nacyclic po\nlet x = try nosuch with rf\n"
                                  "acyclic x\nenum scopes = 'cta || 'gpu\nacyclic co\n", NULL);
  ck_assert_int_eq(g->naxioms, 2); /* try took rf */
  ck_assert_int_eq(g->axioms[1].node->kind, CN_INPUT);
  ck_assert_ptr_nonnull(g->error);
  ck_assert_int_eq(sc_error_status(g->error), SC_ERR_UNSUPPORTED);
  ck_assert_str_eq(sc_error_message(g->error),
                   "t.cat:5:1: the symbolic engine cannot encode an enum");
  /* a primitive the graph has no node for is no unbound name for `try` */
  g = lowered("\"t\"\nlet x = try classes(po) with po\nacyclic x\n", NULL);
  ck_assert_int_eq(g->naxioms, 0);
  ck_assert_str_eq(sc_error_message(g->error),
                   "t.cat:2:13: the symbolic engine cannot encode the primitive classes");
  g = lowered("\"t\"\nlet x = {rf}\n\nacyclic x\n", NULL);
  ck_assert_int_eq(g->naxioms, 0);
  ck_assert_str_eq(sc_error_message(g->error), /* at the set, not the let */
                   "t.cat:2:9: the symbolic engine cannot encode an explicit set");
}
END_TEST

/* The binding named `name` among the let instructions of p (and of the
 * procedures there). */
static const sc_cat_bind *let_named(const sc_cat_prog *p, const char *name) {
  for (int i = 0; i < p->n; i++) {
    const sc_cat_ins *ins = p->ins[i];
    if (ins->kind == IN_LET && strcmp(ins->binds[0].pat.names[0], name) == 0)
      return &ins->binds[0];
    if (ins->kind == IN_PROCEDURE && let_named(&ins->body, name))
      return let_named(&ins->body, name);
  }
  return NULL;
}

/* The dependence of each check on the choices, read off the lowered graph:
 * rf and co grow (inputs 1 and 2), fr grows with both, FW shrinks as co
 * grows.  c1 = po | rf grows with rf; c2 = fr;po with rf and co;
 * ~empty W \ FW fails as W \ FW empties, i.e. as FW grows, i.e. as co
 * shrinks; the let rec r = rf | r;po grows with rf; the check inside the
 * procedure, called on po then on rf, is one check that grows with rf.
 * `fixed` (po;po) depends on no choice, hb does, and the procedure's y is
 * never kept (one binding, two calls). */
START_TEST(analysis_walks_the_graph) {
  sc_cat_model *m = load_ok("\"t\"\nlet fixed = po ; po\nlet hb = po | rf\n"
                            "acyclic hb as c1\nirreflexive fr ; po as c2\n"
                            "~empty W \\ FW as c3\nlet rec r = rf | r ; po\n"
                            "acyclic r as c4\nempty fixed & rf as c5\n"
                            "procedure p(x) = let y = x acyclic y as c6 end\n"
                            "call p(po)\ncall p(rf)\n");
  sc_cat_env *env = sci_cat_env_new(3);
  bind_rel(env, "po", (int[]){0, 1, -1});
  bind_set(env, "W", (int[]){0, -1});
  bind_rel(env, "rf", NONE);
  bind_rel(env, "co", NONE);
  bind_rel(env, "fr", NONE);
  bind_set(env, "FW", NONE);
  const sc_cat_dynamic dyn[] = {{"rf", {1, 0}}, {"co", {2, 0}}, {"fr", {3, 0}},
                                {"FW", {0, 2}}};
  sc_cat_analysis *a = sci_cat_analyse(m, env, dyn, 4, NULL);
  static const struct {
    const char *name;
    sc_cat_dep dep;
  } want[] = {{"c1", {1, 0}}, {"c2", {3, 0}}, {"c3", {0, 2}}, {"c4", {1, 0}},
              {"c5", {1, 0}}, {"c6", {1, 0}}};
  ck_assert_int_eq(sci_cat_analysis_nchecks(a), 6);
  for (int i = 0; i < 6; i++) {
    sc_cat_dep d;
    const sc_cat_test *t = sci_cat_analysis_check(a, i, &d);
    ck_assert_str_eq(t->name, want[i].name);
    ck_assert_msg(d.up == want[i].dep.up && d.down == want[i].dep.down,
                  "%s: up %x down %x", t->name, d.up, d.down);
  }
  ck_assert(sci_cat_analysis_is_static(a, let_named(&m->prog, "fixed")));
  ck_assert(!sci_cat_analysis_is_static(a, let_named(&m->prog, "hb")));
  ck_assert(!sci_cat_analysis_is_static(a, let_named(&m->prog, "y")));
}
END_TEST

/* The checks that order pairs (sci_cat_analysis_order): `empty (E \ (c |
 * c^-1))`, c being co or co+ (the model's `let co = co+`), either order
 * of the union, E depending on no choice.  Not: a flag (it forbids
 * nothing), a negated check, E reading rf, c | rf^-1 (not one relation
 * both ways), c^-1 over another relation, acyclic, a procedure's check
 * called once with E fixed and once with E = rf (a run evaluates both). */
START_TEST(analysis_finds_ordering_checks) {
  sc_cat_model *m = load_ok(
      "\"t\"\nlet w2 = (W * W) & po\n"
      "empty w2 \\ (co | co^-1) as o1\n"
      "flag ~empty w2 \\ (co | co^-1) as f1\n"
      "~empty w2 \\ (co | co^-1) as n1\n"
      "empty (w2 | rf) \\ (co | co^-1) as n2\n"
      "empty w2 \\ (co | rf^-1) as n3\n"
      "empty w2 \\ (co | po^-1) as n4\n"
      "acyclic w2 \\ (co | co^-1) as n5\n"
      "procedure p(x) = empty x \\ (co | co^-1) as n6 end\n"
      "call p(w2)\ncall p(rf)\n"
      "let co = co+\n"
      "empty w2 \\ (co^-1 | co) as o2\n");
  sc_cat_env *env = sci_cat_env_new(3);
  bind_rel(env, "po", (int[]){0, 1, -1});
  bind_set(env, "W", (int[]){0, 1, -1});
  bind_rel(env, "rf", NONE);
  bind_rel(env, "co", NONE);
  const sc_cat_dynamic dyn[] = {{"rf", {1, 0}}, {"co", {2, 0}}};
  sc_cat_analysis *a = sci_cat_analyse(m, env, dyn, 2, NULL);
  ck_assert_int_eq(sci_cat_analysis_norders(a), 2);
  const char *want[] = {"o1", "o2"};
  for (int i = 0; i < 2; i++) {
    const char *input;
    ck_assert_str_eq(sci_cat_analysis_order(a, i, &input)->name, want[i]);
    ck_assert_str_eq(input, "co");
  }
  /* with co empty, the check's value is E: the pair (0, 1) */
  const struct sc_cat_test *only[] = {sci_cat_analysis_order(a, 0, &(const char *){0})};
  sc_cat_run_options o = {.only = only, .nonly = 1};
  sc_cat_outcome out;
  sc_error *err = NULL;
  ck_assert_int_eq(sci_cat_run(m, env, &o, &out, &err), SC_OK);
  ck_assert_int_eq(out.nchecks, 1);
  const sc_rel *e = sci_cat_value_rel(out.checks[0].value, 3);
  ck_assert(sc_rel_has(e, 0, 1) && !sc_rel_has(e, 1, 0) && !sc_rel_has(e, 0, 2));
}
END_TEST

/* The symbolic run's errors for a model are those of enumeration, at the
 * same file:line:col with the same words, wherever the symbolic engine
 * can encode the construct (the rest is SC_ERR_UNSUPPORTED). */
START_TEST(symbolic_errors_are_enumerations) {
  sc_cat_model *m = load_ok(eval_errors[_i].text);
  sc_cat_env *env = sci_cat_env_new(2);
  bind_rel(env, "po", (int[]){0, 1, -1});
  bind_set(env, "W", (int[]){0, -1});
  sc_cat_outcome out;
  sc_error *concrete = NULL, *symbolic = NULL;
  ck_assert_int_eq(sci_cat_run(m, env, NULL, &out, &concrete), SC_ERR_SEMANTIC);
  sc_cat_sym_outcome sout;
  sc_status st = run_symbolic(m, env, &sout, &symbolic);
  if (st == SC_ERR_UNSUPPORTED) { /* tags, match */
    ck_assert(strstr(eval_errors[_i].what, "tag") || strstr(eval_errors[_i].text, "match"));
    return;
  }
  ck_assert_int_eq(st, SC_ERR_SEMANTIC);
  ck_assert_str_eq(sc_error_message(symbolic), sc_error_message(concrete));
}
END_TEST

/* A let rec past its iterations (-max-iterations): the symbolic run stops
 * with enumeration's words at its place.  r = po | r;r on po = {0->1,
 * 1->2} is po after one round, which is still a change. */
START_TEST(symbolic_fixpoint_limit) {
  sc_cat_model *m = load_ok("\"t\"\nlet x = po\n  let rec r = po | r;r\nacyclic r\n");
  sc_cat_env *env = sci_cat_env_new(3);
  bind_rel(env, "po", (int[]){0, 1, 1, 2, -1});
  sc_cat_run_options opts = {0};
  opts.max_fixpoint_iterations = 1;
  sc_cat_outcome out;
  sc_cat_sym_outcome sout;
  sc_error *concrete = NULL, *symbolic = NULL;
  ck_assert_int_eq(sci_cat_run(m, env, &opts, &out, &concrete), SC_ERR_LIMIT);
  ck_assert_int_eq(sci_cat_run_symbolic(m, env, &opts, &constant_ops, NULL, 0, &sout,
                                       &symbolic),
                   SC_ERR_LIMIT);
  ck_assert_str_eq(sc_error_message(symbolic), sc_error_message(concrete));
  ck_assert(strstr(sc_error_message(symbolic), "t.cat:3:3: expected 'let rec r'") != NULL);
  opts.max_fixpoint_iterations = 3; /* po+ after two rounds, the same after three */
  ck_assert_int_eq(sci_cat_run_symbolic(m, env, &opts, &constant_ops, NULL, 0, &sout,
                                       &symbolic),
                   SC_OK);
}
END_TEST

/* A recursion without end: the symbolic run stops where enumeration does,
 * naming the option that sets the limit. */
START_TEST(symbolic_deep_recursion) {
  sc_cat_model *m = load_ok("\"deep\"\nlet rec f x = f x\nlet y = f(a)\nempty y\n");
  sc_cat_env *env = sci_cat_env_new(2);
  bind_rel(env, "a", NONE);
  sc_cat_sym_outcome out;
  sc_error *err = NULL;
  ck_assert_int_eq(run_symbolic(m, env, &out, &err), SC_ERR_LIMIT);
  ck_assert_str_eq(sc_error_message(err),
                   "t.cat:2:15: expected function calls nested at most 1000 deep, "
                   "found deeper (the -max-depth limit; a recursion without end?)");
  sc_model_limits lim = {0};
  lim.max_depth = 5;
  err = NULL;
  ck_assert_int_eq(run_symbolic(sci_cat_model_with_limits(m, &lim), env, &out, &err),
                   SC_ERR_LIMIT);
  ck_assert(strstr(sc_error_message(err), "at most 5 deep") != NULL);
}
END_TEST

/* ---- Taking events out (removal.c) ----------------------------------------- */

/* Models over po, loc, rf, co, ctrl, R and W, rf and co the choices; ctrl
 * may lose pairs as events go, W and co hold writes, never taken out.
 * Whether each model allows every execution made from one it allows by
 * taking events out, the rest keeping their pairs, worked out by hand:
 * a difference or complement is only safe against a value that is its
 * restriction (po, or a sequence through the writes of co), a check only
 * when not negated, a flag only on {}. */
static const struct {
  const char *model;
  bool safe;
} removal_cases[] = {
  {"acyclic po | rf | co\n", true},
  {"empty (po & loc) \\ co\n", true},
  {"empty po \\ (co ; co)\n", true},           /* through writes only */
  {"irreflexive (rf^-1 ; co) ; po\n", true},
  {"let rec r = po | (r ; r)\nacyclic r ; ctrl\n", true},
  {"acyclic po & ~(po^-1)\n", true},
  {"flag ~empty emptyset as f\nacyclic po\n", true},
  {"acyclic po\n~empty po as n\n", false},     /* fewer pairs fail it */
  {"empty po \\ (po ; po)\n", false},          /* an event between removed */
  {"empty po \\ (rf ; rf^-1)\n", false},       /* through reads */
  {"empty po \\ ctrl\n", false},               /* ctrl shrinks */
  {"acyclic po & ~ctrl\n", false},
  {"empty W \\ range(rf)\n", false},
  {"let rec r = po \\ (r ; po)\nacyclic r\n", false}, /* not lowered */
  {"flag ~empty po as f\n", false},            /* raised by the longer only */
  {"undefined_unless empty po as u\n", false},
  {"flag ~empty po as v\n", true},            /* the caller vouches for v */
  {"undefined_unless empty po as v\n", false}, /* a flag only */
};

START_TEST(removal_gate) {
  sc_cat_model *m = load_ok(sci_printf("\"t\"\n%s", removal_cases[_i].model));
  sc_cat_env *env = sci_cat_env_new(3);
  bind_rel(env, "po", (int[]){0, 1, -1});
  bind_rel(env, "loc", NONE);
  bind_rel(env, "ctrl", NONE);
  bind_set(env, "R", NONE);
  bind_set(env, "W", NONE);
  bind_rel(env, "rf", NONE);
  bind_rel(env, "co", NONE);
  const sc_cat_dynamic dyn[] = {{"rf", {1, 0}}, {"co", {2, 0}}};
  static const char *const shrinking[] = {"ctrl"}, *const kept[] = {"W", "co"};
  static const char *const vouched[] = {"v"};
  static const sc_cat_removal how = {shrinking, 1, kept, 2, vouched, 1};
  ck_assert_msg(sci_cat_model_drop_events_safe(m, env, dyn, 2, &how, NULL) ==
                    removal_cases[_i].safe,
                "%s", removal_cases[_i].model);
  /* asked again: the answer kept with the graph */
  ck_assert(sci_cat_model_drop_events_safe(m, env, dyn, 2, &how, NULL) ==
            removal_cases[_i].safe);
}
END_TEST

static Suite *cat_suite(void) {
  Suite *s = suite_create("cat");
  TCase *parse = tcase_create("parse");
  tcase_add_loop_test(parse, precedence, 0, (int)(sizeof prec_cases / sizeof prec_cases[0]));
  tcase_add_test(parse, cartesian_and_postfix_star);
  tcase_add_test(parse, titles_and_doc_blocks);
  tcase_add_loop_test(parse, malformed_models, 0, (int)(sizeof malformed / sizeof malformed[0]));
  tcase_add_test(parse, corpus_models_parse);
  suite_add_tcase(s, parse);

  TCase *eval = tcase_create("eval");
  tcase_add_test(eval, let_rec_transitive_closure);
  tcase_add_test(eval, let_rec_mutual);
  tcase_add_test(eval, let_rec_iteration_limit);
  tcase_add_test(eval, functions);
  tcase_add_test(eval, prelude_and_sets);
  tcase_add_test(eval, prelude_defers_to_the_caller);
  tcase_add_test(eval, lazy_bindings);
  tcase_add_test(eval, flags_and_checks);
  tcase_add_test(eval, assertion);
  tcase_add_test(eval, procedures);
  tcase_add_test(eval, forall_and_enums);
  tcase_add_test(eval, with_from);
  tcase_add_test(eval, with_from_the_callers_relation);
  tcase_add_test(eval, shows);
  tcase_add_test(eval, deep_recursion_is_refused);
  tcase_add_test(eval, unsupported_primitive);
  tcase_add_test(eval, bell_file);
  tcase_add_test(eval, if_variant);
  tcase_add_test(eval, if_variant_herd_form);
  tcase_add_test(eval, classes_and_classes_loc);
  tcase_add_test(eval, linearisations_extend_the_relation);
  tcase_add_loop_test(eval, evaluation_errors, 0, (int)(sizeof eval_errors / sizeof eval_errors[0]));
  tcase_add_test(eval, environment_misuse);
  tcase_add_loop_test(eval, symbolic_errors_are_enumerations, 0,
                      (int)(sizeof eval_errors / sizeof eval_errors[0]));
  tcase_add_test(eval, symbolic_deep_recursion);
  tcase_add_test(eval, symbolic_fixpoint_limit);
  suite_add_tcase(s, eval);

  TCase *graph = tcase_create("graph");
  tcase_add_test(graph, lowering_shares_nodes);
  tcase_add_test(graph, lowering_is_cached);
  tcase_add_test(graph, lowering_let_rec);
  tcase_add_test(graph, lowering_unsupported);
  tcase_add_test(graph, analysis_walks_the_graph);
  tcase_add_test(graph, analysis_finds_ordering_checks);
  tcase_add_loop_test(graph, removal_gate, 0,
                      (int)(sizeof removal_cases / sizeof removal_cases[0]));
  suite_add_tcase(s, graph);

  TCase *inc = tcase_create("include");
  tcase_add_test(inc, include_from_the_models_folder);
  tcase_add_test(inc, include_from_a_search_folder);
  tcase_add_test(inc, include_cycle);
  tcase_add_test(inc, missing_model_file);
  suite_add_tcase(s, inc);

  TCase *ptx = tcase_create("ptx");
  tcase_add_test(ptx, ptx2015_mp_without_fences_is_allowed);
  tcase_add_test(ptx, ptx2015_mp_gl_fences_other_ctas_is_forbidden);
  tcase_add_test(ptx, ptx2015_mp_cta_fences_other_ctas_is_allowed);
  tcase_add_test(ptx, ptx2015_mp_cta_fences_same_cta_is_forbidden);
  tcase_add_test(ptx, ptx2015_mp_with_derived_relations_from_the_prelude);
  tcase_add_loop_test(ptx, corpus_ptx_models_on_mp, 0, 2);
  tcase_add_test(ptx, dat3m_ptx_v6_runs);
  suite_add_tcase(s, ptx);
  return s;
}

int main(void) {
  sci_gc_init();
  return sc_check_run(cat_suite());
}
