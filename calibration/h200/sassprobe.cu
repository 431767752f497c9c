// sassprobe.cu: what the SASS frontend's timing needs and the other files do not isolate. ONE thread block.
//   l1cap_dynD_fpF     the L1 capacity a launch gets: gmem.cu's pointer chase (one thread, every 128-byte line of
//                      the first F KiB in one random cycle, plain ld.global), warm = one pass over the lines, 2000
//                      timed loads, launched with D KiB of dynamic shared memory (the carve-out the driver picks
//                      holds at least D). ~50 cycles a load: the footprint fits in L1; ~370: it does not.
//   relaunch_fp16      the 16 KiB chase run once with its warm pass, then launched again with no warm pass and 128
//                      timed loads (each line once): ~50 if L1 keeps global data across launches, ~370 if a launch
//                      starts with it empty.
//   seq_ca, seq_cg     the chase over 2 MiB with the lines in address order (ld.global / ld.global.cg), L2 hits:
//   rnd_cg             the same lines in a random order with ld.global.cg; gmem.csv footprint_2048KiB is rnd_ca.
//   stream_W           one warp (W = ca or cg) summing a 1 MiB L2-resident float4 array with one 16-byte load a
//                      lane a trip and the sum depending on it (#pragma unroll 1): cycles a trip.
//   ldc_bank3          a dependent chain of constant loads x = ctab[x] (a __constant__ table of zeros): cycles a link.
//   ldc_param          the same through a by-value kernel parameter array (constant bank 0).
// Not `validate` rows. Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o sassprobe sassprobe.cu
#include <numeric>
#include <random>
#include "bench.h"

template <int CG>
__global__ void k_chase(const uint32_t* next, int warm, int iters, long long* out) {
  uint32_t i = 0;
  for (int k = 0; k < warm; k++) {
    if (CG) asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(i) : "l"(next + i) : "memory");
    else asm volatile("ld.global.u32 %0, [%1];" : "=r"(i) : "l"(next + i) : "memory");
  }
  const long long t0 = clk();
  for (int k = 0; k < iters; k++) {
    if (CG) asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(i) : "l"(next + i) : "memory");
    else asm volatile("ld.global.u32 %0, [%1];" : "=r"(i) : "l"(next + i) : "memory");
  }
  const long long t1 = clk();
  out[0] = t1 - t0;
  if (i == 0xffffffffu) out[1] = 1;
}

template <int CG>
__global__ void k_stream(const float4* in, int n4, float* sink, long long* out) {
  float acc = 0.0f;
  const long long t0 = clk();
#pragma unroll 1
  for (int i = threadIdx.x; i < n4; i += 32) {
    const float4 v = CG ? __ldcg(in + i) : in[i];
    acc += (v.x + v.y) + (v.z + v.w);
  }
  const long long t1 = clk();
  sink[threadIdx.x] = acc;
  if (threadIdx.x == 0) out[0] = t1 - t0;
}

__constant__ uint32_t ctab[64];
struct Table { uint32_t a[32]; };

__global__ void k_ldc3(int iters, long long* out) {
  uint32_t x = threadIdx.x >> 5;  // 0
  const long long t0 = clk();
#pragma unroll 1
  for (int i = 0; i < iters; i += 16) {
#pragma unroll
    for (int j = 0; j < 16; j++) x = ctab[x];
  }
  const long long t1 = clk();
  out[0] = t1 - t0;
  out[1] = x;
}

__global__ void k_ldcp(Table t, int iters, long long* out) {
  uint32_t x = threadIdx.x >> 5;
  const long long t0 = clk();
#pragma unroll 1
  for (int i = 0; i < iters; i += 16) {
#pragma unroll
    for (int j = 0; j < 16; j++) x = t.a[x & 31];
  }
  const long long t1 = clk();
  out[0] = t1 - t0;
  out[1] = x;
}

__global__ void k_spin(long long cycles) {
  const long long s = clock64();
  while (clock64() - s < cycles) {}
}

static long long* g_out;

static double result(double div) {
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  long long h = 0;
  CK(cudaMemcpy(&h, g_out, sizeof h, cudaMemcpyDeviceToHost));
  return (double)h / div;
}

static void row(const char* cfg, const char* metric, std::vector<double> v) {
  std::sort(v.begin(), v.end());
  printf("sassprobe,%s,%s,%.2f,%.2f,%.2f,%zu\n", cfg, metric, v[v.size() / 2], v[0], v.back(), v.size());
}

// cycle writes the chain order[0] -> order[1] -> ... -> order[0] (line indices) into a host image of next.
static std::vector<uint32_t> cycle(const std::vector<uint32_t>& order, size_t words) {
  std::vector<uint32_t> next(words, 0);
  for (size_t k = 0; k < order.size(); k++) next[(size_t)order[k] * 32] = order[(k + 1) % order.size()] * 32;
  return next;
}

int main() {
  const int ITERS = 2000;
  uint32_t* next;
  CK(cudaMalloc(&next, 2u << 20));
  CK(cudaMalloc(&g_out, 8 * sizeof(long long)));
  CK(cudaFuncSetAttribute(k_chase<0>, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 << 10));
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  k_spin<<<prop.multiProcessorCount, 32>>>(400000000LL);  // ~0.2 s at the load clock: leave the idle clock
  CK(cudaDeviceSynchronize());
  printf("bench,config,metric,median,min,max,runs\n");

  for (int dyn : {0, 16, 100, 200}) {
    for (int kib : {16, 24, 32, 48, 64, 96, 128, 160, 192, 208, 224, 240}) {
      const size_t lines = (size_t)kib * 8;
      std::vector<uint32_t> order(lines);
      std::iota(order.begin(), order.end(), 0);
      std::mt19937 r7(7);
      std::shuffle(order.begin() + 1, order.end(), r7);
      const std::vector<uint32_t> img = cycle(order, (size_t)kib * 256);
      CK(cudaMemcpy(next, img.data(), img.size() * 4, cudaMemcpyHostToDevice));
      std::vector<double> v;
      for (int r = 0; r <= 3; r++) {
        k_chase<0><<<1, 1, dyn << 10>>>(next, (int)lines, ITERS, g_out);
        const double c = result(ITERS);
        if (r > 0) v.push_back(c);
      }
      char cfg[64];
      snprintf(cfg, sizeof cfg, "l1cap_dyn%d_fp%d", dyn, kib);
      row(cfg, "cycles_per_load", v);
    }
  }

  {  // relaunch: warm L1 in one launch, read every line once in the next
    std::vector<uint32_t> order(128);
    std::iota(order.begin(), order.end(), 0);
    std::mt19937 r7(7);
    std::shuffle(order.begin() + 1, order.end(), r7);
    const std::vector<uint32_t> img = cycle(order, 4096);
    CK(cudaMemcpy(next, img.data(), img.size() * 4, cudaMemcpyHostToDevice));
    std::vector<double> v, w;
    for (int r = 0; r < 5; r++) {
      k_chase<0><<<1, 1>>>(next, 128, ITERS, g_out);
      w.push_back(result(ITERS));
      k_chase<0><<<1, 1>>>(next, 0, 128, g_out);
      v.push_back(result(128));
    }
    row("relaunch_fp16_first", "cycles_per_load", w);
    row("relaunch_fp16", "cycles_per_load", v);
  }

  {  // 2 MiB chases in address order (ca, cg) and in a random order (cg)
    const size_t lines = 16384;
    std::vector<uint32_t> seq(lines), rnd(lines);
    std::iota(seq.begin(), seq.end(), 0);
    std::iota(rnd.begin(), rnd.end(), 0);
    std::mt19937 r7(7);
    std::shuffle(rnd.begin() + 1, rnd.end(), r7);
    for (int k = 0; k < 3; k++) {
      const std::vector<uint32_t> img = cycle(k < 2 ? seq : rnd, lines * 32);
      CK(cudaMemcpy(next, img.data(), img.size() * 4, cudaMemcpyHostToDevice));
      std::vector<double> v;
      for (int r = 0; r <= 3; r++) {
        if (k == 0) k_chase<0><<<1, 1>>>(next, 64, ITERS, g_out);
        else k_chase<1><<<1, 1>>>(next, 64, ITERS, g_out);
        const double c = result(ITERS);
        if (r > 0) v.push_back(c);
      }
      row(k == 0 ? "seq_ca" : k == 1 ? "seq_cg" : "rnd_cg", "cycles_per_load", v);
    }
  }

  {  // one warp streaming 1 MiB (L2-resident after the first launch)
    const int n4 = 65536;
    float4* in;
    float* sink;
    CK(cudaMalloc(&in, (size_t)n4 * 16));
    CK(cudaMalloc(&sink, 32 * 4));
    std::vector<float> h((size_t)n4 * 4);
    for (size_t k = 0; k < h.size(); k++) h[k] = (float)(k % 97) * 0.25f;
    CK(cudaMemcpy(in, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
    for (int cg = 0; cg < 2; cg++) {
      std::vector<double> v;
      for (int r = 0; r <= 3; r++) {
        if (cg) k_stream<1><<<1, 32>>>(in, n4, sink, g_out);
        else k_stream<0><<<1, 32>>>(in, n4, sink, g_out);
        const double c = result(n4 / 32);
        if (r > 0) v.push_back(c);
      }
      row(cg ? "stream_cg" : "stream_ca", "cycles_per_trip", v);
    }
  }

  {  // constant-load chains
    const uint32_t zeros[64] = {};
    CK(cudaMemcpyToSymbol(ctab, zeros, sizeof zeros));
    Table t = {};
    const int iters = 4096;
    std::vector<double> v, w;
    for (int r = 0; r <= 3; r++) {
      k_ldc3<<<1, 32>>>(iters, g_out);
      const double a = result(iters);
      k_ldcp<<<1, 32>>>(t, iters, g_out);
      const double b = result(iters);
      if (r > 0) v.push_back(a), w.push_back(b);
    }
    row("ldc_bank3", "cycles_per_link", v);
    row("ldc_param", "cycles_per_link", w);
  }
  return 0;
}
