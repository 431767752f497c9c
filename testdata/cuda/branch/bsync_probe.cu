// bsync_probe.cu: what does a reconvergence point (BSSY/BSYNC) cost a trip? sync_wgmma.cu's chains run 25-29 %
// faster in smsim than on the H200 alone, and their trips, unlike brx_probe.cu's (within 3 %), each pass a
// BSSY/BSYNC pair. N = 1024 trips of a dependent chain on x, timed with clock64 by lane 0 of warp 0; each trip runs
// x = x * 3 + 1, then, if bit 5 of x is set, an inner loop of (x & 3) + 1 further steps x = x * 5 + 7 (a
// data-dependent loop under a branch: ptxas reconverges after it with BSSY/BSYNC). who: 0 lane 0 alone (the warp's
// other lanes exited at the start), 1 the whole warp with the same x in every lane (converged), 2 the whole warp with
// lane-dependent x (divergent: the lanes take the branch and the inner loop differently); 3 as 0, without the inner
// loop (the branch's body one step, no BSSY).
// Row: who,cycles,x (lane 0's x; the third of three runs).
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o bsync_probe bsync_probe.cu (and -cubin, -ptx;
// cuobjdump -sass bsync_probe.cubin)
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>

constexpr int N = 1024;

template <bool INNER> __device__ __noinline__ uint32_t chain(uint32_t x) {
#pragma unroll 1
  for (int n = 0; n < N; n++) {
    x = x * 3 + 1;
    if (x & 32) {
      if constexpr (INNER) {
#pragma unroll 1
        for (uint32_t k = 0; k <= (x & 3); k++) x = x * 5 + 7;
      } else {
        x = x * 5 + 7;
      }
    }
  }
  return x;
}

__global__ void bsync_probe(int who, uint32_t seed, long long* out, uint32_t* sink) {
  const int lane = threadIdx.x;
  if ((who == 0 || who == 3) && lane != 0) return;
  uint32_t x = who == 2 ? seed + lane * 0x9e3779b9u : seed;
  const long long t0 = clock64();
  x = who == 3 ? chain<false>(x) : chain<true>(x);
  const long long t1 = clock64();
  if (lane == 0) { out[0] = t1 - t0; sink[0] = x; }
}

int main() {
  long long* out;
  uint32_t* sink;
  cudaMalloc(&out, 8);
  cudaMalloc(&sink, 4);
  printf("who,cycles,x\n");
  for (int who = 0; who <= 3; who++) {
    long long h = 0;
    uint32_t x = 0;
    for (int run = 0; run < 3; run++) {
      bsync_probe<<<1, 32>>>(who, 12345, out, sink);
      if (cudaDeviceSynchronize() != cudaSuccess) { fprintf(stderr, "launch failed\n"); return 1; }
      cudaMemcpy(&h, out, 8, cudaMemcpyDeviceToHost);
      cudaMemcpy(&x, sink, 4, cudaMemcpyDeviceToHost);
    }
    printf("%d,%lld,%u\n", who, h, x);
  }
  return 0;
}
