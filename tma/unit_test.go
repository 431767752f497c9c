package tma

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/smsim/smsim/sim"
)

func TestBulkLoadBytesLand(t *testing.T) {
	r := newRig(t, nil)
	if err := r.u.Load(5, Load{CTA: 0, Dst: 256, Src: gbase + 4096, Size: 10000 &^ 15, Mbar: 8, CopyID: 3}); err != nil {
		t.Fatal(err)
	}
	if r.u.InFlight() != 1 {
		t.Errorf("in flight: got %d, want 1", r.u.InFlight())
	}
	r.run(t)
	n := 10000 &^ 15
	if !bytes.Equal(r.smem[0][256:256+n], r.g.b[4096:4096+n]) {
		t.Error("shared memory does not hold the source bytes")
	}
	if len(r.sink.recs) != 1 || r.sink.recs[0] != (txRec{at: r.sink.recs[0].at, cta: 0, mbar: 8, bytes: uint32(n), id: 3}) {
		t.Errorf("got %+v", r.sink.recs)
	}
	if r.u.InFlight() != 0 {
		t.Errorf("in flight after landing: %d", r.u.InFlight())
	}
}

func TestBulkStoreBytesLand(t *testing.T) {
	r := newRig(t, nil)
	copy(r.smem[0][64:], "sixteen bytes!!!and sixteen more")
	if err := r.u.Store(0, Store{Thread: 9, Dst: gbase + 512, Src: 64, Size: 32}); err != nil {
		t.Fatal(err)
	}
	r.run(t)
	if got := string(r.g.b[512:544]); got != "sixteen bytes!!!and sixteen more" {
		t.Errorf("global holds %q", got)
	}
}

func TestTensorLoadSwizzledBytesLand(t *testing.T) {
	r := newRig(t, nil)
	m := f16Map2D(256, 16, 64, 8, Swizzle128B) // 128-byte rows: the 128B span
	const dst = 2048
	if err := r.u.TensorLoad(0, TensorLoad{Dst: dst, Map: m, Coords: [5]int32{64, 4}, Mbar: 0}); err != nil {
		t.Fatal(err)
	}
	r.run(t)
	for row := uint32(0); row < 8; row++ {
		for chunk := uint32(0); chunk < 8; chunk++ {
			src := (4+row)*512 + 128 + chunk*16
			at := Swizzle128B.Apply(dst + row*128 + chunk*16)
			if !bytes.Equal(r.smem[0][at:at+16], r.g.b[src:src+16]) {
				t.Fatalf("row %d chunk %d is not at swizzled offset %d", row, chunk, at)
			}
		}
	}
	if r.sink.recs[0].bytes != 1024 {
		t.Errorf("credited %d bytes, want 1024", r.sink.recs[0].bytes)
	}
}

func TestOOBFillZeroAndNaN(t *testing.T) {
	tests := []struct {
		name  string
		dtype DType
		fill  OOBFill
		want  []byte // one out-of-bounds element
	}{
		{"f16 zero", F16, OOBZero, []byte{0, 0}},
		{"f16 NaN", F16, OOBNaN, []byte{0xf7, 0x7f}},
		{"bf16 NaN", BF16, OOBNaN, []byte{0xf7, 0x7f}},
		{"f32 NaN", F32, OOBNaN, []byte{0xf7, 0x7f, 0xf7, 0x7f}},
		{"f64 NaN", F64, OOBNaN, []byte{0xf7, 0x7f, 0xf7, 0x7f, 0xf7, 0x7f, 0xf7, 0x7f}},
		{"u8 zero", U8, OOBZero, []byte{0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t, nil)
			es := tt.dtype.Size()
			m := Map{DType: tt.dtype, Rank: 2, Base: gbase, Dims: [5]uint64{64, 4}, Strides: [4]uint64{256},
				Box: [5]uint32{uint32(32 / es), 2}, ElemStrides: [5]uint32{1, 1}, OOBFill: tt.fill}
			if err := r.u.TensorLoad(0, TensorLoad{Map: m, Coords: [5]int32{-1, 3}}); err != nil {
				t.Fatal(err)
			}
			r.run(t)
			got := r.smem[0]
			if !bytes.Equal(got[0:es], tt.want) || !bytes.Equal(got[32:32+es], tt.want) {
				t.Errorf("OOB elements: got %x and %x, want %x", got[0:es], got[32:32+es], tt.want)
			}
			if off := 3*256 + 0; !bytes.Equal(got[es:2*es], r.g.b[off:off+es]) {
				t.Errorf("first in-bounds element: got %x, want %x", got[es:2*es], r.g.b[off:off+es])
			}
		})
	}
}

func TestFaultWhenMemoryRefusesTheBytes(t *testing.T) {
	r := newRig(t, nil)
	if err := r.u.Load(0, Load{Dst: 0, Src: gbase + 2<<20, Size: 64}); err != nil {
		t.Fatal(err) // the unit cannot see allocations at issue
	}
	err := r.eng.Run(sim.Never - 1)
	var e *Error
	if !errors.As(err, &e) || e.Code != Fault || !strings.Contains(err.Error(), "reading the source") {
		t.Errorf("got %v, want a fault reading the source", err)
	}
}

func TestTensorCopyRejections(t *testing.T) {
	good := f16Map2D(64, 64, 64, 64, SwizzleNone)
	bad := good
	bad.Box[0] = 300
	inter := Map{DType: F16, Rank: 3, Base: gbase, Dims: [5]uint64{64, 4, 4}, Strides: [4]uint64{128, 512},
		Box: [5]uint32{8, 4, 4}, ElemStrides: [5]uint32{1, 1, 1}, Interleave: Interleave16B}
	tests := []struct {
		name string
		req  TensorLoad
		code Code
	}{
		{"invalid map", TensorLoad{Map: bad}, BadMap},
		{"shared destination not 128-byte aligned", TensorLoad{Map: good, Dst: 64}, Misaligned},
		{"barrier misaligned", TensorLoad{Map: good, Mbar: 3}, Misaligned},
		{"box past the shared memory", TensorLoad{Map: good, Dst: 224 << 10}, RangeOverflow},
		{"interleaved layout", TensorLoad{Map: inter}, Unsupported},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := newRig(t, nil).u.TensorLoad(0, tt.req)
			var e *Error
			if !errors.As(err, &e) || e.Code != tt.code {
				t.Errorf("got %v, want code %v", err, tt.code)
			}
		})
	}
}

func TestPrefetchWarmsWithoutCompleting(t *testing.T) {
	r := newRig(t, nil)
	if err := r.u.Prefetch(0, Prefetch{Src: gbase, Size: 4096}); err != nil {
		t.Fatal(err)
	}
	m := f16Map2D(64, 64, 32, 32, SwizzleNone)
	if err := r.u.TensorPrefetch(0, TensorPrefetch{Map: m, Coords: [5]int32{48, 48}}); err != nil {
		t.Fatal(err)
	}
	if r.path.streams != 1+16 || r.eng.Pending() != 0 || r.u.Stats().Prefetches != 2 {
		t.Errorf("streams %d, events %d, stats %+v; want 17 streams (16 in-bounds rows) and no event",
			r.path.streams, r.eng.Pending(), r.u.Stats())
	}
	if err := r.u.Prefetch(0, Prefetch{Src: gbase, Size: 20}); err == nil {
		t.Error("prefetch of 20 bytes accepted")
	}
}

func TestStatsSub(t *testing.T) {
	r := newRig(t, nil)
	_ = r.u.Load(0, Load{Src: gbase, Size: 64})
	snap := r.u.Stats()
	_ = r.u.Load(0, Load{Src: gbase, Size: 128})
	r.run(t)
	d := r.u.Stats().Sub(snap)
	if d.Loads != 1 || d.BytesLoaded != 192 || d.BusyCycles == 0 {
		t.Errorf("got %+v, want one load, both loads' bytes (they land after the snapshot), busy cycles", d)
	}
}

func TestConfigValidateNamesField(t *testing.T) {
	fields := map[string]func(*Config){
		"QueueDepth":           func(c *Config) { c.QueueDepth = 0 },
		"RequestBytesPerCycle": func(c *Config) { c.RequestBytesPerCycle = 0 },
		"SmemBytesPerCycle":    func(c *Config) { c.SmemBytesPerCycle = -1 },
		"SmemBytes":            func(c *Config) { c.SmemBytes = 0 },
		"IssueInterval":        func(c *Config) { c.IssueInterval = -1 },
		"CompletionLatency":    func(c *Config) { c.CompletionLatency = -1 },
		"TensorDRAMCycles":     func(c *Config) { c.TensorDRAMCycles = -1 },
		"StoreBytesPerCycle":   func(c *Config) { c.StoreBytesPerCycle = 0 },
		"StoreBufferBytes":     func(c *Config) { c.StoreBufferBytes = -1 },
	}
	for name, mod := range fields {
		c := DefaultConfig()
		mod(&c)
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: got %v", name, err)
		}
	}
	if _, err := New(DefaultConfig(), nil, nil, nil, nil, nil); err == nil {
		t.Error("New without collaborators succeeded")
	}
}

// The H200 fills out-of-bounds f32 elements of an OOB-NaN map with 0x7ff77ff7.
func TestOOBNaNPatternIsWhatTheH200Writes(t *testing.T) {
	for _, tc := range []struct {
		size int
		want uint64
	}{{2, 0x7ff7}, {4, 0x7ff77ff7}, {8, 0x7ff77ff77ff77ff7}} {
		if got := oobNaN(tc.size); got != tc.want {
			t.Errorf("size %d: got %#x, want %#x", tc.size, got, tc.want)
		}
	}
}

// A swizzled box that does not fill whole 128-byte segments is written
// chunk by chunk; a store reads it back through the same pattern.
func TestSwizzledRoundTripThroughSharedMemory(t *testing.T) {
	tests := []struct {
		name string
		m    Map
	}{
		{"whole segments, 128B", f16Map2D(256, 16, 64, 8, Swizzle128B)},
		{"partial segment, 32B swizzle, 3 rows of 32 B", f16Map2D(256, 16, 16, 3, Swizzle32B)},
		{"partial segment, 64B swizzle, 5 rows of 64 B", f16Map2D(256, 16, 32, 5, Swizzle64B)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t, nil)
			const dst = 1024 + 128 // aligned to 128, not to the pattern's repeat
			if err := r.u.TensorLoad(0, TensorLoad{Dst: dst, Map: tt.m, Coords: [5]int32{16, 2}}); err != nil {
				t.Fatal(err)
			}
			r.run(t)
			rowBytes := uint32(tt.m.InnerBytes())
			for row := uint32(0); row < tt.m.Box[1]; row++ {
				for c := uint32(0); c < rowBytes; c += 16 {
					src := (2+row)*512 + 32 + c
					at := tt.m.Swizzle.Apply(dst + row*rowBytes + c)
					if !bytes.Equal(r.smem[0][at:at+16], r.g.b[src:src+16]) {
						t.Fatalf("row %d chunk %d not at %d", row, c/16, at)
					}
				}
			}
			out := tt.m
			out.Base = gbase + 512<<10 // store the box to a copy of the tensor
			if err := r.u.TensorStore(r.eng.Now(), TensorStore{Thread: 1, Map: out, Coords: [5]int32{16, 2}, Src: dst}); err != nil {
				t.Fatal(err)
			}
			r.run(t)
			for row := uint32(0); row < tt.m.Box[1]; row++ {
				a := (2+row)*512 + 32
				if !bytes.Equal(r.g.b[512<<10+a:512<<10+a+rowBytes], r.g.b[a:a+rowBytes]) {
					t.Fatalf("row %d did not round-trip", row)
				}
			}
		})
	}
}
