// wake_order.cu: in which order does the barrier unit answer the try_waits suspended on a phase when it completes:
// the order they were issued in, or the warps' order? trywait.csv's wake_all measures waiters resuming 2 cycles
// apart, not their order.
// One CTA of 17 warps. Warp w < 16 spins 300 * rank(w) cycles, then waits (try_wait loop) on a count-1 barrier and
// stamps clock64 when the wait returns; warp 16's lane 0 spins 6,000 cycles and arrives. rank: id (w), rev (15 - w),
// mix ((7 * w) % 16): the waits are issued in rank order, 300 cycles apart, all before the arrive.
// Row: kernel,warp,rank,wake: the warp's stamp less the earliest waiter's stamp; the fourth launch.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o wake_order wake_order.cu (and -cubin, -ptx;
// cuobjdump -sass wake_order.cubin)
#include "mbar_probe.h"

__device__ __forceinline__ void spin(long long cycles) {
  const long long s = clock64();
  while (clock64() - s < cycles) {}
}

template <int PERM> __device__ __forceinline__ void order(long long* out) {
  __shared__ uint64_t bar;
  const int w = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (threadIdx.x == 0) mb_init(&bar, 1);
  __syncthreads();
  if (w == 16) {
    if (lane == 0) arrive_late(&bar, 6000, out + 32);
    return;
  }
  const int rank = PERM == 0 ? w : PERM == 1 ? 15 - w : (7 * w) % 16;
  spin(300 * rank);
  mb_wait(&bar, 0);
  const long long t = clock64();
  if (lane == 0) out[w] = t;
}
extern "C" __global__ void id(long long* out) { order<0>(out); }
extern "C" __global__ void rev(long long* out) { order<1>(out); }
extern "C" __global__ void mix(long long* out) { order<2>(out); }

int main() {
  long long* out;
  cudaMalloc(&out, 40 * sizeof(long long));
  printf("kernel,warp,rank,wake\n");
  struct { const char* name; void (*k)(long long*); int perm; } ks[] = {{"id", id, 0}, {"rev", rev, 1}, {"mix", mix, 2}};
  for (auto& k : ks) {
    long long t[40];
    for (int r = 0; r < 4; r++) {
      k.k<<<1, 32 * 17>>>(out);
      if (cudaDeviceSynchronize() != cudaSuccess) { fprintf(stderr, "launch failed\n"); return 1; }
      cudaMemcpy(t, out, 40 * sizeof(long long), cudaMemcpyDeviceToHost);
    }
    long long lo = t[0];
    for (int w = 0; w < 16; w++) lo = std::min(lo, t[w]);
    for (int w = 0; w < 16; w++) {
      const int rank = k.perm == 0 ? w : k.perm == 1 ? 15 - w : (7 * w) % 16;
      printf("%s,%d,%d,%lld\n", k.name, w, rank, t[w] - lo);
    }
  }
  return 0;
}
