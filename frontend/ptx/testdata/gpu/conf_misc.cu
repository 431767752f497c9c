// Warp collectives, CTA reductions, atomics, local and module memory, device
// calls with by-value structs, switches and library math, as nvcc emits them.
// Built with -fmad=false so that no float expression depends on contraction.
#include "conf.h"
#include <cuda_fp16.h>

__device__ int gtab[8] = {3, 1, 4, 1, 5, 9, 2, 6};
__constant__ unsigned ctab[4] = {0x11111111u, 0x22222222u, 0x33333333u, 0x44444444u};
__device__ unsigned long long gacc;
__device__ int gmin = 0x7fffffff;
__device__ unsigned gbits;
__device__ double gdsum;
__device__ unsigned nwritten;

struct S { int a; float b; long long c; };

__device__ __noinline__ S combine(S x, int k) {
  S r;
  r.a = x.a * k + 1;
  r.b = x.b * 0.5f;
  r.c = x.c ^ k;
  return r;
}

__device__ __noinline__ int sw(int k, int x) {
  switch (k & 7) {
  case 0: return x + 1;
  case 1: return x * 3;
  case 2: return x ^ 0x55;
  case 3: return x >> 2;
  case 4: return x - 9;
  case 5: return ~x;
  case 6: return x * x;
  default: return x | 0x100;
  }
}

__device__ __noinline__ int pick(const int* p, int i) { return p[i]; }

#define FULL 0xffffffffu
#define OUT(v) out[(i++) * N + t] = (uint64_t)(v)

__global__ void k_misc(uint64_t* out) {
  __shared__ int s_sum, s_max;
  __shared__ float s_f;
  __shared__ unsigned s_inc, s_dec, s_xor, s_exch;
  __shared__ unsigned long long s_cas;
  uint32_t t = threadIdx.x, i = 0;
  uint32_t v = mix32(t * 2654435761u + 1);
  if (t == 0) { s_sum = 0; s_max = -1000000; s_f = 0; s_inc = 0; s_dec = 50; s_xor = 0; s_exch = 7; s_cas = 0; }
  __syncthreads();
  OUT(t);
  OUT(__shfl_up_sync(FULL, v, 3));
  OUT(__shfl_down_sync(FULL, v, 2, 8));
  OUT(__shfl_xor_sync(FULL, v, 5));
  OUT(__shfl_sync(FULL, v, (t * 7) & 31));
  OUT(__shfl_sync(FULL, v, 3, 16));
  OUT(__shfl_up_sync(FULL, (unsigned long long)v << 20 | t, 1, 4));
  OUT(__ballot_sync(FULL, v & 1));
  OUT(__any_sync(FULL, v & 1) | __all_sync(FULL, t < 1000) << 1 | __all_sync(FULL, v & 1) << 2 | __uni_sync(FULL, t < 64) << 3);
  OUT(__match_any_sync(FULL, v & 3));
  { int pred; unsigned m = __match_all_sync(FULL, t / 64, &pred); OUT(m | (unsigned long long)pred << 32); }
  { int pred; unsigned m = __match_all_sync(FULL, v & 1, &pred); OUT(m | (unsigned long long)pred << 32); }
  OUT(__match_any_sync(FULL, (unsigned long long)(v & 1) << 40));
  OUT(__reduce_add_sync(FULL, v & 0xff));
  OUT(__reduce_min_sync(FULL, v));
  OUT(__reduce_max_sync(FULL, (int)v));
  OUT(__reduce_and_sync(FULL, v | 0x10000));
  OUT(__reduce_or_sync(FULL, v & 0x1111));
  OUT(__reduce_xor_sync(FULL, v));
  if (t & 1) OUT(__ballot_sync(0x55555555u << 1, v & 2));
  else OUT(__ballot_sync(0x55555555u, v & 4));
  OUT(__syncthreads_count(v & 1));
  OUT(__syncthreads_and(t < 200));
  OUT(__syncthreads_or(t == 77));
  OUT(__syncthreads_and(t < 300));
  atomicAdd(&s_sum, (int)(v & 0xff));
  atomicMax(&s_max, (int)v);
  atomicAdd(&s_f, (float)(t & 7));
  atomicInc(&s_inc, 100);
  atomicDec(&s_dec, 60);
  atomicXor(&s_xor, v);
  atomicExch(&s_exch, 5);
  { unsigned long long old = s_cas, assumed;
    do { assumed = old; old = atomicCAS(&s_cas, assumed, assumed + (t | 1)); } while (old != assumed); }
  atomicAdd(&gacc, (unsigned long long)t * 3);
  atomicMin(&gmin, (int)(v ^ 0x12345678));
  atomicOr(&gbits, 1u << (t & 31));
  atomicAdd(&gdsum, (double)(t & 15));
  __syncthreads();
  OUT(s_sum); OUT(s_max); OUT(__float_as_uint(s_f)); OUT(s_inc); OUT(s_dec); OUT(s_xor); OUT(s_exch); OUT(s_cas);
  OUT(atomicAdd(&gacc, 0ull)); OUT(atomicOr(&gmin, 0)); OUT(atomicOr(&gbits, 0u));
  OUT(__double_as_longlong(atomicAdd(&gdsum, 0.0)));
  {
    int arr[16];
    for (int k = 0; k < 16; k++) arr[k] = (int)mix32(t + k * 977u);
    OUT(arr[v & 15] + arr[(v >> 4) & 15]);
    OUT(pick(arr, (v >> 8) & 15));
  }
  OUT(gtab[t & 7] + ctab[t & 3]);
  { S x{(int)v, (float)(t & 31), (long long)v << 17}; S r = combine(x, (int)t);
    OUT((unsigned)r.a); OUT(__float_as_uint(r.b)); OUT(r.c); }
  OUT(sw((int)t, (int)v));
  OUT(sw((int)(v >> 3), (int)t));
  OUT(__clz(v) | __popc(v) << 8 | __ffs(v) << 16);
  OUT(__brev(v));
  OUT(__byte_perm(v, t, 0x3715));
  OUT(__funnelshift_l(v, t, v >> 27));
  OUT(__funnelshift_rc(v, t, v >> 26));
  OUT(__mulhi((int)v, (int)(t * 12345)));
  OUT(__umul64hi((unsigned long long)v * 0x9e3779b97f4a7c15ull, 0xdeadbeefcafef00dull));
  OUT(__sad((int)v, (int)(t << 20), t));
  OUT(__vabsdiffu4(v, t * 0x01020304u));
  OUT(__vadd2(v, t * 0x00030001u));
  { float f = __uint_as_float((v & 0x807fffffu) | 0x3f800000u), g = (float)t + 0.25f;
    OUT(__float_as_uint(f * g + 1.0f)); OUT(__float_as_uint(sqrtf(g))); OUT(__float_as_uint(f / g));
    OUT(__float_as_uint(fmaf(f, g, -1.0f))); OUT(__float_as_uint(rintf(f * 10.0f))); OUT(__float_as_uint(truncf(g * f)));
    OUT(__half_as_ushort(__float2half_rn(f * g))); OUT(__float_as_uint(__half2float(__float2half_rz(g))));
    OUT((int)(f * 1000.0f)); OUT((unsigned)(g * 3.7f)); OUT(__float_as_uint((float)(int)v));
    OUT(__float_as_uint(fminf(f, g)) ^ __float_as_uint(fmaxf(-f, g)));
    OUT(__float_as_uint(expf(f))); OUT(__float_as_uint(logf(g))); OUT(__float_as_uint(sinf(f))); OUT(__float_as_uint(__fdividef(f, g)));
    double d = (double)f * g;
    OUT(__double_as_longlong(d / 3.0)); OUT(__double_as_longlong(sqrt(d))); OUT(__double_as_longlong(fma(d, d, -1.0)));
    OUT((long long)(d * 1e10)); OUT(__float_as_uint((float)d));
  }
  if (t == 0) nwritten = i;
}

static const char* const texts[] = {
  "tid", "shfl.up 3", "shfl.down 2 w8", "shfl.xor 5", "shfl.idx (t*7)&31", "shfl.idx 3 w16", "shfl.up 1 w4 u64",
  "ballot", "any/all/uni", "match.any", "match.all t/64", "match.all v&1", "match.any u64", "redux.add", "redux.min.u32",
  "redux.max.s32", "redux.and", "redux.or", "redux.xor", "ballot partial mask", "syncthreads_count", "syncthreads_and t<200",
  "syncthreads_or t==77", "syncthreads_and t<300",
  "s_sum", "s_max", "s_f", "s_inc", "s_dec", "s_xor", "s_exch", "s_cas", "gacc", "gmin", "gbits", "gdsum",
  "local arr", "pick local", "gtab+ctab", "combine.a", "combine.b", "combine.c", "sw(t)", "sw(v>>3)",
  "clz|popc|ffs", "brev", "byte_perm", "funnelshift_l", "funnelshift_rc", "mulhi", "umul64hi", "sad", "vabsdiffu4", "vadd2",
  "f*g+1", "sqrtf", "f/g", "fmaf", "rintf", "truncf", "float2half_rn", "half2float(rz)", "(int)f*1000", "(unsigned)g*3.7",
  "(float)(int)v", "fminf^fmaxf", "~expf", "~logf", "~sinf", "~fdividef", "d/3", "sqrt(d)", "fma(d,d,-1)", "(ll)d*1e10", "(float)d"};

int main() {
  int n = sizeof texts / sizeof texts[0];
  dump("k_misc", k_misc, n, texts);
  unsigned w = 0;
  CHECK(cudaMemcpyFromSymbol(&w, nwritten, sizeof w));
  if ((int)w != n) { fprintf(stderr, "k_misc wrote %u ops, names %d\n", w, n); return 1; }
  return 0;
}
