package ptx

import (
	"testing"

	"github.com/smsim/smsim/isa"
)

// compileCalib lowers one calibration file and indexes its kernels by name.
func compileCalib(t *testing.T, name string) map[string]*isa.Program {
	t.Helper()
	ps, err := Compile(name, readCalib(t, name))
	if err != nil {
		t.Fatalf("Compile(%s): %v", name, err)
	}
	out := map[string]*isa.Program{}
	for _, p := range ps {
		out[p.Name] = p
	}
	return out
}

// findOp returns the n-th (0-based) instruction with opcode op.
func findOp(t *testing.T, p *isa.Program, op isa.Op, n int) *isa.Instr {
	t.Helper()
	for i := range p.Instrs {
		if p.Instrs[i].Op == op {
			if n == 0 {
				return &p.Instrs[i]
			}
			n--
		}
	}
	t.Fatalf("%s: no %s #%d", p.Name, op, n)
	return nil
}

// findWhere returns the first instruction satisfying ok.
func findWhere(t *testing.T, p *isa.Program, what string, ok func(*isa.Instr) bool) *isa.Instr {
	t.Helper()
	for i := range p.Instrs {
		if ok(&p.Instrs[i]) {
			return &p.Instrs[i]
		}
	}
	t.Fatalf("%s: no %s", p.Name, what)
	return nil
}

func wantOps(t *testing.T, in *isa.Instr, kinds ...isa.Kind) {
	t.Helper()
	if len(in.Ops) != len(kinds) {
		t.Fatalf("%s: %d operands, want %d", in, len(in.Ops), len(kinds))
	}
	for i, k := range kinds {
		if in.Ops[i].Kind != k {
			t.Errorf("%s: operand %d is kind %d, want %d", in, i, in.Ops[i].Kind, k)
		}
	}
}

func TestCalibrationLowersEveryEntry(t *testing.T) {
	for _, f := range []struct {
		name    string
		entries int
	}{{"microbench.ptx", 11}, {"hwprobe.ptx", 9}} {
		ps := compileCalib(t, f.name)
		if len(ps) != f.entries {
			t.Errorf("%s: %d kernels, want %d", f.name, len(ps), f.entries)
		}
		for name, p := range ps {
			if last := p.Instrs[len(p.Instrs)-1]; last.Op != isa.OpExit || last.Guard.Kind != isa.KNone {
				t.Errorf("%s: does not end with exit", name)
			}
			for i := range p.Instrs {
				if p.Instrs[i].Class == isa.ClassNone {
					t.Errorf("%s: instruction %d has no class", name, i)
				}
			}
		}
	}
}

func TestCalibrationLatencyKernel(t *testing.T) {
	p := compileCalib(t, "microbench.ptx")["_Z5k_latiPx"]
	if len(p.Params) != 2 || p.Params[0].Offset != 0 || p.Params[1].Offset != 8 || p.ParamBytes != 16 {
		t.Errorf("params = %+v (%d bytes)", p.Params, p.ParamBytes)
	}
	ld := &p.Instrs[0]
	if ld.Op != isa.OpLd || ld.Space != isa.ParamSpace || ld.Ops[1] != isa.Addr(-1, 0) || ld.Type != isa.U32 {
		t.Errorf("first instruction %s, want ld.param.u32 r, [0x0]", ld)
	}
	bar, ok := p.SymbolAt(isa.Shared, 8)
	if !ok || bar.Name != "_ZZ5k_latiPxE3bar" || bar.Offset != 0 || bar.Size != 24 {
		t.Errorf("shared symbol at 8 = %+v", bar)
	}
	if sink, ok := p.SymbolAt(isa.Shared, 24); !ok || sink.Name != "_ZZ5k_latiPxE4sink" {
		t.Errorf("shared symbol at 24 = %+v", sink)
	}
	init := findOp(t, p, isa.OpMbarInit, 0)
	wantOps(t, init, isa.KAddr, isa.KReg)
	if init.Space != isa.Shared || init.NDst != 0 || init.Class != isa.ClassSyncs {
		t.Errorf("init = %s space %s", init, init.Space)
	}
	arr := findOp(t, p, isa.OpMbarArrive, 0)
	wantOps(t, arr, isa.KReg, isa.KAddr)
	if arr.NDst != 1 || arr.Flags != 0 {
		t.Errorf("arrive = %s flags %b", arr, arr.Flags)
	}
	wait := findOp(t, p, isa.OpMbarTryWait, 0)
	wantOps(t, wait, isa.KPred, isa.KAddr, isa.KReg)
	if !wait.Flags.Has(isa.FParity) || wait.Flags.Has(isa.FHint) || wait.NDst != 1 {
		t.Errorf("try_wait = %s flags %b", wait, wait.Flags)
	}
	if tw := findOp(t, p, isa.OpMbarTestWait, 0); !tw.Flags.Has(isa.FParity) {
		t.Errorf("test_wait = %s", tw)
	}
	st := findWhere(t, p, "shared store", func(in *isa.Instr) bool { return in.Op == isa.OpSt && in.Space == isa.Shared })
	if st.Space != isa.Shared || !st.Flags.Has(isa.FVolatile) || st.Ops[0] != isa.Addr(-1, 24) {
		t.Errorf("st.volatile.shared = %s", st)
	}
}

func TestCalibrationBulkKernels(t *testing.T) {
	ps := compileCalib(t, "microbench.ptx")
	p := ps["_Z10k_bulk_latPKhmjmiPx"]
	if p.DynSmemAlign != 1024 || p.DynSmemBase() != 1024 || p.SharedStatic != 8 {
		t.Errorf("shared: static %d, dynamic align %d base %d", p.SharedStatic, p.DynSmemAlign, p.DynSmemBase())
	}
	cp := findOp(t, p, isa.OpBulkCopy, 0)
	wantOps(t, cp, isa.KAddr, isa.KAddr, isa.KReg, isa.KAddr)
	if cp.Space != isa.Cluster || cp.Space2 != isa.Global || cp.Class != isa.ClassTMA {
		t.Errorf("bulk copy = %s spaces %s %s", cp, cp.Space, cp.Space2)
	}
	findWhere(t, p, "mov.u32 %r13, sm", func(in *isa.Instr) bool {
		return in.Op == isa.OpMov && in.Pos.Line == 429 && in.Ops[1] == isa.Imm(1024)
	})
	if e := findOp(t, p, isa.OpMbarArrive, 0); !e.Flags.Has(isa.FExpectTx) || len(e.Ops) != 3 {
		t.Errorf("arrive.expect_tx = %s", e)
	}
	if f := findOp(t, p, isa.OpFence, 0); !f.Flags.Has(isa.FProxyAsync) || f.Space != isa.Shared {
		t.Errorf("fence.proxy.async.shared::cta = %s", f)
	}
	bw := ps["_Z9k_bulk_bwPKhmjiiPx"]
	if bw.LocalBytes != 8 {
		t.Errorf("k_bulk_bw local bytes = %d", bw.LocalBytes)
	}
	if st := findOp(t, bw, isa.OpSt, 0); st.Space != isa.Local || st.Vec != 2 || len(st.Ops) != 3 {
		t.Errorf("st.local.v2 = %s", st)
	}
	tm := ps["_Z11k_tma2d_lat14CUtensorMap_stiiiiiPx"]
	if q := tm.Params[0]; q.Type != isa.B8 || q.Size != 128 || q.Align != 128 || tm.Params[1].Offset != 128 {
		t.Errorf("tensor map parameter = %+v, next at %d", q, tm.Params[1].Offset)
	}
	tc := findOp(t, tm, isa.OpBulkTensor, 0)
	wantOps(t, tc, isa.KAddr, isa.KAddr, isa.KReg, isa.KReg, isa.KAddr)
	if tc.Dim != 2 || tc.Space != isa.Cluster || tc.Space2 != isa.Global || tc.Flags.Has(isa.FIm2col) {
		t.Errorf("tensor copy = %s dim %d", tc, tc.Dim)
	}
	cvta := findOp(t, tm, isa.OpAdd, 0)
	if cvta.Ops[2] != isa.Imm(isa.ParamWindow) {
		t.Errorf("cvta.param = %s", cvta)
	}
}

func TestCalibrationProbeKernels(t *testing.T) {
	ps := compileCalib(t, "hwprobe.ptx")
	p := ps["_Z13p_late_expectPx"]
	for _, op := range []isa.Op{isa.OpMbarExpectTx, isa.OpMbarCompleteTx} {
		in := findOp(t, p, op, 0)
		wantOps(t, in, isa.KAddr, isa.KReg)
		if in.Sem != isa.SemRelaxed || in.Scope != isa.ScopeCTA || in.NDst != 0 {
			t.Errorf("%s: sem %d scope %d", in, in.Sem, in.Scope)
		}
	}
	for name, p := range ps {
		for _, y := range p.Symbols {
			if y.Space == isa.Shared && y.Size == 0 {
				t.Errorf("%s: empty shared symbol %s", name, y.Name)
			}
		}
	}
	if _, ok := ps["_Z5p_oob14CUtensorMap_stjiiPx"].SymbolAt(isa.Shared, 0); !ok {
		t.Error("p_oob: the demoted barrier has no symbol")
	}
}
