/* cli_run.c: shell commands run by the CLI (nvcc, generated GPU programs,
 * oracle commands of `fences -gpu`): their output captured, the one
 * watchdog that kills a command still running after a limit, and what a
 * signal to the CLI must not leave behind: commands still running in
 * process groups of their own (which a Ctrl-C on the terminal does not
 * reach) and temporary folders. */
#define _POSIX_C_SOURCE 200809L
#include "cli_run.h"

#include "scopecat.h"

#include <errno.h>
#include <gc/gc.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- what a signal must reach: children and temporary folders ---------- */

/* Fixed tables, read by the signal handler (no allocation there): room
 * for -jobs' and -gpus' largest values, and a folder per test of a tune
 * without -keep.  A folder's name is a GC string (the collector scans
 * this table: it stays alive while listed). */
enum { MAX_CHILDREN = 4096, MAX_TEMPS = 4096 };
static struct {
  pid_t pid;
  bool group; /* a command in a process group of its own: kill(-pid) */
} children[MAX_CHILDREN];
static volatile sig_atomic_t nchildren;
static const char *temps[MAX_TEMPS];
static volatile sig_atomic_t ntemps;
static const int forwarded[] = {SIGINT, SIGTERM, SIGHUP};

static void block_signals(sigset_t *old) {
  sigset_t set;
  sigemptyset(&set);
  for (size_t i = 0; i < sizeof forwarded / sizeof *forwarded; i++)
    sigaddset(&set, forwarded[i]);
  sigprocmask(SIG_BLOCK, &set, old);
}

static void add_child(pid_t pid, bool group) {
  if (nchildren < MAX_CHILDREN) {
    children[nchildren].pid = pid;
    children[nchildren].group = group;
    nchildren++;
  }
}

static void drop_child(pid_t pid) {
  sigset_t old;
  block_signals(&old);
  for (int i = 0; i < nchildren; i++)
    if (children[i].pid == pid) {
      children[i] = children[nchildren - 1];
      nchildren--;
      break;
    }
  sigprocmask(SIG_SETMASK, &old, NULL);
}

/* rm -rf, with only async-signal-safe calls (fork, execve, waitpid). */
static void remove_tree(const char *dir) {
  pid_t pid = fork();
  if (pid == 0) {
    char *const argv[] = {"rm", "-rf", (char *)dir, NULL};
    char *const envp[] = {NULL};
    execve("/bin/rm", argv, envp);
    _exit(127);
  }
  if (pid > 0)
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
      ;
}

/* A signal that ends the CLI ends what it started: the signal goes to
 * every worker and command; workers (which do the same for theirs) are
 * waited for; a command still there is killed (a kernel that spins keeps
 * its process inside the driver, where only SIGKILL reaches it); the
 * temporary folders go; then the CLI dies of the signal, as its parent
 * expects. */
static void on_signal(int sig) {
  for (int i = 0; i < nchildren; i++)
    kill(children[i].group ? -children[i].pid : children[i].pid, sig);
  for (int i = 0; i < nchildren; i++)
    if (!children[i].group)
      while (waitpid(children[i].pid, NULL, 0) < 0 && errno == EINTR)
        ;
  for (int i = 0; i < nchildren; i++)
    if (children[i].group)
      kill(-children[i].pid, SIGKILL);
  for (int i = 0; i < ntemps; i++)
    if (temps[i])
      remove_tree(temps[i]);
  signal(sig, SIG_DFL);
  raise(sig);
}

static void remove_temps_at_exit(void) {
  for (int i = 0; i < ntemps; i++)
    if (temps[i])
      remove_tree(temps[i]);
  ntemps = 0;
}

/* The handlers, once, before the first child or folder. */
static void catch_signals(void) {
  static bool caught;
  if (caught)
    return;
  caught = true;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  for (size_t i = 0; i < sizeof forwarded / sizeof *forwarded; i++)
    sigaddset(&sa.sa_mask, forwarded[i]);
  for (size_t i = 0; i < sizeof forwarded / sizeof *forwarded; i++) {
    struct sigaction was;
    /* a signal ignored by the parent (nohup) stays ignored */
    if (sigaction(forwarded[i], NULL, &was) == 0 && was.sa_handler == SIG_IGN)
      continue;
    sigaction(forwarded[i], &sa, NULL);
  }
  atexit(remove_temps_at_exit);
}

/* In a new child: what is its parent's is not its own. */
static void forget_parent(void) {
  nchildren = 0;
  ntemps = 0;
}

pid_t cli_fork(void) {
  catch_signals();
  fflush(NULL);
  sigset_t old;
  block_signals(&old);
  pid_t pid = fork();
  if (pid == 0)
    forget_parent();
  else if (pid > 0)
    add_child(pid, false);
  sigprocmask(SIG_SETMASK, &old, NULL);
  return pid;
}

int cli_reap(pid_t pid) {
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
    ;
  drop_child(pid);
  return st;
}

const char *cli_temp_dir(const char *what) {
  catch_signals();
  const char *tmp = getenv("TMPDIR");
  char *path = cli_format("%s/scopecat-%s-XXXXXX", tmp && *tmp ? tmp : "/tmp",
                          what);
  sigset_t old;
  block_signals(&old);
  const char *dir = mkdtemp(path);
  if (dir)
    for (int i = 0; i <= ntemps && i < MAX_TEMPS; i++)
      if (i == ntemps || !temps[i]) {
        temps[i] = dir;
        ntemps += i == ntemps;
        break;
      }
  sigprocmask(SIG_SETMASK, &old, NULL);
  return dir;
}

void cli_temp_remove(const char *dir) {
  if (!dir)
    return;
  remove_tree(dir);
  sigset_t old;
  block_signals(&old);
  for (int i = 0; i < ntemps; i++)
    if (temps[i] && !strcmp(temps[i], dir))
      temps[i] = NULL;
  sigprocmask(SIG_SETMASK, &old, NULL);
}

/* ---- commands ---------------------------------------------------------- */

pid_t cli_spawn(const char *cmd, int *fd) {
  catch_signals();
  int p[2];
  if (pipe(p) != 0)
    return -1;
  fflush(NULL);
  sigset_t old;
  block_signals(&old);
  pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    for (size_t i = 0; i < sizeof forwarded / sizeof *forwarded; i++) {
      struct sigaction was;
      if (sigaction(forwarded[i], NULL, &was) == 0 &&
          was.sa_handler == on_signal)
        signal(forwarded[i], SIG_DFL);
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    dup2(p[1], 1);
    close(p[0]);
    close(p[1]);
    execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
    _exit(127);
  }
  if (pid > 0) {
    setpgid(pid, pid);
    add_child(pid, true);
  }
  sigprocmask(SIG_SETMASK, &old, NULL);
  close(p[1]);
  if (pid < 0)
    close(p[0]);
  *fd = p[0];
  return pid;
}

/* Hand the whole lines of buf[0..*have) to w->line; a line longer than
 * the buffer is handed over in pieces.  Whether one told of progress. */
static bool take_lines(const cli_watch *w, char *buf, size_t *have,
                       size_t size) {
  bool progress = false;
  char *nl;
  while ((nl = memchr(buf, '\n', *have))) {
    *nl = '\0';
    progress |= w->line(w->ctx, buf);
    *have -= (size_t)(nl + 1 - buf);
    memmove(buf, nl + 1, *have);
  }
  if (*have == size - 1) {
    buf[*have] = '\0';
    progress |= w->line(w->ctx, buf);
    *have = 0;
  }
  return progress;
}

/* With a limit, a command still running after it is killed with its
 * whole process group: a kernel that spins forever keeps its process
 * inside the driver, where only SIGKILL reaches it; the driver then frees
 * the GPU. */
int cli_watch_child(pid_t pid, int fd, const cli_watch *w) {
  double since = sc_seconds();
  bool killed = false;
  char buf[4096];
  size_t have = 0;
  for (;;) {
    int wait_ms = -1;
    if (w->limit > 0) {
      double left = since + w->limit - sc_seconds();
      if (left <= 0) {
        kill(-pid, SIGKILL);
        killed = true;
        break;
      }
      wait_ms = left * 1000 < INT_MAX - 1 ? (int)(left * 1000) + 1 : INT_MAX;
    }
    struct pollfd pf = {fd, POLLIN, 0};
    int r = poll(&pf, 1, wait_ms);
    if (r <= 0)
      continue;
    ssize_t k = read(fd, buf + have, sizeof buf - 1 - have);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0)
      break;
    if (w->out)
      fwrite(buf + have, 1, (size_t)k, w->out);
    have += (size_t)k;
    if (!w->line)
      have = 0;
    else if (take_lines(w, buf, &have, sizeof buf))
      since = sc_seconds();
  }
  if (w->line && have && !killed) {
    buf[have] = '\0';
    w->line(w->ctx, buf);
  }
  close(fd);
  int st = cli_reap(pid);
  if (killed)
    return CLI_RUN_TIMED_OUT;
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int cli_run(const char *cmd, FILE *out, double limit) {
  if (out)
    fflush(out);
  int fd;
  pid_t pid = cli_spawn(cmd, &fd);
  if (pid < 0)
    return -1;
  const cli_watch w = {.limit = limit, .out = out};
  return cli_watch_child(pid, fd, &w);
}

char *cli_run_capture(const char *cmd, double limit, int *status) {
  char *buf = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&buf, &len);
  *status = -1;
  if (!out)
    return NULL;
  *status = cli_run(cmd, out, limit);
  fclose(out);
  char *text = GC_STRDUP(buf);
  free(buf);
  return text;
}
