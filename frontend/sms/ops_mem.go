package sms

import (
	"strings"

	"github.com/smsim/smsim/isa"
)

// lookupOtherOp returns the memory, copy, timing and synchronisation operations.
func lookupOtherOp(base string) *opSpec {
	switch base {
	case "ld":
		return &opSpec{"ld.shared|global[.TYPE] [ADDR]", true, (*gen).opLd}
	case "st":
		return &opSpec{"st.shared|global[.TYPE] [ADDR], VALUE", false, (*gen).opSt}
	case "copy":
		return &opSpec{"copy.bulk [DST], [SRC], BYTES, BAR | copy.tensor [DST], MAP[c0, ...], BAR", false, (*gen).opCopy}
	case "store":
		return &opSpec{"store.bulk [DST], [SRC], BYTES | store.tensor MAP[c0, ...], [SRC]", false, (*gen).opStore}
	case "commit_group":
		return &opSpec{"commit_group", false, (*gen).opCommit}
	case "wait_group":
		return &opSpec{"wait_group[.read] N", false, (*gen).opWaitGroup}
	}
	return lookupMiscOp(base)
}

// memMods reads .shared|.global and an optional integer type (default u32).
func memMods(s *opStmt, mods []string) (isa.Space, isa.Type, error) {
	if len(mods) == 0 || len(mods) > 2 || mods[0] != "shared" && mods[0] != "global" {
		return 0, 0, errAt(s.pos, "expected %s.shared or %s.global with an optional type (.u32, .u64, ...), found %s", mods0(s), mods0(s), s.name)
	}
	space, typ := isa.Shared, isa.U32
	if mods[0] == "global" {
		space = isa.Global
	}
	if len(mods) == 2 {
		t, ok := isa.ParseType(mods[1])
		if !ok || t.Float() || t.Bits() < 8 || t.Bits() > 64 {
			return 0, 0, errAt(s.pos, "expected an integer type (.u8 .u16 .u32 .u64 .s8 ... .b64) on %s, found .%s", mods0(s), mods[1])
		}
		typ = t
	}
	return space, typ, nil
}

func mods0(s *opStmt) string { return strings.SplitN(s.name, ".", 2)[0] }

// opLd lowers ld.space.type d, [addr]; the value is zero- or sign-extended
// to 64 bits as PTX does for a wider destination register.
func (g *gen) opLd(s *opStmt, mods []string, dst int) error {
	space, typ, err := memMods(s, mods)
	if err != nil {
		return err
	}
	if _, err := g.shape(s, 1, 1); err != nil {
		return err
	}
	a, err := g.addrArg(s.args[0], "an address")
	if err != nil {
		return err
	}
	g.emit(isa.Instr{Op: isa.OpLd, Type: typ, Space: space, NDst: 1, Ops: []isa.Operand{isa.R(g.dest(dst)), a}})
	return nil
}

// opSt lowers st.space.type [addr], value (the low bits of the value).
func (g *gen) opSt(s *opStmt, mods []string, _ int) error {
	space, typ, err := memMods(s, mods)
	if err != nil {
		return err
	}
	if _, err := g.shape(s, 2, 2); err != nil {
		return err
	}
	a, err := g.addrArg(s.args[0], "an address")
	if err != nil {
		return err
	}
	v, err := g.valArg(s.args[1], "a value to store")
	g.emit(isa.Instr{Op: isa.OpSt, Type: typ, Space: space, Ops: []isa.Operand{a, v}})
	return err
}

// bulkKind reads the single .bulk or .tensor modifier of copy and store.
func bulkKind(s *opStmt, mods []string) (bool, error) {
	if len(mods) != 1 || mods[0] != "bulk" && mods[0] != "tensor" {
		return false, errAt(s.pos, "expected %s.bulk or %s.tensor, found %s", mods0(s), mods0(s), s.name)
	}
	return mods[0] == "tensor", nil
}

// operands lowers a list of operands with one lowering function each.
func (g *gen) operands(fs ...func() (isa.Operand, error)) ([]isa.Operand, error) {
	out := make([]isa.Operand, 0, len(fs))
	for _, f := range fs {
		o, err := f()
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, nil
}

// opCopy lowers the global -> shared copies that complete_tx on a barrier:
//
//	copy.bulk   [dst], [src], size, [mbar]              (cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes)
//	copy.tensor [dst], [tensormap], c0..cN-1, [mbar]    (cp.async.bulk.tensor.Nd...tile.mbarrier::complete_tx::bytes)
func (g *gen) opCopy(s *opStmt, mods []string, _ int) error {
	tensor, err := bulkKind(s, mods)
	if err != nil {
		return err
	}
	in := isa.Instr{Op: isa.OpBulkCopy, Space: isa.Shared, Space2: isa.Global}
	if !tensor {
		if _, err := g.shape(s, 4, 4); err != nil {
			return err
		}
		a := s.args
		in.Ops, err = g.operands(
			func() (isa.Operand, error) { return g.addrArg(a[0], "a shared destination address") },
			func() (isa.Operand, error) { return g.addrArg(a[1], "a global source address") },
			func() (isa.Operand, error) { return g.valArg(a[2], "a byte count") },
			func() (isa.Operand, error) { return g.barArg(a[3]) })
		if err == nil {
			g.emit(in)
		}
		return err
	}
	if _, err := g.shape(s, 3, 3); err != nil {
		return err
	}
	dstA, err := g.addrArg(s.args[0], "a shared destination address")
	if err != nil {
		return err
	}
	tm, coords, err := g.tensorArg(s.args[1])
	if err != nil {
		return err
	}
	bar, err := g.barArg(s.args[2])
	in.Op, in.Dim = isa.OpBulkTensor, uint8(len(coords))
	in.Ops = append(append([]isa.Operand{dstA, tm}, coords...), bar)
	g.emit(in)
	return err
}

// opStore lowers the shared -> global copies that join the bulk async-group:
//
//	store.bulk   [dst], [src], size           (cp.async.bulk.global.shared::cta.bulk_group)
//	store.tensor [tensormap], c0..cN-1, [src] (cp.async.bulk.tensor.Nd.global.shared::cta.tile.bulk_group)
func (g *gen) opStore(s *opStmt, mods []string, _ int) error {
	tensor, err := bulkKind(s, mods)
	if err != nil {
		return err
	}
	in := isa.Instr{Op: isa.OpBulkCopy, Space: isa.Global, Space2: isa.Shared}
	if !tensor {
		if _, err := g.shape(s, 3, 3); err != nil {
			return err
		}
		a := s.args
		in.Ops, err = g.operands(
			func() (isa.Operand, error) { return g.addrArg(a[0], "a global destination address") },
			func() (isa.Operand, error) { return g.addrArg(a[1], "a shared source address") },
			func() (isa.Operand, error) { return g.valArg(a[2], "a byte count") })
		if err == nil {
			g.emit(in)
		}
		return err
	}
	if _, err := g.shape(s, 2, 2); err != nil {
		return err
	}
	tm, coords, err := g.tensorArg(s.args[0])
	if err != nil {
		return err
	}
	src, err := g.addrArg(s.args[1], "a shared source address")
	in.Op, in.Dim, in.Flags = isa.OpBulkTensor, uint8(len(coords)), isa.FStore
	in.Ops = append(append([]isa.Operand{tm}, coords...), src)
	g.emit(in)
	return err
}

// tensorArg lowers MAP[c0, ...]: the tensor map's generic address (in the
// kernel-parameter window, as cvta.param gives it) and 1 to 5 coordinates.
func (g *gen) tensorArg(a arg) (isa.Operand, []isa.Operand, error) {
	x, ok := a.x.(*indexExpr)
	if a.addr || !ok {
		return isa.Operand{}, nil, errAt(a.pos, "expected a tensor map with coordinates (MAP[x, y]), found an expression")
	}
	s, err := g.resolve(a.pos, x.name)
	if err != nil {
		return isa.Operand{}, nil, err
	}
	if s.kind != symTensor {
		return isa.Operand{}, nil, errAt(a.pos, "expected a tensor map, found %s %s", s.kind, x.name)
	}
	if len(x.idx) > 5 {
		return isa.Operand{}, nil, errAt(a.pos, "tensor copies have 1 to 5 coordinates, found %d", len(x.idx))
	}
	coords := make([]isa.Operand, 0, len(x.idx))
	for _, c := range x.idx {
		o, err := g.operand(c)
		if err != nil {
			return isa.Operand{}, nil, err
		}
		coords = append(coords, o)
	}
	return isa.Addr(-1, int64(isa.ParamWindow)+s.val), coords, nil
}

func (g *gen) opCommit(s *opStmt, mods []string, _ int) error {
	if err := noMods(s, mods); err != nil {
		return err
	}
	_, err := g.shape(s, 0, 0)
	g.emit(isa.Instr{Op: isa.OpBulkCommit})
	return err
}

// opWaitGroup lowers cp.async.bulk.wait_group[.read] N (N a constant).
func (g *gen) opWaitGroup(s *opStmt, mods []string, _ int) error {
	if err := noMods(s, mods, "read"); err != nil {
		return err
	}
	if _, err := g.shape(s, 1, 1); err != nil {
		return err
	}
	n, err := g.constantIn(s.args[0].x, "the number of pending groups", 0, 63)
	in := isa.Instr{Op: isa.OpBulkWait, Ops: []isa.Operand{isa.Imm(uint64(n))}}
	if len(mods) == 1 {
		in.Flags = isa.FRead
	}
	g.emit(in)
	return err
}
