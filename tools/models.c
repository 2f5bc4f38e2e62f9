/* models.c: finding and loading .cat models (models.h), shared by
 * `scopecat sim` and `scopecat compare`. */
#define _POSIX_C_SOURCE 200809L
#include "models.h"

#include <gc/gc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct model_cache {
  cli_list paths;
  sc_model **models; /* beside paths */
};

void models_add_dir(model_dirs *d, const char *dir) {
  cli_push(&d->dirs, dir);
  d->nuser = d->dirs.n;
}

/* The folders holding the bundled models: installed, then the source tree
 * (for a build that is not installed). */
void models_add_bundled(model_dirs *d) {
  const char *env = getenv("SCOPECAT_CATDIR");
  if (env && *env)
    cli_push(&d->dirs, env);
  cli_push(&d->dirs, SC_CATDIR);
  cli_push(&d->dirs, SC_SRC_CATDIR);
  d->cache = GC_MALLOC(sizeof(model_cache));
}

/* The library's rule (sc_test_default_model_why): by dialect, and by
 * the instructions a test uses. */
const char *models_default_why(const sc_test *t, const char **why) {
  return cli_text(sc_test_default_model_why(t, why));
}

const char *models_default(const sc_test *t) {
  return models_default_why(t, NULL);
}

/* A model named on the command line is a path, or a name found in the
 * folders. */
static const char *find_model(const model_dirs *d, const char *name) {
  struct stat st;
  if (strchr(name, '/') || stat(name, &st) == 0)
    return name;
  for (int i = 0; i < d->dirs.n; i++) {
    size_t len = strlen(d->dirs.items[i]) + strlen(name) + 2;
    char *p = GC_MALLOC_ATOMIC(len);
    snprintf(p, len, "%s/%s", d->dirs.items[i], name);
    if (stat(p, &st) == 0)
      return p;
  }
  return name;
}

/* Includes: the -I folders, the model's own folder, then the bundled ones. */
static cli_list include_dirs(const model_dirs *d, const char *path) {
  cli_list dirs = {0};
  for (int i = 0; i < d->nuser; i++)
    cli_push(&dirs, d->dirs.items[i]);
  char *folder = GC_STRDUP(path), *slash = strrchr(folder, '/');
  if (slash) {
    *slash = '\0';
    cli_push(&dirs, *folder ? folder : "/");
  } else {
    cli_push(&dirs, ".");
  }
  for (int i = d->nuser; i < d->dirs.n; i++)
    cli_push(&dirs, d->dirs.items[i]);
  return dirs;
}

sc_status models_load(const model_dirs *d, const char *name, sc_model **out,
                      const char **path, sc_error **err) {
  const char *file = find_model(d, name);
  if (path)
    *path = file;
  model_cache *cache = d->cache;
  for (int i = 0; i < cache->paths.n; i++)
    if (strcmp(cache->paths.items[i], file) == 0) {
      *out = cache->models[i];
      return SC_OK;
    }
  cli_list dirs = include_dirs(d, file);
  sc_status st = sc_model_load_file(file, dirs.items, dirs.n, out, err);
  if (st == SC_OK) {
    cache->models = GC_REALLOC(cache->models, sizeof(sc_model *) *
                                                  (size_t)(cache->paths.n + 1));
    cache->models[cache->paths.n] = *out;
    cli_push(&cache->paths, file);
  }
  return st;
}
