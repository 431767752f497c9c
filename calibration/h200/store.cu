// store.cu: bulk stores from shared to global memory (cp.async.bulk.global.shared::cta.bulk_group), the
// epilogue path of a TMA pipeline, held out of every fit. One thread issues `reps` stores of SIZE bytes from a
// ring of DEPTH shared buffers to consecutive places of a global buffer (the same span every launch: in L2),
// committing each as its own bulk group, and before reusing a buffer waits until at most DEPTH - 1 groups are
// pending: MODE 0 with `cp.async.bulk.wait_group.read` (the source read, so the buffer may be written again),
// MODE 1 with `cp.async.bulk.wait_group` (the writes done). A last wait_group 0 (of the same kind) ends the timed
// loop. out[0] = clock64 after - before; rows: store_stream,<read|write>_size<S>_depth<D>,cycles_per_store.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o store store.cu
#include "bench.h"
extern __shared__ __align__(128) uint8_t sbuf[];
__device__ __forceinline__ void bulk_s2g(void* dst, const void* src, uint32_t bytes) {
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" :: "l"(dst), "r"(sa(src)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void commit() { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }
template <int N> __device__ __forceinline__ void wait_read() { asm volatile("cp.async.bulk.wait_group.read %0;" :: "n"(N) : "memory"); }
template <int N> __device__ __forceinline__ void wait_all() { asm volatile("cp.async.bulk.wait_group %0;" :: "n"(N) : "memory"); }

template <int MODE, int DEPTH> __global__ void k_store(uint8_t* dst, uint32_t span, uint32_t size, int reps, long long* out) {
  for (uint32_t i = threadIdx.x; i < size * DEPTH; i += blockDim.x) sbuf[i] = (uint8_t)i;
  fence_async();
  __syncthreads();
  if (threadIdx.x != 0) return;
  uint32_t off = 0;
  long long t0 = clk();
  for (int r = 0; r < reps; r++) {
    bulk_s2g(dst + off, sbuf + (r % DEPTH) * size, size);
    commit();
    if (MODE == 0) wait_read<DEPTH - 1>(); else wait_all<DEPTH - 1>();
    off += size;
    if (off + size > span) off = 0;
  }
  if (MODE == 0) wait_read<0>(); else wait_all<0>();
  long long t1 = clk();
  out[0] = t1 - t0;
}

int main() {
  const uint32_t span = 8u << 20;
  const int reps = 256;
  uint8_t* dst; long long* dout;
  CK(cudaMalloc(&dst, span)); CK(cudaMalloc(&dout, 8 * sizeof(long long)));
  CK(cudaMemset(dst, 0, span));
  CK(cudaFuncSetAttribute(k_store<0, 4>, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536));
  CK(cudaFuncSetAttribute(k_store<1, 4>, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536));
  CK(cudaFuncSetAttribute(k_store<0, 2>, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536));
  CK(cudaFuncSetAttribute(k_store<1, 2>, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536));
  CK(cudaFuncSetAttribute(k_store<0, 1>, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536));
  CK(cudaFuncSetAttribute(k_store<1, 1>, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536));
  printf("bench,config,metric,median,min,max,runs\n");
  char cfg[64];
  for (int mode = 0; mode < 2; mode++) {
    for (uint32_t size : {256u, 1024u, 4096u, 16384u}) {
#define RUN(D)                                                                                              \
  snprintf(cfg, sizeof cfg, "%s_size%u_depth%d", mode == 0 ? "read" : "write", size, D);                 \
  timed3("store_stream", cfg, "cycles_per_store", dout, reps, [&] {                                         \
    if (mode == 0) k_store<0, D><<<1, 128, size * D>>>(dst, span, size, reps, dout);                       \
    else k_store<1, D><<<1, 128, size * D>>>(dst, span, size, reps, dout);                                \
  });
      RUN(1) RUN(2) RUN(4)
    }
  }
  return 0;
}
