// ldc_rate.cu: how many constant loads (LDC) an SM serves a cycle. trywait.csv's fails_loop and microbench.csv's
// divergent2 loops, each with an LDC of a kernel parameter in every trip, run 8.3-10.5 cycles a phase per warp at
// 16-32 warps on the H200 where loops without one run 6.2. One CTA of W warps (1, 2, 4, 8, 16, 32); every warp runs
// ITERS trips of eight LDCs; each warp
// stamps clock64 before and after. The eight LDCs of a trip are eight chains (each address depends on its
// chain's last value, masked by a run-time zero), so ptxas keeps them in the loop and they do not wait on each other.
//   lc: every chain reads the same __constant__ word (LDC c[0x3][R]);
//   l8: the eight chains read eight words of one 64-byte line.
// Row: kernel,warps,cycles_per_ldc (last warp's end - first warp's start) / (W * ITERS * 8), the fourth launch.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o ldc_rate ldc_rate.cu (and -cubin, -ptx;
// cuobjdump -sass ldc_rate.cubin)
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <algorithm>

constexpr int ITERS = 256;
__constant__ uint32_t cv[16];

#define LC(x, a) asm volatile("ld.const.u32 %0, [%1];" : "=r"(x) : "l"(a) : "memory")

// Eight chains a warp: each LDC's address depends on its chain's last value (masked by z = 0 at run time), so
// ptxas keeps every LDC and the eight chains' loads are independent of one another.
template <int SPREAD> __device__ __forceinline__ void chains(int z, long long* out) {
  const int w = threadIdx.x / 32;
  uint32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
  const long long t0 = clock64();
#pragma unroll 1
  for (int i = 0; i < ITERS; i++) {
    uint32_t a, b, c, d, e, f, g, h;
    LC(a, cv + SPREAD * 0 + (s0 & z)); LC(b, cv + SPREAD * 1 + (s1 & z));
    LC(c, cv + SPREAD * 2 + (s2 & z)); LC(d, cv + SPREAD * 3 + (s3 & z));
    LC(e, cv + SPREAD * 4 + (s4 & z)); LC(f, cv + SPREAD * 5 + (s5 & z));
    LC(g, cv + SPREAD * 6 + (s6 & z)); LC(h, cv + SPREAD * 7 + (s7 & z));
    s0 += a; s1 += b; s2 += c; s3 += d; s4 += e; s5 += f; s6 += g; s7 += h;
  }
  const long long t1 = clock64();
  if (threadIdx.x % 32 == 0) { out[2 * w] = t0; out[2 * w + 1] = t1; }
  if ((s0 ^ s1 ^ s2 ^ s3 ^ s4 ^ s5 ^ s6 ^ s7) == 12345) out[64] = s0;
}
extern "C" __global__ void lc(int z, long long* out) { chains<0>(z, out); }
extern "C" __global__ void l8(int z, long long* out) { chains<1>(z, out); }

int main() {
  long long* out;
  cudaMalloc(&out, 80 * sizeof(long long));
  uint32_t h[16];
  for (int i = 0; i < 16; i++) h[i] = i + 1;
  cudaMemcpyToSymbol(cv, h, sizeof h);
  printf("kernel,warps,cycles_per_ldc\n");
  struct { const char* name; void (*k)(int, long long*); } ks[] = {{"lc", lc}, {"l8", l8}};
  for (auto& k : ks) {
    for (int warps : {1, 2, 4, 8, 16, 32}) {
      long long t[64];
      for (int r = 0; r < 4; r++) {
        k.k<<<1, 32 * warps>>>(0, out);
        if (cudaDeviceSynchronize() != cudaSuccess) { fprintf(stderr, "launch failed\n"); return 1; }
        cudaMemcpy(t, out, 2 * warps * sizeof(long long), cudaMemcpyDeviceToHost);
      }
      long long lo = t[0], hi = t[1];
      for (int w = 0; w < warps; w++) { lo = std::min(lo, t[2 * w]); hi = std::max(hi, t[2 * w + 1]); }
      printf("%s,%d,%.3f\n", k.name, warps, (double)(hi - lo) / (warps * ITERS * 8.0));
    }
  }
  return 0;
}
