// bar_defer2.cu: which instructions after __syncthreads (BAR.SYNC.DEFER_BLOCKING) wait for its release, and how
// long after the last warp's arrival. One CTA of 128 threads (4 warps); nothing is stored before the barrier.
// Each warp's lane 0 writes: tb (clock before the barrier), ta (right after), tc (after 16 dependent IMADs,
// or after a second barrier in mode 2), tl (after the mode's first access, whose value a branch uses), x.
//   mode 0: IMAD chain, then LDS          mode 1: as 0, warp w spinning 1000*w cycles before the barrier
//   mode 2: a second __syncthreads, then LDS   mode 3: LDS straight after the barrier (no chain)
//   mode 4: ld.global straight after      mode 5: a parameter read (ld.param) straight after
//   mode 6: shared store, then the chain, then LDS of another word
// Build: nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -o NAME NAME.cu (and -cubin, -ptx; cuobjdump -sass NAME.cubin)
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>

__device__ __forceinline__ long long clk() { long long c; asm volatile("mov.u64 %0, %%clock64;" : "=l"(c) :: "memory"); return c; }

extern "C" __global__ void __launch_bounds__(128, 1) bar_defer2(long long* out, const int* gin, int mode, int seed) {
  __shared__ int sh[1024];
  const int t = threadIdx.x, w = t >> 5;
  sh[t] = t * 3 + seed;
  long long* o = out + 8 * w;
  int x = seed + t;
  if (mode == 1) { long long s = clk(); while (clk() - s < 1000ll * w) { } }
  __syncthreads();
  __syncthreads();
  long long tb = clk();
  __syncthreads();
  long long ta = clk();
  long long tc = 0, tl = 0;
  int v = 0;
  if (mode <= 1 || mode == 6) {
    if (mode == 6) sh[512 + t] = x;
#pragma unroll
    for (int k = 0; k < 16; k++) x = x * x + k;
    tc = clk();
    v = *(volatile int*)&sh[(t + 1) & 127];
  } else if (mode == 2) {
    __syncthreads();
    tc = clk();
    v = *(volatile int*)&sh[(t + 1) & 127];
  } else if (mode == 3) {
    v = *(volatile int*)&sh[(t + 1) & 127];
  } else if (mode == 4) {
    v = *(volatile const int*)&gin[t];
  } else {
    v = seed * 7;
  }
  if (v == 0x12345678) x += 5;
  tl = clk();
  if ((t & 31) == 0) { o[0] = tb; o[1] = ta; o[2] = tc; o[3] = tl; o[4] = x; o[5] = v; }
}

int main() {
  long long* d; int* g;
  cudaMalloc(&d, 1024 * 8); cudaMalloc(&g, 1024 * 4); cudaMemset(g, 0, 4096);
  long long h[32];
  printf("mode,rep,warp,tb,ta,tc,tl\n");
  for (int mode = 0; mode < 7; mode++)
    for (int rep = 0; rep < 5; rep++) {
      bar_defer2<<<1, 128>>>(d, g, mode, 3);
      cudaError_t e = cudaDeviceSynchronize();
      if (e != cudaSuccess) { printf("error %s\n", cudaGetErrorString(e)); return 1; }
      cudaMemcpy(h, d, 32 * 8, cudaMemcpyDeviceToHost);
      long long lo = h[0];
      for (int w = 0; w < 4; w++) lo = h[8 * w] < lo ? h[8 * w] : lo;
      for (int w = 0; w < 4; w++) {
        long long* o = h + 8 * w;
        printf("%d,%d,%d,%lld,%lld,%lld,%lld\n", mode, rep, w, o[0] - lo, o[1] - lo, o[2] ? o[2] - lo : -1, o[3] - lo);
      }
    }
  return 0;
}
