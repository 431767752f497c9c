package tma

import (
	"encoding/binary"
	"errors"
	"testing"
)

func TestReduceValidFollowsTheISATables(t *testing.T) {
	tests := []struct {
		op     RedOp
		t      DType
		tensor bool
		want   bool
	}{
		{RedAdd, U32, false, true}, {RedAdd, S32, true, true}, {RedAdd, U64, true, true},
		{RedAdd, S64, false, false}, // spelled .add.u64
		{RedAdd, F64, false, true}, {RedAdd, F64, true, false},
		{RedAdd, F32FTZ, true, true}, {RedAdd, TF32, true, false}, {RedAdd, U16, true, false}, {RedAdd, U8, false, false},
		{RedMin, S64, true, true}, {RedMax, U64, false, true}, {RedMin, F32, false, false}, {RedMax, BF16, true, true},
		{RedInc, U32, true, true}, {RedDec, S32, false, false}, {RedInc, U64, false, false},
		{RedAnd, S32, true, true}, {RedXor, U64, false, true}, {RedOr, F32, false, false}, {RedOr, F16, true, false},
	}
	for _, tt := range tests {
		if got := ReduceValid(tt.op, tt.t, tt.tensor); got != tt.want {
			t.Errorf("ReduceValid(%s, %s, tensor=%v) = %v, want %v", tt.op, tt.t, tt.tensor, got, tt.want)
		}
	}
}

func TestReduceElementSemantics(t *testing.T) {
	tests := []struct {
		name   string
		op     RedOp
		t      DType
		old, x uint64
		want   uint64
	}{
		{"u32 add wraps", RedAdd, U32, 0xffffffff, 2, 1},
		{"s32 min is signed", RedMin, S32, 0xffffffff, 1, 0xffffffff},
		{"u32 min is unsigned", RedMin, U32, 0xffffffff, 1, 1},
		{"s64 max is signed", RedMax, S64, 1 << 63, 5, 5},
		{"inc below the bound", RedInc, U32, 3, 5, 4},
		{"inc at the bound wraps to 0", RedInc, U32, 5, 5, 0},
		{"dec above the bound takes it", RedDec, U32, 9, 5, 5},
		{"dec at 0 takes the bound", RedDec, U32, 0, 5, 5},
		{"dec", RedDec, U32, 4, 5, 3},
		{"xor b64", RedXor, U64, 0xff00ff00ff00ff00, 0x0ff00ff00ff00ff0, 0xf0f0f0f0f0f0f0f0},
		{"f32 add flushes a subnormal input", RedAdd, F32, 0x3f800000, 0x00000001, 0x3f800000},
		{"f32 add flushes a subnormal result", RedAdd, F32, 0x00800001, 0x80800000, 0x00000000},
		{"f32 add of two subnormals is a signed zero", RedAdd, F32, 0x80000001, 0x80000002, 0x80000000},
		{"f32 NaN is canonical", RedAdd, F32, 0x7f800000, 0xff800000, 0x7fffffff},
		{"f64 add keeps subnormals", RedAdd, F64, 1, 1, 2},
		{"f64 inf-inf", RedAdd, F64, 0x7ff0000000000000, 0xfff0000000000000, 0xfff8000000000000},
		{"f64 NaN source wins, quieted", RedAdd, F64, 0x7ff8000000000001, 0x7ff0000000000002, 0x7ff8000000000002},
		{"f16 tie rounds to even", RedAdd, F16, 0x3c00, 0x1000, 0x3c00},
		{"f16 tie rounds up to even", RedAdd, F16, 0x3c01, 0x1000, 0x3c02},
		{"f16 subnormals are kept", RedAdd, F16, 0x0001, 0x0001, 0x0002},
		{"f16 subnormal result", RedAdd, F16, 0x0400, 0x83ff, 0x0001},
		{"f16 overflow", RedAdd, F16, 0x7bff, 0x7bff, 0x7c00},
		{"f16 largest finite holds", RedAdd, F16, 0x7bff, 0x13ff, 0x7bff},
		{"f16 -0 + +0", RedAdd, F16, 0x8000, 0x0000, 0x0000},
		{"f16 -0 + -0", RedAdd, F16, 0x8000, 0x8000, 0x8000},
		{"f16 x + -x", RedAdd, F16, 0x3c00, 0xbc00, 0x0000},
		{"f16 NaN", RedAdd, F16, 0x7e01, 0x3c00, 0x7fff},
		{"bf16 tie rounds to even", RedAdd, BF16, 0x3f80, 0x3b80, 0x3f80},
		{"bf16 tie rounds up to even", RedAdd, BF16, 0x3f81, 0x3b80, 0x3f82},
		{"bf16 subnormals are kept", RedAdd, BF16, 0x0001, 0x0002, 0x0003},
		{"bf16 large plus tiny", RedAdd, BF16, 0x7f00, 0x0001, 0x7f00},
		{"f16 min -0 < +0", RedMin, F16, 0x0000, 0x8000, 0x8000},
		{"f16 max -0 < +0", RedMax, F16, 0x8000, 0x0000, 0x0000},
		{"f16 min skips a NaN", RedMin, F16, 0x7e00, 0xc000, 0xc000},
		{"bf16 max skips a NaN", RedMax, BF16, 0x3f80, 0xffc1, 0x3f80},
		{"bf16 max of NaNs", RedMax, BF16, 0x7fc1, 0xffc1, 0x7fff},
	}
	for _, tt := range tests {
		n := tt.t.Size()
		dst, src := make([]byte, 8), make([]byte, 8)
		binary.LittleEndian.PutUint64(dst, tt.old)
		binary.LittleEndian.PutUint64(src, tt.x)
		reduceElems(tt.op, tt.t, dst[:n], src[:n])
		if got := binary.LittleEndian.Uint64(dst) & (^uint64(0) >> (64 - 8*n)); got != tt.want {
			t.Errorf("%s: %#x .%s.%s %#x = %#x, want %#x", tt.name, tt.old, tt.op, tt.t, tt.x, got, tt.want)
		}
	}
}

func TestBulkReduceJoinsTheGroupLikeAStore(t *testing.T) {
	store, red := newRig(t, nil), newRig(t, nil)
	for i := 0; i < 64; i += 4 {
		binary.LittleEndian.PutUint32(red.smem[0][128+i:], uint32(i))
	}
	if err := store.u.Store(10, Store{Thread: 3, Dst: gbase + 256, Src: 128, Size: 64}); err != nil {
		t.Fatal(err)
	}
	want := make([]byte, 64)
	copy(want, red.g.b[256:320])
	if err := red.u.Reduce(10, Reduce{Thread: 3, Dst: gbase + 256, Src: 128, Size: 64, Op: RedAdd, Type: U32}); err != nil {
		t.Fatal(err)
	}
	for _, r := range []*rig{store, red} {
		r.u.Commit(3)
	}
	// The fake path times a reduction's writes as a store's: same cycles.
	for _, read := range []bool{true, false} {
		if s, r := store.u.WaitGroup(10, 3, 0, read), red.u.WaitGroup(10, 3, 0, read); s != r || r <= 10 {
			t.Errorf("wait_group (read=%v): reduction at %d, store at %d", read, r, s)
		}
	}
	red.run(t)
	for i := 0; i < 64; i += 4 {
		w := binary.LittleEndian.Uint32(want[i:]) + uint32(i)
		if got := binary.LittleEndian.Uint32(red.g.b[256+i:]); got != w {
			t.Errorf("word %d: got %#x, want %#x", i/4, got, w)
		}
	}
	if st := red.u.Stats(); st.Stores != 1 || st.Reductions != 1 || st.BytesStored != 64 || red.path.reduces != 1 {
		t.Errorf("stats %+v, path reductions %d: want one reduction of 64 bytes through StreamReduce", st, red.path.reduces)
	}
}

func TestTensorReduceSkipsOutOfBoundsElements(t *testing.T) {
	r := newRig(t, nil)
	m := f16Map2D(64, 64, 16, 16, SwizzleNone)
	for i := 0; i < 512; i += 2 {
		binary.LittleEndian.PutUint16(r.smem[0][i:], 0x3c00) // 1.0
	}
	before := append([]byte(nil), r.g.b[:64*64*2+256]...)
	if err := r.u.TensorReduce(0, TensorReduce{Thread: 1, Map: m, Coords: [5]int32{56, 60}, Src: 0, Op: RedMax}); err != nil {
		t.Fatal(err)
	}
	r.run(t)
	for y := 0; y < 64; y++ {
		for x := 0; x < 64; x++ {
			off := 2 * (y*64 + x)
			old := binary.LittleEndian.Uint16(before[off:])
			want := old
			if x >= 56 && y >= 60 {
				want = reduceHalf(RedMax, false, old, 0x3c00)
			}
			if got := binary.LittleEndian.Uint16(r.g.b[off:]); got != want {
				t.Fatalf("(%d, %d): got %#x, want %#x", x, y, got, want)
			}
		}
	}
	if string(r.g.b[64*64*2:64*64*2+256]) != string(before[64*64*2:]) {
		t.Error("bytes past the tensor changed")
	}
	if st := r.u.Stats(); st.BytesStored != 8*4*2 || st.TensorStores != 1 || st.Reductions != 1 {
		t.Errorf("stats %+v: want 64 bytes (8 x 4 in bounds) reduced by one tensor reduction", st)
	}
}

func TestReduceRejections(t *testing.T) {
	tests := []struct {
		name  string
		issue func(u *Unit) error
		code  Code
	}{
		{"size not a multiple of 16", func(u *Unit) error {
			return u.Reduce(0, Reduce{Dst: gbase, Src: 0, Size: 24, Op: RedAdd, Type: U32})
		}, BadSize},
		{"misaligned destination", func(u *Unit) error {
			return u.Reduce(0, Reduce{Dst: gbase + 4, Src: 0, Size: 16, Op: RedAdd, Type: U32})
		}, Misaligned},
		{"inc on s32", func(u *Unit) error {
			return u.Reduce(0, Reduce{Dst: gbase, Src: 0, Size: 16, Op: RedInc, Type: S32})
		}, BadReduce},
		{"tensor add on f64", func(u *Unit) error {
			m := f16Map2D(64, 64, 16, 16, SwizzleNone)
			m.DType, m.Strides[0] = F64, 64*8
			return u.TensorReduce(0, TensorReduce{Map: m, Op: RedAdd})
		}, BadReduce},
		{"tensor negative origin", func(u *Unit) error {
			return u.TensorReduce(0, TensorReduce{Map: f16Map2D(64, 64, 16, 16, SwizzleNone), Coords: [5]int32{0, -1}, Op: RedAdd})
		}, NegativeOrigin},
	}
	for _, tt := range tests {
		r := newRig(t, nil)
		err := tt.issue(r.u)
		var e *Error
		if !errors.As(err, &e) || e.Code != tt.code {
			t.Errorf("%s: got %v, want code %v", tt.name, err, tt.code)
		}
		if r.eng.Pending() != 0 || r.u.Stats() != (Stats{}) {
			t.Errorf("%s: a rejected reduction was scheduled or counted", tt.name)
		}
	}
}
