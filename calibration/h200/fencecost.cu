// fencecost.cu: what a GPU-scope membar and a cluster barrier cost a warp, on their own and after the warp's
// stores, DSMEM stores and bulk copies; and one warp's dependent rounds of N loads from L2 or DRAM.
//   k_fc<MODE>  a cluster of 2 CTAs of 128 threads; 16 rounds, each: PRE (by the threads MODE says), then thread 0
//               of each CTA reads clock64, runs OP, reads clock64 again: out[rank*16 + r] = the OP's cycles.
//               0 none; fence.acq_rel.gpu (thread 0)             1 st.global by every thread; fence (thread 0)
//               2 8 st.global a thread; fence (thread 0)        3 st.shared::cluster to the peer (thread 0); fence
//               4 red.shared::cluster on the peer (thread 0); fence
//               5 none; barrier.cluster arrive+wait (all)       6 st.global by every thread; barrier.cluster (all)
//               7 rank 0 multicasts 4 KiB into both CTAs, all wait on their mbarrier; barrier.cluster (all)
//               8 each CTA bulk-copies 4 KiB into itself, all wait; barrier.cluster (all)
//               9 none; mbarrier.arrive.release.cluster on the peer's barrier (thread 0)
//              10 st.global by every thread; the remote arrive (thread 0)
//              11 st.global by every thread; fence.acq_rel.cluster (thread 0)
//              12 ld.global (L2 hit, not consumed) by thread 0; fence (thread 0)
//   k_burst<N, V>  one warp, 64 dependent rounds: N loads of V words a lane (consecutive, 128 or 512 B a
//               load), the next round's address depending on their sum (zeros): cycles a round, L2 or DRAM.
// Output: "fc,MODE,rank,r0..r15" and "burst,place,N,V,cycles_per_round" rows.
// Build: nvcc -O3 -std=c++17 -arch=sm_90a -o fencecost fencecost.cu
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
#define DEV __device__ __forceinline__
DEV uint32_t sreg_rank() { uint32_t r; asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r)); return r; }
DEV uint32_t smem_u32(const void* p) { return (uint32_t)__cvta_generic_to_shared(p); }
DEV uint32_t mapa_u32(uint32_t a, uint32_t rank) {
  uint32_t d; asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(rank)); return d;
}
DEV void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}
DEV void mbar_init(uint32_t bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar), "r"(count) : "memory");
}
DEV void fence_init() { asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }
DEV void arrive_remote(uint32_t cbar) {
  asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" :: "r"(cbar) : "memory");
}
DEV void arrive_expect(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar), "r"(bytes) : "memory");
}
DEV void wait_parity(uint32_t bar, uint32_t parity) {
  asm volatile("{\n\t.reg .pred p;\n\tW: mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%0], %1;\n\t"
               "@!p bra W;\n\t}" :: "r"(bar), "r"(parity) : "memory");
}
DEV void bulk_load(uint32_t dst, const void* src, uint32_t bytes, uint32_t bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
               :: "r"(dst), "l"((uint64_t)src), "r"(bytes), "r"(bar) : "memory");
}
DEV void bulk_multicast(uint32_t dst, const void* src, uint32_t bytes, uint32_t bar, uint16_t mask) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1], %2, [%3], %4;"
               :: "r"(dst), "l"((uint64_t)src), "r"(bytes), "r"(bar), "h"(mask) : "memory");
}
DEV long long clk() { long long t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) :: "memory"); return t; }
DEV void fence_gpu() { asm volatile("fence.acq_rel.gpu;" ::: "memory"); }
DEV void fence_cluster() { asm volatile("fence.acq_rel.cluster;" ::: "memory"); }
DEV void stg(float* p, float v) { asm volatile("st.global.f32 [%0], %1;" :: "l"(p), "f"(v) : "memory"); }

#define ROUNDS 16
template <int MODE> __global__ void __cluster_dims__(2, 1, 1) k_fc(float* g, const float* src, long long* out) {
  __shared__ __align__(128) float tile[1024];
  __shared__ uint64_t full, rbar;
  __shared__ uint32_t word;
  const uint32_t rank = sreg_rank(), t = threadIdx.x;
  const uint32_t bfull = smem_u32(&full), brb = smem_u32(&rbar);
  if (t == 0) { mbar_init(bfull, 1); mbar_init(brb, 1); word = 0; fence_init(); }
  cluster_sync();
  const uint32_t peer_word = mapa_u32(smem_u32(&word), rank ^ 1), peer_bar = mapa_u32(brb, rank ^ 1);
  float* mine = g + (size_t)rank * ROUNDS * 1024 * 8;
  for (int r = 0; r < ROUNDS; r++) {
    float* p = mine + r * 1024 * 8;
    if (MODE == 1 || MODE == 6 || MODE == 10 || MODE == 11) stg(p + t, (float)r);
    if (MODE == 2) for (int k = 0; k < 8; k++) stg(p + k * 128 + t, (float)r);
    if (MODE == 3 && t == 0) asm volatile("st.shared::cluster.u32 [%0], %1;" :: "r"(peer_word), "r"(r) : "memory");
    if (MODE == 4 && t == 0) asm volatile("red.shared::cluster.add.u32 [%0], 1;" :: "r"(peer_word) : "memory");
    float x = 0.f;
    if (MODE == 12 && t == 0) asm volatile("ld.global.f32 %0, [%1];" : "=f"(x) : "l"(src + r * 32) : "memory");
    if (MODE == 7 || MODE == 8) {
      if (t == 0) {
        arrive_expect(bfull, 4096);
        if (MODE == 8) bulk_load(smem_u32(tile), src + r * 1024, 4096, bfull);
        else if (rank == 0) bulk_multicast(smem_u32(tile), src + r * 1024, 4096, bfull, 3);
      }
      wait_parity(bfull, r & 1);
    }
    if (MODE >= 5 && MODE <= 8) __syncwarp();
    const long long t0 = clk();
    if (MODE <= 4 || MODE == 12) { if (t == 0) fence_gpu(); }
    if (MODE >= 5 && MODE <= 8) cluster_sync();
    if ((MODE == 9 || MODE == 10) && t == 0) arrive_remote(peer_bar);
    if (MODE == 11 && t == 0) fence_cluster();
    const long long t1 = clk();
    if (t == 0) out[rank * ROUNDS + r] = t1 - t0;
    if (x == 1234.5f) out[63] = 1;
    cluster_sync();  // every CTA's round is over (and, for 7 and 8, every copy read) before the next
  }
}

template <int V> DEV uint32_t ld(const uint32_t* p);
template <> DEV uint32_t ld<1>(const uint32_t* p) { uint32_t x; asm volatile("ld.global.u32 %0, [%1];" : "=r"(x) : "l"(p)); return x; }
template <> DEV uint32_t ld<4>(const uint32_t* p) {
  uint32_t x, y, z, w;
  asm volatile("ld.global.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "l"(p));
  return (x ^ y) ^ (z ^ w);
}
// in: zeros, 64 * N * 32 * V words; out[0]: cycles of the 64 rounds.
template <int N, int V> __global__ void k_burst(const uint32_t* in, long long* out) {
  const uint32_t* p = in + threadIdx.x * V;
  uint32_t acc = 0;
  const long long t0 = clk();
  for (int r = 0; r < 64; r++) {
    uint32_t s = 0;
#pragma unroll
    for (int k = 0; k < N; k++) s += ld<V>(p + (size_t)((r * N + k) * 32 * V) + acc);
    acc = s;
  }
  const long long t1 = clk();
  if (threadIdx.x == 0) out[0] = t1 - t0;
  if (acc == 77) out[1] = acc;
}

__global__ void k_spin(long long cycles) { const long long t0 = clock64(); while (clock64() - t0 < cycles) {} }

template <int MODE> static void fc(float* g, const float* src, long long* out) {
  for (int rep = 0; rep < 2; rep++) {
    k_fc<MODE><<<2, 128>>>(g, src, out);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    long long h[2 * ROUNDS]; CK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    for (int rank = 0; rank < 2; rank++) {
      printf("fc,%d,%d,%d", MODE, rep, rank);
      for (int r = 0; r < ROUNDS; r++) printf(",%lld", h[rank * ROUNDS + r]);
      printf("\n");
    }
  }
}

typedef void (*BurstK)(const uint32_t*, long long*);
struct BK { int n, v; BurstK f; };
static const BK kBurst[] = {{1, 1, k_burst<1, 1>}, {2, 1, k_burst<2, 1>}, {4, 1, k_burst<4, 1>}, {8, 1, k_burst<8, 1>},
                            {16, 1, k_burst<16, 1>}, {1, 4, k_burst<1, 4>}, {2, 4, k_burst<2, 4>}, {4, 4, k_burst<4, 4>},
                            {8, 4, k_burst<8, 4>}, {16, 4, k_burst<16, 4>}};

int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  float* g; float* src; long long* out; uint32_t* big;
  const size_t kBig = 2ull << 30;
  CK(cudaMalloc(&g, 2 * ROUNDS * 1024 * 8 * sizeof(float)));
  CK(cudaMalloc(&src, ROUNDS * 1024 * sizeof(float) + 4096));
  CK(cudaMemset(src, 0, ROUNDS * 1024 * sizeof(float) + 4096));
  CK(cudaMalloc(&out, 64 * sizeof(long long)));
  CK(cudaMalloc(&big, kBig));
  CK(cudaMemset(big, 0, kBig));
  k_spin<<<264, 128>>>(100000000ll);
  CK(cudaDeviceSynchronize());
  fc<0>(g, src, out); fc<1>(g, src, out); fc<2>(g, src, out); fc<3>(g, src, out); fc<4>(g, src, out);
  fc<5>(g, src, out); fc<6>(g, src, out); fc<7>(g, src, out); fc<8>(g, src, out); fc<9>(g, src, out);
  fc<10>(g, src, out); fc<11>(g, src, out); fc<12>(g, src, out);
  size_t window = 64 << 20;
  for (int place = 0; place < 2; place++)
    for (const BK& b : kBurst)
      for (int rep = -1; rep < 3; rep++) {
        const uint32_t* base = big;
        if (place == 1) { window = (window + (4 << 20)) % (kBig - (8 << 20)); base = big + window / 4; }
        b.f<<<1, 32>>>(base, out);
        CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
        if (rep < 0) continue;
        long long c = 0; CK(cudaMemcpy(&c, out, sizeof c, cudaMemcpyDeviceToHost));
        printf("burst,%s,%d,%d,%d,%.2f\n", place ? "dram" : "l2", b.n, b.v, rep, c / 64.0);
      }
  printf("done,ok,1\n");
  return 0;
}
