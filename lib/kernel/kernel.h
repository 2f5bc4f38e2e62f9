/* kernel.h: the kernel layer's inside.  A PTX module (what nvcc -ptx
 * emits) is read into entries (ptx_parse.c, over the tokens of
 * ptx_lex.c); an entry's code is one template thread in the litmus
 * layer's form, its operands naming the module's variables and the
 * entry's parameters as template locations.  instantiate.c makes the
 * sc_test of a launch from it (a thread per thread of the grid), flow.c
 * asks whether the data inputs reach an address or a branch. */
#ifndef SC_KERNEL_H
#define SC_KERNEL_H

#include "litmus/lex.h"
#include "litmus/litmus.h"

#include <stdbool.h>
#include <stdint.h>

/* A declared variable of the module or of an entry (.global, .shared). */
typedef struct ptx_var {
  const char *name;    /* as the PTX names it (mangled) */
  sc_space space;
  sc_type type;        /* declared element type (.b8 for nvcc's byte arrays) */
  long long bytes;     /* size in bytes */
  bool is_array;       /* declared with [N] */
  int64_t *init;       /* .global initialiser, in declared elements */
  int ninit;
  int line, col;
} ptx_var;

typedef struct ptx_param {
  const char *name;
  sc_type type;
  int line, col;
} ptx_param;

/* Where a template location comes from: a parameter or a variable. */
typedef struct ptx_symbol {
  bool is_param;
  int index; /* into the entry's params or the module's vars */
} ptx_symbol;

/* Special registers (%tid.x ...) the code reads, each a template
 * register whose initial value the launch gives. */
typedef enum ptx_special {
  PTX_SPECIAL_NONE, PTX_TID, PTX_NTID, PTX_CTAID, PTX_NCTAID, PTX_LANEID,
  PTX_WARPID, PTX_NWARPID
} ptx_special;

typedef struct ptx_entry {
  const char *name;
  int line, col;
  ptx_param *params;
  int nparams;
  sc_test *tmpl;        /* one thread: the entry's code */
  ptx_symbol *symbols;  /* per template location */
  /* per template register: which special register (and axis 0..2) */
  ptx_special *special;
  int *axis;
  int loc_file;         /* .file index of the .loc lines kept, -1: none */
} ptx_entry;

typedef struct ptx_module {
  const char *file;
  ptx_entry *entries;
  int nentries;
  ptx_var *vars;
  int nvars;
  const char **files; /* .file names by index */
  int nfiles;
} ptx_module;

/* Tokens of PTX text: identifiers (with dots, '%', '$'), integers,
 * strings, punctuation; // and block comments skipped (ptx_lex.c). */
sc_status sci_ptx_lex(const char *file, const char *text, sc_token **out,
                     int *ntoks, sc_error **err);

/* The module of `text` (ptx_parse.c). */
sc_status sci_ptx_parse(const char *text, const char *file,
                       const sc_parse_limits *limits, ptx_module **out,
                       sc_error **err);

/* ---- fences written into PTX (ptx_write.c) -------------------------------- */

/* A global memory access of a function of the module (ld, st, atom, red
 * whose space is .global or generic): where a fence can go after it. */
typedef struct ptx_site {
  size_t offset;           /* just past the access's ';' in the text */
  int line, col;           /* the access's opcode */
  int loc_file, loc_line;  /* the plain .loc in force (0: none) */
  const char *loc_path;    /* loc_file's name (its `.file`), NULL: none */
  const char *function;    /* the .entry or .func it is in */
  const char *op;          /* its opcode, as written */
} ptx_site;

/* The sites of `text`, in the order of the text. */
sc_status sci_ptx_fence_sites(const char *text, const char *file,
                              ptx_site **out, int *nout, sc_error **err);
/* `text` with "FENCE;" after each site i with keep[i] (every site when
 * keep is NULL), on the access's line, the rest byte for byte. */
const char *sci_ptx_write_fenced(const char *text, const ptx_site *sites,
                                 int nsites, const bool *keep,
                                 const char *fence);

#endif
