/* repeat_gate.c: the model's side of sem.c's repeated-state cut.  A run
 * cut there stands for the shorter run, whose executions are the longer
 * run's with one iteration's reads and fences taken out; the names that
 * execution.c and ptx_names.c bind then keep, among the remaining events,
 * the pairs they had, but for those of `shrinking` below.
 *
 * Race flags.  A flag raised on the longer execution X may not be raised
 * on the shorter X': a read that races may be in the iteration cut alone
 * (a spin whose failing turn reads a plain x, whose last turn does not:
 * tests/data/repeat-races/race-in-spin.ptx).  cat/ptx-race.cat's flags
 * survive a narrower cut, sem.h's repeat_twins: the iteration has no
 * fence, and each of its reads e has a twin e', an earlier read of the run
 * by the same instruction of the same location, with no write, fence or
 * barrier of its thread after e' (or the twin after it, below).  Then, for
 * the PTX models as Dat3M wrote them (ptx-v7.5.cat, ptx-v6.0.cat), a
 * race (e, w) of X (w is a write: writes are never cut, so w is in X')
 * gives the race (e', w) of X':
 *  - conflict, morally-strong: e and e' have the same thread, location,
 *    tags, scope and proxy; w is of another thread, so po plays no part.
 *  - X' has no pair of cause that X lacks (its names are X's restricted,
 *    ctrl and the membar relations aside, which cause does not read; cause
 *    is made of them by union, intersection, sequence and closures).
 *  - (e', w) in cause gives (e, w) in cause: e' has no rmw pair (the write
 *    of an atom that wrote would follow e'), so no observation starts at
 *    it, and a path of cause (cause-base and each proxy-preserved form) to
 *    another thread leaves e' through po to the source of a sync (a
 *    release pattern starts at a write or a fence), sync_fence (a fence)
 *    or sync_barrier (a barrier); no such event lies between e' and e, so
 *    e is po-before that source too.
 *  - (w, e') in cause gives (w, e) in cause: cause ; po is in cause (its
 *    forms end with po? or po-loc; e' and e have one location).
 *  - shared-race: a barrier po-after e' is po-after e (none between), one
 *    po-before e' is po-before e; [shared], scta and RMW are e's as e''s.
 * A twin after it.  The iteration's first event e may instead have its
 * twin e'' in what follows the cut, when e is a plain load (no atom), not
 * acquiring (its tag is not ACQ: ptx_names.c).  The registers live at the
 * loop head are as they were when the iteration began, and they alone
 * lead to its first event, so X is P.I.S (P before the iteration I, S
 * after it) and X' is P.S, S's first event e'' the instruction of e at
 * its location, of its tags, scope and proxy.  A race (e, w) of X gives
 * the race (e'', w) of X':
 *  - conflict, morally-strong, [shared], scta: as above; RMW: neither e
 *    nor e'' has an rmw pair (a plain load).
 *  - (e'', w) in cause of X' gives (e, w) in cause of X: e'' has no rmw
 *    pair and observation starts at a write or an rmw pair, so the path
 *    is a proxy-preserved-cause-base (7.5) or cause-base (6.0) one from
 *    e''; po ; cause-base is in cause-base, and each bound the proxy forms
 *    put on the pair or its first step (vloc, loc, GEN, M, same-proxy,
 *    scta, proxy-fence-ops) holds of e as of e''.
 *  - (w, e'') in cause of X' gives (w, e) in cause of X.  Every event of
 *    the path is in X' (X' binds only its own events), and it reaches
 *    e'' by a last step of cause-base (or po-loc, 6.0), which is po (7.5's
 *    cause-base has po alone; po-loc) from an event c, or a sync,
 *    sync_fence or sync_barrier ending at c then po?.  Such an end is an
 *    R & ACQ read (an acquire pattern's end), a fence or a barrier, so c
 *    is not e'' (a plain load, not acquiring); c is po-before e'' and in
 *    X', so in P: po-before e.  The same path with c po e (po-loc: the
 *    same location) reaches e; the bounds on the pair hold of e as of e''.
 *    An acquiring e would not do: e'' may read the release that e missed,
 *    then w po-before that release is ordered before e'' and not e
 *    (tests/data/repeat-races/acquire-spin.ptx).  An atom's e would not:
 *    its failed read is no RMW event, the next turn's may be, and two RMW
 *    events make no shared-race (cas-spin-shared.ptx).
 *  - shared-race: a barrier po-after e'' is po-after e; one po-before e''
 *    is in X' and so in P: po-before e.
 * A race-free read.  An iteration's read e needs no twin when no write
 * can race with it: its location is not .shared, and every write w of
 * another thread to its location, in every execution, is morally strong
 * with e (both strong, in sr, one proxy of same-proxy's, one location and
 * generic address: ptx_names.c's sci_exec_morally_strong_accesses, the
 * conjunction of both models' definitions).  Then e is in no pair of
 * data-race-pairs (its race-conflict pairs are such (e, w), (w, e), all
 * morally strong) nor of shared-race-pairs ([shared] holds no such e):
 * no race is lost with it.  A race (a, b) of X whose events are not cut
 * is one of X': both are in X'; conflict, morally-strong, [shared], scta
 * and RMW are the events' or the pair's; X''s cause is X's restricted, so
 * it orders a and b no more than X's did; race-bar-separated is made of
 * po, barriers and syncbar, all kept.  The iteration still meets no fence
 * and its other reads have twins, as above.
 *  - Every write of every execution is one of the runs that the full cut
 *    (no twins) keeps, so sci_sim_race_free_reads looks at theirs
 *    (simulate.c's first pass, its own value fixpoint).  The cut removes
 *    no write: an iteration that writes never repeats a state (sem.c's
 *    repeats_state).  A run that the full cut drops at an iteration I
 *    goes on from the state it began I in (the live registers, their
 *    reads), so what follows is what the shorter run does from there: the
 *    same writes, by the same instructions at the same addresses with the
 *    same values, and a run the twin cut keeps is so a shorter one with
 *    its writes, down to one the full cut keeps (fewer backward jumps: the
 *    bound cuts it no sooner).  Its reads are a subset of the longer
 *    run's, so the value fixpoints meet the same values.  simulate.c
 *    checks the claim on the second pass's runs all the same
 *    (sci_sim_race_free_reads_hold) and, were it broken, cuts with twins
 *    alone.
 *  - An atom's failed read (no rmw pair: no RMW event, cas-spin-shared's
 *    point) may be race-free too: off .shared memory no shared-race is at
 *    stake.  An acquiring read may be: acquire-spin.ptx's race needs a weak write,
 *    scope-spin.ptx's a .cta write of another CTA (tests/data/repeat-races,
 *    both FAIL); strong-spin.ptx's writes are all morally strong with it.
 * So the flag is raised on X' too, X' is allowed (the checks, as above),
 * and the search meets X' (or cuts it again: then the same holds of
 * X''s race, with fewer events).  The proof reads those files'
 * definitions of morally-strong, cause and the flags: any other text (an
 * edited copy, a name rebound between them) might break it, so the gate
 * takes them by their MD5 and nothing else (tests/unit/check_sem.c checks
 * the digests against the files). */
#include "sim/repeat_gate.h"

#include "sim/dynamic.h"
#include "sim/execution.h"

#include "util/file.h"
#include "util/gcmem.h"
#include "util/md5.h"

#include <string.h>

/* ctrl: the events after the iteration no longer depend on the reads that
 * decided its branches; membar.cta, .gl, .sys (po ; [fence] ; po): a pair
 * that only a removed fence separated leaves them.  Every other name is a
 * property of each event or pair alone (tags, po, loc, scopes, addr and
 * data, as the repeated state's registers carry the same reads), or is
 * made of writes and barriers, none of which is removed (rf, co, fr, FW,
 * syncbar), or is the fence.sc order, whose restriction is one that the
 * shorter run's candidates take. */
static const char *const shrinking[] = {"ctrl", "membar.cta", "membar.gl", "membar.sys"};
/* The names of writes and barriers alone (an atom that writes nothing has
 * no rmw pair). */
static const char *const kept[] = {"W",   "IW",  "FW",  "BAR", "RMW",     "co",
                                   "coi", "coe", "rmw", "amo", "syncbar"};
static const sc_cat_removal removal = {
    shrinking, (int)(sizeof shrinking / sizeof *shrinking),
    kept, (int)(sizeof kept / sizeof *kept), NULL, 0};
/* The race flags, raised on X' when on X under the narrower cut. */
static const char *const race_flags[] = {"data-race", "shared-race"};
static const sc_cat_removal twin_removal = {
    shrinking, (int)(sizeof shrinking / sizeof *shrinking),
    kept, (int)(sizeof kept / sizeof *kept),
    race_flags, (int)(sizeof race_flags / sizeof *race_flags)};

/* The MD5 of the files the proof above is about (cat/ptx-v7.5.cat,
 * cat/ptx-v6.0.cat, then cat/ptx-race.cat). */
static const char *const model_digests[] = {"0ff6cee3fccfae7abdfc1ed75026703b",
                                            "fce6a7fad3ab68be353466e78be598d9"};
static const char race_digest[] = "b3e22ace95f470bcf437985be552599f";

static bool file_has_digest(const char *path, const char *digest) {
  char *text;
  size_t len;
  int errnum;
  if (sci_file_read(path, 1 << 20, &text, &len, &errnum) != SC_FILE_READ)
    return false;
  char hex[33];
  sci_md5_hex(text, len, hex);
  return strcmp(hex, digest) == 0;
}

/* Whether m is a PTX model of Dat3M's, then ptx-race.cat, byte for byte. */
static bool proved_race_model(const sc_cat_model *m) {
  const char **paths;
  int n;
  if (!sci_cat_model_only_includes(m, &paths, &n) || n != 2 ||
      !file_has_digest(paths[1], race_digest))
    return false;
  for (size_t i = 0; i < sizeof model_digests / sizeof *model_digests; i++)
    if (file_has_digest(paths[0], model_digests[i]))
      return true;
  return false;
}

sc_cat_env *sci_sim_signature_env(const sc_test *t, sc_cat_dynamic *deps) {
  /* the names and their kinds, as a candidate binds them (search.c's
   * sci_sim_prepare): those of an execution of no thread's event */
  static const sc_trace no_events = {0};
  const sc_trace **traces = sci_alloc(sizeof *traces * (size_t)(t->nthreads + 1));
  for (int th = 0; th < t->nthreads; th++)
    traces[th] = &no_events;
  sc_execution *x = sci_exec_new(t, traces);
  sc_cat_env *env = sci_cat_env_new(x->nevents);
  sci_exec_bind_static(x, env);
  sci_exec_bind_dynamic(x, env);
  sci_sim_dynamic_deps(deps);
  return env;
}

/* Whether m's checks allow the executions with fewer events, `how` said. */
static bool drop_safe(const sc_test *t, const sc_cat_model *m,
                      const sc_cat_run_options *eval, const sc_cat_removal *how) {
  sc_cat_dynamic deps[SIM_NDYNAMIC];
  sc_cat_env *env = sci_sim_signature_env(t, deps);
  return sci_cat_model_drop_events_safe(m, env, deps, SIM_NDYNAMIC, how, eval);
}

bool sci_sim_repeat_cut_safe(const sc_test *t, const sc_cat_model *m,
                         const sc_cat_run_options *eval) {
  return drop_safe(t, m, eval, &removal);
}

bool sci_sim_repeat_cut_keeps_races(const sc_test *t, const sc_cat_model *m,
                                const sc_cat_run_options *eval) {
  return proved_race_model(m) && drop_safe(t, m, eval, &twin_removal);
}

/* ---- Reads no write can race with ---------------------------------------- */

/* The index of (pc, vloc) in a thread's row of race-free marks. */
static size_t key_of(const sc_test *t, int pc, int vloc) {
  return (size_t)pc * (size_t)t->nlocs + (size_t)vloc;
}

/* Per thread, a mark per (pc, vloc): one bool row of ninstrs * nlocs. */
static bool **new_marks(const sc_test *t) {
  bool **marks = sci_alloc(sizeof *marks * (size_t)(t->nthreads + 1));
  for (int th = 0; th < t->nthreads; th++) {
    size_t n = key_of(t, t->threads[th].ninstrs, 0) + 1;
    marks[th] = sci_alloc_atomic(n);
    memset(marks[th], 0, n);
  }
  return marks;
}

/* The accesses of one kind of `all`'s runs, traces and the runs the bound
 * cut alike, each (thread, instruction, vloc) once, as sc_events. */
typedef struct access_list {
  sc_event *ev;
  int n, cap;
} access_list;

static void add_run_accesses(const sc_test *t, int th, const sc_trace *tr,
                             sc_event_kind kind, bool **seen, access_list *out) {
  for (int i = 0; i < tr->nevents; i++) {
    const sc_trace_event *e = &tr->events[i];
    if (e->kind != kind || e->vloc < 0 || seen[th][key_of(t, e->pc, e->vloc)])
      continue;
    seen[th][key_of(t, e->pc, e->vloc)] = true;
    sci_grow(&out->ev, &out->cap, out->n + 1, sizeof *out->ev);
    out->ev[out->n++] = (sc_event){.kind = kind, .thread = th, .pc = e->pc,
                                   .instr = e->instr, .loc = e->loc, .vloc = e->vloc,
                                   .value = e->value};
  }
}

static access_list distinct_accesses(const sc_test *t, const sc_thread_traces *all,
                                     sc_event_kind kind) {
  access_list out = {0};
  bool **seen = new_marks(t);
  for (int th = 0; th < t->nthreads; th++) {
    for (int i = 0; i < all[th].ntraces; i++)
      add_run_accesses(t, th, &all[th].traces[i], kind, seen, &out);
    for (int i = 0; i < all[th].ncut; i++)
      add_run_accesses(t, th, &all[th].cut[i], kind, seen, &out);
  }
  return out;
}

/* Whether read r may be in a shared-race pair: [shared] holds it when its
 * instruction says .shared or, saying no space, its location lies in
 * shared memory (execution.c's in_region); both are taken as shared
 * here, which is the safe side. */
static bool maybe_shared(const sc_test *t, const sc_event *r) {
  return r->instr->space == SC_SPACE_SHARED || t->locs[r->loc].region == SC_SPACE_SHARED;
}

/* Whether read r is in no data-race and no shared-race pair of any
 * execution whose writes are among `writes`: r is not shared, and each
 * write of another thread to its location is morally strong with it. */
static bool race_free(const sc_test *t, const access_list *writes, const sc_event *r) {
  if (r->loc < 0 || maybe_shared(t, r))
    return false;
  for (int i = 0; i < writes->n; i++) {
    const sc_event *w = &writes->ev[i];
    if (w->thread != r->thread && w->loc == r->loc &&
        !sci_exec_morally_strong_accesses(t, r, w))
      return false;
  }
  return true;
}

bool **sci_sim_race_free_reads(const sc_test *t, const sc_thread_traces *all) {
  access_list writes = distinct_accesses(t, all, SC_EV_WRITE);
  access_list reads = distinct_accesses(t, all, SC_EV_READ);
  bool **marks = new_marks(t);
  bool any = false;
  for (int i = 0; i < reads.n; i++) {
    const sc_event *r = &reads.ev[i];
    if (race_free(t, &writes, r))
      any = marks[r->thread][key_of(t, r->pc, r->vloc)] = true;
  }
  return any ? marks : NULL;
}

bool sci_sim_race_free_reads_hold(const sc_test *t, const sc_thread_traces *all,
                                  bool *const *marks) {
  access_list writes = distinct_accesses(t, all, SC_EV_WRITE);
  for (int th = 0; th < t->nthreads; th++)
    for (int pc = 0; pc < t->threads[th].ninstrs; pc++)
      for (int l = 0; l < t->nlocs; l++) {
        if (!marks[th][key_of(t, pc, l)])
          continue;
        sc_event r = {.kind = SC_EV_READ, .thread = th, .pc = pc,
                      .instr = &t->threads[th].code[pc], .loc = sci_physical_loc(t, l),
                      .vloc = l};
        if (!race_free(t, &writes, &r))
          return false;
      }
  return true;
}

bool sci_sim_twin_cut_same(const sc_test *t, const sc_thread_traces *all,
                           bool *const *marks) {
  for (int th = 0; th < t->nthreads; th++) {
    if (all[th].twin_refused)
      return false;
    if (!all[th].twinless)
      continue;
    size_t n = key_of(t, t->threads[th].ninstrs, 0);
    for (size_t k = 0; k < n; k++)
      if (all[th].twinless[k] && !(marks && marks[th][k]))
        return false;
  }
  return true;
}
