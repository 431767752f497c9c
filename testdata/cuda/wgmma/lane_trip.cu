// lane_trip.cu: does a loop cost the H200 more when one lane of its warp runs it than when the whole warp does? In
// ring_hop8.cu the single-lane producer's trip is 90-100 cycles longer on the H200 than smsim's timing of its SASS,
// while the whole-warp producer matches. One CTA of one warp; ITERS trips of a body, timed by clock64 around the
// loop in the thread that runs it; the body is a ring-like trip: arrive on an mbarrier of count 1, wait for that
// phase with a try_wait loop, and store a clock stamp to shared memory. Modes:
//   0: every lane runs the loop (lane 0 arrives);   1: only lane 0 runs it (`if (lane == 0)`, the rest exit);
//   2: only the lane elect.sync picks (the rest wait at the closing __syncwarp);
//   3: as 0 without the barrier (the stamp alone);  4: as 1 without the barrier;  5: as 2 without the barrier.
// Row: mode,cycles_per_trip (the fourth launch).
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o lane_trip lane_trip.cu (and -cubin, -ptx;
// cuobjdump -sass lane_trip.cubin)
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>

__device__ __forceinline__ uint32_t sa(const void* p) { return (uint32_t)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void mb_init(uint64_t* b, uint32_t n) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(sa(b)), "r"(n) : "memory");
}
__device__ __forceinline__ void mb_arrive(uint64_t* b) {
  asm volatile("{\n\t.reg .b64 st;\n\tmbarrier.arrive.shared::cta.b64 st, [%0];\n\t}" :: "r"(sa(b)) : "memory");
}
__device__ __forceinline__ void mb_wait(uint64_t* b, uint32_t par) {
  asm volatile("{\n\t.reg .pred p;\n\tW_%=:\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n\t@!p bra W_%=;\n\t}"
               :: "r"(sa(b)), "r"(par) : "memory");
}
__device__ __forceinline__ bool elect_one() {
  uint32_t e;
  asm volatile("{\n\t.reg .pred p;\n\t.reg .b32 r;\n\telect.sync r|p, 0xffffffff;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(e));
  return e != 0;
}

constexpr int ITERS = 1024;

template <bool BAR> __device__ __noinline__ void trips(uint64_t* bar, long long* stamps, bool arriver, long long* out) {
  uint32_t par = 0;
  const long long t0 = clock64();
  for (int i = 0; i < ITERS; i++) {
    if (BAR) {
      if (arriver) mb_arrive(bar);
      mb_wait(bar, par);
      par ^= 1;
    }
    stamps[i % 64] = clock64();
  }
  const long long t1 = clock64();
  if (arriver) out[0] = t1 - t0;
}

__global__ void lane_trip(int mode, long long* out) {
  __shared__ __align__(8) uint64_t bar;
  __shared__ long long stamps[64];
  const int lane = threadIdx.x % 32;
  if (threadIdx.x == 0) {
    mb_init(&bar, 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncwarp();
  const bool b = mode < 3;
  const int m = mode % 3;
  if (m == 0) {
    if (b) trips<true>(&bar, stamps, lane == 0, out);
    else trips<false>(&bar, stamps, lane == 0, out);
  } else if (m == 1) {
    if (lane != 0) return;
    if (b) trips<true>(&bar, stamps, true, out);
    else trips<false>(&bar, stamps, true, out);
  } else {
    if (elect_one()) {
      if (b) trips<true>(&bar, stamps, true, out);
      else trips<false>(&bar, stamps, true, out);
    }
    __syncwarp();
  }
}

int main() {
  long long* out;
  cudaMalloc(&out, sizeof(long long));
  printf("mode,cycles_per_trip\n");
  for (int mode = 0; mode < 6; mode++) {
    long long h = 0;
    for (int r = 0; r < 4; r++) {
      lane_trip<<<1, 32>>>(mode, out);
      if (cudaDeviceSynchronize() != cudaSuccess) { fprintf(stderr, "launch failed\n"); return 1; }
      cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost);
    }
    printf("%d,%.2f\n", mode, (double)h / ITERS);
  }
  return 0;
}
