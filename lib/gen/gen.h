/* gen.h: litmus tests from cycles of relaxed edges (diy's method, with
 * the GPU annotations of ASPLOS'15 Sec. 4.1): the edge vocabulary
 * (edges.c), one test per cycle (gen.c), families (family.c). */
#ifndef SC_GEN_H
#define SC_GEN_H

#include "litmus/litmus.h"

#include <stdbool.h>

typedef enum gen_kind {
  GEN_RF, GEN_FR, GEN_CO,         /* communication: Rfe Fre Coe, Rfi ... */
  GEN_PO,                         /* Pod, Pos */
  GEN_ADDR, GEN_DATA, GEN_CTRL,   /* DpAddr DpData DpCtrl */
  GEN_FENCE,                      /* Fence<kind><d|s><XY> */
  GEN_RMW                         /* Rmw: the read and write of one atom */
} gen_kind;

/* Where the two threads of an external edge sit (the paper's tests are
 * inter-CTA unless said otherwise). */
typedef enum gen_place {
  GEN_OTHER_CTA, GEN_SAME_CTA, GEN_SAME_WARP
} gen_place;

typedef struct gen_edge {
  const char *word;  /* as written */
  gen_kind kind;
  bool external;     /* changes thread (Rfe Fre Coe) */
  bool same_loc;     /* Rf Fr Co Pos, "s" forms */
  char src, dst;     /* 'R' or 'W' */
  gen_place place;   /* external edges */
  const char *fence; /* GEN_FENCE: "membar.gl", "fence.sc.gpu" */
} gen_edge;

/* "[ca]", "[relaxed.gpu]", "[shared]": qualifiers of one access, and the
 * memory region of its location; zero fields: the defaults (.cg). */
typedef struct gen_annot {
  const char *word;
  sc_cacheop cacheop;
  sc_sem sem;
  sc_scope scope;
  sc_space region;
} gen_annot;

bool sci_gen_edge_read(const char *word, gen_edge *out);
bool sci_gen_annot_read(const char *word, gen_annot *out);
/* "PodRR" or "[acquire.gpu]PodRR": an edge with the annotation of the
 * access it starts from (zero when none). */
bool sci_gen_word_read(const char *word, gen_edge *e, gen_annot *a);

/* diy's name of a cycle whose last edge is external (name.c):
 * "mp+membar.gls", "sb", "wrc+addrs", "lb+ctrls-cc" (placement), ... */
const char *sci_gen_name(const gen_edge *e, const gen_annot *ann, int n);

#endif
