// ldpair.cu: the issue cost of 64-bit address arithmetic beside global loads, one warp.
//   k_wide<M>  one warp: 16 independent mad.wide.u32 (M = 0), mad.lo.u32 (M = 1), or 64-bit adds (M = 2) on
//              values a load just returned, their results used only after the second clock.
//   k_ldreg    one warp: 16 loads of one L1-resident line each, addresses in 16 registers computed before the
//              first clock (no arithmetic between the loads).
// Output: "wide,M,rep,span" and "ldreg,rep,span": cycles between warp 0's two clocks.
// Build: nvcc -O3 -std=c++17 -arch=sm_90a -o ldpair ldpair.cu
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
#define DEV __device__ __forceinline__

DEV long long clk() { long long t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) :: "memory"); return t; }
DEV uint32_t ldg(const uint32_t* p) { uint32_t x; asm volatile("ld.global.u32 %0, [%1];" : "=r"(x) : "l"(p) : "memory"); return x; }

// tab: zeros (16 lines); out[0]: span.
template <int M> __global__ void k_wide(const uint32_t* tab, long long* out) {
  const uint32_t z = ldg(tab + (threadIdx.x & 31));  // zero, known only at run time
  uint64_t r[16];
  __syncwarp();
  const long long t0 = clk();
#pragma unroll
  for (int k = 0; k < 16; k++) {
    const uint32_t a = z + k, b = z ^ (3 * k + 1);
    if (M == 0) asm volatile("mad.wide.u32 %0, %1, %2, %3;" : "=l"(r[k]) : "r"(a), "r"(b), "l"((uint64_t)b));
    else if (M == 1) { uint32_t x; asm volatile("mad.lo.u32 %0, %1, %2, %3;" : "=r"(x) : "r"(a), "r"(b), "r"(a)); r[k] = x; }
    else asm volatile("add.u64 %0, %1, %2;" : "=l"(r[k]) : "l"((uint64_t)a), "l"((uint64_t)b << 32));
  }
  const long long t1 = clk();
  uint64_t s = 0;
#pragma unroll
  for (int k = 0; k < 16; k++) s += r[k];
  if (threadIdx.x == 0) out[0] = t1 - t0;
  if (s == 77) out[1] = s;
}

__global__ void k_ldreg(const uint32_t* tab, long long* out) {
  const uint32_t z = ldg(tab + (threadIdx.x & 31));
  const uint32_t* a[16];
#pragma unroll
  for (int k = 0; k < 16; k++) a[k] = tab + (threadIdx.x & 31) + 32 * ((k * 7 + z) & 15);
  uint32_t s = 0;
#pragma unroll
  for (int k = 0; k < 16; k++) s += ldg(a[k]);  // the lines into L1
  __syncwarp();
  uint32_t v[16];
  const long long t0 = clk();
#pragma unroll
  for (int k = 0; k < 16; k++) v[k] = ldg(a[k]);
  const long long t1 = clk();
#pragma unroll
  for (int k = 0; k < 16; k++) s += v[k];
  if (threadIdx.x == 0) out[0] = t1 - t0;
  if (s == 77) out[1] = s;
}

__global__ void k_spin(long long cycles) { const long long t0 = clock64(); while (clock64() - t0 < cycles) {} }

int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  uint32_t* tab; long long* out;
  CK(cudaMalloc(&tab, 1 << 16)); CK(cudaMemset(tab, 0, 1 << 16));
  CK(cudaMalloc(&out, 8 * sizeof(long long)));
  k_spin<<<264, 128>>>(100000000ll);  // the clock up
  CK(cudaDeviceSynchronize());
  auto span = [&]() { long long c = 0; CK(cudaMemcpy(&c, out, sizeof c, cudaMemcpyDeviceToHost)); return c; };
  void (*wides[])(const uint32_t*, long long*) = {k_wide<0>, k_wide<1>, k_wide<2>};
  for (int m = 0; m < 3; m++)
    for (int rep = 0; rep < 3; rep++) {
      wides[m]<<<1, 32>>>(tab, out);
      CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
      printf("wide,%d,%d,%lld\n", m, rep, span());
    }
  for (int rep = 0; rep < 3; rep++) {
    k_ldreg<<<1, 32>>>(tab, out);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    printf("ldreg,%d,%lld\n", rep, span());
  }
  return 0;
}
