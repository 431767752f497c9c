// reduce.cu: block reductions whose global-memory results a simulator must reproduce bit for bit.
// int32 (warp shuffles + shared memory + a global atomic total), float32 and float64 (fixed shuffle trees,
// so the rounding order is part of the program), and the sm_80+ redux.sync reductions.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o reduce reduce.cu
// Run:   CASES=cases.jsonl ./reduce   (appends manifest cases; see testdata/cuda/README.md)
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

// Sum of in[i] for this block's grid-stride share; out[blockIdx.x] = block sum, out[gridDim.x] += block sum.
extern "C" __global__ void reduce_sum_i32(const int* __restrict__ in, int n, int* __restrict__ out) {
  __shared__ int warp_sums[32];
  int s = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) s += in[i];
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_sums[warp] = s;
  __syncthreads();
  if (warp == 0) {
    const int nw = (blockDim.x + 31) >> 5;
    s = lane < nw ? warp_sums[lane] : 0;
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
    if (lane == 0) {
      out[blockIdx.x] = s;
      atomicAdd(&out[gridDim.x], s);
    }
  }
}

// Float sum of (float)(int)in[i] * scale; butterfly (xor) shuffles, per-thread loop order fixed.
extern "C" __global__ void reduce_sum_f32(const uint32_t* __restrict__ in, int n, float scale, float* __restrict__ out) {
  __shared__ float warp_sums[32];
  float s = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) s += (float)(int)in[i] * scale;
  for (int o = 1; o < 32; o <<= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_sums[warp] = s;
  __syncthreads();
  if (warp == 0) {
    const int nw = (blockDim.x + 31) >> 5;
    s = lane < nw ? warp_sums[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
    if (lane == 0) out[blockIdx.x] = s;
  }
}

// Double sum of (double)(int64)in[i] * scale, tree in shared memory (no shuffles).
extern "C" __global__ void reduce_sum_f64(const uint64_t* __restrict__ in, int n, double scale, double* __restrict__ out) {
  __shared__ double part[256];
  double s = 0.0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) s += (double)(long long)in[i] * scale;
  part[threadIdx.x] = s;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w >>= 1) {
    if (threadIdx.x < w) part[threadIdx.x] += part[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = part[0];
}

// Per warp: redux.sync add/min/max/and/or/xor (unsigned), min/max (signed); 8 words per warp.
extern "C" __global__ void reduce_redux_u32(const uint32_t* __restrict__ in, uint32_t* __restrict__ out) {
  const unsigned full = 0xffffffffu;
  const int gid = blockIdx.x * blockDim.x + threadIdx.x, gw = gid >> 5, lane = threadIdx.x & 31;
  const uint32_t v = in[gid];
  const uint32_t r0 = __reduce_add_sync(full, v), r1 = __reduce_min_sync(full, v), r2 = __reduce_max_sync(full, v);
  const uint32_t r3 = __reduce_and_sync(full, v | (1u << lane)), r4 = __reduce_or_sync(full, v & (v >> 7)), r5 = __reduce_xor_sync(full, v);
  const int r6 = __reduce_min_sync(full, (int)v), r7 = __reduce_max_sync(full, (int)v);
  if (lane == 0) {
    uint32_t* o = out + gw * 8;
    o[0] = r0; o[1] = r1; o[2] = r2; o[3] = r3; o[4] = r4; o[5] = r5; o[6] = (uint32_t)r6; o[7] = (uint32_t)r7;
  }
}

// ---------------------------------------------------------------- host harness (the same in every testdata/cuda/*.cu)
// Each case allocates its buffers exactly as smsim spells them (buf:SIZE[:zero|seq|random:SEED|byte:0xNN]),
// launches twice from fresh contents, and appends one JSON object (a manifest case) to the file named by
// $CASES (or stdout). "deterministic" says whether both launches gave identical dumps; "cpu_reference",
// where present, says whether the dump matched a host-side reference computation.
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error '%s' at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)

static uint64_t splitmix(uint64_t seed, uint64_t k) {
  uint64_t z = seed + (k + 1) * 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// The bytes of buf:SIZE[:FILL], as smsim generates them.
static std::vector<uint8_t> fill_bytes(const std::string& spec) {
  std::string rest = spec.substr(4);
  const size_t colon = rest.find(':');
  const size_t size = strtoull(rest.substr(0, colon).c_str(), nullptr, 0);
  const std::string fill = colon == std::string::npos ? "zero" : rest.substr(colon + 1);
  std::vector<uint8_t> b(size, 0);
  if (fill == "zero") {
  } else if (fill == "seq") {
    for (size_t i = 0; i < size; i++) b[i] = (uint8_t)((uint32_t)(i / 4) >> (8 * (i % 4)));
  } else if (fill.rfind("random:", 0) == 0) {
    const uint64_t seed = strtoull(fill.c_str() + 7, nullptr, 0);
    for (size_t i = 0; i < size; i += 8) {
      const uint64_t w = splitmix(seed, i / 8);
      for (size_t j = 0; j < 8 && i + j < size; j++) b[i + j] = (uint8_t)(w >> (8 * j));
    }
  } else if (fill.rfind("byte:", 0) == 0) {
    memset(b.data(), (int)strtoul(fill.c_str() + 5, nullptr, 0), size);
  } else {
    fprintf(stderr, "bad buffer spelling %s\n", spec.c_str()); exit(1);
  }
  return b;
}

static std::vector<uint32_t> words_of(const std::vector<uint8_t>& b) {
  std::vector<uint32_t> w(b.size() / 4);
  memcpy(w.data(), b.data(), w.size() * 4);
  return w;
}

struct HArg { std::string text; void* dev = nullptr; std::vector<uint8_t> init; };
struct HDump { int param; std::string type; int count; };
struct HExpect { int param; std::vector<uint32_t> words; };

struct Case {
  std::string name, cu, kernel, checks; dim3 block, grid; size_t smem;
  std::vector<HArg> args; std::vector<HDump> dumps; std::vector<HExpect> expects;
  Case(const char* n, const char* file, const char* k, dim3 b, dim3 g, size_t s, const char* what)
      : name(n), cu(file), kernel(k), checks(what), block(b), grid(g), smem(s) {}
  template <class T> T* buf(const std::string& spec) {
    HArg a; a.text = spec; a.init = fill_bytes(spec);
    CK(cudaMalloc(&a.dev, a.init.size()));
    CK(cudaMemcpy(a.dev, a.init.data(), a.init.size(), cudaMemcpyHostToDevice));
    args.push_back(a); return (T*)a.dev;
  }
  // Host copy of an input buffer's contents (for reference computations).
  const std::vector<uint8_t>& host(const void* p) { return args[index(p)].init; }
  int i32(int v) { HArg a; a.text = std::to_string(v); args.push_back(a); return v; }
  unsigned u32(unsigned v) { HArg a; a.text = std::to_string(v); args.push_back(a); return v; }
  float f32(float v) { char s[64]; snprintf(s, sizeof s, "%.9g", v); HArg a; a.text = s; args.push_back(a); return v; }
  void literal(const std::string& spelled) { HArg a; a.text = spelled; args.push_back(a); }
  int index(const void* p) {
    for (size_t i = 0; i < args.size(); i++) if (args[i].dev == p) return (int)i;
    fprintf(stderr, "%s: pointer is no buffer argument\n", name.c_str()); exit(1);
  }
  void dump(const void* p, const char* type, int count) { dumps.push_back(HDump{index(p), type, count}); }
  void expect(const void* p, const std::vector<uint32_t>& w) { expects.push_back(HExpect{index(p), w}); }
  static int esize(const std::string& t) { return (t == "i64" || t == "u64") ? 8 : 4; }
  std::vector<uint8_t> fetch(int param, size_t bytes) {
    std::vector<uint8_t> b(bytes);
    CK(cudaMemcpy(b.data(), args[param].dev, bytes, cudaMemcpyDeviceToHost));
    return b;
  }
  std::string values(const HDump& d) {
    std::vector<uint8_t> b = fetch(d.param, (size_t)d.count * esize(d.type));
    std::string s = "[";
    char tmp[64];
    for (int i = 0; i < d.count; i++) {
      uint32_t w; uint64_t q;
      memcpy(&w, b.data() + 4 * i, 4);
      if (esize(d.type) == 8) memcpy(&q, b.data() + 8 * i, 8);
      if (d.type == "hex") snprintf(tmp, sizeof tmp, "\"0x%08x\"", w);
      else if (d.type == "u32") snprintf(tmp, sizeof tmp, "%u", w);
      else if (d.type == "i32") snprintf(tmp, sizeof tmp, "%d", (int32_t)w);
      else if (d.type == "u64") snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)q);
      else snprintf(tmp, sizeof tmp, "%lld", (long long)q);
      if (i) s += ",";
      s += tmp;
    }
    return s + "]";
  }
  template <class F> void run(F launch) {
    std::vector<std::string> res[2];
    int ref = -1;
    for (int rep = 0; rep < 2; rep++) {
      for (auto& a : args)
        if (a.dev) CK(cudaMemcpy(a.dev, a.init.data(), a.init.size(), cudaMemcpyHostToDevice));
      CK(cudaDeviceSynchronize());
      launch();
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      for (auto& d : dumps) res[rep].push_back(values(d));
      if (rep == 0 && !expects.empty()) {
        ref = 1;
        for (auto& e : expects) {
          std::vector<uint32_t> got = words_of(fetch(e.param, e.words.size() * 4));
          for (size_t i = 0; i < got.size(); i++)
            if (got[i] != e.words[i]) {
              if (ref) fprintf(stderr, "%s: param %d word %zu: gpu 0x%08x, reference 0x%08x\n", name.c_str(), e.param, i, got[i], e.words[i]);
              ref = 0;
            }
        }
      }
    }
    const bool det = res[0] == res[1];
    std::string j = "{\"name\":\"" + name + "\",\"cu\":\"" + cu + "\",\"ptx\":\"" + cu.substr(0, cu.size() - 3) + ".ptx\"";
    j += ",\"kernel\":\"" + kernel + "\"";
    char tmp[256];
    snprintf(tmp, sizeof tmp, ",\"block\":[%u,%u,%u],\"grid\":[%u,%u,%u],\"smem\":%zu", block.x, block.y, block.z, grid.x, grid.y, grid.z, smem);
    j += tmp;
    j += ",\"args\":[";
    for (size_t i = 0; i < args.size(); i++) j += (i ? ",\"" : "\"") + args[i].text + "\"";
    j += "],\"dumps\":[";
    for (size_t i = 0; i < dumps.size(); i++) {
      snprintf(tmp, sizeof tmp, "%s{\"param\":\"%d\",\"type\":\"%s\",\"count\":%d,\"values\":", i ? "," : "", dumps[i].param, dumps[i].type.c_str(), dumps[i].count);
      j += tmp + res[0][i] + "}";
    }
    j += std::string("],\"deterministic\":") + (det ? "true" : "false");
    if (ref >= 0) j += std::string(",\"cpu_reference\":") + (ref ? "\"match\"" : "\"mismatch\"");
    j += ",\"checks\":\"" + checks + "\"}";
    const char* path = getenv("CASES");
    FILE* f = path ? fopen(path, "a") : stdout;
    fprintf(f, "%s\n", j.c_str());
    if (path) fclose(f);
    fprintf(stderr, "case %-28s deterministic=%d reference=%d\n", name.c_str(), (int)det, ref);
    for (auto& a : args) if (a.dev) CK(cudaFree(a.dev));
  }
};
// ---------------------------------------------------------------- end of host harness

int main() {
  const char* F = "reduce.cu";
  {
    Case c("reduce_i32_4x256", F, "reduce_sum_i32", dim3(256), dim3(4), 0,
           "int32 block sums of 4096 random words (shfl.down + smem), wrap-around, plus atomic grand total in out[4]");
    const int* in = c.buf<int>("buf:16384:random:1");
    const int n = c.i32(4096);
    int* out = c.buf<int>("buf:64");
    c.dump(out, "i32", 5);
    std::vector<uint32_t> w = words_of(c.host(in)), ref(5, 0);
    for (int i = 0; i < n; i++) { ref[(i % 1024) / 256] += w[i]; ref[4] += w[i]; }
    c.expect(out, ref);
    c.run([&] { reduce_sum_i32<<<c.grid, c.block, c.smem>>>(in, n, out); });
  }
  {
    Case c("reduce_i32_3x96_tail", F, "reduce_sum_i32", dim3(96), dim3(3), 0,
           "int32 block sums with n not a multiple of the grid (1000 of seq), 3 warps per block");
    const int* in = c.buf<int>("buf:4096:seq");
    const int n = c.i32(1000);
    int* out = c.buf<int>("buf:16");
    c.dump(out, "i32", 4);
    std::vector<uint32_t> ref(4, 0);
    for (int i = 0; i < n; i++) { ref[(i % 288) / 96] += (uint32_t)i; ref[3] += (uint32_t)i; }
    c.expect(out, ref);
    c.run([&] { reduce_sum_i32<<<c.grid, c.block, c.smem>>>(in, n, out); });
  }
  {
    Case c("reduce_f32_4x256", F, "reduce_sum_f32", dim3(256), dim3(4), 0,
           "float32 block sums: cvt.rn.f32.s32, fma/mul by 2^-10, shfl.bfly tree then shfl.down tree; bit-exact order");
    const uint32_t* in = c.buf<uint32_t>("buf:16384:random:2");
    const int n = c.i32(4096);
    const float scale = c.f32(0.0009765625f);
    float* out = c.buf<float>("buf:16");
    c.dump(out, "hex", 4);
    c.run([&] { reduce_sum_f32<<<c.grid, c.block, c.smem>>>(in, n, scale, out); });
  }
  {
    Case c("reduce_f64_2x256", F, "reduce_sum_f64", dim3(256), dim3(2), 0,
           "float64 block sums: cvt.rn.f64.s64, mul by 2^-40, shared-memory tree with __syncthreads");
    const uint64_t* in = c.buf<uint64_t>("buf:16384:random:3");
    const int n = c.i32(2048);
    const double scale = 9.094947017729282379150390625e-13;  // 2^-40
    c.literal("9.094947017729282379150390625e-13");
    double* out = c.buf<double>("buf:16");
    c.dump(out, "hex", 4);
    c.run([&] { reduce_sum_f64<<<c.grid, c.block, c.smem>>>(in, n, scale, out); });
  }
  {
    Case c("reduce_redux_2x128", F, "reduce_redux_u32", dim3(128), dim3(2), 0,
           "redux.sync add/min/max/and/or/xor .u32 and min/max .s32 per warp (8 warps x 8 words)");
    const uint32_t* in = c.buf<uint32_t>("buf:1024:random:4");
    uint32_t* out = c.buf<uint32_t>("buf:256");
    c.dump(out, "hex", 64);
    std::vector<uint32_t> w = words_of(c.host(in)), ref(64);
    for (int g = 0; g < 8; g++) {
      uint32_t a = 0, mn = ~0u, mx = 0, an = ~0u, o = 0, x = 0; int smn = INT32_MAX, smx = INT32_MIN;
      for (int l = 0; l < 32; l++) {
        uint32_t v = w[g * 32 + l];
        a += v; mn = v < mn ? v : mn; mx = v > mx ? v : mx; an &= v | (1u << l); o |= v & (v >> 7); x ^= v;
        smn = (int)v < smn ? (int)v : smn; smx = (int)v > smx ? (int)v : smx;
      }
      uint32_t r[8] = {a, mn, mx, an, o, x, (uint32_t)smn, (uint32_t)smx};
      for (int k = 0; k < 8; k++) ref[g * 8 + k] = r[k];
    }
    c.expect(out, ref);
    c.run([&] { reduce_redux_u32<<<c.grid, c.block, c.smem>>>(in, out); });
  }
  return 0;
}
