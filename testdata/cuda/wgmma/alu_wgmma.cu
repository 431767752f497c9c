// alu_wgmma.cu: do integer and float instructions of other warps slow a wgmma stream? stg_wgmma.cu's one-sector
// stores slow its wgmmas by 21 %, but stg_lines.cu's stores of the same addresses do not (2 %); its store loop
// computes every address with IMAD.WIDE.U32 (stg_wgmma.sass), stg_lines' folds them into offsets. One CTA of 256
// threads. Warpgroup 0 (when wg is 1): 64 groups of four wgmma m64n128k16 f16 from 128B-swizzled descriptors, wait_group
// 1 after each, as stg_wgmma.cu. Warps 4..4+W-1: N = 2048 trips of eight independent instructions of kind op:
// 1 mad.wide.u32 (IMAD.WIDE.U32), 2 mad.lo.u32 (IMAD), 3 fma.rn.f32 (FFMA), 4 add.u32 of three terms (IADD3),
// 5 mad.wide.u32 with one in eight trips a st.global.v2.f32 of the result (an address-computing store loop),
// 6, 7, 8 fma.rn.f32 in one, two or four dependent chains (FFMA at a quarter, half and all of its latency-bound
// rate), 9 ex2.approx.f32 (MUFU.EX2) in eight chains.
// Row: wg,warps,op,wgmma_cycles,alu_cycles (warp 4's first thread, its N trips). Three runs; the row is the last.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o alu_wgmma alu_wgmma.cu (and -cubin, -ptx;
// cuobjdump -sass alu_wgmma.cubin)
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>

#include "wgmma_stream.h"

constexpr int G = 64, N = 2048, SMEM = 24576 + 1024;

template <int OP>
__device__ __forceinline__ void alu(int w, uint32_t seed, float* gbuf, long long* out, uint32_t* sink) {
  uint64_t x[8];
  uint32_t y[8];
  float f[8];
#pragma unroll
  for (int i = 0; i < 8; i++) { x[i] = seed + i; y[i] = seed * (i + 3); f[i] = (float)(seed + i); }
  const uint32_t c = seed | 1;
  const long long t0 = clock64();
  for (int n = 0; n < N; n++) {
#pragma unroll
    for (int i = 0; i < 8; i++) {
      if constexpr (OP == 1 || OP == 5) {
        asm volatile("mad.wide.u32 %0, %1, %2, %0;" : "+l"(x[i]) : "r"(y[i]), "r"(c));
      } else if constexpr (OP == 2) {
        asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(y[i]) : "r"(c), "r"(y[(i + 1) % 8]));
      } else if constexpr (OP == 3) {
        asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(f[i]) : "f"(0.999f), "f"(f[(i + 1) % 8]));
      } else if constexpr (OP >= 6 && OP <= 8) {
        constexpr int chains = OP == 6 ? 1 : OP == 7 ? 2 : 4;  // eight FMAs a trip in that many chains
        asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(f[i % chains]) : "f"(0.999f), "f"(0.5f));
      } else if constexpr (OP == 9) {
        asm volatile("ex2.approx.f32 %0, %0;" : "+f"(f[i]));
      } else {
        asm volatile("add.u32 %0, %0, %1;\n\tadd.u32 %0, %0, %2;" : "+r"(y[i]) : "r"(c), "r"(y[(i + 1) % 8]));
      }
    }
    if constexpr (OP == 5) {
      if ((n & 7) == 0) {
        float* p = gbuf + ((x[n & 7] & 0xfff) * 128 + threadIdx.x % 32 * 2 + w * 64);
        *reinterpret_cast<float2*>(p) = make_float2((float)x[0], (float)x[1]);
      }
    }
  }
  const long long t1 = clock64();
  uint64_t s = 0;
#pragma unroll
  for (int i = 0; i < 8; i++) s += x[i] + y[i] + (uint64_t)f[i];
  if (threadIdx.x == 128) out[1] = t1 - t0;
  if (s == 12345) sink[1] = (uint32_t)s;
}

__global__ void __launch_bounds__(256, 1) alu_wgmma(int wg, int warps, int op, uint32_t seed, float* gbuf,
                                                    long long* out, uint32_t* sink) {
  extern __shared__ __align__(1024) uint8_t smem[];
  const uint32_t raw = (uint32_t)__cvta_generic_to_shared(smem), base = (raw + 1023u) & ~1023u;
  uint8_t* sm = smem + (base - raw);
  for (int i = threadIdx.x * 16; i < SMEM - 1024; i += 256 * 16) *(uint4*)(sm + i) = make_uint4(0, 0, 0, 0);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  const int warp = threadIdx.x / 32;
  if (warp < 4) {
    if (!wg) return;
    wgmma_stream<G>(base, out, sink);
    return;
  }
  const int w = warp - 4;
  if (w >= warps) return;
  switch (op) {
    case 1: alu<1>(w, seed, gbuf, out, sink); break;
    case 2: alu<2>(w, seed, gbuf, out, sink); break;
    case 3: alu<3>(w, seed, gbuf, out, sink); break;
    case 4: alu<4>(w, seed, gbuf, out, sink); break;
    case 5: alu<5>(w, seed, gbuf, out, sink); break;
    case 6: alu<6>(w, seed, gbuf, out, sink); break;
    case 7: alu<7>(w, seed, gbuf, out, sink); break;
    case 8: alu<8>(w, seed, gbuf, out, sink); break;
    case 9: alu<9>(w, seed, gbuf, out, sink); break;
  }
}

int main() {
  float* gbuf;
  long long* out;
  uint32_t* sink;
  cudaMalloc(&gbuf, 4096 * 512 + 4096);
  cudaMalloc(&out, 32);
  cudaMalloc(&sink, 8);
  cudaFuncSetAttribute(alu_wgmma, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM);
  printf("wg,warps,op,wgmma_cycles,alu_cycles\n");
  const int ws[] = {0, 1, 4};
  for (int wg = 0; wg < 2; wg++) {
    for (int wi = 0; wi < 3; wi++) {
      for (int op = 1; op <= 9; op++) {
        if (ws[wi] == 0 && (op > 1 || !wg)) continue;  // the wgmma stream alone: one row
        long long h[2] = {0, 0};
        for (int rep = 0; rep < 3; rep++) {
          cudaMemset(out, 0, 32);
          alu_wgmma<<<1, 256, SMEM>>>(wg, ws[wi], op, 7, gbuf, out, sink);
          if (cudaDeviceSynchronize() != cudaSuccess) { fprintf(stderr, "launch failed\n"); return 1; }
          cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
        }
        printf("%d,%d,%d,%lld,%lld\n", wg, ws[wi], ws[wi] ? op : 0, h[0], h[1]);
      }
    }
  }
  return 0;
}
