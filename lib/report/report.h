/* report.h: the printers of a simulation's result, behind the public
 * face of report/result.c: herd7's block (herd_log.c) and JSON (json.c). */
#ifndef SC_REPORT_H
#define SC_REPORT_H

#include "sim/result.h"
#include "util/strbuf.h"

/* herd7's block for one test; one final state as herd7 prints it in
 * States ("0:r1=0; x=1;"). */
const char *sci_herd_log(const sc_result *r, unsigned flags);
void sci_herd_state(sc_strbuf *sb, const sc_result *r, const sc_state *s);
/* "Unroll NAME the -unroll bound cut N runs of threads ...: MEANING\n" when
 * the bound cut runs of r's test, else "". */
const char *sci_unroll_note(const sc_result *r, const char *meaning);
/* A -liveness result's Unroll line: a Pass the bound cut holds up to it;
 * an answer reached at a deeper bound says at which ("" when neither). */
const char *sci_live_unroll_note(const sc_result *r);

/* One JSON object for the result, on one line (json.c). */
const char *sci_json_result(const sc_result *r, unsigned flags);

#endif
