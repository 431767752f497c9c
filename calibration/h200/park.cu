// park.cu: a waiter that starts waiting K dependent IMADs after a __syncthreads, while another warp
// arrives (completing the phase) right after it: how the waiter's exit depends on how long it was suspended.
// out[r*3] = waiter's clock before the wait, [r*3+1] after, [r*3+2] arriver's clock right before its arrive.
#include "bench.h"

template <int K> __global__ void k_park(int reps, unsigned a, long long* out) {
  __shared__ uint64_t bar;
  const int warp = threadIdx.x / 32, lane = threadIdx.x & 31;
  if (threadIdx.x == 0) mb_init(&bar, 1);
  __syncthreads();
  uint32_t par = 0;
  for (int r = 0; r < reps; r++) {
    __syncthreads();
    if (warp == 1) {
      if (lane == 0) {
        const long long ta = clk();
        mb_arrive(&bar);
        out[r * 3 + 2] = ta;
      }
      __syncwarp();
    } else {
      unsigned x = a;
#pragma unroll
      for (int k = 0; k < K; k++) asm volatile("mad.lo.u32 %0, %0, %0, %1;" : "+r"(x) : "r"(a));
      const long long t0 = clk();
      while (!mb_try(&bar, par ^ (x == 12345u))) {}
      const long long t1 = clk();
      if (lane == 0) { out[r * 3] = t0; out[r * 3 + 1] = t1; }
    }
    par ^= 1;
  }
}

__global__ void k_spin(long long cycles, int* sink) {
  const long long s = clock64();
  while (clock64() - s < cycles) {}
  if (threadIdx.x == 0 && sink) sink[blockIdx.x] = 1;
}

static long long* dout;
template <int K> static void run() {
  const int reps = 12;
  std::vector<long long> h(3 * reps);
  k_park<K><<<1, 64>>>(reps, 3u, dout);
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(h.data(), dout, h.size() * sizeof(long long), cudaMemcpyDeviceToHost));
  std::vector<long long> lat, off;
  for (int r = 2; r < reps; r++) { lat.push_back(h[r * 3 + 1] - h[r * 3 + 2]); off.push_back(h[r * 3] - h[r * 3 + 2]); }
  std::sort(lat.begin(), lat.end()); std::sort(off.begin(), off.end());
  printf("park,K%d,wait_start_minus_arrive,%lld,exit_minus_arrive_min,%lld,med,%lld,max,%lld\n", K, off[off.size() / 2], lat[0], lat[lat.size() / 2], lat.back());
}

int main() {
  CK(cudaMalloc(&dout, 1 << 16));
  int* sink; CK(cudaMalloc(&sink, 1024 * sizeof(int)));
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  k_spin<<<prop.multiProcessorCount, 32>>>(100000000LL, sink); CK(cudaDeviceSynchronize());
  run<0>(); run<1>(); run<2>(); run<3>(); run<4>(); run<5>(); run<6>(); run<7>(); run<8>(); run<9>(); run<10>();
  run<11>(); run<12>(); run<13>(); run<14>(); run<16>(); run<18>(); run<20>(); run<24>(); run<28>(); run<32>();
  return 0;
}
