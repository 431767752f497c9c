package sm

import (
	"bufio"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/smsim/smsim/frontend/sass"
	"github.com/smsim/smsim/isa"
)

// Real loops of the committed SASS (calibration/h200), timed by their
// control bits. Each loop's instructions are read from the listing with
// frontend/sass; the test gives each the isa instruction that does its work
// (the loop control, the barrier operations) or a fixed-latency stand-in
// (an instruction whose result the loop's time does not depend on) and the
// listing's control bits. A trip must take the sum of its stall counts, a
// taken branch no less than branch.taken, plus what the SM's models give
// the variable latencies the loop waits on; calibration/h200/README.md reads
// the same loops, and the measured figures are printed beside.

// sassLoop is a stretch of a listing: each instruction as cuobjdump prints
// it (checked) and what it does.
type sassLoop struct {
	file, fn string
	instrs   []sassStep
}

type sassStep struct {
	addr   uint32
	text   string    // the instruction as the listing prints it
	in     isa.Instr // what it does; Ctrl comes from the listing
	target uint32    // a branch's target address
}

// ctrlOf converts frontend/sass's control bits to isa's.
func ctrlOf(c sass.Control) isa.Ctrl {
	sb := func(v int8) uint8 {
		if v == sass.NoScoreboard {
			return isa.NoSB
		}
		return uint8(v)
	}
	return isa.Ctrl{Stall: c.Stall, Yield: c.Yield, WriteSB: sb(c.WriteSB), ReadSB: sb(c.ReadSB), Wait: c.Wait, Reuse: c.Reuse}
}

// build parses the listing and returns the program: prologue (plain control
// bits), then the loop's instructions with the listing's control bits, then
// exit; and the program index of each listed address.
func (l sassLoop) build(t *testing.T, prologue []isa.Instr) (*isa.Program, map[uint32]int) {
	t.Helper()
	src, err := os.ReadFile("../calibration/h200/" + l.file)
	if err != nil {
		t.Fatal(err)
	}
	f, err := sass.Parse(l.file, src)
	if err != nil {
		t.Fatal(err)
	}
	fn := f.Function(l.fn)
	if fn == nil {
		t.Fatalf("%s: no function %s", l.file, l.fn)
	}
	a := newAsm(32, 8)
	for _, in := range prologue {
		a.emit(in)
	}
	at := map[uint32]int{}
	for _, st := range l.instrs {
		i, ok := fn.Index(st.addr)
		if !ok {
			t.Fatalf("%s: no instruction at %#x", l.fn, st.addr)
		}
		si := &fn.Instructions[i]
		if got := si.String(); got != st.text {
			t.Fatalf("%s %#x: the listing has %q, want %q", l.fn, st.addr, got, st.text)
		}
		at[st.addr] = len(a.p.Instrs)
		in := st.in
		in.Ctrl = ctrlOf(si.Ctrl)
		a.emit(in)
	}
	a.emit(exitC)
	for _, st := range l.instrs {
		if st.in.Op == isa.OpBra {
			a.p.Instrs[at[st.addr]].Target = int32(at[st.target])
		}
	}
	isa.Reconverge(a.p, nil)
	return a.p, at
}

// stallSum sums the listing's stall counts of the instructions at addrs, a
// taken branch at taken counting max(its stall, branch.taken).
func stallSum(p *isa.Program, at map[uint32]int, addrs []uint32, taken uint32, cfg Config) uint64 {
	var n uint64
	for _, x := range addrs {
		s := uint64(max(p.Instrs[at[x]].Ctrl.Stall, 1))
		if x == taken {
			s = max(s, uint64(cfg.Branch.Taken))
		}
		n += s
	}
	return n
}

// measured reads a row's median from a calibration CSV (bench,config,metric,median,...).
func measured(t *testing.T, file, config string) float64 {
	t.Helper()
	f, err := os.Open("../calibration/h200/" + file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		c := strings.Split(sc.Text(), ",")
		if len(c) > 3 && c[1] == config {
			v, err := strconv.ParseFloat(c[3], 64)
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
	}
	t.Fatalf("%s: no row %s", file, config)
	return 0
}

// fill is a fixed-latency stand-in: r = 0.
func fill(r int) isa.Instr { return alu(isa.OpMov, isa.U32, isa.R(r), isa.Imm(0)) }

// bulkbw.cu's nowrap kernel (k_bw<3>), ptxas's four-way unrolled copy loop:
// four UBLKCP, each in its ELECT loop, the next addresses' uniform adds, the
// loop counter and the back edge. README: "the stall counts alone give the
// measured time". The uniform and predicate arithmetic, ELECT and the copies
// are stand-ins (a converged warp's ELECT loop runs once; its BRA.U.ANY falls
// through, and waits on the copy's read scoreboard, rb0); the counter
// (UR15 -= 4), its compare and the back edge are executed.
func TestBulkCopyLoopTakesItsStallCounts(t *testing.T) {
	cfg := DefaultConfig()
	no := isa.P(6) // never set: the ELECT loops' BRA.U.ANY fall through
	step := func(addr uint32, text string) sassStep { return sassStep{addr: addr, text: text, in: fill(20)} }
	elect := func(addr uint32, text string, target uint32) sassStep {
		return sassStep{addr: addr, text: text, in: isa.Instr{Op: isa.OpBra, Guard: no}, target: target}
	}
	l := sassLoop{file: "bulkbw.sass", fn: "_Z4k_bwILi3EEvPKhmjiiPx", instrs: []sassStep{
		step(0x4a0, "PLOP3.LUT P0, PT, PT, PT, PT, 0x80, 0x0"),
		step(0x4b0, "UMOV UR8, UR19"),
		step(0x4c0, "UMOV UR9, UR23"),
		step(0x4d0, "@P0 ELECT P2, URZ, PT"),
		step(0x4e0, "UBLKCP.S.G [UR10], [UR8], UR22"),
		step(0x4f0, "@P2 PLOP3.LUT P0, PT, P2, PT, PT, 0x8, 0x0"),
		step(0x500, "PLOP3.LUT P2, PT, PT, PT, PT, 0x8, 0x0"),
		elect(0x510, "@P0 BRA.U.ANY 0x4d0", 0x4d0),
		step(0x520, "UIADD3 UR8, UP0, UR19, UR28, URZ"),
		step(0x530, "PLOP3.LUT P0, PT, PT, PT, PT, 0x80, 0x0"),
		step(0x540, "UIADD3.X UR9, URZ, UR23, URZ, UP0, !UPT"),
		step(0x550, "@P0 ELECT P2, URZ, PT"),
		step(0x560, "UMOV UR17, UR11"),
		step(0x570, "UBLKCP.S.G [UR16], [UR8], UR22"),
		step(0x580, "@P2 PLOP3.LUT P0, PT, P2, PT, PT, 0x8, 0x0"),
		step(0x590, "PLOP3.LUT P2, PT, PT, PT, PT, 0x8, 0x0"),
		elect(0x5a0, "@P0 BRA.U.ANY 0x550", 0x550),
		step(0x5b0, "UIADD3 UR5, UP0, UP1, UR28, UR5, UR28"),
		step(0x5c0, "PLOP3.LUT P0, PT, PT, PT, PT, 0x80, 0x0"),
		step(0x5d0, "UIADD3 UR8, UP2, UR8, UR28, URZ"),
		step(0x5e0, "UIADD3.X UR6, URZ, UR6, URZ, UP0, UP1"),
		step(0x5f0, "UIADD3.X UR9, URZ, UR9, URZ, UP2, !UPT"),
		step(0x600, "@P0 ELECT P2, URZ, PT"),
		step(0x610, "UMOV UR19, UR11"),
		step(0x620, "UBLKCP.S.G [UR18], [UR8], UR22"),
		step(0x630, "@P2 PLOP3.LUT P0, PT, P2, PT, PT, 0x8, 0x0"),
		step(0x640, "PLOP3.LUT P2, PT, PT, PT, PT, 0x8, 0x0"),
		elect(0x650, "@P0 BRA.U.ANY 0x600", 0x600),
		step(0x660, "UIADD3 UR8, UP0, UR8, UR28, URZ"),
		step(0x670, "PLOP3.LUT P0, PT, PT, PT, PT, 0x80, 0x0"),
		step(0x680, "UIADD3.X UR9, URZ, UR9, URZ, UP0, !UPT"),
		step(0x690, "UIADD3 UR19, UP0, UR8, UR28, URZ"),
		step(0x6a0, "UIADD3.X UR23, URZ, UR9, URZ, UP0, !UPT"),
		step(0x6b0, "@P0 ELECT P2, URZ, PT"),
		step(0x6c0, "UMOV UR21, UR11"),
		step(0x6d0, "UBLKCP.S.G [UR20], [UR8], UR22"),
		step(0x6e0, "@P2 PLOP3.LUT P0, PT, P2, PT, PT, 0x8, 0x0"),
		step(0x6f0, "PLOP3.LUT P2, PT, PT, PT, PT, 0x8, 0x0"),
		elect(0x700, "@P0 BRA.U.ANY 0x6b0", 0x6b0),
		{addr: 0x710, text: "UIADD3 UR15, UR15, -0x4, URZ", in: alu(isa.OpSub, isa.U32, isa.R(15), isa.R(15), isa.Imm(4))},
		step(0x720, "UIADD3 UR5, UP0, UP1, UR28, UR5, UR28"),
		step(0x730, "UIADD3 UR7, UR7, 0x4, URZ"),
		{addr: 0x740, text: "ISETP.NE.AND P0, PT, RZ, UR15, PT", in: setp(isa.CmpNe, isa.U32, 0, isa.R(15), isa.Imm(0))},
		step(0x750, "ULEA UR16, UR28, UR16, 0x2"),
		step(0x760, "ULEA UR18, UR28, UR18, 0x2"),
		step(0x770, "ULEA UR20, UR28, UR20, 0x2"),
		step(0x780, "ULEA UR10, UR28, UR10, 0x2"),
		step(0x790, "UIADD3.X UR6, URZ, UR6, URZ, UP0, UP1"),
		{addr: 0x7a0, text: "@P0 BRA 0x4a0", in: isa.Instr{Op: isa.OpBra, Guard: isa.P(0)}, target: 0x4a0},
	}}
	const trips = 12
	p, at := l.build(t, []isa.Instr{with(alu(isa.OpMov, isa.U32, isa.R(15), isa.Imm(4*trips)), ctl(13))})
	_, o := runCtrl(t, p, 32, &cfg)
	var addrs []uint32
	for _, st := range l.instrs {
		addrs = append(addrs, st.addr)
	}
	want := stallSum(p, at, addrs, 0x7a0, cfg)
	heads := o.at(0, at[0x4a0])
	if len(heads) != trips {
		t.Fatalf("the loop ran %d trips, want %d", len(heads), trips)
	}
	for k := 1; k < len(heads); k++ {
		if got := heads[k] - heads[k-1]; got != want {
			t.Errorf("trip %d: %d cycles, want %d (the stall counts, the back edge at branch.taken)", k, got, want)
		}
	}
	// Copy to copy inside the trip, as the README reads them: 49, 49, 53.
	copies := []uint32{0x4e0, 0x570, 0x620, 0x6d0}
	var gaps []uint64
	for k := 1; k < len(copies); k++ {
		gaps = append(gaps, o.first(0, at[copies[k]])-o.first(0, at[copies[k-1]]))
	}
	if g := strconv.Itoa(int(gaps[0])) + " " + strconv.Itoa(int(gaps[1])) + " " + strconv.Itoa(int(gaps[2])); g != "49 49 53" {
		t.Errorf("copy to copy %s cycles, want 49 49 53", g)
	}
	// bulkbw.csv: cycles a copy = c + X/K over the nowrap rows; two rows give c.
	k4, k16 := measured(t, "bulkbw.csv", "nowrap_chunk1024_k4_batches200"), measured(t, "bulkbw.csv", "nowrap_chunk1024_k16_batches200")
	c := (16*k16 - 4*k4) / 12
	t.Logf("bulkbw nowrap loop trip (4 copies): predicted %d cycles (%.2f a copy); measured c = %.2f a copy (bulkbw.csv K=4 and K=16 rows): %+.2f %%",
		want, float64(want)/4, c, 100*(float64(want)/4-c)/c)
}

// electLoop is elect.cu's converged loop (k_elect<0>) for a block of warps
// warps and trips phases: SHF; ARRIVE; UIADD3; ISETP; TRYWAIT; @!P2 BRA (to
// the out-of-line retry); LOP3; @!P1 BRA back. The arrive, the try_wait on
// its phase and the loop control are executed; the branch after the TRYWAIT
// waits on its scoreboard (wb0 / wt000001) for the barrier unit's answer,
// which the SM's barrier model gives.
func electLoop(t *testing.T, warps, trips int) (*isa.Program, map[uint32]int) {
	bar := isa.Addr(-1, 0)
	l := sassLoop{file: "elect.sass", fn: "_Z7k_electILi0EEviPx", instrs: []sassStep{
		{addr: 0x310, text: "SHF.L.U32 R2, R0, 0x1f, RZ", in: alu(isa.OpShl, isa.B32, isa.R(2), isa.R(0), isa.Imm(31))},
		{addr: 0x320, text: "SYNCS.ARRIVE.TRANS64.A1T0 RZ, [UR6], RZ", in: mbar(isa.OpMbarArrive, 0, 1, isa.Sink(), bar)},
		{addr: 0x330, text: "UIADD3 UR4, UR4, 0x1, URZ", in: alu(isa.OpAdd, isa.U32, isa.R(4), isa.R(4), isa.Imm(1))},
		{addr: 0x340, text: "ISETP.LE.AND P1, PT, R3, UR4, PT", in: setp(isa.CmpLe, isa.U32, 1, isa.R(3), isa.R(4))},
		{addr: 0x350, text: "SYNCS.PHASECHK.TRANS64.TRYWAIT P2, [UR6], R2", in: mbar(isa.OpMbarTryWait, isa.FParity, 1, isa.P(2), bar, isa.R(0))},
		{addr: 0x360, text: "@!P2 BRA 0x580", in: isa.Instr{Op: isa.OpBra, Guard: isa.NotP(2)}, target: 0x580},
		{addr: 0x370, text: "LOP3.LUT R0, R0, 0x1, RZ, 0x3c, !PT", in: alu(isa.OpXor, isa.B32, isa.R(0), isa.R(0), isa.Imm(1))},
		{addr: 0x380, text: "@!P1 BRA 0x310", in: isa.Instr{Op: isa.OpBra, Guard: isa.NotP(1)}, target: 0x310},
		{addr: 0x390, text: "CS2R R6, SR_CLOCKLO", in: fill(6)},
		{addr: 0x3a0, text: "@P0 EXIT", in: exit},
		{addr: 0x580, text: "SYNCS.PHASECHK.TRANS64.TRYWAIT P2, [UR6], R2", in: mbar(isa.OpMbarTryWait, isa.FParity, 1, isa.P(2), bar, isa.R(0))},
		{addr: 0x590, text: "@!P2 BRA 0x580", in: isa.Instr{Op: isa.OpBra, Guard: isa.NotP(2)}, target: 0x580},
		{addr: 0x5a0, text: "BRA 0x370", in: isa.Instr{Op: isa.OpBra}, target: 0x370},
	}}
	initBar := with(mbar(isa.OpMbarInit, 0, 0, bar, isa.Imm(uint64(32*warps))), ctl(2, wsb(1))) // @!UP0 SYNCS.EXCH.64: warp 0
	initBar.Guard = isa.P(3)
	p, at := l.build(t, []isa.Instr{
		with(setp(isa.CmpLt, isa.U32, 3, isa.Spec(isa.STidX), isa.Imm(32)), ctl(13)),
		initBar,
		with(barSyncI, ctl(6, wait(1<<1))), // BAR.SYNC.DEFER_BLOCKING 0x0
		with(alu(isa.OpMov, isa.U32, isa.R(3), isa.Imm(uint64(trips))), ctl(1)),
		with(alu(isa.OpMov, isa.U32, isa.R(0), isa.Imm(0)), ctl(1)),
		with(alu(isa.OpMov, isa.U32, isa.R(4), isa.Imm(0)), ctl(6)),
	})
	p.Symbols = []isa.Symbol{{Name: "bar", Space: isa.Shared, Offset: 0, Size: 8}}
	return p, at
}

// One warp: a trip is its stall counts plus the wait for the answer.
func TestArriveWaitLoopTakesItsStallCountsAndTheAnswer(t *testing.T) {
	cfg := DefaultConfig()
	const trips = 12
	p, at := electLoop(t, 1, trips)
	r, o := runCtrl(t, p, 32, &cfg)
	heads, waits, brs := o.at(0, at[0x310]), o.at(0, at[0x350]), o.at(0, at[0x360])
	if len(heads) != trips || len(waits) != trips || len(brs) != trips {
		t.Fatalf("%d trips, %d try_waits, %d branches: want %d each (the answer comes before a retry)", len(heads), len(waits), len(brs), trips)
	}
	static := stallSum(p, at, []uint32{0x310, 0x320, 0x330, 0x340, 0x350, 0x360, 0x370, 0x380}, 0x380, cfg)
	tw := uint64(p.Instrs[at[0x350]].Ctrl.Stall)
	var answer uint64
	for k := 1; k < trips; k++ {
		sb := brs[k-1] - waits[k-1] - tw // the branch's wait on the TRYWAIT's scoreboard
		got, want := heads[k]-heads[k-1], static+sb
		if got != want {
			t.Errorf("trip %d: %d cycles, want %d (stall counts %d + the answer's wait %d)", k, got, want, static, sb)
		}
		answer = brs[k-1] - heads[k-1]
	}
	if ph := r.Barriers[0].Phases; len(ph) < trips {
		t.Fatalf("%d phases, want %d", len(ph), trips)
	}
	m := measured(t, "elect.csv", "converged_warps1")
	trip := float64(heads[trips-1]-heads[1]) / float64(trips-2)
	t.Logf("elect converged loop, 1 warp: predicted %.1f cycles a phase (stall counts %d, the branch reading the answer %d cycles after the SHF, the README's reading: 45); measured %.2f (elect.csv): %+.2f %%",
		trip, static, answer, m, 100*(trip-m)/m)
}

// The same loop with more warps, beside elect.csv: with the barrier unit's
// measured answer (latency3.csv: syncs.latency 36, syncs.acquire 36), which
// a SASS program gets, every block size is within 5 %.
func TestArriveWaitLoopAcrossWarps(t *testing.T) {
	const trips = 24
	for _, w := range []int{1, 4, 8, 16, 32} {
		p, at := electLoop(t, w, trips)
		_, o := runCtrl(t, p, 32*w, nil)
		heads := o.at(0, at[0x310])
		if len(heads) != trips {
			t.Fatalf("%d warps: %d trips, want %d", w, len(heads), trips)
		}
		got := float64(heads[trips-1]-heads[4]) / float64(trips-5)
		m := measured(t, "elect.csv", "converged_warps"+strconv.Itoa(w))
		t.Logf("elect converged loop, %2d warps: measured %6.2f cycles a phase, smsim %6.1f (%+5.1f %%)", w, m, got, 100*(got-m)/m)
		if math.Abs(got-m) > 0.05*m {
			t.Errorf("%d warps: %.1f cycles a phase, want within 5 %% of %.2f", w, got, m)
		}
	}
}
