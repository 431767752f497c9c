package memory

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// FillKind says how a buffer's initial contents are generated.
type FillKind uint8

// Fill kinds, in the spelling of the command line's buf:SIZE:FILL.
const (
	FillZero    FillKind = iota // zero: every byte 0
	FillByte                    // byte:0xNN: every byte NN
	FillSeq                     // seq: little-endian 32-bit words 0, 1, 2, … (word i at byte 4i)
	FillRandom                  // random:SEED: the SplitMix64 sequence of SEED, one 64-bit word per 8 bytes
	FillF32Rand                 // f32rand:SEED: float32 words uniform in [-1, 1), one per 4 bytes
	FillF16Int                  // f16int:SEED: float16 half-words holding integers uniform in [-8, 8), one per 2 bytes
	FillE4M3Int                 // e4m3int:SEED: e4m3 bytes holding integers uniform in [-8, 8), one per byte
)

// Fill describes a buffer's initial contents. Every byte is a function of
// its offset in the buffer, so a page can be generated on its own, in any
// order, the first time it is touched — a 256 MiB random buffer costs nothing
// until it is read.
type Fill struct {
	Kind FillKind
	Byte byte   // FillByte
	Seed uint64 // FillRandom, FillF32Rand, FillF16Int, FillE4M3Int
}

// ParseFill parses zero, byte:0xNN (or a decimal byte), seq, random:SEED,
// f32rand:SEED, f16int:SEED or e4m3int:SEED.
// file:PATH is not a Fill: the caller reads the file and writes its bytes.
func ParseFill(s string) (Fill, error) {
	name, arg, hasArg := strings.Cut(s, ":")
	switch name {
	case "zero", "seq":
		if hasArg {
			return Fill{}, fmt.Errorf("fill %q: %s takes no argument", s, name)
		}
		if name == "seq" {
			return Fill{Kind: FillSeq}, nil
		}
		return Fill{}, nil
	case "byte":
		v, err := strconv.ParseUint(arg, 0, 8)
		if err != nil || !hasArg {
			return Fill{}, fmt.Errorf("fill %q: byte needs a value 0..255, as byte:0xNN", s)
		}
		return Fill{Kind: FillByte, Byte: byte(v)}, nil
	case "random", "f32rand", "f16int", "e4m3int":
		v, err := strconv.ParseUint(arg, 0, 64)
		if err != nil || !hasArg {
			return Fill{}, fmt.Errorf("fill %q: %s needs an unsigned 64-bit seed, as %s:42", s, name, name)
		}
		switch name {
		case "f32rand":
			return Fill{Kind: FillF32Rand, Seed: v}, nil
		case "f16int":
			return Fill{Kind: FillF16Int, Seed: v}, nil
		case "e4m3int":
			return Fill{Kind: FillE4M3Int, Seed: v}, nil
		}
		return Fill{Kind: FillRandom, Seed: v}, nil
	case "file":
		return Fill{}, fmt.Errorf("fill %q: file contents are loaded by the caller, not generated", s)
	}
	return Fill{}, fmt.Errorf("fill %q: want zero, byte:0xNN, seq, random:SEED, f32rand:SEED, f16int:SEED or e4m3int:SEED", s)
}

// String is the command-line spelling.
func (f Fill) String() string {
	switch f.Kind {
	case FillByte:
		return fmt.Sprintf("byte:%#02x", f.Byte)
	case FillSeq:
		return "seq"
	case FillRandom:
		return fmt.Sprintf("random:%d", f.Seed)
	case FillF32Rand:
		return fmt.Sprintf("f32rand:%d", f.Seed)
	case FillF16Int:
		return fmt.Sprintf("f16int:%d", f.Seed)
	case FillE4M3Int:
		return fmt.Sprintf("e4m3int:%d", f.Seed)
	}
	return "zero"
}

// IsZero reports whether the fill leaves memory zero.
func (f Fill) IsZero() bool { return f.Kind == FillZero || (f.Kind == FillByte && f.Byte == 0) }

// Generate writes into b the bytes at offsets off, off+1, … of a buffer with
// this fill.
func (f Fill) Generate(off uint64, b []byte) {
	switch f.Kind {
	case FillZero:
		clear(b)
	case FillByte:
		for i := range b {
			b[i] = f.Byte
		}
	case FillSeq, FillRandom, FillF32Rand, FillF16Int:
		f.generateWords(off, b)
	case FillE4M3Int:
		for i := range b {
			b[i] = E4M3Bits(F16Int(f.Seed, off+uint64(i)))
		}
	}
}

// F16Int is half-word k of f16int:SEED: the top 4 bits of SplitMix64's
// output k, less 8 — an integer in [-8, 8). Products of two are exact in
// float16 arithmetic and sums of them exact in float32 up to 2^18 terms, so
// a matrix product of such inputs has one right answer whatever the order
// of its additions: a GEMM's output checks bit for bit.
func F16Int(seed, k uint64) int {
	return int(splitmix(seed, k)>>60) - 8
}

// F16Bits is the IEEE half-precision encoding of an integer of magnitude at
// most 2048 (exact in float16).
func F16Bits(v int) uint16 {
	if v == 0 {
		return 0
	}
	var sign uint16
	if v < 0 {
		sign, v = 0x8000, -v
	}
	e := 0
	for 1<<(e+1) <= v {
		e++
	}
	return sign | uint16(e+15)<<10 | uint16((v<<10>>e)&0x3ff)
}

// E4M3Bits is the e4m3 encoding (sign, four exponent bits biased by 7,
// three mantissa bits) of an integer of magnitude at most 16 (exact in
// e4m3). e4m3int:SEED's byte k is E4M3Bits(F16Int(SEED, k)): the same
// integers as f16int, one a byte, so an 8-bit GEMM's output checks bit for
// bit too (products up to 64, sums exact in float32).
func E4M3Bits(v int) byte {
	if v == 0 {
		return 0
	}
	var sign byte
	if v < 0 {
		sign, v = 0x80, -v
	}
	e := 0
	for 1<<(e+1) <= v {
		e++
	}
	return sign | byte(e+7)<<3 | byte((v<<3>>e)&7)
}

// f32Rand is word k of f32rand:SEED: the top 24 bits of SplitMix64's output k,
// less 2^23, times 2^-23 — uniform in [-1, 1) on a grid of 2^-23, every value
// exact in float32, so a host program generates the same bytes
// (apps/h200/app.h) and no word is a NaN, an infinity or a subnormal.
func f32Rand(seed, k uint64) float32 { return f32FromRandom(splitmix(seed, k)) }

// f32FromRandom is the f32rand word of a SplitMix64 output.
func f32FromRandom(r uint64) float32 { return float32(int64(r>>40)-1<<23) / (1 << 23) }

// wordBytes is the size of a word fill's words (FillSeq, FillRandom,
// FillF32Rand, FillF16Int).
func (f Fill) wordBytes() uint64 {
	switch f.Kind {
	case FillRandom:
		return 8
	case FillF16Int:
		return 2
	}
	return 4
}

// word is word k of a word fill, in the low wordBytes bytes.
func (f Fill) word(k uint64) uint64 {
	switch f.Kind {
	case FillSeq:
		return k
	case FillRandom:
		return splitmix(f.Seed, k)
	case FillF32Rand:
		return uint64(math.Float32bits(f32Rand(f.Seed, k)))
	}
	return uint64(F16Bits(F16Int(f.Seed, k)))
}

// generateWords fills b with a word fill's little-endian words, starting at
// byte offset off (which need not be word aligned): the upper bytes of a
// word first if off is inside one, then whole words, then the lower bytes of
// the word b ends in.
func (f Fill) generateWords(off uint64, b []byte) {
	size := f.wordBytes()
	var tmp [8]byte
	i := 0
	if within := off % size; within != 0 {
		binary.LittleEndian.PutUint64(tmp[:], f.word(off/size))
		i = copy(b, tmp[within:size])
	}
	k := (off + uint64(i)) / size
	whole := (uint64(len(b)-i) / size) * size
	f.wholeWords(k, b[i:i+int(whole)])
	i, k = i+int(whole), k+whole/size
	if i < len(b) {
		binary.LittleEndian.PutUint64(tmp[:], f.word(k))
		copy(b[i:], tmp[:size])
	}
}

// wholeWords writes words k, k+1, … of a word fill into b, whose length is
// a multiple of the word size: a loop per kind, the word computed in line
// (a page of a random buffer is generated a word at a time, on first touch).
func (f Fill) wholeWords(k uint64, b []byte) {
	switch f.Kind {
	case FillSeq:
		for i := 0; i+4 <= len(b); i, k = i+4, k+1 {
			binary.LittleEndian.PutUint32(b[i:], uint32(k))
		}
	case FillRandom: // the generator's state advanced by its gamma, not recomputed a word
		for z := splitmixState(f.Seed, k); len(b) >= 8; b, z = b[8:], z+splitmixGamma {
			binary.LittleEndian.PutUint64(b, splitmixMix(z))
		}
	case FillF32Rand: // four words at a time where the host has AVX2, the rest here
		z := splitmixState(f.Seed, k)
		n := f32RandWide(b, z)
		for b, z = b[4*n:], z+uint64(n)*splitmixGamma; len(b) >= 4; b, z = b[4:], z+splitmixGamma {
			binary.LittleEndian.PutUint32(b, math.Float32bits(f32FromRandom(splitmixMix(z))))
		}
	case FillF16Int:
		for i := 0; i+2 <= len(b); i, k = i+2, k+1 {
			binary.LittleEndian.PutUint16(b[i:], F16Bits(F16Int(f.Seed, k)))
		}
	}
}

// splitmix returns output k (0-based) of the SplitMix64 generator seeded with
// seed: the state after k+1 steps of adding the golden gamma, mixed. Any
// output is computable on its own, which is what lazy pages need.
func splitmix(seed, k uint64) uint64 { return splitmixMix(splitmixState(seed, k)) }

// splitmixGamma is SplitMix64's golden gamma, what each step adds to the state.
const splitmixGamma = 0x9e3779b97f4a7c15

// splitmixState is the generator's state for output k: k+1 steps of gamma.
func splitmixState(seed, k uint64) uint64 { return seed + (k+1)*splitmixGamma }

// splitmixMix is SplitMix64's output function of a state.
func splitmixMix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
