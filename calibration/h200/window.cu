// window.cu: what reading the CTA's shared window again (S2UR / S2R SR_CgaCtaId, where ptxas forms a shared
// variable's address anew) costs, what libcu++'s barrier waits cost on a completed phase next to cuda::ptx's, and
// what a %globaltimer read costs: each a link of one warp's dependent chain of shared loads (address smem + x, x
// always 0), 4096 links, out[0] / 4096. One warp; "vector" modes run inside a lane-dependent branch, so ptxas uses
// vector registers (S2R) where uniform code uses the uniform datapath (S2UR).
// MODE 0: lane-dependent region (vector code), address taken outside the loop.
// MODE 1: lane-dependent region, address taken inside the loop, a nanosleep that never runs (forces a re-read).
// MODE 2: uniform code, the same as 1 (S2UR).
// MODE 3: uniform code, address outside, x also depends on a %globaltimer read (>> 63, always 0).
// MODE 4: uniform code, address outside, x also depends on a %clock64 read (>> 63, always 0).
// MODE 5: uniform code, each link also waits on a completed phase with cuda::ptx::mbarrier_try_wait_parity.
// MODE 6: uniform code, each link also waits on a completed phase with cuda::barrier::wait_parity (libcu++).
// MODE 7: as 5, in a lane-dependent region.
// MODE 8: as 6, in a lane-dependent region.
// MODE 9: uniform code, each link also does libcu++'s bar.wait(bar.arrive()) on a barrier of the warp's 32 threads.
// MODE 10: the same with cuda::ptx::mbarrier_arrive and a try_wait(token) loop. MODE 11/12: 9/10 in a lane-dependent region.
#include <cuda/barrier>
#include <cuda/ptx>
#include "bench.h"
extern __shared__ __align__(16) uint32_t smem[];
using block_barrier = cuda::barrier<cuda::thread_scope_block>;
template <int MODE> __device__ __forceinline__ uint32_t body(int iters, int never, uint64_t* raw, block_barrier* lib, uint64_t* raw1, block_barrier* lib1) {
  uint32_t x = 0;
  uint32_t base0;
  asm volatile("mov.u32 %0, smem;" : "=r"(base0));
  for (int i = 0; i < iters; i++) {
    uint32_t base = base0;
    if (MODE == 1 || MODE == 2) asm volatile("mov.u32 %0, smem;" : "=r"(base));
    uint32_t v;
    asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(base + x) : "memory");
    if ((MODE == 1 || MODE == 2) && v == (uint32_t)never) __nanosleep(100);
    if (MODE == 3) { uint64_t g; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g)); v += (uint32_t)(g >> 63); }
    if (MODE == 4) { uint64_t g; asm volatile("mov.u64 %0, %%clock64;" : "=l"(g)); v += (uint32_t)(g >> 63); }
    if (MODE == 5 || MODE == 7) while (!cuda::ptx::mbarrier_try_wait_parity(raw, (uint32_t)v)) {}
    if (MODE == 6 || MODE == 8) lib->wait_parity(v != 0);
    if (MODE == 9 || MODE == 11) { lib1->wait(lib1->arrive()); }
    if (MODE == 10 || MODE == 12) { uint64_t tk = cuda::ptx::mbarrier_arrive(raw1); while (!cuda::ptx::mbarrier_try_wait(raw1, tk)) {} }
    x = v;
  }
  return x;
}
template <int MODE> __global__ void k_window(int iters, int never, long long* out) {
  __shared__ uint64_t raw;
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ block_barrier lib, lib1;
  __shared__ uint64_t raw1;
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) smem[i] = 0;
  if (threadIdx.x == 0) { cuda::ptx::mbarrier_init(&raw, 1u); init(&lib, 1); cuda::ptx::mbarrier_init(&raw1, 32u); init(&lib1, 32); }
  __syncthreads();
  if (threadIdx.x == 0) { (void)cuda::ptx::mbarrier_arrive(&raw); (void)lib.arrive(); }
  __syncthreads();
  long long t0 = clock64();
  uint32_t x;
  if (MODE == 0 || MODE == 1 || MODE == 7 || MODE == 8 || MODE == 11 || MODE == 12) {
    if (threadIdx.x != (unsigned)never) x = body<MODE>(iters, never, &raw, &lib, &raw1, &lib1);
    else x = 1;
  } else {
    x = body<MODE>(iters, never, &raw, &lib, &raw1, &lib1);
  }
  long long t1 = clock64();
  if (threadIdx.x == 0) { out[0] = t1 - t0; out[1] = x; }
}
// Rows: window,<mode name>,cycles_per_link (median of three launches after a warm-up launch).
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o window window.cu
int main() {
  long long* dout; CK(cudaMalloc(&dout, 8 * sizeof(long long)));
  printf("bench,config,metric,median,min,max,runs\n");
  const int iters = 4096;
  static const char* names[] = {"vector_outside", "vector_inside_sleep", "uniform_inside_sleep", "globaltimer",
                                "clock64", "ptx_try_wait_parity", "lib_wait_parity", "vector_ptx_try_wait_parity",
                                "vector_lib_wait_parity", "lib_arrive_wait_token", "ptx_arrive_wait_token", "vector_lib_arrive_wait_token",
                                "vector_ptx_arrive_wait_token"};
#define RUN(M) timed3("window", names[M], "cycles_per_link", dout, iters, [&] { k_window<M><<<1, 32, 4096>>>(iters, 77, dout); });
  RUN(0) RUN(1) RUN(2) RUN(3) RUN(4) RUN(5) RUN(6) RUN(7) RUN(8) RUN(9) RUN(10) RUN(11) RUN(12)
  return 0;
}
