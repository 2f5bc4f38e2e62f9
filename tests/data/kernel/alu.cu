// Every integer instruction of the kernel front end, each as inline PTX
// over inputs read from memory (so that nvcc folds nothing):
// in = {-7, 3, 100, 2147483647, 511}; results worked out by hand in
// tests/unit/check_kernel.c.
__global__ void alu(int *in, int *out, long long *wide) {
  int a = in[0], b = in[1], c = in[2], big = in[3], byte = in[4];
  int r;
  long long w;
#define OP2(i, op, x, y) asm volatile(op " %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y)); out[i] = r;
#define OP1(i, op, x) asm volatile(op " %0, %1;" : "=r"(r) : "r"(x)); out[i] = r;
  OP2(0, "mul.lo.s32", a, b)
  asm volatile("mad.lo.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); out[1] = r;
  OP2(2, "shl.b32", a, b)
  OP2(3, "shr.s32", a, b)
  OP2(4, "shr.u32", a, b)
  OP2(5, "and.b32", a, c)
  OP2(6, "or.b32", a, b)
  OP2(7, "xor.b32", a, c)
  OP1(8, "not.b32", a)
  OP1(9, "neg.s32", a)
  OP2(10, "min.s32", a, b)
  OP2(11, "max.s32", a, b)
  OP2(12, "min.u32", a, b)
  OP2(13, "max.u32", a, b)
  asm volatile("{ .reg .pred p; setp.lt.s32 p, %1, %2; selp.b32 %0, %3, %2, p; }"
               : "=r"(r) : "r"(a), "r"(b), "r"(c)); out[14] = r;
  asm volatile("{ .reg .pred p; setp.lt.u32 p, %1, %2; selp.b32 %0, 1, 0, p; }"
               : "=r"(r) : "r"(a), "r"(b)); out[15] = r;
  OP2(16, "add.s32", big, 1)
  OP2(17, "sub.s32", a, c)
  OP1(18, "cvt.s32.s8", byte)
  asm volatile("{ .reg .pred p; setp.hi.u32 p, %1, %2; selp.b32 %0, 1, 0, p; }"
               : "=r"(r) : "r"(a), "r"(b)); out[19] = r;
  asm volatile("mul.wide.s32 %0, %1, %2;" : "=l"(w) : "r"(a), "r"(c)); wide[0] = w;
  asm volatile("mul.wide.u32 %0, %1, %2;" : "=l"(w) : "r"(a), "r"(b)); wide[1] = w;
}
