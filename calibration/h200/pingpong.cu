// pingpong.cu: two warps hand a token back and forth through two mbarriers (count 1): warp A arrives on X and
// waits on Y, warp B waits on X and arrives on Y. A row is cycles per round trip (two hand-offs), timed by A.
// MODE 0: warps 0 and 1 (two schedulers), lane 0 arrives, the whole warp waits (try_wait.parity loop).
// MODE 1: warps 0 and 4 (the same scheduler).
// MODE 2: as 0, every wait CUTLASS's hinted try_wait loop (suspend-time hint 0x989680).
// MODE 3: as 0, every wait a test_wait spin.
// MODE 4: as 0, the loops inside a lane-dependent branch (waits through per-thread addresses).
// MODE 5: as 0, every lane arrives (barriers of count 32: one update of 32).
// MODE 6: as 0, only lane 0 of each warp runs (the other lanes exit first).
#include "bench.h"
__device__ __forceinline__ void wait_hint(uint64_t* b, uint32_t phase) {
  asm volatile("{\n\t.reg .pred P1;\n\tLAB_WAIT:\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1, %2;\n\t"
               "@P1 bra DONE;\n\tbra LAB_WAIT;\n\tDONE:\n\t}"
               :: "r"(sa(b)), "r"(phase), "r"(0x989680) : "memory");
}
__device__ __forceinline__ bool mb_test(uint64_t* b, uint32_t par) {
  uint32_t ok;
  asm volatile("{\n\t.reg .pred p;\n\tmbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
               : "=r"(ok) : "r"(sa(b)), "r"(par) : "memory");
  return ok != 0;
}
template <int MODE> __device__ __forceinline__ void wt(uint64_t* b, uint32_t par) {
  if (MODE == 2) wait_hint(b, par);
  else if (MODE == 3) { while (!mb_test(b, par)) {} }
  else { while (!mb_try(b, par)) {} }
}
template <int MODE> __device__ __forceinline__ void arr(uint64_t* b, int lane) {
  if (MODE == 5) mb_arrive(b);
  else if (lane == 0) mb_arrive(b);
}
template <int MODE> __device__ __forceinline__ void loop(int iters, int role, int lane, uint64_t* bars, long long* out) {
  if (role == 0) {
    const long long t0 = clock64();
    for (int i = 0; i < iters; i++) { arr<MODE>(&bars[0], lane); wt<MODE>(&bars[1], i & 1); }
    if (lane == 0) out[0] = clock64() - t0;
  } else {
    for (int i = 0; i < iters; i++) { wt<MODE>(&bars[0], i & 1); arr<MODE>(&bars[1], lane); }
  }
}
template <int MODE> __global__ void k_pp(int iters, int never, long long* out) {
  __shared__ uint64_t bars[2];
  if (threadIdx.x == 0) { mb_init(&bars[0], MODE == 5 ? 32 : 1); mb_init(&bars[1], MODE == 5 ? 32 : 1); }
  __syncthreads();
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int other = MODE == 1 ? 4 : 1;
  if (warp != 0 && warp != other) return;
  if (MODE == 6 && lane != 0) return;
  const int role = warp == 0 ? 0 : 1;
  if (MODE == 4) {
    if (threadIdx.x != (unsigned)never) loop<MODE>(iters, role, lane, bars, out);
  } else {
    loop<MODE>(iters, role, lane, bars, out);
  }
}
// Rows: pingpong,<mode name>,cycles_per_round_trip: out[0] / 2000, median of three launches after a warm-up one.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o pingpong pingpong.cu
int main() {
  long long* dout; CK(cudaMalloc(&dout, 8 * sizeof(long long)));
  printf("bench,config,metric,median,min,max,runs\n");
  const int iters = 2000;
  static const char* names[] = {"two_schedulers", "same_scheduler", "hinted", "test_wait", "vector", "full_warp_arrive", "lane0_only"};
#define RUN(M) timed3("pingpong", names[M], "cycles_per_round_trip", dout, iters, [&] { k_pp<M><<<1, M == 1 ? 160 : 64>>>(iters, 777, dout); });
  RUN(0) RUN(1) RUN(2) RUN(3) RUN(4) RUN(5) RUN(6)
  return 0;
}
