package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sm"
)

// maxTimelineEvents bounds a timeline; past it, spans are dropped and the
// file says so in its metadata.
const maxTimelineEvents = 2_000_000

// TraceEvent is one Chrome trace event (the JSON Perfetto and chrome://tracing read).
type TraceEvent struct {
	Name string         `json:"name"`
	Cat  string         `json:"cat,omitempty"`
	Ph   string         `json:"ph"`
	Ts   uint64         `json:"ts"`
	Dur  *uint64        `json:"dur,omitempty"`
	Pid  int            `json:"pid"`
	Tid  int            `json:"tid"`
	ID   string         `json:"id,omitempty"`
	Args map[string]any `json:"args,omitempty"`
}

// Process ids of the timeline's groups of tracks (the tensor pipes' only when a wgmma ran).
const (
	pidWarps    = 1
	pidBarriers = 2
	pidCopies   = 3
	pidTensor   = 4
)

// span is a warp's current run of one state.
type span struct {
	name       string
	from, to   uint64
	open       bool
	reasonCode sm.Reason
}

// Timeline records the SM's observer calls and writes a Chrome trace: one
// track per warp with what it was doing (issuing, or stalled and why, or
// waiting on barrier X phase k), one track per barrier with its phases as
// spans, and TMA copies as async spans. Timestamps are cycles (shown as µs).
type Timeline struct {
	prog     *isa.Program
	events   []TraceEvent
	spans    map[int]*span // by warp, or by SM<<16 | warp when multi
	barTrack map[string]int
	dropped  int
	multi    bool // observing several SMs (ForSM): one process of warp tracks per SM
	tensor   bool // a wgmma group was added: the tensor pipes get a track name
}

// pidSM0 is the process id of SM 0's warps on a timeline of several SMs.
const pidSM0 = 10

// ForSM returns the observer of SM i of a GPU: its warps get a process of
// their own ("SM i"), its copies ids of their own.
func (t *Timeline) ForSM(i int) sm.Observer {
	t.multi = true
	return smTimeline{t: t, sm: i}
}

// smTimeline is one SM's view of a Timeline.
type smTimeline struct {
	t  *Timeline
	sm int
}

func (o smTimeline) Launch()                             { o.t.Launch() }
func (o smTimeline) Issue(c uint64, w, pc int, l uint32) {}
func (o smTimeline) Stall(warp int, from, to uint64, r sm.Reason, what string) {
	o.t.Stall(o.sm<<16|warp, from, to, r, what)
}
func (o smTimeline) Phase(barrier string, cta int, phase, opened, completed uint64) {
	o.t.Phase(barrier, cta, phase, opened, completed)
}
func (o smTimeline) Copy(id uint64, bytes int, issued, done uint64, barrier string) {
	o.t.Copy(uint64(o.sm)<<48|id, bytes, issued, done, barrier)
}
func (o smTimeline) MMAGroup(warp, n int, issued, done uint64) {
	o.t.MMAGroup(o.sm<<16|warp, n, issued, done)
}

// track is the process and thread of warp key's track.
func (t *Timeline) track(key int) (pid, tid int) {
	if t.multi {
		return pidSM0 + key>>16, key & 0xffff
	}
	return pidWarps, key
}

// NewTimeline is an empty timeline of a run of p.
func NewTimeline(p *isa.Program) *Timeline {
	return &Timeline{prog: p, spans: map[int]*span{}, barTrack: map[string]int{}}
}

func (t *Timeline) add(e TraceEvent) {
	if len(t.events) >= maxTimelineEvents {
		t.dropped++
		return
	}
	t.events = append(t.events, e)
}

// Launch forgets an earlier launch's events: the timeline shows the last
// launch, which the report describes.
func (t *Timeline) Launch() {
	t.events, t.dropped, t.tensor = t.events[:0], 0, false
	clear(t.spans)
	clear(t.barTrack)
}

// Issue is not recorded per instruction: issuing shows as "selected" spans.
func (t *Timeline) Issue(uint64, int, int, uint32) {}

// Stall extends the warp's current span or closes it and starts another.
func (t *Timeline) Stall(warp int, from, to uint64, r sm.Reason, what string) {
	name := r.String()
	if r == sm.ReasonSelected {
		name = "issuing"
	}
	if what != "" {
		name = "waiting on " + what
	}
	sp := t.spans[warp]
	if sp == nil {
		sp = &span{}
		t.spans[warp] = sp
	}
	if sp.open && sp.name == name && sp.to == from {
		sp.to = to
		return
	}
	t.flush(warp, sp)
	*sp = span{name: name, from: from, to: to, open: true, reasonCode: r}
}

func (t *Timeline) flush(warp int, sp *span) {
	if !sp.open || sp.to <= sp.from {
		return
	}
	d := sp.to - sp.from
	pid, tid := t.track(warp)
	t.add(TraceEvent{Name: sp.name, Cat: sp.reasonCode.String(), Ph: "X", Ts: sp.from, Dur: &d, Pid: pid, Tid: tid})
	sp.open = false
}

// Phase adds a barrier phase as a span on the barrier's track.
func (t *Timeline) Phase(barrier string, cta int, phase, opened, completed uint64) {
	key := fmt.Sprintf("%s (CTA %d)", barrier, cta)
	tid, ok := t.barTrack[key]
	if !ok {
		tid = len(t.barTrack)
		t.barTrack[key] = tid
	}
	d := completed - opened
	t.add(TraceEvent{Name: fmt.Sprintf("%s phase %d", barrier, phase), Cat: "phase", Ph: "X", Ts: opened, Dur: &d,
		Pid: pidBarriers, Tid: tid, Args: map[string]any{"phase": phase, "parity": phase & 1}})
}

// Copy adds a TMA copy as an async span.
func (t *Timeline) Copy(id uint64, bytes int, issued, done uint64, barrier string) {
	name := fmt.Sprintf("copy %d B -> %s", bytes, barrier)
	sid := fmt.Sprint(id)
	args := map[string]any{"bytes": bytes, "barrier": barrier}
	t.add(TraceEvent{Name: name, Cat: "tma", Ph: "b", Ts: issued, Pid: pidCopies, Tid: 0, ID: sid, Args: args})
	t.add(TraceEvent{Name: name, Cat: "tma", Ph: "e", Ts: done, Pid: pidCopies, Tid: 0, ID: sid})
}

// MMAGroup adds a warp's wgmma group as a span on the warp's track of the
// tensor pipes.
func (t *Timeline) MMAGroup(warp, n int, issued, done uint64) {
	d := done - issued
	t.tensor = true
	t.add(TraceEvent{Name: fmt.Sprintf("wgmma group (%d)", n), Cat: "wgmma", Ph: "X", Ts: issued, Dur: &d, Pid: pidTensor, Tid: warp,
		Args: map[string]any{"wgmma": n}})
}

// Write closes open spans and writes the trace document to w. The bytes
// depend on the run alone: open spans close in warp order and the track
// names come in track order (never a map's order), and events are written
// one by one as they were recorded, not gathered into one document first.
func (t *Timeline) Write(w io.Writer, r *sm.Result) error {
	warps := make([]int, 0, len(t.spans))
	for w := range t.spans {
		warps = append(warps, w)
	}
	sort.Ints(warps)
	for _, w := range warps {
		t.flush(w, t.spans[w])
	}
	meta := []TraceEvent{
		{Name: "process_name", Ph: "M", Pid: pidWarps, Args: map[string]any{"name": "warps of " + t.prog.Title()}},
		{Name: "process_name", Ph: "M", Pid: pidBarriers, Args: map[string]any{"name": "mbarrier phases"}},
		{Name: "process_name", Ph: "M", Pid: pidCopies, Args: map[string]any{"name": "TMA copies"}},
	}
	if t.multi {
		meta = t.smProcesses(meta[1:], warps)
	}
	if t.tensor {
		meta = append(meta, TraceEvent{Name: "process_name", Ph: "M", Pid: pidTensor, Args: map[string]any{"name": "wgmma groups (tensor pipes)"}})
	}
	if r != nil {
		for _, w := range r.Warps {
			if w.Warp < 0 {
				continue // a folded record of many CTAs' warps
			}
			pid, tid := t.track(w.SM<<16 | w.Warp)
			meta = append(meta, TraceEvent{Name: "thread_name", Ph: "M", Pid: pid, Tid: tid,
				Args: map[string]any{"name": fmt.Sprintf("warp %d (CTA %d, warp %d)", w.Warp, w.CTA, w.InCTA)}})
		}
	}
	tracks := make([]string, len(t.barTrack))
	for name, tid := range t.barTrack {
		tracks[tid] = name
	}
	for tid, name := range tracks {
		meta = append(meta, TraceEvent{Name: "thread_name", Ph: "M", Pid: pidBarriers, Tid: tid, Args: map[string]any{"name": name}})
	}
	bw := bufio.NewWriter(w)
	if err := t.encode(bw, meta); err != nil {
		return err
	}
	return bw.Flush()
}

// encode writes the trace document: {"displayTimeUnit", "otherData",
// "traceEvents"} with the metadata events first.
func (t *Timeline) encode(w *bufio.Writer, meta []TraceEvent) error {
	other, err := json.Marshal(map[string]any{"time_unit": "1 us in the viewer = 1 SM cycle", "dropped_events": t.dropped})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "{\"displayTimeUnit\":\"ns\",\"otherData\":%s,\"traceEvents\":[", other)
	n := 0
	for _, evs := range [][]TraceEvent{meta, t.events} {
		for i := range evs {
			b, err := json.Marshal(&evs[i])
			if err != nil {
				return err
			}
			if n > 0 {
				w.WriteByte(',')
			}
			w.Write(b)
			n++
		}
	}
	_, err = w.WriteString("]}\n")
	return err
}

// smProcesses names one process of warp tracks per SM that has any (keys
// in order), after the others in meta.
func (t *Timeline) smProcesses(meta []TraceEvent, keys []int) []TraceEvent {
	last := -1
	for _, k := range keys {
		if s := k >> 16; s != last {
			last = s
			meta = append(meta, TraceEvent{Name: "process_name", Ph: "M", Pid: pidSM0 + s,
				Args: map[string]any{"name": fmt.Sprintf("SM %d: warps of %s", s, t.prog.Title())}})
		}
	}
	return meta
}
