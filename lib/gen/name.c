/* name.c: diy's names for generated tests: the shape of the cycle
 * (mp, sb, lb, wrc, iriw...), then what orders each thread ("+membar.gls"
 * when every thread has the same), then the placement of the external
 * edges and the access annotations when they are not the defaults. */
#define _POSIX_C_SOURCE 200809L
#include "gen/gen.h"

#include "util/gcmem.h"
#include "util/strbuf.h"

#include <string.h>

/* The known shapes, as diy spells their plain po cycles. */
static const struct { const char *name, *cycle; } shapes[] = {
    {"mp", "PodWW Rfe PodRR Fre"},     {"sb", "PodWR Fre PodWR Fre"},
    {"lb", "PodRW Rfe PodRW Rfe"},     {"2+2w", "PodWW Coe PodWW Coe"},
    {"s", "PodWW Rfe PodRW Coe"},      {"r", "PodWW Coe PodWR Fre"},
    {"wrc", "Rfe PodRW Rfe PodRR Fre"}, {"rwc", "Rfe PodRR Fre PodWR Fre"},
    {"isa2", "PodWW Rfe PodRW Rfe PodRR Fre"},
    {"iriw", "Rfe PodRR Fre Rfe PodRR Fre"},
    {"w+rw+2w", "Rfe PodRW Coe PodWW Coe"},
    {"3.sb", "PodWR Fre PodWR Fre PodWR Fre"},
    {"3.lb", "PodRW Rfe PodRW Rfe PodRW Rfe"},
    {"3.2w", "PodWW Coe PodWW Coe PodWW Coe"},
};

static const char *com_name(gen_kind k) {
  return k == GEN_RF ? "rf" : k == GEN_FR ? "fr" : "co";
}

/* The shape: per thread, its access directions and the external edge that
 * leaves it ("WW.rf RR.fr"), taken at the rotation that sorts first. */
static const char *signature(const gen_edge *e, int n) {
  int first = 0;
  while (!e[first].external)
    first++;
  char **threads = sci_alloc(sizeof(char *) * (size_t)n);
  int nthreads = 0;
  sc_strbuf cur;
  sci_sb_init(&cur);
  for (int j = 1; j <= n; j++) {
    const gen_edge *x = &e[(first + j) % n];
    sci_sb_putc(&cur, x->src);
    if (x->external) {
      sci_sb_printf(&cur, ".%s ", com_name(x->kind));
      threads[nthreads++] = cur.data;
      sci_sb_init(&cur);
    }
  }
  const char *best = NULL;
  for (int r = 0; r < nthreads; r++) {
    sc_strbuf sb;
    sci_sb_init(&sb);
    for (int k = 0; k < nthreads; k++)
      sci_sb_puts(&sb, threads[(r + k) % nthreads]);
    if (!best || strcmp(sb.data, best) < 0)
      best = sb.data;
  }
  size_t len = strlen(best);
  return sci_strndup(best, len ? len - 1 : 0); /* the last space */
}

static const char *signature_of_words(const char *words) {
  gen_edge e[8];
  int n = 0;
  char *copy = sci_strdup(words), *save = NULL;
  for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
    sci_gen_edge_read(w, &e[n++]);
  return signature(e, n);
}

static const char *shape_name(const gen_edge *e, int n) {
  const char *sig = signature(e, n);
  bool same_loc = true;
  for (int i = 0; i < n; i++)
    same_loc &= e[i].same_loc;
  if (same_loc) /* coherence: coRR, coWW ... by their directions */
    return sci_printf("co%s", sig);
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    if (strcmp(sig, signature_of_words(shapes[s].cycle)) == 0)
      return shapes[s].name;
  return sig;
}

/* What orders two accesses of one thread, as diy names it. */
static const char *internal_name(const gen_edge *e) {
  switch (e->kind) {
  case GEN_PO: return e->same_loc ? "pos" : "po";
  case GEN_ADDR: return "addr";
  case GEN_DATA: return "data";
  case GEN_CTRL: return "ctrl";
  case GEN_FENCE: return e->fence;
  case GEN_RMW: return "rmw";
  default: return sci_printf("%si", com_name(e->kind));
  }
}

static const char *thread_parts(const gen_edge *e, int n) {
  char **parts = sci_alloc(sizeof(char *) * (size_t)n);
  int nparts = 0;
  sc_strbuf cur;
  sci_sb_init(&cur);
  for (int i = 0; i < n; i++) {
    if (e[i].external) {
      if (cur.len)
        parts[nparts++] = cur.data;
      sci_sb_init(&cur);
      continue;
    }
    sci_sb_printf(&cur, "%s%s", cur.len ? "-" : "", internal_name(&e[i]));
  }
  bool all_same = true, all_po = true;
  for (int i = 0; i < nparts; i++) {
    all_same &= strcmp(parts[i], parts[0]) == 0;
    all_po &= strcmp(parts[i], "po") == 0;
  }
  if (nparts == 0 || all_po)
    return "";
  if (all_same && nparts > 1)
    return sci_printf("+%ss", parts[0]);
  sc_strbuf sb;
  sci_sb_init(&sb);
  for (int i = 0; i < nparts; i++)
    sci_sb_printf(&sb, "+%s", parts[i]);
  return sb.data;
}

/* "-cc": the placement of each external edge when some is within a CTA
 * (g: other CTA, c: same CTA, w: same warp). */
static const char *placement_suffix(const gen_edge *e, int n) {
  sc_strbuf sb;
  sci_sb_init(&sb);
  bool inner = false;
  for (int i = 0; i < n; i++)
    if (e[i].external) {
      sci_sb_putc(&sb, "gcw"[e[i].place]);
      inner |= e[i].place != GEN_OTHER_CTA;
    }
  return inner ? sci_printf("-%s", sb.data) : "";
}

/* "-ca": the annotation of every access when all have the same; else
 * "-1ca-3ca": the annotated events by number. */
static const char *annotation_suffix(const gen_annot *ann, int n) {
  bool uniform = true;
  for (int i = 0; i < n; i++)
    uniform &= ann[i].word && ann[0].word &&
               strcmp(ann[i].word, ann[0].word) == 0;
  if (uniform)
    return sci_printf("-%.*s", (int)strlen(ann[0].word) - 2, ann[0].word + 1);
  sc_strbuf sb;
  sci_sb_init(&sb);
  for (int i = 0; i < n; i++)
    if (ann[i].word)
      sci_sb_printf(&sb, "-%d%.*s", i, (int)strlen(ann[i].word) - 2,
                   ann[i].word + 1);
  return sb.data;
}

const char *sci_gen_name(const gen_edge *e, const gen_annot *ann, int n) {
  char *name = sci_printf("%s%s%s%s", shape_name(e, n), thread_parts(e, n),
                         placement_suffix(e, n), annotation_suffix(ann, n));
  /* an unknown shape's signature has spaces: "WW.rf RR.fr" -> "WW.rf_RR.fr" */
  for (char *s = name; *s; s++)
    if (*s == ' ')
      *s = '_';
  return name;
}
