package sm

import (
	"runtime"
	"sync"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/warp"
)

// MMAWorkers computes wgmma accumulators on other goroutines while the SMs
// simulate on. A wgmma's timing depends on its shape alone, and its
// operands are read from shared memory when it issues (sm/wgmma.go), so
// what is left, D = A·B (+ D) into the warp's accumulator registers, is a
// pure function of values already taken: it can run later, anywhere, and
// give the same bits. A warp's wgmmas run in issue order on one worker
// (each chains on the last one's accumulators), and the warp waits for
// them (mmaJoin) before any other instruction of its own touches a
// register they read or write, and before it exits. Results are
// therefore identical with any number of workers; with none, each wgmma
// is computed when it issues.
//
// One MMAWorkers may serve several SMs (a GPU's), driven from one goroutine
// or several (sim.Group.SetThreads): its queues and frames are channels.
type MMAWorkers struct {
	n      int // workers, started at the first wgmma
	queues []chan mmaJob
	free   chan *warp.Wgmma // operand frames not in use
	inline *warp.Wgmma      // the one frame of a pool with no workers
	wg     sync.WaitGroup   // the workers, for Close
	once   sync.Once        // start
}

// mmaJob is one warp's share of a wgmma, its operands loaded.
type mmaJob struct {
	g       *warp.Wgmma
	w       *warp.Warp
	in      *isa.Instr
	m       *warp.MMAModel
	pending *mmaPending // the warp's outstanding jobs
}

// maxWarpSlots spreads the SMs' warps over the workers' queues (an SM holds
// at most 64 warps); any key keeps a warp's wgmmas in order.
const maxWarpSlots = 64

// mmaFramesPerWorker bounds the operand frames (about 120 KB each) in
// flight: enough that the SMs rarely wait for a free one while the
// workers are busy.
const mmaFramesPerWorker = 4

// NewMMAWorkers returns the workers of a simulation that may use threads
// host threads (0: GOMAXPROCS): the driving goroutine keeps one, and the
// rest start at the first wgmma; with one thread every wgmma is computed
// inline.
func NewMMAWorkers(threads int) *MMAWorkers {
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	return &MMAWorkers{n: threads - 1}
}

// start starts the workers, once, with all their frames: a run allocates
// the same whatever the workers' pace.
func (p *MMAWorkers) start() {
	p.free = make(chan *warp.Wgmma, mmaFramesPerWorker*p.n)
	for range cap(p.free) {
		p.free <- &warp.Wgmma{}
	}
	for i := 0; i < p.n; i++ {
		q := make(chan mmaJob, mmaFramesPerWorker)
		p.queues = append(p.queues, q)
		p.wg.Add(1)
		go p.work(q)
	}
}

// mmaJobHold, when set (by tests), runs before each job on a worker: a
// slow worker shows whether the SM waits for the jobs it must.
var mmaJobHold func()

func (p *MMAWorkers) work(q chan mmaJob) {
	defer p.wg.Done()
	for j := range q {
		p.run(j)
	}
}

// run computes one job; a panic (a bug) is handed to the warp's join, to
// surface on the simulation's goroutine as it would have without workers.
func (p *MMAWorkers) run(j mmaJob) {
	defer func() {
		if r := recover(); r != nil {
			j.pending.fault = r
		}
		p.free <- j.g
		j.pending.jobs.Done()
	}()
	if mmaJobHold != nil {
		mmaJobHold()
	}
	j.w.FinishWgmma(j.in, j.g, j.m)
}

// frame returns an operand frame to load a wgmma into: a free one, else
// the next one a worker frees.
func (p *MMAWorkers) frame() *warp.Wgmma {
	if p.n > 0 {
		p.once.Do(p.start) // the SMs of a GPU may ask from several threads
	}
	if p.queues == nil {
		if p.inline == nil {
			p.inline = &warp.Wgmma{}
		}
		return p.inline
	}
	return <-p.free
}

// release returns a frame that was not submitted.
func (p *MMAWorkers) release(g *warp.Wgmma) {
	if p.queues != nil {
		p.free <- g
	}
}

// submit computes j: inline without workers, else on worker key's queue
// (key names the warp, so its wgmmas keep their order).
func (p *MMAWorkers) submit(key int, j mmaJob) {
	if p.queues == nil {
		j.w.FinishWgmma(j.in, j.g, j.m)
		return
	}
	j.pending.jobs.Add(1)
	p.queues[key%len(p.queues)] <- j
}

// Close stops the workers once their queues are done. Every warp must
// have been joined first.
func (p *MMAWorkers) Close() {
	for _, q := range p.queues {
		close(q)
	}
	p.wg.Wait()
	p.queues, p.free = nil, nil
	p.once = sync.Once{}
}

// mmaPending is a warp's wgmmas not yet computed: the registers they read
// and write, and their count.
type mmaPending struct {
	jobs  sync.WaitGroup
	regs  []uint64 // bit r: general register r
	any   bool
	fault any // a job's panic, raised again by join
}

// mark adds register r to the set.
func (m *mmaPending) mark(r int32) {
	if r < 0 {
		return
	}
	for int(r)/64 >= len(m.regs) {
		m.regs = append(m.regs, 0)
	}
	m.regs[r/64] |= 1 << (r % 64)
}

// holds reports whether any of the n registers from r is in the set.
func (m *mmaPending) holds(r int32, n int32) bool {
	if r < 0 {
		return false
	}
	for k := r; k < r+n; k++ {
		if int(k)/64 < len(m.regs) && m.regs[k/64]>>(k%64)&1 != 0 {
			return true
		}
	}
	return false
}

// touches reports whether instruction in names a register of the set.
func (m *mmaPending) touches(in *isa.Instr) bool { return m.touchesOperands(in, 0) }

// touchesOperands reports whether in's operands from the from-th on name
// a register of the set.
func (m *mmaPending) touchesOperands(in *isa.Instr, from int) bool {
	for i := from; i < len(in.Ops); i++ {
		if m.operandTouches(&in.Ops[i]) {
			return true
		}
	}
	return false
}

// operandTouches reports whether operand o names a register of the set: a
// register, or a pair (SASS's 64-bit operands, MPair; the frontends spell
// a vector as one operand a register).
func (m *mmaPending) operandTouches(o *isa.Operand) bool {
	n := int32(1)
	if o.Mod.Has(isa.MPair) {
		n = 2
	}
	switch o.Kind {
	case isa.KReg:
		return m.holds(o.Reg, n)
	case isa.KAddr, isa.KConst:
		return m.holds(o.Reg, n) || o.Mod.Has(isa.MIndex) && m.holds(o.Index, 1)
	}
	return false
}

// join waits for the warp's wgmmas and empties the set.
func (m *mmaPending) join() {
	if !m.any {
		return
	}
	m.jobs.Wait()
	clear(m.regs)
	m.any = false
	if r := m.fault; r != nil {
		m.fault = nil
		panic(r)
	}
}
