// isa_mix.cu: cheap kernels that exercise the ISA broadly; every output word is checked bit for bit.
//  mix_int64    64-bit and 32-bit integer ops: mul.hi, mad.wide, bfe/bfi/prmt/popc/clz/brev/ffs, funnel shifts,
//               dp4a, sad, 64/32-bit div and rem (signed, unsigned), shifts, min/max
//  mix_float    f32/f64 with rounding modes: add/mul/fma .rn/.rz/.rm/.rp, div.rn, div.full, rcp.rn, sqrt.rn/.rm,
//               cvt.rni/rmi/rpi/rzi, float<->int conversions with each mode, min/max/copysign/saturate, f64 div/sqrt/fma,
//               f64->f32 with modes, ftz variants, compares with NaN; mode 0 tame inputs, mode 1 raw random bits
//  mix_mufu     approximate transcendentals (MUFU): sin/cos/ex2/lg2/rsqrt/rcp/sqrt/tanh .approx
//  mix_half     f16 / bf16 / f16x2 / bf16x2 arithmetic and conversions with rounding modes, fp8 e4m3/e5m2 packing
//  mix_atomics  shared and global atomics (add/min/max/and/or/xor/inc/dec/cas/exch, 32/64-bit, f32 add, red)
//  mix_vote     ballot/any/all/match/shfl (idx/up/down/bfly, widths), partial masks, elect.sync, lanemask
//  mix_local    a stack array indexed at run time (local memory), insertion sort
//  mix_control  noinline calls, recursion (call stack), a switch, data-dependent loops, integer division
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o isa_mix isa_mix.cu
// Run:   CASES=cases.jsonl ./isa_mix
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

// 24 u64 per thread.
extern "C" __global__ void mix_int64(const uint64_t* __restrict__ in, uint64_t* __restrict__ out) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  const uint64_t a = in[2 * g], b = in[2 * g + 1];
  const uint32_t a32 = (uint32_t)a, b32 = (uint32_t)(b >> 32), c32 = (uint32_t)b;
  uint64_t* r = out + 24 * g;
  r[0] = __umul64hi(a, b);
  r[1] = (uint64_t)__mul64hi((long long)a, (long long)b);
  r[2] = (uint64_t)a32 * b32 + a;
  r[3] = (uint64_t)((long long)(int)a32 * (int)b32) + b;
  r[4] = ((uint64_t)__umulhi(a32, b32) << 32) | (uint32_t)__mulhi((int)a32, (int)b32);
  uint32_t x, y;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(x) : "r"(a32), "r"(c32 & 31), "r"((c32 >> 8) & 31));
  asm("bfe.s32 %0, %1, %2, %3;" : "=r"(y) : "r"(a32), "r"((c32 >> 16) & 31), "r"((c32 >> 24) & 31));
  r[5] = ((uint64_t)y << 32) | x;
  uint64_t z;
  asm("bfe.u64 %0, %1, %2, %3;" : "=l"(z) : "l"(b), "r"(a32 & 63), "r"((a32 >> 8) & 63));
  r[6] = z;
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(x) : "r"(a32), "r"(b32), "r"(c32 & 31), "r"((c32 >> 5) & 31));
  r[7] = ((uint64_t)__byte_perm(a32, b32, c32) << 32) | x;
  r[8] = (uint64_t)__popcll(a) | (uint64_t)__clzll(b) << 8 | (uint64_t)__ffsll((long long)(a >> (c32 & 63))) << 16 |
         (uint64_t)__popc(a32) << 24 | (uint64_t)__clz(b32 >> (c32 & 31)) << 32 | (uint64_t)__ffs((int)(c32 << (a32 & 31))) << 40;
  r[9] = __brevll(a) ^ __brev(b32);
  r[10] = (uint64_t)__funnelshift_l(a32, b32, c32) | (uint64_t)__funnelshift_rc(a32, b32, a32) << 32;
  r[11] = a / ((b >> 40) | 1);
  r[12] = a % ((b >> 40) | 1);
  long long d = (long long)(b32 >> 4) + 2;
  if (b32 & 1) d = -d;
  r[13] = (uint64_t)((long long)a / d);
  r[14] = (uint64_t)((long long)a % d);
  r[15] = (uint64_t)(a32 / (c32 | 1)) | (uint64_t)(uint32_t)((int)a32 % (int)((c32 >> 1) | 1)) << 32;
  r[16] = (uint64_t)(uint32_t)((int)a32 / (int)(((c32 >> 3) | 1) * ((c32 & 2) ? -1 : 1))) | (uint64_t)(a32 % (b32 | 1)) << 32;
  r[17] = (a << (c32 & 63)) ^ (b >> (a32 & 63)) ^ (uint64_t)((long long)b >> (c32 >> 26));
  r[18] = (uint64_t)(uint32_t)__dp4a((int)a32, (int)b32, (int)c32) | (uint64_t)__dp2a_lo((int)a32, (int)b32, 7) << 32;
  r[19] = (uint64_t)__sad((int)a32, (int)b32, c32 & 0xffff) | (uint64_t)__usad(a32, c32, 3u) << 32;
  r[20] = a * b;
  r[21] = (a < b ? a : b) ^ (uint64_t)((long long)a > (long long)b ? (long long)a : (long long)b);
  r[22] = (uint64_t)(a32 * b32) | (uint64_t)(uint32_t)((int)a32 >> (c32 & 31)) << 32;
  r[23] = (uint64_t)__vabsdiffu4(a32, b32) | (uint64_t)__vadd4(a32, c32) << 32;
}

__device__ __forceinline__ uint32_t fb(float f) { return __float_as_uint(f); }

// 48 words per thread. mode 0: tame values; mode 1: the raw bits (NaN, Inf, denormals, huge values).
extern "C" __global__ void mix_float(const uint32_t* __restrict__ in, int mode, uint32_t* __restrict__ out) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t w0 = in[2 * g], w1 = in[2 * g + 1];
  float x, y;
  if (mode) { x = __uint_as_float(w0); y = __uint_as_float(w1); }
  else { x = (float)((int)(w0 >> 8) - (1 << 23)) * (1.0f / 4096.0f); y = (float)((int)(w1 >> 8) - (1 << 23)) * (1.0f / 65536.0f) + 0.37f; }
  uint32_t* r = out + 48 * g;
  r[0] = fb(x + y); r[1] = fb(__fadd_rz(x, y)); r[2] = fb(__fmul_rd(x, y)); r[3] = fb(__fmul_ru(x, y));
  r[4] = fb(x / y); r[5] = fb(__fdividef(x, y)); r[6] = fb(__frcp_rn(y)); r[7] = fb(sqrtf(fabsf(x)));
  r[8] = fb(__fsqrt_rd(fabsf(y))); r[9] = fb(fmaf(x, y, 1.5f)); r[10] = fb(__fmaf_rz(x, y, -x)); r[11] = fb(__fmaf_ru(x, x, y));
  r[12] = fb(rintf(x)); r[13] = fb(floorf(y)); r[14] = fb(ceilf(x)); r[15] = fb(truncf(y));
  r[16] = (uint32_t)__float2int_rn(x); r[17] = (uint32_t)__float2int_rz(y); r[18] = __float2uint_rd(x); r[19] = __float2uint_ru(y);
  const long long ll = __float2ll_rn(x * 4096.0f);
  r[20] = (uint32_t)ll; r[21] = (uint32_t)(ll >> 32);
  r[22] = fb(__int2float_rz((int)w0)); r[23] = fb(__uint2float_ru(w1)); r[24] = fb(__int2float_rd((int)w1)); r[25] = fb(__ll2float_rn((long long)(((uint64_t)w0 << 32) | w1)));
  r[26] = fb(fminf(x, y)); r[27] = fb(fmaxf(x, y)); r[28] = fb(copysignf(x, y)); r[29] = fb(__saturatef(x));
  r[30] = fb(fabsf(y)); r[31] = fb(-x);
  float f;
  asm("mul.rn.ftz.f32 %0, %1, %2;" : "=f"(f) : "f"(x), "f"(y)); r[32] = fb(f);
  asm("add.rm.ftz.f32 %0, %1, %2;" : "=f"(f) : "f"(x), "f"(y)); r[33] = fb(f);
  asm("fma.rp.ftz.sat.f32 %0, %1, %2, %3;" : "=f"(f) : "f"(x), "f"(y), "f"(x)); r[34] = fb(f);
  asm("cvt.rzi.ftz.f32.f32 %0, %1;" : "=f"(f) : "f"(y)); r[35] = fb(f);
  const double dx = x, dy = y;
  const double dd = dx / dy, ds = sqrt(fabs(dx)), df = fma(dx, dy, 1.0 / 3.0);
  uint64_t q;
  q = __double_as_longlong(dd); r[36] = (uint32_t)q; r[37] = (uint32_t)(q >> 32);
  q = __double_as_longlong(ds); r[38] = (uint32_t)q; r[39] = (uint32_t)(q >> 32);
  q = __double_as_longlong(df); r[40] = (uint32_t)q; r[41] = (uint32_t)(q >> 32);
  r[42] = fb(__double2float_rd(dd)); r[43] = fb(__double2float_ru(df)); r[44] = fb(__double2float_rn(dd * 1e30));
  r[45] = (uint32_t)__double2int_rz(ds * 1e3) ^ (uint32_t)__double2ll_rd(df * 1e6);
  r[46] = (uint32_t)(isnan(x)) | (uint32_t)(isinf(y)) << 1 | (uint32_t)(signbit(x) != 0) << 2 | (uint32_t)(x < y) << 3 |
          (uint32_t)(x == y) << 4 | (uint32_t)(x != y) << 5 | (uint32_t)(x >= y) << 6 | (uint32_t)(!(x <= y)) << 7 |
          (uint32_t)(isfinite(x * y)) << 8 | (uint32_t)(dx > dy) << 9;
  r[47] = fb(__fadd_rn(__fmul_rn(x, 3.0f), y));  // separate rounding (no contraction)
}

// 12 words per thread of approximate (MUFU) results on tame inputs.
extern "C" __global__ void mix_mufu(const uint32_t* __restrict__ in, uint32_t* __restrict__ out) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t w0 = in[g];
  const float x = (float)((int)(w0 >> 8) - (1 << 23)) * (1.0f / 1048576.0f);  // |x| < 8
  const float p = fabsf(x) + 0.001f;
  uint32_t* r = out + 12 * g;
  r[0] = fb(__sinf(x)); r[1] = fb(__cosf(x)); r[2] = fb(__expf(x)); r[3] = fb(exp2f(x));
  r[4] = fb(__log2f(p)); r[5] = fb(__logf(p)); r[6] = fb(rsqrtf(p)); r[7] = fb(__fdividef(1.0f, x));
  float f;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(f) : "f"(x)); r[8] = fb(f);
  asm("sqrt.approx.f32 %0, %1;" : "=f"(f) : "f"(p)); r[9] = fb(f);
  asm("tanh.approx.f32 %0, %1;" : "=f"(f) : "f"(x)); r[10] = fb(f);
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(f) : "f"(x)); r[11] = fb(f);
}

// 16 words per thread. mode 0: tame inputs in (-128, 128); mode 1: raw bits as f32.
extern "C" __global__ void mix_half(const uint32_t* __restrict__ in, int mode, uint32_t* __restrict__ out) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t w0 = in[2 * g], w1 = in[2 * g + 1];
  float x, y;
  if (mode) { x = __uint_as_float(w0); y = __uint_as_float(w1); }
  else { x = (float)((int)(w0 >> 8) - (1 << 23)) * (1.0f / 65536.0f); y = (float)((int)(w1 >> 8) - (1 << 23)) * (1.0f / 131072.0f); }
  uint32_t* r = out + 16 * g;
  const __half hx = __float2half_rn(x), hy = __float2half_rz(y), hd = __float2half_rd(y), hu = __float2half_ru(x);
  r[0] = __half_as_ushort(hx) | (uint32_t)__half_as_ushort(hy) << 16;
  r[1] = __half_as_ushort(hd) | (uint32_t)__half_as_ushort(hu) << 16;
  r[2] = __half_as_ushort(__hadd(hx, hy)) | (uint32_t)__half_as_ushort(__hmul(hx, hy)) << 16;
  r[3] = __half_as_ushort(__hfma(hx, hy, hd)) | (uint32_t)__half_as_ushort(__hsub(hu, hx)) << 16;
  r[4] = fb(__half2float(hx) + __half2float(hy));
  const __half2 h2 = __floats2half2_rn(x, y), k2 = __floats2half2_rn(0.5f, -3.0f);
  const __half2 f2 = __hfma2(h2, k2, h2), m2 = __hmax2(h2, k2);
  r[5] = *reinterpret_cast<const uint32_t*>(&f2); r[6] = *reinterpret_cast<const uint32_t*>(&m2);
  const __nv_bfloat16 bx = __float2bfloat16_rn(x), by = __float2bfloat16_rz(y);
  r[7] = __bfloat16_as_ushort(bx) | (uint32_t)__bfloat16_as_ushort(by) << 16;
  r[8] = __bfloat16_as_ushort(__hadd(bx, by)) | (uint32_t)__bfloat16_as_ushort(__hfma(bx, by, bx)) << 16;
  const __nv_bfloat162 b2 = __floats2bfloat162_rn(x, y), c2 = __hmul2(b2, b2);
  r[9] = *reinterpret_cast<const uint32_t*>(&c2);
  r[10] = fb(__bfloat162float(bx) * __bfloat162float(by));
  r[11] = (uint32_t)__half2int_rn(hx) ^ ((uint32_t)__half2short_rz(hy) << 16);
  r[12] = __half_as_ushort(__int2half_rn((int)(w0 >> 16) - 32768)) | (uint32_t)__half_as_ushort(__double2half((double)x * 0.1)) << 16;
  r[13] = (uint32_t)__nv_cvt_float2_to_fp8x2(make_float2(x, y), __NV_SATFINITE, __NV_E4M3) |
          (uint32_t)__nv_cvt_float2_to_fp8x2(make_float2(y, x), __NV_NOSAT, __NV_E5M2) << 16;
  const __half2_raw back = __nv_cvt_fp8x2_to_halfraw2((__nv_fp8x2_storage_t)(r[13] & 0xffff), __NV_E4M3);
  r[14] = back.x | (uint32_t)back.y << 16;
  r[15] = __half_as_ushort(__habs(hy)) | (uint32_t)(__hlt(hx, hy) ? 1 : 0) << 16 | (uint32_t)(__hisnan(hx) ? 1 : 0) << 17;
}

// Shared atomics per block -> sh_out[16 * block + k] (u64 ones after 16 * gridDim.x); global atomics from every
// thread -> g_out (zero-filled) / g_ones (0xff-filled) / g64 / gf. Every final value is independent of the order.
extern "C" __global__ void mix_atomics(const uint32_t* __restrict__ in, uint32_t* __restrict__ sh_out, uint32_t* __restrict__ g_out,
                                       uint32_t* __restrict__ g_ones, unsigned long long* __restrict__ g64, float* __restrict__ gf) {
  __shared__ uint32_t s[16];
  __shared__ unsigned long long s64[2];
  __shared__ float sf;
  const int t = threadIdx.x, lane = t & 31, g = blockIdx.x * blockDim.x + t;
  if (t == 0) {
    s[0] = 0; s[1] = 0; s[2] = 0xffffffffu; s[3] = 0; s[4] = 0xffffffffu; s[5] = 0; s[6] = 0; s[7] = 0; s[8] = 1;
    s[9] = 0; s[10] = 0; s[11] = 0x80000000u; s[12] = 0x7fffffffu; s[13] = 5; s[14] = 0; s[15] = 0;
    s64[0] = 0; s64[1] = 0; sf = 0.0f;
  }
  __syncthreads();
  const uint32_t v = in[g];
  atomicAdd(&s[0], v); atomicMax(&s[1], v); atomicMin(&s[2], v);
  atomicOr(&s[3], (v & 0x01010101u) << (t & 7)); atomicAnd(&s[4], v | ~(1u << lane)); atomicXor(&s[5], v);
  atomicInc(&s[6], 100u); atomicDec(&s[7], 50u);
  uint32_t old = s[8], assumed;
  do { assumed = old; old = atomicCAS(&s[8], assumed, assumed * (v | 1u)); } while (old != assumed);
  const uint32_t ticket = atomicAdd(&s[9], 1u);
  atomicAdd(&s[10], ticket * ticket);
  atomicMax((int*)&s[11], (int)v); atomicMin((int*)&s[12], (int)v);
  atomicExch(&s[13], 7u);
  atomicAdd(&s64[0], (unsigned long long)v * v); atomicMax(&s64[1], ((unsigned long long)v << 20) ^ (unsigned long long)t);
  atomicAdd(&sf, (float)(v & 0xff));
  __syncthreads();
  if (t < 16) sh_out[16 * blockIdx.x + t] = s[t];
  if (t == 16) { sh_out[16 * gridDim.x + 4 * blockIdx.x] = (uint32_t)s64[0]; sh_out[16 * gridDim.x + 4 * blockIdx.x + 1] = (uint32_t)(s64[0] >> 32); }
  if (t == 17) { sh_out[16 * gridDim.x + 4 * blockIdx.x + 2] = (uint32_t)s64[1]; sh_out[16 * gridDim.x + 4 * blockIdx.x + 3] = (uint32_t)(s64[1] >> 32); }
  if (t == 18) atomicAdd(&g_out[14], __float_as_uint(sf) >> 8);
  // global: g_out zero-filled, g_ones 0xff-filled
  atomicAdd(&g_out[0], v); atomicMax(&g_out[1], v); atomicOr(&g_out[2], 1u << (v & 31)); atomicXor(&g_out[3], v);
  atomicInc(&g_out[4], 1000u); atomicAdd(&g_out[5], 1u);
  atomicAdd_block(&g_out[6], v & 0xffff); atomicAdd_system(&g_out[7], v >> 16);
  atomicMax((int*)&g_out[8], (int)v);
  atomicMin(&g_ones[0], v); atomicAnd(&g_ones[1], v | ~(1u << (g & 31))); atomicMin((int*)&g_ones[2], (int)v);
  atomicDec(&g_ones[3], 0x7fffffffu);
  atomicAdd(&g64[0], (unsigned long long)v); atomicMax(&g64[1], (unsigned long long)v * v); atomicOr(&g64[2], 1ull << (v & 63));
  atomicAdd(&gf[0], (float)(v & 0xff)); atomicAdd(&gf[1], (float)(v & 0xf) * 0.25f);
  if (lane == 0) {  // CAS-loop multiply by an odd number: commutative, so the final value is order-independent
    uint32_t o = g_ones[4], a;
    do { a = o; o = atomicCAS(&g_ones[4], a, a * (v | 1u)); } while (o != a);
    atomicAdd(&g_out[10], 1u);
  }
}

// 12 words per thread.
extern "C" __global__ void mix_vote(const uint32_t* __restrict__ in, uint32_t* __restrict__ out) {
  const unsigned full = 0xffffffffu;
  const int g = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
  const uint32_t v = in[g];
  uint32_t* r = out + 12 * g;
  r[0] = __ballot_sync(full, v & 1);
  r[1] = (uint32_t)__any_sync(full, (v & 0xff) == 0x7f) | (uint32_t)__all_sync(full, v != 0) << 1 | (uint32_t)__uni_sync(full, v & 0x80000000u) << 2;
  r[2] = __match_any_sync(full, v & 3);
  int pred = 0;
  r[3] = __match_all_sync(full, v & 0u, &pred) ^ ((uint32_t)pred << 31);
  r[4] = __shfl_sync(full, v, (int)((v >> 8) & 31));
  r[5] = __shfl_up_sync(full, v, 3, 16);
  r[6] = __shfl_down_sync(full, v, 5, 8);
  r[7] = __shfl_xor_sync(full, v, 6, 32) ^ __shfl_sync(full, v, lane + 3, 16);
  uint32_t b2 = 0, s4 = 0;
  if (lane < 20) {
    b2 = __ballot_sync(0x000fffffu, v & 2);
    s4 = __shfl_sync(0x000fffffu, v, lane ^ 1);
  }
  __syncwarp();
  r[8] = b2 ^ s4;
  uint32_t lt, leader, is_leader;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
  r[9] = __popc(r[0] & lt);
  asm volatile("{\n\t.reg .pred p;\n\telect.sync %0|p, %2;\n\tselp.u32 %1, 1, 0, p;\n\t}" : "=r"(leader), "=r"(is_leader) : "r"(full));
  r[10] = leader | is_leader << 8;
  uint32_t ge, le;
  asm("mov.u32 %0, %%lanemask_ge;" : "=r"(ge));
  asm("mov.u32 %0, %%lanemask_le;" : "=r"(le));
  r[11] = __popc(__ballot_sync(full, v & 4) & ge) | (uint32_t)__popc(__ballot_sync(full, v & 8) & le) << 8;
}

// Local memory: a 48-word stack array per thread, data-dependent indices, insertion sort.
extern "C" __global__ void mix_local(const uint32_t* __restrict__ in, int rounds, uint32_t* __restrict__ out) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t arr[48];
  for (int i = 0; i < 48; i++) arr[i] = in[g * 48 + i];
  uint32_t idx = arr[0] % 48;
  for (int r = 0; r < rounds; r++) {
    const uint32_t j = (idx + r * 7) % 48;
    arr[j] = arr[j] * 2654435761u + arr[idx];
    idx = arr[j] % 48;
  }
  for (int i = 1; i < 48; i++) {
    const uint32_t key = arr[i];
    int j = i - 1;
    while (j >= 0 && arr[j] > key) { arr[j + 1] = arr[j]; j--; }
    arr[j + 1] = key;
  }
  for (int i = 0; i < 48; i++) out[g * 48 + i] = arr[i];
}

__device__ __noinline__ uint32_t fib(uint32_t n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__device__ __noinline__ uint32_t collatz(uint32_t x) {
  uint32_t n = 0;
  while (x != 1 && n < 300) { x = (x & 1) ? 3 * x + 1 : x >> 1; n++; }
  return n;
}
__device__ __noinline__ uint32_t pick(uint32_t v, uint32_t w) {
  switch (v % 9) {
    case 0: return w + 1;
    case 1: return w * 3;
    case 2: return w ^ 0x5a5a5a5au;
    case 3: return w >> 3;
    case 4: return w / 7;
    case 5: return __brev(w);
    case 6: return w % 1000;
    case 7: return (uint32_t)(-(int)w);
    default: return w | v;
  }
}

// 4 words per thread.
extern "C" __global__ void mix_control(const uint32_t* __restrict__ in, uint32_t* __restrict__ out) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t v = in[g];
  uint32_t* r = out + 4 * g;
  r[0] = fib(6 + (v & 7));
  r[1] = collatz((v >> 8) % 5000 + 1);
  uint32_t w = v;
  for (int i = 0; i < (int)(v & 15); i++) w = pick(w >> 4, w);
  r[2] = w;
  r[3] = ((v >> 3) / ((v & 0xff) + 1)) ^ ((int)v / -((int)(v >> 24) + 3));
}

#include "harness.h"  // the host harness shared by every testdata/cuda/*.cu

int main() {
  const char* F = "isa_mix.cu";
  {
    Case c("mix_int64_64", F, "mix_int64", dim3(64), dim3(1), 0,
           "64/32-bit integer mix: mul.hi, mad.wide, bfe/bfi/prmt, popc/clz/ffs/brev, shf, div/rem u64 s64 u32 s32, dp4a/dp2a, sad, SIMD video ops");
    const uint64_t* in = c.buf<uint64_t>("buf:1024:random:31");
    uint64_t* out = c.buf<uint64_t>("buf:12288");
    c.dump(out, "hex", 64 * 24 * 2);
    c.run([&] { mix_int64<<<c.grid, c.block, c.smem>>>(in, out); });
  }
  {
    Case c("mix_float_tame_64", F, "mix_float", dim3(64), dim3(1), 0,
           "f32/f64 arithmetic with rounding modes, conversions, min/max, ftz, compares on tame values");
    const uint32_t* in = c.buf<uint32_t>("buf:512:random:32");
    const int mode = c.i32(0);
    uint32_t* out = c.buf<uint32_t>("buf:12288");
    c.dump(out, "hex", 64 * 48);
    c.run([&] { mix_float<<<c.grid, c.block, c.smem>>>(in, mode, out); });
  }
  {
    Case c("mix_float_rawbits_64", F, "mix_float", dim3(64), dim3(1), 0,
           "same kernel on raw random bits as f32: NaN/Inf/denormal/huge operands (canonical NaN, saturation of conversions)");
    const uint32_t* in = c.buf<uint32_t>("buf:512:random:33");
    const int mode = c.i32(1);
    uint32_t* out = c.buf<uint32_t>("buf:12288");
    c.dump(out, "hex", 64 * 48);
    c.run([&] { mix_float<<<c.grid, c.block, c.smem>>>(in, mode, out); });
  }
  {
    Case c("mix_mufu_64", F, "mix_mufu", dim3(64), dim3(1), 0,
           "MUFU approximations: sin/cos/ex2/lg2/rsqrt/rcp/sqrt/tanh .approx (bit-exact hardware results)");
    const uint32_t* in = c.buf<uint32_t>("buf:256:random:34");
    uint32_t* out = c.buf<uint32_t>("buf:3072");
    c.dump(out, "hex", 64 * 12);
    c.run([&] { mix_mufu<<<c.grid, c.block, c.smem>>>(in, out); });
  }
  {
    Case c("mix_half_tame_64", F, "mix_half", dim3(64), dim3(1), 0,
           "f16/bf16 conversions (rn/rz/rd/ru), scalar and x2 arithmetic, fp8 e4m3/e5m2 packing and unpacking, tame values");
    const uint32_t* in = c.buf<uint32_t>("buf:512:random:35");
    const int mode = c.i32(0);
    uint32_t* out = c.buf<uint32_t>("buf:4096");
    c.dump(out, "hex", 64 * 16);
    c.run([&] { mix_half<<<c.grid, c.block, c.smem>>>(in, mode, out); });
  }
  {
    Case c("mix_half_rawbits_64", F, "mix_half", dim3(64), dim3(1), 0,
           "same kernel on raw f32 bits: overflow to Inf, NaN conversion, denormal halves, fp8 saturation");
    const uint32_t* in = c.buf<uint32_t>("buf:512:random:36");
    const int mode = c.i32(1);
    uint32_t* out = c.buf<uint32_t>("buf:4096");
    c.dump(out, "hex", 64 * 16);
    c.run([&] { mix_half<<<c.grid, c.block, c.smem>>>(in, mode, out); });
  }
  {
    Case c("mix_atomics_2x256", F, "mix_atomics", dim3(256), dim3(2), 0,
           "shared atomics add/max/min/or/and/xor/inc/dec/CAS-loop/exch/s32 min-max/u64 add-max/f32 add; global atomics and reductions incl. _block/_system, u64, f32, CAS loop; byte:0xff-filled buffer for min/and/dec");
    const uint32_t* in = c.buf<uint32_t>("buf:2048:random:37");
    uint32_t* sh = c.buf<uint32_t>("buf:256");
    uint32_t* go = c.buf<uint32_t>("buf:64");
    uint32_t* g1 = c.buf<uint32_t>("buf:20:byte:0xff");
    unsigned long long* g64 = c.buf<unsigned long long>("buf:24");
    float* gf = c.buf<float>("buf:8");
    c.dump(sh, "hex", 40); c.dump(go, "hex", 16); c.dump(g1, "hex", 5); c.dump(g64, "hex", 6); c.dump(gf, "hex", 2);
    c.run([&] { mix_atomics<<<c.grid, c.block, c.smem>>>(in, sh, go, g1, g64, gf); });
  }
  {
    Case c("mix_vote_2x64", F, "mix_vote", dim3(64), dim3(2), 0,
           "vote.ballot/any/all/uni, match.any/all, shfl idx/up/down/bfly with widths, partial-mask ballot/shfl, lanemask_lt/ge/le, elect.sync");
    const uint32_t* in = c.buf<uint32_t>("buf:512:random:38");
    uint32_t* out = c.buf<uint32_t>("buf:6144");
    c.dump(out, "hex", 128 * 12);
    c.run([&] { mix_vote<<<c.grid, c.block, c.smem>>>(in, out); });
  }
  {
    Case c("mix_local_32", F, "mix_local", dim3(32), dim3(1), 0,
           "48-word per-thread stack array in local memory: 64 data-dependent read-modify-writes then insertion sort");
    const uint32_t* in = c.buf<uint32_t>("buf:6144:random:39");
    const int rounds = c.i32(64);
    uint32_t* out = c.buf<uint32_t>("buf:6144");
    c.dump(out, "hex", 32 * 48);
    std::vector<uint32_t> w = words_of(c.host(in)), ref(32 * 48);
    for (int g = 0; g < 32; g++) {
      uint32_t* a = &w[g * 48];
      uint32_t idx = a[0] % 48;
      for (int r = 0; r < rounds; r++) { uint32_t j = (idx + r * 7) % 48; a[j] = a[j] * 2654435761u + a[idx]; idx = a[j] % 48; }
      std::vector<uint32_t> s(a, a + 48);
      for (int i = 1; i < 48; i++) { uint32_t key = s[i]; int j = i - 1; while (j >= 0 && s[j] > key) { s[j + 1] = s[j]; j--; } s[j + 1] = key; }
      for (int i = 0; i < 48; i++) ref[g * 48 + i] = s[i];
    }
    c.expect(out, ref);
    c.run([&] { mix_local<<<c.grid, c.block, c.smem>>>(in, rounds, out); });
  }
  {
    Case c("mix_control_32", F, "mix_control", dim3(32), dim3(1), 0,
           "noinline calls, recursive fib (call stack), collatz loops, a 9-way switch in a data-dependent loop, integer division");
    const uint32_t* in = c.buf<uint32_t>("buf:128:random:40");
    uint32_t* out = c.buf<uint32_t>("buf:512");
    c.dump(out, "hex", 128);
    c.run([&] { mix_control<<<c.grid, c.block, c.smem>>>(in, out); });
  }
  return 0;
}
