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
  const char **paths;
  sc_model **models;
  int n;
};

static void push(const char ***list, int *n, const char *s) {
  *list = GC_REALLOC(*list, sizeof(char *) * (size_t)(*n + 1));
  (*list)[(*n)++] = s;
}

void models_add_dir(model_dirs *d, const char *dir) {
  push(&d->dirs, &d->n, dir);
  d->nuser = d->n;
}

/* The folders holding the bundled models: installed, then the source tree
 * (for a build that is not installed). */
void models_add_bundled(model_dirs *d) {
  const char *env = getenv("SCOPECAT_CATDIR");
  if (env && *env)
    push(&d->dirs, &d->n, env);
  push(&d->dirs, &d->n, SC_CATDIR);
  push(&d->dirs, &d->n, SC_SRC_CATDIR);
  d->cache = GC_MALLOC(sizeof(model_cache));
}

const char *models_default(const sc_test *t) {
  return sc_test_default_model(t);
}

/* A model named on the command line is a path, or a name found in the
 * folders. */
static const char *find_model(const model_dirs *d, const char *name) {
  struct stat st;
  if (strchr(name, '/') || stat(name, &st) == 0)
    return name;
  for (int i = 0; i < d->n; i++) {
    size_t len = strlen(d->dirs[i]) + strlen(name) + 2;
    char *p = GC_MALLOC_ATOMIC(len);
    snprintf(p, len, "%s/%s", d->dirs[i], name);
    if (stat(p, &st) == 0)
      return p;
  }
  return name;
}

/* Includes: the -I folders, the model's own folder, then the bundled ones. */
static const char **include_dirs(const model_dirs *d, const char *path,
                                 int *n) {
  const char **dirs = NULL;
  *n = 0;
  for (int i = 0; i < d->nuser; i++)
    push(&dirs, n, d->dirs[i]);
  char *folder = GC_STRDUP(path), *slash = strrchr(folder, '/');
  if (slash) {
    *slash = '\0';
    push(&dirs, n, *folder ? folder : "/");
  } else {
    push(&dirs, n, ".");
  }
  for (int i = d->nuser; i < d->n; i++)
    push(&dirs, n, d->dirs[i]);
  return dirs;
}

sc_status models_load(const model_dirs *d, const char *name, sc_model **out,
                      const char **path, sc_error **err) {
  const char *file = find_model(d, name);
  if (path)
    *path = file;
  model_cache *cache = d->cache;
  for (int i = 0; i < cache->n; i++)
    if (strcmp(cache->paths[i], file) == 0) {
      *out = cache->models[i];
      return SC_OK;
    }
  int ndirs;
  const char **dirs = include_dirs(d, file, &ndirs);
  sc_status st = sc_model_load_file(file, dirs, ndirs, out, err);
  if (st == SC_OK) {
    cache->models = GC_REALLOC(cache->models,
                               sizeof(sc_model *) * (size_t)(cache->n + 1));
    push(&cache->paths, &cache->n, file);
    cache->models[cache->n - 1] = *out;
  }
  return st;
}
