package sms

import (
	"strconv"
	"strings"

	"github.com/smsim/smsim/isa"
)

// Limits on declarations. The machine configuration decides what actually
// fits on the SM; these only keep compilation bounded.
const (
	maxThreads    = 1024
	maxBarriers   = 1024    // elements of one barrier array
	maxBarTotal   = 1 << 14 // barriers in all
	maxShared     = 1 << 20 // bytes of one shared region, and of dynamic shared memory
	maxBuffer     = 1 << 40 // bytes of one global buffer
	defaultAlign  = 128     // shared regions: TMA destinations need 128-byte alignment
	tensormapSize = 128     // a CUtensorMap
	tensormapAlgn = 64
)

// declare processes the top-level declarations in order, then lays out
// shared memory: barriers first (8 bytes each), then regions.
func (g *gen) declare(ds []*decl) error {
	g.pushScope()
	seen := map[string]isa.Pos{}
	var bars, regions []*symbol
	for _, d := range ds {
		if once := d.kind == "kernel" || d.kind == "block" || d.kind == "grid" || d.kind == "smem"; once {
			if p, dup := seen[d.kind]; dup {
				return errAt(d.pos, "%s given twice (first at %d:%d)", d.kind, p.Line, p.Col)
			}
			seen[d.kind] = d.pos
		}
		s, err := g.declOne(d)
		if err != nil {
			return err
		}
		if s == nil {
			continue
		}
		if err := g.define(s); err != nil {
			return err
		}
		switch s.kind {
		case symBarrier:
			bars = append(bars, s)
		case symShared:
			regions = append(regions, s)
		}
	}
	return g.layout(bars, regions)
}

// declOne evaluates one declaration; it returns the symbol it names, if any.
func (g *gen) declOne(d *decl) (*symbol, error) {
	s := &symbol{name: d.name, pos: d.npos}
	var err error
	switch d.kind {
	case "kernel":
		g.prog.Name = d.name
		return nil, nil
	case "block":
		return nil, g.declShape(d, &g.prog.Block, maxThreads)
	case "grid":
		return nil, g.declShape(d, &g.prog.Grid, 1<<31-1)
	case "smem":
		return nil, g.declSmem(d)
	case "const":
		s.kind = symConst
		s.val, err = g.constant(d.args[0], "const "+d.name)
	case "param":
		s.kind = symParam
		s.val, err = g.constant(d.args[0], "the default of param "+d.name)
		if err == nil {
			s.val = g.addParam(isa.Param{Name: d.name, Type: isa.S64, Size: 8, Align: 8, Default: strconv.FormatInt(s.val, 10)})
		}
	case "barrier":
		s.kind = symBarrier
		if len(d.dims) > 1 {
			return nil, errAt(d.dims[1].at(), "barrier arrays have one dimension, found %d", len(d.dims))
		}
		if len(d.dims) == 1 {
			s.n, err = g.constantIn(d.dims[0], "the length of barrier array "+d.name, 1, maxBarriers)
		}
	case "shared":
		s.kind = symShared
		err = g.declRegion(d, s)
	case "global":
		s.kind = symBuffer
		err = g.declGlobal(d, s)
	case "tensormap":
		s.kind = symTensor
		spec := d.str
		if !strings.HasPrefix(spec, "tensormap:") {
			spec = "tensormap:" + spec
		}
		s.val = g.addParam(isa.Param{Name: d.name, Type: isa.B8, Size: tensormapSize, Align: tensormapAlgn, Default: spec})
	}
	return s, err
}

// declShape reads block or grid dimensions.
func (g *gen) declShape(d *decl, dst *[3]int, limit int64) error {
	shape := [3]int{1, 1, 1}
	total := int64(1)
	for i, x := range d.args {
		v, err := g.constantIn(x, d.kind+" dimension", 1, limit)
		if err != nil {
			return err
		}
		shape[i] = int(v)
		total *= v
	}
	if d.kind == "block" && total > maxThreads {
		return errAt(d.pos, "block has %d threads; the limit is %d", total, maxThreads)
	}
	*dst = shape
	return nil
}

func (g *gen) declSmem(d *decl) error {
	v, err := g.constantIn(d.args[0], "smem bytes", 0, maxShared)
	if err != nil {
		return err
	}
	g.prog.DynSmem = int(v)
	if d.align != nil {
		a, err := g.alignment(d.align)
		if err != nil {
			return err
		}
		g.prog.DynSmemAlign = int(a)
	}
	return nil
}

func (g *gen) alignment(e expr) (int64, error) {
	a, err := g.constantIn(e, "alignment", 1, 4096)
	if err == nil && a&(a-1) != 0 {
		err = errAt(e.at(), "alignment must be a power of two, found %d", a)
	}
	return a, err
}

// dims evaluates the sizes of a region or buffer, bounding their product.
func (g *gen) dims(d *decl, limit int64) ([]int64, int64, error) {
	total := int64(1)
	var out []int64
	for _, x := range d.dims {
		v, err := g.constantIn(x, "a dimension of "+d.name, 1, limit)
		if err != nil {
			return nil, 0, err
		}
		if total > limit/v {
			return nil, 0, errAt(x.at(), "%s %s is larger than %d bytes", d.kind, d.name, limit)
		}
		total *= v
		out = append(out, v)
	}
	return out, total, nil
}

func (g *gen) declRegion(d *decl, s *symbol) error {
	var err error
	s.dims, s.n, err = g.dims(d, maxShared)
	if err != nil {
		return err
	}
	s.val = defaultAlign // the alignment until layout replaces it with the offset
	if d.align != nil {
		s.val, err = g.alignment(d.align)
	}
	return err
}

func (g *gen) declGlobal(d *decl, s *symbol) error {
	var total int64
	var err error
	s.dims, total, err = g.dims(d, maxBuffer)
	if err != nil {
		return err
	}
	def := "buf:" + strconv.FormatInt(total, 10)
	switch {
	case d.str == "":
	case d.str == "zero" || d.str == "seq":
		def += ":" + d.str
	case strings.Contains(d.str, ":") && !strings.ContainsAny(d.str, " \t"):
		def += ":" + d.str
	default:
		return errAt(d.spos, "expected a fill (zero, seq, or a string such as \"random:7\", \"byte:0xff\", \"file:PATH\"), found %q", d.str)
	}
	s.val = g.addParam(isa.Param{Name: d.name, Type: isa.U64, Size: 8, Align: 8, Ptr: true, Default: def})
	return nil
}

// addParam appends a kernel parameter at the next aligned offset.
func (g *gen) addParam(q isa.Param) int64 {
	p := g.prog
	q.Offset = alignUp(p.ParamBytes, q.Align)
	p.Params = append(p.Params, q)
	p.ParamBytes = q.Offset + q.Size
	return int64(q.Offset)
}

func alignUp(n, a int) int { return (n + a - 1) / a * a }

// layout places barriers at 8-byte-aligned offsets from 0 (one symbol per
// array element, named full[2]) and then each region at its alignment.
func (g *gen) layout(bars, regions []*symbol) error {
	p := g.prog
	off := 0
	for _, b := range bars {
		if off/8+int(max(b.n, 1)) > maxBarTotal {
			return errAt(b.pos, "more than %d barriers in all", maxBarTotal)
		}
		b.val = int64(off)
		if b.n == 0 {
			p.Symbols = append(p.Symbols, isa.Symbol{Name: b.name, Space: isa.Shared, Offset: uint64(off), Size: 8, Pos: b.pos})
			off += 8
			continue
		}
		for i := int64(0); i < b.n; i++ {
			name := b.name + "[" + strconv.FormatInt(i, 10) + "]"
			p.Symbols = append(p.Symbols, isa.Symbol{Name: name, Space: isa.Shared, Offset: uint64(off), Size: 8, Pos: b.pos})
			off += 8
		}
	}
	for _, r := range regions {
		off = alignUp(off, int(r.val))
		r.val = int64(off)
		p.Symbols = append(p.Symbols, isa.Symbol{Name: r.name, Space: isa.Shared, Offset: uint64(off), Size: uint64(r.n), Pos: r.pos})
		off += int(r.n)
		if off > maxShared*4 {
			return errAt(r.pos, "static shared memory exceeds %d bytes", maxShared*4)
		}
	}
	p.SharedStatic = off
	g.laidOut = true
	return nil
}
