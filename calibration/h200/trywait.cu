// trywait.cu: what an un-hinted mbarrier.try_wait does on an H200 while its phase is open.
// Rows (bench,config,metric,median,min,max,runs):
//  - try_wait_limit,<context>,cycles_per_false: warp 0 times N = 10 false answers of a try_wait loop on a phase
//    that never completes (k_false<OTHER>; barrier count 2, warp 0 lane 0 arrived once); the other warp exits at
//    once (OTHER 1), spins on the clock (0) or waits on another barrier in a try_wait loop (2).
//    out[0] = cycles, out[1] = false answers; value out[0] / out[1].
//  - wake_all,try_waitersW,{first,last}_exit: W warps wait in a try_wait loop on one barrier (count 1); warp W's
//    lane 0 spins 2000 cycles and arrives (k_wakeall). out[r*(W+1) + w] = clock after warp w's wait,
//    out[r*(W+1) + W] = clock right before the arrive; per repetition r = 2..7 the earliest and the latest exit
//    after the arrive; the row is the median over those six repetitions (min, max over them too).
//  - vecaddr_loop,<mode>_warpsW,cycles_per_phase: microbench.cu's converged arrive/wait loop (count blockDim.x)
//    with the try_wait's and/or the arrive's barrier address in a per-thread register (the shared address plus
//    z*lane*8, z = 0 at run time) instead of a uniform one (k_vec<MODE>); out[0] / 2000, median of three launches.
//  - fails_loop,<mode>_warpsW,{cycles_per_phase,false_per_warp_phase}: the converged / __syncwarp / lane-0 arrive
//    loop with a counter of false try_wait answers (k_fails<MODE>); out[0] = cycles of 2000 phases, out[1 + w] =
//    warp w's false answers; first launch of three (they agree).
#include "bench.h"

__device__ __forceinline__ void arrive_at(uint32_t a) {
  asm volatile("{\n\t.reg .b64 st;\n\tmbarrier.arrive.shared::cta.b64 st, [%0];\n\t}" :: "r"(a) : "memory");
}
__device__ __forceinline__ bool try_at(uint32_t a, uint32_t par) {
  uint32_t ok;
  asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
               : "=r"(ok) : "r"(a), "r"(par) : "memory");
  return ok != 0;
}

template <int OTHER> __global__ void k_false(int N, long long spin, long long* out) {
  __shared__ uint64_t bar, bar2;
  const int warp = threadIdx.x / 32;
  if (threadIdx.x == 0) { mb_init(&bar, 2); mb_init(&bar2, 1); }
  __syncthreads();
  if (warp == 0) {
    if (threadIdx.x == 0) mb_arrive(&bar);
    __syncwarp();
    int n = 0;
    const long long t0 = clk();
    while (!mb_try(&bar, 0) && ++n < N) {}
    const long long t1 = clk();
    if (threadIdx.x == 0) { out[0] = t1 - t0; out[1] = n; }
    if (OTHER == 2 && threadIdx.x == 0) mb_arrive(&bar2);
  } else {
    if (OTHER == 0) { const long long s = clk(); while (clk() - s < spin) {} }
    if (OTHER == 2) { while (!mb_try(&bar2, 0)) {} }
  }
}

__global__ void k_wakeall(int reps, long long* out) {
  __shared__ uint64_t bar;
  const int warp = threadIdx.x / 32, lane = threadIdx.x & 31, W = blockDim.x / 32 - 1;
  if (threadIdx.x == 0) mb_init(&bar, 1);
  __syncthreads();
  uint32_t par = 0;
  for (int r = 0; r < reps; r++) {
    __syncthreads();
    if (warp == W) {
      if (lane == 0) {
        const long long s = clk();
        while (clk() - s < 2000) {}
        const long long ta = clk();
        mb_arrive(&bar);
        out[r * (W + 1) + W] = ta;
      }
      __syncwarp();
    } else {
      while (!mb_try(&bar, par)) {}
      const long long t1 = clk();
      if (lane == 0) out[r * (W + 1) + warp] = t1;
    }
    par ^= 1;
  }
}

template <int MODE> __global__ void k_vec(int iters, int z, long long* out) {
  __shared__ uint64_t bar;
  const int lane = threadIdx.x & 31;
  if (threadIdx.x == 0) mb_init(&bar, blockDim.x);
  __syncthreads();
  const uint32_t u = sa(&bar), v = sa(&bar) + z * lane * 8;
  const uint32_t wa = (MODE & 1) ? v : u, aa = (MODE & 2) ? v : u;
  uint32_t par = 0;
  for (int i = 0; i < 8; i++) { arrive_at(aa); while (!try_at(wa, par)) {} par ^= 1; }
  const long long t0 = clk();
  for (int i = 0; i < iters; i++) { arrive_at(aa); while (!try_at(wa, par)) {} par ^= 1; }
  const long long t1 = clk();
  if (threadIdx.x == 0) out[0] = t1 - t0;
}

template <int MODE> __device__ __forceinline__ void step(uint64_t* bar, int lane) {
  if (MODE == 0) { mb_arrive(bar); }
  else if (MODE == 1) { mb_arrive(bar); __syncwarp(); }
  else { if (lane == 0) mb_arrive(bar); __syncwarp(); }
}

template <int MODE> __global__ void k_fails(int iters, long long* out) {
  __shared__ uint64_t bar;
  const int lane = threadIdx.x & 31, w = threadIdx.x / 32;
  if (threadIdx.x == 0) mb_init(&bar, MODE == 2 ? blockDim.x / 32 : blockDim.x);
  __syncthreads();
  uint32_t par = 0;
  for (int i = 0; i < 8; i++) { step<MODE>(&bar, lane); mb_wait(&bar, par); par ^= 1; }
  int fails = 0;
  const long long t0 = clk();
  for (int i = 0; i < iters; i++) { step<MODE>(&bar, lane); while (!mb_try(&bar, par)) fails++; par ^= 1; }
  const long long t1 = clk();
  if (threadIdx.x == 0) out[0] = t1 - t0;
  if (lane == 0) out[1 + w] = fails;
}

__global__ void k_spin(long long cycles, int* sink) {
  const long long s = clock64();
  while (clock64() - s < cycles) {}
  if (threadIdx.x == 0 && sink) sink[blockIdx.x] = 1;
}

static void row3(const char* bench, const char* cfg, const char* metric, std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  const double med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  printf("%s,%s,%s,%.2f,%.2f,%.2f,%zu\n", bench, cfg, metric, med, v[0], v[n - 1], n);
}

template <int OTHER> static void limit(int threads, const char* name, long long* dout) {
  std::vector<double> v;
  for (int rep = 0; rep < 4; rep++) {
    k_false<OTHER><<<1, threads>>>(10, 2000000, dout);
    CK(cudaDeviceSynchronize());
    long long h[2];
    CK(cudaMemcpy(h, dout, sizeof h, cudaMemcpyDeviceToHost));
    if (rep > 0) v.push_back((double)h[0] / h[1]);
  }
  row3("try_wait_limit", name, "cycles_per_false", v);
}

static void wakeall(int W, long long* dout) {
  const int reps = 8;
  std::vector<long long> h(reps * (W + 1));
  k_wakeall<<<1, 32 * (W + 1)>>>(reps, dout);
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(h.data(), dout, h.size() * sizeof(long long), cudaMemcpyDeviceToHost));
  std::vector<double> first, last;
  for (int r = 2; r < reps; r++) {
    long long lo = 1LL << 62, hi = -(1LL << 62);
    for (int w = 0; w < W; w++) { lo = std::min(lo, h[r * (W + 1) + w]); hi = std::max(hi, h[r * (W + 1) + w]); }
    first.push_back((double)(lo - h[r * (W + 1) + W]));
    last.push_back((double)(hi - h[r * (W + 1) + W]));
  }
  char cfg[64];
  snprintf(cfg, sizeof cfg, "try_waiters%d", W);
  row3("wake_all", cfg, "first_exit", first);
  row3("wake_all", cfg, "last_exit", last);
}

static const char* vnames[] = {"uniform", "wait_vector", "arrive_vector", "both_vector"};
template <int MODE> static void vec(int warps, long long* dout) {
  char cfg[64];
  snprintf(cfg, sizeof cfg, "%s_warps%d", vnames[MODE], warps);
  timed3("vecaddr_loop", cfg, "cycles_per_phase", dout, 2000, [&] { k_vec<MODE><<<1, 32 * warps>>>(2000, 0, dout); });
}

static const char* fnames[] = {"converged", "converged_syncwarp", "lane0_syncwarp"};
template <int MODE> static void fails(int warps, long long* dout) {
  const int iters = 2000;
  std::vector<long long> h(1 + 32);
  k_fails<MODE><<<1, 32 * warps>>>(iters, dout);
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(h.data(), dout, h.size() * sizeof(long long), cudaMemcpyDeviceToHost));
  long long f = 0;
  for (int w = 0; w < warps; w++) f += h[1 + w];
  char cfg[64];
  snprintf(cfg, sizeof cfg, "%s_warps%d", fnames[MODE], warps);
  row3("fails_loop", cfg, "cycles_per_phase", {(double)h[0] / iters});
  row3("fails_loop", cfg, "false_per_warp_phase", {(double)f / warps / iters});
}

int main() {
  long long* dout; CK(cudaMalloc(&dout, 1 << 16));
  int* sink; CK(cudaMalloc(&sink, 1024 * sizeof(int)));
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  k_spin<<<prop.multiProcessorCount, 32>>>(100000000LL, sink); CK(cudaDeviceSynchronize());
  printf("bench,config,metric,median,min,max,runs\n");
  limit<1>(32, "other_none", dout);
  limit<1>(64, "other_exits", dout);
  limit<0>(64, "other_spins", dout);
  limit<2>(64, "other_try_waits", dout);
  for (int W : {1, 2, 4, 8, 16, 31}) wakeall(W, dout);
  for (int w : {1, 2, 4, 8, 16, 32}) { vec<0>(w, dout); vec<1>(w, dout); vec<2>(w, dout); vec<3>(w, dout); }
  for (int w : {1, 4, 8, 16, 32}) { fails<0>(w, dout); fails<1>(w, dout); fails<2>(w, dout); }
  return 0;
}
