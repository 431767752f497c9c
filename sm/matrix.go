package sm

import (
	"fmt"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sharedmem"
	"github.com/smsim/smsim/sim"
	"github.com/smsim/smsim/warp"
)

// execMatrix executes ldmatrix and stmatrix .m8n8 .b16 (PTX ISA, "Warp-level
// matrix load and store instructions"): matrix i's 8 rows of 16 bytes lie
// at the addresses threads 8i..8i+7 give; register i of thread l holds
// elements (l/4, 2(l%4)) and (l/4, 2(l%4)+1) of matrix i, or with .trans
// elements (2(l%4), l/4) and (2(l%4)+1, l/4), low half first. Timing: a
// shared-memory access of 16 bytes by each thread that gives a row.
func (s *SM) execMatrix(now sim.Cycle, wc *wctx, in *isa.Instr, mask uint32) error {
	if mask != warp.FullMask {
		return s.diag(wc, in, DiagMisuse, "matrix-partial-warp", mask,
			fmt.Sprintf("%s is .sync.aligned: all 32 threads of the warp must execute it (active %#08x)", in.Op, mask))
	}
	n, regs, addr := int(in.NDst), 0, int(in.NDst)
	if in.Op == isa.OpStmatrix {
		n, regs, addr = len(in.Ops)-1, 1, 0
	}
	av := wc.w.Operand(&in.Ops[addr], 0, mask, uint64(now-s.start))
	var rows [sharedmem.WarpSize]uint32
	rowMask := uint32(1)<<(8*n) - 1
	for l := 0; l < 8*n; l++ {
		sp, off := space(in.Space, av[l])
		if sp != isa.Shared {
			return s.diag(wc, in, DiagMisuse, "not-shared", 1<<l, fmt.Sprintf("%s row address 0x%x is not shared memory", in.Op, av[l]))
		}
		if err := s.sharedCheck(wc, in, wc.c, off, 16, l); err != nil {
			return err
		}
		rows[l] = uint32(off)
	}
	for i := 0; i < n; i++ {
		r := &in.Ops[regs+i]
		for l := 0; l < warp.Lanes; l++ {
			if err := s.matrixLane(wc, in, r, &rows, i, l); err != nil {
				return err
			}
		}
	}
	lat, wf := s.lsu.shared(now, &s.sched[wc.sp], &rows, rowMask, 16, false)
	s.stats.SmemWavefronts += uint64(wf)
	if in.Op == isa.OpLdmatrix {
		s.dstReady(wc, in, now+lat, ReasonShortScoreboard)
	}
	wc.w.Advance()
	return nil
}

// matrixLane moves register r of lane l: matrix i's two elements.
func (s *SM) matrixLane(wc *wctx, in *isa.Instr, r *isa.Operand, rows *[sharedmem.WarpSize]uint32, i, l int) error {
	mem := wc.c.smem
	var v uint64
	if in.Op == isa.OpStmatrix {
		v = wc.w.Operand(r, 1, 1<<l, 0)[l]
	}
	for e := 0; e < 2; e++ {
		row, col := l/4, 2*(l%4)+e
		if in.Mode&1 != 0 {
			row, col = col, row
		}
		at := rows[8*i+row] + uint32(2*col)
		if in.Op == isa.OpStmatrix {
			if err := mem.Store16(at, uint16(v>>(16*e))); err != nil {
				return s.diag(wc, in, DiagMisuse, "shared-out-of-bounds", 1<<l, err.Error())
			}
			wc.c.markGeneric(uint64(at), 2) // an ordinary (generic-proxy) store
			continue
		}
		h, err := mem.Load16(at)
		if err != nil {
			return s.diag(wc, in, DiagMisuse, "shared-out-of-bounds", 1<<l, err.Error())
		}
		v |= uint64(h) << (16 * e)
	}
	if in.Op == isa.OpLdmatrix && r.Kind == isa.KReg {
		wc.w.Reg(r.Reg)[l] = v
	}
	return nil
}

// execMovmatrix transposes the 8x8 .b16 matrix the warp holds in a (thread
// l: row l/4, columns 2(l%4) and 2(l%4)+1, low half first) into d, in the
// same layout; timed as the warp-wide exchange it is (ClassWarpSync).
func (s *SM) execMovmatrix(now sim.Cycle, wc *wctx, in *isa.Instr, mask uint32) error {
	if mask != warp.FullMask {
		return s.diag(wc, in, DiagMisuse, "matrix-partial-warp", mask,
			fmt.Sprintf("movmatrix is .sync.aligned: all 32 threads of the warp must execute it (active %#08x)", mask))
	}
	a := wc.w.Operand(in.Src(0), 0, mask, uint64(now-s.start))
	var m [8][8]uint16
	for l := 0; l < warp.Lanes; l++ {
		m[l/4][2*(l%4)], m[l/4][2*(l%4)+1] = uint16(a[l]), uint16(a[l]>>16)
	}
	if d := in.Dst(0); d.Kind == isa.KReg {
		r := wc.w.Reg(d.Reg)
		for l := 0; l < warp.Lanes; l++ {
			r[l] = uint64(m[2*(l%4)][l/4]) | uint64(m[2*(l%4)+1][l/4])<<16
		}
	}
	s.dstReady(wc, in, now+sim.Cycle(s.cfg.Pipes.Latency[isa.ClassWarpSync]), ReasonWait)
	wc.w.Advance()
	return nil
}
