#!/bin/sh
# hygiene.sh: the library reports, the caller decides.  No function of lib/
# ends the process (exit, abort, assert) or prints (printf, puts, perror,
# or anything written to stdout or stderr): failures come back as an
# sc_status and an sc_error.  Checked twice: in the sources, and in what
# the built library imports (which catches macros and inlined helpers).
. "${SC_SRCDIR:-.}/tests/sh/lib.sh"

# the sources, comments aside (a line that starts with / or *)
calls=$(grep -nE '\b(exit|_Exit|_exit|abort|quick_exit|assert|printf|vprintf|puts|putchar|perror)[[:space:]]*\(|\b(stdout|stderr)\b' \
          "$srcdir"/lib/*/*.c "$srcdir"/lib/*/*.h | grep -vE '^[^:]*:[0-9]+:[[:space:]]*(/\*|\*)')
if [ -z "$calls" ]; then ok; else fail "lib/ exits or prints:"; echo "$calls"; fi
# the check above read the library's sources (not an empty list)
n=$(ls "$srcdir"/lib/*/*.c | wc -l)
if [ "$n" -ge 40 ]; then ok; else fail "only $n sources under $srcdir/lib/*/"; fi

# the built library: its undefined symbols (the shared one, else the archive)
lib=
for f in "$builddir/lib/.libs/libscopecat.so" "$builddir/lib/.libs/libscopecat.a"; do
  [ -f "$f" ] && { lib=$f; break; }
done
if [ -z "$lib" ] || ! command -v nm >/dev/null 2>&1; then
  echo "hygiene.sh: no built library or no nm: skipping the symbol check"
else
  nm -u "$lib" 2>/dev/null | awk '{ sub(/@.*/, "", $NF); print $NF }' | sort -u >"$tmp/imports"
  # the list must be real: the library does import its allocator
  has "$tmp/imports" "GC_malloc"
  bad=$(grep -xE 'exit|_exit|_Exit|abort|quick_exit|__assert_fail|printf|vprintf|puts|putchar|perror|stdout|stderr|_IO_putc|__printf_chk|__vprintf_chk' "$tmp/imports")
  if [ -z "$bad" ]; then ok; else fail "$lib imports: $bad"; fi
fi
finish
