// reqcost.cu: what a bulk copy costs the copy engine, by size. ONE thread issues n cp.async.bulk copies of S
// bytes back to back (global → shared, all completing on one barrier armed once with n·S bytes), from n
// consecutive S-byte blocks of an L2-resident buffer (`distinct`) or all from the same block (`same`), into eight
// shared-memory slots in turn. out[0] = cycles from before the first copy to after the last one issues (the
// thread's view), out[1] = to the barrier's completion (the engine's). Launched with n = 8 and n = 40: the
// difference over 32 is the cost of one more copy in a stream, whatever binds it.
// Output CSV "bench,config,metric,median,min,max,runs": medians of 3 launches after a warm-up launch (which
// also brings the source into L2).
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o reqcost reqcost.cu
#include "bench.h"

template <int SAME>
__global__ void k_req(const uint8_t* src, uint32_t bytes, int n, long long* out) {
  extern __shared__ __align__(1024) uint8_t sm[];
  __shared__ __align__(8) uint64_t bar;
  mb_init(&bar, 1);
  fence_async();
  mb_arrive_tx(&bar, bytes * n);
  uint32_t off = 0;
  const long long t0 = clk();
  for (int i = 0; i < n; i++) {
    bulk_g2s(sm + (i & 7) * bytes, src + (SAME ? 0 : off), bytes, &bar);
    off += bytes;
  }
  const long long t1 = clk();
  mb_wait(&bar, 0);
  const long long t2 = clk();
  out[0] = t1 - t0;
  out[1] = t2 - t0;
}

__global__ void k_spin(long long cycles, int* sink) {
  const long long s = clock64();
  while (clock64() - s < cycles) {}
  if (threadIdx.x == 0 && sink) sink[blockIdx.x] = 1;
}

// warm_clocks: every SM spins 100M cycles (~50 ms) so that the kernels after it run at the boost clock, where the
// suite's other files were measured (an L2 round trip counts more SM cycles at a higher SM clock).
static void warm_clocks() {
  int* sink; CK(cudaMalloc(&sink, 1024 * sizeof(int)));
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  k_spin<<<prop.multiProcessorCount, 32>>>(100000000LL, sink); CK(cudaDeviceSynchronize());
  CK(cudaFree(sink));
}

int main() {
  uint8_t* src;
  long long* dout;
  CK(cudaMalloc(&src, 8 << 20));
  CK(cudaMemset(src, 0x3f, 8 << 20));
  CK(cudaMalloc(&dout, 2 * sizeof(long long)));
  CK(cudaFuncSetAttribute(k_req<0>, cudaFuncAttributeMaxDynamicSharedMemorySize, 128 << 10));
  CK(cudaFuncSetAttribute(k_req<1>, cudaFuncAttributeMaxDynamicSharedMemorySize, 128 << 10));
  warm_clocks();
  printf("bench,config,metric,median,min,max,runs\n");
  for (int same = 0; same < 2; same++) {
    for (uint32_t bytes : {16u, 64u, 128u, 256u, 512u, 1024u, 2048u, 4096u, 8192u, 16384u}) {
      for (int n : {8, 40}) {
        std::vector<double> issue, total;
        for (int r = 0; r <= 3; r++) {
          if (same) k_req<1><<<1, 1, 8 * bytes>>>(src, bytes, n, dout);
          else k_req<0><<<1, 1, 8 * bytes>>>(src, bytes, n, dout);
          CK(cudaGetLastError());
          CK(cudaDeviceSynchronize());
          long long h[2];
          CK(cudaMemcpy(h, dout, sizeof h, cudaMemcpyDeviceToHost));
          if (r > 0) { issue.push_back((double)h[0]); total.push_back((double)h[1]); }
        }
        std::sort(issue.begin(), issue.end());
        std::sort(total.begin(), total.end());
        char cfg[64];
        snprintf(cfg, sizeof cfg, "%s_size%u_n%d", same ? "same" : "distinct", bytes, n);
        printf("reqcost,%s,issue_cycles,%.1f,%.1f,%.1f,3\n", cfg, issue[1], issue[0], issue[2]);
        printf("reqcost,%s,total_cycles,%.1f,%.1f,%.1f,3\n", cfg, total[1], total[0], total[2]);
      }
    }
  }
  return 0;
}
