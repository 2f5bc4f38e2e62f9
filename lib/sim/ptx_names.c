/* ptx_names.c: the names Dat3M's PTX models (ptx-v6.0.cat, ptx-v7.5.cat)
 * see, bound beside herd's: the tags of each event's semantics, scope and
 * proxy, and the relations sr, scta and vloc.  The per-candidate syncbar
 * and sync_fence are chosen by the driver (barrier.c, simulate.c); this
 * file says which fence.sc pairs sync_fence must order.  Dat3M's meaning
 * of each name, as read from its PTX front end and relation analysis, is
 * the table in README's "Names a model sees". */
#include "sim/execution.h"

#include "util/gcmem.h"

/* ---- Tags of an event ------------------------------------------------------ */

typedef enum ptx_order {
  ORD_NONE, ORD_WEAK, ORD_RLX, ORD_ACQ, ORD_REL, ORD_ACQ_REL, ORD_SC
} ptx_order;

static bool is_fence_sc(const sc_instr *in) {
  return in->op == SC_OP_MEMBAR || (in->op == SC_OP_FENCE && in->sem == SC_SEM_SC);
}

/* Dat3M splits an atom or red into a read and a write and gives each the
 * half of the semantics that applies to it: acquire to the read, release
 * to the write, relaxed to the other half (so that both stay strong). */
static ptx_order rmw_order(sc_sem sem, bool is_read) {
  switch (sem) {
  case SC_SEM_ACQ_REL: return is_read ? ORD_ACQ : ORD_REL;
  case SC_SEM_ACQUIRE: return is_read ? ORD_ACQ : ORD_RLX;
  case SC_SEM_RELEASE: return is_read ? ORD_RLX : ORD_REL;
  default: return ORD_RLX; /* relaxed, or no qualifier: PTX's default .relaxed */
  }
}

static ptx_order access_order(const sc_instr *in, bool is_read) {
  if (in->op == SC_OP_ATOM || in->op == SC_OP_RED)
    return rmw_order(in->sem, is_read);
  switch (in->sem) {
  case SC_SEM_VOLATILE: /* the ISA: ld.volatile is ld.relaxed.sys */
  case SC_SEM_RELAXED: return ORD_RLX;
  case SC_SEM_ACQUIRE: return ORD_ACQ;
  case SC_SEM_RELEASE: return ORD_REL;
  default: return ORD_WEAK; /* .weak, or no qualifier */
  }
}

/* The memory order tag of an event.  fence.sc is SC only, not also
 * ACQ_REL: Dat3M tags it so, and its synchronisation goes through
 * sync_fence. */
static ptx_order event_order(const sc_event *e) {
  const sc_instr *in = e->instr;
  if (!in)
    return ORD_NONE; /* initial writes */
  if (e->kind == SC_EV_FENCE) {
    if (is_fence_sc(in))
      return ORD_SC;
    return in->op == SC_OP_FENCE && in->sem == SC_SEM_ACQ_REL ? ORD_ACQ_REL : ORD_NONE;
  }
  if (e->kind == SC_EV_READ || e->kind == SC_EV_WRITE)
    return access_order(in, e->kind == SC_EV_READ);
  return ORD_NONE;
}

/* The scope tag: strong accesses and fence.sc/acq_rel carry theirs; weak
 * accesses, barriers and fence.proxy none.  membar.gl is the GPU scope,
 * ld.volatile the system scope; .cluster (newer than Dat3M's models) none. */
static sc_scope event_scope(const sc_event *e) {
  const sc_instr *in = e->instr;
  if (!in || event_order(e) == ORD_WEAK || event_order(e) == ORD_NONE)
    return SC_SCOPE_NONE;
  if (in->sem == SC_SEM_VOLATILE)
    return SC_SCOPE_SYS;
  if (in->scope == SC_SCOPE_NONE && (in->op == SC_OP_ATOM || in->op == SC_OP_RED))
    return SC_SCOPE_GPU; /* the ISA's default scope of atom and red */
  return in->scope == SC_SCOPE_CLUSTER ? SC_SCOPE_NONE : in->scope;
}

/* The proxy tag: accesses through their instruction's proxy (suld and
 * sust: surface, tld: texture, cold: constant, the rest generic), fence.sc
 * and fence.acq_rel the generic proxy, fence.proxy.KIND its kind (ALIAS
 * for fence.proxy.alias).  Initial writes and barriers have none. */
static int event_proxy(const sc_event *e) {
  const sc_instr *in = e->instr;
  if (!in || e->kind == SC_EV_BARRIER)
    return -1;
  if (e->kind == SC_EV_FENCE && in->op != SC_OP_FENCE_PROXY)
    return event_order(e) == ORD_NONE ? -1 : SC_PROXY_GENERIC;
  return (int)in->proxy;
}

typedef bool (*tag_pred)(const sc_event *e, int arg);

static bool has_order(const sc_event *e, int order) {
  return (int)event_order(e) == order;
}
static bool has_scope(const sc_event *e, int scope) {
  return (int)event_scope(e) == scope;
}
static bool has_proxy(const sc_event *e, int proxy) {
  return event_proxy(e) == proxy;
}

static void bind_tag(const sc_execution *x, sc_cat_env *env, const char *name,
                     tag_pred pred, int arg) {
  sc_set *s = sci_set_new(x->nevents);
  for (int i = 0; i < x->nevents; i++)
    if (pred(&x->events[i], arg))
      sc_set_add(s, i);
  sci_cat_env_bind_set(env, name, s);
}

static void bind_tags(const sc_execution *x, sc_cat_env *env) {
  static const struct { const char *name; tag_pred pred; int arg; } tags[] = {
      {"WEAK", has_order, ORD_WEAK},       {"RLX", has_order, ORD_RLX},
      {"ACQ", has_order, ORD_ACQ},         {"REL", has_order, ORD_REL},
      {"ACQ_REL", has_order, ORD_ACQ_REL}, {"SC", has_order, ORD_SC},
      {"CTA", has_scope, SC_SCOPE_CTA},    {"GPU", has_scope, SC_SCOPE_GPU},
      {"SYS", has_scope, SC_SCOPE_SYS},    {"GEN", has_proxy, SC_PROXY_GENERIC},
      {"SUR", has_proxy, SC_PROXY_SURFACE}, {"TEX", has_proxy, SC_PROXY_TEXTURE},
      {"CON", has_proxy, SC_PROXY_CONSTANT}, {"ALIAS", has_proxy, SC_PROXY_ALIAS},
  };
  for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++)
    bind_tag(x, env, tags[i].name, tags[i].pred, tags[i].arg);
}

/* ---- Relations ---------------------------------------------------------------- */

/* Whether thread b is in thread a's instance of `scope` (the GPU scope is
 * the device, as the ISA says; every thread shares the system). */
static bool in_scope_of(const sc_test *t, int a, int b, sc_scope scope) {
  const sc_thread *ta = &t->threads[a], *tb = &t->threads[b];
  switch (scope) {
  case SC_SCOPE_CTA: return ta->place[SC_LEVEL_CTA] == tb->place[SC_LEVEL_CTA];
  case SC_SCOPE_GPU: return ta->place[SC_LEVEL_DEVICE] == tb->place[SC_LEVEL_DEVICE];
  case SC_SCOPE_SYS: return true;
  default: return false;
  }
}

static bool same_scope(const sc_test *t, const sc_event *ea, const sc_event *eb) {
  sc_scope sa = event_scope(ea), sb = event_scope(eb);
  if (ea->thread < 0 || eb->thread < 0 || !sa || !sb)
    return false;
  return in_scope_of(t, ea->thread, eb->thread, sa) && in_scope_of(t, eb->thread, ea->thread, sb);
}

bool sci_exec_same_scope(const sc_execution *x, int a, int b) {
  return same_scope(x->test, &x->events[a], &x->events[b]);
}

/* The location whose generic address an access uses: a name that aliases
 * another through a proxy (s @ surface aliases x) shares its target's;
 * a generic alias (y @ generic aliases x) is an address of its own. */
static int generic_loc(const sc_test *t, int l) {
  for (int hops = 0; hops <= t->nlocs && t->locs[l].alias_of >= 0 &&
                     t->locs[l].proxy != SC_PROXY_GENERIC; hops++)
    l = t->locs[l].alias_of;
  return l;
}

static void bind_relations(const sc_execution *x, sc_cat_env *env) {
  int n = x->nevents;
  sc_rel *sr = sci_rel_new(n), *scta = sci_rel_new(n), *vloc = sci_rel_new(n);
  for (int a = 0; a < n; a++)
    for (int b = 0; b < n; b++) {
      const sc_event *ea = &x->events[a], *eb = &x->events[b];
      if (sci_exec_same_scope(x, a, b))
        sc_rel_add(sr, a, b);
      if (ea->thread >= 0 && eb->thread >= 0 &&
          in_scope_of(x->test, ea->thread, eb->thread, SC_SCOPE_CTA))
        sc_rel_add(scta, a, b);
      if (ea->vloc >= 0 && eb->vloc >= 0 &&
          generic_loc(x->test, ea->vloc) == generic_loc(x->test, eb->vloc))
        sc_rel_add(vloc, a, b);
    }
  sci_cat_env_bind_rel(env, "sr", sr);
  sci_cat_env_bind_rel(env, "scta", scta);
  sci_cat_env_bind_rel(env, "vloc", vloc);
}

/* strong-m of both models: a write RLX or REL, a read RLX or ACQ. */
static bool strong_access(const sc_event *e) {
  ptx_order o = event_order(e);
  return e->kind == SC_EV_WRITE ? o == ORD_RLX || o == ORD_REL
                                : e->kind == SC_EV_READ && (o == ORD_RLX || o == ORD_ACQ);
}

bool sci_exec_morally_strong_accesses(const sc_test *t, const sc_event *a,
                                      const sc_event *b) {
  return a->thread != b->thread && strong_access(a) && strong_access(b) &&
         same_scope(t, a, b) &&                                 /* ms1 */
         event_proxy(a) == event_proxy(b) &&                    /* 7.5's ms2 */
         event_proxy(a) != SC_PROXY_ALIAS && event_proxy(a) >= 0 &&
         a->loc >= 0 && a->loc == b->loc &&                     /* 6.0's ms2 */
         a->vloc >= 0 && b->vloc >= 0 &&
         generic_loc(t, a->vloc) == generic_loc(t, b->vloc);   /* 7.5's ms3 */
}

void sci_exec_bind_ptx(const sc_execution *x, sc_cat_env *env) {
  bind_tags(x, env);
  bind_relations(x, env);
}

/* ---- fence.sc ------------------------------------------------------------------- */

bool sci_exec_is_fence_sc(const sc_execution *x, int e) {
  return x->events[e].kind == SC_EV_FENCE && event_order(&x->events[e]) == ORD_SC;
}
