// Package run is smsim's run API: it loads a kernel file through the
// frontend its extension names (frontend.go: .ptx, .sms), selects an entry
// (Source.Find: mangled or demangled names, or a substring of one), builds
// a launch from the spelling the command line uses (Spec: block, grid,
// shared memory, --arg values with buf: fills and tensormap: maps, --dump
// specs), wires a machine of an sm.Config (global memory, the memory
// hierarchy, the SM and its TMA unit) and runs it (Execute), returning the
// sm.Result, the dumped buffers, the parameters and the host time the
// reports are made from.
//
// Loading owns the limits on what smsim reads (input.go: every input a
// regular file within a size limit) and the compiler model's pipeline
// (compile.go), applied as a PTX kernel is lowered. Errors are typed: a
// *UsageError is a request wrong whatever the input (a flag value past its
// limits, a kernel name no entry matches), an *InputError an input that
// cannot run; the simulation's own errors are *sm.Diag values in
// Outcome.Err.
//
// It leaves out everything about presentation: reports, timelines and
// profiles are built from an Outcome by package report, and the command
// line (flags, exit statuses, output formats) is cmd/smsim's.
package run
