package sass

import "strconv"

// RegFile is the register file a Reg belongs to.
type RegFile uint8

// Register files of the Hopper SASS text.
const (
	NoReg      RegFile = iota // no register (an absent base, index or guard)
	GPR                       // R0..R254; RZ is number 255 and reads as zero
	UGPR                      // UR0..UR62; URZ is number 63 and reads as zero
	Pred                      // P0..P6; PT is number 7 and reads as true
	UPred                     // UP0..UP6; UPT is number 7 and reads as true
	Barrier                   // B0..B15, the convergence-barrier registers of BSSY/BSYNC/BMOV/BREAK
	Scoreboard                // SB0..SB5, the dependency scoreboards named by DEPBAR
)

// Numbers of the registers that read as zero or true. The encodings use the same numbers (RZ is
// register field 0xff in every instruction of the committed SASS; PT is guard field 7, see the
// guard test), so a Reg's Num is its encoded value.
const (
	RZ  = 255
	URZ = 63
	PT  = 7
)

// Reg is one register: its file and number.
type Reg struct {
	File RegFile
	Num  uint8
}

// Valid reports whether r names a register.
func (r Reg) Valid() bool { return r.File != NoReg }

// IsZero reports whether r is RZ or URZ (reads zero, writes are discarded).
func (r Reg) IsZero() bool {
	return (r.File == GPR && r.Num == RZ) || (r.File == UGPR && r.Num == URZ)
}

// IsTrue reports whether r is PT or UPT.
func (r Reg) IsTrue() bool { return (r.File == Pred || r.File == UPred) && r.Num == PT }

// String prints r as cuobjdump does (R4, RZ, UR6, URZ, P0, PT, UP1, UPT, B0, SB2).
func (r Reg) String() string {
	switch r.File {
	case GPR:
		if r.Num == RZ {
			return "RZ"
		}
		return "R" + strconv.Itoa(int(r.Num))
	case UGPR:
		if r.Num == URZ {
			return "URZ"
		}
		return "UR" + strconv.Itoa(int(r.Num))
	case Pred:
		if r.Num == PT {
			return "PT"
		}
		return "P" + strconv.Itoa(int(r.Num))
	case UPred:
		if r.Num == PT {
			return "UPT"
		}
		return "UP" + strconv.Itoa(int(r.Num))
	case Barrier:
		return "B" + strconv.Itoa(int(r.Num))
	case Scoreboard:
		return "SB" + strconv.Itoa(int(r.Num))
	}
	return ""
}

// parseReg recognises a register name at the start of s and returns it with the number of bytes it
// took. A name must end where s ends or at a byte that cannot continue an identifier (a '.' suffix,
// ',', ']', '+', '|', space...), so "RZX" or "R3a" are not registers.
func parseReg(s []byte) (Reg, int, bool) {
	file, pre, lim := NoReg, 0, 0
	switch {
	case hasPrefix(s, "URZ"):
		return regEnd(s, 3, Reg{UGPR, URZ})
	case hasPrefix(s, "UPT"):
		return regEnd(s, 3, Reg{UPred, PT})
	case hasPrefix(s, "RZ"):
		return regEnd(s, 2, Reg{GPR, RZ})
	case hasPrefix(s, "PT"):
		return regEnd(s, 2, Reg{Pred, PT})
	case hasPrefix(s, "UR"):
		file, pre, lim = UGPR, 2, URZ-1
	case hasPrefix(s, "UP"):
		file, pre, lim = UPred, 2, PT-1
	case hasPrefix(s, "SB"):
		file, pre, lim = Scoreboard, 2, 5
	case hasPrefix(s, "R"):
		file, pre, lim = GPR, 1, RZ-1
	case hasPrefix(s, "P"):
		file, pre, lim = Pred, 1, PT-1
	case hasPrefix(s, "B"):
		file, pre, lim = Barrier, 1, 15
	default:
		return Reg{}, 0, false
	}
	n, i := 0, pre
	for i < len(s) && s[i] >= '0' && s[i] <= '9' && i-pre < 3 {
		n = n*10 + int(s[i]-'0')
		i++
	}
	if i == pre || n > lim || (i-pre > 1 && s[pre] == '0') {
		return Reg{}, 0, false
	}
	return regEnd(s, i, Reg{file, uint8(n)})
}

func regEnd(s []byte, n int, r Reg) (Reg, int, bool) {
	if n < len(s) && isIdent(s[n]) {
		return Reg{}, 0, false
	}
	return r, n, true
}

func hasPrefix(s []byte, p string) bool {
	return len(s) >= len(p) && string(s[:len(p)]) == p
}

func isIdent(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
