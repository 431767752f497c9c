// yield_park.cu: yield_div.cu found that a YIELD costs the H200 about 100 cycles when the lane that runs it has
// left the rest of its warp parked at a WARPSYNC (__syncwarp), nothing when the warp is whole or its other lanes have
// exited. This probe asks where else that holds. The trip is yield_div's "w" (ptxas lays the try_wait loop out in line
// after a YIELD); each kernel is compiled on its own. Kernels:
//   bs:   lane 0 runs the trip, the other lanes park at the BSYNC where the if ends (no __syncwarp);
//   half: lanes 0-15 run the trip (count-16 barriers), lanes 16-31 park at __syncwarp;
//   two:  lane 0 runs the trip on one ring and lane 16 on another, the rest park at __syncwarp: two looping paths;
//   w4:   four warps, each warp's elected lane runs the trip on its own ring, the rest of each warp at __syncwarp;
//   pp_e: two warps pass a token back and forth through two count-1 barriers, an elected lane of each waiting and
//         arriving while the rest of its warp parks at __syncwarp (a try_wait that finds its phase open: its retry
//         path, out of line, starts with a YIELD);
//   pp_a: as pp_e with whole warps (lane 0 arrives, every lane waits).
// Row: kernel,cycles_per_trip (clock64 around the loop in thread 0, a round trip for pp_*; the fourth launch).
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o yield_park yield_park.cu (and -cubin, -ptx;
// cuobjdump -sass yield_park.cubin)
#include "mbar_probe.h"

constexpr int S = 4, ITERS = 1024;

#define PARAM(name, x) asm volatile("ld.param.u32 %0, [" #name "_param_0];" : "=r"(x) :: "memory")
#define WAIT_BY(b, x, i)                                                             \
  if ((i) >= S) {                                                                    \
    if ((x) == 7) { while (!mb_test(&(b)[(i) % S], (((i) / S) - 1) & 1)) {} }       \
    else mb_wait(&(b)[(i) % S], (((i) / S) - 1) & 1);                                \
  }
#define TRIP(name, b)                                                           \
  _Pragma("unroll 1") for (int i = 0; i < ITERS; i++) {                         \
    int x;                                                                      \
    PARAM(name, x);                                                             \
    WAIT_BY(b, x, i) mb_arrive(&(b)[i % S]);                                    \
  }
#define INIT(b, n, count)                                                   \
  if (threadIdx.x == 0) {                                                   \
    for (int s = 0; s < (n); s++) mb_init(&(b)[s], count);                  \
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");      \
  }                                                                         \
  __syncthreads();
#define TIMED(stmt)                   \
  const long long a = clock64();      \
  stmt                                \
  const long long e = clock64();      \
  if (threadIdx.x == 0) out[0] = e - a;

extern "C" __global__ void bs(int v, long long* out) {
  __shared__ __align__(8) uint64_t bar[S];
  const int lane = threadIdx.x % 32;
  INIT(bar, S, 1)
  if (lane == 0) { TIMED(TRIP(bs, bar)) }
  out[1 + lane] = lane;
}
extern "C" __global__ void half(int v, long long* out) {
  __shared__ __align__(8) uint64_t bar[S];
  const int lane = threadIdx.x % 32;
  INIT(bar, S, 16)
  if (lane < 16) { TIMED(TRIP(half, bar)) }
  __syncwarp();
}
extern "C" __global__ void two(int v, long long* out) {
  __shared__ __align__(8) uint64_t bar[2 * S];
  const int lane = threadIdx.x % 32;
  INIT(bar, 2 * S, 1)
  if (lane == 0) { TIMED(TRIP(two, bar)) }
  else if (lane == 16) { TRIP(two, (bar + S)) }
  __syncwarp();
}
extern "C" __global__ void w4(int v, long long* out) {
  __shared__ __align__(8) uint64_t bar[4 * S];
  const int w = threadIdx.x / 32;
  INIT(bar, 4 * S, 1)
  if (elect_one()) { TIMED(TRIP(w4, (bar + S * w))) }
  __syncwarp();
}
#define PP(name, ELECTED)                                                                 \
  extern "C" __global__ void name(int v, long long* out) {                                \
    __shared__ __align__(8) uint64_t tok[2];                                              \
    const int w = threadIdx.x / 32, lane = threadIdx.x % 32;                              \
    INIT(tok, 2, 1)                                                                       \
    const bool run = ELECTED ? elect_one() : true;                                        \
    if (run) {                                                                            \
      const long long a = clock64();                                                      \
      _Pragma("unroll 1") for (int i = 0; i < ITERS; i++) {                               \
        if (w == 0) {                                                                     \
          if (ELECTED || lane == 0) mb_arrive(&tok[0]);                                   \
          mb_wait(&tok[1], i & 1);                                                        \
        } else {                                                                          \
          mb_wait(&tok[0], i & 1);                                                        \
          if (ELECTED || lane == 0) mb_arrive(&tok[1]);                                   \
        }                                                                                 \
      }                                                                                   \
      const long long e = clock64();                                                      \
      if (threadIdx.x == 0 || (ELECTED && w == 0)) out[0] = e - a;                        \
    }                                                                                     \
    __syncwarp();                                                                         \
  }
PP(pp_e, true)
PP(pp_a, false)

int main() {
  long long* out;
  cudaMalloc(&out, 64 * sizeof(long long));
  printf("kernel,cycles_per_trip\n");
  struct { const char* name; void (*k)(int, long long*); int threads; } ks[] = {
      {"bs", bs, 32}, {"half", half, 32}, {"two", two, 32}, {"w4", w4, 128}, {"pp_e", pp_e, 64}, {"pp_a", pp_a, 64}};
  for (auto& k : ks) {
    long long h = 0;
    for (int r = 0; r < 4; r++) {
      k.k<<<1, k.threads>>>(1, out);
      if (cudaDeviceSynchronize() != cudaSuccess) { fprintf(stderr, "launch failed\n"); return 1; }
      cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost);
    }
    printf("%s,%.2f\n", k.name, (double)h / ITERS);
  }
  return 0;
}
