/* prelude.c: the cat text every model runs after the base environment
 * and before its own first line, as herd runs its stdlib.cat.  It holds the
 * definitions herd gives every model (its stdlib, and the relations herd
 * derives itself, such as fre and coe) written against the base names a
 * caller binds (po, loc, rf, co, fr, ext, int...).
 *
 * Its lets are defaults: one is skipped when the caller's environment binds
 * that name, and since lets are lazy, one whose base names are missing only
 * fails if the model uses it.  Nothing else belongs here. */
#include "cat/ast.h"

const char sc_cat_prelude_text[] =
    "(* The identity, the empty set of events *)\n"
    "let id = [_]\n"
    "let emptyset = domain(0)\n"
    "\n"
    "(* Relations herd derives from its base relations *)\n"
    "let po-loc = po & loc\n"
    "let rfe = rf & ext\n"
    "let rfi = rf & int\n"
    "let coe = co & ext\n"
    "let coi = co & int\n"
    "let fre = fr & ext\n"
    "let fri = fr & int\n"
    "let co0 = loc & ((IW * (W \\ IW)) | ((W \\ FW) * FW))\n"
    "let lxsx = rmw \\ amo\n"
    "(* herd's pco under its default -optace: the init write first and the\n"
    "   final write last, per location (cos-ok-opt.cat reads it) *)\n"
    "let pco = co0\n"
    "(* No implicit accesses (page tables, instruction fetch) are modelled:\n"
    "   every event is explicit *)\n"
    "let Exp = _\n"
    "let NExp = emptyset\n"
    "\n"
    "(* herd's stdlib functions *)\n"
    "let toid(s) = [s]\n"
    "let fencerel(B) = (po & (_ * B)) ; po\n"
    "let ctrlcfence(CFENCE) = (ctrl & (_ * CFENCE)) ; po\n"
    "let imply(A, B) = ~A | B\n"
    "let nodetour(R1, R2, R3) = R1 \\ (R2 ; R3)\n"
    "let singlestep(R) = nodetour(R, R, R)\n"
    "let partition = classes-loc\n"
    "let tag2instrs = tag2events\n"
    "\n"
    "procedure subseteq(A, B) =\n"
    "  empty A \\ B\n"
    "end\n"
    "procedure inclusion(r1, r2) =\n"
    "  empty r1 \\ r2\n"
    "end\n"
    "procedure total(r, E) =\n"
    "  let rt = r | r^-1\n"
    "  call inclusion(E * E, rt)\n"
    "end\n"
    "\n"
    "(* Apply f to every member of a set *)\n"
    "let map f =\n"
    "  let rec do_map S = match S with\n"
    "  || {} -> {}\n"
    "  || e ++ S -> f e ++ do_map S\n"
    "  end in\n"
    "  do_map\n"
    "\n"
    "let LKW = try LKW with emptyset\n";
