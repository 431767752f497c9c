package ptx

import (
	"github.com/smsim/smsim/isa"
)

// tmapFields maps the tensormap.replace fields of sm_90a to isa (Mode).
var tmapFields = map[string]uint8{"global_address": isa.TmapGlobalAddress, "rank": isa.TmapRank,
	"box_dim": isa.TmapBoxDim, "global_dim": isa.TmapGlobalDim, "global_stride": isa.TmapGlobalStride,
	"element_stride": isa.TmapElementStride, "elemtype": isa.TmapElemType,
	"interleave_layout": isa.TmapInterleave, "swizzle_mode": isa.TmapSwizzle, "fill_mode": isa.TmapFillMode}

// tensormap lowers tensormap.replace and tensormap.cp_fenceproxy.
func (l *lowerer) tensormap(in *Instr, m *mods) error {
	switch {
	case m.take("replace"):
		return l.tensormapReplace(in, m)
	case m.take("cp_fenceproxy"):
		return l.tensormapCopy(in, m)
	}
	return l.unsupported("unknown tensormap form (want replace or cp_fenceproxy)")
}

// tensormapReplace lowers (PTX ISA §9.7.9.26)
//
//	tensormap.replace.tile.field1{.ss}.b1024.type [addr], new_val;   .global_address (.b64), .rank
//	tensormap.replace.tile.field2{.ss}.b1024.type [addr], ord, new_val;   .box_dim, .global_dim, .global_stride (.b64), .element_stride
//	tensormap.replace.tile.field3{.ss}.b1024.b32 [addr], new_val;   .elemtype, .interleave_layout, .swizzle_mode, .fill_mode
//
// to [addr], ord, new_val (ord 0 where there is none) with Mode = the field.
// ord and field3's new_val must be immediates; the new_val of field3 must be
// one the ISA's table defines for sm_90a. .swizzle_atomicity is sm_100a's.
func (l *lowerer) tensormapReplace(in *Instr, m *mods) error {
	if !m.take("tile") {
		return l.unsupported("missing .tile (the only mode)")
	}
	if m.take("swizzle_atomicity") {
		return l.unsupported(".swizzle_atomicity needs sm_100a")
	}
	var name string
	for n := range tmapFields {
		if m.take(n) {
			name = n
			break
		}
	}
	if name == "" {
		return l.unsupported("missing field")
	}
	x := isa.Instr{Op: isa.OpTensormapReplace, Mode: tmapFields[name]}
	sp, _ := space(m)
	if sp != isa.Generic && sp != isa.Global && sp != isa.Shared {
		return l.unsupported("tensormap.replace in .%s", sp)
	}
	x.Space = sp
	if !m.take("b1024") {
		return l.unsupported("missing .b1024")
	}
	t, err := l.typ(m)
	if err != nil {
		return err
	}
	want := isa.B32
	if x.Mode == isa.TmapGlobalAddress || x.Mode == isa.TmapGlobalStride {
		want = isa.B64
	}
	if t != want {
		return l.errf("tensormap.replace .%s takes a .%s value, not .%s", name, want, t)
	}
	x.Type = t
	withOrd := x.Mode == isa.TmapBoxDim || x.Mode == isa.TmapGlobalDim || x.Mode == isa.TmapGlobalStride ||
		x.Mode == isa.TmapElementStride
	n := 2
	if withOrd {
		n = 3
	}
	if err := l.nops(in, n); err != nil {
		return err
	}
	addr, err := l.mem(in.Operands[0], sp)
	if err != nil {
		return err
	}
	ord := isa.Imm(0)
	if withOrd {
		v, ok := immValue(in.Operands[1])
		maxOrd := uint64(4)
		if x.Mode == isa.TmapGlobalStride {
			maxOrd = 3
		}
		if !ok || v > maxOrd {
			return errAt(in.Operands[1].Position(), "tensormap.replace .%s: the ordinal must be an immediate 0..%d, found %s",
				name, maxOrd, in.Operands[1].String())
		}
		ord = isa.Imm(v)
	}
	vo := in.Operands[n-1]
	nv, err := l.val(vo, t)
	if err != nil {
		return err
	}
	if x.Mode >= isa.TmapElemType {
		if err := l.checkTmapEnum(name, x.Mode, vo); err != nil {
			return err
		}
	}
	x.Ops = []isa.Operand{addr, ord, nv}
	l.emit(x)
	return nil
}

// checkTmapEnum checks the immediate new_val of .elemtype,
// .interleave_layout, .swizzle_mode and .fill_mode against the ISA's table
// ("Tensormap new_val validity"): what sm_90a defines lowers, what only
// later targets define is unsupported, the rest is an error.
func (l *lowerer) checkTmapEnum(name string, field uint8, o Operand) error {
	v, ok := immValue(o)
	if !ok {
		return errAt(o.Position(), "tensormap.replace .%s: the new value must be an immediate, found %s", name, o.String())
	}
	var max, later uint64 // valid on sm_90a: 0..max; up to later on newer targets
	switch field {
	case isa.TmapElemType:
		max, later = 12, 15 // 13..15: the packed sub-byte types of sm_100a
	case isa.TmapInterleave:
		max, later = 2, 2
	case isa.TmapSwizzle:
		max, later = 3, 4 // 4: the 96B swizzle of sm_103a
	case isa.TmapFillMode:
		max, later = 1, 1
	}
	switch {
	case v <= max:
		return nil
	case v <= later:
		return l.unsupported(".%s %d needs a later target than sm_90a", name, v)
	}
	return errAt(o.Position(), "tensormap.replace .%s: %d is not a valid value (0..%d)", name, v, max)
}

// tensormapCopy lowers
//
//	tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.scope.sync.aligned [dst], [src], 128;
//
// to [dst], [src], 128 with the release semantics, scope and FProxyTensormap
// (PTX ISA §9.7.13.16: the copy in the generic proxy, then a release
// pattern toward the tensormap proxy on dst). 128 is the only valid size.
func (l *lowerer) tensormapCopy(in *Instr, m *mods) error {
	x := isa.Instr{Op: isa.OpTensormapCopy, Flags: isa.FProxyTensormap | isa.FAligned}
	x.Space, _ = space(m)
	x.Space2, _ = space(m)
	if x.Space != isa.Global || x.Space2 != isa.Shared {
		return l.unsupported("tensormap.cp_fenceproxy from .%s to .%s", x.Space2, x.Space)
	}
	if !m.take("tensormap::generic") {
		return l.unsupported("missing .tensormap::generic")
	}
	x.Sem, x.Scope = semScope(m)
	if x.Sem != isa.SemRelease || x.Scope == isa.ScopeNone {
		return l.unsupported("want .release and a scope")
	}
	if !m.take("sync") || !m.take("aligned") {
		return l.unsupported("missing .sync.aligned")
	}
	if err := l.nops(in, 3); err != nil {
		return err
	}
	dst, err := l.mem(in.Operands[0], isa.Global)
	if err != nil {
		return err
	}
	src, err := l.mem(in.Operands[1], isa.Shared)
	if err != nil {
		return err
	}
	if v, ok := immValue(in.Operands[2]); !ok || v != 128 {
		return errAt(in.Operands[2].Position(), "tensormap.cp_fenceproxy: the size must be the immediate 128, found %s", in.Operands[2].String())
	}
	x.Ops = []isa.Operand{dst, src, isa.Imm(128)}
	l.emit(x)
	return nil
}
