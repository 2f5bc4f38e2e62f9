#!/bin/sh
# install.sh: `make install` puts the header, library, pkg-config file,
# models and manual pages in place, and a program built against the
# installed copy with pkg-config alone (examples/allowed.c) runs.
. "${SC_SRCDIR:-.}/tests/sh/lib.sh"

if ${MAKE:-make} -C "$builddir" install DESTDIR="$tmp/root" >"$tmp/log" 2>&1; then ok; else
  fail "make install"; tail -20 "$tmp/log"; finish; exit 1
fi
pc=$(find "$tmp/root" -name scopecat.pc | head -n 1)
for f in include/scopecat.h share/scopecat/cat/ptx-rmo.cat share/man/man1/scopecat.1 \
         share/man/man3/scopecat.3 bin/scopecat; do
  if [ -n "$(find "$tmp/root" -path "*/$f")" ]; then ok; else fail "not installed: $f"; fi
done
if [ -z "$pc" ]; then
  fail "scopecat.pc not installed"
else
  # --define-prefix: the prefix is where the .pc file was installed; with
  # no shared library installed (--disable-shared) the static one needs
  # scopecat.pc's Libs.private too (libgc, PCRE2): --static
  static=
  [ -n "$(find "$tmp/root" -name 'libscopecat.so*')" ] || static=--static
  flags=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --define-prefix $static --cflags --libs scopecat)
  libdir=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --define-prefix --variable=libdir scopecat)
  # the build's compiler and flags (a sanitizer build's runtime must come first)
  if ${SC_CC:-cc} ${SC_CFLAGS:-} "$srcdir/examples/allowed.c" $flags ${SC_LDFLAGS:-} \
       -o "$tmp/allowed" 2>"$tmp/cc"; then ok; else
    fail "cannot build examples/allowed.c with pkg-config: $flags"; cat "$tmp/cc"
  fi
  model=$(find "$tmp/root" -name ptx-rmo.cat | head -n 1)
  if LD_LIBRARY_PATH="$libdir" "$tmp/allowed" "$srcdir/ptx/seeds/sb.litmus" "$model" \
       '0:r2=0 /\ 1:r2=0' >"$tmp/out" 2>&1 && grep -q "^yes: " "$tmp/out"; then
    ok
  else
    fail "the installed allowed does not run"; cat "$tmp/out"
  fi
fi
# gen's default edges are installed, and the installed scopecat finds
# them there (beside it: this install is staged in DESTDIR)
instlib=$(dirname "$(find "$tmp/root" -name 'libscopecat.so*' | head -n 1)")
bin=$(find "$tmp/root" -path '*/bin/scopecat' | head -n 1)
fam=$(find "$tmp/root" -path '*/scopecat/families/asplos15.edges' | head -n 1)
fam=$(cd "$(dirname "${fam:-/nonexistent/x}")" 2>/dev/null && pwd -P)
if [ -n "$fam" ] && [ -f "$fam/modern.edges" ]; then ok; else fail "gen's edges not installed"; fi
if LD_LIBRARY_PATH="$instlib" "$bin" gen -help >"$tmp/out" 2>&1 && grep -qF "$fam)" "$tmp/out"
then ok; else fail "the installed scopecat does not take gen's edges from $fam"; cat "$tmp/out"; fi
if LD_LIBRARY_PATH="$instlib" "$bin" gen -size 4 -o "$tmp/gen" 2>"$tmp/err" &&
   "$builddir/tools/scopecat" gen -size 4 -edges "$srcdir/ptx/families/asplos15.edges" \
     -o "$tmp/gen-src" 2>>"$tmp/err" && diff -r "$tmp/gen" "$tmp/gen-src" >/dev/null
then ok; else fail "the installed gen -size 4 is not asplos15.edges"; cat "$tmp/err"; fi

# GNU's conventions let `make install prefix=DIR` override configure's
# prefix: the installed scopecat.pc names DIR, and uninstall removes it.
other=$tmp/other-prefix
if ${MAKE:-make} -C "$builddir" install prefix="$other" >"$tmp/log" 2>&1; then ok; else
  fail "make install prefix=$other"; tail -20 "$tmp/log"
fi
if grep -qx "prefix=$other" "$other/lib/pkgconfig/scopecat.pc" 2>/dev/null &&
   [ "$(PKG_CONFIG_PATH="$other/lib/pkgconfig" pkg-config --variable=includedir scopecat)" = "$other/include" ]
then ok; else fail "scopecat.pc does not name the install-time prefix"; cat "$other/lib/pkgconfig/scopecat.pc"; fi
${MAKE:-make} -C "$builddir" uninstall prefix="$other" >"$tmp/log" 2>&1
if [ ! -e "$other/lib/pkgconfig/scopecat.pc" ]; then ok; else fail "uninstall left scopecat.pc"; fi
finish
