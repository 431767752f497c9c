package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"math/bits"
	"sort"
	"strings"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sm"
)

// Profile attributes every warp cycle to an instruction, the way Nsight
// Compute's source view attributes its warp-state samples: the cycles a
// warp spends waiting count against the instruction it issues next (the one
// it is stalled on), its issue cycle ("selected") against the instruction
// it issued. Cycles after a warp's last issue (its exit, the end of the run)
// go to that last instruction. The instructions are the ones smsim runs:
// the PTX's after smsim's ptxas-like rewrites (isa), each with the source
// position it came from.
//
// On a GPU of several SMs (ForSM) the rows sum every SM's warps.
type Profile struct {
	prog *isa.Program
	rows []profileRow
	own  profileWarps    // the warps of the SM observed directly
	sms  []*profileWarps // the warps of each SM observed through ForSM
}

// profileWarps is the state of one SM's warps, by warp slot.
type profileWarps struct {
	pending [][sm.NumReasons]uint64 // cycles not yet attributed
	last    []int                   // the last instruction issued, -1 before the first
}

type profileRow struct {
	issues  uint64 // warp-level issues
	threads uint64 // thread instructions (active lanes summed)
	stalls  [sm.NumReasons]uint64
}

// NewProfile is an empty profile of p's instructions.
func NewProfile(p *isa.Program) *Profile {
	return &Profile{prog: p, rows: make([]profileRow, len(p.Instrs))}
}

func (ws *profileWarps) warp(w int) {
	for len(ws.last) <= w {
		ws.pending = append(ws.pending, [sm.NumReasons]uint64{})
		ws.last = append(ws.last, -1)
	}
}

// ForSM returns the observer of SM i of a GPU (gpu.PerSM): its warps'
// cycles go to the same rows.
func (p *Profile) ForSM(i int) sm.Observer {
	for len(p.sms) <= i {
		p.sms = append(p.sms, &profileWarps{})
	}
	return smProfile{p: p, ws: p.sms[i]}
}

// smProfile is one SM's view of a Profile.
type smProfile struct {
	p  *Profile
	ws *profileWarps
}

func (o smProfile) Launch()                                 { o.p.launch(o.ws) }
func (o smProfile) Issue(_ uint64, w, pc int, lanes uint32) { o.p.issue(o.ws, w, pc, lanes) }
func (o smProfile) Stall(w int, from, to uint64, r sm.Reason, _ string) {
	o.p.stall(o.ws, w, from, to, r)
}
func (o smProfile) Phase(string, int, uint64, uint64, uint64) {}
func (o smProfile) Copy(uint64, int, uint64, uint64, string)  {}
func (o smProfile) MMAGroup(int, int, uint64, uint64)         {}

// Launch starts the profile again: it describes the last launch, as the report does.
func (p *Profile) Launch() { p.launch(&p.own) }

// launch clears the rows and the warps of ws (every SM of a GPU calls it
// before any of them issues).
func (p *Profile) launch(ws *profileWarps) {
	clear(p.rows)
	ws.pending, ws.last = ws.pending[:0], ws.last[:0]
}

// Issue implements sm.Observer: the issued instruction takes the warp's
// waiting cycles since its last issue.
func (p *Profile) Issue(_ uint64, w, pc int, lanes uint32) { p.issue(&p.own, w, pc, lanes) }

func (p *Profile) issue(ws *profileWarps, w, pc int, lanes uint32) {
	ws.warp(w)
	r := &p.rows[pc]
	r.issues++
	r.threads += uint64(bits.OnesCount32(lanes))
	for k, c := range ws.pending[w] {
		r.stalls[k] += c
	}
	ws.pending[w] = [sm.NumReasons]uint64{}
	ws.last[w] = pc
}

// Stall implements sm.Observer: an issue cycle goes to the instruction
// issued, a waiting cycle to the one the warp issues next.
func (p *Profile) Stall(w int, from, to uint64, r sm.Reason, _ string) {
	p.stall(&p.own, w, from, to, r)
}

func (p *Profile) stall(ws *profileWarps, w int, from, to uint64, r sm.Reason) {
	ws.warp(w)
	if r == sm.ReasonSelected && ws.last[w] >= 0 {
		p.rows[ws.last[w]].stalls[r] += to - from
		return
	}
	ws.pending[w][r] += to - from
}

// Phase implements sm.Observer; the profile has no use for phases.
func (p *Profile) Phase(string, int, uint64, uint64, uint64) {}

// Copy implements sm.Observer; the profile has no use for copies.
func (p *Profile) Copy(uint64, int, uint64, uint64, string) {}

// MMAGroup implements sm.Observer; the profile has no use for wgmma groups.
func (p *Profile) MMAGroup(int, int, uint64, uint64) {}

// Finish gives each warp's cycles after its last issue to that instruction.
func (p *Profile) Finish() {
	p.finish(&p.own)
	for _, ws := range p.sms {
		p.finish(ws)
	}
}

func (p *Profile) finish(ws *profileWarps) {
	for w, pc := range ws.last {
		if pc < 0 {
			continue
		}
		for k, c := range ws.pending[w] {
			p.rows[pc].stalls[k] += c
		}
		ws.pending[w] = [sm.NumReasons]uint64{}
	}
}

// Instr is one instruction's line of the profile.
type Instr struct {
	PC                 int               `json:"pc"`
	Source             string            `json:"source"` // file:line:col
	Instruction        string            `json:"instruction"`
	Issues             uint64            `json:"issues"`
	ThreadInstructions uint64            `json:"thread_instructions"`
	Cycles             uint64            `json:"cycles"` // warp cycles attributed to it, issue cycles included
	Stalls             map[string]uint64 `json:"stalls"` // by Nsight Compute's reason names
}

// Instructions lists every instruction of the program with its counts, in program order.
func (p *Profile) Instructions() []Instr {
	out := make([]Instr, len(p.rows))
	for pc := range p.rows {
		r := &p.rows[pc]
		in := &p.prog.Instrs[pc]
		j := Instr{PC: pc, Source: in.Pos.String(), Instruction: in.String(), Issues: r.issues,
			ThreadInstructions: r.threads, Stalls: map[string]uint64{}}
		for k, c := range r.stalls {
			j.Cycles += c
			j.Stalls[sm.Reason(k).String()] = c
		}
		out[pc] = j
	}
	return out
}

// ProfileHeader is the CSV header of the profile: one column per stall reason.
func ProfileHeader() []string {
	h := []string{"kernel", "pc", "source", "instruction", "issues", "thread_instructions", "cycles"}
	for k := 0; k < sm.NumReasons; k++ {
		h = append(h, sm.Reason(k).String())
	}
	return h
}

// WriteProfileCSV writes the profile as CSV: a header, then one row per
// instruction.
func WriteProfileCSV(cw *csv.Writer, kernel string, rows []Instr) {
	_ = cw.Write(ProfileHeader())
	for _, r := range rows {
		rec := []string{kernel, itoa(r.PC), r.Source, r.Instruction, u(r.Issues), u(r.ThreadInstructions), u(r.Cycles)}
		for k := 0; k < sm.NumReasons; k++ {
			rec = append(rec, u(r.Stalls[sm.Reason(k).String()]))
		}
		_ = cw.Write(rec)
	}
}

// WriteProfile writes the report's instruction profile: as JSON (the
// list of instructions) or as CSV, one row per instruction.
func WriteProfile(w io.Writer, asJSON bool, r *Report) error {
	if asJSON {
		return WriteJSON(w, r.Instructions)
	}
	cw := csv.NewWriter(w)
	WriteProfileCSV(cw, r.Kernel, r.Instructions)
	cw.Flush()
	return cw.Error()
}

// HotInstructions is how many instructions the table's instructions section shows.
const HotInstructions = 15

// tableInstructions prints the instructions that took the most warp cycles,
// with each one's share of all warp cycles and its two largest reasons.
func tableInstructions(w io.Writer, r *Report) error {
	if r.Instructions == nil {
		return nil
	}
	var total uint64
	idx := make([]int, 0, len(r.Instructions))
	for i, x := range r.Instructions {
		total += x.Cycles
		if x.Cycles > 0 {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return r.Instructions[idx[a]].Cycles > r.Instructions[idx[b]].Cycles })
	if len(idx) > HotInstructions {
		idx = idx[:HotInstructions]
	}
	fmt.Fprintf(w, "instructions by warp cycles (the %d most; every one with --profile FILE)\n", len(idx))
	t := NewTable(w, "pc", "source", "instruction", "issues", "cycles", "share", "mostly")
	for _, i := range idx {
		x := r.Instructions[i]
		_ = t.Append([]string{itoa(x.PC), shortSource(x.Source), clip(x.Instruction, 48), u(x.Issues), u(x.Cycles),
			pct(x.Cycles, total), topReasons(x.Stalls, x.Cycles, 2)})
	}
	if err := t.Render(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	return nil
}

// shortSource drops the directory: line:col within the kernel's file.
func shortSource(s string) string {
	if i := strings.LastIndexAny(s, `/\`); i >= 0 {
		return s[i+1:]
	}
	return s
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-3] + "..."
}

func pct(x, of uint64) string {
	if of == 0 {
		return "0 %"
	}
	return fmt.Sprintf("%.1f %%", 100*float64(x)/float64(of))
}
