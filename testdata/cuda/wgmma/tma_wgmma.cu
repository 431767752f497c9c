// tma_wgmma.cu: does a stream of the held-out GEMM's tensor copies slow a wgmma stream, or the reverse, where
// calibration/h200/wgmma_share.cu's 1-D bulk copies and the wgmmas leave each other alone? In the GEMM
// (apps/h200/gemm_wgmma.cu) a four-stage K block takes the H200 396-481 cycles where its four wgmma need 260 and its
// copy ring alone 285 (docs/model.md). One CTA of 256 threads, up to three agents, each timing itself (clock64):
//   wgmma (mode bit 0, warpgroup 0): wgmma_stream.h's 64 groups of four wgmma m64n128k16 f16, A 8 KiB and B 16 KiB
//     of zeros at the start of shared memory, 128B-swizzled descriptors, wait_group 1 after each group;
//   copies (mode bits 1-2 = C, warp 4 lane 0): 64 stages through a ring of four 24 KiB slots after the wgmma's
//     operands, a stage an mbarrier, the thread waiting for a slot's previous stage before reusing it; a stage is
//     C = 1: two 1-D bulk copies of 8 and 16 KiB, C = 2: a GEMM stage, an A box (64 rows of 128 bytes) and a B
//     box (128 rows), 128B-swizzled, C = 3: the same boxes unswizzled; every source L2-resident;
//   stores (mode bit 3, warps 5-7): 512 st.global.v2.f32 a thread, eight rows of 32 bytes a warp instruction, each
//     its own 512-byte line (the GEMM's epilogue, tma_stg.cu's P = 1).
// Row: mode,wgmma_cycles,copy_cycles,store_cycles (0 where the agent did not run); each mode runs three times and
// the row is the third run.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o tma_wgmma tma_wgmma.cu -lcuda (and -cubin,
// -ptx; cuobjdump -sass tma_wgmma.cubin)
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>

#include "wgmma_stream.h"

__device__ __forceinline__ uint32_t sa(const void* p) { return (uint32_t)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void mb_init(uint64_t* b, uint32_t n) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(sa(b)), "r"(n) : "memory");
}
__device__ __forceinline__ void mb_arrive_tx(uint64_t* b, uint32_t tx) {
  asm volatile("{\n\t.reg .b64 st;\n\tmbarrier.arrive.expect_tx.shared::cta.b64 st, [%0], %1;\n\t}" :: "r"(sa(b)), "r"(tx) : "memory");
}
__device__ __forceinline__ void mb_wait(uint64_t* b, uint32_t par) {
  asm volatile("{\n\t.reg .pred p;\n\tW_%=:\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n\t@!p bra W_%=;\n\t}"
               :: "r"(sa(b)), "r"(par) : "memory");
}
__device__ __forceinline__ void tma2d(uint32_t dst, const CUtensorMap* map, int x, int y, uint64_t* b) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
               :: "r"(dst), "l"((uint64_t)map), "r"(x), "r"(y), "r"(sa(b)) : "memory");
}
__device__ __forceinline__ void bulk(uint32_t dst, const void* src, uint32_t n, uint64_t* b) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
               :: "r"(dst), "l"(src), "r"(n), "r"(sa(b)) : "memory");
}

constexpr int G = 64, STAGES = 64, SLOTS = 4, SLOT = 24576, K = 512, OPS = 24576;
constexpr int SMEM = OPS + SLOTS * SLOT + 1024;

__device__ void copy_agent(int c, const CUtensorMap* ma, const CUtensorMap* mb, const CUtensorMap* na,
                           const CUtensorMap* nb, const uint8_t* src, uint32_t ring, uint64_t* full, long long* out) {
  const long long t0 = clock64();
  for (int i = 0; i < STAGES; i++) {
    const int s = i % SLOTS;
    if (i >= SLOTS) mb_wait(&full[s], ((i / SLOTS) - 1) & 1);
    const uint32_t dst = ring + s * SLOT;
    mb_arrive_tx(&full[s], SLOT);
    if (c == 1) {
      const uint8_t* p = src + (size_t)(i % 40) * SLOT;
      bulk(dst, p, 8192, &full[s]);
      bulk(dst + 8192, p + 8192, 16384, &full[s]);
    } else {
      tma2d(dst, c == 2 ? ma : na, (i % 16) * 64, (i / 16 % 4) * 64, &full[s]);
      tma2d(dst + 8192, c == 2 ? mb : nb, (i % 16) * 64, (i / 16 % 4) * 128, &full[s]);
    }
  }
  for (int i = STAGES; i < STAGES + SLOTS; i++) mb_wait(&full[i % SLOTS], ((i / SLOTS) - 1) & 1);
  out[1] = clock64() - t0;
}

__device__ void store_agent(float* gbuf, int w, int lane, long long* out) {
  const float v = (float)threadIdx.x;
  const long long t0 = clock64();
#pragma unroll 16
  for (int k = 0; k < K; k++) {
    const size_t row = (size_t)((k * 4 + w) * 8 + lane / 4);
    *reinterpret_cast<float2*>(gbuf + row * 128 + (k % 16) * 8 + 2 * (lane % 4)) = make_float2(v, v);
  }
  const long long t1 = clock64();
  if (threadIdx.x == 160) out[2] = t1 - t0;
}

__global__ void __launch_bounds__(256, 1) tma_wgmma(const __grid_constant__ CUtensorMap ma, const __grid_constant__ CUtensorMap mb,
                                                    const __grid_constant__ CUtensorMap na, const __grid_constant__ CUtensorMap nb,
                                                    const uint8_t* src, int mode, float* gbuf, long long* out, uint32_t* sink) {
  extern __shared__ __align__(1024) uint8_t smem[];
  __shared__ __align__(8) uint64_t full[SLOTS];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, wg = mode & 1, c = (mode >> 1) & 3, st = (mode >> 3) & 1;
  const uint32_t raw = sa(smem), base = (raw + 1023u) & ~1023u;
  uint8_t* ops = smem + (base - raw);
  for (int i = threadIdx.x * 16; i < OPS; i += 256 * 16) *(uint4*)(ops + i) = make_uint4(0, 0, 0, 0);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  if (threadIdx.x == 0) {
    for (int s = 0; s < SLOTS; s++) mb_init(&full[s], 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    out[0] = out[1] = out[2] = 0;
  }
  __syncthreads();
  if (warp < 4 && wg) wgmma_stream<G>(base, out, sink);
  if (warp == 4 && lane == 0 && c != 0) copy_agent(c, &ma, &mb, &na, &nb, src, base + OPS, full, out);
  if (warp >= 5 && st) store_agent(gbuf, warp - 5, lane, out);
  __syncthreads();
}

static CUresult encode(CUtensorMap* m, void* g, int rows, CUtensorMapSwizzle sw) {
  const cuuint64_t gdim[2] = {1024, 512}, gstride[1] = {1024 * 2};
  const cuuint32_t box[2] = {64, (cuuint32_t)rows}, es[2] = {1, 1};
  return cuTensorMapEncodeTiled(m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, g, gdim, gstride, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                sw, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

int main() {
  uint8_t* g;
  float* gbuf;
  long long* out;
  uint32_t* sink;
  cudaMalloc(&g, 1 << 20);
  cudaMemset(g, 1, 1 << 20);
  cudaMalloc(&gbuf, 8 << 20);
  cudaMalloc(&out, 3 * sizeof(long long));
  cudaMalloc(&sink, 8);
  cudaFuncSetAttribute(tma_wgmma, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM);
  CUtensorMap ma, mb, na, nb;
  if (encode(&ma, g, 64, CU_TENSOR_MAP_SWIZZLE_128B) != CUDA_SUCCESS || encode(&mb, g, 128, CU_TENSOR_MAP_SWIZZLE_128B) != CUDA_SUCCESS ||
      encode(&na, g, 64, CU_TENSOR_MAP_SWIZZLE_NONE) != CUDA_SUCCESS || encode(&nb, g, 128, CU_TENSOR_MAP_SWIZZLE_NONE) != CUDA_SUCCESS) {
    fprintf(stderr, "encode failed\n");
    return 1;
  }
  printf("mode,wgmma_cycles,copy_cycles,store_cycles\n");
  const int modes[] = {1, 2, 4, 6, 8, 3, 5, 7, 9, 12, 13, 11, 15};
  for (int mode : modes) {
    long long h[3];
    for (int run = 0; run < 3; run++) {
      tma_wgmma<<<1, 256, SMEM>>>(ma, mb, na, nb, g, mode, gbuf, out, sink);
      if (cudaDeviceSynchronize() != cudaSuccess) { fprintf(stderr, "launch failed\n"); return 1; }
      cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    }
    printf("%d,%lld,%lld,%lld\n", mode, h[0], h[1], h[2]);
  }
  return 0;
}
