/* summary.c: the smallest libscopecat program: parse litmus tests named on
 * the command line (either dialect) and print a one-line summary of each,
 * or the error, file:line:col, for those that do not parse.
 *
 *   cc summary.c $(pkg-config --cflags --libs scopecat) -o summary
 *   ./summary ptx/herd-gpu-ptx/sb.litmus
 */
#include <scopecat.h>
#include <stdio.h>

int main(int argc, char **argv) {
  int failed = 0;
  for (int i = 1; i < argc; i++) {
    sc_test *test;
    sc_error *err;
    if (sc_test_load_file(argv[i], NULL, &test, &err) != SC_OK) {
      fprintf(stderr, "%s\n", sc_error_message(err));
      failed++;
      continue;
    }
    printf("%s\n", sc_test_summary(test));
  }
  return failed ? 1 : 0;
}
