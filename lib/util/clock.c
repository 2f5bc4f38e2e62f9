/* clock.c: the library's one clock, monotonic seconds, for timings
 * (herd7's Time line, progress rates) and deadlines (-timeout). */
#define _POSIX_C_SOURCE 200809L
#include "scopecat.h"

#include <time.h>

double sc_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
