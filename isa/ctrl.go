package isa

// Ctrl is the schedule a compiler wrote into a machine instruction: what the
// hardware obeys instead of tracking dependences itself. Volta and later
// (Hopper included) carry it in each 128-bit SASS instruction's control bits
// (frontend/sass decodes them). The hardware does not check fixed-latency
// dependences at all: the stall counts are the schedule. Variable-latency
// results (memory, the barrier unit, conversions, transcendental functions)
// are tracked by six dependency scoreboards, which an instruction sets and
// later instructions wait on.
//
// A program whose instructions carry a compiler's schedule has
// Program.Scheduled set; the SM then times it by these fields rather than by
// its own register scoreboard (docs/sass.md).
type Ctrl struct {
	// Stall is the number of cycles after this instruction issues before the
	// warp may issue its next one (0-15).
	Stall uint8
	// Yield asks the scheduler to prefer another warp after this one.
	Yield bool
	// WriteSB is the scoreboard released when this instruction's result is
	// written, or NoSB.
	WriteSB uint8
	// ReadSB is the scoreboard released when this instruction has read its
	// source registers (stores, whose sources are read late), or NoSB.
	ReadSB uint8
	// Wait is the mask of scoreboards (bit k for scoreboard k) that must be
	// released before this instruction issues.
	Wait uint8
	// Reuse is the operand-reuse-cache mask (bit k: source slot k is kept for
	// the next instruction).
	Reuse uint8
}

// NoSB means an instruction sets no scoreboard.
const NoSB uint8 = 7

// NumSB is the number of dependency scoreboards a warp has.
const NumSB = 6
