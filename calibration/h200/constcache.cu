// constcache.cu: what a constant load (LDC) costs when its line is not in the SM's constant cache. A kernel's
// parameters (bank 0) are new at every launch and __constant__ data (bank 3) is loaded before the first launch,
// so the first LDC of each line in a launch may go past the constant cache; every kernel that times itself from
// its first instruction pays that. One thread (warp W, lane 0) walks a pointer chase through a __constant__
// array, each hop timed on its own: clock, the dependent LDC c[0x3][R], a shared store of the loaded index (it
// cannot issue before the load's value is back, and the clock read after it cannot issue before it), clock.
// The chase visits ints 0, 1, 2, 4, 8, ... 2048 (byte strides 4 to 4096: which hop misses again gives the line
// size), then 3, 17, 65, 257 (in lines visited before). Modes:
//   0: warp 0 walks alone (cold lines);
//   1: warp 0 walks, then warp 1 (another SM sub-partition) walks after a spin of 20,000 cycles;
//   2: the same with warp 4 (warp 0's sub-partition);
//   3: warp 0 walks twice (the second walk: every line warm).
// The parameter bank: k_param times LDC of parameters at 64-byte steps (0x210 + 64 j), the same way, from the
// first instruction after the kernel's first clock read.
// Rows: constcache,mode<m>_<walker>_hop<h>_int<i>,cycles (hop h of the walker, which loads int i: walker cold is
// the first walk, warp1 / warp4 / again the second);
// constcache,param_j<j>,cycles. Each value is the median over launches 2-4 (launch 1 untimed).
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o constcache constcache.cu
#include "bench.h"

constexpr int HOPS = 17;
__constant__ int cb[4096];

__device__ __forceinline__ void walk(volatile int* sidx, volatile long long* st) {
  int j = 0;
#pragma unroll 1
  for (int h = 0; h < HOPS; h++) {
    const long long t0 = clk();
    j = cb[j];
    sidx[h] = j;
    const long long t1 = clk();
    st[h] = t1 - t0;
  }
}

__global__ void k_chase(int mode, long long* out) {
  __shared__ volatile int sidx[2][HOPS];
  __shared__ volatile long long st[2][HOPS];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int second = mode == 1 ? 1 : mode == 2 ? 4 : -1;
  if (lane == 0 && warp == 0) {
    walk(sidx[0], st[0]);
    if (mode == 3) walk(sidx[1], st[1]);
  }
  if (lane == 0 && warp == second) {
    const long long t = clk();
    while (clk() - t < 20000) {}
    walk(sidx[1], st[1]);
  }
  __syncthreads();
  if (threadIdx.x < 2 * HOPS) {
    out[threadIdx.x] = st[threadIdx.x / HOPS][threadIdx.x % HOPS];
    out[64 + threadIdx.x] = sidx[threadIdx.x / HOPS][threadIdx.x % HOPS];  // the loads are live
  }
}

struct Params { int v[192]; };  // 768 bytes of parameters: c[0x0][0x218] on

__global__ void k_param(long long* out, const __grid_constant__ Params p) {
  __shared__ volatile int sv[12];
  __shared__ volatile long long st[12];
  if (threadIdx.x != 0) return;
#pragma unroll
  for (int j = 0; j < 12; j++) {
    const long long t0 = clk();
    sv[j] = p.v[16 * j];
    const long long t1 = clk();
    st[j] = t1 - t0;
  }
  __syncwarp(1);
  for (int j = 0; j < 12; j++) {
    out[j] = st[j];
    out[64 + j] = sv[j];
  }
}

// The ints the walk visits, hop by hop: 0, 1, 2, 4, ... 2048 (byte strides 4 to 4096), then 3, 17, 65, 257, in
// lines visited before (0's, 16's, 64's, 256's).
static const int visit[HOPS] = {0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 3, 17, 65, 257};

int main() {
  std::vector<int> h(4096, 0);
  for (int i = 0; i + 1 < HOPS; i++) h[visit[i]] = visit[i + 1];
  CK(cudaMemcpyToSymbol(cb, h.data(), h.size() * 4));
  long long* dout;
  CK(cudaMalloc(&dout, 128 * sizeof(long long)));
  static const char* names[4][2] = {{"cold", ""}, {"cold", "warp1"}, {"cold", "warp4"}, {"cold", "again"}};
  for (int mode = 0; mode < 4; mode++) {
    std::vector<std::vector<long long>> runs;
    for (int r = 0; r < 4; r++) {
      k_chase<<<1, 160>>>(mode, dout);
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      std::vector<long long> v(2 * HOPS);
      CK(cudaMemcpy(v.data(), dout, v.size() * 8, cudaMemcpyDeviceToHost));
      if (r > 0) runs.push_back(v);
    }
    for (int w = 0; w < (mode == 0 ? 1 : 2); w++)
      for (int i = 0; i < HOPS; i++) {
        std::vector<long long> s;
        for (auto& v : runs) s.push_back(v[w * HOPS + i]);
        std::sort(s.begin(), s.end());
        printf("constcache,mode%d_%s_hop%d_int%d,cycles,%lld,%lld,%lld,3\n", mode, names[mode][w], i, visit[i], s[1],
               s[0], s[2]);
      }
  }
  Params p;
  for (int i = 0; i < 192; i++) p.v[i] = i;
  std::vector<std::vector<long long>> runs;
  for (int r = 0; r < 4; r++) {
    k_param<<<1, 32>>>(dout, p);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<long long> v(12);
    CK(cudaMemcpy(v.data(), dout, v.size() * 8, cudaMemcpyDeviceToHost));
    if (r > 0) runs.push_back(v);
  }
  for (int j = 0; j < 12; j++) {
    std::vector<long long> s;
    for (auto& v : runs) s.push_back(v[j]);
    std::sort(s.begin(), s.end());
    printf("constcache,param_j%d,cycles,%lld,%lld,%lld,3\n", j, s[1], s[0], s[2]);
  }
  return 0;
}
