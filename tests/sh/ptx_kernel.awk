# ptx_kernel.awk: wrap the code of a canonical GPU_PTX litmus test (as
# `scopecat parse` prints it) in a minimal PTX module, one kernel per
# thread, so that `ptxas -arch=sm_90` can check that it assembles.  Used
# by tests/sh/gen.sh; locations become module-scope variables of their region.
BEGIN { FS = "|" }
/^[a-z][a-zA-Z0-9_]*=/ && !done_init { sub(/=.*/, ""); locs[++nlocs] = $0; next }
/^[0-9]+:\.reg / {
  split($0, a, ":"); t = a[1]; d = substr($0, length(t) + 2)
  sub(/;$/, "", d)
  if (d ~ / = /) { split(d, b, " = "); n = split(b[1], w, " "); init[t] = init[t] "cvta.REGION_" b[2] ".u64 " w[n] ", " b[2] ";\n"; d = b[1] }
  decls[t] = decls[t] d ";\n"; next
}
/^}/ { done_init = 1; next }
/^ P[0-9]/ && !nthreads { nthreads = NF; inprog = 1; next }
inprog && /;$/ {
  for (i = 1; i <= NF; i++) {
    c = $i; sub(/;$/, "", c); gsub(/^ +| +$/, "", c)
    if (c != "") code[i - 1] = code[i - 1] c ";\n"
  }
  next
}
inprog { inprog = 0 }
/: (global|shared)/ {
  n = split($0, m, /, */)
  for (i = 1; i <= n; i++) { split(m[i], kv, ": "); region[kv[1]] = kv[2] }
}
END {
  print ".version 7.8\n.target sm_90\n.address_size 64"
  for (i = 1; i <= nlocs; i++) {
    r = region[locs[i]] == "shared" ? "shared" : "global"
    printf ".%s .align 4 .s32 %s;\n", r, locs[i]
  }
  for (t = 0; t < nthreads; t++) {
    s = init[t]
    for (i = 1; i <= nlocs; i++) {
      r = region[locs[i]] == "shared" ? "shared" : "global"
      gsub("REGION_" locs[i] " ", r " ", s)
      gsub("REGION_" locs[i] "[.]", r ".", s)
    }
    printf ".visible .entry P%d()\n{\n%s%s%sret;\n}\n", t, decls[t], s, code[t]
  }
}
