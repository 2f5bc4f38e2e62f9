/* cmd_kernel.c: `scopecat kernel`: check a CUDA kernel (.cu, compiled by
 * nvcc -ptx) or its PTX (.ptx) against a PTX model, for the launch and
 * the question its header gives (// @Input, @Output, @Config): herd7's
 * block of the instantiated test, then one line per property
 * (assertion, data-race, shared-race, bounds, liveness with -liveness)
 * and whether the verdict generalises over the inputs.  A file that fails
 * to compile, parse or run is said on stderr and the others still run. */
#define _POSIX_C_SOURCE 200809L
#include "cli_opts.h"
#include "cli_result.h"
#include "cli_run.h"
#include "gpu/gpu.h"
#include "kernel_fences.h"
#include "kernel_verdict.h"
#include "models.h"

#include "scopecat.h"

#include <errno.h>
#include <gc/gc.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The model a kernel runs under when none is named: PTX 7.5's, which knows
 * the .acquire/.release/.relaxed scoped accesses nvcc emits for
 * cuda::atomic_ref, and whose morally-strong and cause the race include
 * reads. */
#define KERNEL_DEFAULT_MODEL "ptx-v7.5.cat"
/* nvcc's command, as the issue and the corpus's make-ptx.sh run it. */
#define NVCC_FLAGS "-ptx -arch=sm_90 -O3 -lineinfo"

typedef struct kernel_cli {
  const char *model_path;   /* -model, default KERNEL_DEFAULT_MODEL */
  model_dirs models;        /* the bundled model folders */
  bool norace;              /* -norace: the model alone, no race lines */
  bool races;               /* -races: the default, said explicitly */
  sc_sim_options opts;      /* -engine -unroll -timeout -liveness */
  int show;                 /* -show: an index of show_words */
  int speedcheck;           /* -speedcheck: an index of speedcheck_words */
  sc_parse_limits limits;   /* -max-threads -max-events -max-file-size */
  sc_model_limits model_limits;
  sc_dot_options dot;
  bool json;
  unsigned log_flags;       /* -nohash */
  cli_list inputs;          /* -input, each over the header's @Input */
  const char *output;       /* -output: instead of @Output */
  const char *config;       /* -config: instead of @Config */
  const char *entry;        /* -entry: which .entry */
  const char *nvcc;         /* -nvcc PATH */
  cli_list defines, includes; /* -D, -I: to nvcc */
  const char *nvcc_flags;   /* -nvcc-flags "...": to nvcc */
  bool fences;              /* -fences: the model's fences, not a check */
  const char *fence_kind;   /* -fence-kind K (default fence.sc.gpu) */
  bool verbose;             /* -v: each check of -fences on stderr */
  bool progress;            /* stderr is a terminal: a progress line there */
  cli_list files;
} kernel_cli;

static void kernel_usage(FILE *out) {
  fprintf(out,
          "usage: scopecat kernel [options] FILE.cu|FILE.ptx...\n"
          "  check a CUDA kernel for the launch its header gives (// @Input,\n"
          "  // @Output, // @Config): herd7's block, then a Property line each\n"
          "  (assertion, data-race, shared-race, bounds; liveness with\n"
          "  -liveness) and whether the verdict holds for other inputs\n"
          "  -model FILE        the .cat model (default " KERNEL_DEFAULT_MODEL ")\n"
          "  -races             flag data races with ptx-race.cat after the "
          "model (default)\n"
          "  -norace            the model alone: no data-race, shared-race "
          "lines\n"
          "  -input TEXT        as an @Input line, over the header's (a "
          "parameter it names\n"
          "                     takes this value, the others keep theirs)\n"
          "  -output TEXT       the condition, instead of @Output\n"
          "  -config X,Y,Z      threads per warp, warps per CTA, CTAs, "
          "instead of @Config\n"
          "  -entry NAME        the kernel (.entry) to check, when the file "
          "has several\n"
          "  -nvcc PATH         the nvcc that compiles .cu files (default: "
          "$NVCC, nvcc)\n"
          "  -D NAME[=V]        a macro for nvcc (-DNAME[=V] too)\n"
          "  -I DIR             an include folder for nvcc (-IDIR too)\n"
          "  -nvcc-flags TEXT   more nvcc options (after " NVCC_FLAGS ")\n"
          "  -engine E          enum, smt (symbolic, with Z3) or auto "
          "(default)\n"
          "  -unroll N          follow each backward jump at most N times "
          "(default 2): a\n"
          "                     run cut there makes a verdict without a "
          "violation UNKNOWN\n"
          "  -timeout S         give up a kernel after S seconds\n"
          "  -max-executions N  give up a kernel after N candidate executions\n"
          "  -speedcheck fast   stop once the condition is decided and a flag of\n"
          "                     the model raised (-liveness: its first witness):\n"
          "                     the verdicts that can come early; States lists\n"
          "                     the states found until then, and what was not\n"
          "                     found by then is UNKNOWN (default false)\n"
          "  -symmetry off      every combination of traces, not one per "
          "orbit of thread symmetries\n"
          "  -layouts W         auto (default), on or off: whether the solver\n"
          "                     chooses the traces too, where only witnesses are\n"
          "                     asked (-speedcheck fast, -liveness) and the\n"
          "                     combinations of traces are too many to walk\n"
          "  -liveness          also whether a fair execution leaves a "
          "thread spinning or\n"
          "                     waiting at a barrier for ever (Property "
          "liveness)\n"
          "  -fences            instead of the check, the fences the model "
          "needs for the\n"
          "                     condition to hold: 000's Alg. 1 over the "
          "global accesses\n"
          "  -fence-kind K      the fence -fences inserts (default "
          "fence.sc.gpu)\n"
          "  -v                 -fences: each check on stderr as it ends\n");
  cli_progress_usage(out, 21);
  fprintf(out,
          "  -show WHAT         draw executions after the block: prop, neg, "
          "cond, all,\n"
          "                     none (a failing property's witness too)\n"
          "  -json              one JSON object per kernel\n"
          "  -nohash            no Hash= line\n"
          "  -max-threads N     refuse grids of more than N threads "
          "(default 256)\n"
          "  -max-events N      refuse kernels whose executions have more "
          "than N events,\n"
          "                     array elements included (default 4096)\n"
          "  -max-file-size N   refuse files of more than N bytes (default "
          "16 MiB)\n");
  cli_common_usage(out, 21);
  fprintf(out, "  -version           print the version\n");
}

static const char *const show_words[] = {"none", "prop", "neg", "cond", "all",
                                         NULL};
/* -speedcheck fast: SC_SPEEDCHECK_VERDICTS (stop once every answer that
 * can come early is in), herd's fast extended to the kernel's properties */
static const char *const speedcheck_words[] = {"false", "fast", NULL};

#define AT(field) .offset = offsetof(kernel_cli, field)
#define COUNT "%o expects a non-negative integer, found '%v'"
#define LIMIT(name_, kind_, field, most)                                      \
  {.name = name_, .kind = kind_, AT(field), .lo = 1, .hi = most,              \
   .bad = COUNT, .range = "%o expects a number from %l to %h, found '%v'"}

static const cli_opt kernel_opts[] = {
    {.name = "model", .kind = CLI_STRING, AT(model_path)},
    {.name = "cat", .kind = CLI_STRING, AT(model_path)},
    {.name = "races", .kind = CLI_FLAG, AT(races)},
    {.name = "norace", .kind = CLI_FLAG, AT(norace)},
    {.name = "input", .kind = CLI_LIST, AT(inputs)},
    {.name = "output", .kind = CLI_STRING, AT(output)},
    {.name = "config", .kind = CLI_STRING, AT(config)},
    {.name = "entry", .kind = CLI_STRING, AT(entry)},
    {.name = "nvcc", .kind = CLI_STRING, AT(nvcc)},
    {.name = "D", .kind = CLI_LIST, AT(defines)},
    {.name = "I", .kind = CLI_LIST, AT(includes)},
    {.name = "nvcc-flags", .kind = CLI_STRING, AT(nvcc_flags)},
    {.name = "engine", .kind = CLI_CHOICE, AT(opts.engine),
     .choices = cli_engine_words,
     .bad = "-engine expects enum, smt or auto, found '%v'"},
    {.name = "unroll", .kind = CLI_INT, AT(opts.unroll), .lo = 0, .hi = INT_MAX,
     .bad = COUNT},
    {.name = "timeout", .kind = CLI_SECONDS, AT(opts.timeout),
     .bad = "-timeout expects seconds, found '%v'"},
    {.name = "max-executions", .kind = CLI_LONG, AT(opts.max_executions),
     .lo = 0, .hi = LONG_MAX, .bad = COUNT},
    {.name = "liveness", .kind = CLI_SET, AT(opts.liveness), .lo = 1},
    {.name = "symmetry", .kind = CLI_CHOICE, AT(opts.symmetry_off),
     .choices = cli_symmetry_words, .bad = "-symmetry expects on or off, found '%v'"},
    {.name = "layouts", .kind = CLI_CHOICE, AT(opts.layout_search),
     .choices = cli_layouts_words, .bad = "-layouts expects auto, on or off, found '%v'"},
    CLI_PROGRESS_OPT(kernel_cli, opts.progress_model),
    {.name = "show", .kind = CLI_CHOICE, AT(show), .choices = show_words,
     .bad = "-show expects prop, neg, cond, all or none, found '%v'"},
    {.name = "speedcheck", .kind = CLI_CHOICE, AT(speedcheck),
     .choices = speedcheck_words,
     .bad = "-speedcheck expects false or fast, found '%v'"},
    {.name = "fences", .kind = CLI_FLAG, AT(fences)},
    {.name = "fence-kind", .kind = CLI_STRING, AT(fence_kind)},
    {.name = "v", .kind = CLI_FLAG, AT(verbose)},
    {.name = "json", .kind = CLI_FLAG, AT(json)},
    {.name = "nohash", .kind = CLI_BITS, AT(log_flags), .bits = SC_LOG_NOHASH},
    LIMIT("max-threads", CLI_INT, limits.max_threads, 1L << 20),
    LIMIT("max-events", CLI_INT, limits.max_events, 1L << 20),
    LIMIT("max-file-size", CLI_SIZE, limits.max_file_bytes, 1L << 40),
    {.name = "version", .kind = CLI_VERSION},
    {0}};

static const cli_command kernel_command = {
    "kernel", kernel_opts, {.kind = CLI_LIST, AT(files)}, kernel_usage, false};

/* ---- The model ----------------------------------------------------------- */

/* The model named (or the default), followed by ptx-race.cat unless
 * -norace, under the -timeout limit; said on stderr when it does not
 * load. */
static sc_model *load_model(const kernel_cli *c) {
  const char *name = c->model_path ? c->model_path : KERNEL_DEFAULT_MODEL;
  sc_model *m;
  const char *path;
  sc_error *err;
  sc_status st = models_load(&c->models, name, &m, &path, &err);
  if (!st && !c->norace) {
    const char *const extra[] = {SC_RACE_INCLUDE};
    st = sc_model_load_with_includes(path, extra, 1, c->models.dirs.items,
                                     c->models.dirs.n, &m, &err);
    if (st)
      fprintf(stderr, "%s\n", sc_error_message(err));
  } else if (st) {
    fprintf(stderr, "%s\n", sc_error_message(err));
  }
  if (!st)
    st = sc_model_with_limits(m, &c->model_limits, &m, &err);
  if (st) {
    fprintf(stderr, "scopecat kernel: the model did not load: no kernel "
                    "checked\n");
    return NULL;
  }
  int n;
  const char *const *w = sc_model_warnings(m, &c->opts, &n);
  cli_print_lines(w, n);
  return m;
}

/* ---- The kernel's PTX ---------------------------------------------------- */

static bool ends_with(const char *s, const char *tail) {
  size_t n = strlen(s), k = strlen(tail);
  return n >= k && strcmp(s + n - k, tail) == 0;
}

/* The nvcc command line that makes `ptx` of the .cu file `path`. */
static const char *nvcc_command(const kernel_cli *c, const char *nvcc,
                                const char *path, const char *ptx) {
  const char *cmd = cli_format("%s " NVCC_FLAGS, cli_shell_quote(nvcc));
  for (int i = 0; i < c->defines.n; i++)
    cmd = cli_format("%s -D%s", cmd, cli_shell_quote(c->defines.items[i]));
  for (int i = 0; i < c->includes.n; i++)
    cmd = cli_format("%s -I%s", cmd, cli_shell_quote(c->includes.items[i]));
  if (c->nvcc_flags)
    cmd = cli_format("%s %s", cmd, c->nvcc_flags); /* several words: as given */
  return cli_format("%s -o %s %s", cmd, cli_shell_quote(ptx), cli_shell_quote(path));
}

/* The PTX nvcc makes of the .cu file `path`, in a temporary folder; NULL
 * (said on stderr) when nvcc is missing or fails. */
static char *compile_cu(const kernel_cli *c, const char *path) {
  const char *nvcc = gpu_nvcc(c->nvcc);
  const char *dir = cli_temp_dir("kernel");
  if (!dir) {
    fprintf(stderr, "%s: cannot make a temporary folder for nvcc: %s\n", path,
            strerror(errno));
    return NULL;
  }
  const char *ptx = cli_format("%s/kernel.ptx", dir);
  int rc = cli_run(cli_format("%s 1>&2", nvcc_command(c, nvcc, path, ptx)), NULL,
                   c->opts.timeout);
  char *text = rc == 0 ? cli_read_file(ptx) : NULL;
  cli_temp_remove(dir);
  if (rc == 127)
    fprintf(stderr, "%s: expected nvcc to compile a .cu file, found no command "
                    "'%s' (install the CUDA toolkit, name it with -nvcc PATH "
                    "or $NVCC, or check the .ptx nvcc -ptx made of it)\n",
            path, nvcc);
  else if (rc == CLI_RUN_TIMED_OUT)
    fprintf(stderr, "%s: expected nvcc to finish within %g s (the -timeout "
                    "limit), found it still running: stopped\n",
            path, c->opts.timeout);
  else if (rc != 0)
    fprintf(stderr, "%s: expected nvcc to compile it, found it failed (exit "
                    "status %d, its messages above)\n", path, rc);
  else if (!text)
    fprintf(stderr, "%s: nvcc made no PTX\n", path);
  return text;
}

/* ---- The launch and the test ---------------------------------------------- */

/* The launch of the file (its header, then the options over it), the
 * condition's text and place in *cond...; false (said) when refused. */
typedef struct condition_text {
  const char *text, *file;
  int line, col;
} condition_text;

static bool read_launch(const kernel_cli *c, const char *path, const char *text,
                        sc_kernel_launch *l, condition_text *cond) {
  sc_error *err;
  if (sc_kernel_parse_header(text, path, &c->limits, l, &cond->text, &cond->line,
                             &cond->col, &err) != SC_OK) {
    fprintf(stderr, "%s\n", sc_error_message(err));
    return false;
  }
  cond->file = path;
  for (int i = 0; i < c->inputs.n; i++)
    if (sc_kernel_launch_override(l, "input", c->inputs.items[i], &c->limits,
                                  &err) != SC_OK) {
      fprintf(stderr, "%s\n", sc_error_message(err));
      return false;
    }
  if (c->config &&
      sc_kernel_launch_override(l, "config", c->config, &c->limits, &err) != SC_OK) {
    fprintf(stderr, "%s\n", sc_error_message(err));
    return false;
  }
  if (c->entry)
    l->entry = c->entry;
  if (c->output)
    *cond = (condition_text){c->output, "-output", 1, 1};
  if (l->threads_per_warp == 0) {
    /* the header is where a launch is written: its first line */
    fprintf(stderr, "%s:1:1: expected a launch, '// @Config: X, Y, Z' (threads "
                    "per warp, warps per CTA, CTAs) in the header or -config, "
                    "found none\n", path);
    return false;
  }
  return true;
}

/* The names @Input gives the parameters of a .cu file's kernel (nvcc's
 * PTX has <entry>_param_N): its signature's, unless @Params gave them.
 * Without -entry the PTX's only kernel; with several, the loader says so. */
static bool cu_param_names(const char *path, const char *cu, const char *ptx,
                           const char *ptx_file, sc_kernel_launch *l) {
  const char *entry = l->entry;
  const char **entries;
  int n;
  sc_error *err;
  if (!entry && sc_kernel_entries(ptx, ptx_file, &entries, &n, &err) == SC_OK &&
      n == 1)
    entry = entries[0];
  if (!entry)
    return true;
  const char **names;
  if (sc_kernel_cu_params(cu, path, entry, &names, &n, &err) != SC_OK) {
    fprintf(stderr, "%s\n", sc_error_message(err));
    return false;
  }
  l->param_names = names;
  l->nparam_names = n;
  return true;
}

/* A kernel as read: its PTX (nvcc's for a .cu), the launch and the
 * condition. */
typedef struct kernel_source {
  const char *ptx, *ptx_file;
  sc_kernel_launch launch;
  condition_text cond;
} kernel_source;

/* Read (and for a .cu, compile) the kernel in `path`; false (said) when
 * refused. */
static bool read_kernel(const kernel_cli *c, const char *path, kernel_source *k) {
  sc_error *err;
  char *text;
  if (sc_read_file(path, c->limits.max_file_bytes, &text, NULL, &err) != SC_OK) {
    fprintf(stderr, "%s\n", sc_error_message(err));
    return false;
  }
  if (!read_launch(c, path, text, &k->launch, &k->cond))
    return false;
  bool cu = ends_with(path, ".cu");
  k->ptx = cu ? compile_cu(c, path) : text;
  if (!k->ptx)
    return false;
  /* errors in nvcc's PTX name it after the .cu, which it was made of */
  k->ptx_file = cu ? cli_format("%s.ptx", path) : path;
  return !cu || k->launch.nparam_names != 0 ||
         cu_param_names(path, text, k->ptx, k->ptx_file, &k->launch);
}

/* The kernel's test: its PTX (nvcc's for a .cu) instantiated for the
 * launch, with the @Output condition (*asked: there was one); NULL (said)
 * when refused. */
static sc_test *kernel_test(const kernel_cli *c, const char *path, bool *asked) {
  kernel_source k;
  if (!read_kernel(c, path, &k))
    return NULL;
  sc_test *t;
  sc_error *err;
  if (sc_kernel_load_string(k.ptx, k.ptx_file, &k.launch, &c->limits, &t, &err) != SC_OK ||
      (k.cond.text && sc_kernel_set_condition(t, k.cond.text, k.cond.file, k.cond.line,
                                              k.cond.col, &err) != SC_OK)) {
    fprintf(stderr, "%s\n", sc_error_message(err));
    const char *in = sc_error_file(err);
    if (k.ptx_file != path && in && strcmp(in, k.ptx_file) == 0)
      fprintf(stderr, "%s: the PTX nvcc made of %s (not kept; to read it: %s)\n",
              k.ptx_file, path, nvcc_command(c, gpu_nvcc(c->nvcc), path, k.ptx_file));
    return NULL;
  }
  *asked = k.cond.text != NULL;
  return t;
}

/* ---- The properties ------------------------------------------------------ */

/* kernel_verdict's, for the condition's verdict */
typedef enum verdict {
  PASS = KERNEL_PASS, FAIL = KERNEL_FAIL, UNKNOWN = KERNEL_UNKNOWN
} verdict;
static const char *const verdict_words[] = {"PASS", "FAIL", "UNKNOWN"};

typedef struct property {
  const char *name;   /* "assertion", "data-race" ... */
  verdict v;
  const char *detail; /* NULL: none */
  const char *flag;   /* FAIL: the flag whose witness tells it, NULL for
                         the condition's; unused otherwise */
  bool story;         /* FAIL with a witness to tell */
} property;

typedef struct answer {
  property props[5];
  int n;
  bool generalises;
  const char *why;
} answer;

static int unroll_of(const kernel_cli *c) {
  return c->opts.unroll >= 0 ? c->opts.unroll : KERNEL_DEFAULT_UNROLL;
}

/* -speedcheck fast stopped the search with its answers in: what it had
 * not found by then is not known to be absent. */
#define STOPPED_EARLY "not found before -speedcheck fast stopped the search"
#define STATES_SO_FAR "; -speedcheck fast: States lists those found before it stopped"

/* A property that passed (nothing found) in a search stopped early is
 * UNKNOWN instead. */
static property unless_stopped(const sc_result *r, property p) {
  if (sc_result_stopped_early(r) && p.v == PASS)
    p = (property){p.name, UNKNOWN, STOPPED_EARLY, p.flag, false};
  return p;
}

#define NOTHING_ASSERTED "nothing asserted (no @Output, no -output)"

/* The condition's verdict (kernel_verdict.c: what -fences checks too). */
static property assertion(const kernel_cli *c, const sc_test *t,
                          const sc_result *r, bool asked) {
  property p = {"assertion", PASS, NULL, NULL, false};
  if (!asked) {
    p.detail = NOTHING_ASSERTED;
    return p;
  }
  bool decided;
  p.v = (verdict)kernel_assertion(t, r, unroll_of(c), &p.detail, &decided);
  p.story = p.v == FAIL && decided;
  if (sc_result_stopped_early(r) && !decided)
    return unless_stopped(r, p);
  if (sc_result_stopped_early(r))
    p.detail = cli_format("%s%s", p.detail ? p.detail : "an allowed execution "
                          "satisfies it", STATES_SO_FAR);
  return p;
}

/* A race flag: raised in some allowed execution (FAIL, its pair told),
 * else PASS, or UNKNOWN when runs were cut. */
static property race(const kernel_cli *c, const sc_test *t, const sc_result *r,
                     const char *name, const char *flag, const char *level) {
  property p = {name, PASS, NULL, flag, false};
  const char *pair = sc_result_flag_pair(r, flag);
  long cut = kernel_cut_runs(t, r);
  if (pair)
    p = (property){name, FAIL, cli_format("%s%s", pair, level), flag, true};
  else if (cut > 0)
    p = (property){name, UNKNOWN, kernel_up_to(unroll_of(c), "no race", cut), flag, false};
  return unless_stopped(r, p);
}

/* An access outside the kernel's memory in an allowed execution (the
 * loader's out-of-bounds flag): FAIL, naming it; else PASS, or UNKNOWN
 * when runs were cut. */
static property bounds(const kernel_cli *c, const sc_test *t, const sc_result *r) {
  int thread, line;
  long long address;
  long cut = kernel_cut_runs(t, r);
  if (sc_result_bounds(r, &thread, &line, &address))
    return (property){"bounds", FAIL,
                      cli_format("T%d %s:%d accesses address %#llx, outside "
                                 "every array", thread, sc_test_file(t), line,
                                 address), NULL, false};
  if (cut > 0 && !sc_result_stopped_early(r))
    return (property){"bounds", UNKNOWN, kernel_up_to(unroll_of(c), "no access outside", cut),
                      NULL, false};
  return unless_stopped(r, (property){"bounds", PASS, NULL, NULL, false});
}

/* ---- The progress line --------------------------------------------------- */

/* What a simulation under way is: the kernel and which of its searches. */
typedef struct search_under_way {
  const char *path, *what;
} search_under_way;

/* sc_sim_options.progress: one line on stderr, rewritten in place. */
static void show_progress(void *ctx, long candidates, double seconds) {
  const search_under_way *w = ctx;
  fprintf(stderr, "\r\033[K%s: %s: %ld candidate executions, %.0f s", w->path,
          w->what, candidates, seconds);
  fflush(stderr);
}

/* sc_simulate with the progress line when stderr is a terminal, cleared
 * after. */
static sc_status simulate(const kernel_cli *c, const char *path, const char *what,
                          const sc_test *t, const sc_model *m, sc_sim_options opts,
                          sc_result **r, sc_error **err) {
  search_under_way w = {path, what};
  if (c->progress) {
    opts.progress = show_progress;
    opts.progress_ctx = &w;
  }
  sc_status st = sc_simulate(t, m, &opts, r, err);
  if (c->progress)
    fprintf(stderr, "\r\033[K");
  return st;
}

/* -liveness: a second simulation, whose verdict is whether a fair
 * execution leaves a thread stuck. */
static bool liveness(const kernel_cli *c, const char *path, const sc_test *t,
                     const sc_model *m, property *p) {
  sc_sim_options opts = c->opts;
  opts.liveness = 1;
  opts.verdicts_only = 1; /* its states are not printed */
  opts.show = SC_SHOW_NONE;
  sc_result *r;
  sc_error *err;
  if (simulate(c, path, "liveness", t, m, opts, &r, &err) != SC_OK) {
    fprintf(stderr, "%s: liveness: %s\n", path, sc_error_message(err));
    return false;
  }
  *p = (property){"liveness", PASS, NULL, NULL, false};
  int thread, line;
  if (sc_result_liveness(r) == 0) {
    const char *stuck = "";
    for (int i = 0; i < sc_test_thread_count(t); i++) {
      int how = sc_result_liveness_stuck(r, i);
      if (how >= 1 && how <= 3)
        stuck = cli_format("%s%sT%d %s", stuck, *stuck ? ", " : "", i,
                           how == 1   ? "spins for ever"
                           : how == 2 ? "waits at a barrier for ever"
                                      : "is halted (never scheduled again)");
    }
    p->v = FAIL;
    p->detail = stuck;
  } else if (sc_result_liveness_unchecked(r, &thread, &line)) {
    p->v = UNKNOWN;
    p->detail = cli_format("T%d's loop at line %d writes memory: a thread "
                           "turning in it is not checked", thread, line);
  }
  return true;
}

/* Over no execution every verdict is vacuous, a PASS as much as a FAIL
 * for want of a witness: each property that looked at executions (the
 * assertion only when one was asked) is UNKNOWN, saying why. */
static void vacuous(answer *a, const char *why, bool asked) {
  for (int i = asked ? 0 : 1; i < a->n; i++)
    a->props[i] = (property){a->props[i].name, UNKNOWN, why, a->props[i].flag, false};
}

static answer judge(const kernel_cli *c, const sc_test *t, const sc_result *r,
                    bool asked) {
  answer a = {0};
  a.props[a.n++] = assertion(c, t, r, asked);
  if (!c->norace) {
    a.props[a.n++] = race(c, t, r, "data-race", SC_FLAG_DATA_RACE,
                          " (PTX level: not undefined behaviour in PTX; "
                          "undefined behaviour in CUDA C++)");
    a.props[a.n++] = race(c, t, r, "shared-race", SC_FLAG_SHARED_RACE,
                          " (barrier-interval race on .shared)");
  }
  a.props[a.n++] = bounds(c, t, r);
  const char *none = kernel_no_execution(t, r, unroll_of(c));
  if (none)
    vacuous(&a, none, asked);
  a.generalises = sc_kernel_generalises(t, &a.why) == 1;
  return a;
}

/* ---- The answer ---------------------------------------------------------- */

/* The story of a failing property, after its line: the witness per
 * thread (its first line, the pair, is the property's detail already). */
static void tell(const kernel_cli *c, const sc_result *r, const property *p,
                 FILE *out) {
  const char *story = sc_result_story(r, p->flag);
  if (!story)
    return;
  if (p->flag) {
    const char *nl = strchr(story, '\n');
    story = nl ? nl + 1 : "";
  }
  fputs(story, out);
  if (*story && story[strlen(story) - 1] != '\n')
    fputc('\n', out);
  if (c->show != SC_SHOW_NONE)
    fputs(cli_text(sc_result_witness_dot(r, p->flag, &c->dot)), out);
}

static void print_answer(const kernel_cli *c, const sc_result *r,
                         const answer *a, FILE *out) {
  for (int i = 0; i < a->n; i++) {
    const property *p = &a->props[i];
    fprintf(out, "Property %s %s%s%s\n", p->name, verdict_words[p->v],
            p->detail ? ": " : "", p->detail ? p->detail : "");
    if (p->story)
      tell(c, r, p, out);
  }
  if (a->generalises)
    fprintf(out, "Inputs generalise\n");
  else
    fprintf(out, "Inputs these-inputs-only%s%s\n", a->why ? ": " : "",
            a->why ? a->why : "");
  fputc('\n', out); /* a blank line ends the kernel's answer, as a block */
}

/* `s` as a JSON string. */
static const char *json_string(const char *s) {
  if (!s)
    return "null";
  const char *out = "\"";
  for (; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\')
      out = cli_format("%s\\%c", out, ch);
    else if (ch < 0x20)
      out = cli_format("%s\\u%04x", out, ch);
    else
      out = cli_format("%s%c", out, ch);
  }
  return cli_format("%s\"", out);
}

/* -json: one object a kernel, {"kernel", "result" (sim's object),
 * "properties": [{"property", "verdict", "detail"}], "generalises",
 * "why"}. */
static bool print_json(const kernel_cli *c, const char *path, const sc_result *r,
                       const answer *a, FILE *out) {
  const char *result = r ? sc_result_json(r, c->log_flags) : "null";
  if (!result) {
    fprintf(stderr, "%s: %s\n", path, cli_no_memory());
    return false;
  }
  size_t n = strlen(result);
  while (n > 0 && result[n - 1] == '\n')
    n--;
  fprintf(out, "{\"kernel\":%s,\"result\":%.*s,\"properties\":[", json_string(path),
          (int)n, result);
  for (int i = 0; i < a->n; i++)
    fprintf(out, "%s{\"property\":%s,\"verdict\":\"%s\",\"detail\":%s}",
            i ? "," : "", json_string(a->props[i].name),
            verdict_words[a->props[i].v], json_string(a->props[i].detail));
  fprintf(out, "],\"generalises\":%s,\"why\":%s}\n", a->generalises ? "true" : "false",
          json_string(a->generalises ? NULL : a->why));
  return true;
}

/* Every property UNKNOWN for the reason `why` (the assertion PASS when
 * nothing was asserted). */
static answer unknown_answer(const kernel_cli *c, const sc_test *t, bool asked,
                             const char *why) {
  answer a = {0};
  a.props[a.n++] = asked ? (property){"assertion", UNKNOWN, why, NULL, false}
                         : (property){"assertion", PASS, NOTHING_ASSERTED, NULL, false};
  if (!c->norace) {
    a.props[a.n++] = (property){"data-race", UNKNOWN, why, NULL, false};
    a.props[a.n++] = (property){"shared-race", UNKNOWN, why, NULL, false};
  }
  a.props[a.n++] = (property){"bounds", UNKNOWN, why, NULL, false};
  a.generalises = sc_kernel_generalises(t, &a.why) == 1;
  return a;
}

/* The answer `a` with the states search's result r: herd's block, the
 * properties, the drawings (-show); or -json. */
static bool print_all(const kernel_cli *c, const char *path, const sc_test *t,
                      sc_result *r, const answer *a, FILE *out) {
  if (c->json)
    return print_json(c, path, r, a, out);
  if (!cli_print_result(path, t, r, false, c->log_flags, out))
    return false;
  print_answer(c, r, a, out);
  cli_drawing d = {true, NULL, NULL, &c->dot};
  return c->show == SC_SHOW_NONE || cli_draw_shown(&d, path, t, r, out);
}

/* Whether the states may be searched again with the values that decide
 * nothing collapsed, computed after each execution: on the solver's road
 * alone, as the enumerator counts a collapsed read's every candidate write
 * (doc/engines.md), so would mostly meet the same limit, and much later
 * (xf-barrier-3.1.3 without Z3: past 10 minutes, where the liveness search
 * alone takes 6 s). */
static bool states_again(const kernel_cli *c, bool asked) {
  return asked && c->opts.engine != SC_ENGINE_ENUM && sc_engine_smt_available(NULL);
}

/* When the states search stopped at a limit: a search that collapses the
 * values that decide nothing (sc_sim_options.verdicts_only), computing
 * them after each execution for its state where the condition needs
 * them (exact_states, where states_again), may still answer: its states
 * are the whole search's, so herd's block is printed from it (its counts
 * are the solver's where it took the solver's road: one per state).
 * Without the states, it searches the races and bounds alone (unless
 * -norace), the assertion UNKNOWN naming the limit.  The liveness search
 * collapses them too.  Where the collapsed search stops as well, the
 * assertion and races are UNKNOWN, saying which limit stopped them, and no
 * herd block is printed (-json: "result" null).  collapsed_first: the
 * states search that stopped collapsed them already (-speedcheck fast's),
 * so it is not made again. */
static bool collapsed_search(const kernel_cli *c, const sc_model *m, const char *path,
                             const sc_test *t, bool asked, const sc_error *why,
                             bool collapsed_first, FILE *out) {
  const char *stopped = cli_format("the states search stopped: %s",
                                   sc_error_message(why));
  answer a = unknown_answer(c, t, asked, stopped);
  sc_result *r = NULL;
  bool states = states_again(c, asked);
  if (!c->norace || states) {
    sc_sim_options opts = c->opts;
    opts.liveness = 0;
    opts.verdicts_only = 1;
    opts.exact_states = states; /* the condition's verdict: its values computed */
    opts.show = (sc_show)c->show;
    sc_error *err = NULL;
    /* the states search that stopped was this one already (-speedcheck
     * fast: collapsed_first), which would stop again */
    bool again = !(collapsed_first && states);
    if (!again || simulate(c, path, "collapsed", t, m, opts, &r, &err) != SC_OK) {
      if (c->norace && !c->opts.liveness) { /* nothing else asked */
        fprintf(stderr, "%s: %s\n", path, sc_error_message(why));
        return false;
      }
      r = NULL;
      const char *also = again ? sc_error_message(err) : NULL;
      a = unknown_answer(
          c, t, asked,
          !also ? stopped
          : strcmp(also, sc_error_message(why)) == 0
              ? cli_format("%s; so did the search that collapses the values deciding "
                           "nothing", stopped)
              : cli_format("%s; the search that collapses the values deciding nothing: "
                           "%s", stopped, also));
    } else {
      a = judge(c, t, r, asked);
      if (asked && !states)
        a.props[0] = (property){"assertion", UNKNOWN, stopped, NULL, false};
    }
  }
  if (c->opts.liveness && !liveness(c, path, t, m, &a.props[a.n++]))
    return false;
  if (r && states) /* its states exact */
    return print_all(c, path, t, r, &a, out);
  if (c->json)
    return print_json(c, path, NULL, &a, out);
  print_answer(c, r, &a, out);
  return true;
}

/* Check the kernel in `path`, printing its answer on `out`; false when it
 * could not (said on stderr). */
static bool run_one(const kernel_cli *c, const sc_model *m, const char *path,
                    FILE *out) {
  bool asked;
  sc_test *t = kernel_test(c, path, &asked);
  if (!t)
    return false;
  sc_sim_options opts = c->opts;
  opts.liveness = 0;
  opts.show = (sc_show)c->show;
  /* -speedcheck fast lists the states found before it stops, which the
   * search that collapses the values deciding nothing finds as they are:
   * it goes first there (its traces fewer: an 8-thread ticket lock's 81
   * a thread, where every value of x makes them 729) */
  bool collapsed_first = c->speedcheck && states_again(c, asked);
  opts.verdicts_only = opts.exact_states = collapsed_first;
  sc_result *r;
  sc_error *err;
  if (simulate(c, path, "states", t, m, opts, &r, &err) != SC_OK) {
    if ((c->opts.liveness || !c->norace || states_again(c, asked)) &&
        sc_error_status(err) == SC_ERR_LIMIT)
      return collapsed_search(c, m, path, t, asked, err, collapsed_first, out);
    fprintf(stderr, "%s: %s\n", path, sc_error_message(err));
    const char *file = sc_error_file(err);
    if (!c->norace && file && ends_with(file, "/" SC_RACE_INCLUDE))
      fprintf(stderr, "%s: the model does not define what %s reads (a PTX "
                      "model's morally-strong and cause): -norace checks "
                      "without races\n", path, SC_RACE_INCLUDE);
    return false;
  }
  answer a = judge(c, t, r, asked);
  if (c->opts.liveness && !liveness(c, path, t, m, &a.props[a.n++]))
    return false;
  return print_all(c, path, t, r, &a, out);
}

/* -fences: the model's fences for the kernel in `path` (kernel_fences.c),
 * reported as `gpu app -fences` reports the empirical ones; false when
 * there is no answer (said). */
static bool run_fences(const kernel_cli *c, const sc_model *m, const char *path,
                       FILE *out) {
  kernel_source k;
  if (!read_kernel(c, path, &k))
    return false;
  if (!k.cond.text) {
    fprintf(stderr, "%s:1:1: expected '// @Output: ...' (or -output): -fences "
                    "finds the fences that make it hold\n", path);
    return false;
  }
  kernel_fence_search s = {k.ptx, k.ptx_file, &k.launch, k.cond.text,
                           k.cond.file, k.cond.line, k.cond.col, &c->limits,
                           m, c->opts,
                           c->fence_kind ? c->fence_kind : "fence.sc.gpu",
                           c->verbose ? "check" : NULL};
  kernel_fences f;
  if (!kernel_model_fences(&s, &f)) {
    fprintf(stderr, "%s\n", f.why);
    return false;
  }
  fprintf(out, "Fences in %s: %d global access%s, %s after each, checked "
               "by the model %s\n", path, f.n, f.n == 1 ? "" : "es", s.fence,
          c->model_path ? c->model_path : KERNEL_DEFAULT_MODEL);
  kernel_fences_report(&f, k.ptx_file, out);
  return f.v == SC_REDUCE_FIXED || f.v == SC_REDUCE_NOT_NEEDED;
}

/* Whether `arg` is an option of this command's table that takes a value
 * (the common ones, -max-heap and -conf, too). */
static bool takes_value(const char *arg) {
  if (arg[0] != '-')
    return false;
  const char *name = arg + 1 + (arg[1] == '-');
  if (strcmp(name, "max-heap") == 0 || strcmp(name, "conf") == 0)
    return true;
  for (const cli_opt *o = kernel_opts; o->name; o++)
    if (strcmp(o->name, name) == 0)
      return o->kind != CLI_FLAG && o->kind != CLI_SET && o->kind != CLI_BITS &&
             o->kind != CLI_VERSION && o->kind != CLI_HELP;
  return false;
}

/* nvcc's joined spellings -DNAME=V and -IDIR as -D NAME=V and -I DIR, the
 * option parser's (an option's value, as -nvcc-flags "-DX", is left be). */
static char **split_joined(int *argc, char **argv) {
  char **out = GC_MALLOC(sizeof(char *) * (size_t)(2 * *argc + 1));
  int n = 0;
  for (int i = 0; i < *argc; i++) {
    const char *a = argv[i];
    if (i > 0 && takes_value(a) && i + 1 < *argc) {
      out[n++] = argv[i++];
      out[n++] = argv[i];
    } else if (i > 0 && a[0] == '-' && (a[1] == 'D' || a[1] == 'I') && a[2]) {
      out[n++] = a[1] == 'D' ? "-D" : "-I";
      out[n++] = (char *)a + 2;
    } else {
      out[n++] = argv[i];
    }
  }
  *argc = n;
  return out;
}

int cmd_kernel(int argc, char **argv) {
  kernel_cli c;
  memset(&c, 0, sizeof c);
  c.opts.unroll = -1;
  c.opts.engine = SC_ENGINE_AUTO;
  argv = split_joined(&argc, argv);
  int missing;
  int rc = cli_parse(&kernel_command, &c, argc, argv, &missing);
  if (rc != CLI_GO_ON)
    return rc;
  if (c.files.n == 0) {
    kernel_usage(stderr);
    return EXIT_USAGE;
  }
  if (c.races && c.norace) {
    fprintf(stderr, "scopecat kernel: -races and -norace say opposite things: "
                    "give one\n");
    return EXIT_USAGE;
  }
  if (c.fences && (c.json || c.show || c.opts.liveness || c.races)) {
    fprintf(stderr, "scopecat kernel: -fences reports fences, under the model "
                    "alone: not with -json, -show, -liveness or -races\n");
    return EXIT_USAGE;
  }
  if (c.fence_kind && !kernel_fence_known(c.fence_kind)) {
    fprintf(stderr, "scopecat kernel: -fence-kind expects " KERNEL_FENCE_KINDS
                    ", found '%s'\n", c.fence_kind);
    return EXIT_USAGE;
  }
  if (!c.fences && (c.fence_kind || c.verbose)) {
    fprintf(stderr, "scopecat kernel: %s goes with -fences\n",
            c.fence_kind ? "-fence-kind" : "-v");
    return EXIT_USAGE;
  }
  c.norace |= c.fences; /* the condition is the model's alone */
  c.opts.speedcheck = c.speedcheck ? SC_SPEEDCHECK_VERDICTS : SC_SPEEDCHECK_FALSE;
  c.progress = isatty(2);
  c.model_limits.timeout = c.opts.timeout;
  models_add_bundled(&c.models);
  const sc_model *m = load_model(&c);
  if (!m)
    return EXIT_SOME_FAILED;
  int failed = 0;
  for (int i = 0; i < c.files.n; i++)
    failed += c.fences ? !run_fences(&c, m, c.files.items[i], stdout)
                       : !run_one(&c, m, c.files.items[i], stdout);
  return failed ? EXIT_SOME_FAILED : EXIT_ALL_RAN;
}
