// tma_pipeline.cu: warp-specialised multi-stage pipelines whose checksums a simulator must reproduce exactly.
// Warp 0 is the producer (lane 0 issues), warps 1..C consume. full[s]: init 1, producer arrive.expect_tx +
// copy; empty[s]: init C, one arrive per consumer warp. Phases flip CUTLASS-style (producer's first wait on
// each empty slot uses parity 1 and passes at once; consumers start at parity 0).
//  - tma_pipe_bulk: cp.async.bulk global->shared of `chunk` bytes per tile.
//  - tma_pipe_tensor2d: cp.async.bulk.tensor.2d tiles of a 2-D tensor through a __grid_constant__ CUtensorMap,
//    boxes partly out of bounds on every side (negative and past-the-end coordinates), so OOB fill is in the sums.
// Consumers checksum every word they read: sum of word * (position + 1) and xor of word << (position & 31)
// (64-bit), per-tile word sums, and tile 0's raw shared-memory image.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o tma_pipeline tma_pipeline.cu -lcuda
// Run:   CASES=cases.jsonl ./tma_pipeline
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

__device__ __forceinline__ uint32_t sa(const void* p) { return (uint32_t)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void mb_init(uint64_t* b, uint32_t n) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(sa(b)), "r"(n) : "memory");
}
__device__ __forceinline__ void fence_async() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }
__device__ __forceinline__ void mb_arrive(uint64_t* b) {
  asm volatile("{\n\t.reg .b64 st;\n\tmbarrier.arrive.shared::cta.b64 st, [%0];\n\t}" :: "r"(sa(b)) : "memory");
}
__device__ __forceinline__ void mb_arrive_tx(uint64_t* b, uint32_t tx) {
  asm volatile("{\n\t.reg .b64 st;\n\tmbarrier.arrive.expect_tx.shared::cta.b64 st, [%0], %1;\n\t}" :: "r"(sa(b)), "r"(tx) : "memory");
}
__device__ __forceinline__ bool mb_try(uint64_t* b, uint32_t par) {
  uint32_t ok;
  asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
               : "=r"(ok) : "r"(sa(b)), "r"(par) : "memory");
  return ok != 0;
}
__device__ __forceinline__ void mb_wait(uint64_t* b, uint32_t par) { while (!mb_try(b, par)) {} }
__device__ __forceinline__ void bulk_g2s(void* dst, const void* src, uint32_t bytes, uint64_t* b) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
               :: "r"(sa(dst)), "l"(src), "r"(bytes), "r"(sa(b)) : "memory");
}
__device__ __forceinline__ void tma2d(void* dst, const CUtensorMap* map, int x, int y, uint64_t* b) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
               :: "r"(sa(dst)), "l"((uint64_t)map), "r"(x), "r"(y), "r"(sa(b)) : "memory");
}

// Consumer side shared by both kernels: checksum one stage of `words` words (tile t), warp cw of C.
__device__ __forceinline__ void consume(const uint32_t* w, uint32_t words, int t, int cw, int C, int lane,
                                        unsigned long long& lsum, unsigned long long& lxor, uint32_t* tile_sums, uint32_t* tile0) {
  uint32_t tsum = 0;
  for (uint32_t i = cw * 32 + lane; i < words; i += C * 32) {
    const uint32_t v = w[i];
    const unsigned long long pos = (unsigned long long)t * words + i;
    lsum += (unsigned long long)v * (pos + 1);
    lxor ^= (unsigned long long)v << (pos & 31);
    tsum += v;
    if (t == 0) tile0[i] = v;
  }
  for (int o = 16; o > 0; o >>= 1) tsum += __shfl_xor_sync(0xffffffffu, tsum, o);
  if (lane == 0) atomicAdd(&tile_sums[t], tsum);
}

// block = 32 * (1 + C); dynamic smem = stages * chunk. Tile t copies src[(t * chunk) % span, +chunk).
// out[0] = sum, out[1] = xor (u64); tile_sums[t]; tile0[0 .. chunk/4).
extern "C" __global__ void tma_pipe_bulk(const uint8_t* __restrict__ src, uint32_t span, uint32_t chunk, int stages, int tiles,
                                         unsigned long long* out, uint32_t* tile_sums, uint32_t* tile0) {
  extern __shared__ __align__(128) uint8_t sm[];
  __shared__ __align__(8) uint64_t full[4], empty[4];
  __shared__ unsigned long long acc_sum, acc_xor;
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, C = (blockDim.x >> 5) - 1;
  if (threadIdx.x == 0) {
    for (int s = 0; s < stages; s++) { mb_init(&full[s], 1); mb_init(&empty[s], C); }
    acc_sum = 0; acc_xor = 0;
    fence_async();
  }
  __syncthreads();
  if (warp == 0) {
    if (lane == 0) {
      int s = 0; uint32_t ph = 1;
      for (int t = 0; t < tiles; t++) {
        mb_wait(&empty[s], ph);
        mb_arrive_tx(&full[s], chunk);
        bulk_g2s(sm + s * chunk, src + (uint32_t)(((unsigned long long)t * chunk) % span), chunk, &full[s]);
        if (++s == stages) { s = 0; ph ^= 1; }
      }
    }
    __syncwarp();
  } else {
    const int cw = warp - 1;
    int s = 0; uint32_t ph = 0;
    unsigned long long lsum = 0, lxor = 0;
    for (int t = 0; t < tiles; t++) {
      mb_wait(&full[s], ph);
      consume((const uint32_t*)(sm + s * chunk), chunk / 4, t, cw, C, lane, lsum, lxor, tile_sums, tile0);
      __syncwarp();
      if (lane == 0) mb_arrive(&empty[s]);
      if (++s == stages) { s = 0; ph ^= 1; }
    }
    atomicAdd(&acc_sum, lsum);
    atomicXor(&acc_xor, lxor);
  }
  __syncthreads();
  if (threadIdx.x == 0) { out[0] = acc_sum; out[1] = acc_xor; }
}

// Same pipeline over 2-D boxes of a 4-byte-element tensor: tile t = (tx, ty) = (t % tiles_x, t / tiles_x) at
// coordinates (x0 + tx * box_w, y0 + ty * box_h). Stages are 1024-byte aligned (128B swizzle needs it):
// dynamic smem = stages * box_w * box_h * 4 + 1024. `tensor` is the buffer the map points at (unused here).
extern "C" __global__ void tma_pipe_tensor2d(const __grid_constant__ CUtensorMap map, const uint32_t* tensor, int box_w, int box_h,
                                             int x0, int y0, int tiles_x, int tiles, int stages,
                                             unsigned long long* out, uint32_t* tile_sums, uint32_t* tile0) {
  extern __shared__ __align__(1024) uint8_t sm[];
  __shared__ __align__(8) uint64_t full[4], empty[4];
  __shared__ unsigned long long acc_sum, acc_xor;
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, C = (blockDim.x >> 5) - 1;
  const uint32_t stage_bytes = (uint32_t)(box_w * box_h * 4);
  uint8_t* base = sm + ((1024u - (sa(sm) & 1023u)) & 1023u);
  if (threadIdx.x == 0) {
    for (int s = 0; s < stages; s++) { mb_init(&full[s], 1); mb_init(&empty[s], C); }
    acc_sum = 0; acc_xor = 0;
    fence_async();
  }
  __syncthreads();
  if (warp == 0) {
    if (lane == 0) {
      int s = 0; uint32_t ph = 1;
      for (int t = 0; t < tiles; t++) {
        mb_wait(&empty[s], ph);
        mb_arrive_tx(&full[s], stage_bytes);
        tma2d(base + s * stage_bytes, &map, x0 + (t % tiles_x) * box_w, y0 + (t / tiles_x) * box_h, &full[s]);
        if (++s == stages) { s = 0; ph ^= 1; }
      }
    }
    __syncwarp();
  } else {
    const int cw = warp - 1;
    int s = 0; uint32_t ph = 0;
    unsigned long long lsum = 0, lxor = 0;
    for (int t = 0; t < tiles; t++) {
      mb_wait(&full[s], ph);
      consume((const uint32_t*)(base + s * stage_bytes), stage_bytes / 4, t, cw, C, lane, lsum, lxor, tile_sums, tile0);
      __syncwarp();
      if (lane == 0) mb_arrive(&empty[s]);
      if (++s == stages) { s = 0; ph ^= 1; }
    }
    atomicAdd(&acc_sum, lsum);
    atomicXor(&acc_xor, lxor);
  }
  __syncthreads();
  if (threadIdx.x == 0) { out[0] = acc_sum; out[1] = acc_xor; }
}

#include "harness.h"  // the host harness shared by every testdata/cuda/*.cu

// Host reference of the consumers' checksums over a sequence of stage images.
struct Ref { uint64_t sum = 0, x = 0; std::vector<uint32_t> tiles, tile0; };
static void ref_add(Ref& r, const std::vector<uint32_t>& img, int t) {
  uint32_t ts = 0;
  for (size_t i = 0; i < img.size(); i++) {
    const uint64_t pos = (uint64_t)t * img.size() + i;
    r.sum += (uint64_t)img[i] * (pos + 1);
    r.x ^= (uint64_t)img[i] << (pos & 31);
    ts += img[i];
  }
  r.tiles.push_back(ts);
  if (t == 0) r.tile0 = img;
}
static std::vector<uint32_t> u64words(uint64_t a, uint64_t b) {
  return {(uint32_t)a, (uint32_t)(a >> 32), (uint32_t)b, (uint32_t)(b >> 32)};
}

static void bulk_case(const char* name, int C, int stages, uint32_t chunk, int tiles, const char* src_spec, uint32_t span) {
  char what[256];
  snprintf(what, sizeof what, "cp.async.bulk pipeline: 1 producer + %d consumer warps, %d stages of %u B, %d tiles over a %u-byte source; u64 sum/xor checksum, per-tile sums, tile 0 image",
           C, stages, chunk, tiles, span);
  Case c(name, "tma_pipeline.cu", "tma_pipe_bulk", dim3(32 * (1 + C)), dim3(1), stages * chunk, what);
  const uint8_t* src = c.buf<uint8_t>(src_spec);
  const uint32_t sp = c.u32(span), ch = c.u32(chunk);
  const int st = c.i32(stages), tl = c.i32(tiles);
  unsigned long long* out = c.buf<unsigned long long>("buf:16");
  uint32_t* ts = c.buf<uint32_t>("buf:" + std::to_string(tiles * 4));
  uint32_t* t0 = c.buf<uint32_t>("buf:" + std::to_string(chunk));
  c.dump(out, "hex", 4); c.dump(ts, "hex", tiles); c.dump(t0, "hex", 64);
  Ref r;
  const std::vector<uint32_t> w = words_of(c.host(src));
  for (int t = 0; t < tiles; t++) {
    const uint32_t off = (uint32_t)(((unsigned long long)t * chunk) % span) / 4;
    ref_add(r, std::vector<uint32_t>(w.begin() + off, w.begin() + off + chunk / 4), t);
  }
  c.expect(out, u64words(r.sum, r.x)); c.expect(ts, r.tiles); c.expect(t0, r.tile0);
  if (stages * chunk > 48 * 1024) CK(cudaFuncSetAttribute(tma_pipe_bulk, cudaFuncAttributeMaxDynamicSharedMemorySize, stages * chunk));
  c.run([&] { tma_pipe_bulk<<<c.grid, c.block, c.smem>>>(src, sp, ch, st, tl, out, ts, t0); });
}

// The tensor: W x H elements of 4 bytes, rows of `pitch` bytes, from buffer spec; boxes bw x bh.
static void tensor_case(const char* name, int C, int stages, bool f32, bool swz128, bool nan_fill) {
  const int W = 200, H = 100, pitch = 800, bw = 32, bh = 16, x0 = -8, y0 = -4;
  const int tiles_x = (W - x0 + bw - 1) / bw, tiles_y = (H - y0 + bh - 1) / bh, tiles = tiles_x * tiles_y;
  char what[320];
  snprintf(what, sizeof what, "cp.async.bulk.tensor.2d pipeline: %s %dx%d tensor, box %dx%d from (%d,%d), %dx%d tiles (OOB on all sides), swizzle %s, oob %s; 1+%d warps, %d stages",
           f32 ? "f32" : "u32", W, H, bw, bh, x0, y0, tiles_x, tiles_y, swz128 ? "128B" : "none", nan_fill ? "nan" : "zero", C, stages);
  Case c(name, "tma_pipeline.cu", "tma_pipe_tensor2d", dim3(32 * (1 + C)), dim3(1), stages * bw * bh * 4 + 1024, what);
  char spec[256];
  snprintf(spec, sizeof spec, "tensormap:%s,%dx%d,box=%dx%d,stride=%d,swizzle=%s,oob=%s,buf=1", f32 ? "f32" : "u32", W, H, bw, bh, pitch,
           swz128 ? "128B" : "none", nan_fill ? "nan" : "zero");
  c.literal(spec);
  const uint32_t* tensor = c.buf<uint32_t>("buf:80000:random:11");
  const int a_bw = c.i32(bw), a_bh = c.i32(bh), a_x0 = c.i32(x0), a_y0 = c.i32(y0), a_tx = c.i32(tiles_x), a_t = c.i32(tiles), a_s = c.i32(stages);
  unsigned long long* out = c.buf<unsigned long long>("buf:16");
  uint32_t* ts = c.buf<uint32_t>("buf:" + std::to_string(tiles * 4));
  uint32_t* t0 = c.buf<uint32_t>("buf:" + std::to_string(bw * bh * 4));
  c.dump(out, "hex", 4); c.dump(ts, "hex", tiles); c.dump(t0, "hex", bw * bh);
  CUtensorMap map;
  cuuint64_t gdim[2] = {(cuuint64_t)W, (cuuint64_t)H}; cuuint64_t gstride[1] = {(cuuint64_t)pitch};
  cuuint32_t bdim[2] = {(cuuint32_t)bw, (cuuint32_t)bh}; cuuint32_t es[2] = {1, 1};
  CUresult e = cuTensorMapEncodeTiled(&map, f32 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32 : CU_TENSOR_MAP_DATA_TYPE_UINT32, 2, (void*)tensor, gdim, gstride, bdim, es,
      CU_TENSOR_MAP_INTERLEAVE_NONE, swz128 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
      nan_fill ? CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA : CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (e != CUDA_SUCCESS) { fprintf(stderr, "%s: cuTensorMapEncodeTiled failed (%d), case skipped\n", name, (int)e); return; }
  // Reference: stage image of each box (row-major box, OOB -> 0, or for oob=nan the f32 pattern 0x7ff77ff7 that an
  // H200 writes: measured 2026-11-30, not the canonical 0x7fffffff), 128B swizzle
  // moves 16-byte chunk c of box row r to chunk c ^ (r % 8) (stage base 1024-aligned, rows of 128 bytes).
  Ref r;
  const std::vector<uint32_t> w = words_of(c.host(tensor));
  for (int t = 0; t < tiles; t++) {
    std::vector<uint32_t> img(bw * bh);
    const int bx = x0 + (t % tiles_x) * bw, by = y0 + (t / tiles_x) * bh;
    for (int yy = 0; yy < bh; yy++)
      for (int xx = 0; xx < bw; xx++) {
        const int gx = bx + xx, gy = by + yy;
        const uint32_t v = (gx >= 0 && gx < W && gy >= 0 && gy < H) ? w[gy * (pitch / 4) + gx] : (nan_fill ? 0x7ff77ff7u : 0u);
        int word = yy * bw + xx;
        if (swz128) { const int chunk16 = (xx * 4) / 16, within = xx % 4; word = yy * bw + ((chunk16 ^ (yy % 8)) * 4) + within; }
        img[word] = v;
      }
    ref_add(r, img, t);
  }
  c.expect(out, u64words(r.sum, r.x)); c.expect(ts, r.tiles); c.expect(t0, r.tile0);
  c.run([&] { tma_pipe_tensor2d<<<c.grid, c.block, c.smem>>>(map, tensor, a_bw, a_bh, a_x0, a_y0, a_tx, a_t, a_s, out, ts, t0); });
}

int main() {
  bulk_case("tma_bulk_c2_s3_4k", 2, 3, 4096, 24, "buf:65536:random:7", 65536);
  bulk_case("tma_bulk_c4_s2_1k", 4, 2, 1024, 40, "buf:16384:random:12", 12288);
  bulk_case("tma_bulk_c1_s1_16k", 1, 1, 16384, 6, "buf:65536:seq", 65536);
  bulk_case("tma_bulk_c3_s4_2k", 3, 4, 2048, 30, "buf:32768:random:13", 20480);
  tensor_case("tma_tensor2d_u32_oobzero", 2, 3, false, false, false);
  tensor_case("tma_tensor2d_u32_swz128", 2, 2, false, true, false);
  tensor_case("tma_tensor2d_f32_oobnan", 1, 3, true, false, true);
  return 0;
}
