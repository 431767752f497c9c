package sm

import (
	"testing"

	"github.com/smsim/smsim/isa"
)

// A YIELD by a warp of one path (whole, or its other lanes exited) costs
// its stall count; by a warp whose other lanes are parked it holds the
// warp for the switch to them and back: branch.yield_switch at a WARPSYNC,
// branch.yield_bsync at a BSYNC (testdata/cuda/wgmma/yield_div.cu,
// yield_park.cu).
func TestYieldSwitchHoldsADivergedWarp(t *testing.T) {
	cfg := DefaultConfig()
	yieldI := with(isa.Instr{Op: isa.OpYield, Class: isa.ClassBranch}, ctl(5))
	lane0 := with(setp(isa.CmpLt, isa.U32, 0, isa.Spec(isa.SLaneID), isa.Imm(1)), ctl(13))
	cases := []struct {
		name  string
		build func(a *asm)
		want  uint64
	}{
		{"a whole warp", func(a *asm) {
			a.emit(lane0)
		}, 5},
		{"lane 0, the other lanes exited", func(a *asm) {
			a.emit(lane0)
			a.emit(with(isa.Instr{Op: isa.OpExit, Guard: isa.NotP(0)}, ctl(5)))
		}, 5},
		{"lane 0, the other lanes at a WARPSYNC", func(a *asm) {
			a.emit(lane0)
			a.bra("park", isa.NotP(0))
			setCtrl(a, ctl(5))
		}, uint64(cfg.Branch.YieldSwitch)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := newAsm(8, 1)
			c.build(a)
			y := len(a.p.Instrs)
			a.emit(yieldI)
			a.emit(movI(1, ctl(1)))
			a.emit(exitC)
			a.label("park")
			a.emit(with(syncAll, ctl(5)))
			a.emit(exitC)
			p := a.done()
			p.ExplicitReconv = true
			_, o := runCtrl(t, p, 32, nil)
			if got := o.first(0, y+1) - o.first(0, y); got != c.want {
				t.Errorf("the instruction after the YIELD issued %d cycles after it, want %d", got, c.want)
			}
		})
	}
}

// The same with the other lanes at the BSYNC that closes their if.
func TestYieldToABsyncCostsLess(t *testing.T) {
	cfg := DefaultConfig()
	a := newAsm(8, 1)
	a.emit(with(setp(isa.CmpLt, isa.U32, 0, isa.Spec(isa.SLaneID), isa.Imm(1)), ctl(13)))
	a.emit(with(isa.Instr{Op: isa.OpBssy, Ops: []isa.Operand{isa.Imm(0)}}, ctl(1)))
	bssy := len(a.p.Instrs) - 1
	a.bra("join", isa.NotP(0))
	setCtrl(a, ctl(5))
	y := len(a.p.Instrs)
	a.emit(with(isa.Instr{Op: isa.OpYield, Class: isa.ClassBranch}, ctl(5)))
	a.emit(movI(1, ctl(1)))
	a.label("join")
	a.emit(with(isa.Instr{Op: isa.OpBsync, Ops: []isa.Operand{isa.Imm(0)}}, ctl(5)))
	a.emit(exitC)
	p := a.done()
	p.Instrs[bssy].Target = int32(a.labels["join"])
	p.ExplicitReconv = true
	_, o := runCtrl(t, p, 32, nil)
	if got, want := o.first(0, y+1)-o.first(0, y), uint64(cfg.Branch.YieldBsync); got != want {
		t.Errorf("the instruction after the YIELD issued %d cycles after it, want %d", got, want)
	}
}
