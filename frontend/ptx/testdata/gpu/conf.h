// Conformance harness: every kernel runs one block of N threads; each thread
// derives its inputs a, b, c from its index and writes one 64-bit result per
// operation to out[op*N + tid]. The host writes out as KERNEL.bin (little-endian
// uint64) and the operation texts as KERNEL.ops, one per line, so a simulator
// running the same PTX can compare bit for bit.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define N 256

__device__ __forceinline__ uint32_t mix32(uint32_t x) {
  x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
  return x;
}

__device__ __noinline__ uint32_t gen_int(uint32_t t, uint32_t k) {
  uint32_t h = mix32(t * 0x9E3779B9u + k * 0x85EBCA6Bu + 0x1234567u);
  uint32_t r = mix32(h ^ 0xdeadbeefu);
  switch (h & 7) {
  case 0: {
    const uint32_t sp[16] = {0, 1, 0xffffffffu, 2, 0x80000000u, 0x7fffffffu, 0x80, 0xff,
                             0xffff, 31, 32, 33, 63, 64, 0x8000, 0xfffffffeu};
    return sp[r & 15];
  }
  case 1: return r & 0xff;
  case 2: return r & 63;
  case 3: return (uint32_t)(-(int32_t)(r & 0xff));
  default: return r;
  }
}

__device__ __noinline__ uint64_t gen_i64(uint32_t t, uint32_t k) {
  uint32_t h = mix32(t * 0x2545F491u + k * 0x9E3779B9u + 77u);
  uint64_t r = ((uint64_t)mix32(h ^ 0x1111u) << 32) | mix32(h ^ 0x2222u);
  switch (h & 7) {
  case 0: {
    const uint64_t sp[8] = {0, 1, ~0ull, 0x8000000000000000ull, 0x7fffffffffffffffull, 0xffffffffull, 0x100000000ull, 63};
    return sp[r & 7];
  }
  case 1: return r & 0xffff;
  case 2: return (uint64_t)(int64_t)(int32_t)(uint32_t)r;
  case 3: return r & 127;
  default: return r;
  }
}

__device__ __noinline__ uint32_t gen_f32(uint32_t t, uint32_t k) {
  uint32_t h = mix32(t * 0x68E31DA4u + k * 0xB5297A4Du + 99u);
  uint32_t r = mix32(h ^ 0x5bd1e995u);
  uint32_t s = r & 0x80000000u;
  switch (h & 7) {
  case 0: {
    const uint32_t sp[24] = {0, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x7f800000u, 0xff800000u,
                             0x7fc00000u, 0x7f800001u, 0xffc00001u, 0x00800000u, 0x007fffffu, 1,
                             0x80000001u, 0x7f7fffffu, 0x3f000000u, 0x3fc00000u, 0x4b800000u, 0x40400000u,
                             0x3f800001u, 0x477fe000u, 0x477ff000u, 0x33800000u, 0x4f000000u, 0xcf000000u};
    return sp[r % 24];
  }
  case 1: case 2: case 3: return s | ((124u + (r >> 23) % 7u) << 23) | (mix32(r) & 0x7fffffu);
  case 4: return s | (((r >> 23) & 3u) << 23) | (mix32(r) & 0x7fffffu);
  case 5: return s | ((150u + (r >> 24) % 40u) << 23) | (mix32(r) & 0x7fffffu);
  default: return r;
  }
}

__device__ __noinline__ uint64_t gen_f64(uint32_t t, uint32_t k) {
  uint32_t h = mix32(t * 0x3C6EF372u + k * 0xA54FF53Au + 5u);
  uint64_t r = ((uint64_t)mix32(h ^ 0x77u) << 32) | mix32(h ^ 0x88u);
  uint64_t s = r & 0x8000000000000000ull, m = r & 0xfffffffffffffull;
  switch (h & 7) {
  case 0: {
    const uint64_t sp[16] = {0, 0x8000000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000000ull,
                             0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull,
                             0x7ff0000000000001ull, 0x0010000000000000ull, 0x000fffffffffffffull, 1,
                             0x7fefffffffffffffull, 0x3fe0000000000000ull, 0x41e0000000000000ull,
                             0x43e0000000000000ull, 0x3ff8000000000000ull};
    return sp[r & 15];
  }
  case 1: case 2: case 3: return s | ((uint64_t)(1020u + (h >> 8) % 7u) << 52) | m;
  case 4: return s | ((uint64_t)((h >> 8) & 3u) << 52) | m;
  case 5: return s | ((uint64_t)(1000u + (h >> 8) % 90u) << 52) | m;
  default: return r;
  }
}

// gen_h16 returns one 16-bit float pattern; bf selects bfloat16 specials and exponents.
__device__ __noinline__ uint32_t gen_h16(uint32_t t, uint32_t k, bool bf) {
  uint32_t h = mix32(t * 0x1B873593u + k * 0xCC9E2D51u + 3u);
  uint32_t r = mix32(h ^ 0x42u);
  uint32_t s = r & 0x8000u;
  if ((h & 7) == 0) {
    const uint16_t f16[16] = {0, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0x7c01,
                              0x0001, 0x03ff, 0x0400, 0x7bff, 0x3800, 0x3e00, 0x5bff, 0x8001};
    const uint16_t b16[16] = {0, 0x8000, 0x3f80, 0xbf80, 0x7f80, 0xff80, 0x7fc0, 0x7f81,
                              0x0001, 0x007f, 0x0080, 0x7f7f, 0x3f00, 0x3fc0, 0x4b80, 0x8001};
    return bf ? b16[r & 15] : f16[r & 15];
  }
  if ((h & 7) <= 4) {
    if (bf) return s | ((124u + (r >> 17) % 7u) << 7) | ((r >> 3) & 0x7fu);
    return s | ((12u + (r >> 17) % 7u) << 10) | ((r >> 3) & 0x3ffu);
  }
  return r & 0xffffu;
}

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

// dump runs kernel k (one block of N threads) and writes NAME.bin and NAME.ops.
static void dump(const char* name, void (*k)(uint64_t*), int nops, const char* const* texts) {
  uint64_t* d;
  CHECK(cudaMalloc(&d, (size_t)nops * N * 8));
  CHECK(cudaMemset(d, 0xee, (size_t)nops * N * 8));
  k<<<1, N>>>(d);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  uint64_t* h = (uint64_t*)malloc((size_t)nops * N * 8);
  CHECK(cudaMemcpy(h, d, (size_t)nops * N * 8, cudaMemcpyDeviceToHost));
  char fn[256];
  snprintf(fn, sizeof fn, "%s.bin", name);
  FILE* f = fopen(fn, "wb");
  fwrite(h, 8, (size_t)nops * N, f);
  fclose(f);
  snprintf(fn, sizeof fn, "%s.ops", name);
  f = fopen(fn, "w");
  for (int i = 0; i < nops; i++) fprintf(f, "%s\n", texts[i]);
  fclose(f);
  printf("%s: %d ops\n", name, nops);
  free(h);
  cudaFree(d);
}

// KERNEL defines kernel NAME over the op list LIST: inputs from GEN (T-typed,
// asm constraint C), results of asm constraint OC, type OT.
#define STR_(s) #s
#define TEXT(s) s,
#define COUNT(s) +1
