/* fuzz_litmus.h: the body of the two litmus harnesses (fuzz_gpu_ptx.c and
 * fuzz_ptx.c differ only in their seeds and dictionaries).  A test that
 * parses must print to text that parses again to an equal test (the
 * round trip the library promises), and must simulate under its default
 * model within the small limits of fuzz_sim_options without crashing. */
#ifndef SC_FUZZ_LITMUS_H
#define SC_FUZZ_LITMUS_H

#include "fuzz.h"

#ifndef SC_FUZZ_CATDIR
#error "SC_FUZZ_CATDIR must name the cat/ folder"
#endif

/* Each bundled default model, loaded once. */
static inline const sc_model *fuzz_default_model(const char *name) {
  static const char *names[8];
  static sc_model *models[8];
  int i;
  for (i = 0; i < 8 && names[i]; i++)
    if (strcmp(names[i], name) == 0)
      return models[i];
  if (i == 8)
    abort();
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", SC_FUZZ_CATDIR, name);
  sc_error *err = NULL;
  if (sc_model_load_file(path, NULL, 0, &models[i], &err) != SC_OK)
    fuzz_fail("cannot load a bundled model", sc_error_message(err));
  models[i] = fuzz_limited(models[i]);
  names[i] = name;
  return models[i];
}

static inline void fuzz_simulate(const sc_test *t) {
  sc_sim_options o = fuzz_sim_options();
  sc_result *r = NULL;
  sc_error *err = NULL;
  sc_status st = sc_simulate(t, fuzz_default_model(sc_test_default_model(t)),
                             &o, &r, &err);
  fuzz_check_failure(st, err);
  if (st != SC_OK)
    return;
  (void)sc_result_log(r, SC_LOG_NOTIME);
  (void)sc_result_json(r, SC_LOG_NOTIME);
  for (int i = 0; i < sc_result_shown(r); i++)
    (void)sc_result_dot_graph(r, i);
}

static inline int fuzz_litmus(const uint8_t *data, size_t size) {
  char *text = fuzz_text(data, size);
  sc_parse_limits lim = {1 << 20, 16, 64, 0};
  sc_test *t = NULL;
  sc_error *err = NULL;
  sc_status st = sc_test_load_string(text, "fuzz.litmus", &lim, &t, &err);
  fuzz_check_failure(st, err);
  if (st == SC_OK) {
    (void)sc_test_summary(t);
    const char *printed = sc_test_to_string(t);
    sc_test *again = NULL;
    st = sc_test_load_string(printed, "printed.litmus", NULL, &again, &err);
    if (st != SC_OK)
      fuzz_fail("the printed test does not parse", sc_error_message(err));
    if (!sc_test_equal(t, again))
      fuzz_fail("the printed test parses to a different test", printed);
    fuzz_simulate(t);
  }
  free(text);
  return 0;
}

#endif /* SC_FUZZ_LITMUS_H */
