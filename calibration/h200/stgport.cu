// stgport.cu: how fast one SM's warps can store to L2, by the lines and sectors a warp store touches, and what
// those stores take from the bulk copies streaming into the SM at the same time (a GEMM's epilogue against its
// next tiles' copies). A buffer of 4 MiB, L2-resident (the same bytes every launch); W warps each issue REPS
// 64-bit or 128-bit stores (st.global, unrolled by 8) in one of four patterns:
//   rows8:  lane l stores 8 bytes at row l/4, column 8*(l%4) of a 2 KiB-stride matrix, 32 bytes further along
//           each store: 8 lines, one 32-byte sector each (the wgmma accumulator layout's float2 epilogue);
//   line:   lane l stores 4 bytes at 4*l: one whole line;
//   line4:  lane l stores 16 bytes at 16*l: four whole lines;
//   spread: lane l stores 4 bytes at 128*l: 32 lines, 4 bytes each.
// Each warp's lane 0 records clock64 before its first store, after its last store issued, and after a
// __threadfence() (membar.gl: the stores acknowledged). Rows stgport,<pattern>_warps<W>,cycles_per_store_issue
// and cycles_per_store_done: (latest warp's issue end (done) - earliest start) / (W * REPS).
// k_mix: warp 4 lane 0 streams C = 128 1-D bulk copies of 16 KiB from a 1 MiB L2-resident buffer into four
// 16 KiB slots (four in flight, one mbarrier a slot) while warps 0-3 store rows8 (REPS each) or nothing. Rows
// stgport,mix_<copies|stores|both>,{copy_bytes_per_cycle,cycles_per_store_done}.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o stgport stgport.cu
#include "bench.h"

constexpr int REPS = 256;

template <int PAT> __device__ __forceinline__ void store_one(uint8_t* buf, int warp, int lane, int r, float v) {
  if (PAT == 0) {
    float2* p = (float2*)(buf + (size_t)(warp * 8 + lane / 4) * 2048 + 8 * (lane % 4) + 32 * (r % 64) + 16384 * (r / 64));
    *p = make_float2(v, v);
  } else if (PAT == 1) {
    ((float*)(buf + (size_t)(warp * REPS + r) * 128))[lane] = v;
  } else if (PAT == 2) {
    ((float4*)(buf + (size_t)(warp * REPS + r) * 512))[lane] = make_float4(v, v, v, v);
  } else {
    *(float*)(buf + (size_t)(warp * REPS + r) * 4 + 128 * lane + ((size_t)(warp * REPS + r) / 32) * 4096) = v;
  }
}

template <int PAT> __global__ void k_store(uint8_t* buf, long long* out) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const float v = (float)threadIdx.x;
  __syncthreads();
  const long long t0 = clk();
#pragma unroll 8
  for (int r = 0; r < REPS; r++) store_one<PAT>(buf, warp, lane, r, v);
  const long long t1 = clk();
  __threadfence();
  const long long t2 = clk();
  if (lane == 0) {
    out[3 * warp] = t0;
    out[3 * warp + 1] = t1;
    out[3 * warp + 2] = t2;
  }
}

constexpr int C = 128, SLOT = 16384;

__global__ void k_mix(uint8_t* buf, const uint8_t* src, int stores, int copies, long long* out) {
  extern __shared__ __align__(128) uint8_t slots[];
  __shared__ __align__(8) uint64_t bar[4];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (threadIdx.x == 0) {
    for (int s = 0; s < 4; s++) mb_init(&bar[s], 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  if (warp < 4 && stores) {
    const float v = (float)threadIdx.x;
    const long long t0 = clk();
#pragma unroll 8
    for (int r = 0; r < REPS; r++) store_one<0>(buf, warp, lane, r, v);
    __threadfence();
    const long long t1 = clk();
    if (lane == 0) {
      out[2 * warp] = t0;
      out[2 * warp + 1] = t1;
    }
  } else if (warp == 4 && lane == 0 && copies) {
    const long long t0 = clk();
    for (int c = 0; c < C; c++) {
      const int s = c % 4;
      if (c >= 4) mb_wait(&bar[s], ((c / 4) - 1) & 1);
      mb_arrive_tx(&bar[s], SLOT);
      bulk_g2s(slots + s * SLOT, src + (size_t)(c % 64) * SLOT, SLOT, &bar[s]);
    }
    for (int c = C - 4; c < C; c++) mb_wait(&bar[c % 4], (c / 4) & 1);
    const long long t1 = clk();
    out[8] = t0;
    out[9] = t1;
  }
}

static double median3(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <int PAT> static void store_rows(const char* name, uint8_t* buf, long long* dout) {
  for (int w : {1, 4, 8, 16}) {
    std::vector<double> iss, done;
    for (int r = 0; r < 4; r++) {
      k_store<PAT><<<1, 32 * w>>>(buf, dout);
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      std::vector<long long> v(3 * w);
      CK(cudaMemcpy(v.data(), dout, v.size() * 8, cudaMemcpyDeviceToHost));
      long long lo = v[0], hi1 = 0, hi2 = 0;
      for (int i = 0; i < w; i++) lo = std::min(lo, v[3 * i]), hi1 = std::max(hi1, v[3 * i + 1]), hi2 = std::max(hi2, v[3 * i + 2]);
      if (r > 0) iss.push_back((double)(hi1 - lo) / (w * REPS)), done.push_back((double)(hi2 - lo) / (w * REPS));
    }
    printf("stgport,%s_warps%d,cycles_per_store_issue,%.2f\n", name, w, median3(iss));
    printf("stgport,%s_warps%d,cycles_per_store_done,%.2f\n", name, w, median3(done));
  }
}

int main() {
  uint8_t *buf, *src;
  long long* dout;
  CK(cudaMalloc(&buf, 4 << 20));
  CK(cudaMalloc(&src, 1 << 20));
  CK(cudaMemset(buf, 0, 4 << 20));
  CK(cudaMemset(src, 1, 1 << 20));
  CK(cudaMalloc(&dout, 64 * sizeof(long long)));
  store_rows<0>("rows8", buf, dout);
  store_rows<1>("line", buf, dout);
  store_rows<2>("line4", buf, dout);
  store_rows<3>("spread", buf, dout);
  const int smem = 4 * SLOT;
  CK(cudaFuncSetAttribute(k_mix, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  static const char* names[3] = {"copies", "stores", "both"};
  for (int m = 0; m < 3; m++) {
    const int stores = m != 0, copies = m != 1;
    std::vector<double> bw, st;
    for (int r = 0; r < 4; r++) {
      k_mix<<<1, 160, smem>>>(buf, src, stores, copies, dout);
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      std::vector<long long> v(10);
      CK(cudaMemcpy(v.data(), dout, v.size() * 8, cudaMemcpyDeviceToHost));
      long long lo = v[0], hi = 0;
      for (int i = 0; i < 4; i++) lo = std::min(lo, v[2 * i]), hi = std::max(hi, v[2 * i + 1]);
      if (r > 0) {
        if (copies) bw.push_back((double)C * SLOT / (v[9] - v[8]));
        if (stores) st.push_back((double)(hi - lo) / (4 * REPS));
      }
    }
    if (copies) printf("stgport,mix_%s,copy_bytes_per_cycle,%.2f\n", names[m], median3(bw));
    if (stores) printf("stgport,mix_%s,cycles_per_store_done,%.2f\n", names[m], median3(st));
  }
  return 0;
}
