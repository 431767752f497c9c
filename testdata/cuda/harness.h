// harness.h: the host harness shared by every testdata/cuda/*.cu (host code only: the PTX does not change).
#pragma once
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

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
