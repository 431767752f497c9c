// ctalaunch.cu: how long an SM waits between a CTA's retirement and the start of the CTA the GPU sends in its
// place. A grid of 4 x 132 CTAs of T threads with S bytes of dynamic shared memory (S large enough that one CTA fills
// an SM, or 0), each CTA spinning for 4 us: thread 0 reads %globaltimer and clock64 first thing, and again after the
// spin and a __syncthreads, last thing before the CTA exits, and records them with %smid.
// K: KiB each CTA stores right before its end (0, 8, 32, 128); -1: k_launch_regs, 168 registers a thread.
// Output: "launch,T,S,K,rep,gaps,gap_ns_median,gap_ns_min,gap_ns_max,first_spread_ns,clk_per_ns": per launch, over every
// CTA that started on an SM after another CTA ended there, its first read less that CTA's last read; the spread of
// the first wave's starts; the CTAs' clock64 cycles over their ns.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a ctalaunch.cu -o ctalaunch
#include "bench.h"

__device__ __forceinline__ long long gtimer() {
  long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t) :: "memory");
  return t;
}

// k_launch: with kib > 0, after the spin every thread stores its share of kib KiB (16 bytes a store, coalesced) to
// the CTA's own part of out, and a __syncthreads follows, as a GEMM's epilogue ends its CTA.
__global__ void k_launch(long long* rec, long long spin_ns, int4* out, int kib) {
  const long long g0 = gtimer(), c0 = clk();
  extern __shared__ char pad[];
  if (threadIdx.x == 0) {
    while (gtimer() - g0 < spin_ns) {}
    pad[0] = 1;
  }
  __syncthreads();
  if (kib > 0) {
    int4* o = out + (size_t)blockIdx.x * (kib << 6);
    for (int i = threadIdx.x; i < kib << 6; i += blockDim.x) o[i] = make_int4(i, 1, 2, 3);
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    uint32_t sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    const long long c1 = clk(), g1 = gtimer();
    long long* r = rec + 5 * blockIdx.x;
    r[0] = g0, r[1] = g1, r[2] = c1 - c0, r[3] = sm, r[4] = pad[0];
  }
}

// k_launch_regs: k_launch (no stores) holding 160 values live across the spin, so that ptxas gives each thread
// about 168 registers, as apps/h200/gemm_grid.cu's CTAs have: 384 threads then fill the SM's register file.
__global__ void __launch_bounds__(384, 1) k_launch_regs(long long* rec, long long spin_ns, float seed) {
  const long long g0 = gtimer(), c0 = clk();
  extern __shared__ char pad[];
  float v[160];
#pragma unroll
  for (int i = 0; i < 160; i++) v[i] = seed * (i + threadIdx.x);
  if (threadIdx.x == 0) {
    while (gtimer() - g0 < spin_ns) {}
    pad[0] = 1;
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < 4; k++)
#pragma unroll
    for (int i = 0; i < 160; i++) v[i] = fmaf(v[i], v[(i + 1) % 160], seed);
  float sum = 0;
#pragma unroll
  for (int i = 0; i < 160; i++) sum += v[i];
  if (threadIdx.x == 0) {
    uint32_t sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    const long long c1 = clk(), g1 = gtimer();
    long long* r = rec + 5 * blockIdx.x;
    r[0] = g0, r[1] = g1, r[2] = c1 - c0, r[3] = sm, r[4] = pad[0] + (sum == 12345.0f);
  }
}

int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  const int grid = 4 * 132;
  long long* rec;
  CK(cudaMalloc(&rec, 5 * grid * sizeof(long long)));
  int4* out;
  CK(cudaMalloc(&out, (size_t)grid * (128 << 10)));
  printf("launch,T,S,K,rep,gaps,gap_ns_median,gap_ns_min,gap_ns_max,first_spread_ns,clk_per_ns\n");
  struct Case { int t, s, k; };  // k -1: k_launch_regs
  const Case cases[] = {{384, 120 << 10, 0},  {32, 120 << 10, 0},  {1024, 120 << 10, 0}, {384, 200 << 10, 0},
                        {384, 120 << 10, 8},  {384, 120 << 10, 32}, {384, 120 << 10, 128}, {384, 120 << 10, -1}};
  CK(cudaFuncSetAttribute(k_launch, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 << 10));
  CK(cudaFuncSetAttribute(k_launch_regs, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 << 10));
  for (const Case& k : cases)
    for (int rep = -1; rep < 3; rep++) {
      if (k.k < 0) k_launch_regs<<<grid, k.t, k.s>>>(rec, 4000, 1.0001f);
      else k_launch<<<grid, k.t, k.s>>>(rec, 4000, out, k.k);
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      if (rep < 0) continue;
      std::vector<long long> h(5 * grid);
      CK(cudaMemcpy(h.data(), rec, h.size() * sizeof(long long), cudaMemcpyDeviceToHost));
      long long lo = h[0];
      for (int i = 0; i < grid; i++) lo = std::min(lo, h[5 * i]);
      std::vector<long long> gaps, first;
      double cyc = 0, ns = 0;
      for (int i = 0; i < grid; i++) {
        cyc += h[5 * i + 2], ns += h[5 * i + 1] - h[5 * i];
        long long prev = -1;  // the latest end on the same SM before this start
        for (int j = 0; j < grid; j++)
          if (j != i && h[5 * j + 3] == h[5 * i + 3] && h[5 * j + 1] <= h[5 * i] && h[5 * j + 1] > prev) prev = h[5 * j + 1];
        if (prev >= 0) gaps.push_back(h[5 * i] - prev);
        else first.push_back(h[5 * i] - lo);
      }
      std::sort(gaps.begin(), gaps.end());
      std::sort(first.begin(), first.end());
      printf("launch,%d,%d,%d,%d,%zu,%lld,%lld,%lld,%lld,%.4f\n", k.t, k.s, k.k, rep, gaps.size(),
             gaps.empty() ? -1 : gaps[gaps.size() / 2], gaps.empty() ? -1 : gaps.front(),
             gaps.empty() ? -1 : gaps.back(), first.empty() ? -1 : first.back(), cyc / ns);
    }
  printf("done,ok,1\n");
  return 0;
}
