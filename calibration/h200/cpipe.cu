// cpipe.cu: the CUDA Programming Guide's multi-stage pipelines with cuda::pipeline (libcu++), timed on one block.
// k_unified<S>: every thread produces and consumes: producer_acquire, a block-wide cuda::memcpy_async of the tile
//   (blockDim ints), producer_commit; then consumer_wait, each thread sums its int of the oldest stage, consumer_release.
// k_part<S>: partitioned roles: warp 0 produces (each lane copies int4s of the tile with cuda::memcpy_async,
//   cuda::aligned_size_t<16>), warps 1..C consume (each lane sums int4s of the stage).
// Held out of every fit of smsim.
// Rows: cpipe_unified,threads<T>_stages<S>,cycles_per_tile and cpipe_part,chunk<N>_consumers<C>_stages<S>,cycles_per_tile:
// thread 32's (unified: thread 0's) clock64 over `tiles` tiles after `warm` tiles; median of three launches after one.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o cpipe cpipe.cu
#include <cuda/pipeline>
#include <cooperative_groups.h>
#include "bench.h"
namespace cg = cooperative_groups;

template <int S> __global__ void k_unified(const int* __restrict__ src, int span, int tiles, int warm, long long* out) {
  extern __shared__ int smem_i[];
  auto block = cg::this_thread_block();
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, S> state;
  auto pipe = cuda::make_pipeline(block, &state);
  const int T = blockDim.x, total = tiles + warm;
  int fetch = 0, sum = 0;
  long long t0 = 0;
  for (int t = 0; t < total; t++) {
    for (; fetch < total && fetch < t + S; fetch++) {
      pipe.producer_acquire();
      cuda::memcpy_async(block, smem_i + (fetch % S) * T, src + ((size_t)fetch * T) % span, sizeof(int) * T, pipe);
      pipe.producer_commit();
    }
    if (t == warm) t0 = clock64();
    pipe.consumer_wait();
    sum += smem_i[(t % S) * T + threadIdx.x];
    pipe.consumer_release();
  }
  const long long t1 = clock64();
  if (threadIdx.x == 0) out[0] = t1 - t0;
  if (sum == 0x7fffffff) out[1] = sum;
}

template <int S> __global__ void k_part(const int4* __restrict__ src, int span4, int chunk4, int tiles, int warm, long long* out) {
  extern __shared__ int4 smem4[];
  auto block = cg::this_thread_block();
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, S> state;
  const bool producer = threadIdx.x < 32;
  auto pipe = cuda::make_pipeline(block, &state, producer ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer);
  const int total = tiles + warm, consumers = blockDim.x - 32;
  if (producer) {
    for (int t = 0; t < total; t++) {
      pipe.producer_acquire();
      int4* dst = smem4 + (t % S) * chunk4;
      const int4* from = src + ((size_t)t * chunk4) % span4;
      for (int i = threadIdx.x; i < chunk4; i += 32)
        cuda::memcpy_async(dst + i, from + i, cuda::aligned_size_t<16>(sizeof(int4)), pipe);
      pipe.producer_commit();
    }
  } else {
    int sum = 0;
    long long t0 = 0;
    for (int t = 0; t < total; t++) {
      if (t == warm) t0 = clock64();
      pipe.consumer_wait();
      const int4* st = smem4 + (t % S) * chunk4;
      for (int i = threadIdx.x - 32; i < chunk4; i += consumers) { const int4 v = st[i]; sum += v.x + v.y + v.z + v.w; }
      pipe.consumer_release();
    }
    const long long t1 = clock64();
    if (threadIdx.x == 32) out[0] = t1 - t0;
    if (sum == 0x7fffffff) out[1] = sum;
  }
}

int main() {
  long long* dout; CK(cudaMalloc(&dout, 8 * sizeof(long long)));
  const int span_bytes = 1 << 19;
  int* src; CK(cudaMalloc(&src, span_bytes)); CK(cudaMemset(src, 1, span_bytes));
  const int tiles = 64, warm = 8;
  printf("bench,config,metric,median,min,max,runs\n");
  for (int T : {128, 256}) {
    char cfg[64];
#define UNI(S) snprintf(cfg, sizeof cfg, "threads%d_stages%d", T, S); \
    timed3("cpipe_unified", cfg, "cycles_per_tile", dout, tiles, [&] { k_unified<S><<<1, T, S * T * 4>>>(src, span_bytes / 4, tiles, warm, dout); });
    UNI(1) UNI(2) UNI(4)
  }
  for (int chunk : {4096, 16384})
    for (int C : {1, 2, 4}) {
      char cfg[64];
#define PART(S) snprintf(cfg, sizeof cfg, "chunk%d_consumers%d_stages%d", chunk, C, S); \
      CK(cudaFuncSetAttribute(k_part<S>, cudaFuncAttributeMaxDynamicSharedMemorySize, S * chunk)); \
      timed3("cpipe_part", cfg, "cycles_per_tile", dout, tiles, [&] { k_part<S><<<1, 32 * (1 + C), S * chunk>>>((const int4*)src, span_bytes / 16, chunk / 16, tiles, warm, dout); });
      PART(1) PART(2) PART(4)
    }
  return 0;
}
