// clockdom.cu: which clock the SMs run at while other SMs work their tensor cores, and whether L2 and DRAM keep
// their nanoseconds or their SM cycles when it drops. apps/h200/gemm_grid.cu's CTAs count 1.74-1.80 clock64 cycles a
// %globaltimer nanosecond (nvidia-smi reports 1980 MHz), l2bw.cu's streams 1.98.
// One launch of 132 CTAs of 256 threads (one an SM). CTA 0's thread 0 measures; the other CTAs load the GPU (LOAD):
//   idle   they exit at once;
//   wgmma  both warpgroups issue wgmma.mma_async m64n128k16 f16 from shared memory, wait_group 1, on random operands
//          (a GEMM's main loop at full rate; the tensor cores switch bits as in gemm_grid);
//   zeros  the same on operands of zero (wgmma_rate.cu's);
//   ffma   every thread runs eight independent FFMA chains;
// until CTA 0 sets a flag, and report their own clock64 cycles over %globaltimer ns.
// CTA 0's thread 0, after a 20 us start for the load: a chain of 20000 dependent IADDs (the SM's clock: cycles and
// ns), a chase of 2000 hops through 4 MiB of L2-resident lines, and of 2000 hops through 2 GiB (DRAM: each line
// read once), each timed in clock64 and %globaltimer.
// LOAD also: here  CTA 0's second warpgroup runs the wgmma load on CTA 0's own SM, the other CTAs exit;
//            all   both: the other CTAs and CTA 0's second warpgroup.
// Output: "clk,LOAD,what,count,cycles,ns,cycles_per,ns_per,clk_per_ns" rows (what: alu, l2, dram for CTA 0's
// thread 0; load for the loading warpgroups, their cycles and ns summed, count the warpgroups), each the median of
// three launches by cycles per ns.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a clockdom.cu -o clockdom
#include "bench.h"

enum Load { kIdle = 0, kWgmma = 1, kZeros = 2, kFfma = 3, kHere = 4, kAll = 5 };
constexpr long long kForever = 1ll << 62;  // no time limit on a load

__device__ __forceinline__ long long gtime() {
  long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t) :: "memory");
  return t;
}

__device__ __forceinline__ uint64_t sdesc(uint32_t addr) {
  return (uint64_t)((addr & 0x3ffff) >> 4) | (1ull << 16) | (64ull << 32) | (1ull << 62);
}

__device__ __forceinline__ void mma_f16(float (&d)[64], uint64_t da, uint64_t db) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, 1, 0, 0;\n}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
               : "l"(da), "l"(db), "r"(1));
}

// wg_done: whether the warpgroup's first thread finds v, the same answer in all its threads, through shared memory
// and the warpgroup's named barrier (id, 128 threads): a warpgroup's wgmmas are .aligned, so its four warps must leave
// the loop together.
__device__ __forceinline__ bool wg_done(bool v, uint32_t id, volatile int* flag) {
  if (threadIdx.x % 128 == 0) *flag = v;
  asm volatile("bar.sync %0, 128;" :: "r"(id) : "memory");
  const bool r = *flag != 0;
  asm volatile("bar.sync %0, 128;" :: "r"(id) : "memory");
  return r;
}

// load_wgmma: the calling warpgroup issues groups of four wgmmas over its 24 KiB of operands (A's 64 rows of 128
// bytes, then B's 128, 128B-swizzled) until *stop, or for at most limit_ns; its thread 0 adds its clock64 cycles and
// %globaltimer ns to out[0..1].
__device__ void load_wgmma(const volatile int* stop, bool zeros, unsigned long long* out, long long limit_ns) {
  extern __shared__ __align__(1024) uint8_t smem[];
  __shared__ int flags[2];
  const uint32_t wg = threadIdx.x / 128;
  const uint32_t base = ((sa(smem) + 1023u) & ~1023u) + wg * 24576;
  uint8_t* p = smem + (base - sa(smem));
  uint32_t x = 0x9e3779b9u * (blockIdx.x * blockDim.x + threadIdx.x + 1);
  for (int i = threadIdx.x % 128 * 4; i < 24576; i += 128 * 4) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    // f16 values of exponent 14 or 15 and random fractions and signs: magnitudes 0.5-2, never Inf or NaN
    const uint32_t h = (x & 0x83ff83ffu) | 0x38003800u | ((x >> 4) & 0x04000400u);
    *(uint32_t*)(p + i) = zeros ? 0u : h;
  }
  fence_async();
  asm volatile("bar.sync %0, 128;" :: "r"(1 + wg) : "memory");  // the warpgroup's own barrier
  float d[64];
#pragma unroll
  for (int j = 0; j < 64; j++) d[j] = 0.0f;
  const uint64_t da = sdesc(base), db = sdesc(base + 8192);
  const long long c0 = clk(), g0 = gtime();
  while (!wg_done(*stop != 0 || gtime() - g0 > limit_ns, 1 + wg, &flags[wg])) {
    for (int g = 0; g < 16; g++) {
      asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
      for (int k = 0; k < 4; k++) mma_f16(d, da + 2 * k, db + 2 * k);
      asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
      asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
    }
  }
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  const long long c1 = clk(), g1 = gtime();
  float s = 0;
#pragma unroll
  for (int j = 0; j < 64; j++) s += d[j];
  if (threadIdx.x % 128 == 0) {
    atomicAdd(&out[0], (unsigned long long)(c1 - c0) + (s == 12345.0f));
    atomicAdd(&out[1], (unsigned long long)(g1 - g0));
  }
}

// load_ffma: eight independent FFMA chains a thread until *stop.
__device__ void load_ffma(const volatile int* stop, unsigned long long* out) {
  float a[8];
#pragma unroll
  for (int j = 0; j < 8; j++) a[j] = 1.0f + j * threadIdx.x * 1e-7f;
  const long long c0 = clk(), g0 = gtime();
  while (!*stop) {
#pragma unroll 16
    for (int i = 0; i < 256; i++) {
#pragma unroll
      for (int j = 0; j < 8; j++) a[j] = fmaf(a[j], 0.9999999f, 1e-7f);
    }
  }
  const long long c1 = clk(), g1 = gtime();
  float s = 0;
#pragma unroll
  for (int j = 0; j < 8; j++) s += a[j];
  if (threadIdx.x % 128 == 0) {
    atomicAdd(&out[0], (unsigned long long)(c1 - c0) + (s == 12345.0f));
    atomicAdd(&out[1], (unsigned long long)(g1 - g0));
  }
}

// measure: CTA 0's thread 0; rec[what] = {count, cycles, ns} for what = 0 alu, 1 l2, 2 dram.
__device__ void measure(const uint32_t* l2, const uint32_t* dram, int hops, long long* rec) {
  long long t = gtime();
  while (gtime() - t < 20000) {}  // the load's start
  uint32_t v = (uint32_t)clock();
  long long c0 = clk(), g0 = gtime();
#pragma unroll 1
  for (int i = 0; i < 20000; i += 4) {
    asm volatile("add.u32 %0, %0, 3;\n\tadd.u32 %0, %0, 5;\n\tadd.u32 %0, %0, 7;\n\tadd.u32 %0, %0, 9;" : "+r"(v));
  }
  long long c1 = clk(), g1 = gtime();
  rec[0] = 20000, rec[1] = c1 - c0 + (v == 1), rec[2] = g1 - g0;
  uint32_t j = 0;
  for (int i = 0; i < hops; i++) j = __ldcg(l2 + j);  // the L2 lines, once, so that they are resident
  j = (j == 0xffffffffu);                              // 0: the same lines again
  c0 = clk(), g0 = gtime();
#pragma unroll 1
  for (int i = 0; i < hops; i++) j = __ldcg(l2 + j);
  c1 = clk(), g1 = gtime();
  rec[3] = hops, rec[4] = c1 - c0 + (j == 0xffffffffu), rec[5] = g1 - g0;
  j = 0;
  c0 = clk(), g0 = gtime();
#pragma unroll 1
  for (int i = 0; i < hops; i++) j = __ldcg(dram + (size_t)j * 32);
  c1 = clk(), g1 = gtime();
  rec[6] = hops, rec[7] = c1 - c0 + (j == 0xffffffffu), rec[8] = g1 - g0;
}

// CTA 0's thread 0 measures; with kHere and kAll CTA 0's second warpgroup loads its own SM's tensor cores, with
// kWgmma, kZeros, kFfma and kAll the other CTAs load theirs.
__global__ void __launch_bounds__(256, 1) k_clock(int load, const uint32_t* l2, const uint32_t* dram, int hops,
                                                  int* stop, long long* rec, unsigned long long* loadrec) {
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) {
      measure(l2, dram, hops, rec);
      __threadfence();
      *(volatile int*)stop = 1;
    } else if (threadIdx.x >= 128 && (load == kHere || load == kAll)) {
      load_wgmma(stop, false, loadrec, kForever);
    }
    return;
  }
  switch (load) {
    case kWgmma:
    case kAll: load_wgmma(stop, false, loadrec, kForever); break;
    case kZeros: load_wgmma(stop, true, loadrec, kForever); break;
    case kFfma: load_ffma(stop, loadrec); break;
    default: break;
  }
}

// flush_read reads n bytes, so that the lines read before leave L2 (host copies do not take them out).
__global__ void flush_read(const uint4* p, size_t n, unsigned* sink) {
  uint32_t s = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n / 16; i += (size_t)gridDim.x * blockDim.x)
    s ^= __ldcg(p + i).x;
  if (s == 0x12345678u) *sink = s;
}

// chain writes a random cycle through n words of 4 bytes spaced `stride` words apart into buf (entry i holds the
// next index, in units of stride words).
static std::vector<uint32_t> chain(size_t n, uint32_t seed) {
  std::vector<uint32_t> order(n), next(n);
  for (size_t i = 0; i < n; i++) order[i] = (uint32_t)i;
  uint64_t x = seed;
  for (size_t i = n - 1; i > 0; i--) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    std::swap(order[i], order[(x >> 33) % (i + 1)]);
  }
  for (size_t i = 0; i < n; i++) next[order[i]] = order[(i + 1) % n];
  return next;
}

#ifndef CLOCKDOM_NO_MAIN  // clockbw.cu takes the load without this program
int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  const int ctas = 132, hops = 2000;
  // L2: 32768 lines of 128 bytes (4 MiB), one word a line used, the chain over lines.
  const size_t l2lines = 32768, dramlines = (2ull << 30) / 128;
  std::vector<uint32_t> l2n = chain(l2lines, 7);
  std::vector<uint32_t> l2w(l2lines * 32, 0);
  for (size_t i = 0; i < l2lines; i++) l2w[i * 32] = l2n[i] * 32;  // word index of the next line
  uint32_t *l2, *dram;
  CK(cudaMalloc(&l2, l2w.size() * 4));
  CK(cudaMemcpy(l2, l2w.data(), l2w.size() * 4, cudaMemcpyHostToDevice));
  CK(cudaMalloc(&dram, dramlines * 128));
  {
    // the DRAM chain visits 2000 of the 16 Mi lines, each once: line index -> next line index (scaled by 32 words in
    // the kernel); the rest of the buffer is never read
    std::vector<uint32_t> pick(hops + 1);
    std::vector<uint32_t> seen;
    uint64_t x = 12345;
    pick[0] = 0;
    seen.push_back(0);
    for (int i = 1; i <= hops; i++) {
      do {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        pick[i] = (uint32_t)((x >> 24) % dramlines);
      } while (std::find(seen.begin(), seen.end(), pick[i]) != seen.end());
      seen.push_back(pick[i]);
    }
    for (int i = 0; i < hops; i++) CK(cudaMemcpy(dram + (size_t)pick[i] * 32, &pick[i + 1], 4, cudaMemcpyHostToDevice));
  }
  int* stop;
  long long* rec;
  unsigned long long* loadrec;
  CK(cudaMalloc(&stop, 4));
  CK(cudaMalloc(&rec, 9 * 8));
  CK(cudaMalloc(&loadrec, 16));
  CK(cudaFuncSetAttribute(k_clock, cudaFuncAttributeMaxDynamicSharedMemorySize, 50176));
  const size_t flushBytes = 512u << 20;
  uint8_t* fl;
  unsigned* sink;
  CK(cudaMalloc(&fl, flushBytes));
  CK(cudaMemset(fl, 1, flushBytes));
  CK(cudaMalloc(&sink, 4));
  printf("clk,load,what,count,cycles,ns,cycles_per,ns_per,clk_per_ns\n");
  const char* names[] = {"idle", "wgmma", "zeros", "ffma", "here", "all"};
  const int warpgroups[] = {0, 2 * (ctas - 1), 2 * (ctas - 1), 2 * (ctas - 1), 1, 2 * (ctas - 1) + 1};
  for (int load = 0; load < 6; load++) {
    std::vector<long long> keep[4];
    for (int rep = 0; rep < 3; rep++) {
      flush_read<<<264, 1024>>>((const uint4*)fl, flushBytes, sink);  // the DRAM chain's lines out of L2
      CK(cudaMemset(stop, 0, 4));
      CK(cudaMemset(loadrec, 0, 16));
      k_clock<<<ctas, 256, 50176>>>(load, l2, dram, hops, stop, rec, loadrec);
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      long long r[9];
      unsigned long long lr[2];
      CK(cudaMemcpy(r, rec, sizeof r, cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(lr, loadrec, sizeof lr, cudaMemcpyDeviceToHost));
      for (int w = 0; w < 3; w++) {
        keep[w].push_back(r[3 * w + 1]);
        keep[w].push_back(r[3 * w + 2]);
        keep[w].push_back(r[3 * w]);
      }
      keep[3].push_back((long long)lr[0]);
      keep[3].push_back((long long)lr[1]);
      keep[3].push_back(warpgroups[load]);
    }
    const char* what[] = {"alu", "l2", "dram", "load"};
    for (int w = 0; w < 4; w++) {
      // the median launch by cycles per ns
      int best;
      double v[3];
      for (int rep = 0; rep < 3; rep++) v[rep] = keep[w][3 * rep + 1] ? (double)keep[w][3 * rep] / keep[w][3 * rep + 1] : 0;
      int idx[3] = {0, 1, 2};
      std::sort(idx, idx + 3, [&](int a, int b) { return v[a] < v[b]; });
      best = idx[1];
      const long long cyc = keep[w][3 * best], ns = keep[w][3 * best + 1], n = keep[w][3 * best + 2];
      if (w == 3 && n == 0) continue;
      printf("clk,%s,%s,%lld,%lld,%lld,%.2f,%.2f,%.4f\n", names[load], what[w], n, cyc, ns,
             n ? (double)cyc / n : 0.0, n ? (double)ns / n : 0.0, ns ? (double)cyc / ns : 0.0);
    }
  }
  printf("done,ok,1\n");
  return 0;
}
#endif
