/* options.c: the options of `scopecat gpu run|tune|build|gen` and the
 * generated program's parameters: each checked before anything runs (the
 * program reads numbers with atoll), from the command line or a file
 * `tune` wrote (-config). */
#define _POSIX_C_SOURCE 200809L
#include "gpu.h"

#include <ctype.h>
#include <errno.h>
#include <gc/gc.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Options handed to the generated program, in its own spelling. */
const char *const gpu_prog_opts[] = {
    "n", "tpb", "blocks", "stress-blocks", "stress-seq", "stress-iters",
    "stress-patch", "stress-regions", "stress-spread", "spacing", "sync-spin",
    "warmup", "bank-conflicts", "shuffle", "seed", "variants",
    "launch-timeout", "oversubscribe", NULL};

void gpu_usage(FILE *out) {
  fprintf(out,
      "usage: scopecat gpu gen [-o DIR] FILE|DIR...\n"
      "       scopecat gpu run [options] FILE|DIR...\n"
      "       scopecat gpu tune [options] -o FILE FILE|DIR...\n"
      "       scopecat gpu build -keep DIR [-jobs N] FILE|DIR...  (compile ahead)\n"
      "       scopecat gpu drf [options]  (data-race-free random testing;\n"
      "                                    scopecat gpu drf -help)\n"
      "       scopecat gpu app [options] -- PROGRAM ARGS...  (a CUDA program\n"
      "                                    in seed 000's testing environments;\n"
      "                                    scopecat gpu app -help)\n"
      "options (run and tune):\n"
      "  -n N               test instances per test (default 100000000)\n"
      "  -o DIR             also write each log to DIR/NAME.txt as soon as\n"
      "                     its test ends (NAME: the test's path in the\n"
      "                     folder named, '/' written '__'), and a summary\n"
      "                     of the batch to DIR/campaign.out\n"
      "  -resume            skip the tests whose log -o DIR already holds\n"
      "  -jobs N            build N programs at once, all ahead of the runs\n"
      "                     (default: the processors online)\n"
      "  -batch N           run N tests one after another in one process, one\n"
      "                     CUDA context (default 32; 1: a process per test);\n"
      "                     a hang ends the process, the next test starts a\n"
      "                     new one\n"
      "  -config FILE       read parameters from FILE (written by tune)\n"
      "  -tpb N             threads per CTA (default 256)\n"
      "  -blocks N          CTAs holding test instances (default 4 per SM)\n"
      "  -stress-blocks N|LO-HI  extra CTAs that stress memory, drawn in\n"
      "                     LO..HI for each launch (default 0)\n"
      "  -stress-seq S      their access sequence: st,ld,... (default st,ld)\n"
      "  -stress-iters N    accesses per stressing thread (default 64)\n"
      "  -stress-patch N    words per scratchpad patch (default 32)\n"
      "  -stress-regions N  patches in the scratchpad (default 64)\n"
      "  -stress-spread N   patches stressed at once, 1..32 (default 2)\n"
      "  -spacing N         words between testing locations (default 32)\n"
      "  -sync-spin N       pre-test barrier, spin bound (default 0: off)\n"
      "  -warmup N          N local-memory stores by each testing thread\n"
      "                     before the test (default 0)\n"
      "  -bank-conflicts 0|1  idle lanes of test warps hit one shared bank\n"
      "  -shuffle 0|1       thread and location randomisation (default 1)\n"
      "  -seed N            random seed (default 1)\n"
      "  -variants N        random layouts per run (default 8)\n"
      "  -launch-timeout S  a launch not finished after S seconds is a hang,\n"
      "                     logged as a Hangs line (default 1; 0: none)\n"
      "  -oversubscribe 0|1 1: more CTAs than the GPU holds at once: each CTA\n"
      "                     of the test's scope tree in CTAs of its own, the\n"
      "                     first ones filling the GPU, so that a later one\n"
      "                     starts only when an earlier one ends (-blocks\n"
      "                     does not apply; default 0)\n"
      "  -gpus N            use N GPUs (default: all visible; CUDA_VISIBLE_DEVICES\n"
      "                     limits them, as Slurm's --gpus sets it)\n"
      "  -timeout S         watchdog: kill a test still running after S\n"
      "                     seconds, report it, go on (default 120; 0: none)\n"
      "  -nvcc PATH         the CUDA compiler (default %s)\n"
      "  -gpudir DIR        the harness templates (harness/)\n"
      "  -keep DIR          keep generated programs and SASS under DIR, one\n"
      "                     folder per test, named as its log; a kept\n"
      "                     program whose command, compiler, source and\n"
      "                     harness headers are the same is not built again\n"
      "options (gen, run, build):\n",
      gpu_configured_nvcc);
  cli_shard_usage(out, 21);
  cli_common_usage(out, 21);
}

static int opt_index(const char *a) {
  for (int i = 0; gpu_prog_opts[i]; i++)
    if (cli_is_option(a, gpu_prog_opts[i]))
      return i;
  return -1;
}

/* The value of program option `name`, NULL when not set. */
const char *gpu_prog_val(const gpu_cli *c, const char *name) {
  for (int i = 0; gpu_prog_opts[i]; i++)
    if (!strcmp(gpu_prog_opts[i], name))
      return c->vals[i];
  return NULL;
}

/* A decimal number in [lo, hi] spanning all of `s`. */
static bool is_number(const char *s, long long lo, long long hi) {
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  return *s && !*end && errno == 0 && v >= lo && v <= hi;
}

/* Why `val` is no value for program option `name`; NULL when it is one.
 * The generated program reads numbers with atoll: checking here keeps a
 * typo from running 0 instances or an unstressed test silently. */
static const char *bad_prog_value(const char *name, const char *val) {
  if (!strcmp(name, "stress-seq")) {
    int n = 0;
    for (const char *p = val;; p += 2) {
      if (strncmp(p, "st", 2) && strncmp(p, "ld", 2))
        return "a sequence of st and ld separated by commas";
      n++;
      if (p[2] == '\0')
        break;
      if (p[2] != ',')
        return "a sequence of st and ld separated by commas";
      p++;
    }
    return n <= 16 ? NULL : "at most 16 accesses";
  }
  if (!strcmp(name, "stress-blocks")) {
    const char *dash = strchr(val, '-');
    if (!dash)
      return is_number(val, 0, 1 << 20) ? NULL : "a number of CTAs or LO-HI";
    char *lo = GC_STRNDUP(val, (size_t)(dash - val));
    return is_number(lo, 0, 1 << 20) && is_number(dash + 1, 0, 1 << 20) &&
                   atoll(lo) <= atoll(dash + 1)
               ? NULL
               : "a number of CTAs or LO-HI with LO <= HI";
  }
  if (!strcmp(name, "launch-timeout")) {
    char *end;
    double v = strtod(val, &end);
    return *val && !*end && v >= 0 && v <= 1e6 ? NULL : "seconds (0: no limit)";
  }
  if (!strcmp(name, "n"))
    return is_number(val, 1, (long long)1 << 50) ? NULL
                                                   : "a positive number";
  if (!strcmp(name, "stress-spread"))
    return is_number(val, 1, 32) ? NULL : "a number from 1 to 32";
  if (!strcmp(name, "tpb"))
    return is_number(val, 32, 1024) && atoll(val) % 32 == 0
               ? NULL
               : "a multiple of 32 from 32 to 1024";
  if (!strcmp(name, "seed"))
    return is_number(val, 0, LLONG_MAX) ? NULL : "a non-negative number";
  if (!strcmp(name, "bank-conflicts") || !strcmp(name, "shuffle") ||
      !strcmp(name, "oversubscribe"))
    return is_number(val, 0, 1) ? NULL : "0 or 1";
  /* zero variants or spacing would divide by zero or put every instance
   * on one word */
  if (!strcmp(name, "variants") || !strcmp(name, "spacing") ||
      !strcmp(name, "stress-patch") || !strcmp(name, "stress-regions") ||
      !strcmp(name, "blocks"))
    return is_number(val, 1, 1 << 30) ? NULL : "a positive number";
  return is_number(val, 0, 1 << 30) ? NULL : "a non-negative number";
}

/* Read a config file: lines "NAME VALUE" (# comments); the command line
 * wins over it (gpu.h: `gpu app -config` reads it too). */
bool gpu_read_config(gpu_cli *c, const char *path) {
  char *text = cli_read_file(path);
  if (!text) {
    fprintf(stderr, "scopecat gpu: %s: cannot read\n", path);
    return false;
  }
  int line = 0;
  for (char *save = NULL, *l = strtok_r(text, "\n", &save); l;
       l = strtok_r(NULL, "\n", &save)) {
    line++;
    while (isspace((unsigned char)*l))
      l++;
    if (!*l || *l == '#')
      continue;
    char name[64], val[256];
    if (sscanf(l, "%63s %255s", name, val) != 2) {
      fprintf(stderr, "%s:%d:1: expected NAME VALUE\n", path, line);
      return false;
    }
    int k = opt_index(cli_format("-%s", name));
    if (k < 0) {
      fprintf(stderr, "%s:%d:1: unknown parameter '%s'\n", path, line, name);
      return false;
    }
    const char *why = bad_prog_value(name, val);
    if (why) {
      fprintf(stderr, "%s:%d:%d: %s: expected %s, not '%s'\n", path, line,
              (int)(strstr(l, val) - l) + 1, name, why, val);
      return false;
    }
    if (!c->vals[k])
      c->vals[k] = GC_STRDUP(val);
  }
  return true;
}

static const char *prog_value(void *opts, const cli_opt *o, const char *val) {
  const char *why = bad_prog_value(o->name, val);
  if (!why)
    *CLI_FIELD(const char *, opts, o) = val;
  return why;
}

#define AT(field) .offset = offsetof(gpu_cli, field)
static const cli_opt gpu_opts[] = {
    {.name = "o", .kind = CLI_STRING, AT(outdir)},
    {.name = "config", .kind = CLI_STRING, AT(config)},
    {.name = "nvcc", .kind = CLI_STRING, AT(nvcc)},
    {.name = "gpudir", .kind = CLI_STRING, AT(gpudir)},
    {.name = "keep", .kind = CLI_STRING, AT(keep)},
    {.name = "gpus", .kind = CLI_INT, AT(gpus), .lo = 0, .hi = 1024,
     .bad = "-gpus: expected a number, not '%v'"},
    {.name = "jobs", .kind = CLI_INT, AT(jobs), .lo = 1, .hi = 1024,
     .bad = "-jobs: expected a number from 1 to 1024, not '%v'"},
    {.name = "batch", .kind = CLI_INT, AT(batch), .lo = 1, .hi = 4096,
     .bad = "-batch: expected a number from 1 to 4096, not '%v'"},
    {.name = "resume", .kind = CLI_FLAG, AT(resume)},
    {.name = "timeout", .kind = CLI_SECONDS, AT(timeout),
     .bad = "-timeout: expected seconds, not '%v'"},
    CLI_SHARD_OPTION(gpu_cli, shard),
};
#define NGPU_OPTS (sizeof gpu_opts / sizeof gpu_opts[0])
#define NPROG_OPTS (sizeof gpu_prog_opts / sizeof gpu_prog_opts[0] - 1)

int gpu_parse_opts(gpu_cli *c, int argc, char **argv) {
  /* gpu_opts, then each program option, checked by bad_prog_value */
  cli_opt table[NGPU_OPTS + NPROG_OPTS + 1];
  memcpy(table, gpu_opts, sizeof gpu_opts);
  for (size_t k = 0; k < NPROG_OPTS; k++)
    table[NGPU_OPTS + k] = (cli_opt){
        gpu_prog_opts[k], CLI_CALL, offsetof(gpu_cli, vals) + k * sizeof(char *),
        .call = prog_value, .bad = "%o: expected %w, not '%v'"};
  table[NGPU_OPTS + NPROG_OPTS] = (cli_opt){0};
  const cli_command gpu_command = {
      "gpu", table, {.kind = CLI_TESTS, AT(files)}, gpu_usage, false};
  int missing;
  int rc = cli_parse(&gpu_command, c, argc, argv, &missing);
  if (rc != CLI_GO_ON)
    return rc;
  if (c->config && !gpu_read_config(c, c->config))
    return EXIT_USAGE;
  if (!c->nvcc)
    c->nvcc = gpu_nvcc(NULL);
  return missing ? EXIT_SOME_FAILED : -1;
}

const char *gpu_prog_args(const gpu_cli *c, const char *const *over) {
  char *s = "";
  for (int i = 0; gpu_prog_opts[i]; i++) {
    const char *v = c->vals[i];
    for (int j = 0; over && over[j]; j += 2)
      if (!strcmp(over[j], gpu_prog_opts[i]))
        v = over[j + 1];
    if (v)
      s = cli_format("%s -%s '%s'", s, gpu_prog_opts[i], v);
  }
  return s;
}
