// tma_swizzle.cu: what a tensor copy's latency depends on, beside a 1-D copy of the same bytes. microbench.csv's
// tensor2d_copy_latency (unswizzled boxes, L2 promotion 128B) takes the H200 18-47 cycles more than a 1-D copy
// of the same bytes, while the held-out GEMM's copy ring (gemm_parts.cu mode 3: 128B-swizzled boxes, no L2
// promotion, the A and B boxes of a stage on one barrier) runs slower than a model built on those rows. One
// thread, one CTA; every copy reads the same coordinates (L2 hits after the first); per configuration the median
// and the minimum over REPS copies after two warm-ups, cycles from before the expect_tx to after the wait:
//   variant: the maps' swizzle and L2 promotion: 0 none/none, 1 128B/none (the GEMM's), 2 none/128B (microbench's),
//            3 128B/128B;
//   mode 0: box A, 64 rows of 128 bytes (f16 64x64, 8 KiB);   mode 1: box B, 128 rows (f16 64x128, 16 KiB);
//   mode 2: A then B on one barrier (a GEMM stage, 24 KiB);  mode 3: 1-D copy of 8 KiB; mode 4: 1-D 8 KiB then
//   16 KiB on one barrier; mode 5: two A boxes (other rows) on one barrier; mode 6: four A boxes on one barrier.
// Row: variant,mode,median_cycles,min_cycles.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o tma_swizzle tma_swizzle.cu -lcuda (and -cubin,
// -ptx; cuobjdump -sass tma_swizzle.cubin)
#include <cuda.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

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

constexpr int REPS = 34, SMEM = 65536 + 1024;

__global__ void __launch_bounds__(32, 1) lat(const __grid_constant__ CUtensorMap ma, const __grid_constant__ CUtensorMap mb,
                                            const uint8_t* src, int mode, long long* out) {
  extern __shared__ __align__(1024) uint8_t smem[];
  __shared__ __align__(8) uint64_t bar;
  if (threadIdx.x != 0) return;
  const uint32_t base = (sa(smem) + 1023u) & ~1023u;
  mb_init(&bar, 1);
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  uint32_t par = 0;
  for (int r = 0; r < REPS; r++) {
    const long long t0 = clock64();
    switch (mode) {
      case 0: mb_arrive_tx(&bar, 8192); tma2d(base, &ma, 0, 0, &bar); break;
      case 1: mb_arrive_tx(&bar, 16384); tma2d(base, &mb, 0, 0, &bar); break;
      case 2: mb_arrive_tx(&bar, 24576); tma2d(base, &ma, 0, 0, &bar); tma2d(base + 8192, &mb, 0, 0, &bar); break;
      case 3: mb_arrive_tx(&bar, 8192); bulk(base, src, 8192, &bar); break;
      case 4: mb_arrive_tx(&bar, 24576); bulk(base, src, 8192, &bar); bulk(base + 8192, src + 8192, 16384, &bar); break;
      case 5: mb_arrive_tx(&bar, 16384); tma2d(base, &ma, 0, 0, &bar); tma2d(base + 8192, &ma, 0, 64, &bar); break;
      default:
        mb_arrive_tx(&bar, 32768);
        for (int i = 0; i < 4; i++) tma2d(base + i * 8192, &ma, 0, 64 * i, &bar);
    }
    mb_wait(&bar, par);
    par ^= 1;
    out[r] = clock64() - t0;
  }
}

static CUresult encode(CUtensorMap* m, void* g, int rows, int variant) {
  const cuuint64_t gdim[2] = {1024, 512}, gstride[1] = {1024 * 2};
  const cuuint32_t box[2] = {64, (cuuint32_t)rows}, es[2] = {1, 1};
  return cuTensorMapEncodeTiled(m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, g, gdim, gstride, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                variant & 1 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_NONE,
                                variant & 2 ? CU_TENSOR_MAP_L2_PROMOTION_L2_128B : CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

int main() {
  uint8_t* g;
  long long* out;
  cudaMalloc(&g, 1 << 20);
  cudaMemset(g, 1, 1 << 20);
  cudaMalloc(&out, REPS * sizeof(long long));
  cudaFuncSetAttribute(lat, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM);
  printf("variant,mode,median_cycles,min_cycles\n");
  for (int variant = 0; variant < 4; variant++) {
    CUtensorMap ma, mb;
    if (encode(&ma, g, 64, variant) != CUDA_SUCCESS || encode(&mb, g, 128, variant) != CUDA_SUCCESS) {
      fprintf(stderr, "encode failed\n");
      return 1;
    }
    for (int mode = 0; mode < 7; mode++) {
      lat<<<1, 32, SMEM>>>(ma, mb, g, mode, out);
      if (cudaDeviceSynchronize() != cudaSuccess) { fprintf(stderr, "launch failed\n"); return 1; }
      std::vector<long long> h(REPS);
      cudaMemcpy(h.data(), out, REPS * sizeof(long long), cudaMemcpyDeviceToHost);
      std::vector<long long> v(h.begin() + 2, h.end());
      std::sort(v.begin(), v.end());
      printf("%d,%d,%.1f,%lld\n", variant, mode, 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]), v[0]);
    }
  }
  return 0;
}
