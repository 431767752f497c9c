// gpcshare.cu: how SMs of one GPC share the L2's delivery of lines they copy (tmagpc.cu found that they do):
// whether two requests must come close in time to be served once, whether the lines stay near the GPC for a later
// reader, and whether more copies in flight raise what unshared copies get. 14 clusters of 8 CTAs of one thread,
// one an SM (200 KiB of shared memory each), each copying a 256 KiB slice in 16 KiB chunks through a ring of SLOTS,
// L2-resident (the launch before read the same bytes). Each CTA first waits DELAY * rank cycles, then times its
// copies alone (clock64 from after the wait to its last copy's landing).
//   MODE 0: the cluster's slice (8 readers in one GPC), in order; 1: the same, odd ranks in reverse chunk order;
//   2: the CTA's own slice (none shared, 28 MiB); 3: ranks 0 and 1 share the cluster's slice, the others their own.
// Output: "gs,MODE,DELAY,SLOTS,rep,slowest_cycles,median_cycles,rank0_median,rank7_median" (per-rank medians over
// the 14 clusters), three launches after a warm one.
// Build: nvcc -O3 -std=c++17 -arch=sm_90a -o gpcshare gpcshare.cu
#include "bench.h"

constexpr int kSlice = 256 << 10, kChunk = 16 << 10, kMaxSlots = 8, kClusters = 14, kC = 8;
constexpr int kSmem = 200 << 10;

__global__ void k_gs(const char* src, int mode, int delay, int slots, long long* st) {
  extern __shared__ __align__(128) char ring[];
  __shared__ __align__(8) uint64_t bar[kMaxSlots];
  uint32_t rank, cid;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(cid));
  const long long w0 = clk();
  while (clk() - w0 < (long long)delay * rank) {}
  const long long c0 = clk();
  int slice = kClusters + blockIdx.x;  // own slice, after the clusters' 14
  if (mode == 0 || mode == 1 || (mode == 3 && rank < 2)) slice = cid;
  const bool reverse = mode == 1 && (rank & 1);
  const char* p = src + (long long)slice * kSlice;
  for (int s = 0; s < slots; s++) mb_init(&bar[s], 1);
  fence_async();
  constexpr int n = kSlice / kChunk;
  for (int i = 0; i < n; i++) {
    const int s = i % slots;
    if (i >= slots) mb_wait(&bar[s], ((i / slots) - 1) & 1);
    mb_arrive_tx(&bar[s], kChunk);
    const int c = reverse ? n - 1 - i : i;
    bulk_g2s(ring + s * kChunk, p + (long long)c * kChunk, kChunk, &bar[s]);
  }
  for (int i = n - slots; i < n; i++) mb_wait(&bar[i % slots], (i / slots) & 1);
  st[2 * blockIdx.x] = clk() - c0;
  st[2 * blockIdx.x + 1] = rank;
}

static long long median(std::vector<long long> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main() {
  const int grid = kClusters * kC;
  char* src;
  long long* st;
  CK(cudaMalloc(&src, (long long)(kClusters + grid) * kSlice));
  CK(cudaMemset(src, 0, (long long)(kClusters + grid) * kSlice));
  CK(cudaMalloc(&st, 2 * grid * sizeof(long long)));
  CK(cudaFuncSetAttribute(k_gs, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem));
  struct Case { int mode, delay, slots; };
  std::vector<Case> cases;
  for (int d : {0, 250, 500, 1000, 2000, 4000}) {
    cases.push_back({0, d, 4});
    cases.push_back({2, d, 4});  // the same starts, nothing shared: what the delay alone does
  }
  cases.push_back({1, 0, 4});
  for (int s : {2, 8}) cases.push_back({2, 0, s});
  cases.push_back({3, 0, 4});
  cases.push_back({0, 0, 8});
  for (const Case& k : cases)
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
      CK(cudaLaunchKernelEx(&cfg, k_gs, (const char*)src, k.mode, k.delay, k.slots, st));
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      if (rep < 0) continue;
      std::vector<long long> h(2 * grid);
      CK(cudaMemcpy(h.data(), st, h.size() * sizeof(long long), cudaMemcpyDeviceToHost));
      std::vector<long long> all, r0, r7;
      for (int c = 0; c < grid; c++) {
        all.push_back(h[2 * c]);
        if (h[2 * c + 1] == 0) r0.push_back(h[2 * c]);
        if (h[2 * c + 1] == kC - 1) r7.push_back(h[2 * c]);
      }
      long long slowest = *std::max_element(all.begin(), all.end());
      printf("gs,%d,%d,%d,%d,%lld,%lld,%lld,%lld\n", k.mode, k.delay, k.slots, rep, slowest, median(all), median(r0),
             median(r7));
    }
  printf("done,ok,1\n");
  return 0;
}
