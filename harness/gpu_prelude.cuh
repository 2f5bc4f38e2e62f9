// gpu_prelude.cuh: included by every program `scopecat gpu` generates,
// after the test's constants (NT, NLOC, OBS_*...) and before its threads.
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <vector>
#include <algorithm>

#include "gpu_limits.h"
#include "outcome_table.h"
#include "cta_order.h"

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), \
          __FILE__, __LINE__); exit(3); } } while (0)

// Run-time parameters (one compiled program serves every setting).
struct Params {
  int tpb;            // threads per CTA
  int test_blocks;    // CTAs that hold test instances
  int stress_blocks;  // extra CTAs that stress the scratchpad (this launch)
  int ninst;          // instances per launch
  int spacing;        // words between two testing locations
  int sync_spin;      // pre-test barrier: spin bound (0: off)
  int warmup;         // local-memory stores of each testing thread before
                      // the test (they stagger when threads start)
  int bank;           // general bank conflicts by idle lanes of test warps
  // memory stress as in Sakka et al. (000, Sec. 3): the scratchpad is
  // stress_regions patches of stress_patch words; each launch stresses the
  // first word of stress_spread distinct patches chosen at random, the
  // stressing threads spread evenly over them, each repeating the access
  // sequence stress_seq on its one location.
  int stress_iters;   // accesses per stressing thread
  int stress_patch;   // P: words per patch (the chip's critical patch size)
  int stress_regions; // M: patches in the scratchpad
  int stress_spread;  // m: patches stressed at once (at most 32)
  int stress_loc[32]; // word offsets of this launch's stressed locations
  int stress_len;     // access sequence: stress_seq[0..len) (0 ld, 1 st)
  int stress_seq[16];
  int sh_words;       // shared words per CTA (shared locations + bank pad)
};
