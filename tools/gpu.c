/* gpu.c: `scopecat gpu gen|run|tune|build`: litmus tests on Nvidia GPUs,
 * compiled with nvcc, checked by optcheck, run, printed as litmus7's
 * histograms. */

/*   gen  writes each test's CUDA program (NAME.cu) and its optcheck
 *        specification (NAME.spec) to a folder;
 *   run  generates, compiles with nvcc -arch=sm_90 -lineinfo, runs optcheck
 *        on the SASS of the very binary it runs (cuobjdump + nvdisasm -g),
 *        runs it and prints litmus7's histogram format, tests spread over
 *        every visible GPU;
 *   tune searches stress parameters for the most weak outcomes per second
 *        on the given tests and writes the best as a file `run -config`
 *        reads;
 *   build compiles the programs ahead (-keep DIR), on a machine without a
 *        GPU.
 * The kernels are inline PTX in CUDA C (see README): nvcc compiles the
 * harness around them, ptxas sees the test's PTX verbatim. */
#define _POSIX_C_SOURCE 200809L
#include "cli_opts.h"
#include "gpu.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <gc/gc.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

/* Options handed to the generated program, in its own spelling. */
static const char *const prog_opts[] = {
    "n", "tpb", "blocks", "stress-blocks", "stress-seq", "stress-iters",
    "stress-patch", "stress-regions", "stress-spread", "spacing", "sync-spin",
    "warmup", "bank-conflicts", "shuffle", "seed", "variants",
    "launch-timeout", NULL};

typedef struct gpu_cli {
  const char *outdir;   /* -o: logs (run), programs (gen), file (tune) */
  const char *config;   /* -config FILE: tuned parameters */
  const char *nvcc;
  const char *gpudir;   /* the harness templates */
  const char *keep;     /* -keep DIR: keep the build folders */
  const char *vals[32]; /* program options, by prog_opts index */
  int gpus;             /* -gpus N: 0 = all visible */
  int jobs;             /* -jobs N: programs built at once, ahead */
  int batch;            /* -batch N: tests run in one process (1: each its
                           own program, as built for tune) */
  bool resume;          /* -resume: skip tests whose log in -o DIR is done */
  double timeout;       /* -timeout S: the watchdog, seconds per program */
  cli_shard shard;      /* -shard I/N: of the tests (not tune) */
  file_list files;
  int argc;
  char **argv;
} gpu_cli;

static void gpu_usage(FILE *out) {
  fprintf(out,
      "usage: scopecat gpu gen [-o DIR] FILE|DIR...\n"
      "       scopecat gpu run [options] FILE|DIR...\n"
      "       scopecat gpu tune [options] -o FILE FILE|DIR...\n"
      "       scopecat gpu build -keep DIR [-jobs N] FILE|DIR...  (compile ahead)\n"
      "       scopecat gpu drf [options]  (data-race-free random testing;\n"
      "                                    scopecat gpu drf -help)\n"
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
      "  -gpus N            use N GPUs (default: all visible; CUDA_VISIBLE_DEVICES\n"
      "                     limits them, as Slurm's --gpus sets it)\n"
      "  -timeout S         watchdog: kill a test still running after S\n"
      "                     seconds, report it, go on (default 120; 0: none)\n"
      "  -nvcc PATH         the CUDA compiler (default %s)\n"
      "  -gpudir DIR        the harness templates (tools/gpu)\n"
      "  -keep DIR          keep generated programs and SASS under DIR, one\n"
      "                     folder per test, named as its log; a kept\n"
      "                     program whose source and command are the same\n"
      "                     is not built again\n"
      "options (gen, run, build):\n",
      gpu_configured_nvcc);
  cli_shard_usage(out, 21);
  cli_common_usage(out, 21);
}

/* ---- small helpers --------------------------------------------------------- */


static bool file_exists(const char *p) {
  struct stat st;
  return stat(p, &st) == 0;
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

/* The reason a test cannot run on the GPU: the error's message, less the
 * file name the caller prints first when the error has no position. */
static const char *skip_reason(const sc_error *e) {
  const char *msg = sc_error_message(e), *file = sc_error_file(e);
  size_t n = file ? strlen(file) : 0;
  if (file && sc_error_line(e) == 0 && !strncmp(msg, file, n) &&
      !strncmp(msg + n, ": ", 2))
    return msg + n + 2;
  return msg;
}

/* Write the CUDA program of the test at `path` (DIR/NAME.cu) and its
 * optcheck specification (DIR/NAME.spec, one line per test thread). */
static bool gen_one(const char *path, const char *dir, const char **cu_out,
                    const sc_gpu_program **prog_out, FILE *err) {
  sc_test *t;
  sc_error *e;
  if (sc_test_load_file(path, NULL, &t, &e) != SC_OK) {
    fprintf(err, "%s\n", sc_error_message(e));
    return false;
  }
  const char *cu = cli_format("%s/%s.cu", dir, safe_name(sc_test_name(t)));
  sc_gpu_program *prog;
  if (sc_gpu_generate(t, &prog, &e) != SC_OK) {
    fprintf(err, "%s: SKIP: %s\n", path, skip_reason(e));
    return false;
  }
  FILE *f = fopen(cu, "w");
  if (!f) {
    fprintf(err, "scopecat gpu: %s: %s\n", cu, strerror(errno));
    return false;
  }
  fputs(sc_gpu_program_text(prog), f);
  fclose(f);
  FILE *s = fopen(cli_format("%s/%s.spec", dir, safe_name(sc_test_name(t))), "w");
  if (s) {
    for (int i = 0; i < sc_gpu_program_thread_count(prog); i++) {
      const char *cls = sc_gpu_program_access_classes(prog, i);
      fprintf(s, "thread %d line %d %s\n", i, sc_gpu_program_asm_line(prog, i),
              cls[0] ? cls : "-");
    }
    fclose(s);
  }
  *cu_out = cu;
  *prog_out = prog;
  return true;
}

/* ---- options ---------------------------------------------------------------- */

static int opt_index(const char *a) {
  for (int i = 0; prog_opts[i]; i++)
    if (cli_is_option(a, prog_opts[i]))
      return i;
  return -1;
}

/* The value of program option `name`, NULL when not set. */
static const char *prog_val(const gpu_cli *c, const char *name) {
  for (int i = 0; prog_opts[i]; i++)
    if (!strcmp(prog_opts[i], name))
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
  if (!strcmp(name, "bank-conflicts") || !strcmp(name, "shuffle"))
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
 * wins over it. */
static bool read_config(gpu_cli *c, const char *path) {
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
#define NPROG_OPTS (sizeof prog_opts / sizeof prog_opts[0] - 1)

static int parse_opts(gpu_cli *c, int argc, char **argv) {
  /* gpu_opts, then each program option, checked by bad_prog_value */
  cli_opt table[NGPU_OPTS + NPROG_OPTS + 1];
  memcpy(table, gpu_opts, sizeof gpu_opts);
  for (size_t k = 0; k < NPROG_OPTS; k++)
    table[NGPU_OPTS + k] = (cli_opt){
        prog_opts[k], CLI_CALL, offsetof(gpu_cli, vals) + k * sizeof(char *),
        .call = prog_value, .bad = "%o: expected %w, not '%v'"};
  table[NGPU_OPTS + NPROG_OPTS] = (cli_opt){0};
  const cli_command gpu_command = {
      "gpu", table, {.kind = CLI_TESTS, AT(files)}, gpu_usage, false};
  int missing;
  int rc = cli_parse(&gpu_command, c, argc, argv, &missing);
  if (rc != CLI_GO_ON)
    return rc;
  if (c->config && !read_config(c, c->config))
    return EXIT_USAGE;
  if (!c->nvcc)
    c->nvcc = gpu_nvcc(NULL);
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
      s = cli_format("%s -%s '%s'", s, prog_opts[i], v);
  }
  return s;
}

/* ---- build, optcheck, run --------------------------------------------------- */

typedef struct built {
  const char *dir, *exe; /* exe: the object, in a batch */
  const char *id;        /* in a batch: the namespace of its symbols */
  const sc_gpu_program *prog;
  sc_test *test;
  bool optcheck_ok, optcheck_ran;
} built;

/* Compile `cu` into `exe` with nvcc (`extra`: more flags), unless a kept
 * folder already holds a binary built by the same command from the same
 * source (programs built ahead of time, on a machine without a GPU). */
static bool compile(const gpu_cli *c, const char *path, const char *cu,
                    const char *exe, const char *extra, bool source_same,
                    FILE *log) {
  const char *gd = gpu_dir(c->gpudir);
  const char *cmd = cli_format(
      "'%s' -O3 -arch=sm_90 -lineinfo -std=c++17 --expt-relaxed-constexpr "
      "-diag-suppress 177 %s -I '%s' -o '%s' '%s' 2>&1",
      c->nvcc, extra, gd, exe, cu);
  const char *stamp = cli_format("%s.ok", exe);
  char *done = cli_read_file(stamp);
  if (source_same && done && file_exists(exe) &&
      !strcmp(done, cli_format("%s\n", cmd)))
    return true;
  const char *clog_path = cli_format("%s.log", exe);
  FILE *clog = fopen(clog_path, "w");
  int rc = cli_run(cmd, clog ? clog : log, 0);
  if (clog)
    fclose(clog);
  if (rc != 0) {
    fprintf(log, "%s: nvcc failed (%s):\n%s", path, cmd, cli_read_file(clog_path));
    return false;
  }
  FILE *ok = fopen(stamp, "w");
  if (ok) {
    fprintf(ok, "%s\n", cmd);
    fclose(ok);
  }
  return true;
}

/* optcheck on the SASS of the binary itself; prints the test threads'
 * SASS and the verdict to `log`.  The verdict and its text are kept
 * beside the binary (EXE.optcheck) and read back while the binary is the
 * same, so that a program built ahead is not disassembled twice. */
static void optcheck_binary(built *b, const char *exe, FILE *log) {
  const char *cache = cli_format("%s.optcheck", exe);
  struct stat se, sc;
  char *kept = NULL;
  if (stat(exe, &se) == 0 && stat(cache, &sc) == 0 && sc.st_mtime >= se.st_mtime)
    kept = cli_read_file(cache);
  if (kept && (!strncmp(kept, "OK\n", 3) || !strncmp(kept, "FAILED\n", 7) ||
               !strncmp(kept, "NOTRUN\n", 7))) {
    b->optcheck_ran = kept[0] != 'N';
    b->optcheck_ok = kept[0] == 'O';
    fputs(strchr(kept, '\n') + 1, log);
    return;
  }
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  const char *dis = cli_format(
      "cd '%s' && rm -f *.cubin && cuobjdump -xelf all '%s' >/dev/null 2>&1 && "
      "nvdisasm -g -c $(ls *.sm_90*.cubin | head -1) > '%s.sass' 2>/dev/null",
      b->dir, exe, exe);
  b->optcheck_ran = cli_run(dis, NULL, 0) == 0;
  if (!b->optcheck_ran) {
    fprintf(out, "optcheck: not run (no cuobjdump/nvdisasm)\n");
  } else {
    FILE *f = fopen(cli_format("%s.sass", exe), "r");
    b->optcheck_ok = f && gpu_optcheck(f, b->prog, out);
    if (f)
      fclose(f);
  }
  fclose(out);
  fputs(text, log);
  FILE *k = fopen(cache, "w");
  if (k) {
    fprintf(k, "%s\n%s", !b->optcheck_ran ? "NOTRUN"
                         : b->optcheck_ok ? "OK" : "FAILED", text);
    fclose(k);
  }
  free(text);
}

/* The name of a test's log and build folder: its path in the folder named
 * on the command line (the file's name when it was named itself), less
 * ".litmus", '/' written "__": tests of one file name in two folders (the
 * CADP folders reuse names) keep apart. */
static const char *test_key(const char *key) {
  char *s = GC_STRDUP(key);
  size_t n = strlen(s);
  if (n > 7 && !strcmp(s + n - 7, ".litmus"))
    s[n - 7] = '\0';
  const char *out = "";
  for (char *part = s, *slash;; part = slash + 1) {
    slash = strchr(part, '/');
    if (slash)
      *slash = '\0';
    if (*part && strcmp(part, ".") && strcmp(part, ".."))
      out = cli_format("%s%s%s", out, *out ? "__" : "", safe_name(part));
    if (!slash)
      break;
  }
  return *out ? out : "test";
}

/* The namespace of a test's symbols in a batch: made from its name (its
 * path), unique in a campaign, the same in every batch it is linked in. */
static const char *batch_id(const char *name) {
  return cli_format("sc_%016" PRIx64, cli_hash(name, strlen(name)));
}

/* DIR/batch.cu: the test's program `cu` as one test of a batch (see
 * gpu_batch.h): in namespace `id`, its main the entry the driver calls.
 * The program's own lines are unchanged (an #include), so that optcheck
 * finds each thread's asm statement at the line the spec names. */
static const char *write_batch_source(const char *dir, const char *cu,
                                      const char *id, FILE *log) {
  const char *src = cli_format("%s/batch.cu", dir);
  FILE *f = fopen(src, "w");
  if (!f) {
    fprintf(log, "scopecat gpu: %s: %s\n", src, strerror(errno));
    return NULL;
  }
  const char *base = strrchr(cu, '/') ? strrchr(cu, '/') + 1 : cu;
  fprintf(f, "// one test of a batch (gpu_batch.h)\n"
             "#include \"gpu_batch.h\"\n"
             "namespace %s {\n#define main sc_batch_test_main\n"
             "#include \"%s\"\n#undef main\n}\n"
             "static sc_batch_registrar sc_batch_registered(\"%s\", "
             "%s::sc_batch_test_main);\n",
          id, base, id, id);
  fclose(f);
  return src;
}

/* Generate, compile and optcheck one test in folder `name` of -keep (a
 * folder of its own otherwise): a program of its own, or with `object`
 * an object for a batch (b->exe, b->id).  ptxas may merge or drop
 * accesses it deems redundant (two plain stores to one location, CoWW;
 * two loads of one location, CoRR): when optcheck finds that, the
 * program is rebuilt once with ptxas optimisation off, and only a kernel
 * that keeps every access in order is run.  An object holds its test's
 * kernels exactly as the batch's executable does (the CUDA linker copies
 * them), so optcheck on the object checks what runs. */
static bool build(const gpu_cli *c, const char *path, const char *name,
                  bool object, built *b, FILE *log) {
  char tmpl[] = "/tmp/scopecat-gpu-XXXXXX";
  const char *dir;
  if (c->keep) {
    mkdir(c->keep, 0777);
    dir = cli_format("%s/%s", c->keep, name);
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
  const char *tname = safe_name(sc_test_name(b->test));
  char *old = cli_read_file(cli_format("%s/%s.cu", dir, tname));
  if (!gen_one(path, dir, &cu, &b->prog, log))
    return false;
  char *now = cli_read_file(cu);
  bool same = old && now && !strcmp(old, now);
  const char *src = cu, *kind = "", *suffix = "";
  if (object) {
    b->id = batch_id(name);
    src = write_batch_source(dir, cu, b->id, log);
    if (!src)
      return false;
    kind = "-c ";
    suffix = ".o";
  }
  b->exe = cli_format("%s/prog%s", dir, suffix);
  if (!compile(c, path, src, b->exe, kind, same, log))
    return false;
  optcheck_binary(b, b->exe, log);
  if (!b->optcheck_ran || b->optcheck_ok)
    return true;
  fprintf(log, "optcheck: retrying with ptxas optimisation off "
               "(-Xptxas -O0)\n");
  b->exe = cli_format("%s/prog-O0%s", dir, suffix);
  if (!compile(c, path, src, b->exe, cli_format("%s-Xptxas -O0", kind), same,
               log))
    return false;
  optcheck_binary(b, b->exe, log);
  return true;
}

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

/* The generated program's exit status when a launch hung: its log is
 * whole (a Hangs line says so), the test ran. */
enum { PROGRAM_HUNG = 4 };

static int run_one(const gpu_cli *c, const char *path, const char *name,
                   int device, FILE *log) {
  banner(log, path);
  built b;
  memset(&b, 0, sizeof b);
  if (!build(c, path, name, false, &b, log))
    return 1;
  if (b.optcheck_ran && !b.optcheck_ok) {
    fprintf(log, "optcheck: FAILED: the compiled kernel does not keep the "
                 "test's accesses in order; no histogram reported\n");
    return 1;
  }
  const char *cmd = cli_format("'%s' %s -device %d 2>&1", b.exe, prog_args(c, NULL),
                            device);
  int rc = cli_run(cmd, log, c->timeout);
  if (rc == CLI_RUN_TIMED_OUT)
    fprintf(log, "\nWatchdog: %s killed after %g s (a kernel that does not "
                 "finish, e.g. a spin loop no thread ends); no histogram\n",
            sc_test_name(b.test), c->timeout);
  print_command(log, c, path);
  fprintf(log, "Program: %s\n", cmd);
  if (!c->keep) {
    cli_run(cli_format("rm -rf '%s'", b.dir), NULL, 0);
  }
  return rc != 0 && rc != PROGRAM_HUNG;
}

/* ---- a batch: build ahead, run one by one, each log as soon as it ends ---- */

typedef struct batch {
  gpu_cli *c;
  const char **names; /* each test's log and folder name */
  bool *skip;         /* -resume: its log is already in -o DIR */
  const char *tmpdir; /* logs of this batch, for stdout */
  const char *driver; /* -batch N > 1: the driver's object */
  int todo, done, hung, failed;
  double t0, build_s, kernel_s;
  unsigned long long instances;
  bool progress;      /* stderr is a terminal */
} batch;

static const char *log_path(const batch *bt, int i) {
  return bt->c->outdir ? cli_format("%s/%s.txt", bt->c->outdir, bt->names[i])
                       : cli_format("%s/%d.log", bt->tmpdir, i);
}

/* What the log of a finished test says: instances counted, kernel
 * seconds, whether a launch hung. */
static void note_log(batch *bt, const char *text) {
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
  int left = bt->todo - bt->done;
  fprintf(stderr, "\rgpu run: %d done, %d left, %.3g instances/s, %.0f s left   ",
          bt->done, left, el > 0 ? bt->instances / el : 0.0,
          bt->done ? el / bt->done * left : 0.0);
  if (!left)
    fputc('\n', stderr);
}

/* Build every test not skipped, `jobs` at once, before any runs: nvcc is
 * the slow part of a batch, and the runs then find their programs kept. */
static void build_ahead(batch *bt) {
  gpu_cli *c = bt->c;
  int jobs = c->jobs ? c->jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
  if (jobs < 2 || bt->todo < 2)
    return;
  for (int w = 0; w < jobs; w++) {
    pid_t pid = fork();
    if (pid == 0) {
      for (int i = w; i < c->files.n; i += jobs) {
        if (bt->skip[i])
          continue;
        built b;
        memset(&b, 0, sizeof b);
        FILE *null = fopen("/dev/null", "w");
        build(c, c->files.paths[i], bt->names[i], c->batch > 1, &b,
              null ? null : stderr);
        if (null)
          fclose(null);
      }
      _exit(0);
    }
  }
  int st;
  while (wait(&st) > 0) {
  }
}

/* Test i's log, whole: to its place (by a rename, so that a log there is
 * whole), counted, on stdout when `echo`, the progress line updated.
 * Whether the test failed. */
static bool publish_log(batch *bt, int i, const char *text, bool failed,
                        bool echo) {
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
  bt->failed += failed;
  bt->done++;
  if (echo)
    fputs(text, stdout), fflush(stdout);
  show_progress(bt);
  return failed;
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
    int f = run_one(c, c->files.paths[i], bt->names[i], g, log);
    fclose(log);
    fails += publish_log(bt, i, text, f, ngpu == 1);
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

/* The batch driver's object, KEEP/batch-driver.o (gpu_batch_main.cu),
 * built once and kept while its source is the same; NULL when nvcc fails
 * (its output in `log`). */
static const char *batch_driver(const gpu_cli *c, FILE *log) {
  const char *src = cli_format("%s/gpu_batch_main.cu", gpu_dir(c->gpudir));
  const char *copy = cli_format("%s/batch-driver.cu", c->keep);
  const char *obj = cli_format("%s/batch-driver.o", c->keep);
  char *now = cli_read_file(src), *kept = cli_read_file(copy);
  if (!now) {
    fprintf(log, "scopecat gpu: %s: cannot read\n", src);
    return NULL;
  }
  bool same = kept && !strcmp(now, kept);
  if (!same) {
    FILE *f = fopen(copy, "w");
    if (f) {
      fputs(now, f);
      fclose(f);
    }
  }
  return compile(c, "batch driver", src, obj, "-c ", same, log) ? obj : NULL;
}

/* A file's modification time, to the nanosecond, as text. */
static const char *mtime_text(const char *path) {
  struct stat st;
  if (stat(path, &st) != 0)
    return "-";
  return cli_format("%lld.%09ld", (long long)st.st_mtim.tv_sec,
                    st.st_mtim.tv_nsec);
}

/* The executable of a batch: the driver and the n tests' objects, linked
 * in KEEP/batch-HASH (HASH of the tests' ids), kept while the command and
 * the objects are the same; NULL when the link fails (nvcc's output in
 * `log`). */
static const char *link_batch(const gpu_cli *c, const char *driver,
                              const queued *q, int n, FILE *log) {
  const char *ids = "", *objs = "", *stamp = "";
  for (int k = 0; k < n; k++) {
    ids = cli_format("%s%s%s", ids, k ? "," : "", q[k].b.id);
    objs = cli_format("%s '%s'", objs, q[k].b.exe);
    stamp = cli_format("%s%s %s\n", stamp, q[k].b.exe, mtime_text(q[k].b.exe));
  }
  const char *dir = cli_format("%s/batch-%016" PRIx64, c->keep,
                               cli_hash(ids, strlen(ids)));
  mkdir(dir, 0777);
  const char *exe = cli_format("%s/prog", dir);
  const char *cmd = cli_format("'%s' -arch=sm_90 -o '%s' '%s'%s 2>&1", c->nvcc,
                               exe, driver, objs);
  stamp = cli_format("%s\n%s %s\n%s", cmd, driver, mtime_text(driver), stamp);
  const char *stamp_path = cli_format("%s.ok", exe);
  char *done = cli_read_file(stamp_path);
  if (done && file_exists(exe) && !strcmp(done, stamp))
    return exe;
  char *out = NULL;
  size_t len = 0;
  FILE *o = open_memstream(&out, &len);
  int rc = cli_run(cmd, o, 0);
  fclose(o);
  if (rc != 0) {
    fprintf(log, "nvcc failed to link the batch (%s):\n%s", cmd, out);
    free(out);
    return NULL;
  }
  free(out);
  FILE *ok = fopen(stamp_path, "w");
  if (ok) {
    fputs(stamp, ok);
    fclose(ok);
  }
  return exe;
}

/* Test t's log once the batch has run it: its head, what it printed (in
 * `out`), the watchdog's word when it was killed, the commands that
 * reproduce it. */
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
  if (rc == CLI_RUN_TIMED_OUT)
    fprintf(log, "\nWatchdog: %s killed after %g s (a kernel that does not "
                 "finish, e.g. a spin loop no thread ends); no histogram\n",
            sc_test_name(t->b.test), c->timeout);
  print_command(log, c, c->files.paths[t->i]);
  fprintf(log, "Program: '%s' -tests %s%s -device %d 2>&1\n", exe, t->b.id,
          prog_args(c, NULL), device);
  fclose(log);
  bool failed = publish_log(bt, t->i, text, rc != 0 && rc != PROGRAM_HUNG,
                            echo);
  free(text);
  return failed;
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
                               prog_args(c, NULL), device, dir);
  int fd;
  fflush(stdout);
  pid_t pid = cli_spawn(cmd, &fd);
  if (pid < 0) {
    *fails += finish_queued(bt, &q[0], "", -1, exe, device, echo);
    return 1;
  }
  int next = 0; /* the test running now */
  double since = sc_seconds();
  bool killed = false;
  char buf[256];
  size_t have = 0;
  for (;;) {
    int wait_ms = -1;
    if (c->timeout > 0) {
      double left = since + c->timeout - sc_seconds();
      if (left <= 0) {
        kill(-pid, SIGKILL);
        killed = true;
        break;
      }
      wait_ms = (int)(left * 1000) + 1;
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
    have += (size_t)k;
    char *nl;
    while ((nl = memchr(buf, '\n', have))) {
      *nl = '\0';
      int done, rc;
      if (sscanf(buf, "done %d %d", &done, &rc) == 2 && done == next &&
          next < n) {
        *fails += finish_queued(bt, &q[next], cli_format("%s/%d.out", dir, next),
                                rc, exe, device, echo);
        next++;
        since = sc_seconds();
      }
      have -= (size_t)(nl + 1 - buf);
      memmove(buf, nl + 1, have);
    }
    if (have == sizeof buf - 1)
      have = 0; /* no line of the driver's is that long */
  }
  close(fd);
  int st;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
    ;
  if (next < n) {
    int rc = killed ? CLI_RUN_TIMED_OUT
             : WIFEXITED(st) && WEXITSTATUS(st) ? WEXITSTATUS(st) : -1;
    *fails += finish_queued(bt, &q[next], cli_format("%s/%d.out", dir, next),
                            rc, exe, device, echo);
    next++;
  }
  return next;
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
    bool ok = build(c, c->files.paths[i], bt->names[i], true, &t->b, log);
    if (ok && t->b.optcheck_ran && !t->b.optcheck_ok) {
      fprintf(log, "optcheck: FAILED: the compiled kernel does not keep the "
                   "test's accesses in order; no histogram reported\n");
      ok = false;
    }
    fclose(log);
    t->head = GC_STRDUP(text);
    free(text);
    if (ok)
      n++;
    else
      fails += publish_log(bt, i, t->head, true, ngpu == 1);
  }
  for (int from = 0; from < n; from += c->batch) {
    int size = n - from < c->batch ? n - from : c->batch;
    char *err = NULL;
    size_t len = 0;
    FILE *log = open_memstream(&err, &len);
    const char *exe = link_batch(c, bt->driver, q + from, size, log);
    fclose(log);
    for (int k = 0; k < size && !exe; k++) {
      queued *t = &q[from + k];
      t->head = cli_format("%s%s", t->head, err);
      fails += publish_log(bt, t->i, t->head, true, ngpu == 1);
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
  int ran = bt->done, skipped = bt->c->files.n - bt->todo;
  fprintf(f, "tests %d: %d run (%d failed or refused, %d with a hung "
             "launch), %d resumed from earlier logs\n",
          bt->c->files.n, ran, bt->failed, bt->hung, skipped);
  fprintf(f, "instances %llu\n", bt->instances);
  fprintf(f, "wall %.1f s: building ahead %.1f s, kernels %.1f s, the rest "
             "%.3f s per test run\n", wall, bt->build_s, bt->kernel_s,
          ran ? (wall - bt->build_s - bt->kernel_s) / ran : 0.0);
  fclose(f);
}

static int cmd_gpu_run(gpu_cli *c) {
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
  char tmpl[] = "/tmp/scopecat-logs-XXXXXX";
  batch bt = {.c = c, .tmpdir = GC_STRDUP(mkdtemp(tmpl)), .progress = isatty(2)};
  bt.names = GC_MALLOC(sizeof(char *) * (size_t)c->files.n);
  bt.skip = GC_MALLOC_ATOMIC(sizeof(bool) * (size_t)c->files.n);
  for (int i = 0; i < c->files.n; i++) {
    bt.names[i] = test_key(c->files.keys[i]);
    bt.skip[i] = c->resume && file_exists(log_path(&bt, i));
    bt.todo += !bt.skip[i];
  }
  /* programs built ahead live in -keep DIR, or in this batch's folder */
  const char *keep = c->keep;
  if (!keep)
    c->keep = cli_format("%s/build", bt.tmpdir);
  build_ahead(&bt);
  if (c->batch > 1 && bt.todo > 0 && !(bt.driver = batch_driver(c, stderr))) {
    fprintf(stderr, "scopecat gpu run: no batch driver: a process per test\n");
    c->batch = 1;
  }
  double built_at = sc_seconds();
  bt.t0 = built_at;
  int status = EXIT_ALL_RAN;
  int (*share)(batch *, int, int) =
      c->batch > 1 ? run_share_batched : run_share;
  if (ngpu == 1) {
    if (share(&bt, 0, 1))
      status = EXIT_SOME_FAILED;
  } else {
    pid_t *pids = GC_MALLOC_ATOMIC(sizeof(pid_t) * (size_t)ngpu);
    for (int g = 0; g < ngpu; g++) {
      pids[g] = fork();
      if (pids[g] == 0)
        _exit(share(&bt, g, ngpu) ? 1 : 0);
    }
    for (int g = 0; g < ngpu; g++) {
      int st;
      waitpid(pids[g], &st, 0);
      if (!WIFEXITED(st) || WEXITSTATUS(st))
        status = EXIT_SOME_FAILED;
    }
    for (int i = 0; i < c->files.n; i++) {
      if (bt.skip[i])
        continue;
      char *text = cli_read_file(log_path(&bt, i));
      if (text)
        fputs(text, stdout);
      note_log(&bt, text);
      bt.done++;
    }
  }
  bt.build_s = built_at - start;
  write_summary(&bt, sc_seconds() - start);
  c->keep = keep;
  cli_run(cli_format("rm -rf '%s'", bt.tmpdir), NULL, 0);
  fflush(stdout);
  return status;
}

static int cmd_gpu_gen(gpu_cli *c) {
  const char *dir = c->outdir ? c->outdir : ".";
  mkdir(dir, 0777);
  int fails = 0, skips = 0;
  for (int i = 0; i < c->files.n; i++) {
    const char *cu;
    const sc_gpu_program *prog;
    char *msg = NULL;
    size_t len = 0;
    FILE *err = open_memstream(&msg, &len);
    bool ok = gen_one(c->files.paths[i], dir, &cu, &prog, err);
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

/* ---- tune: Sakka et al.'s staged search (000, Sec. 3) ------------------------ */

typedef struct tuner {
  gpu_cli *c;
  built *bs;
  const char *set[32]; /* the best setting so far: NAME VALUE pairs */
  double best;         /* its score */
  FILE *report;        /* the tuned file: stages as comments */
} tuner;

/* Run every test with setting `over`; the score is the worst test's weak
 * outcomes per second (MP, SB and LB must all show up), ties broken by
 * the sum. */
static double score_setting(tuner *tu, const char *const *over) {
  double minr = -1, sum = 0;
  for (int j = 0; over[j]; j += 2)
    fprintf(stderr, " -%s %s", over[j], over[j + 1]);
  for (int i = 0; i < tu->c->files.n; i++) {
    const char *cmd = cli_format("'%s' %s 2>&1", tu->bs[i].exe,
                              prog_args(tu->c, over));
    int status;
    char *out = cli_run_capture(cmd, tu->c->timeout, &status);
    double frac = 0;
    double r = out ? weak_rate(out, &frac) : -1;
    fprintf(stderr, "  %s %.3g/s", sc_test_name(tu->bs[i].test), r);
    if (r < 0)
      r = 0;
    if (minr < 0 || r < minr)
      minr = r;
    sum += r;
  }
  fprintf(stderr, "\n");
  return minr + sum * 1e-6;
}

/* The best setting with `name` = `val`. */
static const char **with_value(const tuner *tu, const char *name,
                               const char *val) {
  const char **over = GC_MALLOC(sizeof(char *) * 32);
  int n = 0;
  bool put = false;
  for (int j = 0; tu->set[j]; j += 2) {
    over[n++] = tu->set[j];
    over[n++] = strcmp(tu->set[j], name) ? tu->set[j + 1] : val;
    put = put || !strcmp(tu->set[j], name);
  }
  if (!put) {
    over[n++] = name;
    over[n++] = val;
  }
  return over;
}

/* One stage: try each value of parameter `name`, keep the best. */
static void tune_stage(tuner *tu, const char *stage, const char *name,
                       const char *const *vals, int nvals) {
  const char *best_val = NULL;
  double best = -1;
  for (int k = 0; k < nvals; k++) {
    fprintf(stderr, "tune %s:", stage);
    double sc = score_setting(tu, with_value(tu, name, vals[k]));
    if (sc > best) {
      best = sc;
      best_val = vals[k];
    }
  }
  const char **over = with_value(tu, name, best_val);
  memcpy(tu->set, over, sizeof tu->set);
  tu->best = best;
  fprintf(tu->report, "# %s: %s %s (%.4g weak outcomes/s, worst test)\n",
          stage, name, best_val, best);
}

/* Every access sequence (ld|st)^k, 1 <= k <= max_len, as 000 does. */
static const char **access_sequences(int max_len, int *n) {
  int total = 0;
  for (int k = 1; k <= max_len; k++)
    total += 1 << k;
  const char **seqs = GC_MALLOC(sizeof(char *) * (size_t)total);
  *n = 0;
  for (int k = 1; k <= max_len; k++)
    for (int bits = 0; bits < 1 << k; bits++) {
      char *s = "";
      for (int i = 0; i < k; i++)
        s = cli_format("%s%s%s", s, i ? "," : "", bits >> i & 1 ? "st" : "ld");
      seqs[(*n)++] = s;
    }
  return seqs;
}

static int cmd_gpu_tune(gpu_cli *c) {
  if (!c->outdir) {
    fprintf(stderr, "scopecat gpu tune: -o FILE is required\n");
    return EXIT_USAGE;
  }
  if (gpu_count() < 1 && c->gpus < 1) {
    fprintf(stderr, "scopecat gpu tune: no GPU visible: SKIP\n");
    return 77;
  }
  tuner tu = {.c = c, .best = -1};
  tu.bs = GC_MALLOC(sizeof(built) * (size_t)c->files.n);
  for (int i = 0; i < c->files.n; i++)
    if (!build(c, c->files.paths[i], test_key(c->files.keys[i]), false,
               &tu.bs[i], stderr) ||
        (tu.bs[i].optcheck_ran && !tu.bs[i].optcheck_ok)) {
      fprintf(stderr, "scopecat gpu tune: %s does not build\n",
                      c->files.paths[i]);
      return EXIT_SOME_FAILED;
    }
  char *text = NULL;
  size_t len = 0;
  tu.report = open_memstream(&text, &len);
  fprintf(tu.report, "# scopecat gpu tune on");
  for (int i = 0; i < c->files.n; i++)
    fprintf(tu.report, " %s", sc_test_name(tu.bs[i].test));
  fprintf(tu.report, "\n# stages after Sakka et al. (000, Sec. 3): patch "
                     "size, access sequence, spread, then stressing CTAs "
                     "and iterations, then the pre-test spin\n");
  const char *n = prog_val(c, "n") ? prog_val(c, "n") : "10000000";
  const char *start[] = {"n", n, "stress-blocks", "264", "stress-seq", "ld,st",
                         "stress-iters", "256", "stress-patch", "32",
                         "stress-regions", "64", "stress-spread", "2",
                         "sync-spin", "256", NULL};
  memcpy(tu.set, start, sizeof start);
  /* the reference: no stress at all */
  fprintf(stderr, "tune none:");
  double none = score_setting(&tu, with_value(&tu, "stress-blocks", "0"));
  fprintf(tu.report, "# without stress: %.4g weak outcomes/s (worst test)\n",
          none);
  static const char *const patch[] = {"8", "16", "32", "64", "128", "256"};
  tune_stage(&tu, "patch size", "stress-patch", patch, 6);
  int nseq;
  const char **seqs = access_sequences(4, &nseq);
  tune_stage(&tu, "access sequence", "stress-seq", seqs, nseq);
  static const char *const spread[] = {"1", "2", "4", "8", "16", "32"};
  tune_stage(&tu, "spread", "stress-spread", spread, 6);
  static const char *const blocks[] = {"66", "132", "264", "528", "0-528"};
  tune_stage(&tu, "stressing CTAs", "stress-blocks", blocks, 5);
  static const char *const iters[] = {"64", "256", "1024"};
  tune_stage(&tu, "iterations", "stress-iters", iters, 3);
  static const char *const spin[] = {"0", "256", "4096"};
  tune_stage(&tu, "pre-test spin", "sync-spin", spin, 3);
  static const char *const warm[] = {"0", "8", "32", "128"};
  tune_stage(&tu, "warm-up", "warmup", warm, 4);
  /* 000 found stress helps every chip it tuned; where it does not, say
   * so and keep the better setting: the final one without its stress */
  fprintf(stderr, "tune final, no stress:");
  const char **bare = with_value(&tu, "stress-blocks", "0");
  double unstressed = score_setting(&tu, bare);
  fprintf(tu.report, "# the same without stress: %.4g weak outcomes/s\n",
          unstressed);
  if (unstressed > tu.best) {
    fprintf(tu.report, "# no stress beats the best stress found: "
                       "stress-blocks 0\n");
    memcpy(tu.set, bare, sizeof tu.set);
  }
  for (int j = 0; tu.set[j]; j += 2)
    if (strcmp(tu.set[j], "n"))
      fprintf(tu.report, "%s %s\n", tu.set[j], tu.set[j + 1]);
  fclose(tu.report);
  FILE *f = fopen(c->outdir, "w");
  if (!f) {
    fprintf(stderr, "scopecat gpu tune: %s: %s\n", c->outdir, strerror(errno));
    free(text);
    return EXIT_SOME_FAILED;
  }
  fputs(text, f);
  fclose(f);
  free(text);
  if (!c->keep)
    for (int i = 0; i < c->files.n; i++)
      cli_run(cli_format("rm -rf '%s'", tu.bs[i].dir), NULL, 0);
  return EXIT_ALL_RAN;
}

int cmd_gpu(int argc, char **argv) {
  if (argc < 2 || cli_is_option(argv[1], "help") || cli_is_option(argv[1], "h")) {
    gpu_usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? EXIT_USAGE : EXIT_ALL_RAN;
  }
  gpu_cli c;
  memset(&c, 0, sizeof c);
  c.timeout = 120;
  c.batch = 32;
  c.argc = argc + 1;
  c.argv = argv - 1;
  const char *sub = argv[1];
  if (!strcmp(sub, "drf"))
    return cmd_gpu_drf(argc - 1, argv + 1);
  int st = parse_opts(&c, argc - 1, argv + 1);
  if (st >= 0 && st != EXIT_SOME_FAILED)
    return st;
  int missing = st == EXIT_SOME_FAILED;
  if (c.files.n == 0) {
    fprintf(stderr, "scopecat gpu %s: no tests\n", sub);
    return EXIT_USAGE;
  }
  if (c.shard.count && !strcmp(sub, "tune")) {
    fprintf(stderr, "scopecat gpu tune: -shard splits a batch of tests; "
                    "tune scores one setting over all of them\n");
    return EXIT_USAGE;
  }
  cli_shard_files(&c.files, c.shard);
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
    batch bt = {.c = &c};
    bt.names = GC_MALLOC(sizeof(char *) * (size_t)c.files.n);
    bt.skip = GC_MALLOC_ATOMIC(sizeof(bool) * (size_t)c.files.n);
    for (int i = 0; i < c.files.n; i++)
      bt.names[i] = test_key(c.files.keys[i]);
    bt.todo = c.files.n;
    build_ahead(&bt); /* then each is found built, its verdict said */
    queued *q = GC_MALLOC(sizeof(queued) * (size_t)c.files.n);
    int n = 0;
    for (int i = 0; i < c.files.n; i++) {
      built *b = &q[n].b;
      memset(b, 0, sizeof *b);
      if (!build(&c, c.files.paths[i], bt.names[i], c.batch > 1, b, stderr))
        rc = EXIT_SOME_FAILED;
      else if (printf("%s\n", b->exe), !b->optcheck_ran || b->optcheck_ok)
        n++;
    }
    /* and the batches a run on one GPU links: the driver and each
     * -batch tests' objects */
    const char *driver = c.batch > 1 && n ? batch_driver(&c, stderr) : NULL;
    if (c.batch > 1 && n && !driver)
      rc = EXIT_SOME_FAILED;
    for (int from = 0; driver && from < n; from += c.batch) {
      int size = n - from < c.batch ? n - from : c.batch;
      const char *exe = link_batch(&c, driver, q + from, size, stderr);
      if (exe)
        printf("batch of %d: %s\n", size, exe);
      else
        rc = EXIT_SOME_FAILED;
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
