// l2part.cu: does an L2 hit's latency depend on the address? One thread copies 16 bytes (cp.async.bulk) from each
// of 256 lines 4224 bytes apart (the buffer written by cudaMemset before), four times each, and keeps the least of
// copies 2-4, timed from the arrive.expect_tx to the try_wait loop that sees it done. The kernel runs twice.
// Rows: OFFSET,cycles and again_OFFSET,cycles. Not `validate` rows.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o l2part l2part.cu -lcuda
#include <cuda.h>
#include "bench.h"
__device__ __forceinline__ void bulk(void* dst, const void* src, uint32_t n, uint64_t* b) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
               :: "r"(sa(dst)), "l"(src), "r"(n), "r"(sa(b)) : "memory");
}
// For each of n source offsets (stride bytes apart) copy 16 bytes reps times; out[i] = median-ish: min over reps 2..
__global__ void k_part(const uint8_t* g, size_t stride, int n, int reps, long long* out) {
  __shared__ __align__(128) uint8_t sm[128];
  __shared__ uint64_t bar;
  mb_init(&bar, 1);
  fence_async();
  uint32_t par = 0;
  for (int i = 0; i < n; i++) {
    long long best = 1 << 30;
    for (int r = 0; r < reps; r++) {
      const long long t0 = clk();
      mb_arrive_tx(&bar, 16);
      bulk(sm, g + i * stride, 16, &bar);
      mb_wait(&bar, par); par ^= 1;
      const long long t = clk() - t0;
      if (r > 0 && t < best) best = t;
    }
    out[i] = best;
  }
}
int main() {
  const int n = 256; const size_t stride = 4096 + 128;  // lines spread over 1 MiB, varying low address bits
  long long* d; CK(cudaMalloc(&d, n * sizeof(long long)));
  uint8_t* g; CK(cudaMalloc(&g, n * stride + 4096));
  CK(cudaMemset(g, 1, n * stride + 4096));
  k_part<<<1, 1>>>(g, stride, n, 4, d); CK(cudaDeviceSynchronize());
  std::vector<long long> h(n); CK(cudaMemcpy(h.data(), d, n * sizeof(long long), cudaMemcpyDeviceToHost));
  printf("offset,cycles\n");
  for (int i = 0; i < n; i++) printf("%zu,%lld\n", i * stride, h[i]);
  // same on another SM's view? run on block index 0 only; repeat once
  k_part<<<1, 1>>>(g, stride, n, 4, d); CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(h.data(), d, n * sizeof(long long), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) printf("again_%zu,%lld\n", i * stride, h[i]);
  return 0;
}
