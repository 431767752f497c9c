// trip_parts.cu: which part of ring_hop8.cu's single-lane producer trip costs the H200 more than smsim's timing of
// its SASS (a stage every 351 cycles without copies on the H200, 252 in smsim, the producer never waiting). One CTA
// of one warp; the lane elect.sync picks runs ITERS trips around a ring of four count-1 mbarriers: at trip i it waits
// for the phase of barrier i % 4 that its own arrive four trips earlier completed (a try_wait loop that passes at
// once, as the lagging producer's does), then arrives on that barrier. Each kernel is compiled on its own, so ptxas
// schedules each trip by itself:
//   tp0: the ring trip alone;
//   tp1: tp0 and a clock stamp stored to shared memory after the wait (ring_hop8's tp[i]);
//   tp2: tp0 with the kernel parameter re-read before the wait (ld.param in volatile asm: an LDC every trip),
//        choosing the wait's form (try_wait loop, or a test_wait spin when it is 7), as ring_hop8's loop does;
//   tp3: tp0 with the parameter re-read after the wait, choosing the arrive (plain, or expect_tx 0 when it is 5);
//   tp4: tp1, tp2 and tp3 together (ring_hop8's trip without copies);
//   tp5: tp4 with the parameter read once before the loop (no LDC in the trip);
//   tp6: tp0 unrolled by four (each barrier's address a constant).
// Row: kernel,cycles_per_trip (clock64 around the loop in the looping thread, the fourth launch).
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o trip_parts trip_parts.cu (and -cubin, -ptx;
// cuobjdump -sass trip_parts.cubin)
#include "mbar_probe.h"

constexpr int S = 4, ITERS = 1024;

#define PARAM(name, x) asm volatile("ld.param.u32 %0, [" #name "_param_0];" : "=r"(x) :: "memory")

#define PROLOGUE                                                         \
  __shared__ __align__(8) uint64_t bar[S];                               \
  __shared__ long long tp[64];                                           \
  if (threadIdx.x == 0) {                                                \
    for (int s = 0; s < S; s++) mb_init(&bar[s], 1);                     \
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");   \
  }                                                                      \
  __syncwarp();                                                          \
  const long long t0 = clock64();

#define EPILOGUE(...)                                                    \
  if (elect_one()) {                                                     \
    const long long a = clock64();                                       \
    __VA_ARGS__                                                          \
    out[0] = clock64() - a;                                              \
    out[1] = tp[7] - t0;                                                 \
  }                                                                      \
  __syncwarp();

#define WAIT_TRY(i) if ((i) >= S) mb_wait(&bar[(i) % S], (((i) / S) - 1) & 1);
#define WAIT_BY(x, i)                                                              \
  if ((i) >= S) {                                                                  \
    if ((x) == 7) { while (!mb_test(&bar[(i) % S], (((i) / S) - 1) & 1)) {} }     \
    else mb_wait(&bar[(i) % S], (((i) / S) - 1) & 1);                              \
  }
#define ARRIVE_BY(x, i) if ((x) == 5) mb_arrive_tx0(&bar[(i) % S]); else mb_arrive(&bar[(i) % S]);
#define STAMP(i) tp[(i) % 64] = clock64() - t0;

extern "C" __global__ void tp0(int v, long long* out) {
  PROLOGUE
  EPILOGUE(
_Pragma("unroll 1")
    for (int i = 0; i < ITERS; i++) { WAIT_TRY(i) mb_arrive(&bar[i % S]); })
}
extern "C" __global__ void tp1(int v, long long* out) {
  PROLOGUE
  EPILOGUE(
_Pragma("unroll 1")
    for (int i = 0; i < ITERS; i++) { WAIT_TRY(i) STAMP(i) mb_arrive(&bar[i % S]); })
}
extern "C" __global__ void tp2(int v, long long* out) {
  PROLOGUE
  EPILOGUE(
_Pragma("unroll 1")
    for (int i = 0; i < ITERS; i++) { int x; PARAM(tp2, x); WAIT_BY(x, i) mb_arrive(&bar[i % S]); })
}
extern "C" __global__ void tp3(int v, long long* out) {
  PROLOGUE
  EPILOGUE(
_Pragma("unroll 1")
    for (int i = 0; i < ITERS; i++) { WAIT_TRY(i) int y; PARAM(tp3, y); ARRIVE_BY(y, i) })
}
extern "C" __global__ void tp4(int v, long long* out) {
  PROLOGUE
  EPILOGUE(
_Pragma("unroll 1")
    for (int i = 0; i < ITERS; i++) { int x; PARAM(tp4, x); WAIT_BY(x, i) int y; PARAM(tp4, y); STAMP(i) ARRIVE_BY(y, i) })
}
extern "C" __global__ void tp5(int v, long long* out) {
  PROLOGUE
  EPILOGUE(
_Pragma("unroll 1")
    for (int i = 0; i < ITERS; i++) { WAIT_BY(v, i) STAMP(i) ARRIVE_BY(v, i) })
}
extern "C" __global__ void tp6(int v, long long* out) {
  PROLOGUE
  EPILOGUE(
_Pragma("unroll 4")
    for (int i = 0; i < ITERS; i++) { WAIT_TRY(i) mb_arrive(&bar[i % S]); })
}

int main() {
  long long* out;
  cudaMalloc(&out, 2 * sizeof(long long));
  printf("kernel,cycles_per_trip\n");
  void (*ks[])(int, long long*) = {tp0, tp1, tp2, tp3, tp4, tp5, tp6};
  for (int k = 0; k < 7; k++) {
    long long h[2] = {0, 0};
    for (int r = 0; r < 4; r++) {
      ks[k]<<<1, 32>>>(1, out);
      if (cudaDeviceSynchronize() != cudaSuccess) { fprintf(stderr, "launch failed\n"); return 1; }
      cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    }
    printf("tp%d,%.2f\n", k, (double)h[0] / ITERS);
  }
  return 0;
}
