/* drf_params.c: the parameters of `scopecat gpu drf`'s program and the
 * record of its rounds, as every other drf file names and checks them. */
#define _POSIX_C_SOURCE 200809L
#include "drf.h"

#include <gc/gc.h>
#include <limits.h>
#include <string.h>

const char *const drf_inject_names[] = {
    "none", "release-relaxed", "no-acquire-fence", "cta-shared",
    "load-outside", NULL};

/* Why these parameters make no program; NULL when they do. */
const char *drf_bad_params(const drf_params *p) {
  if (p->locks == 0 && p->cta_locks == 0)
    return "-locks and -cta-locks are both 0: no lock to take";
  if ((double)p->ctas * p->tpb * p->episodes > (double)INT_MAX)
    return "-ctas x -tpb x -episodes: more than 2^31 episodes";
  if ((double)p->ctas * p->tpb * p->episodes * p->actions >= 4294967295.0)
    return "-ctas x -tpb x -episodes x -actions: stored values must fit in "
           "32 bits";
  if ((double)drf_nlocks(p) * (2 + p->vars) * p->spacing > 1e10)
    return "-spacing: the slots need more than 10^10 words";
  return NULL;
}

int drf_knob_value(const drf_params *p, int k) {
  switch (k) {
  case DRF_K_EPISODES: return p->episodes;
  case DRF_K_ACTIONS: return p->actions;
  case DRF_K_VARS: return p->vars;
  case DRF_K_LOCKS: return p->locks;
  case DRF_K_CTA_LOCKS: return p->cta_locks;
  case DRF_K_LOADS: return p->loads;
  default: return p->spacing;
  }
}

const char *const drf_profile_names[] = {"wide", "contended", "fixed"};

const char *drf_setting_words(int profile, const drf_params *p) {
  return cli_format("%s: episodes %d, actions %d, vars %d, locks %d, "
                    "cta-locks %d, loads %d%%, spacing %d",
                    drf_profile_names[profile], p->episodes, p->actions, p->vars,
                    p->locks, p->cta_locks, p->loads, p->spacing);
}

void drf_add_round(drf_outcome *o, const drf_round *r) {
  if (o->nround == o->capround) {
    long long cap = o->capround ? 2 * o->capround : 64;
    drf_round *n = GC_MALLOC_ATOMIC(sizeof(drf_round) * (size_t)cap);
    if (!n)
      return;
    if (o->nround)
      memcpy(n, o->round, sizeof(drf_round) * (size_t)o->nround);
    o->round = n, o->capround = cap;
  }
  o->round[o->nround++] = *r;
}
