// patch.cu: does the trip's cycle-level schedule decide the arrive/wait loop's phase? align.cu's two loops at
// P = 0 (converged: every lane arrives; lane0_syncwarp: `if (lane == 0) arrive; __syncwarp()`), built to a cubin
// whose timed loop patch.py then rewrites: the same instructions, in another order or with other control bits
// (stall counts, yield, scoreboards), every fixed-latency dependence still honoured. ONE thread block of W warps;
// out[0] = clock64 after `iters` phases - before (after 8 warm-up phases); a row is out[0] / 2000 (patch_host.cu).
// Rows: patch,VARIANT_rR_warpsW,cycles_per_phase (median of three launches after a warm-up one; R = 1, 2: the
// whole batch twice). Not a `validate` row: smsim runs one PTX for every variant (calibration/h200/README.md).
// Build and run (CUDA 13.0, python3):
//   nvcc -O3 -ptx -arch=sm_90a -o patch.ptx patch.cu
//   nvcc -O3 -cubin -arch=sm_90a -o patch.cubin patch.cu && nvcc -O3 -o patch_host patch_host.cu -lcuda
//   cuobjdump -sass patch.cubin > patch.full.sass && mkdir -p v && python3 patch.py patch.full.sass patch.cubin v
//   for v in C0 C1 ... E7; do ./patch_host v/$v.cubin kconv|kelect ${v}_r1 8 12 16 24 32; done
#include "bench.h"

template <int MODE> __device__ __forceinline__ void step(uint64_t* bar, int lane) {
  if (MODE == 0) mb_arrive(bar);
  else { if (lane == 0) mb_arrive(bar); __syncwarp(); }
}

template <int MODE> __device__ __forceinline__ void body(int iters, long long* out) {
  __shared__ uint64_t bar;
  const int lane = threadIdx.x & 31;
  if (threadIdx.x == 0) mb_init(&bar, MODE == 1 ? blockDim.x / 32 : blockDim.x);
  __syncthreads();
  uint32_t par = 0;
  for (int i = 0; i < 8; i++) { step<MODE>(&bar, lane); mb_wait(&bar, par); par ^= 1; }
  const long long t0 = clock64();
  for (int i = 0; i < iters; i++) { step<MODE>(&bar, lane); mb_wait(&bar, par); par ^= 1; }
  const long long t1 = clock64();
  if (threadIdx.x == 0) out[0] = t1 - t0;
}

extern "C" __global__ void kconv(int iters, long long* out) { body<0>(iters, out); }
extern "C" __global__ void kelect(int iters, long long* out) { body<1>(iters, out); }
extern "C" __global__ void kspin(long long cycles, int* sink) {
  const long long s = clock64();
  while (clock64() - s < cycles) {}
  if (threadIdx.x == 0 && sink) sink[blockIdx.x] = 1;
}
