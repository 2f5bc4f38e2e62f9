/* env.c: the base environment a caller builds for one execution
 * (sc_cat_env of cat.h): the named event sets and relations a model sees,
 * and which of them change with rf and co. */
#include "cat/interp.h"

#include "util/gcmem.h"

#include <string.h>

sc_cat_env *sci_cat_env_new(int nevents) {
  sci_gc_init();
  sc_cat_env *env = sci_alloc(sizeof *env);
  if (nevents < 0 || nevents > SC_CAT_MAX_EVENTS) {
    env->usage_error = sci_printf("sci_cat_env_new: expected 0 to %d events, found %d",
                                 SC_CAT_MAX_EVENTS, nevents);
    nevents = 0;
  }
  env->nevents = nevents;
  env->memo = sci_alloc(sizeof *env->memo);
  return env;
}

int sci_cat_env_nevents(const sc_cat_env *env) { return env ? env->nevents : 0; }

static unsigned name_hash(const char *name) {
  unsigned h = 5381;
  for (; *name; name++)
    h = h * 33 + (unsigned char)*name;
  return h;
}

static bool is_dynamic(const sc_cat_env *env, const char *name) {
  for (int i = 0; i < env->ndynamic; i++)
    if (strcmp(env->dynamic[i], name) == 0)
      return true;
  return false;
}

void sci_cat_env_set_dynamic(sc_cat_env *env, const char *const *names, int n) {
  if (!env)
    return;
  env->dynamic = sci_alloc(sizeof(char *) * (size_t)(n > 0 ? n : 1));
  for (int i = 0; i < n; i++)
    env->dynamic[i] = sci_strdup(names[i]);
  env->ndynamic = n > 0 ? n : 0;
  for (int i = 0; i < env->n; i++)
    env->entries[i].dynamic = is_dynamic(env, env->entries[i].name);
  env->static_gen++;
}


static void env_bind(sc_cat_env *env, const char *name, const sc_set *s,
                     const sc_rel *r) {
  if (!env)
    return;
  if (!name || (!s && !r)) {
    if (!env->usage_error)
      env->usage_error = "sc_cat_env_bind: missing name or value";
    return;
  }
  int n = s ? s->n : r->n;
  if (n != env->nevents) {
    if (!env->usage_error)
      env->usage_error = sci_printf("sc_cat_env_bind: '%s' is over %d events, the "
                                   "environment over %d", name, n, env->nevents);
    return;
  }
  unsigned h = name_hash(name);
  struct sc_cat_env_entry entry = {NULL, h, s ? sci_set_copy(s) : NULL,
                                   r ? sci_rel_copy(r) : NULL, false};
  for (int i = 0; i < env->n; i++)
    if (env->entries[i].hash == h && strcmp(env->entries[i].name, name) == 0) {
      entry.name = env->entries[i].name;
      entry.dynamic = env->entries[i].dynamic;
      if (!entry.dynamic)
        env->static_gen++;
      env->entries[i] = entry;
      if (env->memo->valid > i)
        env->memo->valid = i;
      return;
    }
  entry.name = sci_strdup(name);
  entry.dynamic = is_dynamic(env, name);
  if (!entry.dynamic)
    env->static_gen++;
  sci_grow(&env->entries, &env->cap, env->n + 1, sizeof *env->entries);
  env->entries[env->n++] = entry;
}

void sci_cat_env_bind_set(sc_cat_env *env, const char *name, const sc_set *s) {
  env_bind(env, name, s, NULL);
}

void sci_cat_env_bind_rel(sc_cat_env *env, const char *name, const sc_rel *r) {
  env_bind(env, name, NULL, r);
}
