// arrvec.cu: what one barrier-unit arrive costs by how it names its barrier and how many lanes it carries.
// W warps each issue 64 arrives back to back (unrolled) on one barrier that never completes (count 2^20 - 1);
// each warp stamps the clock before and after (k_arr<MODE>). Modes:
// MODE 0: every lane arrives, the address in a uniform register (SYNCS.ARRIVE [UR]).
// MODE 1: every lane arrives, the address per thread (bar + (tid == never): SYNCS.ARRIVE [R+URZ]).
// MODE 2: microbench.cu's divergent2: lanes 0-15 and 16-31 arrive by two instructions, per-thread address.
// MODE 3: lanes 0-15 arrive, uniform address (a predicated SYNCS.ARRIVE [UR] of 16 lanes).
// Rows: arrvec,<mode>_warps<W>,cycles_per_arrive: (last warp's end - first warp's start) / (64 W instructions
// of MODE 0, 1, 3; 128 W of MODE 2), median/min/max of three launches after a warm-up launch.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o arrvec arrvec.cu
#include "bench.h"

__device__ __forceinline__ void mb_arrive_alt(uint64_t* b) {
  asm volatile("{\n\t.reg .b64 st;\n\tmbarrier.arrive.shared::cta.b64 st, [%0]; // alt\n\t}" :: "r"(sa(b)) : "memory");
}

template <int MODE> __global__ void k_arr(int never, long long* out) {
  __shared__ uint64_t bar[2];
  const int lane = threadIdx.x & 31, w = threadIdx.x / 32;
  if (threadIdx.x == 0) { mb_init(&bar[0], 1048575); mb_init(&bar[1], 1048575); }
  __syncthreads();
  uint64_t* b = MODE == 1 || MODE == 2 ? bar + ((int)threadIdx.x == never) : bar;
  const long long t0 = clk();
#pragma unroll
  for (int i = 0; i < 64; i++) {
    if (MODE == 0 || MODE == 1) mb_arrive(b);
    else if (MODE == 2) { if (lane < 16) mb_arrive(b); else mb_arrive_alt(b); }
    else { if (lane < 16) mb_arrive(b); }
  }
  const long long t1 = clk();
  if (lane == 0) { out[2 * w] = t0; out[2 * w + 1] = t1; }
}

int main() {
  long long* dout; CK(cudaMalloc(&dout, 64 * sizeof(long long)));
  printf("bench,config,metric,median,min,max,runs\n");
  static const char* names[] = {"uniform_full", "vector_full", "divergent2", "uniform_half"};
  auto run = [&](int m, int warps, auto launch) {
    std::vector<double> v;
    for (int r = 0; r <= 3; r++) {
      launch(); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
      long long h[64];
      CK(cudaMemcpy(h, dout, 2 * warps * sizeof(long long), cudaMemcpyDeviceToHost));
      long long lo = h[0], hi = h[1];
      for (int k = 0; k < warps; k++) { lo = std::min(lo, h[2 * k]); hi = std::max(hi, h[2 * k + 1]); }
      if (r > 0) v.push_back((double)(hi - lo) / (64.0 * warps * (m == 2 ? 2 : 1)));
    }
    std::sort(v.begin(), v.end());
    printf("arrvec,%s_warps%d,cycles_per_arrive,%.2f,%.2f,%.2f,3\n", names[m], warps, v[1], v[0], v[2]);
  };
  for (int warps : {1, 4, 8, 16, 32}) {
#define RUN(M) run(M, warps, [&] { k_arr<M><<<1, 32 * warps>>>(777777, dout); });
    RUN(0) RUN(1) RUN(2) RUN(3)
  }
  return 0;
}
