package ptx

import (
	"github.com/smsim/smsim/isa"
)

// matrix lowers ldmatrix and stmatrix (PTX ISA, "Warp-level matrix load
// and store instructions") for the shape sm_90 has, .m8n8 of .b16
// elements: .x1, .x2 or .x4 matrices, each row of 16 bytes at an address
// one thread gives, optionally transposed (.trans). The register of matrix
// i of each thread holds two elements of one row (of one column with
// .trans). Op Mode bit 0 is .trans; NDst (ldmatrix) or the sources after
// the address (stmatrix) are the matrices.
func (l *lowerer) matrix(in *Instr, m *mods) error {
	if !m.take("sync") || !m.take("aligned") {
		return l.errf("%s needs .sync.aligned", in.Op)
	}
	if shape := m.takeAny("m8n8", "m16n16", "m8n16", "m16n8"); shape != "m8n8" {
		if shape == "" {
			return l.errf("%s needs a shape (.m8n8)", in.Op)
		}
		return l.unsupported("%s.%s is sm_100's; sm_90 has .m8n8", in.Op, shape)
	}
	n := map[string]int{"x1": 1, "x2": 2, "x4": 4}[m.takeAny("x1", "x2", "x4")]
	if n == 0 {
		return l.errf("%s needs .x1, .x2 or .x4", in.Op)
	}
	x := isa.Instr{Op: isa.OpLdmatrix, Type: isa.B16, Space: isa.Generic}
	if in.Op == "stmatrix" {
		x.Op = isa.OpStmatrix
	}
	if m.take("trans") {
		x.Mode = 1
	}
	if sp, ok := space(m); ok {
		if sp != isa.Shared {
			return l.errf("%s reads and writes shared memory, not .%s", in.Op, sp)
		}
		x.Space = sp
	}
	if m.takeAny("b16", "b8", "b8x16.b6x16_p32", "b8x16.b4x16_p64") != "b16" {
		return l.unsupported("%s needs .b16 (the 8-bit forms are sm_100's)", in.Op)
	}
	if err := l.nops(in, 2); err != nil {
		return err
	}
	regsAt, addrAt := 0, 1
	if x.Op == isa.OpStmatrix {
		regsAt, addrAt = 1, 0
	}
	regs := []Operand{in.Operands[regsAt]}
	if v, ok := in.Operands[regsAt].(*Vector); ok {
		regs = v.Elems
	}
	if len(regs) != n {
		return l.errf("%s.x%d moves %d registers, found %s", in.Op, n, n, in.Operands[regsAt])
	}
	a, err := l.mem(in.Operands[addrAt], x.Space)
	if err != nil {
		return err
	}
	var ops []isa.Operand
	for _, r := range regs {
		var v isa.Operand
		if x.Op == isa.OpLdmatrix {
			v, err = l.dst(r)
		} else {
			v, err = l.val(r, isa.B32)
		}
		if err != nil {
			return err
		}
		ops = append(ops, v)
	}
	if x.Op == isa.OpLdmatrix {
		x.NDst = uint8(n)
		x.Ops = append(ops, a)
	} else {
		x.Ops = append([]isa.Operand{a}, ops...)
	}
	l.emit(x)
	return nil
}

// movmatrix lowers movmatrix.sync.aligned.m8n8.trans.b16 d, a: the 8x8
// matrix whose row l/4, columns 2(l%4) and 2(l%4)+1 thread l holds in a,
// transposed, in the same layout in d.
func (l *lowerer) movmatrix(in *Instr, m *mods) error {
	if !m.take("sync") || !m.take("aligned") || !m.take("m8n8") || !m.take("trans") || !m.take("b16") {
		return l.errf("movmatrix needs .sync.aligned.m8n8.trans.b16")
	}
	if err := l.nops(in, 2); err != nil {
		return err
	}
	d, err := l.dst(in.Operands[0])
	if err != nil {
		return err
	}
	a, err := l.val(in.Operands[1], isa.B32)
	if err != nil {
		return err
	}
	l.emit(isa.Instr{Op: isa.OpMovmatrix, Type: isa.B16, NDst: 1, Ops: []isa.Operand{d, a}})
	return nil
}
