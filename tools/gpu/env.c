/* env.c: what every `scopecat gpu` command asks of the machine: the
 * folder of the harness templates, the number of visible GPUs, the CUDA
 * compiler (gpu.h). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "gpu.h"

#include <ctype.h>
#include <gc/gc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

static bool file_exists(const char *p) {
  struct stat st;
  return stat(p, &st) == 0;
}

const char *gpu_dir(const char *given) {
  if (given)
    return given;
  const char *e = getenv("SCOPECAT_GPU_DIR");
  if (e)
    return e;
  const char *self = cli_self_exe();
  if (self) {
    char *exe = GC_STRDUP(self);
    char *slash = strrchr(exe, '/');
    if (slash)
      *slash = '\0';
    const char *tries[] = {"gpu", "../gpu", "../harness", "../../harness",
                           "../share/scopecat/gpu"};
    for (size_t i = 0; i < sizeof tries / sizeof *tries; i++) {
      char *d = cli_format("%s/%s/gpu_main.cuh", exe, tries[i]);
      if (file_exists(d))
        return cli_format("%s/%s", exe, tries[i]);
    }
  }
#ifdef SC_GPUDIR
  if (file_exists(SC_GPUDIR "/gpu_main.cuh"))
    return SC_GPUDIR;
#endif
#ifdef SC_SRC_GPUDIR
  return SC_SRC_GPUDIR;
#else
  return "harness";
#endif
}

/* How many GPUs CUDA_VISIBLE_DEVICES names (-1: unset): its entries up to
 * the first that is neither an index nor a GPU-/MIG- UUID, where CUDA
 * stops too ("", "NoDevFiles": none). */
static int visible_devices(void) {
  const char *v = getenv("CUDA_VISIBLE_DEVICES");
  if (!v)
    return -1;
  int n = 0;
  char *list = GC_STRDUP(v), *save = NULL;
  for (char *e = strtok_r(list, ",", &save); e; e = strtok_r(NULL, ",", &save)) {
    while (isspace((unsigned char)*e))
      e++;
    bool index = isdigit((unsigned char)*e);
    for (const char *p = e; index && *p && !isspace((unsigned char)*p); p++)
      index = isdigit((unsigned char)*p);
    if (!index && strncmp(e, "GPU-", 4) && strncmp(e, "MIG-", 4))
      break;
    n++;
  }
  return n;
}

/* The GPUs this process may use: those nvidia-smi lists, no more than
 * CUDA_VISIBLE_DEVICES names (nvidia-smi ignores it; CUDA numbers the
 * devices it names from 0, which is what -device takes). */
int gpu_count(void) {
  int visible = visible_devices();
  if (visible == 0)
    return 0;
  FILE *p = popen("nvidia-smi -L 2>/dev/null", "r");
  int n = 0;
  if (p) {
    char buf[512];
    while (fgets(buf, sizeof buf, p))
      if (!strncmp(buf, "GPU ", 4))
        n++;
    pclose(p);
  }
  return visible > 0 && visible < n ? visible : n;
}

#ifndef SC_NVCC
#define SC_NVCC "nvcc"
#endif

const char *const gpu_configured_nvcc = SC_NVCC;

const char *gpu_nvcc(const char *given) {
  if (given)
    return given;
  const char *e = getenv("NVCC");
  return e ? e : gpu_configured_nvcc;
}
