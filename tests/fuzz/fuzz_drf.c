/* fuzz_drf.c: libFuzzer harness for the traces `scopecat gpu drf -check`
 * reads (seeds: tests/data/drf).  The reader is CLI code, compiled into the
 * harness from tools/gpu/ (drf_trace.c, drf_params.c, with tools/cli.c for
 * cli_read_file), fed through a file as the CLI feeds it.  A trace that is
 * read must give an outcome within its bounds (the records kept fit their
 * arrays, the counts of what was found agree), and reading it again must
 * give the same outcome: the checker's verdict may depend on nothing but the
 * trace.  A malformed one is refused after a message (its file:line:col). */
#define _POSIX_C_SOURCE 200809L
#include "drf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The file the input goes through, made once per process. */
static const char *trace_file(void) {
  static char path[64];
  if (!path[0]) {
    strcpy(path, "/tmp/fuzz-drf-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0)
      abort();
    close(fd);
  }
  return path;
}

static void fail(const char *what) {
  fprintf(stderr, "fuzz: %s\n", what);
  abort();
}

static bool check(const char *path, drf_params *p, drf_outcome *o) {
  unsigned fixed = 0;
  int emax = 0;
  memset(p, 0, sizeof *p);
  memset(o, 0, sizeof *o);
  return drf_check_trace(path, p, &fixed, &emax, o);
}

/* What of an outcome the trace alone decides. */
static bool same_outcome(const drf_outcome *a, const drf_outcome *b) {
  return a->episodes == b->episodes && a->loads == b->loads &&
         a->stores == b->stores && a->mismatches == b->mismatches &&
         a->timedout == b->timedout && a->dups == b->dups && a->nmm == b->nmm &&
         a->nstuck == b->nstuck && a->ndup == b->ndup &&
         memcmp(a->cover, b->cover, sizeof a->cover) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = trace_file();
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
    abort();
  drf_params p, q;
  static drf_outcome o, again; /* large: off the stack */
  if (!check(path, &p, &o))
    return 0;
  if (o.nmm < 0 || o.nmm > MAXREC || o.nstuck < 0 || o.nstuck > MAXREC ||
      o.ndup < 0 || o.ndup > MAXREC)
    fail("records past their arrays");
  if ((o.nmm > 0) != (o.mismatches > 0))
    fail("wrong loads kept without a mismatch counted, or the reverse");
  if (!check(path, &q, &again))
    fail("a trace read once is refused the second time");
  if (!same_outcome(&o, &again))
    fail("the same trace read twice gives two outcomes");
  return 0;
}
