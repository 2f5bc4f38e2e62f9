/* models.h: finding and loading .cat models for the subcommands that run
 * them (sim, compare): the search folders, the default model of a test,
 * and a cache so that a model named for many tests is parsed once. */
#ifndef SC_MODELS_H
#define SC_MODELS_H

#include "cli.h"

#include "scopecat.h"

typedef struct model_cache model_cache;

typedef struct model_dirs {
  cli_list dirs;      /* -I folders, then the bundled model folders */
  int nuser;          /* how many of them came from -I */
  model_cache *cache; /* the models loaded so far (made with the bundled
                         folders, so that loading needs no write here) */
} model_dirs;

/* An -I folder; then, once the options are read, the bundled folders
 * ($SCOPECAT_CATDIR, the installed cat/, the source tree's cat/). */
void models_add_dir(model_dirs *d, const char *dir);
void models_add_bundled(model_dirs *d);

/* The model a test runs under when none is named: for GPU_PTX tests
 * ptx-rmo.cat, or ptx-v7.5.cat when the test uses an instruction that
 * ptx-rmo.cat gives no meaning (fence.sc, fence.acq_rel, .acquire,
 * .release, .relaxed.SCOPE: it knows only membar); for the PTX dialect
 * Dat3M's ptx-v6.0.cat, or ptx-v7.5.cat when the test uses proxies
 * (sc_test_default_model).  *why (when not NULL) gets the reason, as "it
 * uses fence.sc.gpu, which ptx-rmo.cat ignores". */
const char *models_default_why(const sc_test *t, const char **why);
/* The same, without the reason (sim, compare). */
const char *models_default(const sc_test *t);

/* Load the model `name`: a path, or a name found in the folders (as herd7
 * finds "ptx.cat").  Its includes are searched in the -I folders, its own
 * folder, then the bundled ones.  *path (when not NULL) gets the file. */
sc_status models_load(const model_dirs *d, const char *name, sc_model **out,
                      const char **path, sc_error **err);

#endif
