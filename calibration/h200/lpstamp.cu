// lpstamp.cu: libpipe.cu's k_libpipe with clock stamps, to see where a tile's time goes. Consumer thread 32
// stamps each tile before its arrive/wait on full[s], after the wait and after summing the tile; producer lane 0
// stamps before its wait on empty[s], after it, and after the copy and arrive.expect_tx. 40 tiles, a warm-up
// launch first; 4 and 16 KiB tiles, 1 or 2 consumer warps, 2 or 4 stages (k_lps<S>).
// Columns: chunk,consumers,stages,tile, then the six clock64 stamps. Not a `validate` row: the stamps (a clock read
// and a shared store each) move what they time by a few cycles; compare the same stamped kernel in smsim.
#include "bench.h"
#include <cuda/barrier>
#include <cuda/std/utility>
#include <vector>

using block_barrier = cuda::barrier<cuda::thread_scope_block>;
namespace cde = cuda::device::experimental;

template <int S>
__global__ void k_lps(const uint8_t* __restrict__ src, uint32_t span, uint32_t chunk, int total, long long* out) {
  extern __shared__ __align__(128) uint8_t sm[];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ block_barrier full[S], empty[S];
  __shared__ long long st[64][6];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int consumers = blockDim.x - 32;
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; s++) {
      init(&full[s], 1 + consumers);
      init(&empty[s], 1 + consumers);
    }
    cde::fence_proxy_async_shared_cta();
  }
  __syncthreads();
  if (warp == 0) {
    if (lane == 0) {
      for (int t = 0; t < total; t++) {
        const int s = t % S;
        st[t & 63][3] = clock64();
        if (t >= S) {
          block_barrier::arrival_token tok = empty[s].arrive();
          empty[s].wait(cuda::std::move(tok));
        }
        st[t & 63][4] = clock64();
        cde::cp_async_bulk_global_to_shared(sm + s * chunk, src + ((size_t)t * chunk) % span, chunk, full[s]);
        block_barrier::arrival_token tok = cuda::device::barrier_arrive_tx(full[s], 1, chunk);
        (void)tok;
        st[t & 63][5] = clock64();
      }
    }
  } else {
    uint32_t sum = 0;
    for (int t = 0; t < total; t++) {
      const int s = t % S;
      if (threadIdx.x == 32) st[t & 63][0] = clock64();
      block_barrier::arrival_token tok = full[s].arrive();
      full[s].wait(cuda::std::move(tok));
      if (threadIdx.x == 32) st[t & 63][1] = clock64();
      const uint4* p = reinterpret_cast<const uint4*>(sm + s * chunk);
      for (int i = threadIdx.x - 32; i < (int)(chunk / 16); i += consumers) {
        const uint4 v = p[i];
        sum += v.x + v.y + v.z + v.w;
      }
      if (threadIdx.x == 32) st[t & 63][2] = clock64();
      block_barrier::arrival_token done = empty[s].arrive();
      (void)done;
    }
    if (sum == 0xffffffffu) out[0] = sum;
  }
  __syncthreads();
  for (int i = threadIdx.x; i < 64 * 6; i += blockDim.x) out[1 + i] = st[i / 6][i % 6];
}

int main(int argc, char** argv) {
  long long* dout; CK(cudaMalloc(&dout, 1024 * sizeof(long long)));
  const uint32_t span = 262144;
  uint8_t* src; CK(cudaMalloc(&src, span));
  std::vector<uint8_t> h(span);
  for (uint32_t i = 0; i < span; i++) h[i] = (uint8_t)(i * 7 + 1);
  CK(cudaMemcpy(src, h.data(), span, cudaMemcpyHostToDevice));
  std::vector<long long> o(1 + 64 * 6);
  printf("chunk,consumers,stages,tile,c_before_wait,c_after_wait,c_after_loop,p_before_empty,p_after_empty,p_after_issue\n");
  for (uint32_t chunk : {4096u, 16384u}) for (int c : {1, 2}) for (int S : {2, 4}) {
    const size_t smem = (size_t)S * chunk;
    for (int r = 0; r < 2; r++) {
      if (S == 2) { CK(cudaFuncSetAttribute(k_lps<2>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
        k_lps<2><<<1, 32 * (1 + c), smem>>>(src, span, chunk, 40, dout); }
      else { CK(cudaFuncSetAttribute(k_lps<4>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
        k_lps<4><<<1, 32 * (1 + c), smem>>>(src, span, chunk, 40, dout); }
      CK(cudaDeviceSynchronize());
    }
    CK(cudaMemcpy(o.data(), dout, o.size() * 8, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 40; t++) {
      printf("%u,%d,%d,%d", chunk, c, S, t);
      for (int k = 0; k < 6; k++) printf(",%lld", o[1 + t * 6 + k]);
      printf("\n");
    }
  }
  return 0;
}
