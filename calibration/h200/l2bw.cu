// l2bw_probe.cu: L2 and DRAM bandwidth and latency under the load of 1 to 528 CTAs (1 to 132 SMs and beyond).
// Kernels (256 threads a CTA, one CTA per SM up to 132, then 2 and 4 per SM):
//   l2bw_stream  each CTA reads its own slice of slice4 float4s (plain ld.global.v4.f32, 4 loads in flight a
//                thread an iteration) at (ctaid * slice4) mod wrap4: DRAM-resident (wrap beyond the slices,
//                L2 flushed before the launch) or L2-resident (a 16 MiB footprint, warmed by the launch before).
//   l2bw_reduce  a plain-load reduction: each thread sums its slice share with 4-byte loads (4 in flight),
//                warp shuffles, shared memory, one atomicAdd a CTA. DRAM-resident.
//   l2bw_chase   l2bw_stream, but warp 0 of CTA 0 chases hops dependent 4-byte loads 4224 B apart in a zeroed
//                buffer (the address adds the loaded 0) instead of streaming: loaded latency.
// Each CTA records clock64 and %globaltimer at its start and after its last load's use (__syncthreads), and
// %smid. Output: summary rows (l2bw.csv) and per-CTA rows (l2bw_cta.csv) on stdout, split by the first field.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o l2bw_probe l2bw_probe.cu
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1); } } while (0)

__device__ __forceinline__ unsigned long long gtimer() { unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
__device__ __forceinline__ unsigned smid() { unsigned s; asm volatile("mov.u32 %0, %%smid;" : "=r"(s)); return s; }
__device__ __forceinline__ void stamp(long long* st, long long c0, unsigned long long g0) {
  __syncthreads();
  if (threadIdx.x == 0) {
    long long* s = st + 5 * blockIdx.x;
    s[0] = c0; s[1] = clock64(); s[2] = (long long)g0; s[3] = (long long)gtimer(); s[4] = smid();
  }
}
// in: the buffer; slice4: float4s per CTA (a multiple of 4 * blockDim.x); wrap4: footprint in float4s.
extern "C" __global__ void l2bw_stream(const float4* in, int slice4, long long wrap4, float* out, long long* st) {
  const long long c0 = clock64(); const unsigned long long g0 = gtimer();
  const float4* p = in + ((long long)blockIdx.x * slice4) % wrap4;
  const int b = blockDim.x;
  float acc = 0.0f;
  for (int i = threadIdx.x; i < slice4; i += 4 * b) {
    const float4 x = p[i], y = p[i + b], z = p[i + 2 * b], w = p[i + 3 * b];
    acc += ((x.x + y.x) + (z.x + w.x)) + ((x.w + y.w) + (z.w + w.w));
  }
  out[blockIdx.x * b + threadIdx.x] = acc;
  stamp(st, c0, g0);
}
// in: floats; slice: floats per CTA (a multiple of 4 * blockDim.x).
extern "C" __global__ void l2bw_reduce(const float* in, int slice, float* out, long long* st) {
  const long long c0 = clock64(); const unsigned long long g0 = gtimer();
  __shared__ float part[32];
  const float* p = in + (long long)blockIdx.x * slice;
  const int b = blockDim.x;
  float acc = 0.0f;
  for (int i = threadIdx.x; i < slice; i += 4 * b) acc += (p[i] + p[i + b]) + (p[i + 2 * b] + p[i + 3 * b]);
  for (int o = 16; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, o);
  if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = acc;
  __syncthreads();
  if (threadIdx.x < 32) {
    float s = threadIdx.x < (b >> 5) ? part[threadIdx.x] : 0.0f;
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
    if (threadIdx.x == 0) atomicAdd(out, s);
  }
  stamp(st, c0, g0);
}
// As l2bw_stream; chase: a zeroed buffer of span bytes (a power of two); lat[0] = cycles of the hops loads.
extern "C" __global__ void l2bw_chase(const float4* in, int slice4, long long wrap4, float* out, long long* st,
                                      const unsigned* chase, unsigned span, int hops, long long* lat) {
  const long long c0 = clock64(); const unsigned long long g0 = gtimer();
  const int b = blockDim.x;
  float acc = 0.0f;
  if (blockIdx.x == 0 && threadIdx.x < 32) {
    if (threadIdx.x == 0) {
      unsigned v = 0, off = 0;
      const long long t0 = clock64();
      for (int h = 0; h < hops; h++) {
        off = (off + 4224u) & (span - 1u);
        v = __ldcg(&chase[(off >> 2) + v]);
      }
      lat[0] = clock64() - t0;
      acc = (float)v;
    }
  } else {
    const float4* p = in + ((long long)blockIdx.x * slice4) % wrap4;
    for (int i = threadIdx.x; i < slice4; i += 4 * b) {
      const float4 x = p[i], y = p[i + b], z = p[i + 2 * b], w = p[i + 3 * b];
      acc += ((x.x + y.x) + (z.x + w.x)) + ((x.w + y.w) + (z.w + w.w));
    }
  }
  out[blockIdx.x * b + threadIdx.x] = acc;
  stamp(st, c0, g0);
}

static const int kThreads = 256;
static const int kGrids[] = {1, 2, 4, 8, 16, 33, 66, 132, 264, 528};
static const long long kSlice = 256 << 10;  // bytes a CTA reads
static const long long kL2Foot = 16 << 20;  // L2-resident footprint
static const unsigned kChaseSpan = 256u << 20, kChaseL2Span = 2u << 20;
static const int kHops = 512;

struct Bufs { char* big; char* flush; unsigned* chase; float* out; long long* st; long long* lat; };
// Reads 256 MiB (clean lines, so no write-back competes with the next kernel) to evict the L2.
__global__ void flush_read(const float4* p, long long n4, float* out) {
  float a = 0.0f;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n4; i += (long long)gridDim.x * blockDim.x) a += p[i].x;
  if (a == 12345.0f) out[0] = a;
}
static void flushL2(Bufs& b) { flush_read<<<528, 512>>>((const float4*)b.flush, (256ll << 20) / 16, b.out); CK(cudaGetLastError()); CK(cudaDeviceSynchronize()); }

int main() {
  int dev = 0, khz = 0, nsm = 0;
  CK(cudaSetDevice(dev));
  CK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev));
  CK(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, dev));
  Bufs b;
  const size_t bigBytes = 1ull << 30;
  CK(cudaMalloc(&b.big, bigBytes));
  CK(cudaMalloc(&b.flush, 256 << 20));
  CK(cudaMalloc(&b.chase, kChaseSpan + 4096));
  CK(cudaMalloc(&b.out, 528 * kThreads * sizeof(float)));
  CK(cudaMalloc(&b.st, 5 * 528 * sizeof(long long)));
  CK(cudaMalloc(&b.lat, sizeof(long long)));
  CK(cudaMemset(b.big, 0, bigBytes));
  CK(cudaMemset(b.flush, 0, 256 << 20));
  CK(cudaMemset(b.chase, 0, kChaseSpan + 4096));
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  printf("S,device_clock_khz,%d,sms,%d\n", khz, nsm);
  printf("S,kernel,place,grid,rep,event_ns,span_ns,slowest_cycles,median_cycles,fastest_cycles,sms_used,chase_cycles_per_hop,clk_per_ns\n");
  printf("C,kernel,place,grid,rep,cta,smid,clk_start,clk_end,gt_start,gt_end\n");
  const int slice4 = (int)(kSlice / 16), slice1 = (int)(kSlice / 4);
  const char* kinds[] = {"stream", "stream", "reduce", "chase", "chase"};
  const char* places[] = {"dram", "l2", "dram", "dram", "l2"};
  for (int k = 0; k < 5; k++)
    for (int grid : kGrids)
      for (int rep = -1; rep < 3; rep++) {  // rep -1 warms (code, TLB, and the L2 for l2 rows); not printed
        const bool l2 = places[k][0] == 'l';
        const long long wrap4 = l2 ? kL2Foot / 16 : (long long)(bigBytes / 16);
        if (!l2) flushL2(b);
        CK(cudaMemset(b.st, 0, 5 * 528 * sizeof(long long)));
        CK(cudaMemset(b.lat, 0, sizeof(long long)));
        CK(cudaDeviceSynchronize());
        CK(cudaEventRecord(e0));
        if (k < 2) l2bw_stream<<<grid, kThreads>>>((const float4*)b.big, slice4, wrap4, b.out, b.st);
        else if (k == 2) l2bw_reduce<<<grid, kThreads>>>((const float*)b.big, slice1, b.out, b.st);
        else l2bw_chase<<<grid, kThreads>>>((const float4*)b.big, slice4, wrap4, b.out, b.st, b.chase,
                                            l2 ? kChaseL2Span : kChaseSpan, kHops, b.lat);
        CK(cudaGetLastError());
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        if (rep < 0) continue;
        float ms = 0; CK(cudaEventElapsedTime(&ms, e0, e1));
        std::vector<long long> h(5 * grid); long long lat = 0;
        CK(cudaMemcpy(h.data(), b.st, h.size() * sizeof(long long), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(&lat, b.lat, sizeof lat, cudaMemcpyDeviceToHost));
        long long g0 = h[2], g1 = h[3];
        std::vector<long long> cyc(grid); std::vector<int> used(1024, 0); int nused = 0;
        double clkns = 0;
        for (int c = 0; c < grid; c++) {
          const long long* s = &h[5 * c];
          g0 = std::min(g0, s[2]); g1 = std::max(g1, s[3]);
          cyc[c] = s[1] - s[0];
          if (s[4] >= 0 && s[4] < 1024 && !used[s[4]]++) nused++;
          if (s[3] > s[2]) clkns = std::max(clkns, (double)(s[1] - s[0]) / (double)(s[3] - s[2]));
          printf("C,%s,%s,%d,%d,%d,%lld,%lld,%lld,%lld,%lld\n", kinds[k], places[k], grid, rep, c, s[4], s[0], s[1], s[2], s[3]);
        }
        std::sort(cyc.begin(), cyc.end());
        printf("S,%s,%s,%d,%d,%.0f,%lld,%lld,%lld,%lld,%d,%.2f,%.4f\n", kinds[k], places[k], grid, rep, ms * 1e6,
               g1 - g0, cyc[grid - 1], cyc[grid / 2], cyc[0], nused, k >= 3 ? (double)lat / kHops : 0.0, clkns);
      }
  return 0;
}
