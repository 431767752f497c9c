// sel.cu: how soon a select reads a compare's predicate. One warp runs a dependent chain of `setp; selp` (the
// selected value feeds the next compare: SASS ISETP; SEL), 4096 links, out[0] / 4096; and of `add; add; setp;
// selp` (the next offset of a ring: x + k, wrapped to 0 past n), 4096 links. UNI 1 starts from a kernel
// parameter instead of the thread index (ptxas still uses vector registers). Rows: sel,<chain>,cycles_per_link.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o sel sel.cu
#include "bench.h"
template <int UNI> __global__ void k_sel(int iters, int n, int a, long long* out) {
  int x = UNI ? n - 3 : (int)threadIdx.x + n - 3;
  long long t0 = clock64();
  for (int i = 0; i < iters; i++) {
#pragma unroll
    for (int j = 0; j < 16; j++)
      asm volatile("{ .reg .pred p; setp.gt.s32 p, %1, %2; selp.b32 %0, %3, %1, p; }" : "=r"(x) : "r"(x), "r"(n), "r"(a));
  }
  long long t1 = clock64();
  if (threadIdx.x == 0) { out[0] = t1 - t0; out[1] = x; }
}
template <int UNI> __global__ void k_addsel(int iters, int n, int k, long long* out) {
  int x = UNI ? 0 : (int)threadIdx.x;
  long long t0 = clock64();
  for (int i = 0; i < iters; i++) {
#pragma unroll
    for (int j = 0; j < 16; j++) { int y = x + k; x = (y + k > n) ? 0 : y; asm volatile("" : "+r"(x)); }
  }
  long long t1 = clock64();
  if (threadIdx.x == 0) { out[0] = t1 - t0; out[1] = x; }
}
int main() {
  long long* d; CK(cudaMalloc(&d, 64));
  printf("bench,config,metric,median,min,max,runs\n");
  const int it = 256;
  timed3("sel", "setp_selp_vector", "cycles_per_link", d, it * 16, [&] { k_sel<0><<<1, 32>>>(it, 1000, 5, d); });
  timed3("sel", "setp_selp_uniform", "cycles_per_link", d, it * 16, [&] { k_sel<1><<<1, 32>>>(it, 1000, 5, d); });
  timed3("sel", "add_setp_selp_vector", "cycles_per_link", d, it * 16, [&] { k_addsel<0><<<1, 32>>>(it, 100000, 64, d); });
  timed3("sel", "add_setp_selp_uniform", "cycles_per_link", d, it * 16, [&] { k_addsel<1><<<1, 32>>>(it, 100000, 64, d); });
  return 0;
}
