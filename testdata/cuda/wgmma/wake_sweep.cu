// wake_sweep.cu: wake_div.cu's waits (wa: the whole warp; we: an elected lane, the other lanes at __syncwarp;
// ws: lane 0, the others at the BSYNC closing its if) woken by an arrival DELAY cycles after the wait began, for
// DELAY from 100 to 3000 cycles in steps of 25 (wake_sweep.csv; wake_sweep_short.csv: 0 to 400 in steps of 5, the
// arguments 0 400 5): a wake-up that depends on when the arrival comes shows the period
// of whatever the waiting warp does meanwhile. Row: kernel,delay,median_cycles (waiter's clock after the wait minus
// the arriver's before its arrive, median of 9 launches after a warm-up).
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o wake_sweep wake_sweep.cu (and -cubin, -ptx;
// cuobjdump -sass wake_sweep.cubin)
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

int main(int argc, char** argv) {
  // Optional: first, last and step of the delays (default 100 3000 25).
  const long long first = argc > 3 ? atoll(argv[1]) : 100, last = argc > 3 ? atoll(argv[2]) : 3000,
                  step = argc > 3 ? atoll(argv[3]) : 25;
  long long* out;
  cudaMalloc(&out, 64 * sizeof(long long));
  printf("kernel,delay,median_cycles\n");
  struct { const char* name; void (*k)(long long, long long*); } ks[] = {{"wa", wa}, {"we", we}, {"ws", ws}};
  for (auto& k : ks) {
    for (long long delay = first; delay <= last; delay += step) {
      std::vector<long long> d;
      for (int r = 0; r < 10; r++) {
        k.k<<<1, 64>>>(delay, out);
        if (cudaDeviceSynchronize() != cudaSuccess) { fprintf(stderr, "launch failed\n"); return 1; }
        long long h[2];
        cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
        if (r > 0) d.push_back(h[1] - h[0]);
      }
      std::sort(d.begin(), d.end());
      printf("%s,%lld,%lld\n", k.name, delay, d[d.size() / 2]);
    }
  }
  return 0;
}
