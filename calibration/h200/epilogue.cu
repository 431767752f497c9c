// epilogue.cu: a warp-specialised pipeline with a TMA-store epilogue, held out of every fit. Warp 0 lane 0
// produces: it waits on empty[s], arms full[s] with arrive.expect_tx and loads a CHUNK-byte tile with
// cp.async.bulk (the source in L2 after a warm-up launch; tile t at (t · CHUNK) mod 1 MiB). Warps 1..C consume: each waits on full[s], adds 1 to
// every 32-bit word of its share of the tile and writes the result into one of two output buffers, releases the
// slot (one arrive a warp on empty[s], init C), and, once every consumer thread has written and fenced
// (fence.proxy.async, then bar.sync 1 among the consumers), consumer thread 0 stores the buffer to global memory
// with cp.async.bulk.global.shared::cta.bulk_group and commits it. Before the consumers write a buffer again,
// thread 0 waits with cp.async.bulk.wait_group.read 1 for the store that last read it, then bar.sync 1.
// Consumer thread 0 times tiles warm .. warm + tiles - 1 (out[0]) and waits for every store at the end.
// Rows: epilogue,chunk<CHUNK>_consumers<C>_stages<S>,cycles_per_tile.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o epilogue epilogue.cu
#include "bench.h"
extern __shared__ __align__(128) uint8_t sm[];
__device__ __forceinline__ void bulk_s2g(void* dst, const void* src, uint32_t bytes) {
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" :: "l"(dst), "r"(sa(src)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void commit() { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }
__device__ __forceinline__ void wait_read1() { asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory"); }
__device__ __forceinline__ void wait_all0() { asm volatile("cp.async.bulk.wait_group 0;" ::: "memory"); }
__device__ __forceinline__ void consumers_sync(int n) { asm volatile("bar.sync 1, %0;" :: "r"(n) : "memory"); }

template <int S> __global__ void k_epi(const uint8_t* __restrict__ src, uint8_t* dst, uint32_t span, uint32_t chunk,
                                       int tiles, int warm, long long* out) {
  __shared__ __align__(8) uint64_t full[S], empty[S];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, C = (blockDim.x >> 5) - 1;
  uint8_t* in = sm;                 // S tiles
  uint8_t* obuf = sm + S * chunk;   // 2 output buffers
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; s++) { mb_init(&full[s], 1); mb_init(&empty[s], C); }
    fence_async();
  }
  __syncthreads();
  const int total = warm + tiles;
  if (warp == 0) {
    if (lane == 0) {
      int s = 0; uint32_t ph = 1;
      for (int t = 0; t < total; t++) {
        mb_wait(&empty[s], ph);
        mb_arrive_tx(&full[s], chunk);
        bulk_g2s(in + s * chunk, src + ((t * chunk) & (span - 1)), chunk, &full[s]);
        if (++s == S) { s = 0; ph ^= 1; }
      }
    }
    __syncwarp();
  } else {
    const int ct = threadIdx.x - 32, nthreads = C * 32;
    const uint32_t vecs = chunk / 16;
    int s = 0; uint32_t ph = 0;
    long long t0 = 0;
    for (int t = 0; t < total; t++) {
      if (t == warm) t0 = clock64();
      const int b = t & 1;
      if (ct == 0) wait_read1();
      consumers_sync(nthreads);
      mb_wait(&full[s], ph);
      const uint4* p = (const uint4*)(in + s * chunk);
      uint4* q = (uint4*)(obuf + b * chunk);
      for (uint32_t i = ct; i < vecs; i += nthreads) {
        uint4 v = p[i];
        v.x += 1; v.y += 1; v.z += 1; v.w += 1;
        q[i] = v;
      }
      __syncwarp();
      if (lane == 0) mb_arrive(&empty[s]);
      fence_async();
      consumers_sync(nthreads);
      if (ct == 0) { bulk_s2g(dst + ((t * chunk) & (span - 1)), obuf + b * chunk, chunk); commit(); }
      if (++s == S) { s = 0; ph ^= 1; }
    }
    if (ct == 0) { wait_all0(); out[0] = clock64() - t0; }
  }
}

int main() {
  const uint32_t span = 1u << 20;
  const int tiles = 64, warm = 8;
  uint8_t *src, *dst; long long* dout;
  CK(cudaMalloc(&src, span)); CK(cudaMalloc(&dst, span)); CK(cudaMalloc(&dout, 8 * sizeof(long long)));
  CK(cudaMemset(src, 1, span)); CK(cudaMemset(dst, 0, span));
  CK(cudaFuncSetAttribute(k_epi<2>, cudaFuncAttributeMaxDynamicSharedMemorySize, 6 * 16384));
  CK(cudaFuncSetAttribute(k_epi<4>, cudaFuncAttributeMaxDynamicSharedMemorySize, 6 * 16384));
  printf("bench,config,metric,median,min,max,runs\n");
  char cfg[64];
  for (uint32_t chunk : {4096u, 16384u}) {
    for (int c : {1, 2, 4}) {
      for (int st : {2, 4}) {
        snprintf(cfg, sizeof cfg, "chunk%u_consumers%d_stages%d", chunk, c, st);
        timed3("epilogue", cfg, "cycles_per_tile", dout, tiles, [&] {
          if (st == 2) k_epi<2><<<1, 32 * (1 + c), (2 + 2) * chunk>>>(src, dst, span, chunk, tiles, warm, dout);
          else k_epi<4><<<1, 32 * (1 + c), (4 + 2) * chunk>>>(src, dst, span, chunk, tiles, warm, dout);
        });
      }
    }
  }
  // One run with the output checked: every word of the last tiles is the source's plus one.
  std::vector<uint32_t> h(span / 4);
  CK(cudaMemcpy(h.data(), dst, span, cudaMemcpyDeviceToHost));
  long bad = 0;
  for (uint32_t i = 0; i < (uint32_t)((warm + tiles) * 16384u) / 4 && i < span / 4; i++) if (h[i] != 0x01010102u) bad++;
  fprintf(stderr, "epilogue: %ld words differ from the source plus one\n", bad);
  return 0;
}
