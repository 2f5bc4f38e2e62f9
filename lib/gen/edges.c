/* edges.c: diy's edge vocabulary with the GPU annotations, read from
 * one word each ("Rfe", "Rfe.cta", "PodWR", "DpAddrdW", "FenceGldWW",
 * "FenceScGpusRR"), and the access annotations "[ca]", "[acquire.gpu]". */
#define _POSIX_C_SOURCE 200809L
#include "gen/gen.h"

#include "util/gcmem.h"

#include <string.h>

/* Fence spellings of the edge names: diy's "Cta Gl Sys" give membar, the
 * modern "Sc"/"AcqRel" prefixes give fence.sem.scope. */
static const struct { const char *word, *instr; } fence_words[] = {
    {"Cta", "membar.cta"},         {"Gl", "membar.gl"},
    {"Sys", "membar.sys"},         {"AcqRelCta", "fence.acq_rel.cta"},
    {"AcqRelGpu", "fence.acq_rel.gpu"}, {"AcqRelSys", "fence.acq_rel.sys"},
    {"ScCta", "fence.sc.cta"},     {"ScGpu", "fence.sc.gpu"},
    {"ScSys", "fence.sc.sys"},
};

static bool is_dir(char c) { return c == 'R' || c == 'W'; }

/* "WR" at s: the two access directions that end a Pod/Pos/Fence name. */
static bool read_dirs(const char *s, gen_edge *e) {
  if (strlen(s) != 2 || !is_dir(s[0]) || !is_dir(s[1]))
    return false;
  e->src = s[0];
  e->dst = s[1];
  return true;
}

/* Rfe Fre Coe (with .cta or .warp) and Rfi Fri Coi. */
static bool read_com(const char *w, gen_edge *e) {
  static const struct { const char *name; gen_kind kind; char src, dst; }
      com[] = {{"Rf", GEN_RF, 'W', 'R'}, {"Fr", GEN_FR, 'R', 'W'},
               {"Co", GEN_CO, 'W', 'W'}};
  for (size_t i = 0; i < sizeof com / sizeof com[0]; i++) {
    if (strncmp(w, com[i].name, 2) != 0)
      continue;
    const char *rest = w + 2;
    e->kind = com[i].kind;
    e->src = com[i].src;
    e->dst = com[i].dst;
    e->same_loc = true;
    if (strcmp(rest, "i") == 0)
      return true;
    e->external = true;
    if (strcmp(rest, "e") == 0) e->place = GEN_OTHER_CTA;
    else if (strcmp(rest, "e.cta") == 0) e->place = GEN_SAME_CTA;
    else if (strcmp(rest, "e.warp") == 0) e->place = GEN_SAME_WARP;
    else return false;
    return true;
  }
  return false;
}

/* "d"/"s" then the rest: different or same location. */
static const char *read_loc(const char *s, gen_edge *e) {
  if (*s != 'd' && *s != 's')
    return NULL;
  e->same_loc = *s == 's';
  return s + 1;
}

static bool read_dep(const char *w, gen_edge *e) {
  static const struct { const char *name; gen_kind kind; const char *dsts; }
      deps[] = {{"DpAddr", GEN_ADDR, "RW"}, {"DpData", GEN_DATA, "W"},
                {"DpCtrl", GEN_CTRL, "RW"}};
  for (size_t i = 0; i < sizeof deps / sizeof deps[0]; i++) {
    size_t n = strlen(deps[i].name);
    if (strncmp(w, deps[i].name, n) != 0)
      continue;
    const char *rest = read_loc(w + n, e);
    if (!rest || strlen(rest) != 1 || !strchr(deps[i].dsts, *rest))
      return false;
    e->kind = deps[i].kind;
    e->src = 'R';
    e->dst = *rest;
    return true;
  }
  return false;
}

static bool read_fence(const char *w, gen_edge *e) {
  if (strncmp(w, "Fence", 5) != 0)
    return false;
  w += 5;
  for (size_t i = 0; i < sizeof fence_words / sizeof fence_words[0]; i++) {
    size_t n = strlen(fence_words[i].word);
    if (strncmp(w, fence_words[i].word, n) != 0)
      continue;
    const char *rest = read_loc(w + n, e);
    if (rest && read_dirs(rest, e)) {
      e->kind = GEN_FENCE;
      e->fence = fence_words[i].instr;
      return true;
    }
  }
  return false;
}

static bool read_po(const char *w, gen_edge *e) {
  if (strncmp(w, "Po", 2) != 0)
    return false;
  const char *rest = read_loc(w + 2, e);
  e->kind = GEN_PO;
  return rest && read_dirs(rest, e);
}

/* diy's Rmw: the read then the write of one atom (atom.exch). */
static bool read_rmw(const char *w, gen_edge *e) {
  if (strcmp(w, "Rmw") != 0)
    return false;
  e->kind = GEN_RMW;
  e->same_loc = true;
  e->src = 'R';
  e->dst = 'W';
  return true;
}

bool sci_gen_edge_read(const char *word, gen_edge *out) {
  gen_edge e = {0};
  e.word = sci_strdup(word);
  if (!read_rmw(word, &e) && !read_com(word, &e) && !read_dep(word, &e) && !read_fence(word, &e) &&
      !read_po(word, &e))
    return false;
  *out = e;
  return true;
}

/* ---- Access annotations ------------------------------------------------ */

static bool read_qualifier(const char *q, gen_annot *a) {
  int i;
  if ((i = sci_name_lookup(sci_cacheop_names, SC_CACHE_COUNT, q)) > 0)
    a->cacheop = (sc_cacheop)i;
  else if ((i = sci_name_lookup(sci_sem_names, SC_SEM_COUNT, q)) > 0)
    a->sem = (sc_sem)i;
  else if ((i = sci_name_lookup(sci_scope_names, SC_SCOPE_COUNT, q)) > 0)
    a->scope = (sc_scope)i;
  else if ((i = sci_name_lookup(sci_space_names, SC_SPACE_COUNT, q)) > 0)
    a->region = (sc_space)i;
  else
    return false;
  return true;
}

bool sci_gen_annot_read(const char *word, gen_annot *out) {
  size_t n = strlen(word);
  if (n < 3 || word[0] != '[' || word[n - 1] != ']')
    return false;
  gen_annot a = {0};
  a.word = sci_strdup(word);
  char *body = sci_strndup(word + 1, n - 2), *save = NULL;
  for (char *q = strtok_r(body, ".", &save); q; q = strtok_r(NULL, ".", &save))
    if (!read_qualifier(q, &a))
      return false;
  *out = a;
  return true;
}

/* A word of a family's edges: an edge, or an annotation glued to the
 * edge whose source access it qualifies ("[acquire.gpu]PodRR"); the
 * annotation must fit that access (acquire reads, release writes). */
bool sci_gen_word_read(const char *word, gen_edge *e, gen_annot *a) {
  *a = (gen_annot){0};
  const char *close = word[0] == '[' ? strchr(word, ']') : NULL;
  if (!close)
    return sci_gen_edge_read(word, e);
  if (!sci_gen_annot_read(sci_strndup(word, (size_t)(close - word + 1)), a) ||
      !sci_gen_edge_read(close + 1, e))
    return false;
  bool read = e->src == 'R';
  return a->sem != (read ? SC_SEM_RELEASE : SC_SEM_ACQUIRE) &&
         a->sem != SC_SEM_ACQ_REL && a->sem != SC_SEM_SC;
}
