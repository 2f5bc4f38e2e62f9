/* gpu.c: `scopecat gpu gen|run|tune`: litmus tests on an Nvidia GPU.
 *
 *   gen  writes each test's CUDA program (NAME.cu) and its optcheck
 *        specification (NAME.spec) to a folder;
 *   run  generates, compiles with nvcc -arch=sm_90 -lineinfo, runs optcheck
 *        on the SASS of the very binary it runs (cuobjdump + nvdisasm -g),
 *        runs it and prints litmus7's histogram format, tests spread over
 *        every visible GPU;
 *   tune searches stress parameters for the most weak outcomes per second
 *        on the given tests and writes the best as a file `run -config`
 *        reads.
 * The kernels are inline PTX in CUDA C (see README): nvcc compiles the
 * harness around them, ptxas sees the test's PTX verbatim. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "gpu.h"

#include "litmus.h"

#include <ctype.h>
#include <errno.h>
#include <gc/gc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#ifndef SC_NVCC
#define SC_NVCC "nvcc"
#endif

/* Options handed to the generated program, in its own spelling. */
static const char *const prog_opts[] = {
    "n", "tpb", "blocks", "stress-blocks", "stress-seq", "stress-iters",
    "stress-lines", "stress-spread", "spacing", "sync-spin", "bank-conflicts",
    "shuffle", "seed", "variants", NULL};

typedef struct gpu_cli {
  const char *outdir;   /* -o: logs (run), programs (gen), file (tune) */
  const char *config;   /* -config FILE: tuned parameters */
  const char *nvcc;
  const char *gpudir;   /* the harness templates */
  const char *keep;     /* -keep DIR: keep the build folders */
  const char *vals[32]; /* program options, by prog_opts index */
  int gpus;             /* -gpus N: 0 = all visible */
  bool no_optcheck_ok;  /* -force: report even without nvdisasm */
  file_list files;
  int argc;
  char **argv;
} gpu_cli;

static void gpu_usage(FILE *out) {
  fprintf(out,
      "usage: scopecat gpu gen [-o DIR] FILE|DIR...\n"
      "       scopecat gpu run [options] FILE|DIR...\n"
      "       scopecat gpu tune [options] -o FILE FILE|DIR...\n"
      "       scopecat gpu build -keep DIR FILE|DIR...  (compile ahead)\n"
      "options (run and tune):\n"
      "  -n N               test instances per test (default 100000000)\n"
      "  -o DIR             also write each log to DIR/NAME.txt\n"
      "  -config FILE       read parameters from FILE (written by tune)\n"
      "  -tpb N             threads per CTA (default 256)\n"
      "  -blocks N          CTAs holding test instances (default 4 per SM)\n"
      "  -stress-blocks N   extra CTAs that stress memory (default 0)\n"
      "  -stress-seq S      their access sequence: st,ld,... (default st,ld)\n"
      "  -stress-iters N    accesses per stressing thread (default 64)\n"
      "  -stress-lines N    scratchpad lines stressed (default 1024)\n"
      "  -stress-spread N   words between stressed lines (default 32)\n"
      "  -spacing N         words between testing locations (default 32)\n"
      "  -sync-spin N       pre-test barrier, spin bound (default 0: off)\n"
      "  -bank-conflicts 0|1  idle lanes of test warps hit one shared bank\n"
      "  -shuffle 0|1       thread and location randomisation (default 1)\n"
      "  -seed N            random seed (default 1)\n"
      "  -variants N        random layouts per run (default 8)\n"
      "  -gpus N            use N GPUs (default: all visible)\n"
      "  -nvcc PATH         the CUDA compiler (default " SC_NVCC ")\n"
      "  -gpudir DIR        the harness templates (tools/gpu)\n"
      "  -keep DIR          keep generated programs and SASS under DIR\n");
}

/* ---- small helpers --------------------------------------------------------- */

static char *xprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *s = GC_MALLOC_ATOMIC((size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 4096, n = 0;
  char *s = GC_MALLOC_ATOMIC(cap);
  size_t k;
  while ((k = fread(s + n, 1, cap - n - 1, f)) > 0) {
    n += k;
    if (cap - n < 2) {
      char *t = GC_MALLOC_ATOMIC(cap * 2);
      memcpy(t, s, n);
      s = t;
      cap *= 2;
    }
  }
  s[n] = '\0';
  fclose(f);
  return s;
}

static bool file_exists(const char *p) {
  struct stat st;
  return stat(p, &st) == 0;
}

/* Run a shell command; its output goes to `log` (when not NULL). */
static int shell(const char *cmd, FILE *log) {
  FILE *p = popen(cmd, "r");
  if (!p)
    return -1;
  char buf[4096];
  size_t k;
  while ((k = fread(buf, 1, sizeof buf, p)) > 0)
    if (log)
      fwrite(buf, 1, k, log);
  int st = pclose(p);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static const char *find_gpudir(const gpu_cli *c) {
  if (c->gpudir)
    return c->gpudir;
  const char *e = getenv("SCOPECAT_GPU_DIR");
  if (e)
    return e;
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash)
      *slash = '\0';
    const char *tries[] = {"gpu", "../gpu", "../tools/gpu", "../../tools/gpu",
                           "../share/scopecat/gpu"};
    for (size_t i = 0; i < sizeof tries / sizeof *tries; i++) {
      char *d = xprintf("%s/%s/gpu_main.cuh", exe, tries[i]);
      if (file_exists(d))
        return xprintf("%s/%s", exe, tries[i]);
    }
  }
#ifdef SC_GPUDIR
  if (file_exists(SC_GPUDIR "/gpu_main.cuh"))
    return SC_GPUDIR;
#endif
#ifdef SC_SRC_GPUDIR
  return SC_SRC_GPUDIR;
#else
  return "tools/gpu";
#endif
}

static const char *safe_name(const char *name) {
  char *s = GC_STRDUP(name);
  for (char *p = s; *p; p++)
    if (!isalnum((unsigned char)*p) && *p != '+' && *p != '-' && *p != '.' &&
        *p != '_')
      *p = '_';
  return s;
}

/* ---- generation ------------------------------------------------------------- */

static bool gen_one(const char *path, const char *dir, const char **cu_out,
                    gpu_spec *spec, FILE *err) {
  sc_test *t;
  sc_error *e;
  if (sc_test_load_file(path, NULL, &t, &e) != SC_OK) {
    fprintf(err, "%s\n", sc_error_message(e));
    return false;
  }
  const char *cu = xprintf("%s/%s.cu", dir, safe_name(t->name));
  FILE *f = fopen(cu, "w");
  if (!f) {
    fprintf(err, "scopecat gpu: %s: %s\n", cu, strerror(errno));
    return false;
  }
  char why[512];
  bool ok = gpu_generate(f, t, spec, why, sizeof why);
  fclose(f);
  if (!ok) {
    fprintf(err, "%s: SKIP: %s\n", path, why);
    return false;
  }
  FILE *s = fopen(xprintf("%s/%s.spec", dir, safe_name(t->name)), "w");
  if (s) {
    for (int i = 0; i < spec->nthreads; i++)
      fprintf(s, "thread %d line %d %s\n", i, spec->threads[i].line,
              spec->threads[i].classes[0] ? spec->threads[i].classes : "-");
    fclose(s);
  }
  *cu_out = cu;
  return true;
}

/* ---- options ---------------------------------------------------------------- */

static int opt_index(const char *a) {
  for (int i = 0; prog_opts[i]; i++)
    if (cli_is_option(a, prog_opts[i]))
      return i;
  return -1;
}

/* Read a config file: lines "NAME VALUE" (# comments); the command line
 * wins over it. */
static bool read_config(gpu_cli *c, const char *path) {
  char *text = slurp(path);
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
    int k = opt_index(xprintf("-%s", name));
    if (k < 0) {
      fprintf(stderr, "%s:%d:1: unknown parameter '%s'\n", path, line, name);
      return false;
    }
    if (!c->vals[k])
      c->vals[k] = GC_STRDUP(val);
  }
  return true;
}

static int parse_opts(gpu_cli *c, int argc, char **argv) {
  int missing = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    int k;
    bool arg = i + 1 < argc;
#define NEED()                                                                \
  do {                                                                        \
    if (!arg) {                                                               \
      fprintf(stderr, "scopecat gpu: %s needs an argument\n", a);             \
      return EXIT_USAGE;                                                      \
    }                                                                         \
  } while (0)
    if (cli_is_option(a, "help") || cli_is_option(a, "h")) {
      gpu_usage(stdout);
      return EXIT_ALL_RAN;
    } else if (cli_is_option(a, "o")) {
      NEED(); c->outdir = argv[++i];
    } else if (cli_is_option(a, "config")) {
      NEED(); c->config = argv[++i];
    } else if (cli_is_option(a, "nvcc")) {
      NEED(); c->nvcc = argv[++i];
    } else if (cli_is_option(a, "gpudir")) {
      NEED(); c->gpudir = argv[++i];
    } else if (cli_is_option(a, "keep")) {
      NEED(); c->keep = argv[++i];
    } else if (cli_is_option(a, "gpus")) {
      NEED(); c->gpus = atoi(argv[++i]);
    } else if ((k = opt_index(a)) >= 0) {
      NEED(); c->vals[k] = argv[++i];
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "scopecat gpu: unknown option '%s'\n", a);
      gpu_usage(stderr);
      return EXIT_USAGE;
    } else if (!cli_collect(&c->files, a)) {
      missing++;
    }
  }
  if (c->config && !read_config(c, c->config))
    return EXIT_USAGE;
  if (!c->nvcc)
    c->nvcc = getenv("NVCC") ? getenv("NVCC") : SC_NVCC;
  return missing ? EXIT_SOME_FAILED : -1;
}

static const char *prog_args(const gpu_cli *c, const char *const *over) {
  char *s = "";
  for (int i = 0; prog_opts[i]; i++) {
    const char *v = c->vals[i];
    for (int j = 0; over && over[j]; j += 2)
      if (!strcmp(over[j], prog_opts[i]))
        v = over[j + 1];
    if (v)
      s = xprintf("%s -%s '%s'", s, prog_opts[i], v);
  }
  return s;
}

static int count_gpus(void) {
  FILE *p = popen("nvidia-smi -L 2>/dev/null", "r");
  int n = 0;
  if (p) {
    char buf[512];
    while (fgets(buf, sizeof buf, p))
      if (!strncmp(buf, "GPU ", 4))
        n++;
    pclose(p);
  }
  return n;
}

/* ---- build, optcheck, run --------------------------------------------------- */

typedef struct built {
  const char *dir, *exe;
  gpu_spec spec;
  sc_test *test;
  bool optcheck_ok, optcheck_ran;
} built;

static bool build(const gpu_cli *c, const char *path, built *b, FILE *log) {
  char tmpl[] = "/tmp/scopecat-gpu-XXXXXX";
  const char *dir;
  if (c->keep) {
    mkdir(c->keep, 0777);
    dir = xprintf("%s/%s", c->keep,
                  safe_name(strrchr(path, '/') ? strrchr(path, '/') + 1 : path));
    mkdir(dir, 0777);
  } else {
    dir = GC_STRDUP(mkdtemp(tmpl));
  }
  b->dir = dir;
  sc_error *e;
  if (sc_test_load_file(path, NULL, &b->test, &e) != SC_OK) {
    fprintf(log, "%s\n", sc_error_message(e));
    return false;
  }
  const char *cu;
  /* a kept folder whose program was built from the same source is reused
   * (programs built ahead of time, on a machine without a GPU) */
  const char *tname = safe_name(b->test->name);
  char *old = slurp(xprintf("%s/%s.cu", dir, tname));
  if (!gen_one(path, dir, &cu, &b->spec, log))
    return false;
  const char *gd = find_gpudir(c);
  b->exe = xprintf("%s/prog", dir);
  char *now = slurp(cu);
  bool fresh = old && now && !strcmp(old, now) && file_exists(b->exe) &&
               file_exists(xprintf("%s/nvcc.ok", dir));
  if (!fresh) {
  const char *cmd = xprintf("'%s' -O3 -arch=sm_90 -lineinfo -std=c++17 --expt-relaxed-constexpr -diag-suppress 177 "
                            "-I '%s' -o '%s' '%s' 2>&1",
                            c->nvcc, gd, b->exe, cu);
  FILE *clog = fopen(xprintf("%s/nvcc.log", dir), "w");
  int rc = shell(cmd, clog ? clog : log);
  if (clog)
    fclose(clog);
  if (rc != 0) {
    fprintf(log, "%s: nvcc failed (%s):\n%s", path, cmd,
            slurp(xprintf("%s/nvcc.log", dir)));
    return false;
  }
  FILE *ok = fopen(xprintf("%s/nvcc.ok", dir), "w");
  if (ok) {
    fprintf(ok, "%s\n", cmd);
    fclose(ok);
  }
  }
  /* optcheck on the SASS of the binary itself */
  const char *sass = xprintf("%s/prog.sass", dir);
  const char *dis = xprintf(
      "cd '%s' && cuobjdump -xelf all prog >/dev/null 2>&1 && "
      "nvdisasm -g -c $(ls *.sm_90*.cubin | head -1) > prog.sass 2>/dev/null",
      dir);
  b->optcheck_ran = shell(dis, NULL) == 0;
  if (b->optcheck_ran) {
    FILE *f = fopen(sass, "r");
    b->optcheck_ok = f && gpu_optcheck(f, &b->spec, log);
    if (f)
      fclose(f);
  } else {
    fprintf(log, "optcheck: not run (no cuobjdump/nvdisasm)\n");
  }
  return true;
}

static void banner(FILE *log, const char *path) {
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  size_t n = strlen(base) + 16;
  for (size_t i = 0; i < n; i++) fputc('%', log);
  fprintf(log, "\n%% Results for %s %%\n", base);
  for (size_t i = 0; i < n; i++) fputc('%', log);
  fputc('\n', log);
  char *src = slurp(path);
  if (src)
    fputs(src, log);
  fputs("\nGenerated assembler\n", log);
}

static int run_one(const gpu_cli *c, const char *path, int device, FILE *log) {
  banner(log, path);
  built b;
  memset(&b, 0, sizeof b);
  if (!build(c, path, &b, log))
    return 1;
  if (b.optcheck_ran && !b.optcheck_ok) {
    fprintf(log, "optcheck: FAILED: the compiled kernel does not keep the "
                 "test's accesses in order; no histogram reported\n");
    return 1;
  }
  const char *cmd = xprintf("'%s' %s -device %d 2>&1", b.exe, prog_args(c, NULL),
                            device);
  int rc = shell(cmd, log);
  fprintf(log, "Command:");
  for (int i = 0; i < c->argc; i++)
    fprintf(log, " %s", c->argv[i]);
  fprintf(log, "\nProgram: %s\n", cmd);
  if (!c->keep) {
    shell(xprintf("rm -rf '%s'", b.dir), NULL);
  }
  return rc != 0;
}

static int cmd_gpu_run(gpu_cli *c) {
  int ngpu = c->gpus > 0 ? c->gpus : count_gpus();
  if (ngpu < 1) {
    fprintf(stderr, "scopecat gpu run: no GPU visible: SKIP\n");
    return 77;
  }
  if (ngpu > c->files.n)
    ngpu = c->files.n;
  if (c->outdir)
    mkdir(c->outdir, 0777);
  char tmpl[] = "/tmp/scopecat-logs-XXXXXX";
  const char *ldir = GC_STRDUP(mkdtemp(tmpl));
  pid_t *pids = GC_MALLOC(sizeof(pid_t) * (size_t)(ngpu ? ngpu : 1));
  for (int g = 0; g < ngpu; g++) {
    pid_t pid = ngpu > 1 ? fork() : 0;
    if (pid == 0) {
      int fails = 0;
      for (int i = g; i < c->files.n; i += ngpu) {
        FILE *log = fopen(xprintf("%s/%d.log", ldir, i), "w");
        if (!log)
          continue;
        fails += run_one(c, c->files.paths[i], g, log);
        fclose(log);
      }
      if (ngpu > 1)
        _exit(fails ? 1 : 0);
      pids[g] = -(fails ? 1 : 0) - 1;
    } else {
      pids[g] = pid;
    }
  }
  int status = EXIT_ALL_RAN;
  for (int g = 0; g < ngpu; g++) {
    if (pids[g] < 0) {
      if (pids[g] == -2) status = EXIT_SOME_FAILED;
      continue;
    }
    int st;
    waitpid(pids[g], &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st))
      status = EXIT_SOME_FAILED;
  }
  for (int i = 0; i < c->files.n; i++) {
    char *text = slurp(xprintf("%s/%d.log", ldir, i));
    if (!text)
      continue;
    fputs(text, stdout);
    if (c->outdir) {
      const char *p = c->files.paths[i];
      const char *base = strrchr(p, '/') ? strrchr(p, '/') + 1 : p;
      char *name = GC_STRDUP(base);
      char *dot = strrchr(name, '.');
      if (dot)
        *dot = '\0';
      FILE *f = fopen(xprintf("%s/%s.txt", c->outdir, name), "w");
      if (f) {
        fputs(text, f);
        fclose(f);
      }
    }
  }
  shell(xprintf("rm -rf '%s'", ldir), NULL);
  fflush(stdout);
  return status;
}

static int cmd_gpu_gen(gpu_cli *c) {
  const char *dir = c->outdir ? c->outdir : ".";
  mkdir(dir, 0777);
  int fails = 0, skips = 0;
  for (int i = 0; i < c->files.n; i++) {
    const char *cu;
    gpu_spec spec;
    char *msg = NULL;
    size_t len = 0;
    FILE *err = open_memstream(&msg, &len);
    bool ok = gen_one(c->files.paths[i], dir, &cu, &spec, err);
    fclose(err);
    if (!ok) {
      fputs(msg, stderr);
      if (strstr(msg, "SKIP"))
        skips++;
      else
        fails++;
    } else {
      printf("%s\n", cu);
    }
    free(msg);
  }
  (void)skips;
  return fails ? EXIT_SOME_FAILED : EXIT_ALL_RAN;
}

/* ---- tune ------------------------------------------------------------------- */

/* Weak outcomes per second of one run's output (its Rate line). */
static double weak_rate(const char *out, double *frac) {
  const char *r = strstr(out, "\nRate: ");
  double rate, f;
  if (!r || sscanf(r, "\nRate: %lf instances/s, %lf", &rate, &f) != 2)
    return -1;
  *frac = f;
  return rate * f;
}

static int cmd_gpu_tune(gpu_cli *c) {
  if (!c->outdir) {
    fprintf(stderr, "scopecat gpu tune: -o FILE is required\n");
    return EXIT_USAGE;
  }
  if (count_gpus() < 1 && c->gpus < 1) {
    fprintf(stderr, "scopecat gpu tune: no GPU visible: SKIP\n");
    return 77;
  }
  built *bs = GC_MALLOC(sizeof(built) * (size_t)c->files.n);
  for (int i = 0; i < c->files.n; i++)
    if (!build(c, c->files.paths[i], &bs[i], stderr) ||
        (bs[i].optcheck_ran && !bs[i].optcheck_ok)) {
      fprintf(stderr, "scopecat gpu tune: %s does not build\n",
              c->files.paths[i]);
      return EXIT_SOME_FAILED;
    }
  /* the search space: a random walk over a grid, seeded */
  static const char *const sb[] = {"0", "132", "264", "528"};
  static const char *const seqs[] = {"st,ld", "st", "ld", "st,st,ld", "ld,ld,st"};
  static const char *const iters[] = {"32", "128", "512"};
  static const char *const lines[] = {"64", "1024", "8192"};
  static const char *const spread[] = {"1", "8", "32", "64"};
  static const char *const spin[] = {"0", "256", "4096"};
  static const char *const blocks[] = {"264", "528", "1056"};
  const char *trials_s = getenv("SCOPECAT_TUNE_TRIALS");
  int trials = trials_s ? atoi(trials_s) : 24;
  const char *n = c->vals[0] ? c->vals[0] : "20000000";
  unsigned long seed = c->vals[12] ? strtoul(c->vals[12], NULL, 10) : 1;
  srand((unsigned)seed);
  double best = -1;
  const char *best_over[32] = {0};
  for (int k = 0; k < trials; k++) {
    const char *over[32] = {
        "n", n,
        "stress-blocks", sb[k == 0 ? 0 : rand() % 4],
        "stress-seq", seqs[rand() % 5],
        "stress-iters", iters[rand() % 3],
        "stress-lines", lines[rand() % 3],
        "stress-spread", spread[rand() % 4],
        "sync-spin", spin[rand() % 3],
        "blocks", blocks[rand() % 3],
        NULL};
    double score = 0;
    fprintf(stderr, "tune %d:", k);
    for (int j = 2; over[j]; j += 2)
      fprintf(stderr, " -%s %s", over[j], over[j + 1]);
    /* the worst test's weak outcomes per second, ties broken by the sum */
    double minr = -1, sum = 0;
    for (int i = 0; i < c->files.n; i++) {
      const char *cmd = xprintf("'%s' %s 2>&1", bs[i].exe, prog_args(c, over));
      char *out = NULL;
      size_t len = 0;
      FILE *m = open_memstream(&out, &len);
      shell(cmd, m);
      fclose(m);
      double frac = 0;
      double r = weak_rate(out, &frac);
      free(out);
      fprintf(stderr, "  %s %.3g/s (%.3g)", bs[i].test->name, r, frac);
      if (r < 0) r = 0;
      if (minr < 0 || r < minr) minr = r;
      sum += r;
    }
    score = minr + sum * 1e-6;
    fprintf(stderr, "  score %.4g\n", score);
    if (score > best) {
      best = score;
      memcpy(best_over, over, sizeof over);
    }
  }
  FILE *f = fopen(c->outdir, "w");
  if (!f) {
    fprintf(stderr, "scopecat gpu tune: %s: %s\n", c->outdir, strerror(errno));
    return EXIT_SOME_FAILED;
  }
  fprintf(f, "# scopecat gpu tune: best of %d trials on", trials);
  for (int i = 0; i < c->files.n; i++)
    fprintf(f, " %s", bs[i].test->name);
  fprintf(f, "\n# score (weak outcomes/s of the worst test) %.4g; seed %lu\n", best,
          seed);
  for (int j = 2; best_over[j]; j += 2)
    fprintf(f, "%s %s\n", best_over[j], best_over[j + 1]);
  fclose(f);
  if (!c->keep)
    for (int i = 0; i < c->files.n; i++)
      shell(xprintf("rm -rf '%s'", bs[i].dir), NULL);
  return EXIT_ALL_RAN;
}

int cmd_gpu(int argc, char **argv) {
  if (argc < 2 || cli_is_option(argv[1], "help") || cli_is_option(argv[1], "h")) {
    gpu_usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? EXIT_USAGE : EXIT_ALL_RAN;
  }
  gpu_cli c;
  memset(&c, 0, sizeof c);
  c.argc = argc + 1;
  c.argv = argv - 1;
  const char *sub = argv[1];
  int st = parse_opts(&c, argc - 1, argv + 1);
  if (st >= 0 && st != EXIT_SOME_FAILED)
    return st;
  int missing = st == EXIT_SOME_FAILED;
  if (c.files.n == 0) {
    fprintf(stderr, "scopecat gpu %s: no tests\n", sub);
    return EXIT_USAGE;
  }
  int rc;
  if (!strcmp(sub, "gen"))
    rc = cmd_gpu_gen(&c);
  else if (!strcmp(sub, "run"))
    rc = cmd_gpu_run(&c);
  else if (!strcmp(sub, "build")) {
    if (!c.keep) {
      fprintf(stderr, "scopecat gpu build: -keep DIR is required\n");
      return EXIT_USAGE;
    }
    rc = EXIT_ALL_RAN;
    for (int i = 0; i < c.files.n; i++) {
      built b;
      memset(&b, 0, sizeof b);
      if (!build(&c, c.files.paths[i], &b, stderr))
        rc = EXIT_SOME_FAILED;
      else
        printf("%s\n", b.exe);
    }
  } else if (!strcmp(sub, "tune"))
    rc = cmd_gpu_tune(&c);
  else {
    fprintf(stderr, "scopecat gpu: unknown command '%s'\n", sub);
    gpu_usage(stderr);
    return EXIT_USAGE;
  }
  return rc == EXIT_ALL_RAN && missing ? EXIT_SOME_FAILED : rc;
}
