package sm

import (
	"fmt"
	"strings"

	"github.com/smsim/smsim/isa"
)

// DiagKind classifies why a run stopped.
type DiagKind uint8

// Diagnostic kinds. Each maps to its own exit status in the CLI.
const (
	DiagMisuse   DiagKind = iota + 1 // undefined behaviour of the program (barrier misuse, bad access, trap)
	DiagDeadlock                     // every live warp blocked, nothing in flight can release them
	DiagLivelock                     // warps spin on phases nothing can complete
	DiagLimit                        // --max-cycles reached
	DiagInput                        // the program or launch cannot run (unsupported instruction, bad launch)
)

// String names the kind.
func (k DiagKind) String() string {
	switch k {
	case DiagMisuse:
		return "misuse"
	case DiagDeadlock:
		return "deadlock"
	case DiagLivelock:
		return "livelock"
	case DiagLimit:
		return "limit"
	case DiagInput:
		return "input"
	}
	return "error"
}

// Diag is an error that stops a run, with everything a user needs to find
// the cause: the source position, the warp and lanes, the barrier and phase.
// Error() is one line; Detail holds the state dump for deadlocks and limits.
type Diag struct {
	Kind    DiagKind
	Code    string // short machine-readable code, e.g. "over-arrival", "uninitialized-barrier"
	Pos     isa.Pos
	Cycle   uint64
	Warp    int // -1 when not about one warp
	Lanes   uint32
	Barrier string // name or shared address
	Phase   int64  // -1 when not about one phase
	Msg     string
	Detail  []string // further lines (waiters, pending counts, last arrivals)
}

// Error formats the diagnostic on one line.
func (d *Diag) Error() string {
	var b strings.Builder
	if d.Pos.File != "" {
		b.WriteString(d.Pos.String() + ": ")
	}
	b.WriteString(d.Kind.String() + ": " + d.Msg)
	var ctx []string
	if d.Barrier != "" {
		s := "barrier " + d.Barrier
		if d.Phase >= 0 {
			s += fmt.Sprintf(" phase %d", d.Phase)
		}
		ctx = append(ctx, s)
	}
	if d.Warp >= 0 {
		s := fmt.Sprintf("warp %d", d.Warp)
		if d.Lanes != 0 {
			s += " lanes " + LaneList(d.Lanes)
		}
		ctx = append(ctx, s)
	}
	ctx = append(ctx, fmt.Sprintf("cycle %d", d.Cycle))
	b.WriteString(" (" + strings.Join(ctx, ", ") + ")")
	return b.String()
}

// LaneList formats a lane mask as ranges: "0-15,20".
func LaneList(m uint32) string {
	var parts []string
	for l := 0; l < 32; {
		if m>>l&1 == 0 {
			l++
			continue
		}
		e := l
		for e+1 < 32 && m>>(e+1)&1 != 0 {
			e++
		}
		if e == l {
			parts = append(parts, fmt.Sprint(l))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", l, e))
		}
		l = e + 1
	}
	return strings.Join(parts, ",")
}
