/* validate.c: check a hardware histogram against a model.  Loads a litmus
 * test, a .cat model and a log in litmus7's histogram format, runs the
 * model on the test, and says whether the model allows every outcome the
 * hardware showed, listing those it forbids with their counts.
 *
 *   cc validate.c $(pkg-config --cflags --libs scopecat) -o validate
 *   ./validate ptx/herd-gpu-ptx/RWC_uniproc__RWC_uniproc.litmus \
 *       cat/ptx-rmo.cat ptx/results/titan/RWC_uniproc__RWC_uniproc.txt
 *
 * Exit status: 0 sound, 1 unsound, 2 error. */
#include <scopecat.h>
#include <stdio.h>

static int fail(const sc_error *err) {
  fprintf(stderr, "validate: %s\n", sc_error_message(err));
  return 2;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: validate TEST.litmus MODEL.cat LOG\n");
    return 2;
  }
  sc_test *test;
  sc_model *model;
  sc_result *result;
  sc_hist **blocks;
  int nblocks;
  sc_error *err;
  if (sc_test_load_file(argv[1], NULL, &test, &err) != SC_OK ||
      sc_model_load_file(argv[2], NULL, 0, &model, &err) != SC_OK ||
      sc_hist_load_file(argv[3], &blocks, &nblocks, &err) != SC_OK ||
      sc_simulate(test, model, NULL, &result, &err) != SC_OK)
    return fail(err);
  sc_compare *c = sc_compare_new();
  int added = 0, t = -1;
  for (int i = 0; i < nblocks; i++) {
    const sc_test *ran;
    /* only the blocks of this test: a log may hold several */
    if (sc_hist_find_test(blocks[i], (const sc_test *const *)&test, 1, &ran,
                          &err) != SC_OK)
      continue;
    t = sc_compare_add_hist(c, "log", blocks[i], test);
    added++;
  }
  if (!added) {
    fprintf(stderr, "validate: %s holds no histogram of test %s\n", argv[3],
            sc_test_name(test));
    return 2;
  }
  int m = sc_compare_add_model(c, sc_model_title(model));
  sc_compare_set_result(c, m, t, result);
  int forbidden = 0;
  for (int i = 0; i < sc_compare_outcome_count(c, t); i++)
    if (!sc_compare_outcome_allowed(c, m, t, i)) {
      printf("forbidden but observed %ld times: %s\n",
             sc_compare_outcome_instances(c, t, i, -1), sc_compare_outcome(c, t, i));
      forbidden++;
    }
  printf("%s: %s under %s (%d outcomes observed, %d forbidden)\n",
         sc_test_name(test),
         sc_compare_verdict(c, m, t) == SC_VERDICT_SOUND ? "sound" : "UNSOUND",
         sc_model_title(model), sc_compare_outcome_count(c, t), forbidden);
  return sc_compare_verdict(c, m, t) == SC_VERDICT_SOUND ? 0 : 1;
}
