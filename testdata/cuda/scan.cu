// scan.cu: prefix scans within a block (shared memory + __syncthreads, and warp shuffles), int32 with
// wrap-around, a ballot/popc stream compaction, and __syncthreads_count/and/or. Results must match the GPU bit for bit.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o scan scan.cu
// Run:   CASES=cases.jsonl ./scan
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

// Hillis-Steele inclusive scan of blockDim.x elements per block; dynamic smem = 2 * blockDim.x * 4 bytes.
extern "C" __global__ void scan_hillis_steele_i32(const int* __restrict__ in, int* __restrict__ out) {
  extern __shared__ int buf[];
  const int t = threadIdx.x, n = blockDim.x, base = blockIdx.x * n;
  int cur = 0;
  buf[t] = in[base + t];
  __syncthreads();
  for (int off = 1; off < n; off <<= 1) {
    int v = buf[cur * n + t];
    if (t >= off) v += buf[cur * n + t - off];
    buf[(1 - cur) * n + t] = v;
    __syncthreads();
    cur = 1 - cur;
  }
  out[base + t] = buf[cur * n + t];
}

// Inclusive scan of 4 * blockDim.x elements per block: int4 loads, serial scan in the thread,
// shfl.up scan across the warp, warp totals scanned by warp 0 in shared memory.
extern "C" __global__ void scan_warp_i32(const int4* __restrict__ in, int4* __restrict__ out) {
  __shared__ int warp_tot[32];
  const unsigned full = 0xffffffffu;
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5, nw = blockDim.x >> 5;
  const int g = blockIdx.x * blockDim.x + t;
  int4 v = in[g];
  v.y += v.x; v.z += v.y; v.w += v.z;
  int s = v.w;
  for (int o = 1; o < 32; o <<= 1) { const int y = __shfl_up_sync(full, s, o); if (lane >= o) s += y; }
  if (lane == 31) warp_tot[warp] = s;
  __syncthreads();
  if (warp == 0) {
    int w = lane < nw ? warp_tot[lane] : 0;
    for (int o = 1; o < 32; o <<= 1) { const int y = __shfl_up_sync(full, w, o); if (lane >= o) w += y; }
    if (lane < nw) warp_tot[lane] = w;
  }
  __syncthreads();
  const int excl = s - v.w + (warp > 0 ? warp_tot[warp - 1] : 0);
  v.x += excl; v.y += excl; v.z += excl; v.w += excl;
  out[g] = v;
}

// One block: keep in[i] whose low two bits are zero, in order; out[0..k) the kept values, count[0] = k,
// count[1 + w] = kept in warp w. Ballot + popc ranks, warp offsets scanned in shared memory.
extern "C" __global__ void compact_i32(const int* __restrict__ in, int* __restrict__ out, int* __restrict__ count) {
  __shared__ int woff[33];
  const unsigned full = 0xffffffffu;
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5, nw = blockDim.x >> 5;
  const int v = in[t];
  const bool keep = (v & 3) == 0;
  const unsigned b = __ballot_sync(full, keep);
  const int rank = __popc(b & ((1u << lane) - 1u));
  if (lane == 0) { woff[warp + 1] = __popc(b); count[1 + warp] = __popc(b); }
  __syncthreads();
  if (t == 0) { woff[0] = 0; for (int w = 1; w <= nw; w++) woff[w] += woff[w - 1]; count[0] = woff[nw]; }
  __syncthreads();
  if (keep) out[woff[warp] + rank] = v;
}

// syncthreads_reduce_i32: __syncthreads_count, __syncthreads_and and __syncthreads_or over three predicates of
// each thread's word (barrier.red, BAR.RED.POPC/AND/OR in SASS with B2R.RESULT), three rounds with the word
// rotated, each thread storing count*4 + and*2 + or a round. Threads past n take no value (their predicates false,
// true for and).
extern "C" __global__ void syncthreads_reduce_i32(const int* __restrict__ in, int* __restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  for (int r = 0; r < 3; r++) {
    const int c = __syncthreads_count((v & 3) == 1);
    const int a = __syncthreads_and(i >= n || (v & 0x30000) != 0x30000);
    const int o = __syncthreads_or((v & 0xff) == 0x5a);
    if (i < n) out[r * n + i] = c * 4 + (a ? 2 : 0) + (o ? 1 : 0);
    v = (int)(((unsigned)v >> 7) | ((unsigned)v << 25));
  }
}

#include "harness.h"  // the host harness shared by every testdata/cuda/*.cu

int main() {
  const char* F = "scan.cu";
  {
    Case c("scan_hillis_steele_2x256", F, "scan_hillis_steele_i32", dim3(256), dim3(2), 2 * 256 * 4,
           "inclusive int32 scan per block of 256 random words, double-buffered dynamic smem, 8 __syncthreads rounds");
    const int* in = c.buf<int>("buf:2048:random:5");
    int* out = c.buf<int>("buf:2048");
    c.dump(out, "i32", 512);
    std::vector<uint32_t> w = words_of(c.host(in)), ref(512);
    for (int b = 0; b < 2; b++) { uint32_t s = 0; for (int i = 0; i < 256; i++) { s += w[b * 256 + i]; ref[b * 256 + i] = s; } }
    c.expect(out, ref);
    c.run([&] { scan_hillis_steele_i32<<<c.grid, c.block, c.smem>>>(in, out); });
  }
  {
    Case c("scan_hillis_steele_1x96", F, "scan_hillis_steele_i32", dim3(96), dim3(1), 2 * 96 * 4,
           "inclusive scan with a block of 3 warps (not a power of two) over seq");
    const int* in = c.buf<int>("buf:384:seq");
    int* out = c.buf<int>("buf:384");
    c.dump(out, "i32", 96);
    std::vector<uint32_t> ref(96);
    uint32_t s = 0; for (int i = 0; i < 96; i++) { s += i; ref[i] = s; }
    c.expect(out, ref);
    c.run([&] { scan_hillis_steele_i32<<<c.grid, c.block, c.smem>>>(in, out); });
  }
  {
    Case c("scan_warp_2x256", F, "scan_warp_i32", dim3(256), dim3(2), 0,
           "inclusive int32 scan of 1024 words per block: v4 loads/stores, shfl.up scans, warp totals in smem");
    const int4* in = c.buf<int4>("buf:8192:random:6");
    int4* out = c.buf<int4>("buf:8192");
    c.dump(out, "i32", 2048);
    std::vector<uint32_t> w = words_of(c.host(in)), ref(2048);
    for (int b = 0; b < 2; b++) { uint32_t s = 0; for (int i = 0; i < 1024; i++) { s += w[b * 1024 + i]; ref[b * 1024 + i] = s; } }
    c.expect(out, ref);
    c.run([&] { scan_warp_i32<<<c.grid, c.block, c.smem>>>(in, out); });
  }
  {
    Case c("compact_1x256", F, "compact_i32", dim3(256), dim3(1), 0,
           "stream compaction of values with (v&3)==0: ballot, popc rank, serial warp-offset scan; out, count");
    const int* in = c.buf<int>("buf:1024:random:7");
    int* out = c.buf<int>("buf:1024");
    int* cnt = c.buf<int>("buf:64");
    c.dump(out, "i32", 256);
    c.dump(cnt, "i32", 9);
    std::vector<uint32_t> w = words_of(c.host(in)), ref(256, 0), rc(9, 0);
    int k = 0;
    for (int i = 0; i < 256; i++) if ((w[i] & 3) == 0) { ref[k++] = w[i]; rc[1 + i / 32]++; }
    rc[0] = k;
    c.expect(out, ref); c.expect(cnt, rc);
    c.run([&] { compact_i32<<<c.grid, c.block, c.smem>>>(in, out, cnt); });
  }
  {
    Case c("syncthreads_reduce_3x256", F, "syncthreads_reduce_i32", dim3(256), dim3(3), 0,
           "__syncthreads_count/and/or (barrier.red popc/and/or) over 700 random words, the last block partly idle");
    const int* in = c.buf<int>("buf:2800:random:8");
    int* out = c.buf<int>("buf:8400");
    const int n = c.i32(700);
    c.dump(out, "i32", 2100);
    std::vector<uint32_t> w = words_of(c.host(in)), ref(2100);
    for (int r = 0; r < 3; r++)
      for (int b = 0; b < 3; b++) {
        int cnt = 0; bool all = true, any = false;
        for (int t = 0; t < 256; t++) {
          const int i = b * 256 + t;
          const uint32_t v = i < 700 ? (w[i] >> (7 * r) | (r ? w[i] << (32 - 7 * r) : 0)) : 0;
          cnt += i < 700 && (v & 3) == 1;
          all = all && (i >= 700 || (v & 0x30000) != 0x30000);
          any = any || (i < 700 && (v & 0xff) == 0x5a);
        }
        for (int t = 0; t < 256; t++) {
          const int i = b * 256 + t;
          if (i < 700) ref[r * 700 + i] = cnt * 4 + (all ? 2 : 0) + (any ? 1 : 0);
        }
      }
    c.expect(out, ref);
    c.run([&] { syncthreads_reduce_i32<<<c.grid, c.block, c.smem>>>(in, out, n); });
  }
  return 0;
}
