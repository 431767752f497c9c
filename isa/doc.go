// Package isa is the program representation that both frontends (PTX and the
// .sms kernel language in frontend/sms) lower to and that warps execute. Nothing
// downstream of it knows which frontend produced a program.
//
// The representation is close to PTX after symbol resolution: a flat slice of
// instructions per kernel, branch targets as instruction indices, every
// register a 64-bit per-lane slot (narrower types use the low bits), predicates
// in their own numbered file, and addresses as (register + constant offset) in
// a named state space. Frontends resolve symbols, register names, vector
// operands and .param layouts; isa fixes the meaning of every opcode and
// modifier so that the executor in warp/ has one definition to implement.
//
// Each instruction also carries a timing Class (which pipe, which latency
// parameter) and its source position, so diagnostics and per-line stall
// reports can point at the .ptx or .sms line.
//
// The analyses that rewrites of a program share live here too: the
// control-flow graph and its basic blocks (NewCFG), natural loops (Loops),
// the registers and predicates each instruction reads and writes (Uses),
// and the dependences of a straight run, by register and by memory state
// space (Dependences). Reconvergence points are computed here (Reconverge)
// from the control-flow graph by immediate post-dominators, for both
// frontends alike. The rewrites themselves — the model of what ptxas does
// to PTX — are package compiler's.
package isa
