// clusterphase.cu: testdata/cuda/cluster_probe.cu's functional cluster kernel (k_cluster_func) for clusters of 2, 4,
// 8 and 16 CTAs, launched with the cluster size as a launch attribute (no __cluster_dims__, so 16 can be allowed as
// a non-portable size), plain (k_cf<C, false>) and with thread 0 of every CTA reading clock64 after each phase
// (k_cf<C, true>): its entry, the first cluster barrier, the multicast's arrival, the second cluster barrier, the
// slice's sum and global stores, the DSMEM load and its global store, red.shared::cluster, __syncthreads, the remote
// arrive, rank 0's wait and sum of the partials, the last cluster barrier. Two clusters a launch, three launches.
// Output: "cphase,cC_stampS_repR_..." rows: sums, counts, per-CTA cycles, per-CTA stamps (cycles since entry), and
// FNV-1a 64 of out and nb (as cluster_probe.cu's func rows).
// Build: nvcc -O3 -std=c++17 -arch=sm_90a -I../../testdata/cuda -o clusterphase clusterphase.cu
#include "harness.h"

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
DEV void bulk_multicast(uint32_t dst, const void* src, uint32_t bytes, uint32_t bar, uint16_t mask) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1], %2, [%3], %4;"
               :: "r"(dst), "l"((uint64_t)src), "r"(bytes), "r"(bar), "h"(mask) : "memory");
}
DEV long long clk() { long long t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) :: "memory"); return t; }

#define NST 11
template <int C, bool STAMP>
__global__ void k_cf(const float* in, float* out, float* nb, float* sums, uint32_t* counts, long long* cycles,
                     long long* stamps) {
  __shared__ __align__(128) float tile[1024];
  __shared__ float partials[C];
  __shared__ float warpsum[4];
  __shared__ uint64_t full, red;
  __shared__ uint32_t counter;
  long long st[NST];
  long long start = clock64();
  uint32_t rank = sreg_rank();
  uint32_t cid; asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(cid));
  uint32_t bfull = smem_u32(&full), bred = smem_u32(&red);
  if (threadIdx.x == 0) { mbar_init(bfull, 1); mbar_init(bred, C); counter = 0; fence_init(); }
  cluster_sync();
  if (STAMP) st[0] = clk();
  if (threadIdx.x == 0) {
    arrive_expect(bfull, 4096);
    if (rank == 0) bulk_multicast(smem_u32(tile), in + cid * 1024, 4096, bfull, (uint16_t)((1u << C) - 1));
  }
  wait_parity(bfull, 0);
  if (STAMP) st[1] = clk();
  cluster_sync();
  if (STAMP) st[2] = clk();
  const int S = 1024 / C;
  float acc = 0.f;
  for (int j = threadIdx.x; j < S; j += 128) {
    float v = __uint_as_float((__float_as_uint(tile[rank * S + j]) & 0x007fffffu) | 0x3f800000u);
    acc += v;
    out[cid * 1024 + rank * S + j] = v * 2.f + (float)rank;
  }
  for (int o = 16; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, o);
  if ((threadIdx.x & 31) == 0) warpsum[threadIdx.x >> 5] = acc;
  if (STAMP) st[3] = clk();
  uint32_t peer = mapa_u32(smem_u32(tile), (rank + 1) % C);
  float x; asm volatile("ld.shared::cluster.f32 %0, [%1];" : "=f"(x) : "r"(peer + 4 * (threadIdx.x * 8)) : "memory");
  nb[(cid * C + rank) * 128 + threadIdx.x] = x;
  if (STAMP) st[4] = clk();
  asm volatile("red.shared::cluster.add.u32 [%0], 1;" :: "r"(mapa_u32(smem_u32(&counter), 0)) : "memory");
  if (STAMP) st[5] = clk();
  __syncthreads();
  if (STAMP) st[6] = clk();
  if (threadIdx.x == 0) {
    float p = ((warpsum[0] + warpsum[1]) + warpsum[2]) + warpsum[3];
    uint32_t slot = mapa_u32(smem_u32(&partials[rank]), 0);
    asm volatile("st.shared::cluster.f32 [%0], %1;" :: "r"(slot), "f"(p) : "memory");
    arrive_remote(mapa_u32(bred, 0));
  }
  if (STAMP) st[7] = clk();
  if (rank == 0 && threadIdx.x == 0) {
    wait_parity(bred, 0);
    float s = 0.f;
    for (int r = 0; r < C; r++) s += partials[r];
    sums[cid] = s;
  }
  if (STAMP) st[8] = clk();
  cluster_sync();
  if (STAMP) st[9] = clk();
  if (rank == 0 && threadIdx.x == 0) counts[cid] = counter;
  if (threadIdx.x == 0) {
    cycles[cid * C + rank] = clock64() - start;
    if (STAMP)
      for (int i = 0; i < NST - 1; i++) stamps[(cid * C + rank) * NST + i] = st[i] - start;
  }
}

template <class T> static T* dalloc(size_t n) { T* p; CK(cudaMalloc(&p, n * sizeof(T))); CK(cudaMemset(p, 0xff, n * sizeof(T))); return p; }
template <class T> static std::vector<T> fetch(const T* p, size_t n) {
  std::vector<T> h(n); CK(cudaMemcpy(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost)); return h;
}
static uint64_t fnv(const std::vector<float>& v) {
  uint64_t h = 1469598103934665603ull;
  for (float f : v) { uint32_t u; memcpy(&u, &f, 4); h ^= u; h *= 1099511628211ull; }
  return h;
}

template <int C, bool STAMP> static void run() {
  const int clusters = 2, ctas = clusters * C;
  auto k = k_cf<C, STAMP>;
  CK(cudaFuncSetAttribute(k, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  std::vector<uint8_t> hin = fill_bytes("buf:8192:random:7");
  float* in; CK(cudaMalloc(&in, 8192)); CK(cudaMemcpy(in, hin.data(), 8192, cudaMemcpyHostToDevice));
  float* out = dalloc<float>(2048);
  float* nb = dalloc<float>(ctas * 128);
  float* sums = dalloc<float>(clusters);
  uint32_t* counts = dalloc<uint32_t>(clusters);
  long long* cyc = dalloc<long long>(ctas);
  long long* stamps = dalloc<long long>(ctas * NST);
  for (int rep = 0; rep < 3; rep++) {
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(ctas); cfg.blockDim = dim3(128); cfg.dynamicSmemBytes = 0;
    cudaLaunchAttribute at[1]; at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = C; at[0].val.clusterDim.y = 1; at[0].val.clusterDim.z = 1;
    cfg.attrs = at; cfg.numAttrs = 1;
    CK(cudaLaunchKernelEx(&cfg, k, (const float*)in, out, nb, sums, counts, cyc, stamps));
    CK(cudaDeviceSynchronize());
    auto hs = fetch(sums, clusters); auto hc = fetch(counts, clusters); auto hy = fetch(cyc, ctas);
    auto ht = fetch(stamps, ctas * NST);
    printf("cphase,c%d_stamp%d_rep%d_sums,0x%08x 0x%08x\n", C, STAMP, rep, *(uint32_t*)&hs[0], *(uint32_t*)&hs[1]);
    printf("cphase,c%d_stamp%d_rep%d_counts,%u %u\n", C, STAMP, rep, hc[0], hc[1]);
    printf("cphase,c%d_stamp%d_rep%d_cycles,", C, STAMP, rep);
    for (int i = 0; i < ctas; i++) printf("%lld%c", hy[i], i + 1 < ctas ? ' ' : '\n');
    if (STAMP)
      for (int i = 0; i < ctas; i++) {
        printf("cphase,c%d_stamp1_rep%d_cta%d_stamps,", C, rep, i);
        for (int s = 0; s < NST - 1; s++) printf("%lld%c", ht[i * NST + s], s + 2 < NST ? ' ' : '\n');
      }
  }
  auto ho = fetch(out, 2048); auto hn = fetch(nb, ctas * 128);
  printf("cphase,c%d_stamp%d_out_fnv,0x%016llx\ncphase,c%d_stamp%d_nb_fnv,0x%016llx\n", C, STAMP,
         (unsigned long long)fnv(ho), C, STAMP, (unsigned long long)fnv(hn));
}

int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  run<2, false>(); run<4, false>(); run<8, false>(); run<16, false>();
  run<2, true>(); run<4, true>(); run<8, true>(); run<16, true>();
  printf("done,ok,1\n");
  return 0;
}
