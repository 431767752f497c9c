// gemm_wgmma.cu: a warp-specialised persistent GEMM on Hopper's tensor cores, the schedule CUTLASS calls
// "ping-pong", written from the PTX ISA. C (M x N, f32, row-major) = A (M x K, row-major) * B^T, B being N x K
// row-major: both operands K-major ("TN"), the one layout wgmma accepts for 8-bit inputs. Two element types:
// f16 (wgmma m64n128k16 .f32.f16.f16) and e4m3 (m64n128k32 .f32.e4m3.e4m3), f32 accumulators.
//
// Tiles: C is cut into 64 x 128 tiles, numbered row-major (tile t covers rows 64*(t / (N/128)), columns
// 128*(t % (N/128))); K is streamed in blocks of 128 bytes a row (64 f16 or 128 e4m3). One CTA of 384 threads
// loops over all tiles (persistent; the manifest launches one CTA so one SM's cycles are compared):
//   warpgroup 0 (warps 0-3)  producer: setmaxnreg.dec to 40; one elected lane of warp 0 walks the tiles and
//                            K blocks in order and, for each, waits until ring stage s is empty, posts
//                            arrive.expect_tx(24 KiB) on full[s] and issues two 2-D tensor copies with the 128B
//                            swizzle: A's 64-row box (8 KiB) and B's 128-row box (16 KiB).
//   warpgroups 1, 2          consumers: setmaxnreg.inc to 232; consumer c owns tiles c, c+2, c+4, ... For each
//                            it waits its turn on the ordering barrier (named barrier 1+c, 256 threads: the
//                            other consumer's bar.arrive once it has issued its previous tile's wgmmas), then for
//                            each K block waits on full[s], issues wgmma.fence, four wgmma.mma_async from
//                            shared-memory descriptors (scale-d 0 on the tile's first), commit_group, and
//                            wait_group 1, which lets it free the previous K block's stage (each warp's lane 0
//                            arrives on empty[s]). After its last K block it hands the turn to the other
//                            consumer, waits for its last group and stores its 64 x 128 f32 accumulators to C:
//                            one consumer's epilogue overlaps the other's MMAs.
// Barriers: full[s] expects 1 arrival (+ 24 KiB of transactions), empty[s] 4 (one per consumer warp). The ring
// is S stages of A boxes then S of B boxes, 1024-byte aligned (the 128B swizzle repeats every 8 rows of 128
// bytes; TMA and wgmma both apply it to the shared address). Descriptor: start >> 4 in bits 0-13, leading
// byte offset 16 (unused by swizzled K-major operands), stride byte offset 1024 (8 rows) in bits 32-45,
// swizzle mode 1 (128B) in bits 62-63; the k-th wgmma of a block starts 32 bytes further along the row.
// Parity: K block i (counted over all tiles, in the producer's order) uses stage i % S, phase i / S; the
// ordering barrier makes the two consumers wait on full[] in that same order, so a parity never aliases.
//
// Held out. Launch: block 384, dynamic shared memory S * 24 KiB + 1 KiB (alignment slack);
// args (mapA, mapB, A, B, C, M, N, K, clk); f16: A, B = buf:..:f16int:SEED, mapA =
// tensormap:f16,KxM,box=64x64,swizzle=128B,buf=2, mapB = tensormap:f16,KxN,box=64x128,swizzle=128B,buf=3;
// e4m3: A, B = buf:..:e4m3int:SEED, maps u8 with box=128x64 and 128x128. Integer inputs in [-8, 8): every
// product and sum is exact, so C has one right answer (checked on the host against an integer product).
#include "app.h"
#include <cuda.h>

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
__device__ __forceinline__ bool elect_one() {
  uint32_t e;
  asm volatile("{\n\t.reg .pred p;\n\t.reg .b32 r;\n\telect.sync r|p, 0xffffffff;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(e));
  return e != 0;
}
__device__ __forceinline__ void bar_sync(int id, int n) { asm volatile("bar.sync %0, %1;" :: "r"(id), "r"(n) : "memory"); }
__device__ __forceinline__ void bar_arrive(int id, int n) { asm volatile("bar.arrive %0, %1;" :: "r"(id), "r"(n) : "memory"); }
__device__ __forceinline__ void wg_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wg_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
template <int N> __device__ __forceinline__ void wg_wait(float (&d)[64]) {
  // the accumulators are operands so that no use of them moves above the wait
  asm volatile("wgmma.wait_group.sync.aligned %64;"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                 "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                 "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                 "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
                 "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
                 "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                 "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
                 "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
               : "n"(N) : "memory");
}
// The shared-memory matrix descriptor of a 128B-swizzled K-major operand starting at shared address addr.
__device__ __forceinline__ uint64_t sdesc(uint32_t addr) {
  return (uint64_t)((addr & 0x3ffff) >> 4) | (1ull << 16) | (64ull << 32) | (1ull << 62);
}

__device__ __forceinline__ void mma_f16(float (&d)[64], uint64_t da, uint64_t db, int scale_d) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, 1, 0, 0;\n}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
               : "l"(da), "l"(db), "r"(scale_d));
}

__device__ __forceinline__ void mma_e4m3(float (&d)[64], uint64_t da, uint64_t db, int scale_d) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, 1;\n}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
               : "l"(da), "l"(db), "r"(scale_d));
}

constexpr int BM = 64, BN = 128, ROWB = 128;                  // tile rows, columns; bytes of K a stage row
constexpr int A_BYTES = BM * ROWB, B_BYTES = BN * ROWB;       // 8 KiB + 16 KiB a stage
constexpr int STAGE_BYTES = A_BYTES + B_BYTES;

template <bool FP8, int S>
__global__ void __launch_bounds__(384, 1) gemm_wgmma(const __grid_constant__ CUtensorMap mapA,
                                                     const __grid_constant__ CUtensorMap mapB, const void* A,
                                                     const void* B, float* C, int M, int N, int K, long long* clk) {
  const long long t0 = app_clock();
  constexpr int BK = FP8 ? 128 : 64;  // elements of K a stage
  extern __shared__ __align__(1024) uint8_t smem[];
  __shared__ __align__(8) uint64_t full[S], empty[S];
  const uint32_t ring = (sa(smem) + 1023u) & ~1023u;  // S A boxes, then S B boxes
  const int wg = threadIdx.x / 128, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int kb_n = K / BK, tn = N / BN, tiles = (M / BM) * tn;
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
      for (int t = 0; t < tiles; t++)
        for (int kb = 0; kb < kb_n; kb++, i++) {
          const int s = i % S;
          if (i >= S) mb_wait(&empty[s], ((i / S) - 1) & 1);
          mb_arrive_tx(&full[s], STAGE_BYTES);
          tma2d(ring + s * A_BYTES, &mapA, kb * BK, (t / tn) * BM, &full[s]);
          tma2d(ring + S * A_BYTES + s * B_BYTES, &mapB, kb * BK, (t % tn) * BN, &full[s]);
        }
    }
  } else {
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
    const int c = wg - 1, w = warp % 4;
    float d[64];
#pragma unroll
    for (int j = 0; j < 64; j++) d[j] = 0.0f;
    for (int t = c; t < tiles; t += 2) {
      if (t > 0) bar_sync(1 + c, 256);  // the other consumer has issued its tile's wgmmas
      int i = t * kb_n;
      for (int kb = 0; kb < kb_n; kb++, i++) {
        const int s = i % S;
        mb_wait(&full[s], (i / S) & 1);
        const uint64_t da = sdesc(ring + s * A_BYTES), db = sdesc(ring + S * A_BYTES + s * B_BYTES);
        wg_fence();
#pragma unroll
        for (int k = 0; k < 4; k++) {
          if constexpr (FP8)
            mma_e4m3(d, da + 2 * k, db + 2 * k, kb | k);
          else
            mma_f16(d, da + 2 * k, db + 2 * k, kb | k);
        }
        wg_commit();
        wg_wait<1>(d);
        if (kb > 0 && lane == 0) mb_arrive(&empty[(i - 1) % S]);
      }
      if (t + 1 < tiles) bar_arrive(1 + (1 - c), 256);  // the other consumer's turn
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
  if (threadIdx.x == 0) clk[0] = app_clock() - t0;
}

static bool encode(CUtensorMap* map, const void* base, bool fp8, uint64_t k, uint64_t rows, uint32_t box_rows) {
  const uint32_t esize = fp8 ? 1 : 2;
  cuuint64_t gdim[2] = {k, rows};
  cuuint64_t gstride[1] = {k * esize};
  cuuint32_t box[2] = {128 / esize, box_rows}, es[2] = {1, 1};
  return cuTensorMapEncodeTiled(map, fp8 ? CU_TENSOR_MAP_DATA_TYPE_UINT8 : CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2,
                                (void*)base, gdim, gstride, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

// The integer value of element i of an f16int / e4m3int operand.
static int elem(const std::vector<uint8_t>& b, bool fp8, size_t i) {
  if (fp8) {
    const uint8_t v = b[i];
    if ((v & 0x7f) == 0) return 0;
    const int e = ((v >> 3) & 15) - 7, m = 8 | (v & 7);
    const int mag = e >= 3 ? m << (e - 3) : m >> (3 - e);
    return v & 0x80 ? -mag : mag;
  }
  uint16_t h; memcpy(&h, b.data() + 2 * i, 2);
  if ((h & 0x7fff) == 0) return 0;
  const int e = ((h >> 10) & 31) - 15, m = 1024 | (h & 1023);
  const int mag = m >> (10 - e);
  return h & 0x8000 ? -mag : mag;
}

template <bool FP8, int S> static void one(int M, int N, int K) {
  const size_t smem = (size_t)S * STAGE_BYTES + 1024;
  CK(cudaFuncSetAttribute(gemm_wgmma<FP8, S>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
  const char* ty = FP8 ? "e4m3" : "f16";
  const int es = FP8 ? 1 : 2, bk = 128 / es;
  char cfg[64], kname[96], ma[128], mb[128];
  snprintf(cfg, sizeof cfg, "%s_%dx%dx%d_stages%d", ty, M, N, K, S);
  snprintf(kname, sizeof kname, "_Z10gemm_wgmmaILb%dELi%dEEv14CUtensorMap_stS0_PKvS2_PfiiiPx", FP8 ? 1 : 0, S);
  snprintf(ma, sizeof ma, "tensormap:%s,%dx%d,box=%dx64,swizzle=128B,buf=2", FP8 ? "u8" : "f16", K, M, bk);
  snprintf(mb, sizeof mb, "tensormap:%s,%dx%d,box=%dx128,swizzle=128B,buf=3", FP8 ? "u8" : "f16", K, N, bk);
  const std::string fill = FP8 ? ":e4m3int:" : ":f16int:";
  AppCase c("gemm_wgmma", cfg, "gemm_wgmma.cu", kname, dim3(384), smem);
  c.literal(ma);
  c.literal(mb);
  const std::string sa_ = "buf:" + std::to_string((size_t)M * K * es) + fill + "1";
  const std::string sb_ = "buf:" + std::to_string((size_t)N * K * es) + fill + "2";
  const void* A = c.in<uint8_t>(sa_);
  const void* B = c.in<uint8_t>(sb_);
  float* C = c.out<float>((size_t)M * N * 4);
  c.i32(M);
  c.i32(N);
  c.i32(K);
  long long* clk = c.out<long long>(8);
  c.args.back().output = false;
  CUtensorMap mapA, mapB;
  if (!encode(&mapA, A, FP8, K, M, 64) || !encode(&mapB, B, FP8, K, N, 128)) {
    fprintf(stderr, "gemm_wgmma %s: cuTensorMapEncodeTiled failed\n", cfg);
    exit(1);
  }
  // the host's integer product, to check the device's C before trusting its cycles
  {
    const std::vector<uint8_t> a = fill_bytes(sa_), b = fill_bytes(sb_);
    std::vector<int> ai((size_t)M * K), bi((size_t)N * K);
    for (size_t i = 0; i < ai.size(); i++) ai[i] = elem(a, FP8, i);
    for (size_t i = 0; i < bi.size(); i++) bi[i] = elem(b, FP8, i);
    gemm_wgmma<FP8, S><<<1, 384, smem>>>(mapA, mapB, A, B, C, M, N, K, clk);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<float> got((size_t)M * N);
    CK(cudaMemcpy(got.data(), C, got.size() * 4, cudaMemcpyDeviceToHost));
    size_t bad = 0;
    for (int m = 0; m < M; m++)
      for (int n = 0; n < N; n++) {
        long long s = 0;
        for (int k = 0; k < K; k++) s += (long long)ai[(size_t)m * K + k] * bi[(size_t)n * K + k];
        if (got[(size_t)m * N + n] != (float)s) {
          if (bad < 4) fprintf(stderr, "  C[%d][%d] = %g, want %lld\n", m, n, got[(size_t)m * N + n], s);
          bad++;
        }
      }
    fprintf(stderr, "gemm_wgmma %s: host check %s (%zu of %d wrong)\n", cfg, bad ? "FAILED" : "ok", bad, M * N);
    CK(cudaMemset(C, 0, got.size() * 4));
  }
  c.run([&] { gemm_wgmma<FP8, S><<<1, 384, smem>>>(mapA, mapB, A, B, C, M, N, K, clk); });
}

#ifndef GEMM_WGMMA_NO_MAIN  // gemm_grid.cu includes this file for its device helpers
int main() {
  app_warm();
  static const int sizes[][3] = {{128, 128, 256}, {128, 256, 512}, {256, 256, 256}, {256, 256, 512},
                                 {256, 512, 512}, {512, 512, 512}, {512, 512, 1024}};
  // every size at four, two and three stages: the stage count is what a user of this kernel tunes
  for (auto& z : sizes) one<false, 4>(z[0], z[1], z[2]);
  for (auto& z : sizes) one<false, 2>(z[0], z[1], z[2]);
  for (auto& z : sizes) one<false, 3>(z[0], z[1], z[2]);
  for (auto& z : sizes) one<true, 4>(z[0], z[1], z[2]);
  for (auto& z : sizes) one<true, 2>(z[0], z[1], z[2]);
  for (auto& z : sizes) one<true, 3>(z[0], z[1], z[2]);
  return 0;
}
#endif
