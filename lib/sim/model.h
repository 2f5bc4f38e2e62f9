/* model.h: struct sc_model of the public header: a cat model, and what
 * the simulator reads off it (the co it expects). */
#ifndef SC_MODEL_H
#define SC_MODEL_H

#include "cat/cat.h"

struct sc_model {
  sc_cat_model *cat;
};

/* Whether model m sees a partial co under options o (sc_co of the public
 * header), else herd's total one; *why says what decided it. */
bool sci_sim_model_partial_co(const sc_model *m, const sc_sim_options *o,
                          const char **why);

#endif
