// gpcload.cu: whether a GPC's limit on its SMs' plain loads from L2 (gpcmap.csv: the 16 SMs of one GPC streaming
// take 7,864 cycles where 16 SMs spread over the GPCs take 6,203) holds with 1, 2 and 4 CTAs an SM, and with no line
// read by two CTAs. l2bw.csv's stream from L2 reaches 6.1 KB a cycle at 528 CTAs, more than eight GPCs at gpcmap's
// rate; its CTAs share lines (a 16 MiB footprint), which a GPC may deliver once.
//   gpc,GPC,SMID                  the GPCs, mapped as gpcmap.cu does (clusters of 16, 8 and 2, one CTA an SM).
//   bw,SET,CPS,N,REP,SMID,CYCLES  CPS CTAs on each SM of SET (256 threads each; the shared memory a CTA asks for
//                                 lets exactly CPS share an SM), each reading its own 32 KiB with ld.global.cg eight
//                                 times (256 KiB through the SM's link, none of it in L1; 528 CTAs' slices, 16.5 MiB,
//                                 stay in L2); CTAs on SMs outside SET leave at once. SET gpcK: the SMs of the K
//                                 largest GPCs; spreadK: as many SMs, a TPC of each GPC in turn.
// Build: nvcc -O3 -std=c++17 -arch=sm_90a -o gpcload gpcload.cu
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <map>
#include <set>
#include <algorithm>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

constexpr int kSMs = 132, kSmem = 200 << 10, kThreads = 256, kSlice4 = (32 << 10) / 16, kPasses = 8;

__device__ __forceinline__ unsigned smid() { unsigned s; asm volatile("mov.u32 %0, %%smid;" : "=r"(s)); return s; }
__device__ __forceinline__ unsigned ctarank() { unsigned r; asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned clusterid() { unsigned r; asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(r)); return r; }

// k_where: each CTA's cluster, rank and SM; out[3b..3b+2].
__global__ void k_where(unsigned* out) {
  extern __shared__ unsigned char pad[];
  if (threadIdx.x == 0) {
    pad[0] = 1;
    out[3 * blockIdx.x] = clusterid();
    out[3 * blockIdx.x + 1] = ctarank();
    out[3 * blockIdx.x + 2] = smid();
  }
}

// k_stream: the CTA's own slice read kPasses times with ld.global.cg on the SMs active[] marks; st[2b], st[2b+1]:
// the CTA's SM and cycles (-1: not active).
__global__ void k_stream(const float4* in, const unsigned char* active, float* out, long long* st) {
  extern __shared__ unsigned char pad[];
  const unsigned s = smid();
  if (!active[s]) {
    if (threadIdx.x == 0) st[2 * blockIdx.x] = s, st[2 * blockIdx.x + 1] = -1;
    return;
  }
  __syncthreads();
  const long long c0 = clock64();
  const float4* p = in + (long long)blockIdx.x * kSlice4;
  const int b = blockDim.x;
  float acc = 0.0f;
  for (int pass = 0; pass < kPasses; pass++)
    for (int i = threadIdx.x; i < kSlice4; i += 4 * b) {
      const float4 x = __ldcg(p + i), y = __ldcg(p + i + b), z = __ldcg(p + i + 2 * b), w = __ldcg(p + i + 3 * b);
      acc += ((x.x + y.x) + (z.x + w.x)) + ((x.w + y.w) + (z.w + w.w));
    }
  out[blockIdx.x * b + threadIdx.x] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    pad[1] = (unsigned char)acc;
    st[2 * blockIdx.x] = s;
    st[2 * blockIdx.x + 1] = clock64() - c0;
  }
}

__global__ void k_spin(long long cycles) { const long long t0 = clock64(); while (clock64() - t0 < cycles) {} }

// launchWhere runs k_where in clusters of size on as many clusters as fit and returns (cluster, rank, smid) rows.
static std::vector<std::vector<unsigned>> launchWhere(int size, unsigned* dout) {
  cudaLaunchConfig_t cfg = {};
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = size, attr[0].val.clusterDim.y = 1, attr[0].val.clusterDim.z = 1;
  cfg.blockDim = dim3(32), cfg.dynamicSmemBytes = kSmem, cfg.attrs = attr, cfg.numAttrs = 1;
  cfg.gridDim = dim3(size);
  int clusters = 0;
  CK(cudaOccupancyMaxActiveClusters(&clusters, (void*)k_where, &cfg));
  cfg.gridDim = dim3(size * clusters);
  CK(cudaLaunchKernelEx(&cfg, k_where, dout));
  CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
  std::vector<unsigned> h(3 * size * clusters);
  CK(cudaMemcpy(h.data(), dout, h.size() * 4, cudaMemcpyDeviceToHost));
  std::vector<std::vector<unsigned>> rows;
  for (int b = 0; b < size * clusters; b++) rows.push_back({h[3 * b], h[3 * b + 1], h[3 * b + 2]});
  return rows;
}

int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  unsigned* dwhere;
  CK(cudaMalloc(&dwhere, 3 * 4 * kSMs * 4));
  CK(cudaFuncSetAttribute(k_where, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem));
  CK(cudaFuncSetAttribute(k_where, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  CK(cudaFuncSetAttribute(k_stream, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem));
  // Union-find over SMs: the CTAs of one cluster share a GPC.
  std::vector<int> parent(kSMs);
  for (int i = 0; i < kSMs; i++) parent[i] = i;
  auto find = [&](int x) { while (parent[x] != x) x = parent[x] = parent[parent[x]]; return x; };
  for (int size : {16, 8, 2}) {
    const auto rows = launchWhere(size, dwhere);
    std::map<unsigned, int> first;
    for (const auto& r : rows) {
      auto it = first.find(r[0]);
      if (it == first.end()) first[r[0]] = (int)r[2];
      else parent[find((int)r[2])] = find(it->second);
    }
  }
  std::map<int, std::vector<int>> gpcs;
  for (int s = 0; s < kSMs; s++) gpcs[find(s)].push_back(s);
  std::vector<std::vector<int>> gl;
  for (auto& kv : gpcs) gl.push_back(kv.second);
  std::sort(gl.begin(), gl.end(), [](const std::vector<int>& a, const std::vector<int>& b) { return a.size() > b.size(); });
  for (size_t g = 0; g < gl.size(); g++)
    for (int s : gl[g]) printf("gpc,%zu,%d\n", g, s);

  const int maxCTAs = 4 * kSMs;
  float4* in; float* out; long long* st; unsigned char* dactive;
  CK(cudaMalloc(&in, (size_t)maxCTAs * kSlice4 * 16)); CK(cudaMemset(in, 0, (size_t)maxCTAs * kSlice4 * 16));
  CK(cudaMalloc(&out, maxCTAs * kThreads * 4)); CK(cudaMalloc(&st, 2 * maxCTAs * 8)); CK(cudaMalloc(&dactive, kSMs));
  k_spin<<<264, 128>>>(100000000ll);
  CK(cudaDeviceSynchronize());
  for (int cps : {1, 2, 4}) {
    const int smem = kSmem / cps, ctas = cps * kSMs;
    CK(cudaFuncSetAttribute(k_stream, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    for (int k : {1, 2, 4}) {
      std::vector<int> whole;
      for (int g = 0; g < k && g < (int)gl.size(); g++) whole.insert(whole.end(), gl[g].begin(), gl[g].end());
      std::vector<int> spread;
      for (size_t pos = 0; spread.size() < whole.size(); pos += 2)
        for (size_t g = 0; g < gl.size() && spread.size() < whole.size(); g++)
          for (size_t j = pos; j < pos + 2 && j < gl[g].size() && spread.size() < whole.size(); j++) spread.push_back(gl[g][j]);
      for (int which = 0; which < 2; which++) {
        const std::vector<int>& set = which ? spread : whole;
        std::vector<unsigned char> act(kSMs, 1);
        for (int rep = -1; rep < 3; rep++) {  // rep -1, every SM streaming, brings every slice into L2
          if (rep == 0) {
            std::fill(act.begin(), act.end(), 0);
            for (int s : set) act[s] = 1;
          }
          CK(cudaMemcpy(dactive, act.data(), kSMs, cudaMemcpyHostToDevice));
          k_stream<<<ctas, kThreads, smem>>>(in, dactive, out, st);
          CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
          if (rep < 0) continue;
          std::vector<long long> h(2 * ctas);
          CK(cudaMemcpy(h.data(), st, h.size() * 8, cudaMemcpyDeviceToHost));
          for (int b = 0; b < ctas; b++)
            if (h[2 * b + 1] >= 0)
              printf("bw,%s%d,%d,%zu,%d,%lld,%lld\n", which ? "spread" : "gpc", k, cps, set.size(), rep, h[2 * b], h[2 * b + 1]);
        }
      }
    }
  }
  printf("done,ok,1\n");
  return 0;
}
