// 64-bit integer instructions and mixed-width conversions.
#include "conf.h"

#define SETP(c, ty) "{.reg .pred p; setp." c "." ty " p, %1, %2; selp.u64 %0, 1, 0, p;}"
#define TO64(op) "{.reg .b32 t; " op " t, %1; cvt.u64.u32 %0, t;}"

#define I64_OPS(X) \
  X("mov.b64 %0, %1;") X("mov.b64 %0, %2;") X("mov.b64 %0, %3;") \
  X("add.u64 %0, %1, %2;") X("sub.s64 %0, %1, %2;") X("add.s64 %0, %1, -1;") \
  X("{.reg .b64 t; add.cc.u64 t, %1, %2; addc.u64 %0, %3, 0;}") \
  X("{.reg .b64 t; sub.cc.u64 t, %1, %2; subc.u64 %0, %3, 0;}") \
  X("mul.lo.u64 %0, %1, %2;") X("mul.hi.u64 %0, %1, %2;") X("mul.hi.s64 %0, %1, %2;") \
  X("mad.lo.u64 %0, %1, %2, %3;") X("mad.hi.s64 %0, %1, %2, %3;") X("mad.hi.u64 %0, %1, %2, %3;") \
  X("div.u64 %0, %1, %2;") X("div.s64 %0, %1, %2;") X("rem.u64 %0, %1, %2;") X("rem.s64 %0, %1, %2;") \
  X("min.s64 %0, %1, %2;") X("min.u64 %0, %1, %2;") X("max.s64 %0, %1, %2;") X("max.u64 %0, %1, %2;") \
  X("abs.s64 %0, %1;") X("neg.s64 %0, %1;") X("not.b64 %0, %1;") X("cnot.b64 %0, %1;") \
  X("and.b64 %0, %1, %2;") X("or.b64 %0, %1, %2;") X("xor.b64 %0, %1, %2;") \
  X(TO64("popc.b64")) X(TO64("clz.b64")) X("brev.b64 %0, %1;") \
  X(TO64("bfind.u64")) X(TO64("bfind.s64")) X(TO64("bfind.shiftamt.u64")) \
  X("{.reg .b32 p, l; cvt.u32.u64 p, %2; cvt.u32.u64 l, %3; and.b32 p, p, 63; and.b32 l, l, 63; bfe.u64 %0, %1, p, l;}") \
  X("{.reg .b32 p, l; cvt.u32.u64 p, %2; cvt.u32.u64 l, %3; and.b32 p, p, 63; and.b32 l, l, 63; bfe.s64 %0, %1, p, l;}") \
  X("{.reg .b32 p, l; cvt.u32.u64 p, %3; shr.b32 l, p, 8; and.b32 p, p, 63; and.b32 l, l, 63; bfi.b64 %0, %1, %2, p, l;}") \
  X("{.reg .b32 s; cvt.u32.u64 s, %2; and.b32 s, s, 127; shl.b64 %0, %1, s;}") \
  X("{.reg .b32 s; cvt.u32.u64 s, %2; and.b32 s, s, 127; shr.u64 %0, %1, s;}") \
  X("{.reg .b32 s; cvt.u32.u64 s, %2; and.b32 s, s, 127; shr.s64 %0, %1, s;}") \
  X("{.reg .b32 lo, hi; mov.b64 {lo, hi}, %1; mov.b64 %0, {hi, lo};}") \
  X("{.reg .b16 a, b, c, d; mov.b64 {a, b, c, d}, %1; mov.b64 %0, {d, a, c, b};}") \
  X("{.reg .b32 lo, hi; mov.b64 {lo, hi}, %1; mul.wide.u32 %0, lo, hi;}") \
  X("{.reg .b32 lo, hi; mov.b64 {lo, hi}, %1; mul.wide.s32 %0, lo, hi;}") \
  X("{.reg .b32 lo, hi; mov.b64 {lo, hi}, %1; mad.wide.u32 %0, lo, hi, %2;}") \
  X("{.reg .b32 lo, hi; mov.b64 {lo, hi}, %1; mad.wide.s32 %0, lo, hi, %2;}") \
  X(TO64("cvt.sat.s32.s64")) X(TO64("cvt.sat.u32.s64")) X(TO64("cvt.s32.s64")) X(TO64("cvt.sat.u32.u64")) \
  X("cvt.s64.s32 %0, %1;") X("cvt.u64.u32 %0, %1;") X("cvt.s64.s16 %0, %1;") X("cvt.s64.s8 %0, %1;") \
  X("cvt.sat.s8.s64 %0, %1;") \
  X("cvt.rn.f64.s64 %0, %1;") X("cvt.rz.f64.u64 %0, %1;") X("cvt.rm.f64.s64 %0, %1;") X("cvt.rp.f64.u64 %0, %1;") \
  X("cvt.rn.f64.s32 %0, %1;") \
  X(TO64("cvt.rn.f32.s64")) X(TO64("cvt.rz.f32.u64")) X(TO64("cvt.rm.f32.s64")) X(TO64("cvt.rp.f32.u64")) \
  X(SETP("lt", "s64")) X(SETP("lo", "u64")) X(SETP("ge", "u64")) X(SETP("ne", "b64")) X(SETP("le", "s64")) \
  X("{.reg .b32 s; cvt.u32.u64 s, %3; slct.u64.s32 %0, %1, %2, s;}")

#define OP_L(s) { uint64_t o; asm volatile(s : "=l"(o) : "l"(a), "l"(b), "l"(c)); out[(i++) * N + t] = o; }

__global__ void k_int64(uint64_t* out) {
  uint32_t t = threadIdx.x, i = 0;
  uint64_t a = gen_i64(t, 0), b = gen_i64(t, 1), c = gen_i64(t, 2);
  I64_OPS(OP_L)
}

static const char* const texts[] = {I64_OPS(TEXT)};

int main() {
  dump("k_int64", k_int64, 0 I64_OPS(COUNT), texts);
  return 0;
}
