// fence.cu: what fence.proxy.async costs after shared stores. In SASS it is MEMBAR.ALL.CTA; FENCE.VIEW.ASYNC.S
// (fence.sass), as __threadfence_block() is MEMBAR.ALL.CTA: a wait for the thread's earlier memory operations. One
// warp, 1024 trips of: MODE 0 a 128-bit shared store a lane; 1 the store then fence.proxy.async; 2 the fence alone;
// 3 the store then __threadfence_block(); 4 four stores then the fence. out[0] / 1024.
// Rows: fence,<mode>,cycles_per_iter. Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o fence fence.cu
#include "bench.h"
extern __shared__ __align__(16) uint4 sbuf[];
template <int MODE> __global__ void k_f(int iters, long long* out) {
  uint4 v = make_uint4(threadIdx.x, 1, 2, 3);
  long long t0 = clock64();
  for (int i = 0; i < iters; i++) {
    if (MODE == 0 || MODE == 1 || MODE == 3) sbuf[(i & 7) * 32 + threadIdx.x] = v;
    if (MODE == 4) { for (int k = 0; k < 4; k++) sbuf[k * 32 + threadIdx.x] = v; }
    if (MODE == 1 || MODE == 2 || MODE == 4) asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    if (MODE == 3) __threadfence_block();
    v.x += 1;
  }
  long long t1 = clock64();
  if (threadIdx.x == 0) out[0] = t1 - t0;
  if (v.x == 12345) out[1] = v.y;
}
int main() {
  long long* d; CK(cudaMalloc(&d, 64));
  printf("bench,config,metric,median,min,max,runs\n");
  const int it = 1024;
  timed3("fence", "sts128", "cycles_per_iter", d, it, [&] { k_f<0><<<1, 32, 8192>>>(it, d); });
  timed3("fence", "sts128_fence_proxy_async", "cycles_per_iter", d, it, [&] { k_f<1><<<1, 32, 8192>>>(it, d); });
  timed3("fence", "fence_proxy_async", "cycles_per_iter", d, it, [&] { k_f<2><<<1, 32, 8192>>>(it, d); });
  timed3("fence", "sts128_membar_cta", "cycles_per_iter", d, it, [&] { k_f<3><<<1, 32, 8192>>>(it, d); });
  timed3("fence", "sts128x4_fence_proxy_async", "cycles_per_iter", d, it, [&] { k_f<4><<<1, 32, 8192>>>(it, d); });
  return 0;
}
