// cuda::barrier and cuda::memcpy_async as libcu++ lowers them for sm_90.
#include "conf.h"
#include "gsrc.h"
#include <cuda/barrier>
#include <utility>

using barrier = cuda::barrier<cuda::thread_scope_block>;

__global__ void k_barrier(uint64_t* out) {
  __shared__ barrier bar;
  __shared__ int buf[N];
  int t = threadIdx.x;
  if (t == 0) init(&bar, blockDim.x);
  __syncthreads();
  buf[t] = t * 3;
  bar.arrive_and_wait();
  out[t] = buf[(t + 1) % N];
  bar.arrive_and_wait();
  buf[t] = t * 5;
  auto tok = bar.arrive();
  bar.wait(std::move(tok));
  out[N + t] = buf[(t + 7) % N];
  if (t >= 128) {
    bar.arrive_and_drop();
    return;
  }
  bar.arrive_and_wait();
  buf[t] = t * 7;
  bar.arrive_and_wait();
  out[2 * N + t] = buf[(t + 1) % 128];
}

__global__ void k_memcpy(uint64_t* out) {
  __shared__ alignas(16) unsigned long long sbuf[64];
  __shared__ barrier bar;
  int t = threadIdx.x;
  if (t == 0) init(&bar, blockDim.x);
  __syncthreads();
  if (t == 0) cuda::memcpy_async(sbuf, gsrc, cuda::aligned_size_t<16>(sizeof(sbuf)), bar);
  bar.arrive_and_wait();
  out[t] = sbuf[(t + 5) % 64] + 1;
  bar.arrive_and_wait();
  cuda::memcpy_async(&sbuf[t % 64], &gsrc[(t + 1) % 64], sizeof(unsigned long long), bar);
  bar.arrive_and_wait();
  out[N + t] = sbuf[t % 64];
}

static const char* const t3[] = {"after arrive_and_wait", "after arrive/wait token", "after drop"};
static const char* const t2[] = {"bulk memcpy_async", "per-thread memcpy_async"};

int main() {
  dump("k_barrier", k_barrier, 3, t3);
  dump("k_memcpy", k_memcpy, 2, t2);
  return 0;
}
