// uldc_chain.cu: the latency of a constant load indexed by a uniform register (ULDC c[0x3][UR]). class_wgmma.cu's
// uniform chase through a __constant__ table (ULDC, USHF, ULOP3 a hop) takes the H200 64.6 cycles a hop where smsim
// gives 19.7; uldc_probe.cu's per-lane chase (LDC c[0x3][R]) smsim times within 0.2 %. Lane 0 of one warp times
// 512 trips of eight dependent hops x = ctab[f(x)], x the same in every lane (ptxas: the uniform datapath), with f:
//   0 x & 255 (USHF and ULOP3 a hop, as class_wgmma);
//   1 ((x ^ 5) + 3) & 255 (two uniform operations more);
//   2 (((x ^ 5) + 3) ^ 9) + 1) & 255 (four more);
//   3 as 0 with x per lane (x + (lane >> 5), zero but not known uniform: LDC c[0x3][R] and vector operations).
// The host fills ctab with cudaMemcpyToSymbol (smsim: --symbol ctab=file:...): word i = (i * 53 + 7) & 255 for
// modes 0-3; then mode 0 again over tables that confine the chase to L = 1, 2, 4, 8 and 16 of the table's 64-byte
// lines (word i = (i * 53 + 7) mod 16L for i < 16L: a cycle through every word of the first L lines).
// Row: mode,lines,cycles,x (lines 0: the first table).
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o uldc_chain uldc_chain.cu (and -cubin, -ptx;
// cuobjdump -sass uldc_chain.cubin)
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>

constexpr int TRIPS = 512;
__constant__ uint32_t ctab[256];

template <int MODE> __device__ __noinline__ uint32_t chain(uint32_t x, uint32_t lane) {
#pragma unroll 1
  for (int n = 0; n < TRIPS; n++) {
#pragma unroll
    for (int i = 0; i < 8; i++) {
      if constexpr (MODE == 0) x = ctab[x & 255];
      if constexpr (MODE == 1) x = ctab[((x ^ 5) + 3) & 255];
      if constexpr (MODE == 2) x = ctab[((((x ^ 5) + 3) ^ 9) + 1) & 255];
      if constexpr (MODE == 3) x = ctab[(x + (lane >> 5)) & 255];
    }
  }
  return x;
}

__global__ void uldc_chain(int mode, long long* out, uint32_t* sink) {
  const uint32_t lane = threadIdx.x;
  uint32_t x = 5;
  const long long t0 = clock64();
  switch (mode) {
    case 0: x = chain<0>(x, lane); break;
    case 1: x = chain<1>(x, lane); break;
    case 2: x = chain<2>(x, lane); break;
    case 3: x = chain<3>(x, lane); break;
  }
  const long long t1 = clock64();
  if (lane == 0) { out[0] = t1 - t0; sink[0] = x; }
}

int main() {
  uint32_t h[256];
  for (int i = 0; i < 256; i++) h[i] = (i * 53 + 7) & 255;
  cudaMemcpyToSymbol(ctab, h, sizeof h);
  long long* out;
  uint32_t* sink;
  cudaMalloc(&out, 8);
  cudaMalloc(&sink, 4);
  printf("mode,lines,cycles,x\n");
  for (int k = 0; k < 9; k++) {
    const int mode = k < 4 ? k : 0, lines = k < 4 ? 0 : 1 << (k - 4);
    if (lines) {
      for (int i = 0; i < 256; i++) h[i] = i < 16 * lines ? (uint32_t)((i * 53 + 7) % (16 * lines)) : 0;
      cudaMemcpyToSymbol(ctab, h, sizeof h);
    }
    long long c = 0;
    uint32_t x = 0;
    for (int run = 0; run < 3; run++) {
      uldc_chain<<<1, 32>>>(mode, out, sink);
      if (cudaDeviceSynchronize() != cudaSuccess) { fprintf(stderr, "launch failed\n"); return 1; }
      cudaMemcpy(&c, out, 8, cudaMemcpyDeviceToHost);
      cudaMemcpy(&x, sink, 4, cudaMemcpyDeviceToHost);
    }
    printf("%d,%d,%lld,%u\n", mode, lines, c, x);
  }
  return 0;
}
