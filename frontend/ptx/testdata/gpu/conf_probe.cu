// Edge cases: special values only (zeros, NaNs with payloads, subnormals,
// infinities), for NaN propagation, signed zeros and flushing.
#include "conf.h"

__device__ __noinline__ uint32_t sp32(uint32_t t, uint32_t k) {
  const uint32_t sp[16] = {0, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x7fc00000u, 0x7f800001u, 0xffc00123u,
                           0x7f800000u, 0xff800000u, 1, 0x80000001u, 0x007fffffu, 0x00800000u, 0x3f000000u,
                           0xbf000000u, 0x7fa00005u};
  return sp[mix32(t * 7919u + k * 104729u) & 15];
}

__device__ __noinline__ uint64_t sp64(uint32_t t, uint32_t k) {
  const uint64_t sp[16] = {0, 0x8000000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000000ull,
                           0x7ff8000000000000ull, 0x7ff0000000000001ull, 0xfff8000000000123ull,
                           0x7ff0000000000000ull, 0xfff0000000000000ull, 1, 0x8000000000000001ull,
                           0x000fffffffffffffull, 0x0010000000000000ull, 0x3fe0000000000000ull,
                           0x7ff4000000000005ull, 0xbfe0000000000000ull};
  return sp[mix32(t * 7919u + k * 104729u) & 15];
}

#define S16(op) "{.reg .b16 x, y, z, d; cvt.u16.u32 x, %1; cvt.u16.u32 y, %2; cvt.u16.u32 z, %3; " op "; cvt.u32.u16 %0, d;}"

#define P32_OPS(X) \
  X("mov.b32 %0, %1;") X("mov.b32 %0, %2;") X("mov.b32 %0, %3;") \
  X("add.sat.f32 %0, %1, %2;") X("mul.rn.sat.f32 %0, %1, %2;") X("min.f32 %0, %1, %2;") X("max.f32 %0, %1, %2;") \
  X("min.ftz.f32 %0, %1, %2;") X("cvt.rni.f32.f32 %0, %1;") X("sqrt.rn.f32 %0, %1;") X("mul.ftz.f32 %0, %1, %2;") \
  X("set.eq.f32.u32 %0, %1, %2;") X("set.lt.f32.s32 %0, %1, %2;") X("set.le.f32.f32 %0, %1, %2;") \
  X("set.eq.u32.u32 %0, %1, %2;") X("set.ne.s32.f32 %0, %1, %2;") \
  X("{.reg .b16 h; cvt.rn.relu.f16.f32 h, %1; cvt.u32.u16 %0, h;}") \
  X("{.reg .b16 h; cvt.rz.f16.f32 h, %1; cvt.u32.u16 %0, h;}") \
  X("cvt.rn.relu.f16x2.f32 %0, %1, %2;") X("cvt.rn.relu.bf16x2.f32 %0, %1, %2;") \
  X("cvt.rna.tf32.f32 %0, %1;") X("cvt.sat.f32.f32 %0, %1;") X("cvt.rzi.ftz.f32.f32 %0, %1;") \
  X("{.reg .b32 s; add.f32 s, %1, %2; atom.global.add.f32 %0, [%4], s;}") \
  X("{.reg .b32 s; atom.global.exch.b32 s, [%4], %1; atom.global.add.f32 s, [%4], %2; ld.global.u32 %0, [%4];}") \
  X("{.reg .b32 s; atom.global.exch.b32 s, [%4], %1; red.global.add.f32 [%4], %2; ld.global.u32 %0, [%4];}") \
  X("{.reg .b32 s; .reg .b64 a; cvta.to.shared.u64 a, %5; atom.shared.exch.b32 s, [a], %1; atom.shared.add.f32 s, [a], %2; ld.shared.u32 %0, [a];}") \
  X(S16("add.f16 d, x, y")) X(S16("fma.rn.relu.f16 d, x, y, z")) X(S16("neg.f16 d, x")) X(S16("abs.f16 d, x")) \
  X(S16("min.f16 d, x, y")) X(S16("add.sat.f16 d, x, y")) X(S16("neg.bf16 d, x")) X(S16("fma.rn.relu.bf16 d, x, y, z")) \
  X("{.reg .b16 x; cvt.u16.u32 x, %1; cvt.f32.f16 %0, x;}") \
  X("{.reg .b16 x; cvt.u16.u32 x, %1; cvt.f32.bf16 %0, x;}") \
  X("rem.s32 %0, %1, 0;") X("{.reg .b32 z; mov.b32 z, 0; rem.s32 %0, %1, z;}") \
  X("{.reg .b32 z; mov.b32 z, 0; div.s32 %0, %1, z;}") X("{.reg .b32 m; mov.b32 m, -1; div.s32 %0, %1, m;}") \
  X("{.reg .b32 m; mov.b32 m, -1; rem.s32 %0, %1, m;}")

#define P64_OPS(X) \
  X("mov.b64 %0, %1;") X("mov.b64 %0, %2;") X("mov.b64 %0, %3;") \
  X("add.rn.f64 %0, %1, %2;") X("mul.rn.f64 %0, %1, %2;") X("sub.rn.f64 %0, %1, %2;") X("fma.rn.f64 %0, %1, %2, %3;") \
  X("div.rn.f64 %0, %1, %2;") X("min.f64 %0, %1, %2;") X("max.f64 %0, %1, %2;") X("sqrt.rn.f64 %0, %1;") \
  X("rcp.rn.f64 %0, %1;") X("abs.f64 %0, %1;") X("neg.f64 %0, %1;") X("cvt.rni.f64.f64 %0, %1;") \
  X("{.reg .b16 h; cvt.u16.u64 h, %1; cvt.f64.f16 %0, h;}") \
  X("{.reg .b32 x; cvt.u32.u64 x, %1; cvt.f64.f32 %0, x;}") \
  X("{.reg .b32 s; cvt.rn.f32.f64 s, %1; cvt.u64.u32 %0, s;}") \
  X("{.reg .b64 s; add.f64 s, %1, %2; atom.global.add.f64 %0, [%4], s;}") \
  X("{.reg .b64 s; atom.global.exch.b64 s, [%4], %1; atom.global.add.f64 s, [%4], %2; ld.global.u64 %0, [%4];}") \
  X("{.reg .b64 z; mov.b64 z, 0; rem.s64 %0, %1, z;}") X("{.reg .b64 z; mov.b64 z, 0; div.u64 %0, %1, z;}")

__device__ uint64_t scratch[2 * N];

#define OP_R(s) { uint32_t o; asm volatile(s : "=r"(o) : "r"(a), "r"(b), "r"(c), "l"(gp), "l"(spp) : "memory"); out[(i++) * N + t] = o; }
#define OP_L(s) { uint64_t o; asm volatile(s : "=l"(o) : "l"(a), "l"(b), "l"(c), "l"(gp), "l"(spp) : "memory"); out[(i++) * N + t] = o; }

__global__ void k_probe32(uint64_t* out) {
  __shared__ uint32_t sh[N];
  uint32_t t = threadIdx.x, i = 0;
  uint32_t a = sp32(t, 0), b = sp32(t, 1), c = sp32(t, 2);
  uint64_t gp = (uint64_t)(scratch + t), spp = (uint64_t)(sh + t);
  P32_OPS(OP_R)
}

__global__ void k_probe64(uint64_t* out) {
  __shared__ uint64_t sh[N];
  uint32_t t = threadIdx.x, i = 0;
  uint64_t a = sp64(t, 0), b = sp64(t, 1), c = sp64(t, 2);
  uint64_t gp = (uint64_t)(scratch + N + t), spp = (uint64_t)(sh + t);
  P64_OPS(OP_L)
}

static const char* const t32[] = {P32_OPS(TEXT)};
static const char* const t64[] = {P64_OPS(TEXT)};

int main() {
  dump("k_probe32", k_probe32, 0 P32_OPS(COUNT), t32);
  dump("k_probe64", k_probe64, 0 P64_OPS(COUNT), t64);
  return 0;
}
