// gemm_grid.cu: gemm_wgmma.cu's ping-pong GEMM (f16, 4 stages) launched as a grid, one CTA an SM: CTA b takes the
// tiles b, b + G, b + 2G, ... of C (G the grid), its producer loading them in that order and its two consumers
// alternating over them, as gemm_wgmma.cu's one CTA does over all tiles. Held out: no parameter of smsim is fitted
// to it. Each CTA records clock64 and %globaltimer at its start and end and its %smid: the kernel's time is its first
// CTA's start to its last CTA's end in %globaltimer nanoseconds, converted to cycles at the clock the SMs ran at in
// that launch (the CTAs' clock64 cycles over their %globaltimer nanoseconds, summed: under this kernel's load the H200
// runs below its 1.98 GHz boost); the slowest CTA's cycles are the largest clock64 difference.
// Cases: C of 64 x 128 (one tile, 1 CTA) and of 64*R x 768 (6 tiles a row) with one tile a CTA for grids of 6, 66, 132,
// 264 and 528 CTAs (264 and 528 run in two and four waves: one CTA fits an SM), and 528 tiles over grids of 66 and 132
// CTAs (8 and 4 tiles a CTA); K = 1024. A, B: integers in [-8, 8) (f16int:1, f16int:2 as smsim spells them), so C is
// exact; the host checks it against an integer product.
// Output: "grid,CONFIG,GRID,rep,kernel_cycles,slowest_cta_cycles,sms_used,c_fnv,kernel_ns,clk_per_ns" rows, three
// launches after one that is checked (A and B are in L2 after it, as after smsim's --launches 2), each followed by
// its CTAs' "cta,CONFIG,GRID,rep,cta,smid,cycles,start_ns,end_ns" rows (ns from the launch's first start), which
// gemm_grid_cta.csv keeps apart.
// Build: nvcc -O3 -std=c++17 -arch=sm_90a -o gemm_grid gemm_grid.cu -lcuda
#define GEMM_WGMMA_NO_MAIN
#include "gemm_wgmma.cu"
#include <algorithm>
#include <set>

template <int S>
__global__ void __launch_bounds__(384, 1) gemm_grid(const __grid_constant__ CUtensorMap mapA,
                                                    const __grid_constant__ CUtensorMap mapB, float* C, int M, int N,
                                                    int K, long long* rec) {
  long long g0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0) :: "memory");
  const long long t0 = app_clock();
  constexpr int BK = 64;
  extern __shared__ __align__(1024) uint8_t smem[];
  __shared__ __align__(8) uint64_t full[S], empty[S];
  const uint32_t ring = (sa(smem) + 1023u) & ~1023u;
  const int wg = threadIdx.x / 128, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int kb_n = K / BK, tn = N / BN, tiles = (M / BM) * tn;
  const int mine = (tiles - (int)blockIdx.x + (int)gridDim.x - 1) / (int)gridDim.x;  // this CTA's tiles
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; s++) {
      mb_init(&full[s], 1);
      mb_init(&empty[s], 4);
    }
    fence_init();
  }
  __syncthreads();
  if (wg == 0) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
    if (warp == 0 && elect_one()) {
      int i = 0;
      for (int k = 0; k < mine; k++) {
        const int t = blockIdx.x + k * gridDim.x;
        for (int kb = 0; kb < kb_n; kb++, i++) {
          const int s = i % S;
          if (i >= S) mb_wait(&empty[s], ((i / S) - 1) & 1);
          mb_arrive_tx(&full[s], STAGE_BYTES);
          tma2d(ring + s * A_BYTES, &mapA, kb * BK, (t / tn) * BM, &full[s]);
          tma2d(ring + S * A_BYTES + s * B_BYTES, &mapB, kb * BK, (t % tn) * BN, &full[s]);
        }
      }
    }
  } else {
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
    const int c = wg - 1, w = warp % 4;
    float d[64];
#pragma unroll
    for (int j = 0; j < 64; j++) d[j] = 0.0f;
    for (int k = c; k < mine; k += 2) {
      const int t = blockIdx.x + k * gridDim.x;
      if (k > 0) bar_sync(1 + c, 256);  // the other consumer has issued its tile's wgmmas
      int i = k * kb_n;
      for (int kb = 0; kb < kb_n; kb++, i++) {
        const int s = i % S;
        mb_wait(&full[s], (i / S) & 1);
        const uint64_t da = sdesc(ring + s * A_BYTES), db = sdesc(ring + S * A_BYTES + s * B_BYTES);
        wg_fence();
#pragma unroll
        for (int q = 0; q < 4; q++) mma_f16(d, da + 2 * q, db + 2 * q, kb | q);
        wg_commit();
        wg_wait<1>(d);
        if (kb > 0 && lane == 0) mb_arrive(&empty[(i - 1) % S]);
      }
      if (k + 1 < mine) bar_arrive(1 + (1 - c), 256);  // the other consumer's turn
      wg_wait<0>(d);
      if (lane == 0) mb_arrive(&empty[(i - 1) % S]);
      const int row = (t / tn) * BM + 16 * w + lane / 4, col = (t % tn) * BN + 2 * (lane % 4);
#pragma unroll
      for (int j = 0; j < 16; j++) {
        *reinterpret_cast<float2*>(C + (size_t)row * N + col + 8 * j) = make_float2(d[4 * j], d[4 * j + 1]);
        *reinterpret_cast<float2*>(C + (size_t)(row + 8) * N + col + 8 * j) = make_float2(d[4 * j + 2], d[4 * j + 3]);
      }
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    long long g1;
    uint32_t sm;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g1) :: "memory");
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    long long* r = rec + 4 * blockIdx.x;
    r[0] = app_clock() - t0;
    r[1] = g0;
    r[2] = g1;
    r[3] = sm;
  }
}

static void grid_case(int M, int N, int K, int G) {
  constexpr int S = 4;
  const size_t smem = (size_t)S * STAGE_BYTES + 1024;
  CK(cudaFuncSetAttribute(gemm_grid<S>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
  char cfg[64];
  snprintf(cfg, sizeof cfg, "f16_%dx%dx%d_stages%d", M, N, K, S);
  const std::string sa_ = "buf:" + std::to_string((size_t)M * K * 2) + ":f16int:1";
  const std::string sb_ = "buf:" + std::to_string((size_t)N * K * 2) + ":f16int:2";
  const std::vector<uint8_t> a = fill_bytes(sa_), b = fill_bytes(sb_);
  void *A, *B;
  float* C;
  long long* rec;
  CK(cudaMalloc(&A, a.size()));
  CK(cudaMalloc(&B, b.size()));
  CK(cudaMalloc(&C, (size_t)M * N * 4));
  CK(cudaMalloc(&rec, (size_t)G * 4 * 8));
  CK(cudaMemcpy(A, a.data(), a.size(), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(B, b.data(), b.size(), cudaMemcpyHostToDevice));
  CK(cudaMemset(C, 0, (size_t)M * N * 4));
  CUtensorMap mapA, mapB;
  if (!encode(&mapA, A, false, K, M, 64) || !encode(&mapB, B, false, K, N, 128)) {
    fprintf(stderr, "gemm_grid %s: cuTensorMapEncodeTiled failed\n", cfg);
    exit(1);
  }
  std::vector<float> got((size_t)M * N);
  std::vector<long long> h((size_t)G * 4);
  for (int rep = -1; rep < 3; rep++) {
    gemm_grid<S><<<G, 384, smem>>>(mapA, mapB, C, M, N, K, rec);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(got.data(), C, got.size() * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h.data(), rec, h.size() * 8, cudaMemcpyDeviceToHost));
    std::vector<uint8_t> cb(got.size() * 4);
    memcpy(cb.data(), got.data(), cb.size());
    if (rep < 0) {  // the host's integer product, on every 7th row
      std::vector<int> ai((size_t)M * K), bi((size_t)N * K);
      for (size_t i = 0; i < ai.size(); i++) ai[i] = elem(a, false, i);
      for (size_t i = 0; i < bi.size(); i++) bi[i] = elem(b, false, i);
      size_t bad = 0;
      for (int m = 0; m < M; m += (M > 64 ? 7 : 1))
        for (int n = 0; n < N; n++) {
          long long s = 0;
          for (int k = 0; k < K; k++) s += (long long)ai[(size_t)m * K + k] * bi[(size_t)n * K + k];
          bad += got[(size_t)m * N + n] != (float)s;
        }
      fprintf(stderr, "gemm_grid %s grid %d: host check %s (%zu wrong)\n", cfg, G, bad ? "FAILED" : "ok", bad);
      continue;
    }
    long long lo = h[1], hi = h[2], slow = 0, cyc = 0, ns = 0;
    std::set<long long> sms;
    for (int i = 0; i < G; i++) {
      lo = std::min(lo, h[4 * i + 1]);
      hi = std::max(hi, h[4 * i + 2]);
      slow = std::max(slow, h[4 * i]);
      sms.insert(h[4 * i + 3]);
      cyc += h[4 * i];
      ns += h[4 * i + 2] - h[4 * i + 1];
    }
    const double clk = (double)cyc / (double)ns;  // the SMs' clock in this launch, cycles a ns
    printf("grid,%s,%d,%d,%.0f,%lld,%zu,0x%016llx,%lld,%.4f\n", cfg, G, rep, (hi - lo) * clk, slow, sms.size(),
           (unsigned long long)fnv1a64(cb), hi - lo, clk);
    for (int i = 0; i < G; i++)
      printf("cta,%s,%d,%d,%d,%lld,%lld,%lld,%lld\n", cfg, G, rep, i, h[4 * i + 3], h[4 * i], h[4 * i + 1] - lo,
             h[4 * i + 2] - lo);
  }
  CK(cudaFree(A));
  CK(cudaFree(B));
  CK(cudaFree(C));
  CK(cudaFree(rec));
}

int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  app_warm();
  grid_case(64, 128, 1024, 1);
  for (int rows : {1, 11, 22, 44, 88}) grid_case(64 * rows, 768, 1024, rows * 6);
  grid_case(64 * 88, 768, 1024, 132);
  grid_case(64 * 88, 768, 1024, 66);
  printf("done,ok,1\n");
  return 0;
}
