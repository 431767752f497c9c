// uldc_policy.cu: which line does the uniform datapath's constant cache replace? uldc_chain.cu: a uniform chase
// (ULDC c[0x3][UR]) hits every read through four 64-byte lines and misses through eight or sixteen more often than a
// four-line LRU cache would. This runs uldc_chain.cu's kernel (the same code, here uldc_policy; its mode 0, ULDC,
// USHF and ULOP3 a hop, 4096 hops from word 5) over tables that make the chase follow a designed order of lines, the
// order repeated (the words of each line used in turn):
//   0 A B C D (four lines, cyclic); 1 A B C D E (five, cyclic); 2 A B C D E F (six); 3 A B C D E F G H (eight);
//   4 A B A C A D A E (A every other hop, four others); 5 A B C D E D C B (back and forth over five);
//   6 A A B B C C D D E E (each line twice in a row, five lines).
// The host fills ctab with cudaMemcpyToSymbol (smsim: --symbol ctab=file:..., the same table). Row:
// pattern,cycles,x.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o uldc_policy uldc_policy.cu (and -cubin, -ptx;
// cuobjdump -sass uldc_policy.cubin)
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <vector>

constexpr int TRIPS = 512;
__constant__ uint32_t ctab[256];

template <int MODE> __device__ __noinline__ uint32_t chain(uint32_t x, uint32_t lane) {
#pragma unroll 1
  for (int n = 0; n < TRIPS; n++) {
#pragma unroll
    for (int i = 0; i < 8; i++) {
      if constexpr (MODE == 0) x = ctab[x & 255];
      if constexpr (MODE == 1) x = ctab[((x ^ 5) + 3) & 255];
      if constexpr (MODE == 2) x = ctab[((((x ^ 5) + 3) ^ 9) + 1) & 255];
      if constexpr (MODE == 3) x = ctab[(x + (lane >> 5)) & 255];
    }
  }
  return x;
}

__global__ void uldc_policy(int mode, long long* out, uint32_t* sink) {
  const uint32_t lane = threadIdx.x;
  uint32_t x = 5;
  const long long t0 = clock64();
  switch (mode) {
    case 0: x = chain<0>(x, lane); break;
    case 1: x = chain<1>(x, lane); break;
    case 2: x = chain<2>(x, lane); break;
    case 3: x = chain<3>(x, lane); break;
  }
  const long long t1 = clock64();
  if (lane == 0) { out[0] = t1 - t0; sink[0] = x; }
}

// table makes ctab's words chain through the lines of seq in order, repeated: a walk of V visits, V the sequence's
// length times 16 over the most times a line appears in it (so that no line has more than its 16 words), visit v
// at the next unused word of line seq[v % len], each word pointing at the next visit's, the last at the first.
static void table(const std::vector<int>& seq, uint32_t* h) {
  for (int i = 0; i < 256; i++) h[i] = 0;
  const int n = (int)seq.size();
  int count[16] = {0}, most = 0;
  for (int l : seq) {
    count[l]++;
    most = count[l] > most ? count[l] : most;
  }
  const int visits = n * (16 / most);
  std::vector<int> word(visits);
  int used[16] = {0};
  for (int v = 0; v < visits; v++) {
    const int line = seq[v % n];
    word[v] = line * 16 + used[line]++;
  }
  for (int v = 0; v < visits; v++) h[word[v]] = (uint32_t)word[(v + 1) % visits];
}

int main() {
  const std::vector<std::vector<int>> pats = {{0, 1, 2, 3}, {0, 1, 2, 3, 4}, {0, 1, 2, 3, 4, 5}, {0, 1, 2, 3, 4, 5, 6, 7},
                                              {0, 1, 0, 2, 0, 3, 0, 4}, {0, 1, 2, 3, 4, 3, 2, 1}, {0, 0, 1, 1, 2, 2, 3, 3, 4, 4}};
  long long* out;
  uint32_t* sink;
  cudaMalloc(&out, 8);
  cudaMalloc(&sink, 4);
  uint32_t h[256];
  printf("pattern,cycles,x\n");
  for (size_t p = 0; p < pats.size(); p++) {
    table(pats[p], h);
    cudaMemcpyToSymbol(ctab, h, sizeof h);
    long long c = 0;
    uint32_t x = 0;
    for (int run = 0; run < 3; run++) {
      uldc_policy<<<1, 32>>>(0, out, sink);
      if (cudaDeviceSynchronize() != cudaSuccess) { fprintf(stderr, "launch failed\n"); return 1; }
      cudaMemcpy(&c, out, 8, cudaMemcpyDeviceToHost);
      cudaMemcpy(&x, sink, 4, cudaMemcpyDeviceToHost);
    }
    printf("%zu,%lld,%u\n", p, c, x);
  }
  return 0;
}
