// smemshare.cu: do the copy engine's shared-memory writes (bulk loads landing) and reads (bulk stores) take the
// same shared-memory data array as the warps' LDS? Warps 1..W run R rounds of 8 independent 128-bit shared
// loads each (array-bound: one 128-byte wavefront a cycle for the SM); warp 0 lane 0 meanwhile issues K bulk
// copies of CH bytes, one after another (each waited on), from a 1 MiB source in L2 (loads) or to a 1 MiB
// destination (stores). out[0] = the slowest LDS warp's cycles (the copy loop's without LDS warps), out[1] = the
// copy loop's cycles. Rows: smem_share,<what>_chunk<CH>_warps<W>,lds_cycles or copy_cycles.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o smemshare smemshare.cu
#include "bench.h"
extern __shared__ __align__(128) uint8_t sm[];
__device__ __forceinline__ void bulk_s2g(void* dst, const void* src, uint32_t bytes) {
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" :: "l"(dst), "r"(sa(src)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void commit() { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }
__device__ __forceinline__ void wait_read0() { asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory"); }
__device__ __forceinline__ void wait_all0() { asm volatile("cp.async.bulk.wait_group 0;" ::: "memory"); }

// MODE bit 1: the LDS warps run; bit 2: copies run; bit 4: the copies are stores (else loads).
template <int MODE> __global__ void k_share(uint8_t* g, uint32_t ch, int k, int rounds, long long* out) {
  __shared__ __align__(8) uint64_t bar;
  __shared__ unsigned long long slow;
  uint8_t* a = sm;                   // the copies' buffer, ch bytes
  const uint4* b = (const uint4*)(sm + 16384);  // the LDS warps' buffer, 16 KiB
  for (uint32_t i = threadIdx.x; i < 32768; i += blockDim.x) sm[i] = (uint8_t)i;
  if (threadIdx.x == 0) { mb_init(&bar, 1); slow = 0; }
  fence_async();
  __syncthreads();
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  if (warp == 0) {
    if ((MODE & 2) && lane == 0) {
      uint32_t ph = 0;
      const long long t0 = clk();
      for (int r = 0; r < k; r++) {
        uint8_t* gp = g + (size_t)(r & 63) * ch;
        if (MODE & 4) {
          bulk_s2g(gp, a, ch); commit(); wait_read0();
        } else {
          mb_arrive_tx(&bar, ch); bulk_g2s(a, gp, ch, &bar); mb_wait(&bar, ph); ph ^= 1;
        }
      }
      out[1] = clk() - t0;
      wait_all0();
    }
  } else if (MODE & 1) {
    uint4 acc = make_uint4(0, 0, 0, 0);
    const int base = (warp * 32 + lane) & 1023;
    const long long t0 = clk();
    for (int r = 0; r < rounds; r++) {
#pragma unroll
      for (int j = 0; j < 8; j++) {
        const uint4 v = b[(base + j * 128 + r) & 1023];
        acc.x ^= v.x; acc.y ^= v.y; acc.z ^= v.z; acc.w ^= v.w;
      }
    }
    const long long t = clk() - t0;
    if (acc.x == 0x12345678u) out[3] = acc.y + acc.z + acc.w;  // keep the loads
    if (lane == 0) atomicMax(&slow, (unsigned long long)t);
  }
  __syncthreads();
  if (threadIdx.x == 0) out[0] = (MODE & 1) ? (long long)slow : out[1];
}

int main() {
  uint8_t* g; long long* dout;
  CK(cudaMalloc(&g, 1 << 20)); CK(cudaMalloc(&dout, 8 * sizeof(long long)));
  CK(cudaMemset(g, 1, 1 << 20));
  printf("bench,config,metric,median,min,max,runs\n");
  const int rounds = 512;
  char cfg[96];
  for (int w : {4, 16}) {
    for (uint32_t ch : {4096u, 16384u}) {
      const int k = (int)((w == 16 ? 4u : 1u) * 400u * 4096u / ch);
      CK(cudaFuncSetAttribute(k_share<1>, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536));
      CK(cudaFuncSetAttribute(k_share<2>, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536));
      CK(cudaFuncSetAttribute(k_share<3>, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536));
      CK(cudaFuncSetAttribute(k_share<6>, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536));
      CK(cudaFuncSetAttribute(k_share<7>, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536));
#define ROW(M, NAME)                                                                                       \
      snprintf(cfg, sizeof cfg, "%s_chunk%u_warps%d", NAME, ch, w);                                        \
      timed3("smem_share", cfg, (M & 1) ? "lds_cycles" : "copy_cycles", dout, 1, [&] {                      \
        k_share<M><<<1, 32 * (1 + w), 32768>>>(g, ch, k, rounds, dout); });                                  \
      if ((M & 3) == 3) { long long h[2]; CK(cudaMemcpy(h, dout, sizeof h, cudaMemcpyDeviceToHost));        \
        printf("smem_share,%s,copy_cycles,%lld,%lld,%lld,1\n", cfg, h[1], h[1], h[1]); }
      ROW(1, "lds_only") ROW(2, "loads_only") ROW(3, "lds_loads") ROW(6, "stores_only") ROW(7, "lds_stores")
    }
  }
  return 0;
}
