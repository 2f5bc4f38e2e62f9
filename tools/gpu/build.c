/* build.c: the one build step of `scopecat gpu` (run, build, tune and
 * drf alike): nvcc over a program the runner wrote, with a cache keyed by
 * content, and what is built from it: a test's program or batch object,
 * optchecked, the batch driver, a batch's executable. */
#define _POSIX_C_SOURCE 200809L
#include "gpu.h"

#include <ctype.h>
#include <errno.h>
#include <gc/gc.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_run.h"

const char *const gpu_nvcc_flags =
    "-O3 -arch=sm_90 -lineinfo -std=c++17 --expt-relaxed-constexpr "
    "-diag-suppress 177";

static bool file_exists(const char *p) {
  struct stat st;
  return stat(p, &st) == 0;
}

/* ---- the build step and its cache ---------------------------------------- */

static bool listed(const cli_list *l, const char *s) {
  for (int i = 0; i < l->n; i++)
    if (!strcmp(l->items[i], s))
      return true;
  return false;
}

/* The file `name` of an #include "name" in a file of folder `here`: there,
 * else in `incdir`, as nvcc looks (NULL when neither has it). */
static const char *find_include(const char *name, const char *here,
                                const char *incdir) {
  const char *p = cli_format("%s/%s", here, name);
  if (file_exists(p))
    return p;
  p = cli_format("%s/%s", incdir, name);
  return file_exists(p) ? p : NULL;
}

static void add_sources(cli_list *seen, const char *file, const char *incdir) {
  if (listed(seen, file))
    return;
  cli_push(seen, file);
  char *text = cli_read_file(file);
  if (!text)
    return;
  char *here = GC_STRDUP(file), *slash = strrchr(here, '/');
  if (slash)
    *slash = '\0';
  else
    here = ".";
  for (char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
    while (*l == ' ' || *l == '\t')
      l++;
    if (strncmp(l, "#include", 8))
      continue;
    char *q = strchr(l, '"');
    char *nl = strchr(l, '\n');
    if (!q || (nl && q > nl))
      continue;
    char *end = strchr(q + 1, '"');
    if (!end || (nl && end > nl))
      continue;
    const char *inc = find_include(GC_STRNDUP(q + 1, (size_t)(end - q - 1)),
                                   here, incdir);
    if (inc)
      add_sources(seen, inc, incdir);
  }
}

cli_list gpu_sources(const char *src, const char *incdir) {
  cli_list seen = {0};
  add_sources(&seen, src, incdir);
  return seen;
}

/* The compiler's file: `nvcc` itself when it names a path, else the first
 * of $PATH that has it. */
static const char *compiler_file(const char *nvcc) {
  if (strchr(nvcc, '/'))
    return nvcc;
  const char *path = getenv("PATH");
  char *dirs = GC_STRDUP(path ? path : ""), *save = NULL;
  for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
    const char *p = cli_format("%s/%s", d, nvcc);
    if (access(p, X_OK) == 0)
      return p;
  }
  return nvcc;
}

/* The hash of a file's bytes (objects hold NULs), "-" when unreadable. */
static const char *content_hash(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return "-";
  char *buf = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&buf, &len);
  char chunk[65536];
  size_t k;
  while (mem && (k = fread(chunk, 1, sizeof chunk, f)) > 0)
    fwrite(chunk, 1, k, mem);
  fclose(f);
  if (!mem)
    return "-";
  fclose(mem);
  const char *h = cli_format("%016" PRIx64, cli_hash(buf, len));
  free(buf);
  return h;
}

/* The key of a step: the command, the compiler (its file's size and
 * time: a new toolkit builds again), each input's name and content. */
static const char *step_key(const char *nvcc, const char *cmd,
                            const cli_list *inputs) {
  struct stat st;
  const char *cc = compiler_file(nvcc);
  const char *head = stat(cc, &st) == 0
                         ? cli_format("%s\n%s %lld %lld.%09ld\n", cmd, cc,
                                      (long long)st.st_size,
                                      (long long)st.st_mtim.tv_sec,
                                      st.st_mtim.tv_nsec)
                         : cli_format("%s\n%s -\n", cmd, cc);
  uint64_t h = cli_hash(head, strlen(head));
  const char *key = cli_format("%016" PRIx64, h);
  for (int i = 0; i < inputs->n; i++)
    key = cli_format("%s %s", key, content_hash(inputs->items[i]));
  return cli_format("%s\n", key);
}

/* mkdir -p of the folder of `file`. */
static void make_parent(const char *file) {
  char *dir = GC_STRDUP(file);
  for (char *p = dir + 1; *p; p++)
    if (*p == '/') {
      *p = '\0';
      mkdir(dir, 0777);
      *p = '/';
    }
}

bool gpu_step(const char *nvcc, const char *cmd, const cli_list *inputs,
              const char *out, const char *what, FILE *log) {
  const char *key = step_key(nvcc, cmd, inputs);
  const char *key_path = cli_format("%s.key", out);
  char *kept = cli_read_file(key_path);
  if (kept && !strcmp(kept, key) && file_exists(out))
    return true;
  /* what an earlier step left is no longer this step's: gone before nvcc
   * starts, so that nothing of it is reused if nvcc fails or is killed */
  unlink(key_path);
  unlink(out);
  unlink(cli_format("%s.optcheck", out));
  make_parent(out);
  int rc;
  char *said = cli_run_capture(cli_format("%s 2>&1", cmd), 0, &rc);
  FILE *clog = fopen(cli_format("%s.log", out), "w");
  if (clog) {
    fputs(said ? said : "", clog);
    fclose(clog);
  }
  if (rc != 0) {
    unlink(out);
    fprintf(log, "%s: nvcc failed (%s):\n%s", what, cmd, said ? said : "");
    return false;
  }
  FILE *k = fopen(key_path, "w");
  if (k) {
    fputs(key, k);
    fclose(k);
  }
  return true;
}

/* ---- a test's program ------------------------------------------------------ */

const char *gpu_safe_name(const char *name) {
  char *s = GC_STRDUP(name);
  for (char *p = s; *p; p++)
    if (!isalnum((unsigned char)*p) && *p != '+' && *p != '-' && *p != '.' &&
        *p != '_')
      *p = '_';
  return s;
}

/* The reason a test cannot run on the GPU: the error's message, less the
 * file name the caller prints first when the error has no position. */
const char *gpu_skip_reason(const sc_error *e) {
  const char *msg = sc_error_message(e), *file = sc_error_file(e);
  size_t n = file ? strlen(file) : 0;
  if (file && sc_error_line(e) == 0 && !strncmp(msg, file, n) &&
      !strncmp(msg + n, ": ", 2))
    return msg + n + 2;
  return msg;
}

/* Write the CUDA program of the test at `path` (DIR/NAME.cu) and its
 * optcheck specification (DIR/NAME.spec, one line per test thread). */
bool gpu_gen_one(const char *path, const char *dir, const char **cu_out,
                 const sc_gpu_program **prog_out, FILE *err) {
  sc_test *t;
  sc_error *e;
  if (sc_test_load_file(path, NULL, &t, &e) != SC_OK) {
    fprintf(err, "%s\n", sc_error_message(e));
    return false;
  }
  const char *cu = cli_format("%s/%s.cu", dir, gpu_safe_name(sc_test_name(t)));
  sc_gpu_program *prog;
  if (sc_gpu_generate(t, &prog, &e) != SC_OK) {
    fprintf(err, "%s: SKIP: %s\n", path, gpu_skip_reason(e));
    return false;
  }
  FILE *f = fopen(cu, "w");
  if (!f) {
    fprintf(err, "scopecat gpu: %s: %s\n", cu, strerror(errno));
    return false;
  }
  fputs(sc_gpu_program_text(prog), f);
  fclose(f);
  FILE *s = fopen(cli_format("%s/%s.spec", dir,
                             gpu_safe_name(sc_test_name(t))), "w");
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

/* optcheck on the SASS of the binary itself; prints the test threads'
 * SASS and the verdict to `log`.  The verdict and its text are kept
 * beside the binary (EXE.optcheck) with the binary's key and read back
 * while the key is the same, so that a program built ahead is not
 * disassembled twice and a rebuilt one always is. */
static void optcheck_binary(built *b, const char *exe, FILE *log) {
  const char *cache = cli_format("%s.optcheck", exe);
  char *key = cli_read_file(cli_format("%s.key", exe));
  char *kept = key ? cli_read_file(cache) : NULL;
  size_t kn = key ? strlen(key) : 0;
  if (kept && !strncmp(kept, key, kn)) {
    char *verdict = kept + kn;
    if (!strncmp(verdict, "OK\n", 3) || !strncmp(verdict, "FAILED\n", 7) ||
        !strncmp(verdict, "NOTRUN\n", 7)) {
      b->optcheck_ran = verdict[0] != 'N';
      b->optcheck_ok = verdict[0] == 'O';
      fputs(strchr(verdict, '\n') + 1, log);
      return;
    }
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
  FILE *k = key ? fopen(cache, "w") : NULL;
  if (k) {
    fprintf(k, "%s%s\n%s", key, !b->optcheck_ran ? "NOTRUN"
                                : b->optcheck_ok ? "OK" : "FAILED", text);
    fclose(k);
  }
  free(text);
}

/* The name of a test's log and build folder: its path in the folder named
 * on the command line (the file's name when it was named itself), less
 * ".litmus", '/' written "__": tests of one file name in two folders (the
 * CADP folders reuse names) keep apart. */
const char *gpu_test_key(const char *key) {
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
      out = cli_format("%s%s%s", out, *out ? "__" : "", gpu_safe_name(part));
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

/* Compile harness program `src` into `exe` (`extra`: more flags). */
static bool compile(const gpu_cli *c, const char *what, const char *src,
                    const char *exe, const char *extra, FILE *log) {
  const char *gd = gpu_dir(c->gpudir);
  const char *cmd = cli_format("'%s' %s %s-I '%s' -o '%s' '%s'", c->nvcc,
                               gpu_nvcc_flags, extra, gd, exe, src);
  cli_list inputs = gpu_sources(src, gd);
  return gpu_step(c->nvcc, cmd, &inputs, exe, what, log);
}

/* Generate, compile and optcheck one test in folder `name` of -keep (a
 * temporary folder otherwise): a program of its own, or with `object`
 * an object for a batch (b->exe, b->id).  ptxas may merge or drop
 * accesses it deems redundant (two plain stores to one location, CoWW;
 * two loads of one location, CoRR): when optcheck finds that, the
 * program is rebuilt once with ptxas optimisation off, and only a kernel
 * that keeps every access in order is run.  An object holds its test's
 * kernels exactly as the batch's executable does (the CUDA linker copies
 * them), so optcheck on the object checks what runs. */
bool gpu_build(const gpu_cli *c, const char *path, const char *name,
               bool object, built *b, FILE *log) {
  const char *dir;
  if (c->keep) {
    dir = cli_format("%s/%s", c->keep, name);
    make_parent(cli_format("%s/x", dir));
  } else {
    dir = cli_temp_dir("gpu");
    if (!dir) {
      fprintf(log, "scopecat gpu: a temporary folder: %s\n", strerror(errno));
      return false;
    }
    b->temp = true;
  }
  b->dir = dir;
  sc_error *e;
  if (sc_test_load_file(path, NULL, &b->test, &e) != SC_OK) {
    fprintf(log, "%s\n", sc_error_message(e));
    return false;
  }
  const char *cu;
  if (!gpu_gen_one(path, dir, &cu, &b->prog, log))
    return false;
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
  if (!compile(c, path, src, b->exe, kind, log))
    return false;
  optcheck_binary(b, b->exe, log);
  if (!b->optcheck_ran || b->optcheck_ok)
    return true;
  fprintf(log, "optcheck: retrying with ptxas optimisation off "
               "(-Xptxas -O0)\n");
  b->exe = cli_format("%s/prog-O0%s", dir, suffix);
  if (!compile(c, path, src, b->exe, cli_format("%s-Xptxas -O0 ", kind), log))
    return false;
  optcheck_binary(b, b->exe, log);
  return true;
}

/* ---- batches ------------------------------------------------------------- */

/* The batch driver's object, KEEP/batch-driver.o (gpu_batch_main.cu). */
const char *gpu_batch_driver(const gpu_cli *c, FILE *log) {
  const char *src = cli_format("%s/gpu_batch_main.cu", gpu_dir(c->gpudir));
  const char *obj = cli_format("%s/batch-driver.o", c->keep);
  if (!file_exists(src)) {
    fprintf(log, "scopecat gpu: %s: cannot read\n", src);
    return NULL;
  }
  return compile(c, "batch driver", src, obj, "-c ", log) ? obj : NULL;
}

/* The executable of a batch: the driver and the n tests' objects, linked
 * in KEEP/batch-HASH (HASH of the tests' ids), built again when the
 * command or an object changed. */
const char *gpu_link_batch(const gpu_cli *c, const char *driver,
                           const built *const *objs, int n, FILE *log) {
  const char *ids = "", *files = "";
  cli_list inputs = {0};
  cli_push(&inputs, driver);
  for (int k = 0; k < n; k++) {
    ids = cli_format("%s%s%s", ids, k ? "," : "", objs[k]->id);
    files = cli_format("%s '%s'", files, objs[k]->exe);
    cli_push(&inputs, objs[k]->exe);
  }
  const char *dir = cli_format("%s/batch-%016" PRIx64, c->keep,
                               cli_hash(ids, strlen(ids)));
  const char *exe = cli_format("%s/prog", dir);
  const char *cmd = cli_format("'%s' -arch=sm_90 -o '%s' '%s'%s", c->nvcc,
                               exe, driver, files);
  return gpu_step(c->nvcc, cmd, &inputs, exe,
                  cli_format("the batch of %d tests", n), log)
             ? exe
             : NULL;
}
