/* model.h: struct sc_model of the public header: a cat model. */
#ifndef SC_MODEL_H
#define SC_MODEL_H

#include "cat/cat.h"

struct sc_model {
  sc_cat_model *cat;
};

#endif
