// tmabox.cu: what an L2-hit tensor copy costs by box shape, as a test_wait spin sees it, next to 1-D bulk copies of
// the same sizes. One thread copies a box of R rows of IB bytes (fp16, no swizzle) from a 256 x 512-byte tensor that
// cudaMemset wrote right before the launch (it sits in L2), three times through one tensor map; each copy is timed
// from its arrive.expect_tx to the test_wait that sees the phase complete (tmadesc.cu's way). out[0..2]: the three
// copies (the first also fetches the tensor map). k_bulk does the same with cp.async.bulk of B bytes.
// Rows: tmabox,ibIB_rowsR,{first,second,third}_cycles and bulkbox,bytesB,{...}: median of launches 2-6 (min, max).
// Not `validate` rows (calibration/h200/README.md: a spin's polls quantise these times to ~46 cycles).
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o tmabox tmabox.cu -lcuda
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
__device__ __forceinline__ void bulk(void* dst, const void* src, uint32_t n, uint64_t* b) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
               :: "r"(sa(dst)), "l"(src), "r"(n), "r"(sa(b)) : "memory");
}

__global__ void k_box(const __grid_constant__ CUtensorMap m, uint32_t bytes, long long* out) {
  extern __shared__ __align__(1024) uint8_t sm[];
  __shared__ uint64_t bar;
  mb_init(&bar, 1);
  fence_async();
  for (int i = 0; i < 3; i++) {
    const long long t0 = clk();
    mb_arrive_tx(&bar, bytes);
    tma2d(sm, &m, 0, 0, &bar);
    while (!mb_test(&bar, i & 1)) {}
    out[i] = clk() - t0;
  }
}
__global__ void k_bulk(const uint8_t* g, uint32_t bytes, long long* out) {
  extern __shared__ __align__(1024) uint8_t sm[];
  __shared__ uint64_t bar;
  mb_init(&bar, 1);
  fence_async();
  for (int i = 0; i < 3; i++) {
    const long long t0 = clk();
    mb_arrive_tx(&bar, bytes);
    bulk(sm, g, bytes, &bar);
    while (!mb_test(&bar, i & 1)) {}
    out[i] = clk() - t0;
  }
}

int main() {
  long long* dout; CK(cudaMalloc(&dout, 8 * sizeof(long long)));
  const int GW = 512, GH = 256;  // bytes per row, rows
  uint8_t* g; CK(cudaMalloc(&g, GW * GH));
  CK(cudaFuncSetAttribute(k_box, cudaFuncAttributeMaxDynamicSharedMemorySize, 132 * 1024));
  CK(cudaFuncSetAttribute(k_bulk, cudaFuncAttributeMaxDynamicSharedMemorySize, 132 * 1024));
  printf("bench,config,metric,median,min,max,runs\n");
  for (int ib : {32, 64, 128, 256, 512}) {
    for (int rows : {1, 8, 16, 32, 64, 128, 256}) {
      const uint32_t bytes = ib * rows;
      if (bytes > 128 * 1024) continue;
      CUtensorMap m;
      cuuint64_t gdim[2] = {GW / 2, GH}; cuuint64_t gstride[1] = {GW};
      cuuint32_t bdim[2] = {(cuuint32_t)(ib / 2), (cuuint32_t)rows}; cuuint32_t es[2] = {1, 1};
      if (cuTensorMapEncodeTiled(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, g, gdim, gstride, bdim, es,
            CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
            CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS) { fprintf(stderr, "encode failed %d %d\n", ib, rows); continue; }
      std::vector<double> v[3];
      for (int r = 0; r < 6; r++) {
        CK(cudaMemset(g, 1, GW * GH));
        k_box<<<1, 1, bytes < 1024 ? 1024 : bytes>>>(m, bytes, dout);
        CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
        long long h[3]; CK(cudaMemcpy(h, dout, sizeof h, cudaMemcpyDeviceToHost));
        if (r == 0) continue;
        for (int i = 0; i < 3; i++) v[i].push_back((double)h[i]);
      }
      const char* nm[3] = {"first_cycles", "second_cycles", "third_cycles"};
      for (int i = 0; i < 3; i++) {
        std::sort(v[i].begin(), v[i].end());
        printf("tmabox,ib%d_rows%d,%s,%.1f,%.0f,%.0f,5\n", ib, rows, nm[i], v[i][2], v[i][0], v[i][4]);
      }
    }
  }
  for (int bytes : {256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072}) {
    std::vector<double> v[3];
    for (int r = 0; r < 6; r++) {
      CK(cudaMemset(g, 1, GW * GH));
      k_bulk<<<1, 1, bytes>>>(g, bytes, dout);
      CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
      long long h[3]; CK(cudaMemcpy(h, dout, sizeof h, cudaMemcpyDeviceToHost));
      if (r == 0) continue;
      for (int i = 0; i < 3; i++) v[i].push_back((double)h[i]);
    }
    const char* nm[3] = {"first_cycles", "second_cycles", "third_cycles"};
    for (int i = 0; i < 3; i++) {
      std::sort(v[i].begin(), v[i].end());
      printf("bulkbox,bytes%d,%s,%.1f,%.0f,%.0f,5\n", bytes, nm[i], v[i][2], v[i][0], v[i][4]);
    }
  }
  return 0;
}
