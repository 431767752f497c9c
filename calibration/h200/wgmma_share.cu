// wgmma_share.cu: do the tensor cores' shared-memory operand reads and the copy engine's writes into shared
// memory share the data array that the warps' shared loads use (one 128-byte wavefront a cycle)? One CTA of
// 256 threads runs up to three agents, each timing itself with clock64 (first thread of the agent):
//   mode bit 0, warpgroup 0: G groups of four wgmma m64n128k16 f16 from 128B-swizzled descriptors (A 8 KiB,
//     B 16 KiB at shared 0 and 8 KiB; zeros), wait_group 1 after each (the GEMM's stream: 6 KiB read a wgmma);
//   mode bit 1, warp 4 lane 0: C 1-D bulk copies of 16 KiB from a 1 MiB global buffer (L2-resident after the
//     first launch) into four 16 KiB slots at shared 24 KiB, four in flight, one mbarrier a slot;
//   mode bit 2, warps 5-7: L iterations of a 128-bit shared load per thread (four wavefronts a warp) at shared
//     88 KiB, folded into a register.
// (Measured: ptxas hoisted the eight distinct 128-bit loads out of the bit-2 loop, wgmma_share.sass, so lds_cycles
// times 8 loads and a spin, not a load stream: that column measures nothing.)
// Each configuration runs three times; the CSV row is the last: mode,wgmma_cycles,copy_cycles,lds_cycles
// (0 where the agent did not run), so that each agent's rate alone and together can be compared.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a wgmma_share.cu -o wgmma_share
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

constexpr int G = 64, C = 128, L = 1024, SMEM = 24576 + 65536 + 16384 + 1024;

__global__ void __launch_bounds__(256, 1) share(int mode, const uint8_t* src, long long* out, uint32_t* sink) {
  extern __shared__ __align__(1024) uint8_t smem[];
  __shared__ __align__(8) uint64_t bar[4];
  const uint32_t raw = (uint32_t)__cvta_generic_to_shared(smem), base = (raw + 1023u) & ~1023u;
  uint8_t* sm = smem + (base - raw);
  for (int i = threadIdx.x * 16; i < SMEM - 1024; i += 256 * 16) *(uint4*)(sm + i) = make_uint4(0, 0, 0, 0);
  if (threadIdx.x == 0)
    for (int s = 0; s < 4; s++) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"((uint32_t)__cvta_generic_to_shared(&bar[s])));
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  __syncthreads();
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (warp < 4) {
    if (!(mode & 1)) return;
    float d[64];
#pragma unroll
    for (int j = 0; j < 64; j++) d[j] = 0.0f;
    const uint64_t da = sdesc(base), db = sdesc(base + 8192);
    const long long t0 = clock64();
    for (int g = 0; g < G; g++) {
      asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
      for (int k = 0; k < 4; k++) mma_f16(d, da + 2 * k, db + 2 * k, 1);
      asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
      asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
    }
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    const long long t1 = clock64();
    float s = 0;
#pragma unroll
    for (int j = 0; j < 64; j++) s += d[j];
    if (threadIdx.x == 0) { out[0] = t1 - t0; sink[0] = (uint32_t)s; }
  } else if (warp == 4) {
    if (!(mode & 2) || lane != 0) return;
    const long long t0 = clock64();
    for (int c = 0; c < C; c++) {
      const int s = c % 4;
      const uint32_t b = (uint32_t)__cvta_generic_to_shared(&bar[s]);
      if (c >= 4) {
        const uint32_t par = ((c / 4) - 1) & 1;
        asm volatile("{\n\t.reg .pred p;\n\tW_%=:\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n\t@!p bra W_%=;\n\t}" :: "r"(b), "r"(par) : "memory");
      }
      asm volatile("{\n\t.reg .b64 st;\n\tmbarrier.arrive.expect_tx.shared::cta.b64 st, [%0], 16384;\n\t}" :: "r"(b) : "memory");
      asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 16384, [%2];"
                   :: "r"(base + 24576 + s * 16384), "l"(src + (size_t)(c % 64) * 16384), "r"(b) : "memory");
    }
    for (int c = C - 4; c < C; c++) {
      const uint32_t b = (uint32_t)__cvta_generic_to_shared(&bar[c % 4]);
      const uint32_t par = (c / 4) & 1;
      asm volatile("{\n\t.reg .pred p;\n\tW_%=:\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n\t@!p bra W_%=;\n\t}" :: "r"(b), "r"(par) : "memory");
    }
    out[1] = clock64() - t0;
  } else {
    if (!(mode & 4)) return;
    const uint32_t p = base + 90112 + (threadIdx.x - 160) * 16;
    uint32_t x = 0;
    const long long t0 = clock64();
#pragma unroll 8
    for (int i = 0; i < L; i++) {
      uint32_t a, b, c, e;
      asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(a), "=r"(b), "=r"(c), "=r"(e) : "r"(p + (i & 7) * 1536));
      x ^= a + b + c + e;
    }
    const long long t1 = clock64();
    if (threadIdx.x == 160) out[2] = t1 - t0;
    if (x == 12345) sink[1] = x;
  }
}

int main() {
  uint8_t* src;
  long long* out;
  uint32_t* sink;
  cudaMalloc(&src, 1 << 20);
  cudaMemset(src, 0, 1 << 20);
  cudaMalloc(&out, 32);
  cudaMalloc(&sink, 8);
  cudaFuncSetAttribute(share, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM);
  printf("mode,wgmma_cycles,copy_cycles,lds_cycles\n");
  for (int mode : {1, 2, 4, 3, 5, 6, 7}) {
    long long h[3] = {0, 0, 0};
    for (int rep = 0; rep < 3; rep++) {
      cudaMemset(out, 0, 32);
      share<<<1, 256, SMEM>>>(mode, src, out, sink);
      if (cudaDeviceSynchronize() != cudaSuccess) { fprintf(stderr, "launch failed\n"); return 1; }
      cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    }
    printf("%d,%lld,%lld,%lld\n", mode, h[0], h[1], h[2]);
  }
  return 0;
}
