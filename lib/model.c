/* model.c: the public sc_model, a parsed .cat model (see cat.h). */
#include "cat.h"
#include "gcmem.h"
#include "model.h"

static sc_status wrap(sc_status st, sc_cat_model *cat, sc_model **out) {
  *out = NULL;
  if (st)
    return st;
  *out = sc_alloc(sizeof **out);
  (*out)->cat = cat;
  return SC_OK;
}

sc_status sc_model_load_file(const char *path, const char *const *include_dirs,
                             int ninclude, sc_model **out, sc_error **err) {
  sc_gc_init();
  sc_cat_model *cat = NULL;
  sc_status st = sc_cat_load_file(path, include_dirs, ninclude, &cat, err);
  return wrap(st, cat, out);
}

sc_status sc_model_load_string(const char *text, const char *filename,
                               const char *const *include_dirs, int ninclude,
                               sc_model **out, sc_error **err) {
  sc_gc_init();
  sc_cat_model *cat = NULL;
  sc_status st = sc_cat_load_string(text, filename, include_dirs, ninclude,
                                    &cat, err);
  return wrap(st, cat, out);
}

const char *sc_model_title(const sc_model *m) {
  return sc_cat_model_title(m->cat);
}
