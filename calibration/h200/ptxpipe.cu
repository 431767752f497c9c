// ptxpipe.cu: warp-specialised, multi-stage TMA pipelines whose barrier and copy code comes from the CUDA
// toolkit's own headers (CCCL), not from inline PTX — held out of every fit of smsim. ONE thread block of
// 1 + C warps over the 2-D boxes of a 512x512 fp16 tensor (in L2 after a warm-up launch).
//
// k_ptx<S>: the raw cuda::ptx API. Lane 0 of warp 0 produces: for tile t into stage s = t % S it waits on
//   empty[s] (cuda::ptx::mbarrier_try_wait_parity in a loop) once the stage has been used, arms full[s] with
//   cuda::ptx::mbarrier_arrive_expect_tx and loads the box with cuda::ptx::cp_async_bulk_tensor. Warps 1..C wait
//   on full[s] the same way, each lane accumulates WORK fp16 elements of the box in fp32 (an FMA each), and
//   lane 0 of each consumer warp releases the stage with cuda::ptx::mbarrier_arrive. full[s] counts 1 arrival
//   plus the box's bytes, empty[s] C arrivals.
// k_bar<S>: the same pipeline in cuda::barrier terms: cuda::device::barrier_arrive_tx and
//   cuda::device::experimental::cp_async_bulk_tensor_2d_global_to_shared for the producer, barrier::wait_parity
//   for every wait, barrier::arrive for the release.
//
// Rows: ptx_pipeline / bar_pipeline, box<W>x<H>_stages<S>_consumers<C>_work<WORK>, cycles_per_tile: consumer
// warp 1 lane 0's clock64 after its last tile minus before its first, over 256 tiles; median of three launches
// after a warm-up launch.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o ptxpipe ptxpipe.cu -lcuda
#include <cuda.h>
#include <cuda_fp16.h>
#include <cuda/barrier>
#include <cuda/ptx>
#include "bench.h"

using block_barrier = cuda::barrier<cuda::thread_scope_block>;
namespace cde = cuda::device::experimental;

__device__ __forceinline__ float consume(const __half* tile, int lane, int work, float acc) {
  for (int j = 0; j < work; j++) acc = fmaf(__half2float(tile[lane + 32 * j]), 1.0009765625f, acc);
  return acc;
}

template <int S> __global__ void k_ptx(const __grid_constant__ CUtensorMap map, int tiles, int boxw, int boxh, int work,
                                       long long* out) {
  extern __shared__ __align__(128) uint8_t smem[];
  __shared__ uint64_t full[S], empty[S];
  const int warp = threadIdx.x / 32, lane = threadIdx.x & 31, C = blockDim.x / 32 - 1;
  const uint32_t bytes = boxw * boxh * 2;
  const int tilesX = 512 / boxw, boxes = tilesX * (512 / boxh);
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; s++) {
      cuda::ptx::mbarrier_init(&full[s], 1u);
      cuda::ptx::mbarrier_init(&empty[s], (uint32_t)C);
    }
    cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
  }
  __syncthreads();
  if (warp == 0) {
    if (lane == 0) {
      for (int t = 0; t < tiles; t++) {
        const int s = t % S, k = t / S, b = t % boxes;
        if (t >= S)
          while (!cuda::ptx::mbarrier_try_wait_parity(&empty[s], (uint32_t)((k - 1) & 1))) {}
        (void)cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, cuda::ptx::scope_cta,
                                                   cuda::ptx::space_shared, &full[s], bytes);
        const int32_t xy[2] = {(b % tilesX) * boxw, (b / tilesX) * boxh};
        cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster, cuda::ptx::space_global, smem + s * bytes, &map, xy,
                                        &full[s]);
      }
    }
  } else {
    float acc = 0.f;
    const long long t0 = clock64();
    for (int t = 0; t < tiles; t++) {
      const int s = t % S, k = t / S;
      while (!cuda::ptx::mbarrier_try_wait_parity(&full[s], (uint32_t)(k & 1))) {}
      acc = consume(reinterpret_cast<const __half*>(smem + s * bytes), lane, work, acc);
      __syncwarp();
      if (lane == 0) (void)cuda::ptx::mbarrier_arrive(&empty[s]);
    }
    const long long t1 = clock64();
    if (warp == 1 && lane == 0) { out[0] = t1 - t0; out[1] = (long long)acc; }
  }
}

template <int S> __global__ void k_bar(const __grid_constant__ CUtensorMap map, int tiles, int boxw, int boxh, int work,
                                       long long* out) {
  extern __shared__ __align__(128) uint8_t smem[];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ block_barrier full[S], empty[S];
  const int warp = threadIdx.x / 32, lane = threadIdx.x & 31, C = blockDim.x / 32 - 1;
  const uint32_t bytes = boxw * boxh * 2;
  const int tilesX = 512 / boxw, boxes = tilesX * (512 / boxh);
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; s++) {
      init(&full[s], 1);
      init(&empty[s], C);
    }
    cde::fence_proxy_async_shared_cta();
  }
  __syncthreads();
  if (warp == 0) {
    if (lane == 0) {
      for (int t = 0; t < tiles; t++) {
        const int s = t % S, k = t / S, b = t % boxes;
        if (t >= S) empty[s].wait_parity(((k - 1) & 1) != 0);
        cde::cp_async_bulk_tensor_2d_global_to_shared(smem + s * bytes, &map, (b % tilesX) * boxw,
                                                      (b / tilesX) * boxh, full[s]);
        (void)cuda::device::barrier_arrive_tx(full[s], 1, bytes);
      }
    }
  } else {
    float acc = 0.f;
    const long long t0 = clock64();
    for (int t = 0; t < tiles; t++) {
      const int s = t % S, k = t / S;
      full[s].wait_parity((k & 1) != 0);
      acc = consume(reinterpret_cast<const __half*>(smem + s * bytes), lane, work, acc);
      __syncwarp();
      if (lane == 0) (void)empty[s].arrive();
    }
    const long long t1 = clock64();
    if (warp == 1 && lane == 0) { out[0] = t1 - t0; out[1] = (long long)acc; }
  }
}

__global__ void k_spin(long long cycles, int* sink) {
  const long long s = clock64();
  while (clock64() - s < cycles) {}
  if (threadIdx.x == 0 && sink) sink[blockIdx.x] = 1;
}

template <class K> static void run(const char* bench, K kern, int S, const CUtensorMap& map, int boxw, int boxh, int C,
                                   int work, long long* dout) {
  const int tiles = 256;
  const int smem = S * boxw * boxh * 2;
  CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  char cfg[96];
  snprintf(cfg, sizeof cfg, "box%dx%d_stages%d_consumers%d_work%d", boxw, boxh, S, C, work);
  timed3(bench, cfg, "cycles_per_tile", dout, tiles,
         [&] { kern<<<1, 32 * (1 + C), smem>>>(map, tiles, boxw, boxh, work, dout); });
}

int main() {
  long long* dout; CK(cudaMalloc(&dout, 64 * sizeof(long long)));
  int* sink; CK(cudaMalloc(&sink, 1024 * sizeof(int)));
  const uint64_t W = 512, H = 512;  // fp16, 512 KiB
  uint16_t* g; CK(cudaMalloc(&g, W * H * 2));
  {
    std::vector<uint16_t> h(W * H);
    for (size_t i = 0; i < h.size(); i++) h[i] = (uint16_t)(0x3c00 + (i & 7));  // 1.0 .. 1.0068
    CK(cudaMemcpy(g, h.data(), h.size() * 2, cudaMemcpyHostToDevice));
  }
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  k_spin<<<prop.multiProcessorCount, 32>>>(100000000LL, sink); CK(cudaDeviceSynchronize());
  printf("bench,config,metric,median,min,max,runs\n");
  for (auto box : std::vector<std::pair<int, int>>{{64, 64}, {128, 64}}) {
    CUtensorMap map; cuuint64_t gdim[2] = {W, H}; cuuint64_t gstride[1] = {W * 2};
    cuuint32_t bdim[2] = {(cuuint32_t)box.first, (cuuint32_t)box.second}; cuuint32_t es[2] = {1, 1};
    CUresult r = cuTensorMapEncodeTiled(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, g, gdim, gstride, bdim, es,
        CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) { fprintf(stderr, "tensor map encode failed %d\n", (int)r); return 1; }
    for (int C : {1, 2, 4})
      for (int work : {16, 64}) {
        run("ptx_pipeline", k_ptx<2>, 2, map, box.first, box.second, C, work, dout);
        run("ptx_pipeline", k_ptx<3>, 3, map, box.first, box.second, C, work, dout);
        run("ptx_pipeline", k_ptx<4>, 4, map, box.first, box.second, C, work, dout);
        run("bar_pipeline", k_bar<2>, 2, map, box.first, box.second, C, work, dout);
        run("bar_pipeline", k_bar<3>, 3, map, box.first, box.second, C, work, dout);
        run("bar_pipeline", k_bar<4>, 4, map, box.first, box.second, C, work, dout);
      }
  }
  return 0;
}
