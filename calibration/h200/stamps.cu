// stamps.cu: elect.cu's arrive/try_wait loop with clock stamps added, to see how much of its cost is the
// schedule ptxas gives it. Two layouts, each for the converged arrive (all lanes, count 32 W), the lane-0 arrive
// followed by __syncwarp() (count W; microbench elected_count1) and divergent2 (lanes 0-15 and 16-31 arrive
// through two different arrive instructions, count 32 W; microbench divergent2):
//  - ring_<mode>_warpsW: the loop kept rolled (#pragma unroll 1); each trip reads the clock before the arrive
//    and after the wait and stores both into a shared-memory ring (k_ring<MODE>).
//  - unrolled_<mode>_warpsW: eight phases unrolled, the stamps kept in registers (k_unrolled<MODE>).
// ONE thread block of W warps; out[0] = clock64 after 2000 phases - before (after warm-up phases); the row is
// out[0] / 2000, median of three launches. The plain loops are elect.csv's converged / lane0_syncwarp rows and
// microbench.csv's divergent2 rows.
// uniform_wake,waitersW,{first,last,arriver}_exit: trywait.csv's wake_all without the divergent code around the
// wait (k_uwake, below).
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o stamps stamps.cu
#include "bench.h"

__device__ __forceinline__ void mb_arrive_alt(uint64_t* b) {
  asm volatile("{\n\t.reg .b64 st;\n\tmbarrier.arrive.shared::cta.b64 st, [%0]; // alt\n\t}" :: "r"(sa(b)) : "memory");
}

// Modes: 0 converged, 1 lane0_syncwarp, 2 divergent2.
template <int MODE> __device__ __forceinline__ void step(uint64_t* bar, int lane) {
  if (MODE == 0) mb_arrive(bar);
  else if (MODE == 1) { if (lane == 0) mb_arrive(bar); __syncwarp(); }
  else { if (lane < 16) mb_arrive(bar); else mb_arrive_alt(bar); }
}

template <int MODE> __global__ void k_ring(int iters, long long* out) {
  __shared__ uint64_t bar;
  __shared__ uint32_t ring[32][8][2];
  const int lane = threadIdx.x & 31, w = threadIdx.x / 32;
  if (threadIdx.x == 0) mb_init(&bar, MODE == 1 ? blockDim.x / 32 : blockDim.x);
  __syncthreads();
  uint32_t par = 0;
  for (int i = 0; i < 8; i++) { step<MODE>(&bar, lane); mb_wait(&bar, par); par ^= 1; }
  const long long t0 = clk();
#pragma unroll 1
  for (int i = 0; i < iters; i++) {
    const uint32_t a = (uint32_t)clk();
    step<MODE>(&bar, lane);
    mb_wait(&bar, par);
    const uint32_t b = (uint32_t)clk();
    par ^= 1;
    ring[w][i & 7][0] = a;
    ring[w][i & 7][1] = b;
  }
  const long long t1 = clk();
  if (threadIdx.x == 0) out[0] = t1 - t0;
  __syncwarp();
  if (lane < 16) out[1 + w * 16 + lane] = ring[w][lane / 2][lane & 1];
}

template <int MODE> __global__ void k_unrolled(int iters, long long* out) {
  __shared__ uint64_t bar;
  const int lane = threadIdx.x & 31, w = threadIdx.x / 32;
  if (threadIdx.x == 0) mb_init(&bar, MODE == 1 ? blockDim.x / 32 : blockDim.x);
  __syncthreads();
  uint32_t par = 0;
  for (int i = 0; i < 16; i++) { step<MODE>(&bar, lane); mb_wait(&bar, par); par ^= 1; }
  long long a[8], b[8];
  const long long t0 = clk();
  for (int r = 0; r < iters; r += 8) {
#pragma unroll
    for (int k = 0; k < 8; k++) {
      a[k] = clk();
      step<MODE>(&bar, lane);
      mb_wait(&bar, par);
      b[k] = clk();
      par ^= 1;
    }
  }
  const long long t1 = clk();
  if (threadIdx.x == 0) out[0] = t1 - t0;
  if (lane == 0)
    for (int k = 0; k < 8; k++) { out[1 + (w * 8 + k) * 2] = a[k]; out[2 + (w * 8 + k) * 2] = b[k]; }
}

// W waiting warps and one arriving warp running the same instructions: the arriving warp (the last) spins
// `delay` cycles on the clock (its loop exits before the arrive, so the arrive and the wait that follow are in
// converged code and name the barrier through a uniform register), its lane 0 arrives (count 1), and every warp
// waits. out[(r * (W + 1) + w) * 2] = warp w's clock before the arrive, [.. + 1] = its clock after the wait.
__global__ void k_uwake(int reps, long long delay, long long* out) {
  __shared__ uint64_t bar;
  const int warp = threadIdx.x / 32, lane = threadIdx.x & 31, W = blockDim.x / 32 - 1;
  if (threadIdx.x == 0) mb_init(&bar, 1);
  __syncthreads();
  const long long d = warp == W ? delay : 0;
  const bool arriver = warp == W && lane == 0;
  uint32_t par = 0;
  for (int r = 0; r < reps; r++) {
    __syncthreads();
    const long long s = clk();
    while (clk() - s < d) {}
    const long long ta = clk();
    if (arriver) mb_arrive(&bar);
    mb_wait(&bar, par);
    const long long tb = clk();
    if (lane == 0) { out[(r * (W + 1) + warp) * 2] = ta; out[(r * (W + 1) + warp) * 2 + 1] = tb; }
    par ^= 1;
  }
}

__global__ void k_spin(long long cycles, int* sink) {
  const long long s = clock64();
  while (clock64() - s < cycles) {}
  if (threadIdx.x == 0 && sink) sink[blockIdx.x] = 1;
}

static const char* names[] = {"converged", "lane0_syncwarp", "divergent2"};

template <int MODE> static void run(int warps, long long* dout) {
  const int iters = 2000;
  char cfg[64];
  snprintf(cfg, sizeof cfg, "ring_%s_warps%d", names[MODE], warps);
  timed3("stamped_loop", cfg, "cycles_per_phase", dout, iters, [&] { k_ring<MODE><<<1, 32 * warps>>>(iters, dout); });
  snprintf(cfg, sizeof cfg, "unrolled_%s_warps%d", names[MODE], warps);
  timed3("stamped_loop", cfg, "cycles_per_phase", dout, iters, [&] { k_unrolled<MODE><<<1, 32 * warps>>>(iters, dout); });
}

// uniform_wake rows: per repetition r = 2..7, the waiters' earliest and latest exit and the arriving warp's own
// exit, each minus the arriving warp's clock before its arrive; the row is the median over the six (min, max).
static void uwake(int waiters, long long* dout) {
  const int reps = 8, W = waiters;
  k_uwake<<<1, 32 * (W + 1)>>>(reps, 2000, dout);
  CK(cudaDeviceSynchronize());
  std::vector<long long> h(reps * (W + 1) * 2);
  CK(cudaMemcpy(h.data(), dout, h.size() * sizeof(long long), cudaMemcpyDeviceToHost));
  std::vector<double> first, last, self;
  for (int r = 2; r < reps; r++) {
    const long long* o = &h[r * (W + 1) * 2];
    const long long ta = o[W * 2];
    long long lo = 1LL << 62, hi = -(1LL << 62);
    for (int w = 0; w < W; w++) { lo = std::min(lo, o[w * 2 + 1] - ta); hi = std::max(hi, o[w * 2 + 1] - ta); }
    first.push_back(lo); last.push_back(hi); self.push_back(o[W * 2 + 1] - ta);
  }
  auto row = [&](const char* m, std::vector<double> v) {
    std::sort(v.begin(), v.end());
    printf("uniform_wake,waiters%d,%s,%.1f,%.1f,%.1f,6\n", W, m, (v[2] + v[3]) / 2, v[0], v[5]);
  };
  row("first_exit", first); row("last_exit", last); row("arriver_exit", self);
}

int main() {
  long long* dout; CK(cudaMalloc(&dout, 4096 * sizeof(long long)));
  int* sink; CK(cudaMalloc(&sink, 1024 * sizeof(int)));
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  k_spin<<<prop.multiProcessorCount, 32>>>(100000000LL, sink); CK(cudaDeviceSynchronize());
  printf("bench,config,metric,median,min,max,runs\n");
  for (int w : {1, 4, 8, 16, 32}) { run<0>(w, dout); run<1>(w, dout); run<2>(w, dout); }
  for (int w : {1, 2, 4, 8, 16, 31}) uwake(w, dout);
  return 0;
}
