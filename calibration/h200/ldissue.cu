// ldissue.cu: when one warp's independent global loads issue, and when their data comes back.
//   k_iss<N, P>  a block of W warps; each warp makes N independent 32-bit loads, one line each (lane l reads
//                word l of line k), at immediate offsets from one base (no address arithmetic between them):
//                from L1 (P = 0: ld.global.ca, after a pass that brings the lines in) or from L2 (P = 1:
//                ld.global.cg, after the same pass). Warp 0 reads the clock before the first load, after the
//                last load, and after an add that uses each load's value, in order.
// Output: "iss,place,N,W,rep,span,r0,...,rN-1": cycles from the first clock to the clock after the last load
//         (span) and to the clock after the use of load k (rk).
// Build: nvcc -O3 -std=c++17 -arch=sm_90a -o ldissue ldissue.cu
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <utility>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
#define DEV __device__ __forceinline__

DEV long long clk() { long long t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) :: "memory"); return t; }
template <int P, int K> DEV uint32_t ld(const uint32_t* p) {
  uint32_t x;
  if (P == 0) asm volatile("ld.global.ca.u32 %0, [%1+%2];" : "=r"(x) : "l"(p), "n"(K * 128) : "memory");
  else asm volatile("ld.global.cg.u32 %0, [%1+%2];" : "=r"(x) : "l"(p), "n"(K * 128) : "memory");
  return x;
}
template <int P, size_t... K> DEV void loads(const uint32_t* p, uint32_t* v, std::index_sequence<K...>) {
  ((v[K] = ld<P, K>(p)), ...);
}

// tab: zeros, N lines; out: 2 + N clocks of warp 0.
template <int N, int P> __global__ void k_iss(const uint32_t* tab, long long* out) {
  const uint32_t* p = tab + (threadIdx.x & 31);
  uint32_t v[N], s = 0;
  loads<P>(p, v, std::make_index_sequence<N>{});  // bring the lines into L1 (P = 0) or L2
#pragma unroll
  for (int k = 0; k < N; k++) s += v[k];
  p += s;  // zeros: the same lines, after the first pass's data is back
  __syncthreads();
  long long t[N];
  const long long t0 = clk();
  loads<P>(p, v, std::make_index_sequence<N>{});
  const long long t1 = clk();
#pragma unroll
  for (int k = 0; k < N; k++) {
    s += v[k];
    t[k] = clk();
  }
  if (threadIdx.x == 0) {
    out[0] = t1 - t0;
#pragma unroll
    for (int k = 0; k < N; k++) out[1 + k] = t[k] - t0;
  }
  if (s == 77) out[63] = s;
}

__global__ void k_spin(long long cycles) { const long long t0 = clock64(); while (clock64() - t0 < cycles) {} }

typedef void (*KF)(const uint32_t*, long long*);
struct K { int n, p; KF f; };
static const K kK[] = {{4, 0, k_iss<4, 0>}, {8, 0, k_iss<8, 0>}, {16, 0, k_iss<16, 0>},
                       {4, 1, k_iss<4, 1>}, {8, 1, k_iss<8, 1>}, {16, 1, k_iss<16, 1>}};

int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  uint32_t* tab; long long* out;
  CK(cudaMalloc(&tab, 1 << 16)); CK(cudaMemset(tab, 0, 1 << 16));
  CK(cudaMalloc(&out, 64 * sizeof(long long)));
  k_spin<<<264, 128>>>(100000000ll);  // the clock up
  CK(cudaDeviceSynchronize());
  for (const K& k : kK)
    for (int w : {1, 4, 8})
      for (int rep = 0; rep < 3; rep++) {
        k.f<<<1, 32 * w>>>(tab, out);
        CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
        long long h[64];
        CK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
        printf("iss,%s,%d,%d,%d", k.p ? "l2" : "l1", k.n, w, rep);
        for (int i = 0; i <= k.n; i++) printf(",%lld", h[i]);
        printf("\n");
      }
  return 0;
}
