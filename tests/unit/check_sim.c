/* check_sim.c: unit tests of the simulation layer (lib/sim/: semantics,
 * candidate executions, the enumerator, barriers and the names Dat3M's PTX
 * models see), on small tests whose candidate executions are
 * counted by hand in the comments: how many candidates exist, which final
 * states each model allows, Positive/Negative, and the dependencies the
 * semantics must produce. */
#include "rel/order.h"
#include "sim/execution.h"

#include "scopecat.h"

#include <check.h>

#include "check_run.h"
#include "check_simulate.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* noprune: every candidate evaluated, and every combination of traces
 * searched (no thread symmetry either). */
static sc_result *sim_with(const char *test, const char *model, int noprune) {
  sc_sim_options o;
  memset(&o, 0, sizeof o);
  o.unroll = -1;
  o.noprune = noprune;
  o.symmetry_off = noprune;
  return sc_check_simulate(test, model, &o);
}

static sc_result *sim(const char *test, const char *model) {
  return sim_with(test, model, 0);
}

/* Models written for these tests. */
static const char no_model[] = "\"anything\"\n";
static const char model_sc[] =
    "\"SC\"\n"
    "let fr = rf^-1 ; co\n"
    "acyclic po | rf | co | fr as sc\n";
static const char uniproc[] =
    "\"uniproc\"\n"
    "acyclic po-loc | rf | co | fr as uniproc\n";

#define SB_TEST                                                        \
  "GPU_PTX SB\n"                                                       \
  "{ 0:.reg .s32 r0; 0:.reg .b64 r1 = x; 0:.reg .b64 r3 = y;\n"        \
  "  1:.reg .s32 r0; 1:.reg .b64 r1 = y; 1:.reg .b64 r3 = x; }\n"      \
  " P0                 | P1                 ;\n"                       \
  " st.cg.s32 [r1], 1  | st.cg.s32 [r1], 1  ;\n"                       \
  " ld.cg.s32 r0, [r3] | ld.cg.s32 r0, [r3] ;\n"                       \
  "scopeTree (device (cta P0) (cta P1))\n"                             \
  "exists (0:r0=0 /\\ 1:r0=0)\n"

/* Each read sees 0 (initial write) or 1 (the other thread's write): two
 * runs per thread, one rf each, one co per location: 4 candidates.  SC
 * forbids the one where both read 0 (the cycle W0 po R0 fr W1 po R1 fr W0).
 * That cycle needs no choice of co (each initial write comes first): the
 * simulator cuts that candidate before the model sees it, unless told
 * not to. */
START_TEST(sb_under_sc) {
  ck_assert_int_eq(sc_result_candidates(sim_with(SB_TEST, model_sc, 1)), 4);
  sc_result *r = sim(SB_TEST, model_sc);
  /* and P1 reading 0 while P0 reads 1 is P0 reading 0 while P1 reads 1,
   * threads and locations swapped (sb_unconstrained_log): searched once */
  ck_assert_int_eq(sc_result_candidates(r), 2);
  ck_assert_int_eq(sc_result_state_count(r), 3);
  ck_assert_int_eq(sc_result_positive(r), 0);
  ck_assert_int_eq(sc_result_negative(r), 3);
  ck_assert(!sc_result_validated(r));
  ck_assert_str_eq(sc_result_observation(r), "Never");
  ck_assert_str_eq(sc_result_state(r, 0), "0:r0=0; 1:r0=1;");
  ck_assert_str_eq(sc_result_state(r, 1), "0:r0=1; 1:r0=0;");
  ck_assert_str_eq(sc_result_state(r, 2), "0:r0=1; 1:r0=1;");
}
END_TEST

/* Swapping P0 and P1 with x and y maps SB onto itself: the combination
 * where P0 reads 1 and P1 reads 0 is searched as its mirror image, and
 * its state counted from there; the states and counts are the same. */
START_TEST(sb_unconstrained_log) {
  sc_result *r = sim(SB_TEST, no_model);
  ck_assert_int_eq(sc_result_candidates(r), 3);
  ck_assert_int_eq(sc_result_candidates(sim_with(SB_TEST, no_model, 1)), 4);
  ck_assert_int_eq(sc_result_state_count(r), 4);
  ck_assert(sc_result_validated(r));
  ck_assert_str_eq(sc_result_log(r, SC_LOG_NOTIME | SC_LOG_NOHASH),
                   "Test SB Allowed\n"
                   "States 4\n"
                   "0:r0=0; 1:r0=0;\n"
                   "0:r0=0; 1:r0=1;\n"
                   "0:r0=1; 1:r0=0;\n"
                   "0:r0=1; 1:r0=1;\n"
                   "Ok\n"
                   "Witnesses\n"
                   "Positive: 1 Negative: 3\n"
                   "Condition exists (0:r0=0 /\\ 1:r0=0)\n"
                   "Observation SB Sometimes 1 3\n"
                   "\n");
  /* the hash is an MD5: 32 hex digits, the same for the same test */
  const char *log = sc_result_log(r, SC_LOG_NOTIME);
  const char *h = strstr(log, "Hash=");
  ck_assert_ptr_nonnull(h);
  ck_assert_int_eq(strspn(h + 5, "0123456789abcdef"), 32);
  ck_assert_str_eq(log, sc_result_log(sim(SB_TEST, no_model), SC_LOG_NOTIME));
}
END_TEST

/* Three threads write 1, 2, 3 to x: 3! coherence orders.  Each final value
 * is last in 2 of them. */
START_TEST(three_writers) {
  sc_result *r = sim("GPU_PTX W3\n{ }\n"
                     " P0          | P1          | P2          ;\n"
                     " st.s32 [x], 1 | st.s32 [x], 2 | st.s32 [x], 3 ;\n"
                     "forall (x=1 \\/ x=2 \\/ x=3)\n",
                     no_model);
  ck_assert_int_eq(sc_result_candidates(r), 6);
  ck_assert_int_eq(sc_result_state_count(r), 3);
  ck_assert_str_eq(sc_result_state(r, 0), "x=1;");
  ck_assert_int_eq(sc_result_positive(r), 6);
  ck_assert_int_eq(sc_result_negative(r), 0);
  ck_assert(sc_result_validated(r));
  ck_assert_str_eq(sc_result_observation(r), "Always");
  ck_assert_ptr_nonnull(strstr(sc_result_log(r, 0), "Test W3 Required\n"));
}
END_TEST

/* CoWW: W x=1 then W x=2 in one thread.  Two co orders; uniproc forbids
 * co from the second to the first (a cycle with po-loc). */
START_TEST(coherence_of_writes) {
  const char *t = "GPU_PTX CoWW\n{ }\n P0 ;\n st.s32 [x], 1 ;\n st.s32 [x], 2 ;\n"
                  "exists (x=1)\n";
  sc_result *any = sim(t, no_model), *u = sim(t, uniproc);
  ck_assert_int_eq(sc_result_candidates(any), 2);
  ck_assert_int_eq(sc_result_state_count(any), 2);
  ck_assert_int_eq(sc_result_state_count(u), 1);
  ck_assert_str_eq(sc_result_state(u, 0), "x=2;");
  ck_assert(!sc_result_validated(u));
}
END_TEST

/* A failing cas only reads.  P0: cas x from 1 to 2; P1 writes x=1.
 * P0 reads 0 (from the initial write; the cas fails, no write): one co,
 * final x=1, r0=0.  Or P0 reads 1 (from P1) and writes 2: two co orders.
 * With co W1 -> W2: final x=2, allowed under SC.  With co W2 -> W1:
 * W2 -co-> W1 -rf-> R -po-> W2 is a cycle, so SC forbids it. */
START_TEST(failing_cas_reads_only) {
  const char *t =
      "GPU_PTX cas\n{ 0:.reg .s32 r0; }\n"
      " P0                          | P1            ;\n"
      " atom.cas.b32 r0, [x], 1, 2  | st.s32 [x], 1 ;\n"
      "exists (0:r0=1 /\\ x=2)\n";
  sc_result *any = sim(t, no_model), *s = sim(t, model_sc);
  /* runs: (read 0, no write): co of {W1}: 1 candidate; (read 1, write 2):
   * co of {W1, W2}: 2 candidates */
  ck_assert_int_eq(sc_result_candidates(any), 3);
  ck_assert_int_eq(sc_result_state_count(s), 2);
  ck_assert_str_eq(sc_result_state(s, 0), "0:r0=0; x=1;");
  ck_assert_str_eq(sc_result_state(s, 1), "0:r0=1; x=2;");
  ck_assert(sc_result_validated(s));
}
END_TEST

/* A spin loop: L: ld r0, [x]; bne r0, 1, L.  With the default unroll (2
 * backward jumps) the runs read [1], [0,1] and [0,0,1]; a run reading 0
 * three times is cut.  Each is consistent under SC. */
START_TEST(spin_loop_unroll) {
  const char *t =
      "PTX spin\n{ x=0; }\n"
      " P0@cta 0,gpu 0    | P1@cta 1,gpu 0 ;\n"
      " LC0:              | st.weak x, 1   ;\n"
      " ld.weak r0, x     |                ;\n"
      " bne r0, 1, LC0    |                ;\n"
      "forall (P0:r0 == 1)\n";
  sc_result *r = sim(t, model_sc);
  ck_assert_int_eq(sc_result_candidates(r), 3);
  ck_assert_int_eq(sc_result_positive(r), 3);
  ck_assert_int_eq(sc_result_state_count(r), 1);
  ck_assert_str_eq(sc_result_state(r, 0), "0:r0=1;");
}
END_TEST

/* Dependencies from register dataflow: P0 reads x into r0 then
 *   data: st [y], r0
 *   addr: the paper's false dependency and.b32 r1, r0, 0x80000000 added
 *         to the address of z (always +0: the access is still to z)
 *   ctrl: setp on r0, then a predicated branch over a store to w.
 * Each model below forbids every execution exactly when its relation is
 * not empty, so the number of states tells whether the edge exists. */
#define DEP_TEST                                         \
  "GPU_PTX deps\n"                                       \
  "{ 0:.reg .s32 r0; 0:.reg .b64 r1; 0:.reg .b64 r2 = z;\n" \
  "  0:.reg .pred p; x=0; y=0; z=0; w=0; }\n"            \
  " P0                              ;\n"                 \
  " ld.cg.s32 r0, [x]               ;\n"                 \
  " st.cg.s32 [y], r0               ;\n"                 \
  " and.b32 r1, r0, 0x80000000      ;\n"                 \
  " add.s64 r2, r2, r1              ;\n"                 \
  " st.cg.s32 [r2], 1               ;\n"                 \
  " setp.eq.s32 p, r0, 7            ;\n"                 \
  " @p bra END                      ;\n"                 \
  " st.cg.s32 [w], 1                ;\n"                 \
  " END:                            ;\n"                 \
  "exists (z=1 /\\ w=1 /\\ y=0)\n"

static int states_under(const char *check) {
  char model[256];
  snprintf(model, sizeof model, "\"deps\"\n%s\n", check);
  return sc_result_state_count(sim(DEP_TEST, model));
}

START_TEST(dependencies) {
  /* one run (x holds only 0), one candidate, final state z=1 w=1 y=0 */
  ck_assert_int_eq(states_under(""), 1);
  ck_assert_int_eq(states_under("empty data as d"), 0);
  ck_assert_int_eq(states_under("empty addr as a"), 0);
  ck_assert_int_eq(states_under("empty ctrl as c"), 0);
  /* and they are distinct edges: data reaches W y, addr W z, ctrl W w */
  ck_assert_int_eq(states_under("let wz = range(addr)\nempty wz & range(data) as a"), 1);
  ck_assert_int_eq(states_under("empty ctrl & (M * range(data)) as c"), 1);
  ck_assert_int_eq(states_under("empty ctrl & (M * range(addr)) as c"), 1);
  ck_assert_int_eq(sc_result_positive(sim(DEP_TEST, no_model)), 1);
}
END_TEST

/* The model's verdict counts only allowed executions; -skipcheck lifts a
 * check. */
START_TEST(skipcheck) {
  sc_test *t;
  sc_model *m;
  sc_result *r;
  sc_error *err;
  ck_assert_int_eq(sc_test_load_string(SB_TEST, "sb", NULL, &t, &err), SC_OK);
  ck_assert_int_eq(sc_model_load_string(model_sc, "m.cat", NULL, 0, &m, &err), SC_OK);
  const char *skip[] = {"sc"};
  sc_sim_options o;
  memset(&o, 0, sizeof o);
  o.skipchecks = skip;
  o.nskip = 1;
  o.unroll = -1;
  ck_assert_int_eq(sc_simulate(t, m, &o, &r, &err), SC_OK);
  ck_assert_int_eq(sc_result_positive(r), 1);
  /* a limit on candidates is an error, not a partial answer */
  o.nskip = 0;
  o.max_executions = 2; /* 3 with the cut of sb_under_sc */
  ck_assert_int_eq(sc_simulate(t, m, &o, &r, &err), SC_ERR_LIMIT);
  ck_assert_ptr_nonnull(strstr(sc_error_message(err), "at most 2 candidate executions"));
}
END_TEST

/* P0 adds 1 to x, P1 adds 0.  A read is never fed by its own atom's write
 * (v = v + 0 would invent any value), so x only ever holds 0 and 1.
 * Runs: P0 reads 0 (writes 1) or 1 (writes 2); P1 reads 0 (writes 0) or 1
 * (writes 1).  Only two pairs can be fed: (P0 0, P1 0): P0's read from the
 * initial write or P1's 0, P1's from the initial write, times 2 co orders:
 * 4 candidates, final x 0 or 1; (P0 0, P1 1 from P0's 1): P0's read from
 * the initial write only, 2 co orders, final x=1.  P0 reading 1 would need
 * P1 to write 1 after reading 1 from P0, which then writes 2: never fed. */
START_TEST(own_atom_does_not_feed_itself) {
  sc_result *r = sim("GPU_PTX adds\n{ 0:.reg .s32 r0; 1:.reg .s32 r1; x=0; }\n"
                     " P0                         | P1                         ;\n"
                     " atom.add.s32 r0, [x], 1    | atom.add.s32 r1, [x], 0    ;\n"
                     "locations [1:r1; x;]\n"
                     "exists (0:r0=1)\n",
                     no_model);
  ck_assert_int_eq(sc_result_candidates(r), 6);
  ck_assert_int_eq(sc_result_state_count(r), 3);
  ck_assert_str_eq(sc_result_state(r, 0), "0:r0=0; 1:r1=0; x=0;");
  ck_assert_str_eq(sc_result_state(r, 1), "0:r0=0; 1:r1=0; x=1;");
  ck_assert_str_eq(sc_result_state(r, 2), "0:r0=0; 1:r1=1; x=1;");
  ck_assert_int_eq(sc_result_positive(r), 0);
}
END_TEST

/* Flags raised in allowed executions are listed, once each, between
 * Positive/Negative and Condition; a flag in a forbidden execution is not. */
START_TEST(flags) {
  sc_result *r = sim(SB_TEST, "\"flags\"\n"
                              "flag ~empty rfe as reads-other\n"
                              "flag ~empty (rf & (IW * R)) as reads-init\n"
                              "let fr = rf^-1 ; co\n"
                              "acyclic po | rf | co | fr as sc\n");
  /* SC allows 3 executions; each has an rfe (one read at least reads the
   * other thread's write); two of them also read an initial value. */
  const char *log = sc_result_log(r, SC_LOG_NOTIME | SC_LOG_NOHASH);
  ck_assert_ptr_nonnull(strstr(log, "Positive: 0 Negative: 3\n"
                                    "Flag reads-other\n"
                                    "Flag reads-init\n"
                                    "Condition exists"));
  /* a model that forbids everything raises nothing */
  r = sim(SB_TEST, "\"none\"\nflag ~empty rf as any-rf\nempty po as never\n");
  ck_assert_ptr_null(strstr(sc_result_log(r, 0), "Flag"));
}
END_TEST

/* "Is this outcome allowed?" on the recorded states. */
START_TEST(outcome_query) {
  sc_result *r = sim(SB_TEST, model_sc);
  sc_error *err;
  int allowed = -1;
  ck_assert_int_eq(sc_result_allows(r, "0:r0=0 /\\ 1:r0=0", &allowed, &err), SC_OK);
  ck_assert_int_eq(allowed, 0); /* SC forbids it */
  ck_assert_int_eq(sc_result_allows(r, "0:r0=0", &allowed, &err), SC_OK);
  ck_assert_int_eq(allowed, 1); /* 0:r0=0; 1:r0=1 */
  ck_assert_int_eq(sc_result_allows(r, "~(0:r0=1 \\/ 1:r0=1)", &allowed, &err), SC_OK);
  ck_assert_int_eq(allowed, 0);
  /* x is a location of the test, but no state records it */
  ck_assert_int_eq(sc_result_allows(r, "x=1", &allowed, &err), SC_ERR_USAGE);
  ck_assert_ptr_nonnull(strstr(sc_error_message(err), "found x"));
  /* names the test lacks, and syntax errors, with their position */
  ck_assert_int_eq(sc_result_allows(r, "0:r9=1", &allowed, &err), SC_ERR_SEMANTIC);
  ck_assert_ptr_nonnull(strstr(sc_error_message(err), "<proposition>:1:3: expected a register of thread 0, found 'r9'"));
  ck_assert_int_eq(sc_result_allows(r, "0:r0=", &allowed, &err), SC_ERR_SYNTAX);
  ck_assert_ptr_nonnull(strstr(sc_error_message(err), "<proposition>:1:6:"));
}
END_TEST

/* The kept executions of SB under SC: the three it allows, with the
 * events numbered initial writes first (x, y), then P0's W x, R y and
 * P1's W y, R x; the first kept is the one where P0 reads 0 and P1 1. */
START_TEST(kept_executions) {
  sc_test *t;
  sc_model *m;
  sc_result *r;
  sc_error *err;
  ck_assert_int_eq(sc_test_load_string(SB_TEST, "sb", NULL, &t, &err), SC_OK);
  ck_assert_int_eq(sc_model_load_string(model_sc, "m.cat", NULL, 0, &m, &err), SC_OK);
  sc_sim_options o;
  memset(&o, 0, sizeof o);
  o.unroll = -1;
  o.show = SC_SHOW_ALL;
  ck_assert_int_eq(sc_simulate(t, m, &o, &r, &err), SC_OK);
  ck_assert_int_eq(sc_result_execution_count(r), 3);
  ck_assert_ptr_null(sc_result_execution(r, 3));
  const sc_execution *x = sc_result_execution(r, 0);
  ck_assert_int_eq(sc_execution_event_count(x), 6);
  ck_assert_str_eq(sc_execution_event(x, 0), "W[x]=0");
  ck_assert_str_eq(sc_execution_event(x, 2), "a: W[x]=1 cg");
  ck_assert_int_eq(sc_execution_event_thread(x, 0), -1);
  ck_assert_int_eq(sc_execution_event_thread(x, 5), 1);
  ck_assert_int_eq(sc_execution_related(x, "po", 2, 3), 1);
  ck_assert_int_eq(sc_execution_related(x, "po", 3, 2), 0);
  ck_assert_int_eq(sc_execution_related(x, "co", 0, 2), 1);
  ck_assert_int_eq(sc_execution_related(x, "nonsense", 0, 2), -1);
  /* every read has exactly one rf source, and fr follows from rf and co */
  int n = sc_execution_event_count(x);
  for (int i = 0; i < sc_result_execution_count(r); i++) {
    x = sc_result_execution(r, i);
    for (int rd = 3; rd < n; rd += 2) {
      int sources = 0;
      for (int w = 0; w < n; w++)
        sources += sc_execution_related(x, "rf", w, rd) == 1;
      ck_assert_int_eq(sources, 1);
      int from_init = sc_execution_related(x, "rf", rd == 3 ? 1 : 0, rd);
      int w = rd == 3 ? 4 : 2; /* the other thread's write */
      ck_assert_int_eq(sc_execution_related(x, "fr", rd, w), from_init);
    }
  }
  /* in JSON, with rf and co as pairs of event numbers */
  const char *json = sc_result_json(r, SC_LOG_NOTIME | SC_LOG_NOHASH);
  ck_assert_ptr_nonnull(strstr(json, ",\"executions\":[{\"events\":[\"W[x]=0\",\"W[y]=0\",\"a: W[x]=1 cg\""));
  ck_assert_ptr_nonnull(strstr(json, "\"co\":[[0,2],[1,4]]}"));
}
END_TEST

/* An address that is no location is an error at the instruction. */
START_TEST(bad_address) {
  sc_test *t;
  sc_model *m;
  sc_result *r;
  sc_error *err;
  ck_assert_int_eq(sc_test_load_string(
                       "GPU_PTX bad\n{ 0:.reg .b64 r1 = x; }\n P0 ;\n"
                       " st.s32 [r1+4], 1 ;\nexists (x=0)\n",
                       "bad.litmus", NULL, &t, &err), SC_OK);
  ck_assert_int_eq(sc_model_load_string(no_model, "m.cat", NULL, 0, &m, &err), SC_OK);
  ck_assert_int_eq(sc_simulate(t, m, NULL, &r, &err), SC_ERR_SEMANTIC);
  ck_assert_ptr_nonnull(strstr(sc_error_message(err), "bad.litmus:4:2: P0 accesses address"));
}
END_TEST

/* ---- Limits (issue 9) ------------------------------------------------------ */

/* SB's largest execution: 2 initial writes and 2 events per thread. */
START_TEST(event_limit) {
  sc_test *t;
  sc_model *m;
  sc_result *r;
  sc_error *err;
  sc_parse_limits five = {0, 0, 0, 5}, six = {0, 0, 0, 6};
  ck_assert_int_eq(sc_model_load_string(no_model, "m.cat", NULL, 0, &m, &err), SC_OK);
  ck_assert_int_eq(sc_test_load_string(SB_TEST, "sb.litmus", &five, &t, &err), SC_OK);
  ck_assert_int_eq(sc_simulate(t, m, NULL, &r, &err), SC_ERR_LIMIT);
  ck_assert_ptr_null(r);
  ck_assert_str_eq(sc_error_message(err),
                   "sb.litmus: expected executions of at most 5 events (the "
                   "-max-events limit), found one of 6");
  ck_assert_int_eq(sc_test_load_string(SB_TEST, "sb.litmus", &six, &t, &err), SC_OK);
  ck_assert_int_eq(sc_simulate(t, m, NULL, &r, &err), SC_OK);
  ck_assert_int_eq(sc_result_candidates(r), 3); /* one of 4 by symmetry */
}
END_TEST

/* Simulate SB under `model` with `lim`; the status, and the message in *msg. */
static sc_status limited(const char *model, const sc_model_limits *lim,
                         const char **msg) {
  sc_test *t;
  sc_model *m, *ml;
  sc_result *r;
  sc_error *err;
  ck_assert_int_eq(sc_test_load_string(SB_TEST, "sb.litmus", NULL, &t, &err), SC_OK);
  ck_assert_int_eq(sc_model_load_string(model, "m.cat", NULL, 0, &m, &err), SC_OK);
  ck_assert_int_eq(sc_model_with_limits(m, lim, &ml, &err), SC_OK);
  sc_status st = sc_simulate(t, ml, NULL, &r, &err);
  *msg = st ? sc_error_message(err) : "";
  return st;
}

START_TEST(model_limits) {
  static const char deep[] = "\"deep\"\nlet rec f x = f (x | x) | x\nacyclic f(po) as d\n";
  static const char grow[] = "\"grow\"\nlet rec s = s | {s}\nacyclic po as g\n";
  static const char closure[] = "\"c\"\nlet rec r = po | (r;r)\nacyclic r as c\n";
  const char *msg;
  sc_model_limits lim;
  memset(&lim, 0, sizeof lim);
  /* the defaults: depth 1000, a let rec that never converges stops */
  ck_assert_int_eq(limited(deep, NULL, &msg), SC_ERR_LIMIT);
  ck_assert_ptr_nonnull(strstr(msg, "m.cat:2:15: expected function calls nested at most 1000 deep"));
  ck_assert_int_eq(limited(grow, NULL, &msg), SC_ERR_LIMIT);
  ck_assert_ptr_nonnull(strstr(msg, "m.cat:2:1: expected 'let rec s' to reach its fixpoint within 100 iterations"));
  ck_assert_int_eq(limited(closure, NULL, &msg), SC_OK);
  /* given limits */
  lim.max_depth = 10;
  ck_assert_int_eq(limited(deep, &lim, &msg), SC_ERR_LIMIT);
  ck_assert_ptr_nonnull(strstr(msg, "nested at most 10 deep"));
  lim.max_iterations = 1;
  ck_assert_int_eq(limited(closure, &lim, &msg), SC_ERR_LIMIT);
  ck_assert_ptr_nonnull(strstr(msg, "'let rec r' to reach its fixpoint within 1 iterations"));
  /* time for one execution: a billion rounds allowed, stopped by the clock */
  lim.max_iterations = 1000000000;
  lim.timeout = 0.2;
  ck_assert_int_eq(limited(grow, &lim, &msg), SC_ERR_LIMIT);
  ck_assert_ptr_nonnull(strstr(msg, "expected the model to finish an execution within 0.2 s"));
}
END_TEST

START_TEST(model_limits_usage) {
  sc_model *m, *ml = NULL;
  sc_error *err;
  sc_model_limits lim;
  ck_assert_int_eq(sc_model_load_string(no_model, "m.cat", NULL, 0, &m, &err), SC_OK);
  memset(&lim, 0, sizeof lim);
  lim.max_depth = 10001;
  ck_assert_int_eq(sc_model_with_limits(m, &lim, &ml, &err), SC_ERR_USAGE);
  ck_assert_ptr_null(ml);
  ck_assert_str_eq(sc_error_message(err),
                   "expected a cat recursion depth limit from 0 to 10000, found 10001");
  lim.max_depth = 0;
  lim.max_forks = -1;
  ck_assert_int_eq(sc_model_with_limits(m, &lim, &ml, &err), SC_ERR_USAGE);
  lim.max_forks = 0;
  lim.max_iterations = -1;
  ck_assert_int_eq(sc_model_with_limits(m, &lim, &ml, &err), SC_ERR_USAGE);
  ck_assert_int_eq(sc_model_with_limits(NULL, NULL, &ml, &err), SC_ERR_USAGE);
  ck_assert_int_eq(sc_model_with_limits(m, NULL, &ml, &err), SC_OK);
  ck_assert_ptr_nonnull(ml);
  ck_assert_ptr_ne(ml, m); /* a new model; m is unchanged */
}
END_TEST

/* ==== What Dat3M's PTX models see (sim/ptx_names.c, sim/barrier.c, the
 * PTX choices of sim/simulate.c), on small tests worked out by hand in
 * the comments.  Events are numbered as sim/execution.h says: initial
 * writes first (one per location that is no alias), then each thread's
 * events in program order. */

/* ---- Fixtures -------------------------------------------------------------- */

/* The execution of a test whose threads have one run each (their reads
 * all read initial values), with its static names bound. */
typedef struct fixture {
  sc_test *t;
  sc_execution *x;
  sc_cat_env *env;
} fixture;

static fixture make(const char *text) {
  fixture f;
  sc_error *err;
  ck_assert_msg(sc_test_load_string(text, "t.litmus", NULL, &f.t, &err) == SC_OK,
                "%s", sc_error_message(err));
  sc_thread_traces *all;
  ck_assert(sci_sem_traces(f.t, NULL, sci_values_initial(f.t), &all, &err) == SC_OK);
  const sc_trace **chosen = malloc(sizeof(sc_trace *) * (size_t)f.t->nthreads);
  for (int th = 0; th < f.t->nthreads; th++) {
    ck_assert_int_eq(all[th].ntraces, 1);
    chosen[th] = &all[th].traces[0];
  }
  f.x = sci_exec_new(f.t, chosen);
  f.env = sci_cat_env_new(f.x->nevents);
  sci_exec_bind_static(f.x, f.env);
  sci_exec_bind_dynamic(f.x, f.env);
  return f;
}

/* The value of a cat expression over the fixture's names, as a relation. */
static const sc_rel *rel_of(const fixture *f, const char *exp) {
  char text[512];
  snprintf(text, sizeof text, "PTX\nlet r = %s\n", exp);
  sc_cat_model *m;
  sc_error *err;
  ck_assert_msg(sci_cat_load_string(text, "m.cat", NULL, 0, &m, &err) == SC_OK,
                "%s", sc_error_message(err));
  sc_cat_outcome out;
  ck_assert(sci_cat_run(m, f->env, NULL, &out, &err) == SC_OK);
  const sc_cat_value *v;
  ck_assert(sci_cat_result_lookup(out.result, "r", &v, &err) == SC_OK && v);
  const sc_rel *r = sci_cat_value_rel(v, f->x->nevents);
  ck_assert(r);
  return r;
}

/* The relation written as "a-b c-d ..." (event numbers). */
static sc_rel *pairs(int n, const char *list) {
  sc_rel *r = sci_rel_new(n);
  int a, b, used;
  while (sscanf(list, " %d-%d%n", &a, &b, &used) == 2) {
    sc_rel_add(r, a, b);
    list += used;
  }
  return r;
}

#define ck_assert_rel(f, exp, list) \
  ck_assert_msg(sci_rel_equal(rel_of(&(f), exp), pairs((f).x->nevents, list)), \
                "%s is not {%s}", exp, list)

/* ---- sr, scta ---------------------------------------------------------------- */

/* e0 init x; P0 (CTA 0): e1 st.cta, e2 st.gpu; P1 (CTA 1): e3 ld.gpu,
 * e4 ld.cta; P2 (CTA 0): e5 ld.cta, e6 ld.weak.  Both scopes must hold the
 * other thread: e1 (CTA 0) and e3 (CTA 1) are not in sr, e2 and e3 are
 * (one GPU); e2 and e4 are not (e4's CTA 1 leaves P0 out); e1 and e5 are
 * (one CTA), and e2 and e5; weak e6 has no scope, nor the initial write. */
#define SR_TEST                                                   \
  "PTX sr\n"                                                      \
  "{ x=0; }\n"                                                    \
  " P0@cta 0,gpu 0      | P1@cta 1,gpu 0       | P2@cta 0,gpu 0       ;\n" \
  " st.relaxed.cta x, 1 | ld.relaxed.gpu r0, x | ld.relaxed.cta r1, x ;\n" \
  " st.relaxed.gpu x, 2 | ld.relaxed.cta r2, x | ld.weak r3, x        ;\n" \
  "exists 0==0\n"

START_TEST(sr_takes_both_scopes) {
  fixture f = make(SR_TEST);
  ck_assert_rel(f, "[W]; sr; [R]", "1-5 2-3 2-5");
  ck_assert_rel(f, "sr & ext", "1-5 5-1 2-3 3-2 2-5 5-2");
  ck_assert_rel(f, "sr & int", "1-1 1-2 2-1 2-2 3-3 3-4 4-3 4-4 5-5");
  ck_assert_rel(f, "scta & ext", "1-5 2-5 1-6 2-6 5-1 5-2 6-1 6-2");
}
END_TEST

/* ---- Tags ---------------------------------------------------------------------- */

/* e0 init x, e1 init y; P0: e2 e3 the read and write of atom.acq_rel.gpu,
 * e4 e5 those of atom.acquire.cta, e6 fence.sc.cta, e7 fence.acq_rel.gpu,
 * e8 fence.proxy.alias, e9 ld.weak, e10 st.release.sys. */
#define TAG_TEST                                        \
  "PTX tags\n"                                          \
  "{ x=0; y=0; }\n"                                     \
  " P0@cta 0,gpu 0                ;\n"                  \
  " atom.acq_rel.gpu.add r0, x, 1 ;\n"                  \
  " atom.acquire.cta.add r1, x, 1 ;\n"                  \
  " fence.sc.cta                  ;\n"                  \
  " fence.acq_rel.gpu             ;\n"                  \
  " fence.proxy.alias             ;\n"                  \
  " ld.weak r2, y                 ;\n"                  \
  " st.release.sys y, 1           ;\n"                  \
  "exists 0==0\n"

START_TEST(tags_of_semantics_scopes_proxies) {
  fixture f = make(TAG_TEST);
  ck_assert_rel(f, "[ACQ]", "2-2 4-4");
  ck_assert_rel(f, "[REL]", "3-3 10-10");
  ck_assert_rel(f, "[RLX]", "5-5");
  ck_assert_rel(f, "[ACQ_REL]", "7-7");   /* fence.sc is SC only, as in Dat3M */
  ck_assert_rel(f, "[SC]", "6-6");
  ck_assert_rel(f, "[WEAK]", "9-9");
  ck_assert_rel(f, "[GPU]", "2-2 3-3 7-7");
  ck_assert_rel(f, "[CTA]", "4-4 5-5 6-6");
  ck_assert_rel(f, "[SYS]", "10-10");
  ck_assert_rel(f, "[GEN]", "2-2 3-3 4-4 5-5 6-6 7-7 9-9 10-10");
  ck_assert_rel(f, "[ALIAS]", "8-8");
  ck_assert_rel(f, "amo", "2-3 4-5");
}
END_TEST

/* ---- Proxies: loc and vloc --------------------------------------------------------- */

/* y is a generic alias of x (an address of its own), s a surface alias of
 * x and t a texture alias of y: one memory cell, the initial write e0;
 * P0: e1 st x, e2 st y, e3 sust s, e4 tld t.  loc holds all of them;
 * vloc the accesses through one generic address: x with s, y with t. */
#define ALIAS_TEST                                                  \
  "PTX alias\n"                                                     \
  "{ x=0; y @ generic aliases x; s @ surface aliases x;\n"         \
  "  t @ texture aliases y; }\n"                                    \
  " P0@cta 0,gpu 0 ;\n"                                             \
  " st.weak x, 1   ;\n"                                             \
  " st.weak y, 2   ;\n"                                             \
  " sust.weak s, 3 ;\n"                                             \
  " tld.weak r0, t ;\n"                                             \
  "exists 0==0\n"

START_TEST(vloc_follows_proxy_aliases) {
  fixture f = make(ALIAS_TEST);
  ck_assert_rel(f, "loc & (M * M) & ~id & int", "1-2 1-3 1-4 2-1 2-3 2-4 3-1 3-2 3-4 4-1 4-2 4-3");
  ck_assert_rel(f, "vloc & ~id & int", "1-3 3-1 2-4 4-2");
  ck_assert_rel(f, "[SUR]", "3-3");
  ck_assert_rel(f, "[TEX]", "4-4");
  ck_assert_rel(f, "[GEN] & [M]", "1-1 2-2");
}
END_TEST

/* ---- syncbar ------------------------------------------------------------------------ */

static int syncs(const fixture *f, sc_rel ***out) {
  int n;
  sc_error *err;
  ck_assert(sci_barrier_syncs(f->x, NULL, 1000000, out, &n, &err) == SC_OK);
  return n;
}

/* e0 init; e1 P0's bar 1 and e2 P1's bar 1 (CTA 0) synchronise; e3 P2's
 * bar 2 is alone in its group, and so is e4, P3's bar 1 in CTA 1: each
 * waits only for itself. */
START_TEST(syncbar_same_id_same_cta) {
  fixture f = make("PTX bars\n{ x=0; }\n"
                   " P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 0,gpu 0 | P3@cta 1,gpu 0 ;\n"
                   " bar.cta.sync 1 | bar.cta.sync 1 | bar.cta.sync 2 | bar.cta.sync 1 ;\n"
                   "exists 0==0\n");
  sc_rel **r;
  ck_assert_int_eq(syncs(&f, &r), 1);
  ck_assert(sci_rel_equal(r[0], pairs(f.x->nevents, "1-1 1-2 2-1 2-2 3-3 4-4")));
}
END_TEST

/* Barriers met in crossed orders deadlock: no execution; in the same order
 * they pass, bar 0 with bar 0 and bar 1 with bar 1. */
START_TEST(syncbar_deadlock) {
  fixture crossed = make("PTX dl\n{ x=0; }\n"
                         " P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
                         " bar.cta.sync 0 | bar.cta.sync 1 ;\n"
                         " bar.cta.sync 1 | bar.cta.sync 0 ;\n"
                         "exists 0==0\n");
  sc_rel **r;
  ck_assert_int_eq(syncs(&crossed, &r), 0);
  fixture same = make("PTX ok\n{ x=0; }\n"
                      " P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
                      " bar.cta.sync 0 | bar.cta.sync 0 ;\n"
                      " bar.cta.sync 1 | bar.cta.sync 1 ;\n"
                      "exists 0==0\n");
  ck_assert_int_eq(syncs(&same, &r), 1);
  ck_assert(sci_rel_equal(r[0], pairs(same.x->nevents,
                                     "1-1 1-3 3-1 3-3 2-2 2-4 4-2 4-4")));
}
END_TEST

/* Operands must agree: "bar.cta.sync 1, r2" with r2 = 0 is group (1, 0)
 * and meets "bar.cta.sync 1, 0", not "bar.cta.sync 1, 1". */
START_TEST(syncbar_register_ids) {
  fixture f = make("PTX ids\n{ x=0; P0:r2=0; }\n"
                   " P0@cta 0,gpu 0     | P1@cta 0,gpu 0    | P2@cta 0,gpu 0    ;\n"
                   " bar.cta.sync 1, r2 | bar.cta.sync 1, 0 | bar.cta.sync 1, 1 ;\n"
                   "exists 0==0\n");
  sc_rel **r;
  ck_assert_int_eq(syncs(&f, &r), 1);
  ck_assert(sci_rel_equal(r[0], pairs(f.x->nevents, "1-1 1-2 2-1 2-2 3-3")));
}
END_TEST

/* Quorum 2 of 3 (bar.cta.sync 1, 1, 2): the first two to arrive release
 * each other; the third leaves at once, after both arrived.  So whichever
 * arrives last synchronises with the others and not they with it: three
 * relations.  Quorum 4 is never reached: no execution. */
START_TEST(syncbar_quorum) {
  fixture f = make("PTX q\n{ x=0; }\n"
                   " P0@cta 0,gpu 0       | P1@cta 0,gpu 0       | P2@cta 0,gpu 0       ;\n"
                   " bar.cta.sync 1, 1, 2 | bar.cta.sync 1, 1, 2 | bar.cta.sync 1, 1, 2 ;\n"
                   "exists 0==0\n");
  sc_rel **r;
  ck_assert_int_eq(syncs(&f, &r), 3);
  for (int i = 0; i < 3; i++)
    ck_assert_int_eq(sci_rel_count(r[i]), 7);
  ck_assert(sci_rel_equal(r[0], pairs(f.x->nevents, "1-1 1-2 2-1 2-2 1-3 2-3 3-3")));
  fixture hang = make("PTX h\n{ x=0; }\n"
                      " P0@cta 0,gpu 0       | P1@cta 0,gpu 0       ;\n"
                      " bar.cta.sync 1, 1, 4 | bar.cta.sync 1, 1, 4 ;\n"
                      "exists 0==0\n");
  ck_assert_int_eq(syncs(&hang, &r), 0);
}
END_TEST

/* bar.arrive does not wait, nor does anything synchronise into it; the
 * bar.sync of its group waits for it. */
START_TEST(syncbar_arrive) {
  fixture f = make("PTX pc\n{ x=0; }\n"
                   " P0@cta 0,gpu 0   | P1@cta 0,gpu 0 ;\n"
                   " bar.cta.arrive 1 | bar.cta.sync 1 ;\n"
                   "exists 0==0\n");
  sc_rel **r;
  ck_assert_int_eq(syncs(&f, &r), 1);
  ck_assert(sci_rel_equal(r[0], pairs(f.x->nevents, "1-2 2-2")));
}
END_TEST

/* ---- Simulation choices ---------------------------------------------------------------- */

static sc_result *sim_ptx(const char *test, const char *model) {
  sc_test *t;
  sc_model *m;
  sc_result *r;
  sc_error *err;
  ck_assert(sc_test_load_string(test, "t.litmus", NULL, &t, &err) == SC_OK);
  ck_assert(sc_model_load_string(model, "m.cat", NULL, 0, &m, &err) == SC_OK);
  ck_assert_msg(sc_simulate(t, m, NULL, &r, &err) == SC_OK, "%s",
                sc_error_message(err));
  return r;
}

/* A thread that spins until it reads its own earlier write: the first
 * exchange reads 0 and writes 1, a later one reads that 1 and leaves.  The
 * value 1 is written only by runs that the unroll bound cuts when they
 * keep reading 0, so those runs' writes must feed the values a read may
 * take, or no run completes (States 0, as before the fix).  tests/sh/dat3m.sh
 * checks Dat3M's CADP 2_simple, where a second thread does the same. */
START_TEST(spin_reads_own_write) {
  const char *own = "PTX own\n{ m=0; }\n"
                    " P0@cta 0,gpu 0              ;\n"
                    " LC00:                       ;\n"
                    " atom.relaxed.gpu.exch r0, m, 1 ;\n"
                    " beq r0, 0, LC00             ;\n"
                    "exists (P0:r0 == 1 /\\ m == 1)\n";
  sc_result *r = sim_ptx(own, "PTX\n");
  ck_assert_int_eq(sc_result_state_count(r), 1);
  ck_assert_str_eq(sc_result_state(r, 0), "0:r0=1; m=1;");
  ck_assert_int_eq(sc_result_validated(r), 1);
}
END_TEST

/* Two weak writes in two threads: under a model that rebinds co from the
 * one it is given, as Dat3M's do, co may order them either way or not at
 * all (3 candidates); unordered, x ends with either value (Dat3M): 4
 * outcomes, 2 with x=1.  Any other model keeps herd's total co. */
START_TEST(partial_co_and_final_values) {
  sc_result *r = sim_ptx("PTX co\n{ x=0; }\n"
                     " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                     " st.weak x, 1   | st.weak x, 2   ;\n"
                     "exists (x == 1)\n", "PTX\nlet co = co+\n");
  ck_assert_int_eq(sc_result_candidates(r), 3);
  ck_assert_int_eq(sc_result_positive(r), 2);
  ck_assert_int_eq(sc_result_negative(r), 2);
  r = sim_ptx("GPU_PTX co\n{ x=0; 0:.reg .b64 r1 = x; 1:.reg .b64 r1 = x; }\n"
          " P0                | P1                ;\n"
          " st.cg.s32 [r1], 1 | st.cg.s32 [r1], 2 ;\n"
          "exists (x=1)\n", "\"total\"\n");
  ck_assert_int_eq(sc_result_candidates(r), 2);
  ck_assert_int_eq(sc_result_positive(r), 1);
}
END_TEST

/* sync_fence orders the fence.sc pairs in sr: two fence.sc.gpu of one GPU
 * in two orders; two fence.sc.cta of different CTAs need no order (three
 * choices: none, either way).  A model that never names sync_fence sees
 * one candidate. */
START_TEST(sync_fence_orders_morally_strong_fences) {
  const char *uses = "PTX\nlet z = sync_fence\n";
  sc_result *r = sim_ptx("PTX f\n{ x=0; }\n"
                     " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                     " fence.sc.gpu   | fence.sc.gpu   ;\n"
                     "exists 0==0\n", uses);
  ck_assert_int_eq(sc_result_candidates(r), 2);
  r = sim_ptx("PTX f\n{ x=0; }\n"
          " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
          " fence.sc.cta   | fence.sc.cta   ;\n"
          "exists 0==0\n", uses);
  ck_assert_int_eq(sc_result_candidates(r), 3);
  r = sim_ptx("PTX f\n{ x=0; }\n"
          " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
          " fence.sc.gpu   | fence.sc.gpu   ;\n"
          "exists 0==0\n", "PTX\n");
  ck_assert_int_eq(sc_result_candidates(r), 1);
}
END_TEST

/* Barriers that deadlock leave no execution when the model names
 * syncbar (Dat3M's quorum1-hang); a model that does not sees plain
 * events, as herd7. */
START_TEST(deadlock_has_no_execution) {
  const char *test = "PTX hang\n{ x=0; }\n"
                     " P0@cta 0,gpu 0       | P1@cta 0,gpu 0 ;\n"
                     " bar.cta.sync 1, 1, 3 | st.weak x, 1   ;\n"
                     "exists 0==0\n";
  ck_assert_int_eq(sc_result_candidates(sim_ptx(test, "PTX\nlet z = syncbar\n")), 0);
  ck_assert_int_eq(sc_result_candidates(sim_ptx(test, "PTX\n")), 1);
}
END_TEST

/* The default models: ptx-rmo.cat for GPU_PTX, Dat3M's 6.0 for PTX, 7.5
 * when the test uses a proxy. */
START_TEST(default_models) {
  sc_test *t;
  sc_error *err;
  ck_assert(sc_test_load_string(SR_TEST, "t", NULL, &t, &err) == SC_OK);
  ck_assert_str_eq(sc_test_default_model(t), "ptx-v6.0.cat");
  ck_assert(sc_test_load_string(ALIAS_TEST, "t", NULL, &t, &err) == SC_OK);
  ck_assert_str_eq(sc_test_default_model(t), "ptx-v7.5.cat");
  ck_assert(sc_test_load_string(TAG_TEST, "t", NULL, &t, &err) == SC_OK);
  ck_assert_str_eq(sc_test_default_model(t), "ptx-v7.5.cat"); /* fence.proxy */
  ck_assert(sc_test_load_string("GPU_PTX g\n{ x=0; }\n P0 ;\n membar.cta ;\n"
                                "exists (x=0)\n", "t", NULL, &t, &err) == SC_OK);
  ck_assert_str_eq(sc_test_default_model(t), "ptx-rmo.cat");
}
END_TEST

/* The README's example: message passing across CTAs, forbidden with a
 * release and an acquire at GPU scope, allowed at CTA scope, under both
 * bundled models. */
START_TEST(readme_example) {
  const char *srcdir = getenv("SC_SRCDIR") ? getenv("SC_SRCDIR") : ".";
  static const char *const models[] = {"ptx-v6.0.cat", "ptx-v7.5.cat"};
  static const struct { const char *test; int validated; } tests[] = {
      {"MP+rel.gpu+acq.gpu", 0}, {"MP+rel.cta+acq.cta", 1}};
  char path[4096];
  for (int m = 0; m < 2; m++)
    for (int i = 0; i < 2; i++) {
      sc_test *t;
      sc_model *model;
      sc_result *r;
      sc_error *err;
      snprintf(path, sizeof path, "%s/ptx/modern/%s.litmus", srcdir, tests[i].test);
      ck_assert_msg(sc_test_load_file(path, NULL, &t, &err) == SC_OK, "%s",
                    sc_error_message(err));
      snprintf(path, sizeof path, "%s/cat/%s", srcdir, models[m]);
      ck_assert(sc_model_load_file(path, NULL, 0, &model, &err) == SC_OK);
      ck_assert(sc_simulate(t, model, NULL, &r, &err) == SC_OK);
      ck_assert_msg(sc_result_validated(r) == tests[i].validated, "%s under %s",
                    tests[i].test, models[m]);
    }
}
END_TEST

/* ---- Liveness ------------------------------------------------------------ */

/* -liveness on `test` under `model` with engine e: the verdict (1 Pass,
 * 0 Fail); *r the result. */
static int live_unrolled(const char *test, const char *model, sc_engine e,
                         int unroll, sc_result **r) {
  sc_test *t;
  sc_model *m;
  sc_error *err;
  sc_sim_options o;
  memset(&o, 0, sizeof o);
  o.unroll = unroll;
  o.engine = e;
  o.liveness = 1;
  ck_assert_msg(sc_test_load_string(test, "t.litmus", NULL, &t, &err) == SC_OK,
                "%s", sc_error_message(err));
  ck_assert_msg(sc_model_load_string(model, "m.cat", NULL, 0, &m, &err) == SC_OK,
                "%s", sc_error_message(err));
  ck_assert_msg(sc_simulate(t, m, &o, r, &err) == SC_OK, "%s", sc_error_message(err));
  return sc_result_liveness(*r);
}

static int live(const char *test, const char *model, sc_engine e, sc_result **r) {
  return live_unrolled(test, model, e, -1, r);
}

/* The verdict under enumeration, the same under the symbolic engine when
 * this build has it (the engines must agree). */
static int live_both(const char *test, const char *model, sc_result **r) {
  int v = live(test, model, SC_ENGINE_ENUM, r);
  if (sc_engine_smt_available(NULL)) {
    sc_result *rs;
    ck_assert_int_eq(live(test, model, SC_ENGINE_SMT, &rs), v);
    ck_assert_str_eq(sc_result_engine(rs), "smt");
    for (int th = 0; th < 3; th++)
      ck_assert_int_eq(sc_result_liveness_stuck(rs, th),
                       sc_result_liveness_stuck(*r, th));
  }
  return v;
}

#define SPIN_ON_X(other)                                                \
  "PTX spin\n{ x=0; y=0; }\n"                                           \
  " P0@cta 0,gpu 0  | P1@cta 0,gpu 0 ;\n"                               \
  " LC00:           | " other " ;\n"                                    \
  " ld.weak r0, x   |                ;\n"                               \
  " beq r0, 0, LC00 |                ;\n"                               \
  "exists 0==0\n"

/* P0 spins while x is 0.  When nobody writes x, its iteration (one read,
 * r0 0 before and after) reads x's only write, the co-maximal one, for
 * ever: Fail, P0 spinning, P1 done, even with a model that allows
 * everything.  When P1 writes x=1, that write is co-after the initial one:
 * a fair P0 must read it at last and leaves; every run that spins reads
 * the initial write, not co-maximal: Pass. */
START_TEST(liveness_spin_loop) {
  sc_result *r;
  ck_assert_int_eq(live_both(SPIN_ON_X("st.weak y, 1  "), "PTX\n", &r), 0);
  ck_assert_int_eq(sc_result_liveness_stuck(r, 0), 1);
  ck_assert_int_eq(sc_result_liveness_stuck(r, 1), 0);
  ck_assert_int_eq(sc_result_liveness_stuck(r, 2), -1);
  const sc_execution *w = sc_result_liveness_witness(r);
  ck_assert_ptr_nonnull(w);
  /* the witness: W[x]=0 W[y]=0, P0's read of x, P1's write of y */
  ck_assert_int_eq(sc_execution_event_count(w), 4);
  ck_assert_int_eq(sc_execution_related(w, "rf", 0, 2), 1);
  ck_assert_int_eq(live_both(SPIN_ON_X("st.weak x, 1  "), "PTX\n", &r), 1);
  ck_assert_ptr_null(sc_result_liveness_witness(r));
  ck_assert_int_eq(sc_result_liveness_stuck(r, 0), -1);
  /* P1 writes x=0 then x=1.  P0 may spin reading P1's x=0 only if that
   * write is co-maximal: a model that lets co leave the two unordered (a
   * partial co, "PTX" forbids nothing) allows it, Fail; one that orders
   * a thread's writes of a location in co as in po makes x=1 the last,
   * and a fair P0 reads it: Pass. */
  const char *two_writes = "PTX spin2\n{ x=0; }\n"
                           " P0@cta 0,gpu 0  | P1@cta 0,gpu 0 ;\n"
                           " LC00:           | st.weak x, 0   ;\n"
                           " ld.weak r0, x   | st.weak x, 1   ;\n"
                           " beq r0, 0, LC00 |                ;\n"
                           "exists 0==0\n";
  ck_assert_int_eq(live_both(two_writes, "PTX\n", &r), 0);
  ck_assert_int_eq(sc_result_liveness_stuck(r, 0), 1);
  ck_assert_int_eq(live_both(two_writes,
                             "PTX\nlet unordered = (po-loc & (W * W)) \\ co\n"
                             "empty unordered as coww\n", &r), 1);
  /* Only the registers an iteration reads before writing them must be as
   * at the head: r0 starts at 7 and the first iteration sets it to 0, but
   * reads it only after, so even with no backward jump allowed (-unroll 0)
   * that first iteration is a spin */
  const char *dead = "PTX dead\n{ x=0; P0:r0=7; }\n"
                     " P0@cta 0,gpu 0  ;\n"
                     " LC00:           ;\n"
                     " ld.weak r0, x   ;\n"
                     " beq r0, 0, LC00 ;\n"
                     "exists 0==0\n";
  ck_assert_int_eq(live_unrolled(dead, "PTX\n", SC_ENGINE_ENUM, 0, &r), 0);
  ck_assert_int_eq(sc_result_liveness_stuck(r, 0), 1);
  /* A loop entered by a jump into its middle: the first backward jump
   * closes no iteration (the head was never passed); the second does, and
   * the whole iteration (two reads, both registers written before read)
   * is a spin.  With -unroll 0 no iteration is ever closed: Pass. */
  const char *jumped_in = "PTX jumpin\n{ x=0; }\n"
                          " P0@cta 0,gpu 0  ;\n"
                          " goto LC01       ;\n"
                          " LC00:           ;\n"
                          " ld.weak r0, x   ;\n"
                          " LC01:           ;\n"
                          " ld.weak r1, x   ;\n"
                          " beq r1, 0, LC00 ;\n"
                          "exists 0==0\n";
  ck_assert_int_eq(live_both(jumped_in, "PTX\n", &r), 0);
  ck_assert_int_eq(live_unrolled(jumped_in, "PTX\n", SC_ENGINE_ENUM, 0, &r), 1);
  /* a loop whose register changes each time round is no spin loop: its
   * runs past the unroll bound are cut, none is stuck */
  ck_assert_int_eq(live_both("PTX count\n{ x=0; }\n"
                             " P0@cta 0,gpu 0  ;\n"
                             " LC00:           ;\n"
                             " ld.weak r0, x   ;\n"
                             " add r1, r1, 1   ;\n"
                             " beq r0, 0, LC00 ;\n"
                             "exists 0==0\n", "PTX\n", &r), 1);
}
END_TEST

/* Barriers: a quorum of 3 that two threads never reach leaves both
 * waiting (Fail, both stuck at the barrier); a quorum of 2 is met (Pass).
 * Two barriers of the whole CTA met in crossed orders hang both threads,
 * each at its first.  No barrier, no loop: Pass. */
START_TEST(liveness_barriers) {
  sc_result *r;
  const char *quorum3 = "PTX q\n{ x=0; }\n"
                        " P0@cta 0,gpu 0       | P1@cta 0,gpu 0       ;\n"
                        " bar.cta.sync 1, 1, 3 | bar.cta.sync 1, 1, 3 ;\n"
                        " st.weak x, 1         |                      ;\n"
                        "exists 0==0\n";
  ck_assert_int_eq(live_both(quorum3, "PTX\n", &r), 0);
  ck_assert_int_eq(sc_result_liveness_stuck(r, 0), 2);
  ck_assert_int_eq(sc_result_liveness_stuck(r, 1), 2);
  ck_assert_int_eq(sc_execution_event_count(sc_result_liveness_witness(r)), 3);
  const char *quorum2 = "PTX q\n{ x=0; }\n"
                        " P0@cta 0,gpu 0       | P1@cta 0,gpu 0       ;\n"
                        " bar.cta.sync 1, 1, 2 | bar.cta.sync 1, 1, 2 ;\n"
                        " st.weak x, 1         |                      ;\n"
                        "exists 0==0\n";
  ck_assert_int_eq(live_both(quorum2, "PTX\nlet z = syncbar\n", &r), 1);
  const char *crossed = "PTX dl\n{ x=0; }\n"
                        " P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
                        " bar.cta.sync 1 | bar.cta.sync 2 ;\n"
                        " bar.cta.sync 2 | bar.cta.sync 1 ;\n"
                        "exists 0==0\n";
  ck_assert_int_eq(live_both(crossed, "PTX\nlet z = syncbar\n", &r), 0);
  ck_assert_int_eq(sc_result_liveness_stuck(r, 0), 2);
  ck_assert_int_eq(sc_result_liveness_stuck(r, 1), 2);
  /* P1 spins on x for ever; P0 then waits at bar.cta.sync 2 for it, as
   * P1's code names that barrier (Dat3M): both stuck */
  ck_assert_int_eq(live_both("PTX wait\n{ x=0; }\n"
                             " P0@cta 0,gpu 0 | P1@cta 0,gpu 0  ;\n"
                             " bar.cta.sync 2 | LC00:           ;\n"
                             "                | ld.weak r0, x   ;\n"
                             "                | beq r0, 0, LC00 ;\n"
                             "                | bar.cta.sync 2  ;\n"
                             "exists 0==0\n", "PTX\n", &r), 0);
  ck_assert_int_eq(sc_result_liveness_stuck(r, 0), 2);
  ck_assert_int_eq(sc_result_liveness_stuck(r, 1), 1);
  /* barriers named by registers that the runs set apart (1 and 2) are two
   * groups of one: neither waits for the other */
  ck_assert_int_eq(live_both("PTX regs\n{ P0:r2=1; P1:r3=2; }\n"
                             " P0@cta 0,gpu 0     | P1@cta 0,gpu 0     ;\n"
                             " bar.cta.sync 1, r2 | bar.cta.sync 1, r3 ;\n"
                             "exists 0==0\n", "PTX\n", &r), 1);
  ck_assert_int_eq(live_both("PTX sb\n{ x=0; y=0; }\n"
                             " P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
                             " st.weak x, 1   | st.weak y, 1   ;\n"
                             " ld.weak r0, y  | ld.weak r0, x  ;\n"
                             "exists 0==0\n", "PTX\n", &r), 1);
}
END_TEST

/* The model decides too: the spin that fails under a model allowing
 * everything passes under one that forbids every read (its witness would
 * have to be an allowed execution).  Without -liveness the result says
 * -1; -liveness with -through is a usage error. */
START_TEST(liveness_model_and_usage) {
  sc_result *r;
  ck_assert_int_eq(live_both(SPIN_ON_X("st.weak y, 1  "),
                             "PTX\nempty [R] as noreads\n", &r), 1);
  ck_assert_int_eq(sc_result_liveness(sim_ptx(SPIN_ON_X("st.weak y, 1  "), "PTX\n")), -1);
  sc_test *t;
  sc_model *m;
  sc_error *err;
  sc_sim_options o;
  memset(&o, 0, sizeof o);
  o.unroll = -1;
  o.liveness = 1;
  o.through = 1;
  ck_assert(sc_test_load_string(SPIN_ON_X("st.weak y, 1  "), "t", NULL, &t, &err) == SC_OK);
  ck_assert(sc_model_load_string("PTX\n", "m.cat", NULL, 0, &m, &err) == SC_OK);
  ck_assert_int_eq(sc_simulate(t, m, &o, &r, &err), SC_ERR_USAGE);
  ck_assert_ptr_nonnull(strstr(sc_error_message(err), "-liveness"));
}
END_TEST

/* ---- The symbolic engine ------------------------------------------------ */

static sc_status sim_engine(const char *test, const char *model, sc_engine e,
                            sc_result **r, sc_error **err) {
  sc_test *t;
  sc_model *m;
  sc_sim_options o;
  memset(&o, 0, sizeof o);
  o.unroll = -1;
  o.engine = e;
  ck_assert_msg(sc_test_load_string(test, "t.litmus", NULL, &t, err) == SC_OK,
                "%s", sc_error_message(*err));
  ck_assert_msg(sc_model_load_string(model, "m.cat", NULL, 0, &m, err) == SC_OK,
                "%s", sc_error_message(*err));
  return sc_simulate(t, m, &o, r, err);
}

static sc_result *smt(const char *test, const char *model) {
  sc_result *r;
  sc_error *err;
  ck_assert_msg(sim_engine(test, model, SC_ENGINE_SMT, &r, &err) == SC_OK, "%s",
                sc_error_message(err));
  ck_assert_str_eq(sc_result_engine(r), "smt");
  return r;
}

/* SB under SC: exactly the 3 states enumeration finds; Positive and
 * Negative count states (0 and 3: the same here as the executions). */
START_TEST(smt_sb_under_sc) {
  sc_result *r = smt(SB_TEST, model_sc);
  ck_assert_int_eq(sc_result_state_count(r), 3);
  ck_assert_int_eq(sc_result_positive(r), 0);
  ck_assert_int_eq(sc_result_negative(r), 3);
  ck_assert(!sc_result_validated(r));
  ck_assert_str_eq(sc_result_state(r, 0), "0:r0=0; 1:r0=1;");
  ck_assert_str_eq(sc_result_state(r, 1), "0:r0=1; 1:r0=0;");
  ck_assert_str_eq(sc_result_state(r, 2), "0:r0=1; 1:r0=1;");
  /* no model: all 4 */
  ck_assert_int_eq(sc_result_state_count(smt(SB_TEST, no_model)), 4);
}
END_TEST

/* coRR: reading x=1 then x=0 from one writer is forbidden by uniproc
 * (po-loc | fr: R1 -po-> R2 -fr-> W -rf-> R1), allowed by no model. */
START_TEST(smt_corr) {
  const char *t = "GPU_PTX coRR\n{ 1:.reg .s32 r1; 1:.reg .s32 r2; }\n P0 | P1 ;\n"
                  " st.s32 [x], 1 | ld.s32 r1, [x] ;\n"
                  " | ld.s32 r2, [x] ;\nexists (1:r1=1 /\\ 1:r2=0)\n";
  sc_result *u = smt(t, uniproc), *any = smt(t, no_model);
  ck_assert_int_eq(sc_result_state_count(u), 3);
  ck_assert(!sc_result_validated(u));
  ck_assert_int_eq(sc_result_state_count(any), 4);
  ck_assert(sc_result_validated(any));
  /* the final value of x: co puts the initial write first */
  const char *w = "GPU_PTX CoWW\n{ }\n P0 ;\n st.s32 [x], 1 ;\n st.s32 [x], 2 ;\n"
                  "exists (x=1)\n";
  sc_result *c = smt(w, uniproc);
  ck_assert_int_eq(sc_result_state_count(c), 1);
  ck_assert_str_eq(sc_result_state(c, 0), "x=2;");
  ck_assert_int_eq(sc_result_state_count(smt(w, no_model)), 2);
}
END_TEST

/* Flags under smt: raised when some allowed execution raises them. */
START_TEST(smt_flags) {
  sc_result *r = smt(SB_TEST, "\"flags\"\n"
                              "flag ~empty rfe as reads-other\n"
                              "flag ~acyclic (po | rf | co | rf^-1;co) as not-sc\n"
                              "let fr = rf^-1 ; co\n"
                              "acyclic po | rf | co | fr as sc\n");
  const char *log = sc_result_log(r, SC_LOG_NOTIME | SC_LOG_NOHASH);
  ck_assert_ptr_nonnull(strstr(log, "Flag reads-other\n"));
  ck_assert_ptr_null(strstr(log, "not-sc"));
}
END_TEST

/* N writers of x (GPU_PTX: co total, N! candidates), `exists (x=1)`. */
static const char *writers(int n, char *buf, size_t size) {
  size_t k = (size_t)snprintf(buf, size, "GPU_PTX W%d\n{ x=0; }\n", n);
  for (int i = 0; i < n; i++)
    k += (size_t)snprintf(buf + k, size - k, " P%d %s", i, i < n - 1 ? "|" : ";\n");
  for (int i = 0; i < n; i++)
    k += (size_t)snprintf(buf + k, size - k, " st.s32 [x], %d %s", i + 1,
                          i < n - 1 ? "|" : ";\n");
  snprintf(buf + k, size - k, "exists (x=1)\n");
  return buf;
}

/* auto chooses before it runs anything, by the cost model (engine.h): 5
 * writers (120 candidates) are enumerated; 9 (362880 candidates against 10
 * solver calls: one per final value of x, one more) go symbolic; both end
 * with x = any of the values (no model: every order of the writes). */
START_TEST(auto_estimate) {
  char buf[1024];
  sc_result *r;
  sc_error *err;
  ck_assert_int_eq(sim_engine(writers(5, buf, sizeof buf), no_model, SC_ENGINE_AUTO,
                              &r, &err), SC_OK);
  ck_assert_str_eq(sc_result_engine(r), "enum");
  ck_assert_ptr_nonnull(strstr(sc_result_engine_reason(r), "auto: enumeration (estimate"));
  ck_assert_int_eq(sc_result_state_count(r), 5);
  ck_assert_int_eq(sc_result_candidates(r), 120);
  ck_assert_int_eq(sim_engine(writers(9, buf, sizeof buf), no_model, SC_ENGINE_AUTO,
                              &r, &err), SC_OK);
  ck_assert_str_eq(sc_result_engine(r), "smt");
  ck_assert_ptr_nonnull(strstr(sc_result_engine_reason(r), "auto: symbolic, each combination the cheaper way"));
  ck_assert_int_eq(sc_result_state_count(r), 9);
  ck_assert_str_eq(sc_result_state(r, 8), "x=9;");
}
END_TEST

/* Issue 29's shape: many final states (every register and x observed),
 * few rf and co choices per combination of traces, many combinations.
 * The estimate of the candidates is large (6^3 read values times 5! orders
 * of x's writes: 25920) but a solver call per state costs more than
 * enumerating each combination: auto enumerates (it went symbolic on the
 * count of candidates alone, several times slower), with enumeration's
 * states and candidates. */
START_TEST(auto_many_states) {
  const char *test =
      "GPU_PTX many-states\n"
      "{ x=0; 2:.reg .s32 r0; 2:.reg .s32 r1; 3:.reg .s32 r0; }\n"
      " P0 | P1 | P2 | P3 ;\n"
      " st.s32 [x], 1 | st.s32 [x], 3 | ld.s32 r0, [x] | ld.s32 r0, [x] ;\n"
      " st.s32 [x], 2 | st.s32 [x], 4 | ld.s32 r1, [x] | ;\n"
      " | st.s32 [x], 5 | | ;\n"
      "locations [x; 2:r0; 2:r1; 3:r0;]\n"
      "exists (x=1)\n";
  const char *coherence = "\"coherence\"\nlet fr = rf^-1 ; co\n"
                          "acyclic po-loc | rf | co | fr as coh\n";
  sc_result *r, *e;
  sc_error *err;
  ck_assert_int_eq(sim_engine(test, coherence, SC_ENGINE_ENUM, &e, &err), SC_OK);
  ck_assert_int_eq(sim_engine(test, coherence, SC_ENGINE_AUTO, &r, &err), SC_OK);
  ck_assert_str_eq(sc_result_engine(r), "enum");
  ck_assert_ptr_nonnull(strstr(sc_result_engine_reason(r), "auto: enumeration (estimate"));
  ck_assert_int_eq(sc_result_state_count(r), sc_result_state_count(e));
  ck_assert_int_eq(sc_result_state_count(r), 294);
  ck_assert_int_eq(sc_result_candidates(r), sc_result_candidates(e));
}
END_TEST

/* make bench's scoped-2x8-5 (tests/data/auto/): auto goes symbolic (the
 * estimate counts 9! orders of y's writes in a combination), but
 * enumeration cuts each combination to a few dozen looks, so each is first
 * enumerated within its budget (engine.h: half of one solver call) and
 * none reaches the solver; it gave 435 of them to the solver, 4.2 s against
 * enumeration's 0.7 s.  The states are enumeration's (24, none where both
 * registers read 0), each counted once as the symbolic road counts. */
START_TEST(auto_enumerates_first) {
  const char *srcdir = getenv("SC_SRCDIR") ? getenv("SC_SRCDIR") : ".";
  char path[4096];
  sc_test *t;
  sc_model *m;
  sc_result *a, *e;
  sc_error *err;
  snprintf(path, sizeof path, "%s/tests/data/auto/scoped-2x8-5.litmus", srcdir);
  ck_assert_msg(sc_test_load_file(path, NULL, &t, &err) == SC_OK, "%s",
                sc_error_message(err));
  snprintf(path, sizeof path, "%s/cat/ptx-rmo.cat", srcdir);
  ck_assert(sc_model_load_file(path, NULL, 0, &m, &err) == SC_OK);
  sc_sim_options o;
  memset(&o, 0, sizeof o);
  o.unroll = -1;
  o.engine = SC_ENGINE_AUTO;
  ck_assert(sc_simulate(t, m, &o, &a, &err) == SC_OK);
  o.engine = SC_ENGINE_ENUM;
  ck_assert(sc_simulate(t, m, &o, &e, &err) == SC_OK);
  ck_assert_str_eq(sc_result_engine(a), "smt");
  const char *why = sc_result_engine_reason(a);
  ck_assert_msg(strstr(why, "auto: symbolic") && strstr(why, " enumerated, 0 to the solver"),
                "%s", why);
  ck_assert_int_eq(sc_result_state_count(e), 24);
  ck_assert_int_eq(sc_result_state_count(a), 24);
  for (int i = 0; i < 24; i++)
    ck_assert_str_eq(sc_result_state(a, i), sc_result_state(e, i));
  ck_assert_int_eq(sc_result_positive(a), 0);
  ck_assert_int_eq(sc_result_negative(a), 24);
  ck_assert_int_eq(sc_result_negative(e), 2040);
}
END_TEST

/* `with co from S` over the execution's own co, decided by a concrete run
 * of each execution the solver finds: S = {co0} (the initial write before
 * each other, and no more) holds the co of one writer, of no more; auto
 * (8 writers, symbolic at first) gives up after 256 refuted and enumerates.  herd's `try`: its fallback where the
 * name is unbound, the name where it is bound. */
START_TEST(smt_with_from_and_try) {
  const char *model = "\"co0 only\"\nwith co from {co0}\n";
  char buf[1024];
  ck_assert_int_eq(sc_result_state_count(smt(writers(1, buf, sizeof buf), model)), 1);
  ck_assert_int_eq(sc_result_state_count(smt(writers(3, buf, sizeof buf), model)), 0);
  ck_assert_int_eq(sc_result_state_count(smt(writers(3, buf, sizeof buf), no_model)), 3);
  sc_result *r;
  sc_error *err;
  ck_assert_int_eq(sim_engine(writers(8, buf, sizeof buf), model, SC_ENGINE_AUTO, &r, &err),
                   SC_OK);
  ck_assert_str_eq(sc_result_engine(r), "enum"); /* each co refuted: enumerated */
  ck_assert_ptr_nonnull(strstr(sc_result_engine_reason(r), "refuted over 256"));
  ck_assert_int_eq(sc_result_state_count(r), 0);
  const char *tried = "\"try\"\nlet b = try (W * W) with 0\nempty b\n";
  ck_assert_int_eq(sc_result_state_count(smt(writers(1, buf, sizeof buf), tried)), 0);
  ck_assert_int_eq(sc_result_state_count(
                       smt(writers(1, buf, sizeof buf), "\"t\"\nempty (try Undefined with 0)\n")),
                   1);
}
END_TEST

/* A construct the encoding lacks: a clear error naming it and its line;
 * auto enumerates where its estimate is small (SB), and where it is not,
 * it tries the symbolic engine, then enumerates after all and says why. */
START_TEST(smt_unsupported) {
  const char *model = "\"forall\"\nlet s = po\nforall e in {} do empty 0 end\n";
  sc_result *r;
  sc_error *err;
  ck_assert_int_eq(sim_engine(SB_TEST, model, SC_ENGINE_SMT, &r, &err),
                   SC_ERR_UNSUPPORTED);
  ck_assert_ptr_nonnull(strstr(sc_error_message(err), "m.cat:3"));
  ck_assert_ptr_nonnull(strstr(sc_error_message(err), "forall"));
  ck_assert_int_eq(sim_engine(SB_TEST, model, SC_ENGINE_AUTO, &r, &err), SC_OK);
  ck_assert_str_eq(sc_result_engine(r), "enum");
  char buf[1024];
  ck_assert_int_eq(sim_engine(writers(8, buf, sizeof buf), model, SC_ENGINE_AUTO,
                              &r, &err), SC_OK);
  ck_assert_str_eq(sc_result_engine(r), "enum");
  ck_assert_ptr_nonnull(strstr(sc_result_engine_reason(r), "forall"));
  ck_assert_int_eq(sc_result_candidates(r), 40320);
  ck_assert_int_eq(sc_result_state_count(r), 8);
}
END_TEST

/* ---- Barriers passed twice: one group per phase ---------------------------- */

/* A model where only barriers order threads: what happens before a
 * barrier of one thread happens before what follows the barrier it meets
 * in another; a read sees neither a write overwritten by one that happens
 * before it nor a write that happens after it. */
static const char bar_model[] = "\"barriers\"\n"
                                "let fr = rf^-1 ; co\n"
                                "let hb = (po | syncbar)+\n"
                                "acyclic po-loc | rf | co | fr as uniproc\n"
                                "irreflexive fr ; hb as stale\n"
                                "irreflexive rf ; hb as future\n";

/* The states of `test` under bar_model, "|"-separated, the same under the
 * symbolic engine when this build has it (the engines must agree). */
static const char *bar_states(const char *test, char *buf, size_t size) {
  sc_result *r;
  sc_error *err;
  ck_assert_msg(sim_engine(test, bar_model, SC_ENGINE_ENUM, &r, &err) == SC_OK, "%s",
                sc_error_message(err));
  buf[0] = '\0';
  for (int i = 0; i < sc_result_state_count(r); i++)
    snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", i ? "|" : "",
             sc_result_state(r, i));
  if (sc_engine_smt_available(NULL)) {
    sc_result *rs = smt(test, bar_model);
    ck_assert_int_eq(sc_result_state_count(rs), sc_result_state_count(r));
    for (int i = 0; i < sc_result_state_count(r); i++)
      ck_assert_str_eq(sc_result_state(rs, i), sc_result_state(r, i));
  }
  return buf;
}

/* MP across two phases of barrier 0: P0 writes x before the first and y
 * before the second; P1 reads x after the first and y after the second.
 * The k-th arrivals meet, so each read has its write happen before it and
 * the initial 0 overwritten: one state, r0=1 and r1=1.  (Matching the
 * barriers by operands alone, each waited for three arrivals that never
 * came: States 0.) */
START_TEST(syncbar_two_phases) {
  char buf[256];
  ck_assert_str_eq(bar_states("PTX mp-two-phases\n{ x=0; y=0; }\n"
                              " P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
                              " st.weak x, 1   | bar.cta.sync 0 ;\n"
                              " bar.cta.sync 0 | ld.weak r0, x  ;\n"
                              " st.weak y, 1   | bar.cta.sync 0 ;\n"
                              " bar.cta.sync 0 | ld.weak r1, y  ;\n"
                              "exists (P1:r0 == 1 /\\ P1:r1 == 1)\n", buf, sizeof buf),
                   "1:r0=1; 1:r1=1;");
}
END_TEST

/* bar.cta.sync 0 in a loop of 2 turns in both threads: in turn k P0
 * writes x=k before the barrier, P1 reads x after it into r0 and adds it
 * to r1.  Turn 1's read has x=1 happen before it (not 0), and x=2, written
 * after P0's first barrier, unordered with it: 1 or 2.  Turn 2's read has
 * x=2 happen before it: 2.  So r0=2 and r1 is 3 or 4; the barriers of the
 * two turns are two phases: one execution each, no other. */
START_TEST(syncbar_loop_two_turns) {
  char buf[256];
  ck_assert_str_eq(bar_states("PTX bar-loop\n{ x=0; P0:r2=0; P1:r2=0; P1:r1=0; }\n"
                              " P0@cta 0,gpu 0  | P1@cta 0,gpu 0  ;\n"
                              " LC00:           | LC10:           ;\n"
                              " add r2, r2, 1   | add r2, r2, 1   ;\n"
                              " st.weak x, r2   | bar.cta.sync 0  ;\n"
                              " bar.cta.sync 0  | ld.weak r0, x   ;\n"
                              " bne r2, 2, LC00 | add r1, r1, r0  ;\n"
                              "                 | bne r2, 2, LC10 ;\n"
                              "exists (P1:r0 == 2 /\\ P1:r1 == 3)\n", buf, sizeof buf),
                   "1:r0=2; 1:r1=3;|1:r0=2; 1:r1=4;");
}
END_TEST

/* The engine table (sim/simulate.c): each engine -engine names, with the
 * reason the result gives; a value past the table is a usage error; an
 * engine that draws nothing refuses -show, and one this build lacks says
 * why.  The words are those sc_simulate has always given. */
static sc_status sim_engine_show(sc_engine e, sc_show show, sc_result **r,
                                 sc_error **err) {
  sc_test *t;
  sc_model *m;
  sc_sim_options o;
  memset(&o, 0, sizeof o);
  o.unroll = -1;
  o.engine = e;
  o.show = show;
  ck_assert_int_eq(sc_test_load_string(SB_TEST, "t.litmus", NULL, &t, err), SC_OK);
  ck_assert_int_eq(sc_model_load_string(model_sc, "m.cat", NULL, 0, &m, err), SC_OK);
  return sc_simulate(t, m, &o, r, err);
}

START_TEST(engine_table) {
  sc_result *r;
  sc_error *err;
  ck_assert_int_eq(sim_engine_show(SC_ENGINE_ENUM, SC_SHOW_NONE, &r, &err), SC_OK);
  ck_assert_str_eq(sc_result_engine(r), "enum");
  ck_assert_str_eq(sc_result_engine_reason(r), "-engine enum");
  ck_assert_int_eq(sc_result_state_count(r), 3); /* SB under SC: not 0,0 */
  ck_assert_int_eq(sim_engine_show((sc_engine)3, SC_SHOW_NONE, &r, &err), SC_ERR_USAGE);
  ck_assert_str_eq(sc_error_message(err), "unknown engine 3");
  ck_assert_int_eq(sim_engine_show((sc_engine)-1, SC_SHOW_NONE, &r, &err), SC_ERR_USAGE);
  ck_assert_str_eq(sc_error_message(err), "unknown engine -1");
  const char *why = NULL;
  if (sc_engine_smt_available(&why)) {
    ck_assert_int_eq(sim_engine_show(SC_ENGINE_SMT, SC_SHOW_ALL, &r, &err),
                     SC_ERR_UNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(sc_error_message(err),
                                 "expected no -show with -engine smt (it draws "
                                 "enumerated executions: use -engine enum)"));
    ck_assert_int_eq(sim_engine_show(SC_ENGINE_SMT, SC_SHOW_NONE, &r, &err), SC_OK);
    ck_assert_str_eq(sc_result_engine_reason(r), "-engine smt");
    ck_assert_int_eq(sim_engine_show(SC_ENGINE_AUTO, SC_SHOW_ALL, &r, &err), SC_OK);
    ck_assert_str_eq(sc_result_engine_reason(r), "auto: -show draws enumerated executions");
  } else {
    ck_assert_int_eq(sim_engine_show(SC_ENGINE_SMT, SC_SHOW_NONE, &r, &err),
                     SC_ERR_UNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(sc_error_message(err),
                                 "expected the symbolic engine (-engine smt), but "
                                 "this scopecat was built without Z3"));
    ck_assert_int_eq(sim_engine_show(SC_ENGINE_AUTO, SC_SHOW_NONE, &r, &err), SC_OK);
    ck_assert_str_eq(sc_result_engine_reason(r), "auto: no symbolic engine in this build");
  }
  ck_assert_str_eq(sc_result_engine(r), "enum");
}
END_TEST

/* ---- The co a model sees (issue 23 item 1) ------------------------------------- */

/* One thread writes x=1 then x=2 (Dat3M's CoWW).  With herd's total co the
 * write of 2 is co-last in the one order po-loc | com keeps acyclic: one
 * state, x=2.  With a partial co the two writes may also stay unordered,
 * both co-maximal, and x may end with either: x=1 and x=2.  Which one
 * follows the model (its `let co = co+`), not the test's dialect, unless
 * the options name one. */
#define COWW_PTX                                                       \
  "PTX CoWW\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\n"           \
  " st.weak x, 2 ;\n~exists (x == 1)\n"
#define COWW_GPU_PTX                                                   \
  "GPU_PTX CoWW\n{ x=0; 0:.reg .b64 r1 = x; }\n P0 ;\n"                 \
  " st.cg.s32 [r1], 1 ;\n st.cg.s32 [r1], 2 ;\n~exists (x=1)\n"
static const char herd_style[] = "\"SC\"\nlet com = rf | co | fr\n"
                                 "acyclic po | com as sc\n";
static const char rebinds_co[] = "\"Dat3M-like\"\n"
                                 "(* the co in PTX is not total *)\n"
                                 "let co = co+\nlet fr = rf^-1; co\n"
                                 "acyclic po | rf | co | fr as sc\n";

static sc_result *coww(const char *test, const char *model, sc_co co) {
  sc_test *t;
  sc_model *m;
  sc_result *r;
  sc_error *err;
  sc_sim_options o;
  memset(&o, 0, sizeof o);
  o.unroll = -1;
  o.co = co;
  ck_assert(sc_test_load_string(test, "t.litmus", NULL, &t, &err) == SC_OK);
  ck_assert(sc_model_load_string(model, "m.cat", NULL, 0, &m, &err) == SC_OK);
  ck_assert_msg(sc_simulate(t, m, &o, &r, &err) == SC_OK, "%s",
                sc_error_message(err));
  return r;
}

START_TEST(co_follows_the_model) {
  const char *tests[] = {COWW_PTX, COWW_GPU_PTX};
  for (int i = 0; i < 2; i++) {
    sc_result *r = coww(tests[i], herd_style, SC_CO_MODEL);
    ck_assert_str_eq(sc_result_co(r), "total");
    ck_assert_str_eq(sc_result_co_reason(r), "herd's: the model does not rebind co");
    ck_assert_int_eq(sc_result_state_count(r), 1);
    ck_assert_str_eq(sc_result_state(r, 0), "x=2;");
    ck_assert_int_eq(sc_result_validated(r), 1);
    r = coww(tests[i], rebinds_co, SC_CO_MODEL);
    ck_assert_str_eq(sc_result_co(r), "partial");
    ck_assert_str_eq(sc_result_co_reason(r), "the model rebinds co at m.cat:3");
    ck_assert_int_eq(sc_result_state_count(r), 2);
    ck_assert_int_eq(sc_result_validated(r), 0);
    /* the options override the model, both ways */
    r = coww(tests[i], rebinds_co, SC_CO_TOTAL);
    ck_assert_str_eq(sc_result_co(r), "total");
    ck_assert_str_eq(sc_result_co_reason(r), "-co total");
    ck_assert_int_eq(sc_result_state_count(r), 1);
    r = coww(tests[i], herd_style, SC_CO_PARTIAL);
    ck_assert_str_eq(sc_result_co_reason(r), "-co partial");
    ck_assert_int_eq(sc_result_state_count(r), 2);
  }
}
END_TEST

/* The first binding of co decides: a `let rec co` or a `let co` that does
 * not read co makes a co of the model's own (total given); a binding in a
 * variant's branch counts only when the variant is set; one after another
 * binding of co reads the model's co, not the given one. */
START_TEST(co_first_binding) {
  struct { const char *model; const char *variant; const char *co, *why; } cases[] = {
    {"\"m\"\nlet rec co = co | (co; co)\n", NULL, "total",
     "herd's: the model binds its own co at m.cat:2"},
    {"\"m\"\nlet co = po-loc & (W * W)\nlet co = co+\n", NULL, "total",
     "herd's: the model binds its own co at m.cat:2"},
    {"\"m\"\nif \"dat3m\" let co = co+ end\n", NULL, "total",
     "herd's: the model does not rebind co"},
    {"\"m\"\nif \"dat3m\" let co = co+ end\n", "dat3m", "partial",
     "the model rebinds co at m.cat:2"},
    {"\"m\"\nlet fr = rf^-1; co\nlet co = co+ | 0\n", NULL, "partial",
     "the model rebinds co at m.cat:3"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    sc_test *t;
    sc_model *m;
    sc_result *r;
    sc_error *err;
    sc_sim_options o;
    memset(&o, 0, sizeof o);
    o.unroll = -1;
    o.variants = &cases[i].variant;
    o.nvariants = cases[i].variant != NULL;
    ck_assert(sc_test_load_string(COWW_PTX, "t.litmus", NULL, &t, &err) == SC_OK);
    ck_assert_msg(sc_model_load_string(cases[i].model, "m.cat", NULL, 0, &m, &err) == SC_OK,
                  "%s", sc_error_message(err));
    ck_assert_msg(sc_simulate(t, m, &o, &r, &err) == SC_OK, "%s", sc_error_message(err));
    ck_assert_str_eq(sc_result_co(r), cases[i].co);
    ck_assert_str_eq(sc_result_co_reason(r), cases[i].why);
  }
}
END_TEST

/* ---- What the unroll bound cut, and loops -liveness leaves out (23.7) ---------- */

/* Two threads take a lock with atom.exch and neither releases it.  Each
 * thread's runs (unroll 2): the exchange reads 0 and it leaves; or reads 1
 * (the other's write), jumps back, and so on; the run reading 1 three
 * times jumps back a third time and is cut: one cut run per thread.  Both
 * reading 0 breaks atomicity (each write comes between the other's read
 * of the initial value and its write, in a total co), and reading 1 then 0
 * breaks coherence: no execution, States 0, which the result must not
 * leave looking like "no execution at all". */
#define EXCH_LOCK                                                      \
  "PTX lock\n{ l=0; }\n"                                               \
  " P0@cta 0,gpu 0                 | P1@cta 0,gpu 0                 ;\n" \
  " LC00:                          | LC10:                          ;\n" \
  " atom.acquire.gpu.exch r0, l, 1 | atom.acquire.gpu.exch r0, l, 1 ;\n" \
  " bne r0, 0, LC00                | bne r0, 0, LC10                ;\n" \
  "exists (P0:r0 == 0 /\\ P1:r0 == 0)\n"
static const char sc_atomic[] = "\"SC, atomic\"\nlet com = rf | co | fr\n"
                                "acyclic po | com as sc\n"
                                "empty rmw & ((fr & ext); (co & ext)) as atomic\n";

START_TEST(unroll_cut_runs) {
  sc_result *r = sim(EXCH_LOCK, sc_atomic);
  ck_assert_int_eq(sc_result_state_count(r), 0);
  ck_assert_int_eq(sc_result_cut_runs(r, 0), 1);
  ck_assert_int_eq(sc_result_cut_runs(r, 1), 1);
  ck_assert_int_eq(sc_result_cut_runs(r, 2), -1);
  ck_assert_int_eq(sc_result_cut_runs(r, -1), -1);
  const char *log = sc_result_log(r, SC_LOG_NOTIME | SC_LOG_NOHASH);
  ck_assert_ptr_nonnull(strstr(log, "States 0\n"));
  ck_assert_ptr_nonnull(strstr(log, "\nUnroll lock the -unroll bound cut 2 runs of "
                                    "threads P0 P1: no execution within the bound "
                                    "(States 0), not none at all\n\n"));
  const char *json = sc_result_json(r, SC_LOG_NOTIME);
  ck_assert_ptr_nonnull(strstr(json, "\"unroll_cut\":{\"runs\":2,\"threads\":[\"P0\",\"P1\"]}"));
  /* a test with no loop: nothing cut, no line, an empty "unroll_cut" */
  r = sim(SB_TEST, model_sc);
  ck_assert_int_eq(sc_result_cut_runs(r, 0), 0);
  ck_assert_ptr_null(strstr(sc_result_log(r, 0), "Unroll"));
  ck_assert_ptr_nonnull(strstr(sc_result_json(r, 0), "\"unroll_cut\":{\"runs\":0,\"threads\":[]}"));
}
END_TEST

/* A lock that states remain beside: one thread takes it, the other finds
 * it free once released.  The waiting run reading 1 three times is cut;
 * the states are those of the runs within the bound, and the line says
 * the cut runs' executions are not among them. */
START_TEST(unroll_cut_beside_states) {
  const char *test = "PTX lock2\n{ l=0; }\n"
                     " P0@cta 0,gpu 0                 | P1@cta 0,gpu 0    ;\n"
                     " LC00:                          | st.relaxed.gpu l, 1 ;\n"
                     " atom.acquire.gpu.exch r0, l, 1 | st.relaxed.gpu l, 0 ;\n"
                     " bne r0, 0, LC00                |                   ;\n"
                     "exists (P0:r0 == 0)\n";
  sc_result *r = sim(test, sc_atomic);
  ck_assert_int_eq(sc_result_state_count(r), 1);
  ck_assert_int_eq(sc_result_cut_runs(r, 0), 1);
  ck_assert_int_eq(sc_result_cut_runs(r, 1), 0);
  ck_assert_ptr_nonnull(strstr(sc_result_log(r, SC_LOG_NOHASH),
                               "\nUnroll lock2 the -unroll bound cut 1 run of thread P0: "
                               "their executions are not among these states\n\n"));
}
END_TEST

/* -liveness: the exch lock never released leaves the loser turning for
 * ever, each turn writing 1 and reading the 1 of its last turn: a
 * recurrence (its second turn repeats its first), fair (the turn reads
 * the loop's own write; the winner's 1 is co-before it), so Fail under
 * either engine with the loser stuck.  With -unroll 0 no second turn runs:
 * the loop is not checked, and the result says so (its thread, the line
 * of its branch).  A cas lock's failing turns write nothing: checked (a
 * spin) at any bound, no such word. */
START_TEST(liveness_unchecked_loop) {
  sc_result *r;
  ck_assert_int_eq(live_both(EXCH_LOCK, sc_atomic, &r), 0);
  int th = -1, line = -1;
  ck_assert_int_eq(sc_result_liveness_unchecked(r, &th, &line), 0);
  ck_assert_int_eq(sc_result_liveness_stuck(r, 0) + sc_result_liveness_stuck(r, 1),
                   1); /* one of the two spins, not both: one wins */
  ck_assert_str_eq(sc_result_log(r, 0), "Liveness lock Fail\n");
  ck_assert_int_eq(live_unrolled(EXCH_LOCK, sc_atomic, SC_ENGINE_ENUM, 0, &r), 1);
  ck_assert_int_eq(sc_result_liveness_unchecked(r, &th, &line), 1);
  ck_assert_int_eq(th, 0);
  ck_assert_int_eq(line, 6);
  /* the bound cut both threads' second turns: the Pass says it holds up
   * to the bound, on a line of its own */
  ck_assert_str_eq(sc_result_log(r, 0),
                   "Liveness lock Pass\n"
                   "Unroll lock the -unroll bound cut 2 runs of threads P0 P1: Pass holds "
                   "up to the bound (a thread stuck only past it is not found)\n"
                   "Unchecked lock the loop of P0 closed at line 6 writes at each "
                   "turn: -liveness does not check such loops\n");
  ck_assert_ptr_nonnull(strstr(sc_result_json(r, 0),
                               "\"unchecked_loop\":{\"thread\":\"P0\",\"line\":6}"));
  const char *cas = "PTX caslock\n{ l=0; }\n"
                    " P0@cta 0,gpu 0                      | P1@cta 0,gpu 0                      ;\n"
                    " LC00:                               | LC10:                               ;\n"
                    " atom.acquire.gpu.cas r0, l, 0, 1    | atom.acquire.gpu.cas r0, l, 0, 1    ;\n"
                    " bne r0, 0, LC00                     | bne r0, 0, LC10                     ;\n"
                    "exists (P0:r0 == 0 /\\ P1:r0 == 0)\n";
  ck_assert_int_eq(live_both(cas, sc_atomic, &r), 0); /* the loser spins */
  ck_assert_int_eq(sc_result_liveness_unchecked(r, &th, &line), 0);
  ck_assert_str_eq(sc_result_log(r, 0), "Liveness caslock Fail\n");
  ck_assert_ptr_nonnull(strstr(sc_result_json(r, 0), "\"unchecked_loop\":null"));
  /* without -liveness there is no such word */
  r = sim(EXCH_LOCK, sc_atomic);
  ck_assert_int_eq(sc_result_liveness_unchecked(r, &th, &line), 0);
}
END_TEST

/* Issue 24: a run that ends past its deadline is the -timeout error, not a
 * result, under every engine this build has (sb's four candidates take
 * longer than a nanosecond, and the search looks at the clock only every
 * 256 steps: before, they came back as a result); the events of a thread's
 * run are capped by max_run_events, which cannot pass the width of the
 * dependency masks. */
START_TEST(deadline_and_run_events) {
  sc_test *t;
  sc_model *m;
  sc_result *r;
  sc_error *err;
  ck_assert_int_eq(sc_test_load_string(SB_TEST, "sb", NULL, &t, &err), SC_OK);
  ck_assert_int_eq(sc_model_load_string(model_sc, "m.cat", NULL, 0, &m, &err), SC_OK);
  sc_sim_options o;
  memset(&o, 0, sizeof o);
  o.unroll = -1;
  sc_engine engines[] = {SC_ENGINE_ENUM, SC_ENGINE_SMT, SC_ENGINE_AUTO};
  for (int e = 0; e < 3; e++) {
    if (engines[e] == SC_ENGINE_SMT && !sc_engine_smt_available(NULL))
      continue;
    o.engine = engines[e];
    o.timeout = 1e-9;
    r = NULL;
    ck_assert_int_eq(sc_simulate(t, m, &o, &r, &err), SC_ERR_LIMIT);
    ck_assert_ptr_null(r);
    ck_assert_ptr_nonnull(strstr(sc_error_message(err), "(the -timeout limit)"));
    o.timeout = 0;
    ck_assert_int_eq(sc_simulate(t, m, &o, &r, &err), SC_OK);
  }
  o.engine = SC_ENGINE_ENUM;
  o.max_run_events = 1; /* each thread of sb runs two accesses */
  ck_assert_int_eq(sc_simulate(t, m, &o, &r, &err), SC_ERR_LIMIT);
  ck_assert_ptr_nonnull(strstr(sc_error_message(err),
                               "expected at most 1 events in a thread's run "
                               "(the -max-run-events limit)"));
  o.max_run_events = SC_MAX_RUN_EVENTS + 1;
  ck_assert_int_eq(sc_simulate(t, m, &o, &r, &err), SC_ERR_USAGE);
  ck_assert_ptr_nonnull(strstr(sc_error_message(err), "64-bit masks"));
  o.max_run_events = 2;
  ck_assert_int_eq(sc_simulate(t, m, &o, &r, &err), SC_OK);
}
END_TEST

int main(void) {
  Suite *s = suite_create("sim");
  TCase *tc = tcase_create("enumerate");
  tcase_add_test(tc, sb_under_sc);
  tcase_add_test(tc, sb_unconstrained_log);
  tcase_add_test(tc, three_writers);
  tcase_add_test(tc, coherence_of_writes);
  tcase_add_test(tc, failing_cas_reads_only);
  tcase_add_test(tc, spin_reads_own_write);
  tcase_add_test(tc, spin_loop_unroll);
  tcase_add_test(tc, dependencies);
  tcase_add_test(tc, skipcheck);
  tcase_add_test(tc, deadline_and_run_events);
  tcase_add_test(tc, bad_address);
  tcase_add_test(tc, flags);
  tcase_add_test(tc, own_atom_does_not_feed_itself);
  tcase_add_test(tc, outcome_query);
  tcase_add_test(tc, kept_executions);
  tcase_add_test(tc, event_limit);
  tcase_add_test(tc, model_limits);
  tcase_add_test(tc, model_limits_usage);
  suite_add_tcase(s, tc);
  TCase *ptx = tcase_create("ptx");
  tcase_add_test(ptx, sr_takes_both_scopes);
  tcase_add_test(ptx, tags_of_semantics_scopes_proxies);
  tcase_add_test(ptx, vloc_follows_proxy_aliases);
  tcase_add_test(ptx, syncbar_same_id_same_cta);
  tcase_add_test(ptx, syncbar_deadlock);
  tcase_add_test(ptx, syncbar_register_ids);
  tcase_add_test(ptx, syncbar_quorum);
  tcase_add_test(ptx, syncbar_arrive);
  tcase_add_test(ptx, syncbar_two_phases);
  tcase_add_test(ptx, syncbar_loop_two_turns);
  tcase_add_test(ptx, partial_co_and_final_values);
  tcase_add_test(ptx, sync_fence_orders_morally_strong_fences);
  tcase_add_test(ptx, deadlock_has_no_execution);
  tcase_add_test(ptx, default_models);
  tcase_add_test(ptx, readme_example);
  tcase_add_test(ptx, co_follows_the_model);
  tcase_add_test(ptx, co_first_binding);
  suite_add_tcase(s, ptx);
  TCase *lv = tcase_create("liveness");
  tcase_add_test(lv, liveness_spin_loop);
  tcase_add_test(lv, liveness_barriers);
  tcase_add_test(lv, liveness_model_and_usage);
  tcase_add_test(lv, unroll_cut_runs);
  tcase_add_test(lv, unroll_cut_beside_states);
  tcase_add_test(lv, liveness_unchecked_loop);
  suite_add_tcase(s, lv);
  TCase *engines = tcase_create("engines");
  tcase_add_test(engines, engine_table);
  suite_add_tcase(s, engines);
  if (sc_engine_smt_available(NULL)) {
    TCase *sym = tcase_create("smt");
    tcase_add_test(sym, smt_sb_under_sc);
    tcase_add_test(sym, smt_corr);
    tcase_add_test(sym, smt_flags);
    tcase_add_test(sym, smt_with_from_and_try);
    tcase_add_test(sym, smt_unsupported);
    tcase_add_test(sym, auto_estimate);
    tcase_add_test(sym, auto_many_states);
    tcase_add_test(sym, auto_enumerates_first);
    /* a second of work each at most, but on a loaded machine */
    tcase_set_timeout(sym, 60);
    suite_add_tcase(s, sym);
  }
  return sc_check_run(s);
}
