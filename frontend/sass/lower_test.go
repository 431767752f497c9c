package sass

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/smsim/smsim/isa"
)

// loweringCorpus lists the committed listings that run: calibration/h200,
// testdata/cuda, apps/h200 and the cluster probe (testdata/cluster).
func loweringCorpus(t testing.TB) []string {
	t.Helper()
	var out []string
	for _, d := range []string{"../../calibration/h200", "../../testdata/cuda", "../../apps/h200", "../../testdata/cluster"} {
		m, err := globListings(d, ".sass")
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m...)
	}
	if len(out) < 50 {
		t.Fatalf("found %d listings; the test needs the repository's calibration/h200, testdata/cuda and apps/h200", len(out))
	}
	return out
}

// TestEveryCorpusKernelLowers lowers every kernel of the committed SASS with
// its cubin: one isa instruction per SASS instruction, each with the
// listing's control bits and line, and branch targets inside the program.
func TestEveryCorpusKernelLowers(t *testing.T) {
	kernels := 0
	for _, path := range loweringCorpus(t) {
		src := readFile(t, path)
		cb, err := os.ReadFile(strings.TrimSuffix(path, ".sass") + ".cubin")
		if err != nil {
			t.Fatal(err)
		}
		m, err := Load(path, src, cb)
		if err != nil {
			t.Fatal(err)
		}
		for _, fn := range m.Kernels() {
			kernels++
			p, err := m.Lower(fn)
			if err != nil {
				t.Errorf("%v", err)
				continue
			}
			if len(p.Instrs) != len(fn.Instructions) || !p.Scheduled || !p.ExplicitReconv {
				t.Errorf("%s: %d instructions for %d, scheduled %v", fn.Name, len(p.Instrs), len(fn.Instructions), p.Scheduled)
			}
			for i := range p.Instrs {
				in, s := &p.Instrs[i], &fn.Instructions[i]
				if in.Pos.Line != int32(s.Line) || in.Ctrl.Stall != s.Ctrl.Stall || in.Ctrl.Wait != s.Ctrl.Wait {
					t.Fatalf("%s 0x%x: position %v, ctrl %+v; want line %d, ctrl %+v", fn.Name, s.Addr, in.Pos, in.Ctrl, s.Line, s.Ctrl)
				}
				if in.Op.IsBranch() && (in.Target < 0 || int(in.Target) >= len(p.Instrs)) {
					t.Fatalf("%s 0x%x: target %d", fn.Name, s.Addr, in.Target)
				}
			}
		}
	}
	if kernels < 394 {
		t.Errorf("%d kernels lowered, want the corpus's 394", kernels)
	}
}

// lowerOne lowers a one-kernel listing of the given instruction lines,
// printed without encodings (LoadFunctional: the forms, not the timing).
func lowerOne(t *testing.T, lines ...string) (*isa.Program, error) {
	t.Helper()
	var b strings.Builder
	b.WriteString("\tcode for sm_90a\n\t\tFunction : _Z1kPi\n")
	for i, l := range lines {
		fmt.Fprintf(&b, "        /*%04x*/                   %s ;\n", 16*i, l)
	}
	b.WriteString("\t\t..........\n")
	m, err := LoadFunctional("k.sass", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return m.Lower(&m.File.Functions[0])
}

// TestLoweringForms checks the isa form of SASS instructions whose
// lowering is not one to one with PTX: operand order, pairs, uniform
// registers, carries, modes.
func TestLoweringForms(t *testing.T) {
	for _, c := range []struct {
		sass string
		want string
	}{
		{"IADD3 R0, P0, P1, R2, -R3, UR4", "iadd3.b32 r0, p0, p1, r2, -r3, r260"},
		{"IADD3.X R1, R2, ~R3, RZ, P0, !PT", "iadd3.carry.b32 r1, r2, ~r3, 0, p0, 0"},
		{"IMAD.WIDE.U32 R2, R5, 0x4, R2", "imad.u32 r2.64, r5, 4, r2.64"},
		{"IMAD.HI.U32 R11, P0, R11, R13, R10", "imad.u32 r11, p0, r11, r13, r10.64"},
		{"LEA.HI.X.SX32 R3, R4, R5, 0x2, P0", "lea.carry.b32 r3, r4, r5, 2, p0"},
		{"LOP3.LUT P0, RZ, R2, 0x1f, RZ, 0xc0, !PT", "lop3.lut.b32 _, p0, r2, 31, 0, 192, 0"},
		{"SHF.L.U64.HI R3, R2, 0x4, R3", "shf.sass.b32 r3, r2, 4, r3"},
		{"PRMT R0, R1, 0x5410, R2", "prmt.b32 r0, r1, r2, 21520"},
		{"ISETP.GE.U32.AND.EX P0, PT, R4, UR5, PT, P0", "isetp.ex.ge.u32 p0, _, r4, r261, 1, p0"},
		{"FFMA.FTZ R0, -R1, |R2|, c[0x0][0x210]", "fma.ftz.f32 r0, -r1, |r2|, c[0x0][0x210]"},
		{"DFMA R4, R6, 2, R8", "fma.f64 r4.64, r6.64, 4611686018427387904, r8.64"},
		{"HFMA2.MMA R2, -RZ, RZ, 0, 5.9604644775390625e-08", "fma.f16x2 r2, 2147516416, 0, 1"},
		{"LDG.E.128.CONSTANT R4, desc[UR4][R2.64+0x10]", "ld.nc.v4.global.b32 r4, r5, r6, r7, [r2.64+16]"},
		{"STS.64 [R3+UR4+0x8], RZ", "st.v2.shared.b32 [r3+r260+8], 0, 0"},
		{"ATOMG.E.CAS.STRONG.GPU PT, R11, [R14+0xc], R10, R11", "atom.global.u32 r11, _, [r14.64+12], r10, r11"},
		{"SYNCS.PHASECHK.TRANS64.TRYWAIT P1, [UR6], R2", "mbarrier.try_wait.parity.shared.b64 p1, [r262], r2"},
		{"SYNCS.ARRIVE.TRANS64.A1T0 R4, [UR6+0x8], RZ", "mbarrier.arrive.shared.b64 r4.64, [r262+8]"},
		{"SYNCS.EXCH.64 URZ, [UR6], UR4", "mbarrier.init.shared.b64 [r262], r260.64"},
		{"R2UR.OR P1, UR4, R0", "r2ur.b32 r260, p1, r0"},
		{"VOTEU.ANY UR4, UPT, PT", "vote.sass.b32 r260, _, 1"},
		{"ELECT P2, URZ, PT", "elect.sass.pred p2, _, 1"},
		{"S2R R0, SR_SWINHI", "mov.u32 r0, 32256"},
		{"CS2R R4, SR_CLOCKLO", "mov.b64 r4.64, %clock64"},
		{"UBLKCP.S.G [UR4], [UR8], UR7", "ublkcp.b8 r260.64, r264.64, r263"},
		{"UTMALDG.2D [UR8], [UR16]", "utma.2d.b8 r264, r272.64"},
		{"MUFU.SIN R0, R1", "mufu.sin.ftz.approx.f32 r0, r1"},
		{"WARPGROUP.DEPBAR.LE gsb0, 0x1", "wgmma.wait_group 1"},
		// __syncthreads_count/and/or (testdata/cuda/scan.sass); the id and count in registers (barrier.red with a count).
		{"BAR.RED.POPC.DEFER_BLOCKING 0x0, !P3", "bar.red.popc.aligned 0, !p3"},
		{"BAR.RED.OR.DEFER_BLOCKING R0, 0x80, P0", "bar.red.or.aligned r0, 128, p0"},
		{"B2R.RESULT R6", "b2r.result.u32 r6"},
		{"B2R.RESULT RZ, P0", "b2r.result.u32 _, p0"},
		// C = RZ (the first wgmma of a chain, ptxas's spelling of scale-d 0): D = A·B, scale-d the constant 0.
		{"HGMMA.64x8x16.F32 R24, gdesc[UR4], RZ, !UPT", "wgmma.mma_async.shared.f32 r24, r25, r26, r27, r24, r25, r26, r27, r260.64, r262.64, 0, 1, 1, 0, 0"},
		{"HGMMA.64x8x16.F32 R24, gdesc[UR4], RZ, UP0", "wgmma.mma_async.shared.f32 r24, r25, r26, r27, r24, r25, r26, r27, r260.64, r262.64, 0, 1, 1, 0, 0"},
		{"HGMMA.64x8x16.F32 R24, gdesc[UR4], R24, UP0", "wgmma.mma_async.shared.f32 r24, r25, r26, r27, r24, r25, r26, r27, r260.64, r262.64, p8, 1, 1, 0, 0"},
		{"USETMAXREG.TRY_ALLOC.CTAPOOL UP0, 0xe8", "plop3.lut.pred p8, _, 1, 1, 1, 255, 0"},
		{"USETMAXREG.DEALLOC.CTAPOOL 0x28", "nop"},
		{"LDSM.16.M88.4 R4, [R2+UR4+0x10]", "ldmatrix.shared.b16 r4, r5, r6, r7, [r2+r260+16]"},
		{"LDSM.16.MT88.2 R8, [R3]", "ldmatrix.shared.b16 r8, r9, [r3]"},
		{"STSM.16.M88 [R2], R7", "stmatrix.shared.b16 [r2], r7"},
		{"@!UP0 UIADD3 UR4, -UR4, 0x100000, URZ", "@!p8 iadd3.b32 r260, -r260, 1048576, 0"},
		{"UCGABAR_ARV", "barrier.cluster.arrive.aligned"},
		{"UCGABAR_WAIT", "barrier.cluster.wait.aligned"},
		{"CGAERRBAR", "fence"},
		{"SYNCS.ARRIVE.TRANS64.RED.A1T0 RZ, [UR6], RZ", "mbarrier.arrive.remote.shared::cluster.b64 _, [r262]"},
		{"UBLKCP.S.G.MULTICAST [UR8], [UR4], UR6", "ublkcp.multicast.b8 r264.64, r260.64, r262"},
		{"ATOM.E.ADD.STRONG.GPU PT, RZ, [RZ.U32+UR4], R10", "atom.u32 _, _, [r260.64+0], r10"},
		{"ST.E [RZ.U32+UR4], R6", "st.b32 [r260.64+0], r6"},
		{"S2UR UR12, SR_CgaCtaId", "mov.u32 r268, %cluster_ctarank"},
	} {
		p, err := lowerOne(t, c.sass, "EXIT")
		if err != nil {
			t.Errorf("%s: %v", c.sass, err)
			continue
		}
		if got := p.Instrs[0].String(); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.sass, got, c.want)
		}
	}
}

// TestUnsupportedFormsStopWithTheirAddress: an opcode or modifier smsim
// does not run is an error at its line and column that names it and its
// address.
func TestUnsupportedFormsStopWithTheirAddress(t *testing.T) {
	for _, c := range []struct{ sass, want string }{
		{"HMMA.16816.F32 R0, R2, R4, R0", "HMMA.16816.F32 at 0x10"},
		{"IADD3.FOO R0, R1, R2, R3", "modifier .FOO"},
		{"UTMASTG.2D [UR4], [UR8]", "UTMASTG.2D at 0x10"},
		{"SYNCS.ARRIVE.TRANS64.A1TR RZ, [UR4], R0", "SYNCS.ARRIVE.TRANS64.A1TR"},
		{"HGMMA.64x64x32.F32 R24, gdesc[UR8], R24, UP0, gsb0", "HGMMA.64x64x32.F32"},
		{"USETMAXREG.TRY_ALLOC UP0, 0xe8", "USETMAXREG.TRY_ALLOC"},
		{"USETMAXREG.DEALLOC.CTAPOOL 0x14", "register count 0x14"},
		{"HGMMA.64x64x16.F64 R24, gdesc[UR8], R24, gsb0", "HGMMA.64x64x16.F64"},
		{"QGMMA.64x64x32.F32.E4M3 R24, gdesc[UR8], R24, gsb0", "QGMMA.64x64x32.F32.E4M3"},
		{"WARPGROUP.WAIT", "WARPGROUP.WAIT"},
		{"SYNCS.ARRIVE.TRANS64.RED.A1T0 R4, [UR6], RZ", "SYNCS.ARRIVE.TRANS64.RED.A1T0 that returns a state"},
		{"SYNCS.ARRIVE.TRANS64.RED.A1T0 RZ, [UR6], R2", "SYNCS.ARRIVE.TRANS64.RED.A1T0 with a count"},
		{"UBLKCP.G.S.MULTICAST [UR8], [UR4], UR6", "UBLKCP.G.S.MULTICAST"},
		{"UCGABAR_ARV.FOO", "modifier .FOO"},
	} {
		_, err := lowerOne(t, "NOP", c.sass, "EXIT")
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: got %v, want a located error", c.sass, err)
			continue
		}
		if e.Line != 4 || e.Col != 36 || !strings.Contains(e.Msg, "unsupported SASS instruction") || !strings.Contains(e.Msg, c.want) {
			t.Errorf("%s: got %v, want line 4 col 36 naming %q", c.sass, err, c.want)
		}
	}
}

// TestParamsFromTheMangledName lays out a kernel's parameters without a
// cubin from its name, and refuses an extern "C" kernel.
func TestParamsFromTheMangledName(t *testing.T) {
	p, err := lowerOne(t, "EXIT")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Params) != 1 || !p.Params[0].Ptr || p.Params[0].Offset != 0 || p.Params[0].Name != "_Z1kPi_param_0" {
		t.Errorf("params %+v", p.Params)
	}
	m, err := LoadFunctional("c.sass", []byte("\t\tFunction : k\n        /*0000*/                   EXIT ;\n\t\t..........\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Lower(&m.File.Functions[0]); err == nil || !strings.Contains(err.Error(), "extern \"C\"") {
		t.Errorf("got %v, want the extern \"C\" error", err)
	}
}

// FuzzLowerSASS lowers mutated listings: parse errors and lowering errors
// are fine, panics are not. The seeds are small (a long listing makes the
// fuzzer's minimisation of each new input take minutes): one function of
// testdata/sample.sass and instructions at the edges of the register files.
func FuzzLowerSASS(f *testing.F) {
	sample, err := os.ReadFile("testdata/sample.sass")
	if err != nil {
		f.Fatal(err)
	}
	lines := strings.SplitAfter(string(sample), "\n")
	f.Add([]byte(strings.Join(lines[:min(len(lines), 40)], "") + "\t\t..........\n"))
	for _, s := range []string{
		"\t\tFunction : _Z1kPi\n        /*0000*/                   IMAD.WIDE R254, R5, 0x4, R2 ;\n        /*0010*/                   EXIT ;\n\t\t..........\n",
		"\t\tFunction : _Z1kPi\n        /*0000*/                   UTMALDG.5D [UR60], [UR4] ;\n\t\t..........\n",
		"\t\tFunction : _Z1kPi\n        /*0000*/                   LDS.128 R253, [R2] ;\n        /*0010*/                   BRA 0x10 ;\n\t\t..........\n",
		"\t\tFunction : _Z1kPi\n        /*0000*/                   SYNCS.ARRIVE.TRANS64.RED.A0T1 RZ, [UR4], RZ ;\n\t\t..........\n",
		"\t\tFunction : _Z1kPi\n        /*0000*/                   MEMBAR.ALL.GPU ;\n        /*0010*/                   CGAERRBAR ;\n        /*0020*/                   UCGABAR_ARV ;\n        /*0030*/                   SYNCS.ARRIVE.TRANS64.RED.A1T0 RZ, [UR6], RZ ;\n\t\t..........\n",
		"\t\tFunction : _Z1kPi\n        /*0000*/                   WARPGROUP.ARRIVE ;\n        /*0010*/                   HGMMA.64x256x16.F32 R24, R152, gdesc[UR8].tnspB, R24, UP0, gsb0 ;\n        /*0020*/                   WARPGROUP.DEPBAR.LE gsb0, 0x0 ;\n\t\t..........\n",
		"\t\tFunction : _Z1kPi\n        /*0000*/                   HGMMA.64x8x16.F16 RZ, gdesc[URZ], RZ, !UPT, gsb0 ;\n        /*0010*/                   QGMMA.64x64x32.F32.E4M3.E4M3 R200, -R56, gdesc[UR4], R200, UP0, gsb0 ;\n\t\t..........\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		_, _ = Load("fuzz.sass", src, nil) // most inputs lack encodings: refused
		m, err := LoadFunctional("fuzz.sass", src)
		if err != nil {
			return
		}
		for _, fn := range m.Kernels() {
			_, _, _ = m.Params(fn)
			_, _ = m.Lower(fn)
		}
	})
}

// LDSM/STSM's MT88 is ldmatrix/stmatrix .trans (Mode bit 0).
func TestMatrixTranspose(t *testing.T) {
	for _, c := range []struct {
		sass  string
		trans bool
	}{{"LDSM.16.M88.4 R4, [R2]", false}, {"LDSM.16.MT88.4 R4, [R2]", true}, {"STSM.16.MT88.2 [R2], R4", true}} {
		p, err := lowerOne(t, c.sass, "EXIT")
		if err != nil {
			t.Fatalf("%s: %v", c.sass, err)
		}
		if got := p.Instrs[0].Mode&1 != 0; got != c.trans {
			t.Errorf("%s: transposed %v, want %v", c.sass, got, c.trans)
		}
	}
}

// TestClusterReleaseFromTheFenceGroup: ptxas writes a .release at cluster
// scope (barrier.cluster.arrive's default, mbarrier.arrive.release.cluster)
// as MEMBAR.ALL.GPU in the fence group before the operation; the operation
// carries it, as its PTX twin does, and is relaxed without it.
func TestClusterReleaseFromTheFenceGroup(t *testing.T) {
	for _, c := range []struct {
		lines []string
		sem   isa.Sem
	}{
		{[]string{"MEMBAR.ALL.CTA", "MEMBAR.ALL.GPU", "ERRBAR", "CGAERRBAR", "UCGABAR_ARV"}, isa.SemRelease},
		{[]string{"MEMBAR.ALL.GPU", "ERRBAR", "CGAERRBAR", "SYNCS.ARRIVE.TRANS64.RED.A1T0 RZ, [UR6], RZ"}, isa.SemRelease},
		{[]string{"NOP", "NOP", "NOP", "NOP", "UCGABAR_ARV"}, isa.SemRelaxed},
		{[]string{"MEMBAR.ALL.CTA", "CGAERRBAR", "UCGABAR_ARV"}, isa.SemRelaxed},
		{[]string{"MEMBAR.ALL.GPU", "IADD3 R0, R0, 0x1, RZ", "UCGABAR_ARV"}, isa.SemRelaxed},
		{[]string{"MEMBAR.ALL.GPU", "@P0 UCGABAR_ARV"}, isa.SemRelaxed},
	} {
		p, err := lowerOne(t, append(c.lines, "EXIT")...)
		if err != nil {
			t.Fatalf("%v: %v", c.lines, err)
		}
		in := &p.Instrs[len(c.lines)-1]
		if in.Sem != c.sem || in.Scope != isa.ScopeCluster {
			t.Errorf("%v: sem %v scope %v, want %v at cluster scope", c.lines, in.Sem, in.Scope, c.sem)
		}
	}
}
