#!/bin/sh
# docs.sh: the manual pages document every public function (scopecat.3)
# and every option of the command line (scopecat.1).
set -u
srcdir=${SC_SRCDIR:-.}
scopecat=${SC_SCOPECAT:-./tools/scopecat}
passed=0 failed=0
for fn in $(grep -v '^ *[/*]' "$srcdir/include/scopecat.h" | grep -o '\bsc_[a-z0-9_]*(' | tr -d '(' | sort -u); do
  if grep -q "$fn(" "$srcdir/include/scopecat.3"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1)); echo "FAIL: scopecat.3 does not document $fn"
  fi
done
# options as `scopecat sim -help` lists them
for opt in $("$scopecat" sim -help | grep -o '^  -[a-z-]*' | tr -d ' '); do
  man_opt=$(printf '%s' "$opt" | sed 's/-/\\\\-/g')
  if grep -q -- "^\.B[I]* $man_opt\b" "$srcdir/tools/scopecat.1"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1)); echo "FAIL: scopecat.1 does not document $opt"
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
