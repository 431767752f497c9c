package sm

import (
	"fmt"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sim"
	"github.com/smsim/smsim/tma"
	"github.com/smsim/smsim/warp"
)

// tmapFields maps isa's tensormap.replace fields (Instr.Mode) to the unit's.
var tmapFields = [...]tma.Field{
	isa.TmapGlobalAddress: tma.FieldGlobalAddress, isa.TmapRank: tma.FieldRank, isa.TmapBoxDim: tma.FieldBoxDim,
	isa.TmapGlobalDim: tma.FieldGlobalDim, isa.TmapGlobalStride: tma.FieldGlobalStride,
	isa.TmapElementStride: tma.FieldElementStride, isa.TmapElemType: tma.FieldElemType,
	isa.TmapInterleave: tma.FieldInterleave, isa.TmapSwizzle: tma.FieldSwizzle, isa.TmapFillMode: tma.FieldFillMode,
}

// execTensormap executes tensormap.replace and tensormap.cp_fenceproxy.
// Each active lane does its own: replace rewrites one field of the 128-byte
// tensor map at its address in global or shared memory (tma.Replace, on
// smsim's encoding), as a generic-proxy write of the map; cp_fenceproxy
// copies 128 bytes of shared memory to global memory and then fences the
// tensormap proxy, as fence.proxy.tensormap does. Both are ordinary writes
// to the stale-tensor-map check: a map in global memory replaced in place
// needs fence.proxy.tensormap before a copy uses it again (§4 #52).
//
// Timing: replace is timed as a store (it occupies its pipe and holds no
// result), cp_fenceproxy as a fence (latency.fence); no calibration row
// measures either.
func (s *SM) execTensormap(now sim.Cycle, wc *wctx, in *isa.Instr, mask uint32) error {
	t := uint64(now - s.start)
	var img [tma.MapBytes]byte
	for l := 0; l < warp.Lanes; l++ {
		if mask>>l&1 == 0 {
			continue
		}
		val := func(i int) uint64 { return wc.w.Operand(in.Src(i), 0, 1<<l, t)[l] }
		if in.Op == isa.OpTensormapCopy {
			if err := s.tensormapCopy(wc, in, l, val(0), val(1), val(2), img[:]); err != nil {
				return err
			}
			continue
		}
		sp, off := space(in.Space, val(0))
		if sp != isa.Global && sp != isa.Shared {
			return s.diag(wc, in, DiagMisuse, "tensormap-space", 1<<l, fmt.Sprintf(
				"tensormap.replace at 0x%x: the address is not in global or shared::cta memory", val(0)))
		}
		if err := s.memRead(wc, in, sp, off, l, img[:]); err != nil {
			return err
		}
		f := tma.Field(0)
		if int(in.Mode) < len(tmapFields) {
			f = tmapFields[in.Mode]
		}
		if err := tma.Replace(img[:], f, int(val(1)), val(2)); err != nil {
			return s.diag(wc, in, DiagMisuse, "tensormap-replace", 1<<l, err.Error())
		}
		if err := s.memWrite(wc, in, sp, off, l, img[:]); err != nil {
			return err
		}
	}
	if in.Op == isa.OpTensormapCopy {
		s.tensormapFenced()
		wc.busyUntil = now + sim.Cycle(s.cfg.Pipes.Latency[in.Class])
	}
	wc.w.Advance()
	return nil
}

// tensormapCopy is lane l's copy of tensormap.cp_fenceproxy: size (128, the
// only valid value) bytes from shared src to global dst, through buf.
func (s *SM) tensormapCopy(wc *wctx, in *isa.Instr, l int, dst, src, size uint64, buf []byte) error {
	if size != tma.MapBytes {
		return s.diag(wc, in, DiagMisuse, "tensormap-copy", 1<<l, fmt.Sprintf(
			"tensormap.cp_fenceproxy of %d bytes: the only valid size is 128", size))
	}
	ssp, soff := space(isa.Shared, src)
	dsp, doff := space(isa.Global, dst)
	if err := s.memRead(wc, in, ssp, soff, l, buf); err != nil {
		return err
	}
	return s.memWrite(wc, in, dsp, doff, l, buf)
}
