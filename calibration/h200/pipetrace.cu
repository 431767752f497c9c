// pipetrace.cu: the warp-specialised bulk-copy pipeline of pipeline.cu (pipe_bench), with every step of every
// tile time-stamped, so that a simulator can be compared step by step and not only by its cycles per tile.
// ONE thread block, as in pipeline.cu. Event k of tile t is ev[k * total + t] (clock64, SM cycles):
//   producer (warp 0 lane 0): 0 before waiting for empty[s], 1 after it, 2 after the arrive.expect_tx and the
//   cp.async.bulk were issued; first consumer (warp 1 lane 0): 3 before waiting for full[s], 4 after it,
//   5 after reading its share, 6 after the FMAs and __syncwarp, 7 after its arrive on empty[s]; last consumer
//   (warp C lane 0): 8 after waiting for full[s], 9 after its arrive on empty[s].
// The host prints, per configuration, the median over the timed tiles of the intervals in README.md
// ("pipetrace.cu") as CSV "bench,config,metric,median,min,max,runs" (median of the 3 runs' medians).
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o pipetrace pipetrace.cu
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <string>
#include <vector>

#include "bench.h"

extern "C" __global__ void pipe_trace(const uint8_t* __restrict__ src, uint32_t span, uint32_t chunk, int stages, int fma_iters,
                                      int total, long long* ev, long long* out) {
  extern __shared__ __align__(128) uint8_t sm[];
  __shared__ __align__(8) uint64_t full[4], empty[4];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, C = (blockDim.x >> 5) - 1;
  if (threadIdx.x == 0) {
    for (int s = 0; s < stages; s++) { mb_init(&full[s], 1); mb_init(&empty[s], C); }
    fence_async();
  }
  __syncthreads();
  if (warp == 0) {
    if (lane == 0) {
      int s = 0; uint32_t ph = 1;
      for (int t = 0; t < total; t++) {
        ev[0 * total + t] = clk();
        mb_wait(&empty[s], ph);
        ev[1 * total + t] = clk();
        mb_arrive_tx(&full[s], chunk);
        bulk_g2s(sm + s * chunk, src + (uint32_t)(((unsigned long long)t * chunk) % span), chunk, &full[s]);
        ev[2 * total + t] = clk();
        if (++s == stages) { s = 0; ph ^= 1; }
      }
    }
    __syncwarp();
  } else {
    const int cw = warp - 1;
    const bool first = cw == 0 && lane == 0, last = cw == C - 1 && lane == 0;
    const uint32_t vecs = chunk / 16;
    int s = 0; uint32_t ph = 0;
    uint32_t sum = 0;
    float acc = (float)lane;
    for (int t = 0; t < total; t++) {
      if (first) ev[3 * total + t] = clk();
      mb_wait(&full[s], ph);
      if (first) ev[4 * total + t] = clk();
      if (last) ev[8 * total + t] = clk();
      const uint4* p = (const uint4*)(sm + s * chunk);
      uint32_t part = 0;
      for (uint32_t i = cw * 32 + lane; i < vecs; i += C * 32) { const uint4 v = p[i]; part += v.x + v.y + v.z + v.w; }
      sum += part;
      if (first) ev[5 * total + t] = clk();
      const float x = (float)(part & 0xff);
#pragma unroll 4
      for (int f = 0; f < fma_iters; f++) acc = fmaf(acc, 1.0001f, x);
      __syncwarp();
      if (first) ev[6 * total + t] = clk();
      if (lane == 0) mb_arrive(&empty[s]);
      if (first) ev[7 * total + t] = clk();
      if (last) ev[9 * total + t] = clk();
      if (++s == stages) { s = 0; ph ^= 1; }
    }
    if (acc == -1.0f) out[1] = (long long)sum;
    if (lane == 0) out[2 + cw] = (long long)sum;
  }
}

__global__ void k_spin(long long cycles, int* sink) {
  const long long s = clock64();
  while (clock64() - s < cycles) {}
  if (threadIdx.x == 0 && sink) sink[blockIdx.x] = 1;
}

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int main() {
  const int RUNS = 3, warm = 8, tiles = 64, total = warm + tiles, NEV = 10;
  long long *dev, *dout; CK(cudaMalloc(&dev, NEV * total * sizeof(long long))); CK(cudaMalloc(&dout, 64 * sizeof(long long)));
  int* sink; CK(cudaMalloc(&sink, 1024 * sizeof(int)));
  std::vector<long long> h(NEV * total);
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  k_spin<<<prop.multiProcessorCount, 32>>>(100000000LL, sink); CK(cudaDeviceSynchronize());
  const uint32_t span = 256u << 10;
  uint8_t* src; CK(cudaMalloc(&src, span)); CK(cudaMemset(src, 0, span));
  CK(cudaFuncSetAttribute(pipe_trace, cudaFuncAttributeMaxDynamicSharedMemorySize, 4 * 16384));
  // Intervals: name, (event a, tile offset), (event b, tile offset) -> ev[b][t + ob] - ev[a][t + oa].
  struct Iv { const char* name; int a, oa, b, ob; };
  printf("bench,config,metric,median,min,max,runs\n");
  for (uint32_t chunk : {4096u, 16384u})
    for (int C : {1, 2, 4})
      for (int S : {1, 2, 4})
        for (int F : {0, 256}) {
          // the producer's wait for slot reuse: empty[s] of tile t completes with the last consumer's arrive for t - S
          const Iv ivs[] = {
              {"period", 2, 0, 2, 1},            {"producer_wait", 0, 0, 1, 0},   {"producer_issue", 1, 0, 2, 0},
              {"producer_loop", 2, 0, 0, 1},     {"issue_to_consumer", 2, 0, 4, 0}, {"consumer_wait", 3, 0, 4, 0},
              {"consumer_read", 4, 0, 5, 0},     {"consumer_fma_sync", 5, 0, 6, 0}, {"consumer_arrive", 6, 0, 7, 0},
              {"consumer_loop", 7, 0, 3, 1},     {"last_arrive_to_producer", 9, 0, 1, S}, {"first_to_last_consumer", 4, 0, 8, 0}};
          const int NIV = sizeof ivs / sizeof ivs[0];
          std::vector<std::vector<double>> meds(NIV);
          for (int r = 0; r <= RUNS; r++) {
            CK(cudaMemset(dev, 0, NEV * total * sizeof(long long)));
            pipe_trace<<<1, 32 * (1 + C), S * chunk>>>(src, span, chunk, S, F, total, dev, dout);
            CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(h.data(), dev, NEV * total * sizeof(long long), cudaMemcpyDeviceToHost));
            if (r == 0) continue;
            for (int k = 0; k < NIV; k++) {
              std::vector<double> v;
              for (int t = warm; t + std::max(ivs[k].oa, ivs[k].ob) < total; t++)
                v.push_back((double)(h[ivs[k].b * total + t + ivs[k].ob] - h[ivs[k].a * total + t + ivs[k].oa]));
              meds[k].push_back(median(v));
            }
          }
          for (int k = 0; k < NIV; k++) {
            std::vector<double> v = meds[k];
            std::sort(v.begin(), v.end());
            printf("pipe_trace,chunk%u_consumers%d_stages%d_fma%d,%s,%.1f,%.1f,%.1f,%d\n", chunk, C, S, F, ivs[k].name,
                   median(v), v.front(), v.back(), RUNS);
          }
        }
  return 0;
}
