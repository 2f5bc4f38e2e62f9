/* md5.h: MD5 (RFC 1321) of a byte string, as 32 hex digits.  Only for the
 * Hash= line of herd logs, which tells two runs of one test apart from
 * runs of another; not for anything that needs a secure hash. */
#ifndef SC_MD5_H
#define SC_MD5_H

#include <stddef.h>

/* `hex` receives 33 bytes: 32 lowercase hex digits and a NUL. */
void sci_md5_hex(const void *data, size_t len, char hex[33]);

#endif
