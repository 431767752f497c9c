// ldaddr.cu: what a global load costs one warp's issue when an ALU instruction just computed its address.
//   k_chain<N, M>  one warp: a chain of N steps a = a + stride (mad.wide.u32, each step on the one before), and
//                  for M = 1 a load of one line at each step's a (ld.global.u32, lane l reads word l), the loads'
//                  values summed only after the chain; M = 0 the chain alone. Warp 0's clock before the first
//                  step and after the last, with the lines in L1 (a first pass read them).
//   k_split<N>     one warp: N loads whose addresses were all computed before the first (mad.wide.u32 from
//                  independent offsets), then the loads back to back.
// Output: "chain,M,N,rep,span" and "split,N,rep,span": cycles between the two clocks.
// Build: nvcc -O3 -std=c++17 -arch=sm_90a -o ldaddr ldaddr.cu
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
#define DEV __device__ __forceinline__

DEV long long clk() { long long t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) :: "memory"); return t; }
DEV uint32_t ldg(const uint32_t* p) { uint32_t x; asm volatile("ld.global.u32 %0, [%1];" : "=r"(x) : "l"(p)); return x; }
DEV const uint32_t* step(const uint32_t* a, uint32_t words) {
  const uint32_t* r;
  asm volatile("mad.wide.u32 %0, %1, 4, %2;" : "=l"(r) : "r"(words), "l"(a));
  return r;
}

// tab: zeros, N lines of 32 words; sw: 32 (one line a step); out[0]: warp 0's span.
template <int N, int M> __global__ void k_chain(const uint32_t* tab, uint32_t sw, long long* out) {
  const uint32_t* a = tab + (threadIdx.x & 31);
  uint32_t s = 0;
  for (int k = 0; k < N; k++) s += ldg(a + k * 32);  // the lines into L1
  a += s;  // zeros
  __syncwarp();
  uint32_t v[N];
  const long long t0 = clk();
#pragma unroll
  for (int k = 0; k < N; k++) {
    if (M) v[k] = ldg(a);
    a = step(a, sw);
  }
  const long long t1 = clk();
  uint32_t x = (uint32_t)(uintptr_t)a;
  if (M) {
#pragma unroll
    for (int k = 0; k < N; k++) x += v[k];
  }
  if (threadIdx.x == 0) out[0] = t1 - t0;
  if (x == 77) out[1] = x;
}

// tab: zeros; off: N line offsets in words (k * 32); out[0]: warp 0's span.
template <int N> __global__ void k_split(const uint32_t* tab, const uint32_t* off, long long* out) {
  const uint32_t* base = tab + (threadIdx.x & 31);
  const uint32_t* a[N];
  uint32_t s = 0;
#pragma unroll
  for (int k = 0; k < N; k++) a[k] = step(base, off[k]);
#pragma unroll
  for (int k = 0; k < N; k++) s += ldg(a[k]);  // the lines into L1
  __syncwarp();
  uint32_t v[N];
  const long long t0 = clk();
#pragma unroll
  for (int k = 0; k < N; k++) v[k] = ldg(a[k] + s);
  const long long t1 = clk();
#pragma unroll
  for (int k = 0; k < N; k++) s += v[k];
  if (threadIdx.x == 0) out[0] = t1 - t0;
  if (s == 77) out[1] = s;
}

__global__ void k_spin(long long cycles) { const long long t0 = clock64(); while (clock64() - t0 < cycles) {} }

typedef void (*CF)(const uint32_t*, uint32_t, long long*);
typedef void (*SF)(const uint32_t*, const uint32_t*, long long*);

int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  uint32_t *tab, *off; long long* out;
  CK(cudaMalloc(&tab, 1 << 16)); CK(cudaMemset(tab, 0, 1 << 16));
  uint32_t hoff[16];
  for (int k = 0; k < 16; k++) hoff[k] = 32 * k;
  CK(cudaMalloc(&off, sizeof hoff)); CK(cudaMemcpy(off, hoff, sizeof hoff, cudaMemcpyHostToDevice));
  CK(cudaMalloc(&out, 8 * sizeof(long long)));
  k_spin<<<264, 128>>>(100000000ll);  // the clock up
  CK(cudaDeviceSynchronize());
  auto span = [&]() { long long c = 0; CK(cudaMemcpy(&c, out, sizeof c, cudaMemcpyDeviceToHost)); return c; };
  struct { int m, n; CF f; } chains[] = {{0, 4, k_chain<4, 0>}, {0, 16, k_chain<16, 0>}, {1, 4, k_chain<4, 1>}, {1, 16, k_chain<16, 1>}};
  for (auto& c : chains)
    for (int rep = 0; rep < 3; rep++) {
      c.f<<<1, 32>>>(tab, 32, out);
      CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
      printf("chain,%d,%d,%d,%lld\n", c.m, c.n, rep, span());
    }
  struct { int n; SF f; } splits[] = {{4, k_split<4>}, {16, k_split<16>}};
  for (auto& c : splits)
    for (int rep = 0; rep < 3; rep++) {
      c.f<<<1, 32>>>(tab, off, out);
      CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
      printf("split,%d,%d,%lld\n", c.n, rep, span());
    }
  return 0;
}
