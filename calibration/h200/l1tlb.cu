// l1tlb.cu: what translation the L1 load path keeps: one thread's dependent chain of loads that hit L2 (the
// launch before read the same lines), each in a line of its own, at offsets ((k * A + B) & MASK) * STRIDE for
// step k: ascending and descending strides of 128 B to 2 MiB, and pseudo-random orders (A odd: a permutation of
// MASK + 1 places) over windows of 256 KiB to 32 MiB; through L1 (ld.global) and around it (ld.global.cg).
// The next address also adds the loaded word (zeros), so each load waits for the last.
//   k_tlb<CG>  cycles a step over STEPS steps (clock64 in thread 0).
// Output: "tlb,NAME,A,B,MASK,STRIDE,cg,rep,cycles_per_step" rows, three timed launches after one that warms L2.
//   k_many<CG>  the same chase, 4096 steps at random over 2 MiB (rnd_2m's order, more than L1 holds), after the
//               window was last written or read by: a cudaMemcpy from the host (as gmem.cu's footprint rows), a
//               cudaMemset, a kernel storing zeros, or the chase itself (a launch before).
// Output: "warm,HOW,cg,rep,cycles_per_step" rows.
// Build: nvcc -O3 -std=c++17 -arch=sm_90a -o l1tlb l1tlb.cu
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)
#define STEPS 256

template <int CG> __device__ __forceinline__ uint32_t ld(const uint32_t* p);
template <> __device__ __forceinline__ uint32_t ld<0>(const uint32_t* p) {
  uint32_t x; asm volatile("ld.global.u32 %0, [%1];" : "=r"(x) : "l"(p)); return x;
}
template <> __device__ __forceinline__ uint32_t ld<1>(const uint32_t* p) {
  uint32_t x; asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(x) : "l"(p)); return x;
}

// buf: zeros; stride in words; out[0]: cycles of the STEPS loads.
template <int CG> __global__ void k_tlb(const uint32_t* buf, uint32_t a, uint32_t b, uint32_t mask, uint64_t stride,
                                         long long* out) {
  uint32_t acc = 0;
  long long t0, t1;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t0) :: "memory");
  for (uint32_t k = 0; k < STEPS; k++) acc = ld<CG>(buf + (uint64_t)((k * a + b) & mask) * stride + acc);
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t1) :: "memory");
  out[0] = t1 - t0;
  out[1] = acc;
}

template <int CG> __global__ void k_many(const uint32_t* buf, uint32_t a, uint32_t mask, int steps, long long* out) {
  uint32_t acc = 0;
  long long t0, t1;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t0) :: "memory");
  for (uint32_t k = 0; k < (uint32_t)steps; k++) acc = ld<CG>(buf + (uint64_t)((k * a) & mask) * 32 + acc);
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t1) :: "memory");
  out[0] = t1 - t0;
  out[1] = acc;
}

__global__ void k_zero(uint32_t* p, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) p[i] = 0;
}

__global__ void k_spin(long long cycles) { const long long t0 = clock64(); while (clock64() - t0 < cycles) {} }

struct P { const char* name; uint32_t a, b, mask; uint64_t stride_bytes; };
static const P kP[] = {
    {"asc_128", 1, 0, 0xffffffffu, 128},          {"asc_64k", 1, 0, 0xffffffffu, 65536},
    {"desc_64k", 255, 255, 255, 65536},           {"asc_128k", 1, 0, 0xffffffffu, 131072},
    {"asc_256k", 1, 0, 0xffffffffu, 262144},      {"asc_1m", 1, 0, 0xffffffffu, 1u << 20},
    {"asc_2m128", 1, 0, 0xffffffffu, (2u << 20) + 128},
    {"rnd_256k", 0x9e3779b1u, 0, 2047, 128},      {"rnd_512k", 0x9e3779b1u, 0, 4095, 128},
    {"rnd_1m", 0x9e3779b1u, 0, 8191, 128},        {"rnd_2m", 0x9e3779b1u, 0, 16383, 128},
    {"rnd_8m", 0x9e3779b1u, 0, 65535, 128},       {"rnd_64k_granules", 0x9e3779b1u, 0, 255, 65536 + 128},
    {"asc_64k_pairs", 1, 0, 0xffffffffu, 32768},
};

int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  const size_t kBuf = 640ull << 20;
  uint32_t* buf; long long* out;
  CK(cudaMalloc(&buf, kBuf)); CK(cudaMemset(buf, 0, kBuf));
  CK(cudaMalloc(&out, 16 * sizeof(long long)));
  k_spin<<<264, 128>>>(100000000ll);
  CK(cudaDeviceSynchronize());
  for (const P& p : kP)
    for (int cg = 0; cg < 2; cg++)
      for (int rep = -1; rep < 3; rep++) {
        if (cg) k_tlb<1><<<1, 1>>>(buf, p.a, p.b, p.mask, p.stride_bytes / 4, out);
        else k_tlb<0><<<1, 1>>>(buf, p.a, p.b, p.mask, p.stride_bytes / 4, out);
        CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
        if (rep < 0) continue;
        long long c = 0; CK(cudaMemcpy(&c, out, sizeof c, cudaMemcpyDeviceToHost));
        printf("tlb,%s,%u,%u,%u,%llu,%d,%d,%.2f\n", p.name, p.a, p.b, p.mask, (unsigned long long)p.stride_bytes, cg, rep,
               c / (double)STEPS);
      }
  const size_t win = 2u << 20;
  uint32_t* host = (uint32_t*)calloc(win, 1);
  const char* how[] = {"memcpy", "memset", "kernel", "chase"};
  for (int h = 0; h < 4; h++)
    for (int cg = 0; cg < 2; cg++)
      for (int rep = -1; rep < 3; rep++) {
        uint32_t* w = buf + (256u << 20) / 4;  // a window no other row reads
        if (h == 0) CK(cudaMemcpy(w, host, win, cudaMemcpyHostToDevice));
        if (h == 1) CK(cudaMemset(w, 0, win));
        if (h == 2) k_zero<<<132, 256>>>(w, win / 4);
        if (h == 3 || rep < 0) {
          if (cg) k_many<1><<<1, 1>>>(w, 0x9e3779b1u, 16383, 4096, out);
          else k_many<0><<<1, 1>>>(w, 0x9e3779b1u, 16383, 4096, out);
        }
        if (cg) k_many<1><<<1, 1>>>(w, 0x9e3779b1u, 16383, 4096, out);
        else k_many<0><<<1, 1>>>(w, 0x9e3779b1u, 16383, 4096, out);
        CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
        if (rep < 0) continue;
        long long c = 0; CK(cudaMemcpy(&c, out, sizeof c, cudaMemcpyDeviceToHost));
        printf("warm,%s,%d,%d,%.2f\n", how[h], cg, rep, c / 4096.0);
      }
  printf("done,ok,1\n");
  return 0;
}
