// wgmma_rate.cu: the tensor pipe's rate for the wgmma stream of a GEMM main loop (apps/h200/gemm_wgmma.cu):
// W warpgroups (1 or 2) each issue R groups of four wgmma.mma_async m64n128 from shared-memory descriptors
// (128B swizzle, f16 k16 or e4m3 k32; the operands are zero), committing each group and then waiting with
// wait_group LAG (1: the GEMM's pipelining, the previous group may still run; 0: every group completes before
// the next is issued). Thread 0 of each warpgroup times its loop with clock64; one CSV row per configuration:
// type,warpgroups,lag,groups,cycles (the slowest warpgroup's), cycles_per_wgmma.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a wgmma_rate.cu -o wgmma_rate
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>

__device__ __forceinline__ uint64_t sdesc(uint32_t addr) {
  return (uint64_t)((addr & 0x3ffff) >> 4) | (1ull << 16) | (64ull << 32) | (1ull << 62);
}
__device__ __forceinline__ void mma_f16(float (&d)[64], uint64_t da, uint64_t db, int scale_d) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, 1, 0, 0;\n}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
               : "l"(da), "l"(db), "r"(scale_d));
}

__device__ __forceinline__ void mma_e4m3(float (&d)[64], uint64_t da, uint64_t db, int scale_d) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, 1;\n}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
               : "l"(da), "l"(db), "r"(scale_d));
}

template <bool FP8, int LAG>
__global__ void __launch_bounds__(256, 1) rate(int groups, long long* out) {
  extern __shared__ __align__(1024) uint8_t smem[];
  const uint32_t base = ((uint32_t)__cvta_generic_to_shared(smem) + 1023u) & ~1023u;
  for (int i = threadIdx.x * 16; i < 24576; i += blockDim.x * 16)
    *(uint4*)(smem + (base - (uint32_t)__cvta_generic_to_shared(smem)) + i) = make_uint4(0, 0, 0, 0);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  float d[64];
#pragma unroll
  for (int j = 0; j < 64; j++) d[j] = 0.0f;
  const uint64_t da = sdesc(base), db = sdesc(base + 8192);
  const long long t0 = clock64();
  for (int g = 0; g < groups; g++) {
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
    for (int k = 0; k < 4; k++) {
      if constexpr (FP8) mma_e4m3(d, da + 2 * k, db + 2 * k, 1);
      else mma_f16(d, da + 2 * k, db + 2 * k, 1);
    }
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned %0;" :: "n"(LAG) : "memory");
  }
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  const long long t1 = clock64();
  float s = 0;
#pragma unroll
  for (int j = 0; j < 64; j++) s += d[j];
  if (threadIdx.x % 128 == 0) out[threadIdx.x / 128] = t1 - t0 + (s == 12345.0f);
}

template <bool FP8, int LAG> static void one(int wgs, int groups, long long* out) {
  const void* k = (const void*)rate<FP8, LAG>;
  cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 25600);
  long long best = -1;
  for (int rep = 0; rep < 3; rep++) {
    rate<FP8, LAG><<<1, 128 * wgs, 25600>>>(groups, out);
    if (cudaDeviceSynchronize() != cudaSuccess) { fprintf(stderr, "launch failed\n"); return; }
    long long h[2] = {0, 0};
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    long long c = wgs == 2 && h[1] > h[0] ? h[1] : h[0];
    if (rep > 0 && (best < 0 || c < best)) best = c;
  }
  printf("%s,%d,%d,%d,%lld,%.2f\n", FP8 ? "e4m3" : "f16", wgs, LAG, groups, best, (double)best / (4.0 * groups));
}

int main() {
  long long* out;
  cudaMalloc(&out, 16);
  printf("type,warpgroups,lag,groups,cycles,cycles_per_wgmma\n");
  for (int wgs = 1; wgs <= 2; wgs++)
    for (int groups : {1, 4, 16, 64}) {
      one<false, 1>(wgs, groups, out);
      one<false, 0>(wgs, groups, out);
      one<true, 1>(wgs, groups, out);
      one<true, 0>(wgs, groups, out);
    }
  return 0;
}
