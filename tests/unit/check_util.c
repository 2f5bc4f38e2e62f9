/* check_util.c: unit tests of the bottom layer (lib/util/): the one file
 * reader, the clock, the lexers' cursor, and the heap cap, whose refused
 * allocations must come back as errors of the call that made them (a
 * library never exits), the library staying usable afterwards. */
#define _POSIX_C_SOURCE 200809L
#include "util/cursor.h"
#include "util/error.h"
#include "util/file.h"
#include "util/gcmem.h"
#include "util/oom.h"
#include "util/strbuf.h"

#include "scopecat.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check_run.h"

/* A file in the temporary folder holding `len` bytes of `text`. */
static const char *temp_file(const char *text, size_t len) {
  const char *dir = getenv("TMPDIR");
  char *path = sci_printf("%s/sc-check-util-XXXXXX", dir && *dir ? dir : "/tmp");
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  ck_assert_int_eq(write(fd, text, len), (ssize_t)len);
  close(fd);
  return path;
}

/* ---- The file reader ------------------------------------------------------ */

START_TEST(file_read_whole) {
  const char *path = temp_file("abc\0def", 7);
  char *text;
  size_t len;
  int errnum = 0;
  ck_assert_int_eq(sci_file_read(path, 0, &text, &len, &errnum), SC_FILE_READ);
  ck_assert_uint_eq(len, 7); /* NUL bytes are the caller's question */
  ck_assert(memcmp(text, "abc\0def", 8) == 0);
  /* exactly at the limit reads; one byte past it does not */
  ck_assert_int_eq(sci_file_read(path, 7, &text, &len, &errnum), SC_FILE_READ);
  ck_assert_int_eq(sci_file_read(path, 6, &text, &len, &errnum), SC_FILE_TOO_LARGE);
  ck_assert_ptr_null(text);
  unlink(path);
  ck_assert_int_eq(sci_file_read(path, 0, &text, &len, &errnum), SC_FILE_CANNOT_OPEN);
  ck_assert_int_ne(errnum, 0);
}
END_TEST

START_TEST(file_read_large) {
  /* larger than the reader's first buffers: it grows them */
  size_t n = 300000;
  char *big = sci_alloc_atomic(n);
  for (size_t i = 0; i < n; i++)
    big[i] = (char)('a' + i % 26);
  const char *path = temp_file(big, n);
  char *text;
  size_t len;
  ck_assert_int_eq(sc_read_file(path, 0, &text, &len, NULL), SC_OK);
  ck_assert_uint_eq(len, n);
  ck_assert(memcmp(text, big, n) == 0 && text[n] == '\0');
  sc_error *err = NULL;
  ck_assert_int_eq(sc_read_file(path, 1000, &text, NULL, &err), SC_ERR_LIMIT);
  ck_assert_str_eq(sc_error_message(err),
                   sci_printf("%s: expected at most 1000 bytes", path));
  unlink(path);
  ck_assert_int_eq(sc_read_file(path, 0, &text, NULL, &err), SC_ERR_IO);
  ck_assert(strstr(sc_error_message(err), "cannot open: ") != NULL);
}
END_TEST

/* ---- The clock ------------------------------------------------------------ */

START_TEST(clock_moves_forward) {
  double a = sc_seconds();
  struct timespec pause = {0, 20 * 1000 * 1000};
  nanosleep(&pause, NULL);
  double b = sc_seconds();
  ck_assert(b - a >= 0.015);
  ck_assert(b - a < 5.0);
}
END_TEST

/* ---- The cursor ----------------------------------------------------------- */

START_TEST(cursor_lines_and_columns) {
  sc_cursor c = {"f", "ab\ncd", 1, 1};
  sci_cursor_advance_n(&c, 3);
  ck_assert_int_eq(c.line, 2);
  ck_assert_int_eq(c.col, 1);
  ck_assert_int_eq(*c.p, 'c');
  sci_cursor_advance_n(&c, 10); /* stops at the end */
  ck_assert_int_eq(*c.p, '\0');
  ck_assert_int_eq(c.col, 3);
}
END_TEST

START_TEST(cursor_nested_comments) {
  sc_cursor c = {"f", "(* a (* b *)\n c *)x", 1, 1};
  ck_assert(sci_cursor_at_comment(&c));
  ck_assert_int_eq(sci_cursor_skip_comment(&c, NULL), SC_OK);
  ck_assert_int_eq(*c.p, 'x');
  ck_assert_int_eq(c.line, 2);
  ck_assert_int_eq(c.col, 6);
  sc_cursor open = {"f", "\n  (* (* *)", 2, 1};
  sci_cursor_advance_n(&open, 3);
  sc_error *err = NULL;
  ck_assert_int_eq(sci_cursor_skip_comment(&open, &err), SC_ERR_SYNTAX);
  ck_assert_str_eq(sc_error_message(err),
                   "f:3:3: expected '*)' closing this comment, found end of file");
}
END_TEST

/* ---- Out of memory -------------------------------------------------------- */

/* A litmus test whose text is small but whose tokens need tens of MB. */
static const char *huge_test(int rows) {
  sc_strbuf sb;
  sci_sb_init(&sb);
  sci_sb_puts(&sb, "GPU_PTX huge\n{\nx=0;\n0:.reg .s32 r0;\n}\n P0 ;\n");
  for (int i = 0; i < rows; i++)
    sci_sb_puts(&sb, " ld.cg.s32 r0, [x] ;\n");
  sci_sb_puts(&sb, "exists (0:r0=0)\n");
  return sb.data;
}

static const char *small_test =
    "GPU_PTX small\n{\nx=0;\n0:.reg .s32 r0;\n}\n P0 ;\n ld.cg.s32 r0, [x] ;\n"
    "exists (0:r0=0)\n";

START_TEST(heap_cap_is_an_error) {
  const char *huge = huge_test(400000); /* ~8 MB of text, ~2.4M tokens */
  ck_assert_int_eq(sc_set_max_heap(48u << 20, NULL), SC_OK);
  sc_test *t = NULL;
  sc_error *err = NULL;
  ck_assert_int_eq(sc_test_load_string(huge, "huge.litmus", NULL, &t, &err),
                   SC_ERR_LIMIT);
  ck_assert_ptr_null(t);
  const char *msg = sc_error_message(err);
  ck_assert_msg(strncmp(msg, "huge.litmus: out of memory: ", 28) == 0, "%s", msg);
  ck_assert_msg(strstr(msg, "heap limit of 50331648 bytes (-max-heap)") != NULL,
                "%s", msg);
  /* the next call, under the same cap, works */
  ck_assert_int_eq(sc_test_load_string(small_test, "small.litmus", NULL, &t, &err),
                   SC_OK);
  ck_assert_str_eq(sc_test_name(t), "small");
  ck_assert_ptr_nonnull(sc_test_to_string(t));
  /* and without the cap, even the huge text parses up to its real error:
   * more instructions than a thread may have */
  ck_assert_int_eq(sc_set_max_heap(0, NULL), SC_OK);
  ck_assert_int_eq(sc_test_load_string(huge, "huge.litmus", NULL, &t, &err),
                   SC_ERR_LIMIT);
  ck_assert_msg(strstr(sc_error_message(err), "out of memory") == NULL, "%s",
                sc_error_message(err));
}
END_TEST

/* The guard's own contract: a refused allocation jumps to the innermost
 * guard, which reports; outer guards are untouched. */
START_TEST(guards_nest) {
  sc_error *usage = NULL;
  ck_assert_int_eq(sc_set_max_heap(1, &usage), SC_ERR_USAGE);
  ck_assert_str_eq(sc_error_message(usage), "expected a heap limit of 0 (none) "
                   "or at least 8388608 bytes, found 1");
  ck_assert_int_eq(sc_set_max_heap(32u << 20, NULL), SC_OK);
  sc_oom_guard outer, inner;
  volatile int inner_failed = 0;
  if (!SC_OOM_ENTER(outer))
    ck_abort_msg("the outer guard caught what the inner one should have");
  if (SC_OOM_ENTER(inner)) {
    /* a chain of blocks, all reachable: only the cap stops it */
    void **volatile chain = NULL;
    for (;;) {
      void **block = sci_alloc(1u << 20);
      block[0] = (void *)chain;
      chain = block;
    }
  } else {
    sc_error *err = NULL;
    ck_assert_int_eq(sci_oom_fail(&inner, "here", &err), SC_ERR_LIMIT);
    ck_assert(strncmp(sc_error_message(err), "here: out of memory", 19) == 0);
    inner_failed = 1;
  }
  sci_oom_leave(&outer);
  ck_assert(inner_failed);
}
END_TEST

/* Outside every guard (a small accessor, say) a refused allocation has no
 * guard to jump to: it is served past the cap rather than crash. */
START_TEST(unguarded_allocation_past_the_cap) {
  ck_assert_int_eq(sc_set_max_heap(16u << 20, NULL), SC_OK);
  void **volatile chain = NULL;
  for (int i = 0; i < 40; i++) { /* 40 MiB kept, past the 16 MiB cap */
    void **block = sci_alloc(1u << 20);
    ck_assert_ptr_nonnull(block);
    block[0] = (void *)chain;
    chain = block;
  }
  /* a guarded call under the same cap still fails cleanly */
  sc_test *t = NULL;
  sc_error *err = NULL;
  ck_assert_int_eq(sc_test_load_string(huge_test(400000), "huge.litmus", NULL,
                                       &t, &err), SC_ERR_LIMIT);
  ck_assert(strstr(sc_error_message(err), "out of memory") != NULL);
}
END_TEST

static Suite *util_suite(void) {
  Suite *s = suite_create("util");
  TCase *files = tcase_create("files");
  tcase_add_test(files, file_read_whole);
  tcase_add_test(files, file_read_large);
  suite_add_tcase(s, files);
  TCase *clock = tcase_create("clock");
  tcase_add_test(clock, clock_moves_forward);
  suite_add_tcase(s, clock);
  TCase *cursor = tcase_create("cursor");
  tcase_add_test(cursor, cursor_lines_and_columns);
  tcase_add_test(cursor, cursor_nested_comments);
  suite_add_tcase(s, cursor);
  TCase *memory = tcase_create("memory");
  tcase_set_timeout(memory, 60);
  tcase_add_test(memory, heap_cap_is_an_error);
  tcase_add_test(memory, guards_nest);
  tcase_add_test(memory, unguarded_allocation_past_the_cap);
  suite_add_tcase(s, memory);
  return s;
}

int main(void) {
  sci_gc_init();
  return sc_check_run(util_suite());
}
