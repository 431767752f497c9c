// ring_hop8.cu: ring_hop.cu with two more variants (6 and 7), built and measured as its own binary (its SASS,
// cubin and CSV are ring_hop8.*; the kernel keeps the name ring_hop). The extra variants changed ptxas's code for
// the single-lane producer of variants 0-2 and 5-7: it now reads the variant with an LDC twice a trip, and that
// producer loop runs a stage every ~410 cycles on the H200 (351 without copies) against ~263 (152) in
// ring_hop.cu's build; smsim runs this build's SASS at ~327 (252): see docs/model.md.
// ring_hop.cu: where the held-out GEMM's copy ring loses its cycles. gemm_parts.cu mode 3 (the ring alone: a
// producer thread fills a 4-stage ring of a 128B-swizzled A box and B box, 24 KiB a stage; consumer warpgroups
// wait on full[], and lane 0 of each of their four warps frees the previous stage on empty[] once the next one
// is full) runs 4 stages of the ring in about 1228 cycles on the H200 against smsim's 1135, and the same stream
// with the producer waiting on its own full[] (tma_stg.cu) is within 0.1 %. This kernel is gemm_parts' mode 3
// (f16, M = N = 512, K = 1024: 32 tiles of 16 stages) with three stamps a stage: tp[i] when the producer has
// passed empty[] for stage i, tf[i] when the consumer's first thread has passed full[] for it, ta[i] after that
// thread's arrive on empty[] freeing it. Variants:
//   V = 0: gemm_parts' two consumer warpgroups, taking tiles in turn through named barriers (bar.sync/bar.arrive);
//   V = 1: one consumer warpgroup (warps 4-7) takes every tile, no named barrier; warps 8-11 wait at the end;
//   V = 2: one consumer warp (warp 4) takes every tile, empty[] expects one arrival;
//   V = 3: as 2, but every lane of the producer's warp waits on empty[] and an elected one then issues the stage
//     (V 0-2: the elected lane alone runs the producer's loop, its warp's other 31 lanes at the closing barrier);
//   V = 4: as 3, and every lane of the consumer warp arrives on empty[] (32 arrivals expected);
//   V = 5: as 2 without the copies: the producer's thread arrives on full[] (no expect_tx), a ring of barriers alone;
//   V = 6: as 2, the producer's thread spinning 300 cycles on clock64 after issuing a stage's copies, before its wait;
//   V = 7: as 2, the producer waiting on empty[] with a test_wait spin instead of a try_wait loop.
// Row: variant,stage,tp,tf,ta (cycles from the kernel's start, the fourth launch; tp from stage 4 on).
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o ring_hop ring_hop.cu -lcuda (and -cubin,
// -ptx; cuobjdump -sass ring_hop.cubin)
#include "../../../apps/h200/app.h"
#include <cuda.h>

__device__ __forceinline__ uint32_t sa(const void* p) { return (uint32_t)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void mb_init(uint64_t* b, uint32_t n) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(sa(b)), "r"(n) : "memory");
}
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
__device__ __forceinline__ bool mb_test(uint64_t* b, uint32_t par) {
  uint32_t ok;
  asm volatile("{\n\t.reg .pred p;\n\tmbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
               : "=r"(ok) : "r"(sa(b)), "r"(par) : "memory");
  return ok != 0;
}
__device__ __forceinline__ void tma2d(uint32_t dst, const CUtensorMap* map, int x, int y, uint64_t* b) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
               :: "r"(dst), "l"((uint64_t)map), "r"(x), "r"(y), "r"(sa(b)) : "memory");
}
__device__ __forceinline__ bool elect_one() {
  uint32_t e;
  asm volatile("{\n\t.reg .pred p;\n\t.reg .b32 r;\n\telect.sync r|p, 0xffffffff;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(e));
  return e != 0;
}
__device__ __forceinline__ void bar_sync(int id, int n) { asm volatile("bar.sync %0, %1;" :: "r"(id), "r"(n) : "memory"); }
__device__ __forceinline__ void bar_arrive(int id, int n) { asm volatile("bar.arrive %0, %1;" :: "r"(id), "r"(n) : "memory"); }

constexpr int S = 4, BM = 64, BN = 128, BK = 64, A_BYTES = BM * 128, B_BYTES = BN * 128, STAGE_BYTES = A_BYTES + B_BYTES;
constexpr int M = 512, N = 512, K = 1024, KBN = K / BK, TN = N / BN, TILES = (M / BM) * TN, STAGES = TILES * KBN;

__global__ void __launch_bounds__(384, 1) ring_hop(const __grid_constant__ CUtensorMap mapA,
                                                   const __grid_constant__ CUtensorMap mapB, int v, long long* trace) {
  const long long t0 = app_clock();
  extern __shared__ __align__(1024) uint8_t smem[];
  __shared__ __align__(8) uint64_t full[S], empty[S];
  __shared__ long long tp[STAGES], tf[STAGES], ta[STAGES];
  const uint32_t ring = (sa(smem) + 1023u) & ~1023u;
  const int wg = threadIdx.x / 128, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; s++) {
      mb_init(&full[s], 1);
      mb_init(&empty[s], v == 2 || v == 3 || v >= 5 ? 1 : v == 4 ? 32 : 4);
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  for (int x = threadIdx.x; x < STAGES; x += blockDim.x) tp[x] = tf[x] = ta[x] = 0;
  __syncthreads();
  if (wg == 0 && (v == 3 || v == 4)) {
    if (warp == 0) {
      for (int i = 0; i < STAGES; i++) {
        const int s = i % S, t = i / KBN, kb = i % KBN;
        if (i >= S) mb_wait(&empty[s], ((i / S) - 1) & 1);
        if (elect_one()) {
          tp[i] = app_clock() - t0;
          mb_arrive_tx(&full[s], STAGE_BYTES);
          tma2d(ring + s * A_BYTES, &mapA, kb * BK, (t / TN) * BM, &full[s]);
          tma2d(ring + S * A_BYTES + s * B_BYTES, &mapB, kb * BK, (t % TN) * BN, &full[s]);
        }
        __syncwarp();
      }
    }
  } else if (wg == 0) {
    if (warp == 0 && elect_one()) {
      for (int i = 0; i < STAGES; i++) {
        const int s = i % S, t = i / KBN, kb = i % KBN;
        if (i >= S) {
          if (v == 7) {
            while (!mb_test(&empty[s], ((i / S) - 1) & 1)) {}
          } else {
            mb_wait(&empty[s], ((i / S) - 1) & 1);
          }
        }
        tp[i] = app_clock() - t0;
        if (v == 5) {
          mb_arrive(&full[s]);
          continue;
        }
        mb_arrive_tx(&full[s], STAGE_BYTES);
        tma2d(ring + s * A_BYTES, &mapA, kb * BK, (t / TN) * BM, &full[s]);
        tma2d(ring + S * A_BYTES + s * B_BYTES, &mapB, kb * BK, (t % TN) * BN, &full[s]);
        if (v == 6) {
          const long long w = app_clock();
          while (app_clock() - w < 300) {}
        }
      }
    }
  } else if (v == 0 || (wg == 1 && (v == 1 || warp == 4))) {
    const bool all = v == 4;
    const int c = v == 0 ? wg - 1 : 0, step = v == 0 ? 2 : 1;
    const bool st = threadIdx.x % 128 == 0;
    for (int t = c; t < TILES; t += step) {
      if (v == 0 && t > 0) bar_sync(1 + c, 256);
      int i = t * KBN;
      for (int kb = 0; kb < KBN; kb++, i++) {
        mb_wait(&full[i % S], (i / S) & 1);
        if (st) tf[i] = app_clock() - t0;
        if (kb > 0 && (all || lane == 0)) mb_arrive(&empty[(i - 1) % S]);
        if (st && kb > 0) ta[i - 1] = app_clock() - t0;
      }
      if (v == 0 && t + 1 < TILES) bar_arrive(1 + (1 - c), 256);
      if (all || lane == 0) mb_arrive(&empty[(i - 1) % S]);
      if (st) ta[i - 1] = app_clock() - t0;
    }
  }
  __syncthreads();
  for (int x = threadIdx.x; x < STAGES; x += blockDim.x) {
    trace[3 * x] = tp[x];
    trace[3 * x + 1] = tf[x];
    trace[3 * x + 2] = ta[x];
  }
}

static bool encode(CUtensorMap* map, const void* base, uint64_t rows, uint32_t box_rows) {
  cuuint64_t gdim[2] = {K, rows};
  cuuint64_t gstride[1] = {K * 2};
  cuuint32_t box[2] = {64, box_rows}, es[2] = {1, 1};
  return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, (void*)base, gdim, gstride, box, es,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

int main() {
  app_warm();
  void *A, *B;
  long long* trace;
  CK(cudaMalloc(&A, (size_t)M * K * 2));
  CK(cudaMalloc(&B, (size_t)N * K * 2));
  CK(cudaMemset(A, 1, (size_t)M * K * 2));
  CK(cudaMemset(B, 2, (size_t)N * K * 2));
  CK(cudaMalloc(&trace, (size_t)3 * STAGES * 8));
  CUtensorMap mapA, mapB;
  if (!encode(&mapA, A, M, BM) || !encode(&mapB, B, N, BN)) {
    fprintf(stderr, "ring_hop: cuTensorMapEncodeTiled failed\n");
    return 1;
  }
  const int smem = S * STAGE_BYTES + 1024;
  CK(cudaFuncSetAttribute(ring_hop, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  printf("variant,stage,tp,tf,ta\n");
  std::vector<long long> tr(3 * STAGES);
  for (int v = 0; v < 8; v++) {
    for (int r = 0; r < 4; r++) {
      ring_hop<<<1, 384, smem>>>(mapA, mapB, v, trace);
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
    }
    CK(cudaMemcpy(tr.data(), trace, tr.size() * 8, cudaMemcpyDeviceToHost));
    for (int i = 0; i < STAGES; i++) printf("%d,%d,%lld,%lld,%lld\n", v, i, tr[3 * i], tr[3 * i + 1], tr[3 * i + 2]);
  }
  return 0;
}
