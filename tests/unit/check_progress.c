/* check_progress.c: unit tests of the progress models (lib/sim/progress.c):
 * reading and naming -progress values, and which halted threads each model
 * allows, on four threads in two CTAs (P0, P1 in CTA 0; P2, P3 in CTA 1),
 * each case worked out by hand from the definitions in scopecat.h; and
 * the deepening of a -liveness Pass that the unroll bound cut. */
#include "sim/progress.h"

#include "scopecat.h"

#include <check.h>

#include "check_run.h"
#include "check_simulate.h"
#include <string.h>

static const char *const two_ctas =
    "PTX four\n{\nx=0;\n}\n"
    "P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 1,gpu 0 | P3@cta 1,gpu 0 ;\n"
    "st.relaxed.gpu x, 1 | st.relaxed.gpu x, 2 | st.relaxed.gpu x, 3 | st.relaxed.gpu x, 4 ;\n"
    "exists 0==0\n";

static sc_progress parsed(const char *text) {
  sc_progress p;
  const char *why = NULL;
  ck_assert_msg(sc_progress_parse(text, &p, &why) == 0, "%s: %s", text, why);
  return p;
}

/* A counting loop of four turns (three backward jumps) before a spin on a
 * flag nobody writes: every execution spins for ever, but the default
 * bound (2) cuts the run before the spin. */
static const char *const spin_past_bound =
    "PTX late\n{\nx=0;\nf=0;\nP0:r0=0;\nP0:r1=0;\n}\n"
    "P0@cta 0,gpu 0 ;\n"
    "LC00: ;\n"
    "add.s32 r1, r1, 1 ;\n"
    "st.relaxed.gpu x, r1 ;\n"
    "bne r1, 4, LC00 ;\n"
    "LC01: ;\n"
    "ld.relaxed.gpu r0, f ;\n"
    "beq r0, 0, LC01 ;\n"
    "exists 0==0\n";

/* Liveness of spin_past_bound with these bounds; the bound reached and the
 * one started from in *reached, *from. */
static int live_bounds(sc_engine engine, int unroll, int max, int *reached, int *from) {
  sc_sim_options o;
  memset(&o, 0, sizeof o);
  o.unroll = unroll;
  o.liveness = 1;
  o.engine = engine;
  o.liveness_unroll_max = max;
  sc_result *r = sc_check_simulate(spin_past_bound, "\"anything\"\n", &o);
  *reached = sc_result_unroll(r, from);
  return sc_result_liveness(r);
}

/* The default deepens the cut Pass at 2 into the Fail at 3; an explicit
 * bound alone is kept; the option deepens from any bound, and no further
 * than it says. */
START_TEST(liveness_deepens_cut_pass) {
  int reached, from;
  ck_assert_int_eq(live_bounds(SC_ENGINE_ENUM, -1, 0, &reached, &from), 0);
  ck_assert_int_eq(reached, 3);
  ck_assert_int_eq(from, 2);
  ck_assert_int_eq(live_bounds(SC_ENGINE_ENUM, 2, 0, &reached, &from), 1);
  ck_assert_int_eq(reached, 2);
  ck_assert_int_eq(live_bounds(SC_ENGINE_ENUM, 0, 5, &reached, &from), 0);
  ck_assert_int_eq(reached, 3);
  ck_assert_int_eq(from, 0);
  ck_assert_int_eq(live_bounds(SC_ENGINE_ENUM, 1, 2, &reached, &from), 1);
  ck_assert_int_eq(reached, 2);
  ck_assert_int_eq(from, 1);
}
END_TEST

START_TEST(names_round_trip) {
  static const char *const cases[][2] = {
      {"fair", "fair"},
      {"OBE", "obe"},
      {"hsa_obe", "hsa_obe"},
      {"cta=obe", "cta=obe,default=fair"},
      {"cta=OBE,default=hsa", "cta=obe,default=hsa"},
      {"kernel=unfair", "gpu=unfair,default=fair"},
      {"warp=lobe,cta=hsa,gpu=obe,device=unfair,sys=fair",
       "warp=lobe,cta=hsa,gpu=obe,device=unfair,default=fair"},
      {"default=obe,sys=fair", "warp=obe,cta=obe,gpu=obe,device=obe,default=fair"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    sc_progress p = parsed(cases[i][0]);
    const char *name = sc_progress_name(&p);
    ck_assert_str_eq(name, cases[i][1]);
    sc_progress again = parsed(name);
    ck_assert(memcmp(&p, &again, sizeof p) == 0);
  }
  sc_progress p = parsed("gpu=obe");
  ck_assert_int_eq(p.at[SC_PROGRESS_GPU], SC_PROGRESS_OBE);
  ck_assert_int_eq(p.at[SC_PROGRESS_CTA], SC_PROGRESS_FAIR);
}
END_TEST

START_TEST(bad_values_refused) {
  static const char *const bad[] = {"", "fast", "cta=", "=obe", "cta=obe,", "cta=obe,,",
                                    "block=obe", "cta=obe,cta=hsa", "cta:obe"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    sc_progress p;
    const char *why = NULL;
    ck_assert_msg(sc_progress_parse(bad[i], &p, &why) == -1, "'%s' read", bad[i]);
    ck_assert_ptr_nonnull(why);
  }
}
END_TEST

START_TEST(halts_needed) {
  sc_progress p = parsed("fair");
  ck_assert_int_eq(sci_progress_halts(&p), SCI_HALTS_NONE);
  p = parsed("lobe");
  ck_assert_int_eq(sci_progress_halts(&p), SCI_HALTS_UNSTARTED);
  p = parsed("cta=obe,gpu=hsa_obe");
  ck_assert_int_eq(sci_progress_halts(&p), SCI_HALTS_UNSTARTED);
  p = parsed("gpu=unfair");
  ck_assert_int_eq(sci_progress_halts(&p), SCI_HALTS_ANYWHERE);
  p = parsed("warp=hsa");
  ck_assert_int_eq(sci_progress_halts(&p), SCI_HALTS_ANYWHERE);
}
END_TEST

/* How each thread ends: F finished, S spins, B waits at a barrier, U
 * halted before starting, H halted after starting. */
static bool allows(const char *model, const char *ends) {
  sc_test *t;
  sc_error *err;
  ck_assert_msg(sc_test_load_string(two_ctas, "t.litmus", NULL, &t, &err) == SC_OK,
                "%s", sc_error_message(err));
  static sc_trace runs[4];
  const sc_trace *chosen[4];
  for (int th = 0; th < 4; th++) {
    char c = ends[th];
    runs[th] = (sc_trace){.stuck = c == 'S'   ? SC_STUCK_SPIN
                                   : c == 'B' ? SC_STUCK_BARRIER
                                   : c == 'F' ? SC_STUCK_NONE
                                              : SC_STUCK_HALTED,
                          .nevents = c == 'U' ? 0 : 1};
    chosen[th] = &runs[th];
  }
  sc_progress p = parsed(model);
  return sci_progress_allows(t, &p, chosen);
}

static const struct {
  const char *model, *ends;
  bool allowed;
} cases[] = {
    {"fair", "SFFF", true},   /* nothing halted: every model allows */
    {"unfair", "SFFF", true},
    {"fair", "SUFF", false},  /* FAIR halts no one */
    /* HSA between CTAs: CTA 0 (lowest that can run) goes on, CTA 1 need
     * not; in CTA 0, P0 (lowest, spinning) goes on, P1 need not */
    {"hsa", "SUFU", true},
    {"hsa", "SHFH", true},    /* HSA: halted anywhere */
    {"hsa", "USFF", false},   /* P0 is the lowest that can run */
    {"hsa", "FSUF", true},    /* P0 finished: P1 is the lowest */
    {"hsa", "BSUF", true},    /* P0 blocked: not one that can run */
    /* OBE: started CTAs and threads go on */
    {"obe", "SUUU", true},
    /* CTA 1 started (P2 finished), so it goes on: P3, its one thread that
     * can run, must (minimal progress) */
    {"obe", "SUFU", false},
    {"obe", "SFUH", false},   /* P3 started: it goes on */
    /* LOBE: a started member makes every lower id go on */
    {"lobe", "USFF", false},  /* P1 started: P0 goes on */
    {"lobe", "SUFF", true},   /* P1 is the highest and never started */
    {"lobe", "SFUU", true},   /* CTA 1 never started, no higher CTA */
    {"hsa_obe", "SUUU", true},
    {"hsa_obe", "USFF", false},
    /* UNFAIR: only minimal progress: one that can run runs */
    {"unfair", "BUFU", false}, /* P0 blocked, the rest halted: none runs */
    {"unfair", "BSUU", true},
    {"unfair", "USHF", true},
    /* per level: between CTAs unfair, in a CTA fair */
    {"gpu=unfair,cta=fair", "SFUU", true},
    {"gpu=unfair,cta=fair", "SUFF", false},
    {"cta=unfair,gpu=fair", "SFUU", false}, /* CTA 1 goes on: P2 or P3 runs */
    {"cta=unfair,gpu=fair", "SFUS", true},
};

START_TEST(models_allow) {
  ck_assert_msg(allows(cases[_i].model, cases[_i].ends) == cases[_i].allowed,
                "-progress %s, threads %s: expected %s", cases[_i].model,
                cases[_i].ends, cases[_i].allowed ? "allowed" : "refused");
}
END_TEST

int main(void) {
  Suite *s = suite_create("progress");
  TCase *tc = tcase_create("progress");
  tcase_add_test(tc, names_round_trip);
  tcase_add_test(tc, liveness_deepens_cut_pass);
  tcase_add_test(tc, bad_values_refused);
  tcase_add_test(tc, halts_needed);
  tcase_add_loop_test(tc, models_allow, 0, (int)(sizeof cases / sizeof cases[0]));
  suite_add_tcase(s, tc);
  return sc_check_run(s);
}
