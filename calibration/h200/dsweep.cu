// dsweep.cu: microbench.cu's arrive/wait loop (every lane arrives, count = blockDim.x: converged; or lane 0
// arrives and __syncwarp(), count = warps: lane0_syncwarp) with K clock reads (asm volatile, so they stay
// between the arrive and the try_wait, their values summed) after each warp's arrive, K = 0-12, at 1, 8, 16,
// 17 and 32 warps (k_d<MODE, K>). Does the distance from the arrive to the try_wait decide a phase?
// out[0] = clock64 after 2000 phases - before, thread 0.
// Rows: dsweep,MODE_kK_warpsW,cycles_per_phase (median of three launches after a warm-up one).
#include "bench.h"

template <int MODE> __device__ __forceinline__ void step(uint64_t* bar, int lane) {
  if (MODE == 0) mb_arrive(bar);
  else { if (lane == 0) mb_arrive(bar); __syncwarp(); }
}
template <int K> __device__ __forceinline__ uint32_t pad() {
  uint32_t s = 0;
#pragma unroll
  for (int k = 0; k < K; k++) { uint32_t c; asm volatile("mov.u32 %0, %%clock;" : "=r"(c)); s += c; }
  return s;
}
template <int MODE, int K> __global__ void k_d(int iters, long long* out) {
  __shared__ uint64_t bar;
  const int lane = threadIdx.x & 31;
  if (threadIdx.x == 0) mb_init(&bar, MODE == 1 ? blockDim.x / 32 : blockDim.x);
  __syncthreads();
  uint32_t par = 0, acc = 0;
  long long t0 = 0;
  for (int i = 0; i < iters + 8; i++) {
    if (i == 8) t0 = clk();
    step<MODE>(&bar, lane);
    acc += pad<K>();
    mb_wait(&bar, par);
    par ^= 1;
  }
  const long long t1 = clk();
  if (threadIdx.x == 0) out[0] = t1 - t0;
  if (acc == 0xdeadbeef) out[1] = acc;
}
__global__ void k_spin(long long cycles, int* sink) {
  const long long s = clock64();
  while (clock64() - s < cycles) {}
  if (threadIdx.x == 0 && sink) sink[blockIdx.x] = 1;
}
template <int MODE, int K> static void run(int w, long long* d) {
  char cfg[64]; snprintf(cfg, sizeof cfg, "%s_k%d_warps%d", MODE ? "lane0_syncwarp" : "converged", K, w);
  timed3("dsweep", cfg, "cycles_per_phase", d, 2000, [&] { k_d<MODE, K><<<1, 32 * w>>>(2000, d); });
}
template <int MODE> static void all(int w, long long* d) {
  run<MODE, 0>(w, d); run<MODE, 1>(w, d); run<MODE, 2>(w, d); run<MODE, 3>(w, d); run<MODE, 4>(w, d);
  run<MODE, 6>(w, d); run<MODE, 8>(w, d); run<MODE, 12>(w, d);
}
int main() {
  long long* d; CK(cudaMalloc(&d, 64));
  int* sink; CK(cudaMalloc(&sink, 4096));
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  k_spin<<<prop.multiProcessorCount, 32>>>(100000000LL, sink); CK(cudaDeviceSynchronize());
  printf("bench,config,metric,median,min,max,runs\n");
  for (int w : {1, 8, 16, 17, 32}) { all<0>(w, d); all<1>(w, d); }
  return 0;
}
