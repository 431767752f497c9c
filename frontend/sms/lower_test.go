package sms

import (
	"strings"
	"testing"

	"github.com/smsim/smsim/isa"
)

func mustCompile(t *testing.T, src string) *isa.Program {
	t.Helper()
	p, err := Compile("k.sms", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// find returns the indices of the instructions with opcode op.
func find(p *isa.Program, op isa.Op) []int {
	var out []int
	for i := range p.Instrs {
		if p.Instrs[i].Op == op {
			out = append(out, i)
		}
	}
	return out
}

func TestDivergentArrivesAreOnTwoPathsThatMeetAtTheJoin(t *testing.T) {
	p := mustCompile(t, "block 32\nbarrier b\nif lane < 16 { arrive b } else { arrive b }\nwait b parity 0\n")
	arrives := find(p, isa.OpMbarArrive)
	if len(arrives) != 2 {
		t.Fatalf("got %d arrives, want 2", len(arrives))
	}
	split := arrives[0] - 1
	br := p.Instrs[split]
	if br.Op != isa.OpBra || br.Guard.Kind != isa.KPred || !br.Guard.Neg {
		t.Fatalf("instruction before the first arrive is %s, want @!p bra", br.String())
	}
	if br.Target <= int32(arrives[0]) || br.Target > int32(arrives[1]) {
		t.Errorf("branch target %d does not separate the arrives at %v", br.Target, arrives)
	}
	join := find(p, isa.OpMbarTryWait)[0]
	if br.Reconv != int32(join) {
		t.Errorf("got reconvergence %d, want the join at %d (the wait)", br.Reconv, join)
	}
	for _, a := range arrives {
		if p.Instrs[a].Guard.Kind != isa.KNone {
			t.Errorf("arrive %d is guarded; paths come from branches, not predication", a)
		}
	}
}

func TestWaitLoopBranchesBackWhileTryWaitFails(t *testing.T) {
	p := mustCompile(t, "barrier b\nlet t = arrive b\nwait b token t\nwait b parity 1\n")
	for _, w := range find(p, isa.OpMbarTryWait) {
		tw, br := p.Instrs[w], p.Instrs[w+1]
		if tw.Ops[0].Kind != isa.KPred || tw.NDst != 1 {
			t.Fatalf("try_wait %d does not write a predicate: %s", w, tw.String())
		}
		if br.Op != isa.OpBra || br.Guard.Kind != isa.KPred || !br.Guard.Neg || br.Guard.Reg != tw.Ops[0].Reg {
			t.Errorf("after try_wait %d: got %s, want @!p%d bra", w, br.String(), tw.Ops[0].Reg)
		}
		if br.Target != int32(w) {
			t.Errorf("wait loop branches to %d, want back to the try_wait at %d", br.Target, w)
		}
		if br.Reconv != int32(w+2) {
			t.Errorf("wait loop reconverges at %d, want %d", br.Reconv, w+2)
		}
	}
	if got := p.Instrs[find(p, isa.OpMbarTryWait)[1]]; !got.Flags.Has(isa.FParity) || got.Ops[2].Imm != 1 {
		t.Errorf("wait b parity 1: got flags %#x operand %s, want parity 1", got.Flags, got.Ops[2].String())
	}
}

func TestConvergedArriveIsUnguardedWithSinkToken(t *testing.T) {
	p := mustCompile(t, "barrier b\narrive b\n")
	in := p.Instrs[find(p, isa.OpMbarArrive)[0]]
	if in.Guard.Kind != isa.KNone {
		t.Errorf("converged arrive has guard %s", in.Guard.String())
	}
	if in.Ops[0].Kind != isa.KSink || in.Ops[1] != isa.Addr(-1, 0) || in.Space != isa.Shared || in.Type != isa.B64 {
		t.Errorf("got %s space %s, want mbarrier.arrive.shared.b64 _, [0x0]", in.String(), in.Space)
	}
}

func TestArriveFormsSetFlagsAndOperandOrder(t *testing.T) {
	tests := []struct {
		src   string
		flags isa.Flags
		ops   string
	}{
		{"let t = arrive b", 0, "r0 [0x0]"},
		{"arrive b, 3", 0, "_ [0x0] 3"},
		{"arrive.expect_tx b, 1024", isa.FExpectTx, "_ [0x0] 1024"},
		{"arrive.expect_tx b, 1024, 2", isa.FExpectTx, "_ [0x0] 1024 2"},
		{"arrive.noComplete b, 2", isa.FNoComplete, "_ [0x0] 2"},
		{"arrive_drop b", isa.FDrop, "_ [0x0]"},
		{"arrive_drop.expect_tx b, 64", isa.FDrop | isa.FExpectTx, "_ [0x0] 64"},
		{"arrive_drop.noComplete b, 1", isa.FDrop | isa.FNoComplete, "_ [0x0] 1"},
	}
	for _, tc := range tests {
		t.Run(tc.src, func(t *testing.T) {
			p := mustCompile(t, "barrier b\n"+tc.src+"\n")
			in := p.Instrs[find(p, isa.OpMbarArrive)[0]]
			var ops []string
			for _, o := range in.Ops {
				ops = append(ops, o.String())
			}
			if in.Flags != tc.flags || strings.Join(ops, " ") != tc.ops || in.NDst != 1 {
				t.Errorf("got flags %#x operands %q ndst %d, want flags %#x operands %q ndst 1",
					in.Flags, strings.Join(ops, " "), in.NDst, tc.flags, tc.ops)
			}
		})
	}
}

func TestSharedLayoutAlignsBarriersAndRegions(t *testing.T) {
	p := mustCompile(t, "barrier a\nshared x[3]\nbarrier full[3]\nshared y[100] align 256\nshared z[1] align 16\n")
	want := map[string][2]uint64{"a": {0, 8}, "full[0]": {8, 8}, "full[1]": {16, 8}, "full[2]": {24, 8},
		"x": {128, 3}, "y": {256, 100}, "z": {368, 1}}
	if len(p.Symbols) != len(want) {
		t.Fatalf("got %d symbols, want %d", len(p.Symbols), len(want))
	}
	for _, s := range p.Symbols {
		w, ok := want[s.Name]
		if !ok || s.Offset != w[0] || s.Size != w[1] || s.Space != isa.Shared {
			t.Errorf("symbol %s: got %s+%d size %d, want shared+%d size %d", s.Name, s.Space, s.Offset, s.Size, w[0], w[1])
		}
		if strings.HasSuffix(s.Name, "]") || s.Name == "a" {
			if s.Offset%8 != 0 {
				t.Errorf("barrier %s at %d is not 8-byte aligned", s.Name, s.Offset)
			}
		}
	}
	if p.SharedStatic != 369 {
		t.Errorf("got %d bytes of static shared memory, want 369", p.SharedStatic)
	}
}

func TestParamsAreLaidOutInOrderWithDefaults(t *testing.T) {
	p := mustCompile(t, "global src[65536] seq\nparam n = -3\ntensormap m \"f16,8192x16384,box=64x64,buf=src\"\n"+
		"global out[1 << 12]\nglobal r[16] \"random:7\"\nlet x = src + n + out + r\n")
	want := []isa.Param{
		{Name: "src", Type: isa.U64, Size: 8, Align: 8, Offset: 0, Ptr: true, Default: "buf:65536:seq"},
		{Name: "n", Type: isa.S64, Size: 8, Align: 8, Offset: 8, Default: "-3"},
		{Name: "m", Type: isa.B8, Size: 128, Align: 64, Offset: 64, Default: "tensormap:f16,8192x16384,box=64x64,buf=src"},
		{Name: "out", Type: isa.U64, Size: 8, Align: 8, Offset: 192, Ptr: true, Default: "buf:4096"},
		{Name: "r", Type: isa.U64, Size: 8, Align: 8, Offset: 200, Ptr: true, Default: "buf:16:random:7"},
	}
	if len(p.Params) != len(want) {
		t.Fatalf("got %d params, want %d", len(p.Params), len(want))
	}
	for i, w := range want {
		if p.Params[i] != w {
			t.Errorf("param %d: got %+v, want %+v", i, p.Params[i], w)
		}
	}
	if p.ParamBytes != 208 {
		t.Errorf("got %d param bytes, want 208", p.ParamBytes)
	}
	for _, i := range find(p, isa.OpLd) {
		if in := p.Instrs[i]; in.Space != isa.ParamSpace || in.Ops[1].Reg != -1 {
			t.Errorf("parameter load %s: want ld.param [offset]", in.String())
		}
	}
}

func TestEveryInstructionHasClassAndPosition(t *testing.T) {
	for name, rel := range goldenSources(t) {
		p, err := Compile(rel, readSource(t, rel))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i := range p.Instrs {
			in := &p.Instrs[i]
			if in.Class != isa.ClassOf(in) {
				t.Errorf("%s %d: class %s, want %s", name, i, in.Class, isa.ClassOf(in))
			}
			if in.Pos.File != rel || in.Pos.Line < 1 || in.Pos.Col < 1 {
				t.Errorf("%s %d: position %s", name, i, in.Pos)
			}
			if in.Op == isa.OpBra && (in.Target < 0 || int(in.Target) >= len(p.Instrs)) {
				t.Errorf("%s %d: branch target %d outside the program", name, i, in.Target)
			}
		}
		if last := p.Instrs[len(p.Instrs)-1]; last.Op != isa.OpExit || last.Guard.Kind != isa.KNone {
			t.Errorf("%s: program ends with %s, want exit", name, last.String())
		}
	}
}

func TestPositionsPointAtTheProducingStatement(t *testing.T) {
	p := mustCompile(t, "barrier b\n\nfor i in 0..4 {\n    arrive b\n}\n")
	for _, in := range p.Instrs {
		want := int32(3) // the loop: init, increment, test, back-branch
		switch in.Op {
		case isa.OpMbarArrive:
			want = 4
		case isa.OpExit:
			want = 6
		}
		if in.Pos.Line != want {
			t.Errorf("%s at line %d, want line %d", in.String(), in.Pos.Line, want)
		}
	}
	if a := p.Instrs[find(p, isa.OpMbarArrive)[0]]; a.Pos.Col != 5 {
		t.Errorf("arrive at column %d, want 5", a.Pos.Col)
	}
}

func TestCountedLoopHasBackwardBranchReconvergingAtExit(t *testing.T) {
	p := mustCompile(t, "param n = 3\nlet x = 0\nfor i in 0..n { x += i }\nx = 1\n")
	bras := find(p, isa.OpBra)
	if len(bras) != 2 {
		t.Fatalf("got %d branches, want the entry test and the back edge", len(bras))
	}
	entry, back := p.Instrs[bras[0]], p.Instrs[bras[1]]
	if back.Target >= int32(bras[1]) || back.Guard.Neg || back.Reconv != int32(bras[1]+1) {
		t.Errorf("back edge %s: want a forward-guarded branch up to the body, reconverging after it", back.String())
	}
	if entry.Target != int32(bras[1]+1) {
		t.Errorf("entry test jumps to %d, want the loop exit %d", entry.Target, bras[1]+1)
	}
	if cmp := p.Instrs[bras[1]-1]; cmp.Op != isa.OpSetp || cmp.Cmp != isa.CmpLt || cmp.Type != isa.S64 {
		t.Errorf("loop test %s (cmp %d): want setp.lt.s64", cmp.String(), cmp.Cmp)
	}
}

func TestWarpsBlockTestsWarpIndexFromTid(t *testing.T) {
	p := mustCompile(t, "block 160\nbarrier b\nwarps 1..4 { arrive b }\n")
	if p.Instrs[0].Op != isa.OpMov || p.Instrs[0].Ops[1] != isa.Spec(isa.STidX) {
		t.Fatalf("first instruction %s, want mov %%tid.x", p.Instrs[0].String())
	}
	if w := p.Instrs[1]; w.Op != isa.OpShr || w.Ops[2].Imm != 5 || w.Ops[1].Reg != p.Instrs[0].Ops[0].Reg {
		t.Errorf("warp computed as %s, want shr tid, 5", w.String())
	}
	if len(find(p, isa.OpBra)) != 1 || len(find(p, isa.OpAnd)) != 1 {
		t.Errorf("want one and.pred of two compares guarding one branch")
	}
	if p.Block != [3]int{160, 1, 1} {
		t.Errorf("got block %v", p.Block)
	}
}

func TestBarrierIndexAddressing(t *testing.T) {
	p := mustCompile(t, "barrier x, full[4]\narrive full[2]\narrive full[lane % 4]\n")
	ar := find(p, isa.OpMbarArrive)
	if got := p.Instrs[ar[0]].Ops[1]; got != isa.Addr(-1, 24) {
		t.Errorf("full[2] addressed as %s, want [0x18]", got.String())
	}
	got := p.Instrs[ar[1]].Ops[1]
	shl := p.Instrs[ar[1]-1]
	if got.Reg < 0 || int64(got.Imm) != 8 || shl.Op != isa.OpShl || shl.Ops[0].Reg != got.Reg || shl.Ops[2].Imm != 3 {
		t.Errorf("full[lane%%4] addressed as %s after %s, want [r+8] with r = index << 3", got.String(), shl.String())
	}
}

func TestConstantConditionKeepsOnlyTheLiveArm(t *testing.T) {
	p := mustCompile(t, "const DEBUG = 0\nbarrier b\nif DEBUG { arrive b } else { arrive_drop b }\n")
	if len(find(p, isa.OpBra)) != 0 || len(find(p, isa.OpSetp)) != 0 {
		t.Errorf("constant if left a branch or a compare")
	}
	if ar := find(p, isa.OpMbarArrive); len(ar) != 1 || !p.Instrs[ar[0]].Flags.Has(isa.FDrop) {
		t.Errorf("want only the else arm's arrive_drop")
	}
}

func TestIntegerMathUsesSixtyFourBitTypes(t *testing.T) {
	p := mustCompile(t, "let x = tid * 3 + lane / 2 - (warp % 3) ^ 5 & 6 | 1 << 2 >> 1\nif x < 4 { x = -x }\n")
	for _, in := range p.Instrs {
		switch in.Op {
		case isa.OpAdd, isa.OpSub, isa.OpMul, isa.OpDiv, isa.OpRem, isa.OpShr, isa.OpNeg, isa.OpSetp, isa.OpMov:
			if in.Type != isa.S64 && !(in.Op == isa.OpMov && in.Ops[1].Kind == isa.KSpecial) {
				t.Errorf("%s: want type s64", in.String())
			}
		case isa.OpAnd, isa.OpOr, isa.OpXor, isa.OpShl:
			if in.Type != isa.B64 {
				t.Errorf("%s: want type b64", in.String())
			}
		}
	}
}

func TestAddressFoldsConstantTerms(t *testing.T) {
	p := mustCompile(t, "shared pad[64]\nshared tile[4][256]\nld.shared [tile[2] + lane * 4 + 8]\nst.shared [pad + 4 - 2], 1\n")
	ld := p.Instrs[find(p, isa.OpLd)[0]]
	if off := int64(ld.Ops[1].Imm); ld.Ops[1].Reg < 0 || off != 128+512+8 {
		t.Errorf("got %s, want [r+648]", ld.String())
	}
	if st := p.Instrs[find(p, isa.OpSt)[0]]; st.Ops[0] != isa.Addr(-1, 2) {
		t.Errorf("got %s, want [0x2]", st.String())
	}
}

func TestHeaderSetsLaunchShape(t *testing.T) {
	p := mustCompile(t, "kernel k2\nblock 32, 2\ngrid 3, 1, 2\nsmem 1024 align 128\n")
	if p.Name != "k2" || p.Block != [3]int{32, 2, 1} || p.Grid != [3]int{3, 1, 2} || p.DynSmem != 1024 || p.DynSmemAlign != 128 {
		t.Errorf("got name %s block %v grid %v smem %d align %d", p.Name, p.Block, p.Grid, p.DynSmem, p.DynSmemAlign)
	}
	if q := mustCompile(t, "let x = 1\n"); q.Name != "k" || q.Block != [3]int{} {
		t.Errorf("defaults: got name %q block %v, want the file name and no fixed block", q.Name, q.Block)
	}
}
