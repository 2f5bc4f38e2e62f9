/* gen.c: one litmus test from one cycle of edges, as diy builds it: the
 * edges fix each event's thread, direction and location, the write values
 * follow coherence along the cycle, and the final condition holds exactly
 * when the execution has the cycle.  The test is written as GPU_PTX text
 * and parsed back, so that what we generate is what the parser accepts. */
#define _POSIX_C_SOURCE 200809L
#include "gen/gen.h"

#include "util/error.h"
#include "util/gcmem.h"
#include "util/oom.h"
#include "util/strbuf.h"

#include <string.h>

typedef struct cycle {
  gen_edge *e;    /* e[i] leads from event i to event i+1 (mod n) */
  gen_annot *ann; /* ann[i]: annotation of event i */
  int n;
} cycle;

/* What the build works out for each event. */
typedef struct event {
  char dir;
  int thread, loc;
  int value;      /* written value; for reads the value the cycle reads,
                     -1 when the cycle does not say */
  int reg;        /* reads: destination register number */
} event;

static const char *const loc_names = "xyzwabcdefghijkl";

/* ---- Reading the cycle ---------------------------------------------------- */

static sc_status cycle_read(const char *text, cycle *c, sc_error **err) {
  char *copy = sci_strdup(text), *save = NULL;
  int cap = 0;
  gen_annot pending = {0};
  bool have_pending = false;
  memset(c, 0, sizeof *c);
  for (char *w = strtok_r(copy, " \t\n,", &save); w;
       w = strtok_r(NULL, " \t\n,", &save)) {
    const char *close = w[0] == '[' ? strchr(w, ']') : NULL;
    if (close && close[1]) { /* "[acquire.gpu]PodRR": split the two */
      if (!sci_gen_annot_read(sci_strndup(w, (size_t)(close - w + 1)), &pending))
        return sci_fail(err, SC_ERR_SYNTAX, "cycle", 1, 1,
                       "expected an annotation such as [ca] or "
                       "[acquire.gpu], found '%s'", w);
      have_pending = true;
      w += close - w + 1;
    } else if (w[0] == '[') {
      if (!sci_gen_annot_read(w, &pending))
        return sci_fail(err, SC_ERR_SYNTAX, "cycle", 1, 1,
                       "expected an annotation such as [ca] or "
                       "[acquire.gpu], found '%s'", w);
      have_pending = true;
      continue;
    }
    if (c->n == cap) {
      int need = c->n + 1, cap2 = cap;
      sci_grow(&c->e, &cap, need, sizeof(gen_edge));
      sci_grow(&c->ann, &cap2, need, sizeof(gen_annot));
    }
    if (!sci_gen_edge_read(w, &c->e[c->n]))
      return sci_fail(err, SC_ERR_SYNTAX, "cycle", 1, 1,
                     "expected an edge such as Rfe, PodWR, DpAddrdW or "
                     "FenceGldWW, found '%s'", w);
    c->ann[c->n] = have_pending ? pending : (gen_annot){0};
    have_pending = false;
    c->n++;
  }
  if (c->n == 0)
    return sci_fail(err, SC_ERR_SEMANTIC, "cycle", 1, 1, "empty cycle");
  if (have_pending) /* annotations at the end belong to the first event */
    c->ann[0] = pending;
  return SC_OK;
}

/* Rotate so that the last edge is external: threads are then contiguous
 * runs of events, thread 0 first. */
static void rotate_to_thread_start(cycle *c) {
  int last = -1;
  for (int i = 0; i < c->n; i++)
    if (c->e[i].external)
      last = i;
  int shift = (last + 1) % c->n;
  gen_edge *e = sci_alloc(sizeof(gen_edge) * (size_t)c->n);
  gen_annot *a = sci_alloc(sizeof(gen_annot) * (size_t)c->n);
  for (int i = 0; i < c->n; i++) {
    e[i] = c->e[(i + shift) % c->n];
    a[i] = c->ann[(i + shift) % c->n];
  }
  c->e = e;
  c->ann = a;
}

static sc_status check_shape(const cycle *c, sc_error **err) {
  int external = 0;
  for (int i = 0; i < c->n; i++) {
    const gen_edge *a = &c->e[i], *b = &c->e[(i + 1) % c->n];
    if (a->dst != b->src)
      return sci_fail(err, SC_ERR_SEMANTIC, "cycle", 1, 1,
                     "%s ends on a %s but %s starts from a %s", a->word,
                     a->dst == 'R' ? "read" : "write", b->word,
                     b->src == 'R' ? "read" : "write");
    external += a->external;
  }
  if (external < 2)
    return sci_fail(err, SC_ERR_SEMANTIC, "cycle", 1, 1,
                   "a cycle needs at least two external edges (Rfe, Fre, "
                   "Coe)");
  return SC_OK;
}

/* Cache operators of loads and of stores differ (PTX ISA "Cache
 * Operators"); release is for writes, acquire for reads; an atom (Rmw)
 * takes no cache operator, and its two halves one scope. */
static sc_status check_annotations(const cycle *c, sc_error **err) {
  for (int i = 0; i < c->n; i++) {
    const gen_annot *a = &c->ann[i];
    bool read = c->e[i].src == 'R';
    const gen_edge *in = &c->e[(i + c->n - 1) % c->n];
    bool atom = c->e[i].kind == GEN_RMW || in->kind == GEN_RMW;
    const gen_annot *other = c->e[i].kind == GEN_RMW ? &c->ann[(i + 1) % c->n]
                                                      : NULL;
    if ((atom && a->cacheop) ||
        (other && a->scope && other->scope && a->scope != other->scope))
      return sci_fail(err, SC_ERR_SEMANTIC, "cycle", 1, 1,
                     "%s does not fit the atom of %s", a->word,
                     c->e[i].kind == GEN_RMW ? c->e[i].word : in->word);
    const char *ok = read ? "ca cg cs lu cv" : "wb cg cs wt";
    bool bad_cop = a->cacheop && !strstr(ok, sci_cacheop_name(a->cacheop));
    bool bad_sem = a->sem == (read ? SC_SEM_RELEASE : SC_SEM_ACQUIRE) ||
                   a->sem == SC_SEM_ACQ_REL || a->sem == SC_SEM_SC;
    if (bad_cop || bad_sem)
      return sci_fail(err, SC_ERR_SEMANTIC, "cycle", 1, 1,
                     "%s does not fit the %s that %s starts from", a->word,
                     read ? "read" : "write", c->e[i].word);
  }
  return SC_OK;
}

/* ---- Threads, locations, values -------------------------------------------- */

static sc_status place_locations(const cycle *c, event *ev, int *nlocs,
                                 sc_error **err) {
  int k = 0;
  for (int i = 0; i < c->n; i++)
    k += !c->e[i].same_loc;
  if (k == 1)
    return sci_fail(err, SC_ERR_SEMANTIC, "cycle", 1, 1,
                   "one edge leaves a location and none comes back to it");
  int loc = 0;
  for (int i = 0; i < c->n; i++) {
    ev[i].loc = k ? loc % k : 0;
    loc += !c->e[i].same_loc;
  }
  *nlocs = k ? k : 1;
  return SC_OK;
}

/* A write that the cycle puts before another write of its location:
 * through co, or through rf then fr. */
static bool has_co_successor(const cycle *c, int i) {
  const gen_edge *out = &c->e[i];
  if (out->kind == GEN_CO)
    return true;
  if (out->kind != GEN_RF)
    return false;
  gen_kind next = c->e[(i + 1) % c->n].kind;
  return next == GEN_FR || next == GEN_RMW;
}

/* The write before write i in cycle order (itself when it is alone). */
static int previous_write(const cycle *c, const event *ev, int i) {
  for (int j = 1; j <= c->n; j++) {
    int p = (i + c->n - j) % c->n;
    if (ev[p].dir == 'W')
      return p;
  }
  return i;
}

/* Where the numbering of writes starts: the event an edge from another
 * location leads to; when every edge stays on one location (coherence
 * cycles), a write that no earlier write is put before. */
static int run_start(const cycle *c, const event *ev, int x) {
  for (int i = 0; i < c->n; i++)
    if (ev[i].loc == x && !c->e[(i + c->n - 1) % c->n].same_loc)
      return i;
  for (int i = 0; i < c->n; i++)
    if (ev[i].dir == 'W' && !has_co_successor(c, previous_write(c, ev, i)))
      return i;
  return 0;
}

/* Writes of a location take 1, 2, ... in cycle order from the start of
 * its run, so that the cycle's co and fr edges go from smaller to larger
 * values. */
static void number_writes(const cycle *c, event *ev, int nlocs) {
  for (int x = 0; x < nlocs; x++) {
    int start = run_start(c, ev, x), next = 1;
    for (int j = 0; j < c->n; j++) {
      int i = (start + j) % c->n;
      if (ev[i].loc == x && ev[i].dir == 'W')
        ev[i].value = next++;
    }
  }
}

/* The value a read must return for the cycle: the write an rf edge brings,
 * else the write before the one an fr edge leads to, else the write (or
 * read) a same-location po edge comes from. */
static sc_status read_values(const cycle *c, event *ev, sc_error **err) {
  /* two passes: a read that takes the value of the read before it (PosRR)
   * may come first in the cycle's order */
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < c->n; i++) {
      if (ev[i].dir != 'R')
        continue;
      int prev = (i + c->n - 1) % c->n, next = (i + 1) % c->n;
      const gen_edge *in = &c->e[prev], *out = &c->e[i];
      int v = -1;
      if (in->kind == GEN_RF)
        v = ev[prev].value;
      else if (out->kind == GEN_FR || out->kind == GEN_RMW)
        v = ev[next].value - 1;
      else if (in->same_loc)
        v = ev[prev].value;
      if (in->kind == GEN_RF &&
          (out->kind == GEN_FR || out->kind == GEN_RMW) &&
          ev[prev].value != ev[next].value - 1)
        return sci_fail(err, SC_ERR_SEMANTIC, "cycle", 1, 1,
                       "%s then %s: the read cannot both read from one "
                       "write and be before it in coherence", in->word,
                       out->word);
      ev[i].value = v;
    }
  return SC_OK;
}

/* The write whose value the location must end with: of the writes the
 * cycle puts before no other, the last in the numbering; -1 when it needs
 * no final check (one write), -2 when the cycle orders every write after
 * another (no final state shows it). */
static int final_write(const cycle *c, const event *ev, int x) {
  int writes = 0, last = -2;
  for (int i = 0; i < c->n; i++)
    if (ev[i].loc == x && ev[i].dir == 'W') {
      writes++;
      if (!has_co_successor(c, i) && (last < 0 || ev[i].value > ev[last].value))
        last = i;
    }
  return writes < 2 ? -1 : last;
}

/* ---- Scope tree and regions ------------------------------------------------ */

static int find(int *parent, int a) {
  while (parent[a] != a)
    a = parent[a] = parent[parent[a]];
  return a;
}

typedef struct placement {
  int *cta, *warp; /* union-find over threads */
} placement;

static sc_status place_threads(const cycle *c, const event *ev, int nthreads,
                               placement *p, sc_error **err) {
  p->cta = sci_alloc_atomic(sizeof(int) * (size_t)nthreads);
  p->warp = sci_alloc_atomic(sizeof(int) * (size_t)nthreads);
  for (int t = 0; t < nthreads; t++)
    p->cta[t] = p->warp[t] = t;
  for (int i = 0; i < c->n; i++) {
    const gen_edge *e = &c->e[i];
    int a = ev[i].thread, b = ev[(i + 1) % c->n].thread;
    if (!e->external || e->place == GEN_OTHER_CTA)
      continue;
    p->cta[find(p->cta, a)] = find(p->cta, b);
    if (e->place == GEN_SAME_WARP)
      p->warp[find(p->warp, a)] = find(p->warp, b);
  }
  for (int i = 0; i < c->n; i++) {
    const gen_edge *e = &c->e[i];
    int a = ev[i].thread, b = ev[(i + 1) % c->n].thread;
    bool same_cta = find(p->cta, a) == find(p->cta, b);
    bool same_warp = find(p->warp, a) == find(p->warp, b);
    if (e->external && ((e->place == GEN_OTHER_CTA && same_cta) ||
                        (e->place == GEN_SAME_CTA && same_warp)))
      return sci_fail(err, SC_ERR_SEMANTIC, "cycle", 1, 1,
                     "the placements of the external edges contradict "
                     "each other (%s)", e->word);
  }
  return SC_OK;
}

static sc_status choose_regions(const cycle *c, const event *ev, int nlocs,
                                const placement *p, sc_space *region,
                                sc_error **err) {
  for (int x = 0; x < nlocs; x++)
    region[x] = SC_SPACE_GLOBAL;
  for (int i = 0; i < c->n; i++)
    if (c->ann[i].region == SC_SPACE_SHARED)
      region[ev[i].loc] = SC_SPACE_SHARED;
  for (int i = 0; i < c->n; i++)
    for (int j = 0; j < c->n; j++)
      if (ev[i].loc == ev[j].loc && region[ev[i].loc] == SC_SPACE_SHARED &&
          find(p->cta, ev[i].thread) != find(p->cta, ev[j].thread))
        return sci_fail(err, SC_ERR_SEMANTIC, "cycle", 1, 1,
                       "location %c is shared but threads of different "
                       "CTAs access it", loc_names[ev[i].loc]);
  return SC_OK;
}

/* ---- Writing the test ------------------------------------------------------ */

typedef struct writer {
  const cycle *c;
  event *ev;
  int nthreads, nlocs;
  sc_space *region;
  placement place;
  sc_strbuf *code;   /* per thread: instructions, one per line */
  sc_strbuf *decls;  /* per thread: register declarations */
  int *nregs, *npreds;
} writer;

static int new_reg(writer *w, int t, const char *type, const char *init) {
  int r = w->nregs[t]++;
  sci_sb_printf(&w->decls[t], "%d:.reg .%s r%d%s%s;\n", t, type, r,
               init ? " = " : "", init ? init : "");
  return r;
}

static int new_pred(writer *w, int t) {
  int p = w->npreds[t]++;
  sci_sb_printf(&w->decls[t], "%d:.reg .pred p%d;\n", t, p);
  return p;
}

static void emit(writer *w, int t, const char *line) {
  sci_sb_puts(&w->code[t], line);
  sci_sb_putc(&w->code[t], '\n');
}

/* Qualifiers of an access: the annotation's, else .cg (the paper's
 * model assumes .cg, Sec. 5.5). */
static const char *access_quals(const gen_annot *a) {
  sc_strbuf sb;
  sci_sb_init(&sb);
  if (a->sem) sci_sb_printf(&sb, ".%s", sci_sem_name(a->sem));
  if (a->scope) sci_sb_printf(&sb, ".%s", sci_scope_name(a->scope));
  if (a->cacheop) sci_sb_printf(&sb, ".%s", sci_cacheop_name(a->cacheop));
  else if (!a->sem) sci_sb_puts(&sb, ".cg");
  return sb.data;
}

/* The paper's dependency (Fig. 13b): and with 0x80000000 gives 0 for
 * every value the test writes, but ptxas cannot know it. */
static int masked(writer *w, int t, int from) {
  int m = new_reg(w, t, "b32", NULL);
  emit(w, t, sci_printf("and.b32 r%d,r%d,0x80000000", m, from));
  return m;
}

/* The atom of an Rmw edge: its read's annotation and its write's, merged
 * (acquire and release make acq_rel). */
static const char *atom_quals(const gen_annot *r, const gen_annot *wr) {
  sc_sem sem = r->sem ? r->sem : wr->sem;
  if (r->sem == SC_SEM_ACQUIRE && wr->sem == SC_SEM_RELEASE)
    sem = SC_SEM_ACQ_REL;
  else if (r->sem == SC_SEM_RELAXED && wr->sem == SC_SEM_RELEASE)
    sem = SC_SEM_RELEASE;
  sc_scope scope = r->scope ? r->scope : wr->scope;
  return sci_printf("%s%s%s%s", sem ? "." : "", sem ? sci_sem_name(sem) : "",
                   scope ? "." : "", scope ? sci_scope_name(scope) : "");
}

static void write_event(writer *w, int i) {
  const cycle *c = w->c;
  event *e = &w->ev[i];
  int t = e->thread;
  const gen_edge *in = &c->e[(i + c->n - 1) % c->n];
  if (in->kind == GEN_RMW) /* written by the atom of the read before */
    return;
  bool dep = !in->external && (in->kind == GEN_ADDR || in->kind == GEN_DATA ||
                               in->kind == GEN_CTRL);
  int src = dep ? w->ev[(i + c->n - 1) % c->n].reg : -1;
  if (!in->external && in->kind == GEN_FENCE)
    emit(w, t, in->fence);
  int addr = new_reg(w, t, "b64", sci_printf("%c", loc_names[e->loc]));
  const char *guard = "";
  if (dep && in->kind == GEN_ADDR) {
    int m = masked(w, t, src), wide = new_reg(w, t, "u64", NULL);
    emit(w, t, sci_printf("cvt.u64.u32 r%d,r%d", wide, m));
    emit(w, t, sci_printf("add.u64 r%d,r%d,r%d", addr, addr, wide));
  } else if (dep && in->kind == GEN_CTRL) {
    int m = masked(w, t, src), p = new_pred(w, t);
    emit(w, t, sci_printf("setp.eq.s32 p%d,r%d,0", p, m));
    guard = sci_printf("@p%d ", p);
  }
  const char *q = access_quals(&c->ann[i]);
  if (c->e[i].kind == GEN_RMW) {
    e->reg = new_reg(w, t, "b32", NULL);
    emit(w, t, sci_printf("%satom%s.exch.b32 r%d,[r%d],%d", guard,
                         atom_quals(&c->ann[i], &c->ann[(i + 1) % c->n]),
                         e->reg, addr, w->ev[(i + 1) % c->n].value));
    return;
  }
  if (e->dir == 'R') {
    e->reg = new_reg(w, t, "s32", NULL);
    emit(w, t, sci_printf("%sld%s.s32 r%d,[r%d]", guard, q, e->reg, addr));
    return;
  }
  int v = new_reg(w, t, "s32", NULL);
  if (dep && in->kind == GEN_DATA)
    emit(w, t, sci_printf("add.s32 r%d,r%d,%d", v, masked(w, t, src),
                         e->value));
  else
    emit(w, t, sci_printf("mov.s32 r%d,%d", v, e->value));
  emit(w, t, sci_printf("%sst%s.s32 [r%d],r%d", guard, q, addr, v));
}

/* Split a thread's code into its lines. */
static char **lines_of(const char *text, int *n) {
  char **lines = NULL;
  int cap = 0;
  *n = 0;
  for (const char *s = text; *s;) {
    const char *nl = strchr(s, '\n');
    sci_grow(&lines, &cap, *n + 1, sizeof(char *));
    lines[(*n)++] = sci_strndup(s, (size_t)(nl - s));
    s = nl + 1;
  }
  return lines;
}

static void put_program(sc_strbuf *sb, const writer *w) {
  char ***lines = sci_alloc(sizeof(char **) * (size_t)w->nthreads);
  int *n = sci_alloc_atomic(sizeof(int) * (size_t)w->nthreads), rows = 0;
  for (int t = 0; t < w->nthreads; t++) {
    lines[t] = lines_of(w->code[t].data, &n[t]);
    if (n[t] > rows)
      rows = n[t];
  }
  for (int r = -1; r < rows; r++)
    for (int t = 0; t < w->nthreads; t++) {
      const char *cell = r < 0 ? sci_printf("P%d", t)
                         : r < n[t] ? lines[t][r] : "";
      sci_sb_printf(sb, " %s %s", cell, t + 1 < w->nthreads ? "|" : ";\n");
    }
}

static void put_scope_tree(sc_strbuf *sb, const writer *w) {
  sci_sb_puts(sb, "\nscopeTree\n(device (kernel");
  for (int cta = 0; cta < w->nthreads; cta++) {
    if (find(w->place.cta, cta) != cta)
      continue;
    sci_sb_puts(sb, " (cta");
    for (int warp = 0; warp < w->nthreads; warp++) {
      if (find(w->place.warp, warp) != warp ||
          find(w->place.cta, warp) != cta)
        continue;
      sci_sb_puts(sb, " (warp");
      for (int t = 0; t < w->nthreads; t++)
        if (find(w->place.warp, t) == warp)
          sci_sb_printf(sb, " P%d", t);
      sci_sb_puts(sb, ")");
    }
    sci_sb_puts(sb, ")");
  }
  sci_sb_puts(sb, "))\n");
}

static void put_condition(sc_strbuf *sb, const writer *w) {
  const char *sep = "\nexists (";
  for (int t = 0; t < w->nthreads; t++)
    for (int i = 0; i < w->c->n; i++)
      if (w->ev[i].thread == t && w->ev[i].dir == 'R' && w->ev[i].value >= 0) {
        sci_sb_printf(sb, "%s%d:r%d=%d", sep, t, w->ev[i].reg, w->ev[i].value);
        sep = " /\\ ";
      }
  for (int x = 0; x < w->nlocs; x++) {
    int f = final_write(w->c, w->ev, x);
    if (f >= 0) {
      sci_sb_printf(sb, "%s%c=%d", sep, loc_names[x], w->ev[f].value);
      sep = " /\\ ";
    }
  }
  sci_sb_puts(sb, strcmp(sep, " /\\ ") == 0 ? ")\n" : "\nexists (true)\n");
}

static const char *cycle_text(const cycle *c) {
  sc_strbuf sb;
  sci_sb_init(&sb);
  for (int i = 0; i < c->n; i++) {
    if (c->ann[i].word)
      sci_sb_printf(&sb, "%s ", c->ann[i].word);
    sci_sb_printf(&sb, "%s%s", c->e[i].word, i + 1 < c->n ? " " : "");
  }
  return sb.data;
}

static const char *write_text(writer *w, const char *name) {
  for (int i = 0; i < w->c->n; i++)
    write_event(w, i);
  sc_strbuf sb;
  sci_sb_init(&sb);
  sci_sb_printf(&sb, "GPU_PTX %s\n\"cycle: %s\"\n{\n", name, cycle_text(w->c));
  for (int x = 0; x < w->nlocs; x++)
    sci_sb_printf(&sb, "%c=0;\n", loc_names[x]);
  for (int t = 0; t < w->nthreads; t++)
    sci_sb_puts(&sb, w->decls[t].data);
  sci_sb_puts(&sb, "}\n");
  put_program(&sb, w);
  put_scope_tree(&sb, w);
  sci_sb_puts(&sb, "\n");
  for (int x = 0; x < w->nlocs; x++)
    sci_sb_printf(&sb, "%c: %s%s", loc_names[x], sci_space_name(w->region[x]),
                 x + 1 < w->nlocs ? ", " : "\n");
  put_condition(&sb, w);
  return sb.data;
}

/* ---- The whole build ------------------------------------------------------- */

static sc_status build(cycle *c, writer *w, sc_error **err) {
  sc_status st;
  if ((st = check_shape(c, err)) != SC_OK ||
      (st = check_annotations(c, err)) != SC_OK)
    return st;
  rotate_to_thread_start(c);
  w->c = c;
  w->ev = sci_alloc(sizeof(event) * (size_t)c->n);
  for (int i = 0, t = 0; i < c->n; i++) {
    w->ev[i].dir = c->e[i].src;
    w->ev[i].thread = t;
    w->ev[i].value = -1;
    t += c->e[i].external;
    w->nthreads = t;
  }
  if ((st = place_locations(c, w->ev, &w->nlocs, err)) != SC_OK)
    return st;
  if (w->nlocs > (int)strlen(loc_names))
    return sci_fail(err, SC_ERR_SEMANTIC, "cycle", 1, 1, "too many locations");
  number_writes(c, w->ev, w->nlocs);
  if ((st = read_values(c, w->ev, err)) != SC_OK)
    return st;
  for (int x = 0; x < w->nlocs; x++)
    if (final_write(c, w->ev, x) == -2)
      return sci_fail(err, SC_ERR_SEMANTIC, "cycle", 1, 1,
                     "the cycle orders every write of %c after another",
                     loc_names[x]);
  if ((st = place_threads(c, w->ev, w->nthreads, &w->place, err)) != SC_OK)
    return st;
  w->region = sci_alloc_atomic(sizeof(sc_space) * (size_t)w->nlocs);
  if ((st = choose_regions(c, w->ev, w->nlocs, &w->place, w->region, err)) !=
      SC_OK)
    return st;
  w->code = sci_alloc(sizeof(sc_strbuf) * (size_t)w->nthreads);
  w->decls = sci_alloc(sizeof(sc_strbuf) * (size_t)w->nthreads);
  w->nregs = sci_alloc(sizeof(int) * (size_t)w->nthreads);
  w->npreds = sci_alloc(sizeof(int) * (size_t)w->nthreads);
  for (int t = 0; t < w->nthreads; t++) {
    sci_sb_init(&w->code[t]);
    sci_sb_init(&w->decls[t]);
  }
  return SC_OK;
}

static sc_status gen_cycle_unguarded(const char *cycle_words, const char *name,
                                     sc_test **out, sc_error **err) {
  *out = NULL;
  cycle c;
  writer w = {0};
  sc_status st = cycle_read(cycle_words, &c, err);
  if (st == SC_OK)
    st = build(&c, &w, err);
  if (st != SC_OK)
    return st;
  if (!name) {
    name = sci_gen_name(c.e, c.ann, c.n);
  }
  const char *text = write_text(&w, name);
  return sc_test_load_string(text, name, NULL, out, err);
}

sc_status sc_gen_cycle(const char *cycle_words, const char *name,
                       sc_test **out, sc_error **err) {
  sc_oom_guard g;
  if (!SC_OOM_ENTER(g))
    return sci_oom_fail(&g, NULL, err);
  sc_status st = gen_cycle_unguarded(cycle_words, name, out, err);
  sci_oom_leave(&g);
  return st;
}
