/* symbolic.c: the symbolic engine with Z3 (only here, behind HAVE_Z3): rf
 * and co as Boolean choice variables over one combination of traces, the
 * model's formula from cat/symbolic.c, acyclicity by integer clocks, and
 * the final states of allowed executions found by blocking each in turn.
 * The combinations of a layout met often share one encoding, each asking
 * in a scope of its own (One scope per layout, below). */
#include "config.h"
#include "sim/symbolic.h"

#include "sim/data_only.h"
#include "sim/dynamic.h"
#include "sim/result.h"

#include "scopecat.h"
#include "util/error.h"
#include "util/gcmem.h"
#include "util/oom.h"

#include <string.h>

int sc_engine_smt_available(const char **why) {
  return sci_sym_available(why);
}

#ifndef HAVE_Z3

bool sci_sym_available(const char **why) {
  if (why)
    *why = "this scopecat was built without Z3 (configure found no pkg-config "
           "module z3; on Debian: apt-get install libz3-dev, then configure again)";
  return false;
}

sc_sym_session *sci_sym_open(void) { return NULL; }
void sci_sym_close(sc_sym_session *ss) {
  (void)ss; /* sci_sym_open never makes one here */
}
sc_sym_session *sci_sym_mark(void) { return NULL; }
void sci_sym_close_since(sc_sym_session *mark) { (void)mark; }
bool sci_sym_scope_fits(const sc_sym_session *ss, const sc_sym_problem *p) {
  (void)ss, (void)p; /* no session is ever made here */
  return false;
}

sc_status sci_sym_solve(sc_sym_session *ss, const sc_sym_problem *p, sc_error **err) {
  (void)ss;
  const char *why;
  sci_sym_available(&why);
  return sci_fail(err, SC_ERR_UNSUPPORTED, p->t->file, 0, 0,
                 "expected the symbolic engine, but %s", why);
}
sc_status sci_sym_fed_pairs(const sc_sym_feed *f, bool *known, double seconds,
                           bool *gave_up, sc_error **err) {
  (void)known;
  (void)seconds;
  *gave_up = true;
  return sci_fail(err, SC_ERR_UNSUPPORTED, f->t->file, 0, 0, "no solver in this build");
}

#else

#include <z3.h>

bool sci_sym_available(const char **why) {
  if (why)
    *why = NULL;
  return true;
}

typedef struct zctx {
  Z3_context z;
  Z3_solver s;
  /* made once per context: a term Z3 could not make is replaced by
   * `poison` (false) so that no NULL reaches Z3, and the problem fails
   * before any answer is read (checked(), out_of_order()) */
  Z3_ast true_, false_, poison;
  Z3_sort bool_sort, int_sort;
  int clocks; /* fresh clock sets made */
  bool failed;
  double deadline; /* sc_seconds() past which it gives up, 0: none */
  int refuted;     /* executions found that the concrete run refuted */
  Z3_ast *choices; /* the rf and co variables: they fix an execution */
  int nchoices, capchoices;
  /* each check has a resource limit (set_solver_uint's "rlimit"): a
   * question past it is unanswered (gave_up), not the solver's failure */
  bool rlimited, gave_up;
} zctx;

/* The errors Z3 met since the problem began: each API call resets its
 * error code, so the handler keeps what the problem must know of.  Z3 calls
 * it on the thread that made the call. */
static _Thread_local bool z3_failed, z3_memout;

static void on_error(Z3_context z, Z3_error_code e) {
  (void)z;
  z3_failed = true;
  z3_memout |= e == Z3_MEMOUT_FAIL;
}

/* A term Z3 made, or, when it could not (memory: the limit sci_sym_solve
 * sets from -max-heap, or the machine's; or any other error), the poison
 * that keeps every later call well defined until the problem looks at
 * z3_failed. */
static Z3_ast checked(zctx *c, Z3_ast a) {
  if (a)
    return a;
  z3_failed = true;
  return c->poison;
}

/* Whether Z3 failed since the problem began, and the error to report:
 * memory as the collector's guard reports it, anything else as the
 * solver's failure. */
static bool out_of_order(const sc_sym_problem *p, zctx *c, sc_status *st, sc_error **err) {
  if (!z3_failed)
    return false;
  if (z3_memout || !c->z || Z3_get_error_code(c->z) == Z3_MEMOUT_FAIL)
    *st = sci_oom_fail_outside(p->t->file, "the solver (Z3)", err);
  else
    *st = sci_fail(err, SC_ERR_LIMIT, p->t->file, 0, 0, "the solver failed: %s",
                  Z3_get_error_msg(c->z, Z3_get_error_code(c->z)));
  return true;
}

static sc_cat_bool z_and(void *ctx, sc_cat_bool a, sc_cat_bool b) {
  zctx *c = ctx;
  Z3_ast args[2] = {(Z3_ast)a, (Z3_ast)b};
  return checked(c, Z3_mk_and(c->z, 2, args));
}

static sc_cat_bool z_or(void *ctx, sc_cat_bool a, sc_cat_bool b) {
  zctx *c = ctx;
  Z3_ast args[2] = {(Z3_ast)a, (Z3_ast)b};
  return checked(c, Z3_mk_or(c->z, 2, args));
}

static sc_cat_bool z_not(void *ctx, sc_cat_bool a) {
  zctx *c = ctx;
  return checked(c, Z3_mk_not(c->z, (Z3_ast)a));
}

static Z3_ast lift(zctx *c, sc_cat_bool b) {
  if (b == SC_CAT_TRUE)
    return c->true_;
  if (b == SC_CAT_FALSE)
    return c->false_;
  return (Z3_ast)b;
}

/* Acyclic when some clocks increase along every edge. */
static sc_cat_bool z_acyclic(void *ctx, int n, const sc_cat_bool *m) {
  zctx *c = ctx;
  Z3_sort int_sort = c->int_sort;
  Z3_ast *clk = sci_alloc(sizeof(Z3_ast) * (size_t)(n + 1));
  bool *made = sci_alloc_atomic(sizeof(bool) * (size_t)(n + 1));
  memset(made, 0, sizeof(bool) * (size_t)(n + 1));
  int cap = 16, k = 0;
  Z3_ast *parts = sci_alloc(sizeof(Z3_ast) * (size_t)cap);
  c->clocks++;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      sc_cat_bool e = m[i * n + j];
      if (e == SC_CAT_FALSE)
        continue;
      Z3_ast part;
      if (i == j) {
        part = checked(c, Z3_mk_not(c->z, lift(c, e)));
      } else {
        for (int a = 0; a < 2; a++) {
          int v = a ? j : i;
          if (!made[v]) {
            char name[48];
            snprintf(name, sizeof name, "clk%d_%d", c->clocks, v);
            clk[v] = checked(c, Z3_mk_const(c->z, Z3_mk_string_symbol(c->z, name), int_sort));
            made[v] = true;
          }
        }
        Z3_ast lt = checked(c, Z3_mk_lt(c->z, clk[i], clk[j]));
        part = e == SC_CAT_TRUE ? lt : checked(c, Z3_mk_implies(c->z, (Z3_ast)e, lt));
      }
      if (k == cap) {
        Z3_ast *more = sci_alloc(sizeof(Z3_ast) * (size_t)(cap * 2));
        memcpy(more, parts, sizeof(Z3_ast) * (size_t)cap);
        parts = more;
        cap *= 2;
      }
      parts[k++] = part;
    }
  if (k == 0)
    return SC_CAT_TRUE;
  return checked(c, Z3_mk_and(c->z, (unsigned)k, parts));
}

/* Whether b[i] implies a[i] for every i under the constraints asserted so
 * far (rf and co well formed): a let rec's round adds nothing.  Entries
 * that Z3's simplifier makes equal are not asked about. */
static bool z_equivalent(void *ctx, int n, const sc_cat_bool *a, const sc_cat_bool *b) {
  zctx *c = ctx;
  Z3_ast *more = sci_alloc(sizeof(Z3_ast) * (size_t)(n + 1));
  int k = 0;
  for (int i = 0; i < n; i++) {
    Z3_ast x = checked(c, Z3_simplify(c->z, lift(c, a[i])));
    Z3_ast y = checked(c, Z3_simplify(c->z, lift(c, b[i])));
    if (Z3_is_eq_ast(c->z, x, y))
      continue;
    Z3_ast both[2] = {lift(c, b[i]), checked(c, Z3_mk_not(c->z, lift(c, a[i])))};
    more[k++] = checked(c, Z3_mk_and(c->z, 2, both));
  }
  if (k == 0 || z3_failed)
    return true; /* a failure: the problem reports it (out_of_order) */
  Z3_solver_push(c->z, c->s);
  Z3_solver_assert(c->z, c->s, checked(c, Z3_mk_or(c->z, (unsigned)k, more)));
  Z3_lbool r = Z3_solver_check(c->z, c->s);
  Z3_solver_pop(c->z, c->s, 1);
  if (r == Z3_L_UNDEF)
    c->failed = true;
  return r == Z3_L_FALSE;
}

static Z3_ast fresh(zctx *c, const char *prefix) {
  return checked(c, Z3_mk_fresh_const(c->z, prefix, c->bool_sort));
}

/* A variable of the execution's rf or co. */
static Z3_ast choice(zctx *c, const char *prefix) {
  Z3_ast v = fresh(c, prefix);
  sci_grow(&c->choices, &c->capchoices, c->nchoices + 1, sizeof(Z3_ast));
  c->choices[c->nchoices++] = v;
  return v;
}

/* The clause a1 | ... | an, of literals (a literal: a variable or its
 * negation), asserted as such: an `and` under a `not` or an `implies` would
 * cost the solver an auxiliary variable and three clauses each. */
static void clause(zctx *c, int n, Z3_ast *lits) {
  Z3_solver_assert(c->z, c->s, checked(c, Z3_mk_or(c->z, (unsigned)n, lits)));
}

static Z3_ast neg(zctx *c, Z3_ast a) {
  return checked(c, Z3_mk_not(c->z, a));
}

/* Exactly one of v[0..n-1]. */
static void exactly_one(zctx *c, Z3_ast *v, int n) {
  clause(c, n, v);
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      clause(c, 2, (Z3_ast[]){neg(c, v[i]), neg(c, v[j])});
}

/* A strict total order of the writes w[0..nw-1] in the n x n matrix co:
 * one variable per pair (b before a is its negation), and no cycle of
 * three (a tournament without one is transitive): nw^3 / 3 clauses. */
static void order_total(zctx *c, sc_cat_bool *co, int n, const int *w, int nw) {
  for (int a = 0; a < nw; a++)
    for (int b = a + 1; b < nw; b++) {
      Z3_ast ab = choice(c, "co");
      co[w[a] * n + w[b]] = ab;
      co[w[b] * n + w[a]] = neg(c, ab);
    }
  for (int a = 0; a < nw; a++)
    for (int b = a + 1; b < nw; b++)
      for (int d = b + 1; d < nw; d++) {
        Z3_ast ab = (Z3_ast)co[w[a] * n + w[b]], bd = (Z3_ast)co[w[b] * n + w[d]],
               da = (Z3_ast)co[w[d] * n + w[a]];
        clause(c, 3, (Z3_ast[]){neg(c, ab), neg(c, bd), neg(c, da)});
        clause(c, 3, (Z3_ast[]){ab, bd, da});
      }
}

/* A strict partial order of the writes w[0..nw-1]: two variables per pair,
 * never both, and transitive. */
static void order_partial(zctx *c, sc_cat_bool *co, int n, const int *w, int nw) {
  for (int a = 0; a < nw; a++)
    for (int b = 0; b < nw; b++)
      if (a != b)
        co[w[a] * n + w[b]] = choice(c, "co");
  for (int a = 0; a < nw; a++)
    for (int b = 0; b < nw; b++) {
      if (a == b)
        continue;
      Z3_ast ab = (Z3_ast)co[w[a] * n + w[b]], ba = (Z3_ast)co[w[b] * n + w[a]];
      if (a < b)
        clause(c, 2, (Z3_ast[]){neg(c, ab), neg(c, ba)});
      for (int d = 0; d < nw; d++)
        if (d != a && d != b)
          clause(c, 3, (Z3_ast[]){neg(c, ab), neg(c, (Z3_ast)co[w[b] * n + w[d]]),
                                  (Z3_ast)co[w[a] * n + w[d]]});
    }
}

static bool is_true(zctx *c, Z3_model mo, Z3_ast a) {
  Z3_ast v;
  if (!Z3_model_eval(c->z, mo, a, true, &v))
    return false;
  return Z3_get_bool_value(c->z, v) == Z3_L_TRUE;
}

/* rel & int (keep) or rel \ int. */
static sc_cat_bool *split(const sc_cat_bool *r, const sc_rel *internal, int n, bool keep) {
  sc_cat_bool *out = sci_alloc(sizeof(sc_cat_bool) * (size_t)(n * n + 1));
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      out[i * n + j] = sc_rel_has(internal, i, j) == keep ? r[i * n + j] : SC_CAT_FALSE;
  return out;
}

/* The names of dynamic.h's table made of rf and co, over the solver's
 * choices, in *in (room for SIM_NDYNAMIC); how many.  co is asserted
 * transitive (order_total, order_partial): the model's co+ is co itself. */
static int symbolic_inputs(const sc_execution *x, const sc_cat_bool *rf,
                           const sc_cat_bool *co, const sc_cat_bool *fr,
                           const sc_cat_bool *fw, sc_cat_sym_input *in) {
  const sc_cat_bool *source[SIM_DYN_NSOURCES] = {
    [SIM_DYN_RF] = rf, [SIM_DYN_CO] = co, [SIM_DYN_FR] = fr, [SIM_DYN_FW] = fw};
  int n = x->nevents, k = 0;
  for (int i = 0; i < SIM_NDYNAMIC; i++) {
    const sim_dynamic *d = &sci_sim_dynamic_names[i];
    if (!d->of_rf_co)
      continue;
    const sc_cat_bool *m = source[d->source];
    if (d->part != SIM_DYN_WHOLE)
      m = split(m, x->internal, n, d->part == SIM_DYN_INTERNAL);
    in[k++] = (sc_cat_sym_input){
      .name = d->name, .is_set = sci_sim_dyn_is_set(d->source), .m = m,
      .transitive = d->source == SIM_DYN_CO && d->part == SIM_DYN_WHOLE};
  }
  return k;
}

static sc_status solver_failed(const sc_sym_problem *p, zctx *c, sc_error **err) {
  Z3_string why = Z3_solver_get_reason_unknown(c->z, c->s);
  if (z3_memout || (why && (strstr(why, "memory") || strstr(why, "memout"))))
    return sci_oom_fail_outside(p->t->file, "the solver (Z3)", err);
  if (p->timeout > 0 && why && (strstr(why, "timeout") || strstr(why, "canceled")))
    return sci_fail(err, SC_ERR_LIMIT, p->t->file, 0, 0,
                   "expected to finish within %g s (the -timeout limit)", p->limit);
  return sci_fail(err, SC_ERR_LIMIT, p->t->file, 0, 0,
                 "expected the solver to decide, found it gave up (%s)",
                 why ? why : "unknown reason");
}

/* Ask the solver about what is asserted: true with a model in *mo (a
 * reference the caller drops), false with *st SC_OK when there is none, or
 * the solver's failure. */
static bool ask(const sc_sym_problem *p, zctx *c, Z3_model *mo, sc_status *st,
                sc_error **err) {
  *st = SC_OK;
  if (out_of_order(p, c, st, err))
    return false;
  Z3_lbool r = Z3_solver_check(c->z, c->s);
  if (r == Z3_L_FALSE)
    return false;
  if (r != Z3_L_TRUE) {
    /* past the resource limit, which Z3 reports as "canceled" (as a
     * timeout, but before the deadline) or "max. resource limit
     * exceeded": the question is left to the walk */
    Z3_string why = Z3_solver_get_reason_unknown(c->z, c->s);
    if (c->rlimited && why && (strstr(why, "resource") || strstr(why, "canceled")) &&
        !(c->deadline > 0 && sc_seconds() > c->deadline)) {
      c->gave_up = true;
      return false;
    }
    *st = solver_failed(p, c, err);
    return false;
  }
  *mo = Z3_solver_get_model(c->z, c->s);
  if (!*mo) {
    z3_failed = true;
    out_of_order(p, c, st, err);
    return false;
  }
  Z3_model_inc_ref(c->z, *mo);
  return true;
}

/* The solver's parameter `name` set to `value` (the problem's scope's,
 * or one question's). */
static void set_solver_uint(zctx *c, const char *name, unsigned value) {
  Z3_params prm = Z3_mk_params(c->z);
  if (!prm) {
    z3_failed = true;
    return;
  }
  Z3_params_inc_ref(c->z, prm);
  Z3_symbol sym = Z3_mk_string_symbol(c->z, name);
  if (sym)
    Z3_params_set_uint(c->z, prm, sym, value);
  Z3_solver_set_params(c->z, c->s, prm);
  Z3_params_dec_ref(c->z, prm);
}

/* Set rel to the pairs whose entry m holds in the model. */
static void read_rel(zctx *c, Z3_model mo, const sc_cat_bool *m, sc_rel *rel) {
  int n = rel->n;
  sci_rel_clear(rel);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      if (m[i * n + j] == SC_CAT_TRUE ||
          (m[i * n + j] != SC_CAT_FALSE && is_true(c, mo, (Z3_ast)m[i * n + j])))
        sc_rel_add(rel, i, j);
}

/* ---- Encodings that over-approximate ------------------------------------- */

/* The execution's choice relations, and whether the model's encoding
 * over-approximates `allowed` (a `with ... from`: cat.h). */
typedef struct choices {
  const sc_cat_bool *rf, *co;
  bool approximate;
} choices;

/* Whether the model, run concretely on the execution in mo, allows it (and
 * raises `flag`, when one is named).  x's rf and co are as they were
 * afterwards. */
/* x's rf and co as mo chooses them; the old ones kept in saved[0..1]
 * for restore_choices. */
static void set_choices(const sc_sym_problem *p, zctx *c, Z3_model mo,
                        const choices *ch, sc_rel **saved) {
  sc_execution *x = p->x;
  saved[0] = sci_rel_copy(x->rf);
  saved[1] = sci_rel_copy(x->co);
  read_rel(c, mo, ch->rf, x->rf);
  read_rel(c, mo, ch->co, x->co);
  sci_exec_bind_dynamic(x, p->env);
}

static void restore_choices(const sc_sym_problem *p, sc_rel *const *saved) {
  sci_rel_assign(p->x->rf, saved[0]);
  sci_rel_assign(p->x->co, saved[1]);
  sci_exec_bind_dynamic(p->x, p->env);
}

static sc_status concrete_verdict(const sc_sym_problem *p, zctx *c, Z3_model mo,
                                  const choices *ch, const char *flag, bool *yes,
                                  sc_error **err) {
  sc_rel *saved[2];
  set_choices(p, c, mo, ch, saved);
  sc_cat_outcome o;
  sc_status st = sci_cat_run(p->m->cat, p->env, p->eval, &o, err);
  *yes = !st && o.allowed && !flag;
  for (int f = 0; !st && o.allowed && flag && f < o.nflags; f++)
    *yes |= strcmp(o.flags[f], flag) == 0;
  restore_choices(p, saved);
  return st;
}

/* Flag `name` is raised in the execution of mo: handed on with it (its
 * witness) and the model's concrete outcome there. */
static sc_status report_flag(const sc_sym_problem *p, zctx *c, Z3_model mo,
                             const choices *ch, const char *name, const sc_execution *told,
                             sc_error **err) {
  sc_rel *saved[2];
  set_choices(p, c, mo, ch, saved);
  sc_cat_outcome o;
  sc_status st = sci_cat_run(p->m->cat, p->env, p->eval, &o, err);
  p->flag(p->ctx, name, told ? told : p->x, st ? NULL : &o);
  restore_choices(p, saved);
  return st;
}

/* Rule the execution in mo out: some rf or co choice differs. */
static void rule_out(zctx *c, Z3_model mo) {
  Z3_ast *lits = sci_alloc(sizeof(Z3_ast) * (size_t)(c->nchoices + 1));
  for (int i = 0; i < c->nchoices; i++)
    lits[i] = is_true(c, mo, c->choices[i]) ? neg(c, c->choices[i]) : c->choices[i];
  clause(c, c->nchoices, lits);
}

/* ask(), where what is asserted includes the model's `allowed`: when that
 * over-approximates, each execution found is put to the concrete run (with
 * `flag` as there), and one it does not allow is ruled out before asking
 * again: one clause per execution, as many as the encoding's gap, which
 * p->most_refuted bounds. */
static bool ask_allowed(const sc_sym_problem *p, zctx *c, const choices *ch,
                        const char *flag, Z3_model *mo, sc_status *st, sc_error **err) {
  for (;; c->refuted++) {
    if (p->most_refuted > 0 && c->refuted > p->most_refuted) {
      *st = sci_fail(err, SC_ERR_UNSUPPORTED, p->t->file, 0, 0,
                    "the symbolic engine cannot encode 'with ... from' here: the "
                    "model's concrete run refuted over %d of the executions found",
                    p->most_refuted);
      return false;
    }
    if (!ask(p, c, mo, st, err))
      return false;
    if (!ch->approximate)
      return true;
    bool yes = false;
    *st = concrete_verdict(p, c, *mo, ch, flag, &yes, err);
    if (!*st && yes)
      return true;
    Z3_model_dec_ref(c->z, *mo);
    if (*st)
      return false;
    if (c->deadline > 0 && sc_seconds() > c->deadline) {
      *st = sci_fail(err, SC_ERR_LIMIT, p->t->file, 0, 0,
                    "expected to finish within %g s (the -timeout limit)", p->limit);
      return false;
    }
    rule_out(c, *mo);
  }
}

/* One fairness clause (liveness.h) over the choices' rf and co. */
static void assert_fair(const sc_sym_problem *p, zctx *c, const choices *ch,
                        const sc_cat_bool *fw, const sc_live_clause *cl) {
  int n = p->x->nevents;
  const sc_cat_bool *rel = cl->co ? ch->co : ch->rf;
  sc_cat_bool pair = rel[cl->a * n + cl->b];
  Z3_ast fact;
  switch (cl->rule) {
  case SC_LIVE_NO:
    if (pair == SC_CAT_FALSE)
      return;
    fact = Z3_mk_not(c->z, lift(c, pair));
    break;
  case SC_LIVE_LAST:
    if (pair == SC_CAT_FALSE)
      return;
    fact = Z3_mk_implies(c->z, lift(c, pair), lift(c, fw[cl->a]));
    break;
  default: /* SC_LIVE_SAME */
    if (pair == SC_CAT_FALSE && rel[cl->a2 * n + cl->b2] == SC_CAT_FALSE)
      return;
    fact = Z3_mk_iff(c->z, lift(c, pair), lift(c, rel[cl->a2 * n + cl->b2]));
  }
  Z3_solver_assert(c->z, c->s, checked(c, fact));
}

/* -liveness: the fairness clauses hold (each repeated read reads its
 * loop's own write or a co-maximal one, FW); if the model then allows an
 * execution, it is the witness, read back into x. */
static sc_status live_witness(const sc_sym_problem *p, zctx *c, const choices *ch,
                              const sc_cat_bool *fw, sc_error **err) {
  sc_execution *x = p->x;
  for (int k = 0; k < p->nfairness; k++)
    assert_fair(p, c, ch, fw, &p->fairness[k]);
  Z3_model mo;
  sc_status st;
  if (!ask_allowed(p, c, ch, NULL, &mo, &st, err))
    return st;
  read_rel(c, mo, ch->rf, x->rf);
  read_rel(c, mo, ch->co, x->co);
  Z3_model_dec_ref(c->z, mo);
  p->witness(p->ctx, x);
  return SC_OK;
}

/* ---- The encoding, and the answers asked of it ------------------------------ */

/* What the encoding over one choice of candidate writes per read holds: rf,
 * co and FW over the solver's choices, the model's outcome over them, and
 * per observed location with writes the selectors of the write it ends
 * with (none when a liveness witness is asked for). */
typedef struct encoding {
  sc_cat_bool *rf, *co, *fw;
  sc_cat_sym_outcome out;
  Z3_ast **sel;
} encoding;

/* rf: read reads[k] reads one write of cands[k][0..ncands[k]-1] (the one,
 * when there is one). */
static sc_cat_bool *rf_over(const sc_sym_problem *p, zctx *c, int *const *cands,
                            const int *ncands) {
  int n = p->x->nevents;
  sc_cat_bool *rf = sci_alloc(sizeof(sc_cat_bool) * (size_t)(n * n + 1));
  for (int k = 0; k < p->nreads; k++) {
    int nc = ncands[k];
    if (nc == 1) {
      rf[cands[k][0] * n + p->reads[k]] = SC_CAT_TRUE;
      continue;
    }
    Z3_ast *v = sci_alloc(sizeof(Z3_ast) * (size_t)nc);
    for (int j = 0; j < nc; j++)
      rf[cands[k][j] * n + p->reads[k]] = v[j] = choice(c, "rf");
    exactly_one(c, v, nc);
  }
  return rf;
}

/* co: the initial write first, then a strict order (total or partial). */
static sc_cat_bool *co_over(const sc_sym_problem *p, zctx *c) {
  int n = p->x->nevents;
  sc_cat_bool *co = sci_alloc(sizeof(sc_cat_bool) * (size_t)(n * n + 1));
  for (int l = 0; l < p->nlocs; l++) {
    for (int a = 0; a < p->nwrites[l] && p->init[l] >= 0; a++)
      co[p->init[l] * n + p->writes[l][a]] = SC_CAT_TRUE;
    if (p->partial_co)
      order_partial(c, co, n, p->writes[l], p->nwrites[l]);
    else
      order_total(c, co, n, p->writes[l], p->nwrites[l]);
  }
  return co;
}

/* Per observed location with writes: which one it ends with, one of the
 * writes with no co successor. */
static Z3_ast **final_selectors(const sc_sym_problem *p, zctx *c, const sc_cat_bool *fw) {
  Z3_ast **sel = sci_alloc(sizeof(Z3_ast *) * (size_t)(p->nlocs + 1));
  for (int l = 0; l < p->nlocs; l++) {
    int nw = p->nwrites[l];
    if (!p->final_locs[l] || nw == 0)
      continue;
    sel[l] = sci_alloc(sizeof(Z3_ast) * (size_t)nw);
    for (int a = 0; a < nw; a++) {
      sel[l][a] = fresh(c, "final");
      Z3_solver_assert(c->z, c->s, checked(c, Z3_mk_implies(c->z, sel[l][a],
                                                         lift(c, fw[p->writes[l][a]]))));
    }
    exactly_one(c, sel[l], nw);
  }
  return sel;
}

/* The model's encoding where read k may read cands[k] (p's own, or a
 * layout's every write of its location), asserted in c->s: the choices
 * well formed, the model's `allowed` (unless -through asks for states),
 * the final states' selectors. */
static sc_status encode(const sc_sym_problem *p, zctx *c, int *const *cands,
                        const int *ncands, encoding *e, sc_error **err) {
  sc_execution *x = p->x;
  int n = x->nevents;
  memset(e, 0, sizeof *e);
  sc_cat_bool *rf = e->rf = rf_over(p, c, cands, ncands);
  sc_cat_bool *co = e->co = co_over(p, c);
  sc_cat_bool_ops ops = {.ctx = c, .and_ = z_and, .or_ = z_or, .not_ = z_not,
                         .acyclic = z_acyclic, .equivalent = z_equivalent};
  /* fr = rf^-1; co, and FW: the writes with no co successor */
  sc_cat_bool *fr = sci_alloc(sizeof(sc_cat_bool) * (size_t)(n * n + 1));
  for (int w = 0; w < n; w++)
    for (int r = 0; r < n; r++) {
      if (rf[w * n + r] == SC_CAT_FALSE)
        continue;
      for (int v = 0; v < n; v++)
        fr[r * n + v] = sci_cat_bool_or(&ops, fr[r * n + v],
                                       sci_cat_bool_and(&ops, rf[w * n + r], co[w * n + v]));
    }
  sc_cat_bool *fw = e->fw = sci_alloc(sizeof(sc_cat_bool) * (size_t)(n + 1));
  for (int w = 0; w < n; w++) {
    if (x->events[w].kind != SC_EV_WRITE)
      continue;
    sc_cat_bool last = SC_CAT_TRUE;
    for (int v = 0; v < n; v++)
      last = sci_cat_bool_and(&ops, last, sci_cat_bool_not(&ops, co[w * n + v]));
    fw[w] = last;
  }
  sc_cat_sym_input in[SIM_NDYNAMIC];
  int nin = symbolic_inputs(x, rf, co, fr, fw, in);
  sc_status st = sci_cat_run_symbolic(p->m->cat, p->env, p->eval, &ops, in, nin, &e->out, err);
  if (st)
    return st;
  if (out_of_order(p, c, &st, err))
    return st;
  if (c->failed)
    return sci_fail(err, SC_ERR_LIMIT, p->t->file, 0, 0,
                   "expected the solver to decide a let rec's fixpoint, found it gave up");
  /* -through keeps the executions the model forbids: its states need no
   * verdict (its flags do) */
  if (p->witness || !p->through)
    Z3_solver_assert(c->z, c->s, lift(c, e->out.allowed));
  if (!p->witness)
    e->sel = final_selectors(p, c, fw);
  return SC_OK;
}

/* Each flag the model may raise in the state just found (not known yet):
 * one execution that raises it, handed on. */
static sc_status flags_of_state(const sc_sym_problem *p, zctx *c, const encoding *e,
                                const choices *ch, Z3_ast state, sc_error **err) {
  for (int f = 0; f < e->out.nflags; f++) {
    if (e->out.flags[f].when == SC_CAT_FALSE || p->flag_known(p->ctx, e->out.flags[f].name))
      continue;
    Z3_solver_push(c->z, c->s);
    Z3_solver_assert(c->z, c->s, state);
    Z3_solver_assert(c->z, c->s, lift(c, e->out.flags[f].when));
    if (p->through) /* as herd, only allowed executions raise flags */
      Z3_solver_assert(c->z, c->s, lift(c, e->out.allowed));
    Z3_model fm;
    sc_status fst;
    bool raised = ask_allowed(p, c, ch, e->out.flags[f].name, &fm, &fst, err);
    if (raised) {
      fst = report_flag(p, c, fm, ch, e->out.flags[f].name, NULL, err);
      Z3_model_dec_ref(c->z, fm);
    }
    Z3_solver_pop(c->z, c->s, 1);
    if (fst)
      return fst;
  }
  return SC_OK;
}

/* The final state of the execution in mo, set in x->final_write; the
 * formula of every execution ending with the same values (any selected
 * write of the same value, per observed location), to block it. */
static Z3_ast state_of(const sc_sym_problem *p, zctx *c, const encoding *e, Z3_model mo) {
  sc_execution *x = p->x;
  int k = 0;
  Z3_ast *same = sci_alloc(sizeof(Z3_ast) * (size_t)(p->nlocs + 1));
  for (int l = 0; l < p->nlocs; l++) {
    if (!e->sel[l])
      continue;
    int nw = p->nwrites[l], chosen = 0;
    for (int a = 0; a < nw; a++)
      if (is_true(c, mo, e->sel[l][a]))
        chosen = a;
    x->final_write[l] = p->writes[l][chosen];
    if (p->blocked_locs && !p->blocked_locs[l])
      continue; /* its value tells nothing that is asked */
    int64_t v = x->events[p->writes[l][chosen]].value;
    /* values_after: a collapsed write's value is computed after (its own
     * sources: with_sources), another's is the trace's */
    const sc_event *ev = x->events;
    bool computed = p->values_after && ev[p->writes[l][chosen]].value_unknown;
    Z3_ast *alts = sci_alloc(sizeof(Z3_ast) * (size_t)nw);
    int na = 0;
    for (int a = 0; a < nw; a++)
      if (computed ? a == chosen
                   : ev[p->writes[l][a]].value == v &&
                         !(p->values_after && ev[p->writes[l][a]].value_unknown))
        alts[na++] = e->sel[l][a];
    same[k++] = checked(c, Z3_mk_or(c->z, (unsigned)na, alts));
  }
  return k ? checked(c, Z3_mk_and(c->z, (unsigned)k, same)) : NULL;
}

/* values_after: `state` (state_of's, NULL for none; x's rf that of its
 * execution) and the rf edges that the values of its collapsed last
 * writes come from, and those of the registers observed (every collapsed
 * read of their threads: more edges than needed, never fewer): the
 * executions ending with the same values; NULL when nothing tells them
 * apart (one state). */
static Z3_ast with_sources(const sc_sym_problem *p, zctx *c, const encoding *e,
                           Z3_ast state) {
  sc_execution *x = p->x;
  int n = x->nevents, nv = 0;
  int *valued = sci_alloc_atomic(sizeof(int) * (size_t)(p->nlocs + n + 1));
  for (int l = 0; l < p->nlocs; l++)
    if (e->sel[l] && x->final_write[l] >= 0 && x->events[x->final_write[l]].value_unknown &&
        (!p->blocked_locs || p->blocked_locs[l]))
      valued[nv++] = x->final_write[l];
  for (int v = x->ninit; p->reg_threads && v < n; v++)
    if (p->reg_threads[x->events[v].thread] && x->events[v].kind == SC_EV_READ)
      valued[nv++] = v;
  int *pairs = sci_alloc_atomic(sizeof(int) * (size_t)(2 * n + 2));
  int np = sci_sim_data_only_sources(x, valued, nv, pairs);
  Z3_ast *all = sci_alloc(sizeof(Z3_ast) * (size_t)(np + 2));
  int k = 0;
  if (state)
    all[k++] = state;
  for (int i = 0; i < np; i++)
    if (pairs[2 * i] >= 0)
      all[k++] = lift(c, e->rf[pairs[2 * i] * n + pairs[2 * i + 1]]);
  return k ? checked(c, Z3_mk_and(c->z, (unsigned)k, all)) : NULL;
}

/* What p asks of the encoding e asserted in c->s: the liveness witness,
 * or every final state of the allowed executions, each blocked in turn. */
static sc_status answer(const sc_sym_problem *p, zctx *c, const encoding *e,
                        sc_error **err) {
  sc_execution *x = p->x;
  choices ch = {.rf = e->rf, .co = e->co, .approximate = e->out.approximate};
  if (p->witness)
    return live_witness(p, c, &ch, e->fw, err);
  choices states = {.rf = e->rf, .co = e->co,
                    .approximate = e->out.approximate && !p->through};
  for (;;) {
    Z3_model mo;
    sc_status st;
    if (!ask_allowed(p, c, &states, NULL, &mo, &st, err))
      return st;
    Z3_ast state = state_of(p, c, e, mo);
    sc_rel *saved[2]; /* found keeps the first execution deciding the condition */
    set_choices(p, c, mo, &ch, saved);
    if (p->values_after)
      state = with_sources(p, c, e, state);
    bool kept = p->found(p->ctx, x);
    restore_choices(p, saved);
    Z3_model_dec_ref(c->z, mo);
    if (kept && (st = flags_of_state(p, c, e, &ch, state ? state : c->true_, err)))
      return st;
    for (int l = 0; l < p->nlocs; l++)
      if (e->sel[l])
        x->final_write[l] = -1;
    if (!state || (p->stop && *p->stop))
      return SC_OK; /* one state only, or the search has its answer */
    Z3_solver_assert(c->z, c->s, checked(c, Z3_mk_not(c->z, state)));
  }
}

/* ---- The traces chosen too (sc_sym_problem.select) ------------------------- */

/* A layout search's terms, propositional but for the condition's: per
 * thread whose group has more than one trace, a Bool per trace, exactly
 * one true (chosen); per read and write, the values it may have (dom)
 * and a Bool per value, the one it has (has: SC_CAT_TRUE where it has one
 * value); per event, an Int of its value, made where the condition asks
 * (value_term).  The collapsed events' values come from the tables
 * (data_only.h) where p->tables has them, else they are their initial
 * ones, as in the traces. */
typedef struct select_terms {
  Z3_ast **chosen;
  int64_t **dom;
  int *ndom;
  Z3_ast **has;
  Z3_ast *value;
} select_terms;

static Z3_ast numeral(zctx *c, int64_t v) {
  return checked(c, Z3_mk_int64(c->z, v, c->int_sort));
}

/* One Bool per trace of a group of n, exactly one of them true: a
 * cardinality constraint, which the solver keeps as one (pairwise clauses
 * would be quadratic in the traces, hundreds per thread). */
static Z3_ast *one_of(zctx *c, int n) {
  Z3_ast *b = sci_alloc(sizeof(Z3_ast) * (size_t)(n + 1));
  for (int i = 0; i < n; i++)
    b[i] = fresh(c, "trace");
  clause(c, n, b);
  if (n > 1)
    Z3_solver_assert(c->z, c->s, checked(c, Z3_mk_atmost(c->z, (unsigned)n, b, 1)));
  return b;
}

/* Event e's values vs[0..n-1] per trace of its thread's group (chosen:
 * NULL for a group of one), as sv's dom and has. */
static void values_by_trace(zctx *c, select_terms *sv, int e, Z3_ast *chosen,
                            const int64_t *vs, int n) {
  int64_t *dom = sv->dom[e] = sci_alloc_atomic(sizeof(int64_t) * (size_t)(n + 1));
  int nd = 0;
  for (int j = 0; j < n; j++) {
    int k = 0;
    while (k < nd && dom[k] != vs[j])
      k++;
    if (k == nd)
      dom[nd++] = vs[j];
  }
  sv->ndom[e] = nd;
  sv->has[e] = sci_alloc(sizeof(Z3_ast) * (size_t)(nd + 1));
  Z3_ast *alts = sci_alloc(sizeof(Z3_ast) * (size_t)(n + 1));
  for (int k = 0; k < nd; k++) {
    int na = 0;
    for (int j = 0; j < n && nd > 1; j++)
      if (vs[j] == dom[k])
        alts[na++] = chosen[j];
    sv->has[e][k] = nd == 1 ? c->true_ : checked(c, Z3_mk_or(c->z, (unsigned)na, alts));
  }
}

/* Collapsed write w's value from its table: for each row (a trace of
 * its group, or the one row) and tuple of its inputs' values, the value
 * the table gives, or none (no allowed execution has them). */
static void tabled_write(const sc_sym_problem *p, zctx *c, select_terms *sv, int w) {
  const sim_value_tables *tb = p->tables;
  int th = p->x->events[w].thread, ni = tb->ninputs[w];
  const sim_trace_group *g = p->select[th];
  int rows = tb->per_trace[w] ? g->n : 1;
  Z3_ast *lits = sci_alloc(sizeof(Z3_ast) * (size_t)(ni + 3));
  for (int j = 0; j < rows; j++)
    for (int k = 0; k < tb->ntuples[w]; k++) {
      int n = 0, rest = k;
      if (tb->per_trace[w] && sv->chosen[th])
        lits[n++] = neg(c, sv->chosen[th][j]);
      for (int i = ni - 1; i >= 0; i--) { /* the last input the fastest digit */
        int r = tb->inputs[w][i];
        lits[n++] = neg(c, sv->has[r][rest % sv->ndom[r]]);
        rest /= sv->ndom[r];
      }
      int out = tb->out[w][j * tb->ntuples[w] + k];
      if (out >= 0)
        lits[n++] = sv->has[w][out];
      clause(c, n, lits);
    }
}

/* A collapsed event's values from the tables: a read has one of its
 * location's; a write, as tabled_write. */
static void tabled_values(const sc_sym_problem *p, zctx *c, select_terms *sv) {
  const sc_execution *x = p->x;
  for (int pass = 0; pass < 2; pass++) /* the reads first: the writes read them */
    for (int e = x->ninit; e < x->nevents; e++) {
      if (!x->events[e].value_unknown || (x->events[e].kind == SC_EV_READ) != (pass == 0))
        continue;
      int nd = sv->ndom[e] = p->tables->ndom[e];
      sv->dom[e] = p->tables->dom[e];
      sv->has[e] = one_of(c, nd);
      if (pass == 1)
        tabled_write(p, c, sv, e);
    }
}

/* Read r may read w (the rf term `rf`) only where their values agree. */
static void same_value(zctx *c, const select_terms *sv, Z3_ast rf, int w, int r) {
  for (int k = 0; k < sv->ndom[r]; k++) {
    int kw = 0;
    while (kw < sv->ndom[w] && sv->dom[w][kw] != sv->dom[r][k])
      kw++;
    if (kw < sv->ndom[w] && sv->has[w][kw] == c->true_)
      continue;
    Z3_ast lits[3] = {neg(c, rf), neg(c, sv->has[r][k])};
    int n = 2;
    if (kw < sv->ndom[w])
      lits[n++] = sv->has[w][kw];
    clause(c, n, lits);
  }
}

/* The terms of p->select in *sv, asserted: each thread's choice within its
 * group, each access's value that of the trace chosen (or its table's),
 * and a read reading a write of its own value. */
static void selection(const sc_sym_problem *p, zctx *c, const encoding *e, select_terms *sv) {
  const sc_execution *x = p->x;
  int n = x->nevents, nth = p->t->nthreads;
  sv->chosen = sci_alloc(sizeof(Z3_ast *) * (size_t)(nth + 1));
  sv->dom = sci_alloc(sizeof(int64_t *) * (size_t)(n + 1));
  sv->ndom = sci_alloc_atomic(sizeof(int) * (size_t)(n + 1));
  memset(sv->ndom, 0, sizeof(int) * (size_t)(n + 1));
  sv->has = sci_alloc(sizeof(Z3_ast *) * (size_t)(n + 1));
  sv->value = sci_alloc(sizeof(Z3_ast) * (size_t)(n + 1));
  for (int v = 0; v < x->ninit; v++)
    values_by_trace(c, sv, v, NULL, &x->events[v].value, 1);
  for (int th = 0; th < nth; th++) {
    const sim_trace_group *g = p->select[th];
    sv->chosen[th] = g->n > 1 ? one_of(c, g->n) : NULL;
    int64_t *vs = sci_alloc_atomic(sizeof(int64_t) * (size_t)(g->n + 1));
    for (int i = 0; i < g->traces[0]->nevents; i++) {
      const sc_trace_event *ev = &g->traces[0]->events[i];
      if ((ev->kind != SC_EV_READ && ev->kind != SC_EV_WRITE) ||
          (ev->value_unknown && p->tables))
        continue;
      for (int j = 0; j < g->n; j++)
        vs[j] = g->traces[j]->events[i].value;
      values_by_trace(c, sv, x->thread_first[th] + i, sv->chosen[th], vs, g->n);
    }
  }
  if (p->tables)
    tabled_values(p, c, sv);
  for (int k = 0; k < p->nreads; k++)
    for (int j = 0; j < p->ncands[k]; j++) {
      int w = p->cands[k][j], r = p->reads[k];
      same_value(c, sv, lift(c, e->rf[w * n + r]), w, r);
    }
}

/* A fresh Int that is values[k] where when[k] holds, k < n. */
static Z3_ast int_when(zctx *c, const char *prefix, Z3_ast const *when,
                       const int64_t *values, int n) {
  Z3_ast v = checked(c, Z3_mk_fresh_const(c->z, prefix, c->int_sort));
  for (int k = 0; k < n; k++)
    Z3_solver_assert(c->z, c->s,
                     checked(c, Z3_mk_implies(c->z, when[k], Z3_mk_eq(c->z, v, numeral(c, values[k])))));
  return v;
}

/* Event e's value as an Int (made once). */
static Z3_ast value_term(zctx *c, const select_terms *sv, int e) {
  if (sv->ndom[e] == 1)
    return numeral(c, sv->dom[e][0]);
  if (!sv->value[e])
    sv->value[e] = int_when(c, "value", sv->has[e], sv->dom[e], sv->ndom[e]);
  return sv->value[e];
}

/* A register's final value in thread th's chosen trace; NULL where the
 * values are computed after (a collapsed value may reach it). */
static Z3_ast register_term(const sc_sym_problem *p, zctx *c, const select_terms *sv,
                            int th, int reg) {
  if (p->values_after)
    return NULL;
  const sim_trace_group *g = p->select[th];
  int64_t *vs = sci_alloc_atomic(sizeof(int64_t) * (size_t)(g->n + 1));
  for (int j = 0; j < g->n; j++)
    vs[j] = g->traces[j]->final_regs[reg];
  return g->n == 1 ? numeral(c, vs[0]) : int_when(c, "register", sv->chosen[th], vs, g->n);
}

/* Location l's final value: that of the write it ends with (the
 * encoding's selectors), or of its initial write; NULL when the encoding
 * has no selectors for it (not observed). */
static Z3_ast location_term(const sc_sym_problem *p, zctx *c, const encoding *e,
                            const select_terms *sv, int l) {
  l = sci_physical_loc(p->t, l);
  if (p->nwrites[l] == 0)
    return p->init[l] >= 0 ? value_term(c, sv, p->init[l]) : numeral(c, 0);
  if (!e->sel || !e->sel[l])
    return NULL;
  Z3_ast v = checked(c, Z3_mk_fresh_const(c->z, "final", c->int_sort));
  for (int a = 0; a < p->nwrites[l]; a++)
    Z3_solver_assert(c->z, c->s,
                     checked(c, Z3_mk_implies(c->z, e->sel[l][a],
                                              Z3_mk_eq(c->z, v, value_term(c, sv, p->writes[l][a])))));
  return v;
}

/* A term of the condition (sci_exec_lval's), NULL as location_term. */
static Z3_ast lval_term(const sc_sym_problem *p, zctx *c, const encoding *e,
                        const select_terms *sv, const sc_lval *lv) {
  switch (lv->kind) {
  case SC_LVAL_REG: return register_term(p, c, sv, lv->thread, lv->reg);
  case SC_LVAL_LOC: return location_term(p, c, e, sv, lv->loc);
  case SC_LVAL_CONST: return numeral(c, lv->constant);
  case SC_LVAL_ADDR: return numeral(c, sci_loc_address(lv->loc));
  }
  return NULL;
}

/* The proposition as a formula of the final state (sci_exec_holds's),
 * NULL where a term has none. */
static Z3_ast prop_term(const sc_sym_problem *p, zctx *c, const encoding *e,
                        const select_terms *sv, const sc_prop *q) {
  Z3_context z = c->z;
  Z3_ast a = NULL, b = NULL;
  switch (q->kind) {
  case SC_PROP_TRUE: return c->true_;
  case SC_PROP_FALSE: return c->false_;
  case SC_PROP_NOT:
    return (a = prop_term(p, c, e, sv, q->a)) ? checked(c, Z3_mk_not(z, a)) : NULL;
  case SC_PROP_AND: case SC_PROP_OR: case SC_PROP_IMPLIES:
    if (!(a = prop_term(p, c, e, sv, q->a)) || !(b = prop_term(p, c, e, sv, q->b)))
      return NULL;
    if (q->kind == SC_PROP_IMPLIES)
      return checked(c, Z3_mk_implies(z, a, b));
    Z3_ast both[2] = {a, b};
    return checked(c, q->kind == SC_PROP_AND ? Z3_mk_and(z, 2, both) : Z3_mk_or(z, 2, both));
  default:
    if (!(a = lval_term(p, c, e, sv, &q->lhs)) || !(b = lval_term(p, c, e, sv, &q->rhs)))
      return NULL;
  }
  switch (q->kind) {
  case SC_PROP_EQ: return checked(c, Z3_mk_eq(z, a, b));
  case SC_PROP_NE: return checked(c, Z3_mk_not(z, Z3_mk_eq(z, a, b)));
  case SC_PROP_LT: return checked(c, Z3_mk_lt(z, a, b));
  case SC_PROP_LE: return checked(c, Z3_mk_le(z, a, b));
  case SC_PROP_GT: return checked(c, Z3_mk_gt(z, a, b));
  default: return checked(c, Z3_mk_ge(z, a, b));
  }
}

/* The execution in mo: the traces chosen, rf and co, the barrier and
 * fence.sc orders of p->x, the writes each observed location ends with. */
static sc_execution *chosen_execution(const sc_sym_problem *p, zctx *c, const encoding *e,
                                      const select_terms *sv, Z3_model mo) {
  int nth = p->t->nthreads;
  const sc_trace **chosen = sci_alloc(sizeof(sc_trace *) * (size_t)(nth + 1));
  for (int th = 0; th < nth; th++) {
    int i = 0;
    while (sv->chosen[th] && i + 1 < p->select[th]->n && !is_true(c, mo, sv->chosen[th][i]))
      i++;
    chosen[th] = p->select[th]->traces[i];
  }
  sc_execution *y = sci_exec_new_like(p->x, chosen);
  read_rel(c, mo, e->rf, y->rf);
  read_rel(c, mo, e->co, y->co);
  sci_rel_assign(y->syncbar, p->x->syncbar);
  sci_rel_assign(y->sync_fence, p->x->sync_fence);
  for (int l = 0; e->sel && l < p->nlocs; l++)
    for (int a = 0; e->sel[l] && a < p->nwrites[l]; a++)
      if (is_true(c, mo, e->sel[l][a]))
        y->final_write[l] = p->writes[l][a];
  return y;
}

/* Whether every read of y reads one write, of its own value (a collapsed
 * one's is computed after): what the encoding asserts, checked on each
 * execution a layout search hands on, so that a defect of the encoding
 * is an error and never a wrong witness. */
static bool reads_agree(const sc_execution *y) {
  for (int r = y->ninit; r < y->nevents; r++) {
    if (y->events[r].kind != SC_EV_READ)
      continue;
    int w = 0;
    while (w < y->nevents && !sc_rel_has(y->rf, w, r))
      w++;
    if (w == y->nevents)
      return false;
    if (!y->events[r].value_unknown && !y->events[w].value_unknown &&
        y->events[w].value != y->events[r].value)
      return false;
  }
  return true;
}

/* chosen_execution, checked (reads_agree; with fair, the fairness
 * clauses too): NULL with *st the error when it fails. */
static sc_execution *checked_execution(const sc_sym_problem *p, zctx *c, const encoding *e,
                                       const select_terms *sv, Z3_model mo, bool fair,
                                       sc_status *st, sc_error **err) {
  sc_execution *y = chosen_execution(p, c, e, sv, mo);
  if (reads_agree(y) && (!fair || sci_live_fair(y)))
    return y;
  *st = sci_fail(err, SC_ERR_UNSUPPORTED, p->t->file, 0, 0,
                "expected the layout search's execution to read the values written%s, "
                "found it does not (a defect of scopecat's encoding: "
                "sc_sim_options.layout_search 2, -layouts off, goes without it)",
                fair ? " and to be fair" : "");
  return NULL;
}

/* The condition's question: an allowed execution ending in a state that
 * decides it (sci_sim_decides) and passes the filter, handed on to found;
 * none asked where the condition reads a term with no formula. */
static sc_status select_state(const sc_sym_problem *p, zctx *c, const encoding *e,
                              const select_terms *sv, const choices *ch, bool *asked,
                              sc_error **err) {
  const sc_test *t = p->t;
  Z3_ast holds = prop_term(p, c, e, sv, t->cond);
  Z3_ast filter = t->filter ? prop_term(p, c, e, sv, t->filter) : c->true_;
  if (!(*asked = holds && filter))
    return SC_OK;
  bool yes = sci_sim_decides(t, true), no = sci_sim_decides(t, false);
  Z3_ast decides = yes && no ? c->true_ : yes ? holds : no ? neg(c, holds) : c->false_;
  Z3_solver_push(c->z, c->s);
  Z3_solver_assert(c->z, c->s, decides);
  Z3_solver_assert(c->z, c->s, filter);
  Z3_model mo;
  sc_status st;
  if (ask_allowed(p, c, ch, NULL, &mo, &st, err)) {
    sc_execution *y = checked_execution(p, c, e, sv, mo, false, &st, err);
    if (y)
      p->found(p->ctx, y);
    Z3_model_dec_ref(c->z, mo);
  }
  Z3_solver_pop(c->z, c->s, 1);
  return st;
}

/* values_after: the executions like y (found in mo), to block: the
 * values its blocked locations end with (a collapsed one's as the write
 * it ends with) and the rf edges that the collapsed values among them and
 * the collapsed reads of the threads with a register observed come from
 * (with_sources' edges, over y); NULL when nothing tells them apart.  The
 * traces chosen are left out: two executions alike but for them may end
 * apart, and the second is then passed over; this search only tells what
 * it finds (each_choice starts again where it does not answer), so that
 * costs a question, never a wrong answer. */
static Z3_ast select_block(const sc_sym_problem *p, zctx *c, const encoding *e,
                           const select_terms *sv, const sc_execution *y) {
  int n = y->nevents, nv = 0, k = 0;
  Z3_ast *all = sci_alloc(sizeof(Z3_ast) * (size_t)(p->nlocs + 2 * n + 2));
  int *valued = sci_alloc_atomic(sizeof(int) * (size_t)(p->nlocs + n + 1));
  for (int l = 0; l < p->nlocs; l++) {
    int w = y->final_write[l];
    if (!e->sel[l] || w < 0 || (p->blocked_locs && !p->blocked_locs[l]))
      continue;
    if (y->events[w].value_unknown) {
      valued[nv++] = w;
      for (int a = 0; a < p->nwrites[l]; a++)
        if (p->writes[l][a] == w)
          all[k++] = e->sel[l][a];
    } else
      all[k++] = checked(c, Z3_mk_eq(c->z, location_term(p, c, e, sv, l),
                                     numeral(c, y->events[w].value)));
  }
  for (int v = y->ninit; p->reg_threads && v < n; v++)
    if (p->reg_threads[y->events[v].thread] && y->events[v].kind == SC_EV_READ)
      valued[nv++] = v;
  int *pairs = sci_alloc_atomic(sizeof(int) * (size_t)(2 * n + 2));
  int np = sci_sim_data_only_sources(y, valued, nv, pairs);
  for (int i = 0; i < np; i++)
    if (pairs[2 * i] >= 0)
      all[k++] = lift(c, e->rf[pairs[2 * i] * n + pairs[2 * i + 1]]);
  return k ? checked(c, Z3_mk_and(c->z, (unsigned)k, all)) : NULL;
}

/* values_after: the condition's question asked of the executions one by
 * one, each handed on to found (which computes its values, and counts its
 * state) and blocked (select_block), till the search has its answer or
 * none is left. */
static sc_status select_states_after(const sc_sym_problem *p, zctx *c, const encoding *e,
                                     const select_terms *sv, const choices *ch,
                                     sc_error **err) {
  Z3_solver_push(c->z, c->s);
  sc_status st = SC_OK;
  for (;;) {
    Z3_model mo;
    if (!ask_allowed(p, c, ch, NULL, &mo, &st, err))
      break;
    sc_execution *y = checked_execution(p, c, e, sv, mo, false, &st, err);
    Z3_model_dec_ref(c->z, mo);
    if (!y)
      break;
    p->found(p->ctx, y);
    Z3_ast block = select_block(p, c, e, sv, y);
    if (!block || (p->stop && *p->stop))
      break;
    Z3_solver_assert(c->z, c->s, neg(c, block));
  }
  Z3_solver_pop(c->z, c->s, 1);
  return st;
}

/* Each flag the model may raise and that is not raised yet: an allowed
 * execution that raises it, handed on with the model's run there. */
static sc_status select_flags(const sc_sym_problem *p, zctx *c, const encoding *e,
                              const select_terms *sv, const choices *ch, sc_error **err) {
  for (int f = 0; f < e->out.nflags && !(p->stop && *p->stop); f++) {
    const char *name = e->out.flags[f].name;
    if (e->out.flags[f].when == SC_CAT_FALSE || p->flag_known(p->ctx, name))
      continue;
    Z3_solver_push(c->z, c->s);
    Z3_solver_assert(c->z, c->s, lift(c, e->out.flags[f].when));
    Z3_model mo;
    sc_status st;
    if (ask_allowed(p, c, ch, name, &mo, &st, err)) {
      sc_execution *y = checked_execution(p, c, e, sv, mo, false, &st, err);
      if (y)
        st = report_flag(p, c, mo, ch, name, y, err);
      Z3_model_dec_ref(c->z, mo);
    }
    Z3_solver_pop(c->z, c->s, 1);
    if (st)
      return st;
  }
  return SC_OK;
}

/* answer_select's questions, under the resource limit. */
static sc_status answer_selected(const sc_sym_problem *p, zctx *c, const encoding *e,
                                 sc_error **err) {
  select_terms sv;
  selection(p, c, e, &sv);
  choices ch = {.rf = e->rf, .co = e->co, .approximate = true};
  if (!p->witness) {
    bool asked = false; /* the values after: in the tables, or one by one */
    sc_status st = !p->values_after || p->tables
                       ? select_state(p, c, e, &sv, &ch, &asked, err) : SC_OK;
    if (!st && !asked && p->values_after)
      st = select_states_after(p, c, e, &sv, &ch, err);
    return st || (p->stop && *p->stop) ? st : select_flags(p, c, e, &sv, &ch, err);
  }
  for (int k = 0; k < p->nfairness; k++)
    assert_fair(p, c, &ch, e->fw, &p->fairness[k]);
  Z3_model mo;
  sc_status st;
  if (!ask_allowed(p, c, &ch, NULL, &mo, &st, err))
    return st;
  sc_execution *y = checked_execution(p, c, e, &sv, mo, true, &st, err);
  if (y)
    p->witness(p->ctx, y);
  Z3_model_dec_ref(c->z, mo);
  return st;
}

/* Each question of a layout search gets this many of Z3's resource
 * units (deterministic, unlike time): ticketlock-dv2wg-2.2.2's answers
 * take about a million; proving that an 8-thread ticket draw at device
 * scope never collides took 22 million (8 s), which the walk's search
 * that follows it proves again.  Past it the question is unanswered,
 * and the search without the layouts answers it. */
#define SELECT_RLIMIT 4000000u

/* What a layout search asks of the encoding e: the liveness witness, or
 * the condition's and the flags' questions.  Each execution found is run
 * through the concrete model before it is believed (ask_allowed, as for an
 * encoding that over-approximates: the run does not read values, so the
 * one on p->x with the solver's rf and co is the chosen traces' own). */
static sc_status answer_select(const sc_sym_problem *p, zctx *c, const encoding *e,
                               sc_error **err) {
  set_solver_uint(c, "rlimit", SELECT_RLIMIT);
  c->rlimited = true;
  sc_status st = answer_selected(p, c, e, err);
  set_solver_uint(c, "rlimit", 0); /* the session's solver serves the next problem */
  c->rlimited = false;
  return st;
}

/* p's own encoding, in a scope of the session's solver. */
static sc_status solve(const sc_sym_problem *p, zctx *c, sc_error **err) {
  encoding e;
  sc_status st = encode(p, c, p->cands, p->ncands, &e, err);
  if (st)
    return st;
  return p->select ? answer_select(p, c, &e, err) : answer(p, c, &e, err);
}

/* A context serves this many problems, then is made again (its terms are
 * only freed with it). */
#define PROBLEMS_PER_CONTEXT 64

/* The layouts whose scopes a session keeps (the odometer's fastest thread
 * takes turns between a few: search.c keeps as many), the scopes built in
 * a context and the problems answered in them before it is made again
 * (a problem in a scope adds only its candidates' and states' terms). */
#define SCOPES_KEPT 8
#define SEEN_KEPT 16

/* A layout's scope is built at its problems' SCOPE_AFTER-th: the encoding
 * over every write of each read's location costs several times one
 * problem's own (the lock grids' liveness searches under ptx-v6.0 meet
 * hundreds of layouts a few times each; built at the second, 199 scopes
 * served 299 problems and the row took a fifth longer), and a layout met
 * this often is mostly met many more times (ticketlock-dv2wg-2.2.1: two
 * layouts, thousands of problems). */
#define SCOPE_AFTER 5
#define SCOPES_PER_CONTEXT 64
#define SCOPED_PER_CONTEXT 4096

/* One context and one solver for the problems of a test: each problem is a
 * scope of the solver (push, pop), which costs less than a fresh solver. */
struct sc_sym_session {
  Z3_context z; /* NULL when Z3 could not make one (memory) */
  Z3_solver s;
  Z3_ast true_, false_;
  Z3_sort bool_sort, int_sort;
  int used;
  struct sc_sym_session *outer; /* the session opened before, still open */
  /* The layouts' scopes (below), most recently used first; each holds a
   * solver of z, so they go with it. */
  struct layout_scope *scopes[SCOPES_KEPT];
  int nscopes;
  /* The layouts met lately that have no scope yet (their keys, no
   * solver): a scope is built for a layout met SCOPE_AFTER times. */
  struct layout_scope *seen[SEEN_KEPT];
  int nseen;
  int built;   /* scopes built in this context */
  long scoped; /* problems answered in them */
  bool unscoped; /* the model's encoding over-approximates: no scopes */
};

/* The innermost open session of this thread (sci_sym_mark). */
static _Thread_local sc_sym_session *open_sessions;

static void scopes_drop(sc_sym_session *ss);

static void session_drop(sc_sym_session *ss) {
  if (ss->z) {
    scopes_drop(ss);
    if (ss->s)
      Z3_solver_dec_ref(ss->z, ss->s);
    Z3_del_context(ss->z);
    ss->z = NULL;
  }
}

/* Z3's own memory limit, global to the process (Z3's memory_max_size, in
 * MB): what -max-heap leaves beside the collector's heap, so that the two
 * together stay under the cap; none without a cap.  At least 8 MB: Z3
 * cannot make a context with less, and refuses it as out of memory. */
static void set_memory_limit(void) {
  size_t room = sci_oom_room((size_t)8 << 20);
  char mb[32];
  snprintf(mb, sizeof mb, "%zu", room >> 20);
  Z3_global_param_set("memory_max_size", mb);
}

/* A fresh context and solver; ss->z NULL when Z3 cannot make them. */
static void session_reset(sc_sym_session *ss) {
  session_drop(ss);
  ss->used = ss->built = 0;
  ss->scoped = 0;
  set_memory_limit();
  Z3_config cfg = Z3_mk_config();
  if (!cfg)
    return;
  ss->z = Z3_mk_context(cfg);
  Z3_del_config(cfg);
  if (!ss->z)
    return;
  Z3_set_error_handler(ss->z, on_error);
  ss->s = Z3_mk_simple_solver(ss->z);
  if (ss->s)
    Z3_solver_inc_ref(ss->z, ss->s);
  ss->true_ = Z3_mk_true(ss->z);
  ss->false_ = Z3_mk_false(ss->z);
  ss->bool_sort = Z3_mk_bool_sort(ss->z);
  ss->int_sort = Z3_mk_int_sort(ss->z);
  if (!ss->s || !ss->true_ || !ss->false_ || !ss->bool_sort || !ss->int_sort)
    session_drop(ss);
}

sc_sym_session *sci_sym_open(void) {
  sc_sym_session *ss = sci_alloc(sizeof *ss);
  session_reset(ss);
  ss->outer = open_sessions;
  open_sessions = ss;
  return ss;
}

void sci_sym_close(sc_sym_session *ss) {
  if (!ss)
    return;
  session_drop(ss);
  for (sc_sym_session **p = &open_sessions; *p; p = &(*p)->outer)
    if (*p == ss) {
      *p = ss->outer;
      break;
    }
}

sc_sym_session *sci_sym_mark(void) { return open_sessions; }

void sci_sym_close_since(sc_sym_session *mark) {
  while (open_sessions && open_sessions != mark)
    sci_sym_close(open_sessions);
}

/* The solver's time limit, in ms, for the problem's scope. */
static void set_timeout(zctx *c, double seconds) {
  double ms = seconds * 1000.0;
  set_solver_uint(c, "timeout", ms > 4e9 ? 4000000000u : (unsigned)ms);
}

/* ---- One scope per layout ------------------------------------------------ */

/* The combinations of one layout (search.c: the same events, the relations
 * the traces fix, the same environment) differ only in the values read and
 * written, and so in each read's candidate writes.  A layout's scope is the
 * model's encoding built once in a solver of its own, each read free to
 * read any write of its location (its universe); a problem of that layout
 * then asserts, in a scope of that solver (push, pop), that each read reads
 * none of the others (its own candidates are a part of its universe), and
 * asks its questions there.  Under those assertions the encoding is p's
 * own: rf is one candidate per read in both, co, fr and FW the same, and a
 * let rec's fixpoint, reached where every completion of the universe's
 * choices agrees, is reached for each of them.  The key is everything the
 * encoding reads but the candidates and the values: the model and its
 * options, the environment (the layout's: held, so that no other one gets
 * its address), the events' relations that are not rf or co (`int`, and
 * syncbar and sync_fence, which the driver binds per combination), the
 * reads, each location's writes, the observed locations, and what is
 * asked (states, -through's, a liveness witness). */
typedef struct layout_scope {
  Z3_solver s;
  const sc_model *m;
  sc_cat_run_options eval;
  const sc_cat_env *env;
  const sc_rel *internal;
  sc_rel *syncbar, *sync_fence; /* copies: the execution's are rebound */
  int nevents, nreads, nlocs;
  int *reads, *init, **writes, *nwrites;
  const bool *final_locs;
  bool partial_co, through, witness;
  int **universe, *nuniverse; /* per read: the writes it may read */
  int met; /* a key of ss->seen: the problems of its layout met */
  encoding enc;
} layout_scope;

static int *ints_copy(const int *a, int n) {
  int *c = sci_alloc_atomic(sizeof(int) * (size_t)(n + 1));
  memcpy(c, a, sizeof(int) * (size_t)n);
  return c;
}

static bool same_ints(const int *a, const int *b, int n) {
  return memcmp(a, b, sizeof(int) * (size_t)n) == 0;
}

static bool same_eval(const sc_cat_run_options *a, const sc_cat_run_options *b) {
  return a->skipchecks == b->skipchecks && a->nskip == b->nskip &&
         a->max_fixpoint_iterations == b->max_fixpoint_iterations &&
         a->variants == b->variants && a->nvariants == b->nvariants &&
         a->keep_going == b->keep_going && a->analysis == b->analysis &&
         a->only == b->only && a->nonly == b->nonly;
}

static bool same_rel(const sc_rel *a, const sc_rel *b) {
  return a && b ? sci_rel_equal(a, b) : a == b;
}

/* Whether w is one of list[0..n-1]. */
static bool among(int w, const int *list, int n) {
  for (int i = 0; i < n; i++)
    if (list[i] == w)
      return true;
  return false;
}

/* Whether the encoding kept in sc is p's layout's, and each of p's reads
 * reads only writes of its universe. */
static bool scope_fits(const layout_scope *sc, const sc_sym_problem *p) {
  const sc_execution *x = p->x;
  if (sc->m != p->m || sc->env != p->env || !same_eval(&sc->eval, p->eval) ||
      sc->internal != x->internal || sc->nevents != x->nevents ||
      sc->partial_co != p->partial_co || sc->through != p->through ||
      sc->witness != (p->witness != NULL) || sc->final_locs != p->final_locs ||
      sc->nreads != p->nreads || sc->nlocs != p->nlocs ||
      !same_rel(sc->syncbar, x->syncbar) || !same_rel(sc->sync_fence, x->sync_fence) ||
      !same_ints(sc->reads, p->reads, p->nreads) || !same_ints(sc->init, p->init, p->nlocs))
    return false;
  for (int l = 0; l < p->nlocs; l++)
    if (sc->nwrites[l] != p->nwrites[l] || !same_ints(sc->writes[l], p->writes[l], p->nwrites[l]))
      return false;
  for (int k = 0; k < p->nreads; k++)
    for (int j = 0; j < p->ncands[k]; j++)
      if (!among(p->cands[k][j], sc->universe[k], sc->nuniverse[k]))
        return false;
  return true;
}

/* Per read of p, every write of its location: the initial one, the
 * others. */
static void universe_of(const sc_sym_problem *p, layout_scope *sc) {
  const sc_execution *x = p->x;
  sc->universe = sci_alloc(sizeof(int *) * (size_t)(p->nreads + 1));
  sc->nuniverse = sci_alloc_atomic(sizeof(int) * (size_t)(p->nreads + 1));
  for (int k = 0; k < p->nreads; k++) {
    int l = x->events[p->reads[k]].loc, n = 0;
    int *u = sci_alloc_atomic(sizeof(int) * (size_t)(p->nwrites[l] + 2));
    if (p->init[l] >= 0)
      u[n++] = p->init[l];
    for (int a = 0; a < p->nwrites[l]; a++)
      u[n++] = p->writes[l][a];
    sc->universe[k] = u;
    sc->nuniverse[k] = n;
  }
}

/* p's key, kept in a new scope (its solver not made yet). */
static layout_scope *scope_key(const sc_sym_problem *p) {
  const sc_execution *x = p->x;
  layout_scope *sc = sci_alloc(sizeof *sc);
  *sc = (layout_scope){
    .m = p->m, .eval = *p->eval, .env = p->env, .internal = x->internal,
    .syncbar = x->syncbar ? sci_rel_copy(x->syncbar) : NULL,
    .sync_fence = x->sync_fence ? sci_rel_copy(x->sync_fence) : NULL,
    .nevents = x->nevents, .nreads = p->nreads, .nlocs = p->nlocs,
    .reads = ints_copy(p->reads, p->nreads), .init = ints_copy(p->init, p->nlocs),
    .nwrites = ints_copy(p->nwrites, p->nlocs), .final_locs = p->final_locs,
    .partial_co = p->partial_co, .through = p->through, .witness = p->witness != NULL};
  sc->writes = sci_alloc(sizeof(int *) * (size_t)(p->nlocs + 1));
  for (int l = 0; l < p->nlocs; l++)
    sc->writes[l] = ints_copy(p->writes[l], p->nwrites[l]);
  universe_of(p, sc);
  return sc;
}

static void scope_free(sc_sym_session *ss, layout_scope *sc) {
  if (sc->s)
    Z3_solver_dec_ref(ss->z, sc->s);
  sc->s = NULL;
}

static void scopes_drop(sc_sym_session *ss) {
  for (int i = 0; i < ss->nscopes; i++)
    scope_free(ss, ss->scopes[i]);
  ss->nscopes = 0;
}

/* Entry i of list[0..n-1] becomes the first (the most recently used). */
static void to_front(layout_scope **list, int i) {
  layout_scope *used = list[i];
  memmove(&list[1], &list[0], sizeof(layout_scope *) * (size_t)i);
  list[0] = used;
}

/* The scope kept for p's layout, NULL when none fits it. */
static layout_scope *scope_find(sc_sym_session *ss, const sc_sym_problem *p) {
  for (int i = 0; i < ss->nscopes; i++)
    if (scope_fits(ss->scopes[i], p)) {
      to_front(ss->scopes, i);
      return ss->scopes[0];
    }
  return NULL;
}

/* Whether p's layout has been met SCOPE_AFTER times with this one (then
 * forgotten as met: its scope is built next); if not, this meeting is
 * counted.  A layout met once or a few times does not pay for a scope
 * (the liveness searches of Dat3M's litmus tests meet a new layout at
 * nearly every problem). */
static bool met_again(sc_sym_session *ss, const sc_sym_problem *p) {
  for (int i = 0; i < ss->nseen; i++)
    if (scope_fits(ss->seen[i], p)) {
      if (++ss->seen[i]->met < SCOPE_AFTER) {
        to_front(ss->seen, i);
        return false;
      }
      memmove(&ss->seen[i], &ss->seen[i + 1],
              sizeof(layout_scope *) * (size_t)(ss->nseen - i - 1));
      ss->nseen--;
      return true;
    }
  if (ss->nseen < SEEN_KEPT)
    ss->nseen++;
  ss->seen[ss->nseen - 1] = scope_key(p);
  ss->seen[ss->nseen - 1]->met = 1;
  to_front(ss->seen, ss->nseen - 1);
  return false;
}

/* The zctx of a problem in the session's context, asking solver s. */
static void context_of(sc_sym_session *ss, Z3_solver s, zctx *c) {
  memset(c, 0, sizeof *c);
  c->z = ss->z;
  c->s = s;
  c->true_ = ss->true_;
  c->false_ = c->poison = ss->false_;
  c->bool_sort = ss->bool_sort;
  c->int_sort = ss->int_sort;
}

/* A problem's scope of solver s opened: its zctx, a push, its deadline. */
static void problem_open(sc_sym_session *ss, Z3_solver s, const sc_sym_problem *p,
                         zctx *c) {
  context_of(ss, s, c);
  Z3_solver_push(c->z, c->s);
  if (p->timeout > 0) {
    c->deadline = sc_seconds() + p->timeout;
    set_timeout(c, p->timeout);
  }
}

/* The scope problem_open opened, closed: what Z3 failed at reported (st
 * then), the pop, and a context Z3 failed in dropped, made again for the
 * next problem. */
static sc_status problem_close(sc_sym_session *ss, const sc_sym_problem *p, zctx *c,
                               sc_status st, sc_error **err) {
  if (!st)
    out_of_order(p, c, &st, err);
  Z3_solver_pop(c->z, c->s, 1);
  if (z3_failed)
    session_drop(ss);
  return st;
}

/* p's layout's scope, built and kept (the least recently used one dropped
 * when all are taken); NULL when it cannot serve: the encoding failed (p's
 * own, asked next, reports why if it fails too) or over-approximates (the
 * concrete runs that refute its executions would see those of a universe,
 * and the session keeps no scopes from then on). */
static layout_scope *scope_build(sc_sym_session *ss, const sc_sym_problem *p) {
  layout_scope *sc = scope_key(p);
  sc->s = Z3_mk_simple_solver(ss->z);
  if (!sc->s)
    return NULL;
  Z3_solver_inc_ref(ss->z, sc->s);
  ss->built++;
  zctx c;
  context_of(ss, sc->s, &c);
  if (p->timeout > 0)
    set_timeout(&c, p->timeout);
  sc_error *ignored = NULL;
  if (encode(p, &c, sc->universe, sc->nuniverse, &sc->enc, &ignored) || z3_failed ||
      sc->enc.out.approximate) {
    ss->unscoped |= sc->enc.out.approximate;
    scope_free(ss, sc);
    return NULL;
  }
  if (ss->nscopes == SCOPES_KEPT)
    scope_free(ss, ss->scopes[--ss->nscopes]);
  ss->scopes[ss->nscopes++] = sc;
  to_front(ss->scopes, ss->nscopes - 1);
  return sc;
}

/* Read k reads none of its universe's writes but its candidates. */
static void restrict_reads(const sc_sym_problem *p, zctx *c, const layout_scope *sc) {
  int n = p->x->nevents;
  for (int k = 0; k < p->nreads; k++) {
    if (sc->nuniverse[k] == 1)
      continue; /* its one write, a candidate (scope_fits) */
    for (int j = 0; j < sc->nuniverse[k]; j++) {
      int w = sc->universe[k][j];
      if (!among(w, p->cands[k], p->ncands[k]))
        Z3_solver_assert(c->z, c->s,
                         neg(c, (Z3_ast)sc->enc.rf[w * n + p->reads[k]]));
    }
  }
}

/* p answered in its layout's scope (built when none is kept); *done false
 * when there is none to answer it in (p's own encoding then). */
static sc_status solve_scoped(sc_sym_session *ss, const sc_sym_problem *p, bool *done,
                              sc_error **err) {
  *done = false;
  if (!ss->z || ss->built == SCOPES_PER_CONTEXT || ss->scoped == SCOPED_PER_CONTEXT)
    session_reset(ss);
  z3_failed = z3_memout = false;
  if (!ss->z)
    return SC_OK;
  layout_scope *sc = scope_find(ss, p);
  if (!sc && !met_again(ss, p))
    return SC_OK;
  if (!sc && !(sc = scope_build(ss, p))) {
    if (z3_failed)
      session_drop(ss); /* made again for p's own encoding */
    return SC_OK;
  }
  *done = true;
  ss->scoped++;
  zctx c;
  problem_open(ss, sc->s, p, &c);
  restrict_reads(p, &c, sc);
  return problem_close(ss, p, &c, answer(p, &c, &sc->enc, err), err);
}

bool sci_sym_scope_fits(const sc_sym_session *ss, const sc_sym_problem *p) {
  for (int i = 0; ss && ss->z && i < ss->nscopes; i++)
    if (scope_fits(ss->scopes[i], p))
      return true;
  return false;
}

sc_status sci_sym_solve(sc_sym_session *ss, const sc_sym_problem *p, sc_error **err) {
  if (p->reuse && !ss->unscoped) {
    bool done;
    sc_status st = solve_scoped(ss, p, &done, err);
    if (done)
      return st;
  }
  if (ss->used++ == PROBLEMS_PER_CONTEXT || !ss->z)
    session_reset(ss);
  z3_failed = z3_memout = false;
  if (!ss->z) /* no context: Z3 could not allocate one */
    return sci_oom_fail_outside(p->t->file, "the solver (Z3)", err);
  zctx c;
  problem_open(ss, ss->s, p, &c);
  return problem_close(ss, p, &c, solve(p, &c, err), err);
}

/* ---- The value fixpoint's question (sci_sym_fed_pairs) --------------------- */

/* Per thread and pair, whether the thread's chosen trace writes it: Bool
 * terms, false where none of its traces does. */
static Z3_ast **pair_writers(const sc_sym_feed *f, zctx *c, Z3_ast *const *chosen) {
  Z3_ast **wr = sci_alloc(sizeof(Z3_ast *) * (size_t)(f->nthreads + 1));
  for (int th = 0; th < f->nthreads; th++) {
    Z3_ast **alts = sci_alloc(sizeof(Z3_ast *) * (size_t)(f->npairs + 1));
    int *nalts = sci_alloc_atomic(sizeof(int) * (size_t)(f->npairs + 1));
    memset(nalts, 0, sizeof(int) * (size_t)(f->npairs + 1));
    for (int i = 0; i < f->ntraces[th]; i++)
      for (const int *b = f->writes[th][i]; *b >= 0; b++)
        nalts[*b]++;
    for (int b = 0; b < f->npairs; b++)
      alts[b] = sci_alloc(sizeof(Z3_ast) * (size_t)(nalts[b] + 1));
    memset(nalts, 0, sizeof(int) * (size_t)(f->npairs + 1));
    for (int i = 0; i < f->ntraces[th]; i++)
      for (const int *b = f->writes[th][i]; *b >= 0; b++)
        alts[*b][nalts[*b]++] = chosen[th][i];
    wr[th] = sci_alloc(sizeof(Z3_ast) * (size_t)(f->npairs + 1));
    for (int b = 0; b < f->npairs; b++)
      wr[th][b] = nalts[b] ? checked(c, Z3_mk_or(c->z, (unsigned)nalts[b], alts[b])) : c->false_;
  }
  return wr;
}

#define FED_COMMON_MOST 2048

/* Each question of the fixpoint's round gets this many of Z3's resource
 * units; past them the round is walked as before, within -max-executions
 * (a proof the counting facts do not make short would otherwise run
 * unbounded where the walk stopped at the limit). */
#define FED_RLIMIT 50000000u

/* Facts every fed combination has, asserted to spare the solver a
 * counting argument it finds hard (the pigeonhole: eight threads that
 * each write one ticket cannot feed a chain of nine): per pair, `any`,
 * whether some thread writes it; a pair some thread writes brings the
 * pairs every trace writing it needs; and a location holds at most as
 * many pairs as the threads' traces may write there. */
static void fed_counting(const sc_sym_feed *f, zctx *c, Z3_ast **wr) {
  int np = f->npairs, n = f->nthreads;
  Z3_ast *any = sci_alloc(sizeof(Z3_ast) * (size_t)(np + 1));
  for (int b = 0; b < np; b++) {
    any[b] = fresh(c, "written");
    Z3_ast *alts = sci_alloc(sizeof(Z3_ast) * (size_t)(n + 1));
    for (int th = 0; th < n; th++)
      alts[th] = wr[th][b];
    Z3_solver_assert(c->z, c->s,
                     checked(c, Z3_mk_iff(c->z, any[b], Z3_mk_or(c->z, (unsigned)n, alts))));
  }
  /* common[b][b']: every trace writing b needs b' (counts against
   * writers); a square of the pairs, left out past FED_COMMON_MOST of
   * them (the facts are redundant: the solver only finds them later) */
  bool with_common = np <= FED_COMMON_MOST;
  size_t square = with_common ? (size_t)np * (size_t)np : 0;
  int *writers = sci_alloc_atomic(sizeof(int) * (size_t)(np + 1));
  int *common = sci_alloc_atomic(sizeof(int) * (square + 1));
  memset(writers, 0, sizeof(int) * (size_t)(np + 1));
  memset(common, 0, sizeof(int) * (square + 1));
  int nl = f->t->nlocs;
  int *most = sci_alloc_atomic(sizeof(int) * (size_t)(nl + 1)); /* per location */
  int *room = sci_alloc_atomic(sizeof(int) * (size_t)(nl + 1));
  memset(room, 0, sizeof(int) * (size_t)(nl + 1));
  for (int th = 0; th < n; th++) {
    memset(most, 0, sizeof(int) * (size_t)(nl + 1));
    for (int i = 0; i < f->ntraces[th]; i++) {
      int here = 0, loc = -1;
      for (const int *b = f->writes[th][i]; *b >= 0; b++) {
        writers[*b]++;
        for (const int *d = f->needs[th][i]; with_common && *d >= 0; d++)
          if (*d < np)
            common[(size_t)*b * (size_t)np + (size_t)*d]++;
        here = f->pair_loc[*b] == loc ? here + 1 : 1; /* pairs sorted by location */
        loc = f->pair_loc[*b];
        if (here > most[loc])
          most[loc] = here;
      }
    }
    for (int l = 0; l < nl; l++)
      room[l] += most[l];
  }
  for (int b = 0; with_common && b < np; b++)
    for (int d = 0; d < np; d++)
      if (writers[b] > 0 && common[(size_t)b * (size_t)np + (size_t)d] == writers[b])
        clause(c, 2, (Z3_ast[]){neg(c, any[b]), any[d]});
  for (int from = 0; from < np;) {
    int to = from;
    while (to < np && f->pair_loc[to] == f->pair_loc[from])
      to++;
    if (room[f->pair_loc[from]] < to - from)
      Z3_solver_assert(c->z, c->s,
                       checked(c, Z3_mk_atmost(c->z, (unsigned)(to - from), any + from,
                                               (unsigned)room[f->pair_loc[from]])));
    from = to;
  }
}

/* One trace per thread, each trace's needs written by another thread's
 * trace: asserted, with wr (pair_writers) in *out. */
static void fed_combination(const sc_sym_feed *f, zctx *c, Z3_ast ***out) {
  int n = f->nthreads;
  Z3_ast **chosen = sci_alloc(sizeof(Z3_ast *) * (size_t)(n + 1));
  for (int th = 0; th < n; th++)
    chosen[th] = one_of(c, f->ntraces[th]);
  Z3_ast **wr = *out = pair_writers(f, c, chosen);
  Z3_ast *lits = sci_alloc(sizeof(Z3_ast) * (size_t)(n + 1));
  for (int th = 0; th < n; th++)
    for (int i = 0; i < f->ntraces[th]; i++)
      for (const int *b = f->needs[th][i]; *b >= 0; b++) {
        int k = 0;
        lits[k++] = neg(c, chosen[th][i]);
        for (int o = 0; o < n; o++)
          if (o != th && *b < f->npairs && wr[o][*b] != c->false_)
            lits[k++] = wr[o][*b];
        clause(c, k, lits);
      }
  fed_counting(f, c, wr);
}

sc_status sci_sym_fed_pairs(const sc_sym_feed *f, bool *known, double seconds,
                           bool *gave_up, sc_error **err) {
  *gave_up = false;
  sc_sym_session *ss = sci_sym_open();
  z3_failed = z3_memout = false;
  sc_sym_problem q = {.t = f->t, .timeout = seconds, .limit = f->limit};
  if (!ss->z) {
    sci_sym_close(ss);
    return sci_oom_fail_outside(f->t->file, "the solver (Z3)", err);
  }
  zctx c;
  problem_open(ss, ss->s, &q, &c);
  set_solver_uint(&c, "rlimit", FED_RLIMIT);
  c.rlimited = true;
  Z3_ast **wr;
  fed_combination(f, &c, &wr);
  Z3_ast *goal = sci_alloc(sizeof(Z3_ast) * ((size_t)f->npairs * (size_t)f->nthreads + 1));
  sc_status st = SC_OK;
  for (;;) { /* a combination that writes a pair not known yet, till none */
    int k = 0;
    for (int b = 0; b < f->npairs; b++)
      for (int th = 0; th < f->nthreads && !known[b]; th++)
        if (wr[th][b] != c.false_)
          goal[k++] = wr[th][b];
    if (k == 0)
      break;
    Z3_solver_push(c.z, c.s);
    Z3_solver_assert(c.z, c.s, checked(&c, Z3_mk_or(c.z, (unsigned)k, goal)));
    Z3_model mo;
    bool found = ask(&q, &c, &mo, &st, err);
    for (int b = 0; found && b < f->npairs; b++)
      for (int th = 0; th < f->nthreads && !known[b]; th++)
        known[b] = wr[th][b] != c.false_ && is_true(&c, mo, wr[th][b]);
    if (found)
      Z3_model_dec_ref(c.z, mo);
    Z3_solver_pop(c.z, c.s, 1);
    if (!found)
      break;
  }
  *gave_up = c.gave_up;
  st = problem_close(ss, &q, &c, st, err);
  sci_sym_close(ss);
  return st;
}

#endif
