// dramline.cu: how one SM's plain loads are served from DRAM, line by line.
//   k_dl<N, L>  one warp, 32 dependent rounds: N loads a round, each of one line, the lines S bytes apart (lane l
//               reads word l & (L - 1): L = 32 a whole 128-byte line, L = 8 one 32-byte sector of it); the next
//               round's address depends on the sum of the last (zeros): cycles a round, from DRAM (a fresh window
//               each launch) or from L2 (the same window launched again).
//   k_dw        W warps, each 32 dependent rounds of 16 consecutive lines in a region of its own, from DRAM:
//               cycles a round of warp 0.
// Output: "dl,place,N,L,S,rep,cycles_per_round" and "dw,W,rep,cycles_per_round" rows.
// Build: nvcc -O3 -std=c++17 -arch=sm_90a -o dramline dramline.cu
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
#define DEV __device__ __forceinline__
#define ROUNDS 32

DEV long long clk() { long long t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) :: "memory"); return t; }
DEV uint32_t ldg(const uint32_t* p) { uint32_t x; asm volatile("ld.global.u32 %0, [%1];" : "=r"(x) : "l"(p)); return x; }

// in: zeros, ROUNDS * N lines sw words apart; out[0]: cycles of the rounds.
template <int N, int L> __global__ void k_dl(const uint32_t* in, uint32_t sw, long long* out) {
  const uint32_t* p = in + (threadIdx.x & (L - 1));
  uint32_t acc = 0;
  __syncwarp();
  const long long t0 = clk();
  for (int r = 0; r < ROUNDS; r++) {
    uint32_t s = 0;
#pragma unroll
    for (int k = 0; k < N; k++) s += ldg(p + (size_t)(r * N + k) * sw + acc);
    acc = s;
  }
  const long long t1 = clk();
  if (threadIdx.x == 0) out[0] = t1 - t0;
  if (acc == 77) out[1] = acc;
}

// in: zeros, a region of ROUNDS * 16 lines for each warp; out[0]: warp 0's cycles.
__global__ void k_dw(const uint32_t* in, long long* out) {
  const uint32_t* p = in + (size_t)(threadIdx.x >> 5) * ROUNDS * 16 * 32 + (threadIdx.x & 31);
  uint32_t acc = 0;
  __syncthreads();
  const long long t0 = clk();
  for (int r = 0; r < ROUNDS; r++) {
    uint32_t s = 0;
#pragma unroll
    for (int k = 0; k < 16; k++) s += ldg(p + (size_t)(r * 16 + k) * 32 + acc);
    acc = s;
  }
  const long long t1 = clk();
  if (threadIdx.x == 0) out[0] = t1 - t0;
  if (acc == 77) out[1] = acc;
}

__global__ void k_spin(long long cycles) { const long long t0 = clock64(); while (clock64() - t0 < cycles) {} }
__global__ void k_flush(const uint4* p, size_t n, uint32_t* sink) {
  uint32_t x = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) x ^= p[i].x;
  if (x == 0x12345u) sink[0] = x;
}

typedef void (*DL)(const uint32_t*, uint32_t, long long*);
struct K { int n, l; DL f; };
static const K kDL[] = {{1, 32, k_dl<1, 32>}, {2, 32, k_dl<2, 32>}, {4, 32, k_dl<4, 32>}, {8, 32, k_dl<8, 32>},
                        {16, 32, k_dl<16, 32>}, {1, 8, k_dl<1, 8>}, {4, 8, k_dl<4, 8>}, {16, 8, k_dl<16, 8>}};
static const uint32_t kStride[] = {128, 256, 512, 1024, 2048, 4096, 16384, 65536};

int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  const size_t kBig = 3ull << 30, kFlush = 256ull << 20, kWin = 64ull << 20;
  uint32_t* big; uint4* flush; long long* out; uint32_t* sink;
  CK(cudaMalloc(&big, kBig)); CK(cudaMemset(big, 0, kBig));
  CK(cudaMalloc(&flush, kFlush)); CK(cudaMemset(flush, 0, kFlush));
  CK(cudaMalloc(&out, 64 * sizeof(long long))); CK(cudaMalloc(&sink, 16));
  k_spin<<<264, 128>>>(100000000ll);
  CK(cudaDeviceSynchronize());
  size_t window = 0;
  auto fresh = [&]() {  // a window no launch read since the L2 was last flushed
    window = (window + kWin) % (kBig - kWin);
    k_flush<<<264, 256>>>(flush, kFlush / 16, sink);
    CK(cudaGetLastError());
    return big + window / 4;
  };
  auto cycles = [&]() { long long c = 0; CK(cudaMemcpy(&c, out, sizeof c, cudaMemcpyDeviceToHost)); return c; };
  for (const K& k : kDL)
    for (uint32_t s : kStride)
      for (int rep = 0; rep < 3; rep++) {
        const uint32_t* base = fresh();
        k.f<<<1, 32>>>(base, s / 4, out);
        CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
        printf("dl,dram,%d,%d,%u,%d,%.2f\n", k.n, k.l, s, rep, cycles() / (double)ROUNDS);
        if (s == 128 || s == 65536) {
          k.f<<<1, 32>>>(base, s / 4, out);
          CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
          printf("dl,l2,%d,%d,%u,%d,%.2f\n", k.n, k.l, s, rep, cycles() / (double)ROUNDS);
        }
      }
  for (int w : {1, 2, 4, 8, 16, 32})
    for (int rep = 0; rep < 3; rep++) {
      k_dw<<<1, 32 * w>>>(fresh(), out);
      CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
      printf("dw,%d,%d,%.2f\n", w, rep, cycles() / (double)ROUNDS);
    }
  printf("done,ok,1\n");
  return 0;
}
