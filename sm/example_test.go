package sm_test

import (
	"fmt"

	"github.com/smsim/smsim/sm"
)

// Every timing parameter is a named key with a unit, a meaning and the
// measurement it comes from (sm/keys.go); a what-if study sets keys, as
// `smsim run --set` and `smsim sweep --vary set:KEY=...` do.
func ExampleConfig_Set() {
	cfg := sm.DefaultConfig()
	before, _ := cfg.Get("syncs.latency")
	if err := cfg.Set("syncs.latency", "60"); err != nil {
		fmt.Println(err)
		return
	}
	after, _ := cfg.Get("syncs.latency")
	fmt.Println("syncs.latency", before, "->", after)
	fmt.Println(cfg.Set("syncs.latency", "fast"))
	fmt.Println(cfg.Set("no.such.key", "1"))
	// Output:
	// syncs.latency 36 -> 60
	// config syncs.latency: want a non-negative integer, got "fast"
	// config: unknown key "no.such.key" (smsim config show lists them)
}
