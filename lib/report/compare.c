/* compare.c: hardware histograms against the verdicts of models.  Logs of
 * one test merge (counts kept per source); a model's verdict on a test is
 * the set of final states it allows; an observed outcome is forbidden when
 * no allowed state agrees with it (see allows() for what "agrees" means).
 * The reports live in compare_text.c and compare_html.c. */
#include "report/compare.h"

#include "util/gcmem.h"
#include "report/hist.h"
#include "sim/result.h"

#include <limits.h>
#include <string.h>

sc_compare *sc_compare_new(void) {
  sci_gc_init();
  return sci_alloc(sizeof(sc_compare));
}

/* ---- Sources and tests --------------------------------------------------- */

static int add_source(sc_compare *c, const char *label) {
  for (int i = 0; i < c->nsources; i++)
    if (strcmp(c->sources[i], label) == 0)
      return i;
  sci_grow(&c->sources, &c->capsources, c->nsources + 1, sizeof(char *));
  c->sources[c->nsources] = sci_strdup(label);
  return c->nsources++;
}

/* Logs show the same test when their tests are equal; with tests unknown,
 * when they print the same source; with no source either, by name. */
static bool same_test(const cmp_test *ct, const sc_hist *h, const sc_test *t) {
  if (ct->test || t)
    return ct->test && t && sc_test_equal(ct->test, t);
  if (ct->source || h->source)
    return ct->source && h->source && strcmp(ct->source, h->source) == 0;
  return strcmp(ct->name, h->name) == 0;
}

static int find_test(const sc_compare *c, const sc_hist *h, const sc_test *t) {
  for (int i = 0; i < c->ntests; i++)
    if (same_test(&c->tests[i], h, t))
      return i;
  return -1;
}

static int find_or_add_test(sc_compare *c, const sc_hist *h, const sc_test *t) {
  int found = find_test(c, h, t);
  if (found >= 0)
    return found;
  sci_grow(&c->tests, &c->captests, c->ntests + 1, sizeof(cmp_test));
  cmp_test *ct = &c->tests[c->ntests];
  memset(ct, 0, sizeof *ct);
  ct->name = t ? sc_test_name(t) : h->name;
  ct->test = t;
  ct->source = t ? NULL : h->source;
  const char *slash = strrchr(h->file, '/');
  ct->log = slash ? slash + 1 : h->file;
  return c->ntests++;
}

/* The outcome of `ct` with this state, added (in sorted place) if new. */
static cmp_outcome *outcome_for(cmp_test *ct, const sc_hist_row *s) {
  int i = 0;
  while (i < ct->noutcomes &&
         sci_outcome_compare(&ct->outcomes[i].outcome, &s->outcome) < 0)
    i++;
  if (i < ct->noutcomes && strcmp(ct->outcomes[i].text, s->text) == 0)
    return &ct->outcomes[i];
  sci_grow(&ct->outcomes, &ct->cap, ct->noutcomes + 1, sizeof(cmp_outcome));
  memmove(ct->outcomes + i + 1, ct->outcomes + i,
          sizeof(cmp_outcome) * (size_t)(ct->noutcomes - i));
  ct->noutcomes++;
  cmp_outcome *o = &ct->outcomes[i];
  memset(o, 0, sizeof *o);
  o->outcome = s->outcome;
  o->text = s->text;
  return o;
}

static void add_count(cmp_outcome *o, int source, long n) {
  int cap = o->ncounts;
  if (source >= o->ncounts) {
    sci_grow(&o->counts, &cap, source + 1, sizeof(long));
    memset(o->counts + o->ncounts, 0,
           sizeof(long) * (size_t)(source + 1 - o->ncounts));
    o->ncounts = source + 1;
  }
  o->counts[source] += n;
  o->total += n;
}

/* Whether adding h keeps every sum of counts within a long: the total of
 * the comparison, and the hangs of h's test. */
static bool sums_fit(const sc_compare *c, const sc_hist *h, const sc_test *t) {
  if (h->instances > LONG_MAX - c->instances)
    return false;
  int i = find_test(c, h, t);
  if (i < 0)
    return true;
  const cmp_test *ct = &c->tests[i];
  return ct->hung_launches <= LONG_MAX - h->hung_launches &&
         ct->hung_instances <= LONG_MAX - h->hung_instances;
}

int sc_compare_add_hist(sc_compare *c, const char *source, const sc_hist *h,
                        const sc_test *t) {
  if (!sums_fit(c, h, t))
    return -1;
  c->instances += h->instances;
  int src = add_source(c, source);
  int i = find_or_add_test(c, h, t);
  cmp_test *ct = &c->tests[i];
  if (!ct->condition)
    ct->condition = h->condition;
  ct->hung_launches += h->hung_launches;
  ct->hung_instances += h->hung_instances;
  if (h->hang_limit > ct->hang_limit)
    ct->hang_limit = h->hang_limit;
  for (int k = 0; k < h->nstates; k++) {
    cmp_outcome *o = outcome_for(ct, &h->states[k]);
    add_count(o, src, h->states[k].count);
    o->marked |= h->states[k].marked;
  }
  return i;
}

int sc_compare_test_count(const sc_compare *c) { return c->ntests; }
int sc_compare_source_count(const sc_compare *c) { return c->nsources; }

static bool valid_test(const sc_compare *c, int test) {
  return test >= 0 && test < c->ntests;
}

static bool valid_outcome(const sc_compare *c, int test, int i) {
  return valid_test(c, test) && i >= 0 && i < c->tests[test].noutcomes;
}

const sc_test *sc_compare_test(const sc_compare *c, int test) {
  return valid_test(c, test) ? c->tests[test].test : NULL;
}

const char *sc_compare_source(const sc_compare *c, int source) {
  return source >= 0 && source < c->nsources ? c->sources[source] : NULL;
}

const char *sc_compare_test_name(const sc_compare *c, int test) {
  if (!valid_test(c, test))
    return NULL;
  const cmp_test *ct = &c->tests[test];
  for (int i = 0; i < c->ntests; i++)
    if (i != test && strcmp(c->tests[i].name, ct->name) == 0)
      return sci_printf("%s [%s]", ct->name, ct->log);
  return ct->name;
}

int sc_compare_outcome_count(const sc_compare *c, int test) {
  return valid_test(c, test) ? c->tests[test].noutcomes : 0;
}

const char *sc_compare_outcome(const sc_compare *c, int test, int i) {
  return valid_outcome(c, test, i) ? c->tests[test].outcomes[i].text : NULL;
}

long sc_compare_outcome_instances(const sc_compare *c, int test, int i,
                                  int source) {
  if (!valid_outcome(c, test, i))
    return 0;
  const cmp_outcome *o = &c->tests[test].outcomes[i];
  if (source < 0)
    return o->total;
  return source < o->ncounts ? o->counts[source] : 0;
}

int sc_compare_outcome_marked(const sc_compare *c, int test, int i) {
  return valid_outcome(c, test, i) && c->tests[test].outcomes[i].marked;
}

/* ---- Models and their verdicts ------------------------------------------- */

int sc_compare_add_model(sc_compare *c, const char *label) {
  sci_grow(&c->models, &c->capmodels, c->nmodels + 1, sizeof(cmp_model));
  cmp_model *m = &c->models[c->nmodels];
  memset(m, 0, sizeof *m);
  m->label = sci_strdup(label);
  return c->nmodels++;
}

int sc_compare_model_count(const sc_compare *c) { return c->nmodels; }

const char *sc_compare_model(const sc_compare *c, int model) {
  return model >= 0 && model < c->nmodels ? c->models[model].label : NULL;
}

/* The verdict slot of (model, test), made when first written. */
static cmp_verdict *slot(sc_compare *c, int model, int test) {
  if (model < 0 || model >= c->nmodels || !valid_test(c, test))
    return NULL;
  cmp_model *m = &c->models[model];
  if (test >= m->nverdicts) {
    int cap = m->nverdicts;
    sci_grow(&m->verdicts, &cap, c->ntests, sizeof(cmp_verdict));
    memset(m->verdicts + m->nverdicts, 0,
           sizeof(cmp_verdict) * (size_t)(c->ntests - m->nverdicts));
    m->nverdicts = c->ntests;
  }
  return &m->verdicts[test];
}

void sc_compare_set_failure(sc_compare *c, int model, int test,
                            const char *why) {
  cmp_verdict *v = slot(c, model, test);
  if (v) {
    memset(v, 0, sizeof *v);
    v->failure = sci_strdup(why ? why : "no verdict");
  }
}

/* Keep the allowed states; false when one does not read as a state. */
static bool add_allowed(cmp_verdict *v, const char *state, int *cap,
                        int *captexts) {
  sc_outcome o;
  const char *why;
  if (!sci_outcome_parse(state, &o, &why))
    return false;
  sci_grow(&v->states, cap, v->nstates + 1, sizeof(sc_outcome));
  sci_grow(&v->texts, captexts, v->nstates + 1, sizeof(char *));
  v->states[v->nstates] = o;
  v->texts[v->nstates++] = sci_outcome_string(&o);
  return true;
}

void sc_compare_set_result(sc_compare *c, int model, int test,
                           const sc_result *r) {
  cmp_verdict *v = slot(c, model, test);
  if (!v)
    return;
  memset(v, 0, sizeof *v);
  int cap = 0, captexts = 0;
  for (int i = 0; i < sc_result_state_count(r); i++)
    if (!add_allowed(v, sc_result_state(r, i), &cap, &captexts)) {
      sc_compare_set_failure(c, model, test, "a state of the result does "
                                             "not read as VARIABLE=VALUE;");
      return;
    }
  v->known = true;
}

void sc_compare_set_progress(sc_compare *c, const char *name) {
  c->progress = name ? sci_strdup(name) : NULL;
}

const char *sc_compare_progress(const sc_compare *c) { return c->progress; }

void sc_compare_set_liveness(sc_compare *c, int model, int test, int live) {
  cmp_verdict *v = slot(c, model, test);
  if (!v || live < 0)
    return;
  v->has_liveness = true;
  v->live = live == 1;
}

static int tests_named(const sc_compare *c, const char *name) {
  int n = 0;
  for (int i = 0; i < c->ntests; i++)
    n += strcmp(c->tests[i].name, name) == 0;
  return n;
}

/* The block of a herd7 log about test i: the one with the test's Hash=,
 * else the one of its name when no other test has that name. */
static const sc_hist *verdict_block(const sc_compare *c, int i,
                                    sc_hist *const *blocks, int n,
                                    const char **why) {
  const cmp_test *ct = &c->tests[i];
  const char *hash = ct->test ? sci_test_hash(ct->test) : NULL;
  for (int k = 0; hash && k < n; k++)
    if (blocks[k]->hash && strcmp(blocks[k]->hash, hash) == 0)
      return blocks[k];
  const sc_hist *named = NULL;
  for (int k = 0; k < n && !named; k++)
    if (strcmp(blocks[k]->name, ct->name) == 0)
      named = blocks[k];
  if (!named) {
    *why = sci_printf("the verdict log has no block for test %s", ct->name);
    return NULL;
  }
  if (tests_named(c, ct->name) > 1) {
    *why = ct->test ? sci_printf("several tests are named %s, and no block of "
                                "the verdict log has the Hash= of this one",
                                ct->name)
                    : sci_printf("several tests are named %s, and this one's "
                                "litmus test, whose Hash= would tell, was not "
                                "found",
                                ct->name);
    return NULL;
  }
  return named;
}

void sc_compare_set_verdicts(sc_compare *c, int model, sc_hist *const *blocks,
                             int nblocks) {
  for (int i = 0; i < c->ntests; i++) {
    const char *why = NULL;
    const sc_hist *h = verdict_block(c, i, blocks, nblocks, &why);
    cmp_verdict *v = slot(c, model, i);
    if (!v)
      return;
    if (!h) {
      sc_compare_set_failure(c, model, i, why);
      continue;
    }
    memset(v, 0, sizeof *v);
    int cap = 0, captexts = 0;
    for (int k = 0; k < h->nstates; k++)
      add_allowed(v, h->states[k].text, &cap, &captexts);
    v->known = true;
    v->has_liveness = h->liveness >= 0;
    v->live = h->liveness == 1;
  }
}

const cmp_verdict *sci_compare_verdict_of(const sc_compare *c, int model,
                                         int test) {
  if (model < 0 || model >= c->nmodels || !valid_test(c, test))
    return NULL;
  const cmp_model *m = &c->models[model];
  if (test >= m->nverdicts || !m->verdicts[test].known)
    return NULL;
  return &m->verdicts[test];
}

const char *sc_compare_failure(const sc_compare *c, int model, int test) {
  if (model < 0 || model >= c->nmodels || !valid_test(c, test))
    return NULL;
  const cmp_model *m = &c->models[model];
  if (test >= m->nverdicts)
    return "no verdict";
  return m->verdicts[test].known ? NULL : m->verdicts[test].failure;
}

/* ---- Classification ------------------------------------------------------ */

/* Whether the model allows an outcome: some state it allows gives the same
 * value to every variable that both the state and the outcome show.  A
 * model shows the variables of the condition and of `locations'; a log
 * shows those its runner observed, usually the same ones.  A variable only
 * one side shows cannot be compared, so it does not count against the
 * outcome; one shown by neither is unconstrained on both sides. */
static bool allows(const cmp_verdict *v, const sc_outcome *o) {
  for (int i = 0; i < v->nstates; i++)
    if (sci_outcome_agree(&v->states[i], o))
      return true;
  return false;
}

int sc_compare_outcome_allowed(const sc_compare *c, int model, int test,
                               int i) {
  const cmp_verdict *v = sci_compare_verdict_of(c, model, test);
  if (!v || !valid_outcome(c, test, i))
    return 0;
  return allows(v, &c->tests[test].outcomes[i].outcome);
}

int sci_compare_forbidden(const sc_compare *c, int model, int test,
                         long *instances) {
  const cmp_verdict *v = sci_compare_verdict_of(c, model, test);
  int n = 0;
  long sum = 0;
  for (int i = 0; v && i < c->tests[test].noutcomes; i++) {
    const cmp_outcome *o = &c->tests[test].outcomes[i];
    if (!allows(v, &o->outcome)) {
      n++;
      sum += o->total;
    }
  }
  if (instances)
    *instances = sum;
  return n;
}

sc_verdict sc_compare_verdict(const sc_compare *c, int model, int test) {
  if (!sci_compare_verdict_of(c, model, test))
    return SC_VERDICT_NONE;
  return sci_compare_forbidden(c, model, test, NULL) ? SC_VERDICT_UNSOUND
                                                    : SC_VERDICT_SOUND;
}

/* Whether hardware showed an allowed state: some observed outcome agrees. */
static bool seen(const cmp_test *ct, const sc_outcome *state) {
  for (int i = 0; i < ct->noutcomes; i++)
    if (sci_outcome_agree(&ct->outcomes[i].outcome, state))
      return true;
  return false;
}

int sc_compare_unseen_count(const sc_compare *c, int model, int test) {
  const cmp_verdict *v = sci_compare_verdict_of(c, model, test);
  int n = 0;
  for (int i = 0; v && i < v->nstates; i++)
    n += !seen(&c->tests[test], &v->states[i]);
  return n;
}

const char *sc_compare_unseen(const sc_compare *c, int model, int test,
                              int i) {
  const cmp_verdict *v = sci_compare_verdict_of(c, model, test);
  for (int k = 0; v && k < v->nstates; k++)
    if (!seen(&c->tests[test], &v->states[k]) && i-- == 0)
      return v->texts[k];
  return NULL;
}

long sc_compare_test_hung_launches(const sc_compare *c, int test) {
  return valid_test(c, test) ? c->tests[test].hung_launches : 0;
}

long sc_compare_test_hung_instances(const sc_compare *c, int test) {
  return valid_test(c, test) ? c->tests[test].hung_instances : 0;
}

/* A hang is the hardware's answer for a test whose threads may spin for
 * ever: one sentence for the text and HTML reports. */
const char *sci_compare_hang_text(const sc_compare *c, int model, int test) {
  const cmp_test *ct = &c->tests[test];
  int live = sc_compare_liveness(c, model, test);
  return sci_printf("%ld launch%s (%ld instances) did not finish within %g s; %s",
                   ct->hung_launches, ct->hung_launches == 1 ? "" : "es",
                   ct->hung_instances, ct->hang_limit,
                   live < 0 ? "no liveness verdict of the model: an observation"
                   : live   ? "the model's liveness: Pass (every thread ends): "
                              "DISAGREES"
                            : "the model's liveness: Fail (a thread may spin "
                              "for ever): agrees");
}

int sc_compare_liveness(const sc_compare *c, int model, int test) {
  const cmp_verdict *v = sci_compare_verdict_of(c, model, test);
  return v && v->has_liveness ? v->live : -1;
}

int sc_compare_unsound_count(const sc_compare *c) {
  int n = 0;
  for (int m = 0; m < c->nmodels; m++)
    for (int t = 0; t < c->ntests; t++)
      n += sc_compare_verdict(c, m, t) == SC_VERDICT_UNSOUND;
  return n;
}

long sci_compare_test_instances(const sc_compare *c, int test, int source) {
  long n = 0;
  for (int i = 0; i < sc_compare_outcome_count(c, test); i++)
    n += sc_compare_outcome_instances(c, test, i, source);
  return n;
}
