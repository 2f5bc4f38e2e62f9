/* cmd_parse.c: `scopecat parse`: tests printed back in canonical form (in
 * their own dialect, or in the one -dialect names when it can say the same
 * test), or a one-line summary each (-summary), or checked to parse back
 * equal (-check); warnings about what they may not mean. */

/* A test that fails to parse is reported and the others still run. */
#include "cli_opts.h"

#include "scopecat.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

typedef enum { SHOW_CANONICAL, SHOW_SUMMARY, SHOW_CHECK } show_mode;

/* Parse the canonical text of `t` again and compare; 1 when it holds. */
static int round_trip_holds(const char *path, const sc_test *t) {
  sc_test *again;
  sc_error *err;
  const char *text = cli_text(sc_test_to_string(t));
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

/* The text of `t` in dialect d, when it means the same test: printed in
 * d, parsed, printed back in t's own dialect, it parses to t again (a test
 * the other dialect cannot say would not); NULL, said on stderr, if not. */
static const char *in_dialect(const char *path, const sc_test *t, sc_dialect d) {
  const char *word = d == SC_DIALECT_PTX ? "PTX" : "GPU_PTX";
  const char *text = cli_text(sc_test_to_dialect(t, d));
  sc_test *there, *back;
  sc_error *err;
  if (sc_test_load_string(text, path, NULL, &there, &err) != SC_OK ||
      sc_test_load_string(cli_text(sc_test_to_dialect(there, sc_test_dialect(t))),
                          path, NULL, &back, &err) != SC_OK ||
      !sc_test_equal(t, back)) {
    fprintf(stderr, "%s: expected a test that the %s dialect can say, found "
                    "one whose %s text parses to another test\n", path, word,
            word);
    return NULL;
  }
  return text;
}

/* -dialect's words, in sc_dialect's order; -1: the test's own. */
static const char *const dialect_words[] = {"gpu_ptx", "ptx", NULL};

typedef struct parse_cli {
  int mode;              /* -summary, -check: a show_mode */
  int dialect;           /* -dialect: an sc_dialect, -1: the test's own */
  sc_select *sel;        /* -select */
  cli_shard shard;       /* -shard I/N */
  file_list files;
} parse_cli;

#define AT(field) .offset = offsetof(parse_cli, field)
static const cli_opt parse_opts[] = {
    {.name = "summary", .kind = CLI_SET, AT(mode), .lo = SHOW_SUMMARY},
    {.name = "check", .kind = CLI_SET, AT(mode), .lo = SHOW_CHECK},
    {.name = "dialect", .kind = CLI_CHOICE, AT(dialect), .choices = dialect_words,
     .bad = "-dialect expects gpu_ptx or ptx, found '%v'"},
    {.name = "select", .kind = CLI_SELECT, AT(sel), .bad = "%w",
     .missing = "-select needs a pattern"},
    CLI_SHARD_OPTION(parse_cli, shard),
    {0}};

static const cli_command parse_command = {
    "parse", parse_opts, {.kind = CLI_TESTS, AT(files)}, NULL, false};

int cmd_parse(int argc, char **argv) {
  parse_cli c = {SHOW_CANONICAL, -1, NULL, {0, 0}, {0}};
  int missing;
  int rc = cli_parse(&parse_command, &c, argc, argv, &missing);
  if (rc != CLI_GO_ON)
    return rc;
  show_mode mode = (show_mode)c.mode;
  sc_select *sel = c.sel;
  if (c.files.n == 0 && missing == 0) {
    fprintf(stderr, "usage: scopecat parse [-summary|-check] [-dialect "
                    "gpu_ptx|ptx] [-select REGEX] [-shard I/N] [-max-heap SIZE] "
                    "FILE|DIR...\n");
    return EXIT_USAGE;
  }
  cli_shard_files(&c.files, c.shard);
  file_list files = c.files;
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
    int nw;
    const char *const *warnings = sc_test_warnings(t, &nw);
    cli_print_lines(warnings, nw);
    switch (mode) {
    case SHOW_CANONICAL: {
      const char *text = c.dialect < 0
                             ? cli_text(sc_test_to_string(t))
                             : in_dialect(files.paths[i], t, (sc_dialect)c.dialect);
      if (text)
        printf("%s%s", i ? "\n" : "", text);
      else
        failed++;
      break;
    }
    case SHOW_SUMMARY:
      printf("%s\n", cli_text(sc_test_summary(t)));
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
