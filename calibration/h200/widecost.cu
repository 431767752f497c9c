// widecost.cu: what an IMAD.WIDE costs one warp's issue, alone and making a load's address.
//   k_wc<M>  one warp, 16 independent operations on values that are in registers before the first clock:
//            M = 0: mad.wide.u32 a*4 + base (IMAD.WIDE.U32 R, R, 0x4, R), results used after the second clock;
//            M = 1: the same, each result the address of a one-line load (L1-resident);
//            M = 2: mad.lo.u32 a*4 + base's low word (IMAD), results used after the second clock.
// Output: "wc,M,rep,span": cycles between warp 0's two clocks.
// Build: nvcc -O3 -std=c++17 -arch=sm_90a -o widecost widecost.cu
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
#define DEV __device__ __forceinline__

DEV long long clk() { long long t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) :: "memory"); return t; }
DEV uint32_t ldg(const uint32_t* p) { uint32_t x; asm volatile("ld.global.u32 %0, [%1];" : "=r"(x) : "l"(p) : "memory"); return x; }

// tab: zeros, 16 lines; off: 16 line offsets in words (32 k); out[0]: span.
template <int M> __global__ void k_wc(const uint32_t* tab, const uint32_t* off, long long* out) {
  const uint32_t* base = tab + (threadIdx.x & 31);
  uint32_t a[16], s = 0;
#pragma unroll
  for (int k = 0; k < 16; k++) a[k] = off[k];
#pragma unroll
  for (int k = 0; k < 16; k++) s += ldg(base + a[k]);  // the lines into L1; the offsets in registers
  uint32_t ready;
  asm volatile("add.u32 %0, %1, 1;" : "=r"(ready) : "r"(s));  // waits for every value above
  __syncwarp();
  uint64_t r[16];
  uint32_t v[16];
  const long long t0 = clk();
#pragma unroll
  for (int k = 0; k < 16; k++) {
    if (M == 2) { uint32_t x; asm volatile("mad.lo.u32 %0, %1, 4, %2;" : "=r"(x) : "r"(a[k]), "r"((uint32_t)(uintptr_t)base)); r[k] = x; }
    else asm volatile("mad.wide.u32 %0, %1, 4, %2;" : "=l"(r[k]) : "r"(a[k]), "l"(base));
    if (M == 1) v[k] = ldg((const uint32_t*)r[k]);
  }
  const long long t1 = clk();
  uint64_t x = ready;
#pragma unroll
  for (int k = 0; k < 16; k++) x += M == 1 ? v[k] : r[k];
  if (threadIdx.x == 0) out[0] = t1 - t0;
  if (x == 77) out[1] = x;
}

__global__ void k_spin(long long cycles) { const long long t0 = clock64(); while (clock64() - t0 < cycles) {} }

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
  void (*ks[])(const uint32_t*, const uint32_t*, long long*) = {k_wc<0>, k_wc<1>, k_wc<2>};
  for (int m = 0; m < 3; m++)
    for (int rep = 0; rep < 3; rep++) {
      ks[m]<<<1, 32>>>(tab, off, out);
      CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
      long long c = 0;
      CK(cudaMemcpy(&c, out, sizeof c, cudaMemcpyDeviceToHost));
      printf("wc,%d,%d,%lld\n", m, rep, c);
    }
  return 0;
}
