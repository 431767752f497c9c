// tmashare.cu: L2 bandwidth for bulk copies (which bypass L1) when CTAs read the same lines: G CTAs of one
// thread, one an SM, each copying its 256 KiB slice at (ctaid * slice) mod wrap into a ring of four 16 KiB
// slots (one mbarrier a slot, a copy a slot in flight), L2-resident (the launch before read the same bytes).
// The footprint wrap is 1, 6, 22 or G slices: every CTA copies the same lines, 6 or 22 groups share one slice
// each (as gemm_grid.cu's CTAs share B's tile columns and A's tile rows), or none shares. 66 and 132 CTAs.
//   k_ts  clock64 and %globaltimer at the CTA's start and after its last copy landed, and %smid.
// Output: "ts,share,grid,rep,span_cycles,slowest_cycles,median_cycles,sms_used" (span: first start to last
// end by %globaltimer at 1.98 cycles a ns), three launches after a warm one.
// Build: nvcc -O3 -std=c++17 -arch=sm_90a -o tmashare tmashare.cu
#include "bench.h"

constexpr int kSlice = 256 << 10, kChunk = 16 << 10, kSlots = 4;

__global__ void k_ts(const char* src, long long wrap, long long* st) {
  __shared__ __align__(128) char ring[kSlots][kChunk];
  __shared__ __align__(8) uint64_t bar[kSlots];
  long long g0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0) :: "memory");
  const long long c0 = clk();
  const char* p = src + ((long long)blockIdx.x * kSlice) % wrap;
  for (int s = 0; s < kSlots; s++) mb_init(&bar[s], 1);
  fence_async();
  constexpr int n = kSlice / kChunk;
  for (int i = 0; i < n; i++) {
    const int s = i % kSlots;
    if (i >= kSlots) mb_wait(&bar[s], ((i / kSlots) - 1) & 1);
    mb_arrive_tx(&bar[s], kChunk);
    bulk_g2s(ring[s], p + (long long)i * kChunk, kChunk, &bar[s]);
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
  char* src;
  long long* st;
  CK(cudaMalloc(&src, 132ll * kSlice));
  CK(cudaMemset(src, 0, 132ll * kSlice));
  CK(cudaMalloc(&st, 4 * 132 * sizeof(long long)));
  for (int grid : {66, 132})
    for (int share : {1, 6, 22, grid})
      for (int rep = -1; rep < 3; rep++) {
        k_ts<<<grid, 1>>>(src, (long long)share * kSlice, st);
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
        printf("ts,%d,%d,%d,%.0f,%lld,%lld,%d\n", share, grid, rep, (hi - lo) * 1.98, cyc[grid - 1], cyc[grid / 2], nused);
      }
  printf("done,ok,1\n");
  return 0;
}
