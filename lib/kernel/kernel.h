/* kernel.h: the kernel layer's names seen outside their file (lib/kernel/:
 * a CUDA kernel's PTX and its launch made an sc_test; it never runs one).
 * launch.c: the launch header and the @Output condition. */
#ifndef SC_KERNEL_H
#define SC_KERNEL_H

#include "scopecat.h"

/* launch.c: an error at the first input of `launch` that names none of
 * the kernel's `nparams` parameters `params` (at its header position). */
sc_status sci_kernel_check_inputs(const sc_kernel_launch *launch,
                                  const char *const *params, int nparams,
                                  sc_error **err);

#endif
