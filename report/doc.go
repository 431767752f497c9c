// Package report makes what smsim reports from a run's outcome
// (run.Outcome): the report document (Build: kernel, cycles, barriers
// with their phases, warps with their stall reasons, dumps, TMA counters,
// the simulator's speed), its text tables and tidy CSV (WriteTable,
// WriteCSV) and JSON (WriteJSON); the observers that watch a run, the
// Chrome-trace timeline (Timeline) and the instruction profile (Profile,
// attributing every warp cycle to an instruction as Nsight Compute's source
// view does); and the statistics of barrier phases and waits that compare,
// sweep, stats and the plots use (BarrierStats, Distribution, Histogram,
// Stats).
//
// Rates, means and percentiles are computed here with gonum, and tables
// drawn with tablewriter, so that the model's packages keep plain counters.
// Which report, in which format, to which file is the command line's choice
// (cmd/smsim).
package report
