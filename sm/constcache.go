package sm

import (
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sim"
)

// constCache is the SM's constant caches as a constant read sees them
// (calibration/h200/constcache.csv): a read whose 64-byte line the SM's
// immediate constant cache holds takes the instruction's own latency; one
// it lacks comes from the constant cache behind it (256-byte lines) after
// const.l1_5 more cycles, or from L2 after const.l2. Both start empty at a
// launch, except that the constant cache holds bank 0 (the parameters and
// the driver's constants, written for the launch) and bank 2 (the module's
// constants ptxas made: jump tables, wide literals): the first read of each
// 64-byte line of those pays const.l1_5, of a __constant__ line const.l2
// (testdata/cuda/wgmma/bar_defer2.cu modes 2-5: a switch's first read of
// its jump table in bank 2 takes 180 cycles less on the H200 than a line
// from L2 would).
// The warps of the SM share both (constcache.csv: a second warp, on the
// same sub-partition or another, hits the lines the first one read). Their
// capacity is not modelled: the tags are direct-mapped over 256 sets, so
// lines that collide evict each other, as the H200's small immediate
// cache does for some of the probe's revisits. A line is there from the
// read that missed it, but its bytes only when its fill is done: a read in
// between waits for that fill, as every warp of
// testdata/cuda/wgmma/bar_defer2.cu does when four read a new line of a
// constant bank at once (they go on within 12 cycles of each other).
//
// The uniform datapath's reads (ULDC, and the constant operands of U*
// instructions) go through an immediate constant cache of their own, with
// the constant cache behind it shared: testdata/cuda/wgmma/bar_defer.cu,
// where the first ULDC of the kernel reads a parameter line an LDC had read
// before, takes 58-79 cycles longer on the H200 than a hit would on each of
// three paths, and bar_defer4.cu, the same paths with the ULDC moved away,
// where smsim's hit and the H200 agree within 14 cycles. That cache is
// small: testdata/cuda/wgmma/uldc_chain.cu's uniform chase through a table
// hits every read cycling through four 64-byte lines, and uldc_policy.cu's
// misses every read cycling through five or more lines of a __constant__
// table, 55 cycles more a read (const.uniform_lines, const.uniform_l1_5;
// a parameter or driver line the uniform cache lacks costs const.l1_5, as
// bar_defer.cu measured); going back and forth over five lines only the
// turns miss, and a line read every other time stays more often than
// least-recently-used replacement keeps it. Modelled as that many lines,
// the least recently used replaced.
type constCache struct {
	spec constSpec
	l0   [constSets]constLine // 64-byte lines
	ul0  uniformCache         // 64-byte lines of the uniform datapath
	l15  [constSets]constLine // 256-byte lines
}

// maxUniformLines bounds const.uniform_lines.
const maxUniformLines = 64

// uniformCache is the uniform datapath's immediate constant cache: n lines
// in use order, the most recent first.
type uniformCache struct {
	n     int
	lines [maxUniformLines]constLine
}

// lookup returns the line of key (key+1 in constLine.key) and moves it to
// the front, or nil.
func (u *uniformCache) lookup(key uint64) *constLine {
	for i := 0; i < u.n; i++ {
		if u.lines[i].key == key+1 {
			l := u.lines[i]
			copy(u.lines[1:i+1], u.lines[:i])
			u.lines[0] = l
			return &u.lines[0]
		}
	}
	return nil
}

// fill puts key's line at the front, the least recently used one out.
func (u *uniformCache) fill(key uint64, ready sim.Cycle) {
	copy(u.lines[1:u.n], u.lines[:u.n-1])
	u.lines[0] = constLine{key + 1, ready}
}

// constLine is one set of a constant cache: the line it holds, as key+1
// (0: empty), and when its fill is done.
type constLine struct {
	key   uint64
	ready sim.Cycle
}

const constSets = 256

// constSpec is what the caches' timing reads of the configuration.
type constSpec struct {
	l15, l2, ul15 sim.Cycle // const.l1_5, const.l2, const.uniform_l1_5
}

func newConstCache(c *Config) constCache {
	return constCache{spec: constSpec{l15: sim.Cycle(c.Const.L15Cycles), l2: sim.Cycle(c.Const.L2Cycles),
		ul15: sim.Cycle(c.Const.UniformL15Cycles)}, ul0: uniformCache{n: c.Const.UniformLines}}
}

// reset empties the caches for a launch.
func (c *constCache) reset() {
	c.l0, c.l15 = [constSets]constLine{}, [constSets]constLine{}
	c.ul0.lines = [maxUniformLines]constLine{}
}

// read returns what a read at now of byte off of bank adds to its
// latency and fills the caches; uniform is a read of the uniform datapath.
func (c *constCache) read(now sim.Cycle, bank uint8, off uint64, uniform bool) sim.Cycle {
	key0 := uint64(bank)<<40 | off>>6
	var l0 *constLine
	cost := c.spec.l15
	if uniform {
		if l := c.ul0.lookup(key0); l != nil {
			return l.ready - min(l.ready, now)
		}
		if bank != 0 && bank != 2 {
			cost = c.spec.ul15
		}
	} else {
		l0 = &c.l0[(key0^key0>>8^uint64(bank)*29)%constSets]
		if l0.key == key0+1 {
			return l0.ready - min(l0.ready, now)
		}
	}
	if bank != 0 && bank != 2 {
		key := uint64(bank)<<40 | off>>8
		l15 := &c.l15[(key^key>>8^uint64(bank)*29)%constSets]
		if l15.key == key+1 {
			cost = max(cost, l15.ready-min(l15.ready, now))
		} else {
			cost = c.spec.l2
			*l15 = constLine{key + 1, now + cost}
		}
	}
	if uniform {
		c.ul0.fill(key0, now+cost)
	} else {
		*l0 = constLine{key0 + 1, now + cost}
	}
	return cost
}

// Where PTX's state spaces sit in the constant banks on sm_90: .param at
// c[0x0][0x210] (frontend/sass.ParamBaseSM90), .const in bank 3 (ptxas's
// bank for __constant__ data).
const (
	paramBankBase = 0x210
	ptxConstBank  = 3
)

// constReads is what in's constant-bank operands, read at now, add to its
// latency, read by the lowest lane of mask (every lane of an indexed read:
// the slowest line); call it before the instruction executes, while its
// index registers hold the values it reads with.
func (s *SM) constReads(now sim.Cycle, wc *wctx, in *isa.Instr, mask uint32) sim.Cycle {
	var extra sim.Cycle
	uniform := in.Flags.Has(isa.FUniform)
	for i := int(in.NDst); i < len(in.Ops); i++ {
		o := &in.Ops[i]
		if o.Kind != isa.KConst {
			continue
		}
		if o.Reg < 0 && !o.Mod.Has(isa.MIndex) {
			extra = max(extra, s.consts.read(now, o.Bank, o.Imm, uniform))
			continue
		}
		for l := 0; l < 32; l++ {
			if mask>>l&1 != 0 {
				extra = max(extra, s.consts.read(now, o.Bank, wc.w.ConstOffset(o, l), uniform))
			}
		}
	}
	return extra
}
