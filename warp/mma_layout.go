package warp

// Layouts of wgmma.mma_async's operands (PTX ISA, "Register Fragments and
// Shared Memory Matrix Layouts"): which element of A or D each lane's
// registers hold, and where in shared memory a matrix descriptor puts each
// element of A or B.

// MatrixDesc is a decoded shared-memory matrix descriptor (PTX ISA,
// "Matrix Descriptor Format"): a 64-bit value whose fields are the start
// address, the leading and stride dimension byte offsets (all in units of
// 16 bytes, 14 bits each), the matrix base offset and the swizzling mode.
type MatrixDesc struct {
	Start   uint32 // shared-memory byte address of the matrix
	LBO     uint32 // leading dimension byte offset
	SBO     uint32 // stride dimension byte offset
	Base    uint32 // matrix base offset (bits 49-51): the swizzle pattern's row phase
	Swizzle int    // bytes of a swizzled row: 0 (none), 32, 64 or 128
}

// DecodeMatrixDesc unpacks a descriptor's fields.
func DecodeMatrixDesc(d uint64) MatrixDesc {
	m := MatrixDesc{
		Start: uint32(d&0x3fff) << 4,
		LBO:   uint32(d>>16&0x3fff) << 4,
		SBO:   uint32(d>>32&0x3fff) << 4,
		Base:  uint32(d >> 49 & 7),
	}
	switch d >> 62 {
	case 1:
		m.Swizzle = 128
	case 2:
		m.Swizzle = 64
	case 3:
		m.Swizzle = 32
	}
	return m
}

// EncodeMatrixDesc packs a descriptor (the inverse of DecodeMatrixDesc for
// addresses and offsets that are multiples of 16 below 256 KiB).
func EncodeMatrixDesc(m MatrixDesc) uint64 {
	d := uint64(m.Start>>4&0x3fff) | uint64(m.LBO>>4&0x3fff)<<16 | uint64(m.SBO>>4&0x3fff)<<32 | uint64(m.Base&7)<<49
	switch m.Swizzle {
	case 128:
		d |= 1 << 62
	case 64:
		d |= 2 << 62
	case 32:
		d |= 3 << 62
	}
	return d
}

// ElemAddr returns the shared-memory byte address of element (mn, k) of a
// matrix of elements of size bytes (1, 2 or 4), in the canonical layout
// the descriptor and the major-ness name (PTX ISA, "Shared Memory Matrix
// Layout"; T elements make 16 bytes, W is the swizzle's row of 32, 64 or
// 128 bytes):
//
//	K-major,  no swizzle:  ((8,m),(T,2k)):((1T,SBO),(1,LBO))
//	K-major,  W-byte rows: ((8,m),(T,2k)):((W/16·T,SBO),(1,T))
//	MN-major, no swizzle:  ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO))
//	MN-major, W-byte rows: ((T,W/16,m),(8,k)):((1,T,LBO),(W/16·T,SBO))
//
// then the swizzle on the address (swizzle).
func (m MatrixDesc) ElemAddr(mn, k, bytes int, mnMajor bool) uint32 {
	w := uint32(m.Swizzle)
	var off uint32
	if !mnMajor {
		kb := uint32(k * bytes) // byte offset along K
		if w == 0 {
			off = uint32(mn%8)*16 + uint32(mn/8)*m.SBO + kb%16 + kb/16*m.LBO
		} else {
			off = uint32(mn%8)*w + uint32(mn/8)*m.SBO + kb
		}
	} else {
		nb := uint32(mn * bytes) // byte offset along M or N
		if w == 0 {
			off = nb%16 + nb/16*m.SBO + uint32(k%8)*16 + uint32(k/8)*m.LBO
		} else {
			off = nb%w + nb/w*m.LBO + uint32(k%8)*w + uint32(k/8)*m.SBO
		}
	}
	return m.swizzle(m.Start + off)
}

// swizzle applies the descriptor's swizzle to a byte address: bits 4.. of
// the address (its 16-byte chunk in a row) take an exclusive or with the
// row bits 7.. (Swizzle<1|2|3,4,3> for 32, 64 and 128-byte rows).
func (m MatrixDesc) swizzle(a uint32) uint32 {
	var mask uint32
	switch m.Swizzle {
	case 32:
		mask = 1
	case 64:
		mask = 3
	case 128:
		mask = 7
	default:
		return a
	}
	row := (a>>7 - m.Base) & mask
	return a ^ row<<4
}

// AccPos returns the row and column of D (0 ≤ row < 64) that element i of
// lane lane's accumulator holds in warp rank of its warpgroup. Elements
// count f32/s32 registers, or f16 halves (low first) of f16x2 registers:
// per n8 block j, lane l holds (l/4, 2(l%4)+{0,1}) and (l/4+8, ...) as
// elements 4j..4j+3.
func AccPos(rank, lane, i int) (row, col int) {
	row = 16*rank + lane/4 + 8*(i>>1&1)
	col = 8*(i>>2) + 2*(lane%4) + i&1
	return row, col
}

// AccSlot is AccPos's inverse within a warp: the lane and element that hold
// row r (0-15) of the warp's share of D and column col. Both are
// non-negative, so the divisions are shifts on their unsigned values (a
// wgmma finds a slot for each of its 2,048 elements twice).
func AccSlot(r, col int) (lane, i int) {
	ur, uc := uint(r), uint(col)
	return int(4*(ur%8) + uc%8/2), int(4*(uc/8) + 2*(ur/8) + uc%2)
}

// AFragPos returns the row and column of A (0 ≤ row < 64, 0 ≤ col < K)
// that element e of register j (0-3) of lane lane holds in warp rank, for
// A in registers with elements of bits bits (e counts from the low bits:
// 2 halves, 1 tf32, 4 bytes or 32 bits a register).
func AFragPos(rank, lane, j, e, bits int) (row, col int) {
	row = 16*rank + lane/4 + 8*(j&1)
	per := 32 / bits // elements a register
	col = per*(lane%4) + 4*per*(j>>1) + e
	return row, col
}
