#!/bin/bash
# tools/main-job.sh: the project's main job on the bundled default data.
# For now: parse every litmus test under ptx/ and print a one-line summary each.
# (Later issues make it print model verdicts instead.)
# Run ./tools/setup.sh first; it builds tools/scopecat.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)

if [[ ! -x $here/scopecat ]]; then
    echo "main-job: $here/scopecat is not built; run ./tools/setup.sh first" >&2
    exit 1
fi
exec "$here/scopecat" parse -summary "$top/ptx"
