/* allowed.c: is this outcome allowed?  Loads a litmus test and a .cat
 * model, enumerates the test's executions under the model, and answers
 * for a proposition about the final state, in the condition language.
 *
 *   cc allowed.c $(pkg-config --cflags --libs scopecat) -o allowed
 *   ./allowed ptx/seeds/sb.litmus cat/ptx-rmo.cat '0:r2=0 /\ 1:r2=0'
 *   yes: 0:r2=0 /\ 1:r2=0 is allowed under PTX RMO per scope (ASPLOS'15
 *   Figs. 15-16) (4 allowed executions in all)
 *
 * Exit status: 0 allowed, 1 forbidden, 2 error. */
#include <scopecat.h>
#include <stdio.h>

static int fail(const sc_error *err) {
  fprintf(stderr, "allowed: %s\n", sc_error_message(err));
  return 2;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: allowed TEST.litmus MODEL.cat PROPOSITION\n");
    return 2;
  }
  sc_test *test;
  sc_model *model;
  sc_result *result;
  sc_error *err;
  if (sc_test_load_file(argv[1], NULL, &test, &err) != SC_OK)
    return fail(err);
  if (sc_model_load_file(argv[2], NULL, 0, &model, &err) != SC_OK)
    return fail(err);
  if (sc_simulate(test, model, NULL, &result, &err) != SC_OK)
    return fail(err);
  int allowed;
  if (sc_result_allows(result, argv[3], &allowed, &err) != SC_OK)
    return fail(err);
  long total = sc_result_positive(result) + sc_result_negative(result);
  if (allowed)
    printf("yes: %s is allowed under %s (%ld allowed executions in all)\n",
           argv[3], sc_model_title(model), total);
  else
    printf("no: no allowed execution of %s ends with %s\n", sc_test_name(test),
           argv[3]);
  return allowed ? 0 : 1;
}
