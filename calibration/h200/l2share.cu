// l2share.cu: L2 bandwidth when CTAs read the same lines. l2bw.cu's l2bw_stream (each CTA reads kSlice = 256 KiB
// of float4s at (ctaid * slice) mod wrap), L2-resident (warmed by the launch before), with the footprint wrap
// set to 1, 6, 22 or 64 slices: every CTA reads the same 256 KiB, or 6 or 22 groups of CTAs each share one
// (as gemm_grid.cu's CTAs share B's 6 tile columns and A's 22 tile rows), or the 16 MiB of l2bw.csv's L2 rows.
// 132, 264 and 528 CTAs of 256 threads. Output: l2bw.cu's "S" summary rows with the kernel field
// "stream_share<N>" (N slices in the footprint), three repetitions after a warm one.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o l2share l2share.cu
#define main l2bw_main
#include "l2bw.cu"
#undef main

int main() {
  Bufs b;
  CK(cudaMalloc(&b.big, kL2Foot));
  CK(cudaMalloc(&b.out, 528 * kThreads * sizeof(float)));
  CK(cudaMalloc(&b.st, 5 * 528 * sizeof(long long)));
  CK(cudaMemset(b.big, 0, kL2Foot));
  printf("S,kernel,place,grid,rep,event_ns,span_ns,slowest_cycles,median_cycles,fastest_cycles,sms_used\n");
  const int slice4 = (int)(kSlice / 16);
  for (int share : {1, 6, 22, 64})
    for (int grid : {132, 264, 528})
      for (int rep = -1; rep < 3; rep++) {
        CK(cudaMemset(b.st, 0, 5 * 528 * sizeof(long long)));
        CK(cudaDeviceSynchronize());
        l2bw_stream<<<grid, kThreads>>>((const float4*)b.big, slice4, (long long)share * slice4, b.out, b.st);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        if (rep < 0) continue;
        std::vector<long long> h(5 * grid);
        CK(cudaMemcpy(h.data(), b.st, h.size() * sizeof(long long), cudaMemcpyDeviceToHost));
        long long g0 = h[2], g1 = h[3];
        std::vector<long long> cyc(grid);
        std::vector<int> used(1024, 0);
        int nused = 0;
        for (int c = 0; c < grid; c++) {
          const long long* s = &h[5 * c];
          g0 = std::min(g0, s[2]);
          g1 = std::max(g1, s[3]);
          cyc[c] = s[1] - s[0];
          if (s[4] >= 0 && s[4] < 1024 && !used[s[4]]++) nused++;
        }
        std::sort(cyc.begin(), cyc.end());
        printf("S,stream_share%d,l2,%d,%d,0,%lld,%lld,%lld,%lld,%d\n", share, grid, rep, g1 - g0, cyc[grid - 1],
               cyc[grid / 2], cyc[0], nused);
      }
  return 0;
}
