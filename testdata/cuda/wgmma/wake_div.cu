// wake_div.cu: does a diverged warp pay for a try_wait that suspends? yield_park.cu's pp_e (two elected lanes passing
// a token, the rest of each warp at __syncwarp) costs the H200 346 cycles a round trip against 174 for whole warps.
// Here warp 1's lane 0 spins DELAY cycles, reads the clock and arrives on a count-1 barrier that warp 0 is already
// waiting on (a try_wait loop); warp 0's waiting lane reads the clock once its wait passes. One launch, one wake;
// the row is the median over 32 launches (after a warm-up) of the waiter's clock minus the arriver's (the SMs'
// clocks are one). Kernels (each compiled on its own), by how warp 0 waits:
//   wa: the whole warp waits;                     wx: lane 0 waits, the other lanes have exited;
//   we: an elected lane waits, the others at __syncwarp;   ws: lane 0 waits, the others at the BSYNC closing the if;
//   wl: as we, the arrival DELAY = 20000 cycles (past the try_wait's time limit, so its retry runs).
// Row: kernel,median_cycles,min_cycles.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o wake_div wake_div.cu (and -cubin, -ptx;
// cuobjdump -sass wake_div.cubin)
#include "mbar_probe.h"



#define SETUP                                                            \
  __shared__ __align__(8) uint64_t bar;                                  \
  const int w = threadIdx.x / 32, lane = threadIdx.x % 32;               \
  if (threadIdx.x == 0) {                                                \
    mb_init(&bar, 1);                                                    \
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");   \
  }                                                                      \
  __syncthreads();                                                       \
  if (w == 1) {                                                          \
    if (lane == 0) arrive_late(&bar, delay, out);                        \
    return;                                                              \
  }
#define WAIT_STAMP { mb_wait(&bar, 0); out[1] = clock64(); }

extern "C" __global__ void wa(long long delay, long long* out) { SETUP mb_wait(&bar, 0); if (lane == 0) out[1] = clock64(); }
extern "C" __global__ void wx(long long delay, long long* out) { SETUP if (lane != 0) return; WAIT_STAMP }
extern "C" __global__ void we(long long delay, long long* out) { SETUP if (elect_one()) WAIT_STAMP __syncwarp(); }
extern "C" __global__ void ws(long long delay, long long* out) { SETUP if (lane == 0) WAIT_STAMP out[2 + lane] = lane; }
extern "C" __global__ void wl(long long delay, long long* out) { SETUP if (elect_one()) WAIT_STAMP __syncwarp(); }

int main() {
  long long* out;
  cudaMalloc(&out, 64 * sizeof(long long));
  printf("kernel,median_cycles,min_cycles\n");
  struct { const char* name; void (*k)(long long, long long*); long long delay; } ks[] = {
      {"wa", wa, 2000}, {"wx", wx, 2000}, {"we", we, 2000}, {"ws", ws, 2000}, {"wl", wl, 20000}};
  for (auto& k : ks) {
    std::vector<long long> d;
    for (int r = 0; r < 33; r++) {
      k.k<<<1, 64>>>(k.delay, out);
      if (cudaDeviceSynchronize() != cudaSuccess) { fprintf(stderr, "launch failed\n"); return 1; }
      long long h[2];
      cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
      if (r > 0) d.push_back(h[1] - h[0]);
    }
    std::sort(d.begin(), d.end());
    printf("%s,%lld,%lld\n", k.name, d[d.size() / 2], d[0]);
  }
  return 0;
}
