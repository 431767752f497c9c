// libpipe.cu: a warp-specialised, multi-stage bulk-copy pipeline written only with the CUDA toolkit's library
// barrier code — cuda::barrier<thread_scope_block> (arrive / wait with tokens), cuda::device::barrier_arrive_tx,
// cuda::device::experimental::cp_async_bulk_global_to_shared and fence_proxy_async_shared_cta — so that its PTX is
// what libcu++'s headers generate, not hand-written inline PTX. Held out: smsim's parameters were not fitted to it.
//
// Warp 0 lane 0 produces: for tile t into stage s = t % S it first waits until every consumer thread has released
// the stage (its own arrival on empty[s] plus theirs), then copies `chunk` bytes and arrives on full[s] with the
// byte count. Consumer threads (warps 1..C) arrive on full[s] and wait, sum the tile's words, and arrive on
// empty[s]. Consumer thread 0 (threadIdx.x == 32) times tiles warm .. warm + tiles - 1:
// out[0] = clock64 after the last tile - clock64 before waiting for tile `warm`.
// Rows: lib_pipeline,chunkN_consumersC_stagesS,cycles_per_tile (median of three launches after a warm-up one).
#include "bench.h"
#include <cuda/barrier>
#include <cuda/std/utility>
#include <vector>

using block_barrier = cuda::barrier<cuda::thread_scope_block>;
namespace cde = cuda::device::experimental;

template <int S>
__global__ void k_libpipe(const uint8_t* __restrict__ src, uint32_t span, uint32_t chunk, int tiles, int warm,
                          long long* out) {
  extern __shared__ __align__(128) uint8_t sm[];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ block_barrier full[S], empty[S];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int consumers = blockDim.x - 32;
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; s++) {
      init(&full[s], 1 + consumers);
      init(&empty[s], 1 + consumers);
    }
    cde::fence_proxy_async_shared_cta();
  }
  __syncthreads();
  const int total = warm + tiles;
  if (warp == 0) {
    if (lane == 0) {
      for (int t = 0; t < total; t++) {
        const int s = t % S;
        if (t >= S) {
          block_barrier::arrival_token tok = empty[s].arrive();
          empty[s].wait(cuda::std::move(tok));
        }
        cde::cp_async_bulk_global_to_shared(sm + s * chunk, src + ((size_t)t * chunk) % span, chunk, full[s]);
        block_barrier::arrival_token tok = cuda::device::barrier_arrive_tx(full[s], 1, chunk);
        (void)tok;
      }
    }
    return;
  }
  uint32_t sum = 0;
  long long t0 = 0;
  for (int t = 0; t < total; t++) {
    const int s = t % S;
    if (t == warm) t0 = clock64();
    block_barrier::arrival_token tok = full[s].arrive();
    full[s].wait(cuda::std::move(tok));
    const uint4* p = reinterpret_cast<const uint4*>(sm + s * chunk);
    for (int i = threadIdx.x - 32; i < (int)(chunk / 16); i += consumers) {
      const uint4 v = p[i];
      sum += v.x + v.y + v.z + v.w;
    }
    block_barrier::arrival_token done = empty[s].arrive();
    (void)done;
  }
  const long long t1 = clock64();
  if (threadIdx.x == 32) out[0] = t1 - t0;
  if (sum == 0xffffffffu) out[1] = sum;
}

__global__ void k_spin(long long cycles, int* sink) {
  const long long s = clock64();
  while (clock64() - s < cycles) {}
  if (threadIdx.x == 0 && sink) sink[blockIdx.x] = 1;
}

template <int S> static void run(const uint8_t* src, uint32_t span, uint32_t chunk, int consumers, long long* dout) {
  const int tiles = 64, warm = 8;
  const size_t smem = (size_t)S * chunk;
  CK(cudaFuncSetAttribute(k_libpipe<S>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
  char cfg[64];
  snprintf(cfg, sizeof cfg, "chunk%u_consumers%d_stages%d", chunk, consumers, S);
  timed3("lib_pipeline", cfg, "cycles_per_tile", dout, tiles, [&] {
    k_libpipe<S><<<1, 32 * (1 + consumers), smem>>>(src, span, chunk, tiles, warm, dout);
  });
}

int main() {
  long long* dout;
  CK(cudaMalloc(&dout, 8 * sizeof(long long)));
  int* sink;
  CK(cudaMalloc(&sink, 1024 * sizeof(int)));
  const uint32_t span = 262144;
  uint8_t* src;
  CK(cudaMalloc(&src, span));
  std::vector<uint8_t> h(span);
  for (uint32_t i = 0; i < span; i++) h[i] = (uint8_t)(i * 7 + 1);
  CK(cudaMemcpy(src, h.data(), span, cudaMemcpyHostToDevice));
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  k_spin<<<prop.multiProcessorCount, 32>>>(100000000LL, sink);
  CK(cudaDeviceSynchronize());
  printf("bench,config,metric,median,min,max,runs\n");
  for (uint32_t chunk : {4096u, 16384u}) {
    for (int c : {1, 2, 4}) {
      run<1>(src, span, chunk, c, dout);
      run<2>(src, span, chunk, c, dout);
      run<4>(src, span, chunk, c, dout);
    }
  }
  return 0;
}
