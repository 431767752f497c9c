// align.cu: does a loop's place in the code decide its phase? elect.cu's converged and lane0_syncwarp
// arrive/try_wait loops, each moved through the code by P = 0-9 extra instructions (clock reads, their sum kept)
// before the barrier's init: ptxas gives the loop the same instructions and control bits at every P
// (align.sass), only its address changes. ONE thread block of W warps; out[0] = clock64 after `iters` phases -
// before (after 8 warm-up phases); the row is out[0] / iters.
// Rows: align,MODE_pP_warpsW,cycles_per_phase (median of three launches after a warm-up one).
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o align align.cu
#include "bench.h"

// Modes (the barrier's count in brackets):
//   0 converged       every lane arrives                      [32 W]  = elect.cu mode 0, microbench converged
//   1 lane0_syncwarp  if (lane == 0) arrive; __syncwarp()     [W]     = elect.cu mode 1, microbench elected_count1
template <int MODE> __device__ __forceinline__ void step(uint64_t* bar, int lane) {
  if (MODE == 0) mb_arrive(bar);
  else { if (lane == 0) mb_arrive(bar); __syncwarp(); }
}

template <int MODE, int P> __global__ void k_align(int iters, long long* out) {
  __shared__ uint64_t bar;
  const int lane = threadIdx.x & 31;
  uint32_t pre = 0;
#pragma unroll
  for (int k = 0; k < P; k++) { uint32_t c; asm volatile("mov.u32 %0, %%clock;" : "=r"(c)); pre += c * (k + 1); }
  if (threadIdx.x == 0) mb_init(&bar, MODE == 1 ? blockDim.x / 32 : blockDim.x);
  __syncthreads();
  uint32_t par = 0;
  for (int i = 0; i < 8; i++) { step<MODE>(&bar, lane); mb_wait(&bar, par); par ^= 1; }
  const long long t0 = clk();
  for (int i = 0; i < iters; i++) { step<MODE>(&bar, lane); mb_wait(&bar, par); par ^= 1; }
  const long long t1 = clk();
  if (threadIdx.x == 0) out[0] = t1 - t0;
  if (pre == 0xdeadbeef) out[1] = pre;
}

__global__ void k_spin(long long cycles, int* sink) {
  const long long s = clock64();
  while (clock64() - s < cycles) {}
  if (threadIdx.x == 0 && sink) sink[blockIdx.x] = 1;
}

template <int MODE, int P> static void run(int warps, int iters, long long* dout) {
  char cfg[64];
  snprintf(cfg, sizeof cfg, "%s_p%d_warps%d", MODE == 0 ? "converged" : "lane0_syncwarp", P, warps);
  timed3("align", cfg, "cycles_per_phase", dout, iters, [&] { k_align<MODE, P><<<1, 32 * warps>>>(iters, dout); });
}

template <int MODE> static void sweep(int w, int iters, long long* d) {
  run<MODE, 0>(w, iters, d); run<MODE, 1>(w, iters, d); run<MODE, 2>(w, iters, d); run<MODE, 3>(w, iters, d);
  run<MODE, 4>(w, iters, d); run<MODE, 5>(w, iters, d); run<MODE, 6>(w, iters, d); run<MODE, 7>(w, iters, d);
  run<MODE, 8>(w, iters, d); run<MODE, 9>(w, iters, d);
}

int main() {
  long long* dout; CK(cudaMalloc(&dout, 8 * sizeof(long long)));
  int* sink; CK(cudaMalloc(&sink, 1024 * sizeof(int)));
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  k_spin<<<prop.multiProcessorCount, 32>>>(100000000LL, sink); CK(cudaDeviceSynchronize());
  printf("bench,config,metric,median,min,max,runs\n");
  const int iters = 2000;
  for (int w : {8, 12, 16, 24, 32}) { sweep<0>(w, iters, dout); sweep<1>(w, iters, dout); }
  return 0;
}
