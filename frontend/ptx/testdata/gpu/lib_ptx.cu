// cuda::ptx wrappers for mbarrier and bulk copies (sm_90).
#include "conf.h"
#include "gsrc.h"
#include <cuda/ptx>

namespace ptx = cuda::ptx;

__global__ void k_ptx(uint64_t* out) {
  __shared__ alignas(128) unsigned long long sbuf[64];
  __shared__ alignas(8) uint64_t mbar[2];
  int t = threadIdx.x;
  if (t == 0) {
    ptx::mbarrier_init(&mbar[0], 1);
    ptx::mbarrier_init(&mbar[1], blockDim.x);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  __syncthreads();
  if (t == 0) {
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &mbar[0], sizeof(sbuf));
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, sbuf, gsrc, sizeof(sbuf), &mbar[0]);
  }
  while (!ptx::mbarrier_try_wait_parity(&mbar[0], 0)) {
  }
  out[t] = sbuf[t % 64] * 3;
  uint64_t st = ptx::mbarrier_arrive(&mbar[1]);
  while (!ptx::mbarrier_try_wait(&mbar[1], st)) {
  }
  if (t < 64) sbuf[t] = t * 11 + 1;
  ptx::fence_proxy_async(ptx::space_shared);
  __syncthreads();
  if (t == 0) {
    ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out + N, sbuf, 256);
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
    ptx::cp_async_bulk_wait_group(ptx::n32_t<0>());
  }
  __syncthreads();
  if (t >= 32) out[N + t] = 0;
  st = ptx::mbarrier_arrive(&mbar[1]);
  out[2 * N + t] = ptx::mbarrier_test_wait(&mbar[1], st) ? 2 : 1;
  while (!ptx::mbarrier_test_wait_parity(&mbar[1], 1)) {
  }
}

static const char* const texts[] = {"bulk load", "bulk store", "test_wait"};

int main() {
  dump("k_ptx", k_ptx, 3, texts);
  return 0;
}
