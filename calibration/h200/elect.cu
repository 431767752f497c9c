// elect.cu: why an arrive by one elected lane costs the H200 more than a converged arrive at 8-32 warps
// (microbench.csv arrive_wait_loop elected_* against converged_*). The same arrive/try_wait loop as
// microbench.cu's k_arrive_wait, with the arrive step varied one thing at a time: who arrives (all lanes, lane 0
// after `if`, the lane elect.sync picks), with what count, and whether __syncwarp() follows. ONE thread block of
// W warps; out[0] = clock64 after `iters` phases - before (after 8 warm-up phases); the row is out[0] / iters.
// Output CSV "bench,config,metric,median,min,max,runs" over 3 runs.
// `elect sweep` prints elect_sweep.csv instead: the converged, lane0_syncwarp and converged_syncwarp loops at
// every warp count from 1 to 32 (the converged loop is faster at 8, 12-13, 16, 23-24 and 28 warps than at the
// counts around them; the elected loops grow smoothly).
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o elect elect.cu
#include <string>
#include "bench.h"

// Modes (the barrier's count in brackets):
//   0 converged           every lane arrives                               [32 W]
//   1 lane0_syncwarp      if (lane == 0) arrive; __syncwarp()              [W]   = microbench elected_count1
//   2 lane0               if (lane == 0) arrive                            [W]
//   3 converged_syncwarp  every lane arrives; __syncwarp()                 [32 W]
//   4 lane0_count32       if (lane == 0) arrive with count 32              [32 W] (microbench elected_arrive32 without __syncwarp)
//   5 elect_sync          if (elect.sync) arrive; the CUTLASS idiom        [W]
__device__ __forceinline__ bool elect_one() {
  uint32_t pred;
  asm volatile("{\n\t.reg .pred p;\n\t.reg .b32 r;\n\telect.sync r|p, 0xffffffff;\n\tselp.u32 %0, 1, 0, p;\n\t}"
               : "=r"(pred) :: "memory");
  return pred != 0;
}

template <int MODE> __device__ __forceinline__ void step(uint64_t* bar, int lane) {
  if (MODE == 0) mb_arrive(bar);
  else if (MODE == 1) { if (lane == 0) mb_arrive(bar); __syncwarp(); }
  else if (MODE == 2) { if (lane == 0) mb_arrive(bar); }
  else if (MODE == 3) { mb_arrive(bar); __syncwarp(); }
  else if (MODE == 4) { if (lane == 0) mb_arrive_n(bar, 32); }
  else { if (elect_one()) mb_arrive(bar); }
}

template <int MODE> __global__ void k_elect(int iters, long long* out) {
  __shared__ uint64_t bar;
  const int lane = threadIdx.x & 31;
  const bool perWarp = MODE == 1 || MODE == 2 || MODE == 5;
  if (threadIdx.x == 0) mb_init(&bar, perWarp ? blockDim.x / 32 : blockDim.x);
  __syncthreads();
  uint32_t par = 0;
  for (int i = 0; i < 8; i++) { step<MODE>(&bar, lane); mb_wait(&bar, par); par ^= 1; }
  const long long t0 = clk();
  for (int i = 0; i < iters; i++) { step<MODE>(&bar, lane); mb_wait(&bar, par); par ^= 1; }
  const long long t1 = clk();
  if (threadIdx.x == 0) out[0] = t1 - t0;
}

__global__ void k_spin(long long cycles, int* sink) {
  const long long s = clock64();
  while (clock64() - s < cycles) {}
  if (threadIdx.x == 0 && sink) sink[blockIdx.x] = 1;
}

static const char* names[] = {"converged", "lane0_syncwarp", "lane0", "converged_syncwarp", "lane0_count32", "elect_sync"};

template <int MODE> static void run(int warps, int iters, long long* dout, const char* bench = "elect_loop") {
  char cfg[64];
  snprintf(cfg, sizeof cfg, "%s_warps%d", names[MODE], warps);
  timed3(bench, cfg, "cycles_per_phase", dout, iters, [&] { k_elect<MODE><<<1, 32 * warps>>>(iters, dout); });
}

int main(int argc, char** argv) {
  long long* dout; CK(cudaMalloc(&dout, 8 * sizeof(long long)));
  int* sink; CK(cudaMalloc(&sink, 1024 * sizeof(int)));
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  k_spin<<<prop.multiProcessorCount, 32>>>(100000000LL, sink); CK(cudaDeviceSynchronize());
  printf("bench,config,metric,median,min,max,runs\n");
  const int iters = 2000;
  if (argc > 1 && std::string(argv[1]) == "sweep") {  // elect_sweep.csv: every warp count from 1 to 32
    for (int w = 1; w <= 32; w++) {
      run<0>(w, iters, dout, "elect_sweep"); run<1>(w, iters, dout, "elect_sweep"); run<3>(w, iters, dout, "elect_sweep");
    }
    return 0;
  }
  for (int w : {1, 4, 8, 16, 32}) {
    run<0>(w, iters, dout); run<1>(w, iters, dout); run<2>(w, iters, dout);
    run<3>(w, iters, dout); run<4>(w, iters, dout); run<5>(w, iters, dout);
  }
  return 0;
}
