package ptx

import (
	"github.com/smsim/smsim/isa"
)

// bulk lowers cp.async.bulk: 1-D copies global->shared (mbarrier
// completion) and shared->global (bulk group), tensor copies, prefetches,
// and the bulk-group commit and wait.
func (l *lowerer) bulk(in *Instr, m *mods) error {
	switch {
	case m.take("commit_group"):
		l.emit(isa.Instr{Op: isa.OpBulkCommit})
		return l.nops(in, 0)
	case m.take("wait_group"):
		x := isa.Instr{Op: isa.OpBulkWait}
		if m.take("read") {
			x.Flags |= isa.FRead
		}
		if err := l.nops(in, 1); err != nil {
			return err
		}
		n, err := l.val(in.Operands[0], isa.U32)
		if err != nil {
			return err
		}
		x.Ops = []isa.Operand{n}
		l.emit(x)
		return nil
	case m.take("prefetch"):
		return l.bulkPrefetch(in, m)
	case m.take("tensor"):
		return l.tensor(in, m)
	}
	return l.bulkCopy(in, m)
}

// bulkCopy lowers the 1-D copies. A cache policy comes before a multicast
// CTA mask: isa documents the mask as the last operand.
func (l *lowerer) bulkCopy(in *Instr, m *mods) error {
	x := isa.Instr{Op: isa.OpBulkCopy}
	m.take("weak") // the default: the copy is a weak memory operation
	x.Space, _ = space(m)
	x.Space2, _ = space(m)
	load := x.Space == isa.Cluster || x.Space == isa.Shared
	switch {
	case load && x.Space2 == isa.Global:
		if !m.take("mbarrier::complete_tx::bytes") {
			return l.unsupported("missing .mbarrier::complete_tx::bytes")
		}
	case x.Space == isa.Global && x.Space2 == isa.Shared:
		if !m.take("bulk_group") {
			return l.unsupported("missing .bulk_group")
		}
	case x.Space == isa.Cluster && x.Space2 == isa.Shared:
		// Into the shared memory of another CTA of the cluster, completing
		// bytes on a barrier there (PTX ISA, cp.async.bulk).
		if !m.take("mbarrier::complete_tx::bytes") {
			return l.unsupported("missing .mbarrier::complete_tx::bytes")
		}
	default:
		return l.unsupported("bulk copy from .%s to .%s", x.Space2, x.Space)
	}
	if m.take("ignore_oob") {
		// Up to 15 bytes at either end of the source may lie outside its
		// allocation; the copy engine reads and checks all of them.
		return l.unsupported("source bytes out of bounds with .ignore_oob")
	}
	if m.take("multicast::cluster") {
		x.Flags |= isa.FMulticast
	}
	if cacheHints(m) {
		x.Flags |= isa.FCacheHint
	}
	n := 3
	if load {
		n = 4
	}
	if x.Flags.Has(isa.FMulticast) {
		n++
	}
	if x.Flags.Has(isa.FCacheHint) {
		n++
	}
	if err := l.nops(in, n); err != nil {
		return err
	}
	ops := in.Operands
	if x.Flags.Has(isa.FMulticast) && x.Flags.Has(isa.FCacheHint) {
		ops = []Operand{ops[0], ops[1], ops[2], ops[3], ops[5], ops[4]}
	}
	return l.emitBulk(x, ops, load)
}

// emitBulk converts the operands of a 1-D bulk copy or reduction (in isa
// order) into x and emits it.
func (l *lowerer) emitBulk(x isa.Instr, ops []Operand, load bool) error {
	for i, o := range ops {
		v, err := l.bulkOperand(o, i, x, load, i == len(ops)-1)
		if err != nil {
			return err
		}
		x.Ops = append(x.Ops, v)
	}
	l.emit(x)
	return nil
}

// bulkOperand converts operand i of a 1-D bulk copy (in isa order; last
// says it is the final one).
func (l *lowerer) bulkOperand(o Operand, i int, x isa.Instr, load, last bool) (isa.Operand, error) {
	switch {
	case i == 0:
		return l.mem(o, x.Space)
	case i == 1:
		return l.mem(o, x.Space2)
	case i == 3 && load:
		return l.mem(o, isa.Shared)
	case i == 2, last && x.Flags.Has(isa.FMulticast):
		return l.val(o, isa.U32) // size, CTA mask
	}
	return l.val(o, isa.B64) // cache policy
}

// tensor lowers cp.async.bulk.tensor.Nd loads (shared::cluster or
// shared::cta destination, tile or im2col) and stores (bulk group).
func (l *lowerer) tensor(in *Instr, m *mods) error {
	x := isa.Instr{Op: isa.OpBulkTensor}
	dim := m.takeAny("1d", "2d", "3d", "4d", "5d")
	if dim == "" {
		return l.unsupported("missing dimension")
	}
	x.Dim = dim[0] - '0'
	x.Space, _ = space(m)
	x.Space2, _ = space(m)
	if x.Space == isa.Global && x.Space2 == isa.Shared {
		return l.tensorStore(in, m, x)
	}
	// The load mode is optional and defaults to .tile (PTX ISA,
	// cp.async.bulk.tensor): CUTLASS's SM90_TMA_LOAD_2D and most hand-written
	// TMA code leave it out.
	if m.takeAny("tile", "im2col") == "im2col" {
		x.Flags |= isa.FIm2col
	}
	if (x.Space != isa.Cluster && x.Space != isa.Shared) || x.Space2 != isa.Global {
		return l.unsupported("tensor copy from .%s to .%s", x.Space2, x.Space)
	}
	if !m.take("mbarrier::complete_tx::bytes") {
		return l.unsupported("missing .mbarrier::complete_tx::bytes")
	}
	if m.take("multicast::cluster") {
		x.Flags |= isa.FMulticast
	}
	if cacheHints(m) {
		x.Flags |= isa.FCacheHint
	}
	m.take("cta_group::1") // the default (PTX ISA)
	return l.tensorLoad(in, x)
}

// tensorLoad converts [dst], [tmap, {c...}], [mbar][, im2col offsets][,
// ctaMask][, policy] to destination, map, coordinates, barrier, offsets,
// policy and the CTA mask, which isa documents as the last operand.
func (l *lowerer) tensorLoad(in *Instr, x isa.Instr) error {
	ops := in.Operands
	if len(ops) < 3 {
		return l.nops(in, 3)
	}
	d, err := l.mem(ops[0], x.Space)
	if err != nil {
		return err
	}
	tm, coords, err := l.tensorMap(ops[1], int(x.Dim))
	if err != nil {
		return err
	}
	mb, err := l.mem(ops[2], isa.Shared)
	if err != nil {
		return err
	}
	x.Ops = append(append([]isa.Operand{d, tm}, coords...), mb)
	rest, err := l.tensorExtras(in, x, ops[3:])
	if err != nil {
		return err
	}
	x.Ops = append(x.Ops, rest...)
	l.emit(x)
	return nil
}

// tensorExtras converts the optional operands of a tensor load or
// prefetch, in PTX order (im2col offsets, CTA mask, cache policy), and
// returns them in isa order: offsets, policy, mask.
func (l *lowerer) tensorExtras(in *Instr, x isa.Instr, rest []Operand) ([]isa.Operand, error) {
	var out []isa.Operand
	if x.Flags.Has(isa.FIm2col) {
		if x.Dim < 3 {
			return nil, l.errf("im2col needs a 3d to 5d tensor copy, found %dd", x.Dim)
		}
		if len(rest) == 0 {
			return nil, l.errf("im2col tensor copy needs its offsets")
		}
		offsets, err := l.vectorVals(rest[0])
		if err != nil {
			return nil, err
		}
		if len(offsets) != int(x.Dim)-2 {
			return nil, errAt(rest[0].Position(), "a %dd im2col tensor copy with %d offsets (it takes %d)", x.Dim, len(offsets), x.Dim-2)
		}
		out, rest = offsets, rest[1:]
	}
	want := 0
	if x.Flags.Has(isa.FMulticast) {
		want++
	}
	if x.Flags.Has(isa.FCacheHint) {
		want++
	}
	if len(rest) != want {
		return nil, l.errf("bad operand count for %s", in.Opcode())
	}
	var mask []isa.Operand
	for i, o := range rest {
		if i == 0 && x.Flags.Has(isa.FMulticast) {
			v, err := l.val(o, isa.U32)
			if err != nil {
				return nil, err
			}
			mask = []isa.Operand{v}
			continue
		}
		v, err := l.val(o, isa.B64)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return append(out, mask...), nil
}

// tensorStore converts [tmap, {c...}], [src][, policy].
func (l *lowerer) tensorStore(in *Instr, m *mods, x isa.Instr) error {
	x.Flags |= isa.FStore
	if mode := m.takeAny("tile", "im2col", "im2col_no_offs"); mode != "" && mode != "tile" {
		return l.unsupported("im2col tensor store")
	}
	if !m.take("bulk_group") {
		return l.unsupported("missing .bulk_group")
	}
	if cacheHints(m) {
		x.Flags |= isa.FCacheHint
	}
	return l.tensorFromShared(in, x)
}

// tensorFromShared converts the operands of a tensor store or reduction,
// [tmap, {c...}], [src][, policy], and emits x.
func (l *lowerer) tensorFromShared(in *Instr, x isa.Instr) error {
	n := 2
	if x.Flags.Has(isa.FCacheHint) {
		n = 3
	}
	if err := l.nops(in, n); err != nil {
		return err
	}
	tm, coords, err := l.tensorMap(in.Operands[0], int(x.Dim))
	if err != nil {
		return err
	}
	src, err := l.mem(in.Operands[1], isa.Shared)
	if err != nil {
		return err
	}
	x.Ops = append(append([]isa.Operand{tm}, coords...), src)
	if n == 3 {
		p, err := l.val(in.Operands[2], isa.B64)
		if err != nil {
			return err
		}
		x.Ops = append(x.Ops, p)
	}
	l.emit(x)
	return nil
}

// tensorMap converts [tmap, {c0, ...}]: the map's generic address (a
// kernel parameter's through the parameter window) and dim coordinates.
func (l *lowerer) tensorMap(o Operand, dim int) (isa.Operand, []isa.Operand, error) {
	a, ok := o.(*Addr)
	if !ok || len(a.Coords) == 0 {
		return isa.Operand{}, nil, errAt(o.Position(), "expected [tensorMap, {coordinates}], found %s", o.String())
	}
	var coords []isa.Operand
	for _, c := range a.Coords {
		vs, err := l.vectorVals(c)
		if err != nil {
			return isa.Operand{}, nil, err
		}
		coords = append(coords, vs...)
	}
	if len(coords) != dim {
		return isa.Operand{}, nil, errAt(a.Pos, "a %dd tensor copy with %d coordinates", dim, len(coords))
	}
	base := &Addr{Pos: a.Pos, Base: a.Base, Offset: a.Offset}
	tm, err := l.mem(base, isa.Generic)
	return tm, coords, err
}

// vectorVals converts a vector (or single) operand of 32-bit values.
func (l *lowerer) vectorVals(o Operand) ([]isa.Operand, error) {
	elems := []Operand{o}
	if v, ok := o.(*Vector); ok {
		elems = v.Elems
	}
	out := make([]isa.Operand, len(elems))
	for i, e := range elems {
		v, err := l.val(e, isa.B32)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// bulkPrefetch lowers cp.async.bulk.prefetch.L2.global [src], size and the
// tensor prefetch (an L2 hint with no result: a prefetch of the map).
func (l *lowerer) bulkPrefetch(in *Instr, m *mods) error {
	if !m.take("L2") {
		return l.unsupported("missing .L2")
	}
	if sp, _ := space(m); sp != isa.Global {
		return l.unsupported("bulk prefetch from .%s", sp)
	}
	if m.take("tensor") {
		return l.tensorPrefetch(in, m)
	}
	n := 2
	if cacheHints(m) {
		n = 3
	}
	if err := l.nops(in, n); err != nil {
		return err
	}
	a, err := l.mem(in.Operands[0], isa.Global)
	if err != nil {
		return err
	}
	size, err := l.val(in.Operands[1], isa.U32)
	if err != nil {
		return err
	}
	l.emit(isa.Instr{Op: isa.OpBulkPrefetch, Space: isa.Global, Ops: []isa.Operand{a, size}})
	return nil
}

// tensorPrefetch lowers cp.async.bulk.prefetch.tensor.Nd.L2.global{.tile,
// .im2col}[.L2::cache_hint] [tmap, {c...}][, im2col offsets][, policy]: the
// operands are checked and the prefetch is of the map (the data prefetch
// is a hint with no result).
func (l *lowerer) tensorPrefetch(in *Instr, m *mods) error {
	x := isa.Instr{Op: isa.OpBulkTensor}
	dim := m.takeAny("1d", "2d", "3d", "4d", "5d")
	if dim == "" {
		return l.unsupported("missing dimension")
	}
	x.Dim = dim[0] - '0'
	if m.takeAny("tile", "im2col") == "im2col" {
		x.Flags |= isa.FIm2col
	}
	if cacheHints(m) {
		x.Flags |= isa.FCacheHint
	}
	if len(in.Operands) == 0 {
		return l.nops(in, 1)
	}
	tm, _, err := l.tensorMap(in.Operands[0], int(x.Dim))
	if err != nil {
		return err
	}
	if _, err := l.tensorExtras(in, x, in.Operands[1:]); err != nil {
		return err
	}
	l.emit(isa.Instr{Op: isa.OpPrefetch, Ops: []isa.Operand{tm}})
	return nil
}
