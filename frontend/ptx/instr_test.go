package ptx

import (
	"reflect"
	"strings"
	"testing"
)

// kernel parses body inside an entry and returns the entry.
func kernel(t *testing.T, body string) *Func {
	t.Helper()
	src := header + ".global .u64 gsym;\n.visible .entry k(\n.param .u64 k_param_0\n)\n{\n" + body + "\n}\n"
	return mustParse(t, src).Func("k")
}

func TestInstructions(t *testing.T) {
	tests := []struct {
		name  string
		body  string
		want  []string // String() of each instruction
		check func(t *testing.T, ins []*Instr)
	}{
		{"vector load with sink", "ld.global.nc.v4.u32 {%r1, %r2, _, %r4}, [%rd1+16];",
			[]string{"ld.global.nc.v4.u32 {%r1, %r2, _, %r4}, [%rd1+16]"},
			func(t *testing.T, ins []*Instr) {
				v := ins[0].Operands[0].(*Vector)
				if _, ok := v.Elems[2].(*Sink); !ok || len(v.Elems) != 4 {
					t.Errorf("vector = %#v", v)
				}
			}},
		{"five-dimensional tensor coordinates", "cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2, %r3, %r4, %r5, %r6}], [%r7];",
			[]string{"cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2, %r3, %r4, %r5, %r6}], [%r7]"},
			func(t *testing.T, ins []*Instr) {
				if v := ins[0].Operands[1].(*Addr).Coords[0].(*Vector); len(v.Elems) != 5 {
					t.Errorf("coords = %v", v)
				}
			}},
		{"indirect call through prototype", `	{ // callseq 1, 0
	.param .b64 param0;
	st.param.b64 	[param0+0], %rd1;
	.param .b32 retval0;
	prototype_1 : .callprototype (.param .b32 _) _ (.param .b64 _, .param .align 16 .b8 _[16]) ;
	call (retval0), 
	%rd2, 
	(
	param0
	)
	, prototype_1;
	ld.param.b32 	%r1, [retval0+0];
	} // callseq 1`,
			[]string{"st.param.b64 [param0], %rd1", "call (retval0), %rd2, (param0), prototype_1", "ld.param.b32 %r1, [retval0]"},
			func(t *testing.T, ins []*Instr) {
				ops := ins[1].Operands
				if _, ok := ops[1].(*Reg); !ok {
					t.Errorf("callee = %#v, want *Reg", ops[1])
				}
				if s, ok := ops[3].(*Sym); !ok || s.Name != "prototype_1" {
					t.Errorf("prototype = %#v", ops[3])
				}
				if s, ok := ops[0].(*List).Elems[0].(*Sym); !ok || s.Name != "retval0" {
					t.Errorf("retval = %#v", ops[0])
				}
			}},
		{"direct call with arguments", "call.uni (retval0), _Z3fooii, (param0, param1);\ncall.uni _Z3barv, ();\ncall.uni _Z3bazv;",
			[]string{"call.uni (retval0), _Z3fooii, (param0, param1)", "call.uni _Z3barv, ()", "call.uni _Z3bazv"},
			func(t *testing.T, ins []*Instr) {
				if s := ins[0].Operands[1].(*Sym); s.Name != "_Z3fooii" || len(ins[0].Operands[2].(*List).Elems) != 2 {
					t.Errorf("call = %#v", ins[0].Operands)
				}
			}},
		{"integer immediates", "mov.b32 %r1, 0x7fffffff;\nmov.b32 %r2, 017;\nmov.b32 %r3, 0b101;\nmov.u32 %r4, 42U;\nmov.s32 %r5, -12;\nmov.u64 %rd1, 0xFFFFFFFFFFFFFFFF;\nmov.u32 %r6, 0;",
			[]string{"mov.b32 %r1, 0x7fffffff", "mov.b32 %r2, 017", "mov.b32 %r3, 0b101", "mov.u32 %r4, 42U", "mov.s32 %r5, -12", "mov.u64 %rd1, 0xFFFFFFFFFFFFFFFF", "mov.u32 %r6, 0"},
			func(t *testing.T, ins []*Instr) {
				want := []int64{0x7fffffff, 15, 5, 42, -12, -1, 0}
				for i, w := range want {
					imm := ins[i].Operands[1].(*Imm)
					if imm.Kind != ImmInt || imm.Int != w {
						t.Errorf("imm %d = %#v, want %d", i, imm, w)
					}
				}
				if !ins[3].Operands[1].(*Imm).Unsigned || !ins[5].Operands[1].(*Imm).Unsigned || ins[4].Operands[1].(*Imm).Unsigned {
					t.Errorf("unsigned flags wrong")
				}
			}},
		{"float immediates", "mov.f32 %f1, 0f3F800000;\nmov.f32 %f2, -0f3F800000;\nmov.f64 %fd1, 0d3FF8000000000000;\nmov.f64 %fd2, 1.5;\nmov.f64 %fd3, 2.5e-3;\nmov.f64 %fd4, 1E+2;",
			nil,
			func(t *testing.T, ins []*Instr) {
				want := []float64{1, -1, 1.5, 1.5, 2.5e-3, 100}
				kinds := []ImmKind{ImmF32, ImmF32, ImmF64, ImmF64, ImmF64, ImmF64}
				for i, w := range want {
					imm := ins[i].Operands[1].(*Imm)
					if imm.Float() != w || imm.Kind != kinds[i] {
						t.Errorf("imm %d = %#v (%v), want %v", i, imm, imm.Float(), w)
					}
				}
			}},
		{"predicate pair and negation", "setp.lt.s32 %p1|%p2, %r1, %r2;\nselp.b32 %r3, %r1, %r2, !%p1;\n@!%p2 bra $L__BB0_1;\n$L__BB0_1:\nret;",
			[]string{"setp.lt.s32 %p1|%p2, %r1, %r2", "selp.b32 %r3, %r1, %r2, !%p1", "@!%p2 bra $L__BB0_1", "ret"},
			func(t *testing.T, ins []*Instr) {
				pp := ins[0].Operands[0].(*Pair)
				if pp.A.(*Reg).Name != "%p1" || pp.B.(*Reg).Name != "%p2" {
					t.Errorf("pair = %#v", pp)
				}
				if n := ins[1].Operands[3].(*Not); n.X.(*Reg).Name != "%p1" {
					t.Errorf("not = %#v", n)
				}
				if g := ins[2].Guard; !g.Neg || g.Pred.Name != "%p2" || g.Pos != ins[2].Pos {
					t.Errorf("guard = %#v", g)
				}
			}},
		{"shuffle and elect pairs", "shfl.sync.bfly.b32 %r2|%p1, %r1, 16, 31, -1;\nelect.sync _|%p2, -1;",
			[]string{"shfl.sync.bfly.b32 %r2|%p1, %r1, 16, 31, -1", "elect.sync _|%p2, -1"},
			func(t *testing.T, ins []*Instr) {
				if _, ok := ins[1].Operands[0].(*Pair).A.(*Sink); !ok {
					t.Errorf("elect dst = %#v", ins[1].Operands[0])
				}
			}},
		{"symbol with offset", "mov.u64 %rd1, gsym+4;\ncvta.global.u64 %rd2, gsym;\nmov.u64 %rd3, gsym-8;",
			[]string{"mov.u64 %rd1, gsym+4", "cvta.global.u64 %rd2, gsym", "mov.u64 %rd3, gsym+-8"},
			func(t *testing.T, ins []*Instr) {
				if s := ins[0].Operands[1].(*Sym); s.Name != "gsym" || s.Offset != 4 {
					t.Errorf("sym = %#v", s)
				}
			}},
		{"address forms", "ld.u64 %rd1, [%rd2+-8];\nld.global.u32 %r1, [gsym+16];\nld.u32 %r2, [64];\nld.u32 %r3, [%rd4-4];",
			[]string{"ld.u64 %rd1, [%rd2+-8]", "ld.global.u32 %r1, [gsym+16]", "ld.u32 %r2, [64]", "ld.u32 %r3, [%rd4+-4]"},
			func(t *testing.T, ins []*Instr) {
				a := ins[2].Operands[1].(*Addr)
				if a.Base != nil || a.Offset != 64 {
					t.Errorf("absolute = %#v", a)
				}
				if s := ins[1].Operands[1].(*Addr); s.Base.(*Sym).Name != "gsym" || s.Offset != 16 {
					t.Errorf("symbolic = %#v", s)
				}
			}},
		{"special registers", "mov.u32 %r1, %ctaid.y;\nmov.u32 %r2, %laneid;\nmov.u32 %r3, %envreg3;\nmov.u32 %r4, %cluster_ctarank;\nmov.u64 %rd1, %pm0_64;\nmov.u32 %r5, %envreg32;",
			nil,
			func(t *testing.T, ins []*Instr) {
				special := []bool{true, true, true, true, true, false}
				for i, w := range special {
					r := ins[i].Operands[1].(*Reg)
					if r.Special != w || ins[i].Operands[0].(*Reg).Special {
						t.Errorf("%s special = %v, want %v", r, r.Special, w)
					}
				}
				if r := ins[0].Operands[1].(*Reg); r.Name != "%ctaid" || r.Comp != "y" {
					t.Errorf("ctaid = %#v", r)
				}
			}},
		{"inline asm scope declares plain registers", "{\n.reg .pred p;\n.reg .b32 t<2>;\nsetp.ne.s32 p, %r1, 0;\n@p mov.b32 t1, 0;\n}\nmov.u64 %rd1, p;\nmov.b32 %r2, t1;",
			nil,
			func(t *testing.T, ins []*Instr) {
				if _, ok := ins[0].Operands[0].(*Reg); !ok {
					t.Errorf("p inside = %#v", ins[0].Operands[0])
				}
				if _, ok := ins[1].Operands[0].(*Reg); !ok || ins[1].Guard.Pred.Name != "p" {
					t.Errorf("t1 inside = %#v", ins[1].Operands[0])
				}
				if _, ok := ins[2].Operands[1].(*Sym); !ok {
					t.Errorf("p outside = %#v, want *Sym", ins[2].Operands[1])
				}
				if _, ok := ins[3].Operands[1].(*Sym); !ok {
					t.Errorf("t1 outside = %#v, want *Sym", ins[3].Operands[1])
				}
			}},
		{"mma fragments", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8};",
			[]string{"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8}"}, nil},
		{"wgmma with scope predicate", "{\n.reg .pred p;\nsetp.ne.b32 p, %r9, 0;\nwgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd1, %rd2, p, 1, 1, 0, 1;\n}",
			[]string{"setp.ne.b32 p, %r9, 0", "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd1, %rd2, p, 1, 1, 0, 1"}, nil},
		{"branch table", "$L_brx_0: .branchtargets $L__BB0_1, $L__BB0_2;\nbrx.idx %r1, $L_brx_0;\n$L__BB0_1:\n$L__BB0_2:\nret;",
			[]string{"brx.idx %r1, $L_brx_0", "ret"}, nil},
		{"operandless instructions", "fence.proxy.async.shared::cta;\n@%p1 exit;\nret;;",
			[]string{"fence.proxy.async.shared::cta", "@%p1 exit", "ret"},
			func(t *testing.T, ins []*Instr) {
				if ins[0].Op != "fence" || !reflect.DeepEqual(ins[0].Mods, []string{"proxy", "async", "shared::cta"}) || !ins[0].HasMod("async") {
					t.Errorf("fence = %q %q", ins[0].Op, ins[0].Mods)
				}
			}},
		{"cache qualifiers keep double colons", "ld.global.nc.L1::no_allocate.L2::256B.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];\ncp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%r1], [%rd1], %r2, [%r3], %rd4;",
			nil,
			func(t *testing.T, ins []*Instr) {
				if !reflect.DeepEqual(ins[0].Mods, []string{"global", "nc", "L1::no_allocate", "L2::256B", "v4", "u32"}) {
					t.Errorf("mods = %q", ins[0].Mods)
				}
				if ins[1].Opcode() != "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint" || len(ins[1].Operands) != 5 {
					t.Errorf("opcode = %q", ins[1].Opcode())
				}
			}},
		{"positions of instructions and operands", "\tmov.u32\t%r1, %tid.x;\n  @%p1 bra $L;",
			nil,
			func(t *testing.T, ins []*Instr) {
				if ins[0].Pos != (Pos{"t.ptx", 9, 2}) || ins[0].Operands[1].Position() != (Pos{"t.ptx", 9, 15}) {
					t.Errorf("pos = %v %v", ins[0].Pos, ins[0].Operands[1].Position())
				}
				if ins[1].Pos != (Pos{"t.ptx", 10, 3}) || ins[1].Operands[0].Position() != (Pos{"t.ptx", 10, 12}) {
					t.Errorf("pos = %v %v", ins[1].Pos, ins[1].Operands[0].Position())
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ins := kernel(t, tt.body).Instrs()
			if tt.want != nil {
				var got []string
				for _, in := range ins {
					got = append(got, in.String())
				}
				if !reflect.DeepEqual(got, tt.want) {
					t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
				}
			}
			if tt.check != nil {
				tt.check(t, ins)
			}
		})
	}
}

func TestCallPrototypeAndTargets(t *testing.T) {
	f := kernel(t, "proto_0 : .callprototype (.param .b32 _) _ (.param .b64 _) .noreturn;\n$L_t: .calltargets foo, bar;\nret;")
	pr := f.Body.Stmts[0].(*Proto)
	if pr.Name != "proto_0" || sigs(pr.Returns) != "b32" || sigs(pr.Params) != "b64" || pr.Attrs[0].Name != "noreturn" {
		t.Errorf("proto = %+v", pr)
	}
	tg := f.Body.Stmts[1].(*Targets)
	if tg.Kind != "calltargets" || !reflect.DeepEqual(tg.Names, []string{"foo", "bar"}) {
		t.Errorf("targets = %+v", tg)
	}
}
