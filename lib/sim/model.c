/* model.c: the public face of sc_model, a parsed .cat model (see
 * cat/cat.h) with its bell file and limits, and the co a model expects. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "cat/cat.h"
#include "util/error.h"
#include "util/gcmem.h"
#include "util/oom.h"
#include "litmus/litmus.h"
#include "sim/model.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static sc_status wrap(sc_status st, sc_cat_model *cat, sc_model **out) {
  *out = NULL;
  if (st)
    return st;
  *out = sci_alloc(sizeof **out);
  (*out)->cat = cat;
  return SC_OK;
}

static sc_status model_load_file_unguarded(const char *path,
                                           const char *const *include_dirs,
                                           int ninclude, sc_model **out,
                                           sc_error **err) {
  sci_gc_init();
  sc_cat_model *cat = NULL;
  sc_status st = sci_cat_load_file(path, include_dirs, ninclude, &cat, err);
  return wrap(st, cat, out);
}

sc_status sc_model_load_file(const char *path, const char *const *include_dirs,
                             int ninclude, sc_model **out, sc_error **err) {
  sc_oom_guard g;
  if (!SC_OOM_ENTER(g))
    return sci_oom_fail(&g, path, err);
  sc_status st = model_load_file_unguarded(path, include_dirs, ninclude, out,
                                           err);
  sci_oom_leave(&g);
  return st;
}

static sc_status model_load_string_unguarded(const char *text,
                                             const char *filename,
                                             const char *const *include_dirs,
                                             int ninclude, sc_model **out,
                                             sc_error **err) {
  sci_gc_init();
  sc_cat_model *cat = NULL;
  sc_status st = sci_cat_load_string(text, filename, include_dirs, ninclude,
                                    &cat, err);
  return wrap(st, cat, out);
}

sc_status sc_model_load_string(const char *text, const char *filename,
                               const char *const *include_dirs, int ninclude,
                               sc_model **out, sc_error **err) {
  sc_oom_guard g;
  if (!SC_OOM_ENTER(g))
    return sci_oom_fail(&g, filename, err);
  sc_status st = model_load_string_unguarded(text, filename, include_dirs,
                                             ninclude, out, err);
  sci_oom_leave(&g);
  return st;
}

static sc_status model_add_bell_unguarded(const sc_model *m, const char *path,
                                          const char *const *include_dirs,
                                          int ninclude, sc_model **out,
                                          sc_error **err) {
  sci_gc_init();
  *out = NULL;
  if (!m)
    return sci_fail(err, SC_ERR_USAGE, NULL, 0, 0, "sc_model_add_bell: no model");
  sc_cat_model *cat = NULL;
  sc_status st = sci_cat_model_with_bell(m->cat, path, include_dirs, ninclude,
                                        &cat, err);
  return wrap(st, cat, out);
}

sc_status sc_model_add_bell(const sc_model *m, const char *path,
                            const char *const *include_dirs, int ninclude,
                            sc_model **out, sc_error **err) {
  sc_oom_guard g;
  if (!SC_OOM_ENTER(g))
    return sci_oom_fail(&g, path, err);
  sc_status st = model_add_bell_unguarded(m, path, include_dirs, ninclude, out,
                                          err);
  sci_oom_leave(&g);
  return st;
}

/* A name the generated model text can quote: cat strings have no
 * escapes, so no quote and no line break. */
static bool quotable(const char *name) {
  return name && *name && !strpbrk(name, "\"\n\r");
}

/* The model at `path` followed by the includes `extra`, as one model
 * text: its title the model's, then `include "PATH"` and one include per
 * extra, found as any include (include_dirs, then path's folder).  Named
 * PATH+EXTRA... in messages, a file that does not exist, so that the
 * include of PATH is no cycle. */
static sc_status model_load_with_includes_unguarded(
    const char *path, const char *const *extra, int nextra,
    const char *const *include_dirs, int ninclude, sc_model **out, sc_error **err) {
  sci_gc_init();
  *out = NULL;
  if (!quotable(path) || nextra < 0 || (nextra > 0 && !extra))
    return sci_fail(err, SC_ERR_USAGE, path, 0, 0,
                   "sc_model_load_with_includes: expected a model path without "
                   "quotes or line breaks, and the includes");
  sc_cat_model *cat = NULL; /* loaded alone first: its errors name its file */
  sc_status st = sci_cat_load_file(path, include_dirs, ninclude, &cat, err);
  if (st)
    return st;
  const char *title = sci_cat_model_title(cat);
  char real[PATH_MAX]; /* the include is found from the generated text's folder */
  const char *absolute = realpath(path, real) ? real : path;
  if (!quotable(absolute))
    absolute = path;
  const char *name = path;
  const char *text = sci_printf("\"%s\"\ninclude \"%s\"\n",
                                quotable(title) ? title : "", absolute);
  for (int i = 0; i < nextra; i++) {
    if (!quotable(extra[i]))
      return sci_fail(err, SC_ERR_USAGE, path, 0, 0,
                     "sc_model_load_with_includes: expected an include name "
                     "without quotes or line breaks");
    name = sci_printf("%s+%s", name, extra[i]);
    text = sci_printf("%sinclude \"%s\"\n", text, extra[i]);
  }
  st = sci_cat_load_string(text, name, include_dirs, ninclude, &cat, err);
  return wrap(st, cat, out);
}

sc_status sc_model_load_with_includes(const char *path, const char *const *extra,
                                      int nextra, const char *const *include_dirs,
                                      int ninclude, sc_model **out, sc_error **err) {
  sc_oom_guard g;
  if (!SC_OOM_ENTER(g))
    return sci_oom_fail(&g, path, err);
  sc_status st = model_load_with_includes_unguarded(path, extra, nextra, include_dirs,
                                                    ninclude, out, err);
  sci_oom_leave(&g);
  return st;
}

/* The most a caller may ask for: deeper nesting would overflow the C stack
 * before the limit could say so (each level is a few C frames). */
#define MAX_DEPTH_ALLOWED 10000
#define MAX_FORKS_ALLOWED 1000

static sc_status model_with_limits_unguarded(const sc_model *m,
                                             const sc_model_limits *limits,
                                             sc_model **out, sc_error **err) {
  sci_gc_init();
  *out = NULL;
  if (!m)
    return sci_fail(err, SC_ERR_USAGE, NULL, 0, 0, "sc_model_with_limits: no model");
  if (limits && (limits->max_depth < 0 || limits->max_depth > MAX_DEPTH_ALLOWED))
    return sci_fail(err, SC_ERR_USAGE, NULL, 0, 0,
                   "expected a cat recursion depth limit from 0 to %d, found %d",
                   MAX_DEPTH_ALLOWED, limits->max_depth);
  if (limits && (limits->max_forks < 0 || limits->max_forks > MAX_FORKS_ALLOWED))
    return sci_fail(err, SC_ERR_USAGE, NULL, 0, 0,
                   "expected a fork depth limit from 0 to %d, found %d",
                   MAX_FORKS_ALLOWED, limits->max_forks);
  if (limits && (limits->max_iterations < 0 || limits->timeout != limits->timeout))
    return sci_fail(err, SC_ERR_USAGE, NULL, 0, 0,
                   "expected a non-negative iteration limit and a time limit");
  return wrap(SC_OK, sci_cat_model_with_limits(m->cat, limits), out);
}

sc_status sc_model_with_limits(const sc_model *m, const sc_model_limits *limits,
                               sc_model **out, sc_error **err) {
  sc_oom_guard g;
  if (!SC_OOM_ENTER(g))
    return sci_oom_fail(&g, NULL, err);
  sc_status st = model_with_limits_unguarded(m, limits, out, err);
  sci_oom_leave(&g);
  return st;
}

const char *sc_model_title(const sc_model *m) {
  return sci_cat_model_title(m->cat);
}


/* herd's models, and those written in their style, take co total per
 * location; Dat3M's PTX models rebind it from the one they are given
 * (`let co = co+`: "the co in PTX is not total") and expect it partial.
 * A model that makes its own (`with co from S`: herd's cos.cat, whose S
 * holds total orders only) gets the total one, whose candidates S can
 * hold. */
bool sci_sim_model_partial_co(const sc_model *m, const sc_sim_options *o,
                          const char **why) {
  if (o->co == SC_CO_TOTAL || o->co == SC_CO_PARTIAL) {
    bool partial = o->co == SC_CO_PARTIAL;
    *why = partial ? "-co partial" : "-co total";
    return partial;
  }
  sc_cat_run_options variants = {.variants = o->variants, .nvariants = o->nvariants};
  const char *file;
  int line;
  switch (sci_cat_model_first_binding(m->cat, "co", &variants, &file, &line)) {
  case SC_CAT_REBINDS:
    *why = sci_printf("the model rebinds co at %s:%d", file, line);
    return true;
  case SC_CAT_REPLACES:
    *why = sci_printf("herd's: the model binds its own co at %s:%d", file, line);
    return false;
  case SC_CAT_KEEPS:
    break;
  }
  *why = "herd's: the model does not rebind co";
  return false;
}
