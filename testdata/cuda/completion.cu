// completion.cu: cuda::barrier<cuda::thread_scope_block, CompletionF> with a completion function that, each
// phase, sums what the threads wrote to shared memory, publishes the sum in shared memory (read by every
// released waiter) and writes it to global memory. libcu++ implements a barrier with a completion function in
// software (atomics on the barrier object), not with a hardware mbarrier: the PTX shows what that costs.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o completion completion.cu
// Run:   CASES=cases.jsonl ./completion
#include <cuda_runtime.h>
#include <cuda/barrier>
#include <cuda/std/utility>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

struct PhaseSum {
  const int* vals;  // shared: one value per participating thread
  int* result;      // shared: this phase's sum, read by the released threads
  int* counter;     // shared: phases completed so far
  int* gout;        // global: gout[phase] = sum
  int n;
  __device__ void operator()() noexcept {
    int s = 0;
    for (int i = 0; i < n; i++) s += vals[i] * (i + 1);
    *result = s;
    gout[*counter] = s;
    *counter = *counter + 1;
  }
};
using PhaseBarrier = cuda::barrier<cuda::thread_scope_block, PhaseSum>;
static_assert(alignof(PhaseBarrier) <= 16, "barrier storage alignment");

// blockDim.x <= 256. Phase p: vals[t] = in[p*n + t] ^ (7p + t); even phases arrive_and_wait, odd phases
// arrive -> independent work -> wait(token). per_thread[t] = running combination of the published sums.
extern "C" __global__ void completion_phases(const int* __restrict__ in, int phases, int* __restrict__ phase_sums, int* __restrict__ per_thread) {
  __shared__ __align__(16) unsigned char storage[sizeof(PhaseBarrier)];
  __shared__ int vals[256];
  __shared__ int result, counter;
  PhaseBarrier* bar = reinterpret_cast<PhaseBarrier*>(storage);
  const int t = threadIdx.x, n = blockDim.x;
  if (t == 0) {
    result = 0; counter = 0;
    init(bar, n, PhaseSum{vals, &result, &counter, phase_sums, n});
  }
  __syncthreads();
  int acc = 0;
  for (int p = 0; p < phases; p++) {
    vals[t] = in[p * n + t] ^ (7 * p + t);
    if (p & 1) {
      auto tok = bar->arrive();
      const int local = in[p * n + (t + 1) % n] >> 3;
      bar->wait(cuda::std::move(tok));
      acc = acc * 31 + (result ^ local);
    } else {
      bar->arrive_and_wait();
      acc = acc * 31 + result;
    }
  }
  per_thread[t] = acc;
  if (t == 0) phase_sums[phases] = counter;
}

// The upper half of the block leaves with arrive_and_drop at phase drop_at; later phases complete with the
// lower half only (their vals entries keep the values of the last phase they wrote).
extern "C" __global__ void completion_drop(const int* __restrict__ in, int phases, int drop_at, int* __restrict__ phase_sums, int* __restrict__ per_thread) {
  __shared__ __align__(16) unsigned char storage[sizeof(PhaseBarrier)];
  __shared__ int vals[256];
  __shared__ int result, counter;
  PhaseBarrier* bar = reinterpret_cast<PhaseBarrier*>(storage);
  const int t = threadIdx.x, n = blockDim.x;
  if (t == 0) {
    result = 0; counter = 0;
    init(bar, n, PhaseSum{vals, &result, &counter, phase_sums, n});
  }
  __syncthreads();
  int acc = 0;
  for (int p = 0; p < phases; p++) {
    if (p == drop_at && t >= n / 2) { bar->arrive_and_drop(); break; }
    vals[t] = in[p * n + t] + p;
    bar->arrive_and_wait();
    acc += result;
  }
  per_thread[t] = acc;
}

#include "harness.h"  // the host harness shared by every testdata/cuda/*.cu

static std::vector<uint32_t> ref_phases(const std::vector<uint32_t>& in, int n, int phases, std::vector<uint32_t>* per) {
  std::vector<uint32_t> sums(phases + 1);
  std::vector<int> vals(n);
  for (int p = 0; p < phases; p++) {
    for (int t = 0; t < n; t++) vals[t] = (int)in[p * n + t] ^ (7 * p + t);
    uint32_t s = 0; for (int i = 0; i < n; i++) s += (uint32_t)vals[i] * (uint32_t)(i + 1);
    sums[p] = s;
    for (int t = 0; t < n; t++) {
      uint32_t& a = (*per)[t];
      if (p & 1) a = a * 31u + (s ^ (uint32_t)((int)in[p * n + (t + 1) % n] >> 3));
      else a = a * 31u + s;
    }
  }
  sums[phases] = phases;
  return sums;
}

int main() {
  const char* F = "completion.cu";
  {
    Case c("completion_phases_128x6", F, "completion_phases", dim3(128), dim3(1), 0,
           "cuda::barrier with completion function: 6 phases, F sums smem values*(i+1) into gout[p] and a shared result every thread reads; odd phases split arrive/wait");
    const int* in = c.buf<int>("buf:4096:random:8");
    const int phases = c.i32(6);
    int* sums = c.buf<int>("buf:64");
    int* per = c.buf<int>("buf:512");
    c.dump(sums, "i32", 7);
    c.dump(per, "i32", 128);
    std::vector<uint32_t> pt(128, 0);
    std::vector<uint32_t> rs = ref_phases(words_of(c.host(in)), 128, phases, &pt);
    c.expect(sums, rs); c.expect(per, pt);
    c.run([&] { completion_phases<<<c.grid, c.block, c.smem>>>(in, phases, sums, per); });
  }
  {
    Case c("completion_phases_96x9", F, "completion_phases", dim3(96), dim3(1), 0,
           "same kernel, 3 warps, 9 phases over seq input");
    const int* in = c.buf<int>("buf:4096:seq");
    const int phases = c.i32(9);
    int* sums = c.buf<int>("buf:64");
    int* per = c.buf<int>("buf:384");
    c.dump(sums, "i32", 10);
    c.dump(per, "i32", 96);
    std::vector<uint32_t> pt(96, 0);
    std::vector<uint32_t> rs = ref_phases(words_of(c.host(in)), 96, phases, &pt);
    c.expect(sums, rs); c.expect(per, pt);
    c.run([&] { completion_phases<<<c.grid, c.block, c.smem>>>(in, phases, sums, per); });
  }
  {
    Case c("completion_drop_64x5", F, "completion_drop", dim3(64), dim3(1), 0,
           "completion function + arrive_and_drop: threads 32..63 drop at phase 2, phases 2..4 complete with 32 arrivals");
    const int* in = c.buf<int>("buf:2048:random:9");
    const int phases = c.i32(5);
    const int drop = c.i32(2);
    int* sums = c.buf<int>("buf:64");
    int* per = c.buf<int>("buf:256");
    c.dump(sums, "i32", 5);
    c.dump(per, "i32", 64);
    std::vector<uint32_t> w = words_of(c.host(in)), rs(5), pt(64, 0);
    std::vector<uint32_t> vals(64, 0);
    for (int p = 0; p < phases; p++) {
      for (int t = 0; t < 64; t++) if (!(p >= drop && t >= 32)) vals[t] = w[p * 64 + t] + p;
      uint32_t s = 0; for (int i = 0; i < 64; i++) s += vals[i] * (uint32_t)(i + 1);
      rs[p] = s;
      for (int t = 0; t < 64; t++) if (!(p >= drop && t >= 32)) pt[t] += s;
    }
    c.expect(sums, rs); c.expect(per, pt);
    c.run([&] { completion_drop<<<c.grid, c.block, c.smem>>>(in, phases, drop, sums, per); });
  }
  return 0;
}
