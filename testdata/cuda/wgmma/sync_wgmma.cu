// sync_wgmma.cu: which of a pipeline's own latencies does a wgmma stream lengthen? copy_wgmma2.cu: beside
// wgmma_stream.h's wgmmas, a copy agent's stages (wait on a slot's mbarrier, arrive.expect_tx, issue its copy) come
// 25 % further apart. mbarriers live in shared memory, which the tensor cores read their operands from. One CTA of
// 256 threads; warpgroup 0 runs the wgmma stream (256 groups, 66k cycles) when wg is 1; warp 4 (lane 0 or, for op 6, all of warp 4 and 5)
// runs 256 trips (op 5: 32) of a dependent chain of kind op, timed with clock64:
//   1 mbarrier.arrive on a one-arrival barrier, then try_wait.parity on the phase it completed (SYNCS round trip);
//   2 ld.shared.u32 pointer chase (LDS);
//   3 ld.const.u32 pointer chase through a __constant__ table (LDC);
//   4 a 128-byte bulk copy global→shared and the wait on its mbarrier (the copy engine's round trip, L2 hits);
//   5 a 16 KiB bulk copy and its wait;
//   6 a ping-pong: warps 4 and 5 hand a token back and forth through two mbarriers (each trip two hand-offs);
//   7 fence.proxy.async.shared::cta (FENCE.VIEW.ASYNC.S) then a dependent ld.shared.
// Row: wg,op,wgmma_cycles,chain_cycles; each configuration runs three times, the row is the third.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o sync_wgmma sync_wgmma.cu (and -cubin, -ptx;
// cuobjdump -sass sync_wgmma.cubin)
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>

#include "wgmma_stream.h"

constexpr int G = 256, OPS = 24576, SMEM = OPS + 32768 + 1024;
__constant__ uint32_t ctab[256];

__device__ __forceinline__ uint32_t sa(const void* p) { return (uint32_t)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void mb_wait(uint32_t b, uint32_t par) {
  asm volatile("{\n\t.reg .pred p;\n\tW_%=:\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n\t@!p bra W_%=;\n\t}"
               :: "r"(b), "r"(par) : "memory");
}
__device__ __forceinline__ void mb_arrive(uint32_t b) {
  asm volatile("{\n\t.reg .b64 st;\n\tmbarrier.arrive.shared::cta.b64 st, [%0];\n\t}" :: "r"(b) : "memory");
}
__device__ __forceinline__ void mb_arrive_tx(uint32_t b, uint32_t tx) {
  asm volatile("{\n\t.reg .b64 st;\n\tmbarrier.arrive.expect_tx.shared::cta.b64 st, [%0], %1;\n\t}" :: "r"(b), "r"(tx) : "memory");
}

__global__ void __launch_bounds__(256, 1) sync_wgmma(int wg, int op, const uint8_t* src, long long* out, uint32_t* sink) {
  extern __shared__ __align__(1024) uint8_t smem[];
  __shared__ __align__(8) uint64_t bar[3];
  __shared__ uint32_t chase[256];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const uint32_t raw = sa(smem), base = (raw + 1023u) & ~1023u;
  uint8_t* ops = smem + (base - raw);
  for (int i = threadIdx.x * 16; i < OPS; i += 256 * 16) *(uint4*)(ops + i) = make_uint4(0, 0, 0, 0);
  chase[threadIdx.x] = (threadIdx.x * 37 + 11) & 255;
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  if (threadIdx.x == 0) {
    for (int s = 0; s < 3; s++) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(sa(&bar[s])));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    out[0] = out[1] = 0;
  }
  __syncthreads();
  if (warp < 4) {
    if (wg) wgmma_stream<G>(base, out, sink);
    return;
  }
  const bool agent = op == 6 ? (warp == 4 || warp == 5) : (warp == 4 && lane == 0);
  if (!agent) return;
  const uint32_t b0 = sa(&bar[0]), b1 = sa(&bar[1]), dst = base + OPS;
  uint32_t x = threadIdx.x & 7;
  const long long t0 = clock64();
  const int N = op == 5 ? 32 : 256;
  for (int n = 0; n < N; n++) {
    switch (op) {
      case 1: mb_arrive(b0 + (x & 0)); mb_wait(b0, n & 1); break;
      case 2: x = chase[x]; break;
      case 3: x = ctab[x]; break;
      case 4: mb_arrive_tx(b0, 128);
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 128, [%2];"
                     :: "r"(dst), "l"(src + (size_t)(n % 64) * 128 + (x & 0)), "r"(b0) : "memory");
        mb_wait(b0, n & 1); break;
      case 5: mb_arrive_tx(b0, 16384);
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 16384, [%2];"
                     :: "r"(dst), "l"(src + (size_t)(n % 64) * 16384 + (x & 0)), "r"(b0) : "memory");
        mb_wait(b0, n & 1); break;
      case 6:
        if (warp == 4) { mb_wait(b0, n & 1); if (lane == 0) mb_arrive(b1); }
        else { if (n == 0 && lane == 0) mb_arrive(b0); mb_wait(b1, n & 1); if (lane == 0 && n + 1 < N) mb_arrive(b0); }
        break;
      case 7: asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); x = chase[x]; break;
    }
  }
  const long long t1 = clock64();
  if (threadIdx.x == 128) out[1] = t1 - t0;
  if (x == 12345) sink[1] = x;
}

int main() {
  uint8_t* src;
  long long* out;
  uint32_t* sink;
  uint32_t h[256];
  for (int i = 0; i < 256; i++) h[i] = (i * 53 + 7) & 255;
  cudaMemcpyToSymbol(ctab, h, sizeof h);
  cudaMalloc(&src, 1 << 20);
  cudaMemset(src, 1, 1 << 20);
  cudaMalloc(&out, 16);
  cudaMalloc(&sink, 8);
  cudaFuncSetAttribute(sync_wgmma, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM);
  printf("wg,op,wgmma_cycles,chain_cycles\n");
  for (int op = 1; op <= 7; op++)
    for (int wg = 0; wg < 2; wg++) {
      long long r[2];
      for (int run = 0; run < 3; run++) {
        sync_wgmma<<<1, 256, SMEM>>>(wg, op, src, out, sink);
        if (cudaDeviceSynchronize() != cudaSuccess) { fprintf(stderr, "launch failed\n"); return 1; }
        cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
      }
      printf("%d,%d,%lld,%lld\n", wg, op, r[0], r[1]);
    }
  return 0;
}
