/* ptx_write.c: PTX back out with fences inserted, for empirical fence
 * insertion on a whole program (`gpu app -fences`, seed 000's Alg. 1 at
 * the PTX level): the sites are the global memory accesses of the
 * module's functions (.entry and .func bodies), each with the source line
 * of the `.loc` in force; the writer copies the text as it is and puts a
 * fence right after each chosen site. */

/* A global access is a load, store, atomic or reduction whose state
 * space is .global, or none (a generic address, which may be global):
 * ld, st, atom, red, with .param, .shared, .local and .const ones left
 * out.  The source line is that of the last `.loc` without `inlined_at`,
 * the line of the function nvcc compiled (an inlined library call's
 * accesses count as the line that called it). */
#define _POSIX_C_SOURCE 200809L
#include "kernel/kernel.h"

#include "util/error.h"
#include "util/gcmem.h"
#include "util/oom.h"
#include "util/strbuf.h"

#include <string.h>

/* Whether opcode `op` (ld.global.u32, st.release.gpu.b32, atom.add.u32)
 * accesses global memory, or may. */
static bool global_access(const char *op) {
  static const char *const kinds[] = {"ld", "st", "atom", "red", NULL};
  static const char *const other[] = {".param", ".shared", ".local", ".const",
                                      ".tex", NULL};
  bool kind = false;
  for (int i = 0; kinds[i]; i++) {
    size_t n = strlen(kinds[i]);
    if (!strncmp(op, kinds[i], n) && (op[n] == '.' || !op[n]))
      kind = true;
  }
  if (!kind)
    return false;
  for (int i = 0; other[i]; i++) {
    const char *p = strstr(op, other[i]);
    size_t n = strlen(other[i]);
    if (p && (p[n] == '.' || !p[n]))
      return false; /* ld.shared::cta too: the prefix decides */
  }
  return true;
}

/* The byte offset of each line's start in `text` (1-based lines). */
static size_t *line_starts(const char *text, int *nlines) {
  int n = 1;
  for (const char *p = text; *p; p++)
    n += *p == '\n';
  size_t *at = sci_alloc(sizeof(size_t) * (size_t)(n + 1));
  at[0] = at[1] = 0;
  int k = 1;
  for (const char *p = text; *p; p++)
    if (*p == '\n')
      at[++k] = (size_t)(p - text) + 1;
  *nlines = n;
  return at;
}

static bool is_punct(const sc_token *t, int c) {
  return t->kind == SC_TK_PUNCT && t->punct == c;
}

typedef struct site_scan {
  const sc_token *tk;
  int n, i;
  const size_t *lines;
  int nlines;
  const char *function;
  int loc_file, loc_line;
  ptx_site *sites;
  int nsites, cap;
  int *file_ids;           /* the module's `.file N "path"` directives */
  const char **file_paths;
  int nfiles, capfiles, capids;
} site_scan;

/* `.file N "path" [, ...]` at the top level, from s->i (its number). */
static void read_file_directive(site_scan *s) {
  if (s->i + 1 >= s->n || s->tk[s->i].kind != SC_TK_INT ||
      s->tk[s->i + 1].kind != SC_TK_STRING)
    return;
  sci_grow(&s->file_ids, &s->capids, s->nfiles + 1, sizeof(int));
  sci_grow(&s->file_paths, &s->capfiles, s->nfiles + 1, sizeof(char *));
  s->file_ids[s->nfiles] = (int)s->tk[s->i].ival;
  const char *quoted = s->tk[s->i + 1].text; /* "mp.cu", quotes kept */
  s->file_paths[s->nfiles++] = sci_strndup(quoted + 1, strlen(quoted) - 2);
  s->i += 2;
}

/* Each site's file name, from the `.file`s (nvcc writes them after the
 * functions, so this comes last). */
static void name_site_files(site_scan *s) {
  for (int k = 0; k < s->nsites; k++)
    for (int f = 0; f < s->nfiles; f++)
      if (s->file_ids[f] == s->sites[k].loc_file)
        s->sites[k].loc_path = s->file_paths[f];
}

/* `.loc F L C[, ...]`: it ends with its line; a plain one (no
 * inlined_at) sets the line in force. */
static void read_loc(site_scan *s) {
  int line = s->tk[s->i].line, start = s->i;
  bool inlined = false;
  s->i++;
  while (s->i < s->n && s->tk[s->i].kind != SC_TK_EOF &&
         s->tk[s->i].line == line) {
    if (s->tk[s->i].kind == SC_TK_IDENT && !strcmp(s->tk[s->i].text, "inlined_at"))
      inlined = true;
    s->i++;
  }
  if (!inlined && s->i - start >= 3 && s->tk[start + 1].kind == SC_TK_INT &&
      s->tk[start + 2].kind == SC_TK_INT) {
    s->loc_file = (int)s->tk[start + 1].ival;
    s->loc_line = (int)s->tk[start + 2].ival;
  }
}

/* One statement of a body, from s->i: a site when it is a global access. */
static void read_statement(site_scan *s) {
  const sc_token *t = &s->tk[s->i];
  if (t->kind == SC_TK_IDENT && !strcmp(t->text, ".loc")) {
    read_loc(s);
    return;
  }
  if (t->kind == SC_TK_IDENT && s->i + 1 < s->n && is_punct(&s->tk[s->i + 1], ':')) {
    s->i += 2; /* a label */
    return;
  }
  int op = s->i;
  if (is_punct(t, '@')) { /* a guard: @%p or @!%p */
    op++;
    if (op < s->n && is_punct(&s->tk[op], '!'))
      op++;
    op++;
  }
  while (s->i < s->n && s->tk[s->i].kind != SC_TK_EOF && !is_punct(&s->tk[s->i], ';'))
    s->i++;
  if (s->i >= s->n || s->tk[s->i].kind == SC_TK_EOF)
    return;
  const sc_token *semi = &s->tk[s->i++];
  if (op >= s->n || s->tk[op].kind != SC_TK_IDENT || s->tk[op].text[0] == '.' ||
      !global_access(s->tk[op].text) || semi->line > s->nlines)
    return;
  sci_grow(&s->sites, &s->cap, s->nsites + 1, sizeof(ptx_site));
  s->sites[s->nsites++] = (ptx_site){
      s->lines[semi->line] + (size_t)semi->col, s->tk[op].line, s->tk[op].col,
      s->loc_file, s->loc_line, NULL, s->function, s->tk[op].text};
}

/* A body from its '{' (s->i) to the matching '}'; false when the text
 * ends first (a cut file: its accesses would be cut too). */
static bool read_body(site_scan *s) {
  int depth = 0;
  s->loc_file = s->loc_line = 0;
  while (s->i < s->n && s->tk[s->i].kind != SC_TK_EOF) {
    const sc_token *t = &s->tk[s->i];
    if (is_punct(t, '{')) {
      depth++, s->i++;
    } else if (is_punct(t, '}')) {
      s->i++;
      if (--depth == 0)
        return true;
    } else {
      read_statement(s);
    }
  }
  return false;
}

sc_status sci_ptx_fence_sites(const char *text, const char *file,
                              ptx_site **out, int *nout, sc_error **err) {
  site_scan s;
  memset(&s, 0, sizeof s);
  sc_token *toks;
  sc_status st = sci_ptx_lex(file, text, &toks, &s.n, err);
  if (st)
    return st;
  s.tk = toks;
  s.lines = line_starts(text, &s.nlines);
  while (s.i < s.n && s.tk[s.i].kind != SC_TK_EOF) {
    const sc_token *t = &s.tk[s.i++];
    if (t->kind == SC_TK_IDENT && !strcmp(t->text, ".file")) {
      read_file_directive(&s);
      continue;
    }
    if (t->kind != SC_TK_IDENT || (strcmp(t->text, ".entry") && strcmp(t->text, ".func")))
      continue;
    /* .func may name its return value first: (.param ...) name */
    while (s.i < s.n && is_punct(&s.tk[s.i], '(')) {
      while (s.i < s.n && s.tk[s.i].kind != SC_TK_EOF && !is_punct(&s.tk[s.i], ')'))
        s.i++;
      s.i++;
    }
    if (s.i >= s.n || s.tk[s.i].kind != SC_TK_IDENT)
      continue;
    s.function = s.tk[s.i].text;
    /* the parameters, then a body, or ';' for a declaration */
    while (s.i < s.n && s.tk[s.i].kind != SC_TK_EOF && !is_punct(&s.tk[s.i], '{') &&
           !is_punct(&s.tk[s.i], ';'))
      s.i++;
    if (s.i < s.n && is_punct(&s.tk[s.i], '{') && !read_body(&s)) {
      const sc_token *end = &s.tk[s.n - 1];
      return sci_fail(err, SC_ERR_SYNTAX, file, end->line, end->col,
                      "expected '}' closing the body of %s, found the end "
                      "of the file", s.function);
    }
  }
  name_site_files(&s);
  *out = s.sites;
  *nout = s.nsites;
  return SC_OK;
}

const char *sci_ptx_write_fenced(const char *text, const ptx_site *sites,
                                 int nsites, const bool *keep,
                                 const char *fence) {
  sc_strbuf b;
  sci_sb_init(&b);
  size_t from = 0;
  for (int i = 0; i < nsites; i++) {
    if (keep && !keep[i])
      continue;
    sci_sb_putn(&b, text + from, sites[i].offset - from);
    sci_sb_printf(&b, " %s; // scopecat fence %d", fence, i);
    from = sites[i].offset;
  }
  sci_sb_puts(&b, text + from);
  return b.data;
}

/* ---- the public API ------------------------------------------------------ */

static sc_status accesses_unguarded(const char *text, const char *file,
                                    sc_ptx_access **out, int *nout,
                                    sc_error **err) {
  ptx_site *s;
  int n;
  sc_status st = sci_ptx_fence_sites(text, file, &s, &n, err);
  if (st)
    return st;
  sc_ptx_access *a = sci_alloc(sizeof *a * (size_t)(n + 1));
  for (int i = 0; i < n; i++)
    a[i] = (sc_ptx_access){s[i].offset, s[i].line, s[i].col, s[i].loc_path,
                           s[i].loc_line, s[i].function, s[i].op};
  *out = a;
  *nout = n;
  return SC_OK;
}

sc_status sc_ptx_accesses(const char *text, const char *file,
                          sc_ptx_access **out, int *nout, sc_error **err) {
  *out = NULL;
  *nout = 0;
  sc_oom_guard g;
  if (!SC_OOM_ENTER(g))
    return sci_oom_fail(&g, file, err);
  sc_status st = accesses_unguarded(text, file, out, nout, err);
  sci_oom_leave(&g);
  return st;
}

const char *sc_ptx_fenced(const char *text, const sc_ptx_access *a, int n,
                          const int *keep, const char *fence) {
  sc_oom_guard g;
  if (!SC_OOM_ENTER(g)) {
    sc_error *ignored = NULL;
    sci_oom_fail(&g, NULL, &ignored);
    return NULL;
  }
  ptx_site *s = sci_alloc(sizeof *s * (size_t)(n + 1));
  bool *flags = keep ? sci_alloc(sizeof(bool) * (size_t)(n + 1)) : NULL;
  for (int i = 0; i < n; i++) {
    s[i].offset = a[i].offset;
    if (flags)
      flags[i] = keep[i] != 0;
  }
  const char *out = sci_ptx_write_fenced(text, s, n, flags, fence);
  sci_oom_leave(&g);
  return out;
}
