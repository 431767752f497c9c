// bar_defer.cu: what a clock read right after __syncthreads (BAR.SYNC.DEFER_BLOCKING) measures, and what a
// lone wgmma after a barrier costs. One CTA of 128 threads (4 warps), the timing kernels' set-up of
// wgmma_probe.cu (a 40 KiB shared image written by every thread, fence.proxy.async, __syncthreads), then:
//   mode 0: clock right after the barrier (ta), one m64n8k16 wgmma committed and waited, clock (tw)
//   mode 1: as 0 with a shared load after the barrier whose value a branch uses, then a clock (tl)
//   mode 2: as 0, warp w spinning w*1000 cycles before the barrier
//   mode 3: as 0, with a parameter read (iters) used by a branch before a clock (tl)
// Each warp's lane 0 writes 8 clocks: start, after the shared-image loop, after the fence, before the
// barrier (tb), ta, tl, tw, and the accumulator bits.
// Build: nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -o NAME NAME.cu (and -cubin, -ptx; cuobjdump -sass NAME.cubin)
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>

__device__ __forceinline__ long long clk() { long long c; asm volatile("mov.u64 %0, %%clock64;" : "=l"(c) :: "memory"); return c; }

extern "C" __global__ void __launch_bounds__(128, 1) bar_defer(long long* out, int iters, int mode) {
  extern __shared__ __align__(1024) uint8_t sm_raw[];
  uint32_t raw = (uint32_t)__cvta_generic_to_shared(sm_raw);
  uint32_t base = (raw + 1023u) & ~1023u;
  uint8_t* sm = sm_raw + (base - raw);
  const int t = threadIdx.x, w = t >> 5;
  long long c0 = clk();
  for (int i = t * 2; i < 40960; i += blockDim.x * 2) *(uint16_t*)(sm + i) = (uint16_t)(0x3000 + (i * 37 & 0x3ff));
  long long c1 = clk();
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  long long c2 = clk();
  if (mode == 2) { long long s = clk(); while (clk() - s < 1000ll * w) { } }
  long long tb = clk();
  __syncthreads();
  long long ta = clk();
  long long tl = 0;
  if (mode == 1) {
    int v = *(volatile int*)(sm + 4 * t);
    if (v == 0x12345678) out[1023] = v;
    tl = clk();
  } else if (mode == 3) {
    if (iters == 0x12345678) out[1022] = iters;
    tl = clk();
  }
  float d[4] = {0, 0, 0, 0};
  uint64_t desc = (1ull << 62) | (64ull << 32) | (1ull << 16);
  uint64_t da = desc | (base >> 4), db = desc | ((base + 8192) >> 4);
  int sd = 1;
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %6, 0;\nwgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, %4, %5, p, 1, 1, 0, 0;\n}\n"
    : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "l"(da), "l"(db), "r"(sd));
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  long long tw = clk();
  uint32_t acc = __float_as_uint(d[0]) ^ __float_as_uint(d[1]) ^ __float_as_uint(d[2]) ^ __float_as_uint(d[3]);
  if ((t & 31) == 0) {
    long long* o = out + 8 * w;
    o[0] = c0; o[1] = c1; o[2] = c2; o[3] = tb; o[4] = ta; o[5] = tl; o[6] = tw; o[7] = acc;
  }
}

int main() {
  long long* d;
  cudaMalloc(&d, 1024 * 8);
  int smem = 41984;
  cudaFuncSetAttribute(bar_defer, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
  long long h[32];
  printf("mode,rep,warp,c0,loop,fence,tb,ta,tl,tw\n");
  for (int mode = 0; mode < 4; mode++)
    for (int rep = 0; rep < 5; rep++) {
      cudaMemset(d, 0, 1024 * 8);
      bar_defer<<<1, 128, smem>>>(d, 1, mode);
      cudaError_t e = cudaDeviceSynchronize();
      if (e != cudaSuccess) { printf("error %s\n", cudaGetErrorString(e)); return 1; }
      cudaMemcpy(h, d, 32 * 8, cudaMemcpyDeviceToHost);
      long long lo = h[0];
      for (int w = 0; w < 4; w++) lo = h[8 * w] < lo ? h[8 * w] : lo;
      for (int w = 0; w < 4; w++) {
        long long* o = h + 8 * w;
        printf("%d,%d,%d,%lld,%lld,%lld,%lld,%lld,%lld,%lld\n", mode, rep, w, o[0] - lo, o[1] - lo, o[2] - lo, o[3] - lo,
               o[4] - lo, o[5] ? o[5] - lo : -1, o[6] - lo);
      }
    }
  return 0;
}
