// gpu_batch_main.cu: the driver of a batch, many tests' programs linked
// into one executable and run one after another in one CUDA context.
//
//   PROG [-logdir DIR] -tests ID,ID,... [program options]
//
// runs the named tests in order, each with the program options (each test
// reads the ones it knows).  With -logdir, test K's output (its stdout and
// stderr, what the one-test program prints) goes to DIR/K.out, and once it
// has ended the driver prints "done K STATUS" on its own stdout: the
// caller writes that test's log at once.  A test that ends the process (a
// hung launch: a spinning kernel cannot be stopped, the process exits with
// its status; a CUDA error) prints no such line; the caller starts a new
// process at the next test.  Without -logdir the tests print to stdout.
#include "gpu_batch.h"

#include <fcntl.h>

namespace {
struct Test { const char *id; sc_batch_entry entry; };
// Plain static storage, zero before any initialiser runs: the tests
// register from their objects' static initialisers, in any order.
const int MAX_TESTS = 4096;
Test tests[MAX_TESTS];
int ntests;

sc_batch_entry find(const char *id, size_t n) {
  for (int i = 0; i < ntests; i++)
    if (strlen(tests[i].id) == n && !strncmp(tests[i].id, id, n))
      return tests[i].entry;
  return NULL;
}

const char *arg(int argc, char **argv, const char *name) {
  for (int i = 1; i + 1 < argc; i++)
    if (!strcmp(argv[i], name)) return argv[i + 1];
  return NULL;
}

// Test K with its stdout and stderr in DIR/K.out; its exit status.
int run_logged(sc_batch_entry entry, int argc, char **argv, const char *dir,
               int k) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%d.out", dir, k);
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
  if (fd < 0) {
    perror(path);
    return 126;
  }
  fflush(stdout);
  fflush(stderr);
  int out = dup(1), err = dup(2);
  dup2(fd, 1);
  dup2(fd, 2);
  close(fd);
  int rc = entry(argc, argv);
  fflush(stdout);
  fflush(stderr);
  dup2(out, 1);
  dup2(err, 2);
  close(out);
  close(err);
  return rc;
}
}  // namespace

void sc_batch_register(const char *id, sc_batch_entry entry) {
  if (ntests < MAX_TESTS) tests[ntests++] = Test{id, entry};
}

int main(int argc, char **argv) {
  const char *list = arg(argc, argv, "-tests");
  const char *dir = arg(argc, argv, "-logdir");
  if (!list) {
    fprintf(stderr, "usage: %s [-logdir DIR] -tests ID,... [options]\n",
            argv[0]);
    return 2;
  }
  int k = 0, worst = 0;
  for (const char *p = list; *p; k++) {
    size_t n = strcspn(p, ",");
    sc_batch_entry entry = find(p, n);
    int rc;
    if (!entry) {
      fprintf(stderr, "%s: no test %.*s in this batch\n", argv[0], (int)n, p);
      rc = 127;
    } else {
      rc = dir ? run_logged(entry, argc, argv, dir, k) : entry(argc, argv);
    }
    if (dir) {
      printf("done %d %d\n", k, rc);
      fflush(stdout);
    }
    if (rc && !worst) worst = rc;
    p += n;
    if (*p == ',') p++;
  }
  return worst;
}
