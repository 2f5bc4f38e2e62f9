/* hist.c: reading logs: litmus7's histogram format (litmus7, the GPU
 * litmus runner of ASPLOS'15, scopecat's harness) and herd7's States format
 * (herd7, scopecat sim).  Both print a block per test: Test, the states,
 * Ok/No, then a trailer (Witnesses, Positive/Negative, Condition, Hash...).
 * Around the blocks a litmus log prints the test's source after a
 * "% Results for FILE %" banner, generated code and device information;
 * those lines are skipped, except the source and the device's name. */
#define _POSIX_C_SOURCE 200809L
#include "report/hist.h"

#include "util/error.h"
#include "util/file.h"
#include "util/gcmem.h"
#include "util/oom.h"
#include "util/regex.h"
#include "util/strbuf.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LOG_BYTES (256L << 20)

/* The line formats, one pattern each. */
typedef struct log_patterns {
  sc_regex *banner, *test, *histogram, *states, *state_line, *validation,
      *witnesses, *witnesses_word, *witnesses_head, *condition, *hash,
      *hash_word, *trailer, *device_info, *device_name, *hangs, *hangs_word,
      *liveness, *liveness_word;
} log_patterns;

static log_patterns compile_patterns(void) {
  log_patterns p;
  p.banner = sci_regex_new("^% Results for (.*\\S)\\s*%\\s*$");
  p.test = sci_regex_new("^Test\\s+(\\S+)(?:\\s+\\S+)?\\s*$");
  p.histogram = sci_regex_new("^Histogram\\b\\s*(.*?)\\s*$");
  p.states = sci_regex_new("^States\\b\\s*(.*?)\\s*$");
  /* a count (checked apart, for a clear message), then :> or *> */
  p.state_line = sci_regex_new("^\\s*(\\S*?)\\s*([:*])>(.*)$");
  p.validation = sci_regex_new("^(?:Loop\\s+)?(?:(?:Ok|No|Undef|Undefined|"
                              "Succeeded|Failed)\\b|\\?\\?)");
  p.witnesses = sci_regex_new(
      "^Positive:\\s*(\\d+)\\s*,?\\s*Negative:\\s*(\\d+)\\s*$");
  /* a line that starts with one of these words must then parse: a damaged
   * one skipped would pass a damaged log for a sound one */
  p.witnesses_word = sci_regex_new("^(?:Positive|Negative)\\b");
  p.witnesses_head = sci_regex_new("^Witnesses\\s*$");
  p.hash_word = sci_regex_new("^[Hh]ash\\b");
  p.hangs_word = sci_regex_new("^Hangs\\b");
  p.liveness_word = sci_regex_new("^Liveness\\b");
  p.condition =
      sci_regex_new("^Condition\\s+(.*?)(?:\\s+is\\s+(?:NOT\\s+)?validated)?"
                   "\\s*$");
  p.hash = sci_regex_new("^[Hh]ash\\s*=\\s*(\\S+)\\s*$");
  p.trailer = sci_regex_new("^(?:\\s*$|Flag\\s|Observation\\s|"
                           "Time\\s|Topology\\s|Bad executions)");
  p.device_info = sci_regex_new("^\\s*-+\\s*device info\\s*-+\\s*$");
  p.device_name = sci_regex_new("^Name:\\s+(.*\\S)\\s*$");
  /* scopecat's own lines, after Time: a hung launch (gpu run), a model's
   * liveness verdict (sim -liveness) */
  p.hangs = sci_regex_new("^Hangs\\s+(\\S+)\\s+(\\d+)\\s+(\\d+)\\s+"
                         "([0-9.eE+-]+)\\s*$");
  p.liveness = sci_regex_new("^Liveness\\s+(\\S+)\\s+(Pass|Fail)\\s*$");
  return p;
}

/* Where the reader is in the log. */
typedef enum reader_mode {
  BETWEEN_BLOCKS, /* free text: sources, code, device information */
  AFTER_TEST,     /* a Test line; the Histogram or States line comes next */
  IN_STATES,      /* reading the announced number of states */
  AFTER_STATES,   /* Ok or No comes next */
  IN_TRAILER      /* Witnesses, Positive/Negative, Condition, Hash... */
} reader_mode;

typedef struct log_reader {
  const char *file;
  log_patterns re;
  reader_mode mode;
  int line;            /* of the current line */
  sc_hist **blocks;
  int nblocks, cap;
  sc_hist *block;      /* the block being read */
  int expected;        /* states the block's header announced */
  int header_line;
  int state_cap;
  long positive, negative;
  int witnesses_line;  /* 0: no Positive/Negative line */
  bool witnesses_next; /* the line before was "Witnesses" */
  int section;         /* first block since the last banner */
  bool in_source, device_next;
  sc_strbuf source;
  int source_line;
  sc_error *err;
} log_reader;

static bool fail(log_reader *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static bool fail_at(log_reader *r, int col, const char *what);

static bool fail(log_reader *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  const char *what = sci_vprintf(fmt, ap);
  va_end(ap);
  sci_fail(&r->err, SC_ERR_SYNTAX, r->file, r->line, 1, "%s", what);
  return false;
}

/* A failure at column `col` (from 1) of the current line. */
static bool fail_at(log_reader *r, int col, const char *what) {
  sci_fail(&r->err, SC_ERR_SYNTAX, r->file, r->line, col, "%s", what);
  return false;
}

/* "expected X, found 'the line'". */
static bool fail_line(log_reader *r, const char *expected, const char *line) {
  return fail(r, "expected %s, found '%s'", expected, line);
}

/* ---- Between blocks ------------------------------------------------------ */

static void start_section(log_reader *r) {
  r->section = r->nblocks;
  r->in_source = true;
  r->device_next = false;
  sci_sb_init(&r->source);
  r->source_line = 0;
}

/* Collect the printed test, from the banner to "Generated assembler" or the
 * Test line (the banner's closing row of '%' is not part of it). */
static void collect_source(log_reader *r, const char *line) {
  if (strcmp(line, "Generated assembler") == 0) {
    r->in_source = false;
    return;
  }
  if (r->source.len == 0 && (line[0] == '%' || line[0] == '\0'))
    return;
  if (r->source.len == 0)
    r->source_line = r->line;
  sci_sb_puts(&r->source, line);
  sci_sb_putc(&r->source, '\n');
}

/* The device's name applies to the blocks since the last banner. */
static void note_device(log_reader *r, const char *name) {
  for (int i = r->section; i < r->nblocks; i++)
    if (!r->blocks[i]->device)
      r->blocks[i]->device = name;
  r->device_next = false;
}

static void start_block(log_reader *r, const char *name) {
  sc_hist *h = sci_alloc(sizeof *h);
  h->file = r->file;
  h->line = r->line;
  h->name = name;
  h->liveness = -1;
  if (r->source.len > 0) {
    h->source = r->source.data;
    h->source_line = r->source_line;
    sci_sb_init(&r->source); /* a source is printed once, for one test */
  }
  r->in_source = false;
  r->block = h;
  r->state_cap = 0;
  r->witnesses_line = 0;
  r->mode = AFTER_TEST;
}

static bool parse_count(const char *s, long *out);

/* The block a Hangs or Liveness line names: the one being read, else the
 * last one read of that name; NULL when there is none. */
static sc_hist *named_block(log_reader *r, const char *name) {
  if (r->block && strcmp(r->block->name, name) == 0)
    return r->block;
  for (int i = r->nblocks - 1; i >= 0; i--)
    if (strcmp(r->blocks[i]->name, name) == 0)
      return r->blocks[i];
  return NULL;
}

/* Whether a line is scopecat's own: Hangs or Liveness. */
static bool is_scopecat_line(const log_reader *r, const char *line) {
  return sci_regex_match(r->re.hangs_word, line, NULL, 0) ||
         sci_regex_match(r->re.liveness_word, line, NULL, 0);
}

/* The block a Hangs or Liveness line names; fails when there is none. */
static bool named_block_of(log_reader *r, const char *name, const char *line,
                           sc_hist **out) {
  *out = named_block(r, name);
  if (!*out)
    return fail(r, "expected the name of a test of this log before it, "
                   "found '%s' in '%s'", name, line);
  return true;
}

/* "Hangs NAME LAUNCHES INSTANCES SECONDS", added to the block's hangs (a
 * test run in several batches has a line per batch). */
static bool read_hangs(log_reader *r, const char *line) {
  const char *caps[4];
  sc_hist *h;
  long launches, instances;
  char *end;
  if (!sci_regex_match(r->re.hangs, line, caps, 4))
    return fail_line(r, "'Hangs TEST LAUNCHES INSTANCES SECONDS'", line);
  if (!named_block_of(r, caps[0], line, &h))
    return false;
  if (!parse_count(caps[1], &launches) || !parse_count(caps[2], &instances))
    return fail_line(r, "Hangs counts that fit a long", line);
  double seconds = strtod(caps[3], &end);
  if (*end || !(seconds >= 0 && seconds <= 1e12))
    return fail_line(r, "a time limit in seconds after the Hangs counts",
                     line);
  if (h->hung_launches > LONG_MAX - launches ||
      h->hung_instances > LONG_MAX - instances)
    return fail(r, "expected the Hangs lines of test %s to add up to counts "
                   "that fit a long, found more", h->name);
  h->hung_launches += launches;
  h->hung_instances += instances;
  h->hang_limit = seconds;
  return true;
}

/* "Liveness NAME Pass|Fail". */
static bool read_liveness(log_reader *r, const char *line) {
  const char *caps[2];
  sc_hist *h;
  if (!sci_regex_match(r->re.liveness, line, caps, 2))
    return fail_line(r, "'Liveness TEST Pass|Fail'", line);
  if (!named_block_of(r, caps[0], line, &h))
    return false;
  h->liveness = strcmp(caps[1], "Pass") == 0;
  return true;
}

static bool read_scopecat_line(log_reader *r, const char *line) {
  return sci_regex_match(r->re.hangs_word, line, NULL, 0)
             ? read_hangs(r, line)
             : read_liveness(r, line);
}

static bool between_blocks(log_reader *r, const char *line) {
  const char *caps[1];
  if (is_scopecat_line(r, line)) {
    return read_scopecat_line(r, line); /* about a block already read */
  } else if (sci_regex_match(r->re.banner, line, caps, 1)) {
    start_section(r);
  } else if (sci_regex_match(r->re.test, line, caps, 1)) {
    start_block(r, caps[0]);
  } else if (sci_regex_match(r->re.histogram, line, NULL, 0) ||
             sci_regex_match(r->re.states, line, NULL, 0)) {
    return fail_line(r, "a Test line before the states", line);
  } else if (r->in_source) {
    collect_source(r, line);
  } else if (sci_regex_match(r->re.device_info, line, NULL, 0)) {
    r->device_next = true;
  } else if (r->device_next &&
             sci_regex_match(r->re.device_name, line, caps, 1)) {
    note_device(r, caps[0]);
  }
  return true;
}

/* ---- A block ------------------------------------------------------------- */

/* A non-negative decimal number that fits a long. */
static bool parse_count(const char *s, long *out) {
  if (!s || *s < '0' || *s > '9')
    return false;
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || *end)
    return false;
  *out = v;
  return true;
}

static bool after_test(log_reader *r, const char *line) {
  const char *caps[1];
  long n;
  bool histogram = sci_regex_match(r->re.histogram, line, caps, 1);
  if (histogram) {
    /* "(12 states)" */
    size_t len = strlen(caps[0]);
    char *inner = len >= 2 && caps[0][0] == '(' && caps[0][len - 1] == ')'
                      ? sci_strndup(caps[0] + 1, len - 2)
                      : NULL;
    char *word = inner ? strchr(inner, ' ') : NULL;
    if (word)
      *word++ = '\0';
    if (!word || (strcmp(word, "states") && strcmp(word, "state")) ||
        !parse_count(inner, &n) || n > 1000000)
      return fail_line(r, "Histogram (N states)", line);
  } else if (sci_regex_match(r->re.states, line, caps, 1)) {
    if (!parse_count(caps[0], &n) || n > 1000000)
      return fail_line(r, "States N", line);
  } else {
    return fail(r, "expected 'Histogram (N states)' or 'States N' after "
                   "'Test %s', found '%s'", r->block->name, line);
  }
  r->block->has_counts = histogram;
  r->expected = (int)n;
  r->header_line = r->line;
  r->mode = n > 0 ? IN_STATES : AFTER_STATES;
  return true;
}

/* A state whose bindings start at column `col` of the line. */
static bool add_state(log_reader *r, const char *bindings, int col,
                      long count, bool marked) {
  sc_hist *h = r->block;
  sc_hist_row s;
  memset(&s, 0, sizeof s);
  s.count = count;
  s.marked = marked;
  s.line = r->line;
  s.col = col;
  const char *why;
  int at;
  if (!sci_outcome_parse_at(bindings, &s.outcome, &why, &at))
    return fail_at(r, col + at, why);
  s.text = sci_outcome_string(&s.outcome);
  for (int i = 0; i < h->nstates; i++)
    if (strcmp(h->states[i].text, s.text) == 0)
      return fail(r, "expected each state once, found %s again", s.text);
  if (h->instances > LONG_MAX - count)
    return fail(r, "expected a total count that fits a long, found more");
  sci_grow(&h->states, &r->state_cap, h->nstates + 1, sizeof(sc_hist_row));
  h->states[h->nstates++] = s;
  h->instances += count;
  if (h->nstates == r->expected)
    r->mode = AFTER_STATES;
  return true;
}

static bool in_states(log_reader *r, const char *line) {
  const char *caps[3];
  if (sci_regex_match(r->re.validation, line, NULL, 0))
    return fail(r, "expected %d states after line %d, found %d before '%s' "
                   "(the histogram is truncated)",
                r->expected, r->header_line, r->block->nstates, line);
  if (!r->block->has_counts)
    return add_state(r, line, 1, 0, false);
  if (!sci_regex_match(r->re.state_line, line, caps, 3))
    return fail_line(r, "a state 'COUNT :>VARIABLE=VALUE; ...'", line);
  long count;
  if (!parse_count(caps[0], &count))
    return fail(r, "expected a count (a number) before '%s>', found '%s'",
                caps[1], caps[0]);
  /* the bindings are the line's tail */
  int col = (int)(strlen(line) - strlen(caps[2])) + 1;
  return add_state(r, caps[2], col, count, caps[1][0] == '*');
}

static bool after_states(log_reader *r, const char *line) {
  if (sci_regex_match(r->re.validation, line, NULL, 0)) {
    r->mode = IN_TRAILER;
    return true;
  }
  if (sci_regex_match(r->re.state_line, line, NULL, 0))
    return fail(r, "expected Ok or No after the %d states announced on line "
                   "%d, found another state",
                r->expected, r->header_line);
  return fail_line(r, "Ok or No after the states", line);
}

/* The block is complete: check the witnesses add up, keep it. */
static bool end_block(log_reader *r) {
  sc_hist *h = r->block;
  if (h->has_counts && r->witnesses_line &&
      r->positive + r->negative != h->instances) {
    r->line = r->witnesses_line;
    return fail(r, "expected Positive + Negative to equal the histogram's "
                   "%ld instances, found %ld + %ld",
                h->instances, r->positive, r->negative);
  }
  sci_grow(&r->blocks, &r->cap, r->nblocks + 1, sizeof(sc_hist *));
  r->blocks[r->nblocks++] = h;
  r->block = NULL;
  r->mode = BETWEEN_BLOCKS;
  return true;
}

static bool read_witnesses(log_reader *r, const char *line) {
  const char *caps[2];
  if (!sci_regex_match(r->re.witnesses, line, caps, 2) ||
      !parse_count(caps[0], &r->positive) ||
      !parse_count(caps[1], &r->negative))
    return fail_line(r, "'Positive: N, Negative: N' (counts that fit a long)",
                     line);
  r->witnesses_line = r->line;
  return true;
}

static bool in_trailer(log_reader *r, const char *line) {
  const char *caps[1];
  if (r->witnesses_next) {
    r->witnesses_next = false;
    return read_witnesses(r, line);
  }
  if (sci_regex_match(r->re.witnesses_head, line, NULL, 0)) {
    r->witnesses_next = true;
  } else if (sci_regex_match(r->re.witnesses_word, line, NULL, 0)) {
    return read_witnesses(r, line);
  } else if (sci_regex_match(r->re.condition, line, caps, 1)) {
    r->block->condition = caps[0];
  } else if (sci_regex_match(r->re.hash_word, line, NULL, 0)) {
    if (!sci_regex_match(r->re.hash, line, caps, 1))
      return fail_line(r, "'Hash=VALUE'", line);
    r->block->hash = caps[0];
  } else if (is_scopecat_line(r, line)) {
    return read_scopecat_line(r, line);
  } else if (!sci_regex_match(r->re.trailer, line, NULL, 0)) {
    return end_block(r) && between_blocks(r, line);
  }
  return true;
}

static bool read_line(log_reader *r, const char *line) {
  switch (r->mode) {
  case BETWEEN_BLOCKS: return between_blocks(r, line);
  case AFTER_TEST: return after_test(r, line);
  case IN_STATES: return in_states(r, line);
  case AFTER_STATES: return after_states(r, line);
  case IN_TRAILER: return in_trailer(r, line);
  }
  return true;
}

static bool read_end(log_reader *r) {
  switch (r->mode) {
  case BETWEEN_BLOCKS: return true;
  case IN_TRAILER:
    if (r->witnesses_next)
      return fail(r, "expected 'Positive: N, Negative: N' after Witnesses, "
                     "found end of file");
    return end_block(r);
  case AFTER_TEST:
    return fail(r, "expected 'Histogram (N states)' or 'States N' after "
                   "'Test %s', found end of file", r->block->name);
  case IN_STATES:
    return fail(r, "expected %d states after line %d, found %d before the "
                   "end of file (the histogram is truncated)",
                r->expected, r->header_line, r->block->nstates);
  case AFTER_STATES:
    return fail(r, "expected Ok or No after the states, found end of file");
  }
  return true;
}

/* ---- Entry points -------------------------------------------------------- */

static sc_status hist_load_string_unguarded(const char *text,
                                            const char *filename,
                                            sc_hist ***out, int *count,
                                            sc_error **err) {
  sci_gc_init();
  *out = NULL;
  *count = 0;
  if (!text)
    return sci_fail(err, SC_ERR_USAGE, filename, 0, 0, "no text to read");
  log_reader r;
  memset(&r, 0, sizeof r);
  r.file = filename ? sci_strdup(filename) : "<string>";
  r.re = compile_patterns();
  sci_sb_init(&r.source);
  const char *p = text;
  bool ok = true;
  while (ok && *p) {
    const char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p) : strlen(p);
    char *line = sci_strndup(p, len);
    if (len > 0 && line[len - 1] == '\r')
      line[len - 1] = '\0';
    r.line++;
    ok = read_line(&r, line);
    p += len + (nl != NULL);
  }
  if (ok) {
    r.line++;
    ok = read_end(&r);
  }
  if (!ok) {
    if (err)
      *err = r.err;
    return r.err->status;
  }
  *out = r.blocks;
  *count = r.nblocks;
  return SC_OK;
}

sc_status sc_hist_load_string(const char *text, const char *filename,
                              sc_hist ***out, int *count, sc_error **err) {
  sc_oom_guard g;
  if (!SC_OOM_ENTER(g))
    return sci_oom_fail(&g, filename, err);
  sc_status st = hist_load_string_unguarded(text, filename, out, count, err);
  sci_oom_leave(&g);
  return st;
}

static sc_status hist_load_file_unguarded(const char *path, sc_hist ***out,
                                          int *count, sc_error **err) {
  sci_gc_init();
  *out = NULL;
  *count = 0;
  char *text;
  size_t len;
  int errnum = 0;
  sc_file_failure why = sci_file_read(path, MAX_LOG_BYTES, &text, &len, &errnum);
  if (why)
    return sci_file_fail(why, path, errnum, MAX_LOG_BYTES, "cannot read",
                        "expected at most %zu bytes (the log-size limit)", err);
  if (memchr(text, '\0', len))
    return sci_fail(err, SC_ERR_SYNTAX, path, 0, 0,
                   "expected a text log, found a NUL byte");
  return sc_hist_load_string(text, path, out, count, err);
}

sc_status sc_hist_load_file(const char *path, sc_hist ***out, int *count,
                            sc_error **err) {
  sc_oom_guard g;
  if (!SC_OOM_ENTER(g))
    return sci_oom_fail(&g, path, err);
  sc_status st = hist_load_file_unguarded(path, out, count, err);
  sci_oom_leave(&g);
  return st;
}

/* ---- Accessors ----------------------------------------------------------- */

const char *sc_hist_name(const sc_hist *h) { return h->name; }
const char *sc_hist_file(const sc_hist *h) { return h->file; }
int sc_hist_line(const sc_hist *h) { return h->line; }
int sc_hist_has_counts(const sc_hist *h) { return h->has_counts; }
int sc_hist_state_count(const sc_hist *h) { return h->nstates; }
long sc_hist_instances(const sc_hist *h) { return h->instances; }
const char *sc_hist_condition(const sc_hist *h) { return h->condition; }
const char *sc_hist_device(const sc_hist *h) { return h->device; }
const char *sc_hist_hash(const sc_hist *h) { return h->hash; }
const char *sc_hist_source(const sc_hist *h) { return h->source; }
long sc_hist_hung_launches(const sc_hist *h) { return h->hung_launches; }
long sc_hist_hung_instances(const sc_hist *h) { return h->hung_instances; }
double sc_hist_hang_limit(const sc_hist *h) { return h->hang_limit; }
int sc_hist_liveness(const sc_hist *h) { return h->liveness; }

const char *sc_hist_state(const sc_hist *h, int i) {
  return i >= 0 && i < h->nstates ? h->states[i].text : NULL;
}

long sc_hist_state_instances(const sc_hist *h, int i) {
  return i >= 0 && i < h->nstates ? h->states[i].count : 0;
}

int sc_hist_state_marked(const sc_hist *h, int i) {
  return i >= 0 && i < h->nstates && h->states[i].marked;
}
