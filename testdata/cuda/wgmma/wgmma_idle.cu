// wgmma_idle.cu: is a wgmma slower after the tensor pipe has been idle? One warpgroup (128 threads) times a
// single m64n8k16 f16 wgmma (commit, wait_group 0) from shared-memory descriptors, then spins G cycles with
// the pipe idle and times a second one, then a third right after. G is a template constant and the kernel reads
// no parameter before its last stamp (a constant-cache miss would be timed too). Rows: wgmma_idle,gap<G>,
// first|second|third,cycles (warp 0 lane 0's clock64 around each; median of launches 2-4).
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o wgmma_idle wgmma_idle.cu
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error '%s' at line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__device__ __forceinline__ long long clk() {
  long long c;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c) :: "memory");
  return c;
}
__device__ __forceinline__ void mma_n8(float (&d)[4], uint64_t da, uint64_t db) {
  asm volatile("wgmma.fence.sync.aligned;\n"
               "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, %4, %5, 1, 1, 1, 0, 0;\n"
               "wgmma.commit_group.sync.aligned;\n"
               "wgmma.wait_group.sync.aligned 0;\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "l"(da), "l"(db) : "memory");
}

template <int G> __global__ void __launch_bounds__(128, 1) k_idle(long long* out) {
  __shared__ __align__(1024) uint8_t sm[8192 + 2048];
  for (int i = threadIdx.x; i < (8192 + 2048) / 4; i += 128) ((uint32_t*)sm)[i] = 0x3c003c00u;
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  const uint32_t base = (uint32_t)__cvta_generic_to_shared(sm);
  const uint64_t desc = (1ull << 62) | (64ull << 32) | (1ull << 16);
  const uint64_t da = desc | ((base & 0x3ffff) >> 4), db = desc | (((base + 8192) & 0x3ffff) >> 4);
  float d[4] = {0, 0, 0, 0};
  const long long t0 = clk();
  mma_n8(d, da, db);
  const long long t1 = clk();
  while (clk() - t1 < G) {}
  const long long t2 = clk();
  mma_n8(d, da, db);
  const long long t3 = clk();
  mma_n8(d, da, db);
  const long long t4 = clk();
  if (threadIdx.x == 0) {
    out[0] = t1 - t0;
    out[1] = t3 - t2;
    out[2] = t4 - t3;
    out[3] = __float_as_int(d[0]);
  }
}

template <int G> static int rows(long long* dout) {
  std::vector<long long> v[3];
  for (int r = 0; r < 4; r++) {
    k_idle<G><<<1, 128>>>(dout);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    long long h[4];
    CK(cudaMemcpy(h, dout, sizeof h, cudaMemcpyDeviceToHost));
    if (r > 0)
      for (int k = 0; k < 3; k++) v[k].push_back(h[k]);
  }
  static const char* names[3] = {"first", "second", "third"};
  for (int k = 0; k < 3; k++) {
    std::sort(v[k].begin(), v[k].end());
    printf("wgmma_idle,gap%d,%s,cycles,%lld,%lld,%lld,3\n", G, names[k], v[k][1], v[k][0], v[k][2]);
  }
  return 0;
}

int main() {
  long long* dout;
  CK(cudaMalloc(&dout, 64));
  return rows<0>(dout) | rows<1000>(dout) | rows<10000>(dout) | rows<100000>(dout) | rows<1000000>(dout);
}
