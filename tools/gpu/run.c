/* run.c: `scopecat gpu run` and `gpu build`: build every test ahead, then
 * run them, a share of the tests on each GPU, alone (-batch 1) or many in
 * one process (a batch), each log in place as soon as its test ends, with
 * the progress line, the campaign's summary and -resume. */
#define _POSIX_C_SOURCE 200809L
#include "gpu.h"

#include <errno.h>
#include <gc/gc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_run.h"

static bool file_exists(const char *p) {
  struct stat st;
  return stat(p, &st) == 0;
}

/* The generated program's exit status when a launch hung: its log is
 * whole (a Hangs line says so), the test ran. */
enum { PROGRAM_HUNG = 4 };

/* The line that ends the log of a test that failed or was refused: a
 * -resume reads it back, so that the exit status remembers the failure. */
#define FAILED_LINE "Run failed: "

/* ---- a test's log ---------------------------------------------------------- */

static void banner(FILE *log, const char *path) {
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  size_t n = strlen(base) + 16;
  for (size_t i = 0; i < n; i++) fputc('%', log);
  fprintf(log, "\n%% Results for %s %%\n", base);
  for (size_t i = 0; i < n; i++) fputc('%', log);
  fputc('\n', log);
  char *src = cli_read_file(path);
  if (src)
    fputs(src, log);
  fputs("\nGenerated assembler\n", log);
}

/* The command that reproduces this test's run: this command's options
 * (files left out), then the test. */
static void print_command(FILE *log, const gpu_cli *c, const char *path) {
  fprintf(log, "Command: scopecat gpu run");
  for (int i = 3; i < c->argc; i++) {
    const char *a = c->argv[i];
    if (!strcmp(a, "-resume") || !strcmp(a, "--resume"))
      continue;
    if (a[0] == '-' && a[1]) {
      fprintf(log, " %s", a);
      if (i + 1 < c->argc)
        fprintf(log, " %s", c->argv[++i]);
    }
  }
  fprintf(log, " %s\n", path);
}

/* What ends the log of a program that ran: the watchdog's word, the
 * commands that reproduce it, the failure.  Whether it failed. */
static bool program_tail(FILE *log, const gpu_cli *c, const char *path,
                         const sc_test *test, const char *program, int rc) {
  if (rc == CLI_RUN_TIMED_OUT)
    fprintf(log, "\nWatchdog: %s killed after %g s (a kernel that does not "
                 "finish, e.g. a spin loop no thread ends); no histogram\n",
            sc_test_name(test), c->timeout);
  print_command(log, c, path);
  fprintf(log, "Program: %s\n", program);
  bool failed = rc != 0 && rc != PROGRAM_HUNG;
  if (failed)
    fprintf(log, FAILED_LINE "%s\n",
            rc == CLI_RUN_TIMED_OUT ? "killed by the watchdog"
                                    : cli_format("exit status %d", rc));
  return failed;
}

/* Build test `path` for a run and say why it cannot run, in `log`:
 * whether it can. */
static bool build_for_run(const gpu_cli *c, const char *path, const char *name,
                          bool object, built *b, FILE *log) {
  if (!gpu_build(c, path, name, object, b, log)) {
    fprintf(log, FAILED_LINE "not run (not built)\n");
    return false;
  }
  if (b->optcheck_ran && !b->optcheck_ok) {
    fprintf(log, "optcheck: FAILED: the compiled kernel does not keep the "
                 "test's accesses in order; no histogram reported\n");
    fprintf(log, FAILED_LINE "not run (optcheck)\n");
    return false;
  }
  return true;
}

/* ---- the campaign ------------------------------------------------------------ */

typedef struct batch {
  gpu_cli *c;
  const char **names; /* each test's log and folder name */
  bool *skip;         /* -resume: its log is already in -o DIR */
  const char *tmpdir; /* logs of this batch, for stdout */
  const char *driver; /* -batch N > 1: the driver's object */
  int todo;           /* tests to run (not resumed) */
  int ran, refused;   /* tests run, tests refused (not built, optcheck) */
  int failed, hung;   /* of those run or refused: failed; with a hung launch */
  int resumed_failed; /* resumed logs that record a failure */
  double t0, build_s, kernel_s;
  unsigned long long instances;
  bool progress;      /* stderr is a terminal */
} batch;

static const char *log_path(const batch *bt, int i) {
  return bt->c->outdir ? cli_format("%s/%s.txt", bt->c->outdir, bt->names[i])
                       : cli_format("%s/%d.log", bt->tmpdir, i);
}

static bool log_failed(const char *text) {
  return text && (!strncmp(text, FAILED_LINE, strlen(FAILED_LINE)) ||
                  strstr(text, "\n" FAILED_LINE));
}

/* What the log of a finished test says: run or refused, failed, instances
 * counted, kernel seconds, whether a launch hung. */
static void note_log(batch *bt, const char *text) {
  bool ran = text && strstr(text, "\nProgram: ");
  bt->ran += ran;
  bt->refused += !ran;
  bt->failed += !text || log_failed(text);
  const char *p = text ? strstr(text, "\nParameters: instances ") : NULL;
  unsigned long long n;
  if (p && sscanf(p, "\nParameters: instances %llu", &n) == 1)
    bt->instances += n;
  const char *t = text ? strstr(text, "\nTime ") : NULL;
  double secs;
  if (t && sscanf(strchr(t + 6, ' ') ? strchr(t + 6, ' ') : t, " %lf",
                  &secs) == 1)
    bt->kernel_s += secs;
  if (text && strstr(text, "\nHangs "))
    bt->hung++;
}

static void show_progress(const batch *bt) {
  if (!bt->progress)
    return;
  double el = sc_seconds() - bt->t0;
  int done = bt->ran + bt->refused, left = bt->todo - done;
  fprintf(stderr, "\rgpu run: %d run, %d refused, %d left, %.3g instances/s, "
                  "%.0f s left   ",
          bt->ran, bt->refused, left, el > 0 ? bt->instances / el : 0.0,
          done ? el / done * left : 0.0);
  if (!left)
    fputc('\n', stderr);
}

/* Test i's log, whole: to its place (by a rename, so that a log there is
 * whole), counted, on stdout when `echo`, the progress line updated.
 * Whether the test failed. */
static bool publish_log(batch *bt, int i, const char *text, bool echo) {
  const char *dest = log_path(bt, i), *part = cli_format("%s.part", dest);
  FILE *log = fopen(part, "w");
  if (!log) {
    fprintf(stderr, "scopecat gpu run: %s: %s\n", part, strerror(errno));
    return true;
  }
  fputs(text, log);
  fclose(log);
  rename(part, dest);
  note_log(bt, text);
  if (echo)
    fputs(text, stdout), fflush(stdout);
  show_progress(bt);
  return log_failed(text);
}

/* Build every test not skipped, `jobs` at once, before any runs: nvcc is
 * the slow part of a batch, and the runs then find their programs kept.
 * Each worker tells the parent of each program built (a byte on a pipe),
 * for the progress line. */
static void build_ahead(batch *bt) {
  gpu_cli *c = bt->c;
  int jobs = c->jobs ? c->jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
  if (jobs < 2 || bt->todo < 2)
    return;
  int p[2];
  if (pipe(p) != 0)
    return;
  pid_t *pids = GC_MALLOC_ATOMIC(sizeof(pid_t) * (size_t)jobs);
  for (int w = 0; w < jobs; w++) {
    pids[w] = cli_fork();
    if (pids[w] == 0) {
      close(p[0]);
      for (int i = w; i < c->files.n; i += jobs) {
        if (bt->skip[i])
          continue;
        built b;
        memset(&b, 0, sizeof b);
        FILE *null = fopen("/dev/null", "w");
        gpu_build(c, c->files.paths[i], bt->names[i], c->batch > 1, &b,
                  null ? null : stderr);
        if (null)
          fclose(null);
        if (write(p[1], "b", 1) < 0) {
          /* the parent is gone: nothing to tell */
        }
      }
      _exit(0);
    }
  }
  close(p[1]);
  int built_n = 0;
  char buf[64];
  ssize_t k;
  while ((k = read(p[0], buf, sizeof buf)) != 0) {
    if (k < 0) {
      if (errno == EINTR)
        continue;
      break;
    }
    built_n += (int)k;
    if (bt->progress)
      fprintf(stderr, "\rgpu run: building: %d of %d programs built   ",
              built_n, bt->todo);
  }
  close(p[0]);
  if (bt->progress)
    fputc('\n', stderr);
  for (int w = 0; w < jobs; w++)
    if (pids[w] > 0)
      cli_reap(pids[w]);
}

/* ---- a process per test (-batch 1) -------------------------------------------- */

static void run_one(const gpu_cli *c, const char *path, const char *name,
                    int device, FILE *log) {
  banner(log, path);
  built b;
  memset(&b, 0, sizeof b);
  if (build_for_run(c, path, name, false, &b, log)) {
    const char *cmd = cli_format("'%s' %s -device %d 2>&1", b.exe,
                                 gpu_prog_args(c, NULL), device);
    int rc = cli_run(cmd, log, c->timeout);
    program_tail(log, c, path, b.test, cmd, rc);
  }
  if (b.temp)
    cli_temp_remove(b.dir);
}

/* Run tests g, g + ngpu, ... on GPU g, each in a process of its own (-batch
 * 1); each log is in place as soon as its test ends. */
static int run_share(batch *bt, int g, int ngpu) {
  gpu_cli *c = bt->c;
  int fails = 0;
  for (int i = g; i < c->files.n; i += ngpu) {
    if (bt->skip[i])
      continue;
    char *text = NULL;
    size_t len = 0;
    FILE *log = open_memstream(&text, &len);
    run_one(c, c->files.paths[i], bt->names[i], g, log);
    fclose(log);
    fails += publish_log(bt, i, text, ngpu == 1);
    free(text);
  }
  return fails;
}

/* ---- batches: many tests in one process, one CUDA context ----------------- */

/* A test waiting for its batch: its log so far (banner, build, optcheck)
 * and its object. */
typedef struct queued {
  int i;
  built b;
  char *head;
} queued;

/* Test t's log once the batch has run it: its head, what it printed (in
 * `out`), the tail. */
static bool finish_queued(batch *bt, const queued *t, const char *out, int rc,
                          const char *exe, int device, bool echo) {
  const gpu_cli *c = bt->c;
  char *text = NULL;
  size_t len = 0;
  FILE *log = open_memstream(&text, &len);
  fputs(t->head, log);
  char *printed = cli_read_file(out);
  if (printed)
    fputs(printed, log);
  unlink(out);
  program_tail(log, c, c->files.paths[t->i], t->b.test,
               cli_format("'%s' -tests %s%s -device %d 2>&1", exe, t->b.id,
                          gpu_prog_args(c, NULL), device),
               rc);
  fclose(log);
  bool failed = publish_log(bt, t->i, text, echo);
  free(text);
  return failed;
}

/* A batch process being watched: the driver says "done K STATUS" after
 * each test, whose log is then finished at once. */
typedef struct batch_process {
  batch *bt;
  const queued *q;
  int n, next; /* tests, the one running now */
  const char *dir, *exe;
  int device, fails;
  bool echo;
} batch_process;

static bool on_driver_line(void *ctx, const char *line) {
  batch_process *bp = ctx;
  int done, rc;
  if (sscanf(line, "done %d %d", &done, &rc) != 2 || done != bp->next ||
      bp->next >= bp->n)
    return false;
  bp->fails += finish_queued(bp->bt, &bp->q[bp->next],
                             cli_format("%s/%d.out", bp->dir, bp->next), rc,
                             bp->exe, bp->device, bp->echo);
  bp->next++;
  return true; /* the next test's time starts now */
}

/* One process of the batch `exe` over q[0..n): each test's log as soon as
 * the driver says it is done.  The number of tests it finished: a test
 * that ends the process (a hang, a CUDA error) or outlives -timeout (the
 * process is killed) is finished with that status, and the caller goes on
 * from the next. */
static int run_process(batch *bt, const queued *q, int n, const char *exe,
                       int device, bool echo, int *fails) {
  const gpu_cli *c = bt->c;
  const char *dir = cli_format("%s/gpu%d", bt->tmpdir, device);
  mkdir(dir, 0777);
  const char *ids = "";
  for (int k = 0; k < n; k++)
    ids = cli_format("%s%s%s", ids, k ? "," : "", q[k].b.id);
  const char *cmd = cli_format("exec '%s' -logdir '%s' -tests %s%s -device %d "
                               "2>>'%s/driver.err'", exe, dir, ids,
                               gpu_prog_args(c, NULL), device, dir);
  int fd;
  fflush(stdout);
  pid_t pid = cli_spawn(cmd, &fd);
  if (pid < 0) {
    *fails += finish_queued(bt, &q[0], "", -1, exe, device, echo);
    return 1;
  }
  batch_process bp = {bt, q, n, 0, dir, exe, device, 0, echo};
  const cli_watch w = {.limit = c->timeout, .line = on_driver_line, .ctx = &bp};
  int rc = cli_watch_child(pid, fd, &w);
  if (bp.next < n) {
    bp.fails += finish_queued(bt, &q[bp.next],
                              cli_format("%s/%d.out", dir, bp.next),
                              rc == 0 ? -1 : rc, exe, device, echo);
    bp.next++;
  }
  *fails += bp.fails;
  return bp.next;
}

/* Run tests g, g + ngpu, ... on GPU g in batches of -batch tests, each
 * batch one process while no test ends it. */
static int run_share_batched(batch *bt, int g, int ngpu) {
  gpu_cli *c = bt->c;
  int fails = 0, n = 0;
  queued *q = GC_MALLOC(sizeof(queued) * (size_t)c->files.n);
  for (int i = g; i < c->files.n; i += ngpu) {
    if (bt->skip[i])
      continue;
    char *text = NULL;
    size_t len = 0;
    FILE *log = open_memstream(&text, &len);
    banner(log, c->files.paths[i]);
    queued *t = &q[n];
    memset(t, 0, sizeof *t);
    t->i = i;
    bool ok = build_for_run(c, c->files.paths[i], bt->names[i], true, &t->b,
                            log);
    fclose(log);
    t->head = GC_STRDUP(text);
    free(text);
    if (ok)
      n++;
    else
      fails += publish_log(bt, i, t->head, ngpu == 1);
  }
  for (int from = 0; from < n; from += c->batch) {
    int size = n - from < c->batch ? n - from : c->batch;
    const built **objs = GC_MALLOC(sizeof(built *) * (size_t)size);
    for (int k = 0; k < size; k++)
      objs[k] = &q[from + k].b;
    char *err = NULL;
    size_t len = 0;
    FILE *log = open_memstream(&err, &len);
    const char *exe = gpu_link_batch(c, bt->driver, objs, size, log);
    fclose(log);
    for (int k = 0; k < size && !exe; k++) {
      queued *t = &q[from + k];
      t->head = cli_format("%s%s" FAILED_LINE "not run (not linked)\n",
                           t->head, err);
      fails += publish_log(bt, t->i, t->head, ngpu == 1);
    }
    free(err);
    for (int k = 0; exe && k < size;)
      k += run_process(bt, q + from + k, size - k, exe, g, ngpu == 1, &fails);
  }
  return fails;
}

/* DIR/campaign.out: what the batch did, for the record. */
static void write_summary(const batch *bt, double wall) {
  if (!bt->c->outdir)
    return;
  FILE *f = fopen(cli_format("%s/campaign.out", bt->c->outdir), "w");
  if (!f)
    return;
  int resumed = bt->c->files.n - bt->todo;
  fprintf(f, "tests %d: %d run (%d failed, %d with a hung launch), %d "
             "refused (not built, or optcheck), %d resumed from earlier "
             "logs (%d of them failed)\n",
          bt->c->files.n, bt->ran, bt->failed - bt->refused, bt->hung,
          bt->refused, resumed, bt->resumed_failed);
  fprintf(f, "instances %llu\n", bt->instances);
  fprintf(f, "wall %.1f s: building ahead %.1f s, kernels %.1f s, the rest "
             "%.3f s per test run\n", wall, bt->build_s, bt->kernel_s,
          bt->ran ? (wall - bt->build_s - bt->kernel_s) / bt->ran : 0.0);
  fclose(f);
}

/* The tests of the campaign: their names; with -resume, those whose log
 * is there are skipped, and a log that records a failure is counted. */
static void plan(batch *bt) {
  gpu_cli *c = bt->c;
  bt->names = GC_MALLOC(sizeof(char *) * (size_t)c->files.n);
  bt->skip = GC_MALLOC_ATOMIC(sizeof(bool) * (size_t)c->files.n);
  for (int i = 0; i < c->files.n; i++) {
    bt->names[i] = gpu_test_key(c->files.keys[i]);
    bt->skip[i] = c->resume && file_exists(log_path(bt, i));
    if (bt->skip[i])
      bt->resumed_failed += log_failed(cli_read_file(log_path(bt, i)));
    bt->todo += !bt->skip[i];
  }
}

/* Each GPU's share in a worker of its own; then every log, in order, on
 * stdout.  Whether a share failed. */
static bool run_on_gpus(batch *bt, int ngpu, int (*share)(batch *, int, int)) {
  gpu_cli *c = bt->c;
  pid_t *pids = GC_MALLOC_ATOMIC(sizeof(pid_t) * (size_t)ngpu);
  for (int g = 0; g < ngpu; g++) {
    pids[g] = cli_fork();
    if (pids[g] == 0)
      _exit(share(bt, g, ngpu) ? 1 : 0);
  }
  bool failed = false;
  for (int g = 0; g < ngpu; g++) {
    int st = pids[g] > 0 ? cli_reap(pids[g]) : -1;
    if (!WIFEXITED(st) || WEXITSTATUS(st))
      failed = true;
  }
  for (int i = 0; i < c->files.n; i++) {
    if (bt->skip[i])
      continue;
    char *text = cli_read_file(log_path(bt, i));
    if (text)
      fputs(text, stdout);
    note_log(bt, text);
  }
  return failed;
}

int gpu_cmd_run(gpu_cli *c) {
  int ngpu = c->gpus > 0 ? c->gpus : gpu_count();
  if (ngpu < 1) {
    fprintf(stderr, "scopecat gpu run: no GPU visible: SKIP\n");
    return 77;
  }
  if (ngpu > c->files.n)
    ngpu = c->files.n;
  if (c->resume && !c->outdir) {
    fprintf(stderr, "scopecat gpu run: -resume needs -o DIR\n");
    return EXIT_USAGE;
  }
  if (c->outdir)
    mkdir(c->outdir, 0777);
  double start = sc_seconds();
  batch bt = {.c = c, .tmpdir = cli_temp_dir("logs"), .progress = isatty(2)};
  if (!bt.tmpdir) {
    fprintf(stderr, "scopecat gpu run: a temporary folder: %s\n",
            strerror(errno));
    return EXIT_SOME_FAILED;
  }
  plan(&bt);
  /* programs built ahead live in -keep DIR, or in this batch's folder */
  const char *keep = c->keep;
  if (!keep)
    c->keep = cli_format("%s/build", bt.tmpdir);
  build_ahead(&bt);
  if (c->batch > 1 && bt.todo > 0 &&
      !(bt.driver = gpu_batch_driver(c, stderr))) {
    fprintf(stderr, "scopecat gpu run: no batch driver: a process per test\n");
    c->batch = 1;
  }
  double built_at = sc_seconds();
  bt.t0 = built_at;
  int (*share)(batch *, int, int) =
      c->batch > 1 ? run_share_batched : run_share;
  bool failed = ngpu == 1 ? share(&bt, 0, 1) != 0
                          : run_on_gpus(&bt, ngpu, share);
  bt.build_s = built_at - start;
  write_summary(&bt, sc_seconds() - start);
  c->keep = keep;
  cli_temp_remove(bt.tmpdir);
  fflush(stdout);
  if (bt.resumed_failed)
    fprintf(stderr, "scopecat gpu run: %d resumed log%s record%s a failure\n",
            bt.resumed_failed, bt.resumed_failed == 1 ? "" : "s",
            bt.resumed_failed == 1 ? "s" : "");
  return failed || bt.resumed_failed ? EXIT_SOME_FAILED : EXIT_ALL_RAN;
}

/* `gpu build -keep DIR`: every program built ahead, then each found built
 * and its verdict said, then the batches a run on one GPU links. */
int gpu_cmd_build(gpu_cli *c) {
  if (!c->keep) {
    fprintf(stderr, "scopecat gpu build: -keep DIR is required\n");
    return EXIT_USAGE;
  }
  int rc = EXIT_ALL_RAN;
  batch bt = {.c = c, .progress = isatty(2)};
  plan(&bt);
  build_ahead(&bt);
  const built **objs = GC_MALLOC(sizeof(built *) * (size_t)c->files.n);
  int n = 0;
  for (int i = 0; i < c->files.n; i++) {
    built *b = GC_MALLOC(sizeof(built));
    if (!gpu_build(c, c->files.paths[i], bt.names[i], c->batch > 1, b, stderr))
      rc = EXIT_SOME_FAILED;
    else if (printf("%s\n", b->exe), !b->optcheck_ran || b->optcheck_ok)
      objs[n++] = b;
  }
  const char *driver = c->batch > 1 && n ? gpu_batch_driver(c, stderr) : NULL;
  if (c->batch > 1 && n && !driver)
    rc = EXIT_SOME_FAILED;
  for (int from = 0; driver && from < n; from += c->batch) {
    int size = n - from < c->batch ? n - from : c->batch;
    const char *exe = gpu_link_batch(c, driver, objs + from, size, stderr);
    if (exe)
      printf("batch of %d: %s\n", size, exe);
    else
      rc = EXIT_SOME_FAILED;
  }
  return rc;
}
