// reduce.cu: block reductions whose global-memory results a simulator must reproduce bit for bit.
// int32 (warp shuffles + shared memory + a global atomic total), float32 and float64 (fixed shuffle trees,
// so the rounding order is part of the program), and the sm_80+ redux.sync reductions.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o reduce reduce.cu
// Run:   CASES=cases.jsonl ./reduce   (appends manifest cases; see testdata/cuda/README.md)
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

// Sum of in[i] for this block's grid-stride share; out[blockIdx.x] = block sum, out[gridDim.x] += block sum.
extern "C" __global__ void reduce_sum_i32(const int* __restrict__ in, int n, int* __restrict__ out) {
  __shared__ int warp_sums[32];
  int s = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) s += in[i];
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_sums[warp] = s;
  __syncthreads();
  if (warp == 0) {
    const int nw = (blockDim.x + 31) >> 5;
    s = lane < nw ? warp_sums[lane] : 0;
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
    if (lane == 0) {
      out[blockIdx.x] = s;
      atomicAdd(&out[gridDim.x], s);
    }
  }
}

// Float sum of (float)(int)in[i] * scale; butterfly (xor) shuffles, per-thread loop order fixed.
extern "C" __global__ void reduce_sum_f32(const uint32_t* __restrict__ in, int n, float scale, float* __restrict__ out) {
  __shared__ float warp_sums[32];
  float s = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) s += (float)(int)in[i] * scale;
  for (int o = 1; o < 32; o <<= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_sums[warp] = s;
  __syncthreads();
  if (warp == 0) {
    const int nw = (blockDim.x + 31) >> 5;
    s = lane < nw ? warp_sums[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
    if (lane == 0) out[blockIdx.x] = s;
  }
}

// Double sum of (double)(int64)in[i] * scale, tree in shared memory (no shuffles).
extern "C" __global__ void reduce_sum_f64(const uint64_t* __restrict__ in, int n, double scale, double* __restrict__ out) {
  __shared__ double part[256];
  double s = 0.0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) s += (double)(long long)in[i] * scale;
  part[threadIdx.x] = s;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w >>= 1) {
    if (threadIdx.x < w) part[threadIdx.x] += part[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = part[0];
}

// Per warp: redux.sync add/min/max/and/or/xor (unsigned), min/max (signed); 8 words per warp.
extern "C" __global__ void reduce_redux_u32(const uint32_t* __restrict__ in, uint32_t* __restrict__ out) {
  const unsigned full = 0xffffffffu;
  const int gid = blockIdx.x * blockDim.x + threadIdx.x, gw = gid >> 5, lane = threadIdx.x & 31;
  const uint32_t v = in[gid];
  const uint32_t r0 = __reduce_add_sync(full, v), r1 = __reduce_min_sync(full, v), r2 = __reduce_max_sync(full, v);
  const uint32_t r3 = __reduce_and_sync(full, v | (1u << lane)), r4 = __reduce_or_sync(full, v & (v >> 7)), r5 = __reduce_xor_sync(full, v);
  const int r6 = __reduce_min_sync(full, (int)v), r7 = __reduce_max_sync(full, (int)v);
  if (lane == 0) {
    uint32_t* o = out + gw * 8;
    o[0] = r0; o[1] = r1; o[2] = r2; o[3] = r3; o[4] = r4; o[5] = r5; o[6] = (uint32_t)r6; o[7] = (uint32_t)r7;
  }
}

#include "harness.h"  // the host harness shared by every testdata/cuda/*.cu

int main() {
  const char* F = "reduce.cu";
  {
    Case c("reduce_i32_4x256", F, "reduce_sum_i32", dim3(256), dim3(4), 0,
           "int32 block sums of 4096 random words (shfl.down + smem), wrap-around, plus atomic grand total in out[4]");
    const int* in = c.buf<int>("buf:16384:random:1");
    const int n = c.i32(4096);
    int* out = c.buf<int>("buf:64");
    c.dump(out, "i32", 5);
    std::vector<uint32_t> w = words_of(c.host(in)), ref(5, 0);
    for (int i = 0; i < n; i++) { ref[(i % 1024) / 256] += w[i]; ref[4] += w[i]; }
    c.expect(out, ref);
    c.run([&] { reduce_sum_i32<<<c.grid, c.block, c.smem>>>(in, n, out); });
  }
  {
    Case c("reduce_i32_3x96_tail", F, "reduce_sum_i32", dim3(96), dim3(3), 0,
           "int32 block sums with n not a multiple of the grid (1000 of seq), 3 warps per block");
    const int* in = c.buf<int>("buf:4096:seq");
    const int n = c.i32(1000);
    int* out = c.buf<int>("buf:16");
    c.dump(out, "i32", 4);
    std::vector<uint32_t> ref(4, 0);
    for (int i = 0; i < n; i++) { ref[(i % 288) / 96] += (uint32_t)i; ref[3] += (uint32_t)i; }
    c.expect(out, ref);
    c.run([&] { reduce_sum_i32<<<c.grid, c.block, c.smem>>>(in, n, out); });
  }
  {
    Case c("reduce_f32_4x256", F, "reduce_sum_f32", dim3(256), dim3(4), 0,
           "float32 block sums: cvt.rn.f32.s32, fma/mul by 2^-10, shfl.bfly tree then shfl.down tree; bit-exact order");
    const uint32_t* in = c.buf<uint32_t>("buf:16384:random:2");
    const int n = c.i32(4096);
    const float scale = c.f32(0.0009765625f);
    float* out = c.buf<float>("buf:16");
    c.dump(out, "hex", 4);
    c.run([&] { reduce_sum_f32<<<c.grid, c.block, c.smem>>>(in, n, scale, out); });
  }
  {
    Case c("reduce_f64_2x256", F, "reduce_sum_f64", dim3(256), dim3(2), 0,
           "float64 block sums: cvt.rn.f64.s64, mul by 2^-40, shared-memory tree with __syncthreads");
    const uint64_t* in = c.buf<uint64_t>("buf:16384:random:3");
    const int n = c.i32(2048);
    const double scale = 9.094947017729282379150390625e-13;  // 2^-40
    c.literal("9.094947017729282379150390625e-13");
    double* out = c.buf<double>("buf:16");
    c.dump(out, "hex", 4);
    c.run([&] { reduce_sum_f64<<<c.grid, c.block, c.smem>>>(in, n, scale, out); });
  }
  {
    Case c("reduce_redux_2x128", F, "reduce_redux_u32", dim3(128), dim3(2), 0,
           "redux.sync add/min/max/and/or/xor .u32 and min/max .s32 per warp (8 warps x 8 words)");
    const uint32_t* in = c.buf<uint32_t>("buf:1024:random:4");
    uint32_t* out = c.buf<uint32_t>("buf:256");
    c.dump(out, "hex", 64);
    std::vector<uint32_t> w = words_of(c.host(in)), ref(64);
    for (int g = 0; g < 8; g++) {
      uint32_t a = 0, mn = ~0u, mx = 0, an = ~0u, o = 0, x = 0; int smn = INT32_MAX, smx = INT32_MIN;
      for (int l = 0; l < 32; l++) {
        uint32_t v = w[g * 32 + l];
        a += v; mn = v < mn ? v : mn; mx = v > mx ? v : mx; an &= v | (1u << l); o |= v & (v >> 7); x ^= v;
        smn = (int)v < smn ? (int)v : smn; smx = (int)v > smx ? (int)v : smx;
      }
      uint32_t r[8] = {a, mn, mx, an, o, x, (uint32_t)smn, (uint32_t)smx};
      for (int k = 0; k < 8; k++) ref[g * 8 + k] = r[k];
    }
    c.expect(out, ref);
    c.run([&] { reduce_redux_u32<<<c.grid, c.block, c.smem>>>(in, out); });
  }
  return 0;
}
