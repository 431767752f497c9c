// softmax_row.cu: a softmax over each row of a rows x L matrix, one warp a row: the row's maximum (128-bit
// loads, fmaxf, __shfl_xor_sync), the sum of __expf(x - max), then y = __expf(x - max) / sum written with
// 128-bit stores. Held out. Launch: block B, args (x, y, rows, L, clk).
#include "app.h"

extern "C" __global__ void softmax_rows(const float* x, float* y, int rows, int L, long long* clk) {
  const long long t0 = app_clock();
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, nw = blockDim.x >> 5;
  for (int r = warp; r < rows; r += nw) {
    const float4* row = reinterpret_cast<const float4*>(x + (size_t)r * L);
    float4* yrow = reinterpret_cast<float4*>(y + (size_t)r * L);
    float m = -INFINITY;
    for (int j = lane; j < L / 4; j += 32) {
      const float4 v = row[j];
      m = fmaxf(m, fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)));
    }
    for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
    float s = 0.0f;
    for (int j = lane; j < L / 4; j += 32) {
      const float4 v = row[j];
      s += (__expf(v.x - m) + __expf(v.y - m)) + (__expf(v.z - m) + __expf(v.w - m));
    }
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    const float inv = 1.0f / s;
    for (int j = lane; j < L / 4; j += 32) {
      const float4 v = row[j];
      yrow[j] = make_float4(__expf(v.x - m) * inv, __expf(v.y - m) * inv, __expf(v.z - m) * inv, __expf(v.w - m) * inv);
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) clk[0] = app_clock() - t0;
}

int main() {
  app_warm();
  const int rows = 64;
  for (int L : {128, 512, 2048})
    for (int threads : {128, 256}) {
      char cfg[64];
      snprintf(cfg, sizeof cfg, "rows%d_len%d_threads%d", rows, L, threads);
      AppCase c("softmax_rows", cfg, "softmax_row.cu", "softmax_rows", dim3(threads), 0);
      const float* x = c.in<float>("buf:" + std::to_string(rows * L * 4) + ":f32rand:5");
      float* y = c.out<float>(rows * L * 4);
      c.i32(rows);
      c.i32(L);
      long long* clk = c.out<long long>(8);
      c.args.back().output = false;
      c.run([&] { softmax_rows<<<1, threads>>>(x, y, rows, L, clk); });
    }
  return 0;
}
