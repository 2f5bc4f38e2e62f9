/* drf.c: `scopecat gpu drf`: data-race-free random testing on the GPU
 * (Ta et al., seed 002): generate, build and run the program, or check a
 * recorded trace (drf_trace.c); report wrong loads with a litmus test the
 * model judges (drf_report.c). */

/* The program and its checker are harness/drf_prog.h, compiled here as C
 * (for -check TRACE) and into the generated CUDA program (drf_main.cuh),
 * which checks every load on the GPU and prints what it found as lines
 * this file reads (see drf_main.cuh).  A wrong load becomes a two-thread
 * litmus test in Dat3M's PTX dialect (the writer's and the reader's
 * episodes, reduced to the variable, the lock word and their
 * synchronisation), simulated under its default model. */
#define _POSIX_C_SOURCE 200809L
#include "drf.h"

#include <errno.h>
#include <gc/gc.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_run.h"



static void drf_usage(FILE *out) {
  fprintf(out,
      "usage: scopecat gpu drf [options]            run on the GPU\n"
      "       scopecat gpu drf -check TRACE [-o DIR] check a recorded trace\n"
      "       scopecat gpu drf -gen DIR              write the CUDA program\n"
      "options:\n"
      "  -ctas N            CTAs (default 264: 2 per SM of an H100)\n"
      "  -tpb N             threads per CTA (default 256)\n"
      "  knobs -episodes to -spacing: drawn each round unless given (-swarm);\n"
      "  their defaults are the values of every round with -swarm 0\n"
      "  -episodes N        episodes per thread (default 16)\n"
      "  -actions N         loads and stores per episode (default 32)\n"
      "  -vars N            variables per lock, 1..64 (default 8)\n"
      "  -locks N           locks shared by all CTAs (default 1024)\n"
      "  -cta-locks N       locks of each CTA, used by its threads (default 8)\n"
      "  -loads P           percent of actions that are loads (default 50)\n"
      "  -spacing N         words between variables and lock words\n"
      "                     (default 1: false sharing; 32: a line each)\n"
      "  -seed N            seed of the first round (default 1)\n"
      "  -swarm 0|1         1 (default): each round draws from its seed the\n"
      "                     knobs above that are not given (episodes: at\n"
      "                     most -episodes); 0: the defaults in every round\n"
      "  -n N               checked loads wanted (default 100000000; with\n"
      "                     -inject: until the fault is caught)\n"
      "  -max-seconds S     stop after S s of GPU time (default: none; with\n"
      "                     -inject 60: a fault not caught by then fails)\n"
      "  -inject FAULT      release-relaxed, no-acquire-fence, cta-shared,\n"
      "                     load-outside (default none)\n"
      "  -stop              stop at the first round with a finding\n"
      "                     (the default with -inject)\n"
      "  -spin-timeout S    forward progress: an acquire spinning S s\n"
      "                     fails (default 2)\n"
      "  -timeout S         watchdog on the program (default 600; 0: none)\n"
      "  -o DIR             the log (DIR/drf.txt) and litmus tests of\n"
      "                     wrong loads (default: litmus tests in .)\n"
      "  -trace FILE        record the first round's trace in FILE\n"
      "  -check TRACE       check a recorded trace instead (no GPU)\n"
      "  -gen DIR           write the program (DIR/drf.cu) and stop\n"
      "  -plan N            print the settings of the first N rounds and\n"
      "                     stop (no GPU)\n"
      "  -nvcc PATH         the CUDA compiler (default %s)\n"
      "  -gpudir DIR        the harness templates (harness/)\n"
      "  -keep DIR          build in DIR and keep it\n",
      gpu_configured_nvcc);
  cli_common_usage(out, 21);
}

#define AT(field) .offset = offsetof(drf_cli, field)
#define NUM(nm, fld, l, h)                                                  \
  {.name = nm, .kind = CLI_INT, AT(fld), .lo = l, .hi = h,                  \
   .bad = "%o: expected a number from %l to %h, not '%v'"}
static const cli_opt drf_opts[] = {
    NUM("ctas", ctas, 1, 1 << 20),
    NUM("tpb", tpb, 1, 1024),
    NUM("episodes", episodes, 1, 1 << 20),
    NUM("actions", actions, 1, 1 << 16),
    NUM("vars", vars, 1, DRF_MAXV),
    NUM("locks", locks, 0, 1 << 22),
    NUM("cta-locks", cta_locks, 0, 1 << 16),
    NUM("loads", loads, 0, 100),
    NUM("spacing", spacing, 1, 1 << 12),
    NUM("swarm", swarm, 0, 1),
    {.name = "seed", .kind = CLI_LONG, AT(seed), .lo = 0, .hi = LONG_MAX,
     .bad = "%o: expected a non-negative number, not '%v'"},
    {.name = "n", .kind = CLI_LONG, AT(n), .lo = 1, .hi = LONG_MAX,
     .bad = "%o: expected a positive number, not '%v'"},
    {.name = "plan", .kind = CLI_LONG, AT(plan), .lo = 1, .hi = 1000000,
     .bad = "%o: expected a number from 1 to 1000000, not '%v'"},
    {.name = "inject", .kind = CLI_CHOICE, AT(inject),
     .choices = drf_inject_names,
     .bad = "%o: expected none, release-relaxed, no-acquire-fence, "
            "cta-shared or load-outside, not '%v'"},
    {.name = "max-seconds", .kind = CLI_SECONDS, AT(max_seconds),
     .bad = "%o: expected seconds, not '%v'"},
    {.name = "spin-timeout", .kind = CLI_SECONDS, AT(spin),
     .bad = "%o: expected seconds, not '%v'"},
    {.name = "timeout", .kind = CLI_SECONDS, AT(timeout),
     .bad = "%o: expected seconds, not '%v'"},
    {.name = "stop", .kind = CLI_FLAG, AT(stop)},
    {.name = "o", .kind = CLI_STRING, AT(outdir)},
    {.name = "trace", .kind = CLI_STRING, AT(trace)},
    {.name = "check", .kind = CLI_STRING, AT(check)},
    {.name = "gen", .kind = CLI_STRING, AT(gen)},
    {.name = "nvcc", .kind = CLI_STRING, AT(nvcc)},
    {.name = "gpudir", .kind = CLI_STRING, AT(gpudir)},
    {.name = "keep", .kind = CLI_STRING, AT(keep)},
    {0}};


/* ---- running on the GPU ---------------------------------------------------- */

static const char *write_program(const char *dir) {
  const char *cu = cli_format("%s/drf.cu", dir);
  FILE *f = fopen(cu, "w");
  if (!f) {
    fprintf(stderr, "scopecat gpu drf: %s: %s\n", cu, strerror(errno));
    return NULL;
  }
  fprintf(f, "// Generated by scopecat gpu drf: data-race-free random testing "
             "of the GPU's memory.\n// The program is a function of the run "
             "time parameters (drf_prog.h); the kernels,\n// the recording "
             "and the checker are the harness templates' (drf_main.cuh).\n"
             "#include \"gpu_prelude.cuh\"\n#include \"drf_prog.h\"\n"
             "#include \"drf_main.cuh\"\n");
  fclose(f);
  return cu;
}

/* Read the program's lines into *o; each round's setting must be the one
 * its seed draws from the base p. */
static void read_output(const char *out, const drf_cli *c, const drf_params *p,
                        drf_outcome *o) {
  char *text = GC_STRDUP(out ? out : ""), *save = NULL;
  for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
    long long r, e, x[8];
    unsigned long long sd, ep, ld, st, mmn, to, ab, du;
    double rm, cm;
    unsigned seen, exp;
    int a, pl, wp;
    if (!strncmp(l, "device ", 7)) {
      char *sp = strrchr(l, ' ');
      o->device = cli_format("%.*s (%s SMs)", (int)(sp - l - 7), l + 7, sp + 1);
    } else if (sscanf(l, "round %lld %llu %llu %llu %llu %llu %llu %llu %llu %lf %lf",
                      &r, &sd, &ep, &ld, &st, &mmn, &to, &ab, &du, &rm, &cm) == 11) {
      drf_round rd = {0};
      rd.set = drf_swarm(p, sd, c->fixed);
      rd.profile = drf_profile(sd, c->fixed);
      rd.loads = ld;
      rd.seconds = (rm + cm) / 1000;
      rd.found = mmn || to || du;
      int f[8];
      const char *set = strstr(l, " set ");
      if (!set || sscanf(set, " set %d %d %d %d %d %d %d %d", &f[0], &f[1],
                         &f[2], &f[3], &f[4], &f[5], &f[6], &f[7]) != 8 ||
          f[0] != rd.profile || f[1] != rd.set.episodes ||
          f[2] != rd.set.actions || f[3] != rd.set.vars ||
          f[4] != rd.set.locks || f[5] != rd.set.cta_locks ||
          f[6] != rd.set.loads || f[7] != rd.set.spacing) {
        o->setting_mismatch = true;
        rd.found = true;
      }
      drf_add_round(o, &rd);
      o->rounds = r + 1;
      o->last_seed = sd;
      o->episodes += ep, o->loads += ld, o->stores += st;
      o->mismatches += mmn, o->timedout += to, o->abandoned += ab, o->dups += du;
      o->run_s += rm / 1000, o->check_s += cm / 1000;
      if ((mmn || to || du) && o->caught_round < 0) {
        o->caught_round = r;
        o->caught_s = o->run_s + o->check_s;
      }
    } else if (sscanf(l, "mismatch %lld %llu %lld %d %u %u %d %d", &r, &sd, &e,
                      &a, &seen, &exp, &pl, &wp) == 8) {
      if (o->nmm < MAXREC)
        o->mm[o->nmm++] = (drf_found){sd, e, a, pl, wp, seen, exp};
    } else if (sscanf(l, "stuck %lld %llu %lld %lld", &r, &sd, &x[0], &x[1]) == 4) {
      if (o->nstuck < MAXREC) {
        o->stuck[o->nstuck][0] = (long long)sd;
        o->stuck[o->nstuck][1] = x[0];
        o->stuck[o->nstuck++][2] = x[1];
      }
    } else if (sscanf(l, "dup %lld %llu %lld %lld %lld", &r, &sd, &x[0], &x[1],
                      &x[2]) == 5) {
      if (o->ndup < MAXREC) {
        long long *d = o->dup[o->ndup++];
        d[0] = (long long)sd, d[1] = x[0], d[2] = x[1], d[3] = x[2];
      }
    } else if (sscanf(l, "cover %lld %llu", &r, &sd) == 2 && r >= 0 &&
               r < DRF_NCOVER) {
      o->cover[r] += sd;
    }
  }
}

/* Build the program in -keep DIR (a temporary folder otherwise) with the
 * one build step: a program built from the same source, harness and
 * command is reused.  Its path, NULL after a message. */
static const char *build_program(const drf_cli *c, const char *bdir) {
  const char *cu = write_program(bdir);
  if (!cu)
    return NULL;
  const char *exe = cli_format("%s/drf", bdir);
  const char *nvcc = gpu_nvcc(c->nvcc), *gd = gpu_dir(c->gpudir);
  const char *cmd = cli_format(
      "'%s' -O3 -arch=sm_90 -lineinfo -std=c++17 -I '%s' -o '%s' '%s'", nvcc,
      gd, exe, cu);
  if (isatty(2))
    fprintf(stderr, "scopecat gpu drf: building %s\n", cu);
  cli_list inputs = gpu_sources(cu, gd);
  return gpu_step(nvcc, cmd, &inputs, exe, "scopecat gpu drf", stderr) ? exe
                                                                       : NULL;
}

/* The run's exit status: with -inject, whether the fault was caught (a
 * wrong load, a stuck acquire or a lock failure); else whether anything
 * went wrong. */
static int run_status(const drf_cli *c, const drf_params *p,
                      const drf_outcome *o, int st) {
  if (p->inject != DRF_INJ_NONE)
    return drf_caught(o) ? EXIT_ALL_RAN : EXIT_SOME_FAILED;
  return o->mismatches || o->timedout || o->dups || o->watchdog ||
                 o->setting_mismatch || st != 0
             ? EXIT_SOME_FAILED
             : EXIT_ALL_RAN;
  (void)c;
}

static int run_gpu(drf_cli *c, drf_params *p, FILE *log, const char *dir) {
  const char *bdir = c->keep;
  if (bdir)
    mkdir(bdir, 0777);
  else if (!(bdir = cli_temp_dir("drf"))) {
    fprintf(stderr, "scopecat gpu drf: a temporary folder: %s\n",
            strerror(errno));
    return EXIT_SOME_FAILED;
  }
  const char *exe = build_program(c, bdir);
  if (!exe) {
    if (!c->keep)
      cli_temp_remove(bdir);
    return EXIT_SOME_FAILED;
  }
  /* the program runs rounds until it has checked -n loads, or (-inject)
   * until the fault is caught; -max-seconds of GPU time end it first */
  const char *run = cli_format(
      "'%s' -ctas %d -tpb %d -episodes %d -actions %d -vars %d -locks %d "
      "-cta-locks %d -loads %d -spacing %d -seed %" PRIu64 " -inject %d "
      "-fixed %u -want %ld -seconds-ms %lld -stop %d -spin-ms %lld%s%s 2>&1",
      exe, p->ctas, p->tpb, p->episodes, p->actions, p->vars, p->locks,
      p->cta_locks, p->loads, p->spacing, p->seed, p->inject, c->fixed,
      c->want, (long long)(c->max_seconds * 1000), c->stop ? 1 : 0,
      (long long)(c->spin * 1000), c->trace ? " -trace " : "",
      c->trace ? cli_format("'%s'", c->trace) : "");
  if (isatty(2))
    fprintf(stderr, "scopecat gpu drf: running %s\n",
            p->inject != DRF_INJ_NONE
                ? cli_format("until the fault is caught or %g s pass",
                             c->max_seconds)
                : cli_format("until %ld loads are checked", c->want));
  int st;
  char *out = cli_run_capture(run, c->timeout, &st);
  drf_outcome o;
  memset(&o, 0, sizeof o);
  o.caught_round = -1;
  read_output(out, c, p, &o);
  o.watchdog = st == CLI_RUN_TIMED_OUT;
  if (!c->keep)
    cli_temp_remove(bdir);
  if (!o.device) {
    fprintf(stderr, "scopecat gpu drf: the program failed (%s):\n%s", run,
            out ? out : "");
    return EXIT_SOME_FAILED;
  }
  drf_report(log, c, *p, &o, dir);
  return run_status(c, p, &o, st);
}

int cmd_gpu_drf(int argc, char **argv) {
  drf_cli c;
  memset(&c, 0, sizeof c);
  /* the knobs a round may draw: -1 until given */
  c.ctas = 264, c.tpb = 256, c.episodes = -1, c.actions = -1, c.vars = -1;
  c.locks = -1, c.cta_locks = -1, c.loads = -1, c.spacing = -1, c.swarm = 1;
  c.seed = 1, c.n = 0, c.spin = 2, c.timeout = 600;
  c.argc = argc;
  c.argv = argv;
  const cli_command cmd = {"gpu drf", drf_opts,
                           {.kind = CLI_LIST, AT(operands)}, drf_usage, false};
  int missing;
  int rc = cli_parse(&cmd, &c, argc, argv, &missing);
  if (rc != CLI_GO_ON)
    return rc;
  if (c.operands.n) {
    fprintf(stderr, "scopecat gpu drf: unexpected argument '%s' (gpu drf "
                    "takes options only)\n", c.operands.items[0]);
    drf_usage(stderr);
    return EXIT_USAGE;
  }
  /* -inject: the fault must be caught; the program stops at the first
   * finding, or after -max-seconds (default 60 s), not after -n loads
   * unless -n is given */
  if (c.inject != DRF_INJ_NONE) {
    c.stop = true;
    if (c.max_seconds == 0)
      c.max_seconds = DRF_INJECT_SECONDS;
  }
  c.want = c.n ? c.n : c.inject != DRF_INJ_NONE ? LONG_MAX : DRF_DEFAULT_LOADS;
  int *knob[DRF_NKNOBS] = {&c.episodes, &c.actions, &c.vars, &c.locks,
                           &c.cta_locks, &c.loads, &c.spacing};
  static const int dflt[DRF_NKNOBS] = {16, 32, 8, 1024, 8, 50, 1};
  c.fixed = c.swarm ? 0 : DRF_FIXED_ALL;
  for (int k = 0; k < DRF_NKNOBS; k++) {
    if (*knob[k] >= 0)
      c.fixed |= 1u << k;
    else
      *knob[k] = dflt[k];
  }
  const char *dir = c.outdir ? c.outdir : ".";
  if (c.outdir && mkdir(c.outdir, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "scopecat gpu drf: %s: %s\n", c.outdir, strerror(errno));
    return EXIT_USAGE;
  }
  drf_params p;
  memset(&p, 0, sizeof p);
  if (c.check) {
    drf_outcome o;
    if (!drf_check_trace(c.check, &p, &c.fixed, &c.episodes, &o))
      return EXIT_SOME_FAILED;
    FILE *log = c.outdir ? fopen(cli_format("%s/drf.txt", c.outdir), "w") : NULL;
    c.argv = NULL;
    drf_report(stdout, &c, p, &o, dir);
    if (log) {
      drf_report(log, &c, p, &o, dir);
      fclose(log);
    }
    return o.mismatches || o.timedout || o.dups ? EXIT_SOME_FAILED
                                                : EXIT_ALL_RAN;
  }
  p.ctas = c.ctas, p.tpb = c.tpb, p.episodes = c.episodes;
  p.actions = c.actions, p.vars = c.vars, p.locks = c.locks;
  p.cta_locks = c.cta_locks, p.loads = c.loads, p.spacing = c.spacing;
  p.inject = c.inject, p.seed = (uint64_t)c.seed;
  /* the largest setting a round may draw must make a program too */
  drf_params big = p;
  if (!(c.fixed >> DRF_K_ACTIONS & 1))
    big.actions = DRF_SWARM_MAX_ACTIONS;
  if (!(c.fixed >> DRF_K_VARS & 1))
    big.vars = DRF_MAXV;
  if (!(c.fixed >> DRF_K_SPACING & 1))
    big.spacing = DRF_SWARM_MAX_SPACING;
  if (!(c.fixed >> DRF_K_LOCKS & 1))
    big.locks = DRF_SWARM_MAX_LOCKS;
  if (!(c.fixed >> DRF_K_CTA_LOCKS & 1))
    big.cta_locks = DRF_SWARM_MAX_CTA_LOCKS;
  const char *why = drf_bad_params(&p);
  if (!why && c.fixed != DRF_FIXED_ALL && (why = drf_bad_params(&big)))
    why = cli_format("%s (in a round that draws the largest setting; "
                     "-swarm 0 or a smaller knob)", why);
  if (why) {
    fprintf(stderr, "scopecat gpu drf: %s\n", why);
    return EXIT_USAGE;
  }
  if (c.plan) {
    for (long r = 0; r < c.plan; r++) {
      uint64_t sd = p.seed + (uint64_t)r;
      drf_params q = drf_swarm(&p, sd, c.fixed);
      printf("round %ld seed %" PRIu64 " %s\n", r, sd,
             drf_setting_words(drf_profile(sd, c.fixed), &q));
    }
    return EXIT_ALL_RAN;
  }
  if (c.gen) {
    if (mkdir(c.gen, 0777) != 0 && errno != EEXIST) {
      fprintf(stderr, "scopecat gpu drf: %s: %s\n", c.gen, strerror(errno));
      return EXIT_USAGE;
    }
    const char *cu = write_program(c.gen);
    if (!cu)
      return EXIT_SOME_FAILED;
    printf("%s\n", cu);
    return EXIT_ALL_RAN;
  }
  if (gpu_count() < 1) {
    fprintf(stderr, "scopecat gpu drf: no GPU visible: SKIP\n");
    return 77;
  }
  char *text = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&text, &len);
  rc = run_gpu(&c, &p, mem, dir);
  fclose(mem);
  fputs(text ? text : "", stdout);
  if (c.outdir && text) {
    FILE *f = fopen(cli_format("%s/drf.txt", c.outdir), "w");
    if (f) {
      fputs(text, f);
      fclose(f);
    }
  }
  free(text);
  return rc;
}
