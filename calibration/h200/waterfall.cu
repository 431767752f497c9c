// waterfall.cu: what a bulk copy costs its thread when ptxas cannot keep its operands on the uniform datapath.
// One thread (threadIdx.x == 32 of a block of 64) issues `reps` bulk copies of SIZE bytes, each followed by its wait;
// out[0] = cycles of the loop, out[1] = the summed hold of MODE 2, 3, 6, 7. Rows: waterfall,<name>_size<SIZE>,
// cycles_per_copy (out[0] / reps) and, for the hold modes, hold_cycles (out[1] / reps).
// MODE 0: operands uniform (kernel parameters and the loop counter): UBLKCP from uniform registers.
// MODE 1: the same with a per-thread zero (loaded from global) added to both addresses: the operands are
//         vector registers, moved to uniform ones by ptxas's R2UR loop.
// MODE 2/3: as 0/1, the hold measured directly: clock before the copy, clock after its commit.
// MODE 4/5: bulk loads (global to shared, mbarrier complete_tx), uniform / vector operands, each waited on.
// MODE 6/7: as 4/5, the hold measured directly: clock before the arrive.expect_tx, clock after the copy.
// MODE 0-5 leave the other threads out with a return (what follows is uniform code); MODE + 8: the same loop
// inside `if (threadIdx.x == 32) { ... }`, a region the other lanes skip.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o waterfall waterfall.cu
#include "bench.h"
extern __shared__ __align__(128) uint8_t sm[];
__device__ __forceinline__ void bulk_s2g(void* dst, const void* src, uint32_t bytes) {
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" :: "l"(dst), "r"(sa(src)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void commit() { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }
__device__ __forceinline__ void wait_read0() { asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory"); }
__device__ __forceinline__ void wait_all0() { asm volatile("cp.async.bulk.wait_group 0;" ::: "memory"); }

template <int MODE> __global__ void k_wf(uint8_t* dst, const int* zero, uint32_t size, int reps, long long* out) {
  __shared__ __align__(8) uint64_t bar;
  for (uint32_t i = threadIdx.x; i < size; i += blockDim.x) sm[i] = (uint8_t)i;
  if (threadIdx.x == 0) { mb_init(&bar, 1); }
  fence_async();
  __syncthreads();
  const int z = (MODE & 1) ? zero[threadIdx.x] : 0;
  if (!(MODE & 8) && threadIdx.x != 32) return;
  if (threadIdx.x == 32) {
    long long hold = 0;
    uint32_t ph = 0;
    const long long t0 = clk();
    for (int r = 0; r < reps; r++) {
      uint8_t* d = dst + (r & 15) * size + z;
      if ((MODE & 7) >= 4) {
        long long a = 0;
        if ((MODE & 7) >= 6) a = clk();
        mb_arrive_tx(&bar, size);
        bulk_g2s(sm + z, d, size, &bar);
        if ((MODE & 7) >= 6) hold += clk() - a;
        mb_wait(&bar, ph);
        ph ^= 1;
      } else if ((MODE & 7) >= 2) {
        const long long a = clk();
        bulk_s2g(d, sm + z, size);
        commit();
        hold += clk() - a;
        wait_read0();
      } else {
        bulk_s2g(d, sm + z, size);
        commit();
        wait_read0();
      }
    }
    const long long t1 = clk();
    wait_all0();
    out[0] = t1 - t0;
    out[1] = hold;
  }
}

int main() {
  const int reps = 256;
  uint8_t* dst; int* zero; long long* dout;
  CK(cudaMalloc(&dst, 16 * 16384)); CK(cudaMalloc(&zero, 64 * sizeof(int))); CK(cudaMalloc(&dout, 8 * sizeof(long long)));
  CK(cudaMemset(dst, 0, 16 * 16384)); CK(cudaMemset(zero, 0, 64 * sizeof(int)));
  printf("bench,config,metric,median,min,max,runs\n");
  char cfg[64];
  const char* names[] = {"store_uniform", "store_vector", "hold_uniform", "hold_vector", "load_uniform", "load_vector",
                         "load_hold_uniform", "load_hold_vector", "store_region", "store_region_vector", "hold_region",
                         "hold_region_vector", "load_region", "load_region_vector", "load_hold_region", "load_hold_region_vector"};
  for (uint32_t size : {256u, 4096u}) {
#define RUN(M)                                                                                          \
    snprintf(cfg, sizeof cfg, "%s_size%u", names[M], size);                                             \
    timed3("waterfall", cfg, "cycles_per_copy", dout, reps, [&] {                                       \
      k_wf<M><<<1, 64, size>>>(dst, zero, size, reps, dout);                                            \
    });                                                                                                 \
    if ((M & 7) == 2 || (M & 7) == 3 || (M & 7) == 6 || (M & 7) == 7) {                                                                             \
      long long h[2]; CK(cudaMemcpy(h, dout, sizeof h, cudaMemcpyDeviceToHost));                       \
      printf("waterfall,%s,hold_cycles,%.2f,%.2f,%.2f,1\n", cfg, (double)h[1] / reps, (double)h[1] / reps, (double)h[1] / reps); \
    }
    RUN(0) RUN(1) RUN(2) RUN(3) RUN(4) RUN(5) RUN(6) RUN(7) RUN(8) RUN(9) RUN(10) RUN(11) RUN(12) RUN(13) RUN(14) RUN(15)
  }
  return 0;
}
