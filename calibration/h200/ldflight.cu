// ldflight.cu: how many plain global loads one SM keeps in flight. One CTA of W warps (1-32); each warp streams
// its own contiguous region with K independent loads a thread an iteration (1-16), each load V 32-bit words a
// thread (V = 1: 128 B a warp instruction, 2: 256 B, 4: 512 B; ld.global, L1-allocating, every line read once),
// then sums them before the next iteration's loads (k_fl<K, V>). The region is L2-resident (read by the launch
// before) or in DRAM (a fresh 1 MiB-aligned window of a 2 GiB buffer each launch, so no line was read in the last
// 2 GiB of traffic). out[0] = cycles from the CTA's first __syncthreads to its last (clock64 in thread 0).
// Little's law on the rows the SM's limit binds: loads in flight = rate (loads a cycle) × latency (the W = 1,
// K = 1 row's cycles a load).
// Output: "ldflight,place,V,K,W,cycles,bytes,iters" rows, three launches each (rep 0-2).
// Build: nvcc -O3 -std=c++17 -arch=sm_90a -o ldflight ldflight.cu
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

template <int V> __device__ __forceinline__ uint32_t ld(const uint32_t* p);
template <> __device__ __forceinline__ uint32_t ld<1>(const uint32_t* p) {
  uint32_t x; asm volatile("ld.global.u32 %0, [%1];" : "=r"(x) : "l"(p)); return x;
}
template <> __device__ __forceinline__ uint32_t ld<2>(const uint32_t* p) {
  uint32_t x, y; asm volatile("ld.global.v2.u32 {%0,%1}, [%2];" : "=r"(x), "=r"(y) : "l"(p)); return x ^ y;
}
template <> __device__ __forceinline__ uint32_t ld<4>(const uint32_t* p) {
  uint32_t x, y, z, w;
  asm volatile("ld.global.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "l"(p));
  return (x ^ y) ^ (z ^ w);
}

// in: the region (iters * K * 32 * V words a warp, warps one after another); out[0]: cycles, out[1]: the sum.
template <int K, int V> __global__ void k_fl(const uint32_t* in, int iters, long long* out) {
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  const uint32_t* p = in + ((size_t)w * iters * K * 32 + lane) * V;
  uint32_t acc = 0;
  __syncthreads();
  const long long t0 = clock64();
  for (int i = 0; i < iters; i++) {
    uint32_t v[K];
#pragma unroll
    for (int k = 0; k < K; k++) v[k] = ld<V>(p + (size_t)(i * K + k) * 32 * V);
#pragma unroll
    for (int k = 0; k < K; k++) acc += v[k];
  }
  __syncthreads();
  const long long t1 = clock64();
  if (threadIdx.x == 0) out[0] = t1 - t0;
  if (acc == 0x9e3779b9u) out[1] = acc;
}

__global__ void k_spin(long long cycles) {
  const long long t0 = clock64();
  while (clock64() - t0 < cycles) {}
}

typedef void (*Kern)(const uint32_t*, int, long long*);
struct KV { int k, v; Kern f; };
static const KV kKernels[] = {
  {1, 1, k_fl<1, 1>}, {2, 1, k_fl<2, 1>}, {4, 1, k_fl<4, 1>}, {8, 1, k_fl<8, 1>}, {16, 1, k_fl<16, 1>},
  {1, 2, k_fl<1, 2>}, {2, 2, k_fl<2, 2>}, {4, 2, k_fl<4, 2>}, {8, 2, k_fl<8, 2>}, {16, 2, k_fl<16, 2>},
  {1, 4, k_fl<1, 4>}, {2, 4, k_fl<2, 4>}, {4, 4, k_fl<4, 4>}, {8, 4, k_fl<8, 4>}, {16, 4, k_fl<16, 4>},
};
static const int kWarps[] = {1, 2, 4, 8, 16, 32};
static const size_t kWarpBytes = 32 << 10;  // bytes each warp reads
static const size_t kBig = 2ull << 30;

int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  uint32_t* big; long long* out;
  CK(cudaMalloc(&big, kBig));
  CK(cudaMemset(big, 0, kBig));
  CK(cudaMalloc(&out, 16 * sizeof(long long)));
  k_spin<<<264, 128>>>(100000000ll);  // 50 ms on every SM brings the clock up
  CK(cudaDeviceSynchronize());
  printf("ldflight,place,V,K,W,rep,cycles,bytes,iters\n");
  size_t window = 0;
  for (int place = 0; place < 2; place++)  // 0: L2, 1: DRAM
    for (const KV& kv : kKernels)
      for (int w : kWarps) {
        const int iters = (int)(kWarpBytes / (kv.k * 32 * 4 * kv.v));
        for (int rep = -1; rep < 3; rep++) {
          const uint32_t* base = big;
          if (place == 1) { window = (window + (1 << 20)) % (kBig - (2 << 20)); base = big + window / 4; }
          else if (rep < 0) base = big;  // the untimed launch brings the L2 rows' region into L2
          kv.f<<<1, 32 * w>>>(base, iters, out);
          CK(cudaGetLastError());
          CK(cudaDeviceSynchronize());
          if (rep < 0) continue;
          long long c = 0; CK(cudaMemcpy(&c, out, sizeof c, cudaMemcpyDeviceToHost));
          printf("ldflight,%s,%d,%d,%d,%d,%lld,%zu,%d\n", place ? "dram" : "l2", kv.v, kv.k, w, rep, c, kWarpBytes * w, iters);
        }
      }
  printf("done,ok,1\n");
  return 0;
}
