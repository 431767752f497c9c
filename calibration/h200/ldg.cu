// ldg.cu: global loads that hit L1, and shuffles: cycles a warp instruction per sub-partition. Each thread
// runs 8 independent chains (or one) of 32-bit or 128-bit `ld.global.ca` through a table whose word i holds i
// (the next address is the table plus the loaded index: the same word again), or of `shfl.sync.bfly`; 32
// operations a loop trip, `iters` trips, 1-32 warps of one block. The table is warmed into L1 first.
// Rows: l1_rate,OP_chainsC_warpsW,cycles_per_instr = out[0] / (32 * iters * max(1, W / 4)).
#include "bench.h"
#include <vector>

#define G32(k) asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(v[k]) : "l"(p[k]) : "memory"); p[k] = tab + v[k];
#define G128(k) asm volatile("{\n\t.reg .u32 t, u, w;\n\tld.global.ca.v4.u32 {%0, t, u, w}, [%1];\n\t}" : "=r"(v[k]) : "l"(p[k]) : "memory"); p[k] = tab + v[k];
#define SHF(k) asm volatile("shfl.sync.bfly.b32 %0, %0, 1, 31, -1;" : "+r"(v[k]));
#define R8(OP) OP(0) OP(1) OP(2) OP(3) OP(4) OP(5) OP(6) OP(7)
#define R1(OP) OP(0) OP(0) OP(0) OP(0) OP(0) OP(0) OP(0) OP(0)

// tab[i] = i: each chain reloads its own word (index in words).
template <int OP, int CH> __global__ void k_g(int iters, const uint32_t* tab, long long* out) {
  const int lane = threadIdx.x & 31;
  const uint32_t* p[8];
  uint32_t v[8];
  const int w = OP == 1 ? 4 : 1;
#pragma unroll
  for (int k = 0; k < 8; k++) { p[k] = tab + (k * 32 + lane) * w; v[k] = lane; }
  // warm L1
#pragma unroll
  for (int k = 0; k < 8; k++) { uint32_t t; asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(t) : "l"(p[k]) : "memory"); v[k] += t & 0; }
  __syncthreads();
  const long long t0 = clk();
#pragma unroll 1
  for (int i = 0; i < iters; i++) {
#pragma unroll
    for (int j = 0; j < 4; j++) {
      if (CH == 8) {
        if (OP == 0) { R8(G32) }
        if (OP == 1) { R8(G128) }
        if (OP == 2) { R8(SHF) }
      } else {
        if (OP == 0) { R1(G32) }
        if (OP == 1) { R1(G128) }
        if (OP == 2) { R1(SHF) }
      }
    }
  }
  __syncthreads();
  const long long t1 = clk();
  if (threadIdx.x == 0) out[0] = t1 - t0;
  uint32_t s = 0;
#pragma unroll
  for (int k = 0; k < 8; k++) s += v[k];
  if (s == 0x9e3779b9u) out[1] = s;
}

__global__ void k_spin(long long cycles, int* sink) {
  const long long s = clock64();
  while (clock64() - s < cycles) {}
  if (threadIdx.x == 0 && sink) sink[blockIdx.x] = 1;
}

static const char* names[] = {"ldg32", "ldg128", "shfl"};
template <int OP, int CH> static void run(int warps, int iters, const uint32_t* tab, long long* dout) {
  char cfg[64];
  snprintf(cfg, sizeof cfg, "%s_chains%d_warps%d", names[OP], CH, warps);
  const double per = 32.0 * iters * std::max(1, warps / 4);
  timed3("l1_rate", cfg, "cycles_per_instr", dout, per, [&] { k_g<OP, CH><<<1, 32 * warps>>>(iters, tab, dout); });
}

int main() {
  long long* dout; CK(cudaMalloc(&dout, 8 * sizeof(long long)));
  int* sink; CK(cudaMalloc(&sink, 1024 * sizeof(int)));
  uint32_t* tab; CK(cudaMalloc(&tab, 4096 * sizeof(uint32_t)));
  std::vector<uint32_t> h(4096);
  for (int i = 0; i < 4096; i++) h[i] = i;
  CK(cudaMemcpy(tab, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  k_spin<<<prop.multiProcessorCount, 32>>>(100000000LL, sink); CK(cudaDeviceSynchronize());
  printf("bench,config,metric,median,min,max,runs\n");
  const int iters = 1000;
  run<0, 1>(1, iters, tab, dout); run<1, 1>(1, iters, tab, dout); run<2, 1>(1, iters, tab, dout);
  for (int w : {1, 2, 4, 8, 16, 32}) { run<0, 8>(w, iters, tab, dout); run<1, 8>(w, iters, tab, dout); run<2, 8>(w, iters, tab, dout); }
  return 0;
}
