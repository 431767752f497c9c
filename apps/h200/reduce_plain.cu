// reduce_plain.cu: one block sums n floats read with plain 128-bit loads: each thread accumulates its
// grid-stride share, warps reduce with __shfl_down_sync, warp 0 reduces the warps' partial sums from shared
// memory. out[0] = the sum, out[1 + w] = warp w's partial sum. Held out. Launch: block B, args (in, n4, out, clk).
#include "app.h"

extern "C" __global__ void reduce_sum(const float4* in, int n4, float* out, long long* clk) {
  const long long t0 = app_clock();
  __shared__ float part[32];
  float acc = 0.0f;
  for (int i = threadIdx.x; i < n4; i += blockDim.x) {
    const float4 v = in[i];
    acc += (v.x + v.y) + (v.z + v.w);
  }
  for (int o = 16; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, o);
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, nw = blockDim.x >> 5;
  if (lane == 0) {
    part[warp] = acc;
    out[1 + warp] = acc;
  }
  __syncthreads();
  if (warp == 0) {
    float s = lane < nw ? part[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
    if (lane == 0) out[0] = s;
  }
  __syncthreads();
  if (threadIdx.x == 0) clk[0] = app_clock() - t0;
}

int main() {
  app_warm();
  for (int n : {16384, 65536, 262144, 1048576})
    for (int threads : {256, 1024}) {
      char cfg[64];
      snprintf(cfg, sizeof cfg, "n%d_threads%d", n, threads);
      AppCase c("reduce_sum", cfg, "reduce_plain.cu", "reduce_sum", dim3(threads), 0);
      const float4* in = c.in<float4>("buf:" + std::to_string(n * 4) + ":f32rand:3");
      c.i32(n / 4);
      float* out = c.out<float>(33 * 4);
      long long* clk = c.out<long long>(8);
      c.args.back().output = false;
      c.run([&] { reduce_sum<<<1, threads>>>(in, n / 4, out, clk); });
    }
  return 0;
}
