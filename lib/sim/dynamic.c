/* dynamic.c: the one table of the names bound per candidate (dynamic.h). */
#include "sim/dynamic.h"

/* Dependence: rf-made names grow with rf, co-made ones with co, fr with
 * both; FW shrinks as co grows (fewer writes stay last). */
#define UP(in) {.up = (in), .down = 0}
#define DOWN(in) {.up = 0, .down = (in)}
#define NAME(n, d, src, pt, solver)                                             \
  {.name = (n), .dep = d, .source = (src), .part = (pt), .of_rf_co = (solver)}

const sim_dynamic sci_sim_dynamic_names[SIM_NDYNAMIC] = {
  NAME("rf", UP(SIM_IN_RF), SIM_DYN_RF, SIM_DYN_WHOLE, true),
  NAME("rfi", UP(SIM_IN_RF), SIM_DYN_RF, SIM_DYN_INTERNAL, true),
  NAME("rfe", UP(SIM_IN_RF), SIM_DYN_RF, SIM_DYN_EXTERNAL, true),
  NAME("co", UP(SIM_IN_CO), SIM_DYN_CO, SIM_DYN_WHOLE, true),
  NAME("coi", UP(SIM_IN_CO), SIM_DYN_CO, SIM_DYN_INTERNAL, true),
  NAME("coe", UP(SIM_IN_CO), SIM_DYN_CO, SIM_DYN_EXTERNAL, true),
  NAME("fr", UP(SIM_IN_RF | SIM_IN_CO), SIM_DYN_FR, SIM_DYN_WHOLE, true),
  NAME("fri", UP(SIM_IN_RF | SIM_IN_CO), SIM_DYN_FR, SIM_DYN_INTERNAL, true),
  NAME("fre", UP(SIM_IN_RF | SIM_IN_CO), SIM_DYN_FR, SIM_DYN_EXTERNAL, true),
  NAME("FW", DOWN(SIM_IN_CO), SIM_DYN_FW, SIM_DYN_WHOLE, true),
  NAME("syncbar", UP(SIM_IN_BAR), SIM_DYN_SYNCBAR, SIM_DYN_WHOLE, false),
  NAME("sync_fence", UP(SIM_IN_FENCE), SIM_DYN_SYNC_FENCE, SIM_DYN_WHOLE, false),
};

bool sci_sim_dyn_is_set(sim_dyn_source source) {
  return source == SIM_DYN_FW;
}

void sci_sim_dynamic_deps(sc_cat_dynamic *out) {
  for (int i = 0; i < SIM_NDYNAMIC; i++)
    out[i] = (sc_cat_dynamic){.name = sci_sim_dynamic_names[i].name,
                              .dep = sci_sim_dynamic_names[i].dep};
}

void sci_sim_dynamic_name_list(const char **out) {
  for (int i = 0; i < SIM_NDYNAMIC; i++)
    out[i] = sci_sim_dynamic_names[i].name;
}
