// app.h: the host harness of the application-style kernels (apps/h200/*.cu), host code only.
// Each case allocates its buffers exactly as smsim spells them (buf:SIZE[:FILL], FILL one of zero, seq,
// random:SEED, byte:0xNN, f32rand:SEED,
// f16int:SEED, e4m3int:SEED), launches the kernel four times without touching memory in between
// (the kernels' outputs are pure functions of their inputs, so every launch writes the same bytes; launches
// 2-4 find their inputs in L2 as `smsim run --launches 2` does), and prints one JSON line (a manifest case):
// the launch as smsim spells it, the cycles the kernel measured itself (its last parameter, clk[0]: thread 0's
// clock64() at the end minus at the start) over launches 2-4 (median, min, max), and each output buffer's
// FNV-1a 64 hash with its first words, after launch 4. "deterministic" says launches 1 and 4 wrote the same
// output bytes.
#pragma once
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error '%s' at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)

static uint64_t splitmix(uint64_t seed, uint64_t k) {
  uint64_t z = seed + (k + 1) * 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// The bytes of buf:SIZE[:FILL], as smsim generates them. f32rand:SEED: 32-bit word i is the float
// ((splitmix(SEED, i) >> 40) - 2^23) / 2^23, uniform in [-1, 1) on a grid of 2^-23 (exact in float32).
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
  } else if (fill.rfind("f32rand:", 0) == 0) {
    const uint64_t seed = strtoull(fill.c_str() + 8, nullptr, 0);
    for (size_t i = 0; i + 4 <= size; i += 4) {
      const float f = (float)((int64_t)(splitmix(seed, i / 4) >> 40) - (1 << 23)) * (1.0f / 8388608.0f);
      memcpy(b.data() + i, &f, 4);
    }
  } else if (fill.rfind("f16int:", 0) == 0 || fill.rfind("e4m3int:", 0) == 0) {
    // f16int:SEED: half-word k holds the integer (splitmix(SEED, k) >> 60) - 8 in float16; e4m3int:SEED: byte k
    // holds the same integer of output k in e4m3 (sign, 4 exponent bits biased by 7, 3 mantissa bits).
    const bool f16 = fill[0] == 'f';
    const uint64_t seed = strtoull(fill.c_str() + (f16 ? 7 : 8), nullptr, 0);
    const size_t es = f16 ? 2 : 1;
    for (size_t i = 0; i + es <= size; i += es) {
      int v = (int)(splitmix(seed, i / es) >> 60) - 8;
      uint32_t bits = 0;
      if (v != 0) {
        const uint32_t sign = v < 0 ? 1u : 0u;
        if (v < 0) v = -v;
        int e = 0;
        while ((1 << (e + 1)) <= v) e++;
        bits = f16 ? (sign << 15) | ((uint32_t)(e + 15) << 10) | ((uint32_t)(v << 10 >> e) & 0x3ff)
                   : (sign << 7) | ((uint32_t)(e + 7) << 3) | ((uint32_t)(v << 3 >> e) & 7);
      }
      for (size_t j = 0; j < es; j++) b[i + j] = (uint8_t)(bits >> (8 * j));
    }
  } else if (fill.rfind("byte:", 0) == 0) {
    memset(b.data(), (int)strtoul(fill.c_str() + 5, nullptr, 0), size);
  } else {
    fprintf(stderr, "bad buffer spelling %s\n", spec.c_str()); exit(1);
  }
  return b;
}

static uint64_t fnv1a64(const std::vector<uint8_t>& b) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (uint8_t c : b) { h ^= c; h *= 0x100000001b3ull; }
  return h;
}

struct AppArg { std::string text; void* dev = nullptr; size_t bytes = 0; bool output = false; };

struct AppCase {
  std::string bench, config, cu, kernel; dim3 block, grid; size_t smem;
  std::vector<AppArg> args;
  AppCase(const char* b, const std::string& cfg, const char* file, const char* k, dim3 blk, size_t s)
      : bench(b), config(cfg), cu(file), kernel(k), block(blk), grid(1), smem(s) {}
  // An input buffer, filled as smsim fills buf:SIZE:FILL.
  template <class T> T* in(const std::string& spec) {
    AppArg a; a.text = spec;
    std::vector<uint8_t> init = fill_bytes(spec);
    a.bytes = init.size();
    CK(cudaMalloc(&a.dev, a.bytes));
    CK(cudaMemcpy(a.dev, init.data(), a.bytes, cudaMemcpyHostToDevice));
    args.push_back(a); return (T*)a.dev;
  }
  // An output buffer (zero-filled), hashed after the run.
  template <class T> T* out(size_t bytes) {
    T* p = in<T>("buf:" + std::to_string(bytes));
    args.back().output = true;
    return p;
  }
  int i32(int v) { AppArg a; a.text = std::to_string(v); args.push_back(a); return v; }
  void literal(const std::string& s) { AppArg a; a.text = s; args.push_back(a); }
  std::vector<uint8_t> fetch(const AppArg& a) {
    std::vector<uint8_t> b(a.bytes);
    CK(cudaMemcpy(b.data(), a.dev, a.bytes, cudaMemcpyDeviceToHost));
    return b;
  }
  // run launches four times; clk is the kernel's last parameter (a buffer of at least 8 bytes).
  template <class F> void run(F launch) {
    const AppArg& clk = args.back();
    std::vector<double> cyc;
    std::vector<uint64_t> first;
    for (int rep = 0; rep < 4; rep++) {
      launch();
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      long long c = 0;
      CK(cudaMemcpy(&c, clk.dev, sizeof c, cudaMemcpyDeviceToHost));
      if (rep > 0) cyc.push_back((double)c);
      if (rep == 0)
        for (auto& a : args) if (a.output) first.push_back(fnv1a64(fetch(a)));
    }
    std::sort(cyc.begin(), cyc.end());
    std::string j = "{\"bench\":\"" + bench + "\",\"config\":\"" + config + "\",\"cu\":\"" + cu + "\",\"ptx\":\"" +
                    cu.substr(0, cu.size() - 3) + ".ptx\",\"kernel\":\"" + kernel + "\"";
    char tmp[256];
    snprintf(tmp, sizeof tmp, ",\"block\":[%u,%u,%u],\"grid\":[%u,%u,%u],\"smem\":%zu,\"launches\":2", block.x, block.y,
             block.z, grid.x, grid.y, grid.z, smem);
    j += tmp;
    j += ",\"args\":[";
    for (size_t i = 0; i < args.size(); i++) j += (i ? ",\"" : "\"") + args[i].text + "\"";
    snprintf(tmp, sizeof tmp, "],\"cycles\":{\"median\":%.0f,\"min\":%.0f,\"max\":%.0f,\"runs\":3},\"outputs\":[", cyc[1],
             cyc[0], cyc[2]);
    j += tmp;
    bool det = true;
    size_t k = 0;
    for (size_t i = 0; i < args.size(); i++) {
      if (!args[i].output) continue;
      std::vector<uint8_t> b = fetch(args[i]);
      const uint64_t h = fnv1a64(b);
      det = det && h == first[k];
      snprintf(tmp, sizeof tmp, "%s{\"param\":%zu,\"bytes\":%zu,\"fnv1a64\":\"0x%016llx\",\"first\":[", k ? "," : "", i,
               args[i].bytes, (unsigned long long)h);
      j += tmp;
      for (size_t w = 0; w < 8 && 4 * w + 4 <= b.size(); w++) {
        uint32_t v; memcpy(&v, b.data() + 4 * w, 4);
        snprintf(tmp, sizeof tmp, "%s\"0x%08x\"", w ? "," : "", v);
        j += tmp;
      }
      j += "]}";
      k++;
    }
    j += std::string("],\"deterministic\":") + (det ? "true" : "false") + "}";
    const char* path = getenv("CASES");
    FILE* f = path ? fopen(path, "a") : stdout;
    fprintf(f, "%s\n", j.c_str());
    if (path) fclose(f);
    fprintf(stderr, "%-12s %-32s %8.0f cycles (min %.0f max %.0f)%s\n", bench.c_str(), config.c_str(), cyc[1], cyc[0],
            cyc[2], det ? "" : " NONDETERMINISTIC");
    for (auto& a : args) if (a.dev) CK(cudaFree(a.dev));
  }
};

__device__ __forceinline__ long long app_clock() {
  long long c;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c) :: "memory");
  return c;
}

// app_warm spins every SM for about 50 ms so that the SM clock is up before the first timed launch (the
// cycle counts of memory-bound kernels depend on the clock: DRAM latency is fixed in nanoseconds).
__global__ void app_spin(long long cycles) {
  const long long t = clock64();
  while (clock64() - t < cycles) {
  }
}
static void app_warm() {
  app_spin<<<528, 128>>>(100000000LL);
  CK(cudaDeviceSynchronize());
}
