// divcode.cu: the steps of a bulk-copy producer loop (issue.cu) run by one thread, once in uniform code (a block
// of one thread, no branch) and once in divergent code (a block of one warp, the loop under
// `if (threadIdx.x == 0)`, as pipeline.cu's and libpipe.cu's producers are). In divergent code ptxas cannot use the
// uniform datapath: barrier addresses go through per-thread registers and a cp.async.bulk whose operands are
// per-thread is issued in an ELECT / R2UR / UBLKCP / BRA.U.ANY loop. Each kernel is one variant; `iters` trips
// between two clock64 reads, out[0] = cycles. Copies are 16 bytes from L2 (a warm-up launch reads the source),
// completing on barriers whose arrival count (2^20 - 1) keeps their phase open until the end.
// Variants: 0 try_wait on a completed phase; 1 arrive.expect_tx(0); 2 cp.async.bulk (bytes expected up front);
// 3 arrive.expect_tx + cp.async.bulk; 4 try_wait + arrive.expect_tx + cp.async.bulk (a producer trip);
// 5 the same over a ring of four stages (barriers full[i & 3] / done[i & 3], source offset (16 i) mod 4096).
// Output CSV "bench,config,metric,median,min,max,runs" (timed3: a warm-up launch and three timed).
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o divcode divcode.cu
#include "bench.h"

template <int V>
__device__ __forceinline__ void body(const uint8_t* src, int iters, long long* out) {
  __shared__ __align__(128) uint8_t buf[4 * 16];
  __shared__ __align__(8) uint64_t done[4], open[4];
  const uint32_t MAXC = (1u << 20) - 1;
  for (int s = 0; s < 4; s++) { mb_init(&done[s], 1); mb_init(&open[s], MAXC); }
  fence_async();
  for (int s = 0; s < 4; s++) { mb_arrive(&done[s]); mb_wait(&done[s], 0); }
  if (V == 2) mb_expect_tx(&open[0], 16u * iters);
  const long long t0 = clk();
  for (int i = 0; i < iters; i++) {
    if (V == 0) mb_wait(&done[0], 0);
    if (V == 1) mb_arrive_tx(&open[0], 0);
    if (V == 2) bulk_g2s(buf, src, 16, &open[0]);
    if (V == 3) { mb_arrive_tx(&open[0], 16); bulk_g2s(buf, src, 16, &open[0]); }
    if (V == 4) { mb_wait(&done[0], 0); mb_arrive_tx(&open[0], 16); bulk_g2s(buf, src, 16, &open[0]); }
    if (V == 5) {
      const int s = i & 3;
      mb_wait(&done[s], 0); mb_arrive_tx(&open[s], 16); bulk_g2s(buf + 16 * s, src + ((16 * i) & 4095), 16, &open[s]);
    }
  }
  out[0] = clk() - t0;
  // Let every copy land before the block exits: complete each open barrier's phase and wait for it.
  for (int s = 0; s < 4; s++) {
    uint32_t arrived = 0;
    if (s == 0 && (V == 1 || V == 3 || V == 4)) arrived = iters;
    if (V == 5) arrived = iters / 4;
    mb_arrive_n(&open[s], MAXC - arrived);
    mb_wait(&open[s], 0);
  }
}

template <int V, bool DIV>
__global__ void k_dc(const uint8_t* src, int iters, long long* out) {
  if (DIV) {
    if (threadIdx.x == 0) body<V>(src, iters, out);
  } else {
    body<V>(src, iters, out);
  }
}

__global__ void k_spin(long long cycles, int* sink) {
  const long long s = clock64();
  while (clock64() - s < cycles) {}
  if (threadIdx.x == 0 && sink) sink[blockIdx.x] = 1;
}

template <int V> static void run(const char* name, const uint8_t* src, int iters, long long* dout) {
  char cfg[64];
  snprintf(cfg, sizeof cfg, "%s_uniform", name);
  timed3("divcode_steps", cfg, "cycles_per_trip", dout, iters, [&] { k_dc<V, false><<<1, 1>>>(src, iters, dout); });
  snprintf(cfg, sizeof cfg, "%s_divergent", name);
  timed3("divcode_steps", cfg, "cycles_per_trip", dout, iters, [&] { k_dc<V, true><<<1, 32>>>(src, iters, dout); });
}

int main() {
  const int iters = 256;
  long long* dout; CK(cudaMalloc(&dout, 8 * sizeof(long long)));
  uint8_t* src; CK(cudaMalloc(&src, 4096)); CK(cudaMemset(src, 0, 4096));
  int* sink; CK(cudaMalloc(&sink, 1024 * sizeof(int)));
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  k_spin<<<prop.multiProcessorCount, 32>>>(100000000LL, sink); CK(cudaDeviceSynchronize());
  printf("bench,config,metric,median,min,max,runs\n");
  run<0>("try_wait_done", src, iters, dout);
  run<1>("arrive_expect_tx", src, iters, dout);
  run<2>("bulk_copy_16B", src, iters, dout);
  run<3>("arrive_expect_tx_bulk_copy", src, iters, dout);
  run<4>("try_wait_done_arrive_expect_tx_bulk_copy", src, iters, dout);
  run<5>("ring4_try_wait_arrive_expect_tx_bulk_copy", src, iters, dout);
  return 0;
}
