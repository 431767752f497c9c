// tmagpc.cu: whether SMs of one GPC that bulk-copy the same lines at once share the L2's bandwidth, where SMs of
// different GPCs do not. 14 clusters of 8 CTAs of one thread, one CTA an SM (200 KiB of shared memory each), each
// CTA copying a 256 KiB slice in 16 KiB chunks through a ring of four (as tmashare.cu), L2-resident (the launch
// before read the same bytes). MODE picks the slice: 0 the cluster's (8 sharers, all in one GPC), 1 (cluster +
// rank) mod 14 (8 sharers, in 8 clusters), 2 the CTA's own (none shared, 28 MiB), 3 one slice for all.
//   k_tg  clock64 and %globaltimer at the CTA's start and after its last copy landed, and %smid.
// Output: "tg,MODE,rep,span_cycles,slowest_cycles,median_cycles,sms_used" (span: first start to last end by
// %globaltimer at 1.98 cycles a ns), three launches after a warm one.
// Build: nvcc -O3 -std=c++17 -arch=sm_90a -o tmagpc tmagpc.cu
#include "bench.h"

constexpr int kSlice = 256 << 10, kChunk = 16 << 10, kSlots = 4, kClusters = 14, kC = 8;
constexpr int kSmem = 200 << 10;

__global__ void k_tg(const char* src, int mode, long long* st) {
  extern __shared__ __align__(128) char ring[];
  __shared__ __align__(8) uint64_t bar[kSlots];
  long long g0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0) :: "memory");
  const long long c0 = clk();
  uint32_t rank, cid;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(cid));
  int slice = blockIdx.x;
  if (mode == 0) slice = cid;
  if (mode == 1) slice = (cid + rank) % kClusters;
  if (mode == 3) slice = 0;
  const char* p = src + (long long)slice * kSlice;
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
  long long g1;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g1) :: "memory");
  uint32_t sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  long long* r = st + 4 * blockIdx.x;
  r[0] = clk() - c0;
  r[1] = g0;
  r[2] = g1;
  r[3] = sm;
}

int main() {
  const int grid = kClusters * kC;
  char* src;
  long long* st;
  CK(cudaMalloc(&src, (long long)grid * kSlice));
  CK(cudaMemset(src, 0, (long long)grid * kSlice));
  CK(cudaMalloc(&st, 4 * grid * sizeof(long long)));
  CK(cudaFuncSetAttribute(k_tg, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem));
  for (int mode = 0; mode < 4; mode++)
    for (int rep = -1; rep < 3; rep++) {
      cudaLaunchConfig_t cfg = {};
      cfg.gridDim = dim3(grid);
      cfg.blockDim = dim3(1);
      cfg.dynamicSmemBytes = kSmem;
      cudaLaunchAttribute at[1];
      at[0].id = cudaLaunchAttributeClusterDimension;
      at[0].val.clusterDim.x = kC;
      at[0].val.clusterDim.y = 1;
      at[0].val.clusterDim.z = 1;
      cfg.attrs = at;
      cfg.numAttrs = 1;
      CK(cudaLaunchKernelEx(&cfg, k_tg, (const char*)src, mode, st));
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      if (rep < 0) continue;
      std::vector<long long> h(4 * grid);
      CK(cudaMemcpy(h.data(), st, h.size() * sizeof(long long), cudaMemcpyDeviceToHost));
      long long lo = h[1], hi = h[2];
      std::vector<long long> cyc(grid);
      std::vector<int> used(1024, 0);
      int nused = 0;
      for (int c = 0; c < grid; c++) {
        lo = std::min(lo, h[4 * c + 1]);
        hi = std::max(hi, h[4 * c + 2]);
        cyc[c] = h[4 * c];
        if (h[4 * c + 3] >= 0 && h[4 * c + 3] < 1024 && !used[h[4 * c + 3]]++) nused++;
      }
      std::sort(cyc.begin(), cyc.end());
      printf("tg,%d,%d,%.0f,%lld,%lld,%d\n", mode, rep, (hi - lo) * 1.98, cyc[grid - 1], cyc[grid / 2], nused);
      if (rep == 0) {
        printf("tgsm,%d", mode);
        for (int c = 0; c < grid; c++) printf(",%lld", h[4 * c + 3]);
        printf("\n");
      }
    }
  printf("done,ok,1\n");
  return 0;
}
