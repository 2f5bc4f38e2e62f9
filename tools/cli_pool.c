/* cli_pool.c: -j N: N worker processes forked once, each taking task after
 * task (an index sent over a socket) and sending back its output; the
 * parent prints the outputs in the tasks' order, replaces a worker stuck
 * past the deadline or dead, and passes SIGINT and SIGTERM on. */

/* A process per task cost more than small tests do (a fork, a collector
 * and the models made again each time: -j 2 ran 6 to 12 times slower
 * than -j 1); a worker keeps its models from one task to the next. */
#define _POSIX_C_SOURCE 200809L
#include "cli_pool.h"

#include "scopecat.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct worker {
  pid_t pid;      /* 0: none */
  int to;         /* the task socket, the parent's end */
  int from;       /* the results pipe, the parent's end */
  int task;       /* the task it runs, -1: idle */
  double started; /* when it got it */
} worker;

/* What a worker sends back per task: this, then the bytes of its stdout
 * and of its stderr. */
typedef struct record {
  int task, ok;
  size_t outlen, errlen;
} record;

typedef struct result {
  bool done, ok;
  char *out, *err; /* malloc'd: the collector has no business here */
  size_t outlen, errlen;
} result;

/* The workers' pids, for the signal handler. */
static volatile pid_t worker_pids[CLI_JOBS_MOST];
static volatile sig_atomic_t caught;

static void pass_on(int sig) {
  caught = sig;
  for (int i = 0; i < CLI_JOBS_MOST; i++)
    if (worker_pids[i] > 0)
      kill(worker_pids[i], sig);
}

/* Move all `len` bytes through `fd` (a pipe), retrying short transfers and
 * interrupted calls: one loop for both directions. */
static bool transfer_full(int fd, char *p, size_t len, bool reading) {
  while (len > 0) {
    ssize_t n = reading ? read(fd, p, len) : write(fd, p, len);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    p += n;
    len -= (size_t)n;
  }
  return true;
}

static bool read_full(int fd, void *buf, size_t len) {
  return transfer_full(fd, buf, len, true);
}

static bool write_full(int fd, const void *buf, size_t len) {
  return transfer_full(fd, (char *)buf, len, false);
}

/* ---- The worker ---------------------------------------------------------- */

/* Its stderr is a scratch file, emptied before each task and read back
 * after it. */
static char *take_stderr(size_t *len) {
  fflush(stderr);
  off_t end = lseek(2, 0, SEEK_END);
  *len = end > 0 ? (size_t)end : 0;
  char *text = malloc(*len + 1);
  if (!text || pread(2, text, *len, 0) != (ssize_t)*len)
    *len = 0;
  if (ftruncate(2, 0) != 0 || lseek(2, 0, SEEK_SET) != 0)
    *len = 0;
  return text;
}

static void run_tasks(const cli_pool *p, int in, int out) {
  FILE *scratch = tmpfile();
  if (!scratch || dup2(fileno(scratch), 2) < 0)
    _exit(1);
  int i;
  while (read_full(in, &i, sizeof i) && i >= 0) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
      _exit(1);
    bool ok = p->task(p->ctx, i, f);
    if (fclose(f) != 0)
      ok = false;
    size_t errlen;
    char *err = take_stderr(&errlen);
    record r = {i, ok, len, errlen};
    if (!write_full(out, &r, sizeof r) || !write_full(out, text, len) ||
        !write_full(out, err, errlen))
      _exit(1);
    free(text);
    free(err);
  }
  _exit(0);
}

/* ---- The parent ---------------------------------------------------------- */

static void close_worker_ends(worker *ws, int n) {
  for (int k = 0; k < n; k++)
    if (ws[k].pid > 0) {
      close(ws[k].to);
      close(ws[k].from);
    }
}

/* Start worker k; false when it could not be. */
static bool start_worker(const cli_pool *p, worker *ws, int n, int k) {
  int task[2], res[2];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, task) != 0)
    return false;
  if (pipe(res) != 0) {
    close(task[0]);
    close(task[1]);
    return false;
  }
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid == 0) {
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    close_worker_ends(ws, n);
    close(task[0]);
    close(res[0]);
    run_tasks(p, task[1], res[1]);
  }
  close(task[1]);
  close(res[1]);
  if (pid < 0) {
    close(task[0]);
    close(res[0]);
    return false;
  }
  ws[k] = (worker){pid, task[0], res[0], -1, 0};
  worker_pids[k] = pid;
  return true;
}

/* Worker k is gone (killed, or dead): reap it; its signal, 0 if none. */
static int end_worker(worker *ws, int k) {
  int status = 0, sig = 0;
  close(ws[k].to);
  close(ws[k].from);
  while (waitpid(ws[k].pid, &status, 0) < 0 && errno == EINTR)
    ;
  if (WIFSIGNALED(status))
    sig = WTERMSIG(status);
  worker_pids[k] = 0;
  ws[k].pid = 0;
  return sig;
}

/* Worker k's task failed without a result: its line instead, and a new
 * worker in its place. */
static void replace_worker(const cli_pool *p, worker *ws, int n, int k,
                           result *res, int sig) {
  int task = ws[k].task;
  const char *line = p->stuck(p->ctx, task, sig);
  size_t len = strlen(line);
  res[task] = (result){true, false, NULL, malloc(len + 2), 0, len + 1};
  if (res[task].err)
    memcpy(res[task].err, line, len), res[task].err[len] = '\n';
  else
    res[task].errlen = 0;
  if (!start_worker(p, ws, n, k))
    fprintf(stderr, "scopecat: cannot start a worker: %s\n", strerror(errno));
}

typedef enum { TAKEN, DIED, LATE } take_status;

/* Read len bytes of worker w's result.  poll() said the first byte is
 * there, not the rest: a worker stopped (or starved) part way through
 * writing its result must not block the pool past the deadline, as a
 * blocking read once did (the pool waited for ever on a stopped worker). */
static take_status read_result(const cli_pool *p, const worker *w, void *buf,
                               size_t len) {
  char *b = buf;
  while (len > 0) {
    struct pollfd fd = {.fd = w->from, .events = POLLIN};
    int r = poll(&fd, 1, 250);
    if (r < 0 && errno != EINTR)
      return DIED;
    if (r > 0) {
      ssize_t got = read(w->from, b, len);
      if (got < 0 && errno == EINTR)
        continue;
      if (got <= 0)
        return DIED;
      b += got;
      len -= (size_t)got;
    } else if (p->deadline > 0 && sc_seconds() - w->started > p->deadline) {
      return LATE;
    }
  }
  return TAKEN;
}

/* Read worker w's result: TAKEN, or DIED instead, or LATE: past the
 * deadline with its result unfinished. */
static take_status take_result(const cli_pool *p, worker *w, result *res) {
  record r;
  take_status st = read_result(p, w, &r, sizeof r);
  if (st != TAKEN)
    return st;
  if (r.task != w->task)
    return DIED;
  result *x = &res[r.task];
  x->out = malloc(r.outlen + 1);
  x->err = malloc(r.errlen + 1);
  if (!x->out || !x->err)
    st = DIED;
  else if ((st = read_result(p, w, x->out, r.outlen)) == TAKEN)
    st = read_result(p, w, x->err, r.errlen);
  if (st != TAKEN) { /* the caller's replace_worker writes its line here */
    free(x->out);
    free(x->err);
    x->out = x->err = NULL;
    return st;
  }
  x->outlen = r.outlen;
  x->errlen = r.errlen;
  x->ok = r.ok;
  x->done = true;
  w->task = -1;
  return TAKEN;
}

/* Send task *next to idle worker k; false when it is gone (died idle). */
static bool send_task(worker *w, int task) {
  if (send(w->to, &task, sizeof task, MSG_NOSIGNAL) != sizeof task)
    return false;
  w->task = task;
  w->started = sc_seconds();
  return true;
}

static void give_tasks(const cli_pool *p, worker *ws, int n, int *next) {
  for (int k = 0; k < n && *next < p->ntasks; k++) {
    if (ws[k].pid <= 0 || ws[k].task >= 0)
      continue;
    if (!send_task(&ws[k], *next)) { /* it died idle: a new one takes it */
      kill(ws[k].pid, SIGKILL);
      end_worker(ws, k);
      if (!start_worker(p, ws, n, k) || !send_task(&ws[k], *next))
        continue;
    }
    (*next)++;
  }
}

/* Wait up to a quarter of a second for results; take them, and replace
 * the workers that died or ran past the deadline. */
static void collect(const cli_pool *p, worker *ws, int n, result *res,
                    int *done) {
  struct pollfd fds[CLI_JOBS_MOST];
  int who[CLI_JOBS_MOST], m = 0;
  for (int k = 0; k < n; k++)
    if (ws[k].pid > 0 && ws[k].task >= 0) {
      fds[m] = (struct pollfd){.fd = ws[k].from, .events = POLLIN};
      who[m++] = k;
    }
  if (poll(fds, (nfds_t)m, 250) < 0)
    return; /* a signal: the caller looks */
  double now = sc_seconds();
  for (int j = 0; j < m; j++) {
    int k = who[j];
    if (fds[j].revents || (p->deadline > 0 && now - ws[k].started > p->deadline))
      (*done)++;
    if (fds[j].revents) {
      take_status st = take_result(p, &ws[k], res);
      if (st != TAKEN) {
        kill(ws[k].pid, SIGKILL);
        int sig = end_worker(ws, k);
        replace_worker(p, ws, n, k, res, st == LATE ? 0 : sig ? sig : SIGKILL);
      }
    } else if (p->deadline > 0 && now - ws[k].started > p->deadline) {
      kill(ws[k].pid, SIGKILL);
      end_worker(ws, k);
      replace_worker(p, ws, n, k, res, 0);
    }
  }
}

static bool any_busy(const worker *ws, int n) {
  for (int k = 0; k < n; k++)
    if (ws[k].pid > 0 && ws[k].task >= 0)
      return true;
  return false;
}

static void print_result(const cli_pool *p, int i, result *x) {
  if (p->tick)
    fputs("\r\033[K", stderr);
  if (x->outlen > 0) /* a replaced worker's task has no output */
    fwrite(x->out, 1, x->outlen, stdout);
  fflush(stdout);
  if (x->errlen > 0 && p->print_err)
    p->print_err(p->ctx, i, x->err, x->errlen);
  else if (x->errlen > 0)
    fwrite(x->err, 1, x->errlen, stderr);
  free(x->out);
  free(x->err);
}

int cli_pool_run(const cli_pool *p) {
  if (p->ntasks <= 0)
    return 0; /* no worker to start */
  int n = p->jobs < p->ntasks ? p->jobs : p->ntasks;
  worker ws[CLI_JOBS_MOST];
  memset(ws, 0, sizeof ws);
  result *res = calloc((size_t)p->ntasks + 1, sizeof *res);
  struct sigaction on = {.sa_handler = pass_on}, old_int, old_term;
  sigemptyset(&on.sa_mask);
  caught = 0;
  sigaction(SIGINT, &on, &old_int);
  sigaction(SIGTERM, &on, &old_term);
  int started = 0;
  for (int k = 0; k < n && res; k++)
    started += start_worker(p, ws, n, k);
  if (started == 0) {
    fprintf(stderr, "scopecat: cannot start a worker: %s\n", strerror(errno));
    free(res);
    return -1;
  }
  int next = 0, printed = 0, failed = 0, done = 0;
  double last_tick = 0;
  while (printed < p->ntasks && !caught) {
    give_tasks(p, ws, n, &next);
    if (!any_busy(ws, n)) {
      fprintf(stderr, "scopecat: no worker left to run the tests: %s\n",
              strerror(errno));
      break;
    }
    collect(p, ws, n, res, &done);
    for (; printed < p->ntasks && res[printed].done; printed++) {
      print_result(p, printed, &res[printed]);
      failed += !res[printed].ok;
    }
    if (p->tick && sc_seconds() - last_tick >= 0.25) {
      last_tick = sc_seconds();
      p->tick(p->ctx, done);
    }
  }
  if (!caught)
    failed += p->ntasks - printed; /* none left to run them */
  int stop = -1;
  for (int k = 0; k < n; k++)
    if (ws[k].pid > 0) {
      if (caught)
        kill(ws[k].pid, caught);
      else
        send(ws[k].to, &stop, sizeof stop, MSG_NOSIGNAL);
      end_worker(ws, k);
    }
  for (int i = printed; i < p->ntasks; i++)
    if (res[i].done) {
      free(res[i].out);
      free(res[i].err);
    }
  free(res);
  sigaction(SIGINT, &old_int, NULL);
  sigaction(SIGTERM, &old_term, NULL);
  if (caught)
    raise(caught);
  return failed;
}
