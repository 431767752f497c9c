// gmem.cu: global-memory load latency from one thread's pointer chase, to separate what the L1, the L2, DRAM
// and address translation each add. ONE thread block of one thread; each chase is `warm` untimed loads, then
// `iters` = 2000 timed loads, each load's address the value the previous one returned (a word index into one
// 16 GiB buffer); out[0] = clock64 after - before. Output CSV "bench,config,metric,median,min,max,runs":
// cycles per load over 3 runs.
//
//   footprint_FKiB        hwprobe.cu's probe P7 at more sizes: every 128-byte line of the first F bytes in one
//                         random cycle (the host copies the whole array in, so what fits stays in L2), plain
//                         ld.global (L1 allocating), warm 64.
//   pagesP_l2             one line in each of P 2 MiB pages (a random line of the page), visited in a random
//                         cycle with ld.global.cg (L2 only), warm P: every load hits in L2, so what grows with P
//                         is address translation.
//   dram_pages8           after an L2 flush (a 512 MiB memset), 2064 distinct random lines of 8 pages, warm 64:
//                         every timed load misses in L2, its page is translated already.
//   dram_pages8192        after an L2 flush, each load in a different page of 8192 (16 GiB), warm 16: every
//                         timed load misses in L2 and in every translation cache that holds fewer pages.
//
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o gmem gmem.cu
#include "bench.h"
#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

extern "C" __global__ void gchase(const uint32_t* next, uint32_t start, int warm, int iters, long long* out) {
  uint32_t i = start;
  for (int k = 0; k < warm; k++) i = next[i];
  const long long t0 = clk();
  for (int k = 0; k < iters; k++) i = next[i];
  const long long t1 = clk();
  out[0] = t1 - t0;
  if (i == 0xffffffffu) out[1] = 1;
}

extern "C" __global__ void gchase_cg(const uint32_t* next, uint32_t start, int warm, int iters, long long* out) {
  uint32_t i = start;
  for (int k = 0; k < warm; k++) asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(i) : "l"(next + i) : "memory");
  const long long t0 = clk();
  for (int k = 0; k < iters; k++) asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(i) : "l"(next + i) : "memory");
  const long long t1 = clk();
  out[0] = t1 - t0;
  if (i == 0xffffffffu) out[1] = 1;
}

// scatter writes next[idx[k]] = val[k].
__global__ void scatter(uint32_t* next, const uint32_t* idx, const uint32_t* val, int n) {
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += gridDim.x * blockDim.x) next[idx[k]] = val[k];
}

__global__ void k_spin(long long cycles, int* sink) {
  const long long s = clock64();
  while (clock64() - s < cycles) {}
  if (threadIdx.x == 0 && sink) sink[blockIdx.x] = 1;
}

static const int RUNS = 3, ITERS = 2000;
static const size_t PAGE = 2u << 20, LINE_WORDS = 32, PAGE_WORDS = PAGE / 4;
static uint32_t *g_next, *g_idx, *g_val;
static long long* g_out;
static uint8_t* g_scratch;
static const size_t SCRATCH = 512u << 20;

// chain writes the cycle order[0] -> order[1] -> ... -> order[0] (word indices) into the buffer.
static void chain(const std::vector<uint32_t>& order) {
  const size_t n = order.size();
  std::vector<uint32_t> val(n);
  for (size_t k = 0; k < n; k++) val[k] = order[(k + 1) % n];
  CK(cudaMemcpy(g_idx, order.data(), n * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(g_val, val.data(), n * 4, cudaMemcpyHostToDevice));
  scatter<<<256, 256>>>(g_next, g_idx, g_val, (int)n);
  CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
}

static double launch(bool cg, uint32_t start, int warm) {
  (cg ? gchase_cg : gchase)<<<1, 1>>>(g_next, start, warm, ITERS, g_out);
  CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
  long long h = 0;
  CK(cudaMemcpy(&h, g_out, sizeof h, cudaMemcpyDeviceToHost));
  return (double)h / ITERS;
}

static void print(const char* cfg, std::vector<double> v) {
  std::sort(v.begin(), v.end());
  printf("gload,%s,cycles_per_load,%.2f,%.2f,%.2f,%d\n", cfg, v[1], v[0], v[2], RUNS);
}

static void flush() { CK(cudaMemset(g_scratch, 1, SCRATCH)); CK(cudaDeviceSynchronize()); }

int main() {
  int* sink; CK(cudaMalloc(&sink, 1024 * sizeof(int)));
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  const size_t total = (size_t)16 << 30;
  CK(cudaMalloc(&g_next, total));
  CK(cudaMalloc(&g_idx, 64u << 20)); CK(cudaMalloc(&g_val, 64u << 20));
  CK(cudaMalloc(&g_out, 8 * sizeof(long long)));
  CK(cudaMalloc(&g_scratch, SCRATCH));
  k_spin<<<prop.multiProcessorCount, 32>>>(100000000LL, sink); CK(cudaDeviceSynchronize());
  printf("bench,config,metric,median,min,max,runs\n");
  std::mt19937 rng(7);

  // footprint_F: as hwprobe.cu P7 (the same permutation recipe), more sizes.
  for (size_t kib : {16ul, 2048ul, 16384ul, 32768ul, 65536ul, 131072ul, 262144ul, 524288ul, 1048576ul, 2097152ul, 4194304ul}) {
    const size_t bytes = kib << 10, n = bytes / 4, lines = bytes / 128;
    std::vector<uint32_t> perm(lines);
    std::iota(perm.begin(), perm.end(), 0);
    std::mt19937 r7(7);
    std::shuffle(perm.begin() + 1, perm.end(), r7);
    std::vector<uint32_t> next(n, 0);
    for (size_t i = 0; i < lines; i++) next[(size_t)perm[i] * 32] = perm[(i + 1) % lines] * 32;
    std::vector<double> v;
    for (int r = 0; r <= RUNS; r++) {
      CK(cudaMemcpy(g_next, next.data(), bytes, cudaMemcpyHostToDevice));
      const double c = launch(false, 0, 64);
      if (r > 0) v.push_back(c);
    }
    char cfg[64]; snprintf(cfg, sizeof cfg, "footprint_%zuKiB", kib);
    print(cfg, v);
  }

  // pagesP_l2: one line per page, L2 hits, translation grows with P.
  for (int P : {1, 2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 1024, 2048, 4096, 8192}) {
    std::vector<uint32_t> pages(8192);
    std::iota(pages.begin(), pages.end(), 0);
    std::shuffle(pages.begin(), pages.end(), rng);
    std::vector<uint32_t> order(P);
    for (int k = 0; k < P; k++) order[k] = (uint32_t)(pages[k] * PAGE_WORDS + (rng() % (PAGE_WORDS / LINE_WORDS)) * LINE_WORDS);
    chain(order);
    std::vector<double> v;
    for (int r = 0; r <= RUNS; r++) {
      const double c = launch(true, order[0], P);
      if (r > 0) v.push_back(c);
    }
    char cfg[64]; snprintf(cfg, sizeof cfg, "pages%d_l2", P);
    print(cfg, v);
  }

  // dram_pages8: distinct random lines of 8 pages after an L2 flush.
  {
    const int n = ITERS + 64;
    std::vector<uint32_t> lines(8 * PAGE_WORDS / LINE_WORDS);
    std::iota(lines.begin(), lines.end(), 0);
    std::shuffle(lines.begin(), lines.end(), rng);
    std::vector<uint32_t> order(n);
    for (int k = 0; k < n; k++) order[k] = lines[k] * LINE_WORDS;
    chain(order);
    std::vector<double> v;
    for (int r = 0; r <= RUNS; r++) {
      flush();
      const double c = launch(false, order[0], 64);
      if (r > 0) v.push_back(c);
    }
    print("dram_pages8", v);
  }
  // dram_pages8192: each load in its own page, after an L2 flush.
  {
    const int n = ITERS + 16;
    std::vector<uint32_t> pages(8192);
    std::iota(pages.begin(), pages.end(), 0);
    std::shuffle(pages.begin(), pages.end(), rng);
    std::vector<uint32_t> order(n);
    for (int k = 0; k < n; k++) order[k] = (uint32_t)(pages[k] * PAGE_WORDS + (rng() % (PAGE_WORDS / LINE_WORDS)) * LINE_WORDS);
    chain(order);
    std::vector<double> v;
    for (int r = 0; r <= RUNS; r++) {
      flush();
      const double c = launch(false, order[0], 16);
      if (r > 0) v.push_back(c);
    }
    print("dram_pages8192", v);
  }
  return 0;
}
