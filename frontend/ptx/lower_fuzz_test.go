package ptx

import (
	"regexp"

	"github.com/smsim/smsim/isa"
	"strings"
	"testing"
)

// errPrefix is the shape of every Compile error: FILE:LINE:COL: message.
var errPrefix = regexp.MustCompile(`^fuzz\.ptx:[0-9]+:[0-9]+: \S`)

// FuzzCompile checks that Compile never panics and that its errors are one
// line with a position.
func FuzzCompile(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	// The calibration files in chunks: whole files make every input the
	// fuzzer finds interesting slow to minimise.
	for _, name := range []string{"microbench.ptx", "hwprobe.ptx"} {
		src := string(readCalib(f, name))
		for _, chunk := range calibSeeds(src) {
			f.Add([]byte(chunk))
		}
		for _, k := range strings.Split(src, "\n.visible .entry")[1:] {
			if len(k) < 4000 { // whole small kernels, declarations included
				f.Add([]byte(header + ".extern .shared .align 16 .b8 sm[];\n.visible .entry" + k))
			}
		}
	}
	for _, body := range []string{
		"\tmov.b64 %rd1, {%r1, %r2};\n\tmov.b32 {%rs1, %rs2}, %r1;",
		"\tcall.uni (%r1), f, (%r2);",
		"\tts: .branchtargets A, B;\n\tbrx.idx %r1, ts;\nA:\n\tret;\nB:\n\tret;",
		"\tbar.red.popc.u32 %r1, 0, %p1;\n\tsetp.lt.and.f32 %p1|%p2, %f1, %f2, %p3;",
		"\tcp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], [k_map, {%r2, %r3}], [%r4];",
		"\tmbarrier.try_wait.parity.shared::cta.b64 %p1, [sbuf], %r1, 1000;\n\tcvt.rn.f16x2.f32 %r1, %f1, %f2;",
		"\twgmma.fence.sync.aligned;\n\twgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd1, %rd2, %p1, 1, -1, 0, 1;\n\twgmma.commit_group.sync.aligned;\n\twgmma.wait_group.sync.aligned 0;",
		"\twgmma.mma_async.sync.aligned.m64n8k32.s32.s8.u8 {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, %rd2, 0;",
		"\tldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%r1, %r2}, [%r3];\n\tstmatrix.sync.aligned.m8n8.x1.shared.b16 [%r3], {%r1};",
	} {
		f.Add([]byte(snippetHead + body + "\n}\n"))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		ps, err := Compile("fuzz.ptx", src)
		if err != nil {
			msg := err.Error()
			if !errPrefix.MatchString(msg) || strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("bad error %q", msg)
			}
			return
		}
		for _, p := range ps {
			last := p.Instrs[len(p.Instrs)-1]
			if !last.Op.Ends() || last.Guard.Kind != isa.KNone {
				t.Fatalf("%s can run past its last instruction %s", p.Name, &last)
			}
		}
	})
}
