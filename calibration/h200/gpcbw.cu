// gpcbw.cu: whether what unshared bulk copies get from L2 under load is bounded for each GPC or for the GPU
// (gpcshare.cu: about 3.7 KB a cycle for 112 SMs, whatever the copies in flight). G clusters of C CTAs of one thread,
// one CTA an SM (200 KiB of shared memory each), each copying its own 256 KiB slice in 16 KiB chunks through a
// ring of four (as tmashare.cu), L2-resident (the launch before read the same bytes). A cluster of 16 fills a GPC.
//   k_bw  clock64 at the CTA's start and after its last copy landed, and %smid.
// Output: "bw,C,G,rep,slowest_cycles,median_cycles,sms_used,bytes_per_cycle" (bytes of all CTAs over the slowest
// CTA's cycles), three launches after a warm one.
// Build: nvcc -O3 -std=c++17 -arch=sm_90a -o gpcbw gpcbw.cu
#include "bench.h"

constexpr int kSlice = 256 << 10, kChunk = 16 << 10, kSlots = 4;
constexpr int kSmem = 200 << 10;

__global__ void k_bw(const char* src, long long* st) {
  extern __shared__ __align__(128) char ring[];
  __shared__ __align__(8) uint64_t bar[kSlots];
  const long long c0 = clk();
  const char* p = src + (long long)blockIdx.x * kSlice;
  for (int s = 0; s < kSlots; s++) mb_init(&bar[s], 1);
  fence_async();
  constexpr int n = kSlice / kChunk;
  for (int i = 0; i < n; i++) {
    const int s = i % kSlots;
    if (i >= kSlots) mb_wait(&bar[s], ((i / kSlots) - 1) & 1);
    mb_arrive_tx(&bar[s], kChunk);
    bulk_g2s(ring + s * kChunk, p + (long long)i * kChunk, kChunk, &bar[s]);
  }
  for (int i = n - kSlots; i < n; i++) mb_wait(&bar[i % kSlots], (i / kSlots) & 1);
  uint32_t sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  st[2 * blockIdx.x] = clk() - c0;
  st[2 * blockIdx.x + 1] = sm;
}

int main() {
  char* src;
  long long* st;
  CK(cudaMalloc(&src, 132ll * kSlice));
  CK(cudaMemset(src, 0, 132ll * kSlice));
  CK(cudaMalloc(&st, 2 * 132 * sizeof(long long)));
  CK(cudaFuncSetAttribute(k_bw, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem));
  CK(cudaFuncSetAttribute(k_bw, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  struct Case { int c, g; };
  const Case cases[] = {{16, 1}, {16, 2}, {16, 4}, {16, 7}, {8, 1}, {8, 7}, {8, 14}, {1, 16}, {1, 66}, {1, 132}};
  for (const Case& k : cases)
    for (int rep = -1; rep < 3; rep++) {
      const int grid = k.c * k.g;
      cudaLaunchConfig_t cfg = {};
      cfg.gridDim = dim3(grid);
      cfg.blockDim = dim3(1);
      cfg.dynamicSmemBytes = kSmem;
      cudaLaunchAttribute at[1];
      at[0].id = cudaLaunchAttributeClusterDimension;
      at[0].val.clusterDim.x = k.c;
      at[0].val.clusterDim.y = 1;
      at[0].val.clusterDim.z = 1;
      cfg.attrs = at;
      cfg.numAttrs = k.c > 1 ? 1 : 0;
      CK(cudaLaunchKernelEx(&cfg, k_bw, (const char*)src, st));
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      if (rep < 0) continue;
      std::vector<long long> h(2 * grid);
      CK(cudaMemcpy(h.data(), st, h.size() * sizeof(long long), cudaMemcpyDeviceToHost));
      std::vector<long long> cyc(grid);
      std::vector<int> used(1024, 0);
      int nused = 0;
      for (int i = 0; i < grid; i++) {
        cyc[i] = h[2 * i];
        if (h[2 * i + 1] >= 0 && h[2 * i + 1] < 1024 && !used[h[2 * i + 1]]++) nused++;
      }
      std::sort(cyc.begin(), cyc.end());
      printf("bw,%d,%d,%d,%lld,%lld,%d,%.0f\n", k.c, k.g, rep, cyc[grid - 1], cyc[grid / 2], nused,
             (double)grid * kSlice / cyc[grid - 1]);
    }
  printf("done,ok,1\n");
  return 0;
}
