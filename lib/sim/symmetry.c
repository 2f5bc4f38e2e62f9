/* symmetry.c: which permutations of a test's threads leave its question
 * unchanged, and the representatives of the orbits of combinations of
 * traces.  A permutation sigma of the threads is a symmetry when thread
 * i's k-th trace and thread sigma(i)'s k-th trace are the same events (the
 * same instructions up to their operands, values, dependencies, barrier
 * operands, ends) at locations that one permutation pi of the locations
 * maps onto each other, and sigma keeps the scope tree (two threads share
 * a warp, a CTA... exactly when their images do), pi the initial memory
 * and the kinds of memory, and both the observed terms and the condition.
 * Then combination C and sigma(C) have executions that correspond one to
 * one (an isomorphism of execution graphs, which a cat model cannot tell
 * apart), with final states that the permutation maps onto each other,
 * the same flags and the same liveness verdict.  The traces are compared
 * after instantiation, so a kernel's special registers count only where
 * they change what a thread does or where it does it (A[%tid]).
 *
 * The representative of an orbit is its first combination in the
 * odometer's order: every "first" a result keeps (the execution that
 * decides the condition, a flag's witness, the liveness witness) comes
 * from the first combination that has one, which is a representative,
 * searched as it would be without symmetry (but for -engine auto's road
 * through it, which the enumerator's cut statistics sway: the witness may
 * then be another execution of it; doc/performance.md). */
#include "sim/symmetry.h"

#include "util/gcmem.h"
#include "util/strbuf.h"

#include <stdlib.h>
#include <string.h>

/* At most this many permutations are kept (a larger group: none). */
#define MAX_GROUP 4096
/* At most this many permutations are looked at while finding them. */
#define MAX_TRIES 20000L
/* At most this many entries in the location maps of the pairs of threads
 * (threads squared times locations): beyond, no symmetry is looked for
 * (60 threads of 30 locations each would take 50 MB). */
#define MAX_PAIR_MAP_ENTRIES (1L << 18)

/* One symmetry: the threads' images, and the observed terms' (index in
 * the result's order). */
typedef struct sym_perm {
  int *thread;
  int *observed;
} sym_perm;

struct sim_symmetry {
  int n;         /* threads */
  int nobserved;
  sym_perm *g;   /* g[0] is the identity */
  int order;
  int *images;   /* the current representative's images: indices into g */
  int nimages;
  int *scratch;  /* one image of a pick per permutation: order * n */
  int64_t *values; /* one image of a final state */
};

/* ---- The search for symmetries ----------------------------------------- */

/* What finding them needs: the test, its traces, per pair of threads the
 * location map their traces imply (NULL: the pair does not correspond),
 * and the permutation being built. */
typedef struct sym_finder {
  const sc_test *t;
  const sc_thread_traces *all;
  const sc_result *r;
  int n, nlocs;
  int **pair_map; /* [i * n + j]: loc -> loc, -1 where i's traces touch none */
  const char *cond; /* the condition's canonical form */
  int *thread;    /* thread -> image, -1 unassigned */
  bool *used;     /* images taken */
  int *loc_map;   /* per depth, the union so far: (n + 1) * nlocs */
  int *loc_inv;
  long tries;
  bool gave_up;
  sym_perm *group;
  int order, cap;
} sym_finder;

/* Whether two instructions make the same events as a model sees them (the
 * qualifiers; operands and source positions aside: the events carry the
 * locations, values and dependencies). */
static bool same_instruction(const sc_instr *a, const sc_instr *b) {
  return a->op == b->op && a->sem == b->sem && a->scope == b->scope &&
         a->space == b->space && a->cacheop == b->cacheop && a->type == b->type &&
         a->type2 == b->type2 && a->atomop == b->atomop && a->cmp == b->cmp &&
         a->proxy == b->proxy && a->barmode == b->barmode && a->bar_cta == b->bar_cta &&
         a->bar_long == b->bar_long && a->aligned == b->aligned && a->wide == b->wide;
}

/* Record loc a -> loc b in map/inv; false when it contradicts them. */
static bool map_loc(int *map, int *inv, int a, int b) {
  if (a < 0 || b < 0)
    return a == b;
  if (map[a] == -1 && inv[b] == -1) {
    map[a] = b;
    inv[b] = a;
    return true;
  }
  return map[a] == b && inv[b] == a;
}

/* The index of an instruction in its thread's code (-1 for none). */
static long instr_index(const sc_thread *th, const sc_instr *in) {
  return in ? (long)(in - th->code) : -1;
}

/* Whether register r of thread th is an observed term. */
static bool observed_reg(const sc_result *r, int th, int reg) {
  for (int i = 0; i < r->nobserved; i++)
    if (r->observed[i].kind == SC_LVAL_REG && r->observed[i].thread == th &&
        r->observed[i].reg == reg)
      return true;
  return false;
}

/* Whether trace a of thread i and trace b of thread j are the same run up
 * to the locations (recorded in map/inv). */
static bool same_trace(const sym_finder *f, int i, const sc_trace *a, int j,
                       const sc_trace *b, int *map, int *inv) {
  const sc_thread *ti = &f->t->threads[i], *tj = &f->t->threads[j];
  if (a->nevents != b->nevents || a->stuck != b->stuck || a->spin_from != b->spin_from ||
      a->infix_from != b->infix_from || instr_index(ti, a->fault) != instr_index(tj, b->fault) ||
      a->fault_address != b->fault_address)
    return false;
  for (int k = 0; k < a->nevents; k++) {
    const sc_trace_event *x = &a->events[k], *y = &b->events[k];
    if (x->kind != y->kind || x->pc != y->pc || x->value != y->value ||
        x->rmw_partner != y->rmw_partner || x->addr_deps != y->addr_deps ||
        x->data_deps != y->data_deps || x->ctrl_deps != y->ctrl_deps ||
        x->nbar_ops != y->nbar_ops ||
        memcmp(x->bar_ops, y->bar_ops, sizeof x->bar_ops) != 0 ||
        (x->loc != x->vloc) || (y->loc != y->vloc) ||
        (x->instr == NULL) != (y->instr == NULL) ||
        (x->instr && !same_instruction(x->instr, y->instr)) ||
        !map_loc(map, inv, x->loc, y->loc))
      return false;
  }
  for (int reg = 0; reg < ti->nregs; reg++)
    if (observed_reg(f->r, i, reg) && a->final_regs[reg] != b->final_regs[reg])
      return false;
  return true;
}

/* The location map under which thread i's traces are thread j's, index by
 * index; NULL when there is none. */
static int *pair_location_map(const sym_finder *f, int i, int j) {
  const sc_thread_traces *a = &f->all[i], *b = &f->all[j];
  if (a->ntraces != b->ntraces || f->t->threads[i].ninstrs != f->t->threads[j].ninstrs ||
      f->t->threads[i].nregs != f->t->threads[j].nregs)
    return NULL;
  int *map = sci_alloc_atomic(sizeof(int) * 2 * (size_t)(f->nlocs + 1));
  int *inv = map + f->nlocs + 1;
  memset(map, -1, sizeof(int) * 2 * (size_t)(f->nlocs + 1));
  for (int k = 0; k < a->ntraces; k++)
    if (!same_trace(f, i, &a->traces[k], j, &b->traces[k], map, inv))
      return NULL;
  return map;
}

/* Whether thread i, given image j, keeps the scope tree with the threads
 * placed before it. */
static bool keeps_scopes(const sym_finder *f, int i, int j) {
  const sc_thread *th = f->t->threads;
  for (int k = 0; k < f->n; k++) {
    if (f->thread[k] < 0 || k == i)
      continue;
    for (int l = 0; l < SC_LEVEL_COUNT - 1; l++)
      if ((th[i].place[l] == th[k].place[l]) !=
          (th[j].place[l] == th[f->thread[k]].place[l]))
        return false;
  }
  return true;
}

/* Whether location l and its image look alike to a model. */
static bool same_location(const sc_location *a, const sc_location *b) {
  return a->init.kind == SC_VAL_INT && b->init.kind == SC_VAL_INT && a->init.i == b->init.i &&
         a->region == b->region && a->proxy == b->proxy && a->alias_of == -1 &&
         b->alias_of == -1 && a->size == b->size;
}

/* The image of an observed or condition term. */
static sc_lval image_lval(const sym_finder *f, const int *map, sc_lval v) {
  if (v.kind == SC_LVAL_REG)
    v.thread = f->thread[v.thread];
  else if ((v.kind == SC_LVAL_LOC || v.kind == SC_LVAL_ADDR) && map[v.loc] >= 0)
    v.loc = map[v.loc];
  return v;
}

static void write_lval(sc_strbuf *sb, sc_lval v) {
  switch (v.kind) {
  case SC_LVAL_REG: sci_sb_printf(sb, "r%d:%d", v.thread, v.reg); break;
  case SC_LVAL_LOC: sci_sb_printf(sb, "l%d", v.loc); break;
  case SC_LVAL_CONST: sci_sb_printf(sb, "c%lld", (long long)v.constant); break;
  case SC_LVAL_ADDR: sci_sb_printf(sb, "a%d", v.loc); break;
  }
}

static int by_string(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The operands of a run of one kind of AND or OR, flattened. */
static void flatten(const sc_prop *p, sc_prop_kind kind, const sc_prop ***items, int *n,
                    int *cap) {
  if (p->kind != kind) {
    sci_grow(items, cap, *n + 1, sizeof(const sc_prop *));
    (*items)[(*n)++] = p;
    return;
  }
  flatten(p->a, kind, items, n, cap);
  flatten(p->b, kind, items, n, cap);
}

/* A form of proposition p, its terms mapped (map NULL: as they are), that
 * is the same for propositions equal up to the order of the operands of
 * AND, OR, = and <> and to > for < swapped: two propositions with the same
 * form are equivalent (the converse need not hold: then no symmetry). */
static const char *canonical(const sym_finder *f, const int *map, const sc_prop *p) {
  if (!p)
    return "";
  sc_strbuf sb;
  sci_sb_init(&sb);
  switch (p->kind) {
  case SC_PROP_TRUE: return "T";
  case SC_PROP_FALSE: return "F";
  case SC_PROP_NOT: return sci_printf("!(%s)", canonical(f, map, p->a));
  case SC_PROP_IMPLIES:
    return sci_printf(">(%s,%s)", canonical(f, map, p->a), canonical(f, map, p->b));
  case SC_PROP_AND:
  case SC_PROP_OR: {
    const sc_prop **items = NULL;
    int n = 0, cap = 0;
    flatten(p, p->kind, &items, &n, &cap);
    const char **forms = sci_alloc(sizeof(char *) * (size_t)(n + 1));
    for (int i = 0; i < n; i++)
      forms[i] = canonical(f, map, items[i]);
    qsort(forms, (size_t)n, sizeof(char *), by_string);
    sci_sb_printf(&sb, "%c(", p->kind == SC_PROP_AND ? '&' : '|');
    for (int i = 0; i < n; i++)
      sci_sb_printf(&sb, "%s%s", i ? "," : "", forms[i]);
    sci_sb_printf(&sb, ")");
    return sb.data;
  }
  default: break;
  }
  sc_lval a = map ? image_lval(f, map, p->lhs) : p->lhs;
  sc_lval b = map ? image_lval(f, map, p->rhs) : p->rhs;
  sc_prop_kind k = p->kind;
  if (k == SC_PROP_GT || k == SC_PROP_GE) { /* a > b is b < a */
    sc_lval c = a;
    a = b;
    b = c;
    k = k == SC_PROP_GT ? SC_PROP_LT : SC_PROP_LE;
  }
  sc_strbuf x, y;
  sci_sb_init(&x);
  sci_sb_init(&y);
  write_lval(&x, a);
  write_lval(&y, b);
  bool swap = (k == SC_PROP_EQ || k == SC_PROP_NE) && strcmp(x.data, y.data) > 0;
  sci_sb_printf(&sb, "%d(%s,%s)", (int)k, swap ? y.data : x.data, swap ? x.data : y.data);
  return sb.data;
}

/* The observed terms' images under the permutation being built, in *out;
 * false when one is not observed. */
static bool observed_images(const sym_finder *f, const int *map, int *out) {
  const sc_result *r = f->r;
  for (int i = 0; i < r->nobserved; i++) {
    sc_lval v = image_lval(f, map, r->observed[i]);
    out[i] = -1;
    for (int k = 0; k < r->nobserved && out[i] < 0; k++) {
      const sc_lval *o = &r->observed[k];
      if (o->kind == v.kind && o->loc == v.loc &&
          (v.kind != SC_LVAL_REG || (o->thread == v.thread && o->reg == v.reg)))
        out[i] = k;
    }
    if (out[i] < 0)
      return false;
  }
  return true;
}

/* A complete permutation: kept when its location map keeps the memory,
 * the observed terms and the condition. */
static void complete(sym_finder *f, const int *map) {
  for (int l = 0; l < f->nlocs; l++)
    if (map[l] >= 0 && map[l] != l && !same_location(&f->t->locs[l], &f->t->locs[map[l]]))
      return;
  int *obs = sci_alloc_atomic(sizeof(int) * (size_t)(f->r->nobserved + 1));
  if (!observed_images(f, map, obs) || strcmp(canonical(f, map, f->t->cond), f->cond) != 0)
    return;
  if (f->order == MAX_GROUP) {
    f->gave_up = true;
    return;
  }
  sci_grow(&f->group, &f->cap, f->order + 1, sizeof(sym_perm));
  int *thread = sci_alloc_atomic(sizeof(int) * (size_t)(f->n + 1));
  memcpy(thread, f->thread, sizeof(int) * (size_t)f->n);
  f->group[f->order++] = (sym_perm){.thread = thread, .observed = obs};
}

/* Every image of thread i on, the threads below placed (depth i). */
static void place(sym_finder *f, int i) {
  if (f->gave_up || ++f->tries > MAX_TRIES) {
    f->gave_up = true;
    return;
  }
  size_t stride = (size_t)f->nlocs + 1;
  const int *map = f->loc_map + (size_t)i * stride, *inv = f->loc_inv + (size_t)i * stride;
  if (i == f->n) {
    complete(f, map);
    return;
  }
  int *next = f->loc_map + (size_t)(i + 1) * stride, *next_inv = f->loc_inv + (size_t)(i + 1) * stride;
  for (int j = 0; j < f->n; j++) {
    const int *pm = f->pair_map[i * f->n + j];
    if (f->used[j] || !pm || !keeps_scopes(f, i, j))
      continue;
    memcpy(next, map, sizeof(int) * stride);
    memcpy(next_inv, inv, sizeof(int) * stride);
    bool ok = true;
    for (int l = 0; l < f->nlocs && ok; l++)
      ok = pm[l] < 0 || map_loc(next, next_inv, l, pm[l]);
    if (!ok)
      continue;
    f->thread[i] = j;
    f->used[j] = true;
    place(f, i + 1);
    f->thread[i] = -1;
    f->used[j] = false;
  }
}

/* Whether symmetry may be used at all with these options and this test
 * (module comment: nothing may depend on the order beyond the first). */
static bool symmetry_allowed(const sc_test *t, const sc_sim_options *o) {
  if (o->symmetry_off || o->show != SC_SHOW_NONE ||
      (o->speedcheck != SC_SPEEDCHECK_FALSE && o->speedcheck != SC_SPEEDCHECK_VERDICTS) ||
      o->through || t->filter || t->nthreads < 2)
    return false;
  for (int l = 0; l < SC_PROGRESS_LEVELS; l++)
    if (o->progress_model.at[l] != SC_PROGRESS_FAIR)
      return false; /* HSA, LOBE: the lowest id matters */
  for (int l = 0; l < t->nlocs; l++)
    if (t->locs[l].alias_of != -1)
      return false;
  return true;
}

sim_symmetry *sci_sim_symmetry(const sc_test *t, const sc_thread_traces *all,
                               const sc_result *r, const sc_sim_options *o) {
  int n = t->nthreads, nl = t->nlocs;
  if (!symmetry_allowed(t, o) || (long)n * n * (nl + 1) > MAX_PAIR_MAP_ENTRIES)
    return NULL;
  sym_finder f = {.t = t, .all = all, .r = r, .n = n, .nlocs = nl};
  f.pair_map = sci_alloc(sizeof(int *) * (size_t)(n * n + 1));
  bool any = false;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      f.pair_map[i * n + j] = pair_location_map(&f, i, j);
      any |= i != j && f.pair_map[i * n + j];
    }
  if (!any)
    return NULL;
  f.cond = canonical(&f, NULL, t->cond);
  f.thread = sci_alloc_atomic(sizeof(int) * (size_t)(n + 1));
  f.used = sci_alloc_atomic(sizeof(bool) * (size_t)(n + 1));
  memset(f.thread, -1, sizeof(int) * (size_t)(n + 1));
  memset(f.used, 0, sizeof(bool) * (size_t)(n + 1));
  size_t level = sizeof(int) * (size_t)(n + 1) * (size_t)(nl + 1);
  f.loc_map = sci_alloc_atomic(level);
  f.loc_inv = sci_alloc_atomic(level);
  memset(f.loc_map, -1, level);
  memset(f.loc_inv, -1, level);
  place(&f, 0);
  if (f.gave_up || f.order < 2)
    return NULL;
  /* the search meets the identity first: every thread's first choice is
   * itself, whose map is the identity on what it touches */
  for (int i = 0; i < n; i++)
    if (f.group[0].thread[i] != i)
      return NULL;
  sim_symmetry *y = sci_alloc(sizeof *y);
  *y = (sim_symmetry){.n = n, .nobserved = r->nobserved, .g = f.group, .order = f.order};
  y->images = sci_alloc_atomic(sizeof(int) * (size_t)(f.order + 1));
  y->scratch = sci_alloc_atomic(sizeof(int) * (size_t)f.order * (size_t)(n + 1));
  y->values = sci_alloc_atomic(sizeof(int64_t) * (size_t)(r->nobserved + 1));
  return y;
}

/* ---- Representatives ---------------------------------------------------- */

/* The odometer's order: the last thread is the most significant digit. */
static int compare_picks(const int *a, const int *b, int n) {
  for (int i = n - 1; i >= 0; i--)
    if (a[i] != b[i])
      return a[i] < b[i] ? -1 : 1;
  return 0;
}

bool sci_sim_symmetry_representative(sim_symmetry *y, const int *pick, bool per_state) {
  int n = y->n;
  y->nimages = 0;
  for (int k = 1; k < y->order; k++) {
    int *image = y->scratch + (size_t)k * (size_t)n;
    for (int i = 0; i < n; i++)
      image[y->g[k].thread[i]] = pick[i]; /* trace index by index */
    int c = compare_picks(image, pick, n);
    if (c < 0)
      return false; /* an earlier combination of the orbit stands for it */
    if (per_state) {
      y->images[y->nimages++] = k;
      continue;
    }
    if (c == 0)
      continue; /* pick itself: its executions are counted by the engine */
    bool seen = false;
    for (int m = 0; m < y->nimages && !seen; m++)
      seen = compare_picks(y->scratch + (size_t)y->images[m] * (size_t)n, image, n) == 0;
    if (!seen)
      y->images[y->nimages++] = k;
  }
  return true;
}

int sci_sim_symmetry_nimages(const sim_symmetry *y) { return y ? y->nimages : 0; }

const int64_t *sci_sim_symmetry_image(sim_symmetry *y, int k, const int64_t *values) {
  const int *obs = y->g[y->images[k]].observed;
  for (int i = 0; i < y->nobserved; i++)
    y->values[obs[i]] = values[i];
  return y->values;
}

int sci_sim_symmetry_order(const sim_symmetry *y) { return y ? y->order : 1; }
