#!/usr/bin/env python3
"""wgmma_gen.py: writes wgmma_probe.cu (the H200 probe of wgmma.mma_async).

The inline-assembly operand lists of wgmma (up to 128 accumulator registers)
are too long to write by hand; this script spells them out. Run it from this
folder: python3 wgmma_gen.py > wgmma_probe.cu. docs/wgmma.md says what the
probe measures and how its outputs are used.
"""

# Functional variants: (name, dtype, atype, btype, N, A from registers,
# imm-scale-a, imm-scale-b, imm-trans-a, imm-trans-b, satfinite).
VARIANTS = [
    ("f16_f32_ss", "f32", "f16", "f16", 64, False, 1, 1, 0, 0, False),
    ("f16_f32_rs", "f32", "f16", "f16", 64, True, 1, 1, 0, 0, False),
    ("f16_f32_rs_tb", "f32", "f16", "f16", 64, True, 1, 1, 0, 1, False),
    ("f16_f32_ss_tt", "f32", "f16", "f16", 64, False, 1, 1, 1, 1, False),
    ("f16_f32_ss_nega", "f32", "f16", "f16", 64, False, -1, 1, 0, 0, False),
    ("f16_f32_ss_negb", "f32", "f16", "f16", 64, False, 1, -1, 0, 0, False),
    ("f16_f16_ss", "f16", "f16", "f16", 64, False, 1, 1, 0, 0, False),
    ("bf16_f32_ss", "f32", "bf16", "bf16", 64, False, 1, 1, 0, 0, False),
    ("bf16_f32_rs", "f32", "bf16", "bf16", 64, True, 1, 1, 0, 0, False),
    ("tf32_f32_ss", "f32", "tf32", "tf32", 64, False, 1, 1, 0, 0, False),
    ("tf32_f32_rs", "f32", "tf32", "tf32", 64, True, 1, 1, 0, 0, False),
    ("e4m3_f32_ss", "f32", "e4m3", "e4m3", 64, False, 1, 1, 0, 0, False),
    ("e5m2_f32_ss", "f32", "e5m2", "e5m2", 64, False, 1, 1, 0, 0, False),
    ("e4m3e5m2_f16_ss", "f16", "e4m3", "e5m2", 64, False, 1, 1, 0, 0, False),
    ("e4m3_f32_rs_neg", "f32", "e4m3", "e4m3", 64, True, -1, 1, 0, 0, False),
    ("s8_s32_ss", "s32", "s8", "s8", 64, False, 1, 1, 0, 0, False),
    ("u8s8_s32_ss", "s32", "u8", "s8", 64, False, 1, 1, 0, 0, False),
    ("s8_s32_ss_sat", "s32", "s8", "s8", 64, False, 1, 1, 0, 0, True),
    ("f16_f32_ss_n24", "f32", "f16", "f16", 24, False, 1, 1, 0, 0, False),
]

KOF = {"f16": 16, "bf16": 16, "tf32": 8, "e4m3": 32, "e5m2": 32, "s8": 32, "u8": 32}
TCODE = {"f16": 1, "bf16": 2, "tf32": 3, "e4m3": 4, "e5m2": 5, "s8": 6, "u8": 7}
DCODE = {"f32": 0, "f16": 1, "s32": 2}


def nregs(d, n):
    return n // 4 if d == "f16" else n // 2


def mma_asm(d, a, b, n, regs_a, sa, sb, ta, tb, sat):
    """The asm statement of one wgmma.mma_async on arrays d[] (and a[])."""
    nr = nregs(d, n)
    k = KOF[a]
    sat_s = ".satfinite" if sat else ""
    op = f"wgmma.mma_async.sync.aligned.m64n{n}k{k}{sat_s}.{d}.{a}.{b}"
    dl = ", ".join(f"%{i}" for i in range(nr))
    i = nr
    if regs_a:
        aop = "{" + ", ".join(f"%{i + j}" for j in range(4)) + "}"
        i += 4
    else:
        aop = f"%{i}"
        i += 1
    bop = f"%{i}"
    i += 1
    sd = f"%{i}"
    imms = []
    if a in ("f16", "bf16"):
        imms = [sa, sb] + ([tb] if regs_a else [ta, tb])
    elif a in ("tf32", "e4m3", "e5m2"):
        imms = [sa, sb]
    tail = "".join(f", {v}" for v in imms)
    body = (f'"{{\\n.reg .pred p;\\nsetp.ne.b32 p, {sd}, 0;\\n'
            f'{op} {{{dl}}}, {aop}, {bop}, p{tail};\\n}}\\n"')
    cons = '"+f"' if d == "f32" else '"+r"'
    outs = ", ".join(f"{cons}(d[{j}])" for j in range(nr))
    ins = []
    if regs_a:
        ins += [f'"r"(a[{j}])' for j in range(4)]
    else:
        ins += ['"l"(da)']
    ins += ['"l"(db)', '"r"(sd)']
    return f"asm volatile({body}\n    : {outs}\n    : {', '.join(ins)});"


def variant_fn(idx, v):
    name, d, a, b, n, regs_a, sa, sb, ta, tb, sat = v
    nr = nregs(d, n)
    ctype = "float" if d == "f32" else "uint32_t"
    s = f"// variant {idx}: {name}\n"
    s += (f"__device__ __forceinline__ void mma_v{idx}({ctype} (&d)[{nr}], const uint32_t (&a)[4], "
          f"uint64_t da, uint64_t db, int sd) {{\n")
    s += "  (void)a; (void)da;\n  " + mma_asm(d, a, b, n, regs_a, sa, sb, ta, tb, sat) + "\n}\n"
    return s


def func_kernel(idx, v):
    name, d, a, b, n, regs_a, sa, sb, ta, tb, sat = v
    nr = nregs(d, n)
    ctype = "float" if d == "f32" else "uint32_t"
    return f"""
extern "C" __global__ void __launch_bounds__(128, 1) wg_{name}(const uint8_t* img, const uint32_t* aregs,
    const uint32_t* cregs, uint32_t* dout, const uint64_t* descs, const int* sdv, uint32_t* base_out) {{
  extern __shared__ __align__(1024) uint8_t sm_raw[];
  uint32_t raw = (uint32_t)__cvta_generic_to_shared(sm_raw);
  uint32_t base = (raw + 1023u) & ~1023u;
  uint8_t* sm = sm_raw + (base - raw);
  const int cta = blockIdx.x, t = threadIdx.x;
  const uint8_t* src = img + (size_t)cta * IMG;
  for (int i = t * 16; i < IMG; i += 128 * 16) *(uint4*)(sm + i) = *(const uint4*)(src + i);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  {ctype} d[{nr}];
  uint32_t a[4];
  const uint32_t* c = cregs + ((size_t)cta * 128 + t) * {nr};
#pragma unroll
  for (int i = 0; i < {nr}; i++) {{ uint32_t x = c[i]; memcpy(&d[i], &x, 4); }}
#pragma unroll
  for (int i = 0; i < 4; i++) a[i] = aregs[((size_t)cta * 128 + t) * 4 + i];
  uint64_t da = descs[2 * cta] + (base >> 4), db = descs[2 * cta + 1] + (base >> 4);
  int sd = sdv[cta];
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  mma_v{idx}(d, a, da, db, sd);
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  uint32_t* o = dout + ((size_t)cta * 128 + t) * {nr};
#pragma unroll
  for (int i = 0; i < {nr}; i++) {{ uint32_t x; memcpy(&x, &d[i], 4); o[i] = x; }}
  if (t == 0) base_out[cta] = base;
}}
"""


# Timing variants: (name, dtype, atype, btype, N, A from registers).
TIMING = [
    ("f16_f32_n256_ss", "f32", "f16", "f16", 256, False),
    ("f16_f32_n128_ss", "f32", "f16", "f16", 128, False),
    ("f16_f32_n64_ss", "f32", "f16", "f16", 64, False),
    ("f16_f32_n32_ss", "f32", "f16", "f16", 32, False),
    ("f16_f32_n16_ss", "f32", "f16", "f16", 16, False),
    ("f16_f32_n8_ss", "f32", "f16", "f16", 8, False),
    ("f16_f32_n256_rs", "f32", "f16", "f16", 256, True),
    ("f16_f16_n256_ss", "f16", "f16", "f16", 256, False),
    ("bf16_f32_n256_ss", "f32", "bf16", "bf16", 256, False),
    ("tf32_f32_n256_ss", "f32", "tf32", "tf32", 256, False),
    ("e4m3_f32_n256_ss", "f32", "e4m3", "e4m3", 256, False),
    ("e4m3_f16_n256_ss", "f16", "e4m3", "e4m3", 256, False),
    ("s8_s32_n224_ss", "s32", "s8", "s8", 224, False),
    ("s8_s32_n128_ss", "s32", "s8", "s8", 128, False),
]


def timing_kernel(v):
    name, d, a, b, n, regs_a = v
    nr = nregs(d, n)
    ctype = "float" if d == "f32" else "uint32_t"
    asm = mma_asm(d, a, b, n, regs_a, 1, 1, 0, 0, False)
    return f"""
// timing: {name}. mode 0: ITERS wgmma back to back, one commit, wait_group 0 (throughput);
// mode 1: each wgmma committed and waited (wait_group 0: latency of a dependent chain);
// mode 2: each wgmma committed, wait_group 1 (one group in flight behind the newest).
extern "C" __global__ void __launch_bounds__(256, 1) tm_{name}(long long* out, int iters, int mode) {{
  extern __shared__ __align__(1024) uint8_t sm_raw[];
  uint32_t raw = (uint32_t)__cvta_generic_to_shared(sm_raw);
  uint32_t base = (raw + 1023u) & ~1023u;
  uint8_t* sm = sm_raw + (base - raw);
  const int t = threadIdx.x;
  for (int i = t * 2; i < 40960; i += blockDim.x * 2) *(uint16_t*)(sm + i) = (uint16_t)(0x3000 + (i * 37 & 0x3ff));
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  {ctype} d[{nr}];
#pragma unroll
  for (int i = 0; i < {nr}; i++) d[i] = 0;
  uint32_t a[4] = {{0x3c003c00u, 0x3c003c00u, 0x3c003c00u, 0x3c003c00u}};
  // K-major, 128B swizzle: A 64 rows x 128 B (8 KiB), B {n} rows x 128 B after it.
  uint64_t desc = (1ull << 62) | (64ull << 32) | (1ull << 16);
  uint64_t da = desc | (base >> 4), db = desc | ((base + 8192) >> 4);
  int sd = 1;
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  long long t0 = clock64();
  if (mode == 0) {{
    for (int it = 0; it < iters; it++) {{
      {asm}
    }}
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  }} else if (mode == 1) {{
    for (int it = 0; it < iters; it++) {{
      {asm}
      asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
      asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    }}
  }} else {{
    for (int it = 0; it < iters; it++) {{
      {asm}
      asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
      asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
    }}
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  }}
  long long t1 = clock64();
  uint32_t acc = 0;
#pragma unroll
  for (int i = 0; i < {nr}; i++) {{ uint32_t x; memcpy(&x, &d[i], 4); acc ^= x; }}
  if ((t & 31) == 0) {{ out[(t >> 5) * 3] = t0; out[(t >> 5) * 3 + 1] = t1; out[(t >> 5) * 3 + 2] = acc; }}
}}
"""


def main():
    out = [HEADER]
    for i, v in enumerate(VARIANTS):
        out.append(variant_fn(i, v))
        out.append(func_kernel(i, v))
    for v in TIMING:
        out.append(timing_kernel(v))
    table = []
    for i, v in enumerate(VARIANTS):
        name, d, a, b, n, regs_a, sa, sb, ta, tb, sat = v
        table.append(f'  {{"{name}", (const void*)wg_{name}, {DCODE[d]}, {TCODE[a]}, {TCODE[b]}, {n}, {int(regs_a)}, '
                     f'{sa}, {sb}, {ta}, {tb}, {int(sat)}, {nregs(d, n)}}},')
    out.append("static const Variant VARIANTS[] = {\n" + "\n".join(table) + "\n};\n")
    tt = []
    for v in TIMING:
        name, d, a, b, n, regs_a = v
        tt.append(f'  {{"{name}", (const void*)tm_{name}, {n}, {KOF[a]}}},')
    out.append("static const Timing TIMINGS[] = {\n" + "\n".join(tt) + "\n};\n")
    out.append('#include "wgmma_host.h"\n')
    print("\n".join(out))


HEADER = """// wgmma_probe.cu: GENERATED by wgmma_gen.py (python3 wgmma_gen.py > wgmma_probe.cu); do not edit.
// Functional kernels wg_*: one warpgroup (128 threads) per CTA copies a 16 KiB shared-memory image,
// loads A registers and the accumulators from global memory, runs ONE wgmma.mma_async (scale-d from
// sdv, descriptors from descs plus the CTA's 1024-aligned image address) and stores the accumulators.
// Timing kernels tm_*: back-to-back and dependent chains of wgmma timed by clock64 (wgmma_host.h).
#include <cstdint>
#include <cstring>
#include <cstdio>
#include <cuda_runtime.h>
#define IMG 16384
struct Variant { const char* name; const void* fn; int dtype, atype, btype, n, regs_a, sa, sb, ta, tb, sat, nr; };
struct Timing { const char* name; const void* fn; int n, k; };
"""

if __name__ == "__main__":
    main()
