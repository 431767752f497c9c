package run

import (
	"encoding/binary"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/smsim/smsim/isa"
)

// An integer parameter takes only an integer literal of its width; a float
// parameter takes any number as a float of its width; an untyped .bN
// parameter takes an integer as it is, else a float's bits.
func TestScalarArgumentsKeepTheirType(t *testing.T) {
	tests := []struct {
		typ  isa.Type
		size int
		v    string
		want uint64 // the parameter's bytes, little-endian
		bad  string // a fragment of the error, "" for none
	}{
		{isa.S64, 8, "42", 42, ""},
		{isa.S64, 8, "-1", math.MaxUint64, ""},
		{isa.S64, 8, "0x2a", 42, ""},
		{isa.U64, 8, "18446744073709551615", math.MaxUint64, ""},
		{isa.S64, 8, "1e18", 0, "1e18 is a float literal (write 1000000000000000000)"},
		{isa.S64, 8, "1.5", 0, `want an integer literal such as 42 or 0x2a, not "1.5"`},
		{isa.S64, 8, "99999999999999999999", 0, "99999999999999999999 does not fit 64 bits"},
		{isa.U32, 4, "4294967295", math.MaxUint32, ""},
		{isa.U32, 4, "-1", math.MaxUint32, ""},
		{isa.U32, 4, "4294967296", 0, "4294967296 does not fit 32 bits"},
		{isa.S32, 4, "-2147483649", 0, "-2147483649 does not fit 32 bits"},
		{isa.U32, 4, "4096.0", 0, "4096.0 is a float literal (write 4096)"},
		{isa.U16, 2, "65535", 65535, ""},
		{isa.U8, 1, "256", 0, "256 does not fit 8 bits"},
		{isa.S64, 8, "", 0, "no value"},
		{isa.F32, 4, "1.5", uint64(math.Float32bits(1.5)), ""},
		{isa.F32, 4, "3", uint64(math.Float32bits(3)), ""},
		{isa.F32, 4, "1e39", 0, "1e39 is too large for a 32-bit float"},
		{isa.F32, 4, "inf", uint64(math.Float32bits(float32(math.Inf(1)))), ""},
		{isa.F64, 8, "1e18", math.Float64bits(1e18), ""},
		{isa.F64, 8, "1e999", 0, "1e999 is too large for a 64-bit float"},
		{isa.F64, 8, "x", 0, `want a number such as 1.5, 2e-3 or 7, not "x"`},
		{isa.F16, 2, "1.5", 0x3e00, ""},
		{isa.F16, 2, "70000", 0, "70000 is too large for a 16-bit float"},
		{isa.BF16, 2, "1.5", 0x3fc0, ""},
		{isa.B32, 4, "7", 7, ""},
		{isa.B32, 4, "1.5", uint64(math.Float32bits(1.5)), ""},
		{isa.B64, 8, "1.5", math.Float64bits(1.5), ""},
		{isa.B32, 4, "4294967296", 0, "does not fit 32 bits"},
	}
	for _, tc := range tests {
		dst := make([]byte, tc.size)
		err := putScalar(dst, isa.Param{Name: "p", Type: tc.typ, Size: tc.size}, tc.v)
		if tc.bad != "" {
			if err == nil || !strings.Contains(err.Error(), tc.bad) {
				t.Errorf("%s %q: got error %v, want one saying %q", tc.typ, tc.v, err, tc.bad)
			}
			continue
		}
		var b [8]byte
		copy(b[:], dst)
		if err != nil || binary.LittleEndian.Uint64(b[:]) != tc.want {
			t.Errorf("%s %q: got %#x, %v; want %#x", tc.typ, tc.v, binary.LittleEndian.Uint64(b[:]), err, tc.want)
		}
	}
}

func writeTestFile(path, body string) error { return os.WriteFile(path, []byte(body), 0o644) }
