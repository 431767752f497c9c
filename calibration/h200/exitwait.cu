// exitwait.cu: elect.cu's arrive/wait loops run by W worker warps of a block of W + 1, the extra warp leaving
// first (`if (warp >= W) return;`). The branch depends on the thread index, so ptxas addresses the barrier through
// a per-thread register after it (`SYNCS.ARRIVE [R3+URZ]`, `TRYWAIT [R3+URZ]`), but the paths only meet to exit
// and the address is the same in every lane: no convergence region encloses the wait's retry loop (exitwait.sass).
// Mode `region` keeps the extra warp to the end instead: the worker loop sits in an if-region that closes before
// thread 0's store. The `_branch` modes send the extra warp to code of its own (a clock spin of `spin` cycles)
// before it leaves: the paths still meet only to exit, but now ptxas branches around that code and addresses the
// barrier through a per-thread register after the branch (`[R3+URZ]`), again with no convergence region. ONE thread block; out[0] = clock64 after `iters` phases - before (after 8 warm-up phases); the
// row is out[0] / iters. Output CSV "bench,config,metric,median,min,max,runs" over 3 runs.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o exitwait exitwait.cu
#include "bench.h"

// Modes (the barrier's count in brackets):
//   0 converged           every lane arrives                               [32 W]
//   1 lane0_syncwarp      if (lane == 0) arrive; __syncwarp()              [W]
//   3 converged_syncwarp  every lane arrives; __syncwarp()                 [32 W]
//   4 region              mode 0 inside `if (warp < W) { ... }`, the extra warp staying  [32 W]
//   5, 6, 7 *_branch      modes 0, 1, 3, the extra warp spinning before it leaves          [as 0, 1, 3]
template <int MODE> __device__ __forceinline__ void step(uint64_t* bar, int lane) {
  if (MODE == 1 || MODE == 6) { if (lane == 0) mb_arrive(bar); __syncwarp(); }
  else if (MODE == 3 || MODE == 7) { mb_arrive(bar); __syncwarp(); }
  else mb_arrive(bar);
}

template <int MODE> __global__ void k_exit(int iters, int W, long long spin, long long* out) {
  __shared__ uint64_t bar;
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  if (threadIdx.x == 0) mb_init(&bar, MODE == 1 || MODE == 6 ? W : 32 * W);
  __syncthreads();
  long long t0 = 0, t1 = 0;
  if (MODE >= 5 && warp >= W) {
    const long long s = clk();
    while (clk() - s < spin) {}
    return;
  }
  if (MODE != 4 && warp >= W) return;
  if (warp < W) {
    uint32_t par = 0;
    for (int i = 0; i < 8; i++) { step<MODE>(&bar, lane); mb_wait(&bar, par); par ^= 1; }
    t0 = clk();
    for (int i = 0; i < iters; i++) { step<MODE>(&bar, lane); mb_wait(&bar, par); par ^= 1; }
    t1 = clk();
  }
  if (threadIdx.x == 0) out[0] = t1 - t0;
}

__global__ void k_spin(long long cycles, int* sink) {
  const long long s = clock64();
  while (clock64() - s < cycles) {}
  if (threadIdx.x == 0 && sink) sink[blockIdx.x] = 1;
}

static const char* names[] = {"converged", "lane0_syncwarp", "", "converged_syncwarp", "region",
                              "converged_branch", "lane0_syncwarp_branch", "converged_syncwarp_branch"};

template <int MODE> static void run(int W, int iters, long long* dout) {
  char cfg[64];
  snprintf(cfg, sizeof cfg, "%s_warps%d", names[MODE], W);
  timed3("exit_loop", cfg, "cycles_per_phase", dout, iters, [&] { k_exit<MODE><<<1, 32 * (W + 1)>>>(iters, W, 1000, dout); });
}

int main() {
  long long* dout; CK(cudaMalloc(&dout, 8 * sizeof(long long)));
  int* sink; CK(cudaMalloc(&sink, 1024 * sizeof(int)));
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  k_spin<<<prop.multiProcessorCount, 32>>>(100000000LL, sink); CK(cudaDeviceSynchronize());
  printf("bench,config,metric,median,min,max,runs\n");
  const int iters = 2000;
  for (int w : {1, 2, 4, 8, 12, 16, 17, 24, 31}) {
    run<0>(w, iters, dout); run<1>(w, iters, dout); run<3>(w, iters, dout); run<4>(w, iters, dout);
    run<5>(w, iters, dout); run<6>(w, iters, dout); run<7>(w, iters, dout);
  }
  return 0;
}
