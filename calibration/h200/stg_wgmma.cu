// stg_wgmma.cu: does a warpgroup's stream of warp stores slow another warpgroup's wgmma stream, and the wgmmas
// the stores? In apps/h200/gemm_wgmma.cu one consumer's epilogue stores (eight rows of 32 bytes a warp
// instruction) run beside the other consumer's wgmmas, and on the H200 both take longer than alone
// (testdata/cuda/wgmma/gemm_trace.csv: e4m3_128x128x256 tile 0's stores 1776 cycles beside wgmmas, tile 1's 1055
// alone). One CTA of 256 threads, two agents, each timing itself with clock64 (its first thread):
//   mode bit 0, warpgroup 0: G groups of four wgmma m64n128k16 f16 from 128B-swizzled descriptors (A 8 KiB,
//     B 16 KiB at shared 0 and 8 KiB; zeros), wait_group 1 after each (the GEMM's stream: 6 KiB read a wgmma);
//   mode bits 1-3 = P, warpgroup 1 (warps 4-7): K memory instructions a thread of pattern P:
//     1 st.global.v2.f32, eight rows of 32 bytes a warp instruction, each row its own 512-byte line (the epilogue);
//     2 st.global.v2.f32, 256 contiguous bytes a warp instruction;
//     3 st.global.v4.f32, 512 contiguous bytes a warp instruction;
//     4 st.shared.v2.b32, 256 contiguous bytes a warp instruction;
//     5 st.global.f32, eight rows of 16 bytes a warp instruction (partial sectors);
//     6 ld.shared.v2.b32, 256 contiguous bytes a warp instruction, each folded into a register;
//     7 pattern 1 from warp 4 alone.
// (Measured: ptxas hoisted pattern 6's eight distinct loads out of the loop, stg_wgmma.sass, so modes 12 and 13 time
// eight loads and a loop, not a load stream: those rows measure nothing.)
// Row: mode,wgmma_cycles,mem_issue_cycles,mem_done_cycles (warp 4's first thread: after its K instructions, and
// after a following __threadfence(), which waits for its stores to be acknowledged). Each mode runs three times; the
// row is the last run (the global buffer L2-resident).
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o stg_wgmma stg_wgmma.cu (and -cubin, -ptx;
// cuobjdump -sass stg_wgmma.cubin)
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

constexpr int G = 64, K = 512, SMEM = 24576 + 8192 + 1024;

// mem_agent runs one warp's K instructions of pattern P (see the top) and stamps warp 4's.
template <int P>
__device__ __forceinline__ void mem_agent(float* gbuf, uint32_t base, int w, int lane, long long* out, uint32_t* sink) {
  const float v = (float)threadIdx.x;
  const uint32_t sbase = base + 24576 + w * 2048 + lane * 8;
  uint32_t x = 0;
  const long long t0 = clock64();
#pragma unroll 16
  for (int k = 0; k < K; k++) {
    const size_t row = (size_t)((k * 4 + w) * 8 + lane / 4);  // patterns 1 and 5: one 512-byte line a row
    if constexpr (P == 1) {
      *reinterpret_cast<float2*>(gbuf + row * 128 + (k % 16) * 8 + 2 * (lane % 4)) = make_float2(v, v);
    } else if constexpr (P == 2) {
      *reinterpret_cast<float2*>(gbuf + (size_t)(k * 4 + w) * 64 + 2 * lane) = make_float2(v, v);
    } else if constexpr (P == 3) {
      *reinterpret_cast<float4*>(gbuf + (size_t)(k * 4 + w) * 128 + 4 * lane) = make_float4(v, v, v, v);
    } else if constexpr (P == 4) {
      asm volatile("st.shared.v2.b32 [%0], {%1, %1};" :: "r"(sbase + (k % 8) * 256), "r"(x + k) : "memory");
    } else if constexpr (P == 5) {
      gbuf[row * 128 + (k % 32) * 4 + (lane % 4)] = v;
    } else {
      uint32_t a, b;
      asm volatile("ld.shared.v2.b32 {%0, %1}, [%2];" : "=r"(a), "=r"(b) : "r"(sbase + (k % 8) * 256) : "memory");
      x ^= a + b;
    }
  }
  const long long t1 = clock64();
  __threadfence();
  const long long t2 = clock64();
  if (threadIdx.x == 128) { out[1] = t1 - t0; out[2] = t2 - t0; }
  if (x == 12345) sink[1] = x;
}

__global__ void __launch_bounds__(256, 1) stg_wgmma(int mode, float* gbuf, long long* out, uint32_t* sink) {
  extern __shared__ __align__(1024) uint8_t smem[];
  const uint32_t raw = (uint32_t)__cvta_generic_to_shared(smem), base = (raw + 1023u) & ~1023u;
  uint8_t* sm = smem + (base - raw);
  for (int i = threadIdx.x * 16; i < SMEM - 1024; i += 256 * 16) *(uint4*)(sm + i) = make_uint4(0, 0, 0, 0);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (warp < 4) {
    if (!(mode & 1)) return;
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
  const int p = (mode >> 1) & 7, w = warp - 4;
  if (p == 0 || (p == 7 && w != 0)) return;
  switch (p) {
    case 1: case 7: mem_agent<1>(gbuf, base, w, lane, out, sink); break;
    case 2: mem_agent<2>(gbuf, base, w, lane, out, sink); break;
    case 3: mem_agent<3>(gbuf, base, w, lane, out, sink); break;
    case 4: mem_agent<4>(gbuf, base, w, lane, out, sink); break;
    case 5: mem_agent<5>(gbuf, base, w, lane, out, sink); break;
    case 6: mem_agent<6>(gbuf, base, w, lane, out, sink); break;
  }
}

int main() {
  float* gbuf;
  long long* out;
  uint32_t* sink;
  const size_t bytes = (size_t)K * 4 * 8 * 512;  // pattern 1's rows: 8 MiB
  cudaMalloc(&gbuf, bytes);
  cudaMemset(gbuf, 0, bytes);
  cudaMalloc(&out, 32);
  cudaMalloc(&sink, 8);
  cudaFuncSetAttribute(stg_wgmma, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM);
  printf("mode,wgmma_cycles,mem_issue_cycles,mem_done_cycles\n");
  for (int mode = 1; mode < 16; mode++) {
    long long h[3] = {0, 0, 0};
    for (int rep = 0; rep < 3; rep++) {
      cudaMemset(out, 0, 32);
      stg_wgmma<<<1, 256, SMEM>>>(mode, gbuf, out, sink);
      if (cudaDeviceSynchronize() != cudaSuccess) { fprintf(stderr, "launch failed\n"); return 1; }
      cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    }
    printf("%d,%lld,%lld,%lld\n", mode, h[0], h[1], h[2]);
  }
  return 0;
}
