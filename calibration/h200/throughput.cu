// throughput.cu: how many warp instructions of one kind a scheduler (SM sub-partition) issues per cycle. Each
// thread runs 8 independent dependence chains of one operation (inline PTX, so the PTX says exactly what is
// timed), 32 operations a loop trip, `iters` trips; 1-32 warps of one block. __syncthreads() before and after
// the timed loop; out[0] = clock64 after - before, thread 0.
// Rows: issue_rate,OP_warpsW,cycles_per_instr = out[0] / (32 * iters * max(1, W / 4)): the cycles one scheduler
// spends per warp instruction when its W / 4 warps all run the loop (median of three launches after a warm-up).
// OP: imad (mad.lo.u32), iadd (add.u32 of the next chain's value), lop (lop3.b32, a three-input xor of the next
// two chains' values: operands ptxas cannot fold), ffma (fma.rn.f32), imad_ffma and iadd_lop (the two
// alternating). throughput.sass has what ptxas made of each loop.
#include "bench.h"

#define R8(OP) OP(0) OP(1) OP(2) OP(3) OP(4) OP(5) OP(6) OP(7)
#define IMAD(k) asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(x[k]) : "r"(a), "r"(b));
#define IADD(k) asm volatile("add.u32 %0, %0, %1;" : "+r"(x[k]) : "r"(x[(k + 1) & 7]));
#define LOP(k) asm volatile("lop3.b32 %0, %0, %1, %2, 0x96;" : "+r"(x[k]) : "r"(x[(k + 1) & 7]), "r"(x[(k + 2) & 7]));
#define FFMA(k) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(f[k]) : "f"(fa), "f"(fb));
#define IMAD_FFMA(k) if (k & 1) { FFMA(k) } else { IMAD(k) }
#define IADD_LOP(k) if (k & 1) { LOP(k) } else { IADD(k) }

enum { OP_IMAD, OP_IADD, OP_LOP, OP_FFMA, OP_IMAD_FFMA, OP_IADD_LOP };
static const char* op_name[] = {"imad", "iadd", "lop", "ffma", "imad_ffma", "iadd_lop"};

template <int OP> __global__ void k_rate(int iters, uint32_t a, uint32_t b, long long* out) {
  uint32_t x[8];
  float f[8];
  const float fa = __uint_as_float(a), fb = __uint_as_float(b);
#pragma unroll
  for (int k = 0; k < 8; k++) { x[k] = threadIdx.x + k; f[k] = (float)(threadIdx.x + k); }
  __syncthreads();
  const long long t0 = clk();
#pragma unroll 1
  for (int i = 0; i < iters; i++) {
#pragma unroll
    for (int j = 0; j < 4; j++) {
      if (OP == OP_IMAD) { R8(IMAD) }
      if (OP == OP_IADD) { R8(IADD) }
      if (OP == OP_LOP) { R8(LOP) }
      if (OP == OP_FFMA) { R8(FFMA) }
      if (OP == OP_IMAD_FFMA) { R8(IMAD_FFMA) }
      if (OP == OP_IADD_LOP) { R8(IADD_LOP) }
    }
  }
  __syncthreads();
  const long long t1 = clk();
  if (threadIdx.x == 0) out[0] = t1 - t0;
  uint32_t s = 0;
#pragma unroll
  for (int k = 0; k < 8; k++) s += x[k] + __float_as_uint(f[k]);
  if (s == 0x9e3779b9u) out[1] = s;
}

__global__ void k_spin(long long cycles, int* sink) {
  const long long s = clock64();
  while (clock64() - s < cycles) {}
  if (threadIdx.x == 0 && sink) sink[blockIdx.x] = 1;
}

template <int OP> static void run(int warps, int iters, long long* dout) {
  char cfg[64];
  snprintf(cfg, sizeof cfg, "%s_warps%d", op_name[OP], warps);
  const double per = 32.0 * iters * std::max(1, warps / 4);
  timed3("issue_rate", cfg, "cycles_per_instr", dout, per,
         [&] { k_rate<OP><<<1, 32 * warps>>>(iters, 3, 1, dout); });
}

int main() {
  long long* dout; CK(cudaMalloc(&dout, 8 * sizeof(long long)));
  int* sink; CK(cudaMalloc(&sink, 1024 * sizeof(int)));
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  k_spin<<<prop.multiProcessorCount, 32>>>(100000000LL, sink); CK(cudaDeviceSynchronize());
  printf("bench,config,metric,median,min,max,runs\n");
  const int iters = 1000;
  for (int w : {1, 4, 8, 16, 32}) {
    run<OP_IMAD>(w, iters, dout); run<OP_IADD>(w, iters, dout); run<OP_LOP>(w, iters, dout);
    run<OP_FFMA>(w, iters, dout); run<OP_IMAD_FFMA>(w, iters, dout); run<OP_IADD_LOP>(w, iters, dout);
  }
  return 0;
}
