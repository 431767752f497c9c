// membw.cu: how fast one SM's bulk-copy engine streams from L2 and from DRAM as a function of the bytes it keeps
// in flight (bulk_ring2: the same with register bookkeeping). Generalises microbench.cu's k_bulk_bw: a ring of NB slots, each a batch of k copies of `chunk` bytes
// on its own mbarrier; one thread issues batch b after batch b - NB has completed, so at most NB * k * chunk bytes
// are in flight. ONE thread block of one thread. out[0] = cycles for `batches` batches (after the ring drains).
// dram: the source walks 256 MiB sequentially after an L2 flush; l2: it walks 2 MiB that one untimed launch
// brought into L2. Output CSV "bench,config,metric,median,min,max,runs": bytes per cycle over 3 runs.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o membw membw.cu
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <vector>

#include "bench.h"

extern "C" __global__ void bulk_ring(const uint8_t* src, unsigned long long span, uint32_t chunk, int k, int nb, int batches,
                                     long long* out) {
  extern __shared__ __align__(1024) uint8_t sm[];
  __shared__ __align__(8) uint64_t bar[8];
  for (int s = 0; s < nb; s++) mb_init(&bar[s], 1);
  fence_async();
  uint32_t par[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  unsigned long long off = 0;
  const uint32_t batch = chunk * k;
  const long long t0 = clk();
  for (int b = 0; b < batches + nb; b++) {
    const int s = b % nb;
    if (b >= nb) { mb_wait(&bar[s], par[s]); par[s] ^= 1; }
    if (b >= batches) continue;
    mb_arrive_tx(&bar[s], batch);
    for (int j = 0; j < k; j++) {
      bulk_g2s(sm + s * batch + j * chunk, src + off, chunk, &bar[s]);
      off += chunk;
      if (off + chunk > span) off = 0;
    }
  }
  out[0] = clk() - t0;
}

// bulk_ring2: the same ring with its bookkeeping kept in registers: the slot index counts up and wraps (no
// remainder), and the phase parities are bits of one word (no per-thread array, hence no local memory).
extern "C" __global__ void bulk_ring2(const uint8_t* src, unsigned long long span, uint32_t chunk, int k, int nb, int batches,
                                      long long* out) {
  extern __shared__ __align__(1024) uint8_t sm[];
  __shared__ __align__(8) uint64_t bar[8];
  for (int s = 0; s < nb; s++) mb_init(&bar[s], 1);
  fence_async();
  uint32_t par = 0;
  unsigned long long off = 0;
  const uint32_t batch = chunk * k;
  const long long t0 = clk();
  int s = 0;
  for (int b = 0; b < batches + nb; b++) {
    if (b >= nb) { mb_wait(&bar[s], (par >> s) & 1); par ^= 1u << s; }
    if (b < batches) {
      mb_arrive_tx(&bar[s], batch);
      for (int j = 0; j < k; j++) {
        bulk_g2s(sm + s * batch + j * chunk, src + off, chunk, &bar[s]);
        off += chunk;
        if (off + chunk > span) off = 0;
      }
    }
    if (++s == nb) s = 0;
  }
  out[0] = clk() - t0;
}

__global__ void k_spin(long long cycles, int* sink) {
  const long long s = clock64();
  while (clock64() - s < cycles) {}
  if (threadIdx.x == 0 && sink) sink[blockIdx.x] = 1;
}

int main() {
  const int RUNS = 3;
  long long* dout; CK(cudaMalloc(&dout, 8 * sizeof(long long)));
  int* sink; CK(cudaMalloc(&sink, 1024 * sizeof(int)));
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  const size_t src_bytes = 256u << 20, scratch_bytes = 512u << 20;
  uint8_t *src, *scratch; CK(cudaMalloc(&src, src_bytes)); CK(cudaMalloc(&scratch, scratch_bytes));
  CK(cudaMemset(src, 0, src_bytes));
  CK(cudaFuncSetAttribute(bulk_ring, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 << 10));
  CK(cudaFuncSetAttribute(bulk_ring2, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 << 10));
  k_spin<<<prop.multiProcessorCount, 32>>>(100000000LL, sink); CK(cudaDeviceSynchronize());
  printf("bench,config,metric,median,min,max,runs\n");
  struct Cfg { uint32_t chunk; int k, nb; };
  const Cfg cfgs[] = {{16384, 1, 1}, {16384, 1, 2}, {16384, 1, 4}, {16384, 1, 8}, {16384, 2, 2}, {16384, 2, 4},
                      {16384, 4, 1}, {16384, 4, 2}, {16384, 4, 3}, {4096, 4, 2}, {4096, 16, 1}, {4096, 16, 2},
                      {65536, 1, 1}, {65536, 1, 2}, {65536, 1, 3}, {32768, 2, 2}, {32768, 1, 4}};
  long long h = 0;
  for (int kern = 0; kern < 2; kern++)
  for (const Cfg& c : cfgs)
    for (int l2 = 0; l2 < 2; l2++) {
      const unsigned long long span = l2 ? (2u << 20) : src_bytes;
      const int batches = std::max(16, (int)((12u << 20) / (c.chunk * c.k)));  // 12 MiB per run
      std::vector<double> v;
      for (int r = 0; r <= RUNS; r++) {
        if (!l2) { CK(cudaMemset(scratch, 1, scratch_bytes)); CK(cudaDeviceSynchronize()); }
        (kern ? bulk_ring2 : bulk_ring)<<<1, 1, c.nb * c.k * c.chunk>>>(src, span, c.chunk, c.k, c.nb, l2 ? batches / 4 : batches, dout);
        CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(&h, dout, sizeof h, cudaMemcpyDeviceToHost));
        if (r > 0) v.push_back((double)(l2 ? batches / 4 : batches) * c.k * c.chunk / h);
      }
      std::sort(v.begin(), v.end());
      printf("%s,chunk%u_k%d_slots%d_inflight%uKiB_%s,bytes_per_cycle,%.2f,%.2f,%.2f,%d\n", kern ? "bulk_ring2" : "bulk_ring", c.chunk, c.k, c.nb,
             c.nb * c.k * c.chunk >> 10, l2 ? "l2" : "dram", v[1], v[0], v[2], RUNS);
    }
  return 0;
}
