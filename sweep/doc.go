// Package sweep runs experiments of many runs: a grid of settings (Axis,
// Setting: a configuration key as --set, a kernel parameter as --arg, or a
// .sms constant rewritten in place), expanded row-major (GridPoint) and
// shared out deterministically (Shard, from --shard or a Slurm job
// array), each point run through the run API into a Record (Grid.RunPoint,
// Grid.RunPoints on several workers); the records' JSON-lines and CSV
// forms, read back for resuming (Results) and joined from shards
// (MergeFiles); and comparisons of variants side by side (Variant,
// Compare).
//
// Where the records go (a locked results file, stdout), progress bars and
// the tables of a comparison are the command line's (cmd/smsim).
package sweep
