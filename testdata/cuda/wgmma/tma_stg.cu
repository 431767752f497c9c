// tma_stg.cu: do warp stores slow a stream of tensor copies more than a stream of 1-D copies of the same bytes? In
// the held-out GEMM (gemm_parts.cu mode 2) the copy ring of 128B-swizzled boxes loses about half its pace while the
// other consumer's epilogue stores run (eight rows of 32 bytes a warp instruction), where stgport.cu's k_mix, 1-D
// copies beside the same stores, loses 13 %. One CTA of 256 threads, two agents, each timing itself (clock64):
//   copies (warp 0, one elected thread): 64 stages through a ring of four 24 KiB slots, each stage on its own
//     mbarrier, the thread waiting for a slot's previous stage before it reuses the slot; a stage is
//     C = 1: two 1-D bulk copies of 8 and 16 KiB, or C = 2: a GEMM stage, an A box (64 rows of 128 bytes) and a
//     B box (128 rows), both 128B-swizzled, no L2 promotion (gemm_parts.cu's maps); every source L2-resident;
//   stores (warps 4-7): K = 512 st.global a thread of pattern P = 1: st.global.v2.f32, eight rows of 32 bytes a warp
//     instruction, each its own 512-byte line (the GEMM's epilogue), or P = 2: 256 contiguous bytes a warp
//     instruction; warp 4's first thread stamps after its last store and after a __threadfence().
// mode = C + 4 * P (C or P 0: that agent idles). Row: mode,copy_cycles,store_issue_cycles,store_done_cycles; each
// mode runs three times and the row is the third run.
// Measured (tma_stg.csv, two runs of the binary agreeing within 0.5 %): tensor and 1-D copies alike, alone and beside
// either store pattern; beside whole-line stores the copies take 88 % longer and the stores 25 %, beside one-sector
// lines the two split the request path evenly (docs/model.md, "Turns by request").
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o tma_stg tma_stg.cu -lcuda (and -cubin, -ptx;
// cuobjdump -sass tma_stg.cubin)
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>

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

constexpr int STAGES = 64, SLOTS = 4, SLOT = 24576, K = 512, SMEM = SLOTS * SLOT + 1024;

__device__ void copy_agent(int c, const CUtensorMap* ma, const CUtensorMap* mb, const uint8_t* src, uint32_t ring,
                           uint64_t* full, long long* out) {
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
      tma2d(dst, ma, (i % 16) * 64, (i / 16 % 4) * 64, &full[s]);
      tma2d(dst + 8192, mb, (i % 16) * 64, (i / 16 % 4) * 128, &full[s]);
    }
  }
  for (int i = STAGES; i < STAGES + SLOTS; i++) mb_wait(&full[i % SLOTS], ((i / SLOTS) - 1) & 1);
  out[0] = clock64() - t0;
}

template <int P> __device__ void store_agent(float* gbuf, int w, int lane, long long* out) {
  const float v = (float)threadIdx.x;
  const long long t0 = clock64();
#pragma unroll 16
  for (int k = 0; k < K; k++) {
    if constexpr (P == 1) {
      const size_t row = (size_t)((k * 4 + w) * 8 + lane / 4);
      *reinterpret_cast<float2*>(gbuf + row * 128 + (k % 16) * 8 + 2 * (lane % 4)) = make_float2(v, v);
    } else {
      *reinterpret_cast<float2*>(gbuf + (size_t)(k * 4 + w) * 64 + 2 * lane) = make_float2(v, v);
    }
  }
  const long long t1 = clock64();
  __threadfence();
  const long long t2 = clock64();
  if (threadIdx.x == 128) { out[1] = t1 - t0; out[2] = t2 - t0; }
}

__global__ void __launch_bounds__(256, 1) tma_stg(const __grid_constant__ CUtensorMap ma, const __grid_constant__ CUtensorMap mb,
                                                  const uint8_t* src, int mode, float* gbuf, long long* out) {
  extern __shared__ __align__(1024) uint8_t smem[];
  __shared__ __align__(8) uint64_t full[SLOTS];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, c = mode % 4, p = mode / 4;
  if (threadIdx.x == 0) {
    for (int s = 0; s < SLOTS; s++) mb_init(&full[s], 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    out[0] = out[1] = out[2] = 0;
  }
  __syncthreads();
  const uint32_t ring = (sa(smem) + 1023u) & ~1023u;
  if (warp == 0 && lane == 0 && c != 0) copy_agent(c, &ma, &mb, src, ring, full, out);
  if (warp >= 4 && p == 1) store_agent<1>(gbuf, warp - 4, lane, out);
  if (warp >= 4 && p == 2) store_agent<2>(gbuf, warp - 4, lane, out);
  __syncthreads();
}

static CUresult encode(CUtensorMap* m, void* g, int rows) {
  const cuuint64_t gdim[2] = {1024, 512}, gstride[1] = {1024 * 2};
  const cuuint32_t box[2] = {64, (cuuint32_t)rows}, es[2] = {1, 1};
  return cuTensorMapEncodeTiled(m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, g, gdim, gstride, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

int main() {
  uint8_t* g;
  float* gbuf;
  long long* out;
  cudaMalloc(&g, 1 << 20);
  cudaMemset(g, 1, 1 << 20);
  cudaMalloc(&gbuf, 8 << 20);
  cudaMalloc(&out, 3 * sizeof(long long));
  cudaFuncSetAttribute(tma_stg, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM);
  CUtensorMap ma, mb;
  if (encode(&ma, g, 64) != CUDA_SUCCESS || encode(&mb, g, 128) != CUDA_SUCCESS) {
    fprintf(stderr, "encode failed\n");
    return 1;
  }
  printf("mode,copy_cycles,store_issue_cycles,store_done_cycles\n");
  const int modes[] = {1, 2, 4, 8, 5, 6, 9, 10};
  for (int mode : modes) {
    long long h[3];
    for (int run = 0; run < 3; run++) {
      tma_stg<<<1, 256, SMEM>>>(ma, mb, g, mode, gbuf, out);
      if (cudaDeviceSynchronize() != cudaSuccess) { fprintf(stderr, "launch failed\n"); return 1; }
      cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    }
    printf("%d,%lld,%lld,%lld\n", mode, h[0], h[1], h[2]);
  }
  return 0;
}
