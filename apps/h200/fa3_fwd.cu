// fa3_fwd.cu: a FlashAttention-3-style forward kernel. One block computes the attention output of one 64-row
// tile of queries of one head, O = softmax(scale * Q K^T) V, Q: 64 x D, K and V: L x D, fp16, D (the head
// dimension) 64 or 128, the keys and values streamed in tiles of BN = 128 rows. Output O: 64 x D, fp32.
//   warp 4 (lane 0) is the producer: it loads Q once (qfull) and every K and V tile through a two-stage ring of
//     2-D tensor copies (128B swizzle: boxes of 64 columns x rows), K tile j on kfull[j%2], V tile j on vfull[j%2]
//     (each arrive.expect_tx with the tile's bytes), after waiting until the consumers have freed the stage
//     (empty[j%2]).
//   warps 0-3 (one warpgroup) consume: for tile j, S = Q K^T by D/16 wgmma m64n128k16 from shared-memory
//     descriptors (both K-major); the online softmax in registers (each thread holds two rows' shares: the row
//     maxima by two shuffles, p = 2^(s * scale*log2(e) - m * scale*log2(e)) by one FFMA and ex2.approx.ftz, the
//     running row sums, the output accumulators rescaled by 2^(m_old - m_new)); P converted to f16 in registers,
//     where its accumulator layout is already wgmma's A-register layout; O += P V by BN/16 wgmma m64nDk16 with A
//     from registers and V from a descriptor (MN-major: imm-trans-b 1); each warp's lane 0 then frees the stage.
//     At the end each thread sums its rows' partial sums across the four lanes that share them, scales O by the
//     reciprocal and stores its fragment.
// Held out. Launch: block 160, dynamic shared memory 64*D*2 + 2 * 2 * 128*D*2 + 1 KiB (alignment slack);
// args (mapQ, mapK, mapV, Q, K, V, O, L, scale, clk):
//   mapQ = tensormap:f16,Dx64,box=64x64,swizzle=128B,buf=3; mapK, mapV = tensormap:f16,DxL,box=64x128,swizzle=128B,buf=4/5.
// Inputs f16int:SEED (integers in [-8, 8)): S is exact, everything after it is float arithmetic that smsim must
// reproduce bit for bit; scale = 2^-7 keeps the logits in a few units.
#include "app.h"
#include <cuda.h>
#include <cuda_fp16.h>
#include <cmath>

__device__ __forceinline__ uint32_t sa(const void* p) { return (uint32_t)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void mb_init(uint64_t* b, uint32_t n) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(sa(b)), "r"(n) : "memory");
}
__device__ __forceinline__ void fence_init() { asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }
__device__ __forceinline__ void mb_arrive(uint64_t* b) {
  asm volatile("{\n\t.reg .b64 st;\n\tmbarrier.arrive.shared::cta.b64 st, [%0];\n\t}" :: "r"(sa(b)) : "memory");
}
__device__ __forceinline__ void mb_arrive_tx(uint64_t* b, uint32_t tx) {
  asm volatile("{\n\t.reg .b64 st;\n\tmbarrier.arrive.expect_tx.shared::cta.b64 st, [%0], %1;\n\t}" :: "r"(sa(b)), "r"(tx) : "memory");
}
__device__ __forceinline__ void mb_wait(uint64_t* b, uint32_t par) {
  asm volatile("{\n\t.reg .pred p;\n\tWAIT_%=:\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n\t@!p bra WAIT_%=;\n\t}"
               :: "r"(sa(b)), "r"(par) : "memory");
}
__device__ __forceinline__ void tma2d(uint32_t dst, const CUtensorMap* map, int x, int y, uint64_t* b) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
               :: "r"(dst), "l"((uint64_t)map), "r"(x), "r"(y), "r"(sa(b)) : "memory");
}
__device__ __forceinline__ void wg_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wg_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wg_wait0() { asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory"); }
// Keeps the compiler from moving accumulator uses across the asynchronous wgmma (CUTLASS's fence_operand).
template <int N> __device__ __forceinline__ void fence_regs(float (&d)[N]) {
#pragma unroll
  for (int i = 0; i < N; i++) asm volatile("" : "+f"(d[i]) :: "memory");
}
__device__ __forceinline__ float ex2(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
__device__ __forceinline__ float rcp(float x) {
  float y;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
__device__ __forceinline__ uint32_t pack_f16(float lo, float hi) {
  __half2 h = __floats2half2_rn(lo, hi);
  return *reinterpret_cast<uint32_t*>(&h);
}
// A shared-memory matrix descriptor: start address / 16, leading and stride byte offsets / 16, 128B swizzle.
__device__ __forceinline__ uint64_t desc128(uint32_t addr, uint32_t lbo, uint32_t sbo) {
  return (uint64_t)((addr & 0x3ffff) >> 4) | (uint64_t)(lbo >> 4) << 16 | (uint64_t)(sbo >> 4) << 32 | 1ull << 62;
}

// The wgmma wrappers: every accumulator register spelled out (inline PTX has no register arrays).
// S (64 x 128) (+)= A (64 x 16, descriptor) * B (128 x 16, descriptor, K-major): wgmma m64n128k16, f16 -> f32.
__device__ __forceinline__ void wgmma_ss_n128(float (&d)[64], uint64_t da, uint64_t db, int scale_d) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, 1, 0, 0;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "l"(da), "l"(db), "r"(scale_d));
}
// O (64 x 64) += A (64 x 16, registers) * B (16 x 64, descriptor, MN-major: imm-trans-b 1): wgmma m64n64k16.
__device__ __forceinline__ void wgmma_rs_n64(float (&d)[32], const uint32_t (&a)[4], uint64_t db, int scale_d) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %37, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, {%32, %33, %34, %35}, %36, p, 1, 1, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(scale_d));
}
// O (64 x 128) += A (64 x 16, registers) * B (16 x 128, descriptor, MN-major: imm-trans-b 1): wgmma m64n128k16.
__device__ __forceinline__ void wgmma_rs_n128(float (&d)[64], const uint32_t (&a)[4], uint64_t db, int scale_d) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %69, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, {%64, %65, %66, %67}, %68, p, 1, 1, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(scale_d));
}

template <int D> __device__ __forceinline__ void wgmma_pv(float (&o)[D / 2], const uint32_t (&a)[4], uint64_t db) {
  if constexpr (D == 64) wgmma_rs_n64(o, a, db, 1);
  else wgmma_rs_n128(o, a, db, 1);
}

constexpr int BM = 64, BN = 128;
__host__ __device__ constexpr uint32_t QBYTES(int D) { return BM * D * 2; }
__host__ __device__ constexpr uint32_t KVBYTES(int D) { return BN * D * 2; }  // one K or V tile: D/64 boxes of BN rows x 128 bytes
template <int D> constexpr size_t smem_bytes() { return QBYTES(D) + 4 * KVBYTES(D) + 1024; }

template <int D>
__global__ void __launch_bounds__(160, 1) fa3_fwd(const __grid_constant__ CUtensorMap mapQ,
                                                  const __grid_constant__ CUtensorMap mapK,
                                                  const __grid_constant__ CUtensorMap mapV, const __half* Q,
                                                  const __half* K, const __half* V, float* O, int L, float scale,
                                                  long long* clk) {
  const long long t0 = app_clock();
  extern __shared__ __align__(1024) uint8_t smem_raw[];
  __shared__ __align__(8) uint64_t qfull, kfull[2], vfull[2], empty[2];
  const uint32_t base = (sa(smem_raw) + 1023u) & ~1023u;  // the 128B swizzle repeats every 1024 bytes
  const uint32_t sQ = base;
  auto sK = [&](int s) { return base + QBYTES(D) + s * 2 * KVBYTES(D); };
  auto sV = [&](int s) { return base + QBYTES(D) + s * 2 * KVBYTES(D) + KVBYTES(D); };
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, nt = L / BN;
  if (threadIdx.x == 0) {
    mb_init(&qfull, 1);
    for (int s = 0; s < 2; s++) {
      mb_init(&kfull[s], 1);
      mb_init(&vfull[s], 1);
      mb_init(&empty[s], 4);
    }
    fence_init();
  }
  __syncthreads();
  if (warp == 4) {
    if (lane == 0) {
      mb_arrive_tx(&qfull, QBYTES(D));
      for (int c = 0; c < D / 64; c++) tma2d(sQ + c * BM * 128, &mapQ, c * 64, 0, &qfull);
      for (int j = 0; j < nt; j++) {
        const int s = j & 1;
        if (j >= 2) mb_wait(&empty[s], ((j >> 1) - 1) & 1);
        mb_arrive_tx(&kfull[s], KVBYTES(D));
        for (int c = 0; c < D / 64; c++) tma2d(sK(s) + c * BN * 128, &mapK, c * 64, j * BN, &kfull[s]);
        mb_arrive_tx(&vfull[s], KVBYTES(D));
        for (int c = 0; c < D / 64; c++) tma2d(sV(s) + c * BN * 128, &mapV, c * 64, j * BN, &vfull[s]);
      }
    }
  } else {
    const float sl2 = scale * 1.44269504088896341f;  // softmax in base 2: 2^(x log2 e) = e^x
    float o[D / 2], m[2] = {-INFINITY, -INFINITY}, l[2] = {0.0f, 0.0f};
#pragma unroll
    for (int i = 0; i < D / 2; i++) o[i] = 0.0f;
    mb_wait(&qfull, 0);
    for (int j = 0; j < nt; j++) {
      const int s = j & 1;
      const uint32_t ph = (j >> 1) & 1;
      float sc[BN / 2];
      mb_wait(&kfull[s], ph);
      wg_fence();
      fence_regs(sc);
#pragma unroll
      for (int kk = 0; kk < D / 16; kk++) {
        // 16 columns of the head dimension: 32 bytes along the 128-byte rows of box kk/4.
        const uint64_t dq = desc128(sQ + (kk / 4) * BM * 128 + (kk % 4) * 32, 16, 1024);
        const uint64_t dk = desc128(sK(s) + (kk / 4) * BN * 128 + (kk % 4) * 32, 16, 1024);
        wgmma_ss_n128(sc, dq, dk, kk > 0);
      }
      wg_commit();
      wg_wait0();
      fence_regs(sc);
      // Element i of sc is S[16 warp + lane/4 + 8 ((i/2)%2)][8 (i/4) + 2 (lane%4) + i%2]: row half r holds
      // i = 4c + 2r + {0, 1}, and the four lanes lane/4 shares hold the rest of the row.
      uint32_t p[BN / 16][4];
#pragma unroll
      for (int r = 0; r < 2; r++) {
        float mx = m[r];
#pragma unroll
        for (int c = 0; c < BN / 8; c++) mx = fmaxf(mx, fmaxf(sc[4 * c + 2 * r], sc[4 * c + 2 * r + 1]));
        mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
        mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
        const float ms = mx * sl2;
        const float alpha = ex2(m[r] * sl2 - ms);
        m[r] = mx;
        l[r] *= alpha;
#pragma unroll
        for (int c = 0; c < D / 8; c++) {
          o[4 * c + 2 * r] *= alpha;
          o[4 * c + 2 * r + 1] *= alpha;
        }
#pragma unroll
        for (int c = 0; c < BN / 8; c++) {
          const float p0 = ex2(fmaf(sc[4 * c + 2 * r], sl2, -ms));
          const float p1 = ex2(fmaf(sc[4 * c + 2 * r + 1], sl2, -ms));
          l[r] += p0 + p1;
          // k16 chunk c/2 of P as wgmma's A: registers {row l/4: cols 0-7, row l/4+8: cols 0-7, then cols 8-15}.
          p[c / 2][2 * (c % 2) + r] = pack_f16(p0, p1);
        }
      }
      mb_wait(&vfull[s], ph);
      wg_fence();
      fence_regs(o);
#pragma unroll
      for (int kc = 0; kc < BN / 16; kc++) {
        // rows 16 kc .. 16 kc + 15 of V: two groups of 8 rows 1024 bytes apart (SBO); the next 64 columns of
        // the head dimension are the next box, BN * 128 bytes on (LBO).
        const uint64_t dv = desc128(sV(s) + kc * 16 * 128, BN * 128, 1024);
        wgmma_pv<D>(o, p[kc], dv);
      }
      wg_commit();
      wg_wait0();
      fence_regs(o);
      __syncwarp();
      if (lane == 0) mb_arrive(&empty[s]);
    }
    const int row0 = 16 * warp + lane / 4;
#pragma unroll
    for (int r = 0; r < 2; r++) {
      float sum = l[r];
      sum += __shfl_xor_sync(0xffffffffu, sum, 1);
      sum += __shfl_xor_sync(0xffffffffu, sum, 2);
      const float inv = rcp(sum);
      float* orow = O + (size_t)(row0 + 8 * r) * D + 2 * (lane % 4);
#pragma unroll
      for (int c = 0; c < D / 8; c++)
        *reinterpret_cast<float2*>(orow + 8 * c) = make_float2(o[4 * c + 2 * r] * inv, o[4 * c + 2 * r + 1] * inv);
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) clk[0] = app_clock() - t0;
}

static bool encode(CUtensorMap* map, const __half* base, uint64_t w, uint64_t h, uint32_t bw, uint32_t bh) {
  cuuint64_t gdim[2] = {w, h};
  cuuint64_t gstride[1] = {w * sizeof(__half)};
  cuuint32_t box[2] = {bw, bh}, es[2] = {1, 1};
  return cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, (void*)base, gdim, gstride, box, es,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

static float f16int_value(uint64_t seed, size_t k) { return (float)((int)(splitmix(seed, k) >> 60) - 8); }

// check compares O with softmax(scale Q K^T) V computed in double from the same inputs; P's rounding to fp16
// before P V bounds the difference (about 2^-11 of |O|'s scale).
static double check(const std::vector<uint8_t>& out, int D, int L, double scale) {
  std::vector<double> s(L);
  double worst = 0;
  for (int i = 0; i < BM; i++) {
    double mx = -1e300;
    for (int j = 0; j < L; j++) {
      double acc = 0;
      for (int d = 0; d < D; d++) acc += (double)f16int_value(1, (size_t)i * D + d) * f16int_value(2, (size_t)j * D + d);
      s[j] = acc * scale;
      mx = std::max(mx, s[j]);
    }
    double sum = 0;
    for (int j = 0; j < L; j++) sum += (s[j] = exp(s[j] - mx));
    for (int d = 0; d < D; d++) {
      double ref = 0;
      for (int j = 0; j < L; j++) ref += s[j] * f16int_value(3, (size_t)j * D + d);
      ref /= sum;
      float got;
      memcpy(&got, out.data() + 4 * ((size_t)i * D + d), 4);
      worst = std::max(worst, std::fabs(got - ref));
    }
  }
  return worst;
}

template <int D> static void one(int L) {
  const size_t smem = smem_bytes<D>();
  CK(cudaFuncSetAttribute(fa3_fwd<D>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
  char cfg[64], kname[96], mq[96], mk[96], mv[96];
  snprintf(cfg, sizeof cfg, "d%d_l%d", D, L);
  snprintf(kname, sizeof kname, "_Z7fa3_fwdILi%dEEv14CUtensorMap_stS0_S0_PK6__halfS3_S3_PfifPx", D);
  snprintf(mq, sizeof mq, "tensormap:f16,%dx64,box=64x64,swizzle=128B,buf=3", D);
  snprintf(mk, sizeof mk, "tensormap:f16,%dx%d,box=64x%d,swizzle=128B,buf=4", D, L, BN);
  snprintf(mv, sizeof mv, "tensormap:f16,%dx%d,box=64x%d,swizzle=128B,buf=5", D, L, BN);
  AppCase c("fa3_fwd", cfg, "fa3_fwd.cu", kname, dim3(160), smem);
  c.literal(mq);
  c.literal(mk);
  c.literal(mv);
  const __half* Q = c.in<__half>("buf:" + std::to_string(BM * D * 2) + ":f16int:1");
  const __half* K = c.in<__half>("buf:" + std::to_string(L * D * 2) + ":f16int:2");
  const __half* V = c.in<__half>("buf:" + std::to_string(L * D * 2) + ":f16int:3");
  float* O = c.out<float>(BM * D * 4);
  const size_t oarg = c.args.size() - 1;
  c.i32(L);
  const float scale = 0.0078125f;
  c.literal("0.0078125");
  long long* clk = c.out<long long>(8);
  c.args.back().output = false;
  CUtensorMap mapQ, mapK, mapV;
  if (!encode(&mapQ, Q, D, BM, 64, BM) || !encode(&mapK, K, D, L, 64, BN) || !encode(&mapV, V, D, L, 64, BN)) {
    fprintf(stderr, "fa3_fwd %s: cuTensorMapEncodeTiled failed\n", cfg);
    exit(1);
  }
  fa3_fwd<D><<<1, 160, smem>>>(mapQ, mapK, mapV, Q, K, V, O, L, scale, clk);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  const double err = check(c.fetch(c.args[oarg]), D, L, scale);
  fprintf(stderr, "fa3_fwd %s: largest |O - reference| %.3g %s\n", cfg, err, err < 0.05 ? "ok" : "FAILED");
  c.run([&] { fa3_fwd<D><<<1, 160, smem>>>(mapQ, mapK, mapV, Q, K, V, O, L, scale, clk); });
}

int main() {
  app_warm();
  for (int L : {128, 256, 512, 1024, 2048}) {
    one<64>(L);
    one<128>(L);
  }
  return 0;
}
