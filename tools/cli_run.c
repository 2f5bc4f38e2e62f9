/* cli_run.c: shell commands run by the CLI (nvcc, generated GPU programs,
 * oracle commands of `fences -gpu`): their output captured, and a watchdog
 * that kills a command still running after a limit. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include "scopecat.h"

#include <errno.h>
#include <gc/gc.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

pid_t cli_spawn(const char *cmd, int *fd) {
  int p[2];
  if (pipe(p) != 0)
    return -1;
  pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    dup2(p[1], 1);
    close(p[0]);
    close(p[1]);
    execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
    _exit(127);
  }
  if (pid > 0)
    setpgid(pid, pid);
  close(p[1]);
  if (pid < 0)
    close(p[0]);
  *fd = p[0];
  return pid;
}

/* With `limit` > 0, a command still running after `limit` seconds is
 * killed with its whole process group: a kernel that spins forever keeps
 * its process inside the driver, where only SIGKILL reaches it; the
 * driver then frees the GPU. */
int cli_run(const char *cmd, FILE *out, double limit) {
  if (out)
    fflush(out);
  int fd;
  pid_t pid = cli_spawn(cmd, &fd);
  if (pid < 0)
    return -1;
  double deadline = limit > 0 ? sc_seconds() + limit : 0;
  bool killed = false;
  for (;;) {
    struct pollfd pf = {fd, POLLIN, 0};
    int wait_ms = 250;
    if (deadline > 0) {
      double left = deadline - sc_seconds();
      if (left <= 0) {
        kill(-pid, SIGKILL);
        killed = true;
        break;
      }
      if (left * 1000 < wait_ms)
        wait_ms = (int)(left * 1000) + 1;
    }
    int r = poll(&pf, 1, wait_ms);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      continue;
    char buf[4096];
    ssize_t k = read(fd, buf, sizeof buf);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0)
      break;
    if (out)
      fwrite(buf, 1, (size_t)k, out);
  }
  close(fd);
  int st;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
    ;
  if (killed)
    return CLI_RUN_TIMED_OUT;
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
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
