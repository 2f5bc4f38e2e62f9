#!/usr/bin/env python3
"""mkshapes.py: the classic shapes for `scopecat gpu run` (ptx/results/H100):
MP SB LB 2+2W R S IRIW WRC CoRR CoWW, across CTAs (one thread per CTA) and
within one CTA (one thread per warp), with .relaxed.gpu accesses and no
fence or fence.sc at each scope (cta, gpu, sys).  Run it in this folder."""

# shape: (threads, condition); a thread is a list of ("st", loc, val) or
# ("ld", reg, loc) with "F" where the fence goes
SHAPES = {
    "MP": ([[("st", "x", 1), "F", ("st", "y", 1)],
            [("ld", "r0", "y"), "F", ("ld", "r1", "x")]],
           "1:r0=1 /\\ 1:r1=0"),
    "SB": ([[("st", "x", 1), "F", ("ld", "r0", "y")],
            [("st", "y", 1), "F", ("ld", "r0", "x")]],
           "0:r0=0 /\\ 1:r0=0"),
    "LB": ([[("ld", "r0", "x"), "F", ("st", "y", 1)],
            [("ld", "r0", "y"), "F", ("st", "x", 1)]],
           "0:r0=1 /\\ 1:r0=1"),
    "2+2W": ([[("st", "x", 1), "F", ("st", "y", 2)],
              [("st", "y", 1), "F", ("st", "x", 2)]],
             "x=1 /\\ y=1"),
    "R": ([[("st", "x", 1), "F", ("st", "y", 1)],
           [("st", "y", 2), "F", ("ld", "r0", "x")]],
          "y=2 /\\ 1:r0=0"),
    "S": ([[("st", "x", 2), "F", ("st", "y", 1)],
           [("ld", "r0", "y"), "F", ("st", "x", 1)]],
          "x=2 /\\ 1:r0=1"),
    "IRIW": ([[("st", "x", 1)],
              [("ld", "r0", "x"), "F", ("ld", "r1", "y")],
              [("st", "y", 1)],
              [("ld", "r0", "y"), "F", ("ld", "r1", "x")]],
             "1:r0=1 /\\ 1:r1=0 /\\ 3:r0=1 /\\ 3:r1=0"),
    "WRC": ([[("st", "x", 1)],
             [("ld", "r0", "x"), "F", ("st", "y", 1)],
             [("ld", "r0", "y"), "F", ("ld", "r1", "x")]],
            "1:r0=1 /\\ 2:r0=1 /\\ 2:r1=0"),
    "CoRR": ([[("st", "x", 1)],
              [("ld", "r0", "x"), "F", ("ld", "r1", "x")]],
             "1:r0=1 /\\ 1:r1=0"),
    "CoWW": ([[("st", "x", 1), "F", ("st", "x", 2)]], "x=1"),
}
FENCES = [None, "cta", "gpu", "sys"]


def test(shape, place, fence):
    threads, cond = SHAPES[shape]
    n = len(threads)
    name = shape + ("+fence.sc." + fence if fence else "") + \
        ("" if n == 1 else "-inter" if place == "cta" else "-intra")
    locs = sorted({i[1] if i[0] == "st" else i[2]
                   for th in threads for i in th if i != "F"})
    decl, cols = [], []
    for t, th in enumerate(threads):
        regs = sorted({i[1] for i in th if i != "F" and i[0] == "ld"})
        for r in regs:
            decl.append("%d:.reg .s32 %s;" % (t, r))
        decl.append("%d:.reg .s32 v;" % t)
        for l in locs:
            decl.append("%d:.reg .b64 a%s = %s;" % (t, l, l))
        code = []
        for i in th:
            if i == "F":
                if fence:
                    code.append("fence.sc." + fence)
            elif i[0] == "st":
                code.append("mov.s32 v,%d" % i[2])
                code.append("st.relaxed.gpu.s32 [a%s],v" % i[1])
            else:
                code.append("ld.relaxed.gpu.s32 %s,[a%s]" % (i[1], i[2]))
        cols.append(["P%d" % t] + code)
    rows = max(len(c) for c in cols)
    widths = [max(len(x) for x in c) for c in cols]
    out = ["GPU_PTX " + name,
           '"%s, %s, .relaxed.gpu accesses%s (scopecat gpu shapes)"' % (
               shape, "one thread per CTA" if place == "cta" else
               "one CTA, one thread per warp",
               ", fence.sc." + fence if fence else ", no fence"),
           "{"] + ["%s=0;" % l for l in locs] + decl + ["}"]
    for r in range(rows):
        cells = [(c[r] if r < len(c) else "").ljust(w)
                 for c, w in zip(cols, widths)]
        out.append(" " + " | ".join(cells) + " ;")
    out.append("")
    out.append("scopeTree")
    if place == "cta" or n == 1:
        tree = " ".join("(cta (warp P%d))" % t for t in range(n))
    else:
        tree = "(cta " + " ".join("(warp P%d)" % t for t in range(n)) + ")"
    out.append("(device (kernel %s))" % tree)
    out.append("")
    out.append(", ".join("%s: global" % l for l in locs))
    out.append("")
    out.append("exists (%s)" % cond)
    return name, "\n".join(out) + "\n"


for shape in SHAPES:
    for place in (["cta"] if shape == "CoWW" else ["cta", "warp"]):
        for fence in FENCES:
            name, text = test(shape, place, fence)
            with open(name + ".litmus", "w") as f:
                f.write(text)
