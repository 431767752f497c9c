// mufu.cu: what the H200's multi-function unit (MUFU) returns, bit for bit, for the approximate functions PTX
// exposes: ex2, rcp, rsqrt, lg2 (.approx.ftz.f32: one MUFU instruction each, no fix-up code), sin, cos
// (.approx.ftz.f32: an FMUL by 1/2pi, then MUFU), tanh (.approx.f32). For each function the host compares the
// GPU's result with the correctly rounded one (the host's double-precision libm, rounded once to float) and
// writes, per input, the difference of their bit patterns as a signed byte (-128: |difference| >= 128, or a
// NaN/Inf disagreement):
//   ex2_pos.i8   ex2 of x = k / 2^23,  k = 0 .. 2^23-1     (x in [0, 1))
//   ex2_neg.i8   ex2 of x = -k / 2^23, k = 1 .. 2^23       (x in [-1, 0))
//   rcp.i8       rcp of every float in [1, 2)               (2^23 inputs: 1 + k / 2^23)
//   rsq.i8       rsqrt of every float in [1, 4)             (2^24 inputs)
//   lg2.i8       lg2 of every float in [1, 2)               (2^23 inputs)
// and, for 2^18 random inputs each (SplitMix64 of the seed, below), the input and the GPU's result as raw bits:
//   NAME.rnd     pairs of little-endian uint32 (input bits, output bits)
//   ex2 (seed 1: x uniform in [-130, 130]), ex2s (seed 2: x = random bits with |x| < 1), rcp (seed 3: random
//   normal floats), rsq (seed 4: random positive normal floats), lg2 (seed 5: random positive normal floats),
//   sin (seed 6: x uniform in [-64, 64]), cos (seed 7: same), tanh (seed 8: x uniform in [-10, 10]).
// Usage: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o mufu mufu.cu && ./mufu OUTDIR
#include <cuda_runtime.h>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error '%s' at line %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)

enum Op { EX2, RCP, RSQ, LG2, SIN, COS, TANH };

__global__ void k_mufu(int op, const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float x = in[i];
  float y;
  switch (op) {
    case EX2: asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); break;
    case RCP: asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); break;
    case RSQ: asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); break;
    case LG2: asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); break;
    case SIN: asm("sin.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); break;
    case COS: asm("cos.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); break;
    default: asm("tanh.approx.f32 %0, %1;" : "=f"(y) : "f"(x)); break;
  }
  out[i] = y;
}

static std::vector<float> gpu(int op, const std::vector<float>& in) {
  const int n = (int)in.size();
  float *din, *dout;
  CK(cudaMalloc(&din, n * 4));
  CK(cudaMalloc(&dout, n * 4));
  CK(cudaMemcpy(din, in.data(), n * 4, cudaMemcpyHostToDevice));
  k_mufu<<<(n + 255) / 256, 256>>>(op, din, dout, n);
  CK(cudaGetLastError());
  std::vector<float> out(n);
  CK(cudaMemcpy(out.data(), dout, n * 4, cudaMemcpyDeviceToHost));
  CK(cudaFree(din));
  CK(cudaFree(dout));
  return out;
}

static double ref(int op, float xf) {
  const double x = xf;
  switch (op) {
    case EX2: return exp2(x);
    case RCP: return 1.0 / x;
    case RSQ: return 1.0 / sqrt(x);
    case LG2: return log2(x);
    case SIN: return sin(x);
    case COS: return cos(x);
    default: return tanh(x);
  }
}

static uint32_t bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

static void diffs(const char* dir, const char* name, int op, const std::vector<float>& in) {
  const std::vector<float> out = gpu(op, in);
  std::vector<int8_t> d(in.size());
  long hist[5] = {0, 0, 0, 0, 0};
  for (size_t i = 0; i < in.size(); i++) {
    const float r = (float)ref(op, in[i]);
    const int64_t k = (int64_t)bits(out[i]) - (int64_t)bits(r);
    d[i] = (std::isnan(out[i]) != std::isnan(r) || k <= -128 || k >= 128) ? (int8_t)-128 : (int8_t)k;
    hist[std::min<int64_t>(std::abs(k), 4)]++;
  }
  FILE* f = fopen((std::string(dir) + "/" + name).c_str(), "wb");
  fwrite(d.data(), 1, d.size(), f);
  fclose(f);
  printf("%s: %zu inputs, |ulp diff| 0: %ld, 1: %ld, 2: %ld, 3: %ld, >=4: %ld\n", name, in.size(), hist[0], hist[1], hist[2],
         hist[3], hist[4]);
}

static uint64_t splitmix(uint64_t seed, uint64_t k) {
  uint64_t z = seed + (k + 1) * 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static float uniform(uint64_t seed, uint64_t k, double lo, double hi) {
  return (float)(lo + (hi - lo) * (double)(splitmix(seed, k) >> 11) * 0x1.0p-53);
}

static void randoms(const char* dir, const char* name, int op, std::vector<float> in) {
  const std::vector<float> out = gpu(op, in);
  std::vector<uint32_t> pairs(2 * in.size());
  for (size_t i = 0; i < in.size(); i++) pairs[2 * i] = bits(in[i]), pairs[2 * i + 1] = bits(out[i]);
  FILE* f = fopen((std::string(dir) + "/" + name).c_str(), "wb");
  fwrite(pairs.data(), 4, pairs.size(), f);
  fclose(f);
  printf("%s: %zu random inputs\n", name, in.size());
}

int main(int argc, char** argv) {
  const char* dir = argc > 1 ? argv[1] : ".";
  const int N = 1 << 23, R = 1 << 18;
  std::vector<float> in(N);
  for (int k = 0; k < N; k++) in[k] = (float)k * 0x1.0p-23f;
  diffs(dir, "ex2_pos.i8", EX2, in);
  for (int k = 0; k < N; k++) in[k] = -(float)(k + 1) * 0x1.0p-23f;
  diffs(dir, "ex2_neg.i8", EX2, in);
  for (int k = 0; k < N; k++) in[k] = 1.0f + (float)k * 0x1.0p-23f;
  diffs(dir, "rcp.i8", RCP, in);
  diffs(dir, "lg2.i8", LG2, in);
  std::vector<float> in4(2 * N);
  for (int k = 0; k < N; k++) in4[k] = 1.0f + (float)k * 0x1.0p-23f, in4[N + k] = 2.0f + (float)k * 0x1.0p-22f;
  diffs(dir, "rsq.i8", RSQ, in4);
  std::vector<float> r(R);
  for (int k = 0; k < R; k++) r[k] = uniform(1, k, -130, 130);
  randoms(dir, "ex2.rnd", EX2, r);
  for (int k = 0; k < R; k++) {
    const uint32_t u = (uint32_t)splitmix(2, k) & 0xbf7fffffu;  // exponent below 127: |x| < 1
    float f; memcpy(&f, &u, 4); r[k] = f;
  }
  randoms(dir, "ex2s.rnd", EX2, r);
  auto normal = [](uint64_t seed, uint64_t k, bool positive) {
    uint32_t u = (uint32_t)splitmix(seed, k);
    uint32_t e = 1 + (u >> 8) % 253;  // exponent 1..253
    u = (u & 0x807fffffu) | (e << 23);
    if (positive) u &= 0x7fffffffu;
    float f; memcpy(&f, &u, 4); return f;
  };
  for (int k = 0; k < R; k++) r[k] = normal(3, k, false);
  randoms(dir, "rcp.rnd", RCP, r);
  for (int k = 0; k < R; k++) r[k] = normal(4, k, true);
  randoms(dir, "rsq.rnd", RSQ, r);
  for (int k = 0; k < R; k++) r[k] = normal(5, k, true);
  randoms(dir, "lg2.rnd", LG2, r);
  for (int k = 0; k < R; k++) r[k] = uniform(6, k, -64, 64);
  randoms(dir, "sin.rnd", SIN, r);
  for (int k = 0; k < R; k++) r[k] = uniform(7, k, -64, 64);
  randoms(dir, "cos.rnd", COS, r);
  for (int k = 0; k < R; k++) r[k] = uniform(8, k, -10, 10);
  randoms(dir, "tanh.rnd", TANH, r);
  return 0;
}
