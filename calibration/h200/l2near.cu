// l2near.cu: whether an L2 hit costs the same from every SM for every line, or depends on where the line
// lies (the L2's two partitions) and on which SMs read it before. One thread on a chosen SM (the CTA of a
// 132-CTA launch whose %smid is the target; the others exit) chases 2048 lines chosen at random in an 8 MiB
// buffer with dependent ld.global.cg (the next address adds the loaded word, zeros), each load timed on its
// own: clock64 after a shared store of the loaded word (the store waits for the load, and the clock read
// issues after the store), minus the same clock after the load before. The buffer was last written by every
// SM (a kernel storing zeros) unless the row says otherwise.
//   first,SM,...      each SM's first touch of the lines after the zeroing kernel: its latencies' median,
//                     10th and 90th percentiles, how many exceed 330, 360 and 400 cycles, and for how many
//                     of the lines its "above 360" agrees with SM 0's.
//   seq,STEP,SM,...   one sequence after one zeroing: SM 0 first, SM 0 again, then an SM of each kind found
//                     by the first rows (same as SM 0, other than SM 0), then SM 0 again.
//   memset,SM,...     SM 0's first touch after a cudaMemset of the buffer instead of the kernel.
//   cap,MIB,...       SM 0 reads MIB MiB of a 64 MiB zeroed buffer once (one CTA, ld.global.cg), then chases
//                     2048 random lines of those MiB: how far-looking the lines of a larger footprint stay.
//   hist,CASE,BIN,N   latency histograms in 10-cycle bins for SM 0's first and second touch.
// Then after a cudaMemcpy from the host instead (the copy engine's writes, which no SM made):
//   home,LINE,CYCLES  SM 0's first touch of each of the 2048 lines (LINE: its index in the buffer).
//   side,SM,FAR,AGREE each SM's first touch: how many lines take over 440 cycles, and for how many lines that
//                     agrees with SM 0.
//   after,HOW,SM,FAR  SM 0 first reads the whole 8 MiB with bulk copies (HOW tma), stores to it from one CTA
//                     (store), or reads it with ld.global.cg (ldcg); then SM 0 and an SM that disagrees with it
//                     on every line chase: how many lines take over 440 cycles.
//   hist,dram,BIN,N   SM 0's chase after 256 MiB of other reads emptied L2 (every load from DRAM), and
//   dramline,LINE,CYCLES each line's.
// Build: nvcc -O3 -std=c++17 -arch=sm_90a -o l2near l2near.cu
#include "bench.h"

constexpr int kLines = 2048, kSMs = 132;

__device__ __forceinline__ uint32_t ld_cg(const uint32_t* p) {
  uint32_t x;
  asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(x) : "l"(p) : "memory");
  return x;
}

// clk_after: the clock after a shared store of v, which waits for v.
__device__ __forceinline__ long long clk_after(uint32_t v, uint32_t* sink) {
  long long c;
  asm volatile("st.volatile.shared.u32 [%1], %2;\n\tmov.u64 %0, %%clock64;" : "=l"(c) : "r"(sa(sink)), "r"(v) : "memory");
  return c;
}

__global__ void k_chase(const uint32_t* buf, const uint32_t* order, int n, int target, uint32_t* lat, int* ran) {
  __shared__ uint32_t ord[kLines], l[kLines], sink[32];
  uint32_t sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  if ((int)sm != target) return;
  __shared__ int mine;
  if (threadIdx.x == 0) mine = atomicAdd(ran, 1) == 0;  // one CTA of those on the target SM
  __syncthreads();
  if (!mine) return;
  for (int i = threadIdx.x; i < n; i += blockDim.x) ord[i] = order[i];
  __syncthreads();
  if (threadIdx.x != 0) return;
  uint32_t acc = 0;
  long long t = clk_after(acc, sink);
  for (int i = 0; i < n; i++) {
    acc = ld_cg(buf + (uint64_t)ord[i] * 32 + acc);
    const long long t1 = clk_after(acc, sink);
    l[i] = (uint32_t)(t1 - t);
    t = t1;
  }
  for (int i = 0; i < n; i++) lat[i] = l[i];
}

// k_read: the CTA on the target SM reads bytes of buf once with ld.global.cg.
__global__ void k_read(const uint32_t* buf, size_t words, int target, int* ran, uint32_t* out) {
  uint32_t sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  if ((int)sm != target) return;
  __shared__ int mine;
  if (threadIdx.x == 0) mine = atomicAdd(ran, 1) == 0;
  __syncthreads();
  if (!mine) return;
  uint32_t s = 0;
  for (size_t i = threadIdx.x; i < words; i += blockDim.x) s += ld_cg(buf + i);
  if (s == 12345) out[0] = s;
}

// k_bulk: the CTA on the target SM reads bytes of buf once with bulk copies of 16 KiB into shared memory,
// one at a time.
__global__ void k_bulk(const char* buf, size_t bytes, int target, int* ran) {
  __shared__ __align__(128) char slot[16 << 10];
  __shared__ __align__(8) uint64_t bar;
  uint32_t sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  if ((int)sm != target || threadIdx.x != 0) return;
  if (atomicAdd(ran, 1) != 0) return;
  mb_init(&bar, 1);
  fence_async();
  for (size_t off = 0, i = 0; off < bytes; off += sizeof slot, i++) {
    mb_arrive_tx(&bar, sizeof slot);
    bulk_g2s(slot, buf + off, sizeof slot, &bar);
    mb_wait(&bar, i & 1);
  }
}

// k_store: the CTA on the target SM stores zeros to words of buf.
__global__ void k_store(uint32_t* buf, size_t words, int target, int* ran) {
  uint32_t sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  if ((int)sm != target) return;
  __shared__ int mine;
  if (threadIdx.x == 0) mine = atomicAdd(ran, 1) == 0;
  __syncthreads();
  if (!mine) return;
  for (size_t i = threadIdx.x; i < words; i += blockDim.x) buf[i] = 0;
}

__global__ void k_sum(const uint32_t* p, size_t n, uint32_t* out) {
  uint32_t s = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) s += p[i];
  if (s == 12345) out[0] = s;
}

__global__ void k_zero(uint32_t* p, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) p[i] = 0;
}

struct Ctx {
  uint32_t *buf, *order, *lat, *out;
  int* ran;
  std::vector<uint32_t> h;
};

static void chase(Ctx& c, const uint32_t* buf, int sm) {
  CK(cudaMemset(c.ran, 0, sizeof(int)));
  k_chase<<<kSMs, 128>>>(buf, c.order, kLines, sm, c.lat, c.ran);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  int ran = 0;
  CK(cudaMemcpy(&ran, c.ran, sizeof ran, cudaMemcpyDeviceToHost));
  if (ran < 1) { fprintf(stderr, "no CTA ran on SM %d\n", sm); exit(1); }
  c.h.resize(kLines);
  CK(cudaMemcpy(c.h.data(), c.lat, kLines * sizeof(uint32_t), cudaMemcpyDeviceToHost));
}

static void zero(uint32_t* p, size_t words) {
  k_zero<<<4 * kSMs, 256>>>(p, words);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
}

static void summary(const char* tag, const std::vector<uint32_t>& h, const std::vector<uint32_t>* ref) {
  std::vector<uint32_t> s(h);
  std::sort(s.begin(), s.end());
  int a = 0, b = 0, c = 0, agree = 0;
  for (int i = 0; i < kLines; i++) {
    a += h[i] > 330;
    b += h[i] > 360;
    c += h[i] > 400;
    if (ref) agree += (h[i] > 360) == ((*ref)[i] > 360);
  }
  printf("%s,%u,%u,%u,%d,%d,%d,%d\n", tag, s[kLines / 2], s[kLines / 10], s[kLines * 9 / 10], a, b, c, ref ? agree : -1);
}

static void hist(const char* tag, const std::vector<uint32_t>& h) {
  std::vector<int> bins(100, 0);
  for (uint32_t v : h) bins[std::min<uint32_t>(v / 10, 99)]++;
  for (int i = 0; i < 100; i++)
    if (bins[i]) printf("hist,%s,%d,%d\n", tag, i * 10, bins[i]);
}

int main() {
  Ctx c;
  const size_t words = (8u << 20) / 4, big = (64u << 20) / 4;
  CK(cudaMalloc(&c.buf, big * 4));
  CK(cudaMalloc(&c.order, kLines * 4));
  CK(cudaMalloc(&c.lat, kLines * 4));
  CK(cudaMalloc(&c.out, 64));
  CK(cudaMalloc(&c.ran, sizeof(int)));
  // 2048 distinct random lines of the 65536 in 8 MiB
  std::vector<uint32_t> all(65536), ord(kLines);
  for (uint32_t i = 0; i < all.size(); i++) all[i] = i;
  srand(7);
  for (size_t i = all.size() - 1; i > 0; i--) std::swap(all[i], all[rand() % (i + 1)]);
  for (int i = 0; i < kLines; i++) ord[i] = all[i];
  CK(cudaMemcpy(c.order, ord.data(), kLines * 4, cudaMemcpyHostToDevice));

  // first touch of every SM
  std::vector<std::vector<uint32_t>> first(kSMs);
  for (int sm = 0; sm < kSMs; sm++) {
    zero(c.buf, words);
    chase(c, c.buf, sm);
    first[sm] = c.h;
  }
  int same = -1, other = -1, bestA = -1, worstA = kLines + 1;
  for (int sm = 0; sm < kSMs; sm++) {
    char tag[32];
    snprintf(tag, sizeof tag, "first,%d", sm);
    summary(tag, first[sm], &first[0]);
    int agree = 0;
    for (int i = 0; i < kLines; i++) agree += (first[sm][i] > 360) == (first[0][i] > 360);
    if (sm > 0 && agree > bestA) bestA = agree, same = sm;
    if (agree < worstA) worstA = agree, other = sm;
  }
  hist("first0", first[0]);

  // one sequence after one zeroing
  zero(c.buf, words);
  const int seq[] = {0, 0, same, other, 0};
  for (int k = 0; k < 5; k++) {
    chase(c, c.buf, seq[k]);
    char tag[32];
    snprintf(tag, sizeof tag, "seq,%d,%d", k, seq[k]);
    summary(tag, c.h, &first[0]);
    if (k == 1) hist("second0", c.h);
  }

  // after a cudaMemset
  CK(cudaMemset(c.buf, 0, words * 4));
  CK(cudaDeviceSynchronize());
  chase(c, c.buf, 0);
  summary("memset,0", c.h, &first[0]);
  hist("memset0", c.h);

  // footprints: SM 0 reads MIB MiB once, then chases 2048 random lines of them
  for (int mib : {1, 2, 4, 8, 12, 16, 24, 32, 48}) {
    const size_t fw = (size_t)mib << 18;  // words
    std::vector<uint32_t> lines(fw / 32), o(kLines);
    for (uint32_t i = 0; i < lines.size(); i++) lines[i] = i;
    for (size_t i = lines.size() - 1; i > 0; i--) std::swap(lines[i], lines[rand() % (i + 1)]);
    for (int i = 0; i < kLines; i++) o[i] = lines[i % lines.size()];
    CK(cudaMemcpy(c.order, o.data(), kLines * 4, cudaMemcpyHostToDevice));
    zero(c.buf, big);
    CK(cudaMemset(c.ran, 0, sizeof(int)));
    k_read<<<kSMs, 1024>>>(c.buf, fw, 0, c.ran, c.out);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    chase(c, c.buf, 0);
    char tag[32];
    snprintf(tag, sizeof tag, "cap,%d", mib);
    summary(tag, c.h, nullptr);
    // and from the other kind of SM
    chase(c, c.buf, other);
    snprintf(tag, sizeof tag, "capother,%d", mib);
    summary(tag, c.h, nullptr);
  }
  // after a cudaMemcpy from the host
  CK(cudaMemcpy(c.order, ord.data(), kLines * 4, cudaMemcpyHostToDevice));
  std::vector<uint32_t> zeros(words, 0);
  auto host = [&]() {
    CK(cudaMemcpy(c.buf, zeros.data(), words * 4, cudaMemcpyHostToDevice));
    CK(cudaDeviceSynchronize());
  };
  auto far = [](const std::vector<uint32_t>& h) {
    int n = 0;
    for (uint32_t v : h) n += v > 440;
    return n;
  };
  host();
  chase(c, c.buf, 0);
  std::vector<uint32_t> home0 = c.h;
  for (int i = 0; i < kLines; i++) printf("home,%u,%u\n", ord[i], home0[i]);
  hist("host0", home0);
  int opp = -1, oppAgree = kLines + 1;
  for (int sm = 0; sm < kSMs; sm++) {
    host();
    chase(c, c.buf, sm);
    int agree = 0;
    for (int i = 0; i < kLines; i++) agree += (c.h[i] > 440) == (home0[i] > 440);
    printf("side,%d,%d,%d\n", sm, far(c.h), agree);
    if (agree < oppAgree) oppAgree = agree, opp = sm;
  }
  for (const char* how : {"tma", "store", "ldcg"}) {
    host();
    CK(cudaMemset(c.ran, 0, sizeof(int)));
    if (how[0] == 't') k_bulk<<<kSMs, 32>>>((const char*)c.buf, words * 4, 0, c.ran);
    else if (how[0] == 's') k_store<<<kSMs, 1024>>>(c.buf, words, 0, c.ran);
    else k_read<<<kSMs, 1024>>>(c.buf, words, 0, c.ran, c.out);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    for (int sm : {0, opp}) {
      chase(c, c.buf, sm);
      printf("after,%s,%d,%d\n", how, sm, far(c.h));
    }
  }
  // from DRAM: 256 MiB of other reads first
  uint32_t* flush;
  const size_t fwords = (256u << 20) / 4;
  CK(cudaMalloc(&flush, fwords * 4));
  CK(cudaMemset(flush, 0, fwords * 4));
  host();
  k_sum<<<4 * kSMs, 256>>>(flush, fwords, c.out);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  chase(c, c.buf, 0);
  hist("dram", c.h);
  std::vector<uint32_t> dram0 = c.h;
  for (int i = 0; i < kLines; i++) printf("dramline,%u,%u\n", ord[i], dram0[i]);
  printf("done,ok,%d,%d\n", same, other);
  return 0;
}
