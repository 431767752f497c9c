package sass

import (
	"encoding/binary"
	"fmt"
)

// Attribute is one record of a .nv.info section. Every record is kept, decoded or not, so a
// consumer can read attributes this package does not interpret.
type Attribute struct {
	ID     AttrID
	Format Format
	// Value is the 16-bit value of an NVAL, BVAL or HVAL record.
	Value uint16
	// Data is the payload of an SVAL record. It aliases the cubin's bytes.
	Data []byte
	// Offset is the record's byte offset in its section.
	Offset int
}

// Words returns an SVAL payload as little-endian 32-bit words (a trailing partial word is dropped).
func (a *Attribute) Words() []uint32 {
	w := make([]uint32, len(a.Data)/4)
	for i := range w {
		w[i] = binary.LittleEndian.Uint32(a.Data[4*i:])
	}
	return w
}

// maxAttributes bounds the records of one section: a record takes at least 4 bytes, so this is
// only reached by sections of more than 4 MiB, far beyond any ptxas output.
const maxAttributes = 1 << 20

// parseAttributes splits a .nv.info section into records. sec names the section in errors.
func parseAttributes(b []byte, sec string) ([]Attribute, error) {
	var out []Attribute
	for off := 0; off < len(b); {
		if len(out) == maxAttributes {
			return nil, fmt.Errorf("%s+0x%x: more than %d attributes", sec, off, maxAttributes)
		}
		if len(b)-off < 4 {
			return nil, fmt.Errorf("%s+0x%x: truncated attribute record (%d bytes left)", sec, off, len(b)-off)
		}
		a := Attribute{Format: Format(b[off]), ID: AttrID(b[off+1]), Offset: off}
		v := binary.LittleEndian.Uint16(b[off+2:])
		switch a.Format {
		case FormatNVal, FormatBVal, FormatHVal:
			a.Value = v
			off += 4
		case FormatSVal:
			if int(v) > len(b)-off-4 {
				return nil, fmt.Errorf("%s+0x%x: %v payload of %d bytes runs past the section end", sec, off, a.ID, v)
			}
			a.Data = b[off+4 : off+4+int(v) : off+4+int(v)]
			off += 4 + int(v)
		default:
			return nil, fmt.Errorf("%s+0x%x: unknown attribute format 0x%02x (%v)", sec, off, b[off], a.ID)
		}
		out = append(out, a)
	}
	return out, nil
}

// ParamBaseSM90 is where kernel parameters start in constant bank 0 on sm_90: c[0x0][0x210]. Every
// committed cubin's EIATTR_PARAM_CBANK says so (TestCubinParamBase).
const ParamBaseSM90 = 0x210

// Param is one kernel parameter as EIATTR_KPARAM_INFO describes it.
type Param struct {
	Ordinal int    // position in the parameter list
	Offset  uint32 // byte offset from the start of the parameter block
	Size    uint32 // bytes
	// CBankOffset is where the parameter lies in constant bank 0: the block's start
	// (Func.ParamBase, 0x210 on sm_90) plus Offset, as SASS addresses it (c[0x0][0x210]).
	CBankOffset uint32
	// PointeeLogAlign is the log2 alignment of what a pointer parameter points to (PTX
	// ".ptr .align N"); 0 when not declared.
	PointeeLogAlign uint8
	// Space is the address space of the pointee (PTX ".ptr .global" and similar); 0 when not
	// declared.
	Space uint8
	// CBank is the constant bank field of the record, 0x1f for every parameter ptxas 13.0 writes.
	CBank uint8
	// InCBank reports that the parameter is passed in the constant bank (bit 17 of the flags word
	// clear), true for every kernel parameter on sm_90.
	InCBank bool
	// Index is the record's first word, 0 in every committed cubin.
	Index uint32
}

// decodeKParam decodes one EIATTR_KPARAM_INFO payload: index (u32), ordinal (u16), offset (u16)
// and a flags word whose bits 0-7 are the pointee's log2 alignment, 8-11 its space, 12-16 the
// cbank field, 17 "not in a constant bank" and 18-31 the size in bytes.
func decodeKParam(a *Attribute, sec string) (Param, error) {
	if len(a.Data) != 12 {
		return Param{}, fmt.Errorf("%s+0x%x: %v has %d bytes, want 12", sec, a.Offset, a.ID, len(a.Data))
	}
	d := a.Data
	flags := binary.LittleEndian.Uint32(d[8:])
	return Param{
		Index:           binary.LittleEndian.Uint32(d),
		Ordinal:         int(binary.LittleEndian.Uint16(d[4:])),
		Offset:          uint32(binary.LittleEndian.Uint16(d[6:])),
		PointeeLogAlign: uint8(flags),
		Space:           uint8(flags >> 8 & 0xf),
		CBank:           uint8(flags >> 12 & 0x1f),
		InCBank:         flags>>17&1 == 0,
		Size:            flags >> 18,
	}, nil
}

// MbarrierInstr is one entry of EIATTR_MBARRIER_INSTR_OFFSETS: an instruction that operates on an
// mbarrier, its kind and the barrier's address operand. The 16-byte layout (offset u32, base
// register u32, immediate u32, then kind, stride, uniform register and one more byte) and the
// kind names are those cuobjdump -elf prints for the committed cubins
// (testdata/cubin/*.elf.txt, TestAttributesMatchCuobjdump).
type MbarrierInstr struct {
	Offset uint32
	Kind   MbarrierKind
	// The address is Base + UBase + Imm ("(R255 + UR6 + 8)" in cuobjdump's words; R255 is RZ).
	Base  Reg
	UBase Reg
	Imm   uint32
	// Stride is the stride code: 1, which cuobjdump prints as MBARRIER_STRIDE_X4, in every entry.
	Stride uint8
	// Pad is the last byte, 0 in every committed cubin.
	Pad uint8
}

// MbarrierKind is the operation of an MbarrierInstr.
type MbarrierKind uint8

// The kinds cuobjdump names. ptxas 13.0 also writes 9 (at SYNCS.PHASECHK.TRANS64.TRYWAIT), 11
// and 12 (at SYNCS.ARRIVE.TRANS64.RED, remote arrives), for which cuobjdump prints "Unknown
// Instruction" or which no listed cubin has.
const (
	MbarrierInit           MbarrierKind = 0
	MbarrierArrive         MbarrierKind = 1
	MbarrierTestWaitParity MbarrierKind = 6
	MbarrierCpAsyncArrive  MbarrierKind = 7
	MbarrierInval          MbarrierKind = 8
	MbarrierTryWaitParity  MbarrierKind = 10
)

// String returns cuobjdump's name of the kind.
func (k MbarrierKind) String() string {
	switch k {
	case MbarrierInit:
		return "MBARRIER_INIT"
	case MbarrierArrive:
		return "MBARRIER_ARRIVE"
	case MbarrierTestWaitParity:
		return "MBARRIER_TEST_WAIT_PARITY"
	case MbarrierCpAsyncArrive:
		return "MBARRIER_CP_ASYNC_ARRIVE"
	case MbarrierInval:
		return "MBARRIER_INVAL"
	case MbarrierTryWaitParity:
		return "MBARRIER_TRY_WAIT_PARITY"
	}
	return fmt.Sprintf("MBARRIER_KIND_%d", uint8(k))
}

// IndirectBranch is one entry of EIATTR_INDIRECT_BRANCH_TARGETS: the BRX at Offset and the
// addresses it may jump to (the jump table ptxas put in a constant bank).
type IndirectBranch struct {
	Offset  uint32
	Flags   uint32 // the second word, 0 in every committed cubin
	Targets []uint32
}

func decodeIndirect(a *Attribute, sec string) ([]IndirectBranch, error) {
	w := a.Words()
	var out []IndirectBranch
	for i := 0; i < len(w); {
		if len(w)-i < 3 || uint64(w[i+2]) > uint64(len(w)-i-3) {
			return nil, fmt.Errorf("%s+0x%x: %v entry at word %d is truncated", sec, a.Offset, a.ID, i)
		}
		n := int(w[i+2])
		out = append(out, IndirectBranch{Offset: w[i], Flags: w[i+1], Targets: w[i+3 : i+3+n : i+3+n]})
		i += 3 + n
	}
	return out, nil
}

func decodeMbarriers(a *Attribute, sec string) ([]MbarrierInstr, error) {
	if len(a.Data)%16 != 0 {
		return nil, fmt.Errorf("%s+0x%x: %v has %d bytes, not a multiple of 16", sec, a.Offset, a.ID, len(a.Data))
	}
	out := make([]MbarrierInstr, len(a.Data)/16)
	for i := range out {
		e := a.Data[16*i:]
		base := binary.LittleEndian.Uint32(e[4:])
		if base > RZ || e[14] > URZ {
			return nil, fmt.Errorf("%s+0x%x: %v entry %d names register R%d + UR%d", sec, a.Offset, a.ID, i, base, e[14])
		}
		out[i] = MbarrierInstr{
			Offset: binary.LittleEndian.Uint32(e),
			Base:   Reg{GPR, uint8(base)},
			Imm:    binary.LittleEndian.Uint32(e[8:]),
			Kind:   MbarrierKind(e[12]),
			Stride: e[13],
			UBase:  Reg{UGPR, e[14]},
			Pad:    e[15],
		}
	}
	return out, nil
}

// offsets decodes a payload of 32-bit instruction offsets.
func offsets(a *Attribute, sec string) ([]uint32, error) {
	if len(a.Data)%4 != 0 {
		return nil, fmt.Errorf("%s+0x%x: %v has %d bytes, not a multiple of 4", sec, a.Offset, a.ID, len(a.Data))
	}
	return a.Words(), nil
}

// words decodes a payload of exactly n 32-bit words.
func words(a *Attribute, sec string, n int) ([]uint32, error) {
	if len(a.Data) != 4*n {
		return nil, fmt.Errorf("%s+0x%x: %v has %d bytes, want %d", sec, a.Offset, a.ID, len(a.Data), 4*n)
	}
	return a.Words(), nil
}
