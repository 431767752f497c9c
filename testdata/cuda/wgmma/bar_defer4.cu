// bar_defer4.cu: what the first shared load after __syncthreads waits for when fence.proxy.async (MEMBAR.ALL.CTA,
// FENCE.VIEW.ASYNC.S) comes before the barrier, and when the memory descriptor's ULDC comes after it. One CTA of
// 128 threads (4 warps) writes a 4 KiB shared image, then (mode):
//   0: STG (its ULDC before the barrier), barrier, LDS      1: as 0 with fence.proxy.async before the barrier
//   2: as 1 without the barrier                             3: barrier, LDS, no STG before (the ULDC after it)
//   4: as 3 with fence.proxy.async before the barrier
// Each warp's lane 0 writes tb (clock before the barrier), ta (right after) and tl (after the LDS's value).
// Build: nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -o NAME NAME.cu (and -cubin, -ptx; cuobjdump -sass NAME.cubin)
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>

__device__ __forceinline__ long long clk() { long long c; asm volatile("mov.u64 %0, %%clock64;" : "=l"(c) :: "memory"); return c; }
__device__ __forceinline__ long long after(int v) { long long c = 1; if (v != 0x12345678) c = clk(); return c; }

template <int mode>
__global__ void __launch_bounds__(128, 1) bar_defer4(long long* out, int seed) {
  __shared__ int sh[1024];
  const int t = threadIdx.x, w = t >> 5;
  for (int i = t; i < 1024; i += 128) sh[i] = i * 37 + seed;
  long long* o = out + 8 * w;
  if constexpr (mode <= 2) o[6] = seed + t;
  if constexpr (mode == 1 || mode == 2 || mode == 4) asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  long long tb = clk();
  if constexpr (mode != 2) __syncthreads();
  long long ta = clk();
  long long tl = after(((volatile int*)sh)[(t * 5 + 1) & 1023]);
  if ((t & 31) == 0) { o[0] = tb; o[1] = ta; o[2] = tl; }
}

int main() {
  long long* d;
  cudaMalloc(&d, 1024 * 8);
  long long h[32];
  printf("mode,rep,warp,tb,ta,tl\n");
  for (int mode = 0; mode < 5; mode++)
    for (int rep = 0; rep < 5; rep++) {
      switch (mode) {
        case 0: bar_defer4<0><<<1, 128>>>(d, 3); break;
        case 1: bar_defer4<1><<<1, 128>>>(d, 3); break;
        case 2: bar_defer4<2><<<1, 128>>>(d, 3); break;
        case 3: bar_defer4<3><<<1, 128>>>(d, 3); break;
        default: bar_defer4<4><<<1, 128>>>(d, 3); break;
      }
      cudaError_t e = cudaDeviceSynchronize();
      if (e != cudaSuccess) { printf("error %s\n", cudaGetErrorString(e)); return 1; }
      cudaMemcpy(h, d, 32 * 8, cudaMemcpyDeviceToHost);
      long long lo = h[0];
      for (int w = 0; w < 4; w++) lo = h[8 * w] < lo ? h[8 * w] : lo;
      for (int w = 0; w < 4; w++) {
        long long* o = h + 8 * w;
        printf("%d,%d,%d,%lld,%lld,%lld\n", mode, rep, w, o[0] - lo, o[1] - lo, o[2] - lo);
      }
    }
  return 0;
}
