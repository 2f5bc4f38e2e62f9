/* cmd_parse.c: `scopecat parse`: parse tests and print them back in
 * canonical GPU_PTX form, or a one-line summary each (-summary), or check
 * that the canonical form parses back to an equal test (-check).  A test
 * that fails to parse is reported and the others still run. */
#include "cli.h"

#include "scopecat.h"

#include <stdio.h>
#include <string.h>

typedef enum { SHOW_CANONICAL, SHOW_SUMMARY, SHOW_CHECK } show_mode;

/* Parse the canonical text of `t` again and compare; 1 when it holds. */
static int round_trip_holds(const char *path, const sc_test *t) {
  sc_test *again;
  sc_error *err;
  const char *text = sc_test_to_string(t);
  if (sc_test_load_string(text, path, NULL, &again, &err) != SC_OK) {
    fprintf(stderr, "%s: canonical form does not parse: %s\n", path,
            sc_error_message(err));
    return 0;
  }
  if (!sc_test_equal(t, again)) {
    fprintf(stderr, "%s: canonical form parses to a different test\n", path);
    return 0;
  }
  return 1;
}

int cmd_parse(int argc, char **argv) {
  show_mode mode = SHOW_CANONICAL;
  sc_select *sel = NULL;
  file_list files = {0};
  int missing = 0;
  for (int i = 1; i < argc; i++) {
    if (cli_is_option(argv[i], "summary")) {
      mode = SHOW_SUMMARY;
    } else if (cli_is_option(argv[i], "check")) {
      mode = SHOW_CHECK;
    } else if (cli_is_option(argv[i], "select")) {
      sc_error *err;
      if (i + 1 == argc) {
        fprintf(stderr, "scopecat parse: -select needs a pattern\n");
        return EXIT_USAGE;
      }
      if (sc_select_compile(argv[++i], &sel, &err) != SC_OK) {
        fprintf(stderr, "scopecat parse: %s\n", sc_error_message(err));
        return EXIT_USAGE;
      }
    } else if (argv[i][0] == '-' && argv[i][1]) {
      fprintf(stderr, "scopecat parse: unknown option '%s'\n", argv[i]);
      return EXIT_USAGE;
    } else if (!cli_collect(&files, argv[i])) {
      missing++; /* reported; the other files still run */
    }
  }
  if (files.n == 0 && missing == 0) {
    fprintf(stderr, "usage: scopecat parse [-summary|-check] [-select REGEX] "
                    "FILE|DIR...\n");
    return EXIT_USAGE;
  }
  int failed = missing, checked = 0;
  for (int i = 0; i < files.n; i++) {
    sc_test *t;
    sc_error *err;
    if (sc_test_load_file(files.paths[i], NULL, &t, &err) != SC_OK) {
      fprintf(stderr, "%s\n", sc_error_message(err));
      failed++;
      continue;
    }
    if (!sc_select_match(sel, sc_test_name(t)))
      continue;
    switch (mode) {
    case SHOW_CANONICAL:
      printf("%s%s", i ? "\n" : "", sc_test_to_string(t));
      break;
    case SHOW_SUMMARY:
      printf("%s\n", sc_test_summary(t));
      break;
    case SHOW_CHECK:
      checked++;
      if (!round_trip_holds(files.paths[i], t))
        failed++;
      break;
    }
  }
  if (mode == SHOW_CHECK)
    printf("round trip: %d tests, %d failed\n", checked, failed);
  else if (failed)
    fprintf(stderr, "scopecat parse: %d of %d files failed\n", failed,
            files.n + missing);
  return failed ? EXIT_SOME_FAILED : EXIT_ALL_RAN;
}
