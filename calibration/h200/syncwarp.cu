// syncwarp.cu: where does __syncwarp() cost in the arrive/wait loop? elect.csv found a converged arrive followed
// by __syncwarp() 27 cycles a phase slower than without it at 16 warps (152 against 125) and no slower at 1, 2 or
// 32 warps. The same loop (every lane arrives, count = blockDim.x) with the __syncwarp() moved or changed:
//   MODE 0: no __syncwarp()                       (= elect.csv converged)
//   MODE 1: __syncwarp() between arrive and wait  (= elect.csv converged_syncwarp)
//   MODE 2: __syncwarp() after the wait loop
//   MODE 3: __syncwarp(mask) with a run-time full mask between arrive and wait
//   MODE 4: two __syncwarp() between arrive and wait
// out[0] = clock64 after `iters` phases - before, thread 0.
// Rows: syncwarp_loop,<mode>_warpsW,cycles_per_phase (median of three launches after a warm-up one).
#include "bench.h"

template <int MODE> __global__ void k_sw(int iters, uint32_t mask, long long* out) {
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) mb_init(&bar, blockDim.x);
  __syncthreads();
  uint32_t par = 0;
  long long t0 = 0;
  for (int i = 0; i < iters + 8; i++) {
    if (i == 8) t0 = clk();
    mb_arrive(&bar);
    if (MODE == 1) __syncwarp();
    if (MODE == 3) __syncwarp(mask);
    if (MODE == 4) { __syncwarp(); __syncwarp(); }
    mb_wait(&bar, par);
    if (MODE == 2) __syncwarp();
    par ^= 1;
  }
  const long long t1 = clk();
  if (threadIdx.x == 0) out[0] = t1 - t0;
}

__global__ void k_spin(long long cycles, int* sink) {
  const long long s = clock64();
  while (clock64() - s < cycles) {}
  if (threadIdx.x == 0 && sink) sink[blockIdx.x] = 1;
}

static const char* names[] = {"none", "between", "after_wait", "runtime_mask", "two_between"};

template <int MODE> static void run(int warps, int iters, long long* dout) {
  char cfg[64];
  snprintf(cfg, sizeof cfg, "%s_warps%d", names[MODE], warps);
  timed3("syncwarp_loop", cfg, "cycles_per_phase", dout, iters, [&] { k_sw<MODE><<<1, 32 * warps>>>(iters, 0xffffffffu, dout); });
}

int main() {
  long long* dout; CK(cudaMalloc(&dout, 8 * sizeof(long long)));
  int* sink; CK(cudaMalloc(&sink, 1024 * sizeof(int)));
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  k_spin<<<prop.multiProcessorCount, 32>>>(100000000LL, sink); CK(cudaDeviceSynchronize());
  printf("bench,config,metric,median,min,max,runs\n");
  const int iters = 2000;
  for (int w : {1, 4, 8, 12, 16, 24, 32}) {
    run<0>(w, iters, dout); run<1>(w, iters, dout); run<2>(w, iters, dout); run<3>(w, iters, dout);
    run<4>(w, iters, dout);
  }
  return 0;
}
