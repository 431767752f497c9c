// latency3.cu: one thread's arrive -> try_wait answer on a count-1 barrier (microbench.cu's k_lat
// `arrive_to_complete_try_wait`, 61 cycles clock to clock), in contexts that differ only around the timed
// window: the sample stored with a global store every repetition as k_lat does (`stg_each`), kept in a register
// sum instead (`reg_sum`), and each of the two after a 300-cycle clock spin that lets earlier work drain
// (`stg_spin`, `reg_sum_spin`). Does the store k_lat issues just before its clock read delay the arrive?
// Build: nvcc -O3 -std=c++17 -arch=sm_90a -o latency3 latency3.cu && ./latency3
#include "bench.h"

__device__ __forceinline__ void spin(long long cycles) {
  long long s = clk();
  while (clk() - s < cycles) {}
}

// MODE 0 stg_each, 1 reg_sum, 2 stg_spin, 3 reg_sum_spin. out[0] = sum of R samples (modes 1, 3), or
// out[r] = sample r (modes 0, 2).
template <int MODE> __global__ void k_l3(int R, long long* out) {
  __shared__ uint64_t bar;
  mb_init(&bar, 1);
  uint32_t par = 0;
  long long sum = 0;
  for (int r = 0; r < R; r++) {
    if (MODE >= 2) spin(300);
    long long t0 = clk();
    mb_arrive(&bar);
    mb_wait(&bar, par);
    long long t1 = clk();
    par ^= 1;
    if (MODE == 0 || MODE == 2) out[r] = t1 - t0;
    else sum += t1 - t0;
  }
  if (MODE == 1 || MODE == 3) out[0] = sum;
}

__global__ void k_spin(long long cycles, int* sink) {
  long long s = clock64();
  while (clock64() - s < cycles) {}
  if (threadIdx.x == 1000) *sink = 1;
}

int main() {
  const int R = 1000;
  long long* dout;
  int* sink;
  CK(cudaMalloc(&dout, R * sizeof(long long)));
  CK(cudaMalloc(&sink, sizeof(int)));
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  k_spin<<<prop.multiProcessorCount, 32>>>(100000000LL, sink);  // clocks up
  CK(cudaDeviceSynchronize());
  const char* names[] = {"stg_each", "reg_sum", "stg_spin", "reg_sum_spin"};
  printf("bench,config,metric,median,min,max,runs\n");
  for (int m = 0; m < 4; m++) {
    std::vector<double> v;
    for (int run = 0; run <= 3; run++) {
      if (m == 0) k_l3<0><<<1, 1>>>(R, dout);
      if (m == 1) k_l3<1><<<1, 1>>>(R, dout);
      if (m == 2) k_l3<2><<<1, 1>>>(R, dout);
      if (m == 3) k_l3<3><<<1, 1>>>(R, dout);
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      std::vector<long long> h(R);
      CK(cudaMemcpy(h.data(), dout, R * sizeof(long long), cudaMemcpyDeviceToHost));
      double x;
      if (m == 1 || m == 3) {
        x = (double)h[0] / R;
      } else {
        std::vector<long long> s(h.begin() + 1, h.end());  // the first repetition waits for the init
        std::sort(s.begin(), s.end());
        x = (double)s[s.size() / 2];
      }
      if (run > 0) v.push_back(x);
    }
    std::sort(v.begin(), v.end());
    printf("latency3,%s,arrive_to_complete_try_wait,%.2f,%.2f,%.2f,3\n", names[m], v[1], v[0], v[2]);
  }
  return 0;
}
