/* app_kernel.c: a case of the kernel corpus (ptx/kernels/CASE.ptx, made by
 * make-ptx.sh: the launch header, then the .cu and its -D defines in two
 * comment lines, then nvcc's PTX) as a program for `scopecat gpu app`.
 *   gpu app -kernel-program CASE.ptx  writes the host program's .cu: the
 *     case's kernel launched as @Config says on the @Input arrays, over
 *     and over, printing a histogram of final states
 *     (harness/app_kernel.cuh);
 *   gpu app -kernel-check CASE.ptx    the post-condition for -check: reads
 *     that histogram on its input and fails when a state breaks @Output.
 * The header and the condition are read by the library (the same reading
 * `scopecat kernel` gives the model), not again here. */
#define _POSIX_C_SOURCE 200809L
#include "app.h"

#include <gc/gc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The case as the library reads it: the launch, the @Output text, the
 * test (validating both), the one entry's name. */
typedef struct kernel_case {
  const char *path, *text;
  sc_kernel_launch launch;
  const char *cond;
  int cond_line, cond_col;
  const char *entry;
  sc_test *test;
} kernel_case;

static bool said(sc_error *err) {
  fprintf(stderr, "%s\n", sc_error_message(err));
  return false;
}

/* Read and check the case; false after a message. */
static bool read_case(const char *path, kernel_case *k) {
  sc_error *err;
  memset(k, 0, sizeof *k);
  k->path = path;
  if (!(k->text = cli_read_file(path))) {
    fprintf(stderr, "scopecat gpu app: %s: cannot read\n", path);
    return false;
  }
  if (sc_kernel_parse_header(k->text, path, NULL, &k->launch, &k->cond,
                             &k->cond_line, &k->cond_col, &err) != SC_OK)
    return said(err);
  const char *why =
      !k->launch.threads_per_warp ? "expected a launch, '// @Config: X, Y, Z'"
      : !k->launch.nparam_names   ? "expected '// @Params: ...', the kernel's "
                                    "parameters in order (make-ptx.sh writes it)"
      : !k->cond                  ? "expected '// @Output: forall (...)', the "
                                    "post-condition"
      : strncmp(k->cond, "forall", 6) ? "expected the @Output condition to be "
                                        "'forall (...)': a program's "
                                        "post-condition holds in every run"
                                      : NULL;
  if (why) {
    fprintf(stderr, "%s:1:1: %s\n", path, why);
    return false;
  }
  const char **entries;
  int n;
  if (sc_kernel_entries(k->text, path, &entries, &n, &err) != SC_OK)
    return said(err);
  if (n != 1 || !strncmp(entries[0], "_Z", 2)) {
    fprintf(stderr, "%s:1:1: expected one extern \"C\" kernel (its PTX name "
                    "is its C++ name), found %d entries%s%s\n", path, n,
            n ? ", the first " : "", n ? entries[0] : "");
    return false;
  }
  k->entry = entries[0];
  if (sc_kernel_load_string(k->text, path, &k->launch, NULL, &k->test, &err) != SC_OK ||
      sc_kernel_set_condition(k->test, k->cond, path, k->cond_line, k->cond_col,
                              &err) != SC_OK)
    return said(err);
  return true;
}

/* The text after `// PREFIX` on the header's comment line that starts so;
 * NULL when there is none.  make-ptx.sh writes "// case NAME: made by
 * make-ptx.sh from FILE.cu" and "// nvcc-flags: FLAGS". */
static const char *comment_line(const char *text, const char *prefix) {
  size_t len = strlen(prefix);
  for (const char *l = text; l && !strncmp(l, "//", 2); l = strchr(l, '\n'), l = l ? l + 1 : NULL)
    if (!strncmp(l + 2, " ", 1) && !strncmp(l + 3, prefix, len)) {
      const char *s = l + 3 + len;
      return GC_STRNDUP(s, strcspn(s, "\n"));
    }
  return NULL;
}

/* The input @Input gives parameter i (by its .cu name or its PTX one). */
static const sc_kernel_input *input_of(const kernel_case *k, int i) {
  const char *name = k->launch.param_names[i];
  const char *ptx_name = cli_format("%s_param_%d", k->entry, i);
  for (int j = 0; j < k->launch.ninputs; j++)
    if (!strcmp(k->launch.inputs[j].param, name) ||
        !strcmp(k->launch.inputs[j].param, ptx_name))
      return &k->launch.inputs[j];
  return NULL;
}

/* "#define NAME VALUE" for each -DNAME[=VALUE] of the flags. */
static void print_defines(FILE *out, const char *flags) {
  char *copy = GC_STRDUP(flags ? flags : ""), *save = NULL;
  for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
    if (!strncmp(w, "-D", 2) && w[2]) {
      char *eq = strchr(w + 2, '=');
      if (eq)
        *eq = ' ';
      fprintf(out, "#define %s\n", w + 2);
    }
}

static void print_program(FILE *out, const kernel_case *k, const char *name,
                          const char *cu, const char *flags) {
  const sc_kernel_launch *l = &k->launch;
  int threads = l->threads_per_warp * l->warps_per_cta;
  fprintf(out,
          "// %s as a program: written by `scopecat gpu app -kernel-program %s`.\n"
          "// The kernel of %s%s%s, launched as @Config %d, %d, %d says (%d CTA%s of\n"
          "// %d threads) on the @Input values, again and again; the final states'\n"
          "// histogram goes to the output, which `scopecat gpu app -kernel-check %s`\n"
          "// judges by @Output: %s\n",
          name, k->path, cu, flags && strstr(flags, "-D") ? " with " : "",
          flags && strstr(flags, "-D") ? strstr(flags, "-D") : "",
          l->threads_per_warp, l->warps_per_cta, l->ctas, l->ctas,
          l->ctas == 1 ? "" : "s", threads, k->path, k->cond);
  print_defines(out, flags);
  fprintf(out, "#include \"%s\"\n#include \"app_kernel.cuh\"\n\n", cu);
  for (int i = 0; i < l->nparam_names; i++) {
    const sc_kernel_input *in = input_of(k, i);
    if (!in)
      continue;
    fprintf(out, "static const long long sc_in_%d[] = {", i);
    for (int v = 0; v < in->nvalues; v++)
      fprintf(out, "%s%lld", v ? ", " : "", in->values[v]);
    fprintf(out, "};\n");
  }
  fprintf(out, "static const sc_kernel_in sc_inputs[] = {\n");
  for (int i = 0; i < l->nparam_names; i++) {
    const sc_kernel_input *in = input_of(k, i);
    if (in)
      fprintf(out, "    {\"%s\", sc_in_%d, %d, %d},\n", l->param_names[i], i,
              in->nvalues, in->is_array);
    else
      fprintf(out, "    {\"%s\", nullptr, 0, 1},\n", l->param_names[i]);
  }
  fprintf(out,
          "};\n\n"
          "int main(int argc, char **argv) {\n"
          "  return sc_kernel_app_main(argc, argv, \"%s\", %s, %d, %d, sc_inputs);\n"
          "}\n",
          name, k->entry, l->ctas, threads);
}

int app_kernel_program(const char *path) {
  kernel_case k;
  if (!read_case(path, &k))
    return EXIT_USAGE;
  const char *made = comment_line(k.text, "case ");
  const char *from = made ? strstr(made, " from ") : NULL;
  const char *colon = made ? strchr(made, ':') : NULL;
  if (!from || !colon || colon > from) {
    fprintf(stderr, "%s:1:1: expected '// case NAME: made by make-ptx.sh from "
                    "FILE.cu', the case's source\n", path);
    return EXIT_USAGE;
  }
  const char *name = GC_STRNDUP(made, (size_t)(colon - made));
  print_program(stdout, &k, name, from + 6, comment_line(k.text, "nvcc-flags: "));
  return EXIT_ALL_RAN;
}

int app_kernel_check(const char *path) {
  kernel_case k;
  if (!read_case(path, &k))
    return EXIT_USAGE;
  /* a state breaks `forall P` when it satisfies `not P`: the library's
   * witness test over the condition `exists not P` */
  sc_error *err;
  const char *broken = cli_format("exists not %s", k.cond + 6);
  if (sc_kernel_set_condition(k.test, broken, path, k.cond_line, k.cond_col,
                              &err) != SC_OK)
    return said(err), EXIT_USAGE;
  size_t cap = 4096, len = 0, got;
  char *log = GC_MALLOC_ATOMIC(cap);
  while ((got = fread(log + len, 1, cap - len - 1, stdin)) > 0)
    if ((len += got) + 1 == cap)
      log = GC_REALLOC(log, cap *= 2);
  log[len] = '\0';
  sc_hist **blocks;
  int n, witnessed;
  if (sc_hist_load_string(log, "the program's output", &blocks, &n, &err) != SC_OK)
    return said(err), EXIT_SOME_FAILED;
  if (n != 1) {
    fprintf(stderr, "scopecat gpu app: -kernel-check: expected one histogram "
                    "on the input, found %d\n", n);
    return EXIT_SOME_FAILED;
  }
  if (sc_hist_witnesses(blocks[0], k.test, &witnessed, &err) != SC_OK)
    return said(err), EXIT_SOME_FAILED;
  if (witnessed)
    fprintf(stderr, "scopecat gpu app: %s: a final state breaks @Output %s\n",
            path, k.cond);
  return witnessed ? EXIT_SOME_FAILED : EXIT_ALL_RAN;
}
