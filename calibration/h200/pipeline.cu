// pipeline.cu: timing of a warp-specialised bulk-copy pipeline and of dependent-chain instruction latencies on
// one Hopper SM. Every kernel runs as ONE thread block and writes SM cycles (clock64) into `out`, as
// microbench.cu does; the host turns them into the CSV rows described in README.md ("pipeline.cu" section).
// Output: CSV "bench,config,metric,median,min,max,runs" over 3 runs (after one untimed warm-up launch).
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o pipeline pipeline.cu
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <string>
#include <vector>

#include "bench.h"

// ---------------------------------------------------------------- Q1: warp-specialised bulk-copy pipeline
// block = 32 * (1 + C): warp 0 lane 0 produces, warps 1..C consume every tile (each reads its share of the
// tile as 16-byte vectors), then runs F dependent FMAs on what it read, then releases the slot (one arrive per
// consumer warp on empty[s], init C). full[s]: init 1, arrive.expect_tx(chunk) + cp.async.bulk. Phases flip
// CUTLASS-style. Tile t reads src + (t * chunk) % span. Warp 1 lane 0 times tiles warm .. warm + tiles - 1:
// out[0] = clock64 after the last tile - clock64 before waiting for tile `warm`. out[2 + c] = warp c's data sum.
extern "C" __global__ void pipe_bench(const uint8_t* __restrict__ src, uint32_t span, uint32_t chunk, int stages, int fma_iters,
                                      int tiles, int warm, long long* out) {
  extern __shared__ __align__(128) uint8_t sm[];
  __shared__ __align__(8) uint64_t full[4], empty[4];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, C = (blockDim.x >> 5) - 1;
  if (threadIdx.x == 0) {
    for (int s = 0; s < stages; s++) { mb_init(&full[s], 1); mb_init(&empty[s], C); }
    fence_async();
  }
  __syncthreads();
  const int total = warm + tiles;
  if (warp == 0) {
    if (lane == 0) {
      int s = 0; uint32_t ph = 1;
      for (int t = 0; t < total; t++) {
        mb_wait(&empty[s], ph);
        mb_arrive_tx(&full[s], chunk);
        bulk_g2s(sm + s * chunk, src + (uint32_t)(((unsigned long long)t * chunk) % span), chunk, &full[s]);
        if (++s == stages) { s = 0; ph ^= 1; }
      }
    }
    __syncwarp();
  } else {
    const int cw = warp - 1;
    const uint32_t vecs = chunk / 16;
    int s = 0; uint32_t ph = 0;
    uint32_t sum = 0;
    float acc = (float)lane;
    long long t0 = 0;
    for (int t = 0; t < total; t++) {
      if (t == warm) t0 = clock64();
      mb_wait(&full[s], ph);
      const uint4* p = (const uint4*)(sm + s * chunk);
      uint32_t part = 0;
      for (uint32_t i = cw * 32 + lane; i < vecs; i += C * 32) { const uint4 v = p[i]; part += v.x + v.y + v.z + v.w; }
      sum += part;
      const float x = (float)(part & 0xff);
#pragma unroll 4
      for (int f = 0; f < fma_iters; f++) acc = fmaf(acc, 1.0001f, x);
      __syncwarp();
      if (lane == 0) mb_arrive(&empty[s]);
      if (++s == stages) { s = 0; ph ^= 1; }
    }
    const long long t1 = clock64();
    if (cw == 0 && lane == 0) out[0] = t1 - t0;
    if (acc == -1.0f) out[1] = (long long)sum;
    if (lane == 0) out[2 + cw] = (long long)sum;
  }
}

// ---------------------------------------------------------------- Q2: dependent-chain latencies, one thread
// Each chain runs `iters` operations (iters a multiple of 16), 16 per loop trip, each operation's result feeding
// the next; out[k] = clock64 after chain k - clock64 before it. Operand registers rotate among four run-time
// values so that no two consecutive operations can be folded into one. out[32] = a sink.

extern "C" __global__ void lat_chains(int iters, uint32_t a, uint32_t b, long long* out) {
  __shared__ uint32_t sbuf[64];
  const uint32_t k0 = a, k1 = b, k2 = a ^ b, k3 = a + b;
  uint32_t x = a ^ 0x1234567u;
  uint64_t x64 = ((uint64_t)b << 32) | a;
  const uint64_t q0 = x64 ^ 0x9e3779b97f4a7c15ull, q1 = x64 + 3, q2 = ~x64, q3 = x64 * 5;
  float f = 1.0f + (float)(a & 0xff) * (1.0f / 256.0f);
  const float fk0 = 1.0001f, fk1 = 0.5f + (float)(b & 1), fk2 = 0.9999f, fk3 = 0.25f;
  double d = (double)f;
  sbuf[threadIdx.x] = x;
  // 0 iadd: add.u32
  CHAIN(0, asm volatile("add.u32 %0, %0, %1;\n\tadd.u32 %0, %0, %2;\n\tadd.u32 %0, %0, %3;\n\tadd.u32 %0, %0, %4;" : "+r"(x) : "r"(k0), "r"(k1), "r"(k2), "r"(k3));)
  // 1 imad: mad.lo.u32 x = x * k + k'
  CHAIN(1, asm volatile("mad.lo.u32 %0, %0, %1, %2;\n\tmad.lo.u32 %0, %0, %3, %4;\n\tmad.lo.u32 %0, %0, %2, %1;\n\tmad.lo.u32 %0, %0, %4, %3;" : "+r"(x) : "r"(k0), "r"(k1), "r"(k2), "r"(k3));)
  // 2 lop3: lop3.b32 with LUT 0xE8 (majority)
  CHAIN(2, asm volatile("lop3.b32 %0, %0, %1, %2, 0xE8;\n\tlop3.b32 %0, %0, %3, %4, 0xE8;\n\tlop3.b32 %0, %0, %2, %3, 0xE8;\n\tlop3.b32 %0, %0, %4, %1, 0xE8;" : "+r"(x) : "r"(k0), "r"(k1), "r"(k2), "r"(k3));)
  // 3 shf: funnel shift, x in the high word, run-time shift amount
  CHAIN(3, asm volatile("shf.l.wrap.b32 %0, %1, %0, %2;\n\tshf.l.wrap.b32 %0, %3, %0, %4;\n\tshf.l.wrap.b32 %0, %2, %0, %1;\n\tshf.l.wrap.b32 %0, %4, %0, %3;" : "+r"(x) : "r"(k0), "r"(k1), "r"(k2), "r"(k3));)
  // 4 iadd64: add.u64
  CHAIN(4, asm volatile("add.u64 %0, %0, %1;\n\tadd.u64 %0, %0, %2;\n\tadd.u64 %0, %0, %3;\n\tadd.u64 %0, %0, %4;" : "+l"(x64) : "l"(q0), "l"(q1), "l"(q2), "l"(q3));)
  // 5 imad_wide: mad.wide.u32 whose multiplicand is the low word of the previous result
  CHAIN(5, asm volatile("{\n\t.reg .u32 t;\n\tcvt.u32.u64 t, %0;\n\tmad.wide.u32 %0, t, %1, %2;\n\tcvt.u32.u64 t, %0;\n\tmad.wide.u32 %0, t, %3, %4;\n\t"
                        "cvt.u32.u64 t, %0;\n\tmad.wide.u32 %0, t, %5, %2;\n\tcvt.u32.u64 t, %0;\n\tmad.wide.u32 %0, t, %6, %4;\n\t}" : "+l"(x64) : "r"(k0), "l"(q0), "r"(k1), "l"(q1), "r"(k2), "r"(k3));)
  // 6 ffma: fma.rn.f32
  CHAIN(6, asm volatile("fma.rn.f32 %0, %0, %1, %2;\n\tfma.rn.f32 %0, %0, %3, %4;\n\tfma.rn.f32 %0, %0, %2, %1;\n\tfma.rn.f32 %0, %0, %4, %3;" : "+f"(f) : "f"(fk0), "f"(fk1), "f"(fk2), "f"(fk3));)
  // 7 dfma: fma.rn.f64
  CHAIN(7, asm volatile("fma.rn.f64 %0, %0, %1, %2;\n\tfma.rn.f64 %0, %0, %3, %4;\n\tfma.rn.f64 %0, %0, %2, %1;\n\tfma.rn.f64 %0, %0, %4, %3;" : "+d"(d) : "d"((double)fk0), "d"((double)fk1), "d"((double)fk2), "d"((double)fk3));)
  // 8 hfma2: fma.rn.f16x2
  CHAIN(8, asm volatile("fma.rn.f16x2 %0, %0, %1, %2;\n\tfma.rn.f16x2 %0, %0, %3, %4;\n\tfma.rn.f16x2 %0, %0, %2, %1;\n\tfma.rn.f16x2 %0, %0, %4, %3;" : "+r"(x) : "r"(k0), "r"(k1), "r"(k2), "r"(k3));)
  // 9 f2i_i2f pair: cvt.rni.s32.f32 then cvt.rn.f32.s32 (one "op" = the pair)
  CHAIN(9, asm volatile("{\n\t.reg .s32 i;\n\tcvt.rni.s32.f32 i, %0;\n\tcvt.rn.f32.s32 %0, i;\n\tcvt.rni.s32.f32 i, %0;\n\tcvt.rn.f32.s32 %0, i;\n\t"
                        "cvt.rni.s32.f32 i, %0;\n\tcvt.rn.f32.s32 %0, i;\n\tcvt.rni.s32.f32 i, %0;\n\tcvt.rn.f32.s32 %0, i;\n\t}" : "+f"(f));)
  // 10 f2f_f16 pair: cvt.rn.f16.f32 then cvt.f32.f16
  CHAIN(10, asm volatile("{\n\t.reg .b16 h;\n\tcvt.rn.f16.f32 h, %0;\n\tcvt.f32.f16 %0, h;\n\tcvt.rn.f16.f32 h, %0;\n\tcvt.f32.f16 %0, h;\n\t"
                         "cvt.rn.f16.f32 h, %0;\n\tcvt.f32.f16 %0, h;\n\tcvt.rn.f16.f32 h, %0;\n\tcvt.f32.f16 %0, h;\n\t}" : "+f"(f));)
  // 11 mufu_rcp + ffma pair: rcp.approx.ftz.f32 then fma.rn.f32 (a bare rcp(rcp(x)) chain is folded away by ptxas)
  CHAIN(11, asm volatile("rcp.approx.ftz.f32 %0, %0;\n\tfma.rn.f32 %0, %0, %1, %2;\n\trcp.approx.ftz.f32 %0, %0;\n\tfma.rn.f32 %0, %0, %2, %1;\n\t"
                         "rcp.approx.ftz.f32 %0, %0;\n\tfma.rn.f32 %0, %0, %1, %2;\n\trcp.approx.ftz.f32 %0, %0;\n\tfma.rn.f32 %0, %0, %2, %1;" : "+f"(f) : "f"(fk1), "f"(fk3));)
  // 12 mufu_rsqrt: rsqrt.approx.ftz.f32 (f > 0 stays finite)
  f = fabsf(f) + 1.0f;
  CHAIN(12, asm volatile("rsqrt.approx.ftz.f32 %0, %0;\n\trsqrt.approx.ftz.f32 %0, %0;\n\trsqrt.approx.ftz.f32 %0, %0;\n\trsqrt.approx.ftz.f32 %0, %0;" : "+f"(f));)
  // 13 mufu_ex2: ex2.approx.ftz.f32 (x -> 2^x; a fixed point is reached or it saturates, timing unaffected)
  float e = -1.0f - (float)(a & 1);
  CHAIN(13, asm volatile("ex2.approx.ftz.f32 %0, %0;\n\tex2.approx.ftz.f32 %0, %0;\n\tex2.approx.ftz.f32 %0, %0;\n\tex2.approx.ftz.f32 %0, %0;" : "+f"(e));)
  // 14 smem st+ld pair through one address: st.volatile.shared then ld.volatile.shared of the same word
  const uint32_t sp = sa(&sbuf[threadIdx.x]);
  CHAIN(14, asm volatile("st.volatile.shared.u32 [%1], %0;\n\tld.volatile.shared.u32 %0, [%1];\n\tst.volatile.shared.u32 [%1], %0;\n\tld.volatile.shared.u32 %0, [%1];\n\t"
                         "st.volatile.shared.u32 [%1], %0;\n\tld.volatile.shared.u32 %0, [%1];\n\tst.volatile.shared.u32 [%1], %0;\n\tld.volatile.shared.u32 %0, [%1];" : "+r"(x) : "r"(sp) : "memory");)
  // 15 smem ld: dependent ld.volatile.shared (address = loaded value; sbuf[i] = byte offset of itself)
  sbuf[threadIdx.x] = sp;
  uint32_t p = sp;
  CHAIN(15, asm volatile("ld.volatile.shared.u32 %0, [%0];\n\tld.volatile.shared.u32 %0, [%0];\n\tld.volatile.shared.u32 %0, [%0];\n\tld.volatile.shared.u32 %0, [%0];" : "+r"(p) :: "memory");)
  // 16 popc: popc.b32 (+ the chain stays data dependent)
  CHAIN(16, asm volatile("popc.b32 %0, %0;\n\tpopc.b32 %0, %0;\n\tpopc.b32 %0, %0;\n\tpopc.b32 %0, %0;" : "+r"(x));)
  // 17 prmt: prmt.b32 with a run-time selector
  CHAIN(17, asm volatile("prmt.b32 %0, %0, %1, %2;\n\tprmt.b32 %0, %0, %3, %4;\n\tprmt.b32 %0, %0, %2, %1;\n\tprmt.b32 %0, %0, %4, %3;" : "+r"(x) : "r"(k0), "r"(k1), "r"(k2), "r"(k3));)
  // 18 iadd_xor_alternating: add.u32 and xor.b32 alternating (no two neighbours can merge); per single op
  CHAIN(18, asm volatile("add.u32 %0, %0, %1;\n\txor.b32 %0, %0, %2;\n\tadd.u32 %0, %0, %3;\n\txor.b32 %0, %0, %4;" : "+r"(x) : "r"(k0), "r"(k1), "r"(k2), "r"(k3));)
  // 19 clock overhead: two back-to-back clock64 reads
  { const long long t0 = clock64(); out[19] = clock64() - t0; }
  // 20 shfl: shfl.sync.idx.b32 of lane 0 to itself with membermask 1 (the only thread), value chained
  uint32_t y = x;
  CHAIN(20, asm volatile("shfl.sync.idx.b32 %0, %0, 0, 0x1f, 1;\n\tshfl.sync.idx.b32 %0, %0, 0, 0x1f, 1;\n\tshfl.sync.idx.b32 %0, %0, 0, 0x1f, 1;\n\tshfl.sync.idx.b32 %0, %0, 0, 0x1f, 1;" : "+r"(y) :: "memory");)
  // 21 shared atomic: atom.shared.add.u32 whose operand is the previous returned value
  CHAIN(21, asm volatile("atom.shared.add.u32 %0, [%1], %0;\n\tatom.shared.add.u32 %0, [%1], %0;\n\tatom.shared.add.u32 %0, [%1], %0;\n\tatom.shared.add.u32 %0, [%1], %0;" : "+r"(y) : "r"(sp) : "memory");)
  // 22 global load chain hitting L1: out[40] holds its own address; ld.global.u64 p = [p] (the first load misses)
  out[40] = (long long)(uintptr_t)&out[40];
  uint64_t gp = (uint64_t)(uintptr_t)&out[40];
  CHAIN(22, asm volatile("ld.global.u64 %0, [%0];\n\tld.global.u64 %0, [%0];\n\tld.global.u64 %0, [%0];\n\tld.global.u64 %0, [%0];" : "+l"(gp) :: "memory");)
  out[32] = (long long)x + (long long)x64 + (long long)__float_as_uint(f) + (long long)__double_as_longlong(d) + (long long)__float_as_uint(e) + p + y + (long long)gp;
}

__global__ void k_spin(long long cycles, int* sink) {
  const long long s = clock64();
  while (clock64() - s < cycles) {}
  if (threadIdx.x == 0 && sink) sink[blockIdx.x] = 1;
}

// ---------------------------------------------------------------- host
struct Stat { double med, mn, mx; };
static Stat stats(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return {n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]), v.front(), v.back()};
}
static void row(const std::string& bench, const std::string& cfg, const char* metric, const std::vector<double>& v) {
  const Stat s = stats(v);
  printf("%s,%s,%s,%.2f,%.2f,%.2f,%zu\n", bench.c_str(), cfg.c_str(), metric, s.med, s.mn, s.mx, v.size());
  fflush(stdout);
}

int main() {
  const int RUNS = 3;
  long long* dout; CK(cudaMalloc(&dout, 64 * sizeof(long long)));
  int* sink; CK(cudaMalloc(&sink, 1024 * sizeof(int)));
  std::vector<long long> h(64);
  auto fetch = [&] { CK(cudaGetLastError()); CK(cudaDeviceSynchronize()); CK(cudaMemcpy(h.data(), dout, 64 * sizeof(long long), cudaMemcpyDeviceToHost)); };
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  printf("bench,config,metric,median,min,max,runs\n");
  // Bring the SM clock up: ~50 ms of spinning on every SM.
  k_spin<<<prop.multiProcessorCount, 32>>>(100000000LL, sink); CK(cudaDeviceSynchronize());

  // Q1
  const uint32_t span = 256u << 10;
  uint8_t* src; CK(cudaMalloc(&src, span)); CK(cudaMemset(src, 0, span));
  CK(cudaFuncSetAttribute(pipe_bench, cudaFuncAttributeMaxDynamicSharedMemorySize, 4 * 16384));
  const int tiles = 64, warm = 8;
  for (uint32_t chunk : {4096u, 16384u})
    for (int C : {1, 2, 4})
      for (int S : {1, 2, 3, 4})
        for (int F : {0, 256}) {
          std::vector<double> v;
          for (int r = 0; r <= RUNS; r++) {
            CK(cudaMemset(dout, 0, 64 * sizeof(long long)));
            pipe_bench<<<1, 32 * (1 + C), S * chunk>>>(src, span, chunk, S, F, tiles, warm, dout);
            fetch();
            if (r > 0) v.push_back((double)h[0] / tiles);
          }
          char cfg[96];
          snprintf(cfg, sizeof cfg, "chunk%u_consumers%d_stages%d_fma%d", chunk, C, S, F);
          row("bulk_pipeline", cfg, "cycles_per_tile", v);
        }
  // Q2
  static const char* names[] = {"iadd_u32", "imad_u32", "lop3_b32", "shf_l_wrap_b32", "iadd_u64", "imad_wide_u32", "ffma_f32",
      "dfma_f64", "hfma2_f16x2", "f2i_i2f_pair", "f2f_f16_f32_pair", "mufu_rcp_ffma_pair", "mufu_rsqrt_approx", "mufu_ex2_approx",
      "smem_st_ld_same_word_pair", "smem_ld_chain", "popc_b32", "prmt_b32", "iadd_xor_alternating", "clock64_back_to_back",
      "shfl_idx_one_lane", "atom_shared_add_u32", "ldg_u64_chain_l1_hit"};
  const int iters = 1024, NCHAIN = 23;
  std::vector<std::vector<double>> lat(NCHAIN);
  for (int r = 0; r <= RUNS; r++) {
    lat_chains<<<1, 1>>>(iters, 0x2468ace1u, 0x13579bdfu, dout);
    fetch();
    if (r > 0) for (int k = 0; k < NCHAIN; k++) lat[k].push_back(k == 19 ? (double)h[k] : (double)h[k] / iters);
  }
  for (int k = 0; k < NCHAIN; k++) row("latency_chain", names[k], k == 19 ? "cycles" : "cycles_per_op", lat[k]);
  return 0;
}
