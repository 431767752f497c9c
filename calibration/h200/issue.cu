// issue.cu: what one thread pays, per loop trip, for the steps of a bulk-copy producer loop, one step added at a
// time: a try_wait on a phase that has already completed, an arrive.expect_tx, a cp.async.bulk, and their
// combinations. ONE thread block of one thread; each variant runs `iters` trips between two clock64 reads and
// out[v] = cycles per trip. Copies are 16 bytes from L2 (the source was read by a first launch), each completing
// its bytes on a barrier whose arrival count (2^20 - 1) keeps its phase open, so nothing waits for them.
// Output CSV "bench,config,metric,median,min,max,runs" over 3 runs after a warm-up launch.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o issue issue.cu
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <vector>

#include "bench.h"

// Variants: 0 empty trip; 1 try_wait (completed phase); 2 arrive.expect_tx; 3 cp.async.bulk (bytes expected once
// up front); 4 arrive.expect_tx + cp.async.bulk; 5 try_wait + arrive.expect_tx; 6 try_wait + arrive.expect_tx +
// cp.async.bulk (a producer trip); 7 try_wait + arrive (no tx); 8 arrive.expect_tx(0) on one barrier +
// cp.async.bulk completing on another. Each variant is its own loop (no switch in the trip).
#define VARIANT(V, BODY)                                          \
  {                                                               \
    const long long t0 = clk();                                   \
    for (int i = 0; i < iters; i++) { BODY }                      \
    out[V] = clk() - t0;                                          \
  }
extern "C" __global__ void issue_steps(const uint8_t* src, int iters, long long* out) {
  __shared__ __align__(128) uint8_t buf[16];
  __shared__ __align__(8) uint64_t done, open, open2, open3;
  const uint32_t MAXC = (1u << 20) - 1;
  mb_init(&done, 1); mb_init(&open, MAXC); mb_init(&open2, MAXC); mb_init(&open3, MAXC);
  fence_async();
  mb_arrive(&done);  // phase 0 of `done` completes: try_wait.parity(0) is true from now on
  mb_wait(&done, 0);
  VARIANT(0, asm volatile("" ::: "memory");)
  VARIANT(1, mb_wait(&done, 0);)
  VARIANT(2, mb_arrive_tx(&open, 0);)
  mb_expect_tx(&open3, 16u * iters);
  VARIANT(3, bulk_g2s(buf, src, 16, &open3);)
  VARIANT(4, mb_arrive_tx(&open, 16); bulk_g2s(buf, src, 16, &open);)
  VARIANT(5, mb_wait(&done, 0); mb_arrive_tx(&open, 0);)
  VARIANT(6, mb_wait(&done, 0); mb_arrive_tx(&open, 16); bulk_g2s(buf, src, 16, &open);)
  VARIANT(7, mb_wait(&done, 0); mb_arrive(&open);)
  mb_expect_tx(&open3, 16u * iters);
  VARIANT(8, mb_arrive_tx(&open2, 0); bulk_g2s(buf, src, 16, &open3);)
  // Let every copy land before the block exits: complete `open` (5 * iters arrivals so far) and `open3`.
  mb_arrive_n(&open, MAXC - 5u * iters);
  mb_arrive_n(&open3, MAXC);
  mb_wait(&open, 0);
  mb_wait(&open3, 0);
}

__global__ void k_spin(long long cycles, int* sink) {
  const long long s = clock64();
  while (clock64() - s < cycles) {}
  if (threadIdx.x == 0 && sink) sink[blockIdx.x] = 1;
}

int main() {
  const int RUNS = 3, iters = 256, N = 9;
  static const char* names[N] = {"empty", "try_wait_done", "arrive_expect_tx", "bulk_copy_16B", "arrive_expect_tx_bulk_copy",
                                 "try_wait_done_arrive_expect_tx", "try_wait_done_arrive_expect_tx_bulk_copy",
                                 "try_wait_done_arrive", "arrive_expect_tx_bulk_copy_other_barrier"};
  long long* dout; CK(cudaMalloc(&dout, 64 * sizeof(long long)));
  uint8_t* src; CK(cudaMalloc(&src, 4096)); CK(cudaMemset(src, 0, 4096));
  int* sink; CK(cudaMalloc(&sink, 1024 * sizeof(int)));
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  k_spin<<<prop.multiProcessorCount, 32>>>(100000000LL, sink); CK(cudaDeviceSynchronize());
  std::vector<long long> h(64);
  std::vector<std::vector<double>> v(N);
  for (int r = 0; r <= RUNS; r++) {
    issue_steps<<<1, 1>>>(src, iters, dout);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h.data(), dout, 64 * sizeof(long long), cudaMemcpyDeviceToHost));
    if (r > 0) for (int k = 0; k < N; k++) v[k].push_back((double)h[k] / iters);
  }
  printf("bench,config,metric,median,min,max,runs\n");
  for (int k = 0; k < N; k++) {
    std::sort(v[k].begin(), v[k].end());
    printf("issue_steps,%s,cycles_per_trip,%.2f,%.2f,%.2f,%d\n", names[k], v[k][1], v[k][0], v[k][2], RUNS);
  }
  return 0;
}
