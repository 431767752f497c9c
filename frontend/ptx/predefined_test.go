package ptx_test

import (
	"fmt"
	"testing"
)

// threads64 is the block of the predefined-identifier kernels: two warps,
// so that per-warp and per-lane values differ between threads.
const threads64 = 64

// predefinedKernel stores, per thread, the 32-bit value of expr, read with
// mov of type typ (u32, or u64 and truncated for the 64-bit registers).
func predefinedKernel(typ, expr string) string {
	read := "\tmov.u32 %r2, " + expr + ";\n"
	if typ == "u64" {
		read = "\tmov.u64 %rd3, " + expr + ";\n\tcvt.u32.u64 %r2, %rd3;\n"
	}
	return `
.visible .entry k(.param .u64 k_out)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
` + storeTid + read + `	st.global.u32 [%rd1], %r2;
	ret;
}
`
}

// TestRunPredefinedIdentifiers reads every predefined identifier of the PTX
// ISA ("Identifiers", table "Predefined identifiers": the constant WARP_SZ
// and the special registers) in a block of 64 threads on the one simulated
// SM, and checks each thread's value.
func TestRunPredefinedIdentifiers(t *testing.T) {
	lane := func(tid int) uint32 { return uint32(tid % 32) }
	tests := []struct {
		name, typ, expr string
		want            func(tid int) uint32
	}{
		{"WARP_SZ", "u32", "WARP_SZ", func(int) uint32 { return 32 }},
		{"%tid", "u32", "%tid.x", func(tid int) uint32 { return uint32(tid) }},
		{"%tid.y", "u32", "%tid.y", func(int) uint32 { return 0 }},
		{"%ntid", "u32", "%ntid.x", func(int) uint32 { return threads64 }},
		{"%ntid.z", "u32", "%ntid.z", func(int) uint32 { return 1 }},
		{"%laneid", "u32", "%laneid", lane},
		{"%warpid", "u32", "%warpid", func(tid int) uint32 { return uint32(tid / 32) }},
		{"%nwarpid", "u32", "%nwarpid", func(int) uint32 { return 64 }}, // limit.warps of the h200 configuration
		{"%ctaid", "u32", "%ctaid.x", func(int) uint32 { return 0 }},
		{"%nctaid", "u32", "%nctaid.x", func(int) uint32 { return 1 }},
		{"%smid", "u32", "%smid", func(int) uint32 { return 0 }},
		{"%nsmid", "u32", "%nsmid", func(int) uint32 { return 1 }},
		{"%gridid", "u64", "%gridid", func(int) uint32 { return 0 }},
		{"%lanemask_eq", "u32", "%lanemask_eq", func(tid int) uint32 { return 1 << lane(tid) }},
		{"%lanemask_le", "u32", "%lanemask_le", func(tid int) uint32 { return 1<<lane(tid) | (1<<lane(tid) - 1) }},
		{"%lanemask_lt", "u32", "%lanemask_lt", func(tid int) uint32 { return 1<<lane(tid) - 1 }},
		{"%lanemask_ge", "u32", "%lanemask_ge", func(tid int) uint32 { return ^uint32(1<<lane(tid) - 1) }},
		{"%lanemask_gt", "u32", "%lanemask_gt", func(tid int) uint32 { return ^(1<<lane(tid) | (1<<lane(tid) - 1)) }},
	}
	// The driver-defined %envreg0..31 and the performance counters
	// %pm0..7 (and their 64-bit forms) read zero: smsim's launches define
	// no environment and count no events.
	zero := func(int) uint32 { return 0 }
	for i := 0; i < 32; i++ {
		r := fmt.Sprintf("%%envreg%d", i)
		tests = append(tests, struct {
			name, typ, expr string
			want            func(tid int) uint32
		}{r, "u32", r, zero})
	}
	for i := 0; i < 8; i++ {
		r := fmt.Sprintf("%%pm%d", i)
		tests = append(tests, struct {
			name, typ, expr string
			want            func(tid int) uint32
		}{r, "u32", r, zero}, struct {
			name, typ, expr string
			want            func(tid int) uint32
		}{r + "_64", "u64", r + "_64", zero})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := runPTX(t, predefinedKernel(tt.typ, tt.expr), threads64, threads64)
			for tid, g := range got {
				if w := tt.want(tid); g != w {
					t.Fatalf("thread %d: %s = %#x, want %#x", tid, tt.expr, g, w)
				}
			}
		})
	}
}

// TestRunClockIdentifiers: %clock and %clock64 count SM cycles, so a second
// read after a dependent chain of adds is later than the first, and the two
// registers agree on the low 32 bits.
func TestRunClockIdentifiers(t *testing.T) {
	for _, tt := range []struct{ name, typ, reg string }{
		{"%clock", "u32", "%clock"},
		{"%clock64", "u64", "%clock64"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src := `
.visible .entry k(.param .u64 k_out)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
` + storeTid + `	mov.` + tt.typ + ` %rd5, ` + tt.reg + `;
	add.u32 %r3, %r1, 1;
	add.u32 %r3, %r3, 1;
	add.u32 %r3, %r3, 1;
	mov.` + tt.typ + ` %rd6, ` + tt.reg + `;
	add.u32 %r4, %r3, 0;
	sub.s64 %rd7, %rd6, %rd5;
	cvt.u32.u64 %r2, %rd7;
	st.global.u32 [%rd1], %r2;
	ret;
}
`
			if tt.typ == "u32" {
				src = `
.visible .entry k(.param .u64 k_out)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
` + storeTid + `	mov.u32 %r5, %clock;
	add.u32 %r3, %r1, 1;
	add.u32 %r3, %r3, 1;
	add.u32 %r3, %r3, 1;
	mov.u32 %r6, %clock;
	sub.u32 %r2, %r6, %r5;
	st.global.u32 [%rd1], %r2;
	ret;
}
`
			}
			for tid, d := range runPTX(t, src, threads64, threads64) {
				if d == 0 || d > 1000 {
					t.Fatalf("thread %d: %s advanced %d cycles between two reads, want 1..1000", tid, tt.reg, d)
				}
			}
		})
	}
}

// TestRunWarpSizeAsAnImmediate: WARP_SZ is a constant wherever an immediate
// may stand, at the instruction's type: in arithmetic, a compare, a 64-bit
// move and a shift.
func TestRunWarpSizeAsAnImmediate(t *testing.T) {
	tests := []struct {
		name, body string
		want       func(tid int) uint32
	}{
		{"add", "\tadd.u32 %r2, %r1, WARP_SZ;\n", func(tid int) uint32 { return uint32(tid + 32) }},
		{"warp index by division", "\tdiv.u32 %r2, %r1, WARP_SZ;\n", func(tid int) uint32 { return uint32(tid / 32) }},
		{"compare", "\tsetp.lt.u32 %p1, %r1, WARP_SZ;\n\tselp.u32 %r2, 1, 0, %p1;\n", func(tid int) uint32 {
			if tid < 32 {
				return 1
			}
			return 0
		}},
		{"64-bit move", "\tmov.u64 %rd3, WARP_SZ;\n\tcvt.u32.u64 %r2, %rd3;\n", func(int) uint32 { return 32 }},
		{"shift", "\tshl.b32 %r2, WARP_SZ, 1;\n", func(int) uint32 { return 64 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := `
.visible .entry k(.param .u64 k_out)
{
	.reg .pred %p<2>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
` + storeTid + tt.body + `	st.global.u32 [%rd1], %r2;
	ret;
}
`
			for tid, g := range runPTX(t, src, threads64, threads64) {
				if w := tt.want(tid); g != w {
					t.Fatalf("thread %d: got %d, want %d", tid, g, w)
				}
			}
		})
	}
}
