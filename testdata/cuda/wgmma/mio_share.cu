// mio_share.cu: do constant loads (LDC) and mbarrier arrives share one SM-wide port? Loops with an LDC of a kernel
// parameter in every trip (trywait.csv fails_loop, elect.csv lane0, microbench.csv divergent2) cost 2 cycles a phase
// per warp more at 16-32 warps than the same loops with the load hoisted, and an SM serves one LDC every 2.03 cycles
// (ldc_rate.cu) and one arrive every 2.05 (arrvec.cu).
// One CTA of W warps (8, 16, 32): the first half arrive, the second half load constants; each warp stamps clock64
// before and after its part. The arrivers make ITERS trips of eight full-warp arrives on one barrier whose count is
// never reached; the loaders make ITERS trips of eight LDCs in eight independent chains (as ldc_rate.cu's l8) or of
// one chain of eight dependent LDCs. Kernels (extern "C", one per mode, so ptxas compiles each alone):
//   arr: arrivers only; l8: 8-chain loaders only; arr_l8: both; l1: 1-chain loaders only; arr_l1: both.
// Row: kernel,warps,group,cycles_per_op: (the group's last end - its first start) / (its warps * ITERS * 8); the
// fourth launch.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o mio_share mio_share.cu (and -cubin, -ptx;
// cuobjdump -sass mio_share.cubin)
#include "mbar_probe.h"

constexpr int ITERS = 64;
__constant__ uint32_t cv[16];

#define LC(x, a) asm volatile("ld.const.u32 %0, [%1];" : "=r"(x) : "l"(a) : "memory")

__device__ __forceinline__ void arrivals(uint64_t* bar) {
#pragma unroll 1
  for (int i = 0; i < ITERS; i++) {
    mb_arrive(bar); mb_arrive(bar); mb_arrive(bar); mb_arrive(bar);
    mb_arrive(bar); mb_arrive(bar); mb_arrive(bar); mb_arrive(bar);
  }
}

// Eight chains: each LDC's address depends on its chain's last value, masked by z = 0 at run time.
__device__ __forceinline__ uint32_t loads8(int z) {
  uint32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
#pragma unroll 1
  for (int i = 0; i < ITERS; i++) {
    uint32_t a, b, c, d, e, f, g, h;
    LC(a, cv + 0 + (s0 & z)); LC(b, cv + 1 + (s1 & z)); LC(c, cv + 2 + (s2 & z)); LC(d, cv + 3 + (s3 & z));
    LC(e, cv + 4 + (s4 & z)); LC(f, cv + 5 + (s5 & z)); LC(g, cv + 6 + (s6 & z)); LC(h, cv + 7 + (s7 & z));
    s0 += a; s1 += b; s2 += c; s3 += d; s4 += e; s5 += f; s6 += g; s7 += h;
  }
  return s0 ^ s1 ^ s2 ^ s3 ^ s4 ^ s5 ^ s6 ^ s7;
}

// One chain of eight dependent loads a trip.
__device__ __forceinline__ uint32_t loads1(int z) {
  uint32_t s = 0;
#pragma unroll 1
  for (int i = 0; i < ITERS; i++) {
    uint32_t a;
    LC(a, cv + (s & z)); s += a; LC(a, cv + 1 + (s & z)); s += a; LC(a, cv + 2 + (s & z)); s += a;
    LC(a, cv + 3 + (s & z)); s += a; LC(a, cv + 4 + (s & z)); s += a; LC(a, cv + 5 + (s & z)); s += a;
    LC(a, cv + 6 + (s & z)); s += a; LC(a, cv + 7 + (s & z)); s += a;
  }
  return s;
}

template <int MODE> __device__ __forceinline__ void share(int z, long long* out) {
  __shared__ uint64_t bar;
  const int w = threadIdx.x / 32, half = blockDim.x / 64;
  if (threadIdx.x == 0) mb_init(&bar, (1u << 20) - 1);
  __syncthreads();
  uint32_t s = 0;
  const long long t0 = clock64();
  if (w < half) {
    if (MODE & 1) arrivals(&bar);
  } else if (MODE & 2) {
    s = loads8(z);
  } else if (MODE & 4) {
    s = loads1(z);
  }
  const long long t1 = clock64();
  if (threadIdx.x % 32 == 0) { out[2 * w] = t0; out[2 * w + 1] = t1; }
  if (s == 12345) out[64] = s;
}
extern "C" __global__ void arr(int z, long long* out) { share<1>(z, out); }
extern "C" __global__ void l8(int z, long long* out) { share<2>(z, out); }
extern "C" __global__ void arr_l8(int z, long long* out) { share<3>(z, out); }
extern "C" __global__ void l1(int z, long long* out) { share<4>(z, out); }
extern "C" __global__ void arr_l1(int z, long long* out) { share<5>(z, out); }

int main() {
  long long* out;
  cudaMalloc(&out, 80 * sizeof(long long));
  uint32_t h[16];
  for (int i = 0; i < 16; i++) h[i] = i + 1;
  cudaMemcpyToSymbol(cv, h, sizeof h);
  printf("kernel,warps,group,cycles_per_op\n");
  struct { const char* name; void (*k)(int, long long*); int mode; } ks[] = {
      {"arr", arr, 1}, {"l8", l8, 2}, {"arr_l8", arr_l8, 3}, {"l1", l1, 4}, {"arr_l1", arr_l1, 5}};
  for (auto& k : ks) {
    for (int warps : {8, 16, 32}) {
      long long t[64];
      for (int r = 0; r < 4; r++) {
        k.k<<<1, 32 * warps>>>(0, out);
        if (cudaDeviceSynchronize() != cudaSuccess) { fprintf(stderr, "launch failed\n"); return 1; }
        cudaMemcpy(t, out, 2 * warps * sizeof(long long), cudaMemcpyDeviceToHost);
      }
      const int half = warps / 2;
      for (int g = 0; g < 2; g++) {
        if (!(k.mode & (g == 0 ? 1 : 6))) continue;
        long long lo = t[2 * g * half], hi = t[2 * g * half + 1];
        for (int w = g * half; w < (g + 1) * half; w++) { lo = std::min(lo, t[2 * w]); hi = std::max(hi, t[2 * w + 1]); }
        printf("%s,%d,%s,%.3f\n", k.name, warps, g == 0 ? "arrive" : "ldc", (double)(hi - lo) / (half * ITERS * 8.0));
      }
    }
  }
  return 0;
}
