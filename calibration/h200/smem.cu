// smem.cu: how many shared-memory loads a scheduler (SM sub-partition) and the SM issue per cycle. Each
// thread runs 8 independent chains of loads through a table in shared memory whose every entry holds its
// own shared address (x = [x]: the address stays, the loads depend on each other only within a chain),
// 32 loads a loop trip, `iters` trips, 1-32 warps of one block. Consecutive lanes read consecutive words
// (32-bit), pairs (v2) or quads (v4): no bank conflicts. out[0] = clock64 after - before, thread 0.
// Rows: smem_rate,ldsN_chainsC_warpsW,cycles_per_instr = out[0] / (32 * iters * max(1, W / 4)): with eight
// chains the cycles one scheduler spends per warp instruction, with one chain (one warp) the latency.
#include "bench.h"

#define L32(k) asm volatile("ld.shared.u32 %0, [%0];" : "+r"(x[k]) :: "memory");
#define L64(k) asm volatile("{\n\t.reg .u32 t;\n\tld.shared.v2.u32 {%0, t}, [%0];\n\t}" : "+r"(x[k]) :: "memory");
#define L128(k) asm volatile("{\n\t.reg .u32 t, u, v;\n\tld.shared.v4.u32 {%0, t, u, v}, [%0];\n\t}" : "+r"(x[k]) :: "memory");
#define R8(OP) OP(0) OP(1) OP(2) OP(3) OP(4) OP(5) OP(6) OP(7)
#define R1(OP) OP(0) OP(0) OP(0) OP(0) OP(0) OP(0) OP(0) OP(0)

template <int W, int CH> __global__ void k_lds(int iters, long long* out) {
  __shared__ __align__(16) uint32_t tab[8 * 32 * 4];
  const int lane = threadIdx.x & 31;
  for (int i = threadIdx.x; i < 8 * 32 * 4; i += blockDim.x) tab[i] = sa(&tab[i]);
  __syncthreads();
  uint32_t x[8];
#pragma unroll
  for (int k = 0; k < 8; k++) x[k] = sa(&tab[(k * 32 + lane) * (W / 32)]);
  const long long t0 = clk();
#pragma unroll 1
  for (int i = 0; i < iters; i++) {
#pragma unroll
    for (int j = 0; j < 4; j++) {
      if (CH == 8) {
        if (W == 32) { R8(L32) }
        if (W == 64) { R8(L64) }
        if (W == 128) { R8(L128) }
      } else {
        if (W == 32) { R1(L32) }
        if (W == 64) { R1(L64) }
        if (W == 128) { R1(L128) }
      }
    }
  }
  __syncthreads();
  const long long t1 = clk();
  if (threadIdx.x == 0) out[0] = t1 - t0;
  uint32_t s = 0;
#pragma unroll
  for (int k = 0; k < 8; k++) s += x[k];
  if (s == 0x9e3779b9u) out[1] = s;
}

__global__ void k_spin(long long cycles, int* sink) {
  const long long s = clock64();
  while (clock64() - s < cycles) {}
  if (threadIdx.x == 0 && sink) sink[blockIdx.x] = 1;
}

template <int W, int CH> static void run(int warps, int iters, long long* dout) {
  char cfg[64];
  snprintf(cfg, sizeof cfg, "lds%d_chains%d_warps%d", W, CH, warps);
  const double per = 32.0 * iters * std::max(1, warps / 4);
  timed3("smem_rate", cfg, "cycles_per_instr", dout, per, [&] { k_lds<W, CH><<<1, 32 * warps>>>(iters, dout); });
}

int main() {
  long long* dout; CK(cudaMalloc(&dout, 8 * sizeof(long long)));
  int* sink; CK(cudaMalloc(&sink, 1024 * sizeof(int)));
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  k_spin<<<prop.multiProcessorCount, 32>>>(100000000LL, sink); CK(cudaDeviceSynchronize());
  printf("bench,config,metric,median,min,max,runs\n");
  const int iters = 1000;
  run<32, 1>(1, iters, dout); run<64, 1>(1, iters, dout); run<128, 1>(1, iters, dout);
  for (int w : {1, 2, 4, 8, 16, 32}) { run<32, 8>(w, iters, dout); run<64, 8>(w, iters, dout); run<128, 8>(w, iters, dout); }
  return 0;
}
