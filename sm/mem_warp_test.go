package sm

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/memory"
	"github.com/smsim/smsim/sim"
	"github.com/smsim/smsim/warp"
)

// warpCase is one random warp access: its space, operation, element type and
// vector width, each lane's address and whether the lane takes part.
type warpCase struct {
	sp    isa.Space // Global, Shared or Generic (over shared or global)
	store bool
	typ   isa.Type
	vec   uint8
	addr  [32]uint64 // shared offsets, or global addresses, before the generic window
	on    [32]bool
	gen   bool // a generic access over shared memory (else over global)
	bar   bool // a live mbarrier at shared offset 0x200 (shared accesses)
}

// shared reports whether c's lanes address shared memory.
func (c *warpCase) shared() bool { return c.sp == isa.Shared || (c.sp == isa.Generic && c.gen) }

// The buffers of the warp-path programs: the lanes' addresses, masks, data
// and results in global memory, and the target buffer (the window for
// shared accesses).
const (
	wpTableBytes  = 32 * 8
	wpDataBytes   = 32 * 32
	wpTargetBytes = 3*4096 + 256 // three pages and a bit: spans straddle pages
	wpShared      = 2048
)

// wpLayout is where the buffers were allocated.
type wpLayout struct{ addrs, masks, data, out, target uint64 }

// The warp-wide path of ld and st leaves what the per-lane path leaves: the
// registers (stored out afterwards), global and shared memory, the run's
// cycles and statistics, and the first refused lane's diagnostic, for random
// spaces, widths, vector lengths, masks and address patterns — coalesced,
// broadcast, permuted, strided, straddling pages, misaligned, out of bounds,
// over a live barrier. Each program stores (to shared first for a shared
// load) and loads, then writes its registers out.
func TestWarpAccessesMatchTheLanePath(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 60))
	types := []isa.Type{isa.U8, isa.S8, isa.U16, isa.S16, isa.U32, isa.S32, isa.F32, isa.U64, isa.S64, isa.B64}
	for i := 0; i < 400; i++ {
		c := randomWarpCase(rng, types)
		name := fmt.Sprintf("%d_%v_%v_st%v_v%d", i, c.sp, c.typ, c.store, c.vec)
		t.Run(name, func(t *testing.T) {
			fast := runWarpCase(t, c, warpCaseProg, false)
			slow := runWarpCase(t, c, warpCaseProg, true)
			if fast != slow {
				t.Errorf("warp-wide path:\n%s\nper-lane path:\n%s", fast, slow)
			}
		})
	}
}

func randomWarpCase(rng *rand.Rand, types []isa.Type) warpCase {
	c := warpCase{typ: types[rng.IntN(len(types))], store: rng.IntN(2) == 0, gen: rng.IntN(2) == 0}
	c.sp = []isa.Space{isa.Global, isa.Shared, isa.Generic}[rng.IntN(3)]
	c.bar = c.shared() && rng.IntN(6) == 0
	for c.vec = 4; c.typ.Bytes()*int(c.vec) > maxAccessBytes || rng.IntN(3) == 0; c.vec /= 2 {
		if c.vec == 1 {
			break
		}
	}
	size := uint64(c.typ.Bytes() * int(c.vec))
	limit := uint64(wpTargetBytes)
	if c.shared() {
		limit = wpShared
	}
	base := uint64(rng.IntN(int(limit/size))) * size
	pattern := rng.IntN(6)
	perm := rng.Perm(32)
	for l := range c.addr {
		var a uint64
		switch pattern {
		case 0: // coalesced
			a = base + uint64(l)*size
		case 1: // broadcast
			a = base
		case 2: // permuted
			a = base + uint64(perm[l])*size
		case 3: // strided
			a = base + uint64(l)*size*uint64(1+rng.IntN(5))
		case 4: // anywhere
			a = uint64(rng.IntN(int(limit/size))) * size
		default: // coalesced from just below a page boundary
			a = 4096 - 64 + uint64(l)*size
		}
		c.addr[l] = a
		c.on[l] = true
	}
	if rng.IntN(2) == 0 { // a partial mask
		for l := range c.on {
			c.on[l] = rng.IntN(4) != 0
		}
	}
	switch rng.IntN(8) {
	case 0: // one lane misaligned
		c.addr[rng.IntN(32)] += 1 + uint64(rng.IntN(int(size)))
	case 1: // one lane out of bounds
		c.addr[rng.IntN(32)] = limit - size/2
	}
	if rng.IntN(6) == 0 {
		c.on = [32]bool{}
	}
	return c
}

// runWarpCase runs c's program, the warp-wide path on or off, and describes
// what it left: the error, the result and every buffer's bytes.
func runWarpCase(t *testing.T, c warpCase, prog func(warpCase, wpLayout) *isa.Program, laneByLane bool) string {
	t.Helper()
	gm := memory.NewGlobal()
	var lay wpLayout
	for _, b := range []struct {
		at   *uint64
		size uint64
	}{{&lay.addrs, wpTableBytes}, {&lay.masks, 32 * 4}, {&lay.data, wpDataBytes}, {&lay.out, wpDataBytes}, {&lay.target, wpTargetBytes}} {
		a, err := gm.Alloc(b.size, 256, "buf")
		if err != nil {
			t.Fatal(err)
		}
		*b.at = a
	}
	if err := gm.SetFill(lay.target, memory.Fill{Kind: memory.FillRandom, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	var addrs [wpTableBytes]byte
	var masks [32 * 4]byte
	var data [wpDataBytes]byte
	for l := 0; l < 32; l++ {
		a := c.addr[l]
		switch {
		case c.sp == isa.Generic && c.gen:
			a += isa.SharedWindow
		case !c.shared():
			a += lay.target
		}
		binary.LittleEndian.PutUint64(addrs[8*l:], a)
		if c.on[l] {
			masks[4*l] = 1
		}
		for i := 0; i < 32; i++ {
			data[32*l+i] = byte(l*37 + i*11 + 5)
		}
	}
	for _, w := range []struct {
		at uint64
		b  []byte
	}{{lay.addrs, addrs[:]}, {lay.masks, masks[:]}, {lay.data, data[:]}} {
		if err := gm.Write(w.at, w.b); err != nil {
			t.Fatal(err)
		}
	}
	h, err := memory.NewHierarchy(DefaultConfig().Mem)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(DefaultConfig(), sim.New(), gm, h)
	if err != nil {
		t.Fatal(err)
	}
	s.laneByLane = laneByLane
	res, err := s.Run(&Launch{Prog: prog(c, lay), Block: [3]int{32, 1, 1}, Grid: [3]int{1, 1, 1}, MaxCycles: 1_000_000})
	out := fmt.Sprintf("err %v\n", err)
	if res != nil {
		out += fmt.Sprintf("%+v\n", *res)
	}
	for _, at := range []uint64{lay.out, lay.target} {
		b := make([]byte, wpDataBytes)
		if at == lay.target {
			b = make([]byte, wpTargetBytes)
		}
		if err := gm.Read(at, b); err != nil {
			t.Fatal(err)
		}
		out += fmt.Sprintf("%x\n", b)
	}
	return out
}

// warpCaseProg: r0 lane, r1 lane*8 → r3 the lane's address, r4 lane*4 → r5
// its mask word, p0 = r5 != 0; r8..r11 its data (lane*32 + 8i). A shared
// case first copies the target buffer's first bytes to the window (so that
// loads find data), then, for a load, the access is @p0 ld into r8..; r8..r11
// are stored to out at lane*32.
func warpCaseProg(c warpCase, lay wpLayout) *isa.Program {
	a := newAsm(16, 2)
	emitLaneOperands(a, lay)
	a.emit(alu(isa.OpShl, isa.B32, isa.R(6), isa.R(0), isa.Imm(5)))
	for i := 0; i < 4; i++ {
		a.emit(ldst(isa.OpLd, isa.Global, isa.U64, 1, isa.Addr(6, int64(lay.data)+int64(8*i)), isa.R(8+i)))
	}
	shared := c.shared()
	if shared {
		// each lane copies 64 bytes of the target buffer to the window
		a.emit(alu(isa.OpShl, isa.B32, isa.R(7), isa.R(0), isa.Imm(6)))
		for i := 0; i < 8; i++ {
			a.emit(ldst(isa.OpLd, isa.Global, isa.U64, 1, isa.Addr(7, int64(lay.target)+int64(8*i)), isa.R(12)))
			a.emit(ldst(isa.OpSt, isa.Shared, isa.U64, 1, isa.Addr(7, int64(8*i)), isa.R(12)))
		}
	}
	if c.bar {
		a.emit(setp(isa.CmpEq, isa.U32, 1, isa.R(0), isa.Imm(0)))
		in := mbar(isa.OpMbarInit, 0, 0, isa.Addr(-1, 0x200), isa.Imm(1))
		in.Guard = isa.P(1)
		a.emit(in)
	}
	regs := make([]isa.Operand, c.vec)
	for i := range regs {
		regs[i] = isa.R(8 + i)
	}
	op := isa.OpLd
	if c.store {
		op = isa.OpSt
	}
	in := ldst(op, c.sp, c.typ, c.vec, isa.Addr(3, 0), regs...)
	in.Guard = isa.P(0)
	a.emit(in)
	for i := 0; i < 4; i++ {
		a.emit(ldst(isa.OpSt, isa.Global, isa.U64, 1, isa.Addr(6, int64(lay.out)+int64(8*i)), isa.R(8+i)))
	}
	if shared { // the window back to the target buffer
		for i := 0; i < 8; i++ {
			a.emit(ldst(isa.OpLd, isa.Shared, isa.U64, 1, isa.Addr(7, int64(8*i)), isa.R(12)))
			a.emit(ldst(isa.OpSt, isa.Global, isa.U64, 1, isa.Addr(7, int64(lay.target)+int64(8*i)), isa.R(12)))
		}
	}
	a.emit(exit)
	p := a.done()
	p.SharedStatic = wpShared
	return p
}

// A cp.async landing whose lanes read one span of global memory copies what
// each lane's own read copies, and a landing with a lane out of bounds
// reports that lane as before: random widths (4, 8, 16), masks and
// address patterns, each lane landing at shared lane*16.
func TestCpAsyncLandingsMatchTheLanePath(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 60))
	for i := 0; i < 150; i++ {
		c := randomWarpCase(rng, []isa.Type{isa.U32, isa.U64})
		c.sp, c.gen, c.bar, c.vec = isa.Global, false, false, []uint8{1, 1, 4}[rng.IntN(3)]
		if c.typ == isa.U64 {
			c.vec = 1
		}
		t.Run(fmt.Sprintf("%d_%d_bytes", i, c.typ.Bytes()*int(c.vec)), func(t *testing.T) {
			fast := runWarpCase(t, c, cpAsyncCaseProg, false)
			slow := runWarpCase(t, c, cpAsyncCaseProg, true)
			if fast != slow {
				t.Errorf("one span:\n%s\na lane at a time:\n%s", fast, slow)
			}
		})
	}
}

// emitLaneOperands loads each lane's address (r3) and mask word (r5) from
// the case's tables and sets p0 for the lanes whose mask word is not zero
// (r0 is the lane id).
func emitLaneOperands(a *asm, lay wpLayout) {
	a.emit(alu(isa.OpMov, isa.U32, isa.R(0), isa.Spec(isa.SLaneID)))
	a.emit(alu(isa.OpShl, isa.B32, isa.R(1), isa.R(0), isa.Imm(3)))
	a.emit(ldst(isa.OpLd, isa.Global, isa.U64, 1, isa.Addr(1, int64(lay.addrs)), isa.R(3)))
	a.emit(alu(isa.OpShl, isa.B32, isa.R(4), isa.R(0), isa.Imm(2)))
	a.emit(ldst(isa.OpLd, isa.Global, isa.U32, 1, isa.Addr(4, int64(lay.masks)), isa.R(5)))
	a.emit(setp(isa.CmpNe, isa.U32, 0, isa.R(5), isa.Imm(0)))
}

// cpAsyncCaseProg: each lane of p0 copies its bytes from its address (r3)
// to shared lane*16, waits, and the window's first 512 bytes go to out.
func cpAsyncCaseProg(c warpCase, lay wpLayout) *isa.Program {
	a := newAsm(16, 2)
	emitLaneOperands(a, lay)
	a.emit(alu(isa.OpShl, isa.B32, isa.R(6), isa.R(0), isa.Imm(4)))
	cp := isa.Instr{Op: isa.OpCpAsync, Space: isa.Shared, Space2: isa.Global, Guard: isa.P(0),
		Ops: []isa.Operand{isa.Addr(6, 0), isa.Addr(3, 0), isa.Imm(uint64(c.typ.Bytes() * int(c.vec)))}}
	a.emit(cp)
	a.emit(isa.Instr{Op: isa.OpCpAsyncCommit})
	a.emit(isa.Instr{Op: isa.OpCpAsyncWait})
	for i := 0; i < 2; i++ {
		a.emit(ldst(isa.OpLd, isa.Shared, isa.U64, 1, isa.Addr(6, int64(8*i)), isa.R(12)))
		a.emit(ldst(isa.OpSt, isa.Global, isa.U64, 1, isa.Addr(6, int64(lay.out)+int64(8*i)), isa.R(12)))
	}
	a.emit(exit)
	p := a.done()
	p.SharedStatic = wpShared
	return p
}

// ldst is ld (registers first, then the address) or st (the address, then
// the registers) of vec elements of type typ in space sp.
func ldst(op isa.Op, sp isa.Space, typ isa.Type, vec uint8, addr isa.Operand, regs ...isa.Operand) isa.Instr {
	in := isa.Instr{Op: op, Space: sp, Type: typ, Vec: vec}
	if op == isa.OpLd {
		in.NDst = uint8(len(regs))
		in.Ops = append(append(in.Ops, regs...), addr)
		return in
	}
	in.Ops = append([]isa.Operand{addr}, regs...)
	return in
}

// TestNoteRangeIsNoteLineOfEachLane holds the lines and store bytes that
// noteRange notes for a run of aligned lanes to those noteLine notes lane
// by lane, for loads and stores of every access size, at offsets around
// line boundaries and for 1 to 32 lanes.
func TestNoteRangeIsNoteLineOfEachLane(t *testing.T) {
	s, err := New(DefaultConfig(), sim.New(), &fakeMem{b: map[uint64]byte{}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 11))
	for _, op := range []isa.Op{isa.OpLd, isa.OpSt} {
		in := &isa.Instr{Op: op}
		for size := uint64(1); size <= 32; size *= 2 {
			for i := 0; i < 500; i++ {
				lo := (uint64(rng.IntN(1<<16)) + 4096) / size * size
				lanes := 1 + rng.IntN(32)
				var want [warp.Lanes]uint64
				n := 0
				for l := 0; l < lanes; l++ {
					n = s.noteLine(in, &want, n, lo+uint64(l)*size, int(size))
				}
				wantBytes := s.storeBytes
				var got [warp.Lanes]uint64
				m := s.noteRange(in, &got, lo, lo+uint64(lanes)*size)
				if m != n || got != want || (op == isa.OpSt && s.storeBytes != wantBytes) {
					t.Fatalf("%v of %d lanes of %d bytes from %#x: %d lines %v, want %d %v (store bytes equal: %v)",
						op, lanes, size, lo, m, got[:m], n, want[:n], s.storeBytes == wantBytes)
				}
			}
		}
	}
}

// TestNoteLineKeepsFirstTouchOrder holds noteLine's lines to their
// definition — each line once, in the order the lanes first touch it — for
// rising, strided, falling, repeating and random lanes.
func TestNoteLineKeepsFirstTouchOrder(t *testing.T) {
	s, err := New(DefaultConfig(), sim.New(), &fakeMem{b: map[uint64]byte{}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 5))
	in := &isa.Instr{Op: isa.OpLd}
	for i := 0; i < 5000; i++ {
		var offs [warp.Lanes]uint64
		base, stride := uint64(rng.IntN(1<<20)), uint64(rng.IntN(300))
		for l := range offs {
			switch i % 4 {
			case 0:
				offs[l] = base + uint64(l)*stride
			case 1:
				offs[l] = base + uint64(31-l)*stride
			case 2:
				offs[l] = base + uint64(l/4)*stride + uint64(rng.IntN(3))*128
			default:
				offs[l] = uint64(rng.IntN(2048))
			}
		}
		var got [warp.Lanes]uint64
		n := 0
		var want []uint64
		for _, off := range offs {
			n = s.noteLine(in, &got, n, off, 4)
			line := off / 128
			if !slices.Contains(want, line) {
				want = append(want, line)
			}
		}
		if !slices.Equal(got[:n], want) {
			t.Fatalf("lanes at %v: lines %v, want %v", offs, got[:n], want)
		}
	}
}

// resolveGlobal finds what resolveLanes finds for a full warp's .global
// addresses: coalesced runs of every access size, runs with a gap before one lane,
// strided, permuted and random lanes, and runs that wrap around 2^64.
func TestResolveGlobalIsResolveLanes(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for i := 0; i < 20000; i++ {
		size := uint64(1) << rng.IntN(6)
		base := rng.Uint64()
		if i%3 == 0 {
			base = -uint64(rng.IntN(64)) * size // wrapping
		}
		var av warp.Vec
		for l := range av {
			switch i % 5 {
			case 0, 1:
				av[l] = base + uint64(l)*size
			case 2:
				av[l] = base + uint64(l)*size*uint64(1+i%3)
			case 3:
				av[l] = base + uint64(31-l)*size
			default:
				av[l] = rng.Uint64() >> rng.IntN(64)
			}
		}
		if i%5 == 1 { // a gap before lane k alone
			for l, k := 0, 1+rng.IntN(31); l < 32; l++ {
				if l >= k {
					av[l] += size
				}
			}
		}
		var got, want warpLanes
		got.resolveGlobal(&av, size)
		if !want.resolveLanes(isa.Global, &av, warp.FullMask, size) {
			t.Fatalf("case %d: resolveLanes refused one space", i)
		}
		if got != want {
			t.Fatalf("case %d (size %d): %+v, want %+v", i, size, got, want)
		}
	}
}

// Coalesced accesses of a full warp — the form resolveGlobal, noteRange and
// loadRun take — leave what the per-lane path leaves: every element type
// and vector, loads and stores, .global and generic, from a line boundary
// and from within a line.
func TestCoalescedWarpAccessesMatchTheLanePath(t *testing.T) {
	types := []isa.Type{isa.U8, isa.S16, isa.U32, isa.S32, isa.F32, isa.U64, isa.B64}
	for _, typ := range types {
		for _, vec := range []uint8{1, 2, 4} {
			if typ.Bytes()*int(vec) > maxAccessBytes {
				continue
			}
			for _, sp := range []isa.Space{isa.Global, isa.Generic} {
				for _, store := range []bool{false, true} {
					for _, start := range []uint64{0, 128 * 3, 16 * 5} {
						c := warpCase{sp: sp, store: store, typ: typ, vec: vec}
						size := uint64(typ.Bytes() * int(vec))
						for l := range c.addr {
							c.addr[l], c.on[l] = start/size*size+uint64(l)*size, true
						}
						fast := runWarpCase(t, c, warpCaseProg, false)
						if slow := runWarpCase(t, c, warpCaseProg, true); fast != slow {
							t.Errorf("%v %v.v%d store %v from %#x:\nwarp-wide path:\n%s\nper-lane path:\n%s", sp, typ, vec, store, start, fast, slow)
						}
					}
				}
			}
		}
	}
}
