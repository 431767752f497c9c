// libcu.cu: kernels written the way users write them with libcu++ / CCCL and cooperative_groups, so the PTX
// is what those headers generate. Each computes a checkable result.
//  lc_barrier_arrive_wait   cuda::barrier<thread_scope_block>: arrive() + wait(token), arrive_and_wait()
//  lc_memcpy_async_block    cuda::memcpy_async(cg::thread_block, ..., aligned_size_t<16>, barrier)
//  lc_memcpy_async_thread   cuda::memcpy_async(per thread, 16 bytes, barrier): one cp.async.bulk per thread
//  lc_arrive_tx             cuda::ptx::cp_async_bulk + cuda::device::barrier_arrive_tx, then barrier_expect_tx
//                           (+ cuda::device::experimental::cp_async_bulk_global_to_shared unless NO_CDE)
//  lc_ptx_mbarrier          raw mbarriers through cuda::ptx: mbarrier_init, mbarrier_arrive_expect_tx,
//                           mbarrier_arrive, mbarrier_try_wait (token), mbarrier_try_wait_parity, cp_async_bulk
//  lc_cg                    cooperative_groups: tiled_partition<32>/<8>, reduce, inclusive_scan,
//                           ballot, shfl, sync
//  lc_pipeline              cuda::pipeline<thread_scope_thread> + memcpy_async (cp.async, Ampere style)
// Fallback switches (the build script tries them in order if a newer/older CCCL rejects something):
//  NO_CDE, NO_PTX_INIT (inline-asm mbarrier.init instead of cuda::ptx::mbarrier_init), NO_PIPELINE, NO_CG_SCAN.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o libcu libcu.cu
// Run:   CASES=cases.jsonl ./libcu
#include <cuda_runtime.h>
#include <cuda/barrier>
#include <cuda/ptx>
#include <cuda/std/utility>
#ifndef NO_PIPELINE
#include <cuda/pipeline>
#endif
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#ifndef NO_CG_SCAN
#include <cooperative_groups/scan.h>
#endif
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace cg = cooperative_groups;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

// rounds of: publish x in a ring, arrive + wait(token), read neighbour (t + r + 1) % n, arrive_and_wait, mix.
extern "C" __global__ void lc_barrier_arrive_wait(const int* __restrict__ in, int rounds, int* __restrict__ out) {
  __shared__ block_barrier bar;
  __shared__ int ring[256];
  const int t = threadIdx.x, n = blockDim.x;
  if (t == 0) init(&bar, n);
  __syncthreads();
  int x = in[blockIdx.x * n + t];
  for (int r = 0; r < rounds; r++) {
    ring[t] = x;
    block_barrier::arrival_token tok = bar.arrive();
    bar.wait(cuda::std::move(tok));
    const int y = ring[(t + r + 1) % n];
    bar.arrive_and_wait();
    x = x * 3 + y;
  }
  out[blockIdx.x * n + t] = x;
}

// The block copies 4096 bytes into shared memory with one collective memcpy_async, then thread t returns
// sum over j of smem[8t + j] * (j + 1).
extern "C" __global__ void lc_memcpy_async_block(const int* __restrict__ in, int* __restrict__ out) {
  __shared__ alignas(16) int smem[1024];
  __shared__ block_barrier bar;
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  cuda::memcpy_async(block, smem, in + blockIdx.x * 1024, cuda::aligned_size_t<16>(4096), bar);
  bar.arrive_and_wait();
  const int t = threadIdx.x;
  int s = 0;
  for (int j = 0; j < 8; j++) s += smem[(8 * t + j) % 1024] * (j + 1);
  out[blockIdx.x * blockDim.x + t] = s;
}

// Each thread copies its own 16 bytes; the barrier tracks the copies. Thread t returns smem words of its
// neighbour t ^ 1 mixed with its own.
extern "C" __global__ void lc_memcpy_async_thread(const int4* __restrict__ in, int* __restrict__ out) {
  __shared__ alignas(16) int4 smem[256];
  __shared__ block_barrier bar;
  const int t = threadIdx.x;
  if (t == 0) init(&bar, blockDim.x);
  __syncthreads();
  cuda::memcpy_async(&smem[t], &in[blockIdx.x * blockDim.x + t], cuda::aligned_size_t<16>(sizeof(int4)), bar);
  bar.arrive_and_wait();
  const int4 a = smem[t], b = smem[t ^ 1];
  out[blockIdx.x * blockDim.x + t] = (a.x ^ b.w) + (a.y - b.z) * 3 + (a.z | b.y) + (a.w & b.x);
}

// Phase 0: thread 0 issues cuda::ptx::cp_async_bulk of 2048 bytes and arrives with barrier_arrive_tx; others
// arrive(). Phase 1: thread 0 barrier_expect_tx + copy, everyone arrive_and_wait. Phase 2 (unless NO_CDE):
// cde::cp_async_bulk_global_to_shared + barrier_arrive_tx. out[t] = checksum of what thread t reads.
extern "C" __global__ void lc_arrive_tx(const int* __restrict__ in, int* __restrict__ out) {
  __shared__ alignas(128) int smem[3 * 512];
  __shared__ block_barrier bar;
  const int t = threadIdx.x, n = blockDim.x;
  if (t == 0) {
    init(&bar, n);
    cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
  }
  __syncthreads();
  uint64_t* handle = cuda::device::barrier_native_handle(bar);
  block_barrier::arrival_token tok;
  if (t == 0) {
    cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global, smem, in, 2048u, handle);
    tok = cuda::device::barrier_arrive_tx(bar, 1, 2048);
  } else {
    tok = bar.arrive();
  }
  bar.wait(cuda::std::move(tok));
  int acc = 0;
  for (int j = t; j < 512; j += n) acc += smem[j] * (j + 1);

  if (t == 0) {
    cuda::device::barrier_expect_tx(bar, 2048);
    cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global, smem + 512, in + 512, 2048u, handle);
  }
  bar.arrive_and_wait();
  for (int j = t; j < 512; j += n) acc ^= smem[512 + j] << (j & 7);

#ifndef NO_CDE
  block_barrier::arrival_token tok2;
  if (t == 0) {
    cuda::device::experimental::cp_async_bulk_global_to_shared(smem + 1024, in + 1024, 2048, bar);
    tok2 = cuda::device::barrier_arrive_tx(bar, 1, 2048);
  } else {
    tok2 = bar.arrive();
  }
  bar.wait(cuda::std::move(tok2));
  for (int j = t; j < 512; j += n) acc += smem[1024 + j] - j;
#endif
  out[t] = acc;
}

// Four rounds. bar[0] (count 1): thread 0 arrive.expect_tx + cp_async_bulk into buffer k & 1, everyone waits
// with try_wait.parity(k & 1). bar[1] (count n): all threads arrive and wait on the returned token before the
// buffer is refilled two rounds later.
extern "C" __global__ void lc_ptx_mbarrier(const int* __restrict__ in, int* __restrict__ out) {
  __shared__ alignas(128) int buf[2][512];
  __shared__ alignas(8) uint64_t bar[2];
  const int t = threadIdx.x, n = blockDim.x;
  if (t == 0) {
#ifndef NO_PTX_INIT
    cuda::ptx::mbarrier_init(&bar[0], 1u);
    cuda::ptx::mbarrier_init(&bar[1], (uint32_t)n);
#else
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"((uint32_t)__cvta_generic_to_shared(&bar[0])), "r"(1) : "memory");
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"((uint32_t)__cvta_generic_to_shared(&bar[1])), "r"(n) : "memory");
#endif
    cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
  }
  __syncthreads();
  int acc = t;
  for (int k = 0; k < 4; k++) {
    if (t == 0) {
      (void)cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, cuda::ptx::scope_cta, cuda::ptx::space_shared, &bar[0], 2048u);
      cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global, buf[k & 1], in + k * 512, 2048u, &bar[0]);
    }
    while (!cuda::ptx::mbarrier_try_wait_parity(&bar[0], (uint32_t)(k & 1))) {}
    for (int j = t; j < 512; j += n) acc = acc * 17 + buf[k & 1][j];
    const uint64_t state = cuda::ptx::mbarrier_arrive(&bar[1]);
    while (!cuda::ptx::mbarrier_try_wait(&bar[1], state)) {}
  }
  out[t] = acc;
}

// cooperative_groups collectives; 6 words per thread.
extern "C" __global__ void lc_cg(const int* __restrict__ in, int* __restrict__ out) {
  auto block = cg::this_thread_block();
  auto tile32 = cg::tiled_partition<32>(block);
  auto tile8 = cg::tiled_partition<8>(block);
  const int gid = blockIdx.x * blockDim.x + (int)block.thread_rank();
  const int v = in[gid];
  const int s32 = cg::reduce(tile32, v, cg::plus<int>());
  const int m8 = cg::reduce(tile8, v, cg::greater<int>());
  const unsigned x8 = cg::reduce(tile8, (unsigned)v, cg::bit_xor<unsigned>());
#ifndef NO_CG_SCAN
  const int is8 = cg::inclusive_scan(tile8, v & 0xff);
  const int es32 = (int)cg::inclusive_scan(tile32, (unsigned)v & 0xffffu, cg::bit_xor<unsigned>());
#else
  const int is8 = 0, es32 = 0;
#endif
  const unsigned bal = tile32.ballot((v & 1) != 0);
  const int sh = tile8.shfl(v, 7 - (int)tile8.thread_rank());
  block.sync();
  int* o = out + gid * 8;
  o[0] = s32; o[1] = m8; o[2] = (int)x8; o[3] = is8; o[4] = es32; o[5] = (int)bal; o[6] = sh; o[7] = (int)tile8.meta_group_rank();
}

#ifndef NO_PIPELINE
// Per-thread double-buffered cp.async pipeline over `stages` 16-byte chunks: thread t reads chunk
// in[(k * n + t)] at stage k; returns a rolling combination.
extern "C" __global__ void lc_pipeline(const int4* __restrict__ in, int stages, int* __restrict__ out) {
  __shared__ alignas(16) int4 sbuf[2][256];
  const int t = threadIdx.x, n = blockDim.x;
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  for (int s = 0; s < 2 && s < stages; s++) {
    pipe.producer_acquire();
    cuda::memcpy_async(&sbuf[s][t], &in[s * n + t], cuda::aligned_size_t<16>(sizeof(int4)), pipe);
    pipe.producer_commit();
  }
  int acc = 0;
  for (int k = 0; k < stages; k++) {
    pipe.consumer_wait();
    const int4 v = sbuf[k & 1][t];
    acc = acc * 7 + (v.x ^ v.y) + (v.z - v.w);
    pipe.consumer_release();
    if (k + 2 < stages) {
      pipe.producer_acquire();
      cuda::memcpy_async(&sbuf[k & 1][t], &in[(k + 2) * n + t], cuda::aligned_size_t<16>(sizeof(int4)), pipe);
      pipe.producer_commit();
    }
  }
  out[t] = acc;
}
#endif

#include "harness.h"  // the host harness shared by every testdata/cuda/*.cu

int main() {
  const char* F = "libcu.cu";
  {
    Case c("lc_barrier_arrive_wait_2x128", F, "lc_barrier_arrive_wait", dim3(128), dim3(2), 0,
           "cuda::barrier<thread_scope_block> (hardware mbarrier): 5 rounds of arrive/wait(token) + arrive_and_wait around a shared ring");
    const int* in = c.buf<int>("buf:1024:random:21");
    const int rounds = c.i32(5);
    int* out = c.buf<int>("buf:1024");
    c.dump(out, "i32", 256);
    std::vector<uint32_t> w = words_of(c.host(in)), ref(256);
    for (int b = 0; b < 2; b++) {
      std::vector<uint32_t> x(w.begin() + b * 128, w.begin() + b * 128 + 128), ring(128);
      for (int r = 0; r < rounds; r++) { ring = x; for (int t = 0; t < 128; t++) x[t] = x[t] * 3u + ring[(t + r + 1) % 128]; }
      for (int t = 0; t < 128; t++) ref[b * 128 + t] = x[t];
    }
    c.expect(out, ref);
    c.run([&] { lc_barrier_arrive_wait<<<c.grid, c.block, c.smem>>>(in, rounds, out); });
  }
  {
    Case c("lc_memcpy_async_block_2x128", F, "lc_memcpy_async_block", dim3(128), dim3(2), 0,
           "cuda::memcpy_async(thread_block, 4096 B, aligned_size_t<16>, barrier) then arrive_and_wait; weighted sums");
    const int* in = c.buf<int>("buf:8192:random:22");
    int* out = c.buf<int>("buf:1024");
    c.dump(out, "i32", 256);
    std::vector<uint32_t> w = words_of(c.host(in)), ref(256);
    for (int b = 0; b < 2; b++) for (int t = 0; t < 128; t++) {
      uint32_t s = 0; for (int j = 0; j < 8; j++) s += w[b * 1024 + (8 * t + j) % 1024] * (uint32_t)(j + 1);
      ref[b * 128 + t] = s;
    }
    c.expect(out, ref);
    c.run([&] { lc_memcpy_async_block<<<c.grid, c.block, c.smem>>>(in, out); });
  }
  {
    Case c("lc_memcpy_async_thread_2x64", F, "lc_memcpy_async_thread", dim3(64), dim3(2), 0,
           "per-thread cuda::memcpy_async of 16 B with a barrier (CCCL 3 issues one cp.async.bulk + expect_tx per thread), neighbour mix");
    const int4* in = c.buf<int4>("buf:2048:random:23");
    int* out = c.buf<int>("buf:512");
    c.dump(out, "i32", 128);
    std::vector<uint32_t> w = words_of(c.host(in)), ref(128);
    for (int g = 0; g < 128; g++) {
      const uint32_t* a = &w[g * 4]; const uint32_t* b = &w[(g ^ 1) * 4];
      ref[g] = (a[0] ^ b[3]) + (a[1] - b[2]) * 3u + (a[2] | b[1]) + (a[3] & b[0]);
    }
    c.expect(out, ref);
    c.run([&] { lc_memcpy_async_thread<<<c.grid, c.block, c.smem>>>(in, out); });
  }
  {
    Case c("lc_arrive_tx_1x128", F, "lc_arrive_tx", dim3(128), dim3(1), 0,
           "cuda::ptx::cp_async_bulk + cuda::device::barrier_arrive_tx, then barrier_expect_tx + arrive_and_wait"
#ifndef NO_CDE
           ", then cde::cp_async_bulk_global_to_shared"
#endif
           );
    const int* in = c.buf<int>("buf:8192:random:24");
    int* out = c.buf<int>("buf:512");
    c.dump(out, "i32", 128);
    std::vector<uint32_t> w = words_of(c.host(in)), ref(128);
    for (int t = 0; t < 128; t++) {
      uint32_t a = 0;
      for (int j = t; j < 512; j += 128) a += w[j] * (uint32_t)(j + 1);
      for (int j = t; j < 512; j += 128) a ^= w[512 + j] << (j & 7);
#ifndef NO_CDE
      for (int j = t; j < 512; j += 128) a += w[1024 + j] - (uint32_t)j;
#endif
      ref[t] = a;
    }
    c.expect(out, ref);
    c.run([&] { lc_arrive_tx<<<c.grid, c.block, c.smem>>>(in, out); });
  }
  {
    Case c("lc_ptx_mbarrier_1x96", F, "lc_ptx_mbarrier", dim3(96), dim3(1), 0,
           "cuda::ptx mbarrier_init/arrive_expect_tx/cp_async_bulk/try_wait_parity (count-1 barrier, 4 phases) and arrive/try_wait(token) (count-96 barrier)");
    const int* in = c.buf<int>("buf:8192:random:25");
    int* out = c.buf<int>("buf:384");
    c.dump(out, "i32", 96);
    std::vector<uint32_t> w = words_of(c.host(in)), ref(96);
    for (int t = 0; t < 96; t++) {
      uint32_t a = t;
      for (int k = 0; k < 4; k++) for (int j = t; j < 512; j += 96) a = a * 17u + w[k * 512 + j];
      ref[t] = a;
    }
    c.expect(out, ref);
    c.run([&] { lc_ptx_mbarrier<<<c.grid, c.block, c.smem>>>(in, out); });
  }
  {
    Case c("lc_cg_2x64", F, "lc_cg", dim3(64), dim3(2), 0,
           "cooperative_groups tiled_partition<32>/<8>: reduce plus/greater/bit_xor, inclusive_scan plus/bit_xor, ballot, shfl, meta_group_rank");
    const int* in = c.buf<int>("buf:512:random:26");
    int* out = c.buf<int>("buf:4096");
    c.dump(out, "i32", 1024);
    std::vector<uint32_t> w = words_of(c.host(in)), ref(1024);
    for (int g = 0; g < 128; g++) {
      const int b32 = g & ~31, b8 = g & ~7, r8 = g & 7, r32 = g & 31;
      uint32_t s32 = 0, x8 = 0, bal = 0; int m8 = INT32_MIN, is8 = 0, es32 = 0;
      for (int k = 0; k < 32; k++) { s32 += w[b32 + k]; if (w[b32 + k] & 1) bal |= 1u << k; if (k <= r32) es32 ^= (int)(w[b32 + k] & 0xffff); }
      for (int k = 0; k < 8; k++) { m8 = (int)w[b8 + k] > m8 ? (int)w[b8 + k] : m8; x8 ^= w[b8 + k]; if (k <= r8) is8 += (int)(w[b8 + k] & 0xff); }
#ifdef NO_CG_SCAN
      is8 = 0; es32 = 0;
#endif
      uint32_t r[8] = {s32, (uint32_t)m8, x8, (uint32_t)is8, (uint32_t)es32, bal, w[b8 + 7 - r8], (uint32_t)((g % 64) / 8)};
      for (int k = 0; k < 8; k++) ref[g * 8 + k] = r[k];
    }
    c.expect(out, ref);
    c.run([&] { lc_cg<<<c.grid, c.block, c.smem>>>(in, out); });
  }
#ifndef NO_PIPELINE
  {
    Case c("lc_pipeline_1x64", F, "lc_pipeline", dim3(64), dim3(1), 0,
           "cuda::pipeline<thread_scope_thread>: producer_acquire/commit, memcpy_async 16 B (cp.async), consumer_wait/release, 6 stages double-buffered");
    const int4* in = c.buf<int4>("buf:8192:random:27");
    const int stages = c.i32(6);
    int* out = c.buf<int>("buf:256");
    c.dump(out, "i32", 64);
    std::vector<uint32_t> w = words_of(c.host(in)), ref(64);
    for (int t = 0; t < 64; t++) {
      uint32_t a = 0;
      for (int k = 0; k < stages; k++) { const uint32_t* v = &w[(k * 64 + t) * 4]; a = a * 7u + (v[0] ^ v[1]) + (v[2] - v[3]); }
      ref[t] = a;
    }
    c.expect(out, ref);
    c.run([&] { lc_pipeline<<<c.grid, c.block, c.smem>>>(in, stages, out); });
  }
#endif
  return 0;
}
