// yield_div.cu: trip_parts.cu found the H200 slow on trips whose try_wait loop ptxas lays out in line, after a
// YIELD (tp2, tp4, tp5: 80-100 cycles a trip beyond smsim's timing of their SASS, where trips without the in-line
// YIELD match within 3 %). There one elected lane loops while the warp's other 31 lanes wait at __syncwarp. This
// probe separates the YIELD from the divergence: two trips, each run four ways, each kernel compiled on its own.
// Trips: "w" is trip_parts' tp2 (the wait's form chosen by a re-read parameter: ptxas lays the try_wait loop out
// in line after a YIELD), "p" is tp0 (the try_wait loop's retry out of line). Ways:
//   a: every lane runs the trip (count-32 barriers, every lane arrives);
//   x: lane 0 runs it, the other lanes have exited;
//   e: the lane elect.sync picks runs it, the others wait at the closing __syncwarp (as trip_parts);
//   s: lane 0 runs it (if (lane == 0)), the others wait at the closing __syncwarp.
// Row: kernel,cycles_per_trip (clock64 around the loop in the looping thread, the fourth launch).
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o yield_div yield_div.cu (and -cubin, -ptx;
// cuobjdump -sass yield_div.cubin)
#include "mbar_probe.h"

constexpr int S = 4, ITERS = 1024;

#define PARAM(name, x) asm volatile("ld.param.u32 %0, [" #name "_param_0];" : "=r"(x) :: "memory")
#define WAIT_TRY(i) if ((i) >= S) mb_wait(&bar[(i) % S], (((i) / S) - 1) & 1);
#define WAIT_BY(x, i)                                                              \
  if ((i) >= S) {                                                                  \
    if ((x) == 7) { while (!mb_test(&bar[(i) % S], (((i) / S) - 1) & 1)) {} }     \
    else mb_wait(&bar[(i) % S], (((i) / S) - 1) & 1);                              \
  }
#define TRIP_w(name)                                                            \
  _Pragma("unroll 1") for (int i = 0; i < ITERS; i++) {                         \
    int x;                                                                      \
    PARAM(name, x);                                                             \
    WAIT_BY(x, i) mb_arrive(&bar[i % S]);                                       \
  }
#define TRIP_p(name) _Pragma("unroll 1") for (int i = 0; i < ITERS; i++) { WAIT_TRY(i) mb_arrive(&bar[i % S]); }

#define SETUP(n)                                                        \
  __shared__ __align__(8) uint64_t bar[S];                              \
  const int lane = threadIdx.x % 32;                                    \
  if (threadIdx.x == 0) {                                               \
    for (int s = 0; s < S; s++) mb_init(&bar[s], n);                    \
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");  \
  }                                                                     \
  __syncwarp();
#define TIMED(trip)                   \
  const long long a = clock64();      \
  trip                                \
  const long long b = clock64();      \
  out[0] = b - a;

#define KERNELS(T)                                                                                       \
  extern "C" __global__ void T##_a(int v, long long* out) { SETUP(32) TIMED(TRIP_##T(T##_a)) }           \
  extern "C" __global__ void T##_x(int v, long long* out) {                                             \
    SETUP(1) if (lane != 0) return;                                                                    \
    TIMED(TRIP_##T(T##_x))                                                                              \
  }                                                                                                     \
  extern "C" __global__ void T##_e(int v, long long* out) {                                             \
    SETUP(1) if (elect_one()) { TIMED(TRIP_##T(T##_e)) }                                                \
    __syncwarp();                                                                                       \
  }                                                                                                     \
  extern "C" __global__ void T##_s(int v, long long* out) {                                             \
    SETUP(1) if (lane == 0) { TIMED(TRIP_##T(T##_s)) }                                                  \
    __syncwarp();                                                                                       \
  }
KERNELS(w)
KERNELS(p)

int main() {
  long long* out;
  cudaMalloc(&out, sizeof(long long));
  printf("kernel,cycles_per_trip\n");
  struct { const char* name; void (*k)(int, long long*); } ks[] = {
      {"w_a", w_a}, {"w_x", w_x}, {"w_e", w_e}, {"w_s", w_s}, {"p_a", p_a}, {"p_x", p_x}, {"p_e", p_e}, {"p_s", p_s}};
  for (auto& k : ks) {
    long long h = 0;
    for (int r = 0; r < 4; r++) {
      k.k<<<1, 32>>>(1, out);
      if (cudaDeviceSynchronize() != cudaSuccess) { fprintf(stderr, "launch failed\n"); return 1; }
      cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost);
    }
    printf("%s,%.2f\n", k.name, (double)h / ITERS);
  }
  return 0;
}
