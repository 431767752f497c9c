// Package sass reads what an H200 actually executes: SASS listings as `cuobjdump -sass` prints
// them for sm_90a, and the cubins they come from, and lowers their kernels to the isa program
// representation (Load, Module.Lower); it executes nothing itself.
//
// # Lowering
//
// Module.Lower gives one isa instruction per SASS instruction (instruction i at byte 16*i), each
// with its control bits as isa.Ctrl and its listing position; the program is Scheduled and
// reconverges explicitly (BSSY/BSYNC, WARPSYNC). R0-R254 are isa registers 0-254 holding 32 bits,
// UR0-UR62 registers 256-318 (uniform: one value per warp; CompactRegisters, which the run API
// applies, moves them down above the highest general register), P0-P6 predicates 0-6 and UP0-UP6 8-14;
// RZ, URZ, PT and UPT read as immediates and are sinks as destinations. Register pairs, operand
// modifiers, constant-bank words and SASS addresses are isa.Mod and isa.KConst operands. Where the
// PTX ISA has the operation the lowering uses its isa op; the SASS-only ones are isa.OpIAdd3 and
// after. Parameters come from the cubin (with the mangled name's C types) or the name alone. An
// opcode or modifier without a lowering (Opcodes lists those with one) is an *Error at its line
// naming it and its address. docs/sass.md lists the forms and how each semantics was inferred.
//
// # Listings
//
// Parse reads a listing: the header ("code for sm_90a", ".target sm_90a"), then per function
// "Function : NAME", ".headerflags", instruction lines and the end marker "..........". An
// instruction line is
//
//	/*ADDR*/  [@[!]Pn|@[!]UPn] OPCODE[.MOD...] operands ;  /* 0xLO */
//	                                                       /* 0xHI */
//
// or the same without the two encoding comments. The encodings' control bits time a lowered
// program, so Load takes a listing without them only with its cubin, which gives every word
// (Func.CheckText); without it Load refuses the listing at its first instruction lacking its
// encoding, and LoadFunctional takes it for functional checks. nvdisasm's listings (-c, with or
// without -hex) are read too: ".section .text.NAME" starts a function, label lines (".L_x_12:")
// and label operands ("`(.L_x_12)") resolve to addresses, a BRX's (*"BRANCH_TARGETS ..."*)
// annotation gives Instruction.BranchTargets, and the other directives are skipped. Every operand is typed
// (Operand, Kind): registers of every file (R0-R254 and RZ, UR0-UR62 and URZ, P0-P6 and PT,
// UP0-UP6 and UPT, the convergence barriers B0-B15, the scoreboards SB0-SB5) with .reuse and
// suffixes (.64, .H0_H0, .H1...), special registers (SR_TID.X, SR_CLOCKLO, SRZ, PR), integers
// (cuobjdump prints them in hex), floats (printed in decimal, or ±INF, ±QNAN), constant banks
// (c[0x0][0x210], c[0x2][R6+0x18], cx[UR4][R0]), addresses ([R2.64+UR4+0x10], desc[UR4][...]),
// register lists and branch targets. Which integer operand is a target is decided by the opcode
// (BRA, BSSY, CALL, JMP, WARPSYNC.COLLECTIVE); the displacement in the encoding agrees with every
// target of the committed SASS. BRX and RET print a displacement added to a register, kept as an
// integer. Every function carries its branch-target map (Function.Labels).
//
// Malformed text stops the parse with one *Error at file:line:col. Lines, operands and modifiers
// are bounded, so memory stays proportional to the input. The committed SASS (54 listings, 16 MB,
// 69,688 instructions) parses without an error or an unknown operand, every instruction prints back
// as cuobjdump wrote it, and the whole of it parses in about a tenth of a second.
//
// # Control bits
//
// Volta and later GPUs, Hopper included, put the compiler's schedule into bits 105-125 of every
// 128-bit instruction (Jia et al., "Dissecting the NVIDIA Volta GPU Architecture via
// Microbenchmarking", 2018; calibration/h200/sassctl.py reads the same layout). Control decodes:
// the stall count (4 bits), the yield bit (set means do not yield; Control.Yield is true when it
// is clear, as sassctl.py prints "Y"), the scoreboard set when the result is written and when the
// sources have been read (3 bits each, 7 = none), the 6-bit mask of scoreboards waited on, and 4
// register-reuse flags. Checked over the committed SASS: the reuse flags number exactly the
// .reuse operands (bit 3 never set); bits 0-8 are one opcode value per mnemonic, and bits 0-11 are
// never shared by two base opcodes (Encoding.Opcode); bits 12-15 are the guard predicate and its
// negation (Encoding.Guard). The bit positions of branch displacements used by the tests are
// inferred from the corpus.
//
// # Cubins
//
// ReadCubin decodes an sm_90 cubin with debug/elf: per function (.text.NAME) its 16-byte
// instructions, its .nv.info.NAME records, constant banks (.nv.constantN.NAME; bank 0 is the
// parameter bank), the .nv.shared.NAME size and alignment; per module the global .nv.info,
// .nv.constantN banks, .nv.global and .nv.global.init, symbols, relocations and the
// .note.nv.cuinfo (SM and CUDA API version) and .note.nv.tkinfo (tool strings) notes.
//
// .nv.info is a stream of records: a format byte (EIFMT_NVAL 1, BVAL 2, HVAL 3 with a 16-bit
// value; SVAL 4 with a 16-bit size and a payload), an attribute code (EIATTR_*), then the value or
// payload. NVIDIA does not document them; the code table follows the public EIATTR tables of
// cubin tools and of a reverse-engineering write-up of ptxas 13.0. What NVIDIA's own cuobjdump -elf
// prints for three cubins (testdata/cubin/*.elf.txt: attrs.cubin, made to carry the launch-shape,
// cluster and register-limit attributes, and two calibration cubins) equals this package's reading
// record for record: name, format and value (TestAttributesMatchCuobjdump). The values were also
// checked against the cubins' ptxas -v reports, their PTX and their cuobjdump listings. Every
// record is kept (Func.Info, Cubin.Info), decoded or not. Decoded:
//
//   - KPARAM_INFO (0x17): ordinal, offset, size, pointee log2 alignment and space, cbank field;
//     count and sizes equal the PTX .entry parameters of all 372 kernels.
//   - PARAM_CBANK (0x0a): where the parameter block lies in bank 0, c[0x0][0x210] on sm_90;
//     CBANK_PARAM_SIZE (0x19) agrees.
//   - REGCOUNT (0x2f), FRAME_SIZE (0x11), MIN_STACK_SIZE (0x12), MAX_STACK_SIZE (0x23), keyed by
//     symbol in the global section; NUM_BARRIERS (0x4c). Registers, barriers, stack frame and
//     "cumulative stack size" equal every ptxas -v report.
//   - EXIT_INSTR_OFFSETS (0x1c), S2RCTAID_INSTR_OFFSETS (0x1d), COOP_GROUP_INSTR_OFFSETS (0x28)
//     with COOP_GROUP_MASK_REGIDS (0x29), INT_WARP_WIDE_INSTR_OFFSETS (0x31),
//     MBARRIER_INSTR_OFFSETS (0x39: offset, kind, address operand and stride, as cuobjdump names
//     them), INDIRECT_BRANCH_TARGETS (0x34, BRX offset and its targets): every offset is an
//     instruction of the listing (EXITs at EXIT, mbarrier entries at SYNCS or NOP, jump tables at
//     BRX, whose targets are instructions too).
//   - NUM_MBARRIERS (0x38), MAXREG_COUNT (0x1b), CRS_STACK_SIZE (0x1e), CUDA_API_VERSION (0x37),
//     SW_WAR (0x36, a value of unpublished meaning).
//   - MAX_THREADS (0x05), REQNTID (0x10), CTA_PER_CLUSTER (0x3d) as x, y, z; EXPLICIT_CLUSTER
//     (0x3e) as a flag; MAX_CLUSTER_RANK (0x3f) as one word: attrs.cubin has them, from the PTX
//     directives .maxntid, .reqntid, .reqnctapercluster, .explicitcluster and .maxclusterrank.
//     BLOCKS_ARE_CLUSTERS (0x5b) is read as a flag after the public tables; no cubin here has it.
//   - SHARED_SCRATCH (0x32), RESERVED_SMEM_USED (0x41), RESERVED_SMEM_0_SIZE (0x42): no cubin here
//     has them; they are read after their names alone (a value, a flag, a value) and records of
//     another shape are only kept.
//
// Static shared memory is the .nv.shared.NAME size less the 1 KiB the CUDA runtime reserves per
// block on sm_80 and later, which ptxas 13.0 places at the start of the section (SASS addresses
// the first variable at 0x400); the difference equals every "bytes smem" of the ptxas reports, as
// .nv.global with .nv.global.init equals their "bytes gmem".
// Func.CheckText compares a listing with the code word for word; every committed listing matches
// its cubin.
//
// # Parameters without a cubin
//
// ParamTypes derives C parameter types from an Itanium mangled name (scalars, pointers,
// CUtensorMap by value; extern "C" names give ErrNotMangled) and LayoutParams places them by
// aligning the constant-bank address, which reproduces the cubin layout of all 333 mangled kernels
// of the repository (a leading CUtensorMap, 128-byte aligned, sits at c[0x0][0x280]).
//
// testdata/cubin/gen.sh says how the toolkit outputs the tests compare against were made.
//
// # Inventory
//
// SeenMnemonics and testdata/inventory.txt list every opcode+modifier combination of the
// committed SASS with its count and operand forms: the checklist of what must execute.
//
// # Not decoded
//
// The instruction words beyond the control bits, opcode and guard fields (operands are taken
// from the text); the meaning of modifiers; the .nv.callgraph, .nv.compat and .debug_frame
// sections; relocation type names (Reloc.Type is the number); EIATTR_KPARAM_INFO_V2 and the other
// attribute codes not listed above (kept raw: SPARSE_MMA_MASK and MERCURY_ISA_VERSION, which
// ptxas 13.0 writes into every function, among them); the ELF e_flags bits.
package sass
