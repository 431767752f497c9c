package ptx

import (
	"reflect"
	"testing"
)

func TestCalibrationInstructions(t *testing.T) {
	mods := func(s ...string) []string { return s }
	tests := []struct {
		name  string
		file  string
		entry string
		text  string // full String() of the instruction
		op    string
		mods  []string
		check func(t *testing.T, in *Instr)
	}{
		{"tensor copy has coordinate vector", "microbench.ptx", "_Z11k_tma2d_lat14CUtensorMap_stiiiiiPx",
			"cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r18], [%rd1, {%r19, %r20}], [%r11]",
			"cp", mods("async", "bulk", "tensor", "2d", "shared::cluster", "global", "tile", "mbarrier::complete_tx::bytes"),
			func(t *testing.T, in *Instr) {
				a := in.Operands[1].(*Addr)
				v := a.Coords[0].(*Vector)
				if a.Base.(*Reg).Name != "%rd1" || len(a.Coords) != 1 || v.Elems[1].(*Reg).Name != "%r20" {
					t.Errorf("tensor address = %#v", a)
				}
			}},
		{"bulk copy has four operands", "microbench.ptx", "_Z10k_bulk_latPKhmjmiPx",
			"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r13], [%rd13], %r5, [%r7]",
			"cp", mods("async", "bulk", "shared::cluster", "global", "mbarrier::complete_tx::bytes"), nil},
		{"inline asm predicate p is a register", "microbench.ptx", "_Z5k_latiPx",
			"mbarrier.try_wait.parity.shared::cta.b64 p, [%r9], %r102",
			"mbarrier", mods("try_wait", "parity", "shared::cta", "b64"),
			func(t *testing.T, in *Instr) {
				if r, ok := in.Operands[0].(*Reg); !ok || r.Name != "p" || r.Special {
					t.Errorf("operand 0 = %#v, want register p", in.Operands[0])
				}
			}},
		{"selp reads inline predicate", "microbench.ptx", "_Z5k_latiPx",
			"selp.u32 %r19, 1, 0, p", "selp", mods("u32"),
			func(t *testing.T, in *Instr) {
				if imm := in.Operands[1].(*Imm); imm.Kind != ImmInt || imm.Int != 1 {
					t.Errorf("imm = %#v", imm)
				}
				if _, ok := in.Operands[3].(*Reg); !ok {
					t.Errorf("p = %#v, want *Reg", in.Operands[3])
				}
			}},
		{"guarded branch targets a label symbol", "microbench.ptx", "_Z5k_latiPx",
			"@%p1 bra $L__BB0_9", "bra", nil,
			func(t *testing.T, in *Instr) {
				if in.Guard == nil || in.Guard.Neg || in.Guard.Pred.Name != "%p1" {
					t.Errorf("guard = %#v", in.Guard)
				}
				if s := in.Operands[0].(*Sym); s.Name != "$L__BB0_9" {
					t.Errorf("target = %#v", s)
				}
			}},
		{"clock64 is special", "microbench.ptx", "_Z5k_latiPx",
			"mov.u64 %rd9, %clock64", "mov", mods("u64"),
			func(t *testing.T, in *Instr) {
				if r := in.Operands[1].(*Reg); !r.Special || r.Name != "%clock64" {
					t.Errorf("clock = %#v", r)
				}
			}},
		{"tid.x has a component", "microbench.ptx", "_Z6k_wakeILb1EEviPx",
			"mov.u32 %r1, %tid.x", "mov", mods("u32"),
			func(t *testing.T, in *Instr) {
				if r := in.Operands[1].(*Reg); !r.Special || r.Name != "%tid" || r.Comp != "x" {
					t.Errorf("tid = %#v", r)
				}
			}},
		{"address of shared variable is a symbol", "microbench.ptx", "_Z5k_latiPx",
			"mov.u32 %r9, _ZZ5k_latiPxE3bar", "mov", mods("u32"),
			func(t *testing.T, in *Instr) {
				if s, ok := in.Operands[1].(*Sym); !ok || s.Name != "_ZZ5k_latiPxE3bar" {
					t.Errorf("operand = %#v", in.Operands[1])
				}
			}},
		{"store with offset", "microbench.ptx", "_Z6k_wakeILb1EEviPx",
			"st.global.u64 [%rd2+8], %rd7", "st", mods("global", "u64"),
			func(t *testing.T, in *Instr) {
				if a := in.Operands[0].(*Addr); a.Offset != 8 {
					t.Errorf("offset = %d", a.Offset)
				}
			}},
		{"vector store", "microbench.ptx", "_Z9k_bulk_bwPKhmjiiPx",
			"st.local.v2.u32 [%rd1], {%r77, %r77}", "st", mods("local", "v2", "u32"), nil},
		{"param load uses a symbol address", "microbench.ptx", "_Z5k_latiPx",
			"ld.param.u32 %r8, [_Z5k_latiPx_param_0]", "ld", mods("param", "u32"),
			func(t *testing.T, in *Instr) {
				if s := in.Operands[1].(*Addr).Base.(*Sym); s.Name != "_Z5k_latiPx_param_0" {
					t.Errorf("base = %#v", s)
				}
			}},
		{"arrive with count", "microbench.ptx", "_Z13k_arrive_waitILi4EEviPx",
			"mbarrier.arrive.shared::cta.b64 %rd7, [%r13], %r21", "mbarrier", mods("arrive", "shared::cta", "b64"), nil},
		{"negative address offset", "hwprobe.ptx", "_Z15p_smem_conflictiiPx",
			"st.shared.u32 [%r76+-256], %r75", "st", mods("shared", "u32"),
			func(t *testing.T, in *Instr) {
				if a := in.Operands[0].(*Addr); a.Offset != -256 {
					t.Errorf("offset = %d", a.Offset)
				}
			}},
		{"f32 hex immediates", "hwprobe.ptx", "_Z5p_aluifiPx",
			"fma.rn.f32 %f10, %f17, 0f3F800347, 0f3F000000", "fma", mods("rn", "f32"),
			func(t *testing.T, in *Instr) {
				if imm := in.Operands[3].(*Imm); imm.Kind != ImmF32 || imm.Bits != 0x3F000000 || imm.Float() != 0.5 {
					t.Errorf("imm = %#v", imm)
				}
			}},
		{"f64 hex immediates", "hwprobe.ptx", "_Z5p_aluifiPx",
			"fma.rn.f64 %fd10, %fd17, 0d3FF00068DB8BAC71, 0d3FE0000000000000", "fma", mods("rn", "f64"),
			func(t *testing.T, in *Instr) {
				if imm := in.Operands[2].(*Imm); imm.Kind != ImmF64 || imm.Bits != 0x3FF00068DB8BAC71 {
					t.Errorf("imm = %#v", imm)
				}
			}},
		{"try_wait with time limit", "hwprobe.ptx", "_Z17p_trywait_timeoutjPx",
			"mbarrier.try_wait.parity.shared::cta.b64 p, [%r26], %r31, %r25", "mbarrier", mods("try_wait", "parity", "shared::cta", "b64"), nil},
		{"expect_tx relaxed cta", "hwprobe.ptx", "_Z13p_late_expectPx",
			"mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r1], %r10", "mbarrier", mods("expect_tx", "relaxed", "cta", "shared::cta", "b64"), nil},
		{"warp sync with negative immediate", "microbench.ptx", "_Z6k_wakeILb1EEviPx",
			"bar.warp.sync -1", "bar", mods("warp", "sync"),
			func(t *testing.T, in *Instr) {
				if imm := in.Operands[0].(*Imm); imm.Int != -1 || imm.Kind != ImmInt {
					t.Errorf("imm = %#v", imm)
				}
			}},
	}
	files := map[string]*Module{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := files[tt.file]
			if m == nil {
				m = parseCalib(t, tt.file)
				files[tt.file] = m
			}
			f := m.Func(tt.entry)
			if f == nil {
				t.Fatalf("no entry %s", tt.entry)
			}
			in := findInstr(t, f, tt.text)
			if in.String() != tt.text || in.Op != tt.op || !reflect.DeepEqual(in.Mods, tt.mods) {
				t.Errorf("got %q op %q mods %q, want %q op %q mods %q", in.String(), in.Op, in.Mods, tt.text, tt.op, tt.mods)
			}
			if tt.check != nil {
				tt.check(t, in)
			}
		})
	}
}

func TestCalibrationBodyStructure(t *testing.T) {
	m := parseCalib(t, "microbench.ptx")
	f := m.Func("_Z5k_latiPx")
	var regs, shared []*VarDecl
	var blocks int
	f.Body.Walk(func(s Stmt) {
		switch s := s.(type) {
		case *VarDecl:
			if s.Space == "reg" && s.Count > 0 {
				regs = append(regs, s)
			}
			if s.Space == "shared" {
				shared = append(shared, s)
			}
		case *Block:
			blocks++
			if d, ok := s.Stmts[0].(*VarDecl); !ok || d.Name != "p" || d.Type != "pred" {
				t.Errorf("inline block starts with %#v", s.Stmts[0])
			}
		}
	})
	if len(regs) != 3 || regs[1].Name != "%r" || regs[1].Count != 105 || regs[1].Type != "b32" {
		t.Errorf("register ranges = %+v", regs)
	}
	if len(shared) != 2 || shared[0].Name != "_ZZ5k_latiPxE3bar" || shared[0].Align != 8 ||
		!reflect.DeepEqual(shared[0].Array, []int{24}) {
		t.Errorf("shared decls = %+v", shared)
	}
	if blocks != 3 {
		t.Errorf("%d inline blocks, want 3", blocks)
	}
	pragmas := 0
	parseCalib(t, "hwprobe.ptx").Func("_Z5p_aluifiPx").Body.Walk(func(s Stmt) {
		if p, ok := s.(*Pragma); ok && reflect.DeepEqual(p.Values, []string{"nounroll"}) {
			pragmas++
		}
	})
	if pragmas != 4 {
		t.Errorf("%d nounroll pragmas, want 4", pragmas)
	}
}
