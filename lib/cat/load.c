/* load.c: from model files to an sc_cat_model.  Reads files, interns
 * names, finds included files along the search path (refusing include
 * cycles), and parses the built-in prelude; then what callers ask of a
 * model's text (the names it uses, the bell's declarations, how it binds
 * a caller's name).  It evaluates nothing. */
#define _XOPEN_SOURCE 700
#include "cat/ast.h"
#include "cat/graph.h"

#include "util/error.h"
#include "util/file.h"
#include "util/gcmem.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_MODEL_BYTES (16u << 20)
#define MAX_INCLUDE_DEPTH 64

/* ---- Files --------------------------------------------------------------- */

/* The whole file as a string.  A NUL byte would silently cut the model
 * short, so it is an error. */
static sc_status read_file(const char *path, char **out, sc_error **err) {
  char *buf;
  size_t len;
  int errnum = 0;
  sc_file_failure why = sci_file_read(path, MAX_MODEL_BYTES, &buf, &len, &errnum);
  if (why)
    return sci_file_fail(why, path, errnum, MAX_MODEL_BYTES,
                        "cannot read the file", "model file larger than %zu bytes",
                        err);
  const char *nul = memchr(buf, '\0', len);
  if (nul) {
    int line = 1, col = 1;
    for (const char *q = buf; q < nul; q++) {
      if (*q == '\n') {
        line++;
        col = 1;
      } else {
        col++;
      }
    }
    return sci_fail(err, SC_ERR_SYNTAX, path, line, col,
                   "unexpected byte 0x00 (cat models are ASCII text)");
  }
  *out = buf;
  return SC_OK;
}

static const char *dir_of(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash)
    return ".";
  if (slash == path)
    return "/";
  return sci_strndup(path, (size_t)(slash - path));
}

static bool is_regular_file(const char *path) {
  struct stat sb;
  return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* A canonical name for cycle detection; the path itself when the file
 * system cannot say. */
static const char *canonical(const char *path) {
  char buf[PATH_MAX];
  return realpath(path, buf) ? sci_strdup(buf) : sci_strdup(path);
}

/* ---- Includes ------------------------------------------------------------ */

typedef struct included {
  const char *real;
  const sc_cat_prog *prog;
} included;

/* A file being loaded: its canonical path and the path messages show. */
typedef struct loading {
  const char *real, *shown;
} loading;

typedef struct loader {
  sc_cat_symtab *syms;
  const char *const *dirs;
  int ndirs;
  loading *stack; /* the chain of files being loaded, outermost first */
  int depth, stack_cap;
  included *done;
  int ndone, done_cap;
  sc_error **err;
} loader;

static sc_status resolve_prog(loader *L, const sc_cat_prog *prog, const char *dir);

static void push_file(loader *L, const char *real, const char *shown) {
  sci_grow(&L->stack, &L->stack_cap, L->depth + 1, sizeof *L->stack);
  L->stack[L->depth++] = (loading){real, shown};
}

/* Where an include names its file: as is when absolute, else the first of
 * the caller's folders that holds it, else the including file's folder. */
static const char *find_include(const loader *L, const char *name, const char *dir) {
  if (name[0] == '/')
    return is_regular_file(name) ? name : NULL;
  for (int i = 0; i < L->ndirs; i++) {
    const char *path = sci_printf("%s/%s", L->dirs[i], name);
    if (is_regular_file(path))
      return path;
  }
  const char *path = strcmp(dir, ".") == 0 ? name : sci_printf("%s/%s", dir, name);
  return is_regular_file(path) ? path : NULL;
}

static const char *search_path_text(const loader *L, const char *dir) {
  const char *s = "";
  for (int i = 0; i < L->ndirs; i++)
    s = sci_printf("%s%s, ", s, L->dirs[i]);
  return sci_printf("%s%s", s, dir);
}

static sc_status load_include(loader *L, sc_cat_ins *ins, const char *dir) {
  const char *path = find_include(L, ins->text, dir);
  if (!path && strcmp(ins->text, "stdlib.cat") == 0) {
    /* herd always finds its stdlib.cat, which it has already run before
     * the model; so has scopecat, as the prelude. */
    static const sc_cat_prog nothing = {"<prelude>", NULL, 0};
    ins->included = &nothing;
    return SC_OK;
  }
  if (!path)
    return sci_fail(L->err, SC_ERR_IO, ins->file, ins->line, ins->col,
                   "cannot find included file \"%s\" (searched: %s)", ins->text,
                   search_path_text(L, dir));
  const char *real = canonical(path);
  for (int i = 0; i < L->depth; i++) {
    if (strcmp(L->stack[i].real, real) != 0)
      continue;
    const char *chain = "";
    for (int j = i; j < L->depth; j++)
      chain = sci_printf("%s%s -> ", chain, L->stack[j].shown);
    return sci_fail(L->err, SC_ERR_SEMANTIC, ins->file, ins->line, ins->col,
                   "include cycle: %s%s", chain, path);
  }
  for (int i = 0; i < L->ndone; i++)
    if (strcmp(L->done[i].real, real) == 0) {
      ins->included = L->done[i].prog;
      return SC_OK;
    }
  if (L->depth >= MAX_INCLUDE_DEPTH)
    return sci_fail(L->err, SC_ERR_LIMIT, ins->file, ins->line, ins->col,
                   "expected includes nested at most %d deep, found deeper",
                   MAX_INCLUDE_DEPTH);
  char *text;
  sc_status st = read_file(path, &text, L->err);
  if (st)
    return st;
  sc_cat_prog *prog = sci_alloc(sizeof *prog);
  if ((st = sci_cat_parse(path, text, L->syms, NULL, prog, L->err)))
    return st;
  push_file(L, real, path);
  st = resolve_prog(L, prog, dir_of(path));
  L->depth--;
  if (st)
    return st;
  sci_grow(&L->done, &L->done_cap, L->ndone + 1, sizeof *L->done);
  L->done[L->ndone++] = (included){real, prog};
  ins->included = prog;
  return SC_OK;
}

/* Resolve every include of a program, including those in bodies. */
static sc_status resolve_prog(loader *L, const sc_cat_prog *prog, const char *dir) {
  sc_status st = SC_OK;
  for (int i = 0; i < prog->n && !st; i++) {
    sc_cat_ins *ins = prog->ins[i];
    switch (ins->kind) {
    case IN_INCLUDE:
      st = load_include(L, ins, dir);
      break;
    case IN_PROCEDURE:
    case IN_FORALL:
      st = resolve_prog(L, &ins->body, dir);
      break;
    case IN_IFVARIANT:
      st = resolve_prog(L, &ins->body, dir);
      if (!st)
        st = resolve_prog(L, &ins->other, dir);
      break;
    case IN_MATCH:
      for (int c = 0; c < ins->ncases && !st; c++)
        st = resolve_prog(L, &ins->cases[c], dir);
      if (!st && ins->dflt)
        st = resolve_prog(L, ins->dflt, dir);
      break;
    default:
      break;
    }
  }
  return st;
}

/* ---- Models -------------------------------------------------------------- */

/* The prelude's lets are defaults: the caller's base relations win. */
static sc_status load_prelude(sc_cat_model *m, sc_error **err) {
  sc_status st = sci_cat_parse("<prelude>", sci_cat_prelude_text, m->syms, NULL,
                              &m->prelude, err);
  if (st)
    return st;
  for (int i = 0; i < m->prelude.n; i++)
    if (m->prelude.ins[i]->kind == IN_LET)
      m->prelude.ins[i]->is_default = true;
  return SC_OK;
}

static sc_status load_text(const char *text, const char *filename,
                           const char *const *dirs, int ndirs,
                           sc_cat_model **out, sc_error **err) {
  sci_gc_init();
  *out = NULL;
  if (!text || !filename || ndirs < 0 || (ndirs > 0 && !dirs))
    return sci_fail(err, SC_ERR_USAGE, NULL, 0, 0,
                   "sc_cat_load: missing text, filename or include folders");
  sc_cat_model *m = sci_alloc(sizeof *m);
  m->filename = sci_strdup(filename);
  m->syms = sci_alloc(sizeof *m->syms);
  sc_status st = load_prelude(m, err);
  if (st)
    return st;
  if ((st = sci_cat_parse(m->filename, text, m->syms, &m->title, &m->prog, err)))
    return st;
  loader L = {0};
  L.syms = m->syms;
  L.dirs = dirs;
  L.ndirs = ndirs;
  L.err = err;
  push_file(&L, canonical(filename), m->filename);
  if ((st = resolve_prog(&L, &m->prog, dir_of(filename))))
    return st;
  *out = m;
  return SC_OK;
}

sc_status sci_cat_load_string(const char *text, const char *filename,
                             const char *const *include_dirs, int ninclude,
                             sc_cat_model **out, sc_error **err) {
  return load_text(text, filename, include_dirs, ninclude, out, err);
}

sc_status sci_cat_load_file(const char *path, const char *const *include_dirs,
                           int ninclude, sc_cat_model **out, sc_error **err) {
  sci_gc_init();
  *out = NULL;
  if (!path)
    return sci_fail(err, SC_ERR_USAGE, NULL, 0, 0, "sci_cat_load_file: no path");
  char *text;
  sc_status st = read_file(path, &text, err);
  if (st)
    return st;
  return load_text(text, path, include_dirs, ninclude, out, err);
}

/* A copy of a symbol table: the interned names stay the same pointers, so
 * the model's tree still matches, and new names go to the copy only. */
static sc_cat_symtab *copy_symtab(const sc_cat_symtab *t) {
  sc_cat_symtab *copy = sci_alloc(sizeof *copy);
  *copy = *t;
  copy->slots = sci_alloc(sizeof *copy->slots * (size_t)(t->cap ? t->cap : 1));
  if (t->cap)
    memcpy(copy->slots, t->slots, sizeof *copy->slots * (size_t)t->cap);
  return copy;
}

sc_status sci_cat_model_with_bell(const sc_cat_model *m, const char *path,
                                 const char *const *include_dirs, int ninclude,
                                 sc_cat_model **out, sc_error **err) {
  sci_gc_init();
  *out = NULL;
  if (!m || !path || ninclude < 0 || (ninclude > 0 && !include_dirs))
    return sci_fail(err, SC_ERR_USAGE, NULL, 0, 0,
                   "sci_cat_model_with_bell: missing model, path or include folders");
  char *text;
  sc_status st = read_file(path, &text, err);
  if (st)
    return st;
  sc_cat_model *copy = sci_alloc(sizeof *copy);
  *copy = *m;
  copy->graphs = NULL; /* lowered without the bell */
  copy->syms = copy_symtab(m->syms);
  if ((st = sci_cat_parse(path, text, copy->syms, NULL, &copy->bell, err)))
    return st;
  loader L = {0};
  L.syms = copy->syms;
  L.dirs = include_dirs;
  L.ndirs = ninclude;
  L.err = err;
  push_file(&L, canonical(path), path);
  if ((st = resolve_prog(&L, &copy->bell, dir_of(path))))
    return st;
  *out = copy;
  return SC_OK;
}

sc_cat_model *sci_cat_model_with_limits(const sc_cat_model *m,
                                       const sc_model_limits *limits) {
  sc_cat_model *copy = sci_alloc(sizeof *copy);
  *copy = *m;
  copy->graphs = NULL; /* lowered under m's limits */
  memset(&copy->limits, 0, sizeof copy->limits);
  if (limits)
    copy->limits = *limits;
  return copy;
}

const char *sci_cat_model_title(const sc_cat_model *m) { return m->title; }

const char *sci_cat_model_filename(const sc_cat_model *m) { return m->filename; }

bool sci_cat_model_names(const sc_cat_model *m, const char *name) {
  return sci_cat_symbol(m->syms, name) != NULL;
}

bool sci_cat_model_only_includes(const sc_cat_model *m, const char ***paths, int *n) {
  *paths = sci_alloc(sizeof **paths * (size_t)(m->prog.n + 1));
  *n = 0;
  if (m->bell.n > 0)
    return false;
  for (int i = 0; i < m->prog.n; i++) {
    const sc_cat_ins *ins = m->prog.ins[i];
    if (ins->kind != IN_INCLUDE || !ins->included || !ins->included->file)
      return false;
    (*paths)[(*n)++] = ins->included->file;
  }
  return true;
}

/* ---- Bell declarations --------------------------------------------------- */

static const sc_cat_ins *declaration(const sc_cat_model *m, int i) {
  for (int k = 0; k < m->bell.n; k++)
    if (m->bell.ins[k]->kind == IN_EVENTS && i-- == 0)
      return m->bell.ins[k];
  return NULL;
}

int sci_cat_model_declaration_count(const sc_cat_model *m) {
  int n = 0;
  for (int k = 0; k < m->bell.n; k++)
    n += m->bell.ins[k]->kind == IN_EVENTS;
  return n;
}

/* The tags of `instructions T[{'a, 'b} ...]`: every tag literal written in
 * the brackets, in whatever sets they are grouped. */
static void collect_tags(const sc_cat_exp *e, const char ***tags, int *n,
                         int *cap) {
  if (e->kind == EX_TAG) {
    sci_grow(tags, cap, *n + 1, sizeof(char *));
    (*tags)[(*n)++] = e->name;
    return;
  }
  for (int i = 0; i < e->nargs; i++)
    collect_tags(e->args[i], tags, n, cap);
}

const char *sci_cat_model_declaration(const sc_cat_model *m, int i,
                                     const char *const **tags, int *ntags) {
  const sc_cat_ins *ins = declaration(m, i);
  if (!ins)
    return NULL;
  const char **list = NULL;
  int n = 0, cap = 0;
  for (int k = 0; k < ins->nexps; k++)
    collect_tags(ins->exps[k], &list, &n, &cap);
  *tags = list;
  *ntags = n;
  return ins->name;
}

/* ---- How a model binds a caller's name ----------------------------------- */

typedef struct first_binding {
  const char *name;
  cat_ctx variants; /* only its options: the variants `if` tests */
  sc_cat_rebind how;
  const char *file;
  int line;
} first_binding;

static bool binds_name(const sc_cat_pat *p, const char *name) {
  for (int i = 0; i < p->n; i++)
    if (p->names[i] && strcmp(p->names[i], name) == 0)
      return true;
  return false;
}

static bool found_at(first_binding *fb, sc_cat_rebind how, const sc_cat_ins *ins) {
  fb->how = how;
  fb->file = ins->file;
  fb->line = ins->line;
  return true;
}

/* The binding of fb->name in instruction ins, if it has one; true when
 * found (fb filled in). */
static bool find_in_prog(first_binding *fb, const sc_cat_prog *p);

static bool find_in_ins(first_binding *fb, const sc_cat_ins *ins) {
  switch (ins->kind) {
  case IN_LET:
  case IN_REC:
    for (int i = 0; i < ins->nbinds; i++) {
      const sc_cat_bind *b = &ins->binds[i];
      if (!binds_name(&b->pat, fb->name))
        continue;
      bool reads = ins->kind == IN_LET && sci_cat_exp_mentions(b->exp, fb->name);
      return found_at(fb, reads ? SC_CAT_REBINDS : SC_CAT_REPLACES, ins);
    }
    return false;
  case IN_WITHFROM:
    return strcmp(ins->name, fb->name) == 0 && found_at(fb, SC_CAT_REPLACES, ins);
  case IN_INCLUDE:
    return ins->included && find_in_prog(fb, ins->included);
  case IN_IFVARIANT:
    return find_in_prog(fb, sci_cat_variant_set(&fb->variants, ins->vcond)
                                ? &ins->body : &ins->other);
  default:
    return false;
  }
}

static bool find_in_prog(first_binding *fb, const sc_cat_prog *p) {
  for (int i = 0; i < p->n; i++)
    if (find_in_ins(fb, p->ins[i]))
      return true;
  return false;
}

sc_cat_rebind sci_cat_model_first_binding(const sc_cat_model *m, const char *name,
                                         const struct sc_cat_run_options *opts,
                                         const char **file, int *line) {
  first_binding fb = {.name = name, .how = SC_CAT_KEEPS};
  fb.variants.opts = opts;
  if (!find_in_prog(&fb, &m->bell))
    find_in_prog(&fb, &m->prog);
  *file = fb.file;
  *line = fb.line;
  return fb.how;
}
