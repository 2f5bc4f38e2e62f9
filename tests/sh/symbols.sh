#!/bin/sh
# symbols.sh: the shared library exports exactly the functions that
# include/scopecat.h declares, all with the sc_ prefix, and nothing else.
set -u
srcdir=${SC_SRCDIR:-.}
builddir=${SC_BUILDDIR:-.}
so=$(ls "$builddir"/lib/.libs/libscopecat.so.[0-9]* 2>/dev/null | head -n 1)
if [ -z "$so" ]; then
  echo "no shared library (configured with --disable-shared): skipped"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
grep -v '^ *[/*]' "$srcdir/include/scopecat.h" | grep -o '\bsc_[a-z0-9_]*(' |
  tr -d '(' | LC_ALL=C sort -u >"$tmp/declared"
nm -D --defined-only "$so" | awk '$2 ~ /^[TDBRV]$/ { print $3 }' |
  LC_ALL=C sort -u >"$tmp/exported"
passed=0 failed=0
if cmp -s "$tmp/declared" "$tmp/exported"; then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
  echo "FAIL: exported symbols differ from the header's declarations:"
  diff "$tmp/declared" "$tmp/exported"
fi
# the header's list is not trivially small (it is the whole API)
n=$(wc -l <"$tmp/declared")
if [ "$n" -ge 30 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: only $n declared functions found"; fi
if grep -qv '^sc_' "$tmp/exported"; then
  failed=$((failed + 1)); echo "FAIL: an exported symbol lacks the sc_ prefix"
else
  passed=$((passed + 1))
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
