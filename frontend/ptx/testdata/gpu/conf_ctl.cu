// Control flow, CTA barriers, memory-ordering forms, cache hints, async
// copies and address-space queries written as inline PTX.
#include "conf.h"
#include "gsrc.h"

__constant__ unsigned ctab[4] = {5, 6, 7, 8};
__device__ unsigned gscratch[3 * N + 8];
#define OUT(v) out[(i++) * N + t] = (uint64_t)(v)

__global__ void k_ctl(uint64_t* out) {
  __shared__ int s[N];
  __shared__ __align__(16) unsigned long long cbuf[64];
  __shared__ unsigned cnt;
  uint32_t t = threadIdx.x, i = 0, r, q;
  uint32_t v = mix32(t + 5);
  int loc[4] = {(int)t, (int)v, 3, 4};
  if (t == 0) cnt = 0;
  s[t] = -1;
  __syncthreads();
  asm volatile("{\n\t.reg .b32 k;\n\tand.b32 k, %1, 3;\n"
               "$Lts: .branchtargets $L0, $L1, $L2, $L3;\n\tbrx.idx k, $Lts;\n"
               "$L0:\n\tmov.u32 %0, 10;\n\tbra.uni $Lend;\n$L1:\n\tmov.u32 %0, 20;\n\tbra.uni $Lend;\n"
               "$L2:\n\tmov.u32 %0, 30;\n\tbra.uni $Lend;\n$L3:\n\tmul.lo.u32 %0, %1, 3;\n$Lend:\n}" : "=r"(r) : "r"(v));
  OUT(r);
  asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; bar.red.popc.u32 %0, 1, p; }" : "=r"(r) : "r"(v & 2));
  OUT(r);
  asm volatile("{ .reg .pred p, d; setp.ne.u32 p, %1, 0; bar.red.or.pred d, 1, !p; selp.u32 %0, 1, 0, d; }" : "=r"(r) : "r"((unsigned)(t != 9)));
  OUT(r);
  asm volatile("{ .reg .pred p, d; setp.lt.u32 p, %1, 250; bar.red.and.pred d, 2, p; selp.u32 %0, 1, 0, d; }" : "=r"(r) : "r"(t));
  OUT(r);
  if (t >= 128) {
    s[t] = (int)(v & 0xffff);
    asm volatile("bar.arrive 3, 256;" ::: "memory");
    asm volatile("bar.sync 4, 128;" ::: "memory");
    OUT(s[t - 128]);
  } else {
    asm volatile("bar.sync 3, 256;" ::: "memory");
    OUT(s[t + 128]);
    s[t] = (int)t * 9;
    asm volatile("barrier.sync.aligned 5, 128;" ::: "memory");
  }
  __syncthreads();
  asm volatile("{ .reg .pred p; .reg .b32 l; elect.sync l|p, 0xffffffff; selp.u32 %0, 1000, 0, p; add.u32 %0, %0, l; }" : "=r"(r));
  OUT(r);
  if (v & 1) {
    asm volatile("{ .reg .pred p; .reg .b32 l, m; activemask.b32 m; elect.sync l|p, m; selp.u32 %0, 1000, 0, p; add.u32 %0, %0, l; }" : "=r"(r));
    __syncwarp(__activemask());
  } else r = 77;
  __syncwarp();
  OUT(r);
  asm volatile("{ .reg .pred p, d; setp.ne.u32 p, %1, 0; vote.sync.uni.pred d, p, 0xffffffff; selp.u32 %0, 1, 0, d; }" : "=r"(r) : "r"((unsigned)(t < 512)));
  OUT(r);
  asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; vote.sync.ballot.b32 %0, !p, 0xffffffff; }" : "=r"(r) : "r"(v & 4));
  OUT(r);
  asm volatile("{ .reg .pred p; shfl.sync.down.b32 %0|p, %2, 5, 0x1f, 0xffffffff; selp.u32 %1, 1, 0, p; }" : "=r"(r), "=r"(q) : "r"(v));
  OUT(r); OUT(q);
  asm volatile("{ .reg .pred p; shfl.sync.up.b32 %0|p, %2, 2, 0x800, 0xffffffff; selp.u32 %1, 1, 0, p; }" : "=r"(r), "=r"(q) : "r"(v));
  OUT(r); OUT(q);
  asm volatile("{ .reg .pred p; shfl.sync.idx.b32 %0|p, %2, %3, 0x181f, 0xffffffff; selp.u32 %1, 1, 0, p; }" : "=r"(r), "=r"(q) : "r"(v), "r"(v >> 27));
  OUT(r); OUT(q);
  asm volatile("{ .reg .pred p; shfl.sync.bfly.b32 %0|p, %2, 6, 0x0c1f, 0xffffffff; selp.u32 %1, 1, 0, p; }" : "=r"(r), "=r"(q) : "r"(v));
  OUT(r); OUT(q);
  asm volatile("{ .reg .pred p; match.all.sync.b32 %0|p, %2, 0xffffffff; selp.u32 %1, 1, 0, p; }" : "=r"(r), "=r"(q) : "r"(t >> 5));
  OUT(r); OUT(q);
  asm volatile("redux.sync.min.s32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(v));
  OUT(r);
  asm volatile("redux.sync.max.u32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(v));
  OUT(r);
  OUT(__isShared(&s[0]) | __isGlobal(out) << 1 | __isLocal(loc) << 2 | __isConstant(ctab) << 3 | __isShared(out) << 4 |
      __isGlobal(&s[1]) << 5);
  OUT((unsigned)(__cvta_generic_to_shared(&s[t]) - __cvta_generic_to_shared(&s[0])));
  { unsigned a = (unsigned)__cvta_generic_to_shared(&s[t]), m;
    asm volatile("mapa.shared::cluster.u32 %0, %1, 0;" : "=r"(m) : "r"(a));
    OUT(m - a);
    asm volatile("getctarank.shared::cluster.u32 %0, %1;" : "=r"(m) : "r"(a));
    OUT(m); }
  { unsigned x, y, z, w;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(x)); asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(y));
    asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(z)); asm volatile("mov.u32 %0, %%nctaid.x;" : "=r"(w));
    OUT(x | y << 4 | (unsigned long long)z << 8 | (unsigned long long)w << 40); }
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("fence.acq_rel.gpu;\n\tmembar.cta;\n\tfence.proxy.async;\n\tfence.sc.cta;\n\tfence.mbarrier_init.release.cluster;" ::: "memory");
  __nanosleep(100);
  {
    unsigned* g = gscratch;
    unsigned x;
    asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" :: "l"(g + t), "r"(v) : "memory");
    asm volatile("st.release.gpu.global.L1::no_allocate.u32 [%0], %1;" :: "l"(g + N + t), "r"(v ^ 1) : "memory");
    __syncthreads();
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(x) : "l"(g + (t ^ 1)) : "memory");
    OUT(x);
    asm volatile("ld.relaxed.cta.global.L1::evict_last.u32 %0, [%1];" : "=r"(x) : "l"(g + N + (t ^ 3)) : "memory");
    OUT(x);
    asm volatile("ld.volatile.global.L2::128B.u32 %0, [%1];" : "=r"(x) : "l"(g + ((t + 9) & (N - 1))) : "memory");
    OUT(x);
    unsigned long long pol;
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(pol));
    asm volatile("ld.global.L2::cache_hint.u32 %0, [%1], %2;" : "=r"(x) : "l"(g + ((t + 2) & (N - 1))), "l"(pol) : "memory");
    OUT(x);
    asm volatile("prefetch.global.L2 [%0];" :: "l"(g));
    unsigned a4, b4, c4, d4;
    asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(a4), "=r"(b4), "=r"(c4), "=r"(d4) : "l"(gsrc + (t & 31) * 2));
    OUT(a4 ^ b4 ^ c4 ^ d4);
    asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], %2;" : "=r"(x) : "l"(g + 2 * N), "r"(0u) : "memory");
    asm volatile("red.release.gpu.global.add.u32 [%0], %1;" :: "l"(g + 2 * N + 1), "r"(t) : "memory");
    asm volatile("red.relaxed.gpu.global.max.s32 [%0], %1;" :: "l"(g + 2 * N + 2), "r"(v) : "memory");
    asm volatile("atom.shared::cta.add.u32 %0, [%1], 1;" : "=r"(x) : "r"((unsigned)__cvta_generic_to_shared(&cnt)) : "memory");
    __syncthreads();
    OUT(g[2 * N + 1]); OUT(g[2 * N + 2]); OUT(cnt);
  }
  {
    unsigned sa = (unsigned)__cvta_generic_to_shared(&cbuf[0]);
    if (t < 32) {
      asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" :: "r"(sa + t * 8), "l"(gsrc + t) : "memory");
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(sa + 256 + (t & 15) * 16), "l"(gsrc + 32 + (t & 15) * 2) : "memory");
      asm volatile("cp.async.commit_group;" ::: "memory");
      asm volatile("cp.async.wait_group 0;" ::: "memory");
      asm volatile("cp.async.ca.shared.global [%0], [%1], 8, 4;" :: "r"(sa + 384 + (t & 15) * 8), "l"(gsrc + t) : "memory");
      asm volatile("cp.async.wait_all;" ::: "memory");
    }
    __syncthreads();
    OUT(cbuf[t & 63]);
  }
  OUT(loc[v & 3]);
}

static const char* const texts[] = {
  "brx.idx", "bar.red.popc", "bar.red.or", "bar.red.and", "bar.arrive/sync named", "elect full", "elect divergent",
  "vote.uni", "vote.ballot !p", "shfl.down p|q val", "shfl.down pred", "shfl.up seg val", "shfl.up pred",
  "shfl.idx seg val", "shfl.idx pred", "shfl.bfly seg val", "shfl.bfly pred", "match.all val", "match.all pred",
  "redux.min.s32", "redux.max.u32", "isspacep", "cvta.to.shared delta", "mapa delta", "getctarank", "cluster/lanemask/nctaid",
  "ld.acquire", "ld.relaxed evict_last", "ld.volatile L2::128B", "ld cache_hint", "ld.nc.v4", "red.add", "red.max",
  "shared atom cnt", "cp.async", "local loc"};

int main() {
  int n = sizeof texts / sizeof texts[0];
  dump("k_ctl", k_ctl, n, texts);
  return 0;
}
