package ptx

import (
	"github.com/smsim/smsim/isa"
)

// redOps maps the .redOp modifiers of cp.reduce.async.bulk to isa.
var redOps = map[string]isa.AtomOp{"add": isa.AtomAdd, "min": isa.AtomMin, "max": isa.AtomMax, "inc": isa.AtomInc,
	"dec": isa.AtomDec, "and": isa.AtomAnd, "or": isa.AtomOr, "xor": isa.AtomXor}

// redOp consumes the .redOp modifier (PTX ISA §9.7.9.25.4.2).
func redOp(m *mods) (string, isa.AtomOp) {
	name := m.takeAny("add", "min", "max", "inc", "dec", "and", "or", "xor")
	return name, redOps[name]
}

// bulkReduce lowers cp.reduce.async.bulk: the 1-D reduction shared::cta ->
// global with bulk-group completion,
//
//	cp.reduce.async.bulk.global.shared::cta.bulk_group{.L2::cache_hint}.redOp{.noftz}.type [dst], [src], size{, policy}
//
// to [dst], [src], size{, policy} with Atom = redOp and Type = type, and the
// tensor form (reduceTensor). The form into .shared::cluster names another
// CTA's shared memory, which a cluster of one does not have.
func (l *lowerer) bulkReduce(in *Instr, m *mods) error {
	if !m.take("async") || !m.take("bulk") {
		return l.unsupported("unknown cp.reduce form (want cp.reduce.async.bulk)")
	}
	if m.take("tensor") {
		return l.reduceTensor(in, m)
	}
	x := isa.Instr{Op: isa.OpBulkReduce}
	x.Space, _ = space(m)
	x.Space2, _ = space(m)
	switch {
	case x.Space == isa.Cluster && x.Space2 == isa.Shared:
		// The destination is the shared memory of another CTA of the
		// cluster (PTX ISA), and smsim's CTAs are clusters of one.
		return l.unsupported("bulk reduction from .shared::cta into another CTA's shared memory: smsim runs clusters of one CTA")
	case x.Space != isa.Global || x.Space2 != isa.Shared:
		return l.unsupported("bulk reduction from .%s to .%s", x.Space2, x.Space)
	}
	if !m.take("bulk_group") {
		return l.unsupported("missing .bulk_group")
	}
	if cacheHints(m) {
		x.Flags |= isa.FCacheHint
	}
	name, op := redOp(m)
	if op == isa.AtomNone {
		return l.unsupported("missing reduction operation (.add .min .max .inc .dec .and .or .xor)")
	}
	x.Atom = op
	noftz := m.take("noftz")
	t, err := l.typ(m)
	if err != nil {
		return err
	}
	x.Type = t
	if err := l.checkReduce(name, t, noftz); err != nil {
		return err
	}
	n := 3
	if x.Flags.Has(isa.FCacheHint) {
		n = 4
	}
	if err := l.nops(in, n); err != nil {
		return err
	}
	// [dst], [src], size[, policy]: a bulk store's operands.
	return l.emitBulk(x, in.Operands, false)
}

// checkReduce enforces the PTX ISA's table of operations and element types
// for a reduction into .global (§9.7.9.25.4.2):
//
//	.add             .u32 .s32 .u64 .f32 .f64 .f16 .bf16
//	.min .max        .u32 .s32 .u64 .s64 .f16 .bf16
//	.inc .dec        .u32
//	.and .or .xor    .b32 .b64
//
// and its rule that .add.f16 and .add.bf16 are spelled .add.noftz (the
// qualifier belongs to them alone). The bit-size operations also take the
// integer types of the same sizes: the ISA's own example reduces with
// .L2::cache_hint.xor.s32, and the bits are the same.
func (l *lowerer) checkReduce(op string, t isa.Type, noftz bool) error {
	var ok bool
	switch op {
	case "add":
		switch t {
		case isa.U32, isa.S32, isa.U64, isa.F32, isa.F64, isa.F16, isa.BF16:
			ok = true
		}
	case "min", "max":
		switch t {
		case isa.U32, isa.S32, isa.U64, isa.S64, isa.F16, isa.BF16:
			ok = true
		}
	case "inc", "dec":
		ok = t == isa.U32
	case "and", "or", "xor":
		switch t {
		case isa.B32, isa.B64, isa.U32, isa.S32, isa.U64, isa.S64:
			ok = true
		}
	}
	half := t == isa.F16 || t == isa.BF16
	switch {
	case !ok:
		return l.errf("cp.reduce.async.bulk.%s is not defined on .%s elements (PTX ISA: .add on .u32 .s32 .u64 .f32 .f64 .f16 .bf16, .min/.max on .u32 .s32 .u64 .s64 .f16 .bf16, .inc/.dec on .u32, .and/.or/.xor on .b32 .b64)", op, t)
	case op == "add" && half && !noftz:
		return l.errf("cp.reduce.async.bulk.add.%s must be spelled .add.noftz.%s (PTX ISA)", t, t)
	case noftz && !(op == "add" && half):
		return l.errf(".noftz belongs to cp.reduce.async.bulk.add on .f16 and .bf16 only, not .%s.%s", op, t)
	}
	return nil
}

// reduceTensor lowers
//
//	cp.reduce.async.bulk.tensor.Nd.global.shared::cta.redOp{.tile}.bulk_group{.L2::cache_hint} [tmap, {c...}], [src]{, policy}
//
// to [tmap], c..., [src]{, policy} with Atom = redOp and Dim = N; the
// element type is the tensor map's. The .im2col_no_offs mode is not
// modelled.
func (l *lowerer) reduceTensor(in *Instr, m *mods) error {
	x := isa.Instr{Op: isa.OpBulkReduce}
	dim := m.takeAny("1d", "2d", "3d", "4d", "5d")
	if dim == "" {
		return l.unsupported("missing dimension")
	}
	x.Dim = dim[0] - '0'
	x.Space, _ = space(m)
	x.Space2, _ = space(m)
	if x.Space != isa.Global || x.Space2 != isa.Shared {
		return l.unsupported("tensor reduction from .%s to .%s", x.Space2, x.Space)
	}
	if mode := m.takeAny("tile", "im2col_no_offs", "im2col"); mode != "" && mode != "tile" {
		return l.unsupported("im2col tensor reduction")
	}
	if !m.take("bulk_group") {
		return l.unsupported("missing .bulk_group")
	}
	if cacheHints(m) {
		x.Flags |= isa.FCacheHint
	}
	_, op := redOp(m)
	if op == isa.AtomNone {
		return l.unsupported("missing reduction operation (.add .min .max .inc .dec .and .or .xor)")
	}
	x.Atom = op
	if ts := m.types(); len(ts) > 0 {
		return l.errf("a tensor reduction takes its element type from the tensor map, not .%s", ts[0])
	}
	return l.tensorFromShared(in, x)
}
