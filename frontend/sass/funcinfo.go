package sass

import (
	"fmt"
	"sort"
)

// decodeInfo fills the typed fields of f from its .nv.info.NAME records. Records it does not
// interpret stay in f.Info only. sec names the section in errors.
func (f *Func) decodeInfo(sec string) error {
	for i := range f.Info {
		if err := f.decodeAttr(&f.Info[i], sec); err != nil {
			return err
		}
	}
	return f.checkParams(sec)
}

func (f *Func) decodeAttr(a *Attribute, sec string) error {
	var err error
	switch a.ID {
	case AttrKParamInfo:
		var p Param
		if p, err = decodeKParam(a, sec); err == nil {
			f.Params = append(f.Params, p)
		}
	case AttrParamCBank:
		// Payload: the symbol index of .nv.constant0.NAME, then the block's offset and size as u16.
		var w []uint32
		if w, err = words(a, sec, 2); err == nil {
			f.ParamBase, f.ParamSize = w[1]&0xffff, w[1]>>16
		}
	case AttrMaxThreads:
		err = dims(&f.MaxThreads, a, sec)
	case AttrReqNTID:
		err = dims(&f.ReqNTID, a, sec)
	case AttrCTAPerCluster:
		err = dims(&f.ClusterDims, a, sec)
	case AttrExplicitCluster:
		f.ExplicitCluster = true
	case AttrBlocksAreClusters:
		f.BlocksAreClusters = true
	case AttrMaxClusterRank:
		err = word(&f.MaxClusterRank, a, sec)
	case AttrCRSStackSize:
		err = word(&f.CRSStackSize, a, sec)
	case AttrSWWar:
		err = word(&f.SWWar, a, sec)
	case AttrCUDAAPIVersion:
		err = word(&f.CUDAAPIVersion, a, sec)
	case AttrSharedScratch:
		f.SharedScratch = lenientWord(a)
	case AttrReservedSmemUsed:
		f.ReservedSmemUsed = true
	case AttrReservedSmem0Size:
		f.ReservedSmem0Size = lenientWord(a)
	case AttrMaxRegCount:
		f.MaxRegCount = uint32(a.Value)
	case AttrNumBarriers:
		f.Barriers = int(a.Value)
	case AttrNumMbarriers:
		f.Mbarriers = int(a.Value)
	case AttrExitInstrOffsets:
		f.ExitOffsets, err = offsets(a, sec)
	case AttrS2RCTAIDInstrOffsets:
		f.S2RCTAIDOffsets, err = offsets(a, sec)
	case AttrCoopGroupInstrOffsets:
		f.CoopGroupOffsets, err = offsets(a, sec)
	case AttrCoopGroupMaskRegIDs:
		f.CoopGroupMaskRegs, err = offsets(a, sec)
	case AttrIntWarpWideOffsets:
		f.IntWarpWideOffsets, err = offsets(a, sec)
	case AttrMbarrierInstrOffsets:
		f.MbarrierInstrs, err = decodeMbarriers(a, sec)
	case AttrIndirectBranchTargets:
		f.IndirectBranches, err = decodeIndirect(a, sec)
	}
	return err
}

// lenientWord reads the value of a record whose shape is not known: the 16-bit value of a value
// record, or a 4-byte payload; 0 for any other shape.
func lenientWord(a *Attribute) uint32 {
	if a.Format != FormatSVal {
		return uint32(a.Value)
	}
	if len(a.Data) == 4 {
		return a.Words()[0]
	}
	return 0
}

// dims decodes an x, y, z payload of three u32.
func dims(dst *[3]uint32, a *Attribute, sec string) error {
	w, err := words(a, sec, 3)
	if err == nil {
		copy(dst[:], w)
	}
	return err
}

// word decodes a payload of one u32.
func word(dst *uint32, a *Attribute, sec string) error {
	w, err := words(a, sec, 1)
	if err == nil {
		*dst = w[0]
	}
	return err
}

// checkParams orders the parameters by ordinal, requires ordinals 0..n-1 without gaps and
// parameters that do not overlap or leave the block, and fills in their constant-bank offsets.
// ptxas lists the records in reverse order.
func (f *Func) checkParams(sec string) error {
	ps := f.Params
	sort.Slice(ps, func(i, j int) bool { return ps[i].Ordinal < ps[j].Ordinal })
	for i := range ps {
		p := &ps[i]
		if p.Ordinal != i {
			return fmt.Errorf("%s: parameter ordinals are not 0..%d: found %d at position %d", sec, len(ps)-1, p.Ordinal, i)
		}
		if i > 0 && p.Offset < ps[i-1].Offset+ps[i-1].Size {
			return fmt.Errorf("%s: parameter %d at 0x%x overlaps parameter %d", sec, i, p.Offset, i-1)
		}
		if f.ParamSize > 0 && uint64(p.Offset)+uint64(p.Size) > uint64(f.ParamSize) {
			return fmt.Errorf("%s: parameter %d (0x%x+%d) lies outside the %d-byte parameter block", sec, i, p.Offset, p.Size, f.ParamSize)
		}
		p.CBankOffset = f.ParamBase + p.Offset
	}
	return nil
}

// CheckText compares a parsed listing of this function with the code: every instruction must lie
// inside Code, and one that has its encoding must have the same 128-bit word there. An instruction
// printed without its encoding (cuobjdump or nvdisasm text without the hex words) takes the word
// and its control bits from the code: the stall counts and scoreboards the timing reads.
func (f *Func) CheckText(fn *Function) error {
	for i := range fn.Instructions {
		in := &fn.Instructions[i]
		if in.Addr%16 != 0 || int(in.Addr/16) >= f.NumInstructions() {
			return fmt.Errorf("%s: instruction at 0x%x (line %d) lies outside the %d-byte code", f.Name, in.Addr, in.Line, len(f.Code))
		}
		if !in.HasEnc {
			e := f.Encoding(int(in.Addr / 16))
			if num, not := e.Guard(); !guardMatches(in.Guard, num, not) {
				return fmt.Errorf("%s: at 0x%x (line %d) the listing's guard is not the cubin's (@%sP%d)", f.Name, in.Addr, in.Line, map[bool]string{true: "!"}[not], num)
			}
			in.Enc, in.HasEnc, in.Ctrl = e, true, e.Control()
			continue
		}
		if e := f.Encoding(int(in.Addr / 16)); e != in.Enc {
			return fmt.Errorf("%s: at 0x%x (line %d) the listing has 0x%016x 0x%016x, the cubin 0x%016x 0x%016x",
				f.Name, in.Addr, in.Line, in.Enc.Lo, in.Enc.Hi, e.Lo, e.Hi)
		}
	}
	return nil
}

// guardMatches reports whether a listing's guard is the encoding's guard field num (7: none, or
// PT) and negation bit.
func guardMatches(g Guard, num uint8, not bool) bool {
	if !g.Reg.Valid() {
		return num == PT && !not
	}
	return g.Reg.Num == num && g.Not == not
}
