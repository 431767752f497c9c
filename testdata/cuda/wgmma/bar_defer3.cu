// bar_defer3.cu: which instructions after __syncthreads (BAR.SYNC.DEFER_BLOCKING) wait for the barrier, and how
// long its release takes to reach a memory access. One CTA of 128 threads (4 warps). Every path stores once to
// global memory before the barrier, so that the memory descriptor's ULDC comes before it. Each warp's lane 0
// writes tb (clock before the barrier), ta (right after), tc and tl (after the mode's steps; a clock read that
// follows a load is predicated on the loaded value, so it waits for it).
//   mode 0: barrier, LDS                      mode 1: no barrier, LDS (the load alone)
//   warps 1000*w cycles apart before the barrier in modes 2-7:
//   mode 2: barrier, 16 dependent IMADs (tc), LDS (tl)
//   mode 3: barrier, S2R %laneid (tc)          mode 4: barrier, SHFL (tc)
//   mode 5: barrier, STS (tc), LDS (tl)         mode 6: barrier, a parameter read before, again (tc)
//   mode 7: barrier, LDG of a line read before (tc)
// Build: nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -o NAME NAME.cu (and -cubin, -ptx; cuobjdump -sass NAME.cubin)
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>

__device__ __forceinline__ long long clk() { long long c; asm volatile("mov.u64 %0, %%clock64;" : "=l"(c) :: "memory"); return c; }
// after returns a clock read that cannot issue before v is there.
__device__ __forceinline__ long long after(int v) { long long c = 1; if (v != 0x12345678) c = clk(); return c; }

template <int mode>
__global__ void __launch_bounds__(128, 1) bar_defer3(long long* out, const int* gin, int seed) {
  __shared__ int sh[1024];
  const int t = threadIdx.x, w = t >> 5;
  sh[t] = t * 3 + seed;
  long long* o = out + 8 * w;
  int x = seed + t;
  int g = *(volatile const int*)&gin[t];
  o[6] = g;
  __syncthreads();
  __syncthreads();
  if constexpr (mode >= 2) { long long s = clk(); while (clk() - s < 1000ll * w) { } }
  long long tb = clk();
  if constexpr (mode != 1) __syncthreads();
  long long ta = clk(), tc = 0, tl = 0;
  volatile int* vs = (volatile int*)sh;
  if constexpr (mode == 0 || mode == 1) {
    tl = after(vs[(t + 1) & 127]);
  } else if constexpr (mode == 2) {
#pragma unroll
    for (int k = 0; k < 16; k++) x = x * x + k;
    tc = after(x);
    tl = after(vs[(t + 1) & 127]);
  } else if constexpr (mode == 3) {
    int l;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));
    tc = after(l);
  } else if constexpr (mode == 4) {
    tc = after(__shfl_xor_sync(0xffffffffu, x, 1));
  } else if constexpr (mode == 5) {
    vs[512 + t] = x;
    tc = clk();
    tl = after(vs[(t + 1) & 127]);
  } else if constexpr (mode == 6) {
    tc = after(seed);
  } else {
    tc = after(*(volatile const int*)&gin[t]);
  }
  if ((t & 31) == 0) { o[0] = tb; o[1] = ta; o[2] = tc; o[3] = tl; o[4] = x; }
}

int main() {
  long long* d; int* g;
  cudaMalloc(&d, 1024 * 8); cudaMalloc(&g, 1024 * 4); cudaMemset(g, 0, 4096);
  long long h[32];
  printf("mode,rep,warp,tb,ta,tc,tl\n");
  for (int mode = 0; mode < 8; mode++)
    for (int rep = 0; rep < 5; rep++) {
      switch (mode) {
        case 0: bar_defer3<0><<<1, 128>>>(d, g, 3); break;
        case 1: bar_defer3<1><<<1, 128>>>(d, g, 3); break;
        case 2: bar_defer3<2><<<1, 128>>>(d, g, 3); break;
        case 3: bar_defer3<3><<<1, 128>>>(d, g, 3); break;
        case 4: bar_defer3<4><<<1, 128>>>(d, g, 3); break;
        case 5: bar_defer3<5><<<1, 128>>>(d, g, 3); break;
        case 6: bar_defer3<6><<<1, 128>>>(d, g, 3); break;
        default: bar_defer3<7><<<1, 128>>>(d, g, 3); break;
      }
      cudaError_t e = cudaDeviceSynchronize();
      if (e != cudaSuccess) { printf("error %s\n", cudaGetErrorString(e)); return 1; }
      cudaMemcpy(h, d, 32 * 8, cudaMemcpyDeviceToHost);
      long long lo = h[0];
      for (int w = 0; w < 4; w++) lo = h[8 * w] < lo ? h[8 * w] : lo;
      for (int w = 0; w < 4; w++) {
        long long* o = h + 8 * w;
        printf("%d,%d,%d,%lld,%lld,%lld,%lld\n", mode, rep, w, o[0] - lo, o[1] - lo, o[2] ? o[2] - lo : -1,
               o[3] ? o[3] - lo : -1);
      }
    }
  return 0;
}
