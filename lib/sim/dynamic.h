/* dynamic.h: the names an execution binds anew for each candidate (rf, co,
 * fr and their internal and external parts, FW, syncbar, sync_fence), in
 * one table: what each depends on (the choices cat/mono.c's analysis
 * follows) and how it is built.  The concrete builder (execution.c's
 * sci_exec_bind_dynamic), the symbolic one (symbolic.c) and the
 * enumerator's analysis of the model (engine_enum.c) all read it. */
#ifndef SC_SIM_DYNAMIC_H
#define SC_SIM_DYNAMIC_H

#include "cat/cat.h"

#include <stdbool.h>

/* The choices a candidate makes: the bits of sc_cat_dep. */
enum { SIM_IN_RF = 1, SIM_IN_CO = 2, SIM_IN_BAR = 4, SIM_IN_FENCE = 8 };

/* What a dynamic name is made from. */
typedef enum sim_dyn_source {
  SIM_DYN_RF,         /* the execution's rf */
  SIM_DYN_CO,         /* its co */
  SIM_DYN_FR,         /* rf^-1 ; co */
  SIM_DYN_FW,         /* the writes with no co successor (a set) */
  SIM_DYN_SYNCBAR,    /* the barriers that synchronise (barrier.c) */
  SIM_DYN_SYNC_FENCE, /* the order of the fence.sc events */
  SIM_DYN_NSOURCES
} sim_dyn_source;

/* Which of the source's pairs the name holds. */
typedef enum sim_dyn_part {
  SIM_DYN_WHOLE,    /* all of them */
  SIM_DYN_INTERNAL, /* those of one thread (& int) */
  SIM_DYN_EXTERNAL  /* those across threads (\ int) */
} sim_dyn_part;

typedef struct sim_dynamic {
  const char *name;
  sc_cat_dep dep; /* up or down in the SIM_IN_* choices */
  sim_dyn_source source;
  sim_dyn_part part;
  /* made of rf and co: the symbolic engine builds it over the solver's
   * choices (syncbar and sync_fence stay concrete there too) */
  bool of_rf_co;
} sim_dynamic;

#define SIM_NDYNAMIC 12
extern const sim_dynamic sci_sim_dynamic_names[SIM_NDYNAMIC];

/* Whether the source is a set of events (FW) rather than a relation. */
bool sci_sim_dyn_is_set(sim_dyn_source source);
/* The table as cat's analysis reads it (out: SIM_NDYNAMIC entries), and
 * its names alone (for sci_cat_env_set_dynamic). */
void sci_sim_dynamic_deps(sc_cat_dynamic *out);
void sci_sim_dynamic_name_list(const char **out);

#endif
