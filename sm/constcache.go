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
// the driver's constants, written for the launch): the first read of each
// 64-byte parameter line pays const.l1_5, of a __constant__ line const.l2.
// The warps of the SM share both (constcache.csv: a second warp, on the
// same sub-partition or another, hits the lines the first one read). Their
// capacity is not modelled: the tags are direct-mapped over 256 sets, so
// lines that collide evict each other, as the H200's small immediate
// cache does for some of the probe's revisits.
type constCache struct {
	spec constSpec
	l0   [constSets]uint64 // 64-byte lines, as key+1 (0: empty)
	l15  [constSets]uint64 // 256-byte lines
}

const constSets = 256

// constSpec is what the caches' timing reads of the configuration.
type constSpec struct {
	l15, l2 sim.Cycle // const.l1_5, const.l2
}

func newConstCache(c *Config) constCache {
	return constCache{spec: constSpec{l15: sim.Cycle(c.Const.L15Cycles), l2: sim.Cycle(c.Const.L2Cycles)}}
}

// reset empties the caches for a launch.
func (c *constCache) reset() {
	c.l0, c.l15 = [constSets]uint64{}, [constSets]uint64{}
}

// read returns what a read of byte off of bank adds to its latency and
// fills the caches.
func (c *constCache) read(bank uint8, off uint64) sim.Cycle {
	key0 := uint64(bank)<<40 | off>>6
	set0 := (key0 ^ key0>>8 ^ uint64(bank)*29) % constSets
	if c.l0[set0] == key0+1 {
		return 0
	}
	c.l0[set0] = key0 + 1
	if bank == 0 {
		return c.spec.l15
	}
	key := uint64(bank)<<40 | off>>8
	set := (key ^ key>>8 ^ uint64(bank)*29) % constSets
	if c.l15[set] == key+1 {
		return c.spec.l15
	}
	c.l15[set] = key + 1
	return c.spec.l2
}

// Where PTX's state spaces sit in the constant banks on sm_90: .param at
// c[0x0][0x210] (frontend/sass.ParamBaseSM90), .const in bank 3 (ptxas's
// bank for __constant__ data).
const (
	paramBankBase = 0x210
	ptxConstBank  = 3
)

// constReads is what in's constant-bank operands add to its latency, read
// by the lowest lane of mask (every lane of an indexed read: the slowest
// line); call it before the instruction executes, while its index registers
// hold the values it reads with.
func (s *SM) constReads(wc *wctx, in *isa.Instr, mask uint32) sim.Cycle {
	var extra sim.Cycle
	for i := int(in.NDst); i < len(in.Ops); i++ {
		o := &in.Ops[i]
		if o.Kind != isa.KConst {
			continue
		}
		if o.Reg < 0 && !o.Mod.Has(isa.MIndex) {
			extra = max(extra, s.consts.read(o.Bank, o.Imm))
			continue
		}
		for l := 0; l < 32; l++ {
			if mask>>l&1 != 0 {
				extra = max(extra, s.consts.read(o.Bank, wc.w.ConstOffset(o, l)))
			}
		}
	}
	return extra
}
