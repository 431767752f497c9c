// smlat.cu: how far each SM is from L2 and from DRAM. Every CTA (one warp; lane 0 chases) runs a chain of
// dependent ld.global.cg loads through a region of its own, the next address depending on the last value
// (zeros), and records its %smid and the cycles a load. 132 CTAs run at once, one an SM, so the load on L2 and
// DRAM is one load in flight an SM.
//   place l2:   64 lines 1056 bytes apart a CTA, chased 8 times; the launch before warmed them (8.9 MB in all).
//   place dram: 64 lines 4224 bytes apart a CTA, chased once, in a window no launch has read since 256 MiB
//               were read to empty the L2.
// Output: "smlat,place,rep,cta,smid,cycles_per_load" rows.
// Build: nvcc -O3 -std=c++17 -arch=sm_90a -o smlat smlat.cu
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
#define DEV __device__ __forceinline__
#define LINES 64
#define CTAS 132

DEV long long clk() { long long t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) :: "memory"); return t; }
DEV uint32_t ldcg(const uint32_t* p) { uint32_t x; asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(x) : "l"(p)); return x; }
DEV uint32_t smid() { uint32_t s; asm volatile("mov.u32 %0, %%smid;" : "=r"(s)); return s; }

// in: zeros; CTA b's region starts b * region words in; out[2b], out[2b+1]: its smid and cycles of the chain.
__global__ void k_chase(const uint32_t* in, size_t region, uint32_t sw, int passes, long long* out) {
  if (threadIdx.x != 0) return;
  const uint32_t* p = in + (size_t)blockIdx.x * region;
  uint32_t acc = 0;
  const long long t0 = clk();
  for (int r = 0; r < passes; r++)
    for (int k = 0; k < LINES; k++) acc = ldcg(p + (size_t)k * sw + acc);
  const long long t1 = clk();
  out[2 * blockIdx.x] = smid();
  out[2 * blockIdx.x + 1] = (t1 - t0) + acc;
}

__global__ void k_flush(const uint4* p, size_t n, uint32_t* sink) {
  uint32_t x = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) x ^= p[i].x;
  if (x == 0x12345u) sink[0] = x;
}

int main() {
  const size_t flushBytes = 256ull << 20, dataBytes = 1ull << 30;
  uint4* flush; uint32_t *data, *sink; long long* out;
  CK(cudaMalloc(&flush, flushBytes)); CK(cudaMalloc(&data, dataBytes)); CK(cudaMalloc(&sink, 4));
  CK(cudaMalloc(&out, 2 * CTAS * sizeof(long long)));
  CK(cudaMemset(flush, 1, flushBytes)); CK(cudaMemset(data, 0, dataBytes));
  long long h[2 * CTAS];
  const size_t dramRegion = (size_t)LINES * 1056;  // words: 64 lines 4224 bytes apart
  const size_t l2Region = (size_t)LINES * 264;     // words: 64 lines 1056 bytes apart
  const size_t first = l2Region * CTAS;  // the DRAM windows lie past the L2 chains' lines
  size_t window = first;
  for (int rep = 0; rep < 3; rep++) {
    for (int place = 0; place < 2; place++) {
      const bool dram = place == 1;
      const size_t region = dram ? dramRegion : l2Region;
      const uint32_t sw = dram ? 1056 : 264;
      const uint32_t* base = data + (dram ? window : 0);
      if (dram) {
        window += region * CTAS;
        if ((window + region * CTAS) * 4 > dataBytes) window = first;
        k_flush<<<264, 1024>>>(flush, flushBytes / 16, sink);
      } else {
        k_chase<<<CTAS, 32>>>(base, region, sw, 8, out);  // warm
      }
      CK(cudaDeviceSynchronize());
      k_chase<<<CTAS, 32>>>(base, region, sw, dram ? 1 : 8, out);
      CK(cudaDeviceSynchronize());
      CK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
      for (int b = 0; b < CTAS; b++)
        printf("smlat,%s,%d,%d,%lld,%.2f\n", dram ? "dram" : "l2", rep, b, h[2 * b],
               (double)h[2 * b + 1] / (LINES * (dram ? 1 : 8)));
    }
  }
  return 0;
}
