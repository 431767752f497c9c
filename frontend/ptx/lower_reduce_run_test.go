package ptx_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand"
	"strings"
	"testing"

	"github.com/smsim/smsim/frontend/ptx"
	"github.com/smsim/smsim/memory"
	"github.com/smsim/smsim/sim"
	"github.com/smsim/smsim/sm"
	"github.com/smsim/smsim/tma"
	"github.com/smsim/smsim/warp"
)

// karg is one kernel argument of runArgs: a global buffer with the given
// contents (the parameter holds its address), or a tensor map (a 128-byte
// parameter) over the buffer of argument onBuf.
type karg struct {
	buf   []byte
	tmap  *tma.Map
	onBuf int
}

// runArgs compiles src, runs its only kernel with one block of threads and
// the arguments args (in parameter order), and returns the buffers'
// contents afterwards (nil for map arguments) and the run's error.
func runArgs(t *testing.T, src string, threads int, args ...karg) ([][]byte, error) {
	t.Helper()
	ps, err := ptx.Compile("reduce.ptx", []byte(runHeader+src))
	if err != nil {
		t.Fatalf("Compile: %v", err)
	}
	prog := ps[0]
	if len(prog.Params) != len(args) {
		t.Fatalf("kernel has %d parameters, test gives %d", len(prog.Params), len(args))
	}
	gm := memory.NewGlobal()
	for _, d := range prog.Data {
		if err := gm.MapData(d.Addr, d.Bytes, fmt.Sprintf("data at %#x", d.Addr)); err != nil {
			t.Fatal(err)
		}
	}
	addr := make([]uint64, len(args))
	for i, a := range args {
		if a.tmap != nil {
			continue
		}
		if addr[i], err = gm.Alloc(uint64(len(a.buf)), 128, fmt.Sprintf("arg%d", i)); err != nil {
			t.Fatal(err)
		}
		if err := gm.Write(addr[i], a.buf); err != nil {
			t.Fatal(err)
		}
	}
	params := make([]byte, prog.ParamBytes)
	for i, a := range args {
		p := prog.Params[i]
		if a.tmap == nil {
			binary.LittleEndian.PutUint64(params[p.Offset:], addr[i])
			continue
		}
		m := *a.tmap
		m.Base = addr[a.onBuf]
		enc, err := m.Encode()
		if err != nil {
			t.Fatalf("tensor map: %v", err)
		}
		copy(params[p.Offset:p.Offset+p.Size], enc[:])
	}
	cfg := sm.DefaultConfig()
	h, err := memory.NewHierarchy(cfg.Mem)
	if err != nil {
		t.Fatal(err)
	}
	s, err := sm.New(cfg, sim.New(), gm, h)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AttachTMA(gm, h); err != nil {
		t.Fatal(err)
	}
	_, runErr := s.Run(&sm.Launch{Prog: prog, Block: [3]int{threads, 1, 1}, Grid: [3]int{1, 1, 1},
		Params: params, MaxCycles: 20_000_000})
	out := make([][]byte, len(args))
	for i, a := range args {
		if a.tmap != nil {
			continue
		}
		out[i] = make([]byte, len(a.buf))
		if err := gm.Read(addr[i], out[i]); err != nil {
			t.Fatal(err)
		}
	}
	return out, runErr
}

// reduceKernel stages 128 bytes of src in shared memory (one word per
// thread, then fence.proxy.async and bar.sync), and thread 0 runs BODY with
// %rd1 = dst and the staged bytes at sh; then waits for its bulk groups.
const reduceKernel = `
.visible .entry k(.param .u64 k_dst, .param .u64 k_src)
{
	.reg .pred %p<4>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<16>;
	.shared .align 1024 .b8 sh[1024];
	ld.param.u64 %rd1, [k_dst];
	ld.param.u64 %rd2, [k_src];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd3, %r1, 4;
	add.s64 %rd4, %rd2, %rd3;
	ld.global.u32 %r2, [%rd4];
	shl.b32 %r3, %r1, 2;
	mov.u32 %r4, sh;
	add.u32 %r5, %r4, %r3;
	st.shared.u32 [%r5], %r2;
	fence.proxy.async.shared::cta;
	bar.sync 0;
	setp.ne.u32 %p1, %r1, 0;
	@%p1 bra DONE;
BODY
	cp.async.bulk.wait_group 0;
DONE:
	ret;
}
`

// redCase is one 1-D reduction: its spelling, element size, a generator of
// random elements, the host's result and values worth mixing in (NaNs,
// subnormals, infinities, signed zeros).
type redCase struct {
	op, typ string // PTX .redOp (with .noftz) and .type
	size    int
	gen     func(r *rand.Rand) uint64
	ref     func(old, x uint64) uint64
	special []uint64
}

func TestRunBulkReduce(t *testing.T) {
	u32 := func(r *rand.Rand) uint64 { return uint64(r.Uint32()) }
	u64 := func(r *rand.Rand) uint64 { return r.Uint64() }
	small := func(r *rand.Rand) uint64 { return uint64(r.Intn(6)) }
	s32 := func(v uint64) int64 { return int64(int32(uint32(v))) }
	cases := []redCase{
		{op: "add", typ: "u32", size: 4, gen: u32, ref: func(a, b uint64) uint64 { return uint64(uint32(a + b)) }},
		{op: "add", typ: "s32", size: 4, gen: u32, ref: func(a, b uint64) uint64 { return uint64(uint32(a + b)) }},
		{op: "min", typ: "u32", size: 4, gen: u32, ref: func(a, b uint64) uint64 { return min(a, b) }},
		{op: "max", typ: "u32", size: 4, gen: u32, ref: func(a, b uint64) uint64 { return max(a, b) }},
		{op: "min", typ: "s32", size: 4, gen: u32, ref: func(a, b uint64) uint64 {
			if s32(a) < s32(b) {
				return a
			}
			return b
		}},
		{op: "max", typ: "s32", size: 4, gen: u32, ref: func(a, b uint64) uint64 {
			if s32(a) > s32(b) {
				return a
			}
			return b
		}},
		// atom.inc/dec semantics: the result stays in [0, src].
		{op: "inc", typ: "u32", size: 4, gen: small, ref: func(a, b uint64) uint64 {
			if a >= b {
				return 0
			}
			return a + 1
		}},
		{op: "dec", typ: "u32", size: 4, gen: small, ref: func(a, b uint64) uint64 {
			if a == 0 || a > b {
				return b
			}
			return a - 1
		}},
		{op: "and", typ: "b32", size: 4, gen: u32, ref: func(a, b uint64) uint64 { return a & b }},
		{op: "or", typ: "b32", size: 4, gen: u32, ref: func(a, b uint64) uint64 { return a | b }},
		{op: "xor", typ: "b32", size: 4, gen: u32, ref: func(a, b uint64) uint64 { return a ^ b }},
		{op: "and", typ: "b64", size: 8, gen: u64, ref: func(a, b uint64) uint64 { return a & b }},
		{op: "or", typ: "b64", size: 8, gen: u64, ref: func(a, b uint64) uint64 { return a | b }},
		{op: "xor", typ: "b64", size: 8, gen: u64, ref: func(a, b uint64) uint64 { return a ^ b }},
		{op: "add", typ: "u64", size: 8, gen: u64, ref: func(a, b uint64) uint64 { return a + b }},
		{op: "min", typ: "u64", size: 8, gen: u64, ref: func(a, b uint64) uint64 { return min(a, b) }},
		{op: "max", typ: "u64", size: 8, gen: u64, ref: func(a, b uint64) uint64 { return max(a, b) }},
		{op: "min", typ: "s64", size: 8, gen: u64, ref: func(a, b uint64) uint64 { return uint64(min(int64(a), int64(b))) }},
		{op: "max", typ: "s64", size: 8, gen: u64, ref: func(a, b uint64) uint64 { return uint64(max(int64(a), int64(b))) }},
		{op: "add", typ: "f32", size: 4, gen: genF32, ref: refAddF32,
			special: []uint64{0x00000001, 0x807fffff, 0x00400000, 0x7f800000, 0xff800000, 0x7fc00001, 0xff812345, 0x3f800000, 0x80000000, 0x7f7fffff}},
		{op: "add", typ: "f64", size: 8, gen: genF64, ref: refAddF64,
			special: []uint64{1, 0x800fffffffffffff, 0x7ff0000000000000, 0xfff0000000000000, 0x7ff4000000000001, 0xfff8000000000123, 0x3ff0000000000000, 0x7fefffffffffffff}},
		{op: "add.noftz", typ: "f16", size: 2, gen: u32, ref: refHalf("add", false),
			special: []uint64{0x0001, 0x83ff, 0x0400, 0x7bff, 0x7c00, 0xfc00, 0x7e01, 0x3c00, 0x8000, 0x0000, 0x3c01, 0x1400, 0x1000}},
		{op: "add.noftz", typ: "bf16", size: 2, gen: u32, ref: refHalf("add", true),
			special: []uint64{0x0001, 0x807f, 0x0080, 0x7f7f, 0x7f80, 0xff80, 0x7fc1, 0x3f80, 0x8000, 0x3f81, 0x3381, 0x3b80}},
		{op: "min", typ: "f16", size: 2, gen: u32, ref: refHalf("min", false),
			special: []uint64{0x0000, 0x8000, 0x7e00, 0xfe01, 0x7c00, 0xfc00, 0x0001}},
		{op: "max", typ: "f16", size: 2, gen: u32, ref: refHalf("max", false),
			special: []uint64{0x0000, 0x8000, 0x7e00, 0xfe01, 0x7c00, 0xfc00, 0x0001}},
		{op: "min", typ: "bf16", size: 2, gen: u32, ref: refHalf("min", true),
			special: []uint64{0x0000, 0x8000, 0x7fc0, 0xffc1, 0x7f80, 0xff80, 0x0001}},
		{op: "max", typ: "bf16", size: 2, gen: u32, ref: refHalf("max", true),
			special: []uint64{0x0000, 0x8000, 0x7fc0, 0xffc1, 0x7f80, 0xff80, 0x0001}},
	}
	for ci, c := range cases {
		name := c.op + "." + c.typ
		t.Run(name, func(t *testing.T) {
			r := rand.New(rand.NewSource(int64(ci) + 1))
			n := 128 / c.size
			dst, src := make([]byte, 128), make([]byte, 128)
			val := func(i int) uint64 {
				if len(c.special) > 0 && i%3 != 0 {
					return c.special[r.Intn(len(c.special))]
				}
				return c.gen(r)
			}
			for i := 0; i < n; i++ {
				put(dst[i*c.size:], val(i), c.size)
				put(src[i*c.size:], val(i), c.size)
			}
			body := fmt.Sprintf("\tcp.reduce.async.bulk.global.shared::cta.bulk_group.%s.%s [%%rd1], [sh], 128;\n\tcp.async.bulk.commit_group;", c.op, c.typ)
			out, err := runArgs(t, strings.Replace(reduceKernel, "BODY", body, 1), 32, karg{buf: dst}, karg{buf: src})
			if err != nil {
				t.Fatalf("run: %v", err)
			}
			for i := 0; i < n; i++ {
				old, x := get(dst[i*c.size:], c.size), get(src[i*c.size:], c.size)
				want, got := c.ref(old, x), get(out[0][i*c.size:], c.size)
				if got != want {
					t.Errorf("element %d: %#x .%s %#x = %#x, want %#x", i, old, name, x, got, want)
				}
			}
		})
	}
}

func put(b []byte, v uint64, n int) {
	switch n {
	case 2:
		binary.LittleEndian.PutUint16(b, uint16(v))
	case 4:
		binary.LittleEndian.PutUint32(b, uint32(v))
	default:
		binary.LittleEndian.PutUint64(b, v)
	}
}

func get(b []byte, n int) uint64 {
	switch n {
	case 2:
		return uint64(binary.LittleEndian.Uint16(b))
	case 4:
		return uint64(binary.LittleEndian.Uint32(b))
	}
	return binary.LittleEndian.Uint64(b)
}

func genF32(r *rand.Rand) uint64 {
	return uint64(math.Float32bits(float32(r.NormFloat64() * math.Pow(2, float64(r.Intn(40)-20)))))
}

func genF64(r *rand.Rand) uint64 {
	return math.Float64bits(r.NormFloat64() * math.Pow(2, float64(r.Intn(200)-100)))
}

// refAddF32 is the ISA's .add.f32: subnormal inputs and results flushed to
// zeros of their sign, round to nearest even, NaN results canonical.
func refAddF32(a, b uint64) uint64 {
	flush := func(f float64) float64 {
		if f != 0 && math.Abs(f) < 0x1p-126 {
			return math.Copysign(0, f)
		}
		return f
	}
	x := flush(float64(math.Float32frombits(uint32(a))))
	y := flush(float64(math.Float32frombits(uint32(b))))
	s := float32(x + y) // the exact sum fits 53 bits' double rounding rule (≥ 2·24+2)
	if s != s {
		return 0x7fffffff
	}
	return uint64(math.Float32bits(float32(flush(float64(s)))))
}

// refAddF64 rounds to nearest even and keeps subnormals; a NaN source, else
// a NaN destination, propagates quieted; inf + -inf is 0xfff8000000000000.
func refAddF64(a, b uint64) uint64 {
	x, y := math.Float64frombits(a), math.Float64frombits(b)
	switch {
	case math.IsNaN(y):
		return b | 1<<51
	case math.IsNaN(x):
		return a | 1<<51
	}
	s := x + y
	if math.IsNaN(s) {
		return 0xfff8000000000000
	}
	return math.Float64bits(s)
}

// refHalf is .add.noftz, .min or .max on f16 (bf: bf16) elements, computed
// with big.Float at the format's precision: a sum in the subnormal range is
// exact (both operands are multiples of the smallest subnormal), so only
// the precision and the overflow threshold matter.
func refHalf(op string, bf bool) func(a, b uint64) uint64 {
	prec, maxExp := uint(11), 16 // |v| >= 2^16 overflows f16
	if bf {
		prec, maxExp = 8, 128
	}
	value := func(v uint64) float64 {
		if bf {
			return float64(warp.BF16ToF32(uint16(v)))
		}
		return float64(warp.F16ToF32(uint16(v)))
	}
	bits := func(f float64) uint64 {
		if bf {
			return uint64(math.Float32bits(float32(f)) >> 16)
		}
		return uint64(warp.F32ToF16(float32(f)))
	}
	return func(a, b uint64) uint64 {
		x, y := value(a), value(b)
		if op != "add" {
			switch {
			case math.IsNaN(x) && math.IsNaN(y):
				return 0x7fff
			case math.IsNaN(x):
				return b
			case math.IsNaN(y):
				return a
			}
			takeA := x < y || (x == y && math.Signbit(x))
			if op == "max" {
				takeA = x > y || (x == y && !math.Signbit(x))
			}
			if takeA {
				return a
			}
			return b
		}
		if math.IsNaN(x) || math.IsNaN(y) {
			return 0x7fff
		}
		if math.IsInf(x, 0) || math.IsInf(y, 0) {
			s := x + y
			if math.IsNaN(s) {
				return 0x7fff
			}
			return bits(s)
		}
		s := new(big.Float).SetPrec(300).SetFloat64(x)
		s.Add(s, new(big.Float).SetFloat64(y))
		if s.Sign() == 0 {
			// x + (-x) is +0, and -0 + -0 is -0.
			if math.Signbit(x) && math.Signbit(y) {
				return bits(math.Copysign(0, -1))
			}
			return 0
		}
		s.SetMode(big.ToNearestEven).SetPrec(prec)
		f, _ := s.Float64()
		if math.Abs(f) >= math.Ldexp(1, maxExp) {
			f = math.Copysign(math.Inf(1), f)
		}
		return bits(f)
	}
}

// TestRunTensorReducePartlyOutOfBounds reduces a 16 x 8 f32 box, staged in
// shared memory with the 64B swizzle, into a 40 x 24 tensor at (32, 20):
// columns 32..39 and rows 20..23 are inside, the rest is skipped, as a tensor
// store skips it. A second reduction (.max on u32, unswizzled) checks the
// integer path through the same map geometry.
func TestRunTensorReducePartlyOutOfBounds(t *testing.T) {
	const W, H, BW, BH = 40, 24, 16, 8
	src := `
.visible .entry k(.param .u64 k_dst, .param .u64 k_src, .param .align 64 .b8 k_map[128])
{
	.reg .pred %p<4>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<16>;
	.shared .align 1024 .b8 sh[512];
	ld.param.u64 %rd2, [k_src];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd3, %r1, 4;
	add.s64 %rd4, %rd2, %rd3;
	ld.global.u32 %r2, [%rd4];
	shl.b32 %r3, %r1, 2;
	mov.u32 %r4, sh;
	add.u32 %r5, %r4, %r3;
	st.shared.u32 [%r5], %r2;
	fence.proxy.async.shared::cta;
	bar.sync 0;
	setp.ne.u32 %p1, %r1, 0;
	@%p1 bra DONE;
	mov.b64 %rd5, k_map;
	mov.u32 %r6, 32;
	mov.u32 %r7, 20;
	cp.reduce.async.bulk.tensor.2d.global.shared::cta.OP.tile.bulk_group [%rd5, {%r6, %r7}], [sh];
	cp.async.bulk.commit_group;
	cp.async.bulk.wait_group 0;
DONE:
	ret;
}
`
	for _, tc := range []struct {
		op      string
		dtype   tma.DType
		swizzle tma.Swizzle
		ref     func(a, b uint32) uint32
	}{
		{"add", tma.F32, tma.Swizzle64B, func(a, b uint32) uint32 { return uint32(refAddF32(uint64(a), uint64(b))) }},
		{"max", tma.U32, tma.SwizzleNone, func(a, b uint32) uint32 { return max(a, b) }},
	} {
		t.Run(tc.op, func(t *testing.T) {
			r := rand.New(rand.NewSource(7))
			tensor := make([]byte, W*H*4)
			stage := make([]byte, BW*BH*4) // what the threads copy into sh: the box's bytes, swizzled
			for i := 0; i < len(tensor); i += 4 {
				binary.LittleEndian.PutUint32(tensor[i:], uint32(genF32(r)))
			}
			for i := 0; i < len(stage); i += 4 {
				binary.LittleEndian.PutUint32(stage[i:], uint32(genF32(r)))
			}
			m := tma.Map{DType: tc.dtype, Rank: 2, Dims: [5]uint64{W, H}, Strides: [4]uint64{W * 4},
				Box: [5]uint32{BW, BH}, ElemStrides: [5]uint32{1, 1}, Swizzle: tc.swizzle}
			out, err := runArgs(t, strings.Replace(src, "OP", tc.op, 1), 128,
				karg{buf: tensor}, karg{buf: stage}, karg{tmap: &m, onBuf: 0})
			if err != nil {
				t.Fatalf("run: %v", err)
			}
			for y := 0; y < H; y++ {
				for x := 0; x < W; x++ {
					off := (y*W + x) * 4
					old := binary.LittleEndian.Uint32(tensor[off:])
					want := old
					if bx, by := x-32, y-20; bx >= 0 && bx < BW && by >= 0 && by < BH {
						lin := uint32((by*BW + bx) * 4)
						if tc.swizzle == tma.Swizzle64B {
							lin ^= (lin >> 3) & 0x30 // 16-byte chunk c of 64-byte row r sits at chunk c ^ (r/2 % 4)
						}
						want = tc.ref(old, binary.LittleEndian.Uint32(stage[lin:]))
					}
					if got := binary.LittleEndian.Uint32(out[0][off:]); got != want {
						t.Errorf("tensor (%d, %d): got %#x, want %#x", x, y, got, want)
					}
				}
			}
		})
	}
}

// TestRunReduceWaitGroupRead checks the bulk-group order of reductions: once
// wait_group.read returns, the source has been read and may be rewritten
// (the second reduction adds the new words, the first the old ones), and
// rewriting it before that is the overwrite-store-source misuse.
func TestRunReduceWaitGroupRead(t *testing.T) {
	body := `	cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd1], [sh], 128;
	cp.async.bulk.commit_group;
WAIT
	mov.u32 %r8, 1000;
	st.shared.u32 [sh+4], %r8;
	fence.proxy.async.shared::cta;
	cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd1], [sh], 128;
	cp.async.bulk.commit_group;`
	dst, src := make([]byte, 128), make([]byte, 128)
	for i := 0; i < 32; i++ {
		binary.LittleEndian.PutUint32(dst[4*i:], uint32(100*i))
		binary.LittleEndian.PutUint32(src[4*i:], uint32(i+1))
	}
	good := strings.Replace(body, "WAIT", "\tcp.async.bulk.wait_group.read 0;", 1)
	out, err := runArgs(t, strings.Replace(reduceKernel, "BODY", good, 1), 32, karg{buf: dst}, karg{buf: src})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	for i := 0; i < 32; i++ {
		want := uint32(100*i + 2*(i+1))
		if i == 1 {
			want = uint32(100*i + (i + 1) + 1000)
		}
		if got := binary.LittleEndian.Uint32(out[0][4*i:]); got != want {
			t.Errorf("word %d: got %d, want %d", i, got, want)
		}
	}
	bad := strings.Replace(body, "WAIT", "", 1)
	_, err = runArgs(t, strings.Replace(reduceKernel, "BODY", bad, 1), 32, karg{buf: dst}, karg{buf: src})
	wantMisuse(t, err, "overwrite-store-source", "before cp.async.bulk.wait_group.read covers it")
	// Without the proxy fence the second reduction reads bytes the generic proxy wrote.
	nofence := strings.Replace(good, "\tfence.proxy.async.shared::cta;\n", "", 1)
	_, err = runArgs(t, strings.Replace(reduceKernel, "BODY", nofence, 1), 32, karg{buf: dst}, karg{buf: src})
	wantMisuse(t, err, "store-without-proxy-fence", "no fence.proxy.async")
}

// TestRunReduceMisuse checks that a misaligned address, a size that is not
// a multiple of 16, an operation the tensor map's type does not define and
// a negative tensor origin end the run with the copy engine's misuse
// diagnostic, as they do for a bulk store.
func TestRunReduceMisuse(t *testing.T) {
	buf := make([]byte, 256)
	for _, tc := range []struct{ body, code, want string }{
		{"\tcp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd1+4], [sh], 128;", "bulk-copy",
			"cp.reduce.async.bulk: misaligned: global address"},
		{"\tcp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd1], [sh+8], 128;", "bulk-copy",
			"cp.reduce.async.bulk: misaligned: shared offset"},
		{"\tcp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd1], [sh], 24;", "bulk-copy",
			"cp.reduce.async.bulk: bad size: size 24 is not a multiple of 16 [§4 #43]"},
	} {
		_, err := runArgs(t, strings.Replace(reduceKernel, "BODY", tc.body, 1), 32, karg{buf: buf}, karg{buf: buf})
		wantMisuse(t, err, tc.code, tc.want)
	}

	tensorSrc := `
.visible .entry k(.param .u64 k_dst, .param .align 64 .b8 k_map[128])
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	.shared .align 128 .b8 sh[512];
	mov.b64 %rd5, k_map;
	mov.u32 %r6, X;
	mov.u32 %r7, 0;
	cp.reduce.async.bulk.tensor.2d.global.shared::cta.OP.bulk_group [%rd5, {%r6, %r7}], [sh];
	cp.async.bulk.commit_group;
	cp.async.bulk.wait_group 0;
	ret;
}
`
	for _, tc := range []struct {
		op, x string
		dtype tma.DType
		want  string
	}{
		{"add", "0", tma.U16, "cp.reduce.async.bulk.tensor: bad reduction: .add is not defined on the tensor map's u16 elements"},
		{"add", "0", tma.F64, ".add is not defined on the tensor map's f64 elements"},
		{"inc", "0", tma.S32, ".inc is not defined on the tensor map's s32 elements"},
		{"add", "-8", tma.U32, "cp.reduce.async.bulk.tensor: negative origin: reduction origin coordinate 0 is -8"},
	} {
		m := tma.Map{DType: tc.dtype, Rank: 2, Dims: [5]uint64{16, 16}, Strides: [4]uint64{256},
			Box: [5]uint32{16, 2}, ElemStrides: [5]uint32{1, 1}}
		src := strings.NewReplacer("OP", tc.op, "X", tc.x).Replace(tensorSrc)
		_, err := runArgs(t, src, 32, karg{buf: make([]byte, 4096)}, karg{tmap: &m, onBuf: 0})
		wantMisuse(t, err, "bulk-copy", tc.want)
	}
}

// wantMisuse checks that err is the SM's misuse diagnostic code whose
// message contains want.
func wantMisuse(t *testing.T, err error, code, want string) {
	t.Helper()
	var d *sm.Diag
	if !errors.As(err, &d) || d.Kind != sm.DiagMisuse || d.Code != code || !strings.Contains(d.Msg, want) {
		t.Errorf("got %v, want the misuse diagnostic %s containing %q", err, code, want)
	}
}
