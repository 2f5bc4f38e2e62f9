/* cycles.c: the library can be linked into a long-running process (a
 * verifier): many load/simulate cycles in one process must give the same
 * answers every time and keep the garbage-collected heap bounded, failures
 * included.  Each cycle loads a test and a model from strings, simulates,
 * reads the verdict, and also fails on purpose (a malformed test, a
 * malformed model, a limit hit) so that error paths are repeated too.
 *
 *   tests/unit/cycles [N]   N cycles (default 100000; SC_CYCLES overrides)
 *
 * After a warm-up, the heap (GC_get_heap_size, after a collection) must
 * never grow past twice its size then: anything the library kept reachable
 * per cycle would grow it without bound. */
#include <scopecat.h>

#include <gc/gc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char sb_text[] =
    "GPU_PTX sb\n"
    "{\n"
    "0:.reg .s32 r0; 0:.reg .s32 r2; 0:.reg .b64 r1 = x; 0:.reg .b64 r3 = y;\n"
    "1:.reg .s32 r0; 1:.reg .s32 r2; 1:.reg .b64 r1 = y; 1:.reg .b64 r3 = x;\n"
    "}\n"
    " P0                | P1                ;\n"
    " mov.s32 r0,1      | mov.s32 r0,1      ;\n"
    " st.cg.s32 [r1],r0 | st.cg.s32 [r1],r0 ;\n"
    " ld.cg.s32 r2,[r3] | ld.cg.s32 r2,[r3] ;\n"
    "exists (0:r2=0 /\\ 1:r2=0)\n";

static const char sc_text[] =
    "\"SC\"\n"
    "let com = rf | co | fr\n"
    "acyclic po-loc | com as sc-per-location\n"
    "acyclic po | com as sc\n";

/* One cycle; 0 when every call answered as it must. */
static int cycle(void) {
  sc_test *t;
  sc_model *m;
  sc_result *r;
  sc_error *err;
  if (sc_test_load_string(sb_text, "sb.litmus", NULL, &t, &err) != SC_OK ||
      sc_model_load_string(sc_text, "sc.cat", NULL, 0, &m, &err) != SC_OK ||
      sc_simulate(t, m, NULL, &r, &err) != SC_OK) {
    fprintf(stderr, "cycles: %s\n", sc_error_message(err));
    return 1;
  }
  /* SC forbids sb's outcome: 3 states, no witness */
  if (sc_result_positive(r) != 0 || sc_result_state_count(r) != 3 ||
      strcmp(sc_result_observation(r), "Never") != 0) {
    fprintf(stderr, "cycles: wrong verdict:\n%s", sc_result_log(r, 0));
    return 1;
  }
  sc_test *bad;
  sc_model *badm;
  sc_parse_limits one_thread = {0, 1, 0, 0};
  if (sc_test_load_string("GPU_PTX x\n{\n", "bad.litmus", NULL, &bad, &err) !=
          SC_ERR_SYNTAX || bad ||
      sc_model_load_string("let = (", "bad.cat", NULL, 0, &badm, &err) !=
          SC_ERR_SYNTAX || badm ||
      sc_test_load_string(sb_text, "sb.litmus", &one_thread, &bad, &err) !=
          SC_ERR_LIMIT) {
    fprintf(stderr, "cycles: an error went unreported\n");
    return 1;
  }
  return 0;
}

static size_t heap_after_collection(void) {
  GC_gcollect();
  return GC_get_heap_size();
}

int main(int argc, char **argv) {
  long n = 100000;
  const char *env = getenv("SC_CYCLES");
  if (argc > 1)
    n = atol(argv[1]);
  else if (env && *env)
    n = atol(env);
  long warmup = n < 1000 ? n / 10 : 1000;
  size_t base = 0, most = 0;
  for (long i = 0; i < n; i++) {
    if (cycle() != 0) {
      fprintf(stderr, "cycles: cycle %ld failed\n", i);
      return 1;
    }
    if (i + 1 == warmup)
      base = most = heap_after_collection();
    else if (i + 1 > warmup && (i + 1) % 5000 == 0) {
      size_t now = heap_after_collection();
      most = now > most ? now : most;
      if (now > 2 * base) {
        fprintf(stderr, "cycles: the heap grew from %zu to %zu bytes after %ld "
                        "cycles\n", base, now, i + 1);
        return 1;
      }
    }
  }
  size_t end = heap_after_collection();
  most = end > most ? end : most;
  printf("cycles: %ld cycles, heap %zu bytes after %ld, at most %zu, %zu at "
         "the end\n", n, base, warmup, most, end);
  if (end > 2 * base) {
    fprintf(stderr, "cycles: the heap grew from %zu to %zu bytes\n", base, end);
    return 1;
  }
  return 0;
}
