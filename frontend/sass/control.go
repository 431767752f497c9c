package sass

import "fmt"

// Encoding is an instruction's 128-bit machine word as cuobjdump prints it: Lo is the first
// "/* 0x... */" word (bits 0-63), Hi the second (bits 64-127). In the cubin the word is stored
// little-endian, Lo first.
type Encoding struct {
	Lo, Hi uint64
}

// Bits returns n bits (n ≤ 64) of the word starting at bit pos.
func (e Encoding) Bits(pos, n uint) uint64 {
	var v uint64
	switch {
	case pos >= 64:
		v = e.Hi >> (pos - 64)
	case pos+n <= 64:
		v = e.Lo >> pos
	default:
		v = e.Lo>>pos | e.Hi<<(64-pos)
	}
	if n < 64 {
		v &= 1<<n - 1
	}
	return v
}

// Opcode returns the 9-bit opcode field (bits 0-8). Over all committed SASS every mnemonic with its
// modifiers has one value of this field (TestOpcodeFieldConsistent). Bits 9-11 mostly select the
// operand form (register, immediate, constant, uniform register) and vary within a mnemonic; with
// them, no value of bits 0-11 is shared by two base mnemonics (ERRBAR and CGAERRBAR, for one,
// differ only there).
func (e Encoding) Opcode() uint16 { return uint16(e.Lo & 0x1ff) }

// Guard returns the guard predicate field (bits 12-14, 7 = PT) and its negation bit (bit 15). For
// uniform-datapath instructions the field names a UP register.
func (e Encoding) Guard() (num uint8, not bool) {
	return uint8(e.Lo>>12) & 7, e.Lo>>15&1 == 1
}

// Control returns the scheduling control bits of the word.
func (e Encoding) Control() Control { return DecodeControl(e.Hi) }

// NoScoreboard is the value of Control.WriteSB and Control.ReadSB when the instruction sets none.
const NoScoreboard = -1

// Control is the scheduling information ptxas puts in bits 105-125 of every Volta-and-later
// instruction (Hopper included), as laid out in calibration/h200/sassctl.py and in Jia et al.,
// "Dissecting the NVIDIA Volta GPU Architecture via Microbenchmarking" (2018), the chapter on
// instruction encoding, which Hopper keeps:
//
//	bits 105-108  stall    cycles the warp waits before issuing its next instruction
//	bit  109      yield    0: the scheduler may switch to another warp after this one
//	bits 110-112  write    scoreboard released when the result is written (7: none)
//	bits 113-115  read     scoreboard released when the sources have been read (7: none)
//	bits 116-121  wait     scoreboards (bit i = SB i) that must be released before issue
//	bits 122-125  reuse    operand-reuse-cache flags: bit 0 source slot a, 1 slot b, 2 slot c
//	                       (bit 3 is never set in the committed SASS)
type Control struct {
	Stall   uint8 // 0-15
	Yield   bool  // the yield bit is clear: the scheduler prefers to switch warps afterwards
	WriteSB int8  // scoreboard 0-5, or NoScoreboard
	ReadSB  int8  // scoreboard 0-5, or NoScoreboard
	Wait    uint8 // 6-bit mask of scoreboards waited on
	Reuse   uint8 // 4-bit mask of reused source slots
}

// DecodeControl decodes the control bits from the high 64-bit word of an instruction.
func DecodeControl(hi uint64) Control {
	c := hi >> 41
	sb := func(v uint64) int8 {
		if v == 7 {
			return NoScoreboard
		}
		return int8(v)
	}
	return Control{
		Stall:   uint8(c & 0xf),
		Yield:   c>>4&1 == 0,
		WriteSB: sb(c >> 5 & 7),
		ReadSB:  sb(c >> 8 & 7),
		Wait:    uint8(c >> 11 & 0x3f),
		Reuse:   uint8(c >> 17 & 0xf),
	}
}

// Waits reports whether the instruction waits on scoreboard sb.
func (c Control) Waits(sb int) bool { return sb >= 0 && sb < 6 && c.Wait>>sb&1 == 1 }

// String prints c in the column form of sassctl.py: "S04 Y wb1 rb- wt000010", with the reuse mask
// appended when set ("ru0101", slot a rightmost).
func (c Control) String() string {
	y := "-"
	if c.Yield {
		y = "Y"
	}
	sb := func(v int8) string {
		if v == NoScoreboard {
			return "-"
		}
		return fmt.Sprint(v)
	}
	s := fmt.Sprintf("S%02d %s wb%s rb%s wt%06b", c.Stall, y, sb(c.WriteSB), sb(c.ReadSB), c.Wait)
	if c.Reuse != 0 {
		s += fmt.Sprintf(" ru%04b", c.Reuse)
	}
	return s
}
