package tma

import (
	"encoding/binary"
	"fmt"
)

// MapBytes is the size of an encoded tensor map, as of a CUtensorMap.
const MapBytes = 128

// Encoding of a Map in 128 bytes (little-endian). The real CUtensorMap is
// opaque; this layout is smsim's own, so that a map built on the command
// line can sit in kernel-parameter or global memory and be decoded by the
// SM when a copy names it.
//
//	0   4  magic "smTM"
//	4   2  version (1)
//	6   1  DType        7  Rank
//	8   1  Interleave   9  Swizzle   10 L2Promotion   11 OOBFill
//	12  4  reserved, zero
//	16  8  Base
//	24 40  Dims[0..4]          u64 each
//	64 32  Strides[0..3]       u64 each
//	96 10  Box[0..4]           u16 each
//	106 5  ElemStrides[0..4]   u8 each
//	111 17 reserved, zero
//
// Entries past Rank are written as zero.
const (
	mapMagic   = "smTM"
	mapVersion = 1
	offBase    = 16
	offDims    = 24
	offStrides = 64
	offBox     = 96
	offEStride = 106
	offEnd     = 111
)

// Encode validates the map and returns its 128-byte encoding. Like
// cuTensorMapEncodeTiled, it refuses a map that breaks a driver limit, so a
// bad descriptor is an error when it is built, not when it is used
// (mbarrier-semantics.md §4 #53).
func (m Map) Encode() ([MapBytes]byte, error) {
	var b [MapBytes]byte
	if err := m.Validate(); err != nil {
		return b, err
	}
	copy(b[0:4], mapMagic)
	binary.LittleEndian.PutUint16(b[4:], mapVersion)
	b[6], b[7] = byte(m.DType), byte(m.Rank)
	b[8], b[9], b[10], b[11] = byte(m.Interleave), byte(m.Swizzle), byte(m.L2Promotion), byte(m.OOBFill)
	binary.LittleEndian.PutUint64(b[offBase:], m.Base)
	for i := 0; i < m.Rank; i++ {
		binary.LittleEndian.PutUint64(b[offDims+8*i:], m.Dims[i])
		binary.LittleEndian.PutUint16(b[offBox+2*i:], uint16(m.Box[i]))
		b[offEStride+i] = byte(m.ElemStrides[i])
		if i < m.Rank-1 {
			binary.LittleEndian.PutUint64(b[offStrides+8*i:], m.Strides[i])
		}
	}
	return b, nil
}

// Decode parses a 128-byte encoding written by Encode and validates the
// result. It fails on a short buffer, a foreign magic or version (for
// example a real CUtensorMap), non-zero reserved bytes, or a map that
// breaks a driver limit.
func Decode(b []byte) (Map, error) {
	if len(b) < MapBytes {
		return Map{}, fmt.Errorf("tensor map: %d bytes, want %d", len(b), MapBytes)
	}
	if string(b[0:4]) != mapMagic {
		return Map{}, fmt.Errorf("tensor map: bad magic %q: not a map encoded by smsim", b[0:4])
	}
	if v := binary.LittleEndian.Uint16(b[4:]); v != mapVersion {
		return Map{}, fmt.Errorf("tensor map: version %d, want %d", v, mapVersion)
	}
	if !allZero(b[12:offBase]) || !allZero(b[offEnd:MapBytes]) {
		return Map{}, fmt.Errorf("tensor map: reserved bytes are not zero")
	}
	m := Map{
		DType: DType(b[6]), Rank: int(b[7]),
		Interleave: Interleave(b[8]), Swizzle: Swizzle(b[9]), L2Promotion: L2Promotion(b[10]), OOBFill: OOBFill(b[11]),
		Base: binary.LittleEndian.Uint64(b[offBase:]),
	}
	for i := 0; i < MaxRank; i++ {
		m.Dims[i] = binary.LittleEndian.Uint64(b[offDims+8*i:])
		m.Box[i] = uint32(binary.LittleEndian.Uint16(b[offBox+2*i:]))
		m.ElemStrides[i] = uint32(b[offEStride+i])
		if i < MaxRank-1 {
			m.Strides[i] = binary.LittleEndian.Uint64(b[offStrides+8*i:])
		}
	}
	if err := m.Validate(); err != nil {
		return Map{}, err
	}
	return m, nil
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}
