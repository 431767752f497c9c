// copy_wgmma.cu: what makes a stream of bulk copies slow beside a wgmma stream? tma_wgmma.cu's stages of an 8 and a
// 16 KiB copy slow 21 % beside wgmma_stream.h's wgmmas (tensor boxes 12 %), calibration/h200/wgmma_share.cu's
// 16 KiB copies, one a stage, 1.5 %; the two also differ in the bytes copied (ones against zeros). One CTA of 256
// threads: warpgroup 0 runs the wgmma stream when wg is 1 (64 groups of four m64n128k16 f16, 16.5k cycles, over
// 24 KiB of zeros at the start of shared memory); warp 4 lane 0 copies 1 MiB from an L2-resident 1 MiB buffer
// (filled with fill: 0 or 1 bytes) through four slots after the wgmma's operands, a stage of cps 1-D bulk copies of
// size bytes each (or, with tensor, tma_wgmma.cu's GEMM stage: an A box of 64 and a B box of 128 rows of 128 bytes,
// 128B-swizzled) on one mbarrier, waiting for a slot's previous stage before reusing it. The copies end before the
// wgmmas do, so every copy runs beside them.
// Row: wg,tensor,size,cps,fill,wgmma_cycles,copy_cycles; each configuration runs three times, the row is the third.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o copy_wgmma copy_wgmma.cu -lcuda (and -cubin,
// -ptx; cuobjdump -sass copy_wgmma.cubin)
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>

#include "wgmma_stream.h"

__device__ __forceinline__ uint32_t sa(const void* p) { return (uint32_t)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void mb_wait(uint64_t* b, uint32_t par) {
  asm volatile("{\n\t.reg .pred p;\n\tW_%=:\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n\t@!p bra W_%=;\n\t}"
               :: "r"(sa(b)), "r"(par) : "memory");
}

constexpr int G = 64, SLOTS = 4, OPS = 24576, TOTAL = 1 << 20, SMEM = OPS + SLOTS * 32768 + 1024;

__device__ void copies(int tensor, int size, int cps, const CUtensorMap* ma, const CUtensorMap* mb, const uint8_t* src,
                       uint32_t ring, uint64_t* full, long long* out) {
  const int slot = tensor ? 24576 : size * cps, stages = TOTAL / slot;
  const long long t0 = clock64();
  for (int i = 0; i < stages; i++) {
    const int s = i % SLOTS;
    if (i >= SLOTS) mb_wait(&full[s], ((i / SLOTS) - 1) & 1);
    const uint32_t dst = ring + s * 32768, b = sa(&full[s]);
    asm volatile("{\n\t.reg .b64 st;\n\tmbarrier.arrive.expect_tx.shared::cta.b64 st, [%0], %1;\n\t}" :: "r"(b), "r"(slot) : "memory");
    if (tensor) {
      asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                   :: "r"(dst), "l"((uint64_t)ma), "r"((i % 16) * 64), "r"((i / 16 % 4) * 64), "r"(b) : "memory");
      asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                   :: "r"(dst + 8192), "l"((uint64_t)mb), "r"((i % 16) * 64), "r"((i / 16 % 4) * 128), "r"(b) : "memory");
    } else {
      for (int k = 0; k < cps; k++)
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                     :: "r"(dst + k * size), "l"(src + ((size_t)i * slot + k * size) % TOTAL), "r"(size), "r"(b) : "memory");
    }
  }
  for (int i = stages; i < stages + SLOTS; i++) mb_wait(&full[i % SLOTS], ((i / SLOTS) - 1) & 1);
  out[1] = clock64() - t0;
}

__global__ void __launch_bounds__(256, 1) copy_wgmma(const __grid_constant__ CUtensorMap ma, const __grid_constant__ CUtensorMap mb,
                                                     const uint8_t* src, int wg, int tensor, int size, int cps, long long* out,
                                                     uint32_t* sink) {
  extern __shared__ __align__(1024) uint8_t smem[];
  __shared__ __align__(8) uint64_t full[SLOTS];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const uint32_t raw = sa(smem), base = (raw + 1023u) & ~1023u;
  uint8_t* ops = smem + (base - raw);
  for (int i = threadIdx.x * 16; i < OPS; i += 256 * 16) *(uint4*)(ops + i) = make_uint4(0, 0, 0, 0);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  if (threadIdx.x == 0) {
    for (int s = 0; s < SLOTS; s++) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(sa(&full[s])));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    out[0] = out[1] = 0;
  }
  __syncthreads();
  if (warp < 4 && wg) wgmma_stream<G>(base, out, sink);
  if (warp == 4 && lane == 0) copies(tensor, size, cps, &ma, &mb, src, base + OPS, full, out);
  __syncthreads();
}

static CUresult encode(CUtensorMap* m, void* g, int rows) {
  const cuuint64_t gdim[2] = {1024, 512}, gstride[1] = {1024 * 2};
  const cuuint32_t box[2] = {64, (cuuint32_t)rows}, es[2] = {1, 1};
  return cuTensorMapEncodeTiled(m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, g, gdim, gstride, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

int main() {
  uint8_t* g[2];
  long long* out;
  uint32_t* sink;
  for (int f = 0; f < 2; f++) {
    cudaMalloc(&g[f], TOTAL);
    cudaMemset(g[f], f, TOTAL);
  }
  cudaMalloc(&out, 2 * sizeof(long long));
  cudaMalloc(&sink, 8);
  cudaFuncSetAttribute(copy_wgmma, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM);
  CUtensorMap m[2][2];
  for (int f = 0; f < 2; f++)
    if (encode(&m[f][0], g[f], 64) != CUDA_SUCCESS || encode(&m[f][1], g[f], 128) != CUDA_SUCCESS) {
      fprintf(stderr, "encode failed\n");
      return 1;
    }
  printf("wg,tensor,size,cps,fill,wgmma_cycles,copy_cycles\n");
  const int cfg[][3] = {{0, 4096, 1}, {0, 4096, 2}, {0, 8192, 1}, {0, 8192, 2}, {0, 16384, 1}, {0, 16384, 2},
                        {0, 32768, 1}, {1, 0, 0}};
  for (int fill = 0; fill < 2; fill++)
    for (auto& c : cfg)
      for (int wg = 0; wg < 2; wg++) {
        long long h[2];
        for (int run = 0; run < 3; run++) {
          copy_wgmma<<<1, 256, SMEM>>>(m[fill][0], m[fill][1], g[fill], wg, c[0], c[1], c[2], out, sink);
          if (cudaDeviceSynchronize() != cudaSuccess) { fprintf(stderr, "launch failed\n"); return 1; }
          cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
        }
        printf("%d,%d,%d,%d,%d,%lld,%lld\n", wg, c[0], c[1], c[2], fill, h[0], h[1]);
      }
  return 0;
}
