// 32-bit integer, bit and compare instructions.
#include "conf.h"

#define SETP(c, ty) "{.reg .pred p; setp." c "." ty " p, %1, %2; selp.u32 %0, 1, 0, p;}"

#define INT_OPS(X) \
  X("mov.b32 %0, %1;") X("mov.b32 %0, %2;") X("mov.b32 %0, %3;") \
  X("add.u32 %0, %1, %2;") X("sub.u32 %0, %1, %2;") X("add.sat.s32 %0, %1, %2;") X("sub.sat.s32 %0, %1, %2;") \
  X("add.s32 %0, %1, -7;") \
  X("{.reg .b32 t; add.cc.u32 t, %1, %2; addc.u32 %0, %3, 0;}") \
  X("{.reg .b32 t; sub.cc.u32 t, %1, %2; subc.u32 %0, %3, 0;}") \
  X("{.reg .b32 t; add.cc.u32 t, %1, %2; addc.cc.u32 t, %3, %1; addc.u32 %0, 0, 0;}") \
  X("{.reg .b32 t; sub.cc.u32 t, %1, %2; subc.cc.u32 t, %3, %1; subc.u32 %0, 0, 0;}") \
  X("mul.lo.u32 %0, %1, %2;") X("mul.hi.u32 %0, %1, %2;") X("mul.hi.s32 %0, %1, %2;") \
  X("mad.lo.u32 %0, %1, %2, %3;") X("mad.hi.u32 %0, %1, %2, %3;") X("mad.hi.s32 %0, %1, %2, %3;") \
  X("mad.hi.sat.s32 %0, %1, %2, %3;") \
  X("{.reg .b32 t; mad.lo.cc.u32 t, %1, %2, %3; madc.hi.u32 %0, %1, %2, 0;}") \
  X("{.reg .b32 t; mad.hi.cc.s32 t, %1, %2, %3; madc.lo.cc.u32 t, %2, %3, %1; addc.u32 %0, 0, 0;}") \
  X("mul24.lo.u32 %0, %1, %2;") X("mul24.hi.u32 %0, %1, %2;") X("mul24.lo.s32 %0, %1, %2;") X("mul24.hi.s32 %0, %1, %2;") \
  X("mad24.lo.u32 %0, %1, %2, %3;") X("mad24.hi.s32 %0, %1, %2, %3;") \
  X("sad.u32 %0, %1, %2, %3;") X("sad.s32 %0, %1, %2, %3;") \
  X("div.u32 %0, %1, %2;") X("div.s32 %0, %1, %2;") X("rem.u32 %0, %1, %2;") X("rem.s32 %0, %1, %2;") \
  X("abs.s32 %0, %1;") X("neg.s32 %0, %1;") \
  X("min.u32 %0, %1, %2;") X("min.s32 %0, %1, %2;") X("max.u32 %0, %1, %2;") X("max.s32 %0, %1, %2;") \
  X("max.relu.s32 %0, %1, %2;") X("min.relu.s32 %0, %1, %2;") \
  X("popc.b32 %0, %1;") X("clz.b32 %0, %1;") X("brev.b32 %0, %1;") \
  X("bfind.u32 %0, %1;") X("bfind.s32 %0, %1;") X("bfind.shiftamt.u32 %0, %1;") X("bfind.shiftamt.s32 %0, %1;") \
  X("bfe.u32 %0, %1, %2, %3;") X("bfe.s32 %0, %1, %2, %3;") \
  X("{.reg .b32 p, l; and.b32 p, %2, 31; and.b32 l, %3, 31; bfe.u32 %0, %1, p, l;}") \
  X("{.reg .b32 p, l; and.b32 p, %2, 31; and.b32 l, %3, 31; bfe.s32 %0, %1, p, l;}") \
  X("{.reg .b32 l; shr.b32 l, %3, 8; bfi.b32 %0, %1, %2, %3, l;}") \
  X("{.reg .b32 p, l; and.b32 p, %3, 31; shr.b32 l, %3, 8; and.b32 l, l, 31; bfi.b32 %0, %1, %2, p, l;}") \
  X("prmt.b32 %0, %1, %2, %3;") X("prmt.b32.f4e %0, %1, %2, %3;") X("prmt.b32.b4e %0, %1, %2, %3;") \
  X("prmt.b32.rc8 %0, %1, %2, %3;") X("prmt.b32.ecl %0, %1, %2, %3;") X("prmt.b32.ecr %0, %1, %2, %3;") \
  X("prmt.b32.rc16 %0, %1, %2, %3;") \
  X("shl.b32 %0, %1, %2;") X("shr.u32 %0, %1, %2;") X("shr.s32 %0, %1, %2;") \
  X("{.reg .b32 s; and.b32 s, %2, 63; shl.b32 %0, %1, s;}") \
  X("{.reg .b32 s; and.b32 s, %2, 63; shr.u32 %0, %1, s;}") \
  X("{.reg .b32 s; and.b32 s, %2, 63; shr.s32 %0, %1, s;}") \
  X("shf.l.wrap.b32 %0, %1, %2, %3;") X("shf.r.wrap.b32 %0, %1, %2, %3;") \
  X("shf.l.clamp.b32 %0, %1, %2, %3;") X("shf.r.clamp.b32 %0, %1, %2, %3;") \
  X("{.reg .b32 s; and.b32 s, %3, 63; shf.l.clamp.b32 %0, %1, %2, s;}") \
  X("{.reg .b32 s; and.b32 s, %3, 63; shf.r.clamp.b32 %0, %1, %2, s;}") \
  X("lop3.b32 %0, %1, %2, %3, 0x96;") X("lop3.b32 %0, %1, %2, %3, 0xe8;") X("lop3.b32 %0, %1, %2, %3, 0x1e;") \
  X("lop3.b32 %0, %1, %2, %3, 0x01;") \
  X("dp4a.u32.u32 %0, %1, %2, %3;") X("dp4a.s32.s32 %0, %1, %2, %3;") X("dp4a.s32.u32 %0, %1, %2, %3;") \
  X("dp4a.u32.s32 %0, %1, %2, %3;") X("dp2a.lo.u32.u32 %0, %1, %2, %3;") X("dp2a.hi.s32.s32 %0, %1, %2, %3;") \
  X("dp2a.lo.s32.u32 %0, %1, %2, %3;") X("dp2a.hi.u32.s32 %0, %1, %2, %3;") \
  X("and.b32 %0, %1, %2;") X("or.b32 %0, %1, %2;") X("xor.b32 %0, %1, %2;") X("not.b32 %0, %1;") X("cnot.b32 %0, %1;") \
  X(SETP("eq", "s32")) X(SETP("ne", "u32")) X(SETP("lt", "s32")) X(SETP("le", "s32")) X(SETP("gt", "s32")) \
  X(SETP("ge", "s32")) X(SETP("lt", "u32")) X(SETP("ge", "u32")) X(SETP("lo", "u32")) X(SETP("ls", "u32")) \
  X(SETP("hi", "u32")) X(SETP("hs", "u32")) X(SETP("eq", "b32")) \
  X("{.reg .pred p, q; setp.ne.s32 q, %3, 0; setp.lt.and.s32 p, %1, %2, q; selp.u32 %0, 1, 0, p;}") \
  X("{.reg .pred p, q, r; setp.ne.s32 r, %3, 0; setp.lt.or.s32 p|q, %1, %2, !r; selp.u32 %0, 1, 2, q;}") \
  X("{.reg .pred p, q, r; setp.ne.s32 r, %3, 0; setp.gt.xor.u32 p|q, %1, %2, r; selp.u32 %0, 1, 0, p; selp.u32 %0, %0, 4, q;}") \
  X("{.reg .pred p, q; setp.lt.s32 p, %1, %2; setp.lt.u32 q, %2, %3; and.pred p, p, q; selp.u32 %0, 1, 0, p;}") \
  X("{.reg .pred p, q; setp.lt.s32 p, %1, %2; setp.lt.u32 q, %2, %3; xor.pred p, p, q; not.pred p, p; selp.u32 %0, 1, 0, p;}") \
  X("set.lt.u32.s32 %0, %1, %2;") X("set.hi.s32.u32 %0, %1, %2;") X("set.eq.f32.u32 %0, %1, %2;") \
  X("{.reg .pred q; setp.ne.s32 q, %3, 0; set.ge.or.u32.s32 %0, %1, %2, q;}") \
  X("slct.u32.s32 %0, %1, %2, %3;") X("slct.s32.s32 %0, %1, %2, %3;") \
  X("cvt.u8.u32 %0, %1;") X("cvt.s8.s32 %0, %1;") X("cvt.sat.s8.s32 %0, %1;") X("cvt.sat.u8.s32 %0, %1;") \
  X("cvt.sat.u16.u32 %0, %1;") X("cvt.sat.s16.s32 %0, %1;") X("cvt.s16.s32 %0, %1;") X("cvt.sat.s16.u32 %0, %1;") \
  X("cvt.sat.u32.s32 %0, %1;") X("cvt.sat.s32.u32 %0, %1;") X("cvt.s32.s8 %0, %1;") X("cvt.u32.s16 %0, %1;") \
  X("cvt.sat.u8.s8 %0, %1;") X("cvt.s32.u16 %0, %1;") \
  X("cvt.rn.f32.s32 %0, %1;") X("cvt.rz.f32.s32 %0, %1;") X("cvt.rm.f32.u32 %0, %1;") X("cvt.rp.f32.u32 %0, %1;") \
  X("cvt.rn.f32.u16 %0, %1;") X("cvt.rp.f32.s8 %0, %1;") \
  X("{.reg .b16 h; cvt.rn.f16.s32 h, %1; cvt.u32.u16 %0, h;}") \
  X("{.reg .b16 h; cvt.rz.f16.u32 h, %1; cvt.u32.u16 %0, h;}") \
  X("{.reg .b16 l, h; mov.b32 {l, h}, %1; mov.b32 %0, {h, l};}") \
  X("{.reg .b16 x, y; cvt.u16.u32 x, %1; cvt.u16.u32 y, %2; add.u16 x, x, y; cvt.u32.u16 %0, x;}") \
  X("{.reg .b16 x, y; cvt.u16.u32 x, %1; cvt.u16.u32 y, %2; mul.lo.s16 x, x, y; cvt.s32.s16 %0, x;}") \
  X("{.reg .b16 x, y; cvt.u16.u32 x, %1; cvt.u16.u32 y, %2; mul.wide.s16 %0, x, y;}") \
  X("{.reg .b16 x, y; cvt.u16.u32 x, %1; cvt.u16.u32 y, %2; shr.s16 x, x, %2; cvt.u32.u16 %0, x;}") \
  X("{.reg .b16 x, y; cvt.u16.u32 x, %1; cvt.u16.u32 y, %2; max.s16 x, x, y; cvt.u32.u16 %0, x;}") \
  X("{.reg .b16 x, y; .reg .pred p; cvt.u16.u32 x, %1; cvt.u16.u32 y, %2; setp.lt.s16 p, x, y; selp.u32 %0, 1, 0, p;}") \
  X("{.reg .b16 x, y; .reg .pred p; cvt.u16.u32 x, %1; cvt.u16.u32 y, %2; setp.hi.u16 p, x, y; selp.u32 %0, 1, 0, p;}")

#define OP_R(s) { uint32_t o; asm volatile(s : "=r"(o) : "r"(a), "r"(b), "r"(c)); out[(i++) * N + t] = o; }

__global__ void k_int(uint64_t* out) {
  uint32_t t = threadIdx.x, i = 0;
  uint32_t a = gen_int(t, 0), b = gen_int(t, 1), c = gen_int(t, 2);
  INT_OPS(OP_R)
}

static const char* const int_texts[] = {INT_OPS(TEXT)};

int main() {
  dump("k_int", k_int, 0 INT_OPS(COUNT), int_texts);
  return 0;
}
