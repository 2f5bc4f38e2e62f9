/* fences.c: fence advice.  Which fence insertions, between consecutive
 * accesses of a thread, make a model forbid a test's condition?  Position
 * sets are tried by increasing size (supersets of a fix are skipped, so
 * every fix is minimal), each with the widest fences first; a set that
 * works is then narrowed to every cheapest choice of fence kinds. */
#include "gen/fences.h"

#include "util/error.h"
#include "util/gcmem.h"
#include "util/oom.h"
#include "util/strbuf.h"

#include <stdlib.h>
#include <string.h>

const fence_kind sc_membar_kinds[] = {
    {SC_OP_MEMBAR, SC_SEM_NONE, SC_SCOPE_CTA, "membar.cta"},
    {SC_OP_MEMBAR, SC_SEM_NONE, SC_SCOPE_GPU, "membar.gl"},
    {SC_OP_MEMBAR, SC_SEM_NONE, SC_SCOPE_SYS, "membar.sys"},
};
const fence_kind sc_ptx_fence_kinds[] = {
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

position *sc_fence_positions(const sc_test *t, int *n) {
  position *pos = NULL;
  int cap = 0;
  *n = 0;
  for (int i = 0; i < t->nthreads; i++) {
    const sc_thread *th = &t->threads[i];
    int last = -1;
    for (int pc = 0; pc < th->ninstrs; pc++) {
      if (!sc_instr_is_access(&th->code[pc]))
        continue;
      if (last >= 0) {
        sc_grow(&pos, &cap, *n + 1, sizeof(position));
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
sc_test *sc_fence_patch(const sc_test *t, const fix *f) {
  sc_test *p = sc_alloc(sizeof(sc_test));
  *p = *t;
  p->threads = sc_alloc(sizeof(sc_thread) * (size_t)t->nthreads);
  memcpy(p->threads, t->threads, sizeof(sc_thread) * (size_t)t->nthreads);
  sc_strbuf name;
  sc_sb_init(&name);
  sc_sb_puts(&name, t->name);
  for (int i = 0; i < t->nthreads; i++) {
    const sc_thread *th = &t->threads[i];
    sc_thread *nt = &p->threads[i];
    int added = 0;
    for (int k = 0; k < f->n; k++)
      added += f->at[k]->thread == i;
    if (!added)
      continue;
    nt->code = sc_alloc(sizeof(sc_instr) * (size_t)(th->ninstrs + added));
    nt->ninstrs = nt->capinstrs = 0;
    nt->labels = sc_alloc(sizeof(sc_label) * (size_t)(th->nlabels + 1));
    if (th->nlabels > 0)
      memcpy(nt->labels, th->labels, sizeof(sc_label) * (size_t)th->nlabels);
    for (int pc = 0; pc <= th->ninstrs; pc++) {
      for (int l = 0; l < th->nlabels; l++)
        if (th->labels[l].pc == pc)
          nt->labels[l].pc = nt->ninstrs;
      for (int k = 0; k < f->n; k++)
        if (f->at[k]->thread == i && f->at[k]->pc == pc) {
          nt->code[nt->ninstrs++] = fence_instr(f->kind[k], &th->code[pc]);
          sc_sb_printf(&name, "+%s@%d.%d", f->kind[k]->name, i,
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
  const sc_sim_options *sim;
  sc_fence_advice *a;
  const fence_kind *kinds;
  int nkinds, max_fences;
  sc_error **err;
  sc_status status;
} search;

/* Whether the model allows the condition's proposition in `t`; -1 when
 * the simulation failed (s->status says why). */
static int allows(search *s, const sc_test *t) {
  sc_result *r;
  s->a->simulations++;
  s->status = sc_simulate(t, s->m, s->sim, &r, s->err);
  if (s->status != SC_OK)
    return -1;
  return sc_result_positive(r) > 0;
}

const char *sc_fence_describe(const sc_test *t, const fix *f) {
  sc_strbuf sb;
  sc_sb_init(&sb);
  for (int k = 0; k < f->n; k++) {
    const position *at = f->at[k];
    const sc_thread *th = &t->threads[at->thread];
    sc_sb_printf(&sb, "%s%s in %s between ", k ? "; " : "", f->kind[k]->name,
                 th->name);
    sc_print_instruction(&sb, t, th, &th->code[at->before]);
    sc_sb_puts(&sb, " and ");
    sc_print_instruction(&sb, t, th, &th->code[at->pc]);
  }
  return sb.data;
}

static void add_fix(search *s, const position **at, const fence_kind **kind,
                    int n, sc_test *test) {
  sc_fence_advice *a = s->a;
  sc_grow(&a->fixes, &a->capfixes, a->nfixes + 1, sizeof(fix));
  fix *f = &a->fixes[a->nfixes++];
  f->n = n;
  f->at = sc_alloc(sizeof(position *) * (size_t)n);
  f->kind = sc_alloc(sizeof(fence_kind *) * (size_t)n);
  memcpy(f->at, at, sizeof(position *) * (size_t)n);
  memcpy(f->kind, kind, sizeof(fence_kind *) * (size_t)n);
  f->test = test;
  f->text = sc_fence_describe(s->t, f);
  for (int k = 0; k < n; k++)
    f->cost += kind_cost(kind[k]);
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

/* Whether choice c (kind indices) is at least as strong, fence by fence,
 * as a working choice kept for the same positions. */
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
 * the condition forbidden, cheapest first. */
static void narrow(search *s, const position **at, int n) {
  int first = s->a->nfixes;
  int *idx = sc_alloc_atomic(sizeof(int) * (size_t)n);
  const fence_kind **c = sc_alloc(sizeof(fence_kind *) * (size_t)n);
  long total = 1;
  for (int k = 0; k < n; k++)
    total *= s->nkinds;
  /* choices in order of cost, so that a cheaper working one is kept
   * before any choice above it is tried */
  for (int cost = 0; cost <= 5 * n; cost++)
    for (long code = 0; code < total; code++) {
      long rest = code;
      int sum = 0;
      for (int k = 0; k < n; k++) {
        idx[k] = (int)(rest % s->nkinds);
        rest /= s->nkinds;
        c[k] = &s->kinds[idx[k]];
        sum += kind_cost(c[k]);
      }
      if (sum != cost || above_a_choice(s, first, c, n))
        continue;
      fix f = {n, at, c, NULL, NULL, 0};
      sc_test *p = sc_fence_patch(s->t, &f);
      int allowed = allows(s, p);
      if (allowed < 0)
        return;
      if (!allowed)
        add_fix(s, at, c, n, p);
    }
}

/* Whether some choice of the widest-scoped kinds (.sys: membar.sys; or
 * fence.acq_rel.sys and fence.sc.sys, since in Dat3M's models fence.sc is
 * not also acq_rel, so neither is stronger than the other) at positions
 * `at` forbids the condition: if none does, no narrower one will.
 * Returns -1 when a simulation failed. */
static int some_widest_forbids(search *s, const position **at, int n) {
  const fence_kind **widest = sc_alloc(sizeof(fence_kind *) * (size_t)s->nkinds);
  int nwidest = 0;
  for (int i = 0; i < s->nkinds; i++)
    if (s->kinds[i].scope == SC_SCOPE_SYS)
      widest[nwidest++] = &s->kinds[i];
  const fence_kind **c = sc_alloc(sizeof(fence_kind *) * (size_t)n);
  long total = 1;
  for (int k = 0; k < n; k++)
    total *= nwidest;
  for (long code = 0; code < total; code++) {
    long rest = code;
    for (int k = 0; k < n; k++, rest /= nwidest)
      c[k] = widest[rest % nwidest];
    fix f = {n, at, c, NULL, NULL, 0};
    int allowed = allows(s, sc_fence_patch(s->t, &f));
    if (allowed <= 0)
      return allowed < 0 ? -1 : 1;
  }
  return 0;
}

/* Position sets of size n, in order, from position `from` on. */
static void choose(search *s, const position **at, int k, int n, int from) {
  if (s->status != SC_OK)
    return;
  if (k == n) {
    if (covers_a_fix(s, at, n))
      return;
    if (some_widest_forbids(s, at, n) == 1)
      narrow(s, at, n);
    return;
  }
  for (int i = from; i < s->a->npos; i++) {
    at[k] = &s->a->pos[i];
    choose(s, at, k + 1, n, i + 1);
  }
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
  sc_fence_advice *a = sc_alloc(sizeof *a);
  search s = {t, m, opts->sim, a, opts->ptx_fences ? sc_ptx_fence_kinds : sc_membar_kinds,
              opts->ptx_fences ? 6 : 3,
              opts->max_fences > 0 ? opts->max_fences : 4, err, SC_OK};
  a->pos = sc_fence_positions(t, &a->npos);
  int allowed = allows(&s, t);
  if (allowed < 0)
    return s.status;
  if (!allowed) {
    a->verdict = SC_FENCES_ALREADY_FORBIDDEN;
    *out = a;
    return SC_OK;
  }
  const position **at = sc_alloc(sizeof(position *) * (size_t)(a->npos + 1));
  int most = a->npos < s.max_fences ? a->npos : s.max_fences;
  for (int n = 1; n <= most && s.status == SC_OK; n++)
    choose(&s, at, 0, n, 0);
  if (s.status != SC_OK)
    return s.status;
  if (a->nfixes > 1)
    qsort(a->fixes, (size_t)a->nfixes, sizeof(fix), by_cost);
  a->verdict = a->nfixes ? SC_FENCES_FIXED : SC_FENCES_NONE_SUFFICE;
  *out = a;
  return SC_OK;
}

sc_status sc_fence_advise(const sc_test *t, const sc_model *m,
                          const sc_fence_options *opts,
                          sc_fence_advice **out, sc_error **err) {
  sc_oom_guard g;
  if (!SC_OOM_ENTER(g))
    return sc_oom_fail(&g, t->file, err);
  sc_status st = fence_advise_unguarded(t, m, opts, out, err);
  sc_oom_leave(&g);
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
