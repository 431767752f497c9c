// tmadesc.cu: what the first tensor copy of a launch costs beyond the next ones (hwprobe.cu's semantics_tma_oob
// rows, each the first copy of a fresh kernel: 1094, 757 and 573 cycles for an in-bounds, a quarter-in-bounds and
// a fully out-of-bounds 64x64 fp16 box). One thread issues two copies of a 64x64 fp16 box (8 KiB) from a 64x64
// tensor in turn, each timed from its arrive.expect_tx to the test_wait that sees the phase complete (hwprobe's
// way), through the same tensor map or through a second map of the same tensor: (x1, y1) then (x2, y2), 0 for an
// in-bounds box, 64 for a fully out-of-bounds one. The tensor was written by cudaMemset right before (it sits in
// L2). out[0], out[1]: the two copies' cycles. Rows "tma_desc,CASE,{first,second}_cycles": median of launches 2-6;
// "first_launch" rows: launch 1 of the case.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o tmadesc tmadesc.cu -lcuda
#include <cuda.h>
#include "bench.h"

__device__ __forceinline__ bool mb_test(uint64_t* b, uint32_t par) {
  uint32_t ok;
  asm volatile("{\n\t.reg .pred p;\n\tmbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
               : "=r"(ok) : "r"(sa(b)), "r"(par) : "memory");
  return ok != 0;
}
__device__ __forceinline__ void tma2d(void* dst, const CUtensorMap* map, int x, int y, uint64_t* b) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
               :: "r"(sa(dst)), "l"((uint64_t)map), "r"(x), "r"(y), "r"(sa(b)) : "memory");
}

__device__ __forceinline__ long long timed_copy(uint8_t* sm, const CUtensorMap* map, int x, int y, uint64_t* bar,
                                                uint32_t par) {
  const long long t0 = clk();
  mb_arrive_tx(bar, 8192);
  tma2d(sm, map, x, y, bar);
  while (!mb_test(bar, par)) {}
  return clk() - t0;
}

__global__ void k_desc(const __grid_constant__ CUtensorMap m1, const __grid_constant__ CUtensorMap m2, int two,
                       int x1, int y1, int x2, int y2, long long* out) {
  extern __shared__ __align__(1024) uint8_t sm[];
  __shared__ uint64_t bar;
  mb_init(&bar, 1);
  fence_async();
  out[0] = timed_copy(sm, &m1, x1, y1, &bar, 0);
  out[1] = timed_copy(sm, two ? &m2 : &m1, x2, y2, &bar, 1);
}

int main() {
  long long* dout; CK(cudaMalloc(&dout, 8 * sizeof(long long)));
  uint8_t* g; CK(cudaMalloc(&g, 64 * 64 * 2));
  CUtensorMap m1, m2;
  for (CUtensorMap* m : {&m1, &m2}) {
    cuuint64_t gdim[2] = {64, 64}; cuuint64_t gstride[1] = {128};
    cuuint32_t bdim[2] = {64, 64}; cuuint32_t es[2] = {1, 1};
    if (cuTensorMapEncodeTiled(m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, g, gdim, gstride, bdim, es,
          CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
          CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS) { fprintf(stderr, "encode failed\n"); return 1; }
  }
  CK(cudaFuncSetAttribute(k_desc, cudaFuncAttributeMaxDynamicSharedMemorySize, 16384));
  printf("bench,config,metric,median,min,max,runs\n");
  struct { int two, x1, y1, x2, y2; const char* name; } cases[] = {
    {0, 64, 64, 64, 64, "same_map_oob_oob"}, {0, 0, 0, 0, 0, "same_map_in_in"}, {0, 64, 64, 0, 0, "same_map_oob_in"},
    {0, 32, 32, 32, 32, "same_map_quarter_quarter"}, {1, 64, 64, 64, 64, "two_maps_oob_oob"}, {1, 0, 0, 0, 0, "two_maps_in_in"}};
  for (auto& c : cases) {
    std::vector<double> a, b;
    for (int r = 0; r < 6; r++) {
      CK(cudaMemset(g, 0, 64 * 64 * 2));
      k_desc<<<1, 1, 16384>>>(m1, m2, c.two, c.x1, c.y1, c.x2, c.y2, dout);
      CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
      long long h[2]; CK(cudaMemcpy(h, dout, sizeof h, cudaMemcpyDeviceToHost));
      if (r == 0) {
        printf("tma_desc,%s_first_launch,first_cycles,%lld,%lld,%lld,1\n", c.name, h[0], h[0], h[0]);
        printf("tma_desc,%s_first_launch,second_cycles,%lld,%lld,%lld,1\n", c.name, h[1], h[1], h[1]);
        continue;
      }
      a.push_back((double)h[0]); b.push_back((double)h[1]);
    }
    for (auto* v : {&a, &b}) std::sort(v->begin(), v->end());
    printf("tma_desc,%s,first_cycles,%.1f,%.0f,%.0f,5\n", c.name, a[2], a[0], a[4]);
    printf("tma_desc,%s,second_cycles,%.1f,%.0f,%.0f,5\n", c.name, b[2], b[0], b[4]);
  }
  return 0;
}
