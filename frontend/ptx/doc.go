// Package ptx is smsim's PTX frontend, for PTX as written by `nvcc -ptx`
// for sm_90a (CUDA 12/13, PTX ISA up to 9.x): Parse builds a syntax tree;
// Load checks the module's function names (each defined once) and lays out
// its data, and Unit.Lower lowers one kernel entry to the isa program
// representation (lower*.go: registers, state spaces and the address map,
// inlined calls, every instruction form with its exact semantics, or an
// error naming the instruction and its line — nothing is skipped), so that
// a kernel with an instruction smsim does not run leaves the others
// runnable. Compile lowers them all or fails.
//
// The parser accepts what nvcc, inline asm and libcu++ (cuda::barrier,
// cuda::ptx, cooperative_groups, cuda::memcpy_async) emit and records every
// node's position. Parse never panics; on malformed input
// it returns an *Error whose Error() is one line "FILE:LINE:COL: message"
// (LINE and COL are 1-based, COL counts bytes), where the message says what
// was expected and what was found.
//
// # Grammar accepted
//
// Lexically: `//` and `/* */` comments; words ([A-Za-z_$%][A-Za-z0-9_$.]*,
// with "::" allowed between word characters, so `shared::cta` and
// `%tid.x` are single words); directives ('.' followed by a word); numbers
// (starting with a digit, checked by the parser); strings; and the
// punctuation , ; : { } [ ] ( ) < > = + - ! @ |.
//
// Module scope:
//
//	.version N.N   .target t {, t}   .address_size N
//	.file N "path" [, timestamp, size]        (no semicolon)
//	.section NAME { ... }                     (contents skipped, braces balanced)
//	.pragma "s" {, "s"} ;
//	[.visible|.extern|.weak|.common] variable-declaration
//	[.visible|.extern|.weak|.common] (.entry|.func) [(returns)] NAME [(params)] {attr} (body | ;)
//
// Function attributes between the parameters and the body are kept as
// Attr: .maxntid, .reqntid, .minnctapersm, .maxnctapersm, .maxnreg,
// .explicitcluster, .reqnctapercluster, .maxclusterrank, .noreturn,
// .blocksareclusters, .abi_preserve, .abi_preserve_control (each with
// comma-separated integers) and .pragma "s";.
//
// Variable declarations (module scope, bodies, and parameter lists, where
// one name is allowed per parameter and no initializer):
//
//	SPACE {.align N | .vN | .ptr [SPACE] [.align N] | .attribute(.a {, .b}) | TYPE} NAME [<N>] {[N] | []} [= INIT] {, NAME ...} ;
//
// INIT is a number (optionally negated), `sym[+N]`, `generic(sym[+N])[+N]`,
// a mask `0xFF00(sym...)`, or a possibly nested `{ INIT, ... }` list.
//
// Bodies contain nested `{ }` blocks (inline asm scopes with their own
// declarations), labels `NAME:`, labelled `.callprototype`,
// `.branchtargets` and `.calltargets`, `.loc F L C [, function_name L]
// [, inlined_at F L C]` (no semicolon), `.pragma`, declarations, and
// instructions:
//
//	[@[!]PRED] OPCODE[.mod...] [operand {, operand}] ;
//
// Operands: registers (`%r1`, `%tid.x`, plain names declared .reg in an
// enclosing scope), symbols and labels (`sym`, `sym+4`), immediates
// (decimal, 0x hex, 0b binary, leading-0 octal, U suffix, 0f/0d IEEE bits,
// decimal floats; negated with '-'; and WARP_SZ, the PTX ISA's predefined
// constant, read as the immediate 32 and not declarable), addresses (`[r]`, `[r+N]`, `[r+-N]`,
// `[sym+N]`, `[N]`, `[r, {coords}]`), vectors `{a, _, b}`, the sink `_`,
// `!p`, pairs `a|b`, and call argument lists `(a, b)`.
//
// # Left to lowering
//
// The parser does not check that opcodes, modifiers, types or operand
// counts are valid, that names are declared (except to tell a plain
// register name from a symbol), that labels exist, or that immediates fit
// their types. Symbols are not resolved: a *Sym may name a variable, a
// parameter, a label, a function or a call prototype. Register ranges are
// recorded as a base name and count, not expanded. .loc trailing
// function_name/inlined_at details and .section contents are dropped;
// .file names are kept in Module.Files.
//
// Limits: inputs over MaxInputSize bytes are rejected, and blocks and
// initializer lists may nest at most 100 levels.
package ptx
