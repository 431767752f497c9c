package ptx

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/smsim/smsim/isa"
)

func TestLowerModuleData(t *testing.T) {
	src := header + `.global .align 4 .u32 a[3] = {1, -2, 3};
.global .align 8 .u64 p[2] = {a+4, generic(a)};
.global .align 4 .f32 f[2] = {0f3F800000, 2.5};
.global .align 1 .b8 bytes[4] = {0xFF(a), 0xFF00(a), 0, 7};
.const .align 8 .f64 c = 0d4000000000000000;
.global .align 4 .b32 zero[2];
.visible .entry k()
.reqntid 128, 2
{
	ret;
}
`
	ps, err := Compile("t.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p := ps[0]
	if p.Block != [3]int{128, 2, 1} {
		t.Errorf("block = %v, want .reqntid 128, 2", p.Block)
	}
	data := map[uint64][]byte{}
	for _, d := range p.Data {
		data[d.Addr] = d.Bytes
	}
	base := isa.GlobalDataBase
	u32 := func(b []byte, i int) uint32 { return binary.LittleEndian.Uint32(b[4*i:]) }
	u64 := func(b []byte, i int) uint64 { return binary.LittleEndian.Uint64(b[8*i:]) }
	if b := data[base]; u32(b, 0) != 1 || u32(b, 1) != 0xfffffffe || u32(b, 2) != 3 {
		t.Errorf("a = % x", b)
	}
	if b := data[base+16]; u64(b, 0) != base+4 || u64(b, 1) != base {
		t.Errorf("p = % x, want a+4 and a", b)
	}
	if b := data[base+32]; u32(b, 0) != math.Float32bits(1) || u32(b, 1) != math.Float32bits(2.5) {
		t.Errorf("f = % x", b)
	}
	if b := data[base+40]; b[0] != byte(base) || b[1] != byte(base>>8) || b[3] != 7 {
		t.Errorf("bytes = % x", b)
	}
	if b := data[isa.ConstDataBase]; u64(b, 0) != math.Float64bits(2) {
		t.Errorf("c = % x", b)
	}
	if b, ok := data[base+44]; !ok || len(b) != 8 {
		t.Errorf("an uninitialised .global is not mapped: % x", b)
	}
}

// Inline-asm blocks redeclare the same names; each block gets its own registers.
func TestLowerScopedRegisters(t *testing.T) {
	p := lowerSnippet(t, `
	{
	.reg .pred q;
	setp.ne.u32 q, %r1, 0;
	selp.u32 %r2, 1, 0, q;
	}
	{
	.reg .pred q;
	setp.ne.u32 q, %r3, 0;
	selp.u32 %r4, 1, 0, q;
	}`)
	first, second := p.Instrs[0].Ops[0], p.Instrs[2].Ops[0]
	if first.Kind != isa.KPred || second.Kind != isa.KPred || first.Reg == second.Reg {
		t.Errorf("the two q are %s and %s, want two predicates", first, second)
	}
	if p.Instrs[1].Ops[3] != first || p.Instrs[3].Ops[3] != second {
		t.Errorf("each selp must read its own block's q: %s, %s", &p.Instrs[1], &p.Instrs[3])
	}
}

// A guarded call skips the whole inlined body, ret inside it returns to
// the end of the body, and the callee's registers are reused afterwards.
func TestLowerCallShape(t *testing.T) {
	src := header + `.func (.param .b32 r) f(.param .b32 a)
{
	.reg .b32 %x;
	ld.param.b32 %x, [a];
	st.param.b32 [r], %x;
	ret;
}
.visible .entry k()
{
	.reg .pred %p;
	.reg .b32 %r<3>;
	{
	.param .b32 p0;
	.param .b32 r0;
	st.param.b32 [p0], %r1;
	@%p call (r0), f, (p0);
	ld.param.b32 %r2, [r0];
	}
	ret;
}
`
	ps, err := Compile("t.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := render(ps[0])
	want := "mov.b32 p0, %r1; @!%p bra {ndst=0} -> 4; mov.b32 %r2, p0; mov.b32 r0, %r2; mov.b32 %r2, r0" // %x is dead after the call: %r2 reuses its register
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestLowerSpecialRegisters(t *testing.T) {
	for s := isa.Special(1); s <= isa.SPM; s++ {
		name := s.String()
		switch s {
		case isa.SEnvReg:
			name = "%envreg3"
		case isa.SPM:
			name = "%pm2"
		}
		p := lowerSnippet(t, "\tmov.u32 %r1, "+name+";")
		if op := p.Instrs[0].Ops[1]; op.Kind != isa.KSpecial || op.Special != s || p.Instrs[0].Class != isa.ClassSpecial {
			t.Errorf("mov of %s = %s", name, &p.Instrs[0])
		}
	}
}

func TestLowerVectorRegisters(t *testing.T) {
	p := lowerSnippet(t, "\t.reg .v4 .f32 v;\n\tld.global.v4.f32 v, [%rd1];\n\tadd.f32 %f1, v.y, v.w;")
	ld, add := &p.Instrs[0], &p.Instrs[1]
	if ld.NDst != 4 || ld.Ops[1] != add.Ops[1] || ld.Ops[3] != add.Ops[2] {
		t.Errorf("ld %s / add %s: the add must read elements 1 and 3 of the load", ld, add)
	}
}

// A mov of a shared variable's address is marked HintSharedSym (ptxas forms it
// from the CTA's window); one of a global variable's, or of a register, is not.
func TestMovOfSharedAddressIsMarked(t *testing.T) {
	src := header + `.global .align 4 .u32 g[4];
.visible .entry k()
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<2>;
	.shared .align 8 .b64 bar;
	mov.u32 %r1, bar;
	mov.u64 %rd1, g;
	mov.u32 %r2, %r1;
	ret;
}
`
	ps, err := Compile("t.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var marks []bool
	for _, in := range ps[0].Instrs {
		if in.Op == isa.OpMov {
			marks = append(marks, in.Source.Has(isa.HintSharedSym))
		}
	}
	if len(marks) != 3 || !marks[0] || marks[1] || marks[2] {
		t.Errorf("HintSharedSym on the three movs: %v, want [true false false]", marks)
	}
}
