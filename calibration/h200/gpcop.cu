// gpcop.cu: why one GPC's 16 SMs delivering L2 lines to plain loads take 1.27x as long as 16 spread over the GPCs
// in gpcmap.csv (l2bw.cu's stream: ld.global, 256 KiB a CTA read once), but 1.9x in gpcload.csv (ld.global.cg,
// a 32 KiB slice read eight times). gpcmap.cu's sets and stream with both changes apart:
//   k_stream<CG, PASSES>: CG 0 ld.global (as l2bw.cu), 1 ld.global.cg (ptxas narrows both float4 loads to two
//   32-bit loads at +0 and +12 of each 16 bytes: each sector requested twice), 2 ld.global.cg of one float a
//   thread, consecutive, sixteen in flight (each sector requested once); PASSES 1: 256 KiB a CTA read once, by its SM,
//   of a 16 MiB footprint (gpcmap.cu's); 8: a 32 KiB slice of its own read eight times (gpcload.cu's).
//   gpc,GPC,SMID                    the GPCs (gpcmap.cu's clusters of 16, 8 and 2).
//   bw,OP,PASSES,SET,N,REP,SMID,CYCLES  OP ca, cg or cg1 (CG 0, 1, 2); SET gpc1 (the largest GPC's SMs), spread1 (as many SMs, a TPC
//                                   of each GPC in turn); one CTA an SM, CTAs on other SMs leave at once.
// Build: nvcc -O3 -std=c++17 -arch=sm_90a -o gpcop gpcop.cu
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <map>
#include <set>
#include <algorithm>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

constexpr int kSMs = 132, kSmem = 200 << 10, kThreads = 256, kSlice4 = (256 << 10) / 16;
constexpr long long kWrap4 = (16ll << 20) / 16;

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

// k_stream: gpcmap.cu's stream with the load CG chooses, over PASSES passes of a slice of 256 KiB / PASSES, on the
// SMs active[] marks; st[2b], st[2b+1]: the CTA's SM and cycles (-1: not active).
template <int CG, int PASSES>
__global__ void k_stream(const float4* in, const unsigned char* active, float* out, long long* st) {
  extern __shared__ unsigned char pad[];
  const unsigned s = smid();
  if (!active[s]) {
    if (threadIdx.x == 0) st[2 * blockIdx.x] = s, st[2 * blockIdx.x + 1] = -1;
    return;
  }
  __syncthreads();
  const long long c0 = clock64();
  constexpr int n4 = kSlice4 / PASSES;
  const float4* p = in + ((long long)s * kSlice4) % kWrap4;  // by SM: the footprint the warming launch read
  const int b = blockDim.x;
  float acc = 0.0f;
  const float* f = (const float*)p;
  for (int pass = 0; pass < PASSES; pass++)
    if (CG == 2)  // sixteen loads a thread in flight: as many bytes a warp as the float4 loop's
      for (int i = threadIdx.x; i < 4 * n4; i += 16 * b) {
        float v[16];
#pragma unroll
        for (int k = 0; k < 16; k++) v[k] = __ldcg(f + i + k * b);
#pragma unroll
        for (int k = 0; k < 16; k++) acc += v[k];
      }
    else
      for (int i = threadIdx.x; i < n4; i += 4 * b) {
        float4 x, y, z, w;
        if (CG) x = __ldcg(p + i), y = __ldcg(p + i + b), z = __ldcg(p + i + 2 * b), w = __ldcg(p + i + 3 * b);
        else x = p[i], y = p[i + b], z = p[i + 2 * b], w = p[i + 3 * b];
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
  CK(cudaFuncSetAttribute(k_stream<0, 1>, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem));
  CK(cudaFuncSetAttribute(k_stream<1, 1>, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem));
  CK(cudaFuncSetAttribute(k_stream<0, 8>, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem));
  CK(cudaFuncSetAttribute(k_stream<1, 8>, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem));
  CK(cudaFuncSetAttribute(k_stream<2, 1>, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem));
  CK(cudaFuncSetAttribute(k_stream<2, 8>, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem));
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

  float4* in; float* out; long long* st; unsigned char* dactive;
  CK(cudaMalloc(&in, kWrap4 * 16)); CK(cudaMemset(in, 0, kWrap4 * 16));
  CK(cudaMalloc(&out, kSMs * kThreads * 4)); CK(cudaMalloc(&st, 2 * kSMs * 8)); CK(cudaMalloc(&dactive, kSMs));
  k_spin<<<264, 128>>>(100000000ll);
  CK(cudaDeviceSynchronize());
  // The sets: the largest GPC whole, and as many SMs a TPC of each GPC in turn.
  std::vector<int> whole = gl[0], spread;
  for (size_t pos = 0; spread.size() < whole.size(); pos += 2)
    for (size_t g = 0; g < gl.size() && spread.size() < whole.size(); g++)
      for (size_t j = pos; j < pos + 2 && j < gl[g].size() && spread.size() < whole.size(); j++) spread.push_back(gl[g][j]);
  void (*kernels[6])(const float4*, const unsigned char*, float*, long long*) = {
      k_stream<0, 1>, k_stream<1, 1>, k_stream<2, 1>, k_stream<0, 8>, k_stream<1, 8>, k_stream<2, 8>};
  const char* ops[3] = {"ca", "cg", "cg1"};
  for (int v = 0; v < 6; v++)
    for (int which = 0; which < 2; which++) {
      const std::vector<int>& set = which ? spread : whole;
      std::vector<unsigned char> act(kSMs, 1);
      for (int rep = -1; rep < 3; rep++) {  // rep -1, every SM streaming, warms the whole footprint
        if (rep == 0) {
          std::fill(act.begin(), act.end(), 0);
          for (int s : set) act[s] = 1;
        }
        CK(cudaMemcpy(dactive, act.data(), kSMs, cudaMemcpyHostToDevice));
        kernels[v]<<<kSMs, kThreads, kSmem>>>(in, dactive, out, st);
        CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
        if (rep < 0) continue;
        long long h[2 * kSMs];
        CK(cudaMemcpy(h, st, sizeof h, cudaMemcpyDeviceToHost));
        for (int b = 0; b < kSMs; b++)
          if (h[2 * b + 1] >= 0)
            printf("bw,%s,%d,%s1,%zu,%d,%lld,%lld\n", ops[v % 3], v < 3 ? 1 : 8, which ? "spread" : "gpc",
                   set.size(), rep, h[2 * b], h[2 * b + 1]);
      }
    }
  printf("done,ok,1\n");
  return 0;
}
