package ptx

import (
	"strings"
	"testing"
)

// sm_90 has vectors of at most 128 bits (PTX ISA §5.4.2); the 256-bit
// .v8.b32 and .v4.b64 accesses of PTX ISA 8.8 are sm_100's and .global
// only. Every one of them, in any state space, is a located error at
// lowering, never an instruction the SM cannot execute.
func TestLowerRefusesVectorsWiderThan128Bits(t *testing.T) {
	for _, tc := range []struct {
		name, body, want string
	}{
		{"ld.global.v4.u64", "\tld.global.v4.u64 {%rd1, %rd2, %rd3, %rd4}, [%rd5];", "ld.global.v4.u64: .v4.u64 is a 256-bit vector"},
		{"ld.global.v4.f64", "\tld.global.v4.f64 {%fd1, %fd2, %fd3, %fd4}, [%rd5];", ".v4.f64 is a 256-bit vector"},
		{"st.global.v4.b64", "\tst.global.v4.b64 [%rd5], {%rd1, %rd2, %rd3, %rd4};", ".v4.b64 is a 256-bit vector"},
		{"ld.shared.v4.s64", "\tld.shared.v4.s64 {%rd1, %rd2, %rd3, %rd4}, [%r1];", ".v4.s64 is a 256-bit vector"},
		{"ld.local.v4.u64", "\tld.local.v4.u64 {%rd1, %rd2, %rd3, %rd4}, [stack];", ".v4.u64 is a 256-bit vector"},
		{"generic ld.v4.u64", "\tld.v4.u64 {%rd1, %rd2, %rd3, %rd4}, [%rd5];", ".v4.u64 is a 256-bit vector"},
		{"ld.global.v8.u32", "\tld.global.v8.u32 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd5];", ".v8.u32 is a 256-bit vector"},
		{"ld.global.nc.v8.f32", "\tld.global.nc.v8.f32 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f0}, [%rd5];", ".v8.f32 is a 256-bit vector"},
		{"st.shared.v8.b32", "\tst.shared.v8.b32 [%r9], {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8};", ".v8.b32 is a 256-bit vector"},
		{"ld.global.v8.b16", "\tld.global.v8.b16 {%rs1, %rs2, %rs3, %rs4, %rs5, %rs6, %rs7, %rs0}, [%rd5];", ".v8.b16 is a 128-bit vector; sm_90 loads and stores .v2 and .v4"},
		{"st.async.v4.b64", "\tst.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b64 [%r1], {%rd1, %rd2, %rd3, %rd4}, [%r2];", ".v4.b64 is a 256-bit vector"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Compile("t.ptx", []byte(snippetHead+tc.body+"\n}\n"))
			if err == nil {
				t.Fatal("lowered without an error")
			}
			msg := err.Error()
			prefix := "t.ptx:" + itoa(snippetLine) + ":2: "
			if !strings.HasPrefix(msg, prefix) || !strings.Contains(msg, tc.want) || !strings.Contains(msg, "sm_100") {
				t.Errorf("got %q\nwant prefix %q containing %q and the sm_100 note", msg, prefix, tc.want)
			}
		})
	}
}

// The widest vectors sm_90 has still lower.
func TestLowerKeeps128BitVectors(t *testing.T) {
	for _, tc := range []struct{ name, body string }{
		{"ld.global.v4.u32", "\tld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd5];"},
		{"ld.global.v2.f64", "\tld.global.v2.f64 {%fd1, %fd2}, [%rd5];"},
		{"st.shared.v2.u64", "\tst.shared.v2.u64 [%r1], {%rd1, %rd2};"},
		{"st.async.v4.b32", "\tst.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [%r1], {%r3, %r4, %r5, %r6}, [%r2];"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Compile("t.ptx", []byte(snippetHead+tc.body+"\n}\n")); err != nil {
				t.Errorf("Compile: %v", err)
			}
		})
	}
}
