/* value.c: the values of the cat interpreter: constructors, types and
 * their names for messages, herd's total order on values, and value sets.
 * Values are immutable once built; nothing here evaluates expressions. */
#include "cat/interp.h"

#include "util/error.h"
#include "util/gcmem.h"
#include "util/strbuf.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- Constructors -------------------------------------------------------- */

static sc_cat_value *new_value(sc_cat_kind kind) {
  sc_cat_value *v = sci_alloc(sizeof *v);
  v->kind = kind;
  return v;
}

sc_cat_value *sci_cat_v_empty(void) {
  static sc_cat_value empty = {.kind = SC_CAT_EMPTY};
  return &empty;
}

sc_cat_value *sci_cat_v_univ(void) {
  static sc_cat_value univ = {.kind = SC_CAT_UNIV};
  return &univ;
}

sc_cat_value *sci_cat_v_event(int e) {
  sc_cat_value *v = new_value(SC_CAT_EVENT);
  v->u.event = e;
  return v;
}

sc_cat_value *sci_cat_v_pair(int a, int b) {
  sc_cat_value *v = new_value(SC_CAT_PAIR);
  v->u.pair.a = a;
  v->u.pair.b = b;
  return v;
}

sc_cat_value *sci_cat_v_set(const sc_set *s) {
  sc_cat_value *v = new_value(SC_CAT_SET);
  v->u.set = s;
  return v;
}

sc_cat_value *sci_cat_v_rel(const sc_rel *r) {
  sc_cat_value *v = new_value(SC_CAT_REL);
  v->u.rel = r;
  return v;
}

sc_cat_value *sci_cat_v_tag(const char *type, const char *name) {
  sc_cat_value *v = new_value(SC_CAT_TAG);
  v->u.tag.type = type;
  v->u.tag.name = name;
  return v;
}

sc_cat_value *sci_cat_v_tuple(int n, sc_cat_value **items) {
  sc_cat_value *v = new_value(SC_CAT_TUPLE);
  v->u.tuple.n = n;
  v->u.tuple.items = items;
  return v;
}

/* Insertion sort: value sets are small (tags, a few event sets), and the
 * comparison can fail, which qsort could not report. */
sc_cat_value *sci_cat_v_valset(cat_ctx *c, const cat_type *elt, int n,
                              sc_cat_value **items) {
  sc_cat_value **sorted = sci_alloc(sizeof *sorted * (size_t)(n ? n : 1));
  int k = 0;
  for (int i = 0; i < n; i++) {
    int pos = k, dup = 0;
    while (pos > 0) {
      int cmp = sci_cat_compare(c, sorted[pos - 1], items[i], NULL);
      if (c->error)
        return NULL;
      if (cmp == 0) {
        dup = 1;
        break;
      }
      if (cmp < 0)
        break;
      pos--;
    }
    if (dup)
      continue;
    memmove(sorted + pos + 1, sorted + pos, sizeof *sorted * (size_t)(k - pos));
    sorted[pos] = items[i];
    k++;
  }
  sc_cat_value *v = new_value(SC_CAT_VALSET);
  v->u.vs.elt = elt;
  v->u.vs.n = k;
  v->u.vs.items = sorted;
  return v;
}

/* ---- Types --------------------------------------------------------------- */

static const cat_type *simple_type(cat_type_kind kind) {
  static const cat_type types[] = {
    {.kind = TY_EMPTY}, {.kind = TY_UNIV}, {.kind = TY_EVENT},
    {.kind = TY_PAIR}, {.kind = TY_EVENTS}, {.kind = TY_REL},
    {.kind = TY_TAG}, {.kind = TY_FUN}, {.kind = TY_PROC},
    {.kind = TY_SET}, {.kind = TY_TUPLE},
  };
  return &types[kind];
}

const cat_type *sci_cat_type_of(const sc_cat_value *v) {
  cat_type *t;
  switch (v->kind) {
  case SC_CAT_EMPTY: return simple_type(TY_EMPTY);
  case SC_CAT_UNIV: return simple_type(TY_UNIV);
  case SC_CAT_EVENT: return simple_type(TY_EVENT);
  case SC_CAT_PAIR: return simple_type(TY_PAIR);
  case SC_CAT_SET: return simple_type(TY_EVENTS);
  case SC_CAT_REL: return simple_type(TY_REL);
  case SC_CAT_CLOSURE:
  case SC_CAT_PRIM: return simple_type(TY_FUN);
  case SC_CAT_PROC: return simple_type(TY_PROC);
  case SC_CAT_TAG:
    t = sci_alloc(sizeof *t);
    t->kind = TY_TAG;
    t->tag_type = v->u.tag.type;
    return t;
  case SC_CAT_VALSET:
    t = sci_alloc(sizeof *t);
    t->kind = TY_SET;
    t->elt = v->u.vs.elt;
    return t;
  case SC_CAT_TUPLE:
    t = sci_alloc(sizeof *t);
    t->kind = TY_TUPLE;
    t->n = v->u.tuple.n;
    t->items = sci_alloc(sizeof *t->items * (size_t)(t->n ? t->n : 1));
    for (int i = 0; i < t->n; i++)
      t->items[i] = sci_cat_type_of(v->u.tuple.items[i]);
    return t;
  }
  return simple_type(TY_EMPTY);
}

const cat_type *sci_cat_type_unify(const cat_type *a, const cat_type *b) {
  if (a->kind == TY_EMPTY && (b->kind == TY_SET || b->kind == TY_EVENTS ||
                              b->kind == TY_REL || b->kind == TY_EMPTY))
    return b;
  if (b->kind == TY_EMPTY && (a->kind == TY_SET || a->kind == TY_EVENTS ||
                              a->kind == TY_REL))
    return a;
  if (a->kind != b->kind)
    return NULL;
  switch (a->kind) {
  case TY_TAG:
    return strcmp(a->tag_type, b->tag_type) == 0 ? a : NULL;
  case TY_SET: {
    if (!a->elt || !b->elt)
      return a->elt ? a : b;
    const cat_type *e = sci_cat_type_unify(a->elt, b->elt);
    if (!e)
      return NULL;
    cat_type *t = sci_alloc(sizeof *t);
    t->kind = TY_SET;
    t->elt = e;
    return t;
  }
  case TY_TUPLE: {
    if (a->n != b->n)
      return NULL;
    cat_type *t = sci_alloc(sizeof *t);
    t->kind = TY_TUPLE;
    t->n = a->n;
    t->items = sci_alloc(sizeof *t->items * (size_t)(t->n ? t->n : 1));
    for (int i = 0; i < a->n; i++)
      if (!(t->items[i] = sci_cat_type_unify(a->items[i], b->items[i])))
        return NULL;
    return t;
  }
  default:
    return a;
  }
}

const char *sci_cat_type_name(const cat_type *t) {
  switch (t->kind) {
  case TY_EMPTY: return "empty set";
  case TY_UNIV: return "universe";
  case TY_EVENT: return "event";
  case TY_PAIR: return "pair";
  case TY_EVENTS: return "event set";
  case TY_REL: return "relation";
  case TY_TAG: return sci_printf("tag of %s", t->tag_type);
  case TY_FUN: return "function";
  case TY_PROC: return "procedure";
  case TY_SET:
    return t->elt ? sci_printf("set of %s", sci_cat_type_name(t->elt)) : "set";
  case TY_TUPLE: {
    sc_strbuf sb;
    sci_sb_init(&sb);
    sci_sb_puts(&sb, "tuple (");
    for (int i = 0; i < t->n; i++)
      sci_sb_printf(&sb, "%s%s", i ? ", " : "", sci_cat_type_name(t->items[i]));
    sci_sb_putc(&sb, ')');
    return sb.data;
  }
  }
  return "?";
}

const char *sci_cat_vtype(const sc_cat_value *v) {
  return sci_cat_type_name(sci_cat_type_of(v));
}

/* ---- Order --------------------------------------------------------------- */

static int int_cmp(int a, int b) { return (a > b) - (a < b); }

static int compare_valsets(cat_ctx *c, const sc_cat_value *a,
                           const sc_cat_value *b, const sc_cat_exp *where) {
  int na = a ? a->u.vs.n : 0, nb = b ? b->u.vs.n : 0;
  for (int i = 0; i < na && i < nb; i++) {
    int r = sci_cat_compare(c, a->u.vs.items[i], b->u.vs.items[i], where);
    if (r || c->error)
      return r;
  }
  return int_cmp(na, nb);
}

static int compare_error(cat_ctx *c, const sc_cat_value *a,
                         const sc_cat_value *b, const sc_cat_exp *where) {
  const char *ta = sci_cat_vtype(a), *tb = sci_cat_vtype(b);
  if (strcmp(ta, tb) == 0)
    sci_cat_fail(c, SC_ERR_SEMANTIC, where ? where->file : NULL,
                where ? where->line : 0, where ? where->col : 0,
                "values of type %s cannot be compared or put in a set", ta);
  else
    sci_cat_fail(c, SC_ERR_SEMANTIC, where ? where->file : NULL,
                where ? where->line : 0, where ? where->col : 0,
                "cannot compare a %s with a %s (mixed set elements?)", ta, tb);
  return 0;
}

/* herd's ValOrder.compare: the empty set equals the empty relation, event
 * set and value set; tags compare by name; functions by identity. */
int sci_cat_compare(cat_ctx *c, const sc_cat_value *a, const sc_cat_value *b,
                   const sc_cat_exp *where) {
  sc_cat_kind ka = a->kind, kb = b->kind;
  /* Sets of sets share their members: without this, comparing two sets
   * built from one another (s | {s}, round after round) costs 2^depth. */
  if (a == b && ka == SC_CAT_VALSET)
    return 0;
  if (ka == SC_CAT_EMPTY || kb == SC_CAT_EMPTY) {
    const sc_cat_value *other = ka == SC_CAT_EMPTY ? b : a;
    int sign = ka == SC_CAT_EMPTY ? -1 : 1; /* empty is the least */
    switch (other->kind) {
    case SC_CAT_EMPTY: return 0;
    case SC_CAT_VALSET: return other->u.vs.n ? sign : 0;
    case SC_CAT_SET: return sci_set_is_empty(other->u.set) ? 0 : sign;
    case SC_CAT_REL: return sci_rel_is_empty(other->u.rel) ? 0 : sign;
    default: return compare_error(c, a, b, where);
    }
  }
  if (ka != kb || ka == SC_CAT_UNIV)
    return compare_error(c, a, b, where);
  switch (ka) {
  case SC_CAT_TAG: return strcmp(a->u.tag.name, b->u.tag.name);
  case SC_CAT_EVENT: return int_cmp(a->u.event, b->u.event);
  case SC_CAT_PAIR:
    return a->u.pair.a != b->u.pair.a ? int_cmp(a->u.pair.a, b->u.pair.a)
                                      : int_cmp(a->u.pair.b, b->u.pair.b);
  case SC_CAT_SET: return sci_set_compare(a->u.set, b->u.set);
  case SC_CAT_REL: return sci_rel_compare(a->u.rel, b->u.rel);
  case SC_CAT_VALSET: return compare_valsets(c, a, b, where);
  case SC_CAT_CLOSURE: return int_cmp(a->u.clo->id, b->u.clo->id);
  case SC_CAT_PRIM: return int_cmp(a->u.prim->id, b->u.prim->id);
  case SC_CAT_TUPLE:
    for (int i = 0; i < a->u.tuple.n && i < b->u.tuple.n; i++) {
      int r = sci_cat_compare(c, a->u.tuple.items[i], b->u.tuple.items[i], where);
      if (r || c->error)
        return r;
    }
    return int_cmp(a->u.tuple.n, b->u.tuple.n);
  default:
    return compare_error(c, a, b, where);
  }
}

sc_cat_value *sci_cat_tag2set(cat_ctx *c, sc_cat_value *v) {
  if (v->kind != SC_CAT_TAG)
    return v;
  sc_cat_value **items = sci_alloc(sizeof *items);
  items[0] = v;
  return sci_cat_v_valset(c, sci_cat_type_of(v), 1, items);
}

bool sci_cat_valset_has(cat_ctx *c, const sc_cat_value *set, const sc_cat_value *v) {
  int lo = 0, hi = set->u.vs.n - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    int r = sci_cat_compare(c, set->u.vs.items[mid], v, NULL);
    if (c->error)
      return false;
    if (r == 0)
      return true;
    if (r < 0)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return false;
}

const char *sci_cat_show_value(const sc_cat_value *v) {
  switch (v->kind) {
  case SC_CAT_EMPTY: return "{}";
  case SC_CAT_UNIV: return "_";
  case SC_CAT_TAG: return sci_printf("'%s", v->u.tag.name);
  case SC_CAT_VALSET: {
    sc_strbuf sb;
    sci_sb_init(&sb);
    sci_sb_putc(&sb, '{');
    for (int i = 0; i < v->u.vs.n; i++)
      sci_sb_printf(&sb, "%s%s", i ? "," : "", sci_cat_show_value(v->u.vs.items[i]));
    sci_sb_putc(&sb, '}');
    return sb.data;
  }
  case SC_CAT_TUPLE: {
    sc_strbuf sb;
    sci_sb_init(&sb);
    sci_sb_putc(&sb, '(');
    for (int i = 0; i < v->u.tuple.n; i++)
      sci_sb_printf(&sb, "%s%s", i ? "," : "", sci_cat_show_value(v->u.tuple.items[i]));
    sci_sb_putc(&sb, ')');
    return sb.data;
  }
  default: return sci_printf("<%s>", sci_cat_vtype(v));
  }
}

/* ---- The public face of values ------------------------------------------- */

sc_cat_kind sci_cat_value_kind(const sc_cat_value *v) { return v->kind; }

const char *sci_cat_value_type(const sc_cat_value *v) { return sci_cat_vtype(v); }

const sc_rel *sci_cat_value_rel(const sc_cat_value *v, int nevents) {
  sc_rel *r;
  switch (v->kind) {
  case SC_CAT_REL:
    return v->u.rel;
  case SC_CAT_EMPTY:
    return sci_rel_new(nevents);
  case SC_CAT_UNIV:
    r = sci_rel_new(nevents);
    sci_rel_fill(r);
    return r;
  case SC_CAT_PAIR:
    r = sci_rel_new(nevents);
    if (v->u.pair.a < nevents && v->u.pair.b < nevents)
      sc_rel_add(r, v->u.pair.a, v->u.pair.b);
    return r;
  default:
    return NULL;
  }
}

const sc_set *sci_cat_value_set(const sc_cat_value *v, int nevents) {
  sc_set *s;
  switch (v->kind) {
  case SC_CAT_SET:
    return v->u.set;
  case SC_CAT_EMPTY:
    return sci_set_new(nevents);
  case SC_CAT_UNIV:
    s = sci_set_new(nevents);
    sci_set_fill(s);
    return s;
  case SC_CAT_EVENT:
    s = sci_set_new(nevents);
    if (v->u.event < nevents)
      sc_set_add(s, v->u.event);
    return s;
  default:
    return NULL;
  }
}
