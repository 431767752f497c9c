package run_test

import (
	"strings"
	"testing"

	"github.com/smsim/smsim/sm"
)

// The deadlock and livelock scenarios a kernel developer hits most, each
// ending in the diagnostic that says which barrier phase is stuck, where the
// warps wait, and what the usual cause is.
func TestStuckScenariosNameTheBarrierThePhaseAndTheCause(t *testing.T) {
	const init1 = "syncthreads\n"
	for _, tc := range []struct {
		name  string
		src   string
		frags []string // in the one-line message
		hint  string   // in the detail ("" = no hint expected)
	}{{
		name: "missing arrive",
		src: `kernel k
block 64
barrier bar
if tid == 0 {
    init bar, 64
}
` + init1 + `if warp == 0 {
    arrive bar
}
wait bar parity 0
`,
		frags: []string{"k.sms:11:1", "barrier bar phase 0", "missing 32 of 64 arrivals"},
	}, {
		name: "expect_tx without arrive",
		src: `kernel k
block 32
barrier bar
shared buf[1024]
global src[1024] seq
if tid == 0 {
    init bar, 1
}
` + init1 + `if tid == 0 {
    expect_tx bar, 1024
    copy.bulk [buf], [src], 1024, bar
}
wait bar parity 0
`,
		frags: []string{"k.sms:14:1", "barrier bar phase 0", "missing 1 of 1 arrivals"},
		hint:  "expect_tx is not an arrival",
	}, {
		name: "wrong initial parity",
		src: `kernel k
block 64
barrier full, empty
if tid == 0 {
    init full, 1
    init empty, 1
}
` + init1 + `if warp == 0 {
    wait empty parity 0
    if lane == 0 {
        arrive full
    }
}
if warp == 1 {
    wait full parity 0
    if lane == 0 {
        arrive empty
    }
}
`,
		frags: []string{"k.sms:10:5", "barrier empty phase 0"},
		hint:  "wait with parity 1",
	}, {
		name: "exit without arrive_drop",
		src: `kernel k
block 64
barrier bar
if tid == 0 {
    init bar, 64
}
` + init1 + `if warp == 1 {
    exit
}
arrive bar
wait bar parity 0
`,
		frags: []string{"k.sms:12:1", "barrier bar phase 0", "missing 32 of 64 arrivals"},
		hint:  "must leave with arrive_drop",
	}, {
		name: "consumer waits on a barrier the producer never signals",
		src: `kernel k
block 64
barrier full[2]
if tid == 0 {
    init full[0], 1
    init full[1], 1
}
` + init1 + `if warp == 0 {
    if lane == 0 {
        arrive full[0]
    }
}
if warp == 1 {
    wait full[1] parity 0
}
`,
		frags: []string{"k.sms:15:5", "barrier full[1] phase 0", "missing 1 of 1 arrivals", "warp 1"},
		hint:  "nothing has arrived on barrier full[1]",
	}, {
		name: "copy byte count never matches",
		src: `kernel k
block 32
barrier bar
shared buf[4096]
global src[4096] seq
if tid == 0 {
    init bar, 1
}
` + init1 + `if tid == 0 {
    arrive.expect_tx bar, 4096
    copy.bulk [buf], [src], 2048, bar
}
wait bar parity 0
`,
		frags: []string{"k.sms:14:1", "barrier bar phase 0", "missing 0 of 1 arrivals and 2048 tx bytes"},
		hint:  "2048 bytes are still expected",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := simulate(t, tc.src, "--set", "watchdog.spin_cycles=20000")
			d := wantDiag(t, err, sm.DiagLivelock, "livelock", tc.frags...)
			detail := strings.Join(d.Detail, "\n")
			if !strings.Contains(detail, "spinning on barrier") {
				t.Errorf("detail does not say where the warps wait:\n%s", detail)
			}
			if tc.hint == "" {
				if strings.Contains(detail, "hint:") {
					t.Errorf("unexpected hint:\n%s", detail)
				}
			} else if !strings.Contains(detail, "hint: ") || !strings.Contains(detail, tc.hint) {
				t.Errorf("detail lacks the hint %q:\n%s", tc.hint, detail)
			}
		})
	}
}

// Half a warp in bar.warp.sync for lanes that went to bar.sync instead: no
// path can move and nothing is in flight, a deadlock found as soon as nothing
// is left to happen, pointing at the first blocked path.
func TestStuckSplitWarpInTwoBarriersIsADeadlock(t *testing.T) {
	_, err := simulate(t, `kernel k
block 32
if lane < 16 {
    syncwarp
} else {
    syncthreads
}
`)
	d := wantDiag(t, err, sm.DiagDeadlock, "deadlock", "k.sms:6:5", "lanes 16-31")
	if detail := strings.Join(d.Detail, "\n"); !strings.Contains(detail, "bar.warp.sync for lanes that never arrive") {
		t.Errorf("detail does not name the other path:\n%s", detail)
	}
}
