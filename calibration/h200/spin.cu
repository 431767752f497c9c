// spin.cu: how often a test_wait spin polls, and how late a spin and a try_wait loop see the same copy complete.
// k_polls: one thread, N test_waits on a phase that never completes, each parity taken from the previous answer
// (a dependent chain; ptxas: PHASECHK, SEL, SHF) or each answer counted (independent); cycles per test_wait.
// k_obs<MODE>: one thread copies B bytes (cp.async.bulk, the source in L2: cudaMemset right before) 16 times,
// each timed from its arrive.expect_tx until a test_wait spin (MODE 0) or a try_wait loop (MODE 1) sees it done;
// the row is the median of copies 3-16 over launches 2-6 (70 samples).
// Rows: polls,{dependent,independent}_nN,cycles_per_test_wait; observe,bytesB_{test_wait,try_wait},cycles.
// Not `validate` rows. Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o spin spin.cu -lcuda
// (./spin 1 launches with 128 KiB of dynamic shared memory, ./spin 0 1 without the cudaMemset: same rows.)
#include <cuda.h>
#include "bench.h"
__device__ __forceinline__ bool mb_test(uint64_t* b, uint32_t par) {
  uint32_t ok;
  asm volatile("{\n\t.reg .pred p;\n\tmbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
               : "=r"(ok) : "r"(sa(b)), "r"(par) : "memory");
  return ok != 0;
}
__device__ __forceinline__ void bulk(void* dst, const void* src, uint32_t n, uint64_t* b) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
               :: "r"(sa(dst)), "l"(src), "r"(n), "r"(sa(b)) : "memory");
}
// K1: N test_waits on an open phase, each parity taken from the previous answer (a dependent chain), or
// counted (independent). out[0] = cycles of the dependent chain, out[1] = independent.
__global__ void k_polls(int n, long long* out) {
  __shared__ uint64_t bar;
  mb_init(&bar, 2);
  fence_async();
  uint32_t par = 0, cnt = 0;
  long long t0 = clk();
  for (int i = 0; i < n; i++) par = mb_test(&bar, par) ? 1u : 0u;
  long long t1 = clk();
  for (int i = 0; i < n; i++) cnt += mb_test(&bar, 0) ? 1u : 0u;
  long long t2 = clk();
  out[0] = t1 - t0; out[1] = t2 - t1; out[2] = par + cnt;
}
// K2: a bulk copy of B bytes (in L2) observed by a test_wait spin (MODE 0) or a try_wait loop (MODE 1),
// from the arrive.expect_tx; reps copies, out[r].
template <int MODE> __global__ void k_obs(const uint8_t* g, uint32_t bytes, int reps, long long* out) {
  extern __shared__ __align__(1024) uint8_t sm[];
  __shared__ uint64_t bar;
  mb_init(&bar, 1);
  fence_async();
  for (int r = 0; r < reps; r++) {
    const long long t0 = clk();
    mb_arrive_tx(&bar, bytes);
    bulk(sm, g, bytes, &bar);
    if (MODE == 0) { while (!mb_test(&bar, r & 1)) {} } else { mb_wait(&bar, r & 1); }
    out[r] = clk() - t0;
  }
}
int main(int argc, char** argv) {
  const int bigsmem = argc > 1 ? atoi(argv[1]) : 0;  // 1: launch with 128 KiB dynamic shared memory
  const int nomemset = argc > 2 ? atoi(argv[2]) : 0; // 1: no cudaMemset before each launch
  long long* d; CK(cudaMalloc(&d, 64 * sizeof(long long)));
  uint8_t* g; CK(cudaMalloc(&g, 1 << 20));
  printf("bench,config,metric,median,min,max,runs\n");
  for (int n : {64, 1024}) {
    std::vector<double> a, b;
    for (int r = 0; r < 4; r++) {
      k_polls<<<1, 1>>>(n, d); CK(cudaDeviceSynchronize());
      long long h[3]; CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
      if (r) { a.push_back((double)h[0] / n); b.push_back((double)h[1] / n); }
    }
    std::sort(a.begin(), a.end()); std::sort(b.begin(), b.end());
    printf("polls,dependent_n%d,cycles_per_test_wait,%.2f,%.2f,%.2f,3\n", n, a[1], a[0], a[2]);
    printf("polls,independent_n%d,cycles_per_test_wait,%.2f,%.2f,%.2f,3\n", n, b[1], b[0], b[2]);
  }
  CK(cudaFuncSetAttribute(k_obs<0>, cudaFuncAttributeMaxDynamicSharedMemorySize, 128 * 1024));
  CK(cudaFuncSetAttribute(k_obs<1>, cudaFuncAttributeMaxDynamicSharedMemorySize, 128 * 1024));
  for (int bytes : {16, 256, 1024, 4096, 8192, 16384, 65536}) {
    for (int mode = 0; mode < 2; mode++) {
      std::vector<double> v;
      for (int r = 0; r < 6; r++) {
        if (!nomemset) CK(cudaMemset(g, 1, 1 << 20));
        const int smb = bigsmem ? 128 * 1024 : (bytes < 1024 ? 1024 : bytes);
        if (mode == 0) k_obs<0><<<1, 1, smb>>>(g, bytes, 16, d);
        else k_obs<1><<<1, 1, smb>>>(g, bytes, 16, d);
        CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
        long long h[16]; CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
        if (r == 0) continue;
        for (int i = 2; i < 16; i++) v.push_back((double)h[i]);
      }
      std::sort(v.begin(), v.end());
      printf("observe,bytes%d_%s,cycles,%.1f,%.0f,%.0f,%zu\n", bytes, mode ? "try_wait" : "test_wait", v[v.size() / 2], v[0], v.back(), v.size());
    }
  }
  return 0;
}
