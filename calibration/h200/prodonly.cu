// prodonly.cu: pipeline.cu's producer loop alone, with consumers that take no time: the producer waits for the
// copy of the tile that last used the stage (full[s], parity of that use; long complete) instead of for the
// consumers' empty[s], then arrive.expect_tx(chunk) on full[s] and cp.async.bulk of `chunk` bytes from
// src + (t * chunk) % span, exactly as pipe_bench's producer. One warp, lane 0 works (as in pipe_bench).
// MODE 0 as pipe_bench (64-bit remainder); MODE 1 the offset as (t * chunk) & (span - 1) (span a power of two);
// MODE 2 a 32-bit remainder ((t * chunk) % span in uint32_t); MODE 3 the masked offset read back from shared
// memory (a value ptxas must hold in a vector register); MODE 4 the mask plus a 64-bit remainder that never runs
// (under `if (warm < 0)`, a run-time test: a subroutine call in the loop that is never taken); MODE 5 the 32-bit remainder plus the same.
// Tiles 0..warm-1 warm up; out[0] = cycles from tile `warm` to the end; a row is out[0] / tiles.
// Output CSV "bench,config,metric,median,min,max,runs" (timed3: a warm-up launch, which also puts src in L2,
// and three timed).
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o prodonly prodonly.cu
#include "bench.h"

template <int MODE>
__global__ void k_prod(const uint8_t* __restrict__ src, uint32_t span, uint32_t chunk, int stages, int tiles, int warm,
                       long long* out) {
  extern __shared__ __align__(128) uint8_t sm[];
  __shared__ __align__(8) uint64_t full[4];
  __shared__ volatile uint32_t offs[1];
  if (threadIdx.x == 0) {
    for (int s = 0; s < stages; s++) mb_init(&full[s], 1);
    fence_async();
  }
  __syncwarp();
  const int lane = threadIdx.x & 31;
  if (lane == 0) {
    const int total = warm + tiles;
    int s = 0; uint32_t ph = 1;  // parity of the stage's previous use; the first round passes at once
    long long t0 = 0;
    for (int t = 0; t < total; t++) {
      if (t == warm) t0 = clock64();
      if (t >= stages) mb_wait(&full[s], ph);
      mb_arrive_tx(&full[s], chunk);
      uint32_t off;
      if (MODE == 0) off = (uint32_t)(((unsigned long long)t * chunk) % span);
      else if (MODE == 1) off = (t * chunk) & (span - 1);
      else if (MODE == 2) off = ((uint32_t)t * chunk) % span;
      else if (MODE == 3) { offs[0] = (t * chunk) & (span - 1); off = offs[0]; }
      else if (MODE == 4) off = warm < 0 ? (uint32_t)(((unsigned long long)t * chunk) % span) : (t * chunk) & (span - 1);
      else off = warm < 0 ? (uint32_t)(((unsigned long long)t * chunk) % span) : ((uint32_t)t * chunk) % span;
      bulk_g2s(sm + s * chunk, src + off, chunk, &full[s]);
      if (++s == stages) { s = 0; ph ^= 1; }
    }
    const long long t1 = clock64();
    out[0] = t1 - t0;
    // let the last copies land before exit
    for (int k = 0; k < stages; k++) { mb_wait(&full[s], ph); if (++s == stages) { s = 0; ph ^= 1; } }
  }
  __syncwarp();
}

int main() {
  long long* dout; CK(cudaMalloc(&dout, 8 * sizeof(long long)));
  const uint32_t span = 262144;
  uint8_t* src; CK(cudaMalloc(&src, span)); CK(cudaMemset(src, 0, span));
  CK(cudaFuncSetAttribute(k_prod<0>, cudaFuncAttributeMaxDynamicSharedMemorySize, 4 * 16384));
  CK(cudaFuncSetAttribute(k_prod<1>, cudaFuncAttributeMaxDynamicSharedMemorySize, 4 * 16384));
  CK(cudaFuncSetAttribute(k_prod<2>, cudaFuncAttributeMaxDynamicSharedMemorySize, 4 * 16384));
  CK(cudaFuncSetAttribute(k_prod<3>, cudaFuncAttributeMaxDynamicSharedMemorySize, 4 * 16384));
  CK(cudaFuncSetAttribute(k_prod<4>, cudaFuncAttributeMaxDynamicSharedMemorySize, 4 * 16384));
  CK(cudaFuncSetAttribute(k_prod<5>, cudaFuncAttributeMaxDynamicSharedMemorySize, 4 * 16384));
  printf("bench,config,metric,median,min,max,runs\n");
  const int tiles = 64, warm = 8;
  for (uint32_t chunk : {4096u, 16384u})
    for (int S : {2, 4}) {
      char cfg[64];
      snprintf(cfg, sizeof cfg, "rem_chunk%u_stages%d", chunk, S);
      timed3("producer_only", cfg, "cycles_per_tile", dout, tiles, [&] { k_prod<0><<<1, 32, S * chunk>>>(src, span, chunk, S, tiles, warm, dout); });
      snprintf(cfg, sizeof cfg, "mask_chunk%u_stages%d", chunk, S);
      timed3("producer_only", cfg, "cycles_per_tile", dout, tiles, [&] { k_prod<1><<<1, 32, S * chunk>>>(src, span, chunk, S, tiles, warm, dout); });
      snprintf(cfg, sizeof cfg, "rem32_chunk%u_stages%d", chunk, S);
      timed3("producer_only", cfg, "cycles_per_tile", dout, tiles, [&] { k_prod<2><<<1, 32, S * chunk>>>(src, span, chunk, S, tiles, warm, dout); });
      snprintf(cfg, sizeof cfg, "smem_chunk%u_stages%d", chunk, S);
      timed3("producer_only", cfg, "cycles_per_tile", dout, tiles, [&] { k_prod<3><<<1, 32, S * chunk>>>(src, span, chunk, S, tiles, warm, dout); });
      snprintf(cfg, sizeof cfg, "mask_call_chunk%u_stages%d", chunk, S);
      timed3("producer_only", cfg, "cycles_per_tile", dout, tiles, [&] { k_prod<4><<<1, 32, S * chunk>>>(src, span, chunk, S, tiles, warm, dout); });
      snprintf(cfg, sizeof cfg, "rem32_call_chunk%u_stages%d", chunk, S);
      timed3("producer_only", cfg, "cycles_per_tile", dout, tiles, [&] { k_prod<5><<<1, 32, S * chunk>>>(src, span, chunk, S, tiles, warm, dout); });
    }
  return 0;
}
