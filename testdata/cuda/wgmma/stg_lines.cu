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

__device__ __forceinline__ uint64_t sdesc(uint32_t addr) {
  return (uint64_t)((addr & 0x3ffff) >> 4) | (1ull << 16) | (64ull << 32) | (1ull << 62);
}
__device__ __forceinline__ void mma_f16(float (&d)[64], uint64_t da, uint64_t db, int scale_d) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, 1, 0, 0;\n}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
               : "l"(da), "l"(db), "r"(scale_d));
}

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
    float d[64];
#pragma unroll
    for (int j = 0; j < 64; j++) d[j] = 0.0f;
    const uint64_t da = sdesc(base), db = sdesc(base + 8192);
    const long long t0 = clock64();
    for (int g = 0; g < G; g++) {
      asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
      for (int k = 0; k < 4; k++) mma_f16(d, da + 2 * k, db + 2 * k, 1);
      asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
      asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
    }
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    const long long t1 = clock64();
    float s = 0;
#pragma unroll
    for (int j = 0; j < 64; j++) s += d[j];
    if (threadIdx.x == 0) { out[0] = t1 - t0; sink[0] = (uint32_t)s; }
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
