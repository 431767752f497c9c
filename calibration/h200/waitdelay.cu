// waitdelay.cu: does a try_wait issued later after the arrive make a phase slower or faster? The arrive/wait loop
// of microbench.cu's k_arrive_wait (every lane arrives, count = blockDim.x), with a chain of K dependent IMADs
// between each warp's arrive and its try_wait; the try_wait's parity depends on the chain (par ^ (r & mask), mask
// a run-time 0), so the wait cannot issue before the chain ends. K = 0, 2, 4, 8, 16 (about 0-64 cycles), 1-32
// warps. out[0] = clock64 after `iters` phases - before, thread 0.
// Rows: wait_delay,imadK_warpsW,cycles_per_phase (median of three launches after a warm-up one).
#include "bench.h"

template <int K> __global__ void k_delay(int iters, uint32_t a, uint32_t b, uint32_t mask, long long* out) {
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) mb_init(&bar, blockDim.x);
  __syncthreads();
  uint32_t par = 0, r = a;
  long long t0 = 0;
  for (int i = 0; i < iters + 8; i++) {
    if (i == 8) t0 = clk();
    mb_arrive(&bar);
#pragma unroll
    for (int k = 0; k < K; k++) asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(r) : "r"(a), "r"(b));
    mb_wait(&bar, par ^ (r & mask));
    par ^= 1;
  }
  const long long t1 = clk();
  if (threadIdx.x == 0) out[0] = t1 - t0;
  if (r == 0xdeadbeef) out[1] = 1;
}

__global__ void k_spin(long long cycles, int* sink) {
  const long long s = clock64();
  while (clock64() - s < cycles) {}
  if (threadIdx.x == 0 && sink) sink[blockIdx.x] = 1;
}

template <int K> static void run(int warps, int iters, long long* dout) {
  char cfg[64];
  snprintf(cfg, sizeof cfg, "imad%d_warps%d", K, warps);
  timed3("wait_delay", cfg, "cycles_per_phase", dout, iters, [&] { k_delay<K><<<1, 32 * warps>>>(iters, 3, 1, 0, dout); });
}

int main() {
  long long* dout; CK(cudaMalloc(&dout, 8 * sizeof(long long)));
  int* sink; CK(cudaMalloc(&sink, 1024 * sizeof(int)));
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  k_spin<<<prop.multiProcessorCount, 32>>>(100000000LL, sink); CK(cudaDeviceSynchronize());
  printf("bench,config,metric,median,min,max,runs\n");
  const int iters = 2000;
  for (int w : {1, 4, 8, 16, 32}) {
    run<0>(w, iters, dout); run<2>(w, iters, dout); run<4>(w, iters, dout); run<8>(w, iters, dout);
    run<16>(w, iters, dout);
  }
  return 0;
}
