/* report/result.c: walk the executions of a test.  Runs a test under a model,
 * keeps every allowed execution (sc_sim_options.show), and prints each:
 * its events, then its rf and co edges and the fr edges they imply.
 *
 *   cc report/result.c $(pkg-config --cflags --libs scopecat) -o explore
 *   ./explore ptx/seeds/sb.litmus cat/ptx-rmo.cat
 *
 * Exit status: 0, or 2 on an error. */
#include <scopecat.h>
#include <stdio.h>
#include <string.h>

static void edges(const sc_execution *x, const char *relation) {
  int n = sc_execution_event_count(x);
  printf("  %s:", relation);
  for (int a = 0; a < n; a++)
    for (int b = 0; b < n; b++)
      if (sc_execution_related(x, relation, a, b) == 1)
        printf(" %s -> %s;", sc_execution_event(x, a), sc_execution_event(x, b));
  printf("\n");
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: explore TEST.litmus MODEL.cat\n");
    return 2;
  }
  sc_test *test;
  sc_model *model;
  sc_result *result;
  sc_error *err;
  sc_sim_options opts;
  memset(&opts, 0, sizeof opts);
  opts.unroll = -1;
  opts.show = SC_SHOW_ALL;
  if (sc_test_load_file(argv[1], NULL, &test, &err) != SC_OK ||
      sc_model_load_file(argv[2], NULL, 0, &model, &err) != SC_OK ||
      sc_simulate(test, model, &opts, &result, &err) != SC_OK) {
    fprintf(stderr, "explore: %s\n", sc_error_message(err));
    return 2;
  }
  for (int i = 0; i < sc_result_execution_count(result); i++) {
    const sc_execution *x = sc_result_execution(result, i);
    printf("execution %d of %s:\n  events:", i + 1, sc_test_name(test));
    for (int e = 0; e < sc_execution_event_count(x); e++)
      printf(" [%s]", sc_execution_event(x, e));
    printf("\n");
    edges(x, "rf");
    edges(x, "co");
    edges(x, "fr");
  }
  return 0;
}
