// dramgran.cu: over how many bytes DRAM loads wait together. dramtail.csv: about one load from DRAM in seven
// waits, evenly from 0 to about 570 cycles, beyond its line's usual latency, and two lines 128 bytes apart loaded
// together wait together. If the wait is a bank's refresh, two lines wait together when they lie in one bank:
// lines closer than the span the addresses are interleaved over banks by always do, lines farther apart do by
// chance only.
//   pair,DIST,I,A,B  lane 0 of warps 0 and 1 of one CTA each load one line, DIST bytes apart (a random first line
//                    of a 256 MiB buffer), issued together after a named barrier, each timed on its own (clock64
//                    after a shared store of the loaded word, minus the clock before the load): A and B their
//                    cycles. The next pair depends on both (a chase). 1024 pairs a distance, L2 emptied before
//                    each distance by reading 512 MiB.
//   gap,GAP,I,CYCLES        one thread chases 1024 random lines of the buffer, spinning GAP cycles (0 to 16000)
//                           between a load's return and the next load, each load timed alone: whether a load
//                           waits for a refresh as often however long DRAM has been idle (a refresh on a fixed
//                           schedule) or more often after a pause (a controller refreshing a channel when it
//                           falls idle; dramtail.csv's same-order repeats suggest it).
//   bulk,SIZE,I,CYCLES      one thread bulk-copies SIZE bytes (1 to 64 KiB) from DRAM into shared memory, waits on
//                           its mbarrier and times it (microbench.csv bulk_copy_latency's loop, each copy from a
//                           fresh random 64 KiB-aligned place of the buffer): 512 copies a size, L2 emptied
//                           before each size. If each bank's span refreshes on its own, a copy over many spans
//                           waits for a refresh far more often than a line does.
// Build: nvcc -O3 -std=c++17 -arch=sm_90a -o dramgran dramgran.cu
#include "bench.h"

constexpr int kN = 1024;
constexpr size_t kRegion = 256ull << 20;

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

// k_pair: step i, warp w (0 or 1) loads the word at byte first[i] + w * dist; lat[2i + w] its cycles.
__global__ void k_pair(const uint32_t* buf, const uint64_t* first, int n, uint64_t dist, uint32_t* lat) {
  __shared__ uint32_t x[2], sink[64];
  const int w = threadIdx.x >> 5;
  const bool lead = (threadIdx.x & 31) == 0 && w < 2;
  uint32_t acc = 0;
  for (int i = 0; i < n; i++) {
    asm volatile("bar.sync 1, 64;" ::: "memory");
    if (lead) {
      const uint64_t byte = first[i] + w * dist;
      const long long t = clk_after(acc, sink + w);
      const uint32_t v = ld_cg(buf + byte / 4 + acc);
      const long long t1 = clk_after(v, sink + w);
      lat[2 * i + w] = (uint32_t)(t1 - t);
      x[w] = v;
    }
    asm volatile("bar.sync 1, 64;" ::: "memory");
    acc = x[0] + x[1];
  }
}

// k_gap: thread 0 loads the words at first[i] in turn, each after spinning gap cycles; lat[i] its cycles.
__global__ void k_gap(const uint32_t* buf, const uint64_t* first, int n, long long gap, uint32_t* lat) {
  __shared__ uint32_t sink[2];
  if (threadIdx.x != 0) return;
  uint32_t acc = 0;
  for (int i = 0; i < n; i++) {
    const long long s = clock64();
    while (clock64() - s < gap) {}
    const long long t = clk_after(acc, sink);
    acc = ld_cg(buf + first[i] / 4 + acc);
    lat[i] = (uint32_t)(clk_after(acc, sink) - t);
  }
}

// k_bulk: copies of size bytes from buf + off[i], one at a time; lat[i] the cycles of copy i.
__global__ void k_bulk(const uint8_t* buf, const uint64_t* off, int n, uint32_t size, uint32_t* lat) {
  extern __shared__ __align__(1024) uint8_t sm[];
  __shared__ uint64_t bar;
  if (threadIdx.x != 0) return;
  mb_init(&bar, 1);
  fence_async();
  uint32_t par = 0;
  for (int i = 0; i < n; i++) {
    const long long t0 = clk();
    mb_arrive_tx(&bar, size);
    bulk_g2s(sm, buf + off[i], size, &bar);
    mb_wait(&bar, par);
    par ^= 1;
    lat[i] = (uint32_t)(clk() - t0);
  }
}

__global__ void k_flush(const uint4* p, size_t n, uint32_t* sink) {
  uint32_t x = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) x ^= p[i].x;
  if (x == 0x12345u) sink[0] = x;
}
__global__ void k_spin(long long cycles) { const long long t0 = clock64(); while (clock64() - t0 < cycles) {} }

int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  const size_t flushBytes = 512ull << 20;
  uint32_t *buf, *lat, *sink;
  uint64_t* first;
  uint4* flush;
  CK(cudaMalloc(&buf, kRegion)); CK(cudaMemset(buf, 0, kRegion));
  CK(cudaMalloc(&flush, flushBytes)); CK(cudaMemset(flush, 1, flushBytes));
  CK(cudaMalloc(&first, kN * 8)); CK(cudaMalloc(&lat, 2 * kN * 4)); CK(cudaMalloc(&sink, 16));
  const uint64_t dists[] = {128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 262144, 2097152, 16777216};
  std::vector<uint64_t> f(kN);
  std::vector<uint32_t> hl(2 * kN);
  srand(23);
  k_spin<<<264, 128>>>(100000000ll);
  CK(cudaDeviceSynchronize());
  for (uint64_t d : dists) {
    const uint64_t lines = (kRegion - d) / 128;
    for (int i = 0; i < kN; i++) f[i] = (((uint64_t)rand() * 32768 + rand()) % lines) * 128;
    CK(cudaMemcpy(first, f.data(), kN * 8, cudaMemcpyHostToDevice));
    k_flush<<<264, 256>>>(flush, flushBytes / 16, sink);
    CK(cudaGetLastError());
    k_pair<<<1, 64>>>(buf, first, kN, d, lat);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(hl.data(), lat, 2 * kN * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < kN; i++) printf("pair,%llu,%d,%u,%u\n", (unsigned long long)d, i, hl[2 * i], hl[2 * i + 1]);
  }
  for (long long gap : {0ll, 1000ll, 4000ll, 16000ll}) {
    const uint64_t lines = kRegion / 128;
    for (int i = 0; i < kN; i++) f[i] = (((uint64_t)rand() * 32768 + rand()) % lines) * 128;
    CK(cudaMemcpy(first, f.data(), kN * 8, cudaMemcpyHostToDevice));
    k_flush<<<264, 256>>>(flush, flushBytes / 16, sink);
    CK(cudaGetLastError());
    k_gap<<<1, 32>>>(buf, first, kN, gap, lat);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(hl.data(), lat, kN * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < kN; i++) printf("gap,%lld,%d,%u\n", gap, i, hl[i]);
  }
  CK(cudaFuncSetAttribute(k_bulk, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 << 10));
  std::vector<uint64_t> o(kN);
  for (uint32_t size : {1024u, 4096u, 16384u, 65536u}) {
    std::vector<uint64_t> slots(kRegion / 65536);
    for (size_t i = 0; i < slots.size(); i++) slots[i] = i * 65536;
    for (size_t i = slots.size() - 1; i > 0; i--) std::swap(slots[i], slots[((size_t)rand() * 32768 + rand()) % (i + 1)]);
    for (int i = 0; i < kN / 2; i++) o[i] = slots[i];
    CK(cudaMemcpy(first, o.data(), kN / 2 * 8, cudaMemcpyHostToDevice));
    k_flush<<<264, 256>>>(flush, flushBytes / 16, sink);
    CK(cudaGetLastError());
    k_bulk<<<1, 32, 64 << 10>>>((const uint8_t*)buf, first, kN / 2, size, lat);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(hl.data(), lat, kN / 2 * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < kN / 2; i++) printf("bulk,%u,%d,%u\n", size, i, hl[i]);
  }
  printf("done,ok,1\n");
  return 0;
}
