// latency2.cu: dependent-chain latencies of what pipeline.cu's lat_chains leaves out: integer division and
// remainder (which have no hardware unit: ptxas expands them into instruction sequences, 64-bit ones with a
// run-time test for operands that fit in 32 bits), IEEE float division and square root, and local memory.
// Same conventions as pipeline.cu: ONE thread, each chain `iters` operations (16 per loop trip, inline PTX in
// `asm volatile`), each consuming the previous result; out[k] = clock64 after chain k - before it.
// Output CSV "bench,config,metric,median,min,max,runs": cycles per operation over 3 runs (after a warm-up launch).
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o latency2 latency2.cu
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <vector>

#include "bench.h"

#define X4(S) S "\n\t" S "\n\t" S "\n\t" S

// a: a run-time value near 2^31 (0x9e3779b9 on the host), b: a small one (12345).
extern "C" __global__ void lat_chains2(int iters, uint32_t a, uint32_t b, long long* out) {
  uint32_t x = b, r = a;
  int32_t sx = (int32_t)b, sr = (int32_t)a;
  const uint32_t ka = a, kb = b;
  uint64_t q = b, qr = a;
  const uint64_t qa = a, qbig = ((uint64_t)a << 32) | a, qb = b;
  float f = 1.0f + (float)(b & 0xff) * (1.0f / 256.0f);
  const float fk = 3.0f + (float)(a & 1);
  double d = (double)f;
  const double dk = (double)fk;
  // 0 div.u32: x = a / x (alternates between two non-zero values)
  CHAIN(0, asm volatile(X4("div.u32 %0, %1, %0;") : "+r"(x) : "r"(ka));)
  // 1 rem.u32: r = r % b (the same instruction sequence whatever the values)
  CHAIN(1, asm volatile(X4("rem.u32 %0, %0, %1;") : "+r"(r) : "r"(kb));)
  // 2 div.s32
  CHAIN(2, asm volatile(X4("div.s32 %0, %1, %0;") : "+r"(sx) : "r"((int32_t)ka));)
  // 3 rem.s32
  CHAIN(3, asm volatile(X4("rem.s32 %0, %0, %1;") : "+r"(sr) : "r"((int32_t)kb));)
  // 4 div.u64 whose operands fit in 32 bits (ptxas's fast path)
  CHAIN(4, asm volatile(X4("div.u64 %0, %1, %0;") : "+l"(q) : "l"(qa));)
  // 5 rem.u64 whose operands fit in 32 bits (pipeline.cu's producer does this once per tile)
  CHAIN(5, asm volatile(X4("rem.u64 %0, %0, %1;") : "+l"(qr) : "l"(qb));)
  // 6 div.u64 with a dividend above 2^32 (the full 64-bit subroutine)
  uint64_t qq = ((uint64_t)b << 20) | 1;
  CHAIN(6, asm volatile(X4("div.u64 %0, %1, %0;") : "+l"(qq) : "l"(qbig));)
  // 7 div.rn.f32: f = fk / f
  CHAIN(7, asm volatile(X4("div.rn.f32 %0, %1, %0;") : "+f"(f) : "f"(fk));)
  // 8 sqrt.rn.f32
  float g = f + 2.0f;
  CHAIN(8, asm volatile(X4("sqrt.rn.f32 %0, %0;") : "+f"(g));)
  // 9 div.rn.f64
  CHAIN(9, asm volatile(X4("div.rn.f64 %0, %1, %0;") : "+d"(d) : "d"(dk));)
  // 10 div.approx.f32 (__fdividef)
  float h = f + 1.5f;
  CHAIN(10, asm volatile(X4("div.approx.f32 %0, %1, %0;") : "+f"(h) : "f"(fk));)
  // 11 local memory: st.local then ld.local of the same word (a per-thread array whose address is taken)
  uint32_t lb[8];
  const int li = (int)(b & 7);
  lb[li] = x;
  uint32_t lv = x;
  const uint32_t* lp = &lb[li];
  CHAIN(11, asm volatile("{\n\t.reg .u64 la;\n\tcvta.to.local.u64 la, %1;\n\t"
                         X4("st.local.u32 [la], %0;\n\tld.local.u32 %0, [la];") "\n\t}"
                         : "+r"(lv) : "l"(lp) : "memory");)
  // 12 local memory load chain: ld.local.u32 p = [p] (the word holds its own local address)
  uint32_t lc[8];
  uint32_t lcl;
  asm volatile("{\n\t.reg .u64 la;\n\tcvta.to.local.u64 la, %1;\n\tcvt.u32.u64 %0, la;\n\t}" : "=r"(lcl) : "l"(&lc[li]));
  lc[li] = lcl;
  uint32_t pp = lcl;
  CHAIN(12, asm volatile(X4("ld.local.u32 %0, [%0];") : "+r"(pp) :: "memory");)
  out[32] = (long long)x + r + sx + sr + (long long)q + (long long)qr + (long long)qq + (long long)__float_as_uint(f) +
            (long long)__float_as_uint(g) + (long long)__double_as_longlong(d) + (long long)__float_as_uint(h) + lv + pp + lb[(li + 1) & 7] + lc[(li + 2) & 7];
}

__global__ void k_spin(long long cycles, int* sink) {
  const long long s = clock64();
  while (clock64() - s < cycles) {}
  if (threadIdx.x == 0 && sink) sink[blockIdx.x] = 1;
}

int main() {
  const int RUNS = 3, iters = 1024, N = 13;
  static const char* names[N] = {"div_u32", "rem_u32", "div_s32", "rem_s32", "div_u64_32bit_values", "rem_u64_32bit_values",
                                 "div_u64_64bit_dividend", "div_rn_f32", "sqrt_rn_f32", "div_rn_f64", "div_approx_f32",
                                 "local_st_ld_same_word_pair", "local_ld_chain"};
  long long* dout; CK(cudaMalloc(&dout, 64 * sizeof(long long)));
  int* sink; CK(cudaMalloc(&sink, 1024 * sizeof(int)));
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  k_spin<<<prop.multiProcessorCount, 32>>>(100000000LL, sink); CK(cudaDeviceSynchronize());
  std::vector<long long> h(64);
  std::vector<std::vector<double>> v(N);
  for (int r = 0; r <= RUNS; r++) {
    lat_chains2<<<1, 1>>>(iters, 0x9e3779b9u, 12345u, dout);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h.data(), dout, 64 * sizeof(long long), cudaMemcpyDeviceToHost));
    if (r > 0) for (int k = 0; k < N; k++) v[k].push_back((double)h[k] / iters);
  }
  printf("bench,config,metric,median,min,max,runs\n");
  for (int k = 0; k < N; k++) {
    std::sort(v[k].begin(), v[k].end());
    printf("latency_chain2,%s,cycles_per_op,%.2f,%.2f,%.2f,%d\n", names[k], v[k][1], v[k][0], v[k][2], RUNS);
  }
  return 0;
}
