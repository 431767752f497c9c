// steps.cu: single-thread latencies of the barrier and copy steps of a producer, each timed alone between two
// clock64 reads, where the second read waits for the step's result (a branch on the try_wait predicate, or
// nothing for a copy, whose issue is what is timed). ONE thread block of one thread; each variant runs `reps`
// times and out[v] is the median of its cycles. Output CSV "bench,config,metric,median,min,max,runs" over 3 runs.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o steps steps.cu
#include "bench.h"
#include <algorithm>
#include <vector>

__device__ __forceinline__ uint32_t tw(uint64_t* b, uint32_t par) {  // try_wait, predicate as 0/1
  uint32_t ok;
  asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
               : "=r"(ok) : "r"(sa(b)), "r"(par) : "memory");
  return ok;
}
__device__ __forceinline__ uint32_t tst(uint64_t* b, uint32_t par) {  // test_wait, predicate as 0/1
  uint32_t ok;
  asm volatile("{\n\t.reg .pred p;\n\tmbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
               : "=r"(ok) : "r"(sa(b)), "r"(par) : "memory");
  return ok;
}

// Variants (v): 0 try_wait on a completed phase, clock after a branch on it; 1 the same after an arrive on an
// unrelated barrier; 2 two try_waits on completed phases, both predicates used after the second; 3 test_wait on
// a completed phase; 4 arrive on a count-1 barrier then try_wait on it until true; 5 one 16-byte cp.async.bulk
// (issue only); 6 two back to back; 7 eight back to back; 8 one 4 KiB copy; 9 eight 4 KiB copies back to back;
// 10 arrive.expect_tx then a copy (issue only); 11 try_wait on a completed phase with 32 independent adds
// between it and the branch.
extern "C" __global__ void step_latency(const uint8_t* src, int reps, long long* out, long long* raw) {
  __shared__ __align__(128) uint8_t buf[8 * 4096];
  __shared__ __align__(8) uint64_t done, done2, open, open2, x;
  const uint32_t MAXC = (1u << 20) - 1;
  mb_init(&done, 1); mb_init(&done2, 1); mb_init(&open, MAXC); mb_init(&open2, MAXC); mb_init(&x, 1);
  fence_async();
  mb_arrive(&done); mb_arrive(&done2);
  mb_wait(&done, 0); mb_wait(&done2, 0);
  uint32_t xpar = 0, sink = 0, acc = reps;
  for (int v = 0; v < 12; v++) {
    for (int r = 0; r < reps; r++) {
      long long t0 = 0, t1 = 0;
      switch (v) {
        case 0: t0 = clk(); if (tw(&done, 0)) t1 = clk(); break;
        case 1: mb_arrive(&open2); t0 = clk(); if (tw(&done, 0)) t1 = clk(); break;
        case 2: { t0 = clk(); const uint32_t a = tw(&done, 0), b = tw(&done2, 0); if (a & b) t1 = clk(); break; }
        case 3: t0 = clk(); if (tst(&done, 0)) t1 = clk(); break;
        case 4: t0 = clk(); mb_arrive(&x); while (!tw(&x, xpar)) {} t1 = clk(); xpar ^= 1; break;
        case 5: mb_expect_tx(&open, 16); t0 = clk(); bulk_g2s(buf, src, 16, &open); t1 = clk(); break;
        case 6: mb_expect_tx(&open, 32); t0 = clk(); bulk_g2s(buf, src, 16, &open); bulk_g2s(buf + 16, src, 16, &open); t1 = clk(); break;
        case 7: mb_expect_tx(&open, 128); t0 = clk();
          for (int j = 0; j < 8; j++) bulk_g2s(buf + 16 * j, src, 16, &open);
          t1 = clk(); break;
        case 8: mb_expect_tx(&open, 4096); t0 = clk(); bulk_g2s(buf, src, 4096, &open); t1 = clk(); break;
        case 9: mb_expect_tx(&open, 8 * 4096); t0 = clk();
          for (int j = 0; j < 8; j++) bulk_g2s(buf + 4096 * j, src, 4096, &open);
          t1 = clk(); break;
        case 10: t0 = clk(); mb_arrive_tx(&open2, 16); bulk_g2s(buf, src, 16, &open2); t1 = clk(); break;
        case 11: {
          t0 = clk();
          const uint32_t a = tw(&done, 0);
          uint32_t y = acc;
#pragma unroll
          for (int j = 0; j < 32; j++) asm volatile("add.u32 %0, %0, %1;" : "+r"(y) : "r"(j));
          acc = y;
          if (a) t1 = clk();
          break;
        }
      }
      raw[v * reps + r] = t1 - t0;
      // Let the copies land before the next repetition (a copy in flight must not slow the next step).
      if (v >= 5 && v <= 10) { const long long w = clk(); while (clk() - w < 4000) {} }
    }
  }
  mb_arrive_n(&open, MAXC);
  mb_wait(&open, 0);
  mb_arrive_n(&open2, MAXC - (uint32_t)reps - (uint32_t)reps);  // variants 1 and 10 arrived reps times each
  mb_wait(&open2, 0);
  out[63] = sink + acc;
}

__global__ void k_spin(long long cycles, int* sink) {
  const long long s = clock64();
  while (clock64() - s < cycles) {}
  if (threadIdx.x == 0 && sink) sink[blockIdx.x] = 1;
}

int main() {
  const int RUNS = 3, reps = 33, N = 12;
  static const char* names[N] = {"try_wait_done", "arrive_other_then_try_wait_done", "two_try_waits_done", "test_wait_done",
                                 "arrive_then_try_wait_until_true", "bulk_copy_16B_issue", "bulk_copy_16B_x2_issue",
                                 "bulk_copy_16B_x8_issue", "bulk_copy_4KiB_issue", "bulk_copy_4KiB_x8_issue",
                                 "arrive_expect_tx_bulk_copy_issue", "try_wait_done_32_adds_before_branch"};
  long long *dout, *draw; CK(cudaMalloc(&dout, 64 * sizeof(long long))); CK(cudaMalloc(&draw, N * reps * sizeof(long long)));
  uint8_t* src; CK(cudaMalloc(&src, 8192)); CK(cudaMemset(src, 0, 8192));
  int* sink; CK(cudaMalloc(&sink, 1024 * sizeof(int)));
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  k_spin<<<prop.multiProcessorCount, 32>>>(100000000LL, sink); CK(cudaDeviceSynchronize());
  std::vector<long long> h(N * reps);
  std::vector<std::vector<double>> v(N);
  for (int r = 0; r <= RUNS; r++) {
    step_latency<<<1, 1>>>(src, reps, dout, draw);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h.data(), draw, N * reps * sizeof(long long), cudaMemcpyDeviceToHost));
    if (r == 0) continue;
    for (int k = 0; k < N; k++) {
      std::vector<long long> s(h.begin() + k * reps, h.begin() + (k + 1) * reps);
      std::sort(s.begin(), s.end());
      v[k].push_back((double)s[reps / 2]);
    }
  }
  printf("bench,config,metric,median,min,max,runs\n");
  for (int k = 0; k < N; k++) {
    std::sort(v[k].begin(), v[k].end());
    printf("step_latency,%s,cycles,%.2f,%.2f,%.2f,%d\n", names[k], v[k][1], v[k][0], v[k][2], RUNS);
  }
  return 0;
}
