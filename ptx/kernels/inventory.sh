#!/bin/sh
# Lists the PTX instructions and directives the corpus's .ptx files use, counted over all of
# them (sorted by name): what the PTX front end must read.  PROVENANCE.md holds its output;
# run it again after make-ptx.sh and update that table.
set -eu
cd "$(dirname "$0")"
cat ./*.ptx | sed -e 's|//.*||' | awk '
/^[ \t]*$/ { next }
{ line = $0; sub(/^[ \t]+/, "", line) }
line ~ /^\$L__info_string[0-9]+:$/ { print "label $L__info_stringN: (in .section .debug_str)"; next }
line ~ /^\$L__BB[0-9_]+:$/ { print "label $L__BBn_m:"; next }
line ~ /^[{}()]$/ { print "punctuation " line; next }
line ~ /^\./ { split(line, w, /[ \t]+/); print "directive " w[1]; next }
line ~ /^@!/ { split(line, w, /[ \t]+/); print "instruction @!%p " w[2]; next }
line ~ /^@/ { split(line, w, /[ \t]+/); print "instruction @%p " w[2]; next }
{ split(line, w, /[ \t]+/); sub(/;$/, "", w[1]); print "instruction " w[1] }
' | sort | uniq -c | awk '{ n = $1; $1 = ""; printf "| %s | %d |\n", substr($0, 2), n }'
