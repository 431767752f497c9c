// cpasync_pipe.cu: a multi-stage cp.async pipeline as the CUDA primitives write it (__pipeline_memcpy_async,
// __pipeline_commit, __pipeline_wait_prior; LDGSTS and LDGDEPBAR/DEPBAR in SASS): S shared-memory stages of
// tile_f4 16-byte vectors; the block keeps S - 1 tiles in flight, waits for the oldest, __syncthreads, and each
// thread folds its share of the tile into an FMA accumulator. out[tid] = the accumulator. Held out.
// Launch: block B, dynamic shared memory S * tile_f4 * 16; args (src, tiles, tile_f4, out, clk).
#include "app.h"
#include <cuda_pipeline_primitives.h>

template <int S>
__global__ void cpasync_pipe(const float4* src, int tiles, int tile_f4, float* out, long long* clk) {
  const long long t0 = app_clock();
  extern __shared__ float4 stage[];
  float acc = 0.0f;
  for (int s = 0; s < S - 1; s++) {
    if (s < tiles)
      for (int i = threadIdx.x; i < tile_f4; i += blockDim.x)
        __pipeline_memcpy_async(&stage[s * tile_f4 + i], &src[(size_t)s * tile_f4 + i], sizeof(float4));
    __pipeline_commit();
  }
  for (int t = 0; t < tiles; t++) {
    const int next = t + S - 1;
    if (next < tiles)
      for (int i = threadIdx.x; i < tile_f4; i += blockDim.x)
        __pipeline_memcpy_async(&stage[(next % S) * tile_f4 + i], &src[(size_t)next * tile_f4 + i], sizeof(float4));
    __pipeline_commit();
    __pipeline_wait_prior(S - 1);
    __syncthreads();
    const float4* st = stage + (t % S) * tile_f4;
    for (int i = threadIdx.x; i < tile_f4; i += blockDim.x) {
      const float4 v = st[i];
      acc = fmaf(v.x, v.y, acc);
      acc = fmaf(v.z, v.w, acc);
    }
    __syncthreads();
  }
  out[threadIdx.x] = acc;
  __syncthreads();
  if (threadIdx.x == 0) clk[0] = app_clock() - t0;
}

template <int S> static void one(int tile_f4, int threads) {
  const int tiles = 32;
  const size_t smem = (size_t)S * tile_f4 * 16;
  CK(cudaFuncSetAttribute(cpasync_pipe<S>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
  char cfg[64], kname[64];
  snprintf(cfg, sizeof cfg, "tile%d_stages%d_threads%d", tile_f4 * 16, S, threads);
  snprintf(kname, sizeof kname, "_Z12cpasync_pipeILi%dEEvPK6float4iiPfPx", S);
  AppCase c("cpasync_pipe", cfg, "cpasync_pipe.cu", kname, dim3(threads), smem);
  const float4* src = c.in<float4>("buf:" + std::to_string(tiles * tile_f4 * 16) + ":f32rand:9");
  c.i32(tiles);
  c.i32(tile_f4);
  float* out = c.out<float>(threads * 4);
  long long* clk = c.out<long long>(8);
  c.args.back().output = false;
  c.run([&] { cpasync_pipe<S><<<1, threads, smem>>>(src, tiles, tile_f4, out, clk); });
}

int main() {
  app_warm();
  for (int tile : {256, 1024})
    for (int threads : {128, 256}) {
      one<2>(tile, threads);
      one<3>(tile, threads);
      one<4>(tile, threads);
    }
  return 0;
}
