package compiler

import (
	"testing"

	"github.com/smsim/smsim/isa"
)

func TestNarrowConversionsOfLoads(t *testing.T) {
	ld := func(d int, ty isa.Type) isa.Instr {
		return isa.Instr{Op: isa.OpLd, Type: ty, Space: isa.Shared, NDst: 1, Ops: []isa.Operand{isa.R(d), isa.Addr(9, 0)}, Class: isa.ClassShared}
	}
	cvt := func(st isa.Type) isa.Instr {
		in := isa.Instr{Op: isa.OpCvt, Type: isa.F32, Type2: st, Rnd: isa.RN, NDst: 1, Ops: []isa.Operand{isa.R(2), isa.R(1)}}
		in.Class = isa.ClassOf(&in)
		return in
	}
	tests := []struct {
		name string
		prog []isa.Instr
		want isa.Class
	}{
		{"a loaded u16 is already zero-extended: I2FP", []isa.Instr{ld(1, isa.U16), cvt(isa.U16)}, isa.ClassALU},
		{"a loaded s8 converted as s16: I2FP", []isa.Instr{ld(1, isa.S8), cvt(isa.S16)}, isa.ClassALU},
		{"an unsigned load converted as signed needs I2F.S16", []isa.Instr{ld(1, isa.U16), cvt(isa.S16)}, isa.ClassSFU},
		{"a value also computed elsewhere needs I2F.U16", []isa.Instr{ld(1, isa.U16), addRR(1, 3, 4), cvt(isa.U16)}, isa.ClassSFU},
		{"a wider load does not zero-extend 16 bits", []isa.Instr{ld(1, isa.U32), cvt(isa.U16)}, isa.ClassSFU},
	}
	for _, tc := range tests {
		p := &isa.Program{Instrs: append(append([]isa.Instr(nil), tc.prog...), isa.Instr{Op: isa.OpExit})}
		apply(NarrowConversionsOfLoads, p)
		if got := p.Instrs[len(tc.prog)-1].Class; got != tc.want {
			t.Errorf("%s: class %v, want %v", tc.name, got, tc.want)
		}
	}
}
