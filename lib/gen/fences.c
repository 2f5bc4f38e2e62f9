/* fences.c: fence advice.  Which fence insertions, between consecutive
 * accesses of a thread, make a model forbid a test's condition?  The test
 * with the widest fences at every position comes first (if it is still
 * allowed, no fence helps); then position sets are tried by increasing
 * size (supersets of a fix are skipped, so every fix is minimal), each
 * with the widest fences first; a set that works is then narrowed, scope
 * by scope, to every cheapest choice of fence kinds.  The search assumes
 * what makes that sound: a fence added, or a scope widened, never lets the
 * model allow more.  Simulations run on the caller's engine, within the
 * search's time limit, and report progress. */
#include "gen/fences.h"

#include "util/error.h"
#include "util/gcmem.h"
#include "util/oom.h"
#include "util/strbuf.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

const fence_kind sci_membar_kinds[] = {
    {SC_OP_MEMBAR, SC_SEM_NONE, SC_SCOPE_CTA, "membar.cta"},
    {SC_OP_MEMBAR, SC_SEM_NONE, SC_SCOPE_GPU, "membar.gl"},
    {SC_OP_MEMBAR, SC_SEM_NONE, SC_SCOPE_SYS, "membar.sys"},
};
const fence_kind sci_ptx_fence_kinds[] = {
    {SC_OP_FENCE, SC_SEM_ACQ_REL, SC_SCOPE_CTA, "fence.acq_rel.cta"},
    {SC_OP_FENCE, SC_SEM_SC, SC_SCOPE_CTA, "fence.sc.cta"},
    {SC_OP_FENCE, SC_SEM_ACQ_REL, SC_SCOPE_GPU, "fence.acq_rel.gpu"},
    {SC_OP_FENCE, SC_SEM_SC, SC_SCOPE_GPU, "fence.sc.gpu"},
    {SC_OP_FENCE, SC_SEM_ACQ_REL, SC_SCOPE_SYS, "fence.acq_rel.sys"},
    {SC_OP_FENCE, SC_SEM_SC, SC_SCOPE_SYS, "fence.sc.sys"},
};

/* k1 is at most as strong as k2: narrower or equal scope and weaker or
 * equal semantics (membar: scope alone). */
static bool kind_le(const fence_kind *a, const fence_kind *b) {
  return a->scope <= b->scope && a->sem <= b->sem;
}

static int kind_cost(const fence_kind *k) {
  return 2 * (k->scope == SC_SCOPE_CTA ? 0 : k->scope == SC_SCOPE_GPU ? 1 : 2) +
         (k->sem == SC_SEM_SC);
}

/* ---- Positions and patched tests ------------------------------------------- */

position *sci_fence_positions(const sc_test *t, int *n) {
  position *pos = NULL;
  int cap = 0;
  *n = 0;
  for (int i = 0; i < t->nthreads; i++) {
    const sc_thread *th = &t->threads[i];
    int last = -1;
    for (int pc = 0; pc < th->ninstrs; pc++) {
      if (!sci_instr_is_access(&th->code[pc]))
        continue;
      if (last >= 0) {
        sci_grow(&pos, &cap, *n + 1, sizeof(position));
        pos[(*n)++] = (position){i, pc, last};
      }
      last = pc;
    }
  }
  return pos;
}

static sc_instr fence_instr(const fence_kind *k, const sc_instr *next) {
  sc_instr in;
  memset(&in, 0, sizeof in);
  in.op = k->op;
  in.sem = k->sem;
  in.scope = k->scope;
  in.guard = -1;
  in.target = -1;
  in.line = next->line;
  in.col = next->col;
  return in;
}

/* The test with fences inserted: a new thread array; the threads that
 * change get new code and labels (a label before the access now names the
 * fence, so that a jump to it is fenced too). */
sc_test *sci_fence_patch(const sc_test *t, const fix *f) {
  sc_test *p = sci_alloc(sizeof(sc_test));
  *p = *t;
  p->threads = sci_alloc(sizeof(sc_thread) * (size_t)t->nthreads);
  memcpy(p->threads, t->threads, sizeof(sc_thread) * (size_t)t->nthreads);
  sc_strbuf name;
  sci_sb_init(&name);
  sci_sb_puts(&name, t->name);
  for (int i = 0; i < t->nthreads; i++) {
    const sc_thread *th = &t->threads[i];
    sc_thread *nt = &p->threads[i];
    int added = 0;
    for (int k = 0; k < f->n; k++)
      added += f->at[k]->thread == i;
    if (!added)
      continue;
    nt->code = sci_alloc(sizeof(sc_instr) * (size_t)(th->ninstrs + added));
    nt->ninstrs = nt->capinstrs = 0;
    nt->labels = sci_alloc(sizeof(sc_label) * (size_t)(th->nlabels + 1));
    if (th->nlabels > 0)
      memcpy(nt->labels, th->labels, sizeof(sc_label) * (size_t)th->nlabels);
    for (int pc = 0; pc <= th->ninstrs; pc++) {
      for (int l = 0; l < th->nlabels; l++)
        if (th->labels[l].pc == pc)
          nt->labels[l].pc = nt->ninstrs;
      for (int k = 0; k < f->n; k++)
        if (f->at[k]->thread == i && f->at[k]->pc == pc) {
          nt->code[nt->ninstrs++] = fence_instr(f->kind[k], &th->code[pc]);
          sci_sb_printf(&name, "+%s@%d.%d", f->kind[k]->name, i,
                       nt->ninstrs);
        }
      if (pc < th->ninstrs)
        nt->code[nt->ninstrs++] = th->code[pc];
    }
    nt->capinstrs = nt->ninstrs;
  }
  p->name = name.data;
  return p;
}

/* ---- Asking the model ------------------------------------------------------- */

typedef struct search {
  const sc_test *t;
  const sc_model *m;
  const sc_fence_options *opts;
  sc_sim_options sim;          /* the caller's, stopping at a witness */
  sc_fence_advice *a;
  const fence_kind *kinds;
  int nkinds, max_fences;
  double start;                /* when the search began (sc_seconds) */
  sc_fence_progress where;
  sc_error **err;
  sc_status status;
} search;

static void report(search *s) {
  if (!s->opts->progress)
    return;
  s->where.simulations = s->a->simulations;
  s->where.seconds = sc_seconds() - s->start;
  s->opts->progress(s->opts->progress_ctx, &s->where);
}

/* sc_sim_options.progress: a long simulation keeps the line's clock going. */
static void simulation_progress(void *ctx, long candidates, double seconds) {
  (void)candidates;
  (void)seconds;
  report(ctx);
}

static bool past_deadline(const search *s) {
  return s->opts->timeout > 0 && sc_seconds() - s->start >= s->opts->timeout;
}

static sc_status out_of_time(search *s) {
  const char *where =
      s->where.candidate
          ? sci_printf("at insertion %ld of %ld", s->where.candidate,
                      s->where.candidates)
          : "before the first insertion";
  return sci_fail(s->err, SC_ERR_LIMIT, s->t->file, 0, 0,
                 "expected the fence search of %s to finish within %g s (the "
                 "-timeout limit): stopped %s, after %ld simulations, with no "
                 "verdict",
                 s->t->name, s->opts->timeout, where, s->a->simulations);
}

/* Whether the model allows the condition's proposition in `t`; -1 when
 * the simulation failed or the search ran out of time (s->status says
 * why).  Each simulation gets what is left of the search's time. */
static int allows(search *s, const sc_test *t) {
  sc_sim_options o = s->sim;
  if (s->opts->timeout > 0) {
    double left = s->opts->timeout - (sc_seconds() - s->start);
    if (left <= 0) {
      s->status = out_of_time(s);
      return -1;
    }
    if (o.timeout <= 0 || o.timeout > left)
      o.timeout = left;
  }
  s->a->simulations++;
  report(s);
  sc_result *r;
  s->status = sc_simulate(t, s->m, &o, &r, s->err);
  if (s->status == SC_ERR_LIMIT && past_deadline(s))
    s->status = out_of_time(s); /* the search's limit, not the test's */
  if (s->status != SC_OK)
    return -1;
  return sc_result_positive(r) > 0;
}

/* Whether the fences `kind` at positions `at` leave the condition
 * allowed (-1: failed). */
static int allows_with(search *s, const position **at,
                       const fence_kind **kind, int n) {
  fix f = {n, at, kind, NULL, NULL, 0};
  return allows(s, sci_fence_patch(s->t, &f));
}

const char *sci_fence_describe(const sc_test *t, const fix *f) {
  sc_strbuf sb;
  sci_sb_init(&sb);
  for (int k = 0; k < f->n; k++) {
    const position *at = f->at[k];
    const sc_thread *th = &t->threads[at->thread];
    sci_sb_printf(&sb, "%s%s in %s between ", k ? "; " : "", f->kind[k]->name,
                 th->name);
    sci_print_instruction(&sb, t, th, &th->code[at->before]);
    sci_sb_puts(&sb, " and ");
    sci_print_instruction(&sb, t, th, &th->code[at->pc]);
  }
  return sb.data;
}

static void add_fix(search *s, const position **at, const fence_kind **kind,
                    int n) {
  sc_fence_advice *a = s->a;
  sci_grow(&a->fixes, &a->capfixes, a->nfixes + 1, sizeof(fix));
  fix *f = &a->fixes[a->nfixes++];
  f->n = n;
  f->at = sci_alloc(sizeof(position *) * (size_t)n);
  f->kind = sci_alloc(sizeof(fence_kind *) * (size_t)n);
  memcpy(f->at, at, sizeof(position *) * (size_t)n);
  memcpy(f->kind, kind, sizeof(fence_kind *) * (size_t)n);
  f->test = sci_fence_patch(s->t, f);
  f->text = sci_fence_describe(s->t, f);
  for (int k = 0; k < n; k++)
    f->cost += kind_cost(kind[k]);
}

/* ---- The widest fences ------------------------------------------------------ */

/* The widest-scoped kinds: membar.sys; or fence.acq_rel.sys and
 * fence.sc.sys, since in Dat3M's models fence.sc is not also acq_rel, so
 * neither is stronger than the other. */
static int widest_kinds(const search *s, const fence_kind **widest) {
  int n = 0;
  for (int i = 0; i < s->nkinds; i++)
    if (s->kinds[i].scope == SC_SCOPE_SYS)
      widest[n++] = &s->kinds[i];
  return n;
}

/* Whether the model still allows the condition with every widest kind at
 * each of the positions `at` (two fences a position for PTX fences).  A
 * fence added never allows more, so when this allows the condition no
 * choice of one fence at each of these positions forbids it: one
 * simulation rules out the 2^n choices of widest kinds.  -1: failed. */
static int all_widest_allow(search *s, const position **at, int n) {
  const fence_kind *widest[2];
  int nwidest = widest_kinds(s, widest);
  const position **twice = sci_alloc(sizeof(position *) * (size_t)(n * nwidest + 1));
  const fence_kind **kind = sci_alloc(sizeof(fence_kind *) * (size_t)(n * nwidest + 1));
  for (int k = 0; k < n; k++)
    for (int w = 0; w < nwidest; w++) {
      twice[k * nwidest + w] = at[k];
      kind[k * nwidest + w] = widest[w];
    }
  return allows_with(s, twice, kind, n * nwidest);
}

/* Whether the widest fences at the positions `at` leave the condition
 * allowed (-1: failed): first one fence of the first widest kind at each
 * (membar.sys, or fence.acq_rel.sys: no fence.sc, whose orders make a
 * simulation dearer), and when that is not enough every widest kind at
 * once.  *first_works: the first choice forbids it (narrow need not
 * simulate it again). */
static int widest_allow(search *s, const position **at, int n,
                        bool *first_works) {
  const fence_kind *widest[2];
  int nwidest = widest_kinds(s, widest);
  const fence_kind **kind = sci_alloc(sizeof(fence_kind *) * (size_t)(n + 1));
  for (int k = 0; k < n; k++)
    kind[k] = widest[0];
  int allowed = allows_with(s, at, kind, n);
  *first_works = allowed == 0;
  if (allowed != 1 || nwidest == 1)
    return allowed;
  return all_widest_allow(s, at, n);
}

/* ---- Narrowing the kinds ---------------------------------------------------- */

/* A choice of kinds for the n positions of a set, by index in s->kinds. */
typedef struct choice {
  int *idx;
  int cost;
  long code;  /* sum of idx[k] * nkinds^k: the order of a full scan */
  bool works; /* the condition is forbidden with it */
} choice;

typedef struct choices {
  choice *items;
  int n, cap;
} choices;

/* The choice `idx` in cs, NULL when it is not there. */
static const choice *find_choice(const choices *cs, const int *idx, int n) {
  for (int i = 0; i < cs->n; i++)
    if (memcmp(cs->items[i].idx, idx, sizeof(int) * (size_t)n) == 0)
      return &cs->items[i];
  return NULL;
}

static void push_choice(const search *s, choices *cs, const int *idx, int n,
                        bool works) {
  sci_grow(&cs->items, &cs->cap, cs->n + 1, sizeof(choice));
  choice *c = &cs->items[cs->n++];
  c->idx = sci_alloc_atomic(sizeof(int) * (size_t)n);
  memcpy(c->idx, idx, sizeof(int) * (size_t)n);
  c->cost = 0;
  c->code = 0;
  c->works = works;
  for (int k = n - 1; k >= 0; k--) {
    c->cost += kind_cost(&s->kinds[idx[k]]);
    c->code = c->code * s->nkinds + idx[k];
  }
}

/* The kind of the same semantics one scope narrower, -1 when none. */
static int narrower_kind(const search *s, int i) {
  int best = -1;
  for (int j = 0; j < s->nkinds; j++)
    if (s->kinds[j].sem == s->kinds[i].sem &&
        s->kinds[j].scope < s->kinds[i].scope &&
        (best < 0 || s->kinds[j].scope > s->kinds[best].scope))
      best = j;
  return best;
}

static const fence_kind **kinds_of(const search *s, const int *idx, int n) {
  const fence_kind **c = sci_alloc(sizeof(fence_kind *) * (size_t)(n + 1));
  for (int k = 0; k < n; k++)
    c[k] = &s->kinds[idx[k]];
  return c;
}

/* Whether choice `idx` forbids the condition, simulated once and then
 * remembered in `tried` (-1: failed). */
static int works(search *s, const position **at, int n, const int *idx,
                 choices *tried) {
  const choice *known = find_choice(tried, idx, n);
  if (known)
    return known->works;
  int allowed = allows_with(s, at, kinds_of(s, idx, n), n);
  if (allowed < 0)
    return -1;
  push_choice(s, tried, idx, n, !allowed);
  return !allowed;
}

/* From the working choice `idx`, every choice reached by narrowing one
 * fence's scope at a time while the condition stays forbidden; those with
 * no working narrower neighbour go to `lowest`.  A narrower scope never
 * forbids more, so every working choice of these semantics is reached. */
static void narrow_scopes(search *s, const position **at, int n,
                          const int *idx, choices *tried, choices *lowest) {
  bool lower_works = false;
  int *down = sci_alloc_atomic(sizeof(int) * (size_t)n);
  for (int k = 0; k < n; k++) {
    int j = narrower_kind(s, idx[k]);
    if (j < 0)
      continue;
    memcpy(down, idx, sizeof(int) * (size_t)n);
    down[k] = j;
    bool seen = find_choice(tried, down, n) != NULL;
    int w = works(s, at, n, down, tried);
    if (w < 0)
      return;
    lower_works |= w;
    if (w && !seen)
      narrow_scopes(s, at, n, down, tried, lowest);
  }
  if (!lower_works && !find_choice(lowest, idx, n))
    push_choice(s, lowest, idx, n, true);
}

static int by_cost_then_code(const void *x, const void *y) {
  const choice *a = x, *b = y;
  if (a->cost != b->cost)
    return a->cost - b->cost;
  return (a->code > b->code) - (a->code < b->code);
}

/* Whether choice c is at least as strong, fence by fence, as a working
 * choice kept for the same positions. */
static bool above_a_choice(const search *s, int first, const fence_kind **c,
                           int n) {
  for (int i = first; i < s->a->nfixes; i++) {
    bool above = true;
    for (int k = 0; k < n && above; k++)
      above = kind_le(s->a->fixes[i].kind[k], c[k]);
    if (above)
      return true;
  }
  return false;
}

/* Every pointwise-minimal choice of kinds for positions `at` that makes
 * the condition forbidden, cheapest first.  Each choice of semantics
 * (acq_rel or sc per fence; membar has one) starts from its .sys fences,
 * and when they forbid the condition narrows scopes from there; of the
 * narrowest choices found, those above no cheaper one are the fixes. */
static void narrow(search *s, const position **at, int n, bool first_works) {
  const fence_kind *widest[2];
  int nwidest = widest_kinds(s, widest);
  long tops = 1;
  for (int k = 0; k < n; k++)
    tops *= nwidest;
  choices tried = {0}, lowest = {0};
  int *idx = sci_alloc_atomic(sizeof(int) * (size_t)(n + 1));
  for (long top = 0; top < tops && s->status == SC_OK; top++) {
    long rest = top;
    for (int k = 0; k < n; k++, rest /= nwidest)
      idx[k] = (int)(widest[rest % nwidest] - s->kinds);
    if (top == 0 && first_works) /* widest_allow's first choice */
      push_choice(s, &tried, idx, n, true);
    if (works(s, at, n, idx, &tried) == 1)
      narrow_scopes(s, at, n, idx, &tried, &lowest);
  }
  if (s->status != SC_OK || lowest.n == 0)
    return;
  qsort(lowest.items, (size_t)lowest.n, sizeof(choice), by_cost_then_code);
  int first = s->a->nfixes;
  for (int i = 0; i < lowest.n; i++) {
    const fence_kind **c = kinds_of(s, lowest.items[i].idx, n);
    if (!above_a_choice(s, first, c, n))
      add_fix(s, at, c, n);
  }
}

/* ---- The search ------------------------------------------------------------- */

/* Whether the positions chosen hold every position of an earlier fix. */
static bool covers_a_fix(const search *s, const position **at, int n) {
  for (int i = 0; i < s->a->nfixes; i++) {
    const fix *f = &s->a->fixes[i];
    bool all = true;
    for (int k = 0; k < f->n && all; k++) {
      bool found = false;
      for (int j = 0; j < n && !found; j++)
        found = at[j] == f->at[k];
      all = found;
    }
    if (all)
      return true;
  }
  return false;
}

/* Position sets of size n, in order, from position `from` on. */
static void choose(search *s, const position **at, int k, int n, int from) {
  if (s->status != SC_OK)
    return;
  if (k == n) {
    s->where.candidate++;
    if (covers_a_fix(s, at, n))
      return;
    bool first_works;
    if (widest_allow(s, at, n, &first_works) == 0)
      narrow(s, at, n, first_works);
    return;
  }
  for (int i = from; i < s->a->npos; i++) {
    at[k] = &s->a->pos[i];
    s->where.fences = n;
    choose(s, at, k + 1, n, i + 1);
  }
}

/* Sets of 1 to `most` of n positions (LONG_MAX when more). */
static long position_sets(int n, int most) {
  long total = 0, c = 1; /* c: n choose k */
  for (int k = 1; k <= most; k++) {
    if (c > LONG_MAX / (n - k + 1))
      return LONG_MAX;
    c = c * (n - k + 1) / k;
    if (total > LONG_MAX - c)
      return LONG_MAX;
    total += c;
  }
  return total;
}

static int by_cost(const void *x, const void *y) {
  const fix *a = x, *b = y;
  if (a->n != b->n)
    return a->n - b->n;
  return a->cost - b->cost;
}

static sc_status fence_advise_unguarded(const sc_test *t, const sc_model *m,
                                        const sc_fence_options *opts,
                                        sc_fence_advice **out, sc_error **err) {
  *out = NULL;
  sc_fence_options none = {0};
  if (!opts)
    opts = &none;
  sc_fence_advice *a = sci_alloc(sizeof *a);
  search s = {.t = t, .m = m, .opts = opts, .a = a,
              .kinds = opts->ptx_fences ? sci_ptx_fence_kinds : sci_membar_kinds,
              .nkinds = opts->ptx_fences ? 6 : 3,
              .max_fences = opts->max_fences > 0 ? opts->max_fences
                                                 : SC_FENCES_DEFAULT_MAX,
              .start = sc_seconds(), .err = err, .status = SC_OK};
  if (opts->sim)
    s.sim = *opts->sim;
  else
    s.sim.unroll = -1;
  /* only the verdict matters: stop at the first witness (not for forall,
   * whose deciding executions are those where the proposition fails) */
  if (t->quant != SC_FORALL)
    s.sim.speedcheck = SC_SPEEDCHECK_FAST;
  if (opts->progress) {
    s.sim.progress = simulation_progress;
    s.sim.progress_ctx = &s;
  }
  a->pos = sci_fence_positions(t, &a->npos);
  int most = a->npos < s.max_fences ? a->npos : s.max_fences;
  s.where.candidates = position_sets(a->npos, most);
  int allowed = allows(&s, t);
  if (allowed < 0)
    return s.status;
  if (!allowed) {
    a->verdict = SC_FENCES_ALREADY_FORBIDDEN;
    *out = a;
    return SC_OK;
  }
  /* fences at every position first: when even they leave the condition
   * allowed, no fence set will, whatever -max says */
  const position **at = sci_alloc(sizeof(position *) * (size_t)(a->npos + 1));
  for (int i = 0; i < a->npos; i++)
    at[i] = &a->pos[i];
  s.where.fences = a->npos;
  bool first_works;
  allowed = a->npos ? widest_allow(&s, at, a->npos, &first_works) : 1;
  if (allowed < 0)
    return s.status;
  if (allowed) {
    a->verdict = SC_FENCES_NONE_SUFFICE;
    *out = a;
    return SC_OK;
  }
  for (int n = 1; n <= most && s.status == SC_OK; n++)
    choose(&s, at, 0, n, 0);
  if (s.status != SC_OK)
    return s.status;
  if (a->nfixes > 1)
    qsort(a->fixes, (size_t)a->nfixes, sizeof(fix), by_cost);
  a->verdict = a->nfixes ? SC_FENCES_FIXED : SC_FENCES_NONE_WITHIN_MAX;
  *out = a;
  return SC_OK;
}

sc_status sc_fence_advise(const sc_test *t, const sc_model *m,
                          const sc_fence_options *opts,
                          sc_fence_advice **out, sc_error **err) {
  sc_oom_guard g;
  if (!SC_OOM_ENTER(g))
    return sci_oom_fail(&g, t->file, err);
  sc_status st = fence_advise_unguarded(t, m, opts, out, err);
  sci_oom_leave(&g);
  return st;
}

sc_fence_verdict sc_fence_advice_verdict(const sc_fence_advice *a) {
  return a->verdict;
}
int sc_fence_advice_positions(const sc_fence_advice *a) { return a->npos; }
long sc_fence_advice_simulations(const sc_fence_advice *a) {
  return a->simulations;
}
int sc_fence_advice_count(const sc_fence_advice *a) { return a->nfixes; }
int sc_fence_advice_size(const sc_fence_advice *a, int i) {
  return i >= 0 && i < a->nfixes ? a->fixes[i].n : 0;
}
const char *sc_fence_advice_text(const sc_fence_advice *a, int i) {
  return i >= 0 && i < a->nfixes ? a->fixes[i].text : NULL;
}
const sc_test *sc_fence_advice_test(const sc_fence_advice *a, int i) {
  return i >= 0 && i < a->nfixes ? a->fixes[i].test : NULL;
}
