package run

import (
	"encoding/binary"
	"math"
	"strconv"
	"testing"
)

// The tensor cores' operand reads and the copy engine's writes into shared
// memory do not take turns (wgmma_share.cu on the H200: a warpgroup's
// stream of m64n128k16, 6 KiB read a wgmma every 65 cycles, and four 16
// KiB bulk copies in flight, 94 B/cycle, each run within 2 % of their pace
// alone while the other runs): smsim, from the SASS the H200 ran, keeps
// both paces alone and together.
func TestWgmmaAndBulkCopiesShareNoPort(t *testing.T) {
	rows := calibCSV(t, "wgmma_share.csv")
	hw := map[int][2]float64{}
	for _, r := range rows {
		mode, _ := strconv.Atoi(r[0])
		w, _ := strconv.ParseFloat(r[1], 64)
		c, _ := strconv.ParseFloat(r[2], 64)
		hw[mode] = [2]float64{w, c}
	}
	sim := map[int][2]float64{}
	for _, mode := range []int{1, 2, 3} { // bit 2's shared-load loop was hoisted by ptxas: no rate
		b := runBuffer(t, Spec{Kernel: "_Z5shareiPKhPxPj", Block: "256", Grid: "1", Smem: "107520", Launches: 2, Config: "h200",
			Args: []string{strconv.Itoa(mode), "buf:1048576", "buf:32", "buf:8"}}, "../calibration/h200/wgmma_share.sass", "2", 16)
		sim[mode] = [2]float64{float64(int64(binary.LittleEndian.Uint64(b))), float64(int64(binary.LittleEndian.Uint64(b[8:])))}
	}
	// Each agent's pace together against alone (wgmma: mode 3 over 1; the
	// copies: mode 3 over 2), the H200's within 2 %; and the paces alone
	// within 12 % (the copies' link rate, mem.l2_bytes_per_cycle, is
	// calibrated on microbench.csv's 99 B/cycle; this stream ran at 94).
	for k, name := range []string{"wgmma", "copies"} {
		alone := 1 + k
		hwSlow, simSlow := hw[3][k]/hw[alone][k], sim[3][k]/sim[alone][k]
		t.Logf("%s: alone %.0f (the H200 %.0f), together %.0f (%.0f): slowed %.3fx (%.3fx)", name, sim[alone][k], hw[alone][k], sim[3][k], hw[3][k], simSlow, hwSlow)
		if math.Abs(simSlow-hwSlow) > 0.02 {
			t.Errorf("%s together with the other agent slows %.3fx, the H200's %.3fx", name, simSlow, hwSlow)
		}
		if e := (sim[alone][k] - hw[alone][k]) / hw[alone][k]; math.Abs(e) > 0.12 {
			t.Errorf("%s alone: %.0f cycles, the H200 %.0f (%+.1f %%)", name, sim[alone][k], hw[alone][k], 100*e)
		}
	}
}
