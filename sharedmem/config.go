package sharedmem

import "fmt"

// Config holds the shared-memory parameters of one SM.
type Config struct {
	// Capacity is the shared memory of one SM in bytes (H200: 228 KiB).
	Capacity int
	// MaxPerBlock is the most one CTA may use in bytes (H200: 227 KiB; the
	// driver reserves 1 KiB per CTA).
	MaxPerBlock int
	// Banks is the number of banks (32).
	Banks int
	// BankBytes is the width of one bank in bytes (4).
	BankBytes int
	// ConflictCycles is the cost of each wavefront beyond the first
	// (measured on H200: +2 cycles per extra conflicting address).
	ConflictCycles int
	// WavefrontCycles is how long the SM's shared memory takes to serve one
	// wavefront (128 bytes: one word from each bank), whichever sub-partition
	// asked for it; 0 is no limit. Measured on H200: 1 (calibration/h200
	// smem.csv: 32-, 64- and 128-bit loads from all four sub-partitions run
	// 4.00, 8.00 and 16.00 cycles a warp instruction per sub-partition, 128
	// bytes a cycle in all).
	WavefrontCycles int
	// Queue is how many shared-memory instructions of one sub-partition may
	// wait for its pipe (the MIO queue) before its warps stop issuing them.
	Queue int
	// AtomicCycles is how much longer an atomic (ATOMS) takes than a load of
	// the same words: the read-modify-write. Measured on H200: a chain of
	// atom.shared.add.u32 runs 26.04 cycles a link, loads 23.26
	// (calibration/h200 pipeline.csv).
	AtomicCycles int
}

// DefaultConfig returns the H200 parameters.
func DefaultConfig() Config {
	return Config{
		Capacity:        228 << 10,
		MaxPerBlock:     227 << 10,
		Banks:           32,
		BankBytes:       4,
		ConflictCycles:  2,
		AtomicCycles:    3,
		WavefrontCycles: 1,
		Queue:           4,
	}
}

// maxBanks bounds Banks so that Wavefronts can count on the stack.
const maxBanks = 64

// Validate reports the first field that is out of range, by name.
func (c Config) Validate() error {
	switch {
	case c.Capacity <= 0:
		return fmt.Errorf("sharedmem: Capacity %d must be positive", c.Capacity)
	case c.MaxPerBlock <= 0 || c.MaxPerBlock > c.Capacity:
		return fmt.Errorf("sharedmem: MaxPerBlock %d must be in 1..Capacity (%d)", c.MaxPerBlock, c.Capacity)
	case c.Banks <= 0 || c.Banks > maxBanks || c.Banks&(c.Banks-1) != 0:
		return fmt.Errorf("sharedmem: Banks %d must be a power of two in 1..%d", c.Banks, maxBanks)
	case c.BankBytes < 4 || c.BankBytes&(c.BankBytes-1) != 0:
		return fmt.Errorf("sharedmem: BankBytes %d must be a power of two of at least 4", c.BankBytes)
	case c.ConflictCycles < 0:
		return fmt.Errorf("sharedmem: ConflictCycles %d must not be negative", c.ConflictCycles)
	case c.AtomicCycles < 0:
		return fmt.Errorf("sharedmem: AtomicCycles %d must not be negative", c.AtomicCycles)
	case c.Queue < 0 || c.Queue > MaxQueue:
		return fmt.Errorf("sharedmem: Queue %d must be 0 to %d", c.Queue, MaxQueue)
	case c.WavefrontCycles < 0:
		return fmt.Errorf("sharedmem: WavefrontCycles %d must not be negative", c.WavefrontCycles)
	}
	return nil
}

// ExtraCycles returns the extra cycles an access of the given number of
// wavefronts costs over a conflict-free one: ConflictCycles per wavefront
// beyond the first. (A method cannot share the field's name, hence Extra.)
func (c Config) ExtraCycles(wavefronts int) int {
	if wavefronts <= 1 {
		return 0
	}
	return (wavefronts - 1) * c.ConflictCycles
}

// MaxQueue is the deepest MIO queue (Queue) the model takes.
const MaxQueue = 64
