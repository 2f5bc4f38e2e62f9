/* version.c: the library's version (the header's SC_VERSION_STRING, as
 * the library was built: a client built against another header can tell). */
#include "scopecat.h"

const char *sc_version(void) { return SC_VERSION_STRING; }
