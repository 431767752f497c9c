// mshr.cu: how many line reads one SM keeps in flight. l2bw.csv's lone CTA streams at 40.5 B/cycle from L2 and
// 18.8 from DRAM, which at their chases' latencies (295 and 691 cycles) is about 100 lines in flight either way:
// a limit on the SM's outstanding reads would give both. Here one CTA of W warps runs rounds in which each warp
// issues L independent loads, each of one whole line (32 lanes, 4 bytes each, consecutive), then sums them: W x L
// lines in flight a round, a round's time their latency while the SM has room for them all, growing with W x L
// beyond that.
//   round,PLACE,W,L,CYCLES  cycles a round (median of the CTA's 64 rounds, warp 0's clock); PLACE dram: every
//                           round reads lines no round read before (L2 emptied first), l2: lines read before.
// Build: nvcc -O3 -std=c++17 -arch=sm_90a -o mshr mshr.cu
#include "bench.h"

constexpr int kRounds = 64;

template <int L>
__global__ void k_round(const float* buf, int l2, long long* out, float* sink) {  // 64 rounds x 512 lines fit
  const int w = threadIdx.x >> 5, lane = threadIdx.x & 31, nw = blockDim.x >> 5;
  float acc = 0.0f;
  for (int r = 0; r < kRounds; r++) {
    __syncthreads();
    const long long t0 = clock64();
    const size_t base = l2 ? 0 : (size_t)r * nw * L;
    float v[L];
#pragma unroll
    for (int k = 0; k < L; k++) v[k] = __ldcg(buf + (base + (size_t)w * L + k) * 32 + lane);  // no %: a 64-bit
    // division per load would serialise the loads
#pragma unroll
    for (int k = 0; k < L; k++) acc += v[k];
    if (acc == 12345.0f) sink[0] = acc;
    __syncthreads();
    if (threadIdx.x == 0) out[r] = clock64() - t0;
  }
  if (acc == 54321.0f) sink[1] = acc;
}

__global__ void k_flush(const uint4* p, size_t n, uint32_t* sink) {
  uint32_t x = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) x ^= p[i].x;
  if (x == 0x12345u) sink[0] = x;
}

template <int L>
static void run(const float* buf, size_t lines, const uint4* flush, size_t flushN, uint32_t* fsink, long long* out,
                float* sink) {
  std::vector<long long> h(kRounds);
  for (int l2 = 0; l2 < 2; l2++)
    for (int w : {1, 2, 4, 8, 16, 32}) {
      k_flush<<<264, 256>>>(flush, flushN, fsink);
      if (l2) k_round<L><<<1, w * 32>>>(buf, 1, out, sink);  // warms the lines the timed launch reads
      k_round<L><<<1, w * 32>>>(buf, l2, out, sink);
      CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
      CK(cudaMemcpy(h.data(), out, kRounds * 8, cudaMemcpyDeviceToHost));
      std::sort(h.begin() + 1, h.end());
      printf("round,%s,%d,%d,%lld\n", l2 ? "l2" : "dram", w, L, h[kRounds / 2]);
    }
}

int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  const size_t bytes = 512ull << 20, lines = bytes / 128, flushBytes = 256ull << 20;
  float *buf, *sink;
  uint4* flush;
  uint32_t* fsink;
  long long* out;
  CK(cudaMalloc(&buf, bytes)); CK(cudaMemset(buf, 0, bytes));
  CK(cudaMalloc(&flush, flushBytes)); CK(cudaMemset(flush, 1, flushBytes));
  CK(cudaMalloc(&sink, 16)); CK(cudaMalloc(&fsink, 16)); CK(cudaMalloc(&out, kRounds * 8));
  const size_t fn = flushBytes / 16;
  run<1>(buf, lines, flush, fn, fsink, out, sink);
  run<2>(buf, lines, flush, fn, fsink, out, sink);
  run<4>(buf, lines, flush, fn, fsink, out, sink);
  run<8>(buf, lines, flush, fn, fsink, out, sink);
  run<16>(buf, lines, flush, fn, fsink, out, sink);
  printf("done,ok,1\n");
  return 0;
}
