// wake_ctx.cu: wake_sweep.cu's elected lane (its warp's other lanes at __syncwarp) polls through its retry loop's
// YIELD after another warp's arrive, a sawtooth of period ~150 with the arrival's timing; ring_hop.cu's producer,
// the same kind of lane, mostly wakes as if suspended (90-130 cycles). What differs before the wait? Kernels, each
// compiled on its own, the wait and the arriver as in wake_sweep's "we":
//   c0: as "we" (the wait right after elect.sync);
//   c1: the lane spins 3000 cycles on clock64 between elect.sync and its wait;
//   c2: the lane first passes a wait on another barrier whose phase it completed itself;
//   c3: the lane first issues a 1 KiB bulk copy (cp.async.bulk, global to shared) completing on another barrier.
// DELAY (the arriver's spin before its clock read and arrive) from 100 to 800 cycles in steps of 25.
// Row: kernel,delay,median_cycles (waiter's clock after the wait minus the arriver's before its arrive, median of
// 9 launches after a warm-up).
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o wake_ctx wake_ctx.cu (and -cubin, -ptx;
// cuobjdump -sass wake_ctx.cubin)
#include "mbar_probe.h"


__device__ __forceinline__ void mb_arrive_tx(uint64_t* b, uint32_t tx) {
  asm volatile("{\n\t.reg .b64 st;\n\tmbarrier.arrive.expect_tx.shared::cta.b64 st, [%0], %1;\n\t}" :: "r"(sa(b)), "r"(tx) : "memory");
}
__device__ __forceinline__ void bulk_g2s(void* dst, const void* src, uint32_t bytes, uint64_t* b) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
               :: "r"(sa(dst)), "l"(src), "r"(bytes), "r"(sa(b)) : "memory");
}

#define SETUP                                                            \
  __shared__ __align__(8) uint64_t bar[2];                               \
  __shared__ __align__(128) uint8_t buf[1024];                           \
  const int w = threadIdx.x / 32, lane = threadIdx.x % 32;               \
  if (threadIdx.x == 0) {                                                \
    mb_init(&bar[0], 1);                                                 \
    mb_init(&bar[1], 1);                                                 \
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");   \
  }                                                                      \
  __syncthreads();                                                       \
  if (w == 1) {                                                          \
    if (lane == 0) arrive_late(&bar[0], delay, out);                     \
    return;                                                              \
  }
#define WAIT_STAMP { mb_wait(&bar[0], 0); out[1] = clock64(); }

extern "C" __global__ void c0(long long delay, const uint8_t* src, long long* out) {
  SETUP if (elect_one()) WAIT_STAMP __syncwarp();
}
extern "C" __global__ void c1(long long delay, const uint8_t* src, long long* out) {
  SETUP if (elect_one()) {
    const long long s = clock64();
    while (clock64() - s < 3000) {}
    WAIT_STAMP
  }
  __syncwarp();
}
extern "C" __global__ void c2(long long delay, const uint8_t* src, long long* out) {
  SETUP if (elect_one()) {
    mb_arrive(&bar[1]);
    mb_wait(&bar[1], 0);
    WAIT_STAMP
  }
  __syncwarp();
}
extern "C" __global__ void c3(long long delay, const uint8_t* src, long long* out) {
  SETUP if (elect_one()) {
    mb_arrive_tx(&bar[1], 1024);
    bulk_g2s(buf, src, 1024, &bar[1]);
    WAIT_STAMP
    mb_wait(&bar[1], 0);
  }
  __syncwarp();
}

int main() {
  long long* out;
  uint8_t* src;
  cudaMalloc(&out, 64 * sizeof(long long));
  cudaMalloc(&src, 4096);
  cudaMemset(src, 0, 4096);
  printf("kernel,delay,median_cycles\n");
  struct { const char* name; void (*k)(long long, const uint8_t*, long long*); } ks[] = {{"c0", c0}, {"c1", c1}, {"c2", c2}, {"c3", c3}};
  for (auto& k : ks) {
    for (long long delay = 100; delay <= 800; delay += 25) {
      std::vector<long long> d;
      for (int r = 0; r < 10; r++) {
        k.k<<<1, 64>>>(delay, src, out);
        if (cudaDeviceSynchronize() != cudaSuccess) { fprintf(stderr, "launch failed\n"); return 1; }
        long long h[2];
        cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
        if (r > 0) d.push_back(h[1] - h[0]);
      }
      std::sort(d.begin(), d.end());
      printf("%s,%lld,%lld\n", k.name, delay, d[d.size() / 2]);
    }
  }
  return 0;
}
