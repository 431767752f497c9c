package tma_test

import (
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/smsim/smsim/memory"
	"github.com/smsim/smsim/sharedmem"
	"github.com/smsim/smsim/sim"
	"github.com/smsim/smsim/tma"
)

// The calibration replay: microbench.cu's bulk-copy and tensor-copy kernels
// (calibration/h200) re-enacted on the unit and the memory hierarchy alone.
// The SM is not simulated; its part of each measurement — the kernel's
// arrive.expect_tx, the copy instruction's issue and the wake-up of the
// try_wait loop — is the documented estimate smOverhead, added to every
// latency. -calibration prints the table that docs/tma.md holds.

var printTable = flag.Bool("calibration", false, "print the predicted-vs-measured table of docs/tma.md")

const (
	smOverhead = 100 // cycles of mbarrier arrive/try_wait/wake around each copy (latency rows: 61 and 101)
	// The bandwidth loop is bound by its one issuing thread, not by the
	// engine: a copy holds the thread 44 cycles (steps.csv) and the loop's
	// 64-bit offset arithmetic and branch add the rest. smIssue per copy and
	// smBatch per 64 KiB batch (its arrive.expect_tx, the wait on the batch
	// before last and the outer loop) solve the 1 KiB and 4 KiB rows
	// (64·smIssue + smBatch = 4969, 16·smIssue + smBatch = 1456 cycles);
	// what those rows test here is that the engine does not bind below them.
	smIssue      = 73
	smBatch      = 285
	reps         = 64
	srcBytes     = 256 << 20
	tensorW      = 8192
	tensorH      = 16384
	tensorRowPit = tensorW * 2
)

// rig is one SM's copy engine on a real hierarchy and global memory.
type rig struct {
	eng  *sim.Engine
	g    *memory.Global
	h    *memory.Hierarchy
	u    *tma.Unit
	done map[uint64]sim.Cycle // copy ID → complete-tx cycle
}

func (r *rig) CompleteTx(now sim.Cycle, _ int, _, _ uint32, id uint64) error {
	r.done[id] = now
	return nil
}

func newRig(t testing.TB) *rig {
	t.Helper()
	r := &rig{eng: sim.New(), g: memory.NewGlobal(), done: map[uint64]sim.Cycle{}}
	var err error
	if r.h, err = memory.NewHierarchy(memory.DefaultConfig()); err != nil {
		t.Fatal(err)
	}
	if r.u, err = tma.New(tma.DefaultConfig(), r.eng, r.g, r.h, windows{sharedmem.New(228 << 10)}, r); err != nil {
		t.Fatal(err)
	}
	return r
}

// buffer allocates a buffer as the host does (cudaMalloc + cudaMemset): the
// memset leaves its tail in L2.
func (r *rig) buffer(t testing.TB, size uint64) uint64 {
	a, err := r.g.Alloc(size, 0, "src")
	if err != nil {
		t.Fatal(err)
	}
	r.h.Warm(a, size)
	return a
}

// wait runs the engine until copy id has completed and returns when.
func (r *rig) wait(t testing.TB, id uint64) sim.Cycle {
	t.Helper()
	for {
		if c, ok := r.done[id]; ok {
			return c
		}
		if r.eng.Pending() == 0 {
			t.Fatalf("copy %d never completed", id)
		}
		var limit *sim.LimitError
		if err := r.eng.Run(r.eng.NextAt()); err != nil && !errors.As(err, &limit) {
			t.Fatal(err)
		}
	}
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// bulkLatency replays k_bulk_lat: one copy at a time, each waited for.
func bulkLatency(t testing.TB, size uint32, dram bool) float64 {
	r := newRig(t)
	src := r.buffer(t, srcBytes)
	stride, first := uint64(0), 1
	if dram {
		r.h.Flush()
		stride, first = 2<<20, 0
	}
	var lat []float64
	now, off := sim.Cycle(1000), uint64(0)
	for i := 0; i < reps; i++ {
		if err := r.u.Load(now, tma.Load{Dst: 0, Src: src + off, Size: size, Mbar: 8, CopyID: uint64(i)}); err != nil {
			t.Fatal(err)
		}
		end := r.wait(t, uint64(i)) + smOverhead
		lat = append(lat, float64(end-now))
		now = end
		if off += stride; off+uint64(size) > srcBytes {
			off = 0
		}
	}
	return median(lat[first:])
}

// bulkBandwidth replays k_bulk_bw: batches of 64 KiB in chunks, two batches
// in flight, 200 batches.
func bulkBandwidth(t testing.TB, chunk uint32, dram bool) float64 {
	const batches, batchBytes = 200, 64 << 10
	r := newRig(t)
	src, span := r.buffer(t, srcBytes), uint64(srcBytes)
	if dram {
		r.h.Flush()
	} else {
		span = 2 << 20
		r.h.Warm(src, span)
	}
	k := batchBytes / chunk
	id := func(b, j int) uint64 { return uint64(b)*uint64(k) + uint64(j) }
	now, start, off := sim.Cycle(1000), sim.Cycle(1000), uint64(0)
	for b := 0; b < batches; b++ {
		if b >= 2 {
			now = max(now, r.wait(t, id(b-2, int(k)-1))+smOverhead)
		}
		now += smBatch
		for j := 0; j < int(k); j++ {
			now = r.u.AcceptAt(now)
			dst := uint32(b&1)*batchBytes + uint32(j)*chunk
			if err := r.u.Load(now, tma.Load{Dst: dst, Src: src + off, Size: chunk, Mbar: 8, CopyID: id(b, j)}); err != nil {
				t.Fatal(err)
			}
			now += smIssue
			if off += uint64(chunk); off+uint64(chunk) > span {
				off = 0
			}
		}
	}
	end := max(r.wait(t, id(batches-1, int(k)-1)), r.wait(t, id(batches-2, int(k)-1))) + smOverhead
	return float64(batches*batchBytes) / float64(end-start)
}

// tensorLatency replays k_tma2d_lat on the 8192 x 16384 fp16 tensor.
func tensorLatency(t testing.TB, w, h uint32, dram bool) float64 {
	r := newRig(t)
	base := r.buffer(t, tensorW*tensorH*2)
	m := tma.Map{DType: tma.F16, Rank: 2, Base: base, Dims: [5]uint64{tensorW, tensorH}, Strides: [4]uint64{tensorRowPit},
		Box: [5]uint32{w, h}, ElemStrides: [5]uint32{1, 1}, L2Promotion: tma.L2Promotion128B}
	tilesX := int(tensorW / w)
	stride, first := 0, 1
	if dram {
		r.h.Flush()
		stride, first = tilesX+3, 0
	}
	var lat []float64
	now, tile := sim.Cycle(1000), 0
	for i := 0; i < reps; i++ {
		x, y := int32(tile%tilesX)*int32(w), int32(tile/tilesX)*int32(h)
		if err := r.u.TensorLoad(now, tma.TensorLoad{Dst: 0, Map: m, Coords: [5]int32{x, y}, Mbar: 8, CopyID: uint64(i)}); err != nil {
			t.Fatal(err)
		}
		end := r.wait(t, uint64(i)) + smOverhead
		lat = append(lat, float64(end-now))
		now = end
		tile += stride
	}
	return median(lat[first:])
}

type row struct {
	bench, config      string
	measured, min, max float64
	predict            func(testing.TB) float64
	tolerance          float64 // allowed relative error; 0: reported only
}

func calibrationRows() []row {
	lat := func(n uint32, dram bool) func(testing.TB) float64 {
		return func(t testing.TB) float64 { return bulkLatency(t, n, dram) }
	}
	bw := func(n uint32, dram bool) func(testing.TB) float64 {
		return func(t testing.TB) float64 { return bulkBandwidth(t, n, dram) }
	}
	box := func(w, h uint32, dram bool) func(testing.TB) float64 {
		return func(t testing.TB) float64 { return tensorLatency(t, w, h, dram) }
	}
	return []row{
		{"bulk_copy_latency", "bytes16_l2hit", 347, 318, 348, lat(16, false), 0.1},
		{"bulk_copy_latency", "bytes1024_l2hit", 364, 328, 364, lat(1024, false), 0.1},
		{"bulk_copy_latency", "bytes4096_l2hit", 383, 354, 385, lat(4096, false), 0.1},
		{"bulk_copy_latency", "bytes16384_l2hit", 490, 469, 500, lat(16384, false), 0.1},
		{"bulk_copy_latency", "bytes65536_l2hit", 972, 958, 1003, lat(65536, false), 0.1},
		{"bulk_copy_latency", "bytes131072_l2hit", 1625, 1616, 1679, lat(131072, false), 0.1},
		{"bulk_copy_latency", "bytes16_dram", 732.5, 625, 754, lat(16, true), 0.15},
		// Known misfit: the measured DRAM rows are 100-260 cycles slower at
		// 1-16 KiB than a latency-plus-bandwidth model allows (docs/tma.md).
		{"bulk_copy_latency", "bytes1024_dram", 806.5, 792.5, 815, lat(1024, true), 0.15},
		{"bulk_copy_latency", "bytes4096_dram", 900, 871, 1004, lat(4096, true), 0.15},
		{"bulk_copy_latency", "bytes16384_dram", 1154.5, 1100, 1154.5, lat(16384, true), 0.15},
		{"bulk_copy_latency", "bytes65536_dram", 1541.5, 1516.5, 1626.5, lat(65536, true), 0.15},
		{"bulk_copy_latency", "bytes131072_dram", 2127, 2037.5, 2201.5, lat(131072, true), 0.20},
		{"bulk_copy_bandwidth_one_sm", "chunk1024_l2", 13.19, 13.19, 13.19, bw(1024, false), 0.1},
		{"bulk_copy_bandwidth_one_sm", "chunk4096_l2", 45.16, 45.16, 45.16, bw(4096, false), 0.1},
		{"bulk_copy_bandwidth_one_sm", "chunk16384_l2", 98.94, 95.63, 99.49, bw(16384, false), 0.1},
		{"bulk_copy_bandwidth_one_sm", "chunk1024_dram", 13.18, 13.18, 13.19, bw(1024, true), 0.1},
		{"bulk_copy_bandwidth_one_sm", "chunk4096_dram", 44.96, 44.77, 44.99, bw(4096, true), 0.1},
		{"bulk_copy_bandwidth_one_sm", "chunk16384_dram", 72.05, 69.39, 74.5, bw(16384, true), 0.15},
		{"tensor2d_copy_latency", "box32x32_fp16_l2hit", 417, 395, 418, box(32, 32, false), 0.1},
		{"tensor2d_copy_latency", "box64x64_fp16_l2hit", 437, 428, 441, box(64, 64, false), 0.1},
		{"tensor2d_copy_latency", "box64x128_fp16_l2hit", 513, 500, 516, box(64, 128, false), 0.1},
		{"tensor2d_copy_latency", "box128x128_fp16_l2hit", 670, 659, 683, box(128, 128, false), 0.1},
		{"tensor2d_copy_latency", "box32x32_fp16_dram", 1203, 1110.5, 1222, box(32, 32, true), 0.15},
		{"tensor2d_copy_latency", "box64x64_fp16_dram", 1313.5, 1284, 1326.5, box(64, 64, true), 0.15},
		{"tensor2d_copy_latency", "box64x128_fp16_dram", 1372.5, 1341.5, 1387, box(64, 128, true), 0.15},
		{"tensor2d_copy_latency", "box128x128_fp16_dram", 1474, 1459, 1504, box(128, 128, true), 0.20},
	}
}

// TestCalibrationAgainstH200 checks every bulk- and tensor-copy row of
// microbench.csv against the replay, within the row's tolerance (10 % for
// L2 rows, 15 % for DRAM rows, whose run-to-run spread reaches 18 %, and 20 %
// for the largest 1-D and 2-D copies from DRAM: a copy whose lines' homes
// alternate between the L2 partitions ends after its last far line's hop
// (memory/l2.go), which the H200 hides better behind DRAM's bandwidth in its
// largest copies than smsim, whose DRAM share is one per SM).
func TestCalibrationAgainstH200(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 26 kernels")
	}
	var table strings.Builder
	table.WriteString("| bench | config | measured (min–max) | predicted | error |\n| --- | --- | --- | --- | --- |\n")
	for _, rw := range calibrationRows() {
		got := rw.predict(t)
		rel := (got - rw.measured) / rw.measured
		fmt.Fprintf(&table, "| %s | %s | %g (%g–%g) | %.1f | %+.1f %% |\n", rw.bench, rw.config, rw.measured, rw.min, rw.max, got, 100*rel)
		if rw.tolerance > 0 && (rel > rw.tolerance || rel < -rw.tolerance) {
			t.Errorf("%s %s: predicted %.1f, measured %g (%+.1f %%, tolerance %.0f %%)",
				rw.bench, rw.config, got, rw.measured, 100*rel, 100*rw.tolerance)
		}
	}
	if *printTable {
		fmt.Print(table.String())
	}
}
