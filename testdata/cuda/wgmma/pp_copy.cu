// pp_copy.cu: does a stream of bulk copies slow the barrier unit's hand-offs between other warps? In ring_hop.cu the
// producer's try_wait passes 116-133 cycles after a consumer's arrive on the H200, while calibration/h200
// pingpong.cu's hand-off between two warps is 52.5 cycles: the ring's copies complete on mbarriers of the same
// unit. Three warps of one CTA: warps 0 and 1 hand a token back and forth through two mbarriers of count 1 (lane 0
// arrives, the whole warp waits in a try_wait loop, as pingpong.cu mode 0), 2000 round trips timed by warp 0;
// warp 2's lane 0 meanwhile streams 1-D bulk copies from a 1 MiB L2-resident buffer into shared memory until warp
// 0 is done:
//   C = 0: no copies;  C = 1: 16 KiB copies, four in flight (a slot and an mbarrier each);
//   C = 2: 1 KiB copies, four in flight;  C = 3: one 64 KiB copy at a time;
//   C = 4: 16 KiB copies, four in flight, each slot's barrier waited on by a test_wait spin (no suspended waits);
//   C = 5: ring_hop.cu's producer without its consumers: 24 KiB stages (an 8 KiB and a 16 KiB copy on one
//     mbarrier) through four slots, the thread waiting for a slot's previous stage (tma_stg.cu's stream: the
//     copies at about 95 B/cycle, three or four stages in flight).
// Row: C,cycles_per_round_trip,copy_bytes_per_cycle (the copies' bytes landed over warp 0's span), the fourth launch.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o pp_copy pp_copy.cu (and -cubin, -ptx;
// cuobjdump -sass pp_copy.cubin)
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>

__device__ __forceinline__ uint32_t sa(const void* p) { return (uint32_t)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void mb_init(uint64_t* b, uint32_t n) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(sa(b)), "r"(n) : "memory");
}
__device__ __forceinline__ void mb_arrive(uint64_t* b) {
  asm volatile("{\n\t.reg .b64 st;\n\tmbarrier.arrive.shared::cta.b64 st, [%0];\n\t}" :: "r"(sa(b)) : "memory");
}
__device__ __forceinline__ void mb_arrive_tx(uint64_t* b, uint32_t tx) {
  asm volatile("{\n\t.reg .b64 st;\n\tmbarrier.arrive.expect_tx.shared::cta.b64 st, [%0], %1;\n\t}" :: "r"(sa(b)), "r"(tx) : "memory");
}
__device__ __forceinline__ bool mb_try(uint64_t* b, uint32_t par) {
  uint32_t ok;
  asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
               : "=r"(ok) : "r"(sa(b)), "r"(par) : "memory");
  return ok != 0;
}
__device__ __forceinline__ bool mb_test(uint64_t* b, uint32_t par) {
  uint32_t ok;
  asm volatile("{\n\t.reg .pred p;\n\tmbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
               : "=r"(ok) : "r"(sa(b)), "r"(par) : "memory");
  return ok != 0;
}
__device__ __forceinline__ void bulk(uint32_t dst, const void* src, uint32_t n, uint64_t* b) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
               :: "r"(dst), "l"(src), "r"(n), "r"(sa(b)) : "memory");
}

constexpr int ITERS = 2000, SMEM = 98304 + 128;

__global__ void __launch_bounds__(96, 1) pp_copy(int c, const uint8_t* src, long long* out) {
  extern __shared__ __align__(128) uint8_t smem[];
  __shared__ __align__(8) uint64_t bars[2], slot[4];
  __shared__ volatile int done;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (threadIdx.x == 0) {
    mb_init(&bars[0], 1);
    mb_init(&bars[1], 1);
    for (int s = 0; s < 4; s++) mb_init(&slot[s], 1);
    done = 0;
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  const uint32_t base = sa(smem);
  if (warp == 0) {
    const long long t0 = clock64();
    for (int i = 0; i < ITERS; i++) {
      if (lane == 0) mb_arrive(&bars[0]);
      while (!mb_try(&bars[1], i & 1)) {}
    }
    const long long t1 = clock64();
    if (lane == 0) { out[0] = t1 - t0; done = 1; }
  } else if (warp == 1) {
    for (int i = 0; i < ITERS; i++) {
      while (!mb_try(&bars[0], i & 1)) {}
      if (lane == 0) mb_arrive(&bars[1]);
    }
  } else if (lane == 0 && c != 0) {
    const uint32_t bytes = c == 2 ? 1024 : c == 3 ? 65536 : c == 5 ? 24576 : 16384;
    const int slots = c == 3 ? 1 : 4;
    long long moved = 0;
    const long long t0 = clock64();
    int i = 0;
    for (; !done; i++) {
      const int s = i % slots;
      if (i >= slots) {
        const uint32_t par = ((i / slots) - 1) & 1;
        if (c == 4) { while (!mb_test(&slot[s], par)) {} }
        else { while (!mb_try(&slot[s], par)) {} }
        moved += bytes;
      }
      mb_arrive_tx(&slot[s], bytes);
      if (c == 5) {
        bulk(base + s * bytes, src + (size_t)(i % 16) * 65536, 8192, &slot[s]);
        bulk(base + s * bytes + 8192, src + (size_t)(i % 16) * 65536 + 8192, 16384, &slot[s]);
      } else {
        bulk(base + s * bytes, src + (size_t)(i % 16) * 65536, bytes, &slot[s]);
      }
    }
    const long long t1 = clock64();
    out[1] = moved;
    out[2] = t1 - t0;
    for (int k = i > slots ? i - slots : 0; k < i; k++) {  // the copies still in flight land before the CTA exits
      while (!mb_try(&slot[k % slots], (k / slots) & 1)) {}
    }
  }
  __syncthreads();
}

int main() {
  uint8_t* src;
  long long* out;
  cudaMalloc(&src, 1 << 20);
  cudaMemset(src, 1, 1 << 20);
  cudaMalloc(&out, 3 * sizeof(long long));
  cudaFuncSetAttribute(pp_copy, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM);
  printf("c,cycles_per_round_trip,copy_bytes_per_cycle\n");
  for (int c = 0; c <= 5; c++) {
    long long h[3] = {0, 0, 0};
    for (int r = 0; r < 4; r++) {
      cudaMemset(out, 0, sizeof h);
      pp_copy<<<1, 96, SMEM>>>(c, src, out);
      if (cudaDeviceSynchronize() != cudaSuccess) { fprintf(stderr, "launch failed\n"); return 1; }
      cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    }
    printf("%d,%.2f,%.2f\n", c, (double)h[0] / ITERS, h[2] ? (double)h[1] / h[2] : 0.0);
  }
  return 0;
}
