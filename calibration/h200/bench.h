// bench.h: what the H200 calibration programs of this folder share (pipeline.cu, pipetrace.cu, issue.cu,
// membw.cu, latency2.cu): a CUDA error check, the dependent-chain timing loop, and the mbarrier, bulk-copy and
// clock operations as inline PTX, so that each kernel's PTX says exactly which instruction it times.
#pragma once
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error '%s' at line %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)

// CHAIN(K, BODY): `iters` operations (iters a multiple of 16), BODY (4 operations) 4 times per loop trip;
// out[K] = clock64 after - before.
#define CHAIN(K, BODY)                                  \
  {                                                     \
    const long long t0 = clock64();                     \
    for (int i = 0; i < iters; i += 16) {               \
      for (int j = 0; j < 4; j++) { BODY }              \
    }                                                   \
    out[K] = clock64() - t0;                            \
  }

// timed3 (host): launch() runs once untimed and three times timed; each timed run's out[0] / div is one sample.
// Prints the row "BENCH,CONFIG,METRIC,median,min,max,3" (elect.cu, branch.cu, waitdelay.cu, syncwarp.cu, libpipe.cu).
template <class Launch>
static void timed3(const char* bench, const char* config, const char* metric, long long* dout, double div,
                   Launch launch) {
  std::vector<double> v;
  for (int r = 0; r <= 3; r++) {
    launch();
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    long long h = 0;
    CK(cudaMemcpy(&h, dout, sizeof h, cudaMemcpyDeviceToHost));
    if (r > 0) v.push_back((double)h / div);
  }
  std::sort(v.begin(), v.end());
  printf("%s,%s,%s,%.2f,%.2f,%.2f,3\n", bench, config, metric, v[1], v[0], v[2]);
}

__device__ __forceinline__ uint32_t sa(const void* p) { return (uint32_t)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void mb_init(uint64_t* b, uint32_t n) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(sa(b)), "r"(n) : "memory");
}
__device__ __forceinline__ void fence_async() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }
__device__ __forceinline__ void mb_arrive(uint64_t* b) {
  asm volatile("{\n\t.reg .b64 st;\n\tmbarrier.arrive.shared::cta.b64 st, [%0];\n\t}" :: "r"(sa(b)) : "memory");
}
__device__ __forceinline__ void mb_arrive_n(uint64_t* b, uint32_t n) {
  asm volatile("{\n\t.reg .b64 st;\n\tmbarrier.arrive.shared::cta.b64 st, [%0], %1;\n\t}" :: "r"(sa(b)), "r"(n) : "memory");
}
__device__ __forceinline__ void mb_arrive_tx(uint64_t* b, uint32_t tx) {
  asm volatile("{\n\t.reg .b64 st;\n\tmbarrier.arrive.expect_tx.shared::cta.b64 st, [%0], %1;\n\t}" :: "r"(sa(b)), "r"(tx) : "memory");
}
__device__ __forceinline__ void mb_expect_tx(uint64_t* b, uint32_t tx) {
  asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" :: "r"(sa(b)), "r"(tx) : "memory");
}
__device__ __forceinline__ bool mb_try(uint64_t* b, uint32_t par) {
  uint32_t ok;
  asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
               : "=r"(ok) : "r"(sa(b)), "r"(par) : "memory");
  return ok != 0;
}
__device__ __forceinline__ void mb_wait(uint64_t* b, uint32_t par) { while (!mb_try(b, par)) {} }
__device__ __forceinline__ void bulk_g2s(void* dst, const void* src, uint32_t bytes, uint64_t* b) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
               :: "r"(sa(dst)), "l"(src), "r"(bytes), "r"(sa(b)) : "memory");
}
__device__ __forceinline__ long long clk() {
  long long c;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c) :: "memory");
  return c;
}
