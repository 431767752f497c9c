// pc_guide.cu: the CUDA Programming Guide's producer/consumer pattern (asynchronous barriers, "Producer-consumer
// pattern using barriers"): two shared-memory buffers and four barriers — ready[0..1] (a buffer may be filled)
// and filled[0..1] (a buffer holds a tile) — each expecting every thread of the block. Warp 0 produces: it
// waits until buffer i % 2 is ready, fills it from global memory with plain loads and stores, and arrives on
// filled. The other warps consume: they announce both buffers ready, then wait for each tile, transform it into
// global memory, and announce the buffer ready again. Two spellings, as the guide gives them:
//   pc_ptx  cuda::ptx::mbarrier_init / mbarrier_arrive / mbarrier_try_wait (a token per wait)
//   pc_lib  cuda::barrier<thread_scope_block>: init, arrive_and_wait, arrive
// Held out: no smsim parameter is fitted to it. Launch: block 32 * (1 + consumer warps), dynamic shared memory
// 2 * buffer_len floats; args (N, in, out, buffer_len, clk); N / buffer_len tiles.
#include "app.h"
#include <cuda/barrier>
#include <cuda/ptx>

// Warp 0 copies tile i into buf, a float per lane per step.
__device__ __forceinline__ void fill(float* buf, const float* in, int i, int buffer_len, int lane) {
  for (int j = lane; j < buffer_len; j += 32) buf[j] = in[(size_t)i * buffer_len + j];
}

// Consumer thread c of nc writes its share of tile i, transformed.
__device__ __forceinline__ void drain(const float* buf, float* out, int i, int buffer_len, int c, int nc) {
  for (int j = c; j < buffer_len; j += nc) {
    const float v = buf[j];
    out[(size_t)i * buffer_len + j] = v * v * 0.5f + v;
  }
}

extern "C" __global__ void pc_ptx(int N, const float* in, float* out, int buffer_len, long long* clk) {
  const long long t0 = app_clock();
  extern __shared__ float buffer[];
  __shared__ uint64_t bar[4];
  if (threadIdx.x < 4) cuda::ptx::mbarrier_init(bar + threadIdx.x, blockDim.x);
  __syncthreads();
  uint64_t* ready = bar;
  uint64_t* filled = bar + 2;
  if (threadIdx.x < 32) {
    for (int i = 0; i < N / buffer_len; ++i) {
      const uint64_t token = cuda::ptx::mbarrier_arrive(&ready[i % 2]);
      while (!cuda::ptx::mbarrier_try_wait(&ready[i % 2], token)) {
      }
      fill(buffer + (i % 2) * buffer_len, in, i, buffer_len, threadIdx.x);
      (void)cuda::ptx::mbarrier_arrive(&filled[i % 2]);
    }
  } else {
    (void)cuda::ptx::mbarrier_arrive(&ready[0]);
    (void)cuda::ptx::mbarrier_arrive(&ready[1]);
    for (int i = 0; i < N / buffer_len; ++i) {
      const uint64_t token = cuda::ptx::mbarrier_arrive(&filled[i % 2]);
      while (!cuda::ptx::mbarrier_try_wait(&filled[i % 2], token)) {
      }
      drain(buffer + (i % 2) * buffer_len, out, i, buffer_len, threadIdx.x - 32, blockDim.x - 32);
      (void)cuda::ptx::mbarrier_arrive(&ready[i % 2]);
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) clk[0] = app_clock() - t0;
}

using barrier_t = cuda::barrier<cuda::thread_scope_block>;

extern "C" __global__ void pc_lib(int N, const float* in, float* out, int buffer_len, long long* clk) {
  const long long t0 = app_clock();
  extern __shared__ float buffer[];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ barrier_t bar[4];
  if (threadIdx.x < 4) init(bar + threadIdx.x, blockDim.x);
  __syncthreads();
  barrier_t* ready = bar;
  barrier_t* filled = bar + 2;
  if (threadIdx.x < 32) {
    for (int i = 0; i < N / buffer_len; ++i) {
      ready[i % 2].arrive_and_wait();
      fill(buffer + (i % 2) * buffer_len, in, i, buffer_len, threadIdx.x);
      barrier_t::arrival_token token = filled[i % 2].arrive();
      (void)token;
    }
  } else {
    barrier_t::arrival_token t1 = ready[0].arrive();
    barrier_t::arrival_token t2 = ready[1].arrive();
    (void)t1;
    (void)t2;
    for (int i = 0; i < N / buffer_len; ++i) {
      filled[i % 2].arrive_and_wait();
      drain(buffer + (i % 2) * buffer_len, out, i, buffer_len, threadIdx.x - 32, blockDim.x - 32);
      barrier_t::arrival_token token = ready[i % 2].arrive();
      (void)token;
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) clk[0] = app_clock() - t0;
}

int main() {
  app_warm();
  const int tiles = 16;
  for (int lib = 0; lib < 2; lib++)
    for (int len : {256, 1024, 4096})
      for (int warps : {1, 4, 8}) {
        const int threads = 32 * (1 + warps), N = tiles * len;
        const size_t smem = 2 * len * sizeof(float);
        char cfg[64];
        snprintf(cfg, sizeof cfg, "len%d_consumers%d", len, warps);
        AppCase c(lib ? "pc_lib" : "pc_ptx", cfg, "pc_guide.cu", lib ? "pc_lib" : "pc_ptx", dim3(threads), smem);
        c.i32(N);
        const float* in = c.in<float>("buf:" + std::to_string(N * 4) + ":f32rand:7");
        float* out = c.out<float>(N * 4);
        c.i32(len);
        long long* clk = c.out<long long>(8);
        c.args.back().output = false;
        c.run([&] {
          if (lib) pc_lib<<<1, threads, smem>>>(N, in, out, len, clk);
          else pc_ptx<<<1, threads, smem>>>(N, in, out, len, clk);
        });
      }
  return 0;
}
