/* optcheck.c: optcheck (ASPLOS'15 Sec. 4.4) for `scopecat gpu`: do
 * the compiled kernel's threads keep every access and fence of the test,
 * in order? */

/* The program is built with -lineinfo and each test thread's code is one
 * asm statement on its own source line, so every SASS instruction that
 * nvdisasm -g attributes to that line belongs to that thread.  Its memory
 * instructions and fences must be the test's, in program order: loads (LD,
 * LDG, LDS), stores (ST, STG, STS), atomics and reductions (ATOM*, RED*)
 * and fences (MEMBAR, FENCE); the compiler may add fences (release and
 * acquire accesses become a fence and an access) and cache controls
 * (CCTL, ERRBAR), but may not drop, duplicate or reorder an access. */
#define _POSIX_C_SOURCE 200809L
#include "gpu.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* The class of a SASS mnemonic: L S A F, '-' for others, 'X' for local
 * memory (a spill inside the test would be a finding of its own). */
static char sass_class(const char *m) {
  char base[32];
  size_t n = 0;
  while (m[n] && m[n] != '.' && n + 1 < sizeof base) {
    base[n] = m[n];
    n++;
  }
  base[n] = '\0';
  if (!strcmp(base, "LD") || !strcmp(base, "LDG") || !strcmp(base, "LDS"))
    return 'L';
  if (!strcmp(base, "ST") || !strcmp(base, "STG") || !strcmp(base, "STS"))
    return 'S';
  if (!strncmp(base, "ATOM", 4) || !strncmp(base, "RED", 3))
    return 'A';
  if (!strcmp(base, "MEMBAR") || !strcmp(base, "FENCE"))
    return 'F';
  if (!strcmp(base, "LDL") || !strcmp(base, "STL"))
    return 'X';
  return '-';
}

/* The instruction of a SASS line (what follows the address comment in
 * "/ *0120* /  STG.E [R2], R5 ;"), NULL when the line holds none. */
static const char *sass_instruction(const char *line) {
  const char *p = strstr(line, "*/");
  const char *q = strstr(line, "/*");
  if (!q || !p || p < q)
    return NULL;
  p += 2;
  while (*p == ' ' || *p == '\t')
    p++;
  return isupper((unsigned char)*p) || *p == '@' ? p : NULL;
}

/* The mnemonic, past a predicate guard ("@P0 STG.E" -> "STG.E"). */
static const char *skip_guard(const char *p) {
  if (*p == '@') {
    while (*p && !isspace((unsigned char)*p))
      p++;
    while (*p == ' ')
      p++;
  }
  return p;
}

/* Each thread's SASS, as litmus7 prints a test's generated assembler. */
static void print_assembler(FILE *log, int nthreads, char **text) {
  for (int t = 0; t < nthreads; t++)
    fprintf(log, "//START _litmus_P%d\n%s//END _litmus_P%d\n", t,
            text[t] ? text[t] : "", t);
}

bool gpu_optcheck(FILE *sass, const sc_gpu_program *prog, FILE *log) {
  int nthreads = sc_gpu_program_thread_count(prog);
  char seen[32][512];
  int nseen[32] = {0};
  char *text[32] = {0};
  size_t textlen[32] = {0};
  FILE *asm_out[32];
  for (int t = 0; t < nthreads; t++)
    asm_out[t] = open_memstream(&text[t], &textlen[t]);
  int cur = 0;
  char line[4096];
  while (fgets(line, sizeof line, sass)) {
    const char *p = strstr(line, "//## File");
    if (p) {
      /* only lines of the generated .cu count (the harness's headers
       * have lines of the same numbers) */
      const char *l = strstr(p, "line ");
      const char *cu = strstr(p, ".cu\"");
      cur = l && cu ? atoi(l + 5) : 0;
      continue;
    }
    const char *ins = sass_instruction(line);
    if (!ins)
      continue;
    p = skip_guard(ins);
    if (!isupper((unsigned char)*p))
      continue;
    char cls = sass_class(p);
    for (int t = 0; t < nthreads; t++) {
      if (sc_gpu_program_asm_line(prog, t) != cur)
        continue;
      if (asm_out[t])
        fprintf(asm_out[t], "  %.*s\n", (int)strcspn(ins, "\n"), ins);
      if (cls != '-' && nseen[t] < 500) {
        seen[t][nseen[t]++] = cls;
        seen[t][nseen[t]] = '\0';
      }
    }
  }
  for (int t = 0; t < nthreads; t++)
    if (asm_out[t])
      fclose(asm_out[t]);
  print_assembler(log, nthreads, text);
  for (int t = 0; t < nthreads; t++)
    free(text[t]);
  bool all = true;
  for (int t = 0; t < nthreads; t++) {
    const char *want = sc_gpu_program_access_classes(prog, t);
    const char *got = nseen[t] ? seen[t] : "";
    /* match: walk `got`; extra F allowed; everything else must match */
    const char *w = want;
    bool ok = true;
    for (const char *g = got; *g; g++) {
      if (*w && *g == *w) {
        w++;
        continue;
      }
      if (*g == 'F')
        continue;
      ok = false;
      break;
    }
    if (*w)
      ok = false;
    fprintf(log, "optcheck: thread %d: PTX %s, SASS %s: %s\n", t,
            *want ? want : "-", *got ? got : "-", ok ? "OK" : "FAILED");
    all = all && ok;
  }
  fprintf(log, "optcheck: %s\n", all ? "OK" : "FAILED");
  return all;
}
