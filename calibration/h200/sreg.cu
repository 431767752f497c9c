// sreg.cu: how long a special-register read (S2R / S2UR) takes to deliver its value, read directly. One warp,
// clock to clock around a read and the shared store whose address depends on it (k_sreg<MODE>): a warp issues in
// order, so the store, and the clock read behind it, issue only once the read's scoreboard is released. MODE 0
// takes the address from before the first clock read (no read: the stall counts alone); the others read, then
// store through the address:
// MODE 1: the shared window again (`mov.u32 r, smem`: ptxas's S2UR SR_CgaCtaId + ULEA, uniform code).
// MODE 2: the same in a lane-dependent region (vector code: S2R SR_CgaCtaId + LEA).
// MODE 3: %smid (volatile in PTX, so read each time), address + (smid >> 31) * 4 (always + 0).
// MODE 4: %warpid, the same.
// MODE 5: %clock64 (CS2R, fixed latency), address + (clock >> 63) * 4, for comparison.
// MODE 6: %smid in a lane-dependent region.
// MODE 7: a shared variable's address (__cvta_generic_to_shared, as mbarrier code takes it: S2UR + ULEA).
// Every trip starts with __syncthreads() (__syncwarp() in the lane-dependent modes), as stamps.cu's k_uwake, whose arriving thread re-reads the window
// between its clock read and its arrive.
// Rows: sreg,<mode name>,cycles, median/min/max over 64 repetitions of one launch (after a warm-up launch).
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o sreg sreg.cu
#include "bench.h"
extern __shared__ __align__(16) uint32_t smem[];

__shared__ uint32_t var;

template <int MODE> __device__ __forceinline__ long long link(uint32_t base0) {
  const long long t0 = clk();
  uint32_t a = base0, s = 0;
  if (MODE == 1 || MODE == 2) asm volatile("mov.u32 %0, smem;" : "=r"(a));
  if (MODE == 7) a = sa(&var);
  if (MODE == 3 || MODE == 6) { asm volatile("mov.u32 %0, %%smid;" : "=r"(s)); a += (s >> 31) * 4; }
  if (MODE == 4) { asm volatile("mov.u32 %0, %%warpid;" : "=r"(s)); a += (s >> 31) * 4; }
  if (MODE == 5) { long long c; asm volatile("mov.u64 %0, %%clock64;" : "=l"(c)); a += (uint32_t)((unsigned long long)c >> 63) * 4; }
  asm volatile("st.shared.u32 [%0], %1;" :: "r"(a), "r"(0) : "memory");
  const long long t1 = clk();
  return t1 - t0;
}

template <int MODE> __device__ __forceinline__ void body(int reps, long long* out) {
  uint32_t base0;
  asm volatile("mov.u32 %0, smem;" : "=r"(base0));
#pragma unroll 1
  for (int r = 0; r < reps; r++) {
    if (MODE == 2 || MODE == 6) __syncwarp(); else __syncthreads();
    const long long d = link<MODE>(base0);
    if (threadIdx.x == 0) out[r] = d;
  }
}

template <int MODE> __global__ void k_sreg(int reps, int never, long long* out) {
  if ((int)threadIdx.x == never) smem[0] = 0;  // declares the array in the PTX (never runs)
  if (MODE == 2 || MODE == 6) {
    if (threadIdx.x != (unsigned)never) body<MODE>(reps, out);
  } else {
    body<MODE>(reps, out);
  }
}

int main() {
  const int reps = 64;
  long long* dout; CK(cudaMalloc(&dout, reps * sizeof(long long)));
  printf("bench,config,metric,median,min,max,runs\n");
  static const char* names[] = {"no_read", "s2ur_window", "s2r_window", "smid", "warpid", "clock64", "s2r_smid", "s2ur_var"};
  auto run = [&](int m, auto launch) {
    std::vector<long long> h(reps);
    for (int k = 0; k < 2; k++) { launch(); CK(cudaGetLastError()); CK(cudaDeviceSynchronize()); }
    CK(cudaMemcpy(h.data(), dout, reps * sizeof(long long), cudaMemcpyDeviceToHost));
    std::vector<long long> v(h.begin() + 1, h.end());  // the first repetition warms the loop
    std::sort(v.begin(), v.end());
    printf("sreg,%s,cycles,%.2f,%.2f,%.2f,%d\n", names[m], (double)v[v.size() / 2], (double)v.front(), (double)v.back(), (int)v.size());
  };
#define RUN(M) run(M, [&] { k_sreg<M><<<1, 32, 4096>>>(reps, 77, dout); });
  RUN(0) RUN(1) RUN(2) RUN(3) RUN(4) RUN(5) RUN(6) RUN(7)
  return 0;
}
