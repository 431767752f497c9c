// class_wgmma.cu: which instructions does a wgmma stream slow? sync_wgmma.cu: beside wgmma_stream.h's wgmmas, one
// thread's trips of shared loads, constant loads and mbarrier operations (with their loop's dispatch) take 14-28
// cycles more, alu_wgmma.cu's FFMA chain (eight a trip) 0.6. One CTA of 256 threads; warpgroup 0 runs the wgmma
// stream (256 groups, 66k cycles) when wg is 1; warp 4 (all 32 lanes) runs 512 trips of eight dependent operations
// of class op, timed with clock64 by its lane 0:
//   1 add.u32 of three terms (IADD3); 2 mad.lo.u32 (IMAD); 3 fma.rn.f32 (FFMA); 4 ld.shared.u32 pointer chase, each
//   lane in its own bank (LDS); 5 ld.const.u32 pointer chase, the same address in every lane (LDC); 6 shfl.sync.idx
//   (SHFL); 7 ld.global.u32 pointer chase in one L1-resident line a lane (LDG); 8 ex2.approx.f32 (MUFU.EX2).
// Row: wg,op,wgmma_cycles,chain_cycles; each configuration runs three times, the row is the third.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o class_wgmma class_wgmma.cu (and -cubin, -ptx;
// cuobjdump -sass class_wgmma.cubin)
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>

#include "wgmma_stream.h"

constexpr int G = 256, TRIPS = 512, OPS = 24576, SMEM = OPS + 1024;
__constant__ uint32_t ctab[256];

template <int OP> __device__ __noinline__ uint32_t chain(uint32_t x, const uint32_t* sm, const uint32_t* gp) {
  const uint32_t lane = threadIdx.x & 31;
  float f = (float)x;
#pragma unroll 1
  for (int n = 0; n < TRIPS; n++) {
#pragma unroll
    for (int i = 0; i < 8; i++) {
      if constexpr (OP == 1) asm volatile("add.u32 %0, %0, %1;\n\tadd.u32 %0, %0, 1;" : "+r"(x) : "r"(lane));
      if constexpr (OP == 2) asm volatile("mad.lo.u32 %0, %0, 3, %1;" : "+r"(x) : "r"(lane));
      if constexpr (OP == 3) asm volatile("fma.rn.f32 %0, %0, 0f3F7FBE77, 0f3F000000;" : "+f"(f));
      if constexpr (OP == 4) x = sm[(x & 7) * 32 + lane];
      if constexpr (OP == 5) x = ctab[x & 255];
      if constexpr (OP == 6) x = __shfl_sync(0xffffffffu, x, (x + 1) & 31);
      if constexpr (OP == 7) x = gp[lane * 32 + (x & 31)];
      if constexpr (OP == 8) asm volatile("ex2.approx.f32 %0, %0;" : "+f"(f));
    }
  }
  return x + (uint32_t)f;
}

__global__ void __launch_bounds__(256, 1) class_wgmma(int wg, int op, const uint32_t* gp, long long* out, uint32_t* sink) {
  extern __shared__ __align__(1024) uint8_t smem[];
  __shared__ uint32_t tab[256];
  const int warp = threadIdx.x / 32;
  const uint32_t raw = (uint32_t)__cvta_generic_to_shared(smem), base = (raw + 1023u) & ~1023u;
  uint8_t* ops = smem + (base - raw);
  for (int i = threadIdx.x * 16; i < OPS; i += 256 * 16) *(uint4*)(ops + i) = make_uint4(0, 0, 0, 0);
  tab[threadIdx.x] = ((threadIdx.x / 32) * 5 + 3) & 7;
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  if (threadIdx.x == 0) out[0] = out[1] = 0;
  __syncthreads();
  if (warp < 4) {
    if (wg) wgmma_stream<G>(base, out, sink);
    return;
  }
  if (warp != 4) return;
  uint32_t x = 5;
  const long long t0 = clock64();
  switch (op) {
    case 1: x = chain<1>(x, tab, gp); break;
    case 2: x = chain<2>(x, tab, gp); break;
    case 3: x = chain<3>(x, tab, gp); break;
    case 4: x = chain<4>(x, tab, gp); break;
    case 5: x = chain<5>(x, tab, gp); break;
    case 6: x = chain<6>(x, tab, gp); break;
    case 7: x = chain<7>(x, tab, gp); break;
    case 8: x = chain<8>(x, tab, gp); break;
  }
  const long long t1 = clock64();
  if (threadIdx.x == 128) out[1] = t1 - t0;
  if (x == 12345) sink[1] = x;
}

int main() {
  uint32_t h[1024];
  for (int i = 0; i < 256; i++) h[i] = (i * 53 + 7) & 255;
  cudaMemcpyToSymbol(ctab, h, 256 * 4);
  for (int i = 0; i < 1024; i++) h[i] = (i * 7 + 3) & 31;
  uint32_t* gp;
  long long* out;
  uint32_t* sink;
  cudaMalloc(&gp, 4096);
  cudaMemcpy(gp, h, 4096, cudaMemcpyHostToDevice);
  cudaMalloc(&out, 16);
  cudaMalloc(&sink, 8);
  cudaFuncSetAttribute(class_wgmma, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM);
  printf("wg,op,wgmma_cycles,chain_cycles\n");
  for (int op = 1; op <= 8; op++)
    for (int wg = 0; wg < 2; wg++) {
      long long r[2];
      for (int run = 0; run < 3; run++) {
        class_wgmma<<<1, 256, SMEM>>>(wg, op, gp, out, sink);
        if (cudaDeviceSynchronize() != cudaSuccess) { fprintf(stderr, "launch failed\n"); return 1; }
        cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
      }
      printf("%d,%d,%lld,%lld\n", wg, op, r[0], r[1]);
    }
  return 0;
}
