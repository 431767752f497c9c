// gemm_tma.cu: a warp-specialised SIMT GEMM fed by the tensor memory accelerator. One block computes the 64 x 64
// tile C = A (64 x K) * B (K x 64), fp32, row-major. Warp 0, lane 0, is the producer: for each 32-wide slice of
// K it waits until ring stage s is empty, posts arrive.expect_tx on full[s] and issues two 2-D tensor copies
// (A's 64 x 32 box, B's 32 x 64 box) completing on it. Warps 1-4 consume: each thread waits on full[s],
// accumulates a 4 x 8 block of C with FFMAs from shared memory, and each warp's lane 0 arrives on empty[s].
// Barriers: full[s] expects 1 arrival (+ 16 KiB of transactions), empty[s] expects 4 (one per consumer warp).
// Held out. Launch: block 160, dynamic shared memory S * 16 KiB (+1 KiB alignment slack);
// args (mapA, mapB, A, B, C, K, clk); mapA = tensormap:f32,Kx64,box=32x64,buf=2; mapB = tensormap:f32,64xK,box=64x32,buf=3.
#include "app.h"
#include <cuda.h>

__device__ __forceinline__ uint32_t sa(const void* p) { return (uint32_t)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void mb_init(uint64_t* b, uint32_t n) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(sa(b)), "r"(n) : "memory");
}
__device__ __forceinline__ void fence_init() { asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }
__device__ __forceinline__ void mb_arrive(uint64_t* b) {
  asm volatile("{\n\t.reg .b64 st;\n\tmbarrier.arrive.shared::cta.b64 st, [%0];\n\t}" :: "r"(sa(b)) : "memory");
}
__device__ __forceinline__ void mb_arrive_tx(uint64_t* b, uint32_t tx) {
  asm volatile("{\n\t.reg .b64 st;\n\tmbarrier.arrive.expect_tx.shared::cta.b64 st, [%0], %1;\n\t}" :: "r"(sa(b)), "r"(tx) : "memory");
}
__device__ __forceinline__ void mb_wait(uint64_t* b, uint32_t par) {
  asm volatile("{\n\t.reg .pred p;\n\tWAIT_%=:\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n\t@!p bra WAIT_%=;\n\t}"
               :: "r"(sa(b)), "r"(par) : "memory");
}
__device__ __forceinline__ void tma2d(void* dst, const CUtensorMap* map, int x, int y, uint64_t* b) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
               :: "r"(sa(dst)), "l"((uint64_t)map), "r"(x), "r"(y), "r"(sa(b)) : "memory");
}

constexpr int BK = 32, TILE = 64 * BK;  // floats of one operand's box

template <int S>
__global__ void __launch_bounds__(160) gemm_tma(const __grid_constant__ CUtensorMap mapA,
                                                const __grid_constant__ CUtensorMap mapB, const float* A,
                                                const float* B, float* C, int K, long long* clk) {
  const long long t0 = app_clock();
  extern __shared__ __align__(1024) float smem[];
  __shared__ __align__(8) uint64_t full[S], empty[S];
  float* sA = smem;             // S boxes of 64 rows x 32 k
  float* sB = smem + S * TILE;  // S boxes of 32 k x 64 columns
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, kt_n = K / BK;
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; s++) {
      mb_init(&full[s], 1);
      mb_init(&empty[s], 4);
    }
    fence_init();
  }
  __syncthreads();
  if (warp == 0) {
    if (lane == 0)
      for (int kt = 0; kt < kt_n; kt++) {
        const int s = kt % S;
        if (kt >= S) mb_wait(&empty[s], ((kt / S) - 1) & 1);
        mb_arrive_tx(&full[s], 2 * TILE * sizeof(float));
        tma2d(sA + s * TILE, &mapA, kt * BK, 0, &full[s]);
        tma2d(sB + s * TILE, &mapB, 0, kt * BK, &full[s]);
      }
  } else {
    const int ct = threadIdx.x - 32, ty = ct / 8, tx = ct % 8;
    float acc[4][8];
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
      for (int j = 0; j < 8; j++) acc[i][j] = 0.0f;
    for (int kt = 0; kt < kt_n; kt++) {
      const int s = kt % S;
      mb_wait(&full[s], (kt / S) & 1);
      const float* a = sA + s * TILE;
      const float* b = sB + s * TILE;
#pragma unroll 4
      for (int kk = 0; kk < BK; kk++) {
        float av[4], bv[8];
#pragma unroll
        for (int i = 0; i < 4; i++) av[i] = a[(ty * 4 + i) * BK + kk];
        const float4 b0 = *reinterpret_cast<const float4*>(b + kk * 64 + tx * 8);
        const float4 b1 = *reinterpret_cast<const float4*>(b + kk * 64 + tx * 8 + 4);
        bv[0] = b0.x; bv[1] = b0.y; bv[2] = b0.z; bv[3] = b0.w;
        bv[4] = b1.x; bv[5] = b1.y; bv[6] = b1.z; bv[7] = b1.w;
#pragma unroll
        for (int i = 0; i < 4; i++)
#pragma unroll
          for (int j = 0; j < 8; j++) acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
      }
      __syncwarp();
      if (lane == 0) mb_arrive(&empty[s]);
    }
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
      for (int j = 0; j < 8; j++) C[(ty * 4 + i) * 64 + tx * 8 + j] = acc[i][j];
  }
  __syncthreads();
  if (threadIdx.x == 0) clk[0] = app_clock() - t0;
}

static bool encode(CUtensorMap* map, const float* base, uint64_t w, uint64_t h, uint32_t bw, uint32_t bh) {
  cuuint64_t gdim[2] = {w, h};
  cuuint64_t gstride[1] = {w * sizeof(float)};
  cuuint32_t box[2] = {bw, bh}, es[2] = {1, 1};
  return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, (void*)base, gdim, gstride, box, es,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

template <int S> static void one(int K) {
  const size_t smem = (size_t)S * 2 * TILE * sizeof(float);
  CK(cudaFuncSetAttribute(gemm_tma<S>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
  char cfg[64], kname[96], ma[96], mb[96];
  snprintf(cfg, sizeof cfg, "k%d_stages%d", K, S);
  snprintf(kname, sizeof kname, "_Z8gemm_tmaILi%dEEv14CUtensorMap_stS0_PKfS2_PfiPx", S);
  snprintf(ma, sizeof ma, "tensormap:f32,%dx64,box=32x64,buf=2", K);
  snprintf(mb, sizeof mb, "tensormap:f32,64x%d,box=64x32,buf=3", K);
  AppCase c("gemm_tma", cfg, "gemm_tma.cu", kname, dim3(160), smem);
  c.literal(ma);
  c.literal(mb);
  const float* A = c.in<float>("buf:" + std::to_string(64 * K * 4) + ":f32rand:1");
  const float* B = c.in<float>("buf:" + std::to_string(64 * K * 4) + ":f32rand:2");
  float* C = c.out<float>(64 * 64 * 4);
  c.i32(K);
  long long* clk = c.out<long long>(8);
  c.args.back().output = false;
  CUtensorMap mapA, mapB;
  if (!encode(&mapA, A, K, 64, 32, 64) || !encode(&mapB, B, 64, K, 64, 32)) {
    fprintf(stderr, "gemm_tma %s: cuTensorMapEncodeTiled failed\n", cfg);
    exit(1);
  }
  c.run([&] { gemm_tma<S><<<1, 160, smem>>>(mapA, mapB, A, B, C, K, clk); });
}

int main() {
  app_warm();
  for (int K : {128, 256, 512, 1024, 2048}) {
    one<2>(K);
    one<4>(K);
  }
  return 0;
}
