// stg_lines.cu: how does a warpgroup's stream of global stores slow a wgmma stream, and the wgmmas the stores, as
// the lines a store touches and the warps storing vary? calibration/h200/stg_wgmma.csv found stores of one sector in
// each of eight lines slowing the wgmmas by 20-22 % from one warp and from four, where stores of two or four whole
// lines leave them alone (docs/model.md): this separates lines per store from warps and from bytes per line.
// One CTA of 256 threads. Warpgroup 0 (when wg is 1): 64 groups of four wgmma m64n128k16 f16 from 128B-swizzled
// descriptors (zeros), wait_group 1 after each, as stg_wgmma.cu. Warps 4..4+W-1: K = 512 st.global.v2.f32 a thread;
// a warp instruction writes 256 bytes as L lines of 256/L contiguous bytes (32/L lanes a line, each line the start
// of its own 512-byte row, a fresh row every instruction): L = 2 whole lines, 4 two-sector pieces, 8 one-sector
// pieces (the GEMM epilogue), 16 and 32 partial sectors. spread moves each line's piece inside its row from one
// instruction to the next: 0 none (every piece at its row's start), 1 the row's four lines in turn (k%4 * 128 B),
// 2 the first line's four sectors in turn (k%4 * 32 B), 3 the row's sixteen sectors in turn (k%16 * 32 B, as
// stg_wgmma.cu's pattern 1); the whole table runs with spread 0, two-line and eight-line stores with each spread.
// Row: wg,warps,lines,spread,wgmma_cycles,mem_issue_cycles,mem_done_cycles (warp 4's first thread: after its K stores, and
// after a following __threadfence()). Each configuration runs three times; the row is the last (rows L2-resident).
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o stg_lines stg_lines.cu (and -cubin, -ptx;
// cuobjdump -sass stg_lines.cubin)
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>

#include "wgmma_stream.h"

constexpr int G = 64, K = 512, SMEM = 24576 + 1024;

template <int L>
__device__ __forceinline__ void stores(float* gbuf, int w, int lane, int spread, long long* out) {
  constexpr int PER = 32 / L;  // lanes a line
  const float v = (float)threadIdx.x;
  const int g = lane / PER, j = lane % PER;
  const long long t0 = clock64();
#pragma unroll 16
  for (int k = 0; k < K; k++) {
    const size_t row = (size_t)(k * 4 + w) * L + g;
    const int off = spread == 1 ? (k % 4) * 32 : spread == 2 ? (k % 4) * 8 : spread == 3 ? (k % 16) * 8 : 0;
    *reinterpret_cast<float2*>(gbuf + row * 128 + off + 2 * j) = make_float2(v, v);
  }
  const long long t1 = clock64();
  __threadfence();
  const long long t2 = clock64();
  if (threadIdx.x == 128) { out[1] = t1 - t0; out[2] = t2 - t0; }
}

__global__ void __launch_bounds__(256, 1) stg_lines(int wg, int warps, int lines, int spread, float* gbuf,
                                                    long long* out, uint32_t* sink) {
  extern __shared__ __align__(1024) uint8_t smem[];
  const uint32_t raw = (uint32_t)__cvta_generic_to_shared(smem), base = (raw + 1023u) & ~1023u;
  uint8_t* sm = smem + (base - raw);
  for (int i = threadIdx.x * 16; i < SMEM - 1024; i += 256 * 16) *(uint4*)(sm + i) = make_uint4(0, 0, 0, 0);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (warp < 4) {
    if (!wg) return;
    wgmma_stream<G>(base, out, sink);
    return;
  }
  const int w = warp - 4;
  if (w >= warps) return;
  switch (lines) {
    case 2: stores<2>(gbuf, w, lane, spread, out); break;
    case 4: stores<4>(gbuf, w, lane, spread, out); break;
    case 8: stores<8>(gbuf, w, lane, spread, out); break;
    case 16: stores<16>(gbuf, w, lane, spread, out); break;
    case 32: stores<32>(gbuf, w, lane, spread, out); break;
  }
}

int main() {
  float* gbuf;
  long long* out;
  uint32_t* sink;
  const size_t bytes = (size_t)K * 4 * 32 * 512;  // 32 lines an instruction: 32 MiB of rows
  cudaMalloc(&gbuf, bytes);
  cudaMemset(gbuf, 0, bytes);
  cudaMalloc(&out, 32);
  cudaMalloc(&sink, 8);
  cudaFuncSetAttribute(stg_lines, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM);
  printf("wg,warps,lines,spread,wgmma_cycles,mem_issue_cycles,mem_done_cycles\n");
  const int ws[] = {0, 1, 2, 4}, ls[] = {2, 4, 8, 16, 32};
  for (int spread = 0; spread < 4; spread++) {
    for (int wg = 0; wg < 2; wg++) {
      for (int wi = 0; wi < 4; wi++) {
        for (int li = 0; li < 5; li++) {
          const int wn = ws[wi], ln = ls[li];
          if (wn == 0 && (li > 0 || !wg || spread > 0)) continue;  // the wgmma stream alone: one row
          if (spread > 0 && (wn == 2 || !(ln == 8 || (ln == 2 && spread == 1)))) continue;
          long long h[3] = {0, 0, 0};
          for (int rep = 0; rep < 3; rep++) {
            cudaMemset(out, 0, 32);
            stg_lines<<<1, 256, SMEM>>>(wg, wn, ln, spread, gbuf, out, sink);
            if (cudaDeviceSynchronize() != cudaSuccess) { fprintf(stderr, "launch failed\n"); return 1; }
            cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
          }
          printf("%d,%d,%d,%d,%lld,%lld,%lld\n", wg, wn, wn ? ln : 0, spread, h[0], h[1], h[2]);
        }
      }
    }
  }
  return 0;
}
