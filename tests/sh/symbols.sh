#!/bin/sh
# symbols.sh: the library's names.  The shared library exports exactly the
# functions that include/scopecat.h declares, all with the sc_ prefix, and
# nothing else.  The static library, which puts every global symbol of its
# objects into a client's namespace, defines only those public sc_ names and
# internal ones with the prefix sci_, which no client uses by accident: a
# reader tells public from internal at a call site by the prefix alone.
set -u
srcdir=${SC_SRCDIR:-.}
builddir=${SC_BUILDDIR:-.}
so=$(ls "$builddir"/lib/.libs/libscopecat.so.[0-9]* 2>/dev/null | head -n 1)
ar=$builddir/lib/.libs/libscopecat.a
if [ -z "$so" ] && [ ! -f "$ar" ]; then
  echo "no library built: skipped"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
grep -v '^ *[/*]' "$srcdir/include/scopecat.h" | grep -o '\bsc_[a-z0-9_]*(' |
  tr -d '(' | LC_ALL=C sort -u >"$tmp/declared"
passed=0 failed=0
# the header's list is not trivially small (it is the whole API)
n=$(wc -l <"$tmp/declared")
if [ "$n" -ge 30 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: only $n declared functions found"; fi

if [ -n "$so" ]; then
  nm -D --defined-only "$so" | awk '$2 ~ /^[TDBRV]$/ { print $3 }' |
    LC_ALL=C sort -u >"$tmp/exported"
  if cmp -s "$tmp/declared" "$tmp/exported"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: exported symbols differ from the header's declarations:"
    diff "$tmp/declared" "$tmp/exported"
  fi
  if grep -qv '^sc_' "$tmp/exported"; then
    failed=$((failed + 1)); echo "FAIL: an exported symbol lacks the sc_ prefix"
  else
    passed=$((passed + 1))
  fi
fi

if [ -f "$ar" ]; then
  # every global symbol the archive defines (functions, data, common)
  # (names with two leading underscores are the toolchain's, reserved to
  # it: ASan's __odr_asan.NAME beside each global, for one)
  nm -g --defined-only "$ar" 2>/dev/null | awk 'NF == 3 && $3 !~ /^__/ { print $3 }' |
    LC_ALL=C sort -u >"$tmp/defined"
  # public: declared by the header; internal: sci_; anything else could
  # collide with a client's own names
  grep -v '^sci_' "$tmp/defined" | LC_ALL=C comm -23 - "$tmp/declared" >"$tmp/stray"
  if [ -s "$tmp/stray" ]; then
    failed=$((failed + 1))
    echo "FAIL: the static library defines names that are neither public (scopecat.h) nor sci_:"
    head -n 20 "$tmp/stray"
  else
    passed=$((passed + 1))
  fi
  # and no internal name takes the public prefix
  if grep '^sc_' "$tmp/defined" | LC_ALL=C comm -23 - "$tmp/declared" | grep -q .; then
    failed=$((failed + 1))
    echo "FAIL: internal functions with the public prefix sc_:"
    grep '^sc_' "$tmp/defined" | LC_ALL=C comm -23 - "$tmp/declared" | head -n 20
  else
    passed=$((passed + 1))
  fi
  # the check can fail: a planted stray name is caught
  printf 'my_helper\nsc_zzz_not_declared\n' >"$tmp/planted"
  if grep -v '^sci_' "$tmp/planted" | LC_ALL=C comm -23 - "$tmp/declared" | grep -q my_helper; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1)); echo "FAIL: a planted stray name was not caught"
  fi
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
