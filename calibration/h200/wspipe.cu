// wspipe.cu: a warp-specialised TMA pipeline written in CUTLASS's idioms, held out of every fit of smsim. ONE
// thread block of 1 + C warps. Warp 0 is the producer: the thread elect.sync picks waits until a stage is empty,
// arms its full barrier with arrive.expect_tx and loads a 2-D fp16 box into it with cp.async.bulk.tensor. Warps
// 1..C are consumers: each waits until the stage is full, reads WORK elements of the box per lane from shared
// memory and sums them, then the lane elect.sync picks arrives on the stage's empty barrier. Every wait is
// CUTLASS's ClusterBarrier::wait: a try_wait.parity loop with its suspend-time hint 0x989680. full[s] counts
// 1 arrival plus the box's bytes, empty[s] C arrivals.
// ws_pipeline,box<W>x<H>_stages<S>_consumers<C>_work<WORK>,cycles_per_tile: consumer warp 1's clock64 after
// its last tile minus before its first, over `tiles` tiles (the 64 boxes of a 512x512 fp16 tensor, in order,
// again and again); median of three launches after a warm-up launch (the tensor is in L2).
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o wspipe wspipe.cu -lcuda
#include <cuda.h>
#include "bench.h"

__device__ __forceinline__ bool elect_one() {
  uint32_t pred;
  asm volatile("{\n\t.reg .pred p;\n\t.reg .b32 r;\n\telect.sync r|p, 0xffffffff;\n\tselp.u32 %0, 1, 0, p;\n\t}"
               : "=r"(pred) :: "memory");
  return pred != 0;
}

// CUTLASS's ClusterBarrier::wait (cutlass/barrier.h): try_wait.parity with a suspend-time hint, in a loop.
__device__ __forceinline__ void wait_hint(uint64_t* b, uint32_t phase) {
  asm volatile("{\n\t.reg .pred P1;\n\tLAB_WAIT:\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1, %2;\n\t"
               "@P1 bra DONE;\n\tbra LAB_WAIT;\n\tDONE:\n\t}"
               :: "r"(sa(b)), "r"(phase), "r"(0x989680) : "memory");
}

// CUTLASS's ClusterBarrier::arrive and ClusterTransactionBarrier::arrive_and_expect_tx.
__device__ __forceinline__ void arrive(uint64_t* b) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(sa(b)) : "memory");
}
__device__ __forceinline__ void arrive_tx(uint64_t* b, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(sa(b)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void tma2d(void* dst, const CUtensorMap* map, int x, int y, uint64_t* b) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
               :: "r"(sa(dst)), "l"((uint64_t)map), "r"(x), "r"(y), "r"(sa(b)) : "memory");
}

template <int S> __global__ void k_ws(const __grid_constant__ CUtensorMap map, int tiles, int boxw, int boxh, int work,
                                      long long* out) {
  extern __shared__ __align__(128) uint8_t smem[];
  __shared__ uint64_t full[S], empty[S];
  const int warp = threadIdx.x / 32, lane = threadIdx.x & 31, C = blockDim.x / 32 - 1;
  const uint32_t bytes = boxw * boxh * 2;
  const int tilesX = 512 / boxw, boxes = tilesX * (512 / boxh);
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; s++) { mb_init(&full[s], 1); mb_init(&empty[s], C); }
    fence_async();
  }
  __syncthreads();
  if (warp == 0) {
    if (elect_one()) {
      for (int t = 0; t < tiles; t++) {
        const int s = t % S, k = t / S, b = t % boxes;
        if (t >= S) wait_hint(&empty[s], (k - 1) & 1);
        arrive_tx(&full[s], bytes);
        tma2d(smem + s * bytes, &map, (b % tilesX) * boxw, (b / tilesX) * boxh, &full[s]);
      }
    }
  } else {
    float acc = 0.f;
    const long long t0 = clk();
    for (int t = 0; t < tiles; t++) {
      const int s = t % S, k = t / S;
      wait_hint(&full[s], k & 1);
      const uint16_t* tile = reinterpret_cast<const uint16_t*>(smem + s * bytes);
      for (int j = 0; j < work; j++) acc += (float)tile[lane + 32 * j];
      __syncwarp();
      if (elect_one()) arrive(&empty[s]);
    }
    const long long t1 = clk();
    if (warp == 1 && lane == 0) { out[0] = t1 - t0; out[1] = (long long)acc; }
  }
}

__global__ void k_spin(long long cycles, int* sink) {
  const long long s = clock64();
  while (clock64() - s < cycles) {}
  if (threadIdx.x == 0 && sink) sink[blockIdx.x] = 1;
}

template <int S> static void run(const CUtensorMap& map, int boxw, int boxh, int C, int work, long long* dout) {
  const int tiles = 256;
  const int smem = S * boxw * boxh * 2;
  CK(cudaFuncSetAttribute(k_ws<S>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  char cfg[96];
  snprintf(cfg, sizeof cfg, "box%dx%d_stages%d_consumers%d_work%d", boxw, boxh, S, C, work);
  timed3("ws_pipeline", cfg, "cycles_per_tile", dout, tiles,
         [&] { k_ws<S><<<1, 32 * (1 + C), smem>>>(map, tiles, boxw, boxh, work, dout); });
}

int main() {
  long long* dout; CK(cudaMalloc(&dout, 64 * sizeof(long long)));
  int* sink; CK(cudaMalloc(&sink, 1024 * sizeof(int)));
  const uint64_t W = 512, H = 512;  // fp16, 512 KiB
  uint16_t* g; CK(cudaMalloc(&g, W * H * 2));
  {
    std::vector<uint16_t> h(W * H);
    for (size_t i = 0; i < h.size(); i++) h[i] = (uint16_t)(i & 7);
    CK(cudaMemcpy(g, h.data(), h.size() * 2, cudaMemcpyHostToDevice));
  }
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  k_spin<<<prop.multiProcessorCount, 32>>>(100000000LL, sink); CK(cudaDeviceSynchronize());
  printf("bench,config,metric,median,min,max,runs\n");
  for (auto box : std::vector<std::pair<int, int>>{{64, 64}, {64, 128}}) {
    CUtensorMap map; cuuint64_t gdim[2] = {W, H}; cuuint64_t gstride[1] = {W * 2};
    cuuint32_t bdim[2] = {(cuuint32_t)box.first, (cuuint32_t)box.second}; cuuint32_t es[2] = {1, 1};
    CUresult r = cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, g, gdim, gstride, bdim, es,
        CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) { fprintf(stderr, "tensor map encode failed %d\n", (int)r); return 1; }
    for (int C : {1, 2, 4})
      for (int work : {16, 128}) {
        run<2>(map, box.first, box.second, C, work, dout);
        run<4>(map, box.first, box.second, C, work, dout);
      }
  }
  return 0;
}
