// dramtail.cu: where the slow tail of DRAM loads comes from. l2near.csv's chase from DRAM (2048 random lines)
// has two peaks, the line's home partition near (~620 cycles) or far (~800), and a tail of about one load in ten
// that takes 100-550 cycles more. If HBM refresh makes the tail (every bank of a channel unavailable for tRFC
// every tREFI), a line is slow or not by when it is read, not by where it lies, and the slow loads of one chase
// fall in windows at the refresh period; if the place makes it (a bank, a row, a page), the same line is slow in
// every pass.
//   chase,PASS,I,LINE,AT,CYCLES  one thread (CTA 0, one warp) chases N random lines of a 32 MiB buffer (16 pages
//                                of 2 MiB, which the TLB holds) with dependent ld.global.cg, each load timed on
//                                its own (clock64 after a shared store of the loaded word, minus the clock after
//                                the load before): AT its issue in cycles from the chase's start. Before each
//                                pass the L2 is emptied by reading 256 MiB. Passes 0 and 1 take the same lines in
//                                the same order, pass 2 the same lines in another order.
//   pair,PASS,I,A,B              two threads of two warps of CTA 0 each load one of two lines 128 bytes apart
//                                (the same DRAM row: lines 2k and 2k + 1), issued together, timed on their own:
//                                A and B their cycles, chasing on (the next pair depends on both).
// Build: nvcc -O3 -std=c++17 -arch=sm_90a -o dramtail dramtail.cu
#include "bench.h"

constexpr int kN = 4096;
constexpr size_t kRegionLines = (32u << 20) / 128;

__device__ __forceinline__ uint32_t ld_cg(const uint32_t* p) {
  uint32_t x;
  asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(x) : "l"(p) : "memory");
  return x;
}

// clk_after: the clock after a shared store of v, which waits for v.
__device__ __forceinline__ long long clk_after(uint32_t v, uint32_t* sink) {
  long long c;
  asm volatile("st.volatile.shared.u32 [%1], %2;\n\tmov.u64 %0, %%clock64;" : "=l"(c) : "r"(sa(sink)), "r"(v) : "memory");
  return c;
}

// k_chase: thread 0 chases n lines in order ord; lat[i], at[i]: load i's cycles and its issue.
__global__ void k_chase(const uint32_t* buf, const uint32_t* order, int n, uint32_t* lat, uint32_t* at) {
  extern __shared__ uint32_t sh[];
  uint32_t *ord = sh, *l = sh + kN, *a = sh + 2 * kN, *sink = sh + 3 * kN;
  for (int i = threadIdx.x; i < n; i += blockDim.x) ord[i] = order[i];
  __syncthreads();
  if (threadIdx.x == 0) {
    uint32_t acc = 0;
    const long long t0 = clk_after(acc, sink);
    long long t = t0;
    for (int i = 0; i < n; i++) {
      acc = ld_cg(buf + (uint64_t)ord[i] * 32 + acc);
      const long long t1 = clk_after(acc, sink);
      l[i] = (uint32_t)(t1 - t);
      a[i] = (uint32_t)(t - t0);
      t = t1;
    }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) lat[i] = l[i], at[i] = a[i];
}

// k_pair: lane 0 of warps 0 and 1 load lines 2*ord[i] and 2*ord[i] + 1; a named barrier joins them each step.
__global__ void k_pair(const uint32_t* buf, const uint32_t* order, int n, uint32_t* lat) {
  extern __shared__ uint32_t sh[];
  uint32_t *ord = sh, *l = sh + kN, *x = sh + 3 * kN, *sink = sh + 3 * kN + 32;
  for (int i = threadIdx.x; i < n; i += blockDim.x) ord[i] = order[i];
  __syncthreads();
  const int w = threadIdx.x >> 5;
  const bool lead = (threadIdx.x & 31) == 0 && w < 2;
  uint32_t acc = 0;
  for (int i = 0; i < n; i++) {
    asm volatile("bar.sync 1, 64;" ::: "memory");
    if (lead) {
      const long long t = clk_after(acc, sink + w);
      const uint32_t v = ld_cg(buf + ((uint64_t)ord[i] % (kRegionLines / 2) * 2 + w) * 32 + acc);
      const long long t1 = clk_after(v, sink + w);
      l[2 * i + w] = (uint32_t)(t1 - t);
      x[w] = v;
    }
    asm volatile("bar.sync 1, 64;" ::: "memory");
    acc = x[0] + x[1];
  }
  __syncthreads();
  for (int i = threadIdx.x; i < 2 * n; i += blockDim.x) lat[i] = l[i];
}

__global__ void k_flush(const uint4* p, size_t n, uint32_t* sink) {
  uint32_t x = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) x ^= p[i].x;
  if (x == 0x12345u) sink[0] = x;
}
__global__ void k_spin(long long cycles) { const long long t0 = clock64(); while (clock64() - t0 < cycles) {} }

int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  const size_t flushBytes = 256ull << 20;
  uint32_t *buf, *order, *lat, *at, *sink;
  uint4* flush;
  CK(cudaMalloc(&buf, kRegionLines * 128)); CK(cudaMemset(buf, 0, kRegionLines * 128));
  CK(cudaMalloc(&flush, flushBytes)); CK(cudaMemset(flush, 1, flushBytes));
  CK(cudaMalloc(&order, kN * 4)); CK(cudaMalloc(&lat, 2 * kN * 4)); CK(cudaMalloc(&at, kN * 4));
  CK(cudaMalloc(&sink, 16));
  const int smem = (3 * kN + 64) * 4;
  CK(cudaFuncSetAttribute(k_chase, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  CK(cudaFuncSetAttribute(k_pair, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  std::vector<uint32_t> all(kRegionLines), ord(kN), ord2(kN), hl(2 * kN), ha(kN);
  for (uint32_t i = 0; i < all.size(); i++) all[i] = i;
  srand(11);
  for (size_t i = all.size() - 1; i > 0; i--) std::swap(all[i], all[((size_t)rand() * 32768 + rand()) % (i + 1)]);
  for (int i = 0; i < kN; i++) ord[i] = all[i];
  ord2 = ord;
  for (int i = kN - 1; i > 0; i--) std::swap(ord2[i], ord2[rand() % (i + 1)]);
  k_spin<<<264, 128>>>(100000000ll);
  CK(cudaDeviceSynchronize());
  auto empty = [&]() { k_flush<<<264, 256>>>(flush, flushBytes / 16, sink); CK(cudaGetLastError()); };
  for (int pass = 0; pass < 3; pass++) {
    const std::vector<uint32_t>& o = pass == 2 ? ord2 : ord;
    CK(cudaMemcpy(order, o.data(), kN * 4, cudaMemcpyHostToDevice));
    empty();
    k_chase<<<1, 256, smem>>>(buf, order, kN, lat, at);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(hl.data(), lat, kN * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(ha.data(), at, kN * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < kN; i++) printf("chase,%d,%d,%u,%u,%u\n", pass, i, o[i], ha[i], hl[i]);
  }
  for (int pass = 0; pass < 2; pass++) {
    CK(cudaMemcpy(order, (pass ? ord2 : ord).data(), kN * 4, cudaMemcpyHostToDevice));
    empty();
    k_pair<<<1, 64, smem>>>(buf, order, kN / 4, lat);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(hl.data(), lat, kN / 2 * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < kN / 4; i++) printf("pair,%d,%d,%u,%u\n", pass, i, hl[2 * i], hl[2 * i + 1]);
  }
  printf("done,ok,1\n");
  return 0;
}
