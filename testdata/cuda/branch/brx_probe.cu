// brx_probe.cu: what does a switch cost in a loop? sync_wgmma.cu's chains, whose loop dispatches on its mode with a
// jump table (LDC of the table entry from constant bank 2, BRX), run 25-29 % faster in smsim than on the H200. One
// thread runs N = 1024 trips of a dependent chain on x, timed with clock64; mode:
//   0 x = x * 3 + 1 (IMAD): the loop alone;
//   1 switch on (x >> 5) & 7, a different multiply-add in each case (ptxas: a jump table, LDC c[0x2][R] and BRX);
//   2 the same multiply-adds chosen by an indexed __constant__ table instead (LDC c[0x3][R], no branch);
//   3 an if/else on bit 5 of x, a different multiply-add on each side (a data-dependent branch);
//   4 as 1, with a fence of the compiler between trips so the table's LDC cannot be hoisted (volatile asm).
// Row: mode,cycles (the third of three runs).
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o brx_probe brx_probe.cu (and -cubin, -ptx;
// cuobjdump -sass brx_probe.cubin)
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>

constexpr int N = 1024;
__constant__ uint32_t kmul[8], kadd[8];

template <int MODE> __device__ __noinline__ uint32_t chain(uint32_t x) {
#pragma unroll 1
  for (int n = 0; n < N; n++) {
    if constexpr (MODE == 0) {
      x = x * 3 + 1;
    } else if constexpr (MODE == 1 || MODE == 4) {
      switch ((x >> 5) & 7) {
        case 0: x = x * 3 + 1; break;
        case 1: x = x * 5 + 7; break;
        case 2: x = x * 7 + 3; break;
        case 3: x = x * 9 + 5; break;
        case 4: x = x * 11 + 9; break;
        case 5: x = x * 13 + 11; break;
        case 6: x = x * 15 + 13; break;
        default: x = x * 17 + 15; break;
      }
      if constexpr (MODE == 4) asm volatile("" ::: "memory");
    } else if constexpr (MODE == 2) {
      const uint32_t s = (x >> 5) & 7;
      x = x * kmul[s] + kadd[s];
    } else {
      if (x & 32) x = x * 5 + 7;
      else x = x * 3 + 1;
    }
  }
  return x;
}

__global__ void brx_probe(int mode, uint32_t seed, long long* out, uint32_t* sink) {
  if (threadIdx.x != 0) return;
  uint32_t x = seed;
  const long long t0 = clock64();
  switch (mode) {
    case 0: x = chain<0>(x); break;
    case 1: x = chain<1>(x); break;
    case 2: x = chain<2>(x); break;
    case 3: x = chain<3>(x); break;
    case 4: x = chain<4>(x); break;
  }
  const long long t1 = clock64();
  out[0] = t1 - t0;
  sink[0] = x;
}

int main() {
  const uint32_t m[8] = {3, 5, 7, 9, 11, 13, 15, 17}, a[8] = {1, 7, 3, 5, 9, 11, 13, 15};
  cudaMemcpyToSymbol(kmul, m, sizeof m);
  cudaMemcpyToSymbol(kadd, a, sizeof a);
  long long* out;
  uint32_t* sink;
  cudaMalloc(&out, 8);
  cudaMalloc(&sink, 4);
  printf("mode,cycles,x\n");
  for (int mode = 0; mode <= 4; mode++) {
    long long h = 0;
    uint32_t x = 0;
    for (int run = 0; run < 3; run++) {
      brx_probe<<<1, 32>>>(mode, 12345, out, sink);
      if (cudaDeviceSynchronize() != cudaSuccess) { fprintf(stderr, "launch failed\n"); return 1; }
      cudaMemcpy(&h, out, 8, cudaMemcpyDeviceToHost);
      cudaMemcpy(&x, sink, 4, cudaMemcpyDeviceToHost);
    }
    printf("%d,%lld,%u\n", mode, h, x);
  }
  return 0;
}
