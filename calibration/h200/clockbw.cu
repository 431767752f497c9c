// clockbw.cu: whether the L2's delivery to one SM's and to one GPC's bulk copies keeps its bytes a cycle or its
// bytes a nanosecond when tensor work pulls the SM clock down (clockdom.cu: 1.98 to 1.70 cycles a ns; an L2 hit is
// part SM cycles, part nanoseconds). One cluster of C CTAs of 256 threads, one an SM: ranks below C/2 wait 30 us,
// then copy their own L2-resident 256 KiB slice eight times in 16 KiB chunks through a ring of four (gpcbw.cu's
// copies, thread 0), timed in clock64 and %globaltimer; the other ranks, with LOAD wgmma, run clockdom.cu's wgmma load on random operands until the
// copies have landed (idle: they exit). A cluster of 16 is one GPC: eight SMs copy, beside eight whose tensor cores
// pull the GPC's clock down; a cluster of 2, one SM copies.
// Output: "cbw,LOAD,C,rep,slowest_cycles,slowest_ns,bytes_per_cycle,bytes_per_ns,clk_per_ns,sms_used" (all the
// copies' bytes over the slowest copier's time; its cycles over its ns), three launches after a warm one.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a clockbw.cu -o clockbw
#define CLOCKDOM_NO_MAIN
#include "clockdom.cu"

constexpr int kSlice = 256 << 10, kChunk = 16 << 10, kSlots = 4;
constexpr int kPasses = 8;              // each copier reads its slice 8 times (2 MiB)
constexpr long long kStartNs = 30000;    // copiers wait 30 us for the load to pull the clock down
constexpr int kMixSmem = 80 << 10;  // the copies' ring (64 KiB) or the load's operands (49 KiB)

// k_mix: one cluster of C CTAs of 256 threads (one GPC when C is 16): ranks below C/2 copy (thread 0, gpcbw.cu's
// k_bw loop), the others, with load set, run clockdom.cu's wgmma load in both warpgroups until every copy has
// landed (done[0] counts them, done[1] stops the load) or 50 ms have passed. st[4r..4r+2]: copier r's cycles, ns
// and %smid.
__global__ void __launch_bounds__(256, 1) k_mix(const char* src, long long* st, int load, int* done,
                                                unsigned long long* loadrec) {
  uint32_t rank, n;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
  if (rank >= n / 2) {
    if (load) load_wgmma(done + 1, false, loadrec, 50000000);
    return;
  }
  if (threadIdx.x != 0) return;
  extern __shared__ __align__(1024) char ring[];
  __shared__ __align__(8) uint64_t bar[kSlots];
  for (const long long t = gtime(); gtime() - t < kStartNs;) {}  // the load's start
  const long long c0 = clk(), g0 = gtime();
  const char* p = src + (long long)rank * kSlice;
  for (int s = 0; s < kSlots; s++) mb_init(&bar[s], 1);
  fence_async();
  constexpr int m = kPasses * kSlice / kChunk;
  for (int i = 0; i < m; i++) {
    const int s = i % kSlots;
    if (i >= kSlots) mb_wait(&bar[s], ((i / kSlots) - 1) & 1);
    mb_arrive_tx(&bar[s], kChunk);
    bulk_g2s(ring + s * kChunk, p + (long long)(i % (kSlice / kChunk)) * kChunk, kChunk, &bar[s]);
  }
  for (int i = m - kSlots; i < m; i++) mb_wait(&bar[i % kSlots], (i / kSlots) & 1);
  const long long c1 = clk(), g1 = gtime();
  uint32_t sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  st[4 * rank] = c1 - c0;
  st[4 * rank + 1] = g1 - g0;
  st[4 * rank + 2] = sm;
  __threadfence();
  if (atomicAdd(done, 1) == (int)n / 2 - 1) *(volatile int*)(done + 1) = 1;  // the last copy stops the load
}

static void launch_clusters(const void* k, void** args, int grid, int block, int smem, int c, cudaStream_t st) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(grid);
  cfg.blockDim = dim3(block);
  cfg.dynamicSmemBytes = smem;
  cfg.stream = st;
  cudaLaunchAttribute at[1];
  at[0].id = cudaLaunchAttributeClusterDimension;
  at[0].val.clusterDim.x = c;
  at[0].val.clusterDim.y = 1;
  at[0].val.clusterDim.z = 1;
  cfg.attrs = at;
  cfg.numAttrs = c > 1 ? 1 : 0;
  CK(cudaLaunchKernelExC(&cfg, k, args));
}

int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  char* src;
  long long* st;
  int* done;
  unsigned long long* loadrec;
  CK(cudaMalloc(&src, 16ll * kSlice));
  CK(cudaMemset(src, 0, 16ll * kSlice));
  CK(cudaMalloc(&st, 4 * 16 * sizeof(long long)));
  CK(cudaMalloc(&done, 8));
  CK(cudaMalloc(&loadrec, 16));
  CK(cudaFuncSetAttribute(k_mix, cudaFuncAttributeMaxDynamicSharedMemorySize, kMixSmem));
  CK(cudaFuncSetAttribute(k_mix, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  printf("cbw,load,C,rep,slowest_cycles,slowest_ns,bytes_per_cycle,bytes_per_ns,clk_per_ns,sms_used\n");
  for (int load = 0; load < 2; load++)
    for (int c : {16, 2})
      for (int rep = -1; rep < 3; rep++) {
        CK(cudaMemset(done, 0, 8));
        void* a[] = {&src, &st, &load, &done, &loadrec};
        launch_clusters((const void*)k_mix, a, c, 256, kMixSmem, c, 0);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        if (rep < 0) continue;
        const int copies = c / 2;
        std::vector<long long> h(4 * copies);
        CK(cudaMemcpy(h.data(), st, h.size() * sizeof(long long), cudaMemcpyDeviceToHost));
        long long cyc = 0, ns = 0;
        std::vector<int> used(1024, 0);
        int nused = 0;
        for (int i = 0; i < copies; i++) {
          if (h[4 * i] > cyc) cyc = h[4 * i], ns = h[4 * i + 1];
          if (h[4 * i + 2] >= 0 && h[4 * i + 2] < 1024 && !used[h[4 * i + 2]]++) nused++;
        }
        const double bytes = (double)copies * kPasses * kSlice;
        printf("cbw,%s,%d,%d,%lld,%lld,%.1f,%.1f,%.4f,%d\n", load ? "wgmma" : "idle", c, rep, cyc, ns, bytes / cyc,
               bytes / ns, (double)cyc / ns, nused);
      }
  printf("done,ok,1\n");
  return 0;
}
