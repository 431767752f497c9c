// branch.cu: what a loop's back edge costs on the H200, one thread. Each kernel runs `iters` trips of a loop that
// ptxas may not unroll (`#pragma unroll 1`: the PTX carries .pragma "nounroll"), timed by clock64 around it:
// out[0] = after - before. The body varies the work between the loop's counter compare and its branch:
//   MODE 0: K independent FFMAs (K registers, one each)   — issue-bound bodies
//   MODE 1: a chain of K dependent FFMAs                 — latency-bound bodies (4-cycle links)
//   MODE 2: a chain of K dependent IMADs
//   MODE 3: K dependent shared-memory loads (a pointer chase), the chain carried into the next trip
//   MODE 4: one shared load and an add that consumes it: the warp stalls on the load before the branch
// Rows: branch_loop,<mode>_k<K>,cycles_per_trip (median of three launches after a warm-up one).
#include "bench.h"

template <int MODE, int K> __global__ void k_loop(int iters, float m, float c, int km, long long* out) {
  __shared__ uint32_t chase[32];
  if (threadIdx.x < 32) chase[threadIdx.x] = 0;  // every link points at word 0
  __syncthreads();
  float r[K > 0 ? K : 1];
#pragma unroll
  for (int k = 0; k < (K > 0 ? K : 1); k++) r[k] = c + k;
  float a = c;
  uint32_t b = (uint32_t)km, p = sa(&chase[0]), q = 0;
  const long long t0 = clk();
#pragma unroll 1
  for (int i = 0; i < iters; i++) {
    if (MODE == 0) {
#pragma unroll
      for (int k = 0; k < K; k++) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(r[k]) : "f"(m), "f"(c));
    } else if (MODE == 1) {
#pragma unroll
      for (int k = 0; k < K; k++) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(a) : "f"(m), "f"(c));
    } else if (MODE == 2) {
#pragma unroll
      for (int k = 0; k < K; k++) asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(b) : "r"(km), "r"(km));
    } else if (MODE == 3) {
#pragma unroll
      for (int k = 0; k < K; k++) {
        uint32_t v;
        asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(v) : "r"(p) : "memory");
        p += v;  // v == 0: the address depends on the load
      }
    } else {
      uint32_t v;
      asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(v) : "r"(p) : "memory");
      asm volatile("add.u32 %0, %0, %1;" : "+r"(q) : "r"(v));
    }
  }
  const long long t1 = clk();
  float s = a + (float)b + (float)p + (float)q;
#pragma unroll
  for (int k = 0; k < (K > 0 ? K : 1); k++) s += r[k];
  if (threadIdx.x == 0) { out[0] = t1 - t0; if (s == -1.0f) out[1] = 1; }
}

__global__ void k_spin(long long cycles, int* sink) {
  const long long s = clock64();
  while (clock64() - s < cycles) {}
  if (threadIdx.x == 0 && sink) sink[blockIdx.x] = 1;
}

static const char* names[] = {"indep_ffma", "chain_ffma", "chain_imad", "chain_lds", "lds_then_use"};

template <int MODE, int K> static void run(int iters, long long* dout) {
  char cfg[64];
  snprintf(cfg, sizeof cfg, "%s_k%d", names[MODE], K);
  timed3("branch_loop", cfg, "cycles_per_trip", dout, iters, [&] { k_loop<MODE, K><<<1, 32>>>(iters, 1.0001f, 0.5f, 3, dout); });
}

int main() {
  long long* dout; CK(cudaMalloc(&dout, 8 * sizeof(long long)));
  int* sink; CK(cudaMalloc(&sink, 1024 * sizeof(int)));
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  k_spin<<<prop.multiProcessorCount, 32>>>(100000000LL, sink); CK(cudaDeviceSynchronize());
  printf("bench,config,metric,median,min,max,runs\n");
  const int iters = 4096;
  run<0, 1>(iters, dout); run<0, 2>(iters, dout); run<0, 4>(iters, dout); run<0, 8>(iters, dout);
  run<0, 16>(iters, dout); run<0, 32>(iters, dout);
  run<1, 1>(iters, dout); run<1, 2>(iters, dout); run<1, 4>(iters, dout); run<1, 8>(iters, dout);
  run<1, 16>(iters, dout); run<1, 32>(iters, dout);
  run<2, 1>(iters, dout); run<2, 2>(iters, dout); run<2, 4>(iters, dout); run<2, 8>(iters, dout);
  run<3, 1>(iters, dout); run<3, 2>(iters, dout); run<3, 4>(iters, dout);
  run<4, 1>(iters, dout);
  return 0;
}
