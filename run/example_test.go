package run_test

import (
	"fmt"

	"github.com/smsim/smsim/run"
)

// Running a kernel through the run API, as `smsim run` does: a Spec spells
// the launch, Job reads it against the file, Execute simulates it. The
// producer/consumer ring of examples/tma_pipeline.sms on the built-in h200
// configuration; its barriers' per-phase history is in the Result.
func Example() {
	j, err := run.Spec{Config: "h200", Launches: 1}.Job("../examples/tma_pipeline.sms")
	if err != nil {
		fmt.Println(err)
		return
	}
	out, err := run.Execute(j)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("error:", out.Err)
	fmt.Println("block:", j.Block, "warp instructions:", out.WarpInstrs)
	for _, b := range out.Result.Barriers[:2] {
		fmt.Printf("%s: %d phases\n", b.Name, len(b.Phases))
	}
	fmt.Println("cycles > 0:", out.Result.Cycles > 0)
	// Output:
	// error: <nil>
	// block: [160 1 1] warp instructions: 18142
	// full[0]: 4 phases
	// empty[0]: 4 phases
	// cycles > 0: true
}
