package ptx

import (
	"math"
	"strconv"
	"strings"
)

// parseNumber parses a PTX number literal: decimal, 0x hex, 0b binary,
// leading-0 octal (each with an optional U suffix), 0fHHHHHHHH (f32 bits),
// 0dHHHHHHHHHHHHHHHH (f64 bits) or a decimal float. On failure it returns
// a non-empty message.
func parseNumber(s string) (Imm, string) {
	if len(s) >= 2 && s[0] == '0' {
		switch s[1] {
		case 'f', 'F':
			return parseBits(s, ImmF32, 8)
		case 'd', 'D':
			return parseBits(s, ImmF64, 16)
		case 'x', 'X':
			return parseInt(s, s[2:], 16)
		case 'b', 'B':
			return parseInt(s, s[2:], 2)
		}
	}
	if strings.ContainsAny(s, ".eE") {
		return parseDecimalFloat(s)
	}
	if s[0] == '0' {
		return parseInt(s, s, 8)
	}
	return parseInt(s, s, 10)
}

func badNumber(s string) (Imm, string) { return Imm{}, "bad number " + quoteTrunc(s) }

// parseBits parses 0f/0d literals: exactly n hex digits of IEEE bits.
func parseBits(s string, kind ImmKind, n int) (Imm, string) {
	if len(s) != n+2 {
		return badNumber(s)
	}
	bits, err := strconv.ParseUint(s[2:], 16, 64)
	if err != nil {
		return badNumber(s)
	}
	return Imm{Kind: kind, Bits: bits, Text: s}, ""
}

func parseInt(full, digits string, base int) (Imm, string) {
	unsigned := strings.HasSuffix(digits, "U")
	if unsigned {
		digits = digits[:len(digits)-1]
	}
	if digits == "" {
		return badNumber(full)
	}
	u, err := strconv.ParseUint(digits, base, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return Imm{}, "number " + quoteTrunc(full) + " out of 64-bit range"
		}
		return badNumber(full)
	}
	return Imm{Kind: ImmInt, Int: int64(u), Unsigned: unsigned || u > math.MaxInt64, Text: full}, ""
}

func parseDecimalFloat(s string) (Imm, string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isDigit(c) && c != '.' && c != 'e' && c != 'E' && c != '+' && c != '-' {
			return badNumber(s)
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return badNumber(s)
	}
	return Imm{Kind: ImmF64, Bits: math.Float64bits(f), Text: s}, ""
}

// negate applies a leading '-' to the immediate (two's complement for
// integers, sign bit for floats).
func (i *Imm) negate() {
	i.Text = "-" + i.Text
	switch i.Kind {
	case ImmInt:
		i.Int = -i.Int
	case ImmF32:
		i.Bits ^= 1 << 31
	case ImmF64:
		i.Bits ^= 1 << 63
	}
}

func quoteTrunc(s string) string {
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return strconv.Quote(s)
}

// warpSizeName is the PTX ISA's predefined constant for the warp size,
// and warpSize its value on every architecture the ISA describes.
const (
	warpSizeName = "WARP_SZ"
	warpSize     = 32
)

var specialRegs = map[string]bool{
	"%tid": true, "%ntid": true, "%laneid": true, "%warpid": true, "%nwarpid": true,
	"%ctaid": true, "%nctaid": true, "%smid": true, "%nsmid": true, "%gridid": true,
	"%lanemask_eq": true, "%lanemask_le": true, "%lanemask_lt": true,
	"%lanemask_ge": true, "%lanemask_gt": true,
	"%clock": true, "%clock_hi": true, "%clock64": true,
	"%globaltimer": true, "%globaltimer_lo": true, "%globaltimer_hi": true,
	"%total_smem_size": true, "%aggr_smem_size": true, "%dynamic_smem_size": true,
	"%is_explicit_cluster": true, "%clusterid": true, "%nclusterid": true,
	"%cluster_ctaid": true, "%cluster_nctaid": true,
	"%cluster_ctarank": true, "%cluster_nctarank": true,
	"%reserved_smem_offset_begin": true, "%reserved_smem_offset_end": true,
	"%reserved_smem_offset_cap": true, "%reserved_smem_offset_0": true,
	"%reserved_smem_offset_1": true, "%current_graph_exec": true,
}

// isSpecial reports whether name (without component) is a predefined
// special register: the fixed names above, %envreg0..31 and
// %pm0..7 / %pm0_64..%pm7_64.
func isSpecial(name string) bool {
	if specialRegs[name] {
		return true
	}
	if rest, ok := strings.CutPrefix(name, "%envreg"); ok {
		return smallIndex(rest, 32)
	}
	if rest, ok := strings.CutPrefix(name, "%pm"); ok {
		return smallIndex(strings.TrimSuffix(rest, "_64"), 8)
	}
	return false
}

// smallIndex reports whether s is a decimal number below n without
// leading zeros.
func smallIndex(s string, n int) bool {
	if s == "" || len(s) > 2 || (len(s) > 1 && s[0] == '0') {
		return false
	}
	v, err := strconv.Atoi(s)
	return err == nil && v < n
}
