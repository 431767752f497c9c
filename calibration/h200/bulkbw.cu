// bulkbw.cu: microbench.cu's bulk-copy bandwidth kernel (k_bulk_bw: one thread, batches of 64 KiB of `chunk`-byte
// cp.async.bulk copies on two alternating barriers, each batch waiting for the one two before it) and variants
// that take one thing away at a time, to see what a copy in a long stream costs:
//   MODE 0 (microbench): as k_bulk_bw, the source offset wrapping at src_bytes (a 64-bit compare and select);
//   MODE 1 (nowait):     no waits in the stream: each barrier armed once for all its batches, waited at the end;
//   MODE 2 (slots8):     as 0, the destinations eight chunk slots instead of two 64 KiB batches;
//   MODE 3 (nowrap):     as 0, the source offset never wraps (no compare/select; the stream reads fresh memory).
// Row "bulkbw,MODE_chunkC_batchesB,cycles_per_copy": (clock after the last wait - clock before the first copy)
// / (B * 64 KiB / C), median of 3 launches after a warm-up launch, all after a 100M-cycle spin on every SM.
// Rows "MODE_chunkC_kK_batchesB" run batches of K copies instead of 64 KiB / C (the per-batch work is amortised
// over K copies, whatever their size): / (B * K).
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o bulkbw bulkbw.cu
#include "bench.h"

template <int MODE>
__global__ void k_bw(const uint8_t* src, size_t src_bytes, uint32_t chunk, int k, int batches, long long* out) {
  extern __shared__ __align__(1024) uint8_t sm[];
  __shared__ uint64_t bar[2];
  mb_init(&bar[0], 1); mb_init(&bar[1], 1); fence_async();
  uint32_t par[2] = {0, 0}; size_t off = 0; const uint32_t batch = chunk * k;
  long long t0 = clk();
  for (int b = 0; b < batches; b++) {
    const int s = b & 1;
    if (MODE != 1 && b >= 2) { mb_wait(&bar[s], par[s]); par[s] ^= 1; }
    if (MODE != 1 || b < 2) mb_arrive_tx(&bar[s], MODE == 1 ? batch * ((batches + 1 - s) / 2) : batch);
    for (int j = 0; j < k; j++) {
      uint8_t* dst = MODE == 2 ? sm + (j & 7) * chunk : sm + s * batch + j * chunk;
      bulk_g2s(dst, src + off, chunk, &bar[s]);
      off += chunk;
      if (MODE != 3) { if (off + chunk > src_bytes) off = 0; }
    }
  }
  if (MODE == 1) { mb_wait(&bar[0], 0); if (batches > 1) mb_wait(&bar[1], 0); }
  else for (int b = batches; b < batches + 2; b++) { const int s = b & 1; if (b >= 2) { mb_wait(&bar[s], par[s]); par[s] ^= 1; } }
  long long t1 = clk();
  out[0] = t1 - t0;
}

__global__ void k_spin(long long cycles, int* sink) {
  const long long s = clock64();
  while (clock64() - s < cycles) {}
  if (threadIdx.x == 0 && sink) sink[blockIdx.x] = 1;
}

static const char* names[4] = {"microbench", "nowait", "slots8", "nowrap"};

template <int MODE> void run(const uint8_t* src, long long* dout, uint32_t chunk, int batches, int kk = 0) {
  CK(cudaFuncSetAttribute(k_bw<MODE>, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 << 10));
  const int k = kk ? kk : (64 << 10) / chunk;
  const size_t span = MODE == 3 ? (size_t)batches * k * chunk + chunk : (2u << 20);
  std::vector<double> v;
  for (int r = 0; r <= 3; r++) {
    k_bw<MODE><<<1, 1, 2 * k * chunk>>>(src, span, chunk, k, batches, dout);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    long long h; CK(cudaMemcpy(&h, dout, sizeof h, cudaMemcpyDeviceToHost));
    if (r) v.push_back((double)h / ((double)batches * k));
  }
  std::sort(v.begin(), v.end());
  char kname[16] = "";
  if (kk) snprintf(kname, sizeof kname, "_k%d", kk);
  printf("bulkbw,%s_chunk%u%s_batches%d,cycles_per_copy,%.2f,%.2f,%.2f,3\n", names[MODE], chunk, kname, batches, v[1], v[0],
         v[2]);
}

int main() {
  uint8_t* src; long long* dout; int* sink;
  CK(cudaMalloc(&src, 900 << 20)); CK(cudaMemset(src, 0x3f, 900 << 20));
  CK(cudaMalloc(&dout, 8)); CK(cudaMalloc(&sink, 1024 * sizeof(int)));
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  k_spin<<<prop.multiProcessorCount, 32>>>(100000000LL, sink); CK(cudaDeviceSynchronize());
  printf("bench,config,metric,median,min,max,runs\n");
  for (uint32_t chunk : {1024u, 4096u, 16384u}) {
    run<0>(src, dout, chunk, 200); run<1>(src, dout, chunk, 16); run<2>(src, dout, chunk, 200);
    run<3>(src, dout, chunk, 200);
  }
  // How the cost of a copy grows with the stream's length (no waits in the stream).
  for (uint32_t chunk : {1024u, 4096u})
    for (int batches : {1, 2, 4, 8, 16}) run<1>(src, dout, chunk, batches);
  // Batches of K copies at one size, and 64 KiB batches of other sizes: is the 4 KiB copy's extra cost over a
  // 1 KiB one its size, or the batch's own work spread over 16 copies instead of 64?
  const struct { uint32_t chunk; int k; } kc[] = {{1024, 16}, {1024, 4}, {4096, 4}, {512, 128},
                                                  {2048, 32}, {8192, 8}};
  for (auto c : kc) {
    const bool dflt = c.k == (int)((64u << 10) / c.chunk);
    run<3>(src, dout, c.chunk, 200, dflt ? 0 : c.k);
    run<1>(src, dout, c.chunk, 16, dflt ? 0 : c.k);
    if (dflt) run<0>(src, dout, c.chunk, 200);
  }
  return 0;
}
